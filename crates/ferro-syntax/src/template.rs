//! Turning the flat sequence of template pieces the parser reads (literal text, `${}`
//! interpolations, `%{}` directive tags) into template parts: unescaping, heredoc indentation
//! removal, strip markers (`~`) and directive nesting (`if`/`else`/`endif`, `for`/`endfor`).

use crate::ast::{Expr, Ident, SmolStr, TemplatePart};
use crate::error::PErr;
use crate::lexer::{tspan, urange, TSpan};
use ferro_diag::{FileId, Span};
use std::borrow::Cow;

/// One piece of a template as the grammar reads it.
#[derive(Debug, Clone)]
pub(crate) enum Piece {
    Text(TSpan),
    Interp {
        expr: Expr,
        strip_left: bool,
        strip_right: bool,
        span: TSpan,
    },
    Tag {
        tag: Tag,
        strip_left: bool,
        strip_right: bool,
        span: TSpan,
    },
}

#[derive(Debug, Clone)]
pub(crate) enum Tag {
    If(Expr),
    Else,
    EndIf,
    For {
        key_var: Option<Ident>,
        value_var: Ident,
        collection: Expr,
    },
    EndFor,
}

impl Piece {
    fn strips(&self) -> (bool, bool) {
        match self {
            Piece::Text(_) => (false, false),
            Piece::Interp {
                strip_left,
                strip_right,
                ..
            }
            | Piece::Tag {
                strip_left,
                strip_right,
                ..
            } => (*strip_left, *strip_right),
        }
    }
}

/// The pieces of one template as the grammar collects them: the first inline (most templates
/// are a single literal), the rest in a vector allocated only when there are more.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pieces {
    first: Option<Piece>,
    rest: Vec<Piece>,
}

impl IntoIterator for Pieces {
    type Item = Piece;
    type IntoIter = std::iter::Chain<std::option::IntoIter<Piece>, std::vec::IntoIter<Piece>>;
    fn into_iter(self) -> Self::IntoIter {
        self.first.into_iter().chain(self.rest)
    }
}

impl chumsky::container::Container<Piece> for Pieces {
    fn push(&mut self, piece: Piece) {
        if self.first.is_none() && self.rest.is_empty() {
            self.first = Some(piece);
        } else {
            self.rest.push(piece);
        }
    }
}

/// An `if` or `for` directive not closed yet.
struct Open {
    tag: Tag,
    start: usize,
    /// End of the opening directive.
    open_end: usize,
    then: Vec<TemplatePart>,
    in_else: bool,
    otherwise: Vec<TemplatePart>,
}

/// How the literal text of a template is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flavor {
    Quoted,
    Heredoc { indented: bool },
}

