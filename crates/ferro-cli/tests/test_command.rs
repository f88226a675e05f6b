//! `ferro test` end to end, in process: the example module's suite (built-in providers and a
//! mock of a provider that is not installed), and the `-json` stream Terraform's tools read.

mod cli_support;

use cli_support::scratch;
use serde_json::Value;
use std::path::Path;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

fn example(name: &str) -> cli_support::Scratch {
    let dir = scratch(name);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/test-suite");
    copy_dir(&src, &dir);
    dir
}

#[test]
fn the_example_suite_passes_and_leaves_nothing_behind() {
    let dir = example("test-example");
    let (code, out, err) = cli_support::ferro(&dir, &["test", "-no-color"]);
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("  run \"rejects_bad_names\"... pass"), "{out}");
    assert!(out.ends_with("\nSuccess! 4 passed, 0 failed.\n"), "{out}");
    // Nothing was written to the working directory's state.
    assert!(!dir.join("terraform.tfstate").exists());
}

#[test]
fn json_stream_has_terraforms_test_messages() {
    let dir = example("test-json");
    let (code, out, err) = cli_support::ferro(&dir, &["test", "-json"]);
    assert_eq!(code, 0, "{err}");
    let msgs: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
        .collect();
    let types: Vec<&str> = msgs.iter().map(|m| m["type"].as_str().unwrap()).collect();
    assert_eq!(types[0], "version");
    assert_eq!(types[1], "test_abstract");
    assert_eq!(
        msgs[1]["test_abstract"]["tests/service.tftest.hcl"],
        serde_json::json!([
            "plan_has_two_replicas",
            "apply_names_hosts",
            "scale_up",
            "rejects_bad_names"
        ])
    );
    assert_eq!(msgs[1]["@message"], "Found 1 file and 4 run blocks");
    assert_eq!(*types.last().unwrap(), "test_summary");
    let summary = &msgs.last().unwrap()["test_summary"];
    assert_eq!(summary["status"], "pass");
    assert_eq!(summary["passed"], 4);
    assert_eq!(
        msgs.last().unwrap()["@message"],
        "Success! 4 passed, 0 failed."
    );
    let runs: Vec<&Value> = msgs
        .iter()
        .filter(|m| m["type"] == "test_run" && m["test_run"]["progress"] == "complete")
        .collect();
    assert_eq!(runs.len(), 4);
    assert!(
        runs.iter()
            .all(|m| m["test_run"]["status"] == "pass"
                && m["@testfile"] == "tests/service.tftest.hcl")
    );
    let files: Vec<&str> = msgs
        .iter()
        .filter(|m| m["type"] == "test_file")
        .map(|m| m["test_file"]["progress"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["starting", "teardown", "complete"]);
}

#[test]
fn a_failing_assertion_shows_in_the_json_stream_as_a_diagnostic_of_its_run() {
    let dir = scratch("test-json-fail");
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"a\" {\n  input = 1\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("main.tftest.hcl"),
        "run \"check\" {\n  assert {\n    condition     = terraform_data.a.input == 2\n    error_message = \"not two\"\n  }\n}\n",
    )
    .unwrap();
    let (code, out, _) = cli_support::ferro(&dir, &["test", "-json"]);
    assert_eq!(code, 1);
    let msgs: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let diag = msgs
        .iter()
        .find(|m| m["type"] == "diagnostic")
        .expect("a diagnostic");
    assert_eq!(diag["@testrun"], "check");
    assert_eq!(diag["diagnostic"]["summary"], "Test assertion failed");
    assert_eq!(diag["diagnostic"]["detail"], "not two");
    let summary = &msgs.last().unwrap()["test_summary"];
    assert_eq!(summary["status"], "fail");
    assert_eq!(summary["failed"], 1);
}

#[test]
fn verbose_json_prints_each_runs_plan_or_state() {
    let dir = scratch("test-json-verbose");
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"a\" {\n  input = \"v\"\n}\n\noutput \"out\" {\n  value = terraform_data.a.input\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("main.tftest.hcl"),
        "run \"planned\" {\n  command = plan\n}\n\nrun \"applied\" {\n}\n",
    )
    .unwrap();
    let (code, out, err) = cli_support::ferro(&dir, &["test", "-json", "-verbose"]);
    assert_eq!(code, 0, "{err}");
    let msgs: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
        .collect();
    // Each run's message follows its completed test_run message.
    let at = |ty: &str| {
        msgs.iter()
            .position(|m| m["type"] == ty)
            .unwrap_or_else(|| panic!("no {ty} message in {out}"))
    };
    let plan = &msgs[at("test_plan")];
    assert_eq!(plan["@message"], "-verbose flag enabled, printing plan");
    assert_eq!(plan["@testrun"], "planned");
    assert_eq!(plan["@testfile"], "main.tftest.hcl");
    assert_eq!(msgs[at("test_plan") - 1]["@testrun"], "planned");
    let doc = &plan["test_plan"];
    assert!(doc["plan_format_version"].is_string(), "{doc}");
    assert_eq!(doc["provider_format_version"], "1.0");
    assert_eq!(doc["resource_changes"][0]["address"], "terraform_data.a");
    assert_eq!(
        doc["resource_changes"][0]["change"]["actions"],
        serde_json::json!(["create"])
    );
    assert_eq!(doc["output_changes"]["out"]["after"], "v");
    assert!(
        doc["provider_schemas"]["terraform.io/builtin/terraform"].is_object(),
        "{doc}"
    );
    let state = &msgs[at("test_state")];
    assert_eq!(state["@message"], "-verbose flag enabled, printing state");
    assert_eq!(state["@testrun"], "applied");
    let doc = &state["test_state"];
    assert!(doc["state_format_version"].is_string(), "{doc}");
    assert_eq!(
        doc["root_module"]["resources"][0]["address"],
        "terraform_data.a"
    );
    assert_eq!(doc["outputs"]["out"]["value"], "v");
    // Without -verbose there are none.
    let (_, out, _) = cli_support::ferro(&dir, &["test", "-json"]);
    assert!(!out.contains("\"test_plan\"") && !out.contains("\"test_state\""));
}
