//! Interop scenarios for module trees: the same three-level tree (count, then for_each, then a
//! single call; a provider configuration passed down by alias; outputs through every level)
//! planned and applied by Terraform 1.0.3 and by ferro, and states exchanged between them.

use crate::interop::{plan_actions, same, state_attributes, workdir, Env, Tool, NULL_HEADER};
use std::collections::BTreeMap;
use std::path::Path;

const LEAF: &str = r#"terraform {
  required_providers {
    null = {
      source = "hashicorp/null"
    }
  }
}

variable "name" {
  type = string
}

resource "null_resource" "leaf" {
  triggers = {
    name = var.name
  }
}

output "name" {
  value = null_resource.leaf.triggers.name
}
"#;

const MIDDLE: &str = r#"terraform {
  required_providers {
    null = {
      source = "hashicorp/null"
    }
  }
}

variable "prefix" {
  type = string
}

variable "keys" {
  type = set(string)
}

resource "null_resource" "middle" {
  triggers = {
    prefix = var.prefix
  }
}

module "leaf" {
  source   = "../leaf"
  for_each = var.keys
  name     = "${var.prefix}-${each.key}"
}

output "names" {
  value = { for k, m in module.leaf : k => m.name }
}
"#;

fn root(count: usize, keys: &[&str], with_single: bool) -> String {
    let keys = keys
        .iter()
        .map(|k| format!("{k:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    let single = if with_single {
        r#"
module "single" {
  source = "./modules/leaf"
  name   = "single"
  providers = {
    null = null.alt
  }
}

output "single" {
  value = module.single.name
}
"#
    } else {
        ""
    };
    format!(
        r#"{NULL_HEADER}
provider "null" {{
  alias = "alt"
}}

module "middle" {{
  source = "./modules/middle"
  count  = {count}
  prefix = "m${{count.index}}"
  keys   = [{keys}]
}}

output "names" {{
  value = module.middle[*].names
}}
{single}"#
    )
}

fn write_tree(dir: &Path, main_tf: &str) -> Result<(), String> {
    for (sub, text) in [("modules/leaf", LEAF), ("modules/middle", MIDDLE)] {
        std::fs::create_dir_all(dir.join(sub)).map_err(|e| e.to_string())?;
        std::fs::write(dir.join(sub).join("main.tf"), text).map_err(|e| e.to_string())?;
    }
    std::fs::write(dir.join("main.tf"), main_tf).map_err(|e| e.to_string())
}

fn outputs(env: &Env, tool: Tool, dir: &Path) -> Result<serde_json::Value, String> {
    let out = env.expect(tool, dir, &["output", "-json"], 0)?;
    serde_json::from_str(&out.stdout).map_err(|e| format!("output -json: {e}"))
}

type StepResult = (
    Vec<(String, Vec<String>)>,
    BTreeMap<String, serde_json::Value>,
    serde_json::Value,
    serde_json::Value,
);

/// What a policy tool reads of the saved plan: the configuration (module calls nested) and
/// the module instance tree of the planned values (addresses only).
fn plan_shape(shown: &str) -> Result<serde_json::Value, String> {
    let v: serde_json::Value =
        serde_json::from_str(shown).map_err(|e| format!("show -json: {e}"))?;
    fn modules(m: &serde_json::Value) -> serde_json::Value {
        let resources: Vec<serde_json::Value> = m
            .get("resources")
            .and_then(|r| r.as_array())
            .into_iter()
            .flatten()
            .map(|r| r["address"].clone())
            .collect();
        // Terraform 1.0.3 lists child modules in no stable order: compare them sorted.
        let mut children: Vec<serde_json::Value> = m
            .get("child_modules")
            .and_then(|c| c.as_array())
            .into_iter()
            .flatten()
            .map(modules)
            .collect();
        children.sort_by_key(|c| c["address"].to_string());
        serde_json::json!({"address": m.get("address"), "resources": resources, "child_modules": children})
    }
    Ok(serde_json::json!({
        "configuration": v["configuration"]["root_module"],
        "planned_values": modules(&v["planned_values"]["root_module"]),
    }))
}

/// Create the tree, shrink the counted call (its second instance and everything under it go),
/// drop a for_each key, remove the single call; the same actions, state and outputs each step.
pub fn module_tree(env: &Env) -> Result<(), String> {
    let steps = [
        root(2, &["a", "b"], true),
        root(1, &["a", "b"], true),
        root(1, &["b"], true),
        root(1, &["b"], false),
    ];
    let mut results: BTreeMap<&str, Vec<StepResult>> = BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "module-tree", tool, &steps[0])?;
        write_tree(&dir, &steps[0])?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut per_step = Vec::new();
        for step in &steps {
            write_tree(&dir, step)?;
            env.expect(
                tool,
                &dir,
                &["plan", "-no-color", "-input=false", "-out=tfplan"],
                0,
            )?;
            let shown = env.expect(tool, &dir, &["show", "-json", "tfplan"], 0)?;
            let actions = plan_actions(&shown.stdout)?;
            let shape = plan_shape(&shown.stdout)?;
            env.expect(
                tool,
                &dir,
                &["apply", "-no-color", "-input=false", "tfplan"],
                0,
            )?;
            let attrs = state_attributes(&dir.join("terraform.tfstate"), &["id"])?;
            per_step.push((actions, attrs, outputs(env, tool, &dir)?, shape));
        }
        env.expect(
            tool,
            &dir,
            &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
            0,
        )?;
        env.expect(
            tool,
            &dir,
            &["destroy", "-no-color", "-input=false", "-auto-approve"],
            0,
        )?;
        results.insert(tool.name(), per_step);
    }
    for (i, (tf, fe)) in results["terraform"]
        .iter()
        .zip(&results["ferro"])
        .enumerate()
    {
        same(&format!("step {} plan actions", i + 1), &tf.0, &fe.0)?;
        same(&format!("step {} state attributes", i + 1), &tf.1, &fe.1)?;
        same(&format!("step {} outputs", i + 1), &tf.2, &fe.2)?;
        same(&format!("step {} show -json shape", i + 1), &tf.3, &fe.3)?;
    }
    Ok(())
}

