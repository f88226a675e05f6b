//! `state mv` makes every object that recorded a dependency on what moved forget all of its
//! dependencies (the next apply records them afresh), as Terraform 1.0.3's does. Checked by
//! hand against Terraform 1.0.3: moving `null_resource.u` clears the list of the resource that
//! depends on it and leaves the others; moving `module.a` clears those that depend on anything
//! in it; moving `module.k[0]` clears nothing (dependencies carry no instance keys, and a keyed
//! module matches none of them); moving a resource inside `module.k[1]` clears those that
//! depend on that resource.

mod cli_support;

use cli_support::{ferro, scratch};
use std::collections::BTreeMap;
use std::path::Path;

const MAIN: &str = r#"
resource "terraform_data" "a" {}
resource "terraform_data" "u" {}

resource "terraform_data" "b" {
  input = terraform_data.a.id
}

resource "terraform_data" "c" {
  depends_on = [terraform_data.u]
}

module "m" {
  source = "./m"
}

module "k" {
  source = "./m"
  count  = 2
}

resource "terraform_data" "on_m" {
  input = module.m.id
}

resource "terraform_data" "on_k" {
  input = module.k[1].id
}
"#;

const CHILD: &str = r#"
resource "terraform_data" "in" {}

output "id" {
  value = terraform_data.in.id
}
"#;

/// Each root resource's recorded dependencies, by name.
fn dependencies(dir: &Path) -> BTreeMap<String, Vec<String>> {
    let state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap())
            .unwrap();
    let mut out = BTreeMap::new();
    for r in state["resources"].as_array().unwrap() {
        if r.get("module").is_some() {
            continue;
        }
        let deps = r["instances"][0]["dependencies"]
            .as_array()
            .map(|a| a.iter().map(|d| d.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        out.insert(r["name"].as_str().unwrap().to_string(), deps);
    }
    out
}

fn mv(dir: &Path, from: &str, to: &str) {
    let (code, out, err) = ferro(dir, &["state", "mv", from, to]);
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn state_mv_forgets_the_dependencies_on_what_moved() {
    let dir = scratch("state-mv-deps");
    std::fs::write(dir.join("main.tf"), MAIN).unwrap();
    std::fs::create_dir_all(dir.join("m")).unwrap();
    std::fs::write(dir.join("m/main.tf"), CHILD).unwrap();
    let (code, out, err) = ferro(&dir, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let before = dependencies(&dir);
    assert_eq!(before["b"], ["terraform_data.a"]);
    assert_eq!(before["c"], ["terraform_data.u"]);
    assert_eq!(before["on_m"], ["module.m.terraform_data.in"]);
    assert_eq!(before["on_k"], ["module.k.terraform_data.in"]);

    mv(&dir, "terraform_data.u", "terraform_data.u2");
    let now = dependencies(&dir);
    assert!(now["c"].is_empty(), "{now:?}");
    assert_eq!(now["b"], before["b"]);
    assert_eq!(now["on_m"], before["on_m"]);

    mv(&dir, "module.m", "module.m2");
    let now = dependencies(&dir);
    assert!(now["on_m"].is_empty(), "{now:?}");
    assert_eq!(now["b"], before["b"]);
    assert_eq!(now["on_k"], before["on_k"]);

    mv(&dir, "module.k[0]", "module.k[5]");
    assert_eq!(dependencies(&dir)["on_k"], before["on_k"]);

    mv(
        &dir,
        "module.k[1].terraform_data.in",
        "module.k[1].terraform_data.in2",
    );
    let now = dependencies(&dir);
    assert!(now["on_k"].is_empty(), "{now:?}");
    assert_eq!(now["b"], before["b"]);
}
