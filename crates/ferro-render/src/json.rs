//! The machine-readable forms: `show -json PLANFILE` and `show -json` of a state, in the layout
//! Terraform 1.0 emits (format version 0.2): compact JSON, keys in Terraform's order, Go's
//! string escaping.

use super::{decode_object, sorted_changes};
use ferro_addrs::{AbsResource, InstanceKey, ModuleInstance, ResourceMode};
use ferro_db::{Db, Workspace};
use ferro_plan::{Action, ActionReason, Plan, ResourceInstanceChange};
use ferro_runtime::config_value::mark_schema_sensitive;
use ferro_runtime::Providers;
use ferro_state::State;
use ferro_value::json::{to_go_json_string, value_to_plain_json};
use ferro_value::{Value, ValueKind};
use serde_json::{Map, Value as J};
use std::collections::BTreeMap;

pub const FORMAT_VERSION: &str = "0.2";

pub(super) fn obj() -> Map<String, J> {
    Map::new()
}

/// The value with unknowns removed: unknown attributes and map entries dropped, unknown list
/// elements null, unknown set and tuple elements dropped. None for a wholly unknown value.
fn omit_unknowns(v: &Value) -> Option<J> {
    match &v.kind {
        ValueKind::Unknown(_) => None,
        ValueKind::Null(_) => Some(J::Null),
        ValueKind::List(_, es) => Some(J::Array(
            es.iter()
                .map(|e| omit_unknowns(e).unwrap_or(J::Null))
                .collect(),
        )),
        ValueKind::Set(_, es) | ValueKind::Tuple(es) => {
            Some(J::Array(es.iter().filter_map(omit_unknowns).collect()))
        }
        ValueKind::Map(_, m) | ValueKind::Object(m) => Some(J::Object(
            m.iter()
                .filter_map(|(k, e)| omit_unknowns(e).map(|j| (k.to_string(), j)))
                .collect(),
        )),
        _ => Some(value_to_plain_json(v)),
    }
}

/// `true` at every unknown position (see `after_unknown`).
fn unknown_as_bool(v: &Value) -> J {
    match &v.kind {
        ValueKind::Null(_) => J::Bool(false),
        ValueKind::Unknown(_) => J::Bool(true),
        ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => {
            J::Array(es.iter().map(unknown_as_bool).collect())
        }
        ValueKind::Map(_, m) | ValueKind::Object(m) => J::Object(
            m.iter()
                .map(|(k, e)| (k.to_string(), unknown_as_bool(e)))
                .filter(|(_, j)| *j != J::Bool(false))
                .collect(),
        ),
        _ => J::Bool(false),
    }
}

/// `true` at every sensitive position (see `before_sensitive`).
pub fn sensitive_as_bool(v: &Value) -> J {
    if v.is_sensitive() {
        return J::Bool(true);
    }
    match &v.kind {
        ValueKind::Null(_) => J::Bool(false),
        ValueKind::Unknown(t) if t.is_collection() || matches!(t, ferro_value::Type::Tuple(_)) => {
            if matches!(t, ferro_value::Type::Map(_)) {
                J::Object(obj())
            } else {
                J::Array(Vec::new())
            }
        }
        ValueKind::Unknown(ferro_value::Type::Object(_)) => J::Object(obj()),
        ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => {
            J::Array(es.iter().map(sensitive_as_bool).collect())
        }
        ValueKind::Map(_, m) | ValueKind::Object(m) => J::Object(
            m.iter()
                .map(|(k, e)| (k.to_string(), sensitive_as_bool(e)))
                .filter(|(_, j)| *j != J::Bool(false))
                .collect(),
        ),
        _ => J::Bool(false),
    }
}

fn index_json(k: &InstanceKey) -> Option<J> {
    match k {
        InstanceKey::None => None,
        InstanceKey::Int(i) => Some(J::from(*i)),
        InstanceKey::Str(s) => Some(J::String(s.clone())),
    }
}

