//! A resource no expression of its module refers to gets no value in expressions while
//! planning and applying, and the objects apply makes for it are kept in state as JSON text.
//! What users see must not change: every kind of place an expression can name a resource from
//! (outputs, locals, conditions, `check` assertions, JSON files, module call arguments) still
//! reads the resource's value, and the unread resources are in state as they would be
//! otherwise.

mod cli_support;

use cli_support::{ferro, scratch};
use std::path::Path;

fn output(dir: &Path, name: &str) -> serde_json::Value {
    let (code, out, err) = ferro(dir, &["output", "-json", name]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

const MAIN: &str = r#"
# Named by nothing.
resource "terraform_data" "unread" {
  count = 3
  input = "unread-${count.index}"
}

resource "terraform_data" "by_local" {
  input = "local"
}

locals {
  from_local = terraform_data.by_local.output
}

output "local" {
  value = local.from_local
}

resource "terraform_data" "indexed" {
  count = 2
  input = "indexed-${count.index}"
}

locals {
  second = terraform_data.indexed[1].output
}

output "second" {
  value = local.second
}

resource "terraform_data" "by_condition" {
  input = "cond"
}

resource "terraform_data" "guarded" {
  input = "guarded"
  lifecycle {
    postcondition {
      condition     = terraform_data.by_condition.output == "cond"
      error_message = "by_condition was not read."
    }
  }
}

resource "terraform_data" "by_check" {
  input = "checked"
}

check "read_in_check" {
  assert {
    condition     = terraform_data.by_check.output == "checked"
    error_message = "by_check was not read."
  }
}

resource "terraform_data" "by_module" {
  for_each = toset(["x", "y"])
  input    = "m-${each.key}"
}

module "child" {
  source = "./child"
  value  = terraform_data.by_module["y"].output
}

output "child" {
  value = module.child.echo
}
"#;

const JSON: &str = r#"{
  "resource": {
    "terraform_data": {
      "by_json": { "input": "json" }
    }
  },
  "output": {
    "json": { "value": "${terraform_data.by_json.output}-seen" }
  }
}
"#;

const CHILD: &str = r#"
variable "value" {
  type = string
}

# Unread in the child too.
resource "terraform_data" "inner" {
  input = var.value
}

output "echo" {
  value = var.value
}
"#;

#[test]
fn resources_read_from_anywhere_have_their_values_and_unread_ones_are_stored_alike() {
    let dir = scratch("unread-resources");
    std::fs::write(dir.join("main.tf"), MAIN).unwrap();
    std::fs::write(dir.join("extra.tf.json"), JSON).unwrap();
    std::fs::create_dir_all(dir.join("child")).unwrap();
    std::fs::write(dir.join("child/main.tf"), CHILD).unwrap();
    let (code, out, err) = ferro(&dir, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");

    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("13 added"), "{out}");
    assert!(!err.contains("was not read"), "{err}");
    assert!(!out.contains("was not read"), "{out}");

    assert_eq!(output(&dir, "local"), serde_json::json!("local"));
    assert_eq!(output(&dir, "second"), serde_json::json!("indexed-1"));
    assert_eq!(output(&dir, "json"), serde_json::json!("json-seen"));
    assert_eq!(output(&dir, "child"), serde_json::json!("m-y"));

    // The unread objects are in state with every attribute, as any other object.
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap())
            .unwrap();
    let unread = state["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "unread")
        .expect("terraform_data.unread is in state");
    let instances = unread["instances"].as_array().unwrap();
    assert_eq!(instances.len(), 3);
    for (i, inst) in instances.iter().enumerate() {
        let attrs = &inst["attributes"];
        assert_eq!(inst["index_key"], serde_json::json!(i));
        // Dynamically typed: state gives the value with its type.
        let want = serde_json::json!({"value": format!("unread-{i}"), "type": "string"});
        assert_eq!(attrs["input"], want);
        assert_eq!(attrs["output"], want);
        assert!(
            attrs["id"].as_str().is_some_and(|s| !s.is_empty()),
            "{attrs}"
        );
        assert!(attrs["triggers_replace"].is_null(), "{attrs}");
    }
    let (code, out, err) = ferro(
        &dir,
        &[
            "state",
            "show",
            "-no-color",
            "module.child.terraform_data.inner",
        ],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("\"m-y\""), "{out}");

    // Nothing left to do, and the check still reads its resource.
    let (code, out, err) = ferro(&dir, &["plan", "-no-color", "-detailed-exitcode"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("No changes."), "{out}");
    assert!(!out.contains("was not read"), "{out}");

    // A change of an unread resource is planned and applied as any other.
    let changed = MAIN.replace("\"unread-${count.index}\"", "\"again-${count.index}\"");
    std::fs::write(dir.join("main.tf"), changed).unwrap();
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("0 added, 3 changed, 0 destroyed"), "{out}");
    let (code, out, err) = ferro(
        &dir,
        &["state", "show", "-no-color", "terraform_data.unread[2]"],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("\"again-2\""), "{out}");

    // A destroy evaluates the locals against the objects in state (a single resource's
    // attribute and a counted one's instance), as Terraform's destroy plan does: they were
    // null, and reading an attribute of them failed the destroy.
    let (code, out, err) = ferro(&dir, &["destroy", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("13 destroyed"), "{out}");
    assert!(out.contains("- second = \"indexed-1\" -> null"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
