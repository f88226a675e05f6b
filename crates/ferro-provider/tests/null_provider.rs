//! Drives the real `terraform-provider-null` v2.1.2 (plugin protocol 5) through the plugin
//! client: GetSchema, PrepareProviderConfig, Configure, ValidateResourceTypeConfig,
//! PlanResourceChange, ApplyResourceChange, ReadResource, UpgradeResourceState, Stop and the
//! controller shutdown, over AutoMTLS and over plaintext.
//!
//! The binary comes from the shared oracle cache (`tools/fetch-oracles.sh`, which downloads it
//! through pip on first use); if that fails, the test fails.

mod common;

use common::null_binary;
use ferro_addrs::Provider as ProviderAddr;
use ferro_provider::plugin::{GrpcProvider, PluginOptions};
use ferro_provider::{
    has_errors, ApplyRequest, PlanRequest, Provider, ReadRequest, UpgradeRequest,
};
use ferro_value::ValueMap;
use ferro_value::{PathStep, Type, Value};
use std::time::Duration;

fn null_addr() -> ProviderAddr {
    ProviderAddr::default_for("null")
}

fn obj(pairs: &[(&str, Value)]) -> Value {
    Value::object(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

fn triggers(pairs: &[(&str, &str)]) -> Value {
    let m: ValueMap = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), Value::string(*v)))
        .collect();
    Value::map(Type::String, m)
}

fn exercise(opts: PluginOptions) {
    let p = GrpcProvider::start(&null_addr(), &null_binary(), &opts).expect("start null provider");
    assert_eq!(p.protocol_version(), 5);

    // GetSchema
    let schema = p.schema().expect("schema");
    let res = &schema.resources["null_resource"];
    let id = &res.block.attributes["id"];
    assert_eq!(id.ty, Type::String);
    assert!(id.optional && id.computed && !id.required);
    assert_eq!(res.block.attributes["triggers"].ty, Type::map(Type::String));
    assert!(schema.data_sources.contains_key("null_data_source"));
    assert!(schema.provider.block.attributes.is_empty());
    let ty = res.block.implied_type();

    // PrepareProviderConfig + Configure
    let pcfg = schema.provider.block.empty_value();
    assert!(!has_errors(&p.validate_provider_config(&pcfg)));
    assert!(!has_errors(&p.configure(&pcfg)));

    // ValidateResourceTypeConfig
    let config = obj(&[
        ("id", Value::null(Type::String)),
        ("triggers", triggers(&[("k", "v")])),
    ]);
    assert!(!has_errors(
        &p.validate_resource_config("null_resource", &config)
    ));

    // PlanResourceChange (create)
    let null = Value::null(ty.clone());
    let plan = p.plan_resource_change(PlanRequest {
        type_name: "null_resource",
        prior_state: &null,
        proposed_new_state: &config,
        config: &config,
        prior_private: &[],
        prior_identity: None,
    });
    assert!(plan.diagnostics.is_empty(), "{:?}", plan.diagnostics);
    assert!(plan.legacy_type_system);
    assert!(plan.planned_state.get_attr("id").unwrap().is_unknown());
    assert_eq!(
        plan.planned_state.get_attr("triggers").unwrap(),
        &triggers(&[("k", "v")])
    );

    // ApplyResourceChange (create)
    let applied = p.apply_resource_change(ApplyRequest {
        type_name: "null_resource",
        prior_state: &null,
        planned_state: &plan.planned_state,
        config: &config,
        planned_private: &plan.planned_private,
        planned_identity: None,
    });
    assert!(applied.diagnostics.is_empty(), "{:?}", applied.diagnostics);
    assert!(applied.new_state.is_wholly_known());
    let new_id = applied
        .new_state
        .get_attr("id")
        .unwrap()
        .as_str()
        .expect("id is a string")
        .to_string();
    assert!(
        !new_id.is_empty() && new_id.chars().all(|c| c.is_ascii_digit()),
        "null_resource ids are numbers: {new_id}"
    );
    assert_eq!(
        applied.new_state.get_attr("triggers").unwrap(),
        &triggers(&[("k", "v")])
    );

    // ReadResource returns the object unchanged.
    let read = p.read_resource(ReadRequest {
        type_name: "null_resource",
        current_state: &applied.new_state,
        private: &applied.private,
        current_identity: None,
    });
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    assert_eq!(read.new_state, applied.new_state);

    // UpgradeResourceState from the JSON stored in state.
    let raw = serde_json::json!({"id": new_id, "triggers": {"k": "v"}});
    let up = p.upgrade_resource_state(UpgradeRequest {
        type_name: "null_resource",
        version: 0,
        raw_json: &raw,
    });
    assert!(up.diagnostics.is_empty(), "{:?}", up.diagnostics);
    assert_eq!(up.upgraded_state, applied.new_state);

    // PlanResourceChange (update of a force-new attribute) asks for replacement.
    let config2 = obj(&[
        ("id", Value::null(Type::String)),
        ("triggers", triggers(&[("k", "w")])),
    ]);
    let proposed2 = obj(&[
        ("id", Value::string(new_id.clone())),
        ("triggers", triggers(&[("k", "w")])),
    ]);
    let plan2 = p.plan_resource_change(PlanRequest {
        type_name: "null_resource",
        prior_state: &applied.new_state,
        proposed_new_state: &proposed2,
        config: &config2,
        prior_private: &applied.private,
        prior_identity: None,
    });
    assert!(plan2.diagnostics.is_empty(), "{:?}", plan2.diagnostics);
    // The legacy SDK also lists the computed `id` it will replace.
    assert!(
        plan2
            .requires_replace
            .contains(&vec![PathStep::Attr("triggers".into())]),
        "{:?}",
        plan2.requires_replace
    );
    assert_eq!(
        plan2.planned_state.get_attr("triggers").unwrap(),
        &triggers(&[("k", "w")])
    );

    // Unknown resource types are reported, not sent.
    let bad = p.validate_resource_config("null_nothing", &config);
    assert!(
        has_errors(&bad) && bad[0].detail.contains("null_nothing"),
        "{bad:?}"
    );

    // Calls from several threads at once share the connection.
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..5 {
                    assert!(!has_errors(
                        &p.validate_resource_config("null_resource", &config)
                    ));
                }
            });
        }
    });

    p.stop();
    p.close();
    // After close, calls fail cleanly instead of hanging.
    let after = p.validate_resource_config("null_resource", &config);
    assert!(has_errors(&after), "{after:?}");
}

