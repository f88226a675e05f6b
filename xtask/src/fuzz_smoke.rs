//! `cargo xtask fuzz-smoke [SECONDS]`: the fuzz targets' checks (see `fuzz/`) without cargo-fuzz.
//!
//! Inputs are generated configurations (the property tests' generator), the formatter corpus and
//! the JSON golden inputs, mutated at random: byte flips, insertions of syntax fragments,
//! deletions, duplications and splices of two inputs. Every input goes through `decode_source`,
//! `parse_file`, `parse_expr`, `parse_template`, `parse_json_file`, `parse_json_values` and
//! `format_source`; a panic, a span outside the input, a non-idempotent format of generated
//! (unmutated) input, or an input that takes more than a second is a failure, and the input is
//! saved under `target/fuzz-smoke/`.

#[path = "../../crates/ferro-syntax/tests/gen/mod.rs"]
mod gen;

use ferro_diag::{Diagnostic, FileId};
use ferro_syntax::ast::Body;
use gen::Rng;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Fragments worth inserting: the tokens where the lexer switches modes or the parser recovers.
const FRAGMENTS: &[&str] = &[
    "${",
    "%{",
    "}",
    "{",
    "[",
    "]",
    "(",
    ")",
    "\"",
    "\n",
    "\r\n",
    "\r",
    "<<EOT\n",
    "\nEOT\n",
    "<<-EOT\n",
    "#",
    "//",
    "/*",
    "*/",
    "\\",
    "\\u",
    "~}",
    "${~",
    ".",
    "*",
    "[*]",
    "...",
    "for ",
    " in ",
    "if ",
    "else",
    "endif",
    "endfor",
    "=>",
    "?",
    ":",
    "=",
    ",",
    "-",
    "!",
    "0",
    "1e",
    "a.0.1",
    "é",
    "\u{FEFF}",
    "\t",
    "\"//\":",
    "{\"a\":",
    "[1,",
    "\"${",
    "$${",
    "%%{",
    "\\\"",
    "null",
    "true",
    "resource",
    "\"resource\"",
    "{}",
    "[]",
    ":{",
    "\u{0}",
];

pub struct Report {
    pub inputs: u64,
    pub bytes: u64,
    pub failures: Vec<PathBuf>,
    pub slowest: Duration,
}

fn seeds(repo: &Path) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for dir in ["testdata/fmt/corpus", "crates/ferro-syntax/tests/cases"] {
        if let Ok(rd) = std::fs::read_dir(repo.join(dir)) {
            for e in rd.flatten() {
                if e.path().extension().is_some_and(|x| x == "tf") {
                    if let Ok(b) = std::fs::read(e.path()) {
                        out.push(b);
                    }
                }
            }
        }
    }
    if let Ok(rd) = std::fs::read_dir(repo.join("testdata/json")) {
        for case in rd.flatten() {
            for e in std::fs::read_dir(case.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let name = e.file_name().to_string_lossy().into_owned();
                if name.ends_with(".json") || name == "test.txt" {
                    if let Ok(b) = std::fs::read(e.path()) {
                        out.push(b);
                    }
                }
            }
        }
    }
    out
}

fn mutate(r: &mut Rng, input: &mut Vec<u8>, other: &[u8]) {
    for _ in 0..1 + r.below(6) {
        let len = input.len();
        let at = r.below(len + 1);
        match r.below(7) {
            0 if len > 0 => input[at.min(len - 1)] ^= 1 << r.below(8),
            1 | 2 => {
                let f = r.pick(FRAGMENTS).as_bytes();
                input.splice(at..at, f.iter().copied());
            }
            3 if len > 0 => {
                let end = (at + 1 + r.below(16)).min(len);
                input.drain(at.min(end)..end);
            }
            4 if len > 0 => {
                let end = (at + 1 + r.below(64)).min(len);
                let chunk = input[at.min(end)..end].to_vec();
                let to = r.below(input.len() + 1);
                input.splice(to..to, chunk);
            }
            5 if !other.is_empty() => {
                let from = r.below(other.len());
                let end = (from + 1 + r.below(256)).min(other.len());
                input.splice(at..at, other[from..end].iter().copied());
            }
            _ => {
                let b = r.below(256) as u8;
                input.insert(at, b);
            }
        }
    }
}

fn check_spans(
    what: &str,
    len: usize,
    body: &mut Body,
    diags: &[Diagnostic],
) -> Result<(), String> {
    let len = len as u32;
    let mut bad = None;
    body.map_spans(&mut |s| {
        if s.start > s.end || s.end > len {
            bad = Some(s);
        }
        s
    });
    if let Some(s) = bad {
        return Err(format!("{what}: tree span {s:?} outside 0..{len}"));
    }
    for d in diags {
        if let Some(s) = d.span {
            if s.start > s.end || s.end > len {
                return Err(format!("{what}: diagnostic span {s:?} outside 0..{len}"));
            }
        }
    }
    Ok(())
}

