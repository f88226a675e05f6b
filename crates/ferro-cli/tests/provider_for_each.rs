//! `for_each` in provider blocks (OpenTofu 1.9) with the real `hashicorp/null` 2.1.2 plugin
//! (from the oracle cache, `tools/fetch-oracles.sh`): one plugin instance per key, the
//! provider recorded per instance with its key as OpenTofu writes it, a state in OpenTofu's
//! layout read back with nothing to change, and a key removed while its object is in state
//! refused with every file unchanged.

mod cli_support;

use cli_support::oracle_env;
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

variable "keys" {
  type    = set(string)
  default = ["a", "b"]
}

provider "null" {
  alias    = "k"
  for_each = var.keys
}

resource "null_resource" "r" {
  for_each = var.keys
  provider = null.k[each.key]
  triggers = { key = each.key }
}
"#;

fn ferro(dir: &Path, env: &[(String, String)], args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .current_dir(dir)
        .output()
        .expect("run ferro");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(dir: &Path, env: &[(String, String)], args: &[&str]) -> String {
    let (code, out, err) = ferro(dir, env, args);
    assert_eq!(code, 0, "ferro {args:?} failed:\n{out}\n{err}");
    out
}

fn state(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("terraform.tfstate")).expect("read state");
    serde_json::from_str(&text).expect("state is JSON")
}

#[test]
fn provider_for_each_with_the_real_null_plugin() {
    let env = oracle_env();
    let dir = cli_support::scratch("provider-for-each");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    ok(&dir, &env, &["init", "-no-color"]);
    ok(
        &dir,
        &env,
        &["apply", "-auto-approve", "-no-color", "-parallelism=1"],
    );

    // OpenTofu's layout: no provider on the resource, each instance with its instance.
    let s = state(&dir);
    let r = &s["resources"][0];
    assert!(r.get("provider").is_none(), "{r}");
    let instances = r["instances"].as_array().unwrap();
    assert_eq!(instances.len(), 2);
    let mut host = String::new();
    for inst in instances {
        let key = inst["index_key"].as_str().unwrap();
        let provider = inst["provider"].as_str().unwrap();
        let want_tail = format!("/hashicorp/null\"].k[\"{key}\"]");
        assert!(
            provider.starts_with("provider[\"") && provider.ends_with(&want_tail),
            "{provider}"
        );
        host = provider["provider[\"".len()..provider.find("/hashicorp").unwrap()].to_string();
    }
    let (code, out, err) = ferro(&dir, &env, &["plan", "-detailed-exitcode", "-no-color"]);
    assert_eq!(code, 0, "a second plan has nothing to do:\n{out}\n{err}");

    // A state in OpenTofu 1.9's layout is read, planned without changes and written the same
    // way. (Its `terraform_version` says 1.0.3: ferro refuses a state of a newer version, as
    // Terraform 1.0.3 does; see docs/compatibility.md, "State".)
    let ids: Vec<String> = instances
        .iter()
        .map(|i| i["attributes"]["id"].as_str().unwrap().to_string())
        .collect();
    let tofu = format!(
        r#"{{
  "version": 4,
  "terraform_version": "1.0.3",
  "serial": 7,
  "lineage": "{lineage}",
  "outputs": {{}},
  "resources": [
    {{
      "mode": "managed",
      "type": "null_resource",
      "name": "r",
      "instances": [
        {{
          "index_key": "a",
          "provider": "provider[\"{host}/hashicorp/null\"].k[\"a\"]",
          "schema_version": 0,
          "attributes": {{"id": "{a}", "triggers": {{"key": "a"}}}},
          "sensitive_attributes": []
        }},
        {{
          "index_key": "b",
          "provider": "provider[\"{host}/hashicorp/null\"].k[\"b\"]",
          "schema_version": 0,
          "attributes": {{"id": "{b}", "triggers": {{"key": "b"}}}},
          "sensitive_attributes": []
        }}
      ]
    }}
  ],
  "check_results": null
}}
"#,
        lineage = s["lineage"].as_str().unwrap(),
        a = ids[0],
        b = ids[1],
    );
    std::fs::write(dir.join("terraform.tfstate"), &tofu).unwrap();
    let (code, out, err) = ferro(&dir, &env, &["plan", "-detailed-exitcode", "-no-color"]);
    assert_eq!(code, 0, "OpenTofu's state plans no change:\n{out}\n{err}");
    ok(
        &dir,
        &env,
        &["apply", "-auto-approve", "-no-color", "-refresh-only"],
    );
    let again = state(&dir);
    let r = &again["resources"][0];
    assert!(r.get("provider").is_none(), "{r}");
    assert_eq!(
        r["instances"][1]["provider"].as_str().unwrap(),
        format!("provider[\"{host}/hashicorp/null\"].k[\"b\"]")
    );

    // Removing "b" from both for_each collections: its object needs its provider instance.
    let before = std::fs::read(dir.join("terraform.tfstate")).unwrap();
    let (code, out, err) = ferro(
        &dir,
        &env,
        &[
            "apply",
            "-auto-approve",
            "-no-color",
            "-var",
            "keys=[\"a\"]",
        ],
    );
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.contains("Provider instance not present"), "{err}");
    assert!(
        err.contains("/hashicorp/null\"].k[\"b\"] is required"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(dir.join("terraform.tfstate")).unwrap(),
        before,
        "the state is unchanged"
    );

    ok(
        &dir,
        &env,
        &["destroy", "-auto-approve", "-no-color", "-parallelism=1"],
    );
    assert!(state(&dir)["resources"].as_array().unwrap().is_empty());
}
