//! How many blocks of each nested type a body has, and the labels of `dynamic` blocks, checked
//! as Terraform 1.0.3 checks them (hcldec's `MinItems`/`MaxItems`, one block for single and
//! group nesting, dynblock's label rules), with its wording and ranges.
//!
//! The count is taken after `dynamic` blocks are expanded. Static validation counts what is
//! known without evaluating (written blocks, and `dynamic` blocks whose `for_each` is a literal);
//! when a `dynamic` block's `for_each` is not known the count is not checked, as Terraform
//! decodes the whole block list as unknown then. Planning counts the blocks the evaluation
//! generated (`ferro_planner::config_value`).

use crate::pending::At;
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
/// is written. Ranges for the planner, [`At`]s for validation.
#[derive(Debug, Clone, Copy)]
pub struct Counted<P = Span> {
    pub brace: P,
    pub ty: P,
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

impl Counted<At> {
    /// [`Counted::of`] without positions.
    pub fn place(block: &HirBlock) -> Counted<At> {
        let ty = At::Id(block.ty_span);
        Counted {
            brace: block
                .body
                .span
                .map(|body| At::BodyEdge { body, json: false })
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
    count_problems(ty, nb, blocks, missing, &|s: &Span| range_text(*s))
        .into_iter()
        .map(|(d, at)| d.with_span(at))
        .collect()
}

/// [`count_diagnostics`] for any kind of position: each problem with where it points.
/// `range_text` gives the words for the first block's range in "Previous definition was at …"
/// (validation gives a mark it replaces when the range is known).
pub fn count_problems<P: Clone>(
    ty: &str,
    nb: &NestedBlock,
    blocks: &[Counted<P>],
    missing: P,
    range_text: &dyn Fn(&P) -> String,
) -> Vec<(Diagnostic, P)> {
    let mut out = Vec::new();
    let n = blocks.len() as u64;
    match nb.nesting {
        NestingMode::Single | NestingMode::Group => {
            if n > 1 {
                out.push((
                    Diagnostic::error("duplicate-block", format!("Duplicate {ty} block"))
                        .with_detail(format!(
                        "Only one block of type {ty:?} is allowed. Previous definition was at {}.",
                        range_text(&blocks[0].ty)
                    )),
                    blocks[1].ty.clone(),
                ));
            } else if n == 0 && nb.min_items >= 1 && nb.nesting == NestingMode::Single {
                out.push((
                    Diagnostic::error("missing-block", format!("Missing {ty} block"))
                        .with_detail(format!("A block of type {ty:?} is required here.")),
                    missing,
                ));
            }
        }
        NestingMode::List | NestingMode::Set => {
            if n < nb.min_items {
                out.push((
                    Diagnostic::error("insufficient-blocks", format!("Insufficient {ty} blocks"))
                        .with_detail(format!(
                            "At least {} {ty:?} blocks are required.",
                            nb.min_items
                        )),
                    missing,
                ));
            }
            if nb.max_items > 0 && n > nb.max_items {
                out.push((
                    Diagnostic::error("too-many-blocks", format!("Too many {ty} blocks"))
                        .with_detail(format!(
                            "No more than {} {ty:?} blocks are allowed",
                            nb.max_items
                        )),
                    blocks[nb.max_items as usize].brace.clone(),
                ));
            }
        }
        NestingMode::Map => {}
    }
    out
}

/// Whether a block has the labels its type takes (one, the key, for map nesting; none
/// otherwise): the problem and where it is when not. A block with the wrong labels generates
/// nothing. For a `dynamic` block the labels are those of its `labels` argument.
pub fn check_labels(b: &HirBlock, nb: &NestedBlock) -> Option<(Diagnostic, At)> {
    let want = usize::from(nb.nesting == NestingMode::Map);
    let ty = &b.ty;
    if let Some(d) = &b.dynamic {
        return check_dynamic_labels(ty, d, want);
    }
    let given = b.labels.len();
    if given > want {
        let detail = if want == 0 {
            format!("No labels are expected for {ty} blocks.")
        } else {
            format!("Only {want} labels (key) are expected for {ty} blocks.")
        };
        return Some((
            Diagnostic::error("block-labels", format!("Extraneous label for {ty}"))
                .with_detail(detail),
            At::Id(b.ty_span),
        ));
    }
    if given < want {
        let at = match b.body.span {
            Some(body) => At::BodyEdge {
                body,
                json: b.body.json,
            },
            None => At::Id(b.ty_span),
        };
        return Some((
            Diagnostic::error("block-labels", format!("Missing key for {ty}"))
                .with_detail(format!("All {ty} blocks must have {want} labels (key).")),
            at,
        ));
    }
    None
}

fn check_dynamic_labels(ty: &str, d: &DynamicBlock, want: usize) -> Option<(Diagnostic, At)> {
    let Some((name, value)) = d.labels_at else {
        if want == 0 {
            return None;
        }
        return Some((
            Diagnostic::error("missing-argument", "Missing required argument")
                .with_detail("The argument \"labels\" is required, but no definition was found."),
            At::Id(d.missing_item),
        ));
    };
    if want == 0 {
        return Some((
            Diagnostic::error("unsupported-argument", "Unsupported argument")
                .with_detail("An argument named \"labels\" is not expected here."),
            At::Id(name),
        ));
    }
    let detail = format!("Blocks of type {ty:?} require {want} label(s).");
    if d.labels.len() > want {
        return Some((
            Diagnostic::error("block-labels", "Extraneous dynamic block label").with_detail(detail),
            At::ExprOr(d.labels[want], value),
        ));
    }
    if d.labels.len() < want {
        return Some((
            Diagnostic::error("block-labels", "Insufficient dynamic block labels")
                .with_detail(detail),
            At::Id(value),
        ));
    }
    None
}
