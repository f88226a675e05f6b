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
/// arguments persist in state, so none may be ephemeral (write-only attributes, which may,
/// are not supported yet). One per place, pointed at the argument.
pub fn ephemeral_in_resource(
    hir: &ferro_hir::FileHir,
    config: &ferro_value::Value,
    addr: &str,
    decl: &ResourceDecl,
) -> Vec<Diagnostic> {
    config
        .ephemeral_paths()
        .into_iter()
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

pub fn provider_diag(d: &ProviderDiagnostic, addr: &str, span: Option<Span>) -> Diagnostic {
    let base = match d.severity {
        Severity::Error => Diagnostic::error("provider-error", d.summary.clone()),
        Severity::Warning => Diagnostic::warning("provider-warning", d.summary.clone()),
    };
    base.with_detail(d.detail.clone())
        .with_address(addr)
        .with_span_opt(span)
}
