//! The layout pass between lexer and parser: drops newlines where they are insignificant (inside
//! `()`, `[]`, `${}` and `{for ...}`), closes brackets left open at the end of the file, and
//! replaces regions nested deeper than [`MAX_DEPTH`] by a single `TooDeep` token so the recursive
//! parser never goes deeper than that.

use crate::lexer::Token;
use crate::lexer::{tspan, urange, TSpan};
use ferro_diag::{Diagnostic, FileId, Span};
use std::ops::Range;

/// The deepest bracket nesting the parser accepts.
pub const MAX_DEPTH: usize = 128;
/// The longest run of prefix operators (`!!!!x`, `- - -x`) the parser accepts.
pub const MAX_UNARY_RUN: usize = 64;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Open {
    Paren,
    Bracket,
    Brace,
    ForBrace,
    Interp,
    Quote,
    Heredoc,
}

pub(crate) fn opener(tok: Token) -> Option<Open> {
    Some(match tok {
        Token::LParen => Open::Paren,
        Token::LBracket => Open::Bracket,
        Token::LBrace => Open::Brace,
        Token::InterpOpen | Token::InterpOpenStrip | Token::DirOpen | Token::DirOpenStrip => {
            Open::Interp
        }
        Token::QuoteOpen => Open::Quote,
        Token::HeredocOpen => Open::Heredoc,
        _ => return None,
    })
}

pub(crate) fn closer(tok: Token) -> Option<Open> {
    Some(match tok {
        Token::RParen => Open::Paren,
        Token::RBracket => Open::Bracket,
        Token::RBrace => Open::Brace,
        Token::TemplClose | Token::StripClose => Open::Interp,
        Token::QuoteClose => Open::Quote,
        Token::HeredocClose => Open::Heredoc,
        _ => return None,
    })
}

pub(crate) fn same(a: Open, b: Open) -> bool {
    a == b || (a == Open::ForBrace && b == Open::Brace) || (a == Open::Brace && b == Open::ForBrace)
}

/// Rewrites `tokens` in place: the output never runs ahead of the input (tokens are only dropped
/// or replaced by one), so one vector serves both.
pub(crate) fn layout(
    file: FileId,
    src_len: usize,
    tokens: &mut Vec<(Token, TSpan)>,
    diags: &mut Vec<Diagnostic>,
) {
    nested_splats(file, tokens, diags);
    let mut stack: Vec<(Open, TSpan)> = Vec::new();
    // Which open braces begin a block body (after a block type or label), as opposed to an
    // object constructor: the two are reported differently when left open.
    let mut block_bodies: Vec<u32> = Vec::new();
    let mut i = 0;
    let mut w = 0;
    let mut unary_run = 0usize;
    while i < tokens.len() {
        let (tok, r) = tokens[i];
        if matches!(tok, Token::Bang | Token::Minus) {
            unary_run += 1;
            if unary_run > MAX_UNARY_RUN {
                if unary_run == MAX_UNARY_RUN + 1 {
                    diags.push(too_deep(file, urange(r)));
                }
                i += 1;
                continue;
            }
        } else {
            unary_run = 0;
        }
        if let Some(mut kind) = opener(tok) {
            if stack.len() >= MAX_DEPTH {
                let end = matching_end(tokens, i);
                let span_end = tokens.get(end).map_or(src_len, |t| t.1.end as usize);
                diags.push(too_deep(file, r.start as usize..span_end));
                tokens[w] = (Token::TooDeep, tspan(r.start as usize..span_end));
                w += 1;
                i = end + 1;
                continue;
            }
            if kind == Open::Brace {
                let mut rest = tokens[i + 1..].iter().filter(|t| t.0 != Token::Newline);
                let (next, after) = (rest.next(), rest.next());
                if matches!(next, Some((Token::For, _)))
                    && !matches!(after, Some((Token::Assign | Token::Colon, _)))
                {
                    kind = Open::ForBrace;
                }
            }
            if kind == Open::Brace
                && w > 0
                && matches!(tokens[w - 1].0, Token::Ident | Token::QuoteClose)
            {
                block_bodies.push(r.start);
            }
            stack.push((kind, r));
        } else if let Some(kind) = closer(tok) {
            if let Some(pos) = stack.iter().rposition(|(k, _)| same(*k, kind)) {
                stack.truncate(pos);
            }
        } else if tok == Token::Newline && !matches!(stack.last(), None | Some((Open::Brace, _))) {
            i += 1;
            continue;
        }
        tokens[w] = (tok, r);
        w += 1;
        i += 1;
    }
    tokens.truncate(w);
    // Close whatever is still open, innermost first.
    let eof = tspan(src_len..src_len);
    while let Some((kind, r)) = stack.pop() {
        let (tok, code, summary, detail) = match kind {
            Open::Paren => (
                Token::RParen,
                "syntax-unclosed-bracket",
                "Unclosed parenthesis",
                "There is no closing ')' for this '(' before the end of the file.",
            ),
            Open::Bracket => (
                Token::RBracket,
                "syntax-unclosed-bracket",
                "Unclosed bracket",
                "There is no closing ']' for this '[' before the end of the file.",
            ),
            // As HCL reports them: at the end of the file, where an argument, a block or an
            // expression was expected.
            // Several blocks left open are one error at the end of the file, as in HCL.
            Open::Brace if block_bodies.contains(&r.start) => {
                let at = Span::new(file, src_len..src_len);
                if diags
                    .iter()
                    .any(|d| d.code == "syntax-unclosed-brace" && d.span == Some(at))
                {
                    tokens.push((Token::RBrace, eof));
                    continue;
                }
                diags.push(
                    Diagnostic::error(
                        "syntax-unclosed-brace",
                        "Argument or block definition required",
                    )
                    .with_detail("An argument or block definition is required here.")
                    .with_span(Span::new(file, src_len..src_len)),
                );
                tokens.push((Token::RBrace, eof));
                continue;
            }
            Open::Brace | Open::ForBrace => {
                let at = Span::new(file, src_len..src_len);
                if diags
                    .iter()
                    .any(|d| d.code == "syntax-unclosed-brace" && d.span == Some(at))
                {
                    tokens.push((Token::RBrace, eof));
                    continue;
                }
                diags.push(
                    Diagnostic::error("syntax-unclosed-brace", "Invalid expression")
                        .with_detail(
                            "Expected the start of an expression, but found an invalid \
                             expression token.",
                        )
                        .with_span(Span::new(file, src_len..src_len)),
                );
                tokens.push((Token::RBrace, eof));
                continue;
            }
            Open::Interp => (
                Token::TemplClose,
                "syntax-unclosed-template-sequence",
                "Unclosed template sequence",
                "There is no closing '}' for this template interpolation or directive before the \
                 end of the file.",
            ),
            Open::Quote => (
                Token::QuoteClose,
                "syntax-unterminated-string",
                "Unterminated template string",
                "No closing quote was found for this string before the end of the file. Add the \
                 closing '\"'.",
            ),
            Open::Heredoc => (
                Token::HeredocClose,
                "syntax-unterminated-heredoc",
                "Unterminated template string",
                "No closing marker was found for this heredoc before the end of the file. The \
                 marker must appear alone on its own line.",
            ),
        };
        diags.push(
            Diagnostic::error(code, summary)
                .with_detail(detail)
                .with_span(Span::new(file, urange(r))),
        );
        tokens.push((tok, eof));
    }
}

