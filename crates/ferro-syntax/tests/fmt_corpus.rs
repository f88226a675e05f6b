//! The differential formatting corpus: every `testdata/fmt/corpus/X.tf` is formatted and compared
//! byte for byte with `X.tf.expected`, the output of the reference `terraform fmt` recorded by
//! `cargo xtask fmt-oracle`. Also checked for each file: formatting is idempotent, and the
//! formatted text parses to the same tree (modulo spans, parentheses and the rewrites
//! `terraform fmt` makes on purpose).

use ferro_diag::FileId;
use ferro_syntax::ast::*;
use ferro_syntax::{debug, format_source, parse_file};
use std::path::{Path, PathBuf};

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/fmt/corpus");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("testdata/fmt/corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tf"))
        .collect();
    v.sort();
    v
}

fn visible(line: &str) -> String {
    line.replace('\r', "\\r").replace('\t', "\\t")
}

/// A readable report of the first differing lines (with context).
fn line_diff(expected: &str, got: &str) -> String {
    let e: Vec<&str> = expected.split_inclusive('\n').collect();
    let g: Vec<&str> = got.split_inclusive('\n').collect();
    let first = e
        .iter()
        .zip(&g)
        .position(|(a, b)| a != b)
        .unwrap_or(e.len().min(g.len()));
    let mut out = String::new();
    for i in first.saturating_sub(2)..(first + 3).min(e.len().max(g.len())) {
        match (e.get(i), g.get(i)) {
            (Some(a), Some(b)) if a == b => {
                out.push_str(&format!("   {:4} | {}\n", i + 1, visible(a)))
            }
            (a, b) => {
                if let Some(a) = a {
                    out.push_str(&format!(" - {:4} | {}\n", i + 1, visible(a)));
                }
                if let Some(b) = b {
                    out.push_str(&format!(" + {:4} | {}\n", i + 1, visible(b)));
                }
            }
        }
    }
    out
}

