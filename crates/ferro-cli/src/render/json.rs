//! The machine-readable forms: `show -json PLANFILE` and `show -json` of a state, in the layout
//! Terraform 1.0 emits (format version 0.2): compact JSON, keys in Terraform's order, Go's
//! string escaping.

use super::{decode_object, sorted_changes};
use ferro_addrs::{AbsResource, InstanceKey, ModuleInstance, ResourceMode};
use ferro_db::{file_hir, module_index, read_json_body, resource_body, Db, SourceFile, Workspace};
use ferro_hir::{BlockBody, Expr, ExprId, FileHir, Reference};
use ferro_plan::{Action, Plan};
use ferro_planner::config_value::mark_schema_sensitive;
use ferro_planner::Providers;
use ferro_state::State;
use ferro_value::json::{to_go_json_string, value_from_plain_json, value_to_plain_json};
use ferro_value::schema::Block;
use ferro_value::{Value, ValueKind};
use serde_json::{Map, Value as J};
use std::collections::BTreeMap;

pub const FORMAT_VERSION: &str = "0.2";

fn obj() -> Map<String, J> {
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
                .filter_map(|(k, e)| omit_unknowns(e).map(|j| (k.clone(), j)))
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
                .map(|(k, e)| (k.clone(), unknown_as_bool(e)))
                .filter(|(_, j)| *j != J::Bool(false))
                .collect(),
        ),
        _ => J::Bool(false),
    }
}

/// `true` at every sensitive position (see `before_sensitive`).
pub(crate) fn sensitive_as_bool(v: &Value) -> J {
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
                .map(|(k, e)| (k.clone(), sensitive_as_bool(e)))
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

fn mode_str(m: ResourceMode) -> &'static str {
    match m {
        ResourceMode::Managed => "managed",
        ResourceMode::Data => "data",
    }
}