pub(super) fn mode_str(m: ResourceMode) -> &'static str {
    match m {
        ResourceMode::Managed => "managed",
        ResourceMode::Data => "data",
        ResourceMode::Ephemeral => "ephemeral",
    }
}

fn resource_head(out: &mut Map<String, J>, res: &AbsResource, key: &InstanceKey, addr: String) {
    out.insert("address".into(), J::String(addr));
    if !res.module.is_root() {
        out.insert("module_address".into(), J::String(res.module.to_string()));
    }
    out.insert("mode".into(), J::String(mode_str(res.resource.mode).into()));
    out.insert("type".into(), J::String(res.resource.ty.to_string()));
    out.insert("name".into(), J::String(res.resource.name.to_string()));
    if let Some(i) = index_json(key) {
        out.insert("index".into(), i);
    }
}

/// The `root_module` of a values representation: the root's resources, then one
/// `child_modules` entry per module instance (ancestors of instances with resources included),
/// nested as the module tree is.
fn module_json(resources: Vec<(ModuleInstance, J)>) -> J {
    let mut by_module: BTreeMap<ModuleInstance, Vec<J>> = BTreeMap::new();
    for (m, r) in resources {
        let mut cur = m.clone();
        while let Some((parent, _)) = cur.split_last() {
            by_module.entry(parent.clone()).or_default();
            cur = parent;
        }
        by_module.entry(m).or_default().push(r);
    }
    fn render(m: &ModuleInstance, by_module: &mut BTreeMap<ModuleInstance, Vec<J>>) -> J {
        let mut out = obj();
        let mut resources = by_module.remove(m).unwrap_or_default();
        sort_by_address(&mut resources);
        if !resources.is_empty() {
            out.insert("resources".into(), J::Array(resources));
        }
        if !m.is_root() {
            out.insert("address".into(), J::String(m.to_string()));
        }
        let mut children: Vec<ModuleInstance> = by_module
            .keys()
            .filter(|k| k.split_last().is_some_and(|(p, _)| &p == m))
            .cloned()
            .collect();
        children.sort_by_cached_key(|c| c.to_string());
        if !children.is_empty() {
            let kids = children.iter().map(|c| render(c, by_module)).collect();
            out.insert("child_modules".into(), J::Array(kids));
        }
        J::Object(out)
    }
    by_module.entry(ModuleInstance::root()).or_default();
    render(&ModuleInstance::root(), &mut by_module)
}

/// Terraform lists resources (and resource changes) in the order of their address text:
/// `r[10]` before `r[2]`, `module.a…` before `null_resource…`. The sort is stable, so entries
/// of one address (a current and a deposed object) keep their order.
fn sort_by_address(list: &mut [J]) {
    list.sort_by_cached_key(|r| {
        r.get("address")
            .and_then(J::as_str)
            .unwrap_or_default()
            .to_string()
    });
}

