//! The checks `ferro validate` adds to ferro-db's diagnostics (an unmet `required_version`
//! stops everything else), and ferro diagnostics as LSP `Diagnostic` objects.

use crate::lines::{path_to_uri, LineIndex};
use crate::world::World;
use ferro_db::{Db, Workspace};
use ferro_diag::{Diagnostic, Severity};
use ferro_provider::install::version::{Constraints, Version};
use serde_json::{json, Value};

/// The newest Terraform release whose configuration language ferro implements (apart from
/// what docs/compatibility.md lists); the oldest is the one it records in state
/// (`ferro_state::WRITER_VERSION`, 1.0.3).
pub const NEWEST_LANGUAGE_VERSION: &str = "1.9.8";

/// `terraform { required_version }` of every module checked against the Terraform versions
/// ferro is compatible with: a constraint passes when some release from the one ferro
/// records in state to [`NEWEST_LANGUAGE_VERSION`] meets it (modules that ask for a newer
/// language, `>= 1.5.7`, load; `< 0.1.0` or `>= 2.0` do not). The CLI's and the language
/// server's check.
pub fn required_versions(db: &dyn Db, ws: Workspace) -> Vec<Diagnostic> {
    let (Ok(oldest), Ok(newest)) = (
        Version::parse(ferro_state::WRITER_VERSION),
        Version::parse(NEWEST_LANGUAGE_VERSION),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in ws.modules(db) {
        for f in m.files(db) {
            let hir = ferro_db::file_hir(db, *f);
            for (constraint, span, whole) in &hir.required_versions {
                let span = hir.at(*span);
                match Constraints::parse(constraint) {
                    Ok(c) if c.allows_some_in(&oldest, &newest) => {}
                    Ok(_) => out.push(
                        Diagnostic::error("unsupported-core-version", "Unsupported Terraform Core version")
                            .with_detail(format!("This configuration does not support any Terraform version ferro is compatible with ({oldest} to {newest}). To proceed, either choose another supported Terraform version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior."))
                            // Terraform points at the whole argument.
                            .with_span(hir.at(*whole)),
                    ),
                    Err(e) => out.push(
                        Diagnostic::error("invalid-version-constraint", "Invalid version constraint")
                            .with_detail(format!("This string does not use correct version constraint syntax: {e}."))
                            .with_span(span),
                    ),
                }
            }
        }
    }
    out
}

/// The message of a diagnostic: its summary and, on the next lines, its detail.
pub fn message(d: &Diagnostic) -> String {
    if d.detail.is_empty() {
        d.summary.clone()
    } else {
        format!("{}\n\n{}", d.summary, d.detail)
    }
}

/// One ferro diagnostic as an LSP diagnostic (it must have a span in a loaded file).
pub fn to_lsp(w: &World, d: &Diagnostic, utf8: bool) -> Option<Value> {
    let span = d.span?;
    let file = w.file_by_id(span.file)?;
    let text = file.text(&w.db);
    let idx = LineIndex::new(text, utf8);
    let related: Vec<Value> = d
        .labels
        .iter()
        .filter_map(|l| {
            let f = w.file_by_id(l.span.file)?;
            let t = f.text(&w.db);
            let li = LineIndex::new(t, utf8);
            Some(json!({
                "location": {
                    "uri": path_to_uri(&w.path_of(f)),
                    "range": li.range(l.span.start as usize, l.span.end as usize),
                },
                "message": l.message,
            }))
        })
        .collect();
    let mut v = json!({
        "range": idx.range(span.start as usize, span.end as usize),
        "severity": match d.severity { Severity::Error => 1, Severity::Warning => 2 },
        "code": d.code,
        "source": "ferro",
        "message": message(d),
    });
    if !related.is_empty() {
        v["relatedInformation"] = Value::Array(related);
    }
    Some(v)
}
