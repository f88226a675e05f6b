//! Interop scenarios for "apply does exactly what was approved" (issue 43) with Terraform 1.0.3
//! and the real `hashicorp/null` 2.1.2 provider (an SDKv2 provider: it reports the legacy
//! type system):
//!
//! * `trust-final-plan`: a saved plan reads `file("body.txt")` into a `null_resource`'s
//!   `triggers`; the file changes before `apply PLANFILE`. Both tools refuse the final plan
//!   with the same message and record nothing.
//! * `trust-provider-move`: a resource moves from an aliased `null` configuration to the
//!   default one with nothing else changed; both record the new provider address on the next
//!   apply, so removing the alias afterwards plans no changes in either.
//! * `trust-refresh-only-data`: a data resource removed from the configuration leaves the
//!   state on `apply -refresh-only`, in both.
//! * `trust-journal-fold`: ferro is killed (SIGKILL) during an apply after one object was
//!   created and journaled but before any state write; the next `ferro plan` folds the journal
//!   into `terraform.tfstate`, and Terraform 1.0.3, reading that file, plans to create only the
//!   object that never was, not the recovered one again.

use crate::interop::{same, state_attributes, workdir, write, Env, Tool, NULL_HEADER};
use std::collections::BTreeMap;
use std::path::Path;

/// Whitespace collapsed: Terraform wraps diagnostic text at the terminal's width.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The details of the "Provider produced inconsistent final plan" errors on `stderr`, as
/// `ADDR: PATH: was X, but now Y`.
fn final_plan_errors(stderr: &str) -> Vec<String> {
    let text = flat(stderr);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("When expanding the plan for ") {
        rest = &rest[at + "When expanding the plan for ".len()..];
        let addr = rest.split(' ').next().unwrap_or_default().to_string();
        let Some(v) = rest.find("produced an invalid new value for ") else {
            break;
        };
        let tail = &rest[v + "produced an invalid new value for ".len()..];
        let what = tail.split(". This is a bug").next().unwrap_or(tail);
        out.push(format!("{addr}: {what}"));
    }
    out.sort();
    out
}

fn final_plan(env: &Env) -> Result<(), String> {
    let config = format!(
        "{NULL_HEADER}\nresource \"null_resource\" \"body\" {{\n  triggers = {{\n    body = file(\"body.txt\")\n  }}\n}}\n\nresource \"null_resource\" \"steady\" {{\n  triggers = {{\n    value = \"same\"\n  }}\n}}\n"
    );
    let mut errors = BTreeMap::new();
    let mut states = BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "trust-final-plan", tool, &config)?;
        std::fs::write(dir.join("body.txt"), "one\n").map_err(|e| e.to_string())?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        env.expect(
            tool,
            &dir,
            &["plan", "-no-color", "-input=false", "-out=tfplan"],
            0,
        )?;
        std::fs::write(dir.join("body.txt"), "two\n").map_err(|e| e.to_string())?;
        let out = env.expect(
            tool,
            &dir,
            &["apply", "-no-color", "-input=false", "tfplan"],
            1,
        )?;
        let found = final_plan_errors(&out.stderr);
        if found.is_empty() {
            return Err(format!(
                "{tool:?}: no inconsistent final plan reported\n{}",
                out.stderr
            ));
        }
        errors.insert(tool.name(), found);
        let state = dir.join("terraform.tfstate");
        let recorded: Vec<String> = if state.exists() {
            state_attributes(&state, &[])?.into_keys().collect()
        } else {
            Vec::new()
        };
        states.insert(tool.name(), recorded);
    }
    same(
        "inconsistent final plan errors",
        &errors["terraform"],
        &errors["ferro"],
    )?;
    same(
        "objects recorded after the refused apply",
        &states["terraform"],
        &states["ferro"],
    )?;
    if states["ferro"].iter().any(|a| a == "null_resource.body") {
        return Err("the refused object was recorded".into());
    }
    Ok(())
}

/// `(type.name, provider)` of every resource in a state file.
fn providers_in_state(path: &Path) -> Result<Vec<(String, String)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let mut out: Vec<(String, String)> = v["resources"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            let s = |k: &str| r[k].as_str().unwrap_or_default().to_string();
            (format!("{}.{}", s("type"), s("name")), s("provider"))
        })
        .collect();
    out.sort();
    Ok(out)
}

fn provider_move(env: &Env) -> Result<(), String> {
    let alias = "provider \"null\" {\n  alias = \"second\"\n}\n";
    let step = |provider_line: &str, with_alias: bool| {
        format!(
            "{NULL_HEADER}\n{}\nresource \"null_resource\" \"a\" {{\n{provider_line}  triggers = {{\n    value = \"same\"\n  }}\n}}\n",
            if with_alias { alias } else { "" }
        )
    };
    let steps = [step("  provider = null.second\n", true), step("", true)];
    let mut recorded = BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "trust-provider-move", tool, &steps[0])?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut per_step = Vec::new();
        for config in &steps {
            write(&dir, config)?;
            env.expect(
                tool,
                &dir,
                &["apply", "-no-color", "-input=false", "-auto-approve"],
                0,
            )?;
            per_step.push(providers_in_state(&dir.join("terraform.tfstate"))?);
        }
        // With the alias gone the resource needs nothing from it.
        write(&dir, &step("", false))?;
        env.expect(
            tool,
            &dir,
            &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
            0,
        )?;
        recorded.insert(tool.name(), per_step);
    }
    same(
        "provider addresses recorded per step",
        &recorded["terraform"],
        &recorded["ferro"],
    )
}

