//! `cargo xtask bench modules`: a generated module tree (20 instances of a group module, each
//! calling a leaf module for 10 keys: 220 module instances) holding 5 000 `null_resource`
//! instances; `validate` and a fresh `plan` with ferro, the same plan with Terraform 1.0.3 in the
//! same run, and ferro's plan again at 20 000 instances to show how the cost grows.

use crate::interop::{Env, Tool};
use std::path::Path;
use std::time::{Duration, Instant};

const GROUPS: usize = 20;
const KEYS: usize = 10;

fn write_tree(dir: &Path, per_leaf: usize) -> Result<(), String> {
    let root = format!(
        r#"terraform {{
  required_providers {{
    null = {{
      source  = "hashicorp/null"
      version = "2.1.2"
    }}
  }}
}}

module "group" {{
  source = "./modules/group"
  count  = {GROUPS}
  name   = "g${{count.index}}"
}}

output "leaf_ids" {{
  value = length(flatten(module.group[*].ids))
}}
"#
    );
    let keys = (0..KEYS)
        .map(|k| format!("\"k{k}\""))
        .collect::<Vec<_>>()
        .join(", ");
    let group = format!(
        r#"variable "name" {{
  type = string
}}

module "leaf" {{
  source   = "../leaf"
  for_each = toset([{keys}])
  prefix   = "${{var.name}}-${{each.key}}"
}}

output "ids" {{
  value = flatten([for k, l in module.leaf : l.ids])
}}
"#
    );
    let leaf = format!(
        r#"variable "prefix" {{
  type = string
}}

resource "null_resource" "r" {{
  count = {per_leaf}
  triggers = {{
    name = "${{var.prefix}}-${{count.index}}"
  }}
}}

output "ids" {{
  value = null_resource.r[*].id
}}
"#
    );
    for (path, text) in [
        ("main.tf", root.as_str()),
        ("modules/group/main.tf", group.as_str()),
        ("modules/leaf/main.tf", leaf.as_str()),
    ] {
        let p = dir.join(path);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(p, text).map_err(|e| e.to_string())?;
    }
    Ok(())
}

fn timed(env: &Env, tool: Tool, dir: &Path, args: &[&str]) -> Result<Duration, String> {
    let start = Instant::now();
    env.expect(tool, dir, args, 0)?;
    Ok(start.elapsed())
}

fn prepare(
    env: &Env,
    tool: Tool,
    name: &str,
    per_leaf: usize,
) -> Result<std::path::PathBuf, String> {
    let dir = crate::interop::workdir(env, &format!("bench-modules-{name}"), tool, "")?;
    write_tree(&dir, per_leaf)?;
    env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
    Ok(dir)
}

const PLAN: &[&str] = &["plan", "-no-color", "-input=false", "-out=tfplan"];

pub fn run(env: &Env, with_terraform: bool, out: &mut dyn std::io::Write) -> Result<(), String> {
    let instances = |per_leaf: usize| GROUPS * KEYS * per_leaf;
    let dir = prepare(env, Tool::Ferro, "5k", 25)?;
    let validate = timed(env, Tool::Ferro, &dir, &["validate", "-no-color"])?;
    let ferro_plan = timed(env, Tool::Ferro, &dir, PLAN)?;
    let _ = writeln!(
        out,
        "module tree: {} module instances, {} resource instances",
        GROUPS + GROUPS * KEYS,
        instances(25)
    );
    let _ = writeln!(
        out,
        "  ferro validate              {:>8.2}s",
        validate.as_secs_f64()
    );
    let _ = writeln!(
        out,
        "  ferro plan                  {:>8.2}s",
        ferro_plan.as_secs_f64()
    );
    if with_terraform {
        let tdir = prepare(env, Tool::Terraform, "5k", 25)?;
        let tf_plan = timed(env, Tool::Terraform, &tdir, PLAN)?;
        let _ = writeln!(
            out,
            "  terraform 1.0.3 plan        {:>8.2}s   (ferro {:.1}x faster)",
            tf_plan.as_secs_f64(),
            tf_plan.as_secs_f64() / ferro_plan.as_secs_f64()
        );
    }
    let big = prepare(env, Tool::Ferro, "20k", 100)?;
    let big_plan = timed(env, Tool::Ferro, &big, PLAN)?;
    let _ = writeln!(
        out,
        "  ferro plan, {} instances  {:>8.2}s   ({:.2}x the time for {:.0}x the instances)",
        instances(100),
        big_plan.as_secs_f64(),
        big_plan.as_secs_f64() / ferro_plan.as_secs_f64(),
        instances(100) as f64 / instances(25) as f64
    );
    Ok(())
}
