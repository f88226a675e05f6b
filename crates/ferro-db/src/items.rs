//! The dependency graph between configuration items of every module (variables, locals,
//! resources, outputs, module calls, provider blocks), and each item's resource dependencies
//! seen through locals, variables, module inputs and outputs, and provider configurations.
//!
//! Nodes are static (one per item per module path, not per instance). A module call is one node
//! that every item of the child waits for (its instances must be known first); a child's input
//! variable depends on the call's argument for it; `module.NAME` depends on the child's outputs.

use crate::item_refs::{item_references, RefTarget, Referrer};
use crate::pending::{Loc, Pending};
use crate::provider_resolve::{block_config, resolve_provider};
use crate::{item_signature, module_tree, Db, TreeNodeId, Workspace};
use ferro_addrs::{AbsProviderConfig, ConfigResource, Resource};
use ferro_diag::Diagnostic;
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
    /// A `provider "NAME"` block (with its alias): configured once what it refers to is known,
    /// before any resource that uses it.
    Provider {
        name: String,
        alias: Option<String>,
    },
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
            ItemId::Provider { name, alias: None } => write!(f, "provider.{name}"),
            ItemId::Provider {
                name,
                alias: Some(a),
            } => write!(f, "provider.{name}.{a}"),
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
    /// For every provider configuration declared by a block: the resources its arguments
    /// refer to, through any items. A provider that refers to none is configured before
    /// anything runs; the others once those resources are planned (or applied).
    pub provider_deps: HashMap<AbsProviderConfig, BTreeSet<ConfigResource>>,
}