fn refresh_only_data(env: &Env) -> Result<(), String> {
    let with_data = format!(
        "{NULL_HEADER}\ndata \"null_data_source\" \"d\" {{\n  inputs = {{\n    a = \"b\"\n  }}\n}}\n\nresource \"null_resource\" \"a\" {{\n  triggers = {{\n    value = \"same\"\n  }}\n}}\n"
    );
    let without = format!(
        "{NULL_HEADER}\nresource \"null_resource\" \"a\" {{\n  triggers = {{\n    value = \"same\"\n  }}\n}}\n"
    );
    let mut recorded = BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "trust-refresh-only-data", tool, &with_data)?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        env.expect(
            tool,
            &dir,
            &["apply", "-no-color", "-input=false", "-auto-approve"],
            0,
        )?;
        write(&dir, &without)?;
        env.expect(
            tool,
            &dir,
            &[
                "apply",
                "-no-color",
                "-input=false",
                "-refresh-only",
                "-auto-approve",
            ],
            0,
        )?;
        let addrs: Vec<String> = state_attributes(&dir.join("terraform.tfstate"), &[])?
            .into_keys()
            .collect();
        recorded.insert(tool.name(), addrs);
    }
    same(
        "objects in state after apply -refresh-only",
        &recorded["terraform"],
        &recorded["ferro"],
    )
}

fn journal_fold(env: &Env) -> Result<(), String> {
    let marker = 9000 + (std::process::id() % 1000);
    let config = format!(
        "{NULL_HEADER}\nresource \"null_resource\" \"fast\" {{\n}}\n\nresource \"null_resource\" \"slow\" {{\n  depends_on = [null_resource.fast]\n  provisioner \"local-exec\" {{\n    command = \"sleep {marker}\"\n  }}\n}}\n"
    );
    let dir = workdir(env, "trust-journal-fold", Tool::Ferro, &config)?;
    env.expect(Tool::Ferro, &dir, &["init", "-no-color", "-input=false"], 0)?;
    let mut child = std::process::Command::new(&env.ferro)
        .args(["apply", "-auto-approve", "-no-color", "-input=false"])
        .current_dir(&dir)
        .env("TF_CLI_CONFIG_FILE", &env.cli_config)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start ferro: {e}"))?;
    let sleep = format!("sleep {marker}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let running = || {
        std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| {
                std::fs::read(e.path().join("cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).replace('\0', " ").trim() == sleep)
            })
    };
    while !running() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            return Err("the slow resource's command never started".into());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    let state = dir.join("terraform.tfstate");
    let journal = dir.join(".terraform.tfstate.journal");
    let on_disk = |p: &Path| -> Result<Vec<String>, String> {
        if !p.exists() || std::fs::metadata(p).map_err(|e| e.to_string())?.len() == 0 {
            return Ok(Vec::new());
        }
        Ok(state_attributes(p, &[])?.into_keys().collect())
    };
    if !journal.exists() || on_disk(&state)?.iter().any(|a| a == "null_resource.fast") {
        return Err(format!(
            "inconclusive: the killed apply left no journal to fold (state holds {:?})",
            on_disk(&state)?
        ));
    }
    let out = env.expect(
        Tool::Ferro,
        &dir,
        &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
        2,
    )?;
    if !out
        .stdout
        .starts_with("Recovered 1 change recorded by an interrupted apply")
    {
        return Err(format!(
            "ferro plan did not fold the journal:\n{}",
            out.stdout
        ));
    }
    same(
        "objects in terraform.tfstate after the fold",
        &vec!["null_resource.fast".to_string()],
        &on_disk(&state)?,
    )?;
    // Terraform reads the file ferro wrote: only the object that never was is to be created.
    env.expect(
        Tool::Terraform,
        &dir,
        &[
            "plan",
            "-no-color",
            "-input=false",
            "-lock=false",
            "-out=tf.tfplan",
        ],
        0,
    )?;
    let shown = env.expect(Tool::Terraform, &dir, &["show", "-json", "tf.tfplan"], 0)?;
    let actions = crate::interop::plan_actions(&shown.stdout)?;
    same(
        "Terraform's plan after the fold",
        &vec![
            ("null_resource.fast".to_string(), vec!["no-op".to_string()]),
            ("null_resource.slow".to_string(), vec!["create".to_string()]),
        ],
        &actions,
    )
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[
    ("trust-final-plan", final_plan),
    ("trust-provider-move", provider_move),
    ("trust-refresh-only-data", refresh_only_data),
    ("trust-journal-fold", journal_fold),
];
