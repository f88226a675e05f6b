//! A resource body that every instance evaluates alike is evaluated once per resource and its
//! value shared, while planning and while applying. What users see must not change: a body
//! calling something impure still gives each instance its own value, a body reading another
//! resource's values at apply time reads them once they are final, and a body naming
//! `count.index` still differs per instance.

mod cli_support;

use cli_support::{ferro, scratch};
use std::path::Path;

fn output(dir: &Path, name: &str) -> serde_json::Value {
    let (code, out, err) = ferro(dir, &["output", "-json", name]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

const CONFIG: &str = r#"
resource "terraform_data" "up" {
  count = 4
  input = "up-${count.index}"
}

# Known only at apply (the ids of `up`), the same for every instance.
resource "terraform_data" "joined" {
  count = 3
  input = join(",", terraform_data.up[*].id)
}

# Impure: each instance draws its own.
resource "terraform_data" "random" {
  count = 3
  input = uuid()
}

resource "terraform_data" "indexed" {
  count = 3
  input = "i-${count.index}"
}

output "up_ids" {
  value = terraform_data.up[*].id
}

output "joined" {
  value = terraform_data.joined[*].output
}

output "random" {
  value = terraform_data.random[*].output
}

output "indexed" {
  value = terraform_data.indexed[*].output
}
"#;

#[test]
fn instances_sharing_a_body_see_the_values_each_would_have_alone() {
    let dir = scratch("shared-config");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("13 added"), "{out}");

    let ids: Vec<String> = output(&dir, "up_ids")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 4);
    let expected = ids.join(",");
    let joined = output(&dir, "joined");
    assert_eq!(
        joined,
        serde_json::json!([expected, expected, expected]),
        "every instance joined the final ids of `up`"
    );

    let random = output(&dir, "random");
    let random: Vec<&str> = random
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(random.len(), 3);
    assert!(
        random[0] != random[1] && random[1] != random[2] && random[0] != random[2],
        "uuid() is called once per instance: {random:?}"
    );

    assert_eq!(
        output(&dir, "indexed"),
        serde_json::json!(["i-0", "i-1", "i-2"])
    );

    // Nothing left to do: the shared values are what state holds.
    let (code, out, err) = ferro(&dir, &["plan", "-no-color", "-detailed-exitcode"]);
    assert_eq!(
        code, 2,
        "uuid() is planned again, as Terraform plans it:\n{out}\n{err}"
    );
    assert!(
        out.contains("Plan: 0 to add, 3 to change, 0 to destroy."),
        "only the impure instances change:\n{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
