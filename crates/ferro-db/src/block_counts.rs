//! How many blocks of each nested type a body has, and the labels of `dynamic` blocks, checked
//! as Terraform 1.0.3 checks them (hcldec's `MinItems`/`MaxItems`, one block for single and
//! group nesting, dynblock's label rules), with its wording and ranges.
//!
//! The count is taken after `dynamic` blocks are expanded. Static validation counts what is
//! known without evaluating (written blocks, and `dynamic` blocks whose `for_each` is a literal);
//! when a `dynamic` block's `for_each` is not known the count is not checked, as Terraform
//! decodes the whole block list as unknown then. Planning counts the blocks the evaluation
//! generated (`ferro_planner::config_value`).

use ferro_diag::{Diagnostic, Span};
use ferro_hir::{BlockBody, DynamicBlock, FileHir, HirBlock};
use ferro_value::schema::{NestedBlock, NestingMode};

/// Where HCL points at something missing from a body: its opening brace, in JSON its closing
/// one.
pub fn missing_item_range(hir: &FileHir, body: &BlockBody) -> Option<Span> {
    let s = hir.at(body.span?);
    Some(if body.json {
        Span {
            start: s.end,
            end: s.end + 1,
            ..s
        }
    } else {
        open_brace_of(s)
    })
}

/// The opening brace before a body's span (which is the text inside the braces).
fn open_brace_of(s: Span) -> Span {
    Span {
        start: s.start.saturating_sub(1),
        end: s.start,
        ..s
    }
}

/// One block of a type as Terraform counts it: `brace` is its body's opening brace ("Too many
/// … blocks" points there; for a generated block, the `content` block's), `ty` where its type
/// is written.
#[derive(Debug, Clone, Copy)]
pub struct Counted {
    pub brace: Span,
    pub ty: Span,
}

impl Counted {
    /// A block as written (or generated: `block.body` is then the `content` body).
    pub fn of(hir: &FileHir, block: &HirBlock) -> Counted {
        let ty = hir.at(block.ty_span);
        Counted {
            brace: block
                .body
                .span
                .map(|s| open_brace_of(hir.at(s)))
                .unwrap_or(ty),
            ty,
        }
    }
}

/// The count errors for `blocks` of type `ty` (nested as `nb`) in a body whose missing-item
/// range is `missing`. `range_text` writes a range as HCL does (`main.tf:6,3-7`).
pub fn count_diagnostics(
    ty: &str,
    nb: &NestedBlock,
    blocks: &[Counted],
    missing: Span,
    range_text: &dyn Fn(Span) -> String,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let n = blocks.len() as u64;
    match nb.nesting {
        NestingMode::Single | NestingMode::Group => {
            if n > 1 {
                out.push(
                    Diagnostic::error("duplicate-block", format!("Duplicate {ty} block"))
                        .with_detail(format!(
                            "Only one block of type {ty:?} is allowed. Previous definition was at {}.",
                            range_text(blocks[0].ty)
                        ))
                        .with_span(blocks[1].ty),
                );
            } else if n == 0 && nb.min_items >= 1 && nb.nesting == NestingMode::Single {
                out.push(
                    Diagnostic::error("missing-block", format!("Missing {ty} block"))
                        .with_detail(format!("A block of type {ty:?} is required here."))
                        .with_span(missing),
                );
            }
        }
        NestingMode::List | NestingMode::Set => {
            if n < nb.min_items {
                out.push(
                    Diagnostic::error("insufficient-blocks", format!("Insufficient {ty} blocks"))
                        .with_detail(format!(
                            "At least {} {ty:?} blocks are required.",
                            nb.min_items
                        ))
                        .with_span(missing),
                );
            }
            if nb.max_items > 0 && n > nb.max_items {
                out.push(
                    Diagnostic::error("too-many-blocks", format!("Too many {ty} blocks"))
                        .with_detail(format!(
                            "No more than {} {ty:?} blocks are allowed",
                            nb.max_items
                        ))
                        .with_span(blocks[nb.max_items as usize].brace),
                );
            }
        }
        NestingMode::Map => {}
    }
    out
}

/// Whether a block has the labels its type takes (one, the key, for map nesting; none
/// otherwise); a block with the wrong labels is reported and generates nothing. For a `dynamic`
/// block the labels are those of its `labels` argument.
pub fn check_labels(
    hir: &FileHir,
    b: &HirBlock,
    nb: &NestedBlock,
    out: &mut Vec<Diagnostic>,
) -> bool {
    let want = usize::from(nb.nesting == NestingMode::Map);
    let ty = &b.ty;
    if let Some(d) = &b.dynamic {
        return check_dynamic_labels(hir, ty, d, want, out);
    }
    let given = b.labels.len();
    if given > want {
        let detail = if want == 0 {
            format!("No labels are expected for {ty} blocks.")
        } else {
            format!("Only {want} labels (key) are expected for {ty} blocks.")
        };
        out.push(
            Diagnostic::error("block-labels", format!("Extraneous label for {ty}"))
                .with_detail(detail)
                .with_span(hir.at(b.ty_span)),
        );
        return false;
    }
    if given < want {
        let at = missing_item_range(hir, &b.body).unwrap_or(hir.at(b.ty_span));
        out.push(
            Diagnostic::error("block-labels", format!("Missing key for {ty}"))
                .with_detail(format!("All {ty} blocks must have {want} labels (key)."))
                .with_span(at),
        );
        return false;
    }
    true
}

fn check_dynamic_labels(
    hir: &FileHir,
    ty: &str,
    d: &DynamicBlock,
    want: usize,
    out: &mut Vec<Diagnostic>,
) -> bool {
    let Some((name, value)) = d.labels_at.map(|(n, v)| (hir.at(n), hir.at(v))) else {
        if want == 0 {
            return true;
        }
        out.push(
            Diagnostic::error("missing-argument", "Missing required argument")
                .with_detail("The argument \"labels\" is required, but no definition was found.")
                .with_span(hir.at(d.missing_item)),
        );
        return false;
    };
    if want == 0 {
        out.push(
            Diagnostic::error("unsupported-argument", "Unsupported argument")
                .with_detail("An argument named \"labels\" is not expected here.")
                .with_span(name),
        );
        return false;
    }
    let detail = format!("Blocks of type {ty:?} require {want} label(s).");
    if d.labels.len() > want {
        let at = hir.span(d.labels[want]).unwrap_or(value);
        out.push(
            Diagnostic::error("block-labels", "Extraneous dynamic block label")
                .with_detail(detail)
                .with_span(at),
        );
        return false;
    }
    if d.labels.len() < want {
        out.push(
            Diagnostic::error("block-labels", "Insufficient dynamic block labels")
                .with_detail(detail)
                .with_span(value),
        );
        return false;
    }
    true
}
