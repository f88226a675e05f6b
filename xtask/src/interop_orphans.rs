//! `no-orphans`: `apply` of the real `hashicorp/null` 2.1.2 with a long `local-exec` command
//! (a shell with a `sleep` child), killed with SIGKILL once the plugin and the sleep run, for
//! Terraform 1.0.3 and ferro. Two seconds later ferro must have left no process behind; what
//! Terraform leaves is reported beside it (its local-exec commands outlive it) and cleaned up.

use crate::interop::{workdir, Env, Tool, NULL_HEADER};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit_once(") ").and_then(|(_, r)| r.chars().next());
        !matches!(state, Some('Z') | Some('X') | None)
    })
}

/// The live descendants of `root` (found through each process's parent in /proc), with their
/// command lines.
fn descendants(root: u32) -> Vec<(u32, String)> {
    let mut parent_of = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let ppid = stat
            .rsplit_once(") ")
            .and_then(|(_, rest)| rest.split(' ').nth(1))
            .and_then(|p| p.parse::<u32>().ok());
        if let Some(ppid) = ppid {
            parent_of.push((pid, ppid));
        }
    }
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let p = found[i];
        found.extend(parent_of.iter().filter(|(_, pp)| *pp == p).map(|(c, _)| *c));
        i += 1;
    }
    found
        .into_iter()
        .skip(1)
        .filter(|p| alive(*p))
        .map(|p| {
            let cmd = std::fs::read(format!("/proc/{p}/cmdline")).unwrap_or_default();
            (
                p,
                String::from_utf8_lossy(&cmd)
                    .replace('\0', " ")
                    .trim()
                    .to_string(),
            )
        })
        .collect()
}

/// What is left of a killed apply: (what kind of process, how many).
fn killed_apply(env: &Env, tool: Tool, marker: u32) -> Result<Vec<String>, String> {
    let config = format!(
        "{NULL_HEADER}\nresource \"null_resource\" \"slow\" {{\n  provisioner \"local-exec\" {{\n    command = \"sleep {marker}; echo done\"\n  }}\n}}\n"
    );
    let dir = workdir(env, "no-orphans", tool, &config)?;
    env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
    let bin = match tool {
        Tool::Terraform => &env.oracles.terraform,
        Tool::Ferro => &env.ferro,
    };
    let mut child = Command::new(bin)
        .args(["apply", "-auto-approve", "-no-color", "-input=false"])
        .current_dir(&dir)
        .env("TF_CLI_CONFIG_FILE", &env.cli_config)
        .env("CHECKPOINT_DISABLE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{tool:?}: cannot start: {e}"))?;
    let sleep = format!("sleep {marker}");
    let deadline = Instant::now() + Duration::from_secs(120);
    let started = loop {
        let now = descendants(child.id());
        let plugin = now
            .iter()
            .any(|(_, c)| c.contains("terraform-provider-null"));
        if plugin && now.iter().any(|(_, c)| c.starts_with(&sleep)) {
            // Guardians are ferro's own and end with what they guard.
            break now;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{tool:?}: the plugin and the command never ran together"
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = child.kill();
    let _ = child.wait();
    std::thread::sleep(Duration::from_secs(2));
    let mut left = Vec::new();
    for (pid, cmd) in started.into_iter().filter(|(p, _)| alive(*p)) {
        left.push(if cmd.contains("terraform-provider-null") {
            "provider plugin".to_string()
        } else if cmd.starts_with("sleep") {
            "local-exec command's child".to_string()
        } else if cmd.contains("ferro-guard") {
            "guardian".to_string()
        } else {
            "local-exec shell".to_string()
        });
        // Whatever was left is ended here, so the machine keeps nothing of the scenario.
        let _ = Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status();
    }
    left.sort();
    left.dedup();
    Ok(left)
}

pub(crate) fn no_orphans(env: &Env) -> Result<(), String> {
    let base = 8000 + (std::process::id() % 1000) * 2;
    let terraform = killed_apply(env, Tool::Terraform, base)?;
    let ferro = killed_apply(env, Tool::Ferro, base + 1)?;
    println!("        left by a killed apply: terraform {terraform:?}, ferro {ferro:?}");
    if !ferro.is_empty() {
        return Err(format!(
            "processes outlived a killed ferro apply: {ferro:?} (Terraform 1.0.3 left {terraform:?})"
        ));
    }
    Ok(())
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[("no-orphans", no_orphans)];
