//! `show -json` of a plan: a data source the plan reads again during apply (its configuration
//! depends on a change) is left out of `prior_state`, as Terraform 1.0 leaves it out (it holds
//! only a planned object until apply); one read while planning stays.

mod cli_support;

use cli_support::{ferro, scratch};
use std::path::Path;

fn config(input: &str) -> String {
    format!(
        r#"
resource "terraform_data" "src" {{
  input = "{input}"
}}

data "terraform_remote_state" "later" {{
  backend  = "local"
  config   = {{ path = "other.tfstate" }}
  defaults = {{ v = terraform_data.src.output }}
}}

data "terraform_remote_state" "now" {{
  backend  = "local"
  config   = {{ path = "other.tfstate" }}
  defaults = {{ v = "fixed" }}
}}
"#
    )
}

fn prior_addresses(dir: &Path) -> Vec<String> {
    let (code, out, err) = ferro(dir, &["show", "-json", "tfplan"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    v["prior_state"]["values"]["root_module"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["address"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_data_source_read_during_apply_is_not_in_the_prior_state() {
    let dir = scratch("deferred-read");
    std::fs::write(
        dir.join("other.tfstate"),
        r#"{"version":4,"terraform_version":"1.0.3","serial":1,"lineage":"other","outputs":{"v":{"value":"o","type":"string"}},"resources":[]}"#,
    )
    .unwrap();
    std::fs::write(dir.join("main.tf"), config("one")).unwrap();
    let (code, out, err) = ferro(&dir, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");

    // Nothing changes: both reads happen while planning and stay in the prior state.
    let (code, _, err) = ferro(&dir, &["plan", "-out=tfplan", "-no-color"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        prior_addresses(&dir),
        [
            "data.terraform_remote_state.later",
            "data.terraform_remote_state.now",
            "terraform_data.src"
        ]
    );

    // `src` changes, so `later` is read during apply.
    std::fs::write(dir.join("main.tf"), config("two")).unwrap();
    let (code, out, err) = ferro(&dir, &["plan", "-out=tfplan", "-no-color"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("data.terraform_remote_state.later will be read during apply"),
        "{out}"
    );
    assert_eq!(
        prior_addresses(&dir),
        ["data.terraform_remote_state.now", "terraform_data.src"]
    );
    let _ = std::fs::remove_dir_all(&dir);
}
