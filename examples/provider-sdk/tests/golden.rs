//! Golden test: the example provider's plans for a create, a grow, a shrink and an unknown size,
//! as core would request them, written as text and compared with `tests/golden/plans.txt`
//! (`FERRO_BLESS=1` rewrites it).

use ferro_provider::{ApplyRequest, PlanRequest, Provider};
use ferro_sdk::values::{get, with};
use ferro_value::{PathStep, Type, Value};

fn show(v: &Value) -> String {
    if !v.is_known() {
        return "(known after apply)".into();
    }
    ferro_value::json::value_to_plain_json(v).to_string()
}

#[test]
fn plans_match_the_golden_file() {
    let p = ferro_example_provider::provider();
    let empty = p.schema().unwrap().resources["example_disk"]
        .block
        .empty_value();
    let cfg = |size: Value| with(&empty, "size_gb", size);
    let null = Value::null(empty.ty());
    let mut out = String::new();
    let mut plan = |title: &str, prior: &Value, config: &Value| -> Value {
        let mut proposed = config.clone();
        if !prior.is_null() {
            for n in ["id", "cost", "tier"] {
                if get(config, n).is_null() {
                    proposed = with(&proposed, n, get(prior, n));
                }
            }
        }
        let r = p.plan_resource_change(PlanRequest {
            type_name: "example_disk",
            prior_state: prior,
            proposed_new_state: &proposed,
            config,
            prior_private: &[],
            prior_identity: None,
        });
        out.push_str(&format!("== {title}\n"));
        for n in ["id", "size_gb", "tier", "cost"] {
            out.push_str(&format!("  {n} = {}\n", show(&get(&r.planned_state, n))));
        }
        let replace: Vec<String> = r
            .requires_replace
            .iter()
            .map(|p| match &p[0] {
                PathStep::Attr(n) => n.clone(),
                PathStep::Index(_) => "?".into(),
            })
            .collect();
        out.push_str(&format!("  requires_replace = {replace:?}\n"));
        for d in &r.diagnostics {
            out.push_str(&format!("  diagnostic: {}: {}\n", d.summary, d.detail));
        }
        r.planned_state
    };
    let planned = plan("create 10 GB", &null, &cfg(Value::int(10)));
    let state = p
        .apply_resource_change(ApplyRequest {
            type_name: "example_disk",
            prior_state: &null,
            planned_state: &planned,
            config: &cfg(Value::int(10)),
            planned_private: &[],
            planned_identity: None,
        })
        .new_state;
    plan("unchanged", &state, &cfg(Value::int(10)));
    plan("grow to 20 GB", &state, &cfg(Value::int(20)));
    plan("shrink to 5 GB", &state, &cfg(Value::int(5)));
    plan("size unknown", &state, &cfg(Value::unknown(Type::Number)));
    plan(
        "premium tier",
        &state,
        &with(&cfg(Value::int(10)), "tier", Value::string("premium")),
    );

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/plans.txt");
    if std::env::var_os("FERRO_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &out).unwrap();
    }
    let want = std::fs::read_to_string(&path).expect("golden file (FERRO_BLESS=1 to record)");
    assert_eq!(out, want);
}

/// `moved { from = example_volume.v  to = example_disk.v }`: the provider offers the move and
/// converts the volume into a disk with its id and size; any other source is refused.
#[test]
fn a_volume_moves_to_a_disk() {
    let p = ferro_example_provider::provider();
    assert!(p.schema().unwrap().move_resource_state);
    let volume = serde_json::json!({"id": "disk-7", "gb": 7});
    let mv = |provider: &str, from: &str| {
        p.move_resource_state(ferro_provider::MoveRequest {
            source_provider_address: provider,
            source_type_name: from,
            source_schema_version: 0,
            source_state: &volume,
            source_private: &[],
            target_type_name: "example_disk",
            source_identity: None,
            source_identity_schema_version: 0,
        })
    };
    let moved = mv("example.test/ferro/example", "example_volume");
    assert!(moved.diagnostics.is_empty(), "{:?}", moved.diagnostics);
    assert_eq!(get(&moved.target_state, "id"), Value::string("disk-7"));
    assert_eq!(get(&moved.target_state, "size_gb"), Value::int(7));
    assert_eq!(get(&moved.target_state, "cost"), Value::int(7));
    assert_eq!(get(&moved.target_state, "tier"), Value::string("standard"));
    let refused = mv("registry.terraform.io/hashicorp/null", "null_resource");
    assert_eq!(
        refused.diagnostics[0].summary,
        "Unable to Move Resource State"
    );
}
