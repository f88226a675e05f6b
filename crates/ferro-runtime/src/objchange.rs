//! Core's checks of provider answers and the proposed-new-state merge
//! (PROTOCOL_FACTS §6): `proposed_new`, `assert_plan_valid`, `assert_compatible`.

use ferro_value::schema::{Attribute, Block, NestedAttributes, NestingMode};
use ferro_value::ValueMap;
use ferro_value::{Value, ValueKind};
use std::collections::BTreeMap;

fn attr_of(v: &Value, name: &str) -> Value {
    v.get_attr(name)
        .cloned()
        .unwrap_or_else(|| Value::null(ferro_value::Type::Dynamic))
}

/// Merge configuration and prior state: computed attributes null in config keep their prior value.
pub fn proposed_new(schema: &Block, prior: &Value, config: &Value) -> Value {
    if config.is_null() || config.is_unknown() {
        return config.clone();
    }
    let prior = if prior.is_null() || prior.is_unknown() {
        schema.empty_value()
    } else {
        prior.clone()
    };
    let mut out = proposed_attrs(&schema.attributes, &prior, config);
    for (name, nb) in &schema.block_types {
        let c = attr_of(config, name);
        let p = attr_of(&prior, name);
        let v = if c.is_unknown() {
            c
        } else {
            match nb.nesting {
                NestingMode::Single | NestingMode::Group => {
                    if c.is_null() {
                        c
                    } else {
                        proposed_new(&nb.block, &p, &c)
                    }
                }
                NestingMode::List => match (&c.kind, p.as_elements()) {
                    (ValueKind::List(t, es), pes) => Value::list(
                        t.clone(),
                        es.iter()
                            .enumerate()
                            .map(|(i, e)| match pes.and_then(|p| p.get(i)) {
                                Some(pe) => proposed_new(&nb.block, pe, e),
                                None => proposed_new(&nb.block, &Value::null(t.clone()), e),
                            })
                            .collect(),
                    ),
                    _ => c,
                },
                NestingMode::Map => match (&c.kind, p.as_entries()) {
                    (ValueKind::Map(t, es), pes) => Value::map(
                        t.clone(),
                        es.iter()
                            .map(|(k, e)| {
                                let pe = pes
                                    .and_then(|p| p.get(k))
                                    .cloned()
                                    .unwrap_or_else(|| Value::null(t.clone()));
                                (k.clone(), proposed_new(&nb.block, &pe, e))
                            })
                            .collect(),
                    ),
                    _ => c,
                },
                NestingMode::Set => c,
            }
        };
        out.insert(name.clone(), v);
    }
    Value::object(out)
}

/// The attribute `name` of `obj`, or a null of type `ty` when `obj` is null, unknown or lacks it.
fn attr_or_null(obj: &Value, name: &str, ty: &ferro_value::Type) -> Value {
    obj.get_attr(name)
        .cloned()
        .unwrap_or_else(|| Value::null(ty.clone()))
}

/// Terraform's proposedNewAttributes: computed attributes left null keep their prior value;
/// nested attributes (protocol 6) that are not computed are merged object by object.
fn proposed_attrs(attrs: &BTreeMap<String, Attribute>, prior: &Value, config: &Value) -> ValueMap {
    let mut out = ValueMap::new();
    for (name, a) in attrs {
        let c = attr_or_null(config, name, &a.ty);
        let p = attr_or_null(prior, name, &a.ty);
        let v = if a.computed && c.is_null() {
            p
        } else {
            match &a.nested {
                Some(n) if !a.computed && c.is_known() && !c.is_null() => {
                    proposed_nested(n, &p, &c)
                }
                _ => c,
            }
        };
        out.insert(name.clone(), v);
    }
    out
}

/// One object of a nested attribute: config values, prior values for what the config leaves to
/// the provider.
fn proposed_object(n: &NestedAttributes, prior: &Value, config: &Value) -> Value {
    if config.is_null() || !config.is_known() || prior.is_null() || !prior.is_known() {
        return config.clone();
    }
    Value::object(proposed_attrs(&n.attributes, prior, config))
}

