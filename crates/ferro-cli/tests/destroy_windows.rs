//! A destroy refreshes and plans the objects of state a window of instances at a time, across
//! resources. Every object is destroyed however the windows fall: a resource larger than a
//! window, and one split between two windows.

mod cli_support;

use cli_support::{ferro, scratch};

#[test]
fn a_destroy_larger_than_a_window_destroys_every_object() {
    let dir = scratch("destroy-windows");
    std::fs::write(
        dir.join("main.tf"),
        r#"
resource "terraform_data" "a" {
  count = 4500
  input = "a-${count.index}"
}

resource "terraform_data" "b" {
  count = 3000
  input = "b-${count.index}"
}
"#,
    )
    .unwrap();
    let (code, out, err) = ferro(&dir, &["apply", "-auto-approve", "-input=false"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Resources: 7500 added"), "{out}");

    let (code, out, err) = ferro(&dir, &["plan", "-destroy", "-input=false"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Plan: 0 to add, 0 to change, 7500 to destroy."),
        "{out}"
    );
    // The last instance of each resource is listed: the windows left none out.
    assert!(
        out.contains("terraform_data.a[4499] will be destroyed"),
        "{out}"
    );
    assert!(
        out.contains("terraform_data.b[2999] will be destroyed"),
        "{out}"
    );

    let (code, out, err) = ferro(&dir, &["destroy", "-auto-approve", "-input=false"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Resources: 7500 destroyed."), "{out}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap())
            .unwrap();
    assert_eq!(state["resources"], serde_json::json!([]), "{state}");
}

/// A destroy plan's prior state holds each object it deletes as the delete's prior value (one
/// copy): saved and shown, it is the state's objects exactly, and applying it destroys them.
#[test]
fn a_saved_destroy_plan_keeps_the_objects_of_state_as_they_were() {
    let dir = scratch("destroy-saved-prior");
    std::fs::write(
        dir.join("main.tf"),
        r#"
resource "null_resource" "a" {
  count    = 3
  triggers = { n = count.index, s = "x-${count.index}" }
}
"#,
    )
    .unwrap();
    let (code, out, err) = ferro(&dir, &["apply", "-auto-approve", "-input=false"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, shown_state, err) = ferro(&dir, &["show", "-json"]);
    assert_eq!(code, 0, "{shown_state}{err}");
    let (code, out, err) = ferro(&dir, &["plan", "-destroy", "-out=tfplan", "-input=false"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, shown_plan, err) = ferro(&dir, &["show", "-json", "tfplan"]);
    assert_eq!(code, 0, "{shown_plan}{err}");
    let state: serde_json::Value = serde_json::from_str(&shown_state).unwrap();
    let plan: serde_json::Value = serde_json::from_str(&shown_plan).unwrap();
    let objects = |v: &serde_json::Value| v["values"]["root_module"]["resources"].clone();
    assert_eq!(
        objects(&plan["prior_state"]),
        objects(&state),
        "{shown_plan}"
    );
    assert_eq!(
        objects(&state)[2]["values"]["triggers"],
        serde_json::json!({"n": "2", "s": "x-2"})
    );
    let (code, out, err) = ferro(&dir, &["apply", "tfplan"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Resources: 0 added, 0 changed, 3 destroyed."),
        "{out}"
    );
}
