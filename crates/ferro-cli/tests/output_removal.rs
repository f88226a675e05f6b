//! A destroy removes every root output, even when destroying what an output refers to
//! fails: Terraform 1.0.3 leaves no output in state after such a destroy (checked by hand:
//! a `null_resource` with a failing destroy-time provisioner and an output of its id).
//! The removal of an output waits for no resource.

mod cli_support;

use cli_support::{ferro, scratch};

const MAIN: &str = r#"
resource "terraform_data" "stuck" {
  input = "stuck"
  provisioner "local-exec" {
    when    = destroy
    command = "exit 1"
  }
}

resource "terraform_data" "free" {
  input = "free"
}

output "stuck" {
  value = terraform_data.stuck.output
}

output "free" {
  value = terraform_data.free.output
}

output "constant" {
  value = "c"
}
"#;

#[test]
fn a_failed_destroy_removes_every_output_and_keeps_what_it_could_not_destroy() {
    let dir = scratch("output-removal");
    std::fs::write(dir.join("main.tf"), MAIN).unwrap();
    let (code, out, err) = ferro(&dir, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{out}\n{err}");

    let (code, out, err) = ferro(&dir, &["destroy", "-no-color", "-auto-approve"]);
    assert_eq!(code, 1, "{out}\n{err}");
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap())
            .unwrap();
    assert_eq!(state["outputs"], serde_json::json!({}), "{state}");
    let left: Vec<&str> = state["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(left, ["stuck"]);
    let (code, out, _) = ferro(&dir, &["output", "-no-color"]);
    assert_eq!(code, 0);
    assert!(!out.contains("stuck"), "{out}");
}
