//! `moved` blocks: objects that state records at an old address are taken over by the new one
//! before anything is planned, so renaming a resource, changing an instance key or moving a
//! module call keeps the objects instead of destroying and recreating them. A move between
//! managed resource types (Terraform 1.8) has the target's provider convert each object
//! (`MoveResourceState`) when its schema offers the capability; otherwise it is "Unsupported
//! `moved` across resource types".
//!
//! Addresses are relative to the module that declares the block and apply in every instance
//! of it. Chains (`a` → `b`, `b` → `c`) are followed; a move whose destination already holds
//! objects is skipped, as Terraform skips it. Two blocks moving different objects to one
//! address, and moves that form a cycle, are errors.

use crate::providers::Providers;
use crate::scope::EvalTree;
use ferro_addrs::{
    module_contains, AbsResource, AbsResourceInstance, InstanceKey, ModuleInstance,
    ModuleInstanceStep, Target,
};
use ferro_diag::{Diagnostic, Span};
use ferro_state::State;
use std::collections::{BTreeMap, HashMap};

/// One `moved` block with the static path of the module declaring it.
struct Statement {
    module: Vec<String>,
    from: Target,
    to: Target,
    span: Span,
}

/// Apply every `moved` block of the configuration to `state`. Returns, for each instance that
/// moved, its new address mapped to the address state had for it before this plan.
pub(crate) fn apply_moves(
    tree: &EvalTree<'_>,
    state: &mut State,
    providers: &Providers,
) -> (
    BTreeMap<AbsResourceInstance, AbsResourceInstance>,
    Vec<Diagnostic>,
) {
    let mut statements = Vec::new();
    for st in &tree.statics {
        for item in &st.index.moved {
            let hir = tree.hir(item.file);
            let m = &hir.moved[item.index];
            statements.push(Statement {
                module: st.path.clone(),
                from: m.from.clone(),
                to: m.to.clone(),
                span: hir.at(m.span),
            });
        }
    }
    let mut previous = BTreeMap::new();
    if statements.is_empty() {
        return (previous, Vec::new());
    }
    let diags = check_statements(&statements);
    if !diags.is_empty() {
        return (previous, diags);
    }
    let mut diags = Vec::new();
    // Apply until nothing moves any more (a chain needs one round per link).
    for _ in 0..=statements.len() {
        let mut moved_any = false;
        for s in &statements {
            for (old, new) in apply_one(s, state) {
                if old.resource.resource.ty != new.resource.resource.ty {
                    convert_moved(s, &old, &new, state, providers, &mut diags);
                    if diags.iter().any(Diagnostic::is_error) {
                        return (previous, diags);
                    }
                }
                let origin = previous.remove(&old).unwrap_or(old);
                previous.insert(new, origin);
                moved_any = true;
            }
        }
        if !moved_any {
            break;
        }
    }
    (previous, diags)
}