/// Terraform's proposedNewNestedType: objects correlate with prior objects by index (list), key
/// (map), or, in a set, by equal values of the attributes the configuration controls.
fn proposed_nested(n: &NestedAttributes, prior: &Value, config: &Value) -> Value {
    match (&n.nesting, &config.kind) {
        (NestingMode::Single | NestingMode::Group, _) => proposed_object(n, prior, config),
        (NestingMode::List, ValueKind::List(t, es)) => {
            let pes = prior.as_elements().unwrap_or_default();
            Value::list(
                t.clone(),
                es.iter()
                    .enumerate()
                    .map(|(i, e)| match pes.get(i) {
                        Some(pe) => proposed_object(n, pe, e),
                        None => e.clone(),
                    })
                    .collect(),
            )
        }
        (NestingMode::Map, ValueKind::Map(t, es)) => {
            let pes = prior.as_entries();
            Value::map(
                t.clone(),
                es.iter()
                    .map(|(k, e)| {
                        let v = match pes.and_then(|p| p.get(k)) {
                            Some(pe) => proposed_object(n, pe, e),
                            None => e.clone(),
                        };
                        (k.clone(), v)
                    })
                    .collect(),
            )
        }
        (NestingMode::Set, ValueKind::Set(t, es)) => {
            let pes = prior.as_elements().unwrap_or_default();
            let configured = |v: &Value| -> Vec<Value> {
                n.attributes
                    .iter()
                    .filter(|(_, a)| !a.computed)
                    .map(|(name, a)| attr_or_null(v, name, &a.ty))
                    .collect()
            };
            Value::set(
                t.clone(),
                es.iter()
                    .map(
                        |e| match pes.iter().find(|pe| configured(pe) == configured(e)) {
                            Some(pe) => proposed_object(n, pe, e),
                            None => e.clone(),
                        },
                    )
                    .collect(),
            )
        }
        _ => config.clone(),
    }
}

/// Errors (as "path: message") when `planned` breaks the rules of PlanResourceChange.
pub fn assert_plan_valid(
    schema: &Block,
    prior: &Value,
    config: &Value,
    planned: &Value,
) -> Vec<String> {
    let mut errs = Vec::new();
    plan_valid_block(schema, prior, config, planned, "", &mut errs);
    errs
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        format!(".{name}")
    } else {
        format!("{path}.{name}")
    }
}

fn plan_valid_block(
    schema: &Block,
    prior: &Value,
    config: &Value,
    planned: &Value,
    path: &str,
    errs: &mut Vec<String>,
) {
    match (config.is_null(), planned.is_null()) {
        (true, true) => return,
        (false, true) => {
            errs.push(format!(
                "{}: planned for absence but config wants existence",
                root(path)
            ));
            return;
        }
        (true, false) => {
            errs.push(format!(
                "{}: planned for existence but config wants absence",
                root(path)
            ));
            return;
        }
        _ => {}
    }
    if planned.is_unknown() || config.is_unknown() {
        return;
    }
    plan_valid_attrs(&schema.attributes, prior, config, planned, path, errs);
    let no_prior = prior.is_null() || prior.is_unknown();
    for (name, nb) in &schema.block_types {
        let c = attr_of(config, name);
        let pl = attr_of(planned, name);
        let p = if no_prior {
            Value::null(pl.ty())
        } else {
            attr_of(prior, name)
        };
        let at = join(path, name);
        if pl == c {
            continue;
        }
        if c.is_unknown() {
            errs.push(format!("{at}: planned value for unknown dynamic block"));
            continue;
        }
        if pl.is_unknown() {
            errs.push(format!("{at}: attribute representing nested block must not be unknown itself; set nested attribute values to unknown instead"));
            continue;
        }
        match nb.nesting {
            NestingMode::Single | NestingMode::Group => {
                plan_valid_block(&nb.block, &p, &c, &pl, &at, errs)
            }
            NestingMode::List => {
                let (ce, pe) = (
                    c.as_elements().unwrap_or_default(),
                    pl.as_elements().unwrap_or_default(),
                );
                if ce.len() != pe.len() {
                    errs.push(format!(
                        "{at}: block count in plan ({}) disagrees with count in config ({})",
                        pe.len(),
                        ce.len()
                    ));
                    continue;
                }
                for (i, (cv, pv)) in ce.iter().zip(pe).enumerate() {
                    let prv = p
                        .as_elements()
                        .and_then(|x| x.get(i))
                        .cloned()
                        .unwrap_or_else(|| Value::null(pv.ty()));
                    plan_valid_block(&nb.block, &prv, cv, pv, &format!("{at}[{i}]"), errs);
                }
            }
            NestingMode::Map => {
                let (ce, pe) = (
                    c.as_entries().cloned().unwrap_or_default(),
                    pl.as_entries().cloned().unwrap_or_default(),
                );
                if ce.keys().ne(pe.keys()) {
                    errs.push(format!(
                        "{at}: block keys in plan disagree with keys in config"
                    ));
                    continue;
                }
                for (k, cv) in &ce {
                    let prv = p
                        .as_entries()
                        .and_then(|x| x.get(k))
                        .cloned()
                        .unwrap_or_else(|| Value::null(cv.ty()));
                    plan_valid_block(&nb.block, &prv, cv, &pe[k], &format!("{at}[{k:?}]"), errs);
                }
            }
            NestingMode::Set => {
                if pl
                    .as_elements()
                    .unwrap_or_default()
                    .iter()
                    .any(Value::is_unknown)
                {
                    errs.push(format!("{at}: planned set element is wholly unknown"));
                }
            }
        }
    }
}