/// The `values` representation of a state (also the plan's `prior_state`).
fn state_values(state: &State, providers: &Providers) -> J {
    let mut outputs = obj();
    for (name, o) in &state.outputs {
        let mut e = obj();
        e.insert("sensitive".into(), J::Bool(o.sensitive));
        e.insert("value".into(), o.value.clone());
        outputs.insert(name.clone(), J::Object(e));
    }
    let mut resources = Vec::new();
    for (res, rs) in &state.resources {
        let schema = providers.resource_schema(&rs.provider, &res.resource);
        for (key, inst) in &rs.instances {
            let objects = inst
                .current
                .as_deref()
                .map(|o| (None, o))
                .into_iter()
                .chain(inst.deposed.iter().map(|(k, o)| (Some(k), o)));
            for (deposed, o) in objects {
                let addr = res.instance(key.clone()).to_string();
                let mut r = obj();
                resource_head(&mut r, res, key, addr);
                r.shift_remove("module_address");
                r.insert(
                    "provider_name".into(),
                    J::String(rs.provider.provider.to_string()),
                );
                r.insert("schema_version".into(), J::from(o.schema_version));
                let value = schema.and_then(|s| decode_object(o, s));
                match &value {
                    Some(v) => {
                        if let Some(m) = v.as_entries() {
                            if !m.is_empty() {
                                r.insert(
                                    "values".into(),
                                    J::Object(
                                        m.iter()
                                            .map(|(k, e)| (k.to_string(), value_to_plain_json(e)))
                                            .collect(),
                                    ),
                                );
                            }
                        }
                        r.insert("sensitive_values".into(), sensitive_as_bool(v));
                    }
                    None => {
                        r.insert("values".into(), o.attributes.json());
                        r.insert("sensitive_values".into(), J::Object(obj()));
                    }
                }
                if !o.dependencies.is_empty() {
                    r.insert(
                        "depends_on".into(),
                        J::Array(o.dependencies.iter().cloned().map(J::String).collect()),
                    );
                }
                if o.tainted {
                    r.insert("tainted".into(), J::Bool(true));
                }
                if let Some(k) = deposed {
                    r.insert("deposed_key".into(), J::String(k.clone()));
                }
                // Terraform 1.12+: the object's resource identity, when it has one.
                if let Some(id) = o.identity.as_deref() {
                    if let Ok(j @ J::Object(_)) = serde_json::from_str::<J>(&id.json) {
                        r.insert("identity_schema_version".into(), J::from(id.schema_version));
                        r.insert("identity".into(), j);
                    }
                }
                resources.push((res.module.clone(), J::Object(r)));
            }
        }
    }
    let mut v = obj();
    v.insert("outputs".into(), J::Object(outputs));
    v.insert("root_module".into(), module_json(resources));
    if state.outputs.is_empty() {
        v.shift_remove("outputs");
    }
    J::Object(v)
}

fn state_object(state: &State, providers: &Providers) -> J {
    let mut top = obj();
    top.insert("format_version".into(), J::String(FORMAT_VERSION.into()));
    if !state.is_empty() {
        top.insert(
            "terraform_version".into(),
            J::String(state.terraform_version.clone()),
        );
        top.insert("values".into(), state_values(state, providers));
    }
    J::Object(top)
}

/// `show -json` of a state.
pub fn state_json(state: &State, providers: &Providers) -> String {
    let mut s = to_go_json_string(&state_object(state, providers));
    s.push('\n');
    s
}

