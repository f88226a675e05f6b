//! `cargo xtask bench pg`: apply of 2 000 `null_resource` instances (HashiCorp null 2.1.2 from
//! the oracle mirror) by ferro on the local backend, by ferro on the pg backend, and by
//! Terraform 1.0.3 on the pg backend; one run each, each pg run in a fresh database of the
//! server `FERRO_PG_CONN_STR` names (else the one `tools/pg-test-server.sh` starts).

use crate::interop::{Env, Tool};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn server(repo: &Path) -> Result<String, String> {
    if let Ok(c) = std::env::var("FERRO_PG_CONN_STR") {
        if !c.is_empty() {
            return Ok(c);
        }
    }
    let o = Command::new("bash")
        .arg(repo.join("tools/pg-test-server.sh"))
        .output()
        .map_err(|e| e.to_string())?;
    if !o.status.success() {
        return Err(format!(
            "tools/pg-test-server.sh failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// A fresh database `name` on the server; its connection string.
fn database(admin: &str, name: &str) -> Result<String, String> {
    for sql in [
        format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        format!("CREATE DATABASE {name}"),
    ] {
        let o = Command::new("psql")
            .args([admin, "-q", "-c", &sql])
            .output()
            .map_err(|e| format!("psql: {e}"))?;
        if !o.status.success() {
            return Err(format!("psql: {}", String::from_utf8_lossy(&o.stderr)));
        }
    }
    let (base, query) = admin.split_once('?').unwrap_or((admin, ""));
    let cut = base.rfind('/').ok_or("a postgres:// URL is needed")?;
    Ok(format!("{}/{name}?{query}", &base[..cut]))
}

fn apply(env: &Env, tool: Tool, dir: &Path) -> Result<Duration, String> {
    let bin = match tool {
        Tool::Terraform => &env.oracles.terraform,
        Tool::Ferro => &env.ferro,
    };
    let run = |args: &[&str]| -> Result<(), String> {
        let o = Command::new(bin)
            .args(args)
            .current_dir(dir)
            .env("TF_CLI_CONFIG_FILE", &env.cli_config)
            .env("TF_IN_AUTOMATION", "1")
            .env("CHECKPOINT_DISABLE", "1")
            .output()
            .map_err(|e| e.to_string())?;
        if !o.status.success() {
            return Err(format!(
                "{tool:?} {}: {}{}",
                args.join(" "),
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ));
        }
        Ok(())
    };
    run(&["init", "-no-color", "-input=false"])?;
    let start = Instant::now();
    run(&["apply", "-no-color", "-input=false", "-auto-approve"])?;
    Ok(start.elapsed())
}

pub fn run(env: &Env, repo: &Path, n: usize, out: &mut dyn std::io::Write) -> Result<(), String> {
    let admin = server(repo)?;
    let root = env.work.join("bench-pg");
    let _ = std::fs::remove_dir_all(&root);
    let resources = format!("resource \"null_resource\" \"r\" {{\n  count = {n}\n}}\n");
    let mut rows = Vec::new();
    // Per-process database names, so two runs never drop each other's databases.
    let pid = std::process::id();
    let (ferro_db, tf_db) = (
        format!("ferro_bench_ferro_{pid}"),
        format!("ferro_bench_tf_{pid}"),
    );
    for (name, tool, db) in [
        ("ferro, local backend", Tool::Ferro, None),
        ("ferro, pg backend", Tool::Ferro, Some(ferro_db.as_str())),
        (
            "terraform 1.0.3, pg backend",
            Tool::Terraform,
            Some(tf_db.as_str()),
        ),
    ] {
        let dir = root.join(name.replace([' ', ',', '.'], "-"));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let backend = match db {
            None => String::new(),
            Some(db) => format!(
                "terraform {{\n  backend \"pg\" {{\n    conn_str = \"{}\"\n  }}\n}}\n",
                database(&admin, db)?
            ),
        };
        std::fs::write(dir.join("main.tf"), format!("{backend}{resources}"))
            .map_err(|e| e.to_string())?;
        rows.push((name, apply(env, tool, &dir)?));
    }
    for db in [&ferro_db, &tf_db] {
        let _ = Command::new("psql")
            .args([
                &admin,
                "-q",
                "-c",
                &format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"),
            ])
            .output();
    }
    let base = rows[0].1.as_secs_f64().max(1e-9);
    writeln!(
        out,
        "{n} null_resource (null 2.1.2 plugin), one apply each:"
    )
    .map_err(|e| e.to_string())?;
    writeln!(out, "| run | apply | vs ferro local |\n|---|---|---|").map_err(|e| e.to_string())?;
    for (name, d) in &rows {
        writeln!(
            out,
            "| {name} | {:.2}s | {:.2}x |",
            d.as_secs_f64(),
            d.as_secs_f64() / base
        )
        .map_err(|e| e.to_string())?;
    }
    let _ = std::fs::remove_dir_all(&root);
    Ok(())
}
