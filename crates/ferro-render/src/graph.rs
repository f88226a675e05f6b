//! The dependency graph of a configuration as Terraform 1.0.3's `terraform graph` draws it
//! (its plan, validate and eval graphs), made from the analysis: the items of the static
//! module tree and what they refer to (`ferro_db::item_references`), the provider
//! configuration each resource resolves to, and Terraform's structural vertices (module
//! expansion and closing, provider closing, the count boundary and the root), then reduced
//! transitively and written in DOT (`graph_dot`).

use crate::graph_dot::{DotGraph, Drawn};
use ferro_addrs::{AbsProviderConfig, ConfigResource};
use ferro_db::{item_references, module_tree, Item, ItemId, RefTarget, Referrer, TreeNodeId};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// Which of Terraform's graphs to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraphType {
    /// `plan` and `plan-refresh-only`: resources are `ADDR (expand)`.
    Plan,
    /// `validate`: resources by their address alone.
    Validate,
    /// `eval`: the validate graph without the count boundary.
    Eval,
}

/// `module.a.module.b.` for a static module path (empty for the root).
fn prefix(path: &[String]) -> String {
    path.iter().map(|m| format!("module.{m}.")).collect()
}

/// Terraform's plan graph of the loaded configuration, before reduction.
pub fn build(
    db: &dyn ferro_db::Db,
    ws: ferro_db::Workspace,
    by_resource: &std::collections::BTreeMap<ConfigResource, Arc<AbsProviderConfig>>,
    graph_type: GraphType,
    verbose: bool,
) -> DotGraph {
    let tree = module_tree(db, ws);
    let refs = item_references(db, ws);
    let mut dot = DotGraph::default();
    // The static module each vertex runs in (Terraform's `ModulePath`); None for the vertices
    // that run in none (provider closers, the count boundary, the root).
    let mut scope: Vec<Option<TreeNodeId>> = Vec::new();
    let mut add =
        |dot: &mut DotGraph, name: String, drawn: Option<Drawn>, s: Option<TreeNodeId>| {
            let i = dot.vertex(name, drawn);
            if i == scope.len() {
                scope.push(s);
            }
            i
        };
    let call_path = |node: TreeNodeId| prefix(&tree.nodes[node].path);
    let module_vertex = |child: TreeNodeId, what: &str| {
        let p = call_path(child);
        format!("{} ({what})", p.trim_end_matches('.'))
    };
    // Module expansion and closing vertices, run in the calling module.
    for (child, tn) in tree.nodes.iter().enumerate().skip(1) {
        add(&mut dot, module_vertex(child, "expand"), None, tn.parent);
        add(&mut dot, module_vertex(child, "close"), None, tn.parent);
    }
    let item_vertex = |item: &Item| -> (String, Option<Drawn>) {
        let root = item.node == 0;
        let p = call_path(item.node);
        match &item.id {
            ItemId::Var(n) if root => {
                let name = format!("var.{n}");
                let drawn = Drawn {
                    label: name.clone(),
                    shape: "note",
                };
                (name, Some(drawn))
            }
            ItemId::Var(n) => (format!("{p}var.{n} (expand)"), None),
            ItemId::Local(n) => (format!("{p}local.{n} (expand)"), None),
            ItemId::Output(n) if root => {
                let name = format!("output.{n}");
                let drawn = Drawn {
                    label: name.clone(),
                    shape: "note",
                };
                (name, Some(drawn))
            }
            ItemId::Output(n) => (format!("{p}output.{n} (expand)"), None),
            ItemId::Resource(r) => {
                let label = format!("{p}{r}");
                let name = match graph_type {
                    GraphType::Plan => format!("{label} (expand)"),
                    GraphType::Validate | GraphType::Eval => label.clone(),
                };
                (
                    name,
                    Some(Drawn {
                        label,
                        shape: "box",
                    }),
                )
            }
            ItemId::ModuleCall(n) => (format!("{p}module.{n} (expand)"), None),
            // Provider vertices are drawn from the provider configurations, not from items
            // (the references list none).
            ItemId::Provider { .. } => (format!("{p}{}", item.id), None),
        }
    };
    let mut items: HashMap<&Item, usize> = HashMap::new();
    for (item, _) in &refs.items {
        if let ItemId::ModuleCall(n) = &item.id {
            // A call whose module is not loaded has no vertices (loading reports it).
            if let Some(&child) = tree.nodes[item.node].children.get(n) {
                if let Some(i) = dot.find(&module_vertex(child, "expand")) {
                    items.insert(item, i);
                }
            }
            continue;
        }
        let (name, drawn) = item_vertex(item);
        let i = add(&mut dot, name, drawn, Some(item.node));
        items.insert(item, i);
    }
    // Provider configurations: only those some resource uses (Terraform prunes the rest), each
    // with its closer.
    let mut providers: HashMap<AbsProviderConfig, (usize, usize)> = HashMap::new();
    let used: BTreeSet<&AbsProviderConfig> = by_resource.values().map(|c| &**c).collect();
    for cfg in used {
        let name = cfg.to_string();
        let drawn = Drawn {
            label: name.clone(),
            shape: "diamond",
        };
        let v = add(&mut dot, name.clone(), Some(drawn), tree.find(&cfg.module));
        let close_name = format!("{name} (close)");
        let close_drawn = verbose.then(|| Drawn {
            label: close_name.clone(),
            shape: "diamond",
        });
        let c = add(&mut dot, close_name, close_drawn, None);
        dot.edge(c, v);
        providers.insert(cfg.clone(), (v, c));
    }
    // References; a child module's import block refers for the resource it imports into, as
    // Terraform 1.16's graph draws it.
    let import_refs = refs
        .import_refs
        .iter()
        .filter(|(item, t)| !matches!(t, RefTarget::Item(i) if i == item))
        .map(|(item, t)| (Referrer::Item(item.clone()), t.clone()));
    for (who, target) in refs.refs.iter().cloned().chain(import_refs) {
        let from = match &who {
            Referrer::Item(item) => items.get(item).copied(),
            Referrer::Provider { node, name, alias } => {
                ferro_runtime::provider_config(db, ws, *node, name, alias.clone())
                    .ok()
                    .and_then(|cfg| providers.get(&cfg).map(|(v, _)| *v))
            }
        };
        let to = match &target {
            RefTarget::Item(item) => items.get(item).copied(),
            RefTarget::ModuleContents { node, call } => tree.nodes[*node]
                .children
                .get(call)
                .and_then(|&child| dot.find(&module_vertex(child, "close"))),
            RefTarget::Module { node, call, output } => tree.nodes[*node]
                .children
                .get(call)
                .and_then(|&child| match output {
                    Some(o) => items
                        .get(&Item {
                            node: child,
                            id: ItemId::Output(o.clone()),
                        })
                        .copied(),
                    None => dot.find(&module_vertex(child, "close")),
                }),
        };
        if let (Some(from), Some(to)) = (from, to) {
            dot.edge(from, to);
        }
    }
    // Resources use their provider configurations, which close after them.
    for (item, &i) in &items {
        let ItemId::Resource(r) = &item.id else {
            continue;
        };
        let cr = ConfigResource {
            module: tree.nodes[item.node].path.clone(),
            resource: r.clone(),
        };
        if let Some((v, c)) = by_resource.get(&cr).and_then(|cfg| providers.get(&**cfg)) {
            dot.edge(i, *v);
            dot.edge(*c, i);
        }
    }
    // Everything run in a module waits for its expansion; its closer waits for everything.
    for child in 1..tree.nodes.len() {
        let (Some(expand), Some(close)) = (
            dot.find(&module_vertex(child, "expand")),
            dot.find(&module_vertex(child, "close")),
        ) else {
            continue;
        };
        dot.edge(close, expand);
        for (v, s) in scope.iter().enumerate() {
            if *s == Some(child) {
                dot.edge(v, expand);
                dot.edge(close, v);
            }
        }
    }
    if graph_type != GraphType::Eval {
        let boundary = dot.vertex("meta.count-boundary (EachMode fixup)".to_string(), None);
        for (v, s) in scope.iter().enumerate() {
            if s.is_some() {
                dot.edge(boundary, v);
            }
        }
    }
    let root = dot.vertex("root".to_string(), None);
    for v in dot.without_dependents() {
        dot.edge(root, v);
    }
    dot
}
