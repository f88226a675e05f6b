//! Interop scenarios for provider configurations, with the protocol-6 test provider `shelf`:
//! a provider block that refers to a resource (directly, and through a data source that reads
//! it) is configured once those are known, in plan and in apply, so the resources that use it
//! see the real values; their objects record what the configuration referred to among their
//! dependencies, and destroy takes them down first. A configuration may be built from one
//! output of a module whose other resources use it.

use crate::interop::{plan_apply, same, state_attributes, workdir, write, Env, Tool};
use std::collections::BTreeMap;
use std::path::Path;

/// The book's title changes between steps; the aliased configuration's default genre is built
/// from the book's computed label and a data source that reads it.
fn derived_config(title: &str) -> String {
    format!(
        r#"terraform {{
  required_providers {{
    shelf = {{
      source  = "example.test/ferro/shelf"
      version = "1.0.0"
    }}
  }}
}}

resource "shelf_book" "b" {{
  title = "{title}"
  isbn  = "1"
}}

data "shelf_catalog" "c" {{
  shelf = [shelf_book.b.label, "other"]
}}

provider "shelf" {{
  alias = "derived"
  defaults {{
    genre = "${{shelf_book.b.label}} (${{data.shelf_catalog.c.size}})"
  }}
}}

resource "shelf_bookcase" "c" {{
  provider = shelf.derived
  name     = "case"
}}

output "genre" {{
  value = shelf_bookcase.c.genre
}}
"#
    )
}

/// Each object's `dependencies` in a state file, by resource address, sorted (Terraform 1.0.3
/// writes them in no fixed order: a no-op's come from a set).
fn dependencies(path: &Path) -> Result<BTreeMap<String, serde_json::Value>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    let mut out = BTreeMap::new();
    for r in v["resources"].as_array().into_iter().flatten() {
        let addr = format!(
            "{}{}{}.{}",
            r["module"]
                .as_str()
                .map(|m| format!("{m}."))
                .unwrap_or_default(),
            if r["mode"] == "data" { "data." } else { "" },
            r["type"].as_str().unwrap_or_default(),
            r["name"].as_str().unwrap_or_default()
        );
        for inst in r["instances"].as_array().into_iter().flatten() {
            let mut deps = inst["dependencies"].clone();
            if let Some(a) = deps.as_array_mut() {
                a.sort_by(|x, y| x.as_str().cmp(&y.as_str()));
            }
            out.insert(addr.clone(), deps);
        }
    }
    Ok(out)
}

/// What one tool did: per step the plan's actions, the state's attributes and dependencies;
/// then the order destroy took the objects down in.
type Outcome = (
    Vec<(
        Vec<(String, Vec<String>)>,
        BTreeMap<String, serde_json::Value>,
        BTreeMap<String, serde_json::Value>,
    )>,
    Vec<String>,
);

/// Run `steps` (each a root `main.tf`, planned, applied and planned again with nothing to do)
/// with both tools, the child modules `modules` (directory, `main.tf`) in place, then destroy;
/// what each tool did (state attributes without those named `volatile`, random by design).
fn run_steps(
    env: &Env,
    scenario: &str,
    steps: &[String],
    modules: &[(&str, &str)],
    volatile: &[&str],
) -> Result<BTreeMap<&'static str, Outcome>, String> {
    let mut results = BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, scenario, tool, &steps[0])?;
        for (sub, text) in modules {
            let d = dir.join(sub);
            std::fs::create_dir_all(&d).map_err(|e| e.to_string())?;
            std::fs::write(d.join("main.tf"), text).map_err(|e| e.to_string())?;
        }
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut per_step = Vec::new();
        for step in steps {
            write(&dir, step)?;
            let actions = plan_apply(env, tool, &dir)?;
            let state = dir.join("terraform.tfstate");
            per_step.push((
                actions,
                state_attributes(&state, volatile)?,
                dependencies(&state)?,
            ));
            env.expect(
                tool,
                &dir,
                &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
                0,
            )?;
        }
        let destroyed = env.expect(
            tool,
            &dir,
            &["destroy", "-no-color", "-input=false", "-auto-approve"],
            0,
        )?;
        let order = destroyed
            .stdout
            .lines()
            .filter_map(|l| {
                l.split_once(": Destruction complete")
                    .map(|(a, _)| a.to_string())
            })
            .collect();
        results.insert(tool.name(), (per_step, order));
    }
    Ok(results)
}

