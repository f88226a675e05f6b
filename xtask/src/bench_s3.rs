//! `cargo xtask bench s3`: a no-op plan (refresh included) of a configuration whose state,
//! kept in the s3 backend on moto (`FERRO_MOTO_ENDPOINT`, else the server
//! `tools/moto-test-server.sh` starts) with a DynamoDB lock table, holds `n` `null_resource`
//! instances (HashiCorp null 2.1.2 from the oracle mirror); ferro and Terraform 1.0.3 in the
//! same run, each on its own copy of the state (same bytes, own key), one plan each after
//! `init`.

use crate::interop::{Env, Tool};
use crate::interop_s3::{command, expect, moto_endpoint, Bucket};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A state of `n` null_resource instances, as Terraform 1.0.3 writes it.
fn state_json(n: usize) -> String {
    let instances: Vec<serde_json::Value> = (0..n)
        .map(|i| {
            serde_json::json!({
                "index_key": i,
                "schema_version": 0,
                "attributes": { "id": format!("{}", 1_000_000_000 + i), "triggers": null },
                "private": "bnVsbA=="
            })
        })
        .collect();
    let doc = serde_json::json!({
        "version": 4,
        "terraform_version": "1.0.3",
        "serial": 1,
        "lineage": ferro_state::new_lineage(),
        "outputs": {},
        "resources": [{
            "mode": "managed",
            "type": "null_resource",
            "name": "r",
            "provider": "provider[\"registry.terraform.io/hashicorp/null\"]",
            "instances": instances
        }]
    });
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

fn plan(env: &Env, tool: Tool, dir: &std::path::Path) -> Result<Duration, String> {
    let start = Instant::now();
    let o = command(
        env,
        tool,
        dir,
        &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
    )
    .stdin(Stdio::null())
    .output()
    .map_err(|e| e.to_string())?;
    let took = start.elapsed();
    if o.status.code() != Some(0) {
        return Err(format!(
            "{tool:?} plan was not a no-op (exit {:?}):\n{}\n{}",
            o.status.code(),
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(took)
}

pub fn run(env: &Env, n: usize, out: &mut dyn std::io::Write) -> Result<(), String> {
    let endpoint = moto_endpoint()?;
    let b = Bucket::new(&endpoint, "bench")?;
    let state = state_json(n);
    let root = env.work.join("bench-s3");
    let _ = std::fs::remove_dir_all(&root);
    let mut rows = Vec::new();
    for (name, tool) in [("ferro", Tool::Ferro), ("terraform 1.0.3", Tool::Terraform)] {
        let key = format!("{}/terraform.tfstate", tool.name());
        let dir = root.join(tool.name());
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let backend = b.backend().replace("shared/terraform.tfstate", &key);
        let config = format!(
            "{}{backend}resource \"null_resource\" \"r\" {{\n  count = {n}\n}}\n",
            crate::interop::NULL_HEADER
        );
        std::fs::write(dir.join("main.tf"), config).map_err(|e| e.to_string())?;
        expect(env, tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        // The state goes in through the backend's own writer (object and digest item).
        let cfg = ferro_state::config::s3_config(
            &[
                ("bucket", b.name.as_str()),
                ("key", key.as_str()),
                ("region", "us-east-1"),
                ("endpoint", endpoint.as_str()),
                ("dynamodb_endpoint", endpoint.as_str()),
                ("dynamodb_table", b.table.as_str()),
                ("access_key", "test"),
                ("secret_key", "test"),
            ]
            .iter()
            .map(|(k, v)| (k.to_string(), ferro_state::config::Lit::Str(v.to_string())))
            .chain([
                (
                    "force_path_style".to_string(),
                    ferro_state::config::Lit::Bool(true),
                ),
                (
                    "skip_credentials_validation".to_string(),
                    ferro_state::config::Lit::Bool(true),
                ),
            ])
            .collect(),
        )?;
        ferro_state::s3::S3Store::connect(&cfg)
            .and_then(|s| s.put("default", state.as_bytes()))
            .map_err(|e| e.0)?;
        rows.push((name, plan(env, tool, &dir)?));
    }
    let _ = std::fs::remove_dir_all(&root);
    let base = rows[0].1.as_secs_f64().max(1e-9);
    writeln!(
        out,
        "no-op plan of {n} null_resource instances (null 2.1.2 plugin), state in s3 (moto) with a DynamoDB lock table, one run each:"
    )
    .map_err(|e| e.to_string())?;
    writeln!(out, "| tool | plan | vs ferro |\n|---|---|---|").map_err(|e| e.to_string())?;
    for (name, d) in &rows {
        writeln!(
            out,
            "| {name} | {:.2}s | {:.2}x |",
            d.as_secs_f64(),
            d.as_secs_f64() / base
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}
