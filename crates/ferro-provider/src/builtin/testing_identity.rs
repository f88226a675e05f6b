//! `ferrotest_named`: the test provider's resource type with a resource identity (Terraform
//! 1.12), for the goldens of identities in state, plans, `show -json`, `import` blocks with
//! `identity` and identity upgrades.
//!
//! The object has `name` (required), `zone` (optional; `"default"` when not set), `value`,
//! `break` and a computed `id` (`ZONE/NAME`). Its identity (identity schema version 1) is
//! `name` (required for import) and `zone` (optional for import); changing either requires
//! replacement. Version 0 identities were `{"ident": "ZONE/NAME"}` and are upgraded.
//!
//! The identity core sends must be the object's: `ReadResource`'s current identity and
//! `PlanResourceChange`'s prior identity when core sends one, `ApplyResourceChange`'s planned
//! identity always (a mismatch or a missing one is an error), so that carrying identities from
//! state to plan to apply is tested.
//!
//! Import takes an ID `ZONE/NAME` (or `NAME`) or an identity; the imported object's `value`
//! is `imported-NAME`. `break` makes the provider answer an identity core must refuse:
//! `plan_identity_unknown` (an update planned with an unknown identity),
//! `apply_identity_extra` (an identity with an attribute the schema lacks after apply) and
//! `read_identity_unknown` (an unknown identity from `ReadResource`).

use super::testing::{breaks, get, text, with};
use crate::{
    ApplyRequest, ApplyResponse, IdentityAttribute, IdentitySchema, ImportRequest, ImportResponse,
    ImportedResource, PlanRequest, PlanResponse, ProviderDiagnostic, ReadRequest, ReadResponse,
    UpgradeIdentityRequest, UpgradeIdentityResponse,
};
use ferro_value::schema::{Attribute, Schema};
use ferro_value::{PathStep, Type, Value, ValueMap};

pub(super) const NAMED: &str = "ferrotest_named";

pub(super) fn schema() -> Schema {
    let mut s = Schema::default();
    let attrs = &mut s.block.attributes;
    attrs.insert("id".into(), Attribute::new(Type::String).computed());
    attrs.insert("name".into(), Attribute::new(Type::String).required());
    attrs.insert(
        "zone".into(),
        Attribute::new(Type::String).optional().computed(),
    );
    attrs.insert("value".into(), Attribute::new(Type::String).optional());
    attrs.insert("break".into(), Attribute::new(Type::String).optional());
    s
}

pub(super) fn identity_schema() -> IdentitySchema {
    let attr = |required: bool, description: &str| IdentityAttribute {
        ty: Type::String,
        required_for_import: required,
        optional_for_import: !required,
        description: description.into(),
    };
    IdentitySchema {
        version: 1,
        attributes: [
            ("name".to_string(), attr(true, "The object's name.")),
            ("zone".to_string(), attr(false, "The object's zone.")),
        ]
        .into_iter()
        .collect(),
    }
}

/// The identity of an object (its `name` and `zone`).
fn identity_of(obj: &Value) -> Value {
    Value::object(
        [
            ("name".to_string(), get(obj, "name")),
            ("zone".to_string(), get(obj, "zone")),
        ]
        .into_iter()
        .collect(),
    )
}

fn hcl(v: &Value) -> String {
    let mut out = String::new();
    ferro_value::hcl_text::expr_text(v, &mut out);
    out
}

/// An identity core sent must be the object's (unknown parts match anything).
fn check_sent(
    what: &str,
    sent: Option<&Value>,
    obj: &Value,
    required: bool,
    diags: &mut Vec<ProviderDiagnostic>,
) {
    let expected = identity_of(obj);
    match sent {
        None if required => diags.push(ProviderDiagnostic::error(
            "Missing identity",
            format!("ferrotest_named was sent no {what}."),
        )),
        Some(v) if !v.is_wholly_known() || !expected.is_wholly_known() => {}
        Some(v) if *v != expected => diags.push(ProviderDiagnostic::error(
            "Wrong identity",
            format!(
                "ferrotest_named was sent the {what} {}, not the object's {}.",
                hcl(v),
                hcl(&expected)
            ),
        )),
        _ => {}
    }
}

pub(super) fn plan(req: &PlanRequest<'_>) -> PlanResponse {
    let mut resp = PlanResponse {
        planned_state: req.proposed_new_state.clone(),
        requires_replace: Vec::new(),
        planned_private: Vec::new(),
        diagnostics: Vec::new(),
        legacy_type_system: false,
        deferred: None,
        planned_identity: None,
    };
    let (prior, proposed) = (req.prior_state, req.proposed_new_state);
    if !prior.is_null() {
        check_sent(
            "prior identity",
            req.prior_identity,
            prior,
            false,
            &mut resp.diagnostics,
        );
    }
    if proposed.is_null() {
        return resp;
    }
    let mut planned = proposed.clone();
    if get(&planned, "zone").is_null() {
        planned = with(&planned, "zone", Value::string("default"));
    }
    let mut replace = false;
    if !prior.is_null() {
        for attr in ["name", "zone"] {
            if get(prior, attr) != get(&planned, attr) {
                resp.requires_replace
                    .push(vec![PathStep::Attr(attr.to_string())]);
                replace = true;
            }
        }
    }
    if prior.is_null() || replace {
        planned = with(&planned, "id", Value::unknown(Type::String));
    } else {
        planned = with(&planned, "id", get(prior, "id"));
    }
    let mut identity = identity_of(&planned);
    if !prior.is_null() && breaks(&planned, "plan_identity_unknown") {
        identity = with(&identity, "name", Value::unknown(Type::String));
    }
    resp.planned_identity = Some(identity);
    resp.planned_state = planned;
    resp
}

