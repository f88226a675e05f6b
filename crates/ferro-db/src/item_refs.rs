//! What every configuration item of the module tree refers to, per static module: the material
//! the item graph is built from, kept apart from it so that a configuration with a cycle still
//! has its references (`ferro graph` draws them), and so that `module.NAME.OUT` keeps the one
//! output it names (the item graph orders that output only before the reference, as
//! Terraform's graph does).
//!
//! Provider blocks refer to things too (their arguments); they are no items of the item graph,
//! so their references are listed with their own kind of referrer.

use crate::pending::Loc;
use crate::{item_signature, item_tree, module_tree, Db, Item, ItemId, TreeNodeId, Workspace};
use ferro_hir::{walk_references, Expr, ExprId, ItemTree, Reference};
use std::collections::HashMap;

/// Who refers.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Referrer {
    /// An item; a child module's input variable refers to what its call's argument refers to
    /// (evaluated in the calling module).
    Item(Item),
    /// A `provider "NAME"` block (with its alias) of a static module.
    Provider {
        node: TreeNodeId,
        name: String,
        alias: Option<String>,
    },
}

/// What one reference names, resolved in the module where its expression is evaluated.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RefTarget {
    /// A variable, local or resource of that module. The item may not exist (an undeclared
    /// name): file diagnostics report those.
    Item(Item),
    /// `module.NAME` of module `node`; `output` is the output the expression goes on to name
    /// (`module.NAME.OUT`, `module.NAME[KEY].OUT`), None when it takes the whole call (or its
    /// instances through a splat).
    Module {
        node: TreeNodeId,
        call: String,
        output: Option<String>,
    },
    /// `module.NAME` in a `depends_on` of module `node`: everything the call's module (and the
    /// modules it calls, to any depth) declares, as Terraform waits for the whole module.
    ModuleContents { node: TreeNodeId, call: String },
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ItemReferences {
    /// Every item of every static module with its declaration's range, module by module.
    pub items: Vec<(Item, Loc)>,
    /// Each reference of an item or provider block, in declaration order.
    pub refs: Vec<(Referrer, RefTarget)>,
    /// What the import blocks of child modules refer to (evaluated in the module instance
    /// that holds the block), each with the resource it imports into: that resource's turn
    /// comes after them. Ordering only: they are not the resource's dependencies.
    pub import_refs: Vec<(Item, RefTarget)>,
}

/// The output a `module.NAME` reference root goes on to name, by the root's expression: the
/// name of a `.OUT` step right after it, or after one index step.
fn module_output_steps(hir: &ItemTree) -> HashMap<ExprId, String> {
    let mut out = HashMap::new();
    for (_, e) in hir.exprs.iter() {
        let Expr::GetAttr { target, name } = e else {
            continue;
        };
        let root = match &hir.exprs[*target] {
            Expr::Index { target: t, .. } => *t,
            _ => *target,
        };
        if let Expr::Ref(Reference::Module(_)) = &hir.exprs[root] {
            out.insert(root, name.clone());
        }
    }
    out
}

/// The reference roots of `exprs` (written in `hir`), each with the output named right after
/// a `module.NAME` root.
fn roots_of(
    hir: &ItemTree,
    steps: &HashMap<ExprId, String>,
    exprs: &[ExprId],
) -> Vec<(Reference, Option<String>)> {
    let mut out = Vec::new();
    for e in exprs {
        walk_references(&hir.exprs, *e, &mut |id, r| {
            out.push((r.clone(), steps.get(&id).cloned()));
        });
    }
    out
}

/// The reference roots of one item, as [`roots_of`] lists them.
pub type Roots = Vec<(Reference, Option<String>)>;

/// What the items of one file refer to, by their place in the file's item lists, without
/// positions or expression ids: an edit that changes no reference leaves it equal, so the
/// references of the whole tree are not gathered again.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileReferences {
    pub locals: Vec<Roots>,
    pub resources: Vec<Roots>,
    pub outputs: Vec<Roots>,
    /// A call's `count`/`for_each`/`enabled`, and each input's by the input's name.
    pub module_calls: Vec<(Roots, Vec<(String, Roots)>)>,
    pub providers: Vec<Roots>,
    /// An import block's `for_each`, `id` and the key expression of its `to`.
    pub imports: Vec<Roots>,
}

