//! `plan -json`, `apply -json`, `refresh -json` and `destroy -json`: Terraform 1.0's
//! machine-readable UI, one JSON message per line (`version`, `planned_change`,
//! `change_summary`, `apply_start`, `apply_complete`, `outputs`, `diagnostic`), which tools
//! that drive Terraform parse.

mod cli_support;

use cli_support::scratch;
use serde_json::Value;
use std::path::Path;

/// Exit code and the messages printed (every stdout line must be a JSON object).
fn ferro_json(dir: &Path, args: &[&str]) -> (i32, Vec<Value>, String) {
    let (code, stdout, stderr) = cli_support::ferro(dir, args);
    let msgs = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}")))
        .collect();
    (code, msgs, stderr)
}

fn types(msgs: &[Value]) -> Vec<&str> {
    msgs.iter().map(|m| m["type"].as_str().unwrap()).collect()
}

#[test]
fn plan_apply_and_destroy_speak_terraforms_machine_readable_ui() {
    let dir = scratch("json-ui");
    std::fs::write(
        dir.join("main.tf"),
        r#"
resource "terraform_data" "r" {
  count = 2
  input = "v${count.index}"
}

output "first" {
  value = terraform_data.r[0].output
}
"#,
    )
    .unwrap();

    let (code, msgs, err) = ferro_json(&dir, &["plan", "-json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        types(&msgs),
        [
            "version",
            "planned_change",
            "planned_change",
            "change_summary"
        ]
    );
    let v = &msgs[0];
    assert_eq!(v["terraform"], "1.0.3");
    assert_eq!(v["ui"], "0.1.0");
    assert_eq!(v["@module"], "terraform.ui");
    assert!(v["@timestamp"].as_str().unwrap().ends_with('Z'));
    let change = &msgs[1]["change"];
    assert_eq!(change["action"], "create");
    assert_eq!(change["resource"]["addr"], "terraform_data.r[0]");
    assert_eq!(change["resource"]["resource_key"], 0);
    assert_eq!(change["resource"]["resource_type"], "terraform_data");
    assert_eq!(msgs[1]["@message"], "terraform_data.r[0]: Plan to create");
    assert_eq!(
        msgs[3]["changes"],
        serde_json::json!({"add": 2, "change": 0, "remove": 0, "operation": "plan"})
    );

    // No prompt with -json: a plan file or -auto-approve.
    let (code, msgs, _) = ferro_json(&dir, &["apply", "-json"]);
    assert_eq!(code, 1);
    assert_eq!(types(&msgs), ["version", "diagnostic"]);
    assert_eq!(
        msgs[1]["diagnostic"]["summary"],
        "Plan file or auto-approve required"
    );

    let (code, msgs, err) = ferro_json(&dir, &["apply", "-json", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");
    let t = types(&msgs);
    assert_eq!(
        t.iter().filter(|t| **t == "apply_start").count(),
        2,
        "{t:?}"
    );
    assert_eq!(
        t.iter().filter(|t| **t == "apply_complete").count(),
        2,
        "{t:?}"
    );
    assert_eq!(&t[t.len() - 2..], ["change_summary", "outputs"]);
    let done = msgs.iter().find(|m| m["type"] == "apply_complete").unwrap();
    assert_eq!(done["hook"]["action"], "create");
    assert_eq!(done["hook"]["id_key"], "id");
    assert!(done["hook"]["id_value"].is_string());
    let summary = &msgs[msgs.len() - 2];
    assert_eq!(
        summary["@message"],
        "Apply complete! Resources: 2 added, 0 changed, 0 destroyed."
    );
    assert_eq!(summary["changes"]["operation"], "apply");
    assert_eq!(msgs[msgs.len() - 1]["outputs"]["first"]["value"], "v0");

    let (code, msgs, err) = ferro_json(&dir, &["refresh", "-json"]);
    assert_eq!(code, 0, "{err}");
    // Each object refreshed is told of, as Terraform's hooks tell of it.
    assert_eq!(
        types(&msgs),
        [
            "version",
            "refresh_start",
            "refresh_complete",
            "refresh_start",
            "refresh_complete",
            "outputs"
        ]
    );
    let start = &msgs[1];
    assert_eq!(start["hook"]["resource"]["addr"], "terraform_data.r[0]");
    assert_eq!(start["hook"]["id_key"], "id");
    let id = start["hook"]["id_value"].as_str().unwrap();
    assert_eq!(
        start["@message"],
        format!("terraform_data.r[0]: Refreshing state... [id={id}]")
    );
    assert_eq!(
        msgs[2]["@message"],
        format!("terraform_data.r[0]: Refresh complete [id={id}]")
    );
    assert_eq!(msgs[5]["outputs"]["first"]["value"], "v0");

    let (code, msgs, err) = ferro_json(&dir, &["destroy", "-json", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");
    let last = msgs.last().unwrap();
    assert_eq!(
        last["@message"],
        "Destroy complete! Resources: 2 destroyed."
    );
    assert_eq!(last["changes"]["operation"], "destroy");

    // Errors are diagnostic messages, with where they point.
    std::fs::write(
        dir.join("bad.tf"),
        "resource \"terraform_data\" \"b\" {\n  input = nosuch\n}\n",
    )
    .unwrap();
    let (code, msgs, _) = ferro_json(&dir, &["plan", "-json"]);
    assert_eq!(code, 1);
    let d = msgs.iter().find(|m| m["type"] == "diagnostic").unwrap();
    assert_eq!(d["@level"], "error");
    assert_eq!(d["diagnostic"]["range"]["filename"], "bad.tf");
    assert_eq!(d["diagnostic"]["range"]["start"]["line"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn provisioners_and_failed_steps_are_hook_messages() {
    let dir = scratch("json-ui-provisioners");
    std::fs::write(
        dir.join("main.tf"),
        r#"
resource "terraform_data" "ok" {
  provisioner "local-exec" {
    command = "echo fine"
  }
}

resource "terraform_data" "bad" {
  provisioner "local-exec" {
    command = "echo failing; exit 3"
  }
}
"#,
    )
    .unwrap();
    let (code, msgs, _) = ferro_json(&dir, &["apply", "-json", "-auto-approve"]);
    assert_eq!(code, 1);
    let of = |kind: &str, addr: &str| -> Vec<&Value> {
        msgs.iter()
            .filter(|m| m["type"] == kind && m["hook"]["resource"]["addr"] == addr)
            .collect()
    };
    let start = of("provision_start", "terraform_data.ok");
    assert_eq!(start.len(), 1, "{msgs:?}");
    assert_eq!(start[0]["hook"]["provisioner"], "local-exec");
    assert_eq!(
        start[0]["@message"],
        "terraform_data.ok: Provisioning with 'local-exec'..."
    );
    let progress = of("provision_progress", "terraform_data.ok");
    assert!(
        progress.iter().any(|m| m["hook"]["output"] == "fine"
            && m["@message"] == "terraform_data.ok: (local-exec): fine"),
        "{progress:?}"
    );
    assert_eq!(of("provision_complete", "terraform_data.ok").len(), 1);
    assert_eq!(of("apply_complete", "terraform_data.ok").len(), 1);

    assert_eq!(of("provision_errored", "terraform_data.bad").len(), 1);
    let errored = of("apply_errored", "terraform_data.bad");
    assert_eq!(errored.len(), 1, "{msgs:?}");
    assert_eq!(errored[0]["hook"]["action"], "create");
    assert!(errored[0]["@message"]
        .as_str()
        .unwrap()
        .starts_with("terraform_data.bad: Creation errored after "));
    assert!(msgs.iter().any(|m| m["type"] == "diagnostic"
        && m["diagnostic"]["summary"] == "local-exec provisioner error"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A replacement's `planned_change` says why, as Terraform's does: `tainted` for a tainted
/// object, `requested` for `-replace`; other changes carry no reason.
#[test]
fn planned_replacements_give_their_reason() {
    let dir = scratch("json-ui-reasons");
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"r\" {\n  count = 3\n  input = count.index\n}\n",
    )
    .unwrap();
    let (code, _, err) = cli_support::ferro(&dir, &["apply", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = cli_support::ferro(&dir, &["taint", "terraform_data.r[0]"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"r\" {\n  count = 4\n  input = count.index\n}\n",
    )
    .unwrap();
    let (code, msgs, err) = ferro_json(&dir, &["plan", "-json", "-replace=terraform_data.r[1]"]);
    assert_eq!(code, 0, "{err}");
    let reasons: Vec<(&str, &str, Option<&str>)> = msgs
        .iter()
        .filter(|m| m["type"] == "planned_change")
        .map(|m| {
            let c = &m["change"];
            (
                c["resource"]["addr"].as_str().unwrap(),
                c["action"].as_str().unwrap(),
                c.get("reason").map(|r| r.as_str().unwrap()),
            )
        })
        .collect();
    assert_eq!(
        reasons,
        [
            ("terraform_data.r[0]", "replace", Some("tainted")),
            ("terraform_data.r[1]", "replace", Some("requested")),
            ("terraform_data.r[3]", "create", None),
        ]
    );
}

/// A data resource read during apply is "Refreshing" in Terraform 1.0.3's JSON view (checked
/// by hand against it with `null_data_source`), though its human view says "Reading".
#[test]
fn a_data_resource_read_during_apply_is_refreshing_in_json() {
    let dir = scratch("json-ui-read");
    std::fs::write(dir.join("other.tfstate"), r#"{"version":4,"terraform_version":"1.0.3","serial":1,"lineage":"11111111-2222-3333-4444-555555555555","outputs":{"g":{"value":"hello","type":"string"}},"resources":[]}"#).unwrap();
    std::fs::write(
        dir.join("main.tf"),
        r#"
resource "terraform_data" "a" {
  input = "a"
}

data "terraform_remote_state" "src" {
  backend    = "local"
  config     = { path = "other.tfstate" }
  depends_on = [terraform_data.a]
}
"#,
    )
    .unwrap();
    let (code, msgs, err) = ferro_json(&dir, &["apply", "-json", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");
    let read = |ty: &str| {
        msgs.iter()
            .find(|m| m["type"] == ty && m["hook"]["action"] == "read")
            .unwrap_or_else(|| panic!("no {ty} of a read: {msgs:?}"))["@message"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(
        read("apply_start"),
        "data.terraform_remote_state.src: Refreshing..."
    );
    assert!(
        read("apply_complete")
            .starts_with("data.terraform_remote_state.src: Refresh complete after 0s"),
        "{}",
        read("apply_complete")
    );
}
