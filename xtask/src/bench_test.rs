//! `cargo xtask bench test`: `ferro test` over a generated suite of 50 run blocks (plan and
//! apply alternating, each with new variable values) against a module of 200 resources
//! (`terraform_data`, `random_id`, and a provider that is not installed, mocked), run twice in
//! a row; wall time of each pass and per run block (from the JSON stream's timestamps).

use std::path::Path;
use std::time::Instant;

pub const RUNS: usize = 50;
pub const DATA: usize = 100;
pub const RANDOM: usize = 60;
pub const MOCKED: usize = 40;

/// Write the module and its suite into `dir`.
pub fn write_suite(dir: &Path) -> Result<(), String> {
    let module = format!(
        r#"terraform {{
  required_providers {{
    cloud = {{ source = "example.com/acme/cloud" }}
  }}
}}

variable "tag" {{
  type = string
}}

resource "terraform_data" "item" {{
  count = {DATA}
  input = "${{var.tag}}-${{count.index}}"
}}

resource "random_id" "key" {{
  count       = {RANDOM}
  byte_length = 4
  keepers = {{
    tag = var.tag
  }}
}}

resource "cloud_server" "web" {{
  count = {MOCKED}
  name  = "${{var.tag}}-web-${{count.index}}"
}}

output "items" {{
  value = length(terraform_data.item)
}}

output "first" {{
  value = terraform_data.item[0].input
}}
"#
    );
    let mut suite = String::from(
        "mock_provider \"cloud\" {\n  mock_resource \"cloud_server\" {\n    defaults = {\n      address = \"10.0.0.1\"\n    }\n  }\n}\n",
    );
    for i in 0..RUNS {
        let command = if i % 2 == 0 { "plan" } else { "apply" };
        suite.push_str(&format!(
            r#"
run "r{i}" {{
  command = {command}

  variables {{
    tag = "t{i}"
  }}

  assert {{
    condition     = length(terraform_data.item) == {DATA} && terraform_data.item[0].input == "t{i}-0"
    error_message = "Wrong items."
  }}
}}
"#
        ));
    }
    std::fs::create_dir_all(dir.join("tests")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("main.tf"), module).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("tests/bench.tftest.hcl"), suite).map_err(|e| e.to_string())
}

/// Seconds since midnight of a JSON message's `@timestamp` (`…THH:MM:SS.ffffffZ`).
fn seconds(ts: &str) -> Option<f64> {
    let t = ts.split('T').nth(1)?.trim_end_matches('Z');
    let mut parts = t.split(':');
    let h: f64 = parts.next()?.parse().ok()?;
    let m: f64 = parts.next()?.parse().ok()?;
    let s: f64 = parts.next()?.parse().ok()?;
    Some(h * 3600.0 + m * 60.0 + s)
}

/// One pass: total wall seconds and each run block's seconds.
fn pass(ferro: &Path, dir: &Path) -> Result<(f64, Vec<f64>), String> {
    let t0 = Instant::now();
    let out = std::process::Command::new(ferro)
        .args(["test", "-json"])
        .current_dir(dir)
        .output()
        .map_err(|e| format!("cannot run ferro: {e}"))?;
    let wall = t0.elapsed().as_secs_f64();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "ferro test failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut started = None;
    let mut per_run = Vec::new();
    for line in stdout.lines() {
        let v: serde_json::Value = serde_json::from_str(line).map_err(|e| e.to_string())?;
        if v["type"] != "test_run" {
            continue;
        }
        let at = v["@timestamp"].as_str().and_then(seconds);
        match v["test_run"]["progress"].as_str() {
            Some("starting") => started = at,
            Some("complete") => {
                if let (Some(a), Some(b)) = (started, at) {
                    per_run.push(b - a);
                }
            }
            _ => {}
        }
    }
    Ok((wall, per_run))
}

pub fn run(ferro: &Path, work: &Path, out: &mut dyn std::io::Write) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(work);
    write_suite(work)?;
    let _ = writeln!(
        out,
        "ferro test: {RUNS} run blocks (plan/apply alternating) over {} resources ({DATA} terraform_data, {RANDOM} random_id, {MOCKED} mocked)",
        DATA + RANDOM + MOCKED
    );
    let _ = writeln!(
        out,
        "{:<8} {:>10} {:>14} {:>12} {:>12}",
        "pass", "wall s", "per run ms", "plan ms", "apply ms"
    );
    for n in 1..=2 {
        let (wall, per_run) = pass(ferro, work)?;
        let mean = |xs: Vec<f64>| {
            if xs.is_empty() {
                0.0
            } else {
                xs.iter().sum::<f64>() / xs.len() as f64 * 1000.0
            }
        };
        let plans: Vec<f64> = per_run.iter().step_by(2).copied().collect();
        let applies: Vec<f64> = per_run.iter().skip(1).step_by(2).copied().collect();
        let _ = writeln!(
            out,
            "{:<8} {:>10.2} {:>14.1} {:>12.1} {:>12.1}",
            n,
            wall,
            wall / RUNS as f64 * 1000.0,
            mean(plans),
            mean(applies)
        );
    }
    let _ = std::fs::remove_dir_all(work);
    Ok(())
}