/// `graph` of the module tree (count, for_each, a provider passed down by alias), plan and
/// validate types: ferro's DOT text is Terraform 1.0.3's, byte for byte.
pub fn module_graph(env: &Env) -> Result<(), String> {
    let main_tf = root(2, &["a", "b"], true);
    let mut graphs: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "module-graph", tool, &main_tf)?;
        write_tree(&dir, &main_tf)?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut out = Vec::new();
        for args in [&["graph"][..], &["graph", "-type=validate"][..]] {
            out.push(env.expect(tool, &dir, args, 0)?.stdout);
        }
        graphs.insert(tool.name(), out);
    }
    for (i, what) in ["graph", "graph -type=validate"].iter().enumerate() {
        same(what, &graphs["terraform"][i], &graphs["ferro"][i])?;
    }
    Ok(())
}

/// A module tree's state written by one tool plans clean in the other.
pub fn module_state_exchange(env: &Env) -> Result<(), String> {
    let config = root(2, &["a", "b"], true);
    for (writer, reader) in [
        (Tool::Terraform, Tool::Ferro),
        (Tool::Ferro, Tool::Terraform),
    ] {
        let name = format!("module-state-{writer:?}-to-{reader:?}").to_lowercase();
        let dir = workdir(env, &name, writer, &config)?;
        write_tree(&dir, &config)?;
        env.expect(writer, &dir, &["init", "-no-color", "-input=false"], 0)?;
        env.expect(
            writer,
            &dir,
            &["apply", "-no-color", "-input=false", "-auto-approve"],
            0,
        )?;
        let other = workdir(env, &name, reader, &config)?;
        write_tree(&other, &config)?;
        std::fs::copy(
            dir.join("terraform.tfstate"),
            other.join("terraform.tfstate"),
        )
        .map_err(|e| e.to_string())?;
        env.expect(reader, &other, &["init", "-no-color", "-input=false"], 0)?;
        env.expect(
            reader,
            &other,
            &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
            0,
        )
        .map_err(|e| {
            format!("module state written by {writer:?} does not plan clean in {reader:?}: {e}")
        })?;
    }
    Ok(())
}