/// Build the template parts; problems go to `errs`.
pub(crate) fn build(
    file: FileId,
    src: &str,
    pieces: Pieces,
    (flavor, close): (Flavor, TSpan),
    errs: &mut Vec<PErr>,
) -> Vec<TemplatePart> {
    let pieces: Vec<Piece> = pieces.into_iter().collect();
    let mut texts = literal_texts(src, &pieces, flavor, errs);
    // Nest the directives with an explicit stack (no recursion).
    let mut done: Vec<TemplatePart> = Vec::with_capacity(pieces.len());
    let mut stack: Vec<Open> = Vec::new();
    fn target<'v>(
        stack: &'v mut [Open],
        done: &'v mut Vec<TemplatePart>,
    ) -> &'v mut Vec<TemplatePart> {
        match stack.last_mut() {
            Some(o) if o.in_else => &mut o.otherwise,
            Some(o) => &mut o.then,
            None => done,
        }
    }
    let sp = |s: usize, e: usize| Span::new(file, s..e);
    for (i, p) in pieces.into_iter().enumerate() {
        match p {
            Piece::Text(s) => {
                let text = std::mem::take(&mut texts[i]);
                if !text.is_empty() {
                    target(&mut stack, &mut done).push(TemplatePart::Literal {
                        text: SmolStr::new(&text),
                        span: sp(s.start as usize, s.end as usize),
                    });
                }
            }
            Piece::Interp {
                expr,
                strip_left,
                strip_right,
                span,
            } => {
                target(&mut stack, &mut done).push(TemplatePart::Interpolation {
                    expr: Box::new(expr),
                    strip_left,
                    strip_right,
                    span: sp(span.start as usize, span.end as usize),
                });
            }
            Piece::Tag { tag, span, .. } => match tag {
                Tag::If(_) | Tag::For { .. } => stack.push(Open {
                    tag,
                    start: span.start as usize,
                    open_end: span.end as usize,
                    then: Vec::new(),
                    in_else: false,
                    otherwise: Vec::new(),
                }),
                Tag::Else | Tag::EndIf | Tag::EndFor => {
                    let word = match tag {
                        Tag::Else => "else",
                        Tag::EndIf => "endif",
                        _ => "endfor",
                    };
                    let Some(top) = stack.last_mut() else {
                        errs.push(unexpected(
                            span,
                            word,
                            "The control directives within this template are unbalanced.".into(),
                        ));
                        continue;
                    };
                    let at = ferro_diag::range_mark(sp(top.start, top.open_end));
                    let is_if = matches!(top.tag, Tag::If(_));
                    // What HCL says when the directive does not fit the one open; that one is
                    // then abandoned (closed as it is) and the template goes on after it.
                    let wrong = match (word, is_if) {
                        ("else", true) if !top.in_else => {
                            top.in_else = true;
                            continue;
                        }
                        ("endif", true) | ("endfor", false) => None,
                        ("else", true) => {
                            Some(format!("Already in the else clause for the if started at {at}."))
                        }
                        ("else", false) => {
                            Some("An else clause is not expected for a for directive.".into())
                        }
                        (_, true) => {
                            Some(format!("Expecting an endif directive for the if started at {at}."))
                        }
                        (_, false) => Some(format!(
                            "Expecting an endfor directive corresponding to the for directive at {at}."
                        )),
                    };
                    if let Some(detail) = wrong {
                        errs.push(unexpected(span, word, detail));
                    }
                    if let Some(o) = stack.pop() {
                        let part = close_open(o, &sp, span.end as usize);
                        target(&mut stack, &mut done).push(part);
                    }
                }
            },
        }
    }
    while let Some(o) = stack.pop() {
        let end = o
            .otherwise
            .last()
            .or(o.then.last())
            .map_or(o.start + 2, part_end);
        let (open, word) = if matches!(o.tag, Tag::If(_)) {
            ("if", "endif")
        } else {
            ("for", "endfor")
        };
        errs.push(PErr::custom(
            close,
            "syntax-unclosed-template-directive",
            "Unexpected end of template",
            format!(
                "The {open} directive at {} is missing its corresponding {word} directive.",
                ferro_diag::range_mark(sp(o.start, o.open_end))
            ),
        ));
        let part = close_open(o, &sp, end);
        target(&mut stack, &mut done).push(part);
    }
    // Trees are kept for the whole run: no spare capacity (parts are large).
    done.shrink_to_fit();
    done
}

/// The part an open directive makes once closed (or abandoned), ending at `end`.
fn close_open(o: Open, sp: &dyn Fn(usize, usize) -> Span, end: usize) -> TemplatePart {
    close(
        o.tag,
        o.then,
        o.in_else.then_some(o.otherwise),
        sp(o.start, end),
        sp(o.start, o.open_end),
    )
}

fn close(
    tag: Tag,
    mut then: Vec<TemplatePart>,
    mut otherwise: Option<Vec<TemplatePart>>,
    span: Span,
    open_span: Span,
) -> TemplatePart {
    then.shrink_to_fit();
    if let Some(o) = &mut otherwise {
        o.shrink_to_fit();
    }
    match tag {
        Tag::For {
            key_var,
            value_var,
            collection,
        } => TemplatePart::For(Box::new(crate::ast::TemplateFor {
            key_var,
            value_var,
            collection,
            body: then,
            span,
            open_span,
        })),
        Tag::If(cond) => TemplatePart::If {
            cond: Box::new(cond),
            then,
            otherwise,
            span,
        },
        // Only if/for tags are ever opened.
        Tag::Else | Tag::EndIf | Tag::EndFor => TemplatePart::Literal {
            text: SmolStr::default(),
            span,
        },
    }
}

fn part_end(p: &TemplatePart) -> usize {
    match p {
        TemplatePart::Literal { span, .. }
        | TemplatePart::Interpolation { span, .. }
        | TemplatePart::If { span, .. } => span.end as usize,
        TemplatePart::For(f) => f.span.end as usize,
    }
}

fn unexpected(span: TSpan, word: &str, detail: String) -> PErr {
    let summary = match word {
        "else" => "Unexpected else directive",
        "endif" => "Unexpected endif directive",
        _ => "Unexpected endfor directive",
    };
    PErr::custom(span, "syntax-template-directive-mismatch", summary, detail)
}

