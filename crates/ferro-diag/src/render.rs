//! Terminal rendering: ariadne reports with file:line:col and carets, colour optional.

use crate::{Diagnostic, FileId, Severity, Span};
use ariadne::{Config, IndexType, Label, Report, ReportKind, Source};
use std::fmt::Write as _;

/// Where rendering finds a file's display name and text.
pub trait SourceLookup {
    fn file_name(&self, file: FileId) -> String;
    fn file_text(&self, file: FileId) -> Option<&str>;
}

/// Render all diagnostics, one after another with a blank line between them, errors and
/// warnings in the given order.
pub fn render(diags: &[Diagnostic], sources: &dyn SourceLookup, color: bool) -> String {
    let mut out = String::new();
    for (i, d) in diags.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&render_one(d, sources, color));
    }
    out
}

/// Terraform's consolidation of warnings for people to read: of the warnings that share a
/// summary and have a source location, only the first is kept, its detail ending with
/// "(and N more similar warnings elsewhere)". Errors and other warnings pass unchanged.
pub fn consolidate_warnings(diags: &[Diagnostic]) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = Vec::new();
    let mut counts: Vec<(String, usize, usize)> = Vec::new();
    for d in diags {
        if d.is_error() || d.span.is_none() {
            out.push(d.clone());
            continue;
        }
        match counts.iter_mut().find(|(s, _, _)| *s == d.summary) {
            Some((_, _, n)) => *n += 1,
            None => {
                counts.push((d.summary.clone(), out.len(), 0));
                out.push(d.clone());
            }
        }
    }
    for (_, at, n) in counts {
        let more = match n {
            0 => continue,
            1 => "(and one more similar warning elsewhere)".to_string(),
            n => format!("(and {n} more similar warnings elsewhere)"),
        };
        let d = &mut out[at];
        d.detail = match d.detail.is_empty() {
            true => more,
            false => format!("{}\n\n{more}", d.detail),
        };
    }
    out
}

struct Cache<'a> {
    sources: &'a dyn SourceLookup,
    loaded: Vec<(FileId, Source<String>)>,
}

impl ariadne::Cache<FileId> for Cache<'_> {
    type Storage = String;

    fn fetch(&mut self, id: &FileId) -> Result<&Source<String>, impl std::fmt::Debug> {
        if let Some(pos) = self.loaded.iter().position(|(f, _)| f == id) {
            return Ok::<_, String>(&self.loaded[pos].1);
        }
        let text = self.sources.file_text(*id).unwrap_or("").to_string();
        self.loaded.push((*id, Source::from(text)));
        Ok(&self.loaded.last().expect("just pushed").1)
    }

    fn display<'a>(&self, id: &'a FileId) -> Option<impl std::fmt::Display + 'a> {
        Some(self.sources.file_name(*id))
    }
}

