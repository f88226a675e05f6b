//! Values printed the way Terraform prints outputs and console results: HCL-like literals with
//! two-space indentation, `(sensitive value)` for sensitive ones, `(known after apply)` for unknowns.

use ferro_value::{Value, ValueKind};

pub fn format_value(v: &Value, indent: usize) -> String {
    if v.is_sensitive() {
        return "(sensitive value)".into();
    }
    let pad = "  ".repeat(indent + 1);
    let end = "  ".repeat(indent);
    match &v.kind {
        ValueKind::Unknown(_) => "(known after apply)".into(),
        ValueKind::Null(_) => "null".into(),
        ValueKind::Bool(b) => b.to_string(),
        ValueKind::Number(n) => n.to_string(),
        ValueKind::String(s) => quote(s),
        ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => {
            if es.is_empty() {
                return "[]".into();
            }
            let mut out = String::from("[\n");
            for e in es.iter() {
                out.push_str(&format!("{pad}{},\n", format_value(e, indent + 1)));
            }
            out.push_str(&end);
            out.push(']');
            out
        }
        ValueKind::Map(_, m) | ValueKind::Object(m) => {
            if m.is_empty() {
                return "{}".into();
            }
            let width = m.keys().map(|k| key(k).chars().count()).max().unwrap_or(0);
            let mut out = String::from("{\n");
            for (k, e) in m.iter() {
                let k = key(k);
                let gap = " ".repeat(width - k.chars().count());
                out.push_str(&format!(
                    "{pad}{k}{gap} = {}\n",
                    format_value(e, indent + 1)
                ));
            }
            out.push_str(&end);
            out.push('}');
            out
        }
    }
}

fn key(k: &str) -> String {
    let ident = k
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && k.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if ident {
        k.to_string()
    } else {
        quote(k)
    }
}

/// A string literal with Terraform's escaping (including `${` and `%{` as `$${`, `%%{`).
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
