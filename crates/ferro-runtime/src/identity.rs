//! Resource identities (Terraform 1.12): the identity state holds for an object, decoded and
//! upgraded to the provider's current identity schema (`UpgradeResourceIdentity`), core's
//! checks of the identities providers answer with, and identities encoded for state.

use ferro_diag::Diagnostic;
use ferro_provider::{IdentitySchema, Provider, UpgradeIdentityRequest};
use ferro_state::{Identity, ObjectState};
use ferro_value::{json, Type, Value};
use std::sync::Arc;

/// The names core's messages use for the object an identity belongs to.
pub struct IdentityAt<'a> {
    /// The instance's address as text.
    pub addr: &'a str,
    /// The provider's source address.
    pub provider_name: &'a str,
    /// The provider's type name (`ferrotest`), as Terraform names it in upgrade errors.
    pub provider_type: &'a str,
}

/// The identity state holds for `obj`, as the provider's current identity schema has it: None
/// when the object has none or the type has no identity schema; upgraded with the provider
/// when it was recorded under an older identity schema version; an error when it was recorded
/// by a newer provider or the upgrade fails.
pub fn stored_identity(
    provider: &dyn Provider,
    type_name: &str,
    schema: Option<&IdentitySchema>,
    obj: &ObjectState,
    at: &IdentityAt<'_>,
) -> Result<Option<Value>, Vec<Diagnostic>> {
    let (Some(schema), Some(stored)) = (schema, obj.identity.as_deref()) else {
        return Ok(None);
    };
    let raw: serde_json::Value = match serde_json::from_str(&stored.json) {
        Ok(serde_json::Value::Null) => return Ok(None),
        Ok(j) => j,
        Err(e) => return Err(vec![invalid_upgrade(at, &format!("invalid JSON: {e}"))]),
    };
    let ty = schema.implied_type();
    if stored.schema_version > schema.version {
        return Err(vec![Diagnostic::error(
            "newer-identity-schema",
            "Resource instance managed by newer provider version",
        )
        .with_detail(format!(
            "The current state of {} was created by a newer provider version than is currently selected. Upgrade the {} provider to work with this state.",
            at.addr, at.provider_type
        ))]);
    }
    if stored.schema_version == schema.version {
        return json::value_from_json(&raw, &ty).map(Some).map_err(|e| {
            vec![Diagnostic::error("invalid-identity", "Invalid resource identity")
                .with_detail(format!(
                    "The identity state holds for {} does not match the identity schema of provider {:?}: {e}.",
                    at.addr, at.provider_name
                ))]
        });
    }
    let resp = provider.upgrade_resource_identity(UpgradeIdentityRequest {
        type_name,
        version: stored.schema_version,
        raw_json: &raw,
    });
    let mut diags: Vec<Diagnostic> = resp
        .diagnostics
        .iter()
        .map(|d| crate::diagnostics::provider_diag(d, at.addr, None))
        .collect();
    if ferro_provider::has_errors(&resp.diagnostics) {
        return Err(diags);
    }
    let v = resp.upgraded_identity;
    if !v.is_wholly_known() {
        diags.push(invalid_upgrade(
            at,
            "The returned state contains unknown values",
        ));
        return Err(diags);
    }
    match ferro_value::convert::convert(&v, &ty) {
        Ok(v) if conforms(&v, &ty) => Ok(Some(v)),
        Ok(_) => {
            diags.push(invalid_upgrade(at, "wrong object type"));
            Err(diags)
        }
        Err(e) => {
            diags.push(invalid_upgrade(at, &e.to_string()));
            Err(diags)
        }
    }
}

fn invalid_upgrade(at: &IdentityAt<'_>, why: &str) -> Diagnostic {
    Diagnostic::error("invalid-identity-upgrade", "Invalid resource identity upgrade").with_detail(
        format!(
            "The {} provider upgraded the identity for {} from a previous version, but produced an invalid result: {why}.",
            at.provider_type, at.addr
        ),
    )
}

fn conforms(v: &Value, ty: &Type) -> bool {
    v.is_null() || nonconformance(&v.ty(), ty).is_empty()
}

/// How a value's type differs from the identity schema's object type (cty's conformance
/// test, on the objects identities are): attributes missing, unexpected or of another type.
fn nonconformance(got: &Type, want: &Type) -> Vec<String> {
    match (got, want) {
        (Type::Object(g), Type::Object(w)) => {
            let mut errs = Vec::new();
            for (name, wt) in &w.attrs {
                match g.attrs.get(name) {
                    None => errs.push(format!("missing required attribute {name:?}")),
                    Some(gt) if gt != wt && *gt != Type::Dynamic => errs.push(format!(
                        ".{name}: {} required, but got {}",
                        wt.friendly_name(),
                        gt.friendly_name()
                    )),
                    Some(_) => {}
                }
            }
            for name in g.attrs.keys().filter(|n| !w.attrs.contains_key(*n)) {
                errs.push(format!("unsupported attribute {name:?}"));
            }
            errs
        }
        (Type::Dynamic, _) => Vec::new(),
        _ if got == want => Vec::new(),
        _ => vec![format!(
            "{} required, but got {}",
            want.friendly_name(),
            got.friendly_name()
        )],
    }
}

