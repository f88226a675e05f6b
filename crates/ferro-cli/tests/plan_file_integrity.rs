//! A saved plan file carries a checksum of its whole content: any byte changed after
//! `plan -out` (a value edited so the JSON still reads, a damaged byte, a cut-off file, bytes
//! added after it) makes `apply` and `show` refuse the file with Terraform's "Failed to load
//! ... as a plan file", and the state is left exactly as it was.

mod cli_support;

use cli_support::{ferro, scratch};

const CONFIG: &str = r#"
resource "terraform_data" "a" {
  input = "approved-value"
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}
"#;

#[test]
fn a_plan_file_changed_after_it_was_saved_is_refused() {
    let dir = scratch("plan-integrity");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    // A first apply so there is a state to keep untouched.
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"a\" {\n  input = \"first\"\n}\n",
    )
    .unwrap();
    let (code, _, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    let (code, _, err) = ferro(&dir, &["plan", "-no-color", "-out=tfplan"]);
    assert_eq!(code, 0, "{err}");
    let saved = std::fs::read(dir.join("tfplan")).unwrap();
    let state_before = std::fs::read(dir.join("terraform.tfstate")).unwrap();

    let at = find(&saved, b"approved-value");
    let mut damaged: Vec<(&str, Vec<u8>)> = Vec::new();
    // An edit that keeps the JSON valid: only the checksum can tell.
    let mut edited = saved.clone();
    edited[at] = b'A';
    damaged.push(("a value edited", edited));
    // An edit of the prior state, which follows the plan in the file.
    let mut prior = saved.clone();
    prior[rfind(&saved, b"\"first\"") + 1] = b'F';
    damaged.push(("the prior state edited", prior));
    // One bit flipped in the middle of the file.
    let mut flipped = saved.clone();
    flipped[saved.len() / 2] ^= 0x01;
    damaged.push(("a flipped bit", flipped));
    // A file cut off before its end, and one with bytes added after it.
    damaged.push(("a truncated file", saved[..saved.len() - 10].to_vec()));
    let mut longer = saved.clone();
    longer.extend_from_slice(b"more\n");
    damaged.push(("bytes appended", longer));
    // The checksum line itself changed.
    let mut trailer = saved.clone();
    let last = trailer.len() - 2;
    trailer[last] = if trailer[last] == b'0' { b'1' } else { b'0' };
    damaged.push(("the checksum changed", trailer));

    for (what, bytes) in &damaged {
        std::fs::write(dir.join("tfplan"), bytes).unwrap();
        let (code, out, err) = ferro(&dir, &["apply", "-no-color", "tfplan"]);
        assert_eq!(code, 1, "{what}: apply succeeded\n{out}\n{err}");
        assert!(
            err.contains("Failed to load \"tfplan\" as a plan file"),
            "{what}: {err}"
        );
        assert!(!out.contains("Creation complete"), "{what}: {out}");
        assert_eq!(
            std::fs::read(dir.join("terraform.tfstate")).unwrap(),
            state_before,
            "{what}: the state changed"
        );
        let (code, _, err) = ferro(&dir, &["show", "-json", "tfplan"]);
        assert_eq!(code, 1, "{what}: show read the file\n{err}");
    }

    // The file as saved still applies.
    std::fs::write(dir.join("tfplan"), &saved).unwrap();
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "tfplan"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("Apply complete! Resources: 1 added, 1 changed, 0 destroyed."),
        "{out}"
    );
}

fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("the value is in the plan file")
}

fn rfind(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .rposition(|w| w == needle)
        .expect("the value is in the plan file")
}