/// Both tools did the same: plan actions, state attributes and dependencies after every step,
/// and the destroy order.
fn compare(results: &BTreeMap<&str, Outcome>) -> Result<(), String> {
    let (tf, fe) = (&results["terraform"], &results["ferro"]);
    for (i, (t, f)) in tf.0.iter().zip(&fe.0).enumerate() {
        same(&format!("step {} plan actions", i + 1), &t.0, &f.0)?;
        same(&format!("step {} state attributes", i + 1), &t.1, &f.1)?;
        same(&format!("step {} state dependencies", i + 1), &t.2, &f.2)?;
    }
    same("destroy order", &tf.1, &fe.1)
}

/// An attribute of one object in ferro's state after the first step.
fn ferro_attribute(results: &BTreeMap<&str, Outcome>, addr: &str, name: &str) -> serde_json::Value {
    results["ferro"].0[0]
        .1
        .get(addr)
        .map(|a| a[name].clone())
        .unwrap_or_default()
}

fn provider_from_resource(env: &Env) -> Result<(), String> {
    let steps = [derived_config("Dune"), derived_config("Dune Messiah")];
    let results = run_steps(env, "provider-from-resource", &steps, &[], &[])?;
    // The genre the bookcase was created with: the applied label and the catalog's size.
    same(
        "genre of shelf_bookcase.c in ferro's state",
        &serde_json::Value::from("Book: Dune (2)"),
        &ferro_attribute(&results, "shelf_bookcase.c", "genre"),
    )?;
    compare(&results)
}

const CLUSTER_ROOT: &str = r#"terraform {
  required_providers {
    shelf = {
      source  = "example.test/ferro/shelf"
      version = "1.0.0"
    }
  }
}

provider "shelf" {
  alias = "plain"
}

provider "shelf" {
  defaults {
    genre = module.cluster.endpoint
  }
}

module "cluster" {
  source = "./cluster"
  providers = {
    shelf.plain = shelf.plain
  }
}

output "auth" {
  value = module.cluster.auth
}
"#;

const CLUSTER_MODULE: &str = r#"terraform {
  required_providers {
    shelf = {
      source                = "example.test/ferro/shelf"
      version               = "1.0.0"
      configuration_aliases = [shelf.plain]
    }
  }
}

resource "shelf_book" "cluster" {
  provider = shelf.plain
  title    = "cluster"
  isbn     = "1"
}

resource "shelf_bookcase" "auth" {
  name = "auth"
}

output "endpoint" {
  value = shelf_book.cluster.label
}

output "auth" {
  value = shelf_bookcase.auth.genre
}
"#;

/// A provider configured from a module's output while that module's other resource inherits
/// the configuration (a Kubernetes provider built from an EKS module's endpoint): no cycle,
/// since the configuration waits for the one output it names.
fn provider_from_module_output(env: &Env) -> Result<(), String> {
    let steps = [CLUSTER_ROOT.to_string()];
    let results = run_steps(
        env,
        "provider-from-module-output",
        &steps,
        &[("cluster", CLUSTER_MODULE)],
        &[],
    )?;
    same(
        "genre of module.cluster.shelf_bookcase.auth in ferro's state",
        &serde_json::Value::from("Book: cluster"),
        &ferro_attribute(&results, "module.cluster.shelf_bookcase.auth", "genre"),
    )?;
    compare(&results)
}

const BACK_REFERENCE_ROOT: &str = r#"module "m" {
  source = "./m"
  input  = null_resource.root.id
}

resource "null_resource" "root" {
  triggers = {
    first = module.m.first
  }
}

output "second" {
  value = module.m.second
}
"#;

const BACK_REFERENCE_MODULE: &str = r#"variable "input" {}

resource "null_resource" "first" {}

resource "null_resource" "second" {
  triggers = {
    input = var.input
  }
}

output "first" {
  value = null_resource.first.id
}

output "second" {
  value = null_resource.second.triggers.input
}
"#;

/// A root resource takes one output of a module and gives the module its id back through an
/// input: `module.m.first` waits for that output only, so there is no cycle; the dependencies
/// recorded are the same as Terraform's (in any order).
fn module_output_back_reference(env: &Env) -> Result<(), String> {
    let steps = [BACK_REFERENCE_ROOT.to_string()];
    let results = run_steps(
        env,
        "module-output-back-reference",
        &steps,
        &[("m", BACK_REFERENCE_MODULE)],
        &["id", "triggers"],
    )?;
    compare(&results)
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[
    ("module-output-back-reference", module_output_back_reference),
    ("provider-from-resource", provider_from_resource),
    ("provider-from-module-output", provider_from_module_output),
];