fn too_deep(file: FileId, r: Range<usize>) -> Diagnostic {
    Diagnostic::error("syntax-nesting-too-deep", "Expression nested too deeply")
        .with_detail(format!(
            "This expression is nested more than {MAX_DEPTH} levels deep (or has more than \
             {MAX_UNARY_RUN} prefix operators in a row), which ferro does not parse. Split it \
             into smaller parts, for example with local values."
        ))
        .with_span(Span::new(file, r))
}

/// The index of the token closing the opener at `start` (or the last token when unclosed).
fn matching_end(tokens: &[(Token, TSpan)], start: usize) -> usize {
    let mut depth = 0usize;
    for (j, (tok, _)) in tokens.iter().enumerate().skip(start) {
        if opener(*tok).is_some() {
            depth += 1;
        } else if closer(*tok).is_some() {
            depth -= 1;
            if depth == 0 {
                return j;
            }
        }
    }
    tokens.len() - 1
}

/// An attribute-only splat (`a.*.b`) may only continue with `.name` and `.0` steps: a second
/// splat inside it (`a.*.b.*`) is an error, as in HashiCorp's parser.
fn nested_splats(file: FileId, tokens: &[(Token, TSpan)], diags: &mut Vec<Diagnostic>) {
    let name_like = |t: Token| {
        matches!(
            t,
            Token::Ident
                | Token::Number
                | Token::For
                | Token::In
                | Token::If
                | Token::Else
                | Token::EndIf
                | Token::EndFor
                | Token::True
                | Token::False
                | Token::Null
        )
    };
    let mut i = 0;
    while i + 1 < tokens.len() {
        if tokens[i].0 == Token::Dot && tokens[i + 1].0 == Token::Star {
            let mut j = i + 2;
            while j + 1 < tokens.len() && tokens[j].0 == Token::Dot {
                if name_like(tokens[j + 1].0) {
                    j += 2;
                    continue;
                }
                if tokens[j + 1].0 == Token::Star {
                    diags.push(
                        Diagnostic::error("syntax-nested-splat", "Nested splat expression not allowed")
                            .with_detail(
                                "A splat expression (*) cannot be used inside another attribute-only splat \
                                 expression.",
                            )
                            .with_span(Span::new(file, urange(tokens[j + 1].1))),
                    );
                }
                break;
            }
            i = j;
            continue;
        }
        i += 1;
    }
}
