//! The dependency graph between configuration items (variables, locals, resources, outputs), and
//! each item's resource dependencies seen through locals and variables.

use ferro_addrs::Resource;
use ferro_db::{file_hir, module_index, Db, Workspace};
use ferro_diag::{Diagnostic, Span};
use ferro_hir::{walk_references, BlockBody, ExprId, FileHir, Reference};
use petgraph::algo::toposort;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{BTreeMap, BTreeSet, HashMap};

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemId {
    Var(String),
    Local(String),
    Resource(Resource),
    Output(String),
}

impl std::fmt::Display for ItemId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ItemId::Var(n) => write!(f, "var.{n}"),
            ItemId::Local(n) => write!(f, "local.{n}"),
            ItemId::Resource(r) => write!(f, "{r}"),
            ItemId::Output(n) => write!(f, "output.{n}"),
        }
    }
}

pub struct ItemGraph {
    /// Items in an order where every item comes after what it refers to.
    pub order: Vec<ItemId>,
    /// For every item: the resources it depends on, directly or through locals/variables.
    pub resource_deps: HashMap<ItemId, BTreeSet<Resource>>,
}

fn body_exprs(body: &BlockBody, out: &mut Vec<ExprId>) {
    for a in &body.attrs {
        out.push(a.expr);
    }
    for b in &body.blocks {
        body_exprs(&b.body, out);
    }
}

fn refs_of(hir: &FileHir, exprs: &[ExprId]) -> Vec<Reference> {
    let mut out = Vec::new();
    for e in exprs {
        walk_references(&hir.exprs, *e, &mut |_, r| out.push(r.clone()));
    }
    out
}

fn target(r: &Reference) -> Option<ItemId> {
    match r {
        Reference::Var(n) => Some(ItemId::Var(n.clone())),
        Reference::Local(n) => Some(ItemId::Local(n.clone())),
        Reference::Resource(res) => Some(ItemId::Resource(res.clone())),
        _ => None,
    }
}

/// Build the item graph; a cycle is a diagnostic naming the items on it.
pub fn item_graph(db: &dyn Db, ws: Workspace) -> Result<ItemGraph, Diagnostic> {
    let index = module_index(db, ws);
    let mut g: DiGraph<ItemId, ()> = DiGraph::new();
    let mut nodes: BTreeMap<ItemId, NodeIndex> = BTreeMap::new();
    let mut spans: BTreeMap<ItemId, Span> = BTreeMap::new();
    let mut deps: Vec<(ItemId, Vec<Reference>)> = Vec::new();
    for (n, item) in &index.variables {
        let id = ItemId::Var(n.clone());
        nodes.insert(id.clone(), g.add_node(id.clone()));
        spans.insert(id, file_hir(db, item.file).variables[item.index].span);
    }
    for (n, item) in &index.locals {
        let hir = file_hir(db, item.file);
        let l = &hir.locals[item.index];
        let id = ItemId::Local(n.clone());
        nodes.insert(id.clone(), g.add_node(id.clone()));
        spans.insert(id.clone(), l.span);
        deps.push((id, refs_of(hir, &[l.expr])));
    }
    for (r, item) in &index.resources {
        let hir = file_hir(db, item.file);
        let d = &hir.resources[item.index];
        let id = ItemId::Resource(r.clone());
        nodes.insert(id.clone(), g.add_node(id.clone()));
        spans.insert(id.clone(), d.span);
        let mut exprs: Vec<ExprId> = d.count.iter().chain(d.for_each.iter()).copied().collect();
        body_exprs(&d.body, &mut exprs);
        let mut refs = refs_of(hir, &exprs);
        refs.extend(d.depends_on.iter().map(|(r, _)| r.clone()));
        deps.push((id, refs));
    }
    for (n, item) in &index.outputs {
        let hir = file_hir(db, item.file);
        let o = &hir.outputs[item.index];
        let id = ItemId::Output(n.clone());
        nodes.insert(id.clone(), g.add_node(id.clone()));
        spans.insert(id.clone(), o.span);
        let mut refs = refs_of(hir, &o.value.into_iter().collect::<Vec<_>>());
        refs.extend(o.depends_on.iter().map(|(r, _)| r.clone()));
        deps.push((id, refs));
    }
    let mut direct: HashMap<ItemId, BTreeSet<ItemId>> = HashMap::new();
    for (id, refs) in &deps {
        let to = nodes[id];
        for r in refs {
            if let Some(t) = target(r) {
                if let Some(&from) = nodes.get(&t) {
                    if direct.entry(id.clone()).or_default().insert(t.clone()) {
                        g.add_edge(from, to, ());
                    }
                }
            }
        }
    }
    let order = match toposort(&g, None) {
        Ok(o) => o.into_iter().map(|n| g[n].clone()).collect::<Vec<_>>(),
        Err(cycle) => {
            let start = g[cycle.node_id()].clone();
            let members: Vec<String> = petgraph::algo::kosaraju_scc(&g)
                .into_iter()
                .find(|scc| {
                    scc.len() > 1 && scc.iter().any(|n| g[*n] == start)
                        || scc.len() == 1 && g.contains_edge(scc[0], scc[0]) && g[scc[0]] == start
                })
                .unwrap_or_else(|| vec![cycle.node_id()])
                .into_iter()
                .map(|n| g[n].to_string())
                .collect();
            return Err(
                Diagnostic::error("dependency-cycle", "Cycle in configuration")
                    .with_detail(format!(
                        "These objects refer to each other in a cycle: {}.",
                        members.join(", ")
                    ))
                    .with_span_opt(spans.get(&start).copied()),
            );
        }
    };
    // Resource dependencies through locals/variables, in topological order so each item's
    // dependencies are complete when it is visited.
    let mut resource_deps: HashMap<ItemId, BTreeSet<Resource>> = HashMap::new();
    for id in &order {
        let mut set = BTreeSet::new();
        if let Some(ds) = direct.get(id) {
            for d in ds {
                match d {
                    ItemId::Resource(r) => {
                        set.insert(r.clone());
                    }
                    other => {
                        if let Some(s) = resource_deps.get(other) {
                            set.extend(s.iter().cloned());
                        }
                    }
                }
            }
        }
        resource_deps.insert(id.clone(), set);
    }
    Ok(ItemGraph {
        order,
        resource_deps,
    })
}
