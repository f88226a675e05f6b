//! Go to definition, find references and rename, on ferro-db's `file_sites`, `resolve` and
//! `references_index`: across files and across module boundaries (a call's arguments are
//! references of the called module's variables, `module.x.out` of its outputs).

use super::{location, Doc};
use crate::server::{invalid_params, RpcError};
use ferro_db::{ModuleSymbol, Site, SiteTarget, SourceFile, Symbol};
use serde_json::{json, Map, Value};

/// The files of the module a call of the document's module loads, as locations of their start.
fn module_files(doc: &Doc<'_>, call: &str) -> Value {
    let db = &doc.w.db;
    let Some(module) = doc.module() else {
        return Value::Null;
    };
    let Some(child) = ferro_db::called_module(db, doc.w.ws, module, call) else {
        return Value::Null;
    };
    let locs: Vec<Value> = child
        .files(db)
        .iter()
        .map(|&f| {
            let start = ferro_diag::Span {
                file: f.id(db),
                start: 0,
                end: 0,
            };
            location(doc.w, f, start, doc.utf8)
        })
        .collect();
    Value::Array(locs)
}

pub fn definition(doc: &Doc<'_>, offset: u32) -> Result<Value, RpcError> {
    let db = &doc.w.db;
    let Some(site) = ferro_db::site_at(db, doc.file, offset) else {
        return Ok(Value::Null);
    };
    match &site.target {
        SiteTarget::ModuleSource(call) => return Ok(module_files(doc, call)),
        SiteTarget::Own(Symbol::ModuleCall(call)) if site.declaration => {
            return Ok(module_files(doc, call))
        }
        _ => {}
    }
    let Some(sym) = ferro_db::resolve(db, doc.w.ws, doc.file, site) else {
        return Ok(Value::Null);
    };
    Ok(match ferro_db::declaration(db, &sym) {
        Some((f, decl)) => location(doc.w, f, decl.name_span, doc.utf8),
        None => Value::Null,
    })
}

/// The symbol at a position and every site naming it (its declaration first, when found).
fn occurrences(doc: &Doc<'_>, offset: u32) -> Option<(ModuleSymbol, Vec<(SourceFile, Site)>)> {
    let db = &doc.w.db;
    let site = ferro_db::site_at(db, doc.file, offset)?;
    let sym = ferro_db::resolve(db, doc.w.ws, doc.file, site)?;
    let mut out = Vec::new();
    if let Some(d) = ferro_db::declaration(db, &sym) {
        out.push(d);
    }
    if let Some(refs) = ferro_db::references_index(db, doc.w.ws).by_symbol.get(&sym) {
        out.extend(refs.iter().cloned());
    }
    Some((sym, out))
}

pub fn references(doc: &Doc<'_>, offset: u32, include_decl: bool) -> Result<Value, RpcError> {
    let Some((_, sites)) = occurrences(doc, offset) else {
        return Ok(Value::Null);
    };
    let locs: Vec<Value> = sites
        .iter()
        .filter(|(_, s)| include_decl || !s.declaration)
        .map(|(f, s)| location(doc.w, *f, s.name_span, doc.utf8))
        .collect();
    Ok(Value::Array(locs))
}

fn renamable(sym: &Symbol) -> bool {
    !matches!(sym, Symbol::ModuleCall(_))
}

pub fn prepare_rename(doc: &Doc<'_>, offset: u32) -> Result<Value, RpcError> {
    let db = &doc.w.db;
    let Some(site) = ferro_db::site_at(db, doc.file, offset) else {
        return Ok(Value::Null);
    };
    let Some(sym) = ferro_db::resolve(db, doc.w.ws, doc.file, site) else {
        return Ok(Value::Null);
    };
    if !renamable(&sym.symbol) {
        return Ok(Value::Null);
    }
    Ok(json!({"range": doc.range(site.name_span), "placeholder": sym.symbol.name()}))
}

/// Whether `s` is a valid HCL identifier (and so a valid name).
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

pub fn rename(doc: &Doc<'_>, offset: u32, new: &str) -> Result<Value, RpcError> {
    if !is_identifier(new) {
        return Err(invalid_params(format!(
            "{new:?} is not a valid name: a name starts with a letter or underscore and contains only letters, digits, underscores and dashes"
        )));
    }
    let Some((sym, sites)) = occurrences(doc, offset) else {
        return Err(invalid_params(
            "there is no variable, local, output or resource here",
        ));
    };
    if !renamable(&sym.symbol) {
        return Err(invalid_params("module calls cannot be renamed"));
    }
    let db = &doc.w.db;
    let taken = match &sym.symbol {
        Symbol::Variable(_) => Symbol::Variable(new.into()),
        Symbol::Local(_) => Symbol::Local(new.into()),
        Symbol::Output(_) => Symbol::Output(new.into()),
        Symbol::Resource(r) => {
            let mut r = r.clone();
            r.name = new.into();
            Symbol::Resource(r)
        }
        Symbol::ModuleCall(_) => Symbol::ModuleCall(new.into()),
    };
    if sym.symbol != taken
        && ferro_db::declaration(
            db,
            &ModuleSymbol {
                module: sym.module,
                symbol: taken,
            },
        )
        .is_some()
    {
        return Err(invalid_params(format!(
            "the module already declares something named {new:?}"
        )));
    }
    let mut changes: Map<String, Value> = Map::new();
    let mut seen = std::collections::HashSet::new();
    for (f, s) in &sites {
        if !seen.insert((*f, s.name_span.start, s.name_span.end)) {
            continue;
        }
        let loc = location(doc.w, *f, s.name_span, doc.utf8);
        let uri = loc["uri"].as_str().unwrap_or_default().to_string();
        let edit = json!({"range": loc["range"], "newText": new});
        match changes.get_mut(&uri) {
            Some(Value::Array(v)) => v.push(edit),
            _ => {
                changes.insert(uri, json!([edit]));
            }
        }
    }
    Ok(json!({"changes": changes}))
}
