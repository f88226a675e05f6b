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

pub fn provider_diag(d: &ProviderDiagnostic, addr: &str, span: Option<Span>) -> Diagnostic {
    let base = match d.severity {
        Severity::Error => Diagnostic::error("provider-error", d.summary.clone()),
        Severity::Warning => Diagnostic::warning("provider-warning", d.summary.clone()),
    };
    base.with_detail(d.detail.clone())
        .with_address(addr)
        .with_span_opt(span)
}
