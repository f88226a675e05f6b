//! `cargo xtask console-oracle`: record what the reference `terraform console` (1.0.3) prints
//! for every expression of `testdata/console/exprs.txt` and the generated edge cases
//! (`console_gen`), into `testdata/console/expected.txt`.
//!
//! Each expression runs in its own `terraform console -no-color` process (piped mode prints only
//! the last result and stops at the first error) in a copy of `testdata/console/fixture/`,
//! initialised once with `terraform init` when the fixture declares resources. The binary comes
//! from `$TERRAFORM`, or from `tools/fetch-oracles.sh` (which installs it through pip).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One recorded run: the expression, exit code, stdout and stderr.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub expr: String,
    pub exit: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn console_dir() -> PathBuf {
    crate::golden::testdata_dir().join("console")
}

/// Expressions of a corpus file: one per line; blank lines and `#` comments are skipped.
pub fn read_exprs(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Serialise records: `>>> EXPR`, `[exit N]`, stdout lines, then `--- stderr` and its lines
/// (read back by the corpus test, `crates/ferro-cli/tests/console_corpus.rs`).
pub fn write_records(records: &[Record]) -> String {
    let mut out = String::new();
    for r in records {
        out.push_str(&format!(">>> {}\n[exit {}]\n", r.expr, r.exit));
        out.push_str(&r.stdout);
        if !r.stdout.is_empty() && !r.stdout.ends_with('\n') {
            out.push('\n');
        }
        if !r.stderr.is_empty() {
            out.push_str("--- stderr\n");
            out.push_str(&r.stderr);
            if !r.stderr.ends_with('\n') {
                out.push('\n');
            }
        }
    }
    out
}

/// Parse what [`write_records`] wrote.
pub fn read_records(text: &str) -> Vec<Record> {
    let mut out: Vec<Record> = Vec::new();
    let mut in_stderr = false;
    let mut exit_seen = false;
    for line in text.split_inclusive('\n') {
        if let Some(e) = line.strip_prefix(">>> ") {
            out.push(Record {
                expr: e.trim_end_matches('\n').to_string(),
                exit: 0,
                stdout: String::new(),
                stderr: String::new(),
            });
            in_stderr = false;
            exit_seen = false;
            continue;
        }
        let Some(cur) = out.last_mut() else { continue };
        if !exit_seen {
            if let Some(code) = line
                .strip_prefix("[exit ")
                .and_then(|r| r.trim_end().strip_suffix(']'))
            {
                cur.exit = code.parse().unwrap_or(-1);
                exit_seen = true;
                continue;
            }
        }
        if line == "--- stderr\n" {
            in_stderr = true;
            continue;
        }
        if in_stderr {
            cur.stderr.push_str(line);
        } else {
            cur.stdout.push_str(line);
        }
    }
    out
}

fn terraform_binary(_root: &Path) -> Result<String, String> {
    if let Ok(t) = std::env::var("TERRAFORM") {
        return Ok(t);
    }
    let o = crate::oracles::ensure()?;
    std::env::set_var("TF_CLI_CONFIG_FILE", &o.cli_config);
    Ok(o.terraform.display().to_string())
}

/// Copy the fixture to a fresh directory.
pub fn copy_fixture(dst: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dst)?;
    let src = console_dir().join("fixture");
    if let Ok(entries) = std::fs::read_dir(&src) {
        for e in entries.flatten() {
            if e.path().is_file() {
                std::fs::copy(e.path(), dst.join(e.file_name()))?;
            }
        }
    }
    Ok(())
}

pub fn run() -> Result<usize, String> {
    let root = crate::golden::testdata_dir()
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let tf = terraform_binary(&root)?;
    // The oracle script also points provider installation at its mirror.
    if std::env::var("TF_CLI_CONFIG_FILE").is_err() {
        let _ = terraform_binary(&root.join("__none__"));
    }
    let mut exprs = read_exprs(
        &std::fs::read_to_string(console_dir().join("exprs.txt")).map_err(|e| e.to_string())?,
    );
    let mut seen: std::collections::BTreeSet<String> = exprs.iter().cloned().collect();
    for e in crate::console_gen::exprs() {
        if seen.insert(e.clone()) {
            exprs.push(e);
        }
    }
    // Expressions already recorded are not run again (delete expected.txt to re-record all).
    let cached: std::collections::BTreeMap<String, Record> =
        std::fs::read_to_string(console_dir().join("expected.txt"))
            .map(|t| read_records(&t))
            .unwrap_or_default()
            .into_iter()
            .map(|r| (r.expr.clone(), r))
            .collect();
    let base = std::env::temp_dir().join(format!("ferro-console-oracle-{}", std::process::id()));
    let works = [base.join("0"), base.join("1")];
    for work in &works {
        prepare(&tf, work)?;
    }
    // Two workers; the records are written out every 50 expressions so that an interrupted
    // run keeps what it recorded.
    let todo: Vec<&String> = exprs.iter().filter(|e| !cached.contains_key(*e)).collect();
    let done = std::sync::Mutex::new(cached);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let save = |done: &std::collections::BTreeMap<String, Record>| {
        let records: Vec<Record> = exprs.iter().filter_map(|e| done.get(e).cloned()).collect();
        std::fs::write(console_dir().join("expected.txt"), write_records(&records))
    };
    let failed = std::sync::Mutex::new(None::<String>);
    std::thread::scope(|s| {
        for work in &works {
            let (todo, next, done, failed, save, tf) = (&todo, &next, &done, &failed, &save, &tf);
            s.spawn(move || loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(e) = todo.get(i) else { break };
                match record_one(tf, work, e) {
                    Ok(r) => {
                        let mut d = done.lock().unwrap_or_else(|p| p.into_inner());
                        d.insert((*e).clone(), r);
                        if (i + 1) % 50 == 0 {
                            eprintln!("{}/{}", i + 1, todo.len());
                            let _ = save(&d);
                        }
                    }
                    Err(err) => {
                        *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(err);
                        break;
                    }
                }
            });
        }
    });
    let done = done.into_inner().unwrap_or_else(|p| p.into_inner());
    save(&done).map_err(|e| e.to_string())?;
    if let Some(err) = failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(err);
    }
    let records: Vec<Record> = exprs.iter().filter_map(|e| done.get(e).cloned()).collect();
    let _ = std::fs::remove_dir_all(&base);
    Ok(records.len())
}

/// A copy of the fixture, initialised when it declares resources.
fn prepare(tf: &str, work: &Path) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(work);
    copy_fixture(work).map_err(|e| e.to_string())?;
    let needs_init = std::fs::read_dir(work)
        .map_err(|e| e.to_string())?
        .flatten()
        .any(|e| std::fs::read_to_string(e.path()).is_ok_and(|t| t.contains("resource \"")));
    if needs_init {
        let st = Command::new(tf)
            .args(["init", "-no-color", "-input=false"])
            .current_dir(work)
            .output()
            .map_err(|e| e.to_string())?;
        if !st.status.success() {
            return Err(format!(
                "terraform init failed:\n{}{}",
                String::from_utf8_lossy(&st.stdout),
                String::from_utf8_lossy(&st.stderr)
            ));
        }
    }
    Ok(())
}

/// Run one expression through `terraform console`.
fn record_one(tf: &str, work: &Path, e: &str) -> Result<Record, String> {
    let mut child = Command::new(tf)
        .args(["console", "-no-color"])
        .current_dir(work)
        .env("HOME", "/nonexistent-home")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    if let Some(mut stdin) = child.stdin.take() {
        let _ = writeln!(stdin, "{e}");
    }
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    Ok(Record {
        expr: e.to_string(),
        exit: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}
