//! Interop scenarios for provider configurations, with the protocol-6 test provider `shelf`:
//! a provider block that refers to a resource (directly, and through a data source that reads
//! it) is configured once those are known, in plan and in apply, so the resources that use it
//! see the real values; their objects record what the configuration referred to among their
//! dependencies, and destroy takes them down first.

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

/// Each object's `dependencies` in a state file, by resource address.
fn dependencies(path: &Path) -> Result<BTreeMap<String, serde_json::Value>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    let mut out = BTreeMap::new();
    for r in v["resources"].as_array().into_iter().flatten() {
        let addr = format!(
            "{}{}.{}",
            if r["mode"] == "data" { "data." } else { "" },
            r["type"].as_str().unwrap_or_default(),
            r["name"].as_str().unwrap_or_default()
        );
        for inst in r["instances"].as_array().into_iter().flatten() {
            out.insert(addr.clone(), inst["dependencies"].clone());
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

fn provider_from_resource(env: &Env) -> Result<(), String> {
    let steps = [derived_config("Dune"), derived_config("Dune Messiah")];
    let mut results: BTreeMap<&str, Outcome> = BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "provider-from-resource", tool, &steps[0])?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut per_step = Vec::new();
        for step in &steps {
            write(&dir, step)?;
            let actions = plan_apply(env, tool, &dir)?;
            let state = dir.join("terraform.tfstate");
            per_step.push((
                actions,
                state_attributes(&state, &[])?,
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
    let (tf, fe) = (&results["terraform"], &results["ferro"]);
    // The genre the bookcase was created with: the applied label and the catalog's size.
    let genre = fe.0[0]
        .1
        .get("shelf_bookcase.c")
        .map(|a| a["genre"].clone())
        .unwrap_or_default();
    same(
        "genre of shelf_bookcase.c in ferro's state",
        &serde_json::Value::from("Book: Dune (2)"),
        &genre,
    )?;
    for (i, (t, f)) in tf.0.iter().zip(&fe.0).enumerate() {
        same(&format!("step {} plan actions", i + 1), &t.0, &f.0)?;
        same(&format!("step {} state attributes", i + 1), &t.1, &f.1)?;
        same(&format!("step {} state dependencies", i + 1), &t.2, &f.2)?;
    }
    same("destroy order", &tf.1, &fe.1)
}

pub const SCENARIOS: &[crate::interop::Scenario] =
    &[("provider-from-resource", provider_from_resource)];
