//! Signature help: the function call around the position, its parameters and the one the
//! position is in (commas counted at the call's own nesting level).

use super::Doc;
use crate::functions;
use ferro_syntax::Token;
use serde_json::{json, Value};

pub fn help(doc: &Doc<'_>, offset: u32) -> Value {
    let tokens = ferro_syntax::lex(doc.text);
    // One entry per open bracket: the function name for a call's `(`, and the commas seen.
    let mut stack: Vec<(Option<String>, usize)> = Vec::new();
    let mut prev: Option<(Token, String)> = None;
    for (tok, range) in &tokens {
        if range.start >= offset as usize {
            break;
        }
        let word = doc.text.get(range.clone()).unwrap_or("").to_string();
        match tok {
            Token::LParen => {
                let name = match &prev {
                    Some((Token::Ident, w)) => Some(w.clone()),
                    _ => None,
                };
                stack.push((name, 0));
            }
            Token::LBracket | Token::LBrace | Token::InterpOpen | Token::InterpOpenStrip => {
                stack.push((None, 0))
            }
            Token::RParen | Token::RBracket | Token::RBrace | Token::TemplClose => {
                stack.pop();
            }
            Token::Comma => {
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
            }
            _ => {}
        }
        prev = Some((*tok, word));
    }
    let Some((Some(name), commas)) = stack.last().cloned() else {
        return Value::Null;
    };
    if !ferro_eval::function_names().contains(&name.as_str()) {
        return Value::Null;
    }
    let (label, params) = functions::signature_label(&name);
    let variadic = params.last().is_some_and(|p| p.contains("..."));
    let active = if variadic && commas >= params.len() {
        params.len().saturating_sub(1)
    } else {
        commas
    };
    json!({
        "signatures": [{
            "label": label,
            "documentation": functions::description(&name),
            "parameters": params.iter().map(|p| json!({"label": p})).collect::<Vec<_>>(),
        }],
        "activeSignature": 0,
        "activeParameter": active,
    })
}