fn resource_head(out: &mut Map<String, J>, res: &AbsResource, key: &InstanceKey, addr: String) {
    out.insert("address".into(), J::String(addr));
    if !res.module.is_root() {
        out.insert("module_address".into(), J::String(res.module.to_string()));
    }
    out.insert("mode".into(), J::String(mode_str(res.resource.mode).into()));
    out.insert("type".into(), J::String(res.resource.ty.clone()));
    out.insert("name".into(), J::String(res.resource.name.clone()));
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
        let resources = by_module.remove(m).unwrap_or_default();
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
                .iter()
                .map(|o| (None, o))
                .chain(inst.deposed.iter().map(|(k, o)| (Some(k), o)));
            for (deposed, o) in objects {
                let addr = res.instance(key.clone()).to_string();
                let mut r = obj();
                resource_head(&mut r, res, key, addr);
                r.remove("module_address");
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
                                            .map(|(k, e)| (k.clone(), value_to_plain_json(e)))
                                            .collect(),
                                    ),
                                );
                            }
                        }
                        r.insert("sensitive_values".into(), sensitive_as_bool(v));
                    }
                    None => {
                        r.insert("values".into(), o.attributes.clone());
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
                resources.push((res.module.clone(), J::Object(r)));
            }
        }
    }
    let mut v = obj();
    v.insert("outputs".into(), J::Object(outputs));
    v.insert("root_module".into(), module_json(resources));
    if state.outputs.is_empty() {
        v.remove("outputs");
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
    for c in &changes {
        let schema = super::schema_block(providers, c);
        let mark = |v: &Value| match schema {
            Some(s) => mark_schema_sensitive(s, v),
            None => v.clone(),
        };
        let (before, after) = (mark(&c.before), mark(&c.after));
        let res = c.addr.containing_resource();
        let key = &c.addr.resource.key;
        if c.action != Action::Delete && c.deposed.is_none() {
            let mut r = obj();
            resource_head(&mut r, &res, key, c.addr.to_string());
            r.remove("module_address");
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
        let mut r = obj();
        resource_head(&mut r, &res, key, c.addr.to_string());
        r.insert(
            "provider_name".into(),
            J::String(c.provider.provider.to_string()),
        );
        if let Some(d) = &c.deposed {
            r.insert("deposed".into(), J::String(d.clone()));
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
            unknown_as_bool(&after)
        };
        ch.insert("after_unknown".into(), au);
        ch.insert("before_sensitive".into(), sensitive_as_bool(&before));
        ch.insert("after_sensitive".into(), sensitive_as_bool(&after));
        if c.action.is_replace() && !c.requires_replace.is_empty() {
            let paths = c
                .requires_replace
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
        // Terraform 1.0 reports reasons for replacements only (read reasons arrived in 1.2).
        if let Some(reason) = c.reason.filter(|_| c.action.is_replace()) {
            r.insert("action_reason".into(), J::String(reason.as_str().into()));
        }
        resource_changes.push(J::Object(r));
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
    if !resource_changes.is_empty() {
        top.insert("resource_changes".into(), J::Array(resource_changes));
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
    if !plan.prior_state.is_empty() {
        top.insert(
            "prior_state".into(),
            state_object(&plan.prior_state, providers),
        );
    }
    top.insert(
        "configuration".into(),
        configuration(plan, providers, db, ws),
    );
    let mut s = to_go_json_string(&J::Object(top));
    s.push('\n');
    s
}

// ---------------------------------------------------------------------------------------------
// configuration

fn configuration(plan: &Plan, providers: &Providers, db: &dyn Db, ws: Workspace) -> J {
    let index = module_index(db, ws.root(db));
    let mut pc = obj();
    let mut keys: std::collections::BTreeMap<String, J> = std::collections::BTreeMap::new();
    for ((name, alias), item) in &index.providers {
        let hir = file_hir(db, item.file);
        let p = &hir.providers[item.index];
        let key = match alias {
            Some(a) => format!("{name}.{a}"),
            None => name.clone(),
        };
        let mut e = obj();
        e.insert("name".into(), J::String(name.clone()));
        if let Some(a) = alias {
            e.insert("alias".into(), J::String(a.clone()));
        }
        if let Some(rp) = index.required_providers.get(name) {
            let r = &file_hir(db, rp.file).required_providers[rp.index];
            if let Some(v) = &r.version {
                e.insert("version_constraint".into(), J::String(v.clone()));
            }
        }
        let schema = providers.config_schema(db, ws, name).map(|s| &s.block);
        let body = match schema {
            Some(s) => read_json_body(hir, &p.body, s).0,
            None => std::borrow::Cow::Borrowed(&p.body),
        };
        let exprs = body_expressions(hir, json_text(db, item.file), &body, schema);
        if !exprs.is_empty() {
            e.insert("expressions".into(), J::Object(exprs));
        }
        keys.insert(key, J::Object(e));
    }
    for (name, item) in &index.required_providers {
        if keys.contains_key(name) {
            continue;
        }
        let r = &file_hir(db, item.file).required_providers[item.index];
        let mut e = obj();
        e.insert("name".into(), J::String(name.clone()));
        if let Some(v) = &r.version {
            e.insert("version_constraint".into(), J::String(v.clone()));
        }
        keys.insert(name.clone(), J::Object(e));
    }
    for (k, v) in keys {
        pc.insert(k, v);
    }

    let mut root = obj();
    let mut outs = obj();
    for (name, item) in &index.outputs {
        let hir = file_hir(db, item.file);
        let o = &hir.outputs[item.index];
        let mut e = obj();
        if o.sensitive {
            e.insert("sensitive".into(), J::Bool(true));
        }
        if let Some(v) = o.value {
            e.insert(
                "expression".into(),
                J::Object(expression(hir, json_text(db, item.file), v)),
            );
        }
        if !o.depends_on.is_empty() {
            e.insert(
                "depends_on".into(),
                J::Array(
                    o.depends_on
                        .iter()
                        .map(|(r, _)| J::String(r.to_string()))
                        .collect(),
                ),
            );
        }
        if let Some(d) = &o.description {
            e.insert("description".into(), J::String(d.clone()));
        }
        outs.insert(name.clone(), J::Object(e));
    }
    if !outs.is_empty() {
        root.insert("outputs".into(), J::Object(outs));
    }
    let mut resources: Vec<(u8, String, J)> = Vec::new();
    for (res, item) in &index.resources {
        let hir = file_hir(db, item.file);
        let decl = &hir.resources[item.index];
        let mut e = obj();
        e.insert("address".into(), J::String(res.to_string()));
        e.insert("mode".into(), J::String(mode_str(res.mode).into()));
        e.insert("type".into(), J::String(res.ty.clone()));
        e.insert("name".into(), J::String(res.name.clone()));
        let pkey = match &decl.provider {
            Some((l, Some(a), _)) => format!("{l}.{a}"),
            Some((l, None, _)) => l.clone(),
            None => res.implied_provider().to_string(),
        };
        e.insert("provider_config_key".into(), J::String(pkey));
        let cfg = providers.by_resource.get(&ferro_addrs::ConfigResource {
            module: Vec::new(),
            resource: res.clone(),
        });
        let schema = cfg.and_then(|c| providers.resource_schema(c, res));
        let json = json_text(db, item.file);
        let exprs = body_expressions(
            hir,
            json,
            resource_body(db, ws, *item),
            schema.map(|s| &s.block),
        );
        if !exprs.is_empty() {
            e.insert("expressions".into(), J::Object(exprs));
        }
        e.insert(
            "schema_version".into(),
            J::from(schema.map(|s| s.version).unwrap_or(0)),
        );
        if let Some(c) = decl.count {
            e.insert(
                "count_expression".into(),
                J::Object(expression(hir, json, c)),
            );
        }
        if let Some(f) = decl.for_each {
            e.insert(
                "for_each_expression".into(),
                J::Object(expression(hir, json, f)),
            );
        }
        if !decl.depends_on.is_empty() {
            e.insert(
                "depends_on".into(),
                J::Array(
                    decl.depends_on
                        .iter()
                        .map(|(r, _)| J::String(r.to_string()))
                        .collect(),
                ),
            );
        }
        let mode_rank = if res.mode == ResourceMode::Managed {
            0
        } else {
            1
        };
        resources.push((mode_rank, res.to_string(), J::Object(e)));
    }
    resources.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    if !resources.is_empty() {
        root.insert(
            "resources".into(),
            J::Array(resources.into_iter().map(|r| r.2).collect()),
        );
    }
    let mut vars = obj();
    for (name, item) in &index.variables {
        let hir = file_hir(db, item.file);
        let v = &hir.variables[item.index];
        let mut e = obj();
        if v.default.is_some() {
            let val = plan
                .variables
                .get(name)
                .cloned()
                .unwrap_or_else(|| Value::null(ferro_value::Type::Dynamic));
            e.insert(
                "default".into(),
                v.default
                    .map(|d| constant(hir, d).unwrap_or_else(|| value_to_plain_json(&val)))
                    .unwrap_or(J::Null),
            );
        }
        if let Some(d) = &v.description {
            e.insert("description".into(), J::String(d.clone()));
        }
        if v.sensitive {
            e.insert("sensitive".into(), J::Bool(true));
        }
        vars.insert(name.clone(), J::Object(e));
    }
    if !vars.is_empty() {
        root.insert("variables".into(), J::Object(vars));
    }
    let mut c = obj();
    if !pc.is_empty() {
        c.insert("provider_config".into(), J::Object(pc));
    }
    c.insert("root_module".into(), J::Object(root));
    J::Object(c)
}

/// Attributes and nested blocks of a body as expression objects.
fn body_expressions(
    hir: &FileHir,
    json: Option<&str>,
    body: &BlockBody,
    schema: Option<&Block>,
) -> Map<String, J> {
    let mut out = obj();
    for a in &body.attrs {
        out.insert(a.name.clone(), J::Object(expression(hir, json, a.expr)));
    }
    let mut groups: std::collections::BTreeMap<&str, Vec<&ferro_hir::HirBlock>> =
        std::collections::BTreeMap::new();
    for b in &body.blocks {
        if b.ty == "lifecycle" || b.ty == "connection" || b.ty == "provisioner" || b.ty == "dynamic"
        {
            continue;
        }
        groups.entry(b.ty.as_str()).or_default().push(b);
    }
    for (name, blocks) in groups {
        let nb = schema.and_then(|s| s.block_types.get(name));
        let inner = nb.map(|n| &n.block);
        let items: Vec<J> = blocks
            .iter()
            .map(|b| J::Object(body_expressions(hir, json, &b.body, inner)))
            .collect();
        let v = match nb.map(|n| n.nesting) {
            Some(
                ferro_value::schema::NestingMode::Single | ferro_value::schema::NestingMode::Group,
            ) => items.into_iter().next().unwrap_or(J::Null),
            Some(ferro_value::schema::NestingMode::Map) => J::Object(
                blocks
                    .iter()
                    .map(|b| {
                        (
                            b.labels.first().cloned().unwrap_or_default(),
                            J::Object(body_expressions(hir, json, &b.body, inner)),
                        )
                    })
                    .collect(),
            ),
            _ => J::Array(items),
        };
        out.insert(name.to_string(), v);
    }
    out
}

/// The text of a file in the JSON syntax (`None` for the native syntax).
fn json_text(db: &dyn Db, file: SourceFile) -> Option<&str> {
    file.path(db)
        .ends_with(".tf.json")
        .then(|| file.text(db).as_str())
}

/// `{"constant_value": …}` for expressions without references or calls, else `{"references": […]}`.
/// In the JSON syntax (`json` is the file's text) every expression has a constant value: the
/// JSON value as written, since Terraform evaluates it without a context, where strings are
/// not templates.
fn expression(hir: &FileHir, json: Option<&str>, e: ExprId) -> Map<String, J> {
    let mut out = obj();
    let written = json
        .zip(hir.span(e))
        .and_then(|(text, span)| serde_json::from_str::<J>(text.get(span.range())?).ok());
    if let Some(c) = written
        .map(|j| value_to_plain_json(&value_from_plain_json(&j)))
        .or_else(|| constant(hir, e))
    {
        out.insert("constant_value".into(), c);
    }
    let mut refs = Vec::new();
    collect_refs(hir, e, &mut refs);
    if !refs.is_empty() {
        out.insert(
            "references".into(),
            J::Array(refs.into_iter().map(J::String).collect()),
        );
    }
    out
}

/// The value of an expression Terraform can evaluate without any context (no references and,
/// unlike `ferro_db::static_value`, no function calls).
fn constant(hir: &FileHir, e: ExprId) -> Option<J> {
    if !calls_nothing(hir, e) {
        return None;
    }
    ferro_db::static_value(hir, e).map(|v| value_to_plain_json(&v.deep_unmark().0))
}

/// True when the expression has no function calls or `for` expressions (references are left to
/// `static_value`).
fn calls_nothing(hir: &FileHir, e: ExprId) -> bool {
    let mut stack = vec![e];
    while let Some(id) = stack.pop() {
        match &hir.exprs[id] {
            Expr::Call { .. } | Expr::ForVar(_) | Expr::For { .. } | Expr::Missing => return false,
            Expr::Template(parts) => {
                for p in parts {
                    match p {
                        ferro_hir::TemplatePart::Literal(_) => {}
                        ferro_hir::TemplatePart::Interp(x) => stack.push(*x),
                        _ => return false,
                    }
                }
            }
            Expr::TemplateWrap(x) => stack.push(*x),
            Expr::Tuple(xs) => stack.extend(xs.iter().copied()),
            Expr::Object(kv) => {
                for (k, v) in kv {
                    stack.extend([*k, *v]);
                }
            }
            Expr::Unary { operand, .. } => stack.push(*operand),
            Expr::Binary { lhs, rhs, .. } => stack.extend([*lhs, *rhs]),
            Expr::Conditional {
                cond,
                then,
                otherwise,
            } => stack.extend([*cond, *then, *otherwise]),
            Expr::GetAttr { target, .. } => stack.push(*target),
            Expr::Index { target, key } => stack.extend([*target, *key]),
            Expr::Splat { target, body } => stack.extend([*target, *body]),
            Expr::Literal(_) | Expr::SplatElem | Expr::Ref(_) => {}
        }
    }
    true
}

/// References in source order, each with its static traversal and progressively shorter forms.
fn collect_refs(hir: &FileHir, e: ExprId, out: &mut Vec<String>) {
    // Find every reference root, then climb the static traversal above it.
    let mut parents: std::collections::HashMap<ExprId, ExprId> = std::collections::HashMap::new();
    let mut order = Vec::new();
    let mut stack = vec![e];
    while let Some(id) = stack.pop() {
        order.push(id);
        let mut kids: Vec<ExprId> = Vec::new();
        match &hir.exprs[id] {
            Expr::Template(parts) => template_kids(parts, &mut kids),
            Expr::TemplateWrap(x) => kids.push(*x),
            Expr::GetAttr { target, .. } => kids.push(*target),
            Expr::Index { target, key } => kids.extend([*target, *key]),
            Expr::Splat { target, body } => kids.extend([*target, *body]),
            Expr::Call { args, .. } | Expr::Tuple(args) => kids.extend(args.iter().copied()),
            Expr::Object(kv) => {
                for (k, v) in kv {
                    kids.extend([*k, *v]);
                }
            }
            Expr::Unary { operand, .. } => kids.push(*operand),
            Expr::Binary { lhs, rhs, .. } => kids.extend([*lhs, *rhs]),
            Expr::Conditional {
                cond,
                then,
                otherwise,
            } => kids.extend([*cond, *then, *otherwise]),
            Expr::For {
                collection,
                key,
                value,
                cond,
                ..
            } => {
                kids.push(*collection);
                kids.extend(key.iter().copied());
                kids.push(*value);
                kids.extend(cond.iter().copied());
            }
            _ => {}
        }
        for k in &kids {
            parents.insert(*k, id);
        }
        stack.extend(kids.into_iter().rev());
    }
    for id in order {
        let Expr::Ref(r) = &hir.exprs[id] else {
            continue;
        };
        let mut steps: Vec<String> = Vec::new();
        let mut cur = id;
        while let Some(&p) = parents.get(&cur) {
            match &hir.exprs[p] {
                Expr::GetAttr { target, name } if *target == cur => steps.push(format!(".{name}")),
                Expr::Index { target, key } if *target == cur => match &hir.exprs[*key] {
                    Expr::Literal(k) => match &k.kind {
                        ValueKind::String(s) => {
                            steps.push(format!("[{}]", super::diff::go_quote(s)))
                        }
                        ValueKind::Number(n) => steps.push(format!("[{n}]")),
                        _ => break,
                    },
                    _ => break,
                },
                _ => break,
            }
            cur = p;
        }
        let (subject, mut rest) = split_subject(r, &steps);
        while !rest.is_empty() {
            out.push(format!("{subject}{}", rest.concat()));
            rest.pop();
        }
        out.push(subject.clone());
        if let Reference::Resource(res) = r {
            if subject != res.to_string() {
                out.push(res.to_string());
            }
        }
    }
}

fn template_kids(parts: &[ferro_hir::TemplatePart], kids: &mut Vec<ExprId>) {
    for p in parts {
        match p {
            ferro_hir::TemplatePart::Literal(_) => {}
            ferro_hir::TemplatePart::Interp(x) => kids.push(*x),
            ferro_hir::TemplatePart::If {
                cond,
                then,
                otherwise,
            } => {
                kids.push(*cond);
                template_kids(then, kids);
                template_kids(otherwise, kids);
            }
            ferro_hir::TemplatePart::For {
                collection, body, ..
            } => {
                kids.push(*collection);
                template_kids(body, kids);
            }
        }
    }
}

/// The referenceable subject (a resource instance takes one index step) and the remaining steps.
fn split_subject(r: &Reference, steps: &[String]) -> (String, Vec<String>) {
    match r {
        Reference::Resource(res) => match steps.first() {
            Some(s) if s.starts_with('[') => (format!("{res}{s}"), steps[1..].to_vec()),
            _ => (res.to_string(), steps.to_vec()),
        },
        _ => (r.to_string(), steps.to_vec()),
    }
}
