//! `cargo xtask bench random`: 2 000 `random_id` instances applied by ferro with its in-process
//! `random`, by ferro through the `terraform-provider-random` plugin binary (dev_overrides), and
//! by Terraform 1.0.3 through the same ferro-built plugin. One run each; prints the ratios.

use crate::interop::{Env, Tool};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The configuration: `n` counted `random_id`s.
pub fn config(n: usize) -> String {
    format!("resource \"random_id\" \"r\" {{\n  count       = {n}\n  byte_length = 8\n}}\n")
}

fn apply(env: &Env, tool: Tool, dir: &Path, cli: &Path) -> Result<Duration, String> {
    let bin = match tool {
        Tool::Terraform => &env.oracles.terraform,
        Tool::Ferro => &env.ferro,
    };
    let run = |args: &[&str]| -> Result<(), String> {
        let o = Command::new(bin)
            .args(args)
            .current_dir(dir)
            .env("TF_CLI_CONFIG_FILE", cli)
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
    if tool == Tool::Ferro {
        run(&["init", "-no-color", "-input=false"])?;
    }
    let start = Instant::now();
    run(&["apply", "-no-color", "-input=false", "-auto-approve"])?;
    Ok(start.elapsed())
}

pub fn run(env: &Env, n: usize, out: &mut dyn std::io::Write) -> Result<(), String> {
    let bins = env.ferro.parent().ok_or("no target directory")?;
    let root = env.work.join("bench-random");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    let empty = root.join("empty");
    std::fs::create_dir_all(&empty).map_err(|e| e.to_string())?;
    let builtin_cli = root.join("builtin.tfrc");
    std::fs::write(
        &builtin_cli,
        format!(
            "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
            empty.display()
        ),
    )
    .map_err(|e| e.to_string())?;
    let plugin_cli = root.join("plugin.tfrc");
    std::fs::write(
        &plugin_cli,
        format!(
            "provider_installation {{\n  dev_overrides {{\n    \"hashicorp/random\" = \"{}\"\n  }}\n  direct {{}}\n}}\n",
            bins.display()
        ),
    )
    .map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for (name, tool, cli) in [
        ("ferro, in process", Tool::Ferro, &builtin_cli),
        ("ferro, plugin binary", Tool::Ferro, &plugin_cli),
        (
            "terraform 1.0.3, ferro plugin",
            Tool::Terraform,
            &plugin_cli,
        ),
    ] {
        let dir = root.join(name.replace([' ', ',', '.'], "-"));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        std::fs::write(dir.join("main.tf"), config(n)).map_err(|e| e.to_string())?;
        rows.push((name, apply(env, tool, &dir, cli)?));
    }
    let base = rows[0].1.as_secs_f64().max(1e-9);
    writeln!(out, "{n} random_id, one apply each:").map_err(|e| e.to_string())?;
    writeln!(out, "| run | apply | vs in-process |\n|---|---|---|").map_err(|e| e.to_string())?;
    for (name, d) in &rows {
        writeln!(
            out,
            "| {name} | {:.2}s | {:.1}x |",
            d.as_secs_f64(),
            d.as_secs_f64() / base
        )
        .map_err(|e| e.to_string())?;
    }
    let _ = std::fs::remove_dir_all(&root);
    Ok(())
}
