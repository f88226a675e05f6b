//! An ephemeral variable's value (Terraform 1.10) used where ephemeral values may go (a
//! local, a provider configuration, a module's ephemeral variable and output, a write-only
//! attribute) reaches none of the files and documents that persist: the state, a saved plan,
//! `show -json` of either.

mod cli_support;

use cli_support::scratch;
use std::path::Path;
use std::process::Command;

const SECRET: &str = "s3cr3t-Ephemeral-t0ken";

const CONFIG: &str = r#"
terraform {
  required_providers {
    ferrotest = { source = "terraform.io/builtin/ferrotest" }
  }
}

variable "token" {
  type      = string
  ephemeral = true
}

locals {
  header = "Bearer ${var.token}"
}

provider "ferrotest" {
  prefix = length(local.header) > 10 ? "long-" : "short-"
}

resource "ferrotest_thing" "a" {
  value = "kept"
}

# Write-only: the provider gets the value (it keeps only its length), nothing stores it.
resource "ferrotest_secret" "s" {
  secret_wo         = var.token
  secret_wo_version = 1
}

module "child" {
  source = "./child"
  secret = local.header
}

output "masked" {
  value = ephemeralasnull(module.child.passed)
}
"#;

const CHILD: &str = r#"
variable "secret" {
  type      = string
  ephemeral = true
}

output "passed" {
  value     = var.secret
  ephemeral = true
}
"#;

fn ferro(dir: &Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(args)
        .current_dir(dir)
        .env("FERRO_TEST_PROVIDER", "1")
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

fn assert_no_secret(what: &str, text: &str) {
    assert!(!text.contains(SECRET), "{what} holds the secret:\n{text}");
}

#[test]
fn an_ephemeral_value_reaches_no_state_and_no_plan() {
    let dir = scratch("ephemeral-values");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    std::fs::create_dir_all(dir.join("child")).unwrap();
    std::fs::write(dir.join("child/main.tf"), CHILD).unwrap();
    let var = format!("-var=token={SECRET}");

    let (code, out) = ferro(&dir, &["apply", "-auto-approve", "-no-color", &var]);
    assert_eq!(code, 0, "{out}");
    assert_no_secret("apply's output", &out);
    let state = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    assert_no_secret("the state", &state);
    // The provider was configured with the ephemeral value.
    assert!(state.contains("long-computed-kept"), "{state}");
    // The write-only attribute reached the provider, and state holds null for it.
    assert!(
        state.contains(&format!("\"secret_length\": {}", SECRET.len())),
        "{state}"
    );
    assert!(state.contains("\"secret_wo\": null"), "{state}");

    std::fs::write(
        dir.join("main.tf"),
        CONFIG.replace("\"kept\"", "\"changed\""),
    )
    .unwrap();
    let (code, out) = ferro(&dir, &["plan", "-no-color", &var, "-out=p.plan"]);
    assert_eq!(code, 0, "{out}");
    let plan = std::fs::read(dir.join("p.plan")).unwrap();
    let plan = String::from_utf8_lossy(&plan);
    // The plan file keeps values as they are, so a secret in it would be found.
    assert!(plan.contains("changed"), "the saved plan is not searchable");
    assert_no_secret("the saved plan", &plan);
    let (code, shown) = ferro(&dir, &["show", "-json", "p.plan"]);
    assert_eq!(code, 0, "{shown}");
    assert_no_secret("show -json of the plan", &shown);

    // Applying the plan takes the ephemeral variable again.
    let (code, out) = ferro(&dir, &["apply", "-no-color", "p.plan"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("No value for required variable"), "{out}");
    let (code, out) = ferro(&dir, &["apply", "-no-color", &var, "p.plan"]);
    assert_eq!(code, 0, "{out}");
    let state = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    assert_no_secret("the state", &state);
    assert!(state.contains("long-computed-changed"), "{state}");
    let (code, shown) = ferro(&dir, &["show", "-json"]);
    assert_eq!(code, 0, "{shown}");
    assert_no_secret("show -json of the state", &shown);
}
