//! Helpers shared by the CLI tests that run the built `ferro` binary: a scratch directory per
//! test, and one run of ferro in a directory.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// An empty directory for one test (named after it and the test process), removed when the
/// test is over unless it failed (then it is kept to look into).
pub fn scratch(name: &str) -> Scratch {
    let d = std::env::temp_dir().join(format!("ferro-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Scratch(d)
}

/// A test's scratch directory (see [`scratch`]).
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Run the built binary in `dir` (file functions read relative to the process directory):
/// exit code, standard output, standard error.
pub fn ferro(dir: &Path, args: &[&str]) -> (i32, String, String) {
    ferro_with_input(dir, args, "")
}

/// As [`ferro`], with `stdin` as standard input.
pub fn ferro_with_input(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ferro");
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The environment `tools/fetch-oracles.sh` prints (`TERRAFORM`, `TF_CLI_CONFIG_FILE` with a
/// filesystem mirror of the real `hashicorp/null` 2.1.2, ...), fetching what is missing.
pub fn oracle_env() -> Vec<(String, String)> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/fetch-oracles.sh");
    let out = Command::new("bash")
        .arg(&script)
        .output()
        .expect("run tools/fetch-oracles.sh");
    assert!(
        out.status.success(),
        "tools/fetch-oracles.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| {
            l.strip_prefix("export ")?
                .split_once('=')
                .map(|(k, v)| (k.to_string(), v.to_string()))
        })
        .collect()
}
