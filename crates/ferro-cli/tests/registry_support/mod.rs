//! The local HTTPS registry of `ferro_testkit::registry`, and one run of the built `ferro`
//! with the environment that points at it.

#![allow(dead_code, unused_imports)]

pub use ferro_testkit::registry::*;
use std::path::Path;
use std::process::{Command, Stdio};

/// Run the built binary in `dir` with `env`: exit code, standard output, standard error.
pub fn ferro_env(dir: &Path, args: &[&str], env: &[(String, String)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ferro"));
    cmd.args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("TF_IN_AUTOMATION", "1");
    for var in [
        "HTTPS_PROXY",
        "https_proxy",
        "HTTP_PROXY",
        "http_proxy",
        "ALL_PROXY",
        "all_proxy",
        "NO_PROXY",
        "no_proxy",
        "TF_PLUGIN_CACHE_DIR",
    ] {
        cmd.env_remove(var);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run ferro");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
