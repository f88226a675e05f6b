//! Evaluating a resource block body into the configuration object its schema implies,
//! `dynamic` blocks expanded into the blocks they generate.

use crate::scope::{InstanceCtx, ModuleEval};
use ferro_db::SourceFile;
use ferro_diag::Diagnostic;
use ferro_hir::{BlockBody, DynamicBlock, Expr, Reference};
use ferro_value::convert::convert;
use ferro_value::schema::{Block, NestingMode};
use ferro_value::ValueMap;
use ferro_value::{PathStep, Type, Value, ValueKind};

/// Functions whose result differs from one call to the next (random or the clock), and
/// provider-defined functions, which ferro cannot know to be pure.
fn impure_call(name: &str) -> bool {
    ferro_eval::IMPURE_FUNCTIONS.contains(&name) || name == "plantimestamp" || name.contains("::")
}

/// Whether a resource body evaluates to the same value for every instance of a module
/// instance's copy of the resource: it names neither `count`, `each` nor `self`, and calls
/// nothing impure. Such a body is evaluated once and its value shared by the instances.
pub fn instance_independent(hir: &ferro_hir::FileHir, body: &BlockBody) -> bool {
    let mut all = Vec::new();
    body.exprs(&mut all);
    let mut independent = true;
    for e in all {
        ferro_hir::walk_exprs(&hir.exprs, e, &mut |_, x| match x {
            Expr::Ref(
                Reference::CountIndex
                | Reference::EachKey
                | Reference::EachValue
                | Reference::SelfRef,
            ) => independent = false,
            Expr::Call { name, .. } if impure_call(name) => independent = false,
            _ => {}
        });
        if !independent {
            break;
        }
    }
    independent
}

/// Evaluate `body` against `schema`; attributes not set are null, absent blocks empty/null.
pub fn eval_body(
    m: &ModuleEval<'_>,
    file: SourceFile,
    body: &BlockBody,
    schema: &Block,
    inst: &InstanceCtx,
) -> (Value, Vec<Diagnostic>) {
    eval_body_bound(m, file, body, schema, inst, &[])
}

fn eval_body_bound(
    m: &ModuleEval<'_>,
    file: SourceFile,
    body: &BlockBody,
    schema: &Block,
    inst: &InstanceCtx,
    bindings: &[(String, Value)],
) -> (Value, Vec<Diagnostic>) {
    let hir = m.hir(file);
    let mut diags = Vec::new();
    let mut out = ValueMap::new();
    for (name, a) in &schema.attributes {
        let v = match body.attrs.iter().find(|x| &x.name == name) {
            None => match ferro_value::schema::attribute_as_blocks(&a.ty) {
                // Blocks given for a list/set-of-objects attribute make its value (not for
                // protocol 6 nested attributes, which are always written as attributes).
                Some((nesting, block))
                    if a.nested.is_none() && body.blocks.iter().any(|b| &b.ty == name) =>
                {
                    let blocks: Vec<_> = body.blocks.iter().filter(|b| &b.ty == name).collect();
                    let v = eval_blocks(
                        m,
                        file,
                        &blocks,
                        (nesting, &block),
                        inst,
                        bindings,
                        (&mut diags, &mut Vec::new()),
                    );
                    convert(&v, &a.ty).unwrap_or_else(|_| Value::unknown(a.ty.clone()))
                }
                _ => Value::null(a.ty.clone()),
            },
            Some(attr) => {
                let (v, ds) = m.eval_bound(file, attr.expr, inst, bindings);
                let failed = ds.iter().any(Diagnostic::is_error);
                diags.extend(ds);
                if failed {
                    Value::unknown(a.ty.clone())
                } else {
                    match convert(&v, &a.constraint_type()) {
                        Ok(v) => v,
                        Err(e) => {
                            diags.push(
                                Diagnostic::error(
                                    "incorrect-attribute-type",
                                    "Incorrect attribute value type",
                                )
                                .with_detail(format!(
                                    "Inappropriate value for attribute {name:?}: {}{}.",
                                    path_prefix(&e.path),
                                    e.message
                                ))
                                .with_span_opt(hir.span(attr.expr)),
                            );
                            Value::unknown(a.ty.clone())
                        }
                    }
                }
            }
        };
        out.insert(name.clone(), v);
    }
    for (name, nb) in &schema.block_types {
        let blocks: Vec<_> = body.blocks.iter().filter(|b| &b.ty == name).collect();
        let mut counted = Vec::new();
        let v = eval_blocks(
            m,
            file,
            &blocks,
            (nb.nesting, &nb.block),
            inst,
            bindings,
            (&mut diags, &mut counted),
        );
        // Written blocks were counted before planning; generated ones are counted now (not
        // when a `for_each` is unknown: the blocks are then unknown as a whole).
        if v.is_known() && blocks.iter().any(|b| b.dynamic.is_some()) {
            let hir = m.hir(file);
            let missing = ferro_db::missing_item_range(hir, body)
                .or(body.span.map(|s| hir.at(s)))
                .or_else(|| blocks.first().map(|b| hir.at(b.span)));
            if let Some(missing) = missing {
                let range = |s| m.range_text(s);
                diags.extend(ferro_db::count_diagnostics(
                    name, nb, &counted, missing, &range,
                ));
            }
        }
        out.insert(name.clone(), v);
    }
    (Value::object(out), diags)
}

