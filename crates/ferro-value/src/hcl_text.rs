//! Values written as HCL expression text (`hclwrite`'s token layout before formatting):
//! what `provider::terraform::encode_expr` returns and what configuration generation writes.
//! Lay the text out with ferro's formatter for what `ferro fmt` would write.

use crate::{Value, ValueKind};

/// Whether `name` is an HCL identifier (so it can be written bare as a key or variable name).
pub fn valid_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {}
        _ => return false,
    }
    chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

/// A quoted HCL string: escapes, template introducers doubled, other unprintable characters
/// as `\uNNNN` / `\UNNNNNNNN`.
pub fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' | '%' => {
                out.push(c);
                if chars.peek() == Some(&'{') {
                    out.push(c);
                }
            }
            c if c.is_control() => {
                let n = c as u32;
                if n < 0x10000 {
                    out.push_str(&format!("\\u{n:04x}"));
                } else {
                    out.push_str(&format!("\\U{n:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A wholly known value as HCL expression text, before layout.
pub fn expr_text(v: &Value, out: &mut String) {
    match &v.kind {
        ValueKind::Null(_) | ValueKind::Unknown(_) => out.push_str("null"),
        ValueKind::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        ValueKind::Number(n) => out.push_str(&n.to_string()),
        ValueKind::String(s) => out.push_str(&quoted(s)),
        ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => {
            out.push('[');
            for (i, e) in es.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                expr_text(e, out);
            }
            out.push(']');
        }
        ValueKind::Map(_, m) | ValueKind::Object(m) => {
            out.push('{');
            if !m.is_empty() {
                out.push('\n');
            }
            for (k, e) in m.iter() {
                if valid_identifier(k) {
                    out.push_str(k);
                } else {
                    out.push_str(&quoted(k));
                }
                out.push_str(" = ");
                expr_text(e, out);
                out.push('\n');
            }
            out.push('}');
        }
    }
}