/// See [`FileReferences`].
#[salsa::tracked(returns(ref))]
pub fn file_references(db: &dyn Db, file: crate::SourceFile) -> FileReferences {
    let hir = item_tree(db, file);
    let steps = module_output_steps(hir);
    let roots = |exprs: &[ExprId]| roots_of(hir, &steps, exprs);
    let locals = hir.locals.iter().map(|l| roots(&[l.expr])).collect();
    let resources = hir
        .resources
        .iter()
        .map(|d| {
            let mut exprs = d.config_exprs();
            exprs.extend(d.lifecycle.replace_triggered_by.iter().copied());
            for p in &d.provisioners {
                p.body.exprs(&mut exprs);
                if let Some(c) = &p.connection {
                    c.exprs(&mut exprs);
                }
            }
            if let Some(c) = &d.connection {
                c.exprs(&mut exprs);
            }
            roots(&exprs)
        })
        .collect();
    let outputs = hir
        .outputs
        .iter()
        .map(|o| {
            let mut exprs: Vec<ExprId> = o.value.into_iter().collect();
            for c in &o.preconditions {
                exprs.extend([c.condition, c.error_message]);
            }
            roots(&exprs)
        })
        .collect();
    let module_calls = hir
        .module_calls
        .iter()
        .map(|c| {
            let meta: Vec<ExprId> = c
                .count
                .iter()
                .chain(c.for_each.iter())
                .chain(c.enabled.iter())
                .copied()
                .collect();
            let inputs = c
                .inputs
                .iter()
                .map(|a| (a.name.clone(), roots(&[a.expr])))
                .collect();
            (roots(&meta), inputs)
        })
        .collect();
    let providers = hir
        .providers
        .iter()
        .map(|p| {
            let mut exprs: Vec<ExprId> = p.for_each.iter().copied().collect();
            p.body.exprs(&mut exprs);
            roots(&exprs)
        })
        .collect();
    let imports = hir
        .imports
        .iter()
        .map(|i| {
            let mut exprs: Vec<ExprId> = i.for_each.iter().copied().collect();
            exprs.push(match i.by {
                ferro_hir::ImportBy::Id(e) | ferro_hir::ImportBy::Identity(e) => e,
            });
            if let ferro_hir::ImportKey::Expr(k) = i.key {
                exprs.push(k);
            }
            roots(&exprs)
        })
        .collect();
    FileReferences {
        locals,
        resources,
        outputs,
        module_calls,
        providers,
        imports,
    }
}

/// The targets in module `node` of reference roots.
fn targets(node: TreeNodeId, roots: &Roots) -> Vec<RefTarget> {
    roots
        .iter()
        .filter_map(|(r, output)| target(node, r, output.clone()))
        .collect()
}

/// The target of one `depends_on` entry: a module call waits for all it holds.
fn depends_on_target(node: TreeNodeId, r: &Reference) -> Option<RefTarget> {
    match r {
        Reference::Module(call) => Some(RefTarget::ModuleContents {
            node,
            call: call.clone(),
        }),
        _ => target(node, r, None),
    }
}

/// The target of one reference root (`output`: the output step after a `module.NAME` root).
fn target(node: TreeNodeId, r: &Reference, output: Option<String>) -> Option<RefTarget> {
    let it = |id: ItemId| RefTarget::Item(Item { node, id });
    Some(match r {
        Reference::Var(n) => it(ItemId::Var(n.clone())),
        Reference::Local(n) => it(ItemId::Local(n.clone())),
        Reference::Resource(res) => it(ItemId::Resource(res.clone())),
        Reference::Module(call) => RefTarget::Module {
            node,
            call: call.clone(),
            output,
        },
        _ => return None,
    })
}

