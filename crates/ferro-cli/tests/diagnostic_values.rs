//! An error in evaluating an expression shows the values the expression refers to, as
//! Terraform 1.0.3 does under the source and in the JSON diagnostic's `snippet.values`. The
//! expected statements are Terraform's for the same configuration (checked by hand).

mod cli_support;

use cli_support::{ferro, scratch};
use std::path::Path;

const VARS: &str = r#"
variable "z" { default = "zz" }
variable "a" { default = 12345678901.5 }
variable "o" { default = { k = "v" } }
variable "m" {
  type    = map(string)
  default = {}
}
variable "n" {
  type    = string
  default = null
}
resource "terraform_data" "r" {}
"#;

/// The values of each diagnostic of `plan -json` with `output` added to the configuration.
fn values(dir: &Path, output: &str) -> Vec<Vec<(String, String)>> {
    std::fs::write(dir.join("main.tf"), format!("{VARS}{output}\n")).unwrap();
    let (code, out, err) = ferro(dir, &["plan", "-json"]);
    assert_eq!(code, 1, "{out}\n{err}");
    out.lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|m| m["type"] == "diagnostic")
        .map(|m| {
            m["diagnostic"]["snippet"]["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| {
                    (
                        v["traversal"].as_str().unwrap().to_string(),
                        v["statement"].as_str().unwrap().to_string(),
                    )
                })
                .collect()
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<Vec<(String, String)>> {
    vec![list
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()]
}

#[test]
fn errors_show_the_values_their_expression_refers_to() {
    let dir = scratch("diagnostic-values");
    assert_eq!(
        values(&dir, r#"output "o" { value = "${var.z} ${var.a}" + 1 }"#),
        pairs(&[("var.a", "is 1.23456789e+10"), ("var.z", "is \"zz\"")])
    );
    assert_eq!(
        values(&dir, r#"output "o" { value = var.a + "x${var.z}" }"#),
        pairs(&[("var.z", "is \"zz\"")])
    );
    assert_eq!(
        values(&dir, r#"output "o" { value = var.m["x"] }"#),
        pairs(&[("var.m", "is empty map of string")])
    );
    assert_eq!(
        values(&dir, r#"output "o" { value = upper(var.n) }"#),
        pairs(&[("var.n", "is null")])
    );
    assert_eq!(
        values(&dir, r#"output "o" { value = var.o.k.x }"#),
        pairs(&[("var.o.k", "is \"v\"")])
    );
    assert_eq!(
        values(
            &dir,
            r#"output "o" { value = terraform_data.r.id + var.o }"#
        ),
        pairs(&[("var.o", "is object with 1 attribute \"k\"")])
    );
    // Checked before planning, when variables are not known yet.
    assert_eq!(
        values(&dir, r#"output "o" { value = [var.z, 1.5, true][5] }"#),
        pairs(&[("var.z", "will be known only after apply")])
    );
    // `count` and `for_each` values the planner refuses.
    assert_eq!(
        values(
            &dir,
            "resource \"terraform_data\" \"c\" {\n  count = var.z\n}"
        ),
        pairs(&[("var.z", "is \"zz\"")])
    );
    assert_eq!(
        values(
            &dir,
            "resource \"terraform_data\" \"f\" {\n  for_each = var.n\n}"
        ),
        pairs(&[("var.n", "is null")])
    );
    assert_eq!(
        values(
            &dir,
            "resource \"terraform_data\" \"f\" {\n  for_each = toset([terraform_data.r.id])\n}"
        ),
        pairs(&[("terraform_data.r.id", "is a string, known only after apply")])
    );
    // A `for` variable alone is not shown.
    assert_eq!(
        values(&dir, r#"output "o" { value = [for x in [var.z] : x.y] }"#),
        vec![vec![]]
    );

    // People read them under the source, before the detail.
    std::fs::write(
        dir.join("main.tf"),
        format!("{VARS}output \"o\" {{ value = var.m[\"x\"] }}\n"),
    )
    .unwrap();
    let (code, out, err) = ferro(&dir, &["plan", "-no-color"]);
    assert_eq!(code, 1, "{out}");
    let values_at = err.find("var.m is empty map of string").expect(&err);
    let detail_at = err.find("does not identify an element").expect(&err);
    assert!(values_at < detail_at, "{err}");
}
