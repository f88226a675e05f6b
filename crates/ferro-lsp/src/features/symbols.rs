//! Document symbols (the items a file declares) and workspace symbols (every module's items
//! whose name contains the query).

use super::{location, Doc};
use crate::world::World;
use ferro_addrs::ResourceMode;
use ferro_db::SourceFile;
use ferro_diag::Span;
use serde_json::{json, Value};

// SymbolKind values.
const S_MODULE: u8 = 2;
const S_NAMESPACE: u8 = 3;
const S_CLASS: u8 = 5;
const S_PROPERTY: u8 = 7;
const S_VARIABLE: u8 = 13;
const S_CONSTANT: u8 = 14;
const S_STRUCT: u8 = 23;

/// (name, kind, header span) of every item a file declares, in source order.
fn items(w: &World, file: SourceFile) -> Vec<(String, u8, Span)> {
    let hir = ferro_db::file_hir(&w.db, file);
    let mut out = Vec::new();
    for v in &hir.variables {
        out.push((format!("var.{}", v.name), S_VARIABLE, hir.at(v.span)));
    }
    for l in &hir.locals {
        out.push((format!("local.{}", l.name), S_CONSTANT, hir.at(l.span)));
    }
    for o in &hir.outputs {
        out.push((format!("output.{}", o.name), S_PROPERTY, hir.at(o.span)));
    }
    for r in &hir.resources {
        let kind = match r.addr.mode {
            ResourceMode::Managed => S_CLASS,
            ResourceMode::Data | ResourceMode::Ephemeral => S_STRUCT,
        };
        out.push((r.addr.to_string(), kind, hir.at(r.span)));
    }
    for c in &hir.module_calls {
        out.push((format!("module.{}", c.name), S_MODULE, hir.at(c.span)));
    }
    for p in &hir.providers {
        let name = match &p.alias {
            Some(a) => format!("provider.{}.{a}", p.name),
            None => format!("provider.{}", p.name),
        };
        out.push((name, S_NAMESPACE, hir.at(p.span)));
    }
    out.sort_by_key(|i| i.2.start);
    out
}

pub fn document_symbols(doc: &Doc<'_>) -> Value {
    let v: Vec<Value> = items(doc.w, doc.file)
        .into_iter()
        .map(|(name, kind, span)| {
            json!({
                "name": name, "kind": kind,
                "range": doc.range(span), "selectionRange": doc.range(span),
            })
        })
        .collect();
    Value::Array(v)
}

/// At most this many workspace symbols are returned.
const MAX_WORKSPACE_SYMBOLS: usize = 500;

pub fn workspace_symbols(w: &World, query: &str, utf8: bool) -> Value {
    let q = query.to_lowercase();
    let mut out = Vec::new();
    for m in w.ws.modules(&w.db) {
        let dir = m.dir(&w.db).clone();
        for &f in m.files(&w.db) {
            for (name, kind, span) in items(w, f) {
                if !name.to_lowercase().contains(&q) {
                    continue;
                }
                out.push(json!({
                    "name": name, "kind": kind,
                    "location": location(w, f, span, utf8),
                    "containerName": if dir == "." { "root module".to_string() } else { dir.clone() },
                }));
                if out.len() >= MAX_WORKSPACE_SYMBOLS {
                    return Value::Array(out);
                }
            }
        }
    }
    Value::Array(out)
}
