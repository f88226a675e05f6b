//! The resource instance change lifecycle of the design documents (000, 001): the steps plan
//! and apply both take for one managed instance, in one place so the two phases cannot
//! disagree.
//!
//! * [`configured_value`]: the configuration with `ignore_changes` applied against the prior
//!   object (ignored values come from the prior object before `PlanResourceChange`);
//! * [`plan_change`]: one `PlanResourceChange` call: the proposed new state, the provider's
//!   answer checked against the schema and the configuration, and the configuration's
//!   sensitivity carried to the planned object;
//! * [`carry_marks`]: sensitivity of configuration values carried to the same places of a
//!   planned or applied object, at every depth, as cty keeps marks.

use crate::diagnostics::resource_diag;
use crate::objchange::{assert_plan_valid, proposed_new};
use ferro_diag::Diagnostic;
use ferro_hir::{IgnoreStep, Lifecycle, ResourceDecl};
use ferro_provider::{PlanRequest, Provider, Severity};
use ferro_value::convert::convert;
use ferro_value::schema::Schema;
use ferro_value::{PathStep, Value, ValueKind};

/// What the provider planned for one instance, checked.
pub struct PlannedObject {
    /// The planned object, with the configuration's sensitivity.
    pub value: Value,
    pub private: Vec<u8>,
    /// The provider's answer that the change cannot be planned yet (see
    /// [`ferro_provider::Provider::allow_deferral`]).
    pub deferred: Option<ferro_provider::DeferralReason>,
    /// Paths whose change the provider says forces replacement.
    pub requires_replace: Vec<Vec<PathStep>>,
    /// The provider is built on the legacy SDK (its answers are only loosely checked).
    pub legacy_type_system: bool,
    /// The identity the provider planned for the object (checked against its identity schema).
    pub identity: Option<Value>,
}

/// The instance a lifecycle step is for.
pub struct InstanceRef<'a> {
    /// The HIR of the file declaring the resource (for the ranges of provider diagnostics).
    pub hir: &'a ferro_hir::FileHir,
    pub decl: &'a ResourceDecl,
    pub schema: &'a Schema,
    /// The instance's address as text, for messages.
    pub addr: &'a str,
    /// The provider's source address, for messages.
    pub provider_name: &'a str,
}

/// One `PlanResourceChange` call with core's checks: the proposed new state is computed from
/// `prior` and `config` (both may carry marks), and the answer must conform to the schema and
/// keep every configured value. None when it failed; the diagnostics say why (with warnings).
pub fn plan_change(
    provider: &dyn Provider,
    at: &InstanceRef<'_>,
    prior: &Value,
    config: &Value,
    prior_private: &[u8],
    prior_identity: Option<&Value>,
) -> (Option<PlannedObject>, Vec<Diagnostic>) {
    let (plain_cfg, _) = config.deep_unmark();
    let (plain_prior, _) = prior.deep_unmark();
    let proposed = proposed_new(&at.schema.block, &plain_prior, &plain_cfg);
    let resp = provider.plan_resource_change(PlanRequest {
        type_name: &at.decl.addr.ty,
        prior_state: &plain_prior,
        proposed_new_state: &proposed,
        config: &plain_cfg,
        prior_private,
        prior_identity,
    });
    let mut diags = Vec::new();
    let mut failed = false;
    for d in &resp.diagnostics {
        failed |= d.severity == Severity::Error;
        diags.push(resource_diag(at.hir, d, at.addr, at.decl));
    }
    if failed {
        return (None, diags);
    }
    let invalid = |detail: String| {
        Diagnostic::error("provider-invalid-plan", "Provider produced invalid plan")
            .with_detail(format!("Provider {:?} planned an invalid value for {}{detail}.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", at.provider_name, at.addr))
            .with_address(at.addr)
    };
    if convert(&resp.planned_state, &at.schema.implied_type()).is_err() {
        diags.push(invalid(
            ": the planned object does not conform to the resource type schema".into(),
        ));
        return (None, diags);
    }
    let wo = crate::diagnostics::write_only_returned(
        &at.schema.block,
        &resp.planned_state,
        at.provider_name,
        at.addr,
        "during planning",
    );
    if !wo.is_empty() {
        diags.extend(wo);
        return (None, diags);
    }
    if !resp.legacy_type_system {
        let errs = assert_plan_valid(
            &at.schema.block,
            &plain_prior,
            &plain_cfg,
            &resp.planned_state,
        );
        if !errs.is_empty() {
            diags.extend(errs.into_iter().map(invalid));
            return (None, diags);
        }
    }
    if let Some(identity) = &resp.planned_identity {
        let schema = provider.identity_schema(&at.decl.addr.ty);
        // A new object's identity may be unknown until apply.
        let must_be_known = !plain_prior.is_null();
        let errs = crate::identity::check_identity(
            identity,
            schema.as_ref(),
            must_be_known,
            &crate::identity::IdentityAt {
                addr: at.addr,
                provider_name: at.provider_name,
                provider_type: at.decl.addr.implied_provider(),
            },
        );
        if !errs.is_empty() {
            diags.extend(errs);
            return (None, diags);
        }
    }
    let planned = PlannedObject {
        identity: resp.planned_identity.clone(),
        // The parts the plan leaves as they were share the prior's memory, and the parts it
        // takes from the configuration share the configuration's (which the instances of a
        // resource may share among themselves).
        value: carry_marks(&resp.planned_state, config)
            .share_from(prior)
            .share_from(config),
        private: resp.planned_private,
        deferred: resp.deferred,
        requires_replace: resp.requires_replace,
        legacy_type_system: resp.legacy_type_system,
    };
    (Some(planned), diags)
}

