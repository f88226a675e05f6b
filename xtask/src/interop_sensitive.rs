//! Interop scenario for sensitive values and provider aliases with Terraform 1.0.3 and the
//! null provider: a sensitive variable in a resource's map beside a plain element, resources
//! and data sources on an aliased provider configuration, sensitive and plain outputs, and
//! "Provider configuration not present" once the alias is gone while state still uses it.
//! Compared per step: actions, the `*_sensitive` parts of `show -json`, the provider
//! configuration and `sensitive_attributes` each object has in state, `output -json`; and
//! neither tool prints the secret in a human plan or warns about sensitivity falsely.

use crate::interop::{plan_actions, same, workdir, Env, Tool, NULL_HEADER};
use serde_json::Value as J;
use std::path::Path;

const SECRET: &str = "s3cr3t-value";

fn config(with_alias: bool, with_resources: bool) -> String {
    let alias = if with_alias {
        "provider \"null\" {\n  alias = \"alt\"\n}\n"
    } else {
        ""
    };
    let resources = if with_resources {
        r#"
resource "null_resource" "a" {
  provider = null.alt
  triggers = {
    plain  = "visible"
    secret = var.secret
  }
}

data "null_data_source" "d" {
  provider = null.alt
  inputs = {
    id = null_resource.a.id
  }
}

resource "null_resource" "b" {
  triggers = {
    from_data = data.null_data_source.d.outputs["id"]
  }
}

output "plain" {
  value = null_resource.a.triggers["plain"]
}

output "secret" {
  value     = null_resource.a.triggers["secret"]
  sensitive = true
}
"#
    } else {
        ""
    };
    format!(
        "{NULL_HEADER}\nvariable \"secret\" {{\n  default   = \"{SECRET}\"\n  sensitive = true\n}}\n\nprovider \"null\" {{}}\n{alias}{resources}"
    )
}

/// What one tool showed in one step.
#[derive(Debug, PartialEq)]
struct Seen {
    actions: Vec<(String, Vec<String>)>,
    /// `(address, before_sensitive, after_sensitive)` of every resource change.
    sensitivity: Vec<(String, J, J)>,
    /// `(address, provider, sensitive_attributes)` of every object in state.
    state: Vec<(String, String, J)>,
    outputs: J,
}

fn sensitivity(json_text: &str) -> Result<Vec<(String, J, J)>, String> {
    let v: J = serde_json::from_str(json_text).map_err(|e| e.to_string())?;
    let mut out: Vec<(String, J, J)> = v
        .get("resource_changes")
        .and_then(J::as_array)
        .into_iter()
        .flatten()
        .map(|rc| {
            (
                rc["address"].as_str().unwrap_or_default().to_string(),
                rc.pointer("/change/before_sensitive")
                    .cloned()
                    .unwrap_or(J::Null),
                rc.pointer("/change/after_sensitive")
                    .cloned()
                    .unwrap_or(J::Null),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn state_view(dir: &Path) -> Result<Vec<(String, String, J)>, String> {
    let path = dir.join("terraform.tfstate");
    if !path.exists() {
        return Ok(Vec::new());
    }
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let v: J = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for r in v["resources"].as_array().into_iter().flatten() {
        let prefix = if r["mode"] == "data" { "data." } else { "" };
        let addr = format!(
            "{prefix}{}.{}",
            r["type"].as_str().unwrap_or_default(),
            r["name"].as_str().unwrap_or_default()
        );
        for inst in r["instances"].as_array().into_iter().flatten() {
            let sens = inst.get("sensitive_attributes").cloned().unwrap_or(J::Null);
            // An empty list and an absent key say the same.
            let sens = match sens {
                J::Array(a) if a.is_empty() => J::Null,
                other => other,
            };
            out.push((
                addr.clone(),
                r["provider"].as_str().unwrap_or_default().to_string(),
                sens,
            ));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

fn no_leak(tool: Tool, what: &str, text: &str) -> Result<(), String> {
    if text.contains(SECRET) {
        return Err(format!(
            "{tool:?} prints the sensitive value in {what}:\n{text}"
        ));
    }
    if text.contains("no longer be marked as sensitive") {
        return Err(format!(
            "{tool:?} warns about sensitivity in {what}:\n{text}"
        ));
    }
    Ok(())
}

pub fn sensitive_and_aliases(env: &Env) -> Result<(), String> {
    let name = "sensitive-and-aliases";
    let steps: Vec<(String, Vec<&str>)> = vec![
        (config(true, true), vec![]),
        (config(true, true), vec!["-var=secret=another-secret"]),
        (config(true, true), vec!["-var=secret=another-secret"]),
    ];
    let mut all: Vec<Vec<Seen>> = Vec::new();
    let mut errors: Vec<String> = Vec::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, name, tool, &steps[0].0)?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut seen = Vec::new();
        for (i, (cfg, extra)) in steps.iter().enumerate() {
            std::fs::write(dir.join("main.tf"), cfg).map_err(|e| e.to_string())?;
            let mut args = vec!["plan", "-no-color", "-input=false", "-out=tfplan"];
            args.extend(extra.iter().copied());
            let planned = env.expect(tool, &dir, &args, 0)?;
            no_leak(tool, &format!("step {} plan", i + 1), &planned.stdout)?;
            let human = env.expect(tool, &dir, &["show", "-no-color", "tfplan"], 0)?;
            no_leak(tool, &format!("step {} show", i + 1), &human.stdout)?;
            let shown = env.expect(tool, &dir, &["show", "-json", "tfplan"], 0)?;
            let applied = env.expect(
                tool,
                &dir,
                &["apply", "-no-color", "-input=false", "tfplan"],
                0,
            )?;
            no_leak(tool, &format!("step {} apply", i + 1), &applied.stdout)?;
            let outputs = env.expect(tool, &dir, &["output", "-json"], 0)?;
            seen.push(Seen {
                actions: plan_actions(&shown.stdout)?,
                sensitivity: sensitivity(&shown.stdout)?,
                state: state_view(&dir)?,
                outputs: serde_json::from_str(&outputs.stdout).map_err(|e| e.to_string())?,
            });
        }
        // The alias is gone while state still has objects that use it.
        std::fs::write(dir.join("main.tf"), config(false, false)).map_err(|e| e.to_string())?;
        let o = env.expect(tool, &dir, &["plan", "-no-color", "-input=false"], 1)?;
        if !o.stderr.contains("Provider configuration not present") {
            errors.push(format!(
                "{tool:?}: expected \"Provider configuration not present\"\n{}",
                o.stderr
            ));
        }
        all.push(seen);
    }
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    for (i, (tf, fe)) in all[0].iter().zip(&all[1]).enumerate() {
        let step = i + 1;
        same(
            &format!("{name} step {step} actions"),
            &tf.actions,
            &fe.actions,
        )?;
        same(
            &format!("{name} step {step} plan sensitivity"),
            &tf.sensitivity,
            &fe.sensitivity,
        )?;
        same(&format!("{name} step {step} state"), &tf.state, &fe.state)?;
        same(
            &format!("{name} step {step} outputs"),
            &tf.outputs,
            &fe.outputs,
        )?;
    }
    Ok(())
}

pub const SCENARIOS: &[crate::interop::Scenario] =
    &[("sensitive-and-aliases", sensitive_and_aliases)];