/// Core's checks of an identity a provider answered with (Terraform's `validateIdentityKnown`
/// when `must_be_known`, and `validateIdentity`): wholly known, without marks, of the identity
/// schema's type.
pub fn check_identity(
    v: &Value,
    schema: Option<&IdentitySchema>,
    must_be_known: bool,
    at: &IdentityAt<'_>,
) -> Vec<Diagnostic> {
    let bug = "This is a bug in the provider, which should be reported in the provider's own issue tracker.";
    let mut diags = Vec::new();
    let invalid = |detail: String| {
        Diagnostic::error(
            "provider-invalid-identity",
            "Provider produced invalid identity",
        )
        .with_detail(detail)
        .with_address(at.addr)
    };
    if must_be_known && !v.is_wholly_known() {
        diags.push(invalid(format!(
            "Provider {:?} returned an identity with unknown values for {}. \n\n{bug}",
            at.provider_name, at.addr
        )));
    }
    if v.contains_sensitive() {
        diags.push(invalid(format!(
            "Provider {:?} returned an identity with marks for {}. \n\n{bug}",
            at.provider_name, at.addr
        )));
    }
    let ty = schema.map_or(
        Type::object(std::iter::empty()),
        IdentitySchema::implied_type,
    );
    for err in nonconformance(&v.ty(), &ty) {
        diags.push(
            Diagnostic::error(
                "provider-identity-schema",
                "Provider produced an identity that doesn't match the schema",
            )
            .with_detail(format!(
                "Provider {:?} returned an identity for {} that doesn't match the identity schema: {err}. \n\n{bug}",
                at.provider_name, at.addr,
            ))
            .with_address(at.addr),
        );
    }
    diags
}

/// An identity as state records it (None for a null or not wholly known identity).
pub fn identity_for_state(v: &Value, schema: &IdentitySchema) -> Option<Arc<Identity>> {
    if v.is_null() || !v.is_wholly_known() {
        return None;
    }
    let (plain, _) = v.deep_unmark();
    let j = json::value_to_json(&plain, &schema.implied_type()).ok()?;
    Some(Arc::new(Identity {
        schema_version: schema.version,
        json: j.to_string().into_boxed_str(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_provider::IdentityAttribute;

    fn schema() -> IdentitySchema {
        let attr = |required| IdentityAttribute {
            ty: Type::String,
            required_for_import: required,
            optional_for_import: !required,
            description: String::new(),
        };
        IdentitySchema {
            version: 2,
            attributes: [
                ("name".to_string(), attr(true)),
                ("zone".to_string(), attr(false)),
            ]
            .into_iter()
            .collect(),
        }
    }

    fn at() -> IdentityAt<'static> {
        IdentityAt {
            addr: "t_x.a",
            provider_name: "example.com/t/t",
            provider_type: "t",
        }
    }

    fn object(attrs: &[(&str, Value)]) -> Value {
        Value::object(
            attrs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    #[test]
    fn identities_must_match_the_schema_and_be_known_where_required() {
        let s = schema();
        let good = object(&[("name", Value::string("n")), ("zone", Value::string("z"))]);
        assert!(check_identity(&good, Some(&s), true, &at()).is_empty());
        let unknown = object(&[
            ("name", Value::unknown(Type::String)),
            ("zone", Value::string("z")),
        ]);
        assert!(check_identity(&unknown, Some(&s), false, &at()).is_empty());
        let d = check_identity(&unknown, Some(&s), true, &at());
        assert_eq!(d[0].summary, "Provider produced invalid identity");
        let extra = object(&[
            ("name", Value::string("n")),
            ("zone", Value::string("z")),
            ("x", Value::bool(true)),
        ]);
        let d = check_identity(&extra, Some(&s), true, &at());
        assert!(d[0].detail.contains("unsupported attribute \"x\""), "{d:?}");
        let wrong = object(&[("name", Value::int(1)), ("zone", Value::string("z"))]);
        let d = check_identity(&wrong, Some(&s), true, &at());
        assert!(d[0].detail.contains(".name: string required"), "{d:?}");
        let missing = object(&[("name", Value::string("n"))]);
        let d = check_identity(&missing, Some(&s), true, &at());
        assert!(
            d[0].detail.contains("missing required attribute \"zone\""),
            "{d:?}"
        );
        // No identity schema: any identity is refused.
        assert!(!check_identity(&good, None, true, &at()).is_empty());
    }

    #[test]
    fn identities_are_recorded_as_json_with_the_schema_version() {
        let s = schema();
        let v = object(&[
            ("name", Value::string("n")),
            ("zone", Value::null(Type::String)),
        ]);
        let id = identity_for_state(&v, &s).unwrap();
        assert_eq!(id.schema_version, 2);
        assert_eq!(&*id.json, r#"{"name":"n","zone":null}"#);
        let unknown = object(&[
            ("name", Value::unknown(Type::String)),
            ("zone", Value::null(Type::String)),
        ]);
        assert!(identity_for_state(&unknown, &s).is_none());
    }
}
