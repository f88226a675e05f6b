//! The random provider's plan modifiers through the real protocol: the plugin binary is started
//! with ferro's plugin client (go-plugin handshake, AutoMTLS, tfplugin6) and driven like core
//! drives it.

use ferro_provider::plugin::{GrpcProvider, PluginOptions};
use ferro_provider::{ApplyRequest, PlanRequest, PlanResponse, Provider};
use ferro_sdk::values::with;
use ferro_value::ValueMap;
use ferro_value::{PathStep, Type, Value};
use std::path::Path;
use std::time::Duration;

fn start() -> GrpcProvider {
    let addr = ferro_addrs::Provider {
        hostname: "registry.terraform.io".into(),
        namespace: "hashicorp".into(),
        ty: "random".into(),
    };
    let opts = PluginOptions {
        auto_mtls: true,
        start_timeout: Duration::from_secs(30),
        echo_logs: false,
    };
    GrpcProvider::start(
        &addr,
        Path::new(env!("CARGO_BIN_EXE_terraform-provider-random")),
        &opts,
    )
    .expect("the plugin starts")
}

fn empty(p: &GrpcProvider, ty: &str) -> Value {
    p.schema().unwrap().resources[ty].block.empty_value()
}

fn keepers(k: &str) -> Value {
    Value::map(
        Type::String,
        ValueMap::from([("k".to_string(), Value::string(k))]),
    )
}

fn plan(p: &GrpcProvider, prior: &Value, config: &Value) -> PlanResponse {
    // Core's proposed new state: config values, prior values for computed attributes left null.
    let mut proposed = config.clone();
    if !prior.is_null() {
        for name in ["id", "b64_url", "b64_std", "hex", "dec"] {
            proposed = with(&proposed, name, prior.get_attr(name).unwrap().clone());
        }
    }
    p.plan_resource_change(PlanRequest {
        type_name: "random_id",
        prior_state: prior,
        proposed_new_state: &proposed,
        config,
        prior_private: &[],
        prior_identity: None,
    })
}

fn create(p: &GrpcProvider, config: &Value) -> Value {
    let ty = empty(p, "random_id").ty();
    let planned = plan(p, &Value::null(ty.clone()), config);
    assert!(planned.diagnostics.is_empty(), "{:?}", planned.diagnostics);
    let applied = p.apply_resource_change(ApplyRequest {
        type_name: "random_id",
        prior_state: &Value::null(ty),
        planned_state: &planned.planned_state,
        config,
        planned_private: &planned.planned_private,
        planned_identity: None,
    });
    assert!(applied.diagnostics.is_empty(), "{:?}", applied.diagnostics);
    applied.new_state
}

#[test]
fn random_id_plans_and_replaces_through_the_plugin_protocol() {
    let p = start();
    let config = with(
        &with(&empty(&p, "random_id"), "byte_length", Value::int(4)),
        "keepers",
        keepers("a"),
    );
    let ty = config.ty();

    // Create: configured values echoed, computed ones unknown, nothing to replace.
    let created = plan(&p, &Value::null(ty.clone()), &config);
    assert!(created.requires_replace.is_empty());
    let planned = &created.planned_state;
    assert_eq!(planned.get_attr("byte_length"), Some(&Value::int(4)));
    assert!(!planned.get_attr("hex").unwrap().is_known());
    assert!(planned.get_attr("prefix").unwrap().is_null());

    let state = create(&p, &config);
    let hex = state.get_attr("hex").unwrap().as_str().unwrap().to_string();
    assert_eq!(hex.len(), 8);
    assert_eq!(
        state.get_attr("id").unwrap().as_str().unwrap().len(),
        6,
        "4 bytes are 6 unpadded base64url characters"
    );

    // Unchanged: use_state_for_unknown keeps every computed value, no replacement.
    let same = plan(&p, &state, &config);
    assert!(same.requires_replace.is_empty());
    assert_eq!(same.planned_state, state);

    // A keepers change forces replacement on exactly that attribute.
    let changed_cfg = with(&config, "keepers", keepers("b"));
    let changed = plan(&p, &state, &changed_cfg);
    assert_eq!(
        changed.requires_replace,
        vec![vec![PathStep::Attr("keepers".into())]]
    );

    // An unknown keepers value also replaces (it may differ), and is planned unknown.
    let unknown_cfg = with(&config, "keepers", Value::unknown(Type::map(Type::String)));
    let unknown = plan(&p, &state, &unknown_cfg);
    assert_eq!(
        unknown.requires_replace,
        vec![vec![PathStep::Attr("keepers".into())]]
    );
    assert!(!unknown
        .planned_state
        .get_attr("keepers")
        .unwrap()
        .is_known());

    // Removing the keepers (null config) is a change from the prior map: replace too.
    let null_cfg = with(&config, "keepers", Value::null(Type::map(Type::String)));
    let nulled = plan(&p, &state, &null_cfg);
    assert_eq!(nulled.requires_replace.len(), 1);
    p.close();
}

#[test]
fn validators_report_on_the_attribute_path() {
    let p = start();
    let config = with(&empty(&p, "random_id"), "byte_length", Value::int(0));
    let diags = p.validate_resource_config("random_id", &config);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(
        diags[0].attribute,
        Some(vec![PathStep::Attr("byte_length".into())])
    );
    assert!(
        diags[0].detail.contains("at least 1"),
        "{}",
        diags[0].detail
    );
    // Unknown values are not validated yet.
    let unknown = with(&config, "byte_length", Value::unknown(Type::Number));
    assert!(p.validate_resource_config("random_id", &unknown).is_empty());
    p.close();
}

#[test]
fn the_plugin_and_the_in_process_provider_have_the_same_schema() {
    let p = start();
    let over_grpc = p.schema().unwrap();
    let local = ferro_providers::random::provider().schema().unwrap();
    assert_eq!(over_grpc.resources, local.resources);
    assert!(over_grpc.resources["random_password"].block.attributes["result"].sensitive);
    p.close();
}
