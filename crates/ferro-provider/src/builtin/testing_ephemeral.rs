//! The test provider's ephemeral resource `ferrotest_token`, for the lifecycle core drives:
//! opening yields `secret = "token-for-NAME"` with the private data `open:NAME` and asks to be
//! renewed at once; renewing takes that private data and gives back `renewed:NAME` (and no
//! further renewal); closing wants the renewed private data, and is an error otherwise, so a
//! test sees that core renewed before it closed and carried the private data between calls.
//! `fail_open`, when set, makes opening fail with that message.

use crate::{OpenEphemeralResponse, ProviderDiagnostic, RenewEphemeralResponse};
use ferro_value::schema::{Attribute, Schema};
use ferro_value::{Type, Value, ValueMap};
use std::time::SystemTime;

pub const TOKEN: &str = "ferrotest_token";

pub fn schema() -> Schema {
    let mut s = Schema::default();
    let attrs = &mut s.block.attributes;
    attrs.insert("name".into(), Attribute::new(Type::String).required());
    attrs.insert("fail_open".into(), Attribute::new(Type::String).optional());
    attrs.insert(
        "secret".into(),
        Attribute::new(Type::String).computed().sensitive(),
    );
    s
}

fn text(v: &Value, name: &str) -> Option<String> {
    v.get_attr(name)
        .and_then(|a| a.as_str())
        .map(str::to_string)
}

pub fn open(config: &Value) -> OpenEphemeralResponse {
    let name = text(config, "name").unwrap_or_default();
    if let Some(msg) = text(config, "fail_open") {
        return OpenEphemeralResponse {
            result: Value::null(schema().block.implied_type()),
            private: Vec::new(),
            renew_at: None,
            diagnostics: vec![ProviderDiagnostic::error("Open failed", msg)],
        };
    }
    let mut out = ValueMap::new();
    out.insert("name", Value::string(name.clone()));
    out.insert(
        "fail_open",
        config
            .get_attr("fail_open")
            .cloned()
            .unwrap_or(Value::null(Type::String)),
    );
    out.insert("secret", Value::string(format!("token-for-{name}")));
    OpenEphemeralResponse {
        result: Value::object(out),
        private: format!("open:{name}").into_bytes(),
        renew_at: Some(SystemTime::now()),
        diagnostics: Vec::new(),
    }
}

pub fn renew(private: &[u8]) -> RenewEphemeralResponse {
    let text = String::from_utf8_lossy(private);
    match text.strip_prefix("open:") {
        Some(name) => RenewEphemeralResponse {
            private: Some(format!("renewed:{name}").into_bytes()),
            renew_at: None,
            diagnostics: Vec::new(),
        },
        None => RenewEphemeralResponse {
            diagnostics: vec![ProviderDiagnostic::error(
                "Renewed twice",
                format!("ferrotest_token was renewed with the private data {text:?}."),
            )],
            ..Default::default()
        },
    }
}

pub fn close(private: &[u8]) -> Vec<ProviderDiagnostic> {
    if private.starts_with(b"renewed:") {
        Vec::new()
    } else {
        vec![ProviderDiagnostic::error(
            "Closed before renewal",
            format!(
                "ferrotest_token was closed with the private data {:?}.",
                String::from_utf8_lossy(private)
            ),
        )]
    }
}
