//! Crash safety when the disk fills up during an apply: the file size limit (RLIMIT_FSIZE, set
//! with the shell's `ulimit -f`, SIGXFSZ ignored so writes fail with EFBIG) stops every state
//! write once the state has grown past it. The old state file must stay byte-identical, the run
//! must fail and hand over the complete state (errored.tfstate, or printed when even that cannot
//! be written), and after `state push` of it the next apply must converge.

use std::collections::BTreeSet;
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

fn addrs(state: &ferro_state::State) -> BTreeSet<String> {
    state
        .resources
        .values()
        .flat_map(|rs| {
            rs.instances
                .iter()
                .filter(|(_, i)| i.current.is_some())
                .map(|(k, _)| rs.addr.instance(k.clone()).to_string())
        })
        .collect()
}

/// The state handed over after the failed write: errored.tfstate, or the JSON in the message.
fn rescued(dir: &Path, stderr: &str) -> String {
    if let Ok(text) = std::fs::read_to_string(dir.join("errored.tfstate")) {
        assert!(stderr.contains("errored.tfstate"), "{stderr}");
        return text;
    }
    let start = stderr.find("\n    {\n").unwrap_or_else(|| {
        panic!("the state is neither in errored.tfstate nor printed:\n{stderr}")
    });
    let end = stderr[start..]
        .find("\n    }\n")
        .expect("the end of the printed state")
        + start;
    stderr[start..end + 7].to_string()
}

#[test]
fn a_full_disk_loses_nothing_and_the_next_apply_converges() {
    let d = TempDir::new("efbig");
    config(&d.0, 50);
    let (code, _, err) = ferro(&d.0, None, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");
    let before = std::fs::read(d.0.join("terraform.tfstate")).unwrap();

    // 350 more instances; the state file cannot grow by more than ~2 KiB.
    config(&d.0, 400);
    let limit = before.len() as u64 / 1024 + 2;
    let (code, out, err) = ferro(&d.0, Some(limit), &["-no-color", "apply", "-auto-approve"]);
    assert_ne!(
        code, 0,
        "the apply must fail when the state cannot be written:\n{err}"
    );
    assert!(err.contains("Failed to persist state to backend"), "{err}");
    assert_eq!(
        std::fs::read(d.0.join("terraform.tfstate")).unwrap(),
        before,
        "the state file is left as it was"
    );
    let completed: BTreeSet<String> = out
        .lines()
        .filter_map(|l| {
            l.split_once(": Creation complete")
                .map(|(a, _)| a.to_string())
        })
        .collect();
    assert!(!completed.is_empty(), "{out}");

    // Everything that completed is in the state handed over.
    let text = rescued(&d.0, &err);
    let state = ferro_state::read_state(text.as_bytes()).expect("the rescued state parses");
    let held = addrs(&state);
    let missing: Vec<&String> = completed.difference(&held).collect();
    assert!(missing.is_empty(), "lost: {missing:?}");
    assert!(held.len() >= 50 + completed.len());
    let _ = std::fs::remove_file(d.0.join("errored.tfstate"));

    // Push it back once there is room, and converge.
    std::fs::write(d.0.join("rescued.tfstate"), &text).unwrap();
    let (code, _, err) = ferro(&d.0, None, &["state", "push", "rescued.tfstate"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = ferro(&d.0, None, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(code, 0, "{err}");
    let added = 400 - held.len();
    if added == 0 {
        assert!(out.contains("No changes."), "{out}");
    } else {
        assert!(out.contains(&format!("Resources: {added} added")), "{out}");
    }
    let (code, out, _) = ferro(&d.0, None, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(code, 0);
    assert!(out.contains("No changes."), "{out}");
}
