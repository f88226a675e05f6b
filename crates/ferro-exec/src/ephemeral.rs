//! Ephemeral resources in apply: the plan keeps nothing of them, so apply opens each again
//! (in the item graph's order, with apply's values) before any step runs, renews them while
//! steps run and closes them at the end (see [`ferro_runtime::ephemeral`]). One whose
//! configuration is not known yet (it depends on a resource this apply changes) is opened when
//! a provider configuration that waits for it is configured, by the first step using that
//! provider (which waits for what the ephemeral resource depends on).

use ferro_addrs::{AbsResource, InstanceKey, ModuleInstance, Resource, ResourceMode};
use ferro_db::{Db, ItemId, Workspace};
use ferro_diag::Diagnostic;
use ferro_hir::ResourceDecl;
use ferro_plan::Expansion;
use ferro_runtime::ephemeral::{open_resource, EphemeralSet};
use ferro_runtime::scope::{EvalTree, InstanceCtx, ModuleEval};
use ferro_runtime::Providers;
use ferro_value::convert::convert;
use ferro_value::{Type, Value, ValueKind};

/// An ephemeral resource of a module instance whose configuration was not known yet.
pub(crate) type Pending = (ModuleInstance, Resource);

/// Open every ephemeral resource instance of the configuration, in dependency order. Also
/// says which resources were left for later (see [`reopen`]).
pub(crate) fn open_all(
    db: &dyn Db,
    ws: Workspace,
    tree: &EvalTree<'_>,
    providers: &Providers,
    set: &EphemeralSet<'_>,
) -> (Vec<Diagnostic>, Vec<Pending>) {
    let Ok(graph) = ferro_db::item_graph(db, ws) else {
        return (Vec::new(), Vec::new());
    };
    let mut diags = Vec::new();
    let mut pending = Vec::new();
    for item in &graph.order {
        let ItemId::Resource(r) = &item.id else {
            continue;
        };
        if r.mode != ResourceMode::Ephemeral {
            continue;
        }
        for path in tree.instances_of(item.node) {
            if open_one(tree, providers, set, &path, r, &mut diags) {
                pending.push((path, r.clone()));
            }
        }
    }
    (diags, pending)
}

/// Open the ephemeral resources left for later whose configuration is known now (in the
/// order they were left); the others stay in `pending`.
pub(crate) fn reopen(
    tree: &EvalTree<'_>,
    providers: &Providers,
    set: &EphemeralSet<'_>,
    pending: &std::sync::Mutex<Vec<Pending>>,
) -> Vec<Diagnostic> {
    let mut pending = pending.lock().unwrap_or_else(|e| e.into_inner());
    let mut diags = Vec::new();
    let mut still = Vec::new();
    for (path, r) in pending.drain(..) {
        if open_one(tree, providers, set, &path, &r, &mut diags) {
            still.push((path, r));
        }
    }
    *pending = still;
    diags
}

/// Open one ephemeral resource of module instance `path`; whether an instance is left for
/// later.
fn open_one(
    tree: &EvalTree<'_>,
    providers: &Providers,
    set: &EphemeralSet<'_>,
    path: &ModuleInstance,
    r: &Resource,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let Some(m) = tree.scope(path) else {
        return false;
    };
    let Some(at) = m.index.resources.get(r).copied() else {
        return false;
    };
    let decl = m.resource(at).into_owned();
    let abs = AbsResource {
        module: path.clone(),
        resource: r.clone(),
    };
    let Some(cfg) = providers.by_resource.get(&abs.config()).cloned() else {
        return false;
    };
    let Some(schema) = providers.resource_schema(&cfg, r).cloned() else {
        return false;
    };
    let (expansion, keys) = match instances(&m, at.file, &decl) {
        Ok(x) => x,
        Err(d) => {
            diags.push(d.with_address(abs.to_string()));
            return false;
        }
    };
    let (ds, deferred) = open_resource(
        &m, at.file, &decl, &abs, &cfg, &schema, providers, set, expansion, keys,
    );
    diags.extend(ds);
    deferred
}

type Keys = Vec<(InstanceKey, Option<Value>)>;

/// The instances `count`, `for_each` or `enabled` give the resource with apply's values (the
/// plan checked them already).
fn instances(
    m: &ModuleEval<'_>,
    file: ferro_db::SourceFile,
    decl: &ResourceDecl,
) -> Result<(Expansion, Keys), Diagnostic> {
    let hir = m.hir(file);
    let value = |e| {
        let (v, ds) = m.eval(file, e, &InstanceCtx::default());
        if let Some(d) = ds.into_iter().find(Diagnostic::is_error) {
            return Err(d);
        }
        let v = v.deep_unmark().0;
        if !v.is_wholly_known() {
            return Err(
                Diagnostic::error("invalid-expansion", "Invalid ephemeral resource expansion")
                    .with_detail("The instances of this ephemeral resource depend on values that are known only after apply.")
                    .with_span_opt(hir.span(e)),
            );
        }
        Ok(v)
    };
    if let Some(e) = decl.enabled {
        let on = convert(&value(e)?, &Type::Bool)
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        let keys = if on {
            vec![(InstanceKey::None, None)]
        } else {
            Vec::new()
        };
        return Ok((Expansion::Enabled, keys));
    }
    if let Some(e) = decl.count {
        let n = convert(&value(e)?, &Type::Number)
            .ok()
            .and_then(|v| v.as_number().and_then(|n| n.to_i64()))
            .unwrap_or(0)
            .max(0);
        return Ok((
            Expansion::Count,
            (0..n).map(|i| (InstanceKey::Int(i), None)).collect(),
        ));
    }
    if let Some(e) = decl.for_each {
        let v = value(e)?;
        let keys = match &v.kind {
            ValueKind::Set(_, es) => es
                .iter()
                .filter_map(|e| {
                    e.as_str()
                        .map(|s| (InstanceKey::Str(s.to_string()), Some(e.clone())))
                })
                .collect(),
            _ => v
                .as_entries()
                .into_iter()
                .flatten()
                .map(|(k, e)| (InstanceKey::Str(k.to_string()), Some(e.clone())))
                .collect(),
        };
        return Ok((Expansion::ForEach, keys));
    }
    Ok((Expansion::Single, vec![(InstanceKey::None, None)]))
}