/// The attribute rules (PROTOCOL_FACTS §6.1) for the attributes of a block or of a nested
/// attribute's object.
fn plan_valid_attrs(
    attrs: &BTreeMap<String, Attribute>,
    prior: &Value,
    config: &Value,
    planned: &Value,
    path: &str,
    errs: &mut Vec<String>,
) {
    let no_prior = prior.is_null() || prior.is_unknown();
    for (name, a) in attrs {
        let c = attr_of(config, name);
        let p = if no_prior {
            Value::null(a.ty.clone())
        } else {
            attr_of(prior, name)
        };
        let pl = attr_of(planned, name);
        let at = join(path, name);
        // A write-only attribute is never planned: its value goes to the provider only.
        if a.write_only {
            if !pl.is_null() {
                errs.push(format!(
                    "{at}: planned value for write-only attribute is not null"
                ));
            }
            continue;
        }
        if pl == c || (!p.is_null() && !c.is_null() && pl == p) {
            continue;
        }
        if c.is_null() {
            if !a.computed && !pl.is_null() {
                errs.push(format!("{at}: planned value for a non-computed attribute"));
            }
            continue;
        }
        if let Some(n) = &a.nested {
            if c.is_known() && !pl.is_null() && pl.is_known() {
                plan_valid_nested(n, &p, &c, &pl, &at, errs);
                continue;
            }
        }
        if a.sensitive {
            errs.push(format!(
                "{at}: sensitive planned value does not match config value"
            ));
        } else if p.is_null() {
            errs.push(format!(
                "{at}: planned value {} does not match config value {}",
                show(&pl),
                show(&c)
            ));
        } else {
            errs.push(format!(
                "{at}: planned value {} does not match config value {} nor prior value {}",
                show(&pl),
                show(&c),
                show(&p)
            ));
        }
    }
}

/// The objects of a nested attribute: as many as configured (same keys for a map), each valid.
fn plan_valid_nested(
    n: &NestedAttributes,
    prior: &Value,
    config: &Value,
    planned: &Value,
    at: &str,
    errs: &mut Vec<String>,
) {
    let object = |p: &Value, c: &Value, pl: &Value, at: &str, errs: &mut Vec<String>| match (
        c.is_null(),
        pl.is_null(),
    ) {
        (false, true) => errs.push(format!(
            "{at}: planned for absence but config wants existence"
        )),
        (true, false) => errs.push(format!(
            "{at}: planned for existence but config wants absence"
        )),
        _ if c.is_known() && pl.is_known() && !c.is_null() => {
            plan_valid_attrs(&n.attributes, p, c, pl, at, errs)
        }
        _ => {}
    };
    match n.nesting {
        NestingMode::Single | NestingMode::Group => object(prior, config, planned, at, errs),
        NestingMode::List => {
            let (ce, pe) = (
                config.as_elements().unwrap_or_default(),
                planned.as_elements().unwrap_or_default(),
            );
            if ce.len() != pe.len() {
                errs.push(format!(
                    "{at}: count in plan ({}) disagrees with count in config ({})",
                    pe.len(),
                    ce.len()
                ));
                return;
            }
            let prs = prior.as_elements().unwrap_or_default();
            for (i, (c, pl)) in ce.iter().zip(pe).enumerate() {
                let p = prs.get(i).cloned().unwrap_or_else(|| Value::null(pl.ty()));
                object(&p, c, pl, &format!("{at}[{i}]"), errs);
            }
        }
        NestingMode::Map => {
            let (ce, pe) = (
                config.as_entries().cloned().unwrap_or_default(),
                planned.as_entries().cloned().unwrap_or_default(),
            );
            if ce.keys().ne(pe.keys()) {
                errs.push(format!("{at}: keys in plan disagree with keys in config"));
                return;
            }
            for (k, c) in &ce {
                let p = prior
                    .as_entries()
                    .and_then(|x| x.get(k))
                    .cloned()
                    .unwrap_or_else(|| Value::null(c.ty()));
                object(&p, c, &pe[k], &format!("{at}[{k:?}]"), errs);
            }
        }
        NestingMode::Set => {
            let (cl, pl) = (
                config.as_elements().map_or(0, |e| e.len()),
                planned.as_elements().map_or(0, |e| e.len()),
            );
            if cl != pl {
                errs.push(format!(
                    "{at}: count in plan ({pl}) disagrees with count in config ({cl})"
                ));
            }
        }
    }
}

fn root(path: &str) -> String {
    if path.is_empty() {
        "root object".into()
    } else {
        path.to_string()
    }
}

/// A short rendering of a value for error messages.
pub fn show(v: &Value) -> String {
    if v.is_sensitive() {
        return "(sensitive value)".into();
    }
    match &v.kind {
        ValueKind::Unknown(_) => "(unknown)".into(),
        ValueKind::Null(_) => "null".into(),
        _ => {
            let (plain, _) = v.deep_unmark();
            ferro_value::json::value_to_plain_json(&plain).to_string()
        }
    }
}

mod compatible;
pub use compatible::assert_compatible;
