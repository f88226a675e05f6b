//! The dependency graph between configuration items of every module (variables, locals,
//! resources, outputs, module calls), and each item's resource dependencies seen through locals,
//! variables, module inputs and outputs.
//!
//! Nodes are static (one per item per module path, not per instance). A module call is one node
//! that every item of the child waits for (its instances must be known first); a child's input
//! variable depends on the call's argument for it; `module.NAME` depends on the child's outputs.

use crate::pending::{Loc, Pending};
use crate::{item_tree, module_tree, Db, TreeNodeId, Workspace};
use ferro_addrs::{ConfigResource, Resource};
use ferro_diag::Diagnostic;
use ferro_hir::{walk_references, BlockBody, ExprId, ItemTree, Reference};
use petgraph::algo::toposort;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{BTreeSet, HashMap};

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemId {
    Var(String),
    Local(String),
    Resource(Resource),
    Output(String),
    /// The expansion of a module call (its `count`/`for_each`).
    ModuleCall(String),
}

/// An item of one static module.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Item {
    pub node: TreeNodeId,
    pub id: ItemId,
}

impl std::fmt::Display for ItemId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ItemId::Var(n) => write!(f, "var.{n}"),
            ItemId::Local(n) => write!(f, "local.{n}"),
            ItemId::Resource(r) => write!(f, "{r}"),
            ItemId::Output(n) => write!(f, "output.{n}"),
            ItemId::ModuleCall(n) => write!(f, "module.{n}"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ItemGraph {
    /// Items in an order where every item comes after what it refers to.
    pub order: Vec<Item>,
    /// For every resource: the resources it depends on, directly or through other items.
    pub resource_deps: HashMap<ConfigResource, BTreeSet<ConfigResource>>,
    /// For every root module output: the resources its value depends on, through any items.
    pub output_deps: HashMap<String, BTreeSet<ConfigResource>>,
}

fn body_exprs(body: &BlockBody, out: &mut Vec<ExprId>) {
    for a in &body.attrs {
        out.push(a.expr);
    }
    for b in &body.blocks {
        if let Some(d) = &b.dynamic {
            out.push(d.for_each);
            out.extend(d.labels.iter().copied());
        }
        body_exprs(&b.body, out);
    }
}

fn refs_of(hir: &ItemTree, exprs: &[ExprId]) -> Vec<Reference> {
    let mut out = Vec::new();
    for e in exprs {
        walk_references(&hir.exprs, *e, &mut |_, r| out.push(r.clone()));
    }
    out
}

/// The item graph of the whole module tree, read from item trees only; a cycle is a (pending)
/// diagnostic naming its items (also reported by [`crate::diagnostics`], so `validate` sees
/// it; [`item_graph_cycle`] gives it with its range).
#[salsa::tracked(returns(ref))]
pub fn item_graph(db: &dyn Db, ws: Workspace) -> Result<ItemGraph, Pending> {
    let tree = module_tree(db, ws);
    let mut g: DiGraph<Item, ()> = DiGraph::new();
    let mut nodes: HashMap<Item, NodeIndex> = HashMap::new();
    let mut spans: HashMap<Item, Loc> = HashMap::new();
    // (item, its references, resolved in module `node`)
    let mut deps: Vec<(Item, TreeNodeId, Vec<Reference>)> = Vec::new();
    // Extra edges: (from, to).
    let mut extra: Vec<(Item, Item)> = Vec::new();
    let mut add = |g: &mut DiGraph<Item, ()>, item: Item, span: Loc| {
        let ix = g.add_node(item.clone());
        nodes.insert(item.clone(), ix);
        spans.insert(item, span);
    };
    for (node, tn) in tree.nodes.iter().enumerate() {
        let index = crate::module_index(db, tn.module);
        let it = |id: ItemId| Item { node, id };
        for (n, item) in &index.variables {
            let span = item_tree(db, item.file).variables[item.index].span;
            add(
                &mut g,
                it(ItemId::Var(n.clone())),
                Loc::new(item.file, span),
            );
        }
        for (n, item) in &index.locals {
            let hir = item_tree(db, item.file);
            let l = &hir.locals[item.index];
            add(
                &mut g,
                it(ItemId::Local(n.clone())),
                Loc::new(item.file, l.span),
            );
            deps.push((it(ItemId::Local(n.clone())), node, refs_of(hir, &[l.expr])));
        }
        for (r, item) in &index.resources {
            let hir = item_tree(db, item.file);
            let d = &hir.resources[item.index];
            let id = it(ItemId::Resource(r.clone()));
            add(&mut g, id.clone(), Loc::new(item.file, d.span));
            let mut exprs: Vec<ExprId> = d.count.iter().chain(d.for_each.iter()).copied().collect();
            body_exprs(&d.body, &mut exprs);
            exprs.extend(d.lifecycle.replace_triggered_by.iter().copied());
            for p in &d.provisioners {
                body_exprs(&p.body, &mut exprs);
            }
            for c in d
                .lifecycle
                .preconditions
                .iter()
                .chain(&d.lifecycle.postconditions)
            {
                exprs.extend([c.condition, c.error_message]);
            }
            let mut refs = refs_of(hir, &exprs);
            refs.extend(d.depends_on.iter().map(|(r, _)| r.clone()));
            deps.push((id, node, refs));
        }
        for (n, item) in &index.outputs {
            let hir = item_tree(db, item.file);
            let o = &hir.outputs[item.index];
            let id = it(ItemId::Output(n.clone()));
            add(&mut g, id.clone(), Loc::new(item.file, o.span));
            let mut exprs: Vec<ExprId> = o.value.into_iter().collect();
            for c in &o.preconditions {
                exprs.extend([c.condition, c.error_message]);
            }
            let mut refs = refs_of(hir, &exprs);
            refs.extend(o.depends_on.iter().map(|(r, _)| r.clone()));
            deps.push((id, node, refs));
        }
        for (n, item) in &index.module_calls {
            let hir = item_tree(db, item.file);
            let c = &hir.module_calls[item.index];
            let id = it(ItemId::ModuleCall(n.clone()));
            add(&mut g, id.clone(), Loc::new(item.file, c.span));
            let exprs: Vec<ExprId> = c.count.iter().chain(c.for_each.iter()).copied().collect();
            let mut refs = refs_of(hir, &exprs);
            refs.extend(c.depends_on.iter().map(|(r, _)| r.clone()));
            deps.push((id.clone(), node, refs));
            let Some(&child) = tn.children.get(n) else {
                continue;
            };
            // Each input variable of the child depends on its argument (evaluated here).
            for a in &c.inputs {
                let var = Item {
                    node: child,
                    id: ItemId::Var(a.name.clone()),
                };
                deps.push((var, node, refs_of(hir, &[a.expr])));
            }
            // Everything in the child waits for the call's expansion.
            let child_index = crate::module_index(db, tree.nodes[child].module);
            let child_items = child_index
                .variables
                .keys()
                .map(|v| ItemId::Var(v.clone()))
                .chain(child_index.locals.keys().map(|v| ItemId::Local(v.clone())))
                .chain(
                    child_index
                        .resources
                        .keys()
                        .map(|r| ItemId::Resource(r.clone())),
                )
                .chain(
                    child_index
                        .outputs
                        .keys()
                        .map(|v| ItemId::Output(v.clone())),
                )
                .chain(
                    child_index
                        .module_calls
                        .keys()
                        .map(|v| ItemId::ModuleCall(v.clone())),
                );
            for ci in child_items {
                extra.push((
                    id.clone(),
                    Item {
                        node: child,
                        id: ci,
                    },
                ));
            }
        }
    }
    // References resolve to items of the module they are written in; `module.NAME` to the
    // outputs of the child.
    let targets = |node: TreeNodeId, r: &Reference| -> Vec<Item> {
        let it = |id: ItemId| Item { node, id };
        match r {
            Reference::Var(n) => vec![it(ItemId::Var(n.clone()))],
            Reference::Local(n) => vec![it(ItemId::Local(n.clone()))],
            Reference::Resource(res) => vec![it(ItemId::Resource(res.clone()))],
            Reference::Module(n) => {
                let mut v = vec![it(ItemId::ModuleCall(n.clone()))];
                if let Some(&child) = tree.nodes[node].children.get(n) {
                    let ci = crate::module_index(db, tree.nodes[child].module);
                    v.extend(ci.outputs.keys().map(|o| Item {
                        node: child,
                        id: ItemId::Output(o.clone()),
                    }));
                }
                v
            }
            _ => Vec::new(),
        }
    };
    let mut direct: HashMap<Item, BTreeSet<Item>> = HashMap::new();
    let mut edge =
        |g: &mut DiGraph<Item, ()>, from_item: &Item, to_item: &Item, resource_dep: bool| {
            let (Some(&from), Some(&to)) = (nodes.get(from_item), nodes.get(to_item)) else {
                return;
            };
            if !g.contains_edge(from, to) {
                g.add_edge(from, to, ());
            }
            if resource_dep {
                direct
                    .entry(to_item.clone())
                    .or_default()
                    .insert(from_item.clone());
            }
        };
    for (id, node, refs) in &deps {
        for r in refs {
            for t in targets(*node, r) {
                // A resource referring to itself is no cycle of the graph: planning reports it
                // as a self-referential block, as Terraform does.
                if &t == id && matches!(t.id, ItemId::Resource(_)) {
                    continue;
                }
                edge(&mut g, &t, id, true);
            }
        }
    }
    for (from, to) in &extra {
        // Ordering only, except that a call's explicit dependencies (depends_on) and what
        // decides its instances hold for the resources inside.
        edge(
            &mut g,
            from,
            to,
            matches!(to.id, ItemId::Resource(_) | ItemId::ModuleCall(_)),
        );
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
                .map(|n| item_name(tree, &g[n]))
                .collect();
            return Err(Pending {
                diag: Diagnostic::error("dependency-cycle", "Cycle in configuration").with_detail(
                    format!(
                        "These objects refer to each other in a cycle: {}.",
                        members.join(", ")
                    ),
                ),
                at: spans.get(&start).copied(),
                label: None,
            });
        }
    };
    // Resource dependencies through other items, in topological order so each item's
    // dependencies are complete when it is visited.
    let mut through: HashMap<Item, BTreeSet<ConfigResource>> = HashMap::new();
    let mut resource_deps = HashMap::new();
    let mut output_deps = HashMap::new();
    for item in &order {
        let mut set = BTreeSet::new();
        if let Some(ds) = direct.get(item) {
            for d in ds {
                match &d.id {
                    ItemId::Resource(r) => {
                        set.insert(ConfigResource {
                            module: tree.nodes[d.node].path.clone(),
                            resource: r.clone(),
                        });
                    }
                    _ => {
                        if let Some(s) = through.get(d) {
                            set.extend(s.iter().cloned());
                        }
                    }
                }
            }
        }
        if let ItemId::Resource(r) = &item.id {
            resource_deps.insert(
                ConfigResource {
                    module: tree.nodes[item.node].path.clone(),
                    resource: r.clone(),
                },
                set.clone(),
            );
        }
        if let (ItemId::Output(n), true) = (&item.id, tree.nodes[item.node].path.is_empty()) {
            output_deps.insert(n.clone(), set.clone());
        }
        through.insert(item.clone(), set);
    }
    Ok(ItemGraph {
        order,
        resource_deps,
        output_deps,
    })
}

/// `module.a.local.x` as cycle messages name items.
fn item_name(tree: &crate::ModuleTree, item: &Item) -> String {
    let mut s = String::new();
    for m in &tree.nodes[item.node].path {
        s.push_str(&format!("module.{m}."));
    }
    s.push_str(&item.id.to_string());
    s
}

/// The item graph's cycle, if there is one, as a diagnostic with its range.
#[salsa::tracked(returns(ref))]
pub fn item_graph_cycle(db: &dyn Db, ws: Workspace) -> Option<Diagnostic> {
    item_graph(db, ws).as_ref().err().map(|p| p.resolve(db))
}
