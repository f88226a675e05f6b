//! Provider diagnostics as ferro diagnostics, one conversion for planning and apply: the
//! address they concern, and the source range of the attribute a provider's path names.

use ferro_diag::{Diagnostic, Span};
use ferro_hir::ResourceDecl;
use ferro_provider::{ProviderDiagnostic, Severity};
use ferro_value::PathStep;

/// The source range a provider's attribute path points at inside a resource body: the attribute
/// (or nested block) it names, else the closest enclosing block.
pub fn path_span(
    hir: &ferro_hir::FileHir,
    body: &ferro_hir::BlockBody,
    path: &[PathStep],
) -> Option<Span> {
    let (first, rest) = path.split_first()?;
    let PathStep::Attr(name) = first else {
        return None;
    };
    if let Some(a) = body.attrs.iter().find(|a| &a.name == name) {
        return Some(hir.at(a.span));
    }
    let blocks: Vec<&ferro_hir::HirBlock> = body.blocks.iter().filter(|b| &b.ty == name).collect();
    let (block, rest) = match rest.split_first() {
        Some((PathStep::Index(k), tail)) => {
            let chosen = match (k.as_number().and_then(|n| n.to_i64()), k.as_str()) {
                (Some(i), _) => blocks.get(i as usize).copied(),
                (None, Some(label)) => blocks
                    .iter()
                    .copied()
                    .find(|b| b.labels.first().map(String::as_str) == Some(label)),
                _ => None,
            };
            (chosen.or(blocks.first().copied()), tail)
        }
        _ => (blocks.first().copied(), rest),
    };
    let block = block?;
    path_span(hir, &block.body, rest).or(Some(hir.at(block.span)))
}

/// A provider diagnostic for a resource: pointed at the attribute it names when it names one.
pub fn resource_diag(
    hir: &ferro_hir::FileHir,
    d: &ProviderDiagnostic,
    addr: &str,
    decl: &ResourceDecl,
) -> Diagnostic {
    let span = d
        .attribute
        .as_deref()
        .and_then(|p| path_span(hir, &decl.body, p))
        .unwrap_or(hir.at(decl.span));
    provider_diag(d, addr, Some(span))
}

/// Terraform's errors for ephemeral values in a resource's configuration: a resource's
/// arguments persist in state, so none may be ephemeral except write-only attributes (and
/// what is inside them), which are never stored. One per place, pointed at the argument.
pub fn ephemeral_in_resource(
    hir: &ferro_hir::FileHir,
    config: &ferro_value::Value,
    addr: &str,
    decl: &ResourceDecl,
    schema: &ferro_value::schema::Block,
) -> Vec<Diagnostic> {
    config
        .ephemeral_paths()
        .into_iter()
        // A write-only attribute takes ephemeral values: it is never stored.
        .filter(|path| !schema.write_only_at(path))
        .map(|path| {
            let shown = ferro_value::convert::format_path(&path);
            let span = path_span(hir, &decl.body, &path).unwrap_or(hir.at(decl.span));
            Diagnostic::error("ephemeral-in-resource", "Invalid use of ephemeral value")
                .with_detail(format!("Ephemeral values are not valid for {:?}, because it is not a write-only attribute and must be persisted to state.", shown.trim_start_matches('.')))
                .with_address(addr)
                .with_span(span)
        })
        .collect()
}

/// Terraform's check that a provider answered null for every write-only attribute of `value`
/// (an object of `block`): one error per attribute that holds something. `when` says where in
/// the lifecycle ("during planning", "after apply", "during refresh", "during import"); a plan
/// gets "Provider produced invalid plan", any other answer "Provider produced invalid object".
pub fn write_only_returned(
    block: &ferro_value::schema::Block,
    value: &ferro_value::Value,
    provider: &str,
    addr: &str,
    when: &str,
) -> Vec<Diagnostic> {
    let (code, summary) = match when {
        "during planning" => ("provider-invalid-plan", "Provider produced invalid plan"),
        "during import" => (
            "provider-invalid-object",
            "Import returned a non-null value for a write-only attribute",
        ),
        _ => (
            "provider-invalid-object",
            "Provider produced invalid object",
        ),
    };
    block
        .write_only_values(value)
        .into_iter()
        .map(|path| {
            let shown = ferro_value::convert::format_path(&path);
            Diagnostic::error(code, summary)
                .with_detail(format!("Provider {provider:?} returned a value for the write-only attribute \"{addr}{shown}\" {when}. Write-only attributes cannot be read back from the provider. This is a bug in the provider, which should be reported in the provider's own issue tracker."))
                .with_address(addr)
        })
        .collect()
}

pub fn provider_diag(d: &ProviderDiagnostic, addr: &str, span: Option<Span>) -> Diagnostic {
    let base = match d.severity {
        Severity::Error => Diagnostic::error("provider-error", d.summary.clone()),
        Severity::Warning => Diagnostic::warning("provider-warning", d.summary.clone()),
    };
    base.with_detail(d.detail.clone())
        .with_address(addr)
        .with_span_opt(span)
}
