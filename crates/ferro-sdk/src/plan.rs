//! The framework's PlanResourceChange: from prior state, configuration and core's proposed new
//! state it computes the planned state — defaults, unknown computed values, attribute plan
//! modifiers, `requires_replace` paths — and checks the result against core's rules
//! (PROTOCOL_FACTS §6.1) so that a provider built on ferro-sdk never returns an invalid plan.
//! Nested attributes are planned object by object with the same rules, their objects matched
//! to prior objects by index (list), key (map) or configured values (set), as core matches them.

use crate::modifiers::{ModifierRequest, ModifierResponse};
use crate::schema::{Attr, Object, ResourceSchema};
use crate::Diags;
use ferro_provider::ProviderDiagnostic;
use ferro_value::schema::NestingMode;
use ferro_value::ValueMap;
use ferro_value::{PathStep, Type, Value, ValueKind};
use std::collections::BTreeMap;

/// What [`plan`] produced.
pub struct Planned {
    pub planned: Value,
    pub requires_replace: Vec<Vec<PathStep>>,
    pub diagnostics: Diags,
}

/// The attribute `name` of `obj`, or a null of type `ty` when `obj` is null or lacks it.
fn attr(obj: &Value, name: &str, ty: &Type) -> Value {
    obj.get_attr(name)
        .cloned()
        .unwrap_or_else(|| Value::null(ty.clone()))
}

/// Plan one resource instance change.
pub fn plan(schema: &ResourceSchema, prior: &Value, proposed: &Value, config: &Value) -> Planned {
    let mut out = Planned {
        planned: proposed.clone(),
        requires_replace: Vec::new(),
        diagnostics: Vec::new(),
    };
    if proposed.is_null() {
        return out;
    }
    // Does any value the configuration controls (blocks included) differ from the prior state?
    let blocks_changed = !prior.is_null()
        && schema
            .blocks
            .keys()
            .any(|name| attr(proposed, name, &Type::Dynamic) != attr(prior, name, &Type::Dynamic));
    let planned = plan_object(
        &schema.attributes,
        prior,
        proposed,
        config,
        blocks_changed,
        &[],
        &mut out,
    );
    out.planned = with_attrs(proposed, planned);
    out
}

/// `obj` with the attributes in `attrs` replaced (marks kept).
fn with_attrs(obj: &Value, attrs: BTreeMap<String, Value>) -> Value {
    let mut all = obj.as_entries().cloned().unwrap_or_default();
    // Attribute names from the process-wide table: a plan holds one object per instance.
    all.extend(
        attrs
            .into_iter()
            .map(|(k, v)| (ferro_value::Key::attr(&k), v)),
    );
    Value::object(all).with_marks(obj.marks)
}

/// Plan the attributes of one object (the resource's, or a nested attribute's): returns the
/// planned value of every attribute in `attrs`.
fn plan_object(
    attrs: &BTreeMap<String, Attr>,
    prior: &Value,
    proposed: &Value,
    config: &Value,
    also_changed: bool,
    path: &[PathStep],
    out: &mut Planned,
) -> BTreeMap<String, Value> {
    let has_prior = !prior.is_null();
    let changed = has_prior
        && (also_changed
            || attrs.iter().any(|(name, a)| {
                let cfg = attr(config, name, &a.ty);
                (!a.computed || !cfg.is_null())
                    && attr(proposed, name, &a.ty) != attr(prior, name, &a.ty)
            }));
    let mut planned = BTreeMap::new();
    for (name, a) in attrs {
        let mut at = path.to_vec();
        at.push(PathStep::Attr(name.clone()));
        let cfg = attr(config, name, &a.ty);
        let state = attr(prior, name, &a.ty);
        let mut value = attr(proposed, name, &a.ty);
        if a.computed && cfg.is_null() {
            value = match &a.default {
                Some(d) => d.clone(),
                None if !has_prior || changed => Value::unknown(a.ty.clone()),
                None => state.clone(),
            };
        } else if let Some((nesting, object)) = &a.nested {
            value = plan_nested(*nesting, object, &state, &value, &cfg, &at, out);
        }
        let computed_value = value.clone();
        let req = ModifierRequest {
            attribute: name,
            path: &at,
            config: &cfg,
            state: &state,
            has_prior,
        };
        let mut resp = ModifierResponse {
            plan: value,
            requires_replace: false,
            diagnostics: Vec::new(),
        };
        for m in &a.modifiers {
            m.modify(&req, &mut resp);
        }
        out.diagnostics.append(&mut resp.diagnostics);
        let value = if allowed(a, &cfg, &state, &resp.plan) {
            resp.plan
        } else {
            out.diagnostics.push(invalid_modification(&at));
            computed_value
        };
        if resp.requires_replace && !out.requires_replace.contains(&at) {
            out.requires_replace.push(at);
        }
        planned.insert(name.clone(), value);
    }
    planned
}

