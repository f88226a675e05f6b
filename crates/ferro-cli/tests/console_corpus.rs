//! Differential test: `ferro console` over `testdata/console/exprs.txt` must print exactly what
//! terraform 1.0.3 printed (recorded in `testdata/console/expected.txt` by
//! `cargo xtask console-oracle`): the same exit code, stdout and stderr.
//!
//! Known, documented differences are listed in `testdata/console/known-differences.txt` (one
//! expression per line after a `# reason` comment); they are compared too, and the test fails
//! if one of them starts to agree (so the list cannot go stale).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

struct Record {
    expr: String,
    exit: i32,
    stdout: String,
    stderr: String,
}

fn read_records(text: &str) -> Vec<Record> {
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

fn console_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/console")
}

fn copy_fixture(dst: &Path) {
    std::fs::create_dir_all(dst).expect("temp dir");
    for e in std::fs::read_dir(console_dir().join("fixture"))
        .expect("fixture")
        .flatten()
    {
        if e.path().is_file() {
            std::fs::copy(e.path(), dst.join(e.file_name())).expect("copy fixture");
        }
    }
}

fn run_ferro(dir: &Path, expr: &str) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut input = std::io::Cursor::new(format!("{expr}\n").into_bytes());
    let code = {
        let mut io = ferro_cli::Io {
            stdout: &mut out,
            stderr: &mut err,
            stdin: None,
        };
        ferro_cli::cmd_console::run_with_input(&["-no-color".to_string()], dir, &mut input, &mut io)
    };
    (
        code,
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
    )
}

fn diff(label: &str, want: &str, got: &str) -> String {
    if want == got {
        return String::new();
    }
    let mut s = format!("  {label}:\n");
    for l in want.lines() {
        s.push_str(&format!("    - {l}\n"));
    }
    for l in got.lines() {
        s.push_str(&format!("    + {l}\n"));
    }
    s
}

#[test]
fn console_matches_terraform() {
    let expected = std::fs::read_to_string(console_dir().join("expected.txt"))
        .expect("expected.txt (run cargo xtask console-oracle)");
    let records = read_records(&expected);
    assert!(records.len() >= 3000, "corpus too small: {}", records.len());
    let known: BTreeSet<String> =
        std::fs::read_to_string(console_dir().join("known-differences.txt"))
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(str::to_string)
            .collect();
    let dir = std::env::temp_dir().join(format!("ferro-console-corpus-{}", std::process::id()));
    copy_fixture(&dir);
    let mut failures = Vec::new();
    let mut agreed = 0;
    let mut stale = Vec::new();
    for r in &records {
        // HOME is not consulted by these expressions; path.cwd is not in the corpus.
        let (code, out, err) = run_ferro(&dir, &r.expr);
        let mut d = String::new();
        if code != r.exit {
            d.push_str(&format!("  exit: want {}, got {code}\n", r.exit));
        }
        d.push_str(&diff("stdout", &r.stdout, &out));
        d.push_str(&diff("stderr", &r.stderr, &err));
        let is_known = known.contains(&r.expr);
        if d.is_empty() {
            agreed += 1;
            if is_known {
                stale.push(r.expr.clone());
            }
        } else if !is_known {
            failures.push(format!(">>> {}\n{d}", r.expr));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "console corpus: {agreed}/{} agree with terraform 1.0.3 ({} known differences)",
        records.len(),
        known.len()
    );
    assert!(
        stale.is_empty(),
        "these known differences now agree; remove them from known-differences.txt:\n{}",
        stale.join("\n")
    );
    assert!(
        failures.is_empty(),
        "{} of {} expressions differ from terraform:\n{}",
        failures.len(),
        records.len(),
        failures.join("\n")
    );
}

/// Functions newer than terraform 1.0.3 (and the console-only `type`), with outputs checked by
/// hand against the current Terraform documentation.
#[test]
fn newer_functions_match_hand_checked_goldens() {
    let text = std::fs::read_to_string(console_dir().join("newer.txt")).expect("newer.txt");
    let records = read_records(&text);
    assert!(records.len() >= 20);
    let dir = std::env::temp_dir().join(format!("ferro-console-newer-{}", std::process::id()));
    copy_fixture(&dir);
    let mut failures = Vec::new();
    for r in &records {
        let (code, out, err) = run_ferro(&dir, &r.expr);
        let mut d = String::new();
        if code != r.exit {
            d.push_str(&format!("  exit: want {}, got {code}\n", r.exit));
        }
        d.push_str(&diff("stdout", &r.stdout, &out));
        d.push_str(&diff("stderr", &r.stderr, &err));
        if !d.is_empty() {
            failures.push(format!(">>> {}\n{d}", r.expr));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