/// The object moved from `old` to `new` (a resource of another type) converted by the
/// provider of `new`'s configuration, as Terraform does it: the provider must say it can
/// (`move_resource_state`), gets the object as state holds it, and answers with the object of
/// the new type, which must be wholly known.
fn convert_moved(
    s: &Statement,
    old: &AbsResourceInstance,
    new: &AbsResourceInstance,
    state: &mut State,
    providers: &Providers,
    diags: &mut Vec<Diagnostic>,
) {
    let res = new.containing_resource();
    let unsupported = |detail: String| {
        Diagnostic::error(
            "moved-across-types",
            "Unsupported `moved` across resource types",
        )
        .with_detail(detail)
        .with_span(s.span)
    };
    let Some(cfg) = providers.by_resource.get(&res.config()) else {
        diags.push(unsupported(format!("{res} is not in the configuration, so no provider can take over the objects moved to it from {}.", old.containing_resource())));
        return;
    };
    let capable = providers
        .schemas
        .get(&cfg.provider)
        .is_some_and(|ps| ps.move_resource_state);
    let (Some(provider), Some(schema), true) = (
        providers.get(cfg),
        providers.resource_schema(cfg, &res.resource),
        capable,
    ) else {
        diags.push(unsupported(format!(
            "The provider {:?} does not support moved operations across resource types and providers.",
            cfg.provider.to_string()
        )));
        return;
    };
    let Some(rs) = state.resources.get(&res) else {
        return;
    };
    let source_provider = rs.provider.provider.to_string();
    let Some(obj) = rs
        .instances
        .get(&new.resource.key)
        .and_then(|i| i.current.as_deref())
        .cloned()
    else {
        return;
    };
    let source_state = obj.attributes.json();
    let private = obj
        .private
        .as_deref()
        .map(crate::statecodec::base64_decode)
        .unwrap_or_default();
    let source_identity = obj
        .identity
        .as_deref()
        .and_then(|i| serde_json::from_str::<serde_json::Value>(&i.json).ok());
    let resp = provider.move_resource_state(ferro_provider::MoveRequest {
        source_provider_address: &source_provider,
        source_type_name: &old.resource.resource.ty,
        source_schema_version: u64::from(obj.schema_version),
        source_state: &source_state,
        source_private: &private,
        target_type_name: &new.resource.resource.ty,
        source_identity: source_identity.as_ref(),
        source_identity_schema_version: obj.identity.as_deref().map_or(0, |i| i.schema_version),
    });
    let mut failed = false;
    for d in &resp.diagnostics {
        let error = d.severity == ferro_provider::Severity::Error;
        failed |= error;
        let base = if error {
            Diagnostic::error("provider-error", d.summary.clone())
        } else {
            Diagnostic::warning("provider-error", d.summary.clone())
        };
        diags.push(base.with_detail(d.detail.clone()).with_span(s.span));
    }
    if failed {
        return;
    }
    let invalid = |detail: String| {
        Diagnostic::error("provider-invalid-move", "Provider returned invalid value")
            .with_detail(detail)
            .with_span(s.span)
    };
    if resp.target_state.is_null() {
        diags.push(invalid(format!("The provider returned an invalid value during an across type move operation to {new}. This is a bug in the relevant provider; Please report it.")));
        return;
    }
    if !resp.target_state.is_wholly_known() {
        diags.push(invalid(format!("The provider {cfg} returned an invalid value during an across type move operation: The returned state contains unknown values. This is a bug in the relevant provider; Please report it.")));
        return;
    }
    // The target's identity, as the provider answered it (none: the object has none).
    let identity_schema = provider.identity_schema(&new.resource.resource.ty);
    let mut target_identity = None;
    if let Some(v) = &resp.target_identity {
        let addr = new.to_string();
        let provider_name = cfg.provider.to_string();
        let errs = ferro_runtime::identity::check_identity(
            v,
            identity_schema.as_ref(),
            true,
            &ferro_runtime::identity::IdentityAt {
                addr: &addr,
                provider_name: &provider_name,
                provider_type: new.resource.resource.implied_provider(),
            },
        );
        if !errs.is_empty() {
            diags.extend(errs.into_iter().map(|d| d.with_span(s.span)));
            return;
        }
        target_identity = identity_schema
            .as_ref()
            .and_then(|sch| ferro_runtime::identity::identity_for_state(v, sch));
    }
    match crate::statecodec::encode_object(
        schema,
        &resp.target_state,
        &resp.target_private,
        obj.dependencies.clone(),
        obj.create_before_destroy,
        obj.tainted,
        crate::statecodec::Hold::Text,
    ) {
        Ok(mut converted) => {
            converted.skip_destroy = obj.skip_destroy;
            converted.identity = target_identity;
            // The source type's identity is not the target's.
            state.clear_current_identity(&res, &new.resource.key);
            state.set_current(&res, cfg, &new.resource.key, Some(converted))
        }
        Err(e) => diags.push(invalid(format!(
            "ferro failed to encode the value in state for {new}: {e}."
        ))),
    }
}

/// Ambiguous destinations and cycles, per declaring module.
fn check_statements(statements: &[Statement]) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let mut by_to: HashMap<(Vec<String>, String), &Statement> = HashMap::new();
    for s in statements {
        let key = (s.module.clone(), s.to.to_string());
        match by_to.get(&key) {
            Some(first) if first.from != s.from => diags.push(
                Diagnostic::error("moved-ambiguous", "Ambiguous move statements")
                    .with_detail(format!("A statement at another location declared that {} moved to {}, but this statement instead declares that {} moved there.\n\nEach resource can move to only one destination resource.", first.from, s.to, s.from))
                    .with_span(s.span),
            ),
            _ => {
                by_to.insert(key, s);
            }
        }
    }
    let next: HashMap<(Vec<String>, String), String> = statements
        .iter()
        .map(|s| ((s.module.clone(), s.from.to_string()), s.to.to_string()))
        .collect();
    for s in statements {
        let mut cur = s.to.to_string();
        for _ in 0..statements.len() {
            if cur == s.from.to_string() {
                diags.push(
                    Diagnostic::error("moved-cycle", "Cyclic dependency in move statements")
                        .with_detail(format!("The move statements form a cycle through {}: each object can move only once, so a chain of moves must end.", s.from))
                        .with_span(s.span),
                );
                break;
            }
            match next.get(&(s.module.clone(), cur.clone())) {
                Some(n) => cur = n.clone(),
                None => break,
            }
        }
    }
    diags
}

/// The module instances in state whose static path is `module`.
fn module_instances(state: &State, module: &[String]) -> Vec<ModuleInstance> {
    let mut out: Vec<ModuleInstance> = state
        .resources
        .keys()
        .filter(|a| {
            a.module.0.len() >= module.len()
                && a.module.0.iter().zip(module).all(|(s, n)| &s.name == n)
        })
        .map(|a| ModuleInstance(a.module.0[..module.len()].into()))
        .collect();
    out.sort();
    out.dedup();
    out
}

fn join(base: &ModuleInstance, rel: &ModuleInstance) -> ModuleInstance {
    let mut steps = base.0.to_vec();
    steps.extend(rel.0.iter().cloned());
    ModuleInstance(steps.into())
}

