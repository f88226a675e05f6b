//! An ephemeral `random_password` (Terraform 1.10 ephemeral resource) configuring a provider
//! and set in a write-only attribute (Terraform 1.11), beside an ephemeral variable: the
//! password's result and the variable's value reach none of
//! the state, a saved plan, `show -json` of either, or what the commands print. The password
//! is made predictable (one special character allowed, nothing else) so that it can be looked
//! for.

mod cli_support;

use cli_support::scratch;
use std::path::Path;
use std::process::Command;

/// What the ephemeral random_password below yields: 40 times its only character.
fn password() -> String {
    "Z".repeat(40)
}

const TOKEN: &str = "s3cr3t-Ephemeral-t0ken";

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

ephemeral "random_password" "db" {
  length           = 40
  upper            = false
  lower            = false
  numeric          = false
  override_special = "Z"
}

provider "ferrotest" {
  password = ephemeral.random_password.db.result
  prefix   = length(var.token) > 10 ? "long-" : "short-"
}

resource "ferrotest_thing" "a" {
  value = "kept"
}

# A write-only attribute takes the ephemeral result; only its length is kept.
resource "ferrotest_secret" "s" {
  value             = "s"
  secret_wo         = ephemeral.random_password.db.result
  secret_wo_version = 1
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
    assert!(
        !text.contains(&password()),
        "{what} holds the password:\n{text}"
    );
    assert!(!text.contains(TOKEN), "{what} holds the token:\n{text}");
}

#[test]
fn an_ephemeral_resource_configures_a_provider_and_persists_nowhere() {
    let dir = scratch("ephemeral-resources");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    let var = format!("-var=token={TOKEN}");

    let (code, out) = ferro(&dir, &["apply", "-auto-approve", "-no-color", &var]);
    assert_eq!(code, 0, "{out}");
    assert_no_secret("apply's output", &out);
    // Opened for the plan, opened again for apply, closed after each.
    assert_eq!(
        out.matches("ephemeral.random_password.db: Opening complete after")
            .count(),
        2,
        "{out}"
    );
    assert_eq!(
        out.matches("ephemeral.random_password.db: Closing complete after")
            .count(),
        2,
        "{out}"
    );
    let state = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    assert_no_secret("the state", &state);
    assert!(!state.contains("random_password"), "{state}");
    // The provider was configured with the password (the provider tells its length) and the
    // ephemeral variable.
    assert!(
        state.contains("[password: 40 characters] long-computed-kept"),
        "{state}"
    );
    // The write-only attribute reached the provider at create (it keeps the length) and is
    // null in state.
    assert!(state.contains("\"secret_length\": 40"), "{state}");
    assert!(state.contains("\"secret_wo\": null"), "{state}");

    std::fs::write(
        dir.join("main.tf"),
        CONFIG.replace("\"kept\"", "\"changed\""),
    )
    .unwrap();
    let (code, out) = ferro(&dir, &["plan", "-no-color", &var, "-out=p.plan"]);
    assert_eq!(code, 0, "{out}");
    assert_no_secret("plan's output", &out);
    let plan = std::fs::read(dir.join("p.plan")).unwrap();
    assert_no_secret("the saved plan", &String::from_utf8_lossy(&plan));
    assert!(
        !String::from_utf8_lossy(&plan).contains("\"ephemeral\""),
        "the saved plan records the ephemeral resource"
    );
    let (code, shown) = ferro(&dir, &["show", "-json", "p.plan"]);
    assert_eq!(code, 0, "{shown}");
    assert_no_secret("show -json of the plan", &shown);
    assert!(!shown.contains("\"mode\":\"ephemeral\""), "{shown}");

    // Applying the saved plan opens the password again, for the provider's configuration.
    let (code, out) = ferro(&dir, &["apply", "-no-color", &var, "p.plan"]);
    assert_eq!(code, 0, "{out}");
    assert_no_secret("apply's output", &out);
    assert!(
        out.contains("ephemeral.random_password.db: Opening complete after"),
        "{out}"
    );
    let state = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    assert_no_secret("the state", &state);
    assert!(
        state.contains("[password: 40 characters] long-computed-changed"),
        "{state}"
    );
    let (code, shown) = ferro(&dir, &["show", "-json"]);
    assert_eq!(code, 0, "{shown}");
    assert_no_secret("show -json of the state", &shown);
    // `providers schema -json` lists the ephemeral resource types (Terraform 1.10's key).
    let (code, schemas) = ferro(&dir, &["providers", "schema", "-json"]);
    assert_eq!(code, 0, "{schemas}");
    let v: serde_json::Value = serde_json::from_str(&schemas).unwrap();
    let random = &v["provider_schemas"]["registry.terraform.io/hashicorp/random"];
    let attrs = &random["ephemeral_resource_schemas"]["random_password"]["block"]["attributes"];
    assert_eq!(attrs["result"]["sensitive"], true, "{random}");
    assert_eq!(attrs["length"]["required"], true, "{random}");
    for backup in ["terraform.tfstate.backup"] {
        if let Ok(text) = std::fs::read_to_string(dir.join(backup)) {
            assert_no_secret(backup, &text);
        }
    }
}

/// `examples/ephemeral`: the password reaches the command the provisioner runs (it records the
/// length, 24) and nothing about it reaches the state.
#[test]
fn the_example_uses_a_password_that_state_never_sees() {
    let dir = scratch("ephemeral-example");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ephemeral/main.tf");
    std::fs::copy(&src, dir.join("main.tf")).unwrap();
    let (code, out) = ferro(&dir, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("ephemeral.random_password.db: Closing complete"),
        "{out}"
    );
    let length = std::fs::read_to_string(dir.join("password-length.txt")).unwrap();
    assert_eq!(length.trim(), "24");
    let state = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    assert!(state.contains("terraform_data"), "{state}");
    assert!(!state.contains("random_password"), "{state}");
}
