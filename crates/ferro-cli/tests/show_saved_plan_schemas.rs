//! A saved plan keeps the schemas of its providers, so `show PLANFILE` (human and JSON)
//! renders it where the provider is no longer installed (the real null provider 2.1.2 from
//! the oracle cache, removed from `.terraform` after planning).

mod cli_support;

use cli_support::{oracle_env, scratch};
use std::path::Path;
use std::process::Command;

const CONFIG: &str = r#"
terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "2.1.2"
    }
  }
}

resource "null_resource" "a" {
  triggers = { name = "first" }
}
"#;

fn run(dir: &Path, env: &[(String, String)], args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(args)
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .output()
        .expect("run ferro");
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn a_saved_plan_is_shown_without_its_provider() {
    let env = oracle_env();
    let dir = scratch("show-saved-schemas");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    let (code, out) = run(&dir, &env, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = run(&dir, &env, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{out}");
    std::fs::write(dir.join("main.tf"), CONFIG.replace("first", "second")).unwrap();
    let (code, out) = run(&dir, &env, &["plan", "-no-color", "-out=p.plan"]);
    assert_eq!(code, 0, "{out}");

    // The provider is gone.
    std::fs::remove_dir_all(dir.join(".terraform/providers")).unwrap();
    let (code, out) = run(&dir, &env, &["show", "-no-color", "p.plan"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("# null_resource.a must be replaced"),
        "the schema gave the rendering its attributes: {out}"
    );
    assert!(out.contains(r#"~ "name" = "first" -> "second""#), "{out}");
    assert!(out.contains("id       = "), "{out}");

    let (code, out) = run(&dir, &env, &["show", "-json", "p.plan"]);
    assert_eq!(code, 0, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let change = &doc["resource_changes"][0]["change"];
    assert_eq!(change["actions"], serde_json::json!(["delete", "create"]));
    assert_eq!(change["after"]["triggers"]["name"], "second");
    assert_eq!(change["after_unknown"]["id"], true);
    // The provider's schema is in the document too (its `provider_schemas`, when shown).
    assert_eq!(
        doc["configuration"]["provider_config"]["null"]["name"],
        "null"
    );
}