/// The literal text of every `Text` piece (empty for the others), as HCL builds it: escapes
/// processed, then strip markers applied, then (`<<-` heredocs) the common indentation removed.
///
/// HCL's scanner cuts the literal of a heredoc or template file into one token per line (each
/// ending with its newline); a strip marker trims only the token next to it (so at most one
/// line break goes), and the indentation is measured on the tokens as the strip markers left
/// them: a line whose leading spaces a `~` removed has none, and then nothing is removed.
fn literal_texts(src: &str, pieces: &[Piece], flavor: Flavor, errs: &mut Vec<PErr>) -> Vec<String> {
    let by_line = flavor != Flavor::Quoted;
    // Per piece, its literal tokens (one for a quoted template's text).
    let mut tokens: Vec<Vec<String>> = Vec::with_capacity(pieces.len());
    for (i, p) in pieces.iter().enumerate() {
        let Piece::Text(s) = p else {
            tokens.push(Vec::new());
            continue;
        };
        let text = unescape(&src[urange(*s)], !by_line, s.start as usize, errs);
        let mut toks: Vec<String> = if by_line {
            text.split_inclusive('\n').map(str::to_owned).collect()
        } else {
            vec![text.into_owned()]
        };
        if toks.is_empty() {
            toks.push(String::new());
        }
        if i > 0 && pieces[i - 1].strips().1 {
            let first = &mut toks[0];
            *first = first.trim_start().to_owned();
        }
        if pieces.get(i + 1).is_some_and(|n| n.strips().0) {
            if let Some(last) = toks.last_mut() {
                last.truncate(last.trim_end().len());
            }
        }
        tokens.push(toks);
    }
    if flavor == (Flavor::Heredoc { indented: true }) {
        flush_indentation(pieces, &mut tokens);
    }
    tokens.into_iter().map(|t| t.concat()).collect()
}

/// Remove the common indentation of a `<<-` heredoc from the literal tokens that start a line
/// (HCL's rule: a token of only whitespace ending with its newline is a blank line and does not
/// count; an interpolation or directive starting a line means no indentation at all).
fn flush_indentation(pieces: &[Piece], tokens: &mut [Vec<String>]) {
    let mut min = usize::MAX;
    let mut newline = true;
    let mut adjust: Vec<(usize, usize)> = Vec::new();
    for (i, p) in pieces.iter().enumerate() {
        if !matches!(p, Piece::Text(_)) {
            if newline {
                min = 0;
            }
            newline = false;
            continue;
        }
        for (k, tok) in tokens[i].iter().enumerate() {
            if newline {
                let rest = tok.trim_start();
                if !(rest.is_empty() && tok.ends_with('\n')) {
                    min = min.min(tok[..tok.len() - rest.len()].chars().count());
                    adjust.push((i, k));
                }
            }
            newline = tok.ends_with('\n');
        }
    }
    if min == 0 || min == usize::MAX {
        return;
    }
    for (i, k) in adjust {
        let tok = &mut tokens[i][k];
        let cut = tok.char_indices().nth(min).map_or(tok.len(), |(b, _)| b);
        tok.drain(..cut);
    }
}

/// Process escapes: `$${` and `%%{` always, backslash escapes in quoted templates.
pub(crate) fn unescape<'s>(
    raw: &'s str,
    quoted: bool,
    base: usize,
    errs: &mut Vec<PErr>,
) -> Cow<'s, str> {
    if !raw.contains(['\\', '$', '%']) {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '$' | '%' if raw[i + 1..].starts_with(c) && raw[i + 2..].starts_with('{') => {
                out.push(c);
                out.push('{');
                chars.next();
                chars.next();
            }
            '\\' if quoted => {
                let Some((_, e)) = chars.next() else {
                    out.push('\\');
                    break;
                };
                match e {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    '"' => out.push('"'),
                    '\\' => out.push('\\'),
                    'u' | 'U' => {
                        let len = if e == 'u' { 4 } else { 8 };
                        let hex = raw.get(i + 2..i + 2 + len).unwrap_or("");
                        let ch = (hex.len() == len && hex.bytes().all(|b| b.is_ascii_hexdigit()))
                            .then(|| u32::from_str_radix(hex, 16).ok().and_then(char::from_u32))
                            .flatten();
                        match ch {
                            Some(ch) => {
                                out.push(ch);
                                for _ in 0..len {
                                    chars.next();
                                }
                            }
                            None => {
                                errs.push(bad_escape(base + i, base + i + 2, &format!("\\{e}")));
                                out.push(e);
                            }
                        }
                    }
                    other => {
                        let end = i + 1 + other.len_utf8();
                        errs.push(bad_escape(base + i, base + end, &raw[i..end]));
                        out.push(other);
                    }
                }
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn bad_escape(start: usize, end: usize, seq: &str) -> PErr {
    PErr::custom(
        tspan(start..end),
        "syntax-invalid-escape",
        "Invalid escape sequence",
        format!(
            "The escape sequence {seq:?} is not valid in a quoted string. The valid escapes are \
             \\n, \\r, \\t, \\\", \\\\, \\uNNNN and \\UNNNNNNNN; write \\\\ for a literal backslash."
        ),
    )
}
