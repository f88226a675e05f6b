//! Lowering `dynamic "name" { for_each, iterator, labels, content { … } }` blocks (in both
//! syntaxes: the JSON mapping makes the same blocks): the content body becomes a block of type
//! `name` marked with its generator; the iterator is in scope in `labels` and `content` (as a
//! bound name, like a `for` expression's variables). A dynamic block with any error in its own
//! body generates nothing, as Terraform drops it.

use super::{HirBlock, Lower};
use crate::items::{BlockBody, DynamicBlock};
use ferro_syntax::ast::{self, BodyItem, ExprKind};

impl Lower {
    pub(super) fn dynamic_block(&mut self, b: &ast::Block) -> Option<HirBlock> {
        let labels = self.labels(b, "dynamic", 1)?;
        let ty = labels[0].clone();
        // Where HCL points at something missing from the body: its opening brace, or in JSON
        // the closing one.
        let missing_item = if self.json {
            b.close_brace
        } else {
            b.open_brace
        };
        let mut failed = false;
        let mut for_each = None;
        let mut iterator = ty.clone();
        let mut label_attr: Option<&ast::Attribute> = None;
        let mut content: Option<&ast::Block> = None;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "for_each" => for_each = Some(self.expr(&a.expr)),
                    "iterator" => match &a.expr.kind {
                        ExprKind::Variable(id) => iterator = id.name.to_string(),
                        _ => {
                            failed = true;
                            self.error(
                                "invalid-dynamic-iterator",
                                "Invalid dynamic iterator name",
                                "Dynamic iterator must be a single variable name.",
                                a.expr.span,
                            )
                        }
                    },
                    "labels" => label_attr = Some(a),
                    other => {
                        failed = true;
                        if self.json {
                            self.error(
                                "dynamic-unsupported-argument",
                                "Extraneous JSON object property",
                                format!("No argument or block type is named {other:?}."),
                                a.name.span,
                            )
                        } else {
                            // Terraform finds it when it expands the block (validate).
                            self.error(
                                "dynamic-unsupported-argument",
                                "Unsupported argument",
                                format!("An argument named {other:?} is not expected here."),
                                a.name.span,
                            )
                        }
                    }
                },
                BodyItem::Block(inner) if inner.ty.name.as_str() == "content" => {
                    if content.is_some() {
                        failed = true;
                        self.error(
                            "duplicate-content",
                            "Extraneous dynamic content block",
                            "Only one nested content block is allowed for each dynamic block.",
                            inner.ty.span,
                        );
                    } else {
                        content = Some(inner);
                    }
                }
                BodyItem::Block(inner) => {
                    failed = true;
                    self.error(
                        "dynamic-unsupported-block",
                        "Unsupported block type",
                        format!("Blocks of type {:?} are not expected here.", inner.ty.name),
                        inner.ty.span,
                    )
                }
            }
        }
        let Some(for_each) = for_each else {
            self.error(
                "dynamic-missing-argument",
                "Missing required argument",
                "The argument \"for_each\" is required, but no definition was found.",
                missing_item,
            );
            return None;
        };
        let Some(content) = content else {
            self.error(
                "missing-content",
                "Missing dynamic content block",
                "A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.",
                missing_item,
            );
            return None;
        };
        self.for_scope.push(iterator.clone());
        let labels = match label_attr.map(|a| &a.expr) {
            Some(e) => match &e.kind {
                ExprKind::Tuple(items) => items.iter().map(|it| self.expr(it)).collect(),
                _ => {
                    failed = true;
                    self.error(
                        "invalid-dynamic-labels",
                        "Invalid dynamic block labels",
                        "The labels argument must be a list of label expressions.",
                        e.span,
                    );
                    Vec::new()
                }
            },
            None => Vec::new(),
        };
        let (ty_span, span) = (self.sp(b.labels[0].span), self.sp(b.span));
        let body: BlockBody = self.body(&content.body);
        self.for_scope.pop();
        if failed {
            return None;
        }
        let labels_at = label_attr.map(|a| (self.sp(a.name.span), self.sp(a.expr.span)));
        let missing_item = self.sp(missing_item);
        Some(HirBlock {
            ty,
            ty_span,
            labels: Vec::new(),
            body,
            span,
            dynamic: Some(Box::new(DynamicBlock {
                for_each,
                iterator,
                labels,
                labels_at,
                missing_item,
            })),
        })
    }
}
