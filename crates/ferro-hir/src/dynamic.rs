//! Lowering `dynamic "name" { for_each, iterator, labels, content { … } }` blocks: the content
//! body becomes a block of type `name` marked with its generator; the iterator is in scope in
//! `labels` and `content` (as a bound name, like a `for` expression's variables).

use super::{HirBlock, Lower};
use crate::items::{BlockBody, DynamicBlock};
use ferro_syntax::ast::{self, BodyItem, ExprKind};

impl Lower {
    pub(super) fn dynamic_block(&mut self, b: &ast::Block) -> Option<HirBlock> {
        let labels = self.labels(b, "dynamic", 1)?;
        let ty = labels[0].clone();
        let mut for_each = None;
        let mut iterator = ty.clone();
        let mut label_exprs: Option<&ast::Expr> = None;
        let mut content: Option<&ast::Block> = None;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "for_each" => for_each = Some(self.expr(&a.expr)),
                    "iterator" => match &a.expr.kind {
                        ExprKind::Variable(id) => iterator = id.name.to_string(),
                        _ => self.error(
                            "invalid-dynamic-iterator",
                            "Invalid dynamic iterator name",
                            "Dynamic iterator must be a single variable name.",
                            a.expr.span,
                        ),
                    },
                    "labels" => label_exprs = Some(&a.expr),
                    other => self.error(
                        "unsupported-argument",
                        "Unsupported argument",
                        format!("An argument named {other:?} is not expected here."),
                        a.name.span,
                    ),
                },
                BodyItem::Block(inner) if inner.ty.name.as_str() == "content" => {
                    if content.is_some() {
                        self.error(
                            "duplicate-content",
                            "Duplicate content block",
                            "Only one content block is allowed in a dynamic block.",
                            inner.ty.span,
                        );
                    } else {
                        content = Some(inner);
                    }
                }
                BodyItem::Block(inner) => self.error(
                    "unsupported-block-type",
                    "Unsupported block type",
                    format!(
                        "Blocks of type {:?} are not expected here.",
                        inner.ty.name.as_str()
                    ),
                    inner.ty.span,
                ),
            }
        }
        let Some(for_each) = for_each else {
            self.error(
                "missing-argument",
                "Missing required argument",
                "The argument \"for_each\" is required, but no definition was found.",
                b.body.span,
            );
            return None;
        };
        let Some(content) = content else {
            self.error(
                "missing-content",
                "Missing content block",
                "A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.",
                b.body.span,
            );
            return None;
        };
        self.for_scope.push(iterator.clone());
        let labels = match label_exprs {
            Some(e) => match &e.kind {
                ExprKind::Tuple(items) => items.iter().map(|it| self.expr(it)).collect(),
                _ => {
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
            })),
        })
    }
}
