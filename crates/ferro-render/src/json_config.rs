//! The `configuration` section of `show -json` plans: provider configurations and, per module
//! (the root, then every module call's module, nested), outputs, resources, module calls and
//! variables, with expressions as Terraform represents them (`constant_value`, `references`).

use super::json::{mode_str, obj};
use ferro_addrs::ResourceMode;
use ferro_db::{
    file_hir, module_index, module_tree, read_json_body, resource_body, Db, SourceFile, Workspace,
};
use ferro_hir::{BlockBody, Expr, ExprId, FileHir, Reference};
use ferro_plan::Plan;
use ferro_runtime::Providers;
use ferro_value::json::{value_from_plain_json, value_to_plain_json};
use ferro_value::schema::Block;
use ferro_value::{Value, ValueKind};
use serde_json::{Map, Value as J};

pub(super) fn configuration(plan: &Plan, providers: &Providers, db: &dyn Db, ws: Workspace) -> J {
    // Provider configurations of every module, as Terraform lists them: each `provider`
    // block, and each required provider without one, keyed by the module's path
    // (`module.a.module.b:name`; no prefix in the root module).
    let mut keys: std::collections::BTreeMap<String, J> = std::collections::BTreeMap::new();
    let tree = module_tree(db, ws);
    for node in &tree.nodes {
        let module_address = node
            .path
            .iter()
            .map(|c| format!("module.{c}"))
            .collect::<Vec<_>>()
            .join(".");
        let prefix = if module_address.is_empty() {
            String::new()
        } else {
            format!("{module_address}:")
        };
        provider_configs(
            db,
            ws,
            providers,
            node.module,
            &prefix,
            &module_address,
            &mut keys,
        );
    }
    let mut pc = obj();
    for (k, v) in keys {
        pc.insert(k, v);
    }

    let root = module_config(plan, providers, db, ws, tree, 0);
    let mut c = obj();
    if !pc.is_empty() {
        c.insert("provider_config".into(), J::Object(pc));
    }
    c.insert("root_module".into(), J::Object(root));
    J::Object(c)
}

