//! The logos lexer: turns source text into a flat stream of tokens with byte ranges, switching
//! between code, quoted-template and heredoc-template modes, and collecting comments aside.

use crate::ast::{Comment, CommentKind};
use chumsky::span::SimpleSpan;
use ferro_diag::{Diagnostic, FileId, Span};
use logos::Logos;
use std::ops::Range;

/// One token kind. Tokens carry no text: slice the source with the token's range.
///
/// The variants without a logos pattern are produced by the template modes of the lexer driver.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[logos(skip r"[ \t\u{FEFF}]+")]
pub enum Token {
    #[regex(r"\r?\n")]
    Newline,
    #[regex(r"[\p{XID_Start}_][\p{XID_Continue}\-]*")]
    Ident,
    #[token("for")]
    For,
    #[token("in")]
    In,
    #[token("if")]
    If,
    #[token("else")]
    Else,
    #[token("endif")]
    EndIf,
    #[token("endfor")]
    EndFor,
    #[token("true")]
    True,
    #[token("false")]
    False,
    #[token("null")]
    Null,
    #[regex(r"[0-9]+(\.[0-9]+)?([eE][+\-]?[0-9]+)?")]
    Number,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("=")]
    Assign,
    #[token(":")]
    Colon,
    #[token("::")]
    DoubleColon,
    #[token(",")]
    Comma,
    #[token(".")]
    Dot,
    #[token("...")]
    Ellipsis,
    #[token("?")]
    Question,
    #[token("=>")]
    FatArrow,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("!")]
    Bang,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    #[token("<=")]
    LtEq,
    #[token(">")]
    Gt,
    #[token(">=")]
    GtEq,
    #[token("&&")]
    AndAnd,
    #[token("||")]
    OrOr,
    #[token("~}")]
    StripClose,
    /// `"` opening a quoted template.
    #[token("\"")]
    QuoteOpen,
    /// `<<EOT` or `<<-EOT` followed by the end of the line.
    #[regex(r"<<-?[\p{XID_Start}_][\p{XID_Continue}\-]*\r?\n")]
    HeredocOpen,
    #[regex(r"#[^\n]*", allow_greedy = true)]
    HashComment,
    #[regex(r"//[^\n]*", allow_greedy = true)]
    SlashComment,
    #[token("/*")]
    BlockCommentStart,
    /// `"` closing a quoted template (zero-width when the string was unterminated).
    QuoteClose,
    /// The closing marker of a heredoc (zero-width when it was missing).
    HeredocClose,
    /// Raw literal text inside a template (escapes not yet processed).
    TemplText,
    /// `${`
    InterpOpen,
    /// `${~`
    InterpOpenStrip,
    /// `%{`
    DirOpen,
    /// `%{~`
    DirOpenStrip,
    /// `}` closing an interpolation or directive.
    TemplClose,
    /// A region nested too deeply to be parsed (replaced by the layout pass).
    TooDeep,
}

impl Token {
    /// A short description for error messages.
    pub fn describe(self) -> &'static str {
        use Token::*;
        match self {
            Newline => "newline",
            Ident | For | In | If | Else | EndIf | EndFor | True | False | Null => "identifier",
            Number => "number",
            LBrace => "'{'",
            RBrace | TemplClose => "'}'",
            LBracket => "'['",
            RBracket => "']'",
            LParen => "'('",
            RParen => "')'",
            Assign => "'='",
            Colon => "':'",
            DoubleColon => "'::'",
            Comma => "','",
            Dot => "'.'",
            Ellipsis => "'...'",
            Question => "'?'",
            FatArrow => "'=>'",
            Plus | Minus | Star | Slash | Percent | Bang | EqEq | NotEq | Lt | LtEq | Gt | GtEq
            | AndAnd | OrOr => "operator",
            StripClose => "'~}'",
            QuoteOpen | QuoteClose => "quoted string",
            HeredocOpen | HeredocClose => "heredoc",
            HashComment | SlashComment | BlockCommentStart => "comment",
            TemplText => "template text",
            InterpOpen | InterpOpenStrip => "'${'",
            DirOpen | DirOpenStrip => "'%{'",
            TooDeep => "nested expression",
        }
    }
}

