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