/// The item graph of the whole module tree, read from item trees only (through
/// [`item_references`]); a cycle is a (pending) diagnostic naming its items (also reported by
/// [`crate::diagnostics`], so `validate` sees it; [`item_graph_cycle`] gives it with its range).
#[salsa::tracked(returns(ref))]
pub fn item_graph(db: &dyn Db, ws: Workspace) -> Result<ItemGraph, Pending> {
    let tree = module_tree(db, ws);
    let refs = item_references(db, ws);
    let mut g: DiGraph<Item, ()> = DiGraph::new();
    let mut nodes: HashMap<Item, NodeIndex> = HashMap::new();
    let mut spans: HashMap<Item, Loc> = HashMap::new();
    for (item, span) in &refs.items {
        let ix = g.add_node(item.clone());
        nodes.insert(item.clone(), ix);
        spans.insert(item.clone(), *span);
    }
    // A node per provider block; each resource waits for the configuration it uses (and so
    // for what that configuration refers to: Terraform records those resources among the
    // resource's dependencies too).
    let mut provider_items: HashMap<AbsProviderConfig, Item> = HashMap::new();
    let mut provider_cfgs: HashMap<Item, AbsProviderConfig> = HashMap::new();
    for (node, tn) in tree.nodes.iter().enumerate() {
        let index = crate::module_index(db, tn.module);
        for ((name, alias), item) in &index.providers {
            let id = Item {
                node,
                id: ItemId::Provider {
                    name: name.clone(),
                    alias: alias.clone(),
                },
            };
            let span = item_signature(db, item.file).providers[item.index].span;
            let ix = g.add_node(id.clone());
            nodes.insert(id.clone(), ix);
            spans.insert(id.clone(), Loc::new(item.file, span));
            let cfg = block_config(db, tree, node, name, alias.clone());
            provider_cfgs.insert(id.clone(), cfg.clone());
            provider_items.insert(cfg, id);
        }
    }
    // Extra edges: (from, to).
    let mut extra: Vec<(Item, Item)> = Vec::new();
    for (node, tn) in tree.nodes.iter().enumerate() {
        let index = crate::module_index(db, tn.module);
        for (r, item) in &index.resources {
            let decl = &item_signature(db, item.file).resources[item.index];
            let (local, alias) = decl.provider_ref();
            let Ok(cfg) = resolve_provider(db, tree, node, local, alias.map(str::to_string)) else {
                continue;
            };
            if let Some(p) = provider_items.get(&cfg) {
                extra.push((
                    p.clone(),
                    Item {
                        node,
                        id: ItemId::Resource(r.clone()),
                    },
                ));
            }
        }
    }
    for (node, tn) in tree.nodes.iter().enumerate() {
        let index = crate::module_index(db, tn.module);
        for n in index.module_calls.keys() {
            let Some(&child) = tn.children.get(n) else {
                continue;
            };
            let id = Item {
                node,
                id: ItemId::ModuleCall(n.clone()),
            };
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
                )
                .chain(
                    child_index
                        .providers
                        .keys()
                        .map(|(name, alias)| ItemId::Provider {
                            name: name.clone(),
                            alias: alias.clone(),
                        }),
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
    // The items of each static module, for `depends_on = [module.NAME]`.
    let mut items_of: HashMap<TreeNodeId, Vec<Item>> = HashMap::new();
    for (item, _) in &refs.items {
        items_of.entry(item.node).or_default().push(item.clone());
    }
    // `module.NAME` waits for the call and every output of the child (the scope evaluates the
    // module's whole object), `module.NAME.OUT` for the call and that output. In `depends_on`
    // it waits for everything the child and its own children declare.
    let targets = |t: &RefTarget| -> Vec<Item> {
        match t {
            RefTarget::Item(item) => vec![item.clone()],
            RefTarget::ModuleContents { node, call } => {
                let mut v = vec![Item {
                    node: *node,
                    id: ItemId::ModuleCall(call.clone()),
                }];
                let mut pending: Vec<TreeNodeId> = tree.nodes[*node]
                    .children
                    .get(call)
                    .copied()
                    .into_iter()
                    .collect();
                while let Some(n) = pending.pop() {
                    v.extend(items_of.get(&n).into_iter().flatten().cloned());
                    pending.extend(tree.nodes[n].children.values().copied());
                }
                v
            }
            RefTarget::Module { node, call, output } => {
                let mut v = vec![Item {
                    node: *node,
                    id: ItemId::ModuleCall(call.clone()),
                }];
                if let Some(&child) = tree.nodes[*node].children.get(call) {
                    let ci = crate::module_index(db, tree.nodes[child].module);
                    // `module.NAME.OUT` waits for that output only (the scope evaluates only
                    // it: `Scope::reference_output`), as in Terraform's graph.
                    let outputs = ci
                        .outputs
                        .keys()
                        .filter(|o| match output {
                            Some(out) if ci.outputs.contains_key(out) => *o == out,
                            _ => true,
                        })
                        .map(|o| Item {
                            node: child,
                            id: ItemId::Output(o.clone()),
                        });
                    v.extend(outputs);
                }
                v
            }
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
    for (who, target) in &refs.refs {
        let provider;
        let id = match who {
            Referrer::Item(id) => id,
            Referrer::Provider { node, name, alias } => {
                provider = Item {
                    node: *node,
                    id: ItemId::Provider {
                        name: name.clone(),
                        alias: alias.clone(),
                    },
                };
                &provider
            }
        };
        for t in targets(target) {
            // A resource referring to itself is no cycle of the graph: planning reports it
            // as a self-referential block, as Terraform does.
            if &t == id && matches!(t.id, ItemId::Resource(_)) {
                continue;
            }
            edge(&mut g, &t, id, true);
        }
    }
    // A child module's import block is evaluated at its target's turn, after what it refers
    // to (ordering only).
    for (to, target) in &refs.import_refs {
        for t in targets(target) {
            if &t != to {
                edge(&mut g, &t, to, false);
            }
        }
    }
    for (from, to) in &extra {
        // Ordering only, except that a call's explicit dependencies (depends_on) and what
        // decides its instances hold for the resources inside, and a provider's for the
        // resources that use it.
        edge(
            &mut g,
            from,
            to,
            matches!(to.id, ItemId::Resource(_) | ItemId::ModuleCall(_))
                || matches!(from.id, ItemId::Provider { .. }),
        );
    }
    let order = match toposort(&g, None) {
        Ok(o) => o.into_iter().map(|n| g[n].clone()).collect::<Vec<_>>(),
        Err(cycle) => {
            let start = g[cycle.node_id()].clone();
            let nodes = petgraph::algo::kosaraju_scc(&g)
                .into_iter()
                .find(|scc| {
                    scc.len() > 1 && scc.iter().any(|n| g[*n] == start)
                        || scc.len() == 1 && g.contains_edge(scc[0], scc[0]) && g[scc[0]] == start
                })
                .unwrap_or_else(|| vec![cycle.node_id()]);
            let diag = match (nodes.as_slice(), &start.id) {
                // A local value referring to itself has its own message in Terraform.
                ([_], ItemId::Local(name)) => {
                    Diagnostic::error("self-referencing-local", "Self-referencing local value")
                        .with_detail(format!(
                    "Local value local.{name} cannot use its own result as part of its expression."
                ))
                }
                _ => {
                    let members: Vec<String> = nodes
                        .iter()
                        .map(|n| cycle_member_name(db, tree, &g[*n]))
                        .collect();
                    // Terraform's summary names the cycle's members as its graph names them.
                    Diagnostic::error("dependency-cycle", format!("Cycle: {}", members.join(", ")))
                        .with_detail("These objects refer to each other, so none of them can be evaluated first.")
                }
            };
            return Err(Pending::at(
                diag,
                spans.get(&start).copied().map(Into::into),
            ));
        }
    };
    // Resource dependencies through other items, in topological order so each item's
    // dependencies are complete when it is visited.
    let mut through: HashMap<Item, BTreeSet<ConfigResource>> = HashMap::new();
    let mut resource_deps = HashMap::new();
    let mut output_deps = HashMap::new();
    let mut provider_deps = HashMap::new();
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
        if let Some(cfg) = provider_cfgs.get(item) {
            provider_deps.insert(cfg.clone(), set.clone());
        }
        through.insert(item.clone(), set);
    }
    Ok(ItemGraph {
        order,
        resource_deps,
        output_deps,
        provider_deps,
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

/// An item as Terraform's graph names it in a cycle: the nodes that expand per module instance
/// (local values, outputs, a module's input variables, module calls) end in " (expand)".
fn cycle_member_name(db: &dyn Db, tree: &crate::ModuleTree, item: &Item) -> String {
    if let ItemId::Provider { name, alias } = &item.id {
        // `module.a.provider["registry.terraform.io/hashicorp/aws"].west`
        return block_config(db, tree, item.node, name, alias.clone()).to_string();
    }
    let name = item_name(tree, item);
    let in_module = !tree.nodes[item.node].path.is_empty();
    match &item.id {
        ItemId::Local(_) | ItemId::Output(_) | ItemId::ModuleCall(_) => format!("{name} (expand)"),
        ItemId::Var(_) if in_module => format!("{name} (expand)"),
        _ => name,
    }
}

/// The item graph's cycle, if there is one, as a diagnostic with its range.
#[salsa::tracked(returns(ref))]
pub fn item_graph_cycle(db: &dyn Db, ws: Workspace) -> Option<Diagnostic> {
    item_graph(db, ws).as_ref().err().map(|p| p.resolve(db))
}