/// `show -json PLANFILE`.
pub fn plan_json(plan: &Plan, providers: &Providers, db: &dyn Db, ws: Workspace) -> String {
    let mut top = obj();
    top.insert("format_version".into(), J::String(FORMAT_VERSION.into()));
    top.insert(
        "terraform_version".into(),
        J::String(ferro_state::WRITER_VERSION.into()),
    );
    if !plan.variables.is_empty() {
        let mut vars = obj();
        for (name, v) in &plan.variables {
            let mut e = obj();
            e.insert("value".into(), value_to_plain_json(&v.deep_unmark().0));
            vars.insert(name.clone(), J::Object(e));
        }
        top.insert("variables".into(), J::Object(vars));
    }

    // planned_values
    let changes = sorted_changes(plan);
    let mut planned_resources = Vec::new();
    let mut resource_changes = Vec::new();
    let moved_from: std::collections::HashMap<_, _> = plan.moved.iter().cloned().collect();
    let import_ids = plan.import_ids();
    for c in &changes {
        let schema = super::schema_block(providers, c);
        let mark = |v: &Value| match schema {
            Some(s) => mark_schema_sensitive(s, v),
            None => v.clone(),
        };
        let (before, after) = (mark(&c.before.value()), mark(&c.after.value()));
        let res = c.addr.containing_resource();
        let key = &c.addr.resource.key;
        if c.action != Action::Delete && c.deposed().is_none() {
            let mut r = obj();
            resource_head(&mut r, &res, key, c.addr.to_string());
            r.shift_remove("module_address");
            r.insert(
                "provider_name".into(),
                J::String(c.provider.provider.to_string()),
            );
            r.insert("schema_version".into(), J::from(c.schema_version));
            if let Some(J::Object(m)) = omit_unknowns(&after.deep_unmark().0) {
                if !m.is_empty() {
                    r.insert("values".into(), J::Object(m));
                }
            }
            r.insert("sensitive_values".into(), sensitive_as_bool(&after));
            planned_resources.push((res.module.clone(), J::Object(r)));
        }
        if c.action == Action::Delete && c.addr.resource.resource.mode == ResourceMode::Data {
            continue;
        }
        let mut rc = resource_change_json(c, &before, &after);
        if let (Some(old), J::Object(m)) = (
            moved_from.get(&c.addr).filter(|_| c.deposed().is_none()),
            &mut rc,
        ) {
            m.insert("previous_address".into(), J::String(old.to_string()));
        }
        if let (Some(id), J::Object(m)) = (
            import_ids.get(&c.addr).filter(|_| c.deposed().is_none()),
            &mut rc,
        ) {
            if let Some(J::Object(ch)) = m.get_mut("change") {
                let mut importing = obj();
                match plan.import_identities.iter().find(|(a, _)| a == &c.addr) {
                    Some((_, identity)) => {
                        importing.insert("identity".into(), identity.clone());
                    }
                    None => {
                        importing.insert("id".into(), J::String(id.to_string()));
                    }
                }
                ch.insert("importing".into(), J::Object(importing));
                if let Some((_, text)) = plan.generated_config.iter().find(|(a, _)| a == &c.addr) {
                    ch.insert("generated_config".into(), J::String(text.clone()));
                }
            }
        }
        // Terraform 1.12+: the resource identities before and after the change.
        if let Some(J::Object(ch)) = rc.get_mut("change") {
            let identity_json = |v: &Value| {
                (!v.is_null() && v.is_wholly_known())
                    .then(|| value_to_plain_json(&v.deep_unmark().0))
            };
            if let Some(j) = c.before_identity().as_ref().and_then(identity_json) {
                ch.insert("before_identity".into(), j);
            }
            if let Some(j) = c.after_identity().and_then(|(v, _)| identity_json(&v)) {
                ch.insert("after_identity".into(), j);
            }
        }
        resource_changes.push(rc);
    }
    // Objects `removed` blocks forget: OpenTofu's "forget" action.
    for c in &plan.forgotten {
        let schema = super::schema_block(providers, c);
        let before = c.before.value();
        let before = match schema {
            Some(s) => mark_schema_sensitive(s, &before),
            None => before,
        };
        let mut rc = resource_change_json(c, &before, &c.after.value());
        if let J::Object(m) = &mut rc {
            if let Some(J::Object(ch)) = m.get_mut("change") {
                ch.insert("actions".into(), J::Array(vec![J::String("forget".into())]));
            }
        }
        resource_changes.push(rc);
    }
    let mut planned = obj();
    let mut pouts = obj();
    for o in &plan.outputs {
        if o.action == Action::Delete {
            continue;
        }
        let mut e = obj();
        e.insert("sensitive".into(), J::Bool(o.sensitive));
        if o.after.is_wholly_known() {
            e.insert(
                "value".into(),
                value_to_plain_json(&o.after.deep_unmark().0),
            );
        }
        pouts.insert(o.name.clone(), J::Object(e));
    }
    if !pouts.is_empty() {
        planned.insert("outputs".into(), J::Object(pouts));
    }
    planned.insert("root_module".into(), module_json(planned_resources));
    top.insert("planned_values".into(), J::Object(planned));
    let mut drift = Vec::new();
    for d in &plan.drift {
        let c = d.as_change();
        let schema = super::schema_block(providers, &c);
        let mark = |v: &Value| match schema {
            Some(s) => mark_schema_sensitive(s, v),
            None => v.clone(),
        };
        let mut entry = resource_change_json(&c, &mark(&d.before), &mark(&d.after));
        // Terraform 1.0.3 leaves `after_unknown` out of drift (the object read is known).
        if let Some(ch) = entry.get_mut("change").and_then(J::as_object_mut) {
            ch.shift_remove("after_unknown");
        }
        drift.push(entry);
    }
    sort_by_address(&mut drift);
    if !drift.is_empty() {
        top.insert("resource_drift".into(), J::Array(drift));
    }
    sort_by_address(&mut resource_changes);
    if !resource_changes.is_empty() {
        top.insert("resource_changes".into(), J::Array(resource_changes));
    }
    // A partial plan (`-allow-deferral`): its deferred changes, and that it is not complete,
    // as Terraform's plan JSON says so (only then: Terraform 1.0.3's has neither).
    if !plan.is_complete() {
        let deferred = plan
            .deferred
            .iter()
            .map(|d| deferred_change_json(d, providers))
            .collect();
        top.insert("deferred_changes".into(), J::Array(deferred));
        top.insert("applyable".into(), J::Bool(true));
        top.insert("complete".into(), J::Bool(false));
    }
    let mut ochanges = obj();
    let mut outputs: Vec<_> = plan.outputs.iter().collect();
    outputs.sort_by(|a, b| a.name.cmp(&b.name));
    for o in outputs {
        let mut ch = obj();
        ch.insert(
            "actions".into(),
            J::Array(
                o.action
                    .json_actions()
                    .iter()
                    .map(|a| J::String((*a).into()))
                    .collect(),
            ),
        );
        ch.insert(
            "before".into(),
            value_to_plain_json(&o.before.deep_unmark().0),
        );
        let known = o.after.is_wholly_known();
        if known {
            ch.insert(
                "after".into(),
                value_to_plain_json(&o.after.deep_unmark().0),
            );
        }
        ch.insert("after_unknown".into(), J::Bool(!known));
        ch.insert("before_sensitive".into(), J::Bool(o.sensitive));
        ch.insert("after_sensitive".into(), J::Bool(o.sensitive));
        ochanges.insert(o.name.clone(), J::Object(ch));
    }
    if !ochanges.is_empty() {
        top.insert("output_changes".into(), J::Object(ochanges));
    }
    // The refreshed state, with the root outputs as this plan evaluated them where they are
    // known already (as Terraform writes it).
    let mut prior = plan.prior_state.clone();
    // A data source read during apply has only a planned object until then, which Terraform
    // does not keep in the refreshed state: its old result is left out. So is a data source
    // instance no longer in the configuration (Terraform drops it while planning; ferro's plan
    // deletes it from state, a change show -json does not list).
    for c in &plan.changes {
        let data_gone = c.action == Action::Delete
            && c.addr.resource.resource.mode == ferro_addrs::ResourceMode::Data;
        if (c.action == Action::Read || data_gone) && c.deposed().is_none() {
            prior.forget_instance(&c.addr.containing_resource(), &c.addr.resource.key);
        }
    }
    for o in &plan.outputs {
        // An output the plan deletes keeps its old value here (Terraform's refreshed state
        // still has it; the output change says it goes).
        if o.action == Action::Delete {
            continue;
        }
        let (plain, _) = o.after.deep_unmark();
        if !plain.is_wholly_known() || plain.is_null() {
            continue;
        }
        let ty = plain.ty();
        if let Ok(value) = ferro_value::json::value_to_json(&plain, &ty) {
            prior.outputs.insert(
                o.name.clone(),
                ferro_state::OutputState {
                    value,
                    ty: ferro_value::json::type_to_json(&ty),
                    sensitive: o.sensitive,
                },
            );
        }
    }
    // Left out when there is nothing in it, as Terraform leaves it out.
    if !prior.is_empty() {
        top.insert("prior_state".into(), state_object(&prior, providers));
    }
    top.insert(
        "configuration".into(),
        super::json_config::configuration(plan, providers, db, ws),
    );
    let mut s = to_go_json_string(&J::Object(top));
    s.push('\n');
    s
}

