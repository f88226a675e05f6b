//! Crash safety when files cannot grow: with a file size limit (RLIMIT_FSIZE, set with the
//! shell's `ulimit -f`, SIGXFSZ ignored so writes fail with EFBIG) too small for the journal an
//! apply must record, the apply is refused before any change is made: the space for the
//! journal is reserved before the first provider call. The old state file stays
//! byte-identical, nothing is created, and once the limit is gone the apply converges. (The
//! disk filling up part-way through an apply is `disk_full_journal.rs`.)

use std::path::{Path, PathBuf};
use std::process::Command;

const FERRO: &str = env!("CARGO_BIN_EXE_ferro");

struct TempDir(PathBuf);
impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!(
            "ferro-full-{tag}-{}-{}",
            std::process::id(),
            ferro_state::new_lineage()
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn config(dir: &Path, count: usize) {
    std::fs::write(
        dir.join("main.tf"),
        format!(
            "resource \"terraform_data\" \"a\" {{\n  count = {count}\n  input = count.index\n}}\n"
        ),
    )
    .unwrap();
}

/// Run ferro in `dir`, with files limited to `limit_kb` KiB when given.
fn ferro(dir: &Path, limit_kb: Option<u64>, args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new("bash");
    let script = match limit_kb {
        Some(kb) => format!("trap '' XFSZ; ulimit -f {kb}; exec \"$0\" \"$@\""),
        None => "exec \"$0\" \"$@\"".to_string(),
    };
    cmd.arg("-c")
        .arg(script)
        .arg(FERRO)
        .args(args)
        .current_dir(dir);
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn an_apply_that_cannot_reserve_its_journal_changes_nothing() {
    let d = TempDir::new("efbig");
    config(&d.0, 50);
    let (code, _, err) = ferro(&d.0, None, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read(d.0.join("terraform.tfstate")).unwrap();

    // 350 more instances; no file can grow past the state's size and ~2 KiB.
    config(&d.0, 400);
    let limit = before.len() as u64 / 1024 + 2;
    let (code, out, err) = ferro(&d.0, Some(limit), &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(code, 1, "the apply must not start:\n{out}\n{err}");
    assert!(
        err.contains("Failed to reserve space for the state journal"),
        "{err}"
    );
    assert!(err.contains("Nothing was changed"), "{err}");
    assert!(!out.contains("Creating..."), "{out}");
    assert_eq!(
        std::fs::read(d.0.join("terraform.tfstate")).unwrap(),
        before,
        "the state file is left as it was"
    );
    assert!(
        !ferro_state::journal_path(&d.0.join("terraform.tfstate")).exists(),
        "the journal that could not be reserved is gone"
    );

    // Without the limit the same apply runs and converges.
    let (code, out, err) = ferro(&d.0, None, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Resources: 350 added"), "{out}");
    let (code, out, _) = ferro(&d.0, None, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(code, 0);
    assert!(out.contains("No changes."), "{out}");
}
