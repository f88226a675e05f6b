//! The module index: every named item of the module, which file declares it, and the
//! duplicate-declaration diagnostics.

use crate::{file_hir, Db, Module, SourceFile};
use ferro_addrs::Resource;
use ferro_diag::{Diagnostic, Span};
use std::collections::BTreeMap;

/// Where an item is declared: the file and its position in that file's item list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ItemRef {
    pub file: SourceFile,
    pub index: usize,
}

/// How a resource declares several instances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expansion {
    Count,
    ForEach,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModuleIndex {
    pub variables: BTreeMap<String, ItemRef>,
    pub locals: BTreeMap<String, ItemRef>,
    pub outputs: BTreeMap<String, ItemRef>,
    pub resources: BTreeMap<Resource, ItemRef>,
    /// The resources with `count` or `for_each`, and which of the two.
    pub expanded: BTreeMap<Resource, Expansion>,
    /// Provider configurations by (local name, alias).
    pub providers: BTreeMap<(String, Option<String>), ItemRef>,
    /// `required_providers` entries by local name.
    pub required_providers: BTreeMap<String, ItemRef>,
    /// Module calls by name.
    pub module_calls: BTreeMap<String, ItemRef>,
    pub diagnostics: Vec<Diagnostic>,
}

fn duplicate(kind: &str, what: &str, name: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::error(
        &format!("duplicate-{kind}"),
        format!("Duplicate {what} declaration"),
    )
    .with_detail(format!(
        "A {what} named {name:?} was already declared. {} names must be unique within a module.",
        capitalize(what)
    ))
    .with_span(span)
    .with_label(first, "first declared here")
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

#[salsa::tracked(returns(ref))]
pub fn module_index(db: &dyn Db, module: Module) -> ModuleIndex {
    let mut idx = ModuleIndex::default();
    let mut first_spans: BTreeMap<(u8, String), Span> = BTreeMap::new();
    for &file in module.files(db) {
        let hir = file_hir(db, file);
        let mut add = |kind: u8, key: String, span: Span, diag_kind: &str, what: &str| -> bool {
            match first_spans.get(&(kind, key.clone())) {
                Some(first) => {
                    idx.diagnostics
                        .push(duplicate(diag_kind, what, &key, span, *first));
                    false
                }
                None => {
                    first_spans.insert((kind, key), span);
                    true
                }
            }
        };
        for (i, v) in hir.variables.iter().enumerate() {
            if add(0, v.name.clone(), v.span, "variable", "variable") {
                idx.variables
                    .insert(v.name.clone(), ItemRef { file, index: i });
            }
        }
        for (i, l) in hir.locals.iter().enumerate() {
            if add(1, l.name.clone(), l.span, "local", "local value") {
                idx.locals
                    .insert(l.name.clone(), ItemRef { file, index: i });
            }
        }
        for (i, o) in hir.outputs.iter().enumerate() {
            if add(2, o.name.clone(), o.span, "output", "output") {
                idx.outputs
                    .insert(o.name.clone(), ItemRef { file, index: i });
            }
        }
        for (i, r) in hir.resources.iter().enumerate() {
            if add(3, r.addr.to_string(), r.span, "resource", "resource") {
                idx.resources
                    .insert(r.addr.clone(), ItemRef { file, index: i });
                match (r.count, r.for_each) {
                    (Some(_), _) => {
                        idx.expanded.insert(r.addr.clone(), Expansion::Count);
                    }
                    (_, Some(_)) => {
                        idx.expanded.insert(r.addr.clone(), Expansion::ForEach);
                    }
                    _ => {}
                }
            }
        }
        for (i, p) in hir.providers.iter().enumerate() {
            let key = match &p.alias {
                Some(a) => format!("{}.{a}", p.name),
                None => p.name.clone(),
            };
            if add(4, key, p.span, "provider", "provider configuration") {
                idx.providers.insert(
                    (p.name.clone(), p.alias.clone()),
                    ItemRef { file, index: i },
                );
            }
        }
        for (i, rp) in hir.required_providers.iter().enumerate() {
            if add(
                5,
                rp.local_name.clone(),
                rp.span,
                "required-provider",
                "required provider",
            ) {
                idx.required_providers
                    .insert(rp.local_name.clone(), ItemRef { file, index: i });
            }
        }
        for (i, c) in hir.module_calls.iter().enumerate() {
            if add(6, c.name.clone(), c.span, "module", "module call") {
                idx.module_calls
                    .insert(c.name.clone(), ItemRef { file, index: i });
            }
        }
    }
    idx
}
