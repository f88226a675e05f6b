//! ferro diagnostics as LSP `Diagnostic` objects (the `required_version` check the server
//! runs first is ferro-db's `required_version_diagnostics`, shared with the CLI).

use crate::lines::{path_to_uri, LineIndex};
use crate::world::World;
use ferro_diag::{Diagnostic, Severity};
use serde_json::{json, Value};

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
