//! `apply PLANFILE` checks the final plan against the saved one as Terraform does: a value read
//! by `file()` that changed since `plan -out` is "Provider produced inconsistent final plan"
//! (naming the address, the provider and the attribute), for a create and for an update, and
//! the rest of the plan is applied.

mod cli_support;

use cli_support::{ferro, scratch};

/// Runs the built binary in `dir` (file functions read relative to the process directory).
#[test]
fn a_value_changed_since_plan_is_an_inconsistent_final_plan() {
    let dir = scratch("final-plan");
    let w = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    w(
        "main.tf",
        "resource \"terraform_data\" \"updated\" {\n  input = file(\"updated.txt\")\n}\n",
    );
    w("updated.txt", "first");
    let (code, _, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");

    w(
        "main.tf",
        r#"
resource "terraform_data" "created" {
  input = file("created.txt")
}

resource "terraform_data" "updated" {
  input = file("updated.txt")
}

resource "terraform_data" "steady" {
  input = "same"
}
"#,
    );
    w("created.txt", "planned");
    w("updated.txt", "second");
    let (code, out, err) = ferro(&dir, &["plan", "-no-color", "-out=tfplan"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Plan: 2 to add, 1 to change, 0 to destroy."),
        "{out}"
    );

    w("created.txt", "changed since");
    w("updated.txt", "changed again");
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "tfplan"]);
    assert_eq!(code, 1, "{out}\n{err}");
    for (addr, was, now) in [
        ("terraform_data.created", "planned", "changed since"),
        ("terraform_data.updated", "second", "changed again"),
    ] {
        let expected = format!(
            "When expanding the plan for {addr} to include new values learned so far during apply, provider \"terraform.io/builtin/terraform\" produced an invalid new value for .input: was cty.StringVal(\"{was}\"), but now cty.StringVal(\"{now}\")."
        );
        assert!(err.contains(&expected), "missing {expected:?} in:\n{err}");
    }
    assert_eq!(
        err.matches("Provider produced inconsistent final plan")
            .count(),
        2,
        "{err}"
    );
    assert!(
        out.contains("terraform_data.steady: Creation complete"),
        "{out}"
    );

    // Nothing inconsistent was applied: the state still has the old object and the new one.
    let (_, list, _) = ferro(&dir, &["state", "list"]);
    assert_eq!(list, "terraform_data.steady\nterraform_data.updated\n");
    let state = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    assert!(state.contains("\"first\""), "{state}");
    assert!(!state.contains("changed"), "{state}");
    let _ = std::fs::remove_dir_all(&dir);
}