/// The values of the attributes the configuration controls (to match set elements).
fn configured(object: &Object, v: &Value) -> Vec<Value> {
    object
        .attributes
        .iter()
        .filter(|(_, a)| !a.computed)
        .map(|(name, a)| attr(v, name, &a.ty))
        .collect()
}

/// Plan the objects of a configured nested attribute.
fn plan_nested(
    nesting: NestingMode,
    object: &Object,
    state: &Value,
    proposed: &Value,
    config: &Value,
    path: &[PathStep],
    out: &mut Planned,
) -> Value {
    if proposed.is_null() || !proposed.is_known() {
        return proposed.clone();
    }
    let mut one = |prior: &Value, proposed: &Value, config: &Value, path: &[PathStep]| {
        if proposed.is_null() || !proposed.is_known() {
            return proposed.clone();
        }
        let attrs = plan_object(
            &object.attributes,
            prior,
            proposed,
            config,
            false,
            path,
            out,
        );
        with_attrs(proposed, attrs)
    };
    let index = |path: &[PathStep], key: Value| {
        let mut p = path.to_vec();
        p.push(PathStep::Index(key));
        p
    };
    match &proposed.kind {
        ValueKind::List(t, es) => {
            let (pes, ces) = (
                state.as_elements().unwrap_or_default(),
                config.as_elements().unwrap_or_default(),
            );
            let planned = es
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let p = pes
                        .get(i)
                        .cloned()
                        .unwrap_or_else(|| Value::null(t.clone()));
                    let c = ces
                        .get(i)
                        .cloned()
                        .unwrap_or_else(|| Value::null(t.clone()));
                    one(&p, e, &c, &index(path, Value::int(i as i64)))
                })
                .collect();
            Value::list(t.clone(), planned)
        }
        ValueKind::Map(t, es) => {
            let (pes, ces) = (state.as_entries(), config.as_entries());
            let planned = es
                .iter()
                .map(|(k, e)| {
                    let get = |m: Option<&ValueMap>| {
                        m.and_then(|m| m.get(k))
                            .cloned()
                            .unwrap_or_else(|| Value::null(t.clone()))
                    };
                    let v = one(
                        &get(pes),
                        e,
                        &get(ces),
                        &index(path, Value::string(k.as_str())),
                    );
                    (k.clone(), v)
                })
                .collect();
            Value::map(t.clone(), planned)
        }
        ValueKind::Set(t, es) => {
            // Set elements have no path of their own: diagnostics and replacement name the set.
            let (pes, ces) = (
                state.as_elements().unwrap_or_default(),
                config.as_elements().unwrap_or_default(),
            );
            let find = |list: &[Value], e: &Value| {
                list.iter()
                    .find(|x| configured(object, x) == configured(object, e))
                    .cloned()
                    .unwrap_or_else(|| Value::null(t.clone()))
            };
            let planned = es
                .iter()
                .map(|e| one(&find(pes, e), e, &find(ces, e), path))
                .collect();
            Value::set(t.clone(), planned)
        }
        _ if nesting == NestingMode::Single || nesting == NestingMode::Group => {
            one(state, proposed, config, path)
        }
        _ => proposed.clone(),
    }
}

