//! Evaluation against a state, with no plan: every module call expanded as its `count` or
//! `for_each` says, and every resource's value taken from the state (what `ferro console`
//! evaluates `module.NAME.OUT` against; Terraform's console walks its graph the same way).

use crate::providers::Providers;
use crate::scope::EvalTree;
use crate::statecodec::apply_sensitive_paths;
use crate::walk::expand_in;
use ferro_addrs::{InstanceKey, ModuleInstance, Resource};
use ferro_diag::Diagnostic;
use ferro_state::State;
use ferro_value::{json, Value, ValueMap};
use std::collections::{HashMap, VecDeque};

/// Expand `tree`'s module calls, top down, and give each module instance the values of its
/// resources in `state` (an object, a tuple by index for `count`, an object by key for
/// `for_each`), decoded with their schemas in `providers` where it has them. Returns what
/// evaluating the calls' `count`/`for_each` reported.
pub fn expand_from_state(
    tree: &EvalTree<'_>,
    state: &State,
    providers: Option<&Providers>,
) -> Vec<Diagnostic> {
    let mut by_module: HashMap<ModuleInstance, Vec<(Resource, Value)>> = HashMap::new();
    for rs in state.resources.values() {
        by_module
            .entry(rs.addr.module.clone())
            .or_default()
            .push((rs.addr.resource.clone(), resource_value(rs, providers)));
    }
    expand_with_values(tree, by_module)
}

/// [`expand_from_state`] with the resource values given per module instance (`ferro test`
/// evaluates its assertions against a plan's planned values this way).
pub fn expand_with_values(
    tree: &EvalTree<'_>,
    mut by_module: HashMap<ModuleInstance, Vec<(Resource, Value)>>,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut pending = VecDeque::from([ModuleInstance::root()]);
    while let Some(path) = pending.pop_front() {
        let Some(m) = tree.scope(&path) else {
            continue;
        };
        for (r, v) in by_module.remove(&path).unwrap_or_default() {
            m.set_resource(r, v);
        }
        for (name, item) in &m.index.module_calls {
            let call = &m.hir(item.file).module_calls[item.index];
            let Some((expansion, keys)) = expand_in(
                &m,
                item.file,
                call.count,
                call.for_each,
                call.enabled,
                &mut diags,
            ) else {
                continue;
            };
            let children: Vec<ModuleInstance> = keys
                .iter()
                .map(|(k, _)| path.child(name, k.clone()))
                .collect();
            tree.expand_call(&path, name, expansion, keys);
            pending.extend(children);
        }
    }
    diags
}

/// A resource's value from its current objects: decoded against its schema when `providers`
/// has it (dynamically typed attributes then lose their type wrappers), else from their JSON
/// as it reads.
pub fn resource_value(rs: &ferro_state::ResourceState, providers: Option<&Providers>) -> Value {
    let ty = providers
        .and_then(|p| p.resource_schema(&rs.provider, &rs.addr.resource))
        .map(|s| s.implied_type());
    let obj = |o: &ferro_state::ObjectState| {
        let v = ty
            .as_ref()
            .and_then(|t| o.attributes.to_value(t).ok())
            .unwrap_or_else(|| json::value_from_plain_json(&o.attributes.json()));
        apply_sensitive_paths(v, &o.sensitive_attributes)
    };
    let mut single = None;
    let mut ints = Vec::new();
    let mut strs = ValueMap::new();
    for (key, inst) in &rs.instances {
        let Some(cur) = &inst.current else { continue };
        match key {
            InstanceKey::None => single = Some(obj(cur)),
            InstanceKey::Int(_) => ints.push(obj(cur)),
            InstanceKey::Str(k) => {
                strs.insert(k.clone(), obj(cur));
            }
        }
    }
    match single {
        Some(v) => v,
        None if !strs.is_empty() => Value::object(strs),
        None => Value::tuple(ints),
    }
}
