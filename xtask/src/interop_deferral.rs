//! `deferral-converge`: a configuration whose `count` and `for_each` (on resources and on a
//! module call) are known only after apply, with the real `hashicorp/null` 2.1.2. Terraform
//! 1.0.3 cannot plan it in one go ("Invalid for_each argument"): it is applied in the steps a
//! user splits it into by hand (`apply -target` of what the keys come from, then a full
//! apply). ferro applies it with `apply -allow-deferral -converge -auto-approve`, in rounds.
//! Both must end with the same objects in state (the same addresses and attributes, ids
//! aside) and a clean plan.

use crate::interop::{same, state_attributes, workdir, Env, Tool, NULL_HEADER};
use std::path::Path;

/// The keys of the deferred `for_each` are known only once `null_resource.seed` exists: a
/// conditional on its (unknown) ids, deterministic once they are known.
fn config() -> String {
    format!(
        r#"{NULL_HEADER}
resource "null_resource" "seed" {{
  count = 2
  triggers = {{
    n = count.index
  }}
}}

locals {{
  keys = toset([for s in null_resource.seed : length(s.id) > 0 ? "seed-${{s.triggers.n}}" : "none"])
}}

resource "null_resource" "per_seed" {{
  for_each = local.keys
  triggers = {{
    key = each.key
  }}
}}

resource "null_resource" "counted" {{
  count = length(null_resource.seed[0].id) > 0 ? 3 : 0
  triggers = {{
    i = count.index
  }}
}}

module "child" {{
  source   = "./child"
  for_each = local.keys
  name     = each.key
}}

# Depends on deferred resources only: deferred with them in the first round.
resource "null_resource" "after" {{
  triggers = {{
    keys    = join(",", sort(keys(null_resource.per_seed)))
    counted = length(null_resource.counted)
    modules = join(",", sort([for k, m in module.child : m.name]))
  }}
}}

output "keys" {{
  value = sort(keys(null_resource.per_seed))
}}
"#
    )
}

const CHILD: &str = r#"variable "name" {
  type = string
}

resource "null_resource" "in_module" {
  triggers = {
    name = var.name
  }
}

output "name" {
  value = null_resource.in_module.triggers["name"]
}
"#;

fn prepare(env: &Env, tool: Tool) -> Result<std::path::PathBuf, String> {
    let dir = workdir(env, "deferral-converge", tool, &config())?;
    let child = dir.join("child");
    std::fs::create_dir_all(&child).map_err(|e| e.to_string())?;
    std::fs::write(child.join("main.tf"), CHILD).map_err(|e| e.to_string())?;
    env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
    Ok(dir)
}

/// The configuration cannot be planned in one go without deferral: the error names the
/// unknown `for_each`.
fn refused(env: &Env, tool: Tool, dir: &Path) -> Result<(), String> {
    let o = env.expect(tool, dir, &["plan", "-no-color", "-input=false"], 1)?;
    if !o.stderr.contains("Invalid for_each argument") {
        return Err(format!(
            "{tool:?} plan without deferral: no \"Invalid for_each argument\" error\n{}",
            o.stderr
        ));
    }
    Ok(())
}

/// After the last step: nothing left to do.
fn clean(env: &Env, tool: Tool, dir: &Path) -> Result<(), String> {
    env.expect(
        tool,
        dir,
        &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
        0,
    )
    .map(|_| ())
}

fn deferral_converge(env: &Env) -> Result<(), String> {
    // Terraform 1.0.3: the user's hand-split steps.
    let tf = prepare(env, Tool::Terraform)?;
    refused(env, Tool::Terraform, &tf)?;
    env.expect(
        Tool::Terraform,
        &tf,
        &[
            "apply",
            "-no-color",
            "-input=false",
            "-auto-approve",
            "-target=null_resource.seed",
        ],
        0,
    )?;
    env.expect(
        Tool::Terraform,
        &tf,
        &["apply", "-no-color", "-input=false", "-auto-approve"],
        0,
    )?;
    clean(env, Tool::Terraform, &tf)?;

    // ferro: one command.
    let fe = prepare(env, Tool::Ferro)?;
    refused(env, Tool::Ferro, &fe)?;
    let o = env.expect(
        Tool::Ferro,
        &fe,
        &[
            "apply",
            "-no-color",
            "-input=false",
            "-allow-deferral",
            "-converge",
            "-auto-approve",
        ],
        0,
    )?;
    // The seeds in round 1 (the rest deferred), everything else in round 2.
    for round in ["Round 1", "Round 2"] {
        if !o.stdout.contains(round) {
            return Err(format!(
                "ferro apply -converge: no {round:?} in its output\n{}",
                o.stdout
            ));
        }
    }
    if o.stdout.contains("Round 3") {
        return Err(format!(
            "ferro apply -converge took more than two rounds\n{}",
            o.stdout
        ));
    }
    clean(env, Tool::Ferro, &fe)?;

    let tf_state = state_attributes(&tf.join("terraform.tfstate"), &["id"])?;
    let fe_state = state_attributes(&fe.join("terraform.tfstate"), &["id"])?;
    same(
        "final state addresses",
        &tf_state.keys().collect::<Vec<_>>(),
        &fe_state.keys().collect::<Vec<_>>(),
    )?;
    same("final state attributes", &tf_state, &fe_state)?;
    if tf_state.len() != 10 {
        return Err(format!(
            "expected 10 objects (2 seeds, 2 per_seed, 3 counted, 2 modules' objects, after), found {}: {:?}",
            tf_state.len(),
            tf_state.keys().collect::<Vec<_>>()
        ));
    }
    let outputs = |dir: &Path, tool: Tool| {
        env.expect(tool, dir, &["output", "-no-color", "-json", "keys"], 0)
            .map(|o| o.stdout.split_whitespace().collect::<String>())
    };
    same(
        "output keys",
        &outputs(&tf, Tool::Terraform)?,
        &outputs(&fe, Tool::Ferro)?,
    )?;
    for (tool, dir) in [(Tool::Terraform, &tf), (Tool::Ferro, &fe)] {
        env.expect(
            tool,
            dir,
            &["destroy", "-no-color", "-input=false", "-auto-approve"],
            0,
        )?;
    }
    Ok(())
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[("deferral-converge", deferral_converge)];
