//! Protocol 6 against a real server: a provider written with the Python `tf` framework (from
//! the oracle cache's venv) — GetProviderSchema, ValidateProviderConfig, ConfigureProvider,
//! ValidateResourceConfig, PlanResourceChange, ApplyResourceChange, ReadResource,
//! ReadDataSource, StopProvider — over its TLS (a 1024-bit RSA certificate).

mod common;

use common::{oracle_dir, temp_dir};
use ferro_addrs::Provider as ProviderAddr;
use ferro_provider::plugin::{GrpcProvider, PluginOptions};
use ferro_provider::{
    has_errors, ApplyRequest, PlanRequest, Provider, ReadDataRequest, ReadRequest,
};
use ferro_value::{Number, PathStep, Type, Value};
use std::path::PathBuf;

fn python_provider(dir: &std::path::Path) -> PathBuf {
    let python = oracle_dir().join("venv/bin/python");
    assert!(python.is_file(), "missing {}", python.display());
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/math_provider.py");
    let exe = dir.join("terraform-provider-pymath");
    std::fs::write(
        &exe,
        format!(
            "#!/bin/sh\nexec '{}' '{}' \"$@\"\n",
            python.display(),
            script.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
    exe
}

fn num(n: i64) -> Value {
    Value::number(Number::from_i64(n))
}

fn obj(pairs: &[(&str, Value)]) -> Value {
    Value::object(
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    )
}

#[test]
fn python_tf_provider_over_protocol_6() {
    let dir = temp_dir("protocol6");
    let exe = python_provider(&dir);
    let addr = ProviderAddr::parse_source("example.com/ferro/pymath").unwrap();
    let p = GrpcProvider::start(
        &addr,
        &exe,
        &PluginOptions {
            echo_logs: false,
            ..PluginOptions::default()
        },
    )
    .expect("start");
    assert_eq!(p.protocol_version(), 6);

    let schema = p.schema().expect("GetProviderSchema");
    let sum = &schema.resources["pymath_sum"];
    assert_eq!(sum.version, 1);
    assert!(sum.block.attributes["a"].required);
    assert!(sum.block.attributes["sum"].computed);
    assert_eq!(sum.block.attributes["sum"].ty, Type::Number);
    assert!(schema.data_sources.contains_key("pymath_const"));

    let rejected = p.validate_provider_config(&obj(&[("label", Value::string("reject"))]));
    assert!(
        has_errors(&rejected) && rejected[0].summary == "Rejected label",
        "{rejected:?}"
    );
    assert!(!has_errors(&p.validate_provider_config(&obj(&[(
        "label",
        Value::string("ok")
    )]))));
    let configured = p.configure(&obj(&[("label", Value::null(Type::String))]));
    assert!(!has_errors(&configured), "{configured:?}");

    let ty = sum.block.implied_type();
    let config = obj(&[
        ("a", num(2)),
        ("b", num(3)),
        ("sum", Value::null(Type::Number)),
    ]);
    assert!(!has_errors(
        &p.validate_resource_config("pymath_sum", &config)
    ));
    let null = Value::null(ty.clone());
    let plan = p.plan_resource_change(PlanRequest {
        type_name: "pymath_sum",
        prior_state: &null,
        proposed_new_state: &config,
        config: &config,
        prior_private: &[],
        prior_identity: None,
    });
    assert!(!has_errors(&plan.diagnostics), "{:?}", plan.diagnostics);
    assert!(
        plan.planned_state.get_attr("sum").unwrap().is_unknown(),
        "{:?}",
        plan.planned_state
    );
    assert_eq!(plan.planned_state.get_attr("a").unwrap(), &num(2));

    let applied = p.apply_resource_change(ApplyRequest {
        type_name: "pymath_sum",
        prior_state: &null,
        planned_state: &plan.planned_state,
        config: &config,
        planned_private: &plan.planned_private,
        planned_identity: None,
    });
    assert!(
        !has_errors(&applied.diagnostics),
        "{:?}",
        applied.diagnostics
    );
    assert_eq!(applied.new_state.get_attr("sum").unwrap(), &num(5));

    let read = p.read_resource(ReadRequest {
        type_name: "pymath_sum",
        current_state: &applied.new_state,
        private: &applied.private,
        current_identity: None,
    });
    assert!(!has_errors(&read.diagnostics), "{:?}", read.diagnostics);
    assert_eq!(read.new_state.get_attr("sum").unwrap(), &num(5));

    // Changing `b` asks for replacement.
    let config2 = obj(&[
        ("a", num(2)),
        ("b", num(4)),
        ("sum", Value::null(Type::Number)),
    ]);
    let proposed2 = obj(&[("a", num(2)), ("b", num(4)), ("sum", num(5))]);
    let plan2 = p.plan_resource_change(PlanRequest {
        type_name: "pymath_sum",
        prior_state: &applied.new_state,
        proposed_new_state: &proposed2,
        config: &config2,
        prior_private: &applied.private,
        prior_identity: None,
    });
    assert!(!has_errors(&plan2.diagnostics), "{:?}", plan2.diagnostics);
    assert!(
        plan2
            .requires_replace
            .contains(&vec![PathStep::Attr("b".into())]),
        "{:?}",
        plan2.requires_replace
    );

    let dconfig = obj(&[("value", Value::null(Type::Number))]);
    assert!(!has_errors(
        &p.validate_data_source_config("pymath_const", &dconfig)
    ));
    let data = p.read_data_source(ReadDataRequest {
        type_name: "pymath_const",
        config: &dconfig,
        address: "data.pymath_const.c",
    });
    assert!(!has_errors(&data.diagnostics), "{:?}", data.diagnostics);
    assert_eq!(data.state.get_attr("value").unwrap(), &num(42));

    // Provider functions (GetProviderSchema's functions, GetFunctions, CallFunction).
    let funcs = p.functions().expect("GetFunctions");
    let double = &funcs["double"];
    assert_eq!(double.params.len(), 1);
    assert_eq!(double.params[0].name, "n");
    assert_eq!(double.params[0].ty, Type::Number);
    assert_eq!(double.return_type, Type::Number);
    let schema = p.schema().expect("schema");
    assert_eq!(schema.functions.get("double"), Some(double));
    assert_eq!(p.call_function("double", &[num(21)]), Ok(num(42)));
    assert!(p.call_function("nope", &[]).is_err());

    p.stop();
    p.close();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_provider_that_dies_during_a_call_is_reported_with_its_last_words() {
    let dir = temp_dir("protocol6-crash");
    let exe = python_provider(&dir);
    let addr = ProviderAddr::parse_source("example.com/ferro/pymath").unwrap();
    let p = GrpcProvider::start(
        &addr,
        &exe,
        &PluginOptions {
            echo_logs: false,
            ..PluginOptions::default()
        },
    )
    .expect("start");
    let ty = p.schema().unwrap().resources["pymath_crash"]
        .block
        .implied_type();
    let config = obj(&[
        ("a", num(1)),
        ("b", num(1)),
        ("sum", Value::null(Type::Number)),
    ]);
    let null = Value::null(ty);
    let plan = p.plan_resource_change(PlanRequest {
        type_name: "pymath_crash",
        prior_state: &null,
        proposed_new_state: &config,
        config: &config,
        prior_private: &[],
        prior_identity: None,
    });
    assert!(!has_errors(&plan.diagnostics), "{:?}", plan.diagnostics);
    let applied = p.apply_resource_change(ApplyRequest {
        type_name: "pymath_crash",
        prior_state: &null,
        planned_state: &plan.planned_state,
        config: &config,
        planned_private: &plan.planned_private,
        planned_identity: None,
    });
    assert!(has_errors(&applied.diagnostics));
    let d = &applied.diagnostics[0];
    assert!(d.detail.contains("example.com/ferro/pymath"), "{d:?}");
    assert!(d.detail.contains("exited unexpectedly"), "{d:?}");
    assert!(
        d.detail.contains("the math coprocessor caught fire"),
        "{d:?}"
    );
    // Later calls fail fast with the same explanation instead of hanging.
    let again = p.validate_resource_config("pymath_crash", &config);
    assert!(has_errors(&again), "{again:?}");
    p.close();
    std::fs::remove_dir_all(&dir).unwrap();
}
