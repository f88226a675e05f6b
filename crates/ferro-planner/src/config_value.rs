//! Evaluating a resource block body into the configuration object its schema implies.

use crate::scope::{InstanceCtx, ModuleEval};
use ferro_db::SourceFile;
use ferro_diag::Diagnostic;
use ferro_hir::BlockBody;
use ferro_value::convert::convert;
use ferro_value::schema::{Block, NestingMode};
use ferro_value::{PathStep, Value};
use std::collections::BTreeMap;

/// Evaluate `body` against `schema`; attributes not set are null, absent blocks empty/null.
pub fn eval_body(
    m: &ModuleEval<'_>,
    file: SourceFile,
    body: &BlockBody,
    schema: &Block,
    inst: &InstanceCtx,
) -> (Value, Vec<Diagnostic>) {
    let hir = m.hir(file);
    let mut diags = Vec::new();
    let mut out = BTreeMap::new();
    for (name, a) in &schema.attributes {
        let v = match body.attrs.iter().find(|x| &x.name == name) {
            None => Value::null(a.ty.clone()),
            Some(attr) => {
                let (v, ds) = m.eval(file, attr.expr, inst);
                let failed = ds.iter().any(Diagnostic::is_error);
                diags.extend(ds);
                if failed {
                    Value::unknown(a.ty.clone())
                } else {
                    match convert(&v, &a.ty) {
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
        let inner_ty = nb.block.implied_type();
        let mut vals = Vec::new();
        let mut keyed = BTreeMap::new();
        for b in &blocks {
            let (v, ds) = eval_body(m, file, &b.body, &nb.block, inst);
            diags.extend(ds);
            if nb.nesting == NestingMode::Map {
                keyed.insert(b.labels.first().cloned().unwrap_or_default(), v);
            } else {
                vals.push(v);
            }
        }
        let v = match nb.nesting {
            NestingMode::Single => vals
                .into_iter()
                .next()
                .unwrap_or_else(|| Value::null(inner_ty)),
            NestingMode::Group => vals
                .into_iter()
                .next()
                .unwrap_or_else(|| nb.block.empty_value()),
            NestingMode::List if inner_ty.has_dynamic() => Value::tuple(vals),
            NestingMode::List => Value::list(inner_ty, vals),
            NestingMode::Set => Value::set(inner_ty, vals),
            NestingMode::Map if inner_ty.has_dynamic() => Value::object(keyed),
            NestingMode::Map => Value::map(inner_ty, keyed),
        };
        out.insert(name.clone(), v);
    }
    (Value::object(out), diags)
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