#[test]
fn null_provider_over_auto_mtls() {
    exercise(PluginOptions {
        auto_mtls: true,
        start_timeout: Duration::from_secs(60),
        echo_logs: false,
    });
}

#[test]
fn null_provider_over_plaintext() {
    exercise(PluginOptions {
        auto_mtls: false,
        start_timeout: Duration::from_secs(60),
        echo_logs: false,
    });
}

#[test]
fn a_plugin_that_exits_early_names_the_provider_and_its_output() {
    let dir = std::env::temp_dir().join(format!("ferro-plugin-crash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("terraform-provider-broken_v1.0.0");
    std::fs::write(&exe, "#!/bin/sh\necho 'panic: something went wrong' >&2\necho 'goroutine 1 [running]' >&2\nexit 2\n").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let addr = ProviderAddr::parse_source("example/broken").unwrap();
    let err = match GrpcProvider::start(&addr, &exe, &PluginOptions::default()) {
        Ok(_) => panic!("a crashing plugin must not start"),
        Err(e) => e,
    };
    assert!(
        err.contains("registry.terraform.io/example/broken"),
        "{err}"
    );
    assert!(err.contains("exited"), "{err}");
    assert!(err.contains("panic: something went wrong"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_plugin_speaking_netrpc_is_refused_with_the_protocol_named() {
    let dir = std::env::temp_dir().join(format!("ferro-plugin-v4-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("terraform-provider-old_v0.1.0");
    std::fs::write(
        &exe,
        "#!/bin/sh\necho '1|4|unix|/tmp/nothing|netrpc|'\nsleep 30\n",
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let addr = ProviderAddr::parse_source("example/old").unwrap();
    let started = std::time::Instant::now();
    let err = GrpcProvider::start(&addr, &exe, &PluginOptions::default())
        .err()
        .expect("protocol 4 is refused");
    assert!(err.contains("Plugin version: 4"), "{err}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the plugin was killed, not waited for"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