/// Core's rule for one attribute (PROTOCOL_FACTS §6.1, 2–6).
pub fn allowed(a: &Attr, cfg: &Value, prior: &Value, planned: &Value) -> bool {
    if planned == cfg {
        return true;
    }
    if !prior.is_null() && !cfg.is_null() && planned == prior {
        return true;
    }
    if cfg.is_null() {
        return a.computed;
    }
    // A configured nested attribute: the same objects, each obeying the rules.
    match &a.nested {
        Some((nesting, object)) if cfg.is_known() && planned.is_known() && !planned.is_null() => {
            nested_allowed(*nesting, object, prior, cfg, planned)
        }
        _ => false,
    }
}

fn object_allowed(object: &Object, prior: &Value, cfg: &Value, planned: &Value) -> bool {
    if cfg.is_null() || !cfg.is_known() || !planned.is_known() {
        return cfg == planned;
    }
    object.attributes.iter().all(|(name, a)| {
        allowed(
            a,
            &attr(cfg, name, &a.ty),
            &attr(prior, name, &a.ty),
            &attr(planned, name, &a.ty),
        )
    })
}

fn nested_allowed(
    nesting: NestingMode,
    object: &Object,
    prior: &Value,
    cfg: &Value,
    planned: &Value,
) -> bool {
    let null = || Value::null(Type::Dynamic);
    match nesting {
        NestingMode::Single | NestingMode::Group => object_allowed(object, prior, cfg, planned),
        NestingMode::List => {
            let (c, p, pr) = (
                cfg.as_elements().unwrap_or_default(),
                planned.as_elements().unwrap_or_default(),
                prior.as_elements().unwrap_or_default(),
            );
            c.len() == p.len()
                && c.iter().zip(p.iter()).enumerate().all(|(i, (c, p))| {
                    object_allowed(object, &pr.get(i).cloned().unwrap_or_else(null), c, p)
                })
        }
        NestingMode::Map => {
            let (Some(c), Some(p)) = (cfg.as_entries(), planned.as_entries()) else {
                return false;
            };
            c.keys().eq(p.keys())
                && c.iter().all(|(k, c)| {
                    let pr = prior
                        .as_entries()
                        .and_then(|m| m.get(k))
                        .cloned()
                        .unwrap_or_else(null);
                    object_allowed(object, &pr, c, &p[k])
                })
        }
        NestingMode::Set => {
            cfg.as_elements().map(|e| e.len()) == planned.as_elements().map(|e| e.len())
        }
    }
}

/// Check a whole planned object (after the resource's own `modify_plan`) against the rules;
/// returns one error per attribute that breaks them.
pub fn check(schema: &ResourceSchema, prior: &Value, config: &Value, planned: &Value) -> Diags {
    let mut diags = Vec::new();
    if config.is_null() != planned.is_null() {
        diags.push(ProviderDiagnostic::error(
            "Invalid plan",
            "The planned object must exist exactly when the configuration does.",
        ));
        return diags;
    }
    for (name, a) in &schema.attributes {
        let p = attr(planned, name, &a.ty);
        if !allowed(a, &attr(config, name, &a.ty), &attr(prior, name, &a.ty), &p) {
            diags.push(invalid_modification(&[PathStep::Attr(name.clone())]));
        }
    }
    for name in schema.blocks.keys() {
        let (pl, c, pr) = (
            attr(planned, name, &Type::Dynamic),
            attr(config, name, &Type::Dynamic),
            attr(prior, name, &Type::Dynamic),
        );
        if pl != c && pl != pr {
            diags.push(invalid_modification(&[PathStep::Attr(name.clone())]));
        }
    }
    diags
}

fn invalid_modification(path: &[PathStep]) -> ProviderDiagnostic {
    let name = crate::values::path_name(path);
    let mut d = ProviderDiagnostic::error(
        "Invalid plan modification",
        format!(
            "The provider's plan for attribute {name:?} differs from its configured value in a way Terraform does not allow (only computed attributes left unset in the configuration may change); the modification was not applied. This is a bug in the provider."
        ),
    );
    d.attribute = Some(path.to_vec());
    d
}