/// The value of the blocks of one type (written and generated by `dynamic`), collected as the
/// nesting mode says; unknown when a `dynamic` block's `for_each` is not known yet. Every block
/// (as written or generated) is added to `counted`.
fn eval_blocks(
    m: &ModuleEval<'_>,
    file: SourceFile,
    blocks: &[&ferro_hir::HirBlock],
    (nesting, block): (NestingMode, &Block),
    inst: &InstanceCtx,
    bindings: &[(String, Value)],
    (diags, counted): (&mut Vec<Diagnostic>, &mut Vec<ferro_db::Counted>),
) -> Value {
    let hir = m.hir(file);
    let inner_ty = block.implied_type();
    let mut vals = Vec::new();
    let mut keyed = ValueMap::new();
    let mut unknown = false;
    for b in blocks {
        counted.push(ferro_db::Counted::of(hir, b));
        let Some(d) = &b.dynamic else {
            let (v, ds) = eval_body_bound(m, file, &b.body, block, inst, bindings);
            diags.extend(ds);
            if nesting == NestingMode::Map {
                keyed.insert(b.labels.first().cloned().unwrap_or_default(), v);
            } else {
                vals.push(v);
            }
            continue;
        };
        counted.pop();
        let Some(elements) = dynamic_elements(m, file, d, inst, bindings, diags) else {
            unknown = true;
            continue;
        };
        counted.extend(std::iter::repeat_n(
            ferro_db::Counted::of(hir, b),
            elements.len(),
        ));
        for (key, value) in elements {
            let mut inner = bindings.to_vec();
            let mut it = ValueMap::new();
            it.insert("key".to_string(), key);
            it.insert("value".to_string(), value);
            inner.push((d.iterator.clone(), Value::object(it)));
            let mut labels = Vec::new();
            for l in &d.labels {
                let (lv, ds) = m.eval_bound(file, *l, inst, &inner);
                diags.extend(ds);
                match convert(&lv, &Type::String)
                    .ok()
                    .and_then(|s| s.as_str().map(str::to_string))
                {
                    Some(s) => labels.push(s),
                    None => {
                        diags.push(
                            Diagnostic::error("invalid-dynamic-label", "Invalid dynamic block label")
                                .with_detail("Cannot use this value as a dynamic block label: a known string is required.")
                                .with_span_opt(hir.span(*l)),
                        );
                        labels.push(String::new());
                    }
                }
            }
            let (v, ds) = eval_body_bound(m, file, &b.body, block, inst, &inner);
            diags.extend(ds);
            if nesting == NestingMode::Map {
                keyed.insert(labels.first().cloned().unwrap_or_default(), v);
            } else {
                vals.push(v);
            }
        }
    }
    if unknown {
        let ty = match nesting {
            NestingMode::Single | NestingMode::Group => inner_ty.clone(),
            NestingMode::List if inner_ty.has_dynamic() => Type::Dynamic,
            NestingMode::List => Type::list(inner_ty.clone()),
            NestingMode::Set => Type::set(inner_ty.clone()),
            NestingMode::Map if inner_ty.has_dynamic() => Type::Dynamic,
            NestingMode::Map => Type::map(inner_ty.clone()),
        };
        return Value::unknown(ty);
    }
    match nesting {
        NestingMode::Single => vals
            .into_iter()
            .next()
            .unwrap_or_else(|| Value::null(inner_ty)),
        NestingMode::Group => vals
            .into_iter()
            .next()
            .unwrap_or_else(|| block.empty_value()),
        NestingMode::List if inner_ty.has_dynamic() => Value::tuple(vals),
        NestingMode::List => Value::list(inner_ty, vals),
        NestingMode::Set => Value::set(inner_ty, vals),
        NestingMode::Map if inner_ty.has_dynamic() => Value::object(keyed),
        NestingMode::Map => Value::map(inner_ty, keyed),
    }
}

