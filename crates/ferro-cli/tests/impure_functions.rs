//! `uuid()`, `timestamp()` and `bcrypt()` are "known after apply" in a plan, as Terraform 1.0
//! plans them (its plan walk evaluates with impure functions made unpredictable), so the
//! value apply draws is the one the final plan accepts. The console still calls them.

mod cli_support;

use cli_support::{ferro_with_input as ferro, scratch};

#[test]
fn impure_functions_are_known_after_apply_in_a_plan() {
    let dir = scratch("impure-functions");
    std::fs::write(
        dir.join("main.tf"),
        r#"
resource "terraform_data" "stamp" {
  input = { at = timestamp(), id = uuid(), pure = upper("x") }
}

output "id" {
  value = uuid()
}
"#,
    )
    .unwrap();
    let (code, out, err) = ferro(&dir, &["plan", "-no-color"], "");
    assert_eq!(code, 0, "{err}");
    for line in [
        "+ at   = (known after apply)",
        "+ id   = (known after apply)",
        "+ pure = \"X\"",
        "+ id = (known after apply)",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }

    // Apply draws the values, and the final plan accepts them.
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"], "");
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("1 added"), "{out}");

    // The console evaluates as apply does: a value, not an unknown.
    let (code, out, err) = ferro(&dir, &["console"], "uuid()\n");
    assert_eq!(code, 0, "{err}");
    let v = out.trim().trim_matches('"');
    assert_eq!(v.len(), 36, "a UUID: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}