/// One entry of `deferred_changes`: the reason, and the change as `resource_changes` has
/// it, its address with Terraform's wildcard key where the key is not known.
fn deferred_change_json(d: &ferro_plan::DeferredChange, providers: &Providers) -> J {
    let c = &d.change;
    let schema = super::schema_block(providers, c);
    let mark = |v: &Value| match schema {
        Some(s) => mark_schema_sensitive(s, v),
        None => v.clone(),
    };
    let mut rc = resource_change_json(c, &mark(&c.before.value()), &mark(&c.after.value()));
    if let J::Object(m) = &mut rc {
        m.insert("address".into(), J::String(d.address.clone()));
        if d.module_address.is_empty() {
            m.shift_remove("module_address");
        } else {
            m.insert("module_address".into(), J::String(d.module_address.clone()));
        }
        if d.index_unknown {
            // After `name`, where Terraform's field is.
            let mut keyed = obj();
            for (k, v) in std::mem::take(m) {
                if k == "index" {
                    continue;
                }
                let name = k == "name";
                keyed.insert(k, v);
                if name {
                    keyed.insert("index_unknown".into(), J::Bool(true));
                }
            }
            *m = keyed;
        }
    }
    let mut e = obj();
    e.insert("reason".into(), J::String(d.reason.json_name().into()));
    e.insert("resource_change".into(), rc);
    J::Object(e)
}