/// Clamp a span to the text so a stale or odd span can never make rendering fail.
fn clamp(span: Span, text: Option<&str>) -> Span {
    let len = text.map_or(0, str::len) as u32;
    let start = span.start.min(len);
    let end = span.end.clamp(start, len);
    Span {
        file: span.file,
        start,
        end,
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..floor_char_boundary(text, offset)];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Render one diagnostic. With a span: an ariadne report; without: a plain block.
pub fn render_one(d: &Diagnostic, sources: &dyn SourceLookup, color: bool) -> String {
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
    };
    let mut out = String::new();
    match d.span {
        Some(span) => {
            let text = sources.file_text(span.file);
            let span = clamp(span, text);
            let config = Config::default()
                .with_color(color)
                .with_index_type(IndexType::Byte)
                .with_char_set(ariadne::CharSet::Ascii);
            let mut builder = Report::build(kind, span)
                .with_code(&d.code)
                .with_message(&d.summary)
                .with_config(config);
            let primary = match &d.address {
                Some(a) => format!("{} (in {a})", d.summary),
                None => d.summary.clone(),
            };
            // Labels in source order, so that ariadne draws one group per file and the header
            // of the primary's group is the primary's own location.
            let mut labels: Vec<(Span, &str, bool)> = d
                .labels
                .iter()
                .map(|l| {
                    (
                        clamp(l.span, sources.file_text(l.span.file)),
                        l.message.as_str(),
                        false,
                    )
                })
                .collect();
            labels.push((span, primary.as_str(), true));
            labels.sort_by_key(|(s, _, is_primary)| {
                (s.file != span.file, s.file, s.start, !is_primary)
            });
            for (order, (ls, message, _)) in labels.into_iter().enumerate() {
                builder.add_label(
                    Label::new(ls)
                        .with_message(message)
                        .with_order(order as i32),
                );
            }
            // The values the expression refers to come before the detail, as in Terraform.
            let values: Vec<String> = d
                .values
                .iter()
                .map(|v| format!("{} {}", v.traversal, v.statement))
                .collect();
            let note = match (values.is_empty(), d.detail.is_empty()) {
                (true, _) => d.detail.clone(),
                (false, true) => values.join("\n"),
                (false, false) => format!("{}\n\n{}", values.join("\n"), d.detail),
            };
            if !note.is_empty() {
                builder.set_note(note);
            }
            let mut cache = Cache {
                sources,
                loaded: Vec::new(),
            };
            let mut buf = Vec::new();
            if builder.finish().write(&mut cache, &mut buf).is_err() {
                let _ = write!(out, "{}: {}", d.code, d.summary);
            }
            out.push_str(&String::from_utf8_lossy(&buf));
        }
        None => {
            let word = match d.severity {
                Severity::Error => "Error",
                Severity::Warning => "Warning",
            };
            let _ = writeln!(out, "[{}] {word}: {}", d.code, d.summary);
            if let Some(a) = &d.address {
                let _ = writeln!(out, "    in {a}");
            }
            if !d.detail.is_empty() {
                for line in d.detail.lines() {
                    let _ = writeln!(out, "    {line}");
                }
            }
        }
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct OneFile(&'static str);

    impl SourceLookup for OneFile {
        fn file_name(&self, _: FileId) -> String {
            "main.tf".to_string()
        }
        fn file_text(&self, _: FileId) -> Option<&str> {
            Some(self.0)
        }
    }

    fn at(start: u32, end: u32) -> Span {
        Span {
            file: FileId(0),
            start,
            end,
        }
    }

    #[test]
    fn warnings_with_one_summary_are_consolidated_as_terraform_does() {
        let w = |s| {
            Diagnostic::warning("w", s)
                .with_detail("D.")
                .with_span(at(0, 1))
        };
        let diags = vec![w("A"), w("B"), w("A"), Diagnostic::error("e", "A"), w("A")];
        let out = consolidate_warnings(&diags);
        assert_eq!(out.len(), 3);
        assert_eq!(
            out[0].detail,
            "D.\n\n(and 2 more similar warnings elsewhere)"
        );
        assert_eq!(out[1].detail, "D.");
        assert!(out[2].is_error());
        let two = consolidate_warnings(&[w("A"), w("A")]);
        assert_eq!(
            two[0].detail,
            "D.\n\n(and one more similar warning elsewhere)"
        );
    }

    #[test]
    fn diagnostics_are_separated_and_headed_by_the_primary_location() {
        let text = "a = 1\nb = 2\n";
        let d = Diagnostic::error("x", "Second")
            .with_span(at(6, 7))
            .with_label(at(0, 1), "first");
        let out = render(&[d.clone(), d], &OneFile(text), false);
        // One excerpt per diagnostic, its header at the primary range (line 2), not the label's.
        assert_eq!(out.matches("main.tf:2:1").count(), 2, "{out}");
        assert!(!out.contains("main.tf:1:1"), "{out}");
        assert!(out.contains("---'\n\n[x"), "{out}");
        assert!(!out.contains('\u{1b}'), "{out}");
    }
}
