//! A journal left by an interrupted apply is folded into the stored state by the very next
//! command that takes the state lock (here `plan`), before it does anything else, and the user
//! is told so in one line: the state file itself then holds every object the killed apply
//! recorded, so Terraform, or any tool reading `terraform.tfstate`, does not create them again.
//! A command run with `-lock=false` takes no lock and leaves the journal alone.

mod cli_support;

use cli_support::{ferro, scratch};
use ferro_addrs::InstanceKey;
use ferro_state::{Change, LocalBackend};
use std::path::Path;

fn config(dir: &Path, count: usize) {
    std::fs::write(
        dir.join("main.tf"),
        format!(
            "resource \"terraform_data\" \"a\" {{\n  count = {count}\n  input = \"same\"\n}}\n"
        ),
    )
    .unwrap();
}

/// The instances of `terraform_data.a` the state file itself holds (read as JSON, so no
/// journal is folded in by the reading).
fn instances_on_disk(dir: &Path) -> usize {
    let text = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    let state: serde_json::Value = serde_json::from_str(&text).unwrap();
    state["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["instances"].as_array().unwrap().len())
        .sum()
}

/// Leaves the journal a killed `apply` leaves after creating `terraform_data.a[1]` and
/// `terraform_data.a[2]` (copies of `a[0]` with their own ids).
fn interrupted_apply(dir: &Path) {
    let backend = LocalBackend::new(dir.join("terraform.tfstate"));
    let state = backend.load().unwrap().expect("a state");
    let (res, rs) = state.resources.iter().next().unwrap();
    let inst = &rs.instances[&InstanceKey::Int(0)];
    let obj = inst.current.as_deref().unwrap().clone();
    let journal = backend.journal(&state.lineage);
    for key in [1, 2] {
        let mut obj = obj.clone();
        let mut attrs = obj.attributes.json();
        attrs["id"] = serde_json::json!(format!("created-by-killed-apply-{key}"));
        obj.attributes = attrs.into();
        journal
            .record(&[Change::SetCurrent {
                res: res.clone(),
                provider: rs.provider.clone(),
                key: InstanceKey::Int(key),
                obj: Some(obj),
            }])
            .unwrap();
    }
    // The process dies here: no full write follows.
}

#[test]
fn the_next_locking_command_folds_the_journal_into_the_state_file() {
    let dir = scratch("journal-folding");
    config(&dir, 1);
    let (code, _, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");
    interrupted_apply(&dir);
    let journal = ferro_state::journal_path(&dir.join("terraform.tfstate"));
    assert!(journal.exists());
    assert_eq!(instances_on_disk(&dir), 1);
    config(&dir, 3);

    // Without the lock nothing is written: the plan sees the journal, the file stays as it was.
    let (code, out, err) = ferro(&dir, &["plan", "-no-color", "-lock=false"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("No changes."), "{out}");
    assert!(!out.contains("Recovered"), "{out}");
    assert_eq!(instances_on_disk(&dir), 1);

    let (code, out, err) = ferro(&dir, &["plan", "-no-color"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().next().unwrap_or(""),
        "Recovered 2 changes recorded by an interrupted apply in .terraform.tfstate.journal and saved them into the state.",
        "{out}"
    );
    assert!(out.contains("No changes."), "{out}");
    assert_eq!(
        instances_on_disk(&dir),
        3,
        "the state file holds the recovered objects"
    );
    assert!(!journal.exists(), "the journal is gone once folded");
    let text = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    assert!(text.contains("created-by-killed-apply-2"), "{text}");

    // Once folded there is nothing to say.
    let (code, out, _) = ferro(&dir, &["plan", "-no-color"]);
    assert_eq!(code, 0);
    assert!(!out.contains("Recovered"), "{out}");
}