/// Marks on configuration values are carried to the same places of `object` (a planned or
/// applied object): a marked value marks the whole value there, and inside objects, maps and
/// lists of the same shape the marks stay on the elements that carry them.
pub fn carry_marks(object: &Value, config: &Value) -> Value {
    if !config.contains_sensitive() {
        return object.clone();
    }
    if !config.marks.is_empty() {
        return object.clone().with_marks(config.marks);
    }
    // Marks inside the configuration have no place in a value not known yet (or null): cty
    // applies each marked path only where the value has it, so Terraform drops them (a
    // provider planning a whole map unknown leaves its sensitive element unmarked).
    if object.is_unknown() || object.is_null() {
        return object.clone();
    }
    match (&object.kind, &config.kind) {
        (ValueKind::Object(om), ValueKind::Object(cm)) => {
            let mut out = (**om).clone();
            for (k, v) in out.iter_mut() {
                if let Some(c) = cm.get(k) {
                    *v = carry_marks(v, c);
                }
            }
            Value::object(out).with_marks(object.marks)
        }
        (ValueKind::Map(ty, om), ValueKind::Map(_, cm) | ValueKind::Object(cm)) => {
            let mut out = (**om).clone();
            for (k, v) in out.iter_mut() {
                if let Some(c) = cm.get(k) {
                    *v = carry_marks(v, c);
                }
            }
            Value::map(ty.clone(), out).with_marks(object.marks)
        }
        (ValueKind::List(ty, os), ValueKind::List(_, cs) | ValueKind::Tuple(cs))
            if os.len() == cs.len() =>
        {
            let out = os
                .iter()
                .zip(cs.iter())
                .map(|(o, c)| carry_marks(o, c))
                .collect();
            Value::list(ty.clone(), out).with_marks(object.marks)
        }
        // Elsewhere (sets, shapes that differ) the value is marked as a whole.
        _ => object.clone().mark_sensitive(),
    }
}

/// The configuration with `ignore_changes` applied: ignored attributes (and map keys, list
/// elements) take the prior object's values. Without a prior object nothing is ignored.
pub fn configured_value(lc: &Lifecycle, config: &Value, prior: Option<&Value>) -> Value {
    let Some(prior) = prior.filter(|p| !p.is_null()) else {
        return config.clone();
    };
    if lc.ignore_all_changes {
        let (Some(cm), Some(pm)) = (config.as_entries(), prior.as_entries()) else {
            return config.clone();
        };
        let mut out = cm.clone();
        for (k, v) in out.iter_mut() {
            if let Some(p) = pm.get(k) {
                *v = p.clone();
            }
        }
        return Value::object(out).with_marks(config.marks);
    }
    let mut out = config.clone();
    for path in &lc.ignore_changes {
        out = ignore_at(&out, Some(prior), path).unwrap_or(out);
    }
    out
}

