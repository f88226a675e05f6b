//! A plan asks a provider plugin to validate each distinct resource configuration once, not
//! once per instance (the real null provider 2.1.2 from the oracle cache, counted with
//! `FERRO_RPC_STATS`). (That every instance still gets the provider's answer with its own
//! address is the planner's unit test, `walk::validate_once`.)

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

# Twelve instances, one configuration.
resource "null_resource" "same" {
  count    = 12
  triggers = { kind = "same" }
}

# Four instances, four configurations.
resource "null_resource" "distinct" {
  count    = 4
  triggers = { i = count.index }
}
"#;

fn run(dir: &Path, env: &[(String, String)], args: &[&str], stats: &Path) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(args)
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .env("FERRO_RPC_STATS", stats)
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

fn calls(stats: &Path, method: &str) -> u64 {
    std::fs::read_to_string(stats)
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(method)?.trim().parse().ok())
        .unwrap_or(0)
}

#[test]
fn each_distinct_configuration_is_validated_once() {
    let env = oracle_env();
    let dir = scratch("validate-once");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    let stats = dir.join("stats.txt");
    let (code, out) = run(&dir, &env, &["init", "-no-color"], &stats);
    assert_eq!(code, 0, "{out}");

    let (code, out) = run(&dir, &env, &["plan", "-no-color"], &stats);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Plan: 16 to add, 0 to change, 0 to destroy."),
        "{out}"
    );
    // 1 for the twelve that share a configuration, 4 for the others.
    assert_eq!(calls(&stats, "ValidateResourceConfig"), 5);
    assert_eq!(calls(&stats, "PlanResourceChange"), 16);
}
