//! Data-driven parser tests: every `tests/cases/<name>.tf` is parsed and its AST dump (plus any
//! diagnostics) compared with `<name>.ast`. Run with `BLESS=1` to rewrite the expectations.

use ferro_diag::{line_col, FileId};
use ferro_syntax::{debug, parse_file};
use std::fmt::Write as _;
use std::path::Path;

fn render(text: &str) -> String {
    let parsed = parse_file(FileId(0), text);
    let mut out = debug::dump_body(&parsed.body);
    for c in &parsed.comments {
        let _ = writeln!(
            out,
            "comment {:?} {:?} @{}..{}",
            c.kind, c.text, c.span.start, c.span.end
        );
    }
    for d in &parsed.diagnostics {
        // Ranges quoted in details, named as the front ends name them.
        let mut d = d.clone();
        ferro_diag::name_ranges(&mut d, "case.tf", text);
        let (l, c) = d.span.map_or((0, 0), |s| line_col(text, s.start as usize));
        let _ = writeln!(
            out,
            "diag {} {}:{} {}: {}",
            d.code, l, c, d.summary, d.detail
        );
    }
    out
}

#[test]
fn cases() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .expect("cases dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tf"))
        .collect();
    names.sort();
    assert!(!names.is_empty());
    let mut failures = Vec::new();
    for tf in names {
        let text = std::fs::read_to_string(&tf).expect("read case");
        let got = render(&text);
        let expected_path = tf.with_extension("ast");
        if bless {
            std::fs::write(&expected_path, &got).expect("write expectation");
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != got {
            failures.push(format!("--- {}\n{got}", tf.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "mismatched cases (BLESS=1 to update):\n{}",
        failures.join("\n")
    );
}