/// `config` with the value at `path` replaced by the prior object's value there (a map key the
/// prior object lacks is removed; one only the prior object has is added back). None leaves
/// `config` as it is (the path leads nowhere).
fn ignore_at(config: &Value, prior: Option<&Value>, path: &[IgnoreStep]) -> Option<Value> {
    let Some((step, rest)) = path.split_first() else {
        return Some(prior.cloned().unwrap_or_else(|| Value::null(config.ty())));
    };
    if !config.is_known() {
        return None;
    }
    // As cty applies paths: attributes step into objects, string keys into maps, numbers into
    // lists (`tags.Name` on a map leads nowhere, as in Terraform).
    match (&config.kind, step) {
        (ValueKind::Object(m), IgnoreStep::Attr(k)) => {
            let cur = m.get(k)?;
            let p = prior.and_then(|p| p.as_entries()).and_then(|pm| pm.get(k));
            let new = ignore_at(cur, p, rest)?;
            let mut out = (**m).clone();
            out.insert(k.to_string(), new);
            Some(Value::object(out).with_marks(config.marks))
        }
        (ValueKind::Map(ety, m), IgnoreStep::Key(k)) => {
            let p = prior.and_then(|p| p.as_entries()).and_then(|pm| pm.get(k));
            let mut out = (**m).clone();
            match (m.get(k), p) {
                (Some(_), None) if rest.is_empty() => {
                    out.remove(k);
                }
                (Some(cur), _) => {
                    out.insert(k.to_string(), ignore_at(cur, p, rest)?);
                }
                (None, Some(pv)) if rest.is_empty() => {
                    out.insert(k.to_string(), pv.clone());
                }
                (None, _) => return None,
            }
            Some(Value::map(ety.clone(), out).with_marks(config.marks))
        }
        (ValueKind::Null(_), _) if rest.is_empty() => prior.cloned(),
        (ValueKind::List(ety, items), IgnoreStep::Index(i)) => {
            let i = *i as usize;
            let cur = items.get(i)?;
            let p = prior.and_then(|p| match &p.kind {
                ValueKind::List(_, ps) | ValueKind::Tuple(ps) => ps.get(i),
                _ => None,
            });
            let new = ignore_at(cur, p, rest)?;
            let mut out = (**items).clone();
            out[i] = new;
            Some(Value::list(ety.clone(), out).with_marks(config.marks))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::carry_marks;
    use ferro_value::{Type, Value, ValueMap};

    fn map(entries: Vec<(&str, Value)>) -> Value {
        Value::map(Type::String, entries.into_iter().collect::<ValueMap>())
    }

    #[test]
    fn marks_go_where_the_value_has_the_marked_path() {
        let config = map(vec![
            ("parent", Value::unknown(Type::String)),
            ("s", Value::string("hunter2").mark_sensitive()),
        ]);
        // Known: the element is marked, not the map.
        let known = map(vec![
            ("parent", Value::string("p")),
            ("s", Value::string("hunter2")),
        ]);
        let out = carry_marks(&known, &config);
        assert!(!out.is_sensitive());
        let ferro_value::ValueKind::Map(_, m) = &out.kind else {
            panic!("not a map: {out:?}")
        };
        assert!(m.get("s").unwrap().is_sensitive());
        assert!(!m.get("parent").unwrap().is_sensitive());
        // Planned wholly unknown (as SDKv2 providers plan a map with an unknown element): the
        // marked path is not there, and Terraform leaves the value unmarked.
        let unknown = Value::unknown(Type::map(Type::String));
        assert!(!carry_marks(&unknown, &config).contains_sensitive());
        // A mark on the configuration value itself covers whatever was planned.
        let whole = Value::string("x").mark_sensitive();
        assert!(carry_marks(&Value::unknown(Type::String), &whole).is_sensitive());
    }
}
