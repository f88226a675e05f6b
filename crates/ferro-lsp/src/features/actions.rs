//! Code action "add missing required attributes": for a resource or data block in the range
//! whose schema has required arguments it does not set, insert them with placeholder values
//! before the block's closing brace.

use super::Doc;
use ferro_value::Type;
use serde_json::{json, Value};

fn placeholder(ty: &Type) -> &'static str {
    match ty {
        Type::String => "\"\"",
        Type::Number => "0",
        Type::Bool => "false",
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => "[]",
        Type::Map(_) | Type::Object(_) => "{}",
        Type::Dynamic => "null",
    }
}

pub fn code_actions(doc: &Doc<'_>, start: usize, end: usize) -> Value {
    let hir = ferro_db::file_hir(&doc.w.db, doc.file);
    let mut out = Vec::new();
    for r in &hir.resources {
        let Some(body) = r.body.span.map(|s| hir.at(s)) else {
            continue;
        };
        if r.body.json || (body.end as usize) < start || (hir.at(r.span).start as usize) > end {
            continue;
        }
        let Some((_, schema)) = doc.w.catalog.resource(r.addr.mode, &r.addr.ty) else {
            continue;
        };
        let missing: Vec<(&String, &Type)> = schema
            .block
            .attributes
            .iter()
            .filter(|(n, a)| a.required && !r.body.attrs.iter().any(|x| &&x.name == n))
            .map(|(n, a)| (n, &a.ty))
            .collect();
        if missing.is_empty() {
            continue;
        }
        // Before the closing brace, on a line of its own.
        // The body's range ends at or just before its closing brace.
        let end = body.end as usize;
        let close = if end > 0 && doc.text.as_bytes().get(end - 1) == Some(&b'}') {
            end - 1
        } else {
            let Some(rest) = doc.text.get(end..) else {
                continue;
            };
            match rest.find(|c: char| !c.is_whitespace()) {
                Some(i) if rest[i..].starts_with('}') => end + i,
                _ => continue,
            }
        };
        let line_start = doc.text[..close].rfind('\n').map(|i| i + 1).unwrap_or(0);
        let only_space = doc.text[line_start..close].trim().is_empty();
        let mut insert = String::new();
        if !only_space {
            insert.push('\n');
        }
        for (n, ty) in &missing {
            insert.push_str(&format!("  {n} = {}\n", placeholder(ty)));
        }
        let at = if only_space { line_start } else { close };
        let names: Vec<&str> = missing.iter().map(|(n, _)| n.as_str()).collect();
        out.push(json!({
            "title": format!("Add missing required attributes to {} ({})", r.addr, names.join(", ")),
            "kind": "quickfix",
            "edit": {"changes": {doc.uri(): [{"range": doc.idx.range(at, at), "newText": insert}]}},
        }));
    }
    Value::Array(out)
}