pub(super) fn apply(req: &ApplyRequest<'_>) -> ApplyResponse {
    let planned = req.planned_state;
    let mut resp = ApplyResponse {
        new_state: planned.clone(),
        private: Vec::new(),
        diagnostics: Vec::new(),
        legacy_type_system: false,
        new_identity: None,
    };
    if planned.is_null() {
        return resp;
    }
    check_sent(
        "planned identity",
        req.planned_identity,
        planned,
        true,
        &mut resp.diagnostics,
    );
    let id = format!(
        "{}/{}",
        text(planned, "zone").unwrap_or_default(),
        text(planned, "name").unwrap_or_default()
    );
    let new = with(planned, "id", Value::string(id));
    let mut identity = identity_of(&new);
    if breaks(&new, "apply_identity_extra") {
        identity = with(&identity, "extra", Value::string("surprise"));
    }
    resp.new_identity = Some(identity);
    resp.new_state = new;
    resp
}

pub(super) fn read(req: &ReadRequest<'_>) -> ReadResponse {
    let cur = req.current_state;
    let mut diagnostics = Vec::new();
    check_sent(
        "current identity",
        req.current_identity,
        cur,
        false,
        &mut diagnostics,
    );
    let mut identity = identity_of(cur);
    if breaks(cur, "read_identity_unknown") {
        identity = with(&identity, "zone", Value::unknown(Type::String));
    }
    ReadResponse {
        new_state: cur.clone(),
        private: req.private.to_vec(),
        diagnostics,
        deferred: None,
        new_identity: (!cur.is_null()).then_some(identity),
    }
}

pub(super) fn import(req: &ImportRequest<'_>) -> ImportResponse {
    let (name, zone) = match req.identity {
        Some(identity) => (
            text(identity, "name").unwrap_or_default(),
            text(identity, "zone").unwrap_or_else(|| "default".into()),
        ),
        None => match req.id.split_once('/') {
            Some((zone, name)) => (name.to_string(), zone.to_string()),
            None => (req.id.to_string(), "default".to_string()),
        },
    };
    if name.is_empty() {
        return ImportResponse {
            imported: Vec::new(),
            diagnostics: vec![ProviderDiagnostic::error(
                "Invalid import",
                "ferrotest_named needs a name to import.",
            )],
            deferred: None,
        };
    }
    let mut attrs = ValueMap::new();
    attrs.insert("id", Value::string(format!("{zone}/{name}")));
    attrs.insert("name", Value::string(&name));
    attrs.insert("zone", Value::string(&zone));
    attrs.insert("value", Value::string(format!("imported-{name}")));
    attrs.insert("break", Value::null(Type::String));
    let state = Value::object(attrs);
    ImportResponse {
        imported: vec![ImportedResource {
            type_name: NAMED.to_string(),
            identity: Some(identity_of(&state)),
            state,
            private: Vec::new(),
        }],
        diagnostics: Vec::new(),
        deferred: None,
    }
}

/// A `ferrotest_thing` taken over as a `ferrotest_named` (a `moved` block across types): its
/// `value` becomes the name, in zone `moved`, with that identity.
pub(super) fn moved_from_thing(req: &crate::MoveRequest<'_>) -> crate::MoveResponse {
    let name = req
        .source_state
        .get("value")
        .and_then(|v| v.as_str())
        .unwrap_or("unnamed");
    let mut attrs = ValueMap::new();
    attrs.insert("id", Value::string(format!("moved/{name}")));
    attrs.insert("name", Value::string(name));
    attrs.insert("zone", Value::string("moved"));
    attrs.insert(
        "value",
        Value::string(format!("was {}", req.source_type_name)),
    );
    attrs.insert("break", Value::null(Type::String));
    let state = Value::object(attrs);
    crate::MoveResponse {
        target_identity: Some(identity_of(&state)),
        target_state: state,
        target_private: Vec::new(),
        diagnostics: Vec::new(),
    }
}

pub(super) fn upgrade_identity(req: &UpgradeIdentityRequest<'_>) -> UpgradeIdentityResponse {
    let old = req
        .raw_json
        .get("ident")
        .and_then(|v| v.as_str())
        .filter(|_| req.version == 0);
    let Some((zone, name)) = old.and_then(|s| s.split_once('/')) else {
        return UpgradeIdentityResponse {
            upgraded_identity: Value::null(Type::Dynamic),
            diagnostics: vec![ProviderDiagnostic::error(
                "Invalid identity",
                format!(
                    "ferrotest_named cannot upgrade identity version {} ({}).",
                    req.version, req.raw_json
                ),
            )],
        };
    };
    UpgradeIdentityResponse {
        upgraded_identity: Value::object(
            [
                ("name".to_string(), Value::string(name)),
                ("zone".to_string(), Value::string(zone)),
            ]
            .into_iter()
            .collect(),
        ),
        diagnostics: Vec::new(),
    }
}