/// Apply one statement everywhere it applies; the (old, new) address of every instance moved.
fn apply_one(s: &Statement, state: &mut State) -> Vec<(AbsResourceInstance, AbsResourceInstance)> {
    let mut moved = Vec::new();
    for base in module_instances(state, &s.module) {
        match (&s.from, &s.to) {
            (Target::Module(from), Target::Module(to)) => {
                move_module(state, &join(&base, from), &join(&base, to), &mut moved)
            }
            (from, to) => {
                let (Some((fr, fk)), Some((tr, tk))) =
                    (resource_side(&base, from), resource_side(&base, to))
                else {
                    continue;
                };
                match (fk, tk) {
                    (None, None) => move_resource(state, &fr, &tr, &mut moved),
                    (fk, tk) => move_instance(
                        state,
                        &fr,
                        fk.unwrap_or(InstanceKey::None),
                        &tr,
                        tk.unwrap_or(InstanceKey::None),
                        &mut moved,
                    ),
                }
            }
        }
    }
    moved
}

/// A resource-side address made absolute: the resource and, for an instance, its key.
fn resource_side(base: &ModuleInstance, t: &Target) -> Option<(AbsResource, Option<InstanceKey>)> {
    Some(match t {
        Target::Resource(r) => (
            AbsResource {
                module: join(base, &r.module),
                resource: r.resource.clone(),
            },
            None,
        ),
        Target::Instance(i) => (
            AbsResource {
                module: join(base, &i.module),
                resource: i.resource.resource.clone(),
            },
            Some(i.resource.key.clone()),
        ),
        Target::Module(_) => return None,
    })
}

fn move_resource(
    state: &mut State,
    from: &AbsResource,
    to: &AbsResource,
    moved: &mut Vec<(AbsResourceInstance, AbsResourceInstance)>,
) {
    if state.resources.contains_key(to) {
        return;
    }
    let Some(mut rs) = state.resources.remove(from) else {
        return;
    };
    for key in rs.instances.keys() {
        moved.push((from.instance(key.clone()), to.instance(key.clone())));
    }
    rs.addr = to.clone();
    state.resources.insert(to.clone(), rs);
}

fn move_instance(
    state: &mut State,
    from: &AbsResource,
    from_key: InstanceKey,
    to: &AbsResource,
    to_key: InstanceKey,
    moved: &mut Vec<(AbsResourceInstance, AbsResourceInstance)>,
) {
    if state
        .resources
        .get(to)
        .is_some_and(|rs| rs.instances.contains_key(&to_key))
    {
        return;
    }
    let Some(src) = state.resources.get_mut(from) else {
        return;
    };
    let Some(inst) = src.instances.remove(&from_key) else {
        return;
    };
    let provider = src.provider.clone();
    let provider_key = src.provider_keys.remove(&from_key);
    if src.instances.is_empty() {
        state.resources.remove(from);
    }
    let dst = state
        .resources
        .entry(to.clone())
        .or_insert_with(|| ferro_state::ResourceState {
            addr: to.clone(),
            provider,
            instances: BTreeMap::new(),
            provider_keys: BTreeMap::new(),
        });
    dst.instances.insert(to_key.clone(), inst);
    if let Some(k) = provider_key {
        dst.provider_keys.insert(to_key.clone(), k);
    }
    moved.push((from.instance(from_key), to.instance(to_key)));
}

/// Move every resource under the module instance (or, with a keyless last step, every instance
/// of the call) `from` to `to`.
fn move_module(
    state: &mut State,
    from: &ModuleInstance,
    to: &ModuleInstance,
    moved: &mut Vec<(AbsResourceInstance, AbsResourceInstance)>,
) {
    let keyless = from.0.last().is_some_and(|s| s.key.is_none());
    let under = |m: &ModuleInstance| module_contains(from, m);
    if state
        .resources
        .keys()
        .any(|a| module_contains(to, &a.module) && !under(&a.module))
    {
        return;
    }
    let affected: Vec<AbsResource> = state
        .resources
        .keys()
        .filter(|a| under(&a.module))
        .cloned()
        .collect();
    for old in affected {
        let Some(mut rs) = state.resources.remove(&old) else {
            continue;
        };
        let n = from.0.len();
        let mut steps = to.0.to_vec();
        if keyless {
            // The call moved as a whole: each instance keeps its key.
            if let (Some(last), Some(orig)) = (steps.last_mut(), old.module.0.get(n - 1)) {
                *last = ModuleInstanceStep {
                    name: last.name.clone(),
                    key: orig.key.clone(),
                };
            }
        }
        steps.extend(old.module.0[n..].iter().cloned());
        let new = AbsResource {
            module: ModuleInstance(steps.into()),
            resource: old.resource.clone(),
        };
        for key in rs.instances.keys() {
            moved.push((old.instance(key.clone()), new.instance(key.clone())));
        }
        rs.addr = new.clone();
        state.resources.insert(new, rs);
    }
}
