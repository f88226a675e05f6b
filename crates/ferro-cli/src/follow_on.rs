//! No follow-on errors: Terraform checks a configuration by walking its graph, and an item
//! whose check failed stops the walk below it (what refers to it, directly or not, is not
//! checked at all), and a resource whose type its provider does not have is not checked
//! further. ferro's static checks look at every item; this module drops what Terraform's walk
//! would never have reported: the diagnostics of items downstream of an item with errors, and
//! the other diagnostics of a resource of an unknown type. What the loader reports (syntax,
//! declarations, deprecated forms) is always kept, as Terraform reports it before any walk.

use crate::load::Loaded;
use ferro_db::{
    item_graph, item_references, module_tree, resolve_provider, Item, ItemId, RefTarget, Referrer,
};
use ferro_diag::{Diagnostic, FileId};
use std::collections::{BTreeSet, HashMap, HashSet};

/// Drop from `diags` what Terraform's walk would not report; `loaded` are the loader's
/// diagnostics, which stay.
pub(crate) fn drop_follow_on(l: &Loaded, loaded: &[Diagnostic], diags: &mut Vec<Diagnostic>) {
    if diags.is_empty() {
        return;
    }
    let db = &l.db;
    let Ok(graph) = item_graph(db, l.ws) else {
        return;
    };
    let tree = module_tree(db, l.ws);
    let refs = item_references(db, l.ws);

    // Each item's declaration starts a region of its file that ends where the next top-level
    // block starts. Provider blocks are regions of their own; an argument of a module call is
    // the child's input variable (Terraform checks the value there).
    let mut starts: HashMap<FileId, Vec<u32>> = HashMap::new();
    let mut at: HashMap<(FileId, u32), Vec<Item>> = HashMap::new();
    for (item, loc) in &refs.items {
        let s = loc.span(db);
        starts.entry(s.file).or_default().push(s.start);
        at.entry((s.file, s.start)).or_default().push(item.clone());
    }
    // Provider blocks no resource uses: Terraform leaves them out of its graph unchecked.
    let mut used = HashSet::new();
    for (node, tn) in tree.nodes.iter().enumerate() {
        for item in ferro_db::module_index(db, tn.module).resources.values() {
            let decl = &ferro_db::file_hir(db, item.file).resources[item.index];
            let (local, alias) = decl.provider_ref();
            if let Ok(cfg) = resolve_provider(db, tree, node, local, alias.map(str::to_string)) {
                used.insert(cfg);
            }
        }
    }
    let mut unused_blocks: HashSet<(FileId, u32)> = HashSet::new();
    let mut inputs: HashMap<FileId, Vec<(ferro_diag::Span, Item)>> = HashMap::new();
    for (node, tn) in tree.nodes.iter().enumerate() {
        for ((local, alias), item) in &ferro_db::module_index(db, tn.module).providers {
            let hir = ferro_db::file_hir(db, item.file);
            let s = hir.at(hir.providers[item.index].span);
            starts.entry(s.file).or_default().push(s.start);
            let cfg = resolve_provider(db, tree, node, local, alias.clone());
            if cfg.is_ok_and(|c| !used.contains(&c)) {
                unused_blocks.insert((s.file, s.start));
            }
        }
        for (name, item) in &ferro_db::module_index(db, tn.module).module_calls {
            let Some(&child) = tn.children.get(name) else {
                continue;
            };
            let hir = ferro_db::file_hir(db, item.file);
            for a in &hir.module_calls[item.index].inputs {
                let var = Item {
                    node: child,
                    id: ItemId::Var(a.name.clone()),
                };
                let at = hir.at(a.span);
                inputs.entry(at.file).or_default().push((at, var));
            }
        }
    }
    for v in starts.values_mut() {
        v.sort_unstable();
        v.dedup();
    }
    let region = |d: &Diagnostic| -> Option<(FileId, u32)> {
        let s = d.span?;
        let heads = starts.get(&s.file)?;
        let i = heads.partition_point(|&h| h <= s.start).checked_sub(1)?;
        Some((s.file, heads[i]))
    };
    let owners = |d: &Diagnostic| -> Vec<&Item> {
        if let Some(s) = d.span {
            let within = inputs
                .get(&s.file)
                .into_iter()
                .flatten()
                .filter(|(a, _)| a.start <= s.start && s.end <= a.end)
                .map(|(_, item)| item)
                .collect::<Vec<_>>();
            if !within.is_empty() {
                return within;
            }
        }
        region(d)
            .and_then(|r| at.get(&r))
            .map(|items| items.iter().collect())
            .unwrap_or_default()
    };

    // What each item refers to, as items.
    let mut deps: HashMap<&Item, BTreeSet<Item>> = HashMap::new();
    for (who, target) in &refs.refs {
        let Referrer::Item(who) = who else { continue };
        let out = deps.entry(who).or_default();
        match target {
            RefTarget::Item(t) => {
                out.insert(t.clone());
            }
            RefTarget::Module { node, call, output } => {
                out.insert(Item {
                    node: *node,
                    id: ItemId::ModuleCall(call.clone()),
                });
                if let Some(&child) = tree.nodes[*node].children.get(call) {
                    for (item, _) in &refs.items {
                        let named = match (&item.id, output) {
                            (ItemId::Output(o), Some(want)) => o == want,
                            (ItemId::Output(_), None) => true,
                            _ => false,
                        };
                        if item.node == child && named {
                            out.insert(item.clone());
                        }
                    }
                }
            }
            RefTarget::ModuleContents { node, call } => {
                out.insert(Item {
                    node: *node,
                    id: ItemId::ModuleCall(call.clone()),
                });
            }
        }
    }

    let loaded: HashSet<&Diagnostic> = loaded.iter().collect();
    let is_loaded = |d: &Diagnostic| loaded.contains(d);
    let mut with_errors: HashSet<&Item> = HashSet::new();
    let mut unknown_type: HashSet<&Item> = HashSet::new();
    for d in diags.iter().filter(|d| d.is_error()) {
        for item in owners(d) {
            with_errors.insert(item);
            if d.code == "invalid-resource-type" {
                unknown_type.insert(item);
            }
        }
    }
    // In the walk's order: an item below a failed or skipped one is skipped.
    let mut failed: HashSet<&Item> = HashSet::new();
    let mut skipped: HashSet<&Item> = HashSet::new();
    for item in &graph.order {
        let below = deps
            .get(item)
            .is_some_and(|ds| ds.iter().any(|d| failed.contains(d) || skipped.contains(d)));
        if below {
            skipped.insert(item);
        } else if with_errors.contains(item) {
            failed.insert(item);
        }
    }
    diags.retain(|d| {
        if is_loaded(d) {
            return true;
        }
        if region(d).is_some_and(|r| unused_blocks.contains(&r)) {
            return false;
        }
        let items = owners(d);
        if items.is_empty() {
            return true;
        }
        let all = |f: &dyn Fn(&Item) -> bool| items.iter().all(|i| f(i));
        if all(&|i| skipped.contains(i)) {
            return false;
        }
        !(all(&|i| unknown_type.contains(i)) && d.code != "invalid-resource-type")
    });
}
