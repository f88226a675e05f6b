//! Apply evaluates a module instance's outputs as soon as every step in it (and in the
//! instances it calls) is over, keeps them, and lets go of what they were built from. What
//! users see must not change: outputs that collect values up a tree of modules, an output
//! that reads its parent's resource through a variable (not known until that resource is
//! applied), module instances with nothing to do in a later apply, a module with a `check`
//! block, and module outputs read by the parent's resources, all have the values a lazy
//! evaluation at the end would give. Debug builds (these tests) also fail on any read of a
//! released value.

mod cli_support;

use cli_support::{ferro, scratch};
use serde_json::{json, Value};
use std::path::Path;

const MAIN: &str = r#"
variable "tag" {
  type    = string
  default = "one"
}

module "group" {
  source = "./group"
  count  = 2
  name   = "g${count.index}"
  tag    = var.tag
}

resource "terraform_data" "upstream" {
  input = "up-${var.tag}-${length(module.relay.first)}"
}

# Its output `echo` reads a resource of this module applied after the relay's own resource
# (which `first` gives): not known when the relay's steps are over.
module "relay" {
  source   = "./relay"
  upstream = terraform_data.upstream.output
}

module "tail" {
  source   = "./tail"
  upstream = terraform_data.upstream.output
}

# Reads a module output while it is applied itself.
resource "terraform_data" "summary" {
  input = length(flatten(module.group[*].ids))
}

output "ids" {
  value = flatten(module.group[*].ids)
}

output "names" {
  value = module.group[*].names
}

output "tail" {
  value = module.tail.echo
}

output "checked" {
  value = module.tail.checked
}

output "relay" {
  value = module.relay.echo
}

output "summary" {
  value = terraform_data.summary.output
}
"#;

const GROUP: &str = r#"
variable "name" {
  type = string
}

variable "tag" {
  type = string
}

module "leaf" {
  source   = "../leaf"
  for_each = toset(["a", "b"])
  prefix   = "${var.name}-${each.key}"
  tag      = var.name == "g1" && each.key == "b" ? var.tag : "fixed"
}

output "ids" {
  value = flatten([for k, l in module.leaf : l.ids])
}

output "names" {
  value = { for k, l in module.leaf : k => l.names }
}
"#;

const LEAF: &str = r#"
variable "prefix" {
  type = string
}

variable "tag" {
  type = string
}

resource "terraform_data" "r" {
  count = 2
  input = "${var.prefix}-${count.index}-${var.tag}"
}

output "ids" {
  value = terraform_data.r[*].id
}

output "names" {
  value = terraform_data.r[*].output
}
"#;

const TAIL: &str = r#"
variable "upstream" {
  type = string
}

resource "terraform_data" "t" {
  input = "tail"
}

check "tail_made" {
  assert {
    condition     = terraform_data.t.output == "tail"
    error_message = "The tail was not read."
  }
}

output "echo" {
  value = "${var.upstream}/${terraform_data.t.output}"
}

output "checked" {
  value = terraform_data.t.id
}
"#;

const RELAY: &str = r#"
variable "upstream" {
  type = string
}

resource "terraform_data" "x" {
  input = "relay"
}

output "first" {
  value = terraform_data.x.id
}

output "echo" {
  value = "${var.upstream}/${terraform_data.x.output}"
}
"#;

fn outputs(dir: &Path) -> Value {
    let (code, out, err) = ferro(dir, &["output", "-json"]);
    assert_eq!(code, 0, "{err}");
    let all: Value = serde_json::from_str(&out).unwrap();
    let mut values = serde_json::Map::new();
    for (k, v) in all.as_object().unwrap() {
        values.insert(k.clone(), v["value"].clone());
    }
    Value::Object(values)
}

/// The ids and outputs of every `terraform_data.r` instance in state, in the order the
/// root output lists them (group by index, leaf by key, instance by index).
fn leaf_objects(dir: &Path) -> Vec<(String, String)> {
    let state: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap())
            .unwrap();
    let mut found = Vec::new();
    for g in 0..2 {
        for k in ["a", "b"] {
            let module = format!("module.group[{g}].module.leaf[\"{k}\"]");
            let r = state["resources"]
                .as_array()
                .unwrap()
                .iter()
                .find(|r| r["module"] == module.as_str() && r["name"] == "r")
                .unwrap_or_else(|| panic!("{module} is in state"));
            for inst in r["instances"].as_array().unwrap() {
                let a = &inst["attributes"];
                found.push((
                    a["id"].as_str().unwrap().to_string(),
                    a["output"]["value"].as_str().unwrap().to_string(),
                ));
            }
        }
    }
    found
}

fn expect_outputs(dir: &Path, tag: &str) {
    let objects = leaf_objects(dir);
    assert_eq!(objects.len(), 8);
    let out = outputs(dir);
    let ids: Vec<Value> = objects.iter().map(|(id, _)| json!(id)).collect();
    assert_eq!(out["ids"], Value::Array(ids));
    let names = |g: usize| {
        let of = |k: usize| {
            json!(objects[g * 4 + k * 2..g * 4 + k * 2 + 2]
                .iter()
                .map(|(_, n)| n.clone())
                .collect::<Vec<_>>())
        };
        json!({ "a": of(0), "b": of(1) })
    };
    assert_eq!(out["names"], json!([names(0), names(1)]));
    assert_eq!(objects[7].1, format!("g1-b-1-{tag}"));
    assert_eq!(objects[0].1, "g0-a-0-fixed");
    let up = format!("up-{tag}-36");
    assert_eq!(out["tail"], json!(format!("{up}/tail")));
    assert_eq!(out["relay"], json!(format!("{up}/relay")));
    assert!(
        out["checked"].as_str().is_some_and(|s| !s.is_empty()),
        "{out}"
    );
    assert_eq!(out["summary"], json!(8));
}

#[test]
fn module_outputs_settled_during_apply_have_their_final_values() {
    let dir = scratch("settled-modules");
    std::fs::write(dir.join("main.tf"), MAIN).unwrap();
    for (sub, text) in [
        ("group", GROUP),
        ("leaf", LEAF),
        ("tail", TAIL),
        ("relay", RELAY),
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::write(dir.join(sub).join("main.tf"), text).unwrap();
    }
    let (code, out, err) = ferro(&dir, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");

    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("12 added"), "{out}");
    assert!(!out.contains("was not read") && !err.contains("was not read"));
    expect_outputs(&dir, "one");

    // One leaf instance changes; the other module instances have nothing to do (they are
    // settled before the first step), and the outputs collecting them are evaluated again.
    let (code, out, err) = ferro(
        &dir,
        &["apply", "-no-color", "-auto-approve", "-var", "tag=two"],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("0 added, 3 changed, 0 destroyed"), "{out}");
    assert!(!out.contains("was not read") && !err.contains("was not read"));
    expect_outputs(&dir, "two");

    // A saved plan applies the same way.
    let (code, out, err) = ferro(
        &dir,
        &["plan", "-no-color", "-var", "tag=three", "-out", "p.plan"],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "p.plan"]);
    assert_eq!(code, 0, "{out}\n{err}");
    expect_outputs(&dir, "three");

    let (code, out, err) = ferro(&dir, &["plan", "-no-color", "-var", "tag=three"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("No changes."), "{out}");
}