/// The (key, value) pairs a `dynamic` block's `for_each` generates blocks for; None when the
/// collection is not known yet (the blocks are then unknown) or is invalid (reported).
fn dynamic_elements(
    m: &ModuleEval<'_>,
    file: SourceFile,
    d: &DynamicBlock,
    inst: &InstanceCtx,
    bindings: &[(String, Value)],
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<(Value, Value)>> {
    let (fe, ds) = m.eval_bound(file, d.for_each, inst, bindings);
    let failed = ds.iter().any(Diagnostic::is_error);
    diags.extend(ds);
    if failed {
        return Some(Vec::new());
    }
    let span = m.hir(file).span(d.for_each);
    let bad = |detail: String| {
        Diagnostic::error("invalid-dynamic-for-each", "Invalid dynamic for_each value")
            .with_detail(detail)
            .with_span_opt(span)
    };
    if !fe.is_known() {
        return None;
    }
    if fe.is_null() {
        diags.push(bad("Cannot use a null value in for_each.".into()));
        return Some(Vec::new());
    }
    let marks = fe.marks;
    let mark = |v: &Value| v.clone().with_marks(v.marks.union(marks));
    Some(match &fe.kind {
        ValueKind::List(_, es) | ValueKind::Tuple(es) => es
            .iter()
            .enumerate()
            .map(|(i, e)| (Value::int(i as i64), mark(e)))
            .collect(),
        ValueKind::Set(_, es) => {
            if !fe.is_wholly_known() {
                return None;
            }
            es.iter().map(|e| (mark(e), mark(e))).collect()
        }
        ValueKind::Map(_, es) | ValueKind::Object(es) => es
            .iter()
            .map(|(k, e)| (Value::string(k.as_str()), mark(e)))
            .collect(),
        _ => {
            diags.push(bad(format!(
                "Cannot use a {} value in for_each. An iterable collection is required.",
                fe.ty().friendly_name()
            )));
            Vec::new()
        }
    })
}

fn path_prefix(path: &[PathStep]) -> String {
    if path.is_empty() {
        return String::new();
    }
    let mut s = String::new();
    for p in path {
        match p {
            PathStep::Attr(a) => s.push_str(&format!(".{a}")),
            PathStep::Index(v) => s.push_str(&format!("[{}]", crate::objchange::show(v))),
        }
    }
    format!("element {}: ", s.trim_start_matches('.'))
}

/// Mark every attribute the schema flags sensitive (values as references see them).
pub fn mark_schema_sensitive(schema: &Block, v: &Value) -> Value {
    let Some(attrs) = v.as_entries() else {
        return v.clone();
    };
    if !schema.attributes.values().any(|a| a.sensitive) {
        return v.clone();
    }
    let mut out = attrs.clone();
    for (name, a) in &schema.attributes {
        if a.sensitive {
            if let Some(x) = out.get_mut(name) {
                *x = x.clone().mark_sensitive();
            }
        }
    }
    Value::object(out).with_marks(v.marks)
}

/// The unknown value of a whole resource instance of this schema.
pub fn unknown_object(schema: &Block) -> Value {
    Value::unknown(schema.implied_type())
}
