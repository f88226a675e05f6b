//! Requests answered from the text alone: formatting (ferro-syntax's formatter, the one
//! `ferro fmt` uses), semantic tokens and folding ranges (from the lexer's tokens).

use super::Doc;
use ferro_syntax::Token;
use serde_json::{json, Value};
use std::ops::Range;

/// The semantic token types, in legend order.
pub const TOKEN_TYPES: &[&str] = &[
    "keyword",
    "type",
    "variable",
    "property",
    "function",
    "string",
    "number",
    "comment",
    "namespace",
];
const T_KEYWORD: u32 = 0;
const T_TYPE: u32 = 1;
const T_VARIABLE: u32 = 2;
const T_PROPERTY: u32 = 3;
const T_FUNCTION: u32 = 4;
const T_STRING: u32 = 5;
const T_NUMBER: u32 = 6;
const T_COMMENT: u32 = 7;
const T_NAMESPACE: u32 = 8;

/// The whole document formatted as `ferro fmt` formats it; no edit when it is already
/// formatted, cannot be parsed, or is in the JSON syntax.
pub fn format(doc: &Doc<'_>) -> Value {
    if ferro_db::is_json_path(&doc.path.to_string_lossy()) {
        return json!([]);
    }
    let Ok(formatted) = ferro_syntax::fmt::format_file(doc.file.id(&doc.w.db), doc.text) else {
        return json!([]);
    };
    if formatted == doc.text {
        return json!([]);
    }
    json!([{"range": doc.idx.range(0, doc.text.len()), "newText": formatted}])
}

fn next_significant(tokens: &[(Token, Range<usize>)], i: usize) -> Option<Token> {
    tokens[i + 1..].iter().map(|t| t.0).find(|t| {
        !matches!(
            t,
            Token::HashComment | Token::SlashComment | Token::BlockCommentStart
        )
    })
}

const ROOTS: &[&str] = &[
    "var",
    "local",
    "module",
    "data",
    "ephemeral",
    "path",
    "count",
    "each",
    "terraform",
    "self",
];

/// The semantic token type of each token worth colouring.
fn classify(text: &str, tokens: &[(Token, Range<usize>)]) -> Vec<(Range<usize>, u32)> {
    let mut out = Vec::new();
    let mut line_start = true;
    let mut prev: Option<Token> = None;
    let mut in_header = false;
    for (i, (tok, range)) in tokens.iter().enumerate() {
        let ty = match tok {
            Token::Ident => {
                let next = next_significant(tokens, i);
                let word = &text[range.clone()];
                if next == Some(Token::LParen) {
                    Some(T_FUNCTION)
                } else if prev == Some(Token::Dot) || (line_start && next == Some(Token::Assign)) {
                    Some(T_PROPERTY)
                } else if line_start {
                    in_header = true;
                    Some(T_KEYWORD)
                } else if next == Some(Token::Dot) && ROOTS.contains(&word) {
                    Some(T_NAMESPACE)
                } else if next == Some(Token::Dot) {
                    Some(T_TYPE)
                } else {
                    Some(T_VARIABLE)
                }
            }
            Token::True | Token::False | Token::Null => Some(T_KEYWORD),
            Token::For | Token::In | Token::If | Token::Else | Token::EndIf | Token::EndFor => {
                Some(T_KEYWORD)
            }
            Token::Number => Some(T_NUMBER),
            Token::TemplText if in_header => Some(T_TYPE),
            Token::QuoteOpen
            | Token::QuoteClose
            | Token::TemplText
            | Token::HeredocOpen
            | Token::HeredocClose => Some(T_STRING),
            Token::HashComment | Token::SlashComment | Token::BlockCommentStart => Some(T_COMMENT),
            _ => None,
        };
        if let Some(ty) = ty {
            if !range.is_empty() {
                out.push((range.clone(), ty));
            }
        }
        match tok {
            Token::Newline | Token::LBrace | Token::RBrace => {
                line_start = true;
                in_header = false;
            }
            Token::HashComment | Token::SlashComment | Token::BlockCommentStart => {}
            _ => line_start = false,
        }
        if *tok == Token::LBrace {
            in_header = false;
        }
        prev = Some(*tok);
    }
    out
}

pub fn semantic_tokens(doc: &Doc<'_>) -> Value {
    let tokens = ferro_syntax::lex(doc.text);
    let mut data: Vec<u32> = Vec::new();
    let (mut last_line, mut last_col) = (0u32, 0u32);
    for (range, ty) in classify(doc.text, &tokens) {
        // Tokens spanning lines (comments, strings) are sent one line at a time.
        let mut start = range.start;
        while start < range.end {
            let line_end = doc.text[start..range.end]
                .find('\n')
                .map(|i| start + i)
                .unwrap_or(range.end);
            if line_end > start {
                let (line, col) = doc.idx.position(start);
                let (_, end_col) = doc.idx.position(line_end);
                let delta_col = if line == last_line {
                    col - last_col
                } else {
                    col
                };
                data.extend([line - last_line, delta_col, end_col - col, ty, 0]);
                last_line = line;
                last_col = col;
            }
            start = line_end + 1;
        }
    }
    json!({"data": data})
}

pub fn folding_ranges(doc: &Doc<'_>) -> Value {
    let tokens = ferro_syntax::lex(doc.text);
    let mut out = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let line = |o: usize| doc.idx.position(o).0;
    let push = |start: usize, end: usize, kind: Option<&str>, out: &mut Vec<Value>| {
        let (s, e) = (line(start), line(end));
        if e > s {
            let mut v = json!({"startLine": s, "endLine": e});
            if let Some(k) = kind {
                v["kind"] = json!(k);
            }
            out.push(v);
        }
    };
    let mut comment_run: Option<(usize, usize)> = None;
    for (tok, range) in &tokens {
        match tok {
            Token::LBrace | Token::LBracket | Token::LParen | Token::HeredocOpen => {
                stack.push(range.start)
            }
            Token::RBrace | Token::RBracket | Token::RParen | Token::HeredocClose => {
                if let Some(s) = stack.pop() {
                    // The closing line stays visible.
                    let end = doc.text[..range.start].rfind('\n').unwrap_or(0);
                    push(s, end.max(s), None, &mut out);
                }
            }
            Token::BlockCommentStart => push(range.start, range.end, Some("comment"), &mut out),
            Token::HashComment | Token::SlashComment => {
                comment_run = match comment_run {
                    Some((s, e)) if line(range.start) == line(e) + 1 => Some((s, range.start)),
                    Some((s, e)) => {
                        push(s, e, Some("comment"), &mut out);
                        Some((range.start, range.start))
                    }
                    None => Some((range.start, range.start)),
                };
            }
            _ => {}
        }
    }
    if let Some((s, e)) = comment_run {
        push(s, e, Some("comment"), &mut out);
    }
    Value::Array(out)
}
