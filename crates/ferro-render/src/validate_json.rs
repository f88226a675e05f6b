//! `ferro validate -json`: the diagnostics in Terraform 1.0.3's machine-readable format
//! (`format_version` "0.1", `valid`, counts, and each diagnostic with its range and snippet).

use ferro_diag::{Diagnostic, Severity, SourceLookup};
use serde_json::{json, Value};

/// The JSON document for `diags`; `sources` gives each file's name and text.
pub fn render(diags: &[Diagnostic], sources: &dyn SourceLookup) -> String {
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diags.len() - errors;
    let list: Vec<Value> = diags.iter().map(|d| diagnostic(d, sources)).collect();
    let doc = json!({
        "format_version": "0.1",
        "valid": errors == 0,
        "error_count": errors,
        "warning_count": warnings,
        "diagnostics": list,
    });
    // Terraform indents with two spaces and ends with a newline.
    let mut out = serde_json::to_string_pretty(&doc).unwrap_or_default();
    out.push('\n');
    out
}

/// One diagnostic as Terraform's JSON gives it (also the `diagnostic` of the machine-readable
/// UI, `plan -json`).
pub fn diagnostic(d: &Diagnostic, sources: &dyn SourceLookup) -> Value {
    let severity = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut obj = serde_json::Map::new();
    obj.insert("severity".into(), json!(severity));
    obj.insert("summary".into(), json!(d.summary));
    obj.insert("detail".into(), json!(d.detail));
    let source = d
        .span
        .and_then(|s| Some((s, sources.file_name(s.file), sources.file_text(s.file)?)));
    if let Some((span, name, text)) = source {
        let start = (span.start as usize).min(text.len());
        let end = (span.end as usize).clamp(start, text.len());
        obj.insert(
            "range".into(),
            json!({
                "filename": name,
                "start": pos(text, start),
                "end": pos(text, end),
            }),
        );
        // The whole lines the range covers, and where in them the range lies.
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
        let code = text.get(line_start..line_end).unwrap_or("");
        // The top-level block around the byte before the range, in native-syntax
        // configuration files, as Terraform looks it up (a range starting a block has none).
        let context = match start.checked_sub(1) {
            Some(before) if name.ends_with(".tf") || name.ends_with(".tofu") => {
                ferro_syntax::context_string(text, before).map_or(Value::Null, Value::String)
            }
            _ => Value::Null,
        };
        obj.insert(
            "snippet".into(),
            json!({
                "context": context,
                "code": code,
                "start_line": text[..start].matches('\n').count() + 1,
                "highlight_start_offset": start - line_start,
                "highlight_end_offset": end - line_start,
                "values": d.values.iter().map(|v| json!({
                    "traversal": v.traversal,
                    "statement": v.statement,
                })).collect::<Vec<_>>(),
            }),
        );
    }
    Value::Object(obj)
}

/// Line, column (1-based, in characters) and byte offset of `offset`.
fn pos(text: &str, offset: usize) -> Value {
    let mut offset = offset;
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    json!({
        "line": before.matches('\n').count() + 1,
        "column": before[line_start..].chars().count() + 1,
        "byte": offset,
    })
}
