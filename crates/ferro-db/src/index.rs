//! The module index: every named item of the module, which file declares it, and the
//! duplicate-declaration diagnostics.

use crate::pending::{Loc, Pending, RANGE_MARK};
use crate::{item_signature, Db, Module, SourceFile};
use ferro_addrs::Resource;
use ferro_diag::Diagnostic;
use ferro_hir::SpanId;
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
    /// Data sources declared inside a `check` block, with the block's name.
    pub scoped_data: BTreeMap<Resource, String>,
    /// The resources with `count` or `for_each`, and which of the two.
    pub expanded: BTreeMap<Resource, Expansion>,
    /// Provider configurations by (local name, alias).
    pub providers: BTreeMap<(String, Option<String>), ItemRef>,
    /// `required_providers` entries by local name.
    pub required_providers: BTreeMap<String, ItemRef>,
    /// Module calls by name.
    pub module_calls: BTreeMap<String, ItemRef>,
    /// `moved` blocks, in file order.
    pub moved: Vec<ItemRef>,
    /// `removed` blocks, in file order.
    pub removed: Vec<ItemRef>,
    /// `import` blocks, in file order.
    pub imports: Vec<ItemRef>,
    /// `check` blocks, in file order.
    pub checks: Vec<ItemRef>,
    /// Second declarations of a name (reported by [`module_index_diagnostics`]).
    pub duplicates: Vec<Pending>,
}

/// Terraform's summary and detail for a second declaration of `key`, the first being `at`.
fn duplicate_text(kind: &str, key: &str, at: &str) -> (String, String) {
    match kind {
        "variable" => (
            "Duplicate variable declaration".into(),
            format!("A variable named {key:?} was already declared at {at}. Variable names must be unique within a module."),
        ),
        "local" => (
            "Duplicate local value definition".into(),
            format!("A local value named {key:?} was already defined at {at}. Local value names must be unique within a module."),
        ),
        "output" => (
            "Duplicate output definition".into(),
            format!("An output named {key:?} was already defined at {at}. Output names must be unique within a module."),
        ),
        "resource" => {
            let (mode, rest) = match key.strip_prefix("data.") {
                Some(rest) => ("data", rest),
                None => ("resource", key),
            };
            let (ty, name) = rest.split_once('.').unwrap_or((rest, ""));
            let what = if mode == "data" { "data resource" } else { "resource" };
            (
                format!("Duplicate {mode} {ty:?} configuration"),
                format!("A {ty} {what} named {name:?} was already declared at {at}. Resource names must be unique per type in each module."),
            )
        }
        "provider" => match key.split_once('.') {
            Some((name, alias)) => (
                "Duplicate provider configuration".into(),
                format!("A provider configuration for {name:?} with alias {alias:?} was already given at {at}. Each configuration for the same provider must have a distinct alias."),
            ),
            None => (
                "Duplicate provider configuration".into(),
                format!("A default (non-aliased) provider configuration for {key:?} was already given at {at}. If multiple configurations are required, set the \"alias\" argument for alternative configurations."),
            ),
        },
        "module" => (
            "Duplicate module call".into(),
            format!("A module call named {key:?} was already defined at {at}. Module calls must have unique names within a module."),
        ),
        "check" => (
            "Duplicate check block".into(),
            format!("A check block named {key:?} was already defined at {at}. Check blocks must be unique within a module."),
        ),
        _ => (
            "Duplicate required provider".into(),
            format!("Provider {key} was required more than once at {at}. Each provider may be required only once."),
        ),
    }
}

fn duplicate(kind: &str, key: &str, at: Loc, first: Loc) -> Pending {
    let (summary, detail) = duplicate_text(kind, key, RANGE_MARK);
    Pending::new(
        Diagnostic::error(&format!("duplicate-{kind}"), summary).with_detail(detail),
        at,
    )
    .with_label(first, "first declared here")
}

