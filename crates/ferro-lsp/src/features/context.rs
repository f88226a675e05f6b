//! Where a position is, read from the lexer's tokens so half-typed text works as well as valid
//! text: the enclosing blocks (type and labels), whether the position is in an expression or
//! a block header's label, the traversal being typed (`var.na`), and the attribute names the
//! innermost block already sets.

use ferro_syntax::Token;
use std::collections::BTreeSet;

/// One enclosing `{ … }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    Block {
        ty: String,
        labels: Vec<String>,
    },
    /// An object constructor or another brace inside an expression.
    Expr,
}

#[derive(Debug, Default)]
pub struct Context {
    pub frames: Vec<Frame>,
    /// The position is in an expression (after `=`, inside brackets or an interpolation).
    pub in_expr: bool,
    /// The block type word of the header being typed, when the position is in its n-th label.
    pub in_label: Option<(String, usize)>,
    /// The identifier traversal ending at the position (`var.na`, `aws_instance.web.`).
    pub prefix: String,
    /// Names the innermost block already assigns (anywhere in it).
    pub present: BTreeSet<String>,
    /// Words of the current statement before the position (`resource`, …).
    pub statement: Vec<String>,
}

fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

/// The context at byte `offset` of `text`.
pub fn context_at(text: &str, offset: usize) -> Context {
    let offset = offset.min(text.len());
    let tokens = ferro_syntax::lex(text);
    let mut cx = Context::default();
    // (frame, index of its opening token)
    let mut stack: Vec<(Frame, usize)> = Vec::new();
    let mut nest = 0usize; // ( [ ${ %{ depth within the statement
    let mut stmt: Vec<(Token, String)> = Vec::new();
    let mut quote_label: Option<usize> = None; // labels seen when a quote opened
    let mut names: std::collections::HashMap<usize, BTreeSet<String>> = Default::default();
    let mut target_frame: Option<Option<usize>> = None;
    let mut done = false;
    for (i, (tok, range)) in tokens.iter().enumerate() {
        if !done && range.start >= offset {
            // The position is before this token: capture the state.
            done = true;
            capture(&mut cx, &stack, &stmt, nest, quote_label, text, offset);
            target_frame = Some(stack.last().map(|f| f.1));
        }
        let word = text.get(range.clone()).unwrap_or("").to_string();
        match tok {
            Token::Newline if nest == 0 => stmt.clear(),
            Token::LParen | Token::LBracket | Token::InterpOpen | Token::InterpOpenStrip => {
                nest += 1;
                stmt.push((*tok, word));
            }
            Token::DirOpen | Token::DirOpenStrip => nest += 1,
            Token::RParen | Token::RBracket | Token::TemplClose => {
                nest = nest.saturating_sub(1);
                stmt.push((*tok, word));
            }
            Token::LBrace => {
                let is_expr = nest > 0 || stmt.iter().any(|(t, _)| *t == Token::Assign);
                let frame = if is_expr || stmt.is_empty() {
                    Frame::Expr
                } else {
                    let mut words = stmt.iter().filter_map(|(t, w)| match t {
                        Token::Ident | Token::TemplText => Some(w.clone()),
                        _ => None,
                    });
                    let ty = words.next().unwrap_or_default();
                    Frame::Block {
                        ty,
                        labels: words.collect(),
                    }
                };
                if is_expr {
                    nest += 1;
                    stmt.push((*tok, word));
                } else {
                    stack.push((frame, i));
                    stmt.clear();
                }
            }
            Token::RBrace => {
                if nest > 0 {
                    nest -= 1;
                    stmt.push((*tok, word));
                } else {
                    stack.pop();
                    stmt.clear();
                }
            }
            Token::QuoteOpen => {
                quote_label = Some(stmt.iter().filter(|(t, _)| *t == Token::QuoteClose).count());
                stmt.push((*tok, word));
            }
            Token::QuoteClose => {
                quote_label = None;
                stmt.push((*tok, word));
            }
            Token::Assign if nest == 0 => {
                if let [(Token::Ident, name)] = stmt.as_slice() {
                    let key = stack.last().map(|f| f.1).unwrap_or(usize::MAX);
                    names.entry(key).or_default().insert(name.clone());
                }
                stmt.push((*tok, word));
            }
            Token::HashComment | Token::SlashComment | Token::BlockCommentStart => {}
            _ => stmt.push((*tok, word)),
        }
    }
    if !done {
        capture(&mut cx, &stack, &stmt, nest, quote_label, text, offset);
        target_frame = Some(stack.last().map(|f| f.1));
    }
    let key = target_frame.flatten().unwrap_or(usize::MAX);
    cx.present = names.remove(&key).unwrap_or_default();
    cx
}

fn capture(
    cx: &mut Context,
    stack: &[(Frame, usize)],
    stmt: &[(Token, String)],
    nest: usize,
    quote_label: Option<usize>,
    text: &str,
    offset: usize,
) {
    cx.frames = stack.iter().map(|f| f.0.clone()).collect();
    let in_obj = matches!(cx.frames.last(), Some(Frame::Expr));
    cx.in_expr = nest > 0 || stmt.iter().any(|(t, _)| *t == Token::Assign);
    cx.statement = stmt
        .iter()
        .filter(|(t, _)| *t == Token::Ident)
        .map(|(_, w)| w.clone())
        .collect();
    if let (Some(n), false) = (quote_label, cx.in_expr) {
        if let Some((Token::Ident, ty)) = stmt.first() {
            cx.in_label = Some((ty.clone(), n));
        }
    }
    if in_obj && !cx.in_expr {
        // Keys of an object constructor: nothing to complete but values.
        cx.in_expr = stmt.iter().any(|(t, _)| *t == Token::Colon);
    }
    let before = &text[..floor_char_boundary(text, offset)];
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| ident_char(*c) || *c == '.')
        .last()
        .map(|(i, _)| i)
        .unwrap_or(before.len());
    cx.prefix = before[start..].to_string();
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_labels_and_expressions_are_told_apart() {
        let text = "resource \"random_id\" \"a\" {\n  byte_length = 4\n  ke\n}\nresource \"ran\noutput \"o\" {\n  value = var.x\n}\n";
        let at = |s: &str| text.find(s).unwrap() + s.len();
        let cx = context_at(text, at("  ke"));
        assert_eq!(
            cx.frames,
            [Frame::Block {
                ty: "resource".into(),
                labels: vec!["random_id".into(), "a".into()]
            }]
        );
        assert!(!cx.in_expr);
        assert_eq!(cx.prefix, "ke");
        assert!(cx.present.contains("byte_length"));
        let cx = context_at(text, at("\"ran"));
        assert_eq!(cx.in_label, Some(("resource".into(), 0)));
        let cx = context_at(text, at("var.x"));
        assert!(cx.in_expr);
        assert_eq!(cx.prefix, "var.x");
    }
}