/// One entry of `resource_changes` (and of `resource_drift`).
fn resource_change_json(c: &ResourceInstanceChange, before: &Value, after: &Value) -> J {
    let res = c.addr.containing_resource();
    let key = &c.addr.resource.key;
    let mut r = obj();
    resource_head(&mut r, &res, key, c.addr.to_string());
    r.insert(
        "provider_name".into(),
        J::String(c.provider.provider.to_string()),
    );
    if let Some(d) = c.deposed() {
        r.insert("deposed".into(), J::String(d.to_string()));
    }
    let mut ch = obj();
    ch.insert(
        "actions".into(),
        J::Array(
            c.action
                .json_actions()
                .iter()
                .map(|a| J::String((*a).into()))
                .collect(),
        ),
    );
    ch.insert(
        "before".into(),
        value_to_plain_json(&before.deep_unmark().0),
    );
    ch.insert(
        "after".into(),
        omit_unknowns(&after.deep_unmark().0).unwrap_or(J::Null),
    );
    let au = if after.is_wholly_known() {
        J::Object(obj())
    } else {
        unknown_as_bool(after)
    };
    ch.insert("after_unknown".into(), au);
    ch.insert("before_sensitive".into(), sensitive_as_bool(before));
    ch.insert("after_sensitive".into(), sensitive_as_bool(after));
    if c.action.is_replace() && !c.requires_replace().is_empty() {
        let paths = c
            .requires_replace()
            .iter()
            .map(|p| {
                J::Array(
                    p.iter()
                        .map(|s| match s {
                            ferro_value::PathStep::Attr(a) => J::String(a.clone()),
                            ferro_value::PathStep::Index(k) => value_to_plain_json(k),
                        })
                        .collect(),
                )
            })
            .collect();
        ch.insert("replace_paths".into(), J::Array(paths));
    }
    r.insert("change".into(), J::Object(ch));
    // Terraform 1.0 reports reasons for replacements only (read reasons arrived in 1.2); the
    // reasons of OpenTofu's forget-then-create and of forgetting for `lifecycle { destroy =
    // false }` are OpenTofu's.
    let shown = |r: &ActionReason| {
        c.action.is_replace()
            || c.action == Action::ForgetThenCreate
            || matches!(
                r,
                ActionReason::ForgotBecauseLifecycleDestroyInConfig
                    | ActionReason::ForgotBecauseLifecycleDestroyInState
            )
    };
    if let Some(reason) = c.reason().filter(shown) {
        r.insert("action_reason".into(), J::String(reason.as_str().into()));
    }
    J::Object(r)
}

// ---------------------------------------------------------------------------------------------
// configuration
