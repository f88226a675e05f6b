//! The checks `ferro validate` adds to ferro-db's diagnostics (an unmet `required_version`
//! stops everything else), and ferro diagnostics as LSP `Diagnostic` objects.

use crate::lines::{path_to_uri, LineIndex};
use crate::world::World;
use ferro_db::{Db, Workspace};
use ferro_diag::{Diagnostic, Severity};
use ferro_provider::install::version::{Constraints, Version};
use serde_json::{json, Value};

/// `terraform { required_version }` of every module checked against the Terraform version
/// ferro is compatible with, with the CLI's texts.
pub fn required_versions(db: &dyn Db, ws: Workspace) -> Vec<Diagnostic> {
    let Ok(ours) = Version::parse(ferro_state::WRITER_VERSION) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in ws.modules(db) {
        for f in m.files(db) {
            let hir = ferro_db::file_hir(db, *f);
            for (constraint, span) in &hir.required_versions {
                let span = hir.at(*span);
                match Constraints::parse(constraint) {
                    Ok(c) if c.allows(&ours) => {}
                    Ok(_) => out.push(
                        Diagnostic::error("unsupported-core-version", "Unsupported Terraform Core version")
                            .with_detail(format!("This configuration does not support Terraform version {ours}, the version ferro is compatible with. To proceed, either choose another supported Terraform version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior."))
                            .with_span(span),
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