/// Remove `@start..end` span markers from a tree dump.
fn strip_spans(dump: &str) -> String {
    let mut out = String::with_capacity(dump.len());
    let b = dump.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'@' && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            i += 1;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            continue;
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

fn var(name: &str, span: ferro_diag::Span) -> Expr {
    Expr {
        kind: ExprKind::Variable(Ident {
            name: name.into(),
            span,
        }),
        span,
    }
}

fn call(name: &str, arg: &str, span: ferro_diag::Span) -> Expr {
    let kind = ExprKind::FunctionCall(Box::new(FunctionCall {
        name: Ident {
            name: name.into(),
            span,
        },
        args: vec![var(arg, span)],
        expand_final: false,
        open_paren: span,
    }));
    Expr { kind, span }
}

/// Apply terraform fmt's deliberate rewrites to a tree (unwrapping `"${x}"`, modern type names).
fn rewrite_body(src: &str, body: &mut Body, top: bool) {
    for item in &mut body.items {
        match item {
            BodyItem::Attribute(a) => {
                if !top && a.name.name == "type" {
                    let span = a.expr.span;
                    let new = match &a.expr.kind {
                        ExprKind::Variable(id)
                            if ["list", "map", "set"].contains(&id.name.as_str()) =>
                        {
                            Some(call(&id.name.clone(), "any", span))
                        }
                        ExprKind::Template(t) if t.heredoc.is_none() => match &t.parts[..] {
                            [TemplatePart::Literal { text, .. }] if text == "string" => {
                                Some(var("string", span))
                            }
                            [TemplatePart::Literal { text, .. }] if text == "list" => {
                                Some(call("list", "string", span))
                            }
                            [TemplatePart::Literal { text, .. }] if text == "map" => {
                                Some(call("map", "string", span))
                            }
                            _ => None,
                        },
                        _ => None,
                    };
                    if let Some(n) = new {
                        a.expr = n;
                    }
                    continue;
                }
                unwrap(src, &mut a.expr);
            }
            BodyItem::Block(b) => {
                b.labels.iter_mut().for_each(|l| l.quoted = true);
                let is_var = top && b.ty.name == "variable";
                // Only the direct attributes of a top-level variable block get type rewrites.
                if is_var {
                    rewrite_body(src, &mut b.body, false);
                } else {
                    rewrite_body_values(src, &mut b.body);
                }
            }
        }
    }
}

fn rewrite_body_values(src: &str, body: &mut Body) {
    for item in &mut body.items {
        match item {
            BodyItem::Attribute(a) => {
                unwrap(src, &mut a.expr);
            }
            BodyItem::Block(b) => {
                b.labels.iter_mut().for_each(|l| l.quoted = true);
                rewrite_body_values(src, &mut b.body)
            }
        }
    }
}

/// Tree dump without spans and without parentheses (the unwrap may add them).
fn shape(text: &str, rewrite: bool) -> Result<String, String> {
    let mut parsed = parse_file(FileId(0), text);
    if ferro_diag::has_errors(&parsed.diagnostics) {
        return Err(format!(
            "{:?}",
            parsed
                .diagnostics
                .iter()
                .map(|d| &d.summary)
                .collect::<Vec<_>>()
        ));
    }
    if rewrite {
        rewrite_body(text, &mut parsed.body, true);
    }
    let dump = strip_spans(&debug::dump_body(&parsed.body));
    Ok(strip_parens(&dump))
}

/// Replace every `(parens X)` by `X` in a dump.
fn strip_parens(dump: &str) -> String {
    let mut s = dump.to_string();
    while let Some(i) = s.find("(parens ") {
        // Find the matching close paren of this group.
        let mut depth = 0usize;
        let mut end = None;
        let mut in_str = false;
        let bytes = s.as_bytes();
        let mut j = i;
        while j < bytes.len() {
            match bytes[j] {
                b'"' if j == 0 || bytes[j - 1] != b'\\' => in_str = !in_str,
                b'(' if !in_str => depth += 1,
                b')' if !in_str => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(j);
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let Some(end) = end else { break };
        s = format!(
            "{}{}{}",
            &s[..i],
            &s[i + "(parens ".len()..end],
            &s[end + 1..]
        );
    }
    s
}

#[test]
fn corpus_matches_terraform_fmt() {
    let files = corpus();
    assert!(
        files.len() >= 200,
        "the corpus has only {} files",
        files.len()
    );
    let mut failures = Vec::new();
    let mut identical = 0;
    let mut lost_key_files = 0;
    for tf in &files {
        let name = tf
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let src = std::fs::read_to_string(tf).expect("corpus files are UTF-8");
        let Ok(expected) = std::fs::read_to_string(tf.with_extension("tf.expected")) else {
            failures.push(format!(
                "{name}: no .expected file (run `cargo xtask fmt-oracle`)"
            ));
            continue;
        };
        // The expected files are terraform's standard output for `fmt -`, which ends the
        // formatted text with a newline when it has none.
        let got = match format_source(&src) {
            Ok(g) if g.ends_with('\n') => g,
            Ok(g) => g + "\n",
            Err(d) => {
                failures.push(format!(
                    "{name}: ferro refused to format it: {:?}",
                    d.iter().map(|d| &d.summary).collect::<Vec<_>>()
                ));
                continue;
            }
        };
        if got != expected {
            failures.push(format!(
                "{name}: output differs from terraform fmt\n{}",
                line_diff(&expected, &got)
            ));
            continue;
        }
        identical += 1;
        match format_source(&got) {
            Ok(again) if again == got => {}
            // Terraform keeps spaces before the end of the file, then adds a newline; the next
            // run removes them. Not idempotent, but that is what terraform fmt does.
            Ok(_) if src.ends_with([' ', '\t']) => {}
            Ok(again) => failures.push(format!(
                "{name}: not idempotent\n{}",
                line_diff(&got, &again)
            )),
            Err(diags) => {
                // Terraform drops the key of `x[null]`-style steps, which leaves `x[]`: the only
                // accepted way for formatted output not to parse.
                let empty_index = got.match_indices("[]").any(|(i, _)| {
                    got[..i]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c.is_alphanumeric() || "_-]".contains(c))
                });
                if empty_index
                    && src.contains("null") | src.contains("true") | src.contains("false")
                {
                    lost_key_files += 1;
                    continue;
                }
                failures.push(format!(
                    "{name}: formatted output does not parse: {:?}",
                    diags.iter().map(|d| &d.summary).collect::<Vec<_>>()
                ));
            }
        }
        if let Ok(after) = shape(&got, false) {
            match shape(&src, true) {
                Ok(before) if before == after => {}
                Ok(before) => failures.push(format!(
                    "{name}: formatting changed the tree\n{}",
                    line_diff(&before, &after)
                )),
                Err(e) => failures.push(format!("{name}: input does not parse: {e}")),
            }
        }
    }
    eprintln!(
        "fmt corpus: {identical}/{} identical to terraform fmt ({lost_key_files} with terraform's lost-key quirk)",
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} corpus failures:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `"${x}"` → `x` when the template's text is exactly one interpolation.
fn unwrap(src: &str, e: &mut Expr) {
    if let ExprKind::Template(t) = &e.kind {
        if let (None, [TemplatePart::Interpolation { expr, .. }]) = (&t.heredoc, &t.parts[..]) {
            let raw = &src[e.span.start as usize..e.span.end as usize];
            if raw.starts_with("\"${") && raw.ends_with("}\"") {
                *e = (**expr).clone();
            }
        }
    }
}