/// One module's provider configurations (see [`configuration`]).
fn provider_configs(
    db: &dyn Db,
    ws: Workspace,
    providers: &Providers,
    module: ferro_db::Module,
    prefix: &str,
    module_address: &str,
    keys: &mut std::collections::BTreeMap<String, J>,
) {
    let index = module_index(db, module);
    // In Terraform's normalized form (`>= 2.0` is `>= 2.0.0`).
    let version = |name: &str| {
        index.required_providers.get(name).and_then(|rp| {
            let v = file_hir(db, rp.file).required_providers[rp.index]
                .version
                .clone()?;
            Some(
                ferro_provider::install::version::Constraints::parse(&v)
                    .map(|c| c.to_string())
                    .unwrap_or(v),
            )
        })
    };
    let entry = |name: &str, alias: Option<&String>| {
        let mut e = obj();
        e.insert("name".into(), J::String(name.to_string()));
        if let Some(a) = alias {
            e.insert("alias".into(), J::String(a.clone()));
        }
        // In Terraform's field order: name, alias, version_constraint, module_address.
        if let Some(v) = version(name) {
            e.insert("version_constraint".into(), J::String(v));
        }
        if !module_address.is_empty() {
            e.insert(
                "module_address".into(),
                J::String(module_address.to_string()),
            );
        }
        e
    };
    for ((name, alias), item) in &index.providers {
        let hir = file_hir(db, item.file);
        let p = &hir.providers[item.index];
        let key = match alias {
            Some(a) => format!("{prefix}{name}.{a}"),
            None => format!("{prefix}{name}"),
        };
        let mut e = entry(name, alias.as_ref());
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
    for name in index.required_providers.keys() {
        let key = format!("{prefix}{name}");
        if keys.contains_key(&key) {
            continue;
        }
        keys.insert(key, J::Object(entry(name, None)));
    }
}

/// One module's part of the configuration: outputs, resources, module calls (each with its
/// module, recursively) and variables, in Terraform's order.
fn module_config(
    plan: &Plan,
    providers: &Providers,
    db: &dyn Db,
    ws: Workspace,
    tree: &ferro_db::ModuleTree,
    node: ferro_db::TreeNodeId,
) -> Map<String, J> {
    let tn = &tree.nodes[node];
    let index = module_index(db, tn.module);
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
        // Terraform's configuration lists managed and data resources only.
        if res.mode == ResourceMode::Ephemeral {
            continue;
        }
        let hir = file_hir(db, item.file);
        let decl = &hir.resources[item.index];
        let mut e = obj();
        e.insert("address".into(), J::String(res.to_string()));
        e.insert("mode".into(), J::String(mode_str(res.mode).into()));
        e.insert("type".into(), J::String(res.ty.to_string()));
        e.insert("name".into(), J::String(res.name.to_string()));
        let pkey = match decl.provider_ref() {
            (l, Some(a)) => format!("{l}.{a}"),
            (l, None) => l.to_string(),
        };
        // Outside the root, keyed by the module call's name as Terraform keys it (`leaf:null`
        // for a resource of `module.middle.module.leaf`).
        let pkey = match tn.path.last() {
            Some(call) => format!("{call}:{pkey}"),
            None => pkey,
        };
        e.insert("provider_config_key".into(), J::String(pkey));
        let cfg = providers.by_resource.get(&ferro_addrs::ConfigResource {
            module: tn.path.clone(),
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
        // An expression with nothing to show (no constant, no references) is left out, as
        // for module calls.
        for (key, x) in [
            ("count_expression", decl.count),
            ("for_each_expression", decl.for_each),
        ] {
            let Some(x) = x else { continue };
            let shown = expression(hir, json, x);
            if !shown.is_empty() {
                e.insert(key.into(), J::Object(shown));
            }
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
    let mut calls = obj();
    for (name, item) in &index.module_calls {
        let hir = file_hir(db, item.file);
        let call = &hir.module_calls[item.index];
        let json = json_text(db, item.file);
        let mut e = obj();
        // A source or version evaluated early is shown as evaluated, as OpenTofu shows it.
        let mut key = tn.path.clone();
        key.push(name.clone());
        let early = ws.static_sources(db).get(&key.join("."));
        let source = call
            .source
            .as_ref()
            .map(|(s, _)| s)
            .or(early.map(|e| &e.source));
        if let Some(source) = source {
            e.insert("source".into(), J::String(source.clone()));
        }
        let mut exprs = obj();
        let mut inputs: Vec<_> = call.inputs.iter().collect();
        inputs.sort_by(|a, b| a.name.cmp(&b.name));
        for a in inputs {
            exprs.insert(a.name.clone(), J::Object(expression(hir, json, a.expr)));
        }
        if !exprs.is_empty() {
            e.insert("expressions".into(), J::Object(exprs));
        }
        // An expression with nothing to show (no constant, no references) is left out.
        for (key, x) in [
            ("count_expression", call.count),
            ("for_each_expression", call.for_each),
        ] {
            let Some(x) = x else { continue };
            let shown = expression(hir, json, x);
            if !shown.is_empty() {
                e.insert(key.into(), J::Object(shown));
            }
        }
        if let Some(&child) = tn.children.get(name) {
            e.insert(
                "module".into(),
                J::Object(module_config(plan, providers, db, ws, tree, child)),
            );
        }
        let version = match call.version_expr {
            Some(_) => early.and_then(|e| e.version.as_ref()),
            None => call.version.as_ref(),
        };
        if let Some(v) = version {
            e.insert("version_constraint".into(), J::String(v.clone()));
        }
        if !call.depends_on.is_empty() {
            e.insert(
                "depends_on".into(),
                J::Array(
                    call.depends_on
                        .iter()
                        .map(|(r, _)| J::String(r.to_string()))
                        .collect(),
                ),
            );
        }
        calls.insert(name.clone(), J::Object(e));
    }
    if !calls.is_empty() {
        root.insert("module_calls".into(), J::Object(calls));
    }
    let mut vars = obj();
    for (name, item) in &index.variables {
        let hir = file_hir(db, item.file);
        let v = &hir.variables[item.index];
        let mut e = obj();
        if v.default.is_some() {
            // Root variables have their values in the plan; a child's default is a constant.
            let val = plan
                .variables
                .get(name)
                .filter(|_| node == 0)
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
    root
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
        // Terraform reads the body against the schema as written: `dynamic` blocks are not
        // the blocks they generate, and are left out.
        if b.ty == "lifecycle"
            || b.ty == "connection"
            || b.ty == "provisioner"
            || b.ty == "dynamic"
            || b.dynamic.is_some()
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
    ferro_db::is_json_path(file.path(db)).then(|| file.text(db).as_str())
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
            Expr::Literal(_) | Expr::SplatElem | Expr::Ref(_) | Expr::TypeConstraint { .. } => {}
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
        ferro_hir::child_exprs(&hir.exprs[id], &mut kids);
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
        // An output of a module call instance (`module.a["k"].out`) ends at the instance, as
        // Terraform lists it; the call alone follows only a bare instance (`module.a["k"]`).
        let output_of_instance =
            matches!(r, Reference::Module(_)) && steps.len() >= 2 && steps[0].starts_with('[');
        if !output_of_instance {
            out.push(subject.clone());
        }
        if let Reference::Resource(res) = r {
            if subject != res.to_string() {
                out.push(res.to_string());
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
