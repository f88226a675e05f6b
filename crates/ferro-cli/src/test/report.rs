//! What `ferro test` prints: Terraform's human view (files and runs as they finish,
//! diagnostics, the teardown report, the conclusion), its JSON stream (`-json`: messages of
//! types `test_abstract`, `test_file`, `test_run`, `test_cleanup`, `test_summary` and
//! `diagnostic` with `@testfile`/`@testrun`), and its JUnit XML report (`-junit-xml`).

use super::{FileResult, RunResult, Status, TestFile};
use crate::Io;
use ferro_diag::{Diagnostic, FileId};
use ferro_render::word_wrap;
use serde_json::{json, Value as Json};

pub struct Reporter {
    color: bool,
    json: bool,
    pub verbose: bool,
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Pending => "pending",
        Status::Skip => "skip",
        Status::Pass => "pass",
        Status::Fail => "fail",
        Status::Error => "error",
    }
}

impl Reporter {
    pub fn new(color: bool, json: bool, verbose: bool) -> Reporter {
        Reporter {
            color,
            json,
            verbose,
        }
    }

    fn paint(&self, text: &str, code: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn status_text(&self, s: Status) -> String {
        match s {
            Status::Pass => self.paint("pass", "32"),
            Status::Fail | Status::Error => self.paint("fail", "31"),
            Status::Skip => self.paint("skip", "37"),
            Status::Pending => self.paint("pending", "37"),
        }
    }

    fn emit(io: &mut Io<'_>, level: &str, message: &str, kind: &str, fields: Vec<(&str, Json)>) {
        crate::json_ui::emit(io.stdout, level, message, kind, fields);
    }

    pub fn abstract_(&mut self, io: &mut Io<'_>, files: &[TestFile]) {
        if !self.json {
            return;
        }
        let runs: usize = files.iter().map(|f| f.runs.len()).sum();
        let mut abstract_ = serde_json::Map::new();
        for f in files {
            abstract_.insert(
                f.name.clone(),
                Json::Array(f.runs.iter().map(|r| Json::from(r.name.clone())).collect()),
            );
        }
        let message = format!(
            "Found {} {} and {} {}",
            files.len(),
            if files.len() == 1 { "file" } else { "files" },
            runs,
            if runs == 1 { "run block" } else { "run blocks" }
        );
        Self::emit(
            io,
            "info",
            &message,
            "test_abstract",
            vec![("test_abstract", Json::Object(abstract_))],
        );
    }

    pub fn file_starting(&mut self, io: &mut Io<'_>, name: &str) {
        if self.json {
            Self::emit(
                io,
                "info",
                &format!("{name}... in progress"),
                "test_file",
                vec![
                    ("test_file", json!({"path": name, "progress": "starting"})),
                    ("@testfile", Json::from(name)),
                ],
            );
            return;
        }
        let _ = writeln!(io.stdout, "{name}... {}", self.paint("in progress", "37"));
    }

    pub fn file_teardown(&mut self, io: &mut Io<'_>, name: &str) {
        if self.json {
            Self::emit(
                io,
                "info",
                &format!("{name}... tearing down"),
                "test_file",
                vec![
                    ("test_file", json!({"path": name, "progress": "teardown"})),
                    ("@testfile", Json::from(name)),
                ],
            );
            return;
        }
        let _ = writeln!(io.stdout, "{name}... {}", self.paint("tearing down", "37"));
    }

    pub fn file_done(&mut self, io: &mut Io<'_>, name: &str, status: Status) {
        if self.json {
            Self::emit(
                io,
                "info",
                &format!("{name}... {}", status.word()),
                "test_file",
                vec![
                    (
                        "test_file",
                        json!({"path": name, "progress": "complete", "status": status_name(status)}),
                    ),
                    ("@testfile", Json::from(name)),
                ],
            );
            return;
        }
        let _ = writeln!(io.stdout, "{name}... {}", self.status_text(status));
    }

    pub fn run_starting(&mut self, io: &mut Io<'_>, file: &str, run: &str) {
        if self.json {
            Self::emit(
                io,
                "info",
                &format!("  {run:?}... in progress"),
                "test_run",
                vec![
                    (
                        "test_run",
                        json!({"path": file, "run": run, "progress": "starting", "elapsed": 0}),
                    ),
                    ("@testfile", Json::from(file)),
                    ("@testrun", Json::from(run)),
                ],
            );
        }
    }

    pub fn run_done(
        &mut self,
        io: &mut Io<'_>,
        file: &str,
        r: &RunResult,
        verbose: Option<&super::run::Verbose>,
        sources: &[(FileId, String, String)],
    ) {
        if self.json {
            Self::emit(
                io,
                "info",
                &format!("  {:?}... {}", r.name, r.status.word()),
                "test_run",
                vec![
                    (
                        "test_run",
                        json!({"path": file, "run": r.name, "progress": "complete", "status": status_name(r.status)}),
                    ),
                    ("@testfile", Json::from(file)),
                    ("@testrun", Json::from(r.name.clone())),
                ],
            );
            if let Some(v) = verbose {
                let (what, ty) = if v.state {
                    ("state", "test_state")
                } else {
                    ("plan", "test_plan")
                };
                Self::emit(
                    io,
                    "info",
                    &format!("-verbose flag enabled, printing {what}"),
                    ty,
                    vec![
                        (ty, v.json.clone()),
                        ("@testfile", Json::from(file)),
                        ("@testrun", Json::from(r.name.clone())),
                    ],
                );
            }
            self.diagnostics(io, file, Some(&r.name), &r.diags, sources);
            return;
        }
        let _ = writeln!(
            io.stdout,
            "  run {:?}... {}",
            r.name,
            self.status_text(r.status)
        );
        if let Some(text) = verbose.map(|v| v.text.as_str()) {
            if !text.starts_with('\n') {
                let _ = writeln!(io.stdout);
            }
            let _ = io.stdout.write_all(text.as_bytes());
            if !text.ends_with('\n') {
                let _ = writeln!(io.stdout);
            }
            let _ = writeln!(io.stdout);
        }
        self.diagnostics(io, file, Some(&r.name), &r.diags, sources);
        if r.diags.iter().any(|d| !d.is_error()) {
            let _ = writeln!(io.stdout);
        }
    }

    pub fn diagnostics(
        &mut self,
        io: &mut Io<'_>,
        file: &str,
        run: Option<&str>,
        diags: &[Diagnostic],
        sources: &[(FileId, String, String)],
    ) {
        if diags.is_empty() {
            return;
        }
        let lookup = ferro_db::Sources::from_files(sources.to_vec());
        if self.json {
            for d in diags {
                let (level, word) = if d.is_error() {
                    ("error", "Error")
                } else {
                    ("warn", "Warning")
                };
                let mut fields = vec![
                    ("diagnostic", crate::validate_json::diagnostic(d, &lookup)),
                    ("@testfile", Json::from(file)),
                ];
                if let Some(r) = run {
                    fields.push(("@testrun", Json::from(r)));
                }
                Self::emit(
                    io,
                    level,
                    &format!("{word}: {}", d.summary),
                    "diagnostic",
                    fields,
                );
            }
            return;
        }
        crate::ui::print_diags(io, diags, &lookup, self.color);
    }

    pub fn destroy_summary(
        &mut self,
        io: &mut Io<'_>,
        file: &str,
        identifier: &str,
        diags: &[Diagnostic],
        leftover: &[String],
        sources: &[(FileId, String, String)],
    ) {
        if self.json {
            if !leftover.is_empty() {
                let failed: Vec<Json> = leftover
                    .iter()
                    .map(|a| match a.split_once(" (") {
                        Some((inst, dk)) => {
                            json!({"instance": inst, "deposed_key": dk.trim_end_matches(')')})
                        }
                        None => json!({"instance": a}),
                    })
                    .collect();
                Self::emit(
                    io,
                    "error",
                    &format!("ferro left some resources in state after executing {identifier}, they need to be cleaned up manually."),
                    "test_cleanup",
                    vec![
                        ("test_cleanup", json!({"failed_resources": failed})),
                        ("@testfile", Json::from(file)),
                    ],
                );
            }
            self.diagnostics(io, file, None, diags, sources);
            return;
        }
        if diags.iter().any(Diagnostic::is_error) {
            let text = word_wrap(
                &format!("ferro encountered an error destroying resources created while executing {identifier}.\n"),
                78,
            );
            let _ = io.stderr.write_all(text.as_bytes());
        }
        self.diagnostics(io, file, None, diags, sources);
        if !leftover.is_empty() {
            let text = word_wrap(
                &format!("\nferro left the following resources in state after executing {identifier}, and they need to be cleaned up manually:\n"),
                78,
            );
            let _ = io.stderr.write_all(text.as_bytes());
            for a in leftover {
                let _ = writeln!(io.stderr, "  - {a}");
            }
        }
    }

    pub fn conclusion(&mut self, io: &mut Io<'_>, files: &[FileResult], suite: Status) {
        let mut passed = 0;
        let mut failed = 0;
        let mut errored = 0;
        let mut skipped = 0;
        for r in files.iter().flat_map(|f| f.runs.iter()) {
            match r.status {
                Status::Pass => passed += 1,
                Status::Fail => failed += 1,
                Status::Error => errored += 1,
                Status::Skip => skipped += 1,
                Status::Pending => {}
            }
        }
        let tail = if skipped > 0 {
            format!(", {skipped} skipped.")
        } else {
            ".".to_string()
        };
        let (plain, painted) = if suite <= Status::Skip {
            let t = format!("Executed 0 tests{tail}");
            (t.clone(), t)
        } else {
            let (word, code) = if suite == Status::Pass {
                ("Success!", "32")
            } else {
                ("Failure!", "31")
            };
            let rest = format!(" {passed} passed, {} failed{tail}", failed + errored);
            (
                format!("{word}{rest}"),
                format!("{}{rest}", self.paint(word, code)),
            )
        };
        if self.json {
            Self::emit(
                io,
                "info",
                &plain,
                "test_summary",
                vec![(
                    "test_summary",
                    json!({"status": status_name(suite), "passed": passed, "failed": failed, "errored": errored, "skipped": skipped}),
                )],
            );
            return;
        }
        let _ = writeln!(io.stdout);
        let _ = writeln!(io.stdout, "{painted}");
    }
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&#34;")
}

/// A diagnostic as plain text, for the JUnit report.
fn plain_diag(d: &Diagnostic) -> String {
    let word = if d.is_error() { "Error" } else { "Warning" };
    let mut s = format!("\n{word}: {}\n", d.summary);
    if !d.detail.is_empty() {
        s.push('\n');
        s.push_str(&word_wrap(&d.detail, 80));
        s.push('\n');
    }
    s
}

/// The JUnit XML report of a suite (Terraform 1.11's `-junit-xml`): a `testsuite` per file,
/// a `testcase` per run.
pub fn junit_xml(files: &[FileResult]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?><testsuites>");
    for f in files {
        let count = |s: Status| f.runs.iter().filter(|r| r.status == s).count();
        out.push_str(&format!(
            "\n  <testsuite name=\"{}\" tests=\"{}\" skipped=\"{}\" failures=\"{}\" errors=\"{}\">",
            xml_escape(&f.name),
            f.runs.len(),
            count(Status::Skip),
            count(Status::Fail),
            count(Status::Error)
        ));
        for r in &f.runs {
            out.push_str(&format!(
                "\n    <testcase name=\"{}\">",
                xml_escape(&r.name)
            ));
            let body: String = r.diags.iter().map(plain_diag).collect();
            let cdata = |s: &str| format!("<![CDATA[{}]]>", s.replace("]]>", "]]]]><![CDATA[>"));
            match r.status {
                Status::Skip => out.push_str("\n      <skipped></skipped>"),
                Status::Fail => {
                    out.push_str("\n      <failure message=\"Test run failed\"></failure>")
                }
                Status::Error => out.push_str(&format!(
                    "\n      <error message=\"Encountered an error\">{}</error>",
                    cdata(&body)
                )),
                _ => {}
            }
            if !r.diags.is_empty() && r.status != Status::Error {
                out.push_str(&format!(
                    "\n      <system-err>{}</system-err>",
                    cdata(&body)
                ));
            }
            if r.status == Status::Pass && r.diags.is_empty() {
                out.push_str("</testcase>");
            } else {
                out.push_str("\n    </testcase>");
            }
        }
        out.push_str("\n  </testsuite>");
    }
    out.push_str("\n</testsuites>");
    out
}