/// The names a module declares, read from its files' item trees only (no source positions:
/// moving text around in a file does not change the index).
#[salsa::tracked(returns(ref))]
pub fn module_index(db: &dyn Db, module: Module) -> ModuleIndex {
    let mut idx = ModuleIndex::default();
    let mut first_locs: BTreeMap<(u8, String), Loc> = BTreeMap::new();
    for &file in module.files(db) {
        let hir = item_signature(db, file);
        let mut add = |kind: u8, key: String, span: SpanId, diag_kind: &str| -> bool {
            let at = Loc::new(file, span);
            match first_locs.get(&(kind, key.clone())) {
                Some(first) => {
                    idx.duplicates.push(duplicate(diag_kind, &key, at, *first));
                    false
                }
                None => {
                    first_locs.insert((kind, key), at);
                    true
                }
            }
        };
        for (i, v) in hir.variables.iter().enumerate() {
            if add(0, v.name.clone(), v.span, "variable") {
                idx.variables
                    .insert(v.name.clone(), ItemRef { file, index: i });
            }
        }
        for (i, l) in hir.locals.iter().enumerate() {
            if add(1, l.name.clone(), l.decl_span, "local") {
                idx.locals
                    .insert(l.name.clone(), ItemRef { file, index: i });
            }
        }
        for (i, o) in hir.outputs.iter().enumerate() {
            if add(2, o.name.clone(), o.span, "output") {
                idx.outputs
                    .insert(o.name.clone(), ItemRef { file, index: i });
            }
        }
        for (i, r) in hir.resources.iter().enumerate() {
            if add(3, r.addr.to_string(), r.span, "resource") {
                idx.resources
                    .insert(r.addr.clone(), ItemRef { file, index: i });
                if let Some(c) = r.check() {
                    idx.scoped_data.insert(r.addr.clone(), c.clone());
                }
                if r.count {
                    idx.expanded.insert(r.addr.clone(), Expansion::Count);
                } else if r.for_each {
                    idx.expanded.insert(r.addr.clone(), Expansion::ForEach);
                }
            }
        }
        for (i, p) in hir.providers.iter().enumerate() {
            let key = match &p.alias {
                Some(a) => format!("{}.{a}", p.name),
                None => p.name.clone(),
            };
            if add(4, key, p.span, "provider") {
                idx.providers.insert(
                    (p.name.clone(), p.alias.clone()),
                    ItemRef { file, index: i },
                );
            }
        }
        for (i, rp) in hir.required_providers.iter().enumerate() {
            if add(5, rp.local_name.clone(), rp.span, "required-provider") {
                idx.required_providers
                    .insert(rp.local_name.clone(), ItemRef { file, index: i });
            }
        }
        for i in 0..hir.moved.len() {
            idx.moved.push(ItemRef { file, index: i });
        }
        for i in 0..hir.removed.len() {
            idx.removed.push(ItemRef { file, index: i });
        }
        for i in 0..hir.imports.len() {
            idx.imports.push(ItemRef { file, index: i });
        }
        for (i, c) in hir.checks.iter().enumerate() {
            if add(7, c.name.clone(), c.span, "check") {
                idx.checks.push(ItemRef { file, index: i });
            }
        }
        for (i, c) in hir.module_calls.iter().enumerate() {
            if add(6, c.name.clone(), c.span, "module") {
                idx.module_calls
                    .insert(c.name.clone(), ItemRef { file, index: i });
            }
        }
    }
    idx
}

/// The duplicate-declaration diagnostics of a module, with their ranges.
#[salsa::tracked(returns(ref))]
pub fn module_index_diagnostics(db: &dyn Db, module: Module) -> Vec<Diagnostic> {
    module_index(db, module)
        .duplicates
        .iter()
        .map(|p| p.resolve(db))
        .collect()
}

/// A name references look up in a module.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Name {
    Variable(String),
    Local(String),
    Resource(Resource),
    ModuleCall(String),
}

/// What a module declares under a [`Name`], as far as checking a reference needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declared {
    /// A resource's `count` or `for_each`.
    pub expansion: Option<Expansion>,
    /// The `check` block a scoped data source belongs to.
    pub check: Option<String>,
}

/// Whether `module` declares `name`, and what a reference needs to know of it. One small query
/// per name: it runs again whenever the module's index changes, but gives an equal answer
/// unless this name's declaration changed, so a check that reads only the names it refers to
/// runs again only when one of them did (adding a variable re-checks what names it).
#[salsa::tracked]
pub fn declared(db: &dyn Db, module: Module, name: Name) -> Option<Declared> {
    declared_in(module_index(db, module), &name)
}

/// What `index` declares under `name` (what [`declared`] answers, read from the whole index).
pub fn declared_in(index: &ModuleIndex, name: &Name) -> Option<Declared> {
    let plain = Declared {
        expansion: None,
        check: None,
    };
    match name {
        Name::Variable(n) => index.variables.contains_key(n).then_some(plain),
        Name::Local(n) => index.locals.contains_key(n).then_some(plain),
        Name::ModuleCall(n) => index.module_calls.contains_key(n).then_some(plain),
        Name::Resource(r) => {
            // A scoped data source is known to references (to refuse them outside its check).
            let check = index.scoped_data.get(r).cloned();
            (index.resources.contains_key(r) || check.is_some()).then(|| Declared {
                expansion: index.expanded.get(r).copied(),
                check,
            })
        }
    }
}

/// The provider a local provider name stands for in `module` (its `required_providers`
/// entry, else the default registry's `hashicorp/NAME`), as a query of its own so that what
/// reads it does not depend on the rest of the module's index.
#[salsa::tracked]
pub fn local_provider(db: &dyn Db, module: Module, local: String) -> ferro_addrs::Provider {
    crate::provider_source_or_default(db, module_index(db, module), &local)
}