/// Tokens of a quoted template's literal part.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
enum QuotedTok {
    #[token("\"")]
    Close,
    #[token("${")]
    Interp,
    #[token("${~")]
    InterpStrip,
    #[token("%{")]
    Dir,
    #[token("%{~")]
    DirStrip,
    #[regex(r#"([^"\\$%\n]|\\[^\n]|\$\$\{|%%\{)+"#)]
    Text,
    #[token("$")]
    #[token("%")]
    Lone,
    #[regex(r"\r?\n")]
    Newline,
}

/// Tokens of a heredoc's literal part (within one line).
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
enum HeredocTok {
    #[token("${")]
    Interp,
    #[token("${~")]
    InterpStrip,
    #[token("%{")]
    Dir,
    #[token("%{~")]
    DirStrip,
    #[regex(r"([^$%\n]|\$\$\{|%%\{)+\n?")]
    Text,
    #[token("$")]
    #[token("%")]
    Lone,
    #[token("\n")]
    Newline,
}

/// A token's byte range. Offsets are `u32`, as in [`Span`], which halves the memory of the token
/// vector (the largest allocation of a parse).
pub(crate) type TSpan = SimpleSpan<u32>;

/// The token span of a byte range.
pub(crate) fn tspan(r: Range<usize>) -> TSpan {
    SimpleSpan::from(r.start as u32..r.end as u32)
}

/// The byte range of a token span.
pub(crate) fn urange(s: TSpan) -> Range<usize> {
    s.start as usize..s.end as usize
}

/// What the lexer produced: significant tokens, comments and lexical diagnostics.
pub(crate) struct LexOutput {
    pub tokens: Vec<(Token, TSpan)>,
    pub comments: Vec<Comment>,
    pub diagnostics: Vec<Diagnostic>,
}

enum Frame {
    /// Code inside `{ }` (or the top level when the stack is empty).
    Brace,
    /// Code inside `${ }` or `%{ }`: a `}` at this level returns to the template.
    Interp,
    Quoted {
        open: usize,
    },
    /// A heredoc's body, closed by a line holding just `marker` (a bare template when `None`:
    /// it runs to the end of the input).
    Heredoc {
        marker: Option<Range<usize>>,
        at_line_start: bool,
    },
}

/// Lex a whole file: every token with its byte range, comments left out.
pub fn lex(text: &str) -> Vec<(Token, Range<usize>)> {
    lex_full(FileId(0), text)
        .tokens
        .into_iter()
        .map(|(t, s)| (t, urange(s)))
        .collect()
}

pub(crate) fn lex_full(file: FileId, src: &str) -> LexOutput {
    // Configuration text averages well over four bytes per token; reserving up front saves the
    // copies of a growing vector (untouched capacity costs no memory).
    let tokens = Vec::with_capacity(src.len() / 3 + 16);
    let mut out = LexOutput {
        tokens,
        comments: Vec::new(),
        diagnostics: Vec::new(),
    };
    lex_into(file, src, Vec::new(), &mut out);
    out
}

/// Lex a bare template (the text of a JSON string, as HCL's `ParseTemplate` reads it): literal
/// text without backslash escapes, `${}` interpolations and `%{}` directives, wrapped in
/// zero-width heredoc open/close tokens so the expression grammar reads it as a heredoc.
pub(crate) fn lex_template(file: FileId, src: &str) -> LexOutput {
    let mut out = LexOutput {
        tokens: vec![(Token::HeredocOpen, tspan(0..0))],
        comments: Vec::new(),
        diagnostics: Vec::new(),
    };
    lex_into(
        file,
        src,
        vec![Frame::Heredoc {
            marker: None,
            at_line_start: false,
        }],
        &mut out,
    );
    out.tokens
        .push((Token::HeredocClose, tspan(src.len()..src.len())));
    out
}

