//! Nested blocks against their block type's schema, worded and placed as HCL's decoder reports
//! them in Terraform 1.0.3: unexpected block types, the wrong number of labels, and the number
//! of blocks (`min_items` / `max_items` of list and set blocks, required and duplicate single
//! blocks).

use super::Validator;
use ferro_diag::{Diagnostic, Span};
use ferro_hir::{BlockBody, HirBlock};
use ferro_value::schema::{Block, NestedBlock, NestingMode};
use std::collections::{BTreeMap, BTreeSet};

impl Validator<'_> {
    pub(super) fn nested_blocks(&mut self, body: &BlockBody, schema: &Block, block_span: Span) {
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
            self.body_schema(&b.body, &nb.block, self.hir.at(b.ty_span));
        }
        let missing_item = self.missing_item_range(body).unwrap_or(block_span);
        for (name, nb) in &schema.block_types {
            if dynamic.contains(name.as_str()) {
                // How many blocks a `dynamic` block makes is known statically only when its
                // `for_each` is a literal; otherwise the planner counts them after expansion.
                if let Some(blocks) = self.static_blocks(body, name, nb) {
                    let (_, fname, text) = self.source;
                    let range = |s: Span| ferro_diag::hcl_range(fname, text, s);
                    let missing = crate::missing_item_range(self.hir, body).unwrap_or(block_span);
                    self.out
                        .extend(crate::count_diagnostics(name, nb, &blocks, missing, &range));
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
                                .with_span(missing_item),
                        );
                    }
                    if let [first, second, ..] = blocks {
                        let at = ferro_diag::hcl_range(
                            self.source.1,
                            self.source.2,
                            self.hir.at(first.ty_span),
                        );
                        self.out.push(
                            Diagnostic::error("duplicate-block", format!("Duplicate {name} block"))
                                .with_detail(format!("Only one block of type {name:?} is allowed. Previous definition was at {at}."))
                                .with_span(self.hir.at(second.ty_span)),
                        );
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
                            .with_span(missing_item),
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
                                .with_span(
                                    self.missing_item_range(&extra.body)
                                        .unwrap_or(self.hir.at(extra.ty_span)),
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
        block_span: Span,
    ) {
        for b in &body.blocks {
            if let Some((_, nb)) = self.nested_type(b, schema) {
                if crate::check_labels(self.hir, b, nb, &mut self.out) {
                    self.body_schema(&b.body, &nb.block, self.hir.at(b.ty_span));
                }
            }
        }
        let missing = crate::missing_item_range(self.hir, body).unwrap_or(block_span);
        for (name, nb) in &schema.block_types {
            if let Some(blocks) = self.static_blocks(body, name, nb) {
                let (_, fname, text) = self.source;
                let range = |s: Span| ferro_diag::hcl_range(fname, text, s);
                self.out
                    .extend(crate::count_diagnostics(name, nb, &blocks, missing, &range));
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
            self.body_schema(&b.body, &block, self.hir.at(b.span));
            return None;
        }
        let mut detail = format!("Blocks of type {:?} are not expected here.", b.ty);
        if schema.attributes.contains_key(&b.ty) {
            detail.push_str(&format!(" Did you mean to define argument {:?}? If so, use the equals sign to assign it a value.", b.ty));
        }
        self.out.push(
            Diagnostic::error("unsupported-block-type", "Unsupported block type")
                .with_detail(detail)
                .with_span(self.hir.at(b.ty_span)),
        );
        None
    }

    /// HCL's label check for a nested block: map blocks take one label (`key`), the others none.
    fn labels_ok(&mut self, b: &HirBlock, nb: &NestedBlock) -> bool {
        if b.dynamic.is_some() {
            // A `dynamic` block's `labels` are checked with dynblock's own rules and words.
            return crate::check_labels(self.hir, b, nb, &mut self.out);
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
            let span = match b.dynamic {
                None => self.open_brace(&b.body),
                Some(_) => None,
            };
            Diagnostic::error("block-labels", format!("Missing {} for {ty}", names[count]))
                .with_detail(format!(
                    "All {ty} blocks must have {} labels ({}).",
                    names.len(),
                    names.join(", ")
                ))
                .with_span(span.unwrap_or(self.hir.at(b.ty_span)))
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
            let span = match b.dynamic {
                None => self.label_spans(b).get(names.len()).copied(),
                Some(_) => None,
            };
            Diagnostic::error("block-labels", format!("Extraneous label for {ty}"))
                .with_detail(detail)
                .with_span(span.unwrap_or(self.hir.at(b.ty_span)))
        };
        self.out.push(diag);
        false
    }

    /// The `{` opening a native-syntax body.
    fn open_brace(&self, body: &BlockBody) -> Option<Span> {
        let s = body
            .span
            .map(|s| self.hir.at(s))
            .filter(|s| !body.json && s.file == self.source.0)?;
        let brace = s.start.checked_sub(1)?;
        (self.source.2.as_bytes().get(brace as usize) == Some(&b'{')).then_some(Span {
            start: brace,
            end: s.start,
            ..s
        })
    }

    /// Where HCL reports something missing from a body (`MissingItemRange`): its `{`, except
    /// that a one-line body such as `{ label = "x" }` starts at its argument.
    pub(super) fn missing_item_range(&self, body: &BlockBody) -> Option<Span> {
        let brace = self.open_brace(body)?;
        let text = self.source.2;
        let after = &text[brace.end as usize..];
        let rest = after.trim_start_matches([' ', '\t']);
        let one_line = rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_');
        if !one_line {
            return Some(brace);
        }
        let start = brace.end + (after.len() - rest.len()) as u32;
        let width = rest.chars().next().map_or(1, char::len_utf8) as u32;
        Some(Span {
            start,
            end: start + width,
            ..brace
        })
    }

    /// The spans of a native-syntax block's labels (quoted strings or bare names after its type).
    fn label_spans(&self, b: &HirBlock) -> Vec<Span> {
        let mut out = Vec::new();
        if b.body.json || self.hir.at(b.ty_span).file != self.source.0 {
            return out;
        }
        let bytes = self.source.2.as_bytes();
        let mut i = self.hir.at(b.ty_span).end as usize;
        loop {
            while matches!(bytes.get(i), Some(b' ' | b'\t')) {
                i += 1;
            }
            let start = i;
            match bytes.get(i) {
                Some(b'"') => {
                    i += 1;
                    while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                    i = (i + 1).min(bytes.len());
                }
                Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                    while bytes
                        .get(i)
                        .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
                    {
                        i += 1;
                    }
                }
                _ => return out,
            }
            out.push(Span {
                start: start as u32,
                end: i as u32,
                ..self.hir.at(b.ty_span)
            });
        }
    }
}
