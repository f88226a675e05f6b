//! `cargo xtask fmt-oracle`: record the expected output of the formatting corpus
//! (`testdata/fmt/corpus/*.tf` → `*.tf.expected`) by running the reference `terraform fmt`
//! (Terraform 1.0.3, fetched by `tools/fetch-oracles.sh`; `$TERRAFORM` overrides it).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Locate the reference terraform binary: `$TERRAFORM`, or the one `tools/fetch-oracles.sh` installs.
pub fn find_terraform(_repo: &Path) -> Result<PathBuf, String> {
    crate::oracles::terraform()
}

/// Run `terraform fmt -` on `src`: the formatted text, or terraform's error output.
pub fn terraform_fmt(terraform: &Path, src: &[u8]) -> Result<Vec<u8>, String> {
    let mut child = Command::new(terraform)
        .args(["fmt", "-no-color", "-"])
        .env("CHECKPOINT_DISABLE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", terraform.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(src)
            .map_err(|e| format!("writing to terraform: {e}"))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("waiting for terraform: {e}"))?;
    if out.status.success() {
        Ok(out.stdout)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Write `X.tf.expected` for every `X.tf` in `dir`. Returns (written, failed).
pub fn record(dir: &Path, terraform: &Path) -> std::io::Result<(usize, Vec<String>)> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tf"))
        .collect();
    names.sort();
    let (mut written, mut failed) = (0, Vec::new());
    for tf in names {
        let src = std::fs::read(&tf)?;
        let expected = tf.with_extension("tf.expected");
        match terraform_fmt(terraform, &src) {
            Ok(out) => {
                std::fs::write(&expected, out)?;
                written += 1;
            }
            Err(e) => {
                let _ = std::fs::remove_file(&expected);
                failed.push(format!("{}: {}", tf.display(), e.trim()));
            }
        }
    }
    Ok((written, failed))
}
