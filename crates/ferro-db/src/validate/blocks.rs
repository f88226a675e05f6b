//! Nested blocks against their block type's schema, worded and placed as HCL's decoder reports
//! them in Terraform 1.0.3: unexpected block types, the wrong number of labels, and the number
//! of blocks (`min_items` / `max_items` of list and set blocks, required and duplicate single
//! blocks).

use super::{Finding, Found, Validator};
use crate::pending::{At, Pending, Place, PREVIOUS_MARK};
use ferro_diag::Diagnostic;
use ferro_hir::{BlockBody, HirBlock, SpanId};
use ferro_value::schema::{Block, NestedBlock, NestingMode};
use std::collections::{BTreeMap, BTreeSet};

impl Validator<'_> {
    pub(super) fn nested_blocks(&mut self, body: &BlockBody, schema: &Block, block_span: SpanId) {
        if body.json {
            self.nested_blocks_json(body, schema, block_span);
            return;
        }
        let mut given: BTreeMap<&str, Vec<&HirBlock>> = BTreeMap::new();
        let mut dynamic: BTreeSet<&str> = BTreeSet::new();
        for b in &body.blocks {
            let Some((name, nb)) = self.nested_type(b, schema) else {
                continue;
            };
            // HCL leaves a block with the wrong labels out of the body's content: it is
            // neither decoded nor counted.
            if !self.labels_ok(b, nb) {
                continue;
            }
            given.entry(name.as_str()).or_default().push(b);
            if b.dynamic.is_some() {
                dynamic.insert(name.as_str());
            }
            self.body_schema(&b.body, &nb.block, b.ty_span);
        }
        let missing_item = self.missing_item_range(body, block_span);
        for (name, nb) in &schema.block_types {
            if dynamic.contains(name.as_str()) {
                // How many blocks a `dynamic` block makes is known statically only when its
                // `for_each` is a literal; otherwise the planner counts them after expansion.
                if let Some(blocks) = self.static_blocks(body, name, nb) {
                    let missing = body_edge(body, block_span);
                    self.counts(name, nb, &blocks, missing);
                }
                continue;
            }
            let blocks = given.get(name.as_str()).map_or(&[][..], Vec::as_slice);
            let n = blocks.len() as u64;
            match nb.nesting {
                NestingMode::Single | NestingMode::Group => {
                    if n == 0 && nb.nesting == NestingMode::Single && nb.min_items == 1 {
                        self.out.push(
                            Diagnostic::error("missing-block", format!("Missing {name} block"))
                                .with_detail(format!("A block of type {name:?} is required here."))
                                .found(self.file, missing_item),
                        );
                    }
                    if let [first, second, ..] = blocks {
                        let d = Diagnostic::error("duplicate-block", format!("Duplicate {name} block"))
                            .with_detail(format!("Only one block of type {name:?} is allowed. Previous definition was at {PREVIOUS_MARK}."));
                        let p = Pending::new(d, Place::new(self.file, At::Id(second.ty_span)))
                            .with_previous(Place::new(self.file, At::Id(first.ty_span)));
                        self.out.push(Finding::Pending(p));
                    }
                }
                NestingMode::List | NestingMode::Set => {
                    if n < nb.min_items {
                        self.out.push(
                            Diagnostic::error(
                                "insufficient-blocks",
                                format!("Insufficient {name} blocks"),
                            )
                            .with_detail(format!(
                                "At least {} {name:?} blocks are required.",
                                nb.min_items
                            ))
                            .found(self.file, missing_item),
                        );
                    } else if nb.max_items > 0 && n > nb.max_items {
                        let extra = blocks[nb.max_items as usize];
                        // HCL's wording has no final full stop here.
                        self.out.push(
                            Diagnostic::error("too-many-blocks", format!("Too many {name} blocks"))
                                .with_detail(format!(
                                    "No more than {} {name:?} blocks are allowed",
                                    nb.max_items
                                ))
                                .found(
                                    self.file,
                                    self.missing_item_range(&extra.body, extra.ty_span),
                                ),
                        );
                    }
                }
                NestingMode::Map => {}
            }
        }
    }

    /// Nested blocks of a JSON body: types, labels and counts as the JSON syntax gives them
    /// (a `dynamic` property's blocks are checked by dynblock's rules).
    pub(super) fn nested_blocks_json(
        &mut self,
        body: &BlockBody,
        schema: &Block,
        block_span: SpanId,
    ) {
        for b in &body.blocks {
            if let Some((_, nb)) = self.nested_type(b, schema) {
                if self.labels_checked(b, nb) {
                    self.body_schema(&b.body, &nb.block, b.ty_span);
                }
            }
        }
        let missing = body_edge(body, block_span);
        for (name, nb) in &schema.block_types {
            if let Some(blocks) = self.static_blocks(body, name, nb) {
                self.counts(name, nb, &blocks, missing);
            }
        }
    }

    /// The nested block type `b` is of. A block for a list/set-of-objects attribute is checked
    /// against the object's attributes here, and a type the schema does not have is reported;
    /// both give None.
    fn nested_type<'s>(
        &mut self,
        b: &HirBlock,
        schema: &'s Block,
    ) -> Option<(&'s String, &'s NestedBlock)> {
        if let Some(found) = schema.block_types.get_key_value(&b.ty) {
            return Some(found);
        }
        if let Some((_, block)) = schema
            .attributes
            .get(&b.ty)
            .filter(|a| a.nested.is_none())
            .and_then(|a| ferro_value::schema::attribute_as_blocks(&a.ty))
        {
            // A list/set-of-objects attribute written as blocks.
            self.body_schema(&b.body, &block, b.span);
            return None;
        }
        let mut detail = format!("Blocks of type {:?} are not expected here.", b.ty);
        if schema.attributes.contains_key(&b.ty) {
            detail.push_str(&format!(" Did you mean to define argument {:?}? If so, use the equals sign to assign it a value.", b.ty));
        }
        self.out.push(
            Diagnostic::error("unsupported-block-type", "Unsupported block type")
                .with_detail(detail)
                .found(self.file, At::Id(b.ty_span)),
        );
        None
    }

    /// [`crate::check_labels`], reporting the problem.
    fn labels_checked(&mut self, b: &HirBlock, nb: &NestedBlock) -> bool {
        match crate::check_labels(b, nb) {
            Some((d, at)) => {
                self.out.push(d.found(self.file, at));
                false
            }
            None => true,
        }
    }

    /// The count problems of `blocks` of type `name` (see [`crate::count_problems`]).
    fn counts(&mut self, name: &str, nb: &NestedBlock, blocks: &[crate::Counted<At>], missing: At) {
        let problems =
            crate::count_problems(name, nb, blocks, missing, &|_| PREVIOUS_MARK.to_string());
        for (d, at) in problems {
            let mut p = Pending::new(d, Place::new(self.file, at));
            if p.diag.detail.contains(PREVIOUS_MARK) {
                p = p.with_previous(Place::new(self.file, blocks[0].ty));
            }
            self.out.push(Finding::Pending(p));
        }
    }

    /// HCL's label check for a nested block: map blocks take one label (`key`), the others none.
    fn labels_ok(&mut self, b: &HirBlock, nb: &NestedBlock) -> bool {
        if b.dynamic.is_some() {
            // A `dynamic` block's `labels` are checked with dynblock's own rules and words.
            return self.labels_checked(b, nb);
        }
        let names: &[&str] = if nb.nesting == NestingMode::Map {
            &["key"]
        } else {
            &[]
        };
        let count = match &b.dynamic {
            Some(d) => d.labels.len(),
            None => b.labels.len(),
        };
        if count == names.len() {
            return true;
        }
        let ty = &b.ty;
        let diag = if count < names.len() {
            let at = match (b.dynamic.is_some(), b.body.span.filter(|_| !b.body.json)) {
                (false, Some(body)) => At::OpenBrace {
                    body,
                    or: b.ty_span,
                },
                _ => At::Id(b.ty_span),
            };
            Diagnostic::error("block-labels", format!("Missing {} for {ty}", names[count]))
                .with_detail(format!(
                    "All {ty} blocks must have {} labels ({}).",
                    names.len(),
                    names.join(", ")
                ))
                .found(self.file, at)
        } else {
            let detail = if names.is_empty() {
                format!("No labels are expected for {ty} blocks.")
            } else {
                format!(
                    "Only {} labels ({}) are expected for {ty} blocks.",
                    names.len(),
                    names.join(", ")
                )
            };
            let at = if b.dynamic.is_none() && !b.body.json {
                At::Label {
                    ty: b.ty_span,
                    n: names.len() as u32,
                }
            } else {
                At::Id(b.ty_span)
            };
            Diagnostic::error("block-labels", format!("Extraneous label for {ty}"))
                .with_detail(detail)
                .found(self.file, at)
        };
        self.out.push(diag);
        false
    }

    /// Where HCL's decoder reports something missing from `body`: see [`At::MissingItem`];
    /// `or` when the body is not native text.
    pub(super) fn missing_item_range(&self, body: &BlockBody, or: SpanId) -> At {
        match body.span.filter(|_| !body.json) {
            Some(body) => At::MissingItem { body, or },
            None => At::Id(or),
        }
    }
}

/// HCL's `MissingItemRange` of a body as counting reports it, or the block's range when the
/// body has none.
fn body_edge(body: &BlockBody, block: SpanId) -> At {
    match body.span {
        Some(s) => At::BodyEdge {
            body: s,
            json: body.json,
        },
        None => At::Id(block),
    }
}
