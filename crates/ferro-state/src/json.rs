//! A JSON writer that reproduces Go's `encoding/json` output: `MarshalIndent` layout with a
//! two-space indent, and Go's string escaping (HTML-safe, as Go 1.16 writes it).
//!
//! Object members are written in the map's insertion order (the workspace enables serde_json's
//! `preserve_order`), so callers decide key order. Numbers are written as their stored text
//! (`arbitrary_precision` keeps it; only exponents are normalised by serde_json, `1e3` → `1e+3`,
//! which cty-written JSON never contains).

use serde_json::Value;

/// Append `v` rendered like Go's `json.MarshalIndent(v, "", "  ")` (no trailing newline).
pub fn write_indented(out: &mut String, v: &Value) {
    write_value(out, v, 0);
}

/// Append `v` rendered as [`write_indented`] renders it `depth` levels deep in a document
/// (nested lines indented by `depth + 1` steps, the closing bracket by `depth`).
pub fn write_indented_at(out: &mut String, v: &Value, depth: usize) {
    write_value(out, v, depth);
}

/// Append `v` rendered like Go's `json.Marshal(v)` (compact, no spaces).
pub fn write_compact(out: &mut String, v: &Value) {
    match v {
        Value::Array(a) => {
            out.push('[');
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_compact(out, e);
            }
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, e)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k);
                out.push(':');
                write_compact(out, e);
            }
            out.push('}');
        }
        scalar => write_scalar(out, scalar),
    }
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write_value(out: &mut String, v: &Value, depth: usize) {
    match v {
        Value::Array(a) if a.is_empty() => out.push_str("[]"),
        Value::Array(a) => {
            out.push('[');
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_value(out, e, depth + 1);
            }
            newline(out, depth);
            out.push(']');
        }
        Value::Object(m) if m.is_empty() => out.push_str("{}"),
        Value::Object(m) => {
            out.push('{');
            for (i, (k, e)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write_string(out, k);
                out.push_str(": ");
                write_value(out, e, depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
        scalar => write_scalar(out, scalar),
    }
}

fn write_scalar(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => write_string(out, s),
        Value::Array(_) | Value::Object(_) => write_compact(out, v),
    }
}

/// Append `s` as a JSON string literal with Go's escaping rules.
pub fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' => {
                let b = c as u8;
                out.push_str("\\u00");
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 0xf) as usize] as char);
            }
            c if (c as u32) < 0x20 => {
                let b = c as u8;
                out.push_str("\\u00");
                out.push(HEX[(b >> 4) as usize] as char);
                out.push(HEX[(b & 0xf) as usize] as char);
            }
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn indented(v: &Value) -> String {
        let mut s = String::new();
        write_indented(&mut s, v);
        s
    }

    #[test]
    fn escapes_like_go() {
        let mut s = String::new();
        write_string(
            &mut s,
            "a<b>&c\"d\\e\nf\rg\th\u{1}\u{8}\u{c}\u{1f}\u{7f}\u{2028}\u{2029}é😀",
        );
        assert_eq!(
            s,
            "\"a\\u003cb\\u003e\\u0026c\\\"d\\\\e\\nf\\rg\\th\\u0001\\u0008\\u000c\\u001f\u{7f}\\u2028\\u2029é😀\""
        );
    }

    #[test]
    fn indents_like_marshal_indent() {
        let v = json!({"a": [1, {"b": null}], "c": {}, "d": [], "e": "x"});
        assert_eq!(
            indented(&v),
            "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {},\n  \"d\": [],\n  \"e\": \"x\"\n}"
        );
    }

    #[test]
    fn keeps_number_text() {
        // serde_json normalises exponents (`1e3` is kept as `1e+3`); cty never writes them.
        let v: Value = serde_json::from_str("[1.50, 100000000000000000000000, -0.0, 0.1]").unwrap();
        let mut s = String::new();
        write_compact(&mut s, &v);
        assert_eq!(s, "[1.50,100000000000000000000000,-0.0,0.1]");
    }

    #[test]
    fn scalars_at_top_level() {
        assert_eq!(indented(&json!(true)), "true");
        assert_eq!(indented(&json!("x")), "\"x\"");
        assert_eq!(indented(&Value::Null), "null");
    }
}