fn lex_into(file: FileId, src: &str, mut stack: Vec<Frame>, out: &mut LexOutput) {
    let mut pos = 0usize;
    let span = |r: Range<usize>| Span::new(file, r);
    while pos < src.len() {
        match stack.last_mut() {
            Some(Frame::Quoted { open }) => {
                let open = *open;
                let mut lx = QuotedTok::lexer(&src[pos..]);
                let Some(res) = lx.next() else { break };
                let r = pos + lx.span().start..pos + lx.span().end;
                pos = r.end;
                match res {
                    Ok(QuotedTok::Close) => {
                        stack.pop();
                        out.tokens.push((Token::QuoteClose, tspan(r)));
                    }
                    Ok(QuotedTok::Interp) => push_open(out, &mut stack, Token::InterpOpen, r),
                    Ok(QuotedTok::InterpStrip) => {
                        push_open(out, &mut stack, Token::InterpOpenStrip, r)
                    }
                    Ok(QuotedTok::Dir) => push_open(out, &mut stack, Token::DirOpen, r),
                    Ok(QuotedTok::DirStrip) => push_open(out, &mut stack, Token::DirOpenStrip, r),
                    Ok(QuotedTok::Text | QuotedTok::Lone) | Err(()) => {
                        push_text(&mut out.tokens, r)
                    }
                    Ok(QuotedTok::Newline) => {
                        out.diagnostics.push(
                            Diagnostic::error("syntax-unterminated-string", "Unterminated template string")
                                .with_detail(
                                    "No closing quote was found for this string before the end of the line. \
                                     Quoted strings cannot span multiple lines: add the closing '\"', or use a \
                                     heredoc (<<EOT) for multi-line text.",
                                )
                                .with_span(span(open..r.start)),
                        );
                        stack.pop();
                        out.tokens
                            .push((Token::QuoteClose, tspan(r.start..r.start)));
                        out.tokens.push((Token::Newline, tspan(r)));
                    }
                }
            }
            Some(Frame::Heredoc {
                marker,
                at_line_start,
            }) => {
                if let (true, Some(marker)) = (*at_line_start, marker.as_ref()) {
                    *at_line_start = false;
                    let line_end = src[pos..].find('\n').map_or(src.len(), |i| pos + i);
                    let line = &src[pos..line_end];
                    let trimmed = line.trim_start_matches([' ', '\t']);
                    let trimmed_end = trimmed.trim_end_matches(['\r', ' ', '\t']);
                    if trimmed_end == &src[marker.clone()] && line_end < src.len() {
                        let start = line_end - line.len() + (line.len() - trimmed.len());
                        out.tokens
                            .push((Token::HeredocClose, tspan(start..start + trimmed_end.len())));
                        pos = start + trimmed_end.len();
                        stack.pop();
                        continue;
                    }
                }
                let mut lx = HeredocTok::lexer(&src[pos..]);
                let Some(res) = lx.next() else { break };
                let r = pos + lx.span().start..pos + lx.span().end;
                pos = r.end;
                match res {
                    Ok(HeredocTok::Interp) => push_open(out, &mut stack, Token::InterpOpen, r),
                    Ok(HeredocTok::InterpStrip) => {
                        push_open(out, &mut stack, Token::InterpOpenStrip, r)
                    }
                    Ok(HeredocTok::Dir) => push_open(out, &mut stack, Token::DirOpen, r),
                    Ok(HeredocTok::DirStrip) => push_open(out, &mut stack, Token::DirOpenStrip, r),
                    Ok(HeredocTok::Text | HeredocTok::Lone | HeredocTok::Newline) | Err(()) => {
                        let nl = src[..r.end].ends_with('\n');
                        push_text(&mut out.tokens, r);
                        if nl {
                            if let Some(Frame::Heredoc { at_line_start, .. }) = stack.last_mut() {
                                *at_line_start = true;
                            }
                        }
                    }
                }
            }
            _ => {
                // Legacy index `a.0.1`: after a dot, a number is only its digits.
                if matches!(out.tokens.last(), Some((Token::Dot, _)))
                    && src.as_bytes()[pos].is_ascii_digit()
                {
                    let mut len = src[pos..].bytes().take_while(u8::is_ascii_digit).count();
                    // An exponent belongs to the index (`a.1e3` is `a[1000]`, as in HashiCorp's
                    // scanner, which reads a whole number literal there).
                    let b = src.as_bytes();
                    if matches!(b.get(pos + len), Some(b'e' | b'E')) {
                        let sign = usize::from(matches!(b.get(pos + len + 1), Some(b'+' | b'-')));
                        let digits = b[(pos + len + 1 + sign).min(b.len())..]
                            .iter()
                            .take_while(|c| c.is_ascii_digit())
                            .count();
                        if digits > 0 {
                            len += 1 + sign + digits;
                        }
                    }
                    let rest = &src.as_bytes()[pos + len..];
                    if rest.first() == Some(&b'.') && rest.get(1).is_some_and(u8::is_ascii_digit) {
                        let more = rest[1..].iter().take_while(|b| b.is_ascii_digit()).count();
                        out.diagnostics.push(
                            Diagnostic::error("syntax-invalid-legacy-index", "Invalid legacy index syntax")
                                .with_detail(
                                    "When using the legacy index syntax, chaining two indexes together is not \
                                     permitted. Use the proper index syntax instead, like [0][0].",
                                )
                                .with_span(span(pos..pos + len + 1 + more)),
                        );
                    }
                    out.tokens.push((Token::Number, tspan(pos..pos + len)));
                    pos += len;
                    continue;
                }
                let mut lx = Token::lexer(&src[pos..]);
                let Some(res) = lx.next() else { break };
                let r = pos + lx.span().start..pos + lx.span().end;
                pos = r.end;
                match res {
                    Err(()) => {
                        let ch = src[r.clone()].chars().next().unwrap_or('?');
                        out.diagnostics.push(
                            Diagnostic::error("syntax-invalid-character", "Invalid character")
                                .with_detail(format!(
                                    "The character {ch:?} (U+{:04X}) is not valid here; it is not part of the \
                                     HCL syntax. Remove it, or put it inside a quoted string.",
                                    ch as u32
                                ))
                                .with_span(span(r)),
                        );
                    }
                    Ok(Token::HashComment) | Ok(Token::SlashComment) => {
                        let kind = if res == Ok(Token::HashComment) {
                            CommentKind::Hash
                        } else {
                            CommentKind::DoubleSlash
                        };
                        let text = src[r.clone()].trim_end_matches('\r');
                        let r = r.start..r.start + text.len();
                        out.comments.push(Comment {
                            kind,
                            text: text.to_string(),
                            span: span(r),
                        });
                    }
                    Ok(Token::BlockCommentStart) => {
                        let end = match src[r.end..].find("*/") {
                            Some(i) => r.end + i + 2,
                            None => {
                                out.diagnostics.push(
                                    Diagnostic::error("syntax-unterminated-comment", "Unterminated comment")
                                        .with_detail(
                                            "This block comment has no closing \"*/\" before the end of the file. \
                                             Add \"*/\" where the comment should end.",
                                        )
                                        .with_span(span(r.clone())),
                                );
                                src.len()
                            }
                        };
                        let text = src[r.start..end].to_string();
                        out.comments.push(Comment {
                            kind: CommentKind::Block,
                            text,
                            span: span(r.start..end),
                        });
                        pos = end;
                    }
                    Ok(Token::LBrace) => {
                        stack.push(Frame::Brace);
                        out.tokens.push((Token::LBrace, tspan(r)));
                    }
                    Ok(tok @ (Token::RBrace | Token::StripClose)) => match stack.last() {
                        Some(Frame::Interp) => {
                            stack.pop();
                            let t = if tok == Token::RBrace {
                                Token::TemplClose
                            } else {
                                tok
                            };
                            out.tokens.push((t, tspan(r)));
                        }
                        Some(Frame::Brace) if tok == Token::RBrace => {
                            stack.pop();
                            out.tokens.push((tok, tspan(r)));
                        }
                        _ => out.tokens.push((tok, tspan(r))),
                    },
                    Ok(Token::QuoteOpen) => {
                        stack.push(Frame::Quoted { open: r.start });
                        out.tokens.push((Token::QuoteOpen, tspan(r)));
                    }
                    Ok(Token::HeredocOpen) => {
                        let text = &src[r.clone()];
                        let skip = if text.starts_with("<<-") { 3 } else { 2 };
                        let word_len = text[skip..]
                            .find(|c: char| c.is_whitespace())
                            .unwrap_or(text.len() - skip);
                        let marker = r.start + skip..r.start + skip + word_len;
                        stack.push(Frame::Heredoc {
                            marker: Some(marker),
                            at_line_start: true,
                        });
                        out.tokens.push((Token::HeredocOpen, tspan(r)));
                    }
                    Ok(tok) => out.tokens.push((tok, tspan(r))),
                }
            }
        }
    }
}

fn push_open(out: &mut LexOutput, stack: &mut Vec<Frame>, tok: Token, r: Range<usize>) {
    stack.push(Frame::Interp);
    out.tokens.push((tok, tspan(r)));
}

/// Append literal text, merging it with a directly preceding text token.
fn push_text(tokens: &mut Vec<(Token, TSpan)>, r: Range<usize>) {
    if let Some((Token::TemplText, prev)) = tokens.last_mut() {
        if prev.end as usize == r.start {
            prev.end = r.end as u32;
            return;
        }
    }
    tokens.push((Token::TemplText, tspan(r)));
}