/// An expression as the value of an attribute, so its spans can be checked like a body's.
fn expr_body(expr: ferro_syntax::ast::Expr) -> Body {
    let span = expr.span;
    let name = ferro_syntax::ast::Ident {
        name: "x".into(),
        span: ferro_diag::Span {
            end: span.start,
            ..span
        },
    };
    let attr = ferro_syntax::ast::Attribute { name, expr, span };
    Body {
        items: vec![ferro_syntax::ast::BodyItem::Attribute(attr)],
        span: ferro_diag::Span {
            end: span.start,
            ..span
        },
        json: false,
    }
}

/// Run every entry point on one input; an error describes a broken invariant.
fn run_one(bytes: &[u8], generated: bool) -> Result<(), String> {
    let (text, _) = ferro_syntax::decode_source(FileId(0), bytes);
    let mut p = ferro_syntax::parse_file(FileId(0), &text);
    check_spans("parse_file", text.len(), &mut p.body, &p.diagnostics)?;
    if generated && !p.diagnostics.is_empty() {
        return Err(format!(
            "generated input does not parse: {:?}",
            p.diagnostics[0]
        ));
    }
    let (e, d) = ferro_syntax::parse_expr(FileId(0), &text);
    check_spans("parse_expr", text.len(), &mut expr_body(e), &d)?;
    let (e, d) = ferro_syntax::parse_template(FileId(0), &text);
    check_spans("parse_template", text.len(), &mut expr_body(e), &d)?;
    let mut j = ferro_syntax::parse_json_file(FileId(0), &text);
    check_spans("parse_json_file", text.len(), &mut j.body, &j.diagnostics)?;
    let mut j = ferro_syntax::parse_json_values(FileId(0), &text);
    check_spans("parse_json_values", text.len(), &mut j.body, &j.diagnostics)?;
    if let Ok(once) = ferro_syntax::format_source(&text) {
        let twice = ferro_syntax::format_source(&once);
        if generated && twice.as_deref() != Ok(once.as_str()) {
            return Err("format_source is not idempotent on generated input".into());
        }
    }
    Ok(())
}

pub fn run(repo: &Path, budget: Duration, seed: u64, out: &mut dyn std::io::Write) -> Report {
    let corpus = seeds(repo);
    let crash_dir = repo.join("target/fuzz-smoke");
    let mut r = Rng::new(seed);
    let mut report = Report {
        inputs: 0,
        bytes: 0,
        failures: Vec::new(),
        slowest: Duration::ZERO,
    };
    let start = Instant::now();
    let mut last_note = Instant::now();
    // Panics are expected to be caught and reported, not printed as they happen.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    while start.elapsed() < budget {
        let generated = r.chance(20);
        let input = if generated {
            let mut g = gen::Gen::new(r.next_u64());
            g.file().into_bytes()
        } else {
            let mut base = if corpus.is_empty() || r.chance(30) {
                gen::Gen::new(r.next_u64()).file().into_bytes()
            } else {
                corpus[r.below(corpus.len())].clone()
            };
            let other = if corpus.is_empty() {
                Vec::new()
            } else {
                corpus[r.below(corpus.len())].clone()
            };
            mutate(&mut r, &mut base, &other);
            base
        };
        let t0 = Instant::now();
        let result = std::panic::catch_unwind(|| run_one(&input, generated));
        let took = t0.elapsed();
        report.slowest = report.slowest.max(took);
        report.inputs += 1;
        report.bytes += input.len() as u64;
        let failure = match result {
            Ok(Ok(())) if took > Duration::from_secs(1) => Some(format!("slow: {took:?}")),
            Ok(Ok(())) => None,
            Ok(Err(why)) => Some(why),
            Err(panic) => Some(format!(
                "panic: {}",
                panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("?")
            )),
        };
        if let Some(why) = failure {
            let _ = std::fs::create_dir_all(&crash_dir);
            let path = crash_dir.join(format!("failure-{}.txt", report.failures.len()));
            let _ = std::fs::write(&path, &input);
            let _ = writeln!(out, "FAIL {}: {why}", path.display());
            report.failures.push(path);
            if report.failures.len() >= 20 {
                break;
            }
        }
        if last_note.elapsed() > Duration::from_secs(30) {
            last_note = Instant::now();
            let _ = writeln!(
                out,
                "{:>5.0}s  {} inputs, {} failures",
                start.elapsed().as_secs_f64(),
                report.inputs,
                report.failures.len()
            );
        }
    }
    std::panic::set_hook(hook);
    report
}
