//! A state written against one public registry, read in a working directory whose default is
//! the other (as OpenTofu reads Terraform's states): the objects belong to the default
//! registry's provider of the same name, nothing is planned, and applying writes the new
//! addresses, in both directions.

mod cli_support;
mod registry_support;

use cli_support::scratch;
use registry_support::ferro_env;

const CONFIG: &str = r#"resource "null_resource" "a" {
  triggers = { v = "1" }
}
"#;

fn providers_in_state(dir: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["provider"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn states_move_between_the_public_registries_without_changes() {
    let dir = scratch("default-registry-adopt");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    let tf: Vec<(String, String)> = vec![("FERRO_DEFAULT_REGISTRY".into(), String::new())];
    let tofu: Vec<(String, String)> = vec![(
        "FERRO_DEFAULT_REGISTRY".into(),
        "registry.opentofu.org".into(),
    )];
    let (code, out, err) = ferro_env(&dir, &["apply", "-auto-approve"], &tf);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        providers_in_state(&dir),
        ["provider[\"registry.terraform.io/hashicorp/null\"]"]
    );

    // OpenTofu's default: the object is the same provider's, so nothing is to change.
    let (code, out, err) = ferro_env(&dir, &["plan", "-detailed-exitcode"], &tofu);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("No changes."), "{out}");
    let (code, out, err) = ferro_env(&dir, &["apply", "-auto-approve"], &tofu);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("0 added, 0 changed, 0 destroyed"), "{out}");
    assert_eq!(
        providers_in_state(&dir),
        ["provider[\"registry.opentofu.org/hashicorp/null\"]"]
    );

    // And back.
    let (code, out, err) = ferro_env(&dir, &["plan", "-detailed-exitcode"], &tf);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = ferro_env(&dir, &["apply", "-auto-approve"], &tf);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        providers_in_state(&dir),
        ["provider[\"registry.terraform.io/hashicorp/null\"]"]
    );

    // A configuration that names the other registry in full keeps the recorded address: the
    // object is that provider's, and its provider is not the default one.
    std::fs::write(
        dir.join("versions.tf"),
        "terraform {\n  required_providers {\n    null = { source = \"registry.terraform.io/hashicorp/null\" }\n  }\n}\n",
    )
    .unwrap();
    let (code, out, err) = ferro_env(&dir, &["apply", "-auto-approve"], &tofu);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        providers_in_state(&dir),
        ["provider[\"registry.terraform.io/hashicorp/null\"]"]
    );
}
