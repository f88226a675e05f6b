//! `local_file` in process: the file is written with its digests, refresh keeps it while the
//! content matches and forgets it when the file changes or disappears, destroy removes it.

use ferro_provider::{ApplyRequest, PlanRequest, Provider, ReadRequest};
use ferro_sdk::values::with;
use ferro_value::Value;

fn read(p: &dyn Provider, state: &Value) -> Value {
    let r = p.read_resource(ReadRequest {
        type_name: "local_file",
        current_state: state,
        private: &[],
        current_identity: None,
    });
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    r.new_state
}

#[test]
fn local_file_lifecycle_and_drift() {
    let dir = std::env::temp_dir().join(format!("ferro-local-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = dir.join("sub/hello.txt");
    let p = ferro_providers::local::provider();
    let empty = p.schema().unwrap().resources["local_file"]
        .block
        .empty_value();
    let config = with(
        &with(
            &empty,
            "filename",
            Value::string(file.to_string_lossy().into_owned()),
        ),
        "content",
        Value::string("hello"),
    );
    assert!(p.validate_resource_config("local_file", &config).is_empty());
    let none = with(&empty, "filename", Value::string("x"));
    let diags = p.validate_resource_config("local_file", &none);
    assert_eq!(diags.len(), 1, "a file needs content: {diags:?}");

    let null = Value::null(config.ty());
    let planned = p.plan_resource_change(PlanRequest {
        type_name: "local_file",
        prior_state: &null,
        proposed_new_state: &config,
        config: &config,
        prior_private: &[],
        prior_identity: None,
    });
    assert!(planned.diagnostics.is_empty(), "{:?}", planned.diagnostics);
    assert_eq!(
        planned.planned_state.get_attr("file_permission"),
        Some(&Value::string("0777"))
    );
    let state = p
        .apply_resource_change(ApplyRequest {
            type_name: "local_file",
            prior_state: &null,
            planned_state: &planned.planned_state,
            config: &config,
            planned_private: &[],
            planned_identity: None,
        })
        .new_state;
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello");
    assert_eq!(
        state.get_attr("id"),
        Some(&Value::string("aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d")),
        "the id is the SHA-1 of the content"
    );

    assert_eq!(read(&p, &state), state, "unchanged file: same state");
    std::fs::write(&file, "changed").unwrap();
    assert!(read(&p, &state).is_null(), "changed content is drift");
    std::fs::remove_file(&file).unwrap();
    assert!(read(&p, &state).is_null(), "a deleted file is drift");

    std::fs::write(&file, "hello").unwrap();
    let gone = p.apply_resource_change(ApplyRequest {
        type_name: "local_file",
        prior_state: &state,
        planned_state: &null,
        config: &null,
        planned_private: &[],
        planned_identity: None,
    });
    assert!(gone.diagnostics.is_empty() && gone.new_state.is_null());
    assert!(!file.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
