//! The framework's PlanResourceChange: from prior state, configuration and core's proposed new
//! state it computes the planned state — defaults, unknown computed values, attribute plan
//! modifiers, `requires_replace` paths — and checks the result against core's rules
//! (PROTOCOL_FACTS §6.1) so that a provider built on ferro-sdk never returns an invalid plan.

use crate::modifiers::{ModifierRequest, ModifierResponse};
use crate::schema::ResourceSchema;
use crate::values::{get, with};
use crate::Diags;
use ferro_provider::ProviderDiagnostic;
use ferro_value::{PathStep, Value};

/// What [`plan`] produced.
pub struct Planned {
    pub planned: Value,
    pub requires_replace: Vec<Vec<PathStep>>,
    pub diagnostics: Diags,
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
    let has_prior = !prior.is_null();
    // Does any value the configuration controls differ from the prior state?
    let changed = has_prior
        && (schema.attributes.iter().any(|(name, a)| {
            let cfg = get(config, name);
            (!a.computed || !cfg.is_null()) && get(proposed, name) != get(prior, name)
        }) || schema
            .blocks
            .keys()
            .any(|name| get(proposed, name) != get(prior, name)));
    let mut planned = proposed.clone();
    for (name, a) in &schema.attributes {
        let cfg = get(config, name);
        let state = if has_prior {
            get(prior, name)
        } else {
            Value::null(a.ty.clone())
        };
        let mut value = get(proposed, name);
        if a.computed && cfg.is_null() {
            value = match &a.default {
                Some(d) => d.clone(),
                None if !has_prior || changed => Value::unknown(a.ty.clone()),
                None => state.clone(),
            };
        }
        let computed_value = value.clone();
        let req = ModifierRequest {
            attribute: name,
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
        let value = if allowed(a.computed, &cfg, &state, has_prior, &resp.plan) {
            resp.plan
        } else {
            out.diagnostics.push(invalid_modification(name));
            computed_value
        };
        if resp.requires_replace {
            out.requires_replace
                .push(vec![PathStep::Attr(name.clone())]);
        }
        planned = with(&planned, name, value);
    }
    out.planned = planned;
    out
}

/// Core's rule for one attribute (PROTOCOL_FACTS §6.1, 2–6).
pub fn allowed(
    computed: bool,
    cfg: &Value,
    prior: &Value,
    has_prior: bool,
    planned: &Value,
) -> bool {
    if planned == cfg {
        return true;
    }
    if has_prior && !prior.is_null() && !cfg.is_null() && planned == prior {
        return true;
    }
    cfg.is_null() && computed
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
    let has_prior = !prior.is_null();
    for (name, a) in &schema.attributes {
        let p = get(planned, name);
        if !allowed(
            a.computed,
            &get(config, name),
            &get(prior, name),
            has_prior,
            &p,
        ) {
            diags.push(invalid_modification(name));
        }
    }
    for name in schema.blocks.keys() {
        if get(planned, name) != get(config, name) && get(planned, name) != get(prior, name) {
            diags.push(invalid_modification(name));
        }
    }
    diags
}

fn invalid_modification(name: &str) -> ProviderDiagnostic {
    let mut d = ProviderDiagnostic::error(
        "Invalid plan modification",
        format!(
            "The provider's plan for attribute {name:?} differs from its configured value in a way Terraform does not allow (only computed attributes left unset in the configuration may change); the modification was not applied. This is a bug in the provider."
        ),
    );
    d.attribute = Some(vec![PathStep::Attr(name.to_string())]);
    d
}