/// The items of the whole module tree and what each refers to, read from the files'
/// signatures and references only.
#[salsa::tracked(returns(ref))]
pub fn item_references(db: &dyn Db, ws: Workspace) -> ItemReferences {
    let tree = module_tree(db, ws);
    let mut out = ItemReferences::default();
    let push = |out: &mut ItemReferences, who: Referrer, ts: Vec<RefTarget>| {
        out.refs.extend(ts.into_iter().map(|t| (who.clone(), t)));
    };
    for (node, tn) in tree.nodes.iter().enumerate() {
        let index = crate::module_index(db, tn.module);
        let it = |id: ItemId| Item { node, id };
        for (n, item) in &index.variables {
            let span = item_signature(db, item.file).variables[item.index].span;
            out.items
                .push((it(ItemId::Var(n.clone())), Loc::new(item.file, span)));
        }
        for (n, item) in &index.locals {
            let l = &item_signature(db, item.file).locals[item.index];
            let id = it(ItemId::Local(n.clone()));
            out.items.push((id.clone(), Loc::new(item.file, l.span)));
            let ts = targets(node, &file_references(db, item.file).locals[item.index]);
            push(&mut out, Referrer::Item(id), ts);
        }
        for (r, item) in &index.resources {
            let d = &item_signature(db, item.file).resources[item.index];
            let id = it(ItemId::Resource(r.clone()));
            out.items.push((id.clone(), Loc::new(item.file, d.span)));
            let mut ts = targets(node, &file_references(db, item.file).resources[item.index]);
            ts.extend(
                d.depends_on()
                    .iter()
                    .filter_map(|(r, _)| depends_on_target(node, r)),
            );
            push(&mut out, Referrer::Item(id), ts);
        }
        for (n, item) in &index.outputs {
            let o = &item_signature(db, item.file).outputs[item.index];
            let id = it(ItemId::Output(n.clone()));
            out.items.push((id.clone(), Loc::new(item.file, o.span)));
            let mut ts = targets(node, &file_references(db, item.file).outputs[item.index]);
            ts.extend(
                o.depends_on
                    .iter()
                    .filter_map(|(r, _)| depends_on_target(node, r)),
            );
            push(&mut out, Referrer::Item(id), ts);
        }
        for (n, item) in &index.module_calls {
            let c = &item_signature(db, item.file).module_calls[item.index];
            let (meta, inputs) = &file_references(db, item.file).module_calls[item.index];
            let id = it(ItemId::ModuleCall(n.clone()));
            out.items.push((id.clone(), Loc::new(item.file, c.span)));
            let mut ts = targets(node, meta);
            ts.extend(
                c.depends_on
                    .iter()
                    .filter_map(|(r, _)| depends_on_target(node, r)),
            );
            push(&mut out, Referrer::Item(id), ts);
            let Some(&child) = tn.children.get(n) else {
                continue;
            };
            // Each input variable of the child refers to what its argument refers to here.
            for (name, roots) in inputs {
                let var = Item {
                    node: child,
                    id: ItemId::Var(name.clone()),
                };
                push(&mut out, Referrer::Item(var), targets(node, roots));
            }
        }
        for ((name, alias), item) in &index.providers {
            let ts = targets(node, &file_references(db, item.file).providers[item.index]);
            let who = Referrer::Provider {
                node,
                name: name.clone(),
                alias: alias.clone(),
            };
            push(&mut out, who, ts);
        }
        // The root module's import blocks are evaluated before the walk.
        if node == 0 {
            continue;
        }
        for item in &index.imports {
            let block = &item_signature(db, item.file).imports[item.index];
            let Some(target) = tree.descendant(node, &block.to.module.static_path()) else {
                continue;
            };
            let to = Item {
                node: target,
                id: ItemId::Resource(block.to.resource.clone()),
            };
            let ts = targets(node, &file_references(db, item.file).imports[item.index]);
            out.import_refs
                .extend(ts.into_iter().map(|t| (to.clone(), t)));
        }
    }
    out
}
