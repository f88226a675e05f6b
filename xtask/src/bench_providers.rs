//! `cargo xtask bench providers`: apply 2000 `null_resource` instances with ferro and with
//! Terraform 1.0.3 (same provider binary, same machine, same run) in three shapes, and ferro
//! alone at 1000/2000/4000 instances to show how its cost grows.

use crate::interop::{Env, Tool};
use std::time::{Duration, Instant};

/// The `terraform` block the generated benchmark configurations start with.
pub const HEADER: &str = r#"terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "2.1.2"
    }
  }
}
"#;

/// `n` instances of one counted resource.
pub fn flat(n: usize) -> String {
    format!("{HEADER}\nresource \"null_resource\" \"r\" {{\n  count = {n}\n}}\n")
}

/// `links` resources of `width` instances each, every one waiting for all of the previous.
pub fn chain(links: usize, width: usize) -> String {
    let mut s = HEADER.to_string();
    for i in 0..links {
        s.push_str(&format!(
            "\nresource \"null_resource\" \"c{i}\" {{\n  count = {width}\n"
        ));
        if i > 0 {
            s.push_str(&format!(
                "  triggers = {{\n    prev = join(\",\", null_resource.c{}[*].id)\n  }}\n",
                i - 1
            ));
        }
        s.push_str("}\n");
    }
    s
}

/// Time `init` + `apply -auto-approve` (only the apply is measured).
fn time_apply(env: &Env, tool: Tool, name: &str, config: &str) -> Result<Duration, String> {
    let dir = crate::interop::workdir(env, &format!("bench-{name}"), tool, config)?;
    env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
    let start = Instant::now();
    env.expect(
        tool,
        &dir,
        &["apply", "-no-color", "-input=false", "-auto-approve"],
        0,
    )?;
    let took = start.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    Ok(took)
}

fn secs(d: Duration) -> String {
    format!("{:.2}s", d.as_secs_f64())
}

/// Run the benchmark and print a table. With `with_terraform` false only ferro runs (Terraform
/// takes minutes on the layered shape).
pub fn run(env: &Env, with_terraform: bool, out: &mut dyn std::io::Write) -> Result<(), String> {
    let shapes: [(&str, String); 3] = [
        ("flat-2000", flat(2000)),
        ("chain-500x4", chain(500, 4)),
        ("layers-10x200", chain(10, 200)),
    ];
    writeln!(out, "| shape | ferro | terraform 1.0.3 | ratio |").map_err(|e| e.to_string())?;
    writeln!(out, "|---|---|---|---|").map_err(|e| e.to_string())?;
    for (name, config) in &shapes {
        let f = time_apply(env, Tool::Ferro, name, config)?;
        let (t, ratio) = if with_terraform {
            let t = time_apply(env, Tool::Terraform, name, config)?;
            (
                secs(t),
                format!("{:.1}x faster", t.as_secs_f64() / f.as_secs_f64().max(1e-9)),
            )
        } else {
            ("(not run)".into(), "-".into())
        };
        writeln!(out, "| {name} | {} | {t} | {ratio} |", secs(f)).map_err(|e| e.to_string())?;
    }
    writeln!(out, "\nferro growth (flat count):").map_err(|e| e.to_string())?;
    let mut prev: Option<(usize, Duration)> = None;
    for n in [1000, 2000, 4000] {
        let d = time_apply(env, Tool::Ferro, &format!("grow-{n}"), &flat(n))?;
        let note = match prev {
            Some((pn, pd)) => format!(
                " ({:.2}x the time for {:.0}x the instances)",
                d.as_secs_f64() / pd.as_secs_f64().max(1e-9),
                n as f64 / pn as f64
            ),
            None => String::new(),
        };
        writeln!(out, "  {n:>5} instances: {}{note}", secs(d)).map_err(|e| e.to_string())?;
        prev = Some((n, d));
    }
    Ok(())
}
