//! Lowering a variable's `validation { condition, error_message }` block, with the static rules
//! of Terraform 1.2 to 1.8: the condition must refer to the variable (and to nothing else); the
//! message is a string expression that may refer to the variable and to nothing else (Terraform
//! 1.0 wanted a literal sentence there, which real modules written for later versions do not
//! keep to).

use super::Lower;
use crate::expr::{walk_references, Reference};
use crate::items::VariableValidation;
use ferro_syntax::ast::{self, BodyItem};

impl Lower {
    pub(super) fn validation_rule(
        &mut self,
        b: &ast::Block,
        var: &str,
    ) -> Option<VariableValidation> {
        let mut condition = None;
        let mut message = None;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "condition" => condition = Some((self.expr(&a.expr), a.expr.span)),
                    "error_message" => message = Some((self.expr(&a.expr), a.expr.span)),
                    other => self.error(
                        "unsupported-argument",
                        "Unsupported argument",
                        format!("An argument named {other:?} is not expected here."),
                        a.name.span,
                    ),
                },
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
        let Some((condition, cond_span)) = condition else {
            self.error(
                "missing-argument",
                "Missing required argument",
                "The argument \"condition\" is required, but no definition was found.",
                b.body.span,
            );
            return None;
        };
        let Some((error_message, message_span)) = message else {
            self.error(
                "missing-argument",
                "Missing required argument",
                "The argument \"error_message\" is required, but no definition was found.",
                b.body.span,
            );
            return None;
        };
        let mut refers_to_var = false;
        let mut others = false;
        walk_references(&self.hir.exprs, condition, &mut |_, r| match r {
            Reference::Var(n) if n == var => refers_to_var = true,
            _ => others = true,
        });
        if others {
            self.error(
                "invalid-validation-reference",
                "Invalid reference in variable validation",
                format!("The condition for variable {var:?} can only refer to the variable itself, using var.{var}."),
                cond_span,
            );
            return None;
        }
        let mut message_others = false;
        walk_references(&self.hir.exprs, error_message, &mut |_, r| match r {
            Reference::Var(n) if n == var => {}
            _ => message_others = true,
        });
        if message_others {
            self.error(
                "invalid-validation-reference",
                "Invalid reference in variable validation",
                format!("The error message for variable {var:?} can only refer to the variable itself, using var.{var}."),
                message_span,
            );
            return None;
        }
        if !refers_to_var {
            self.error(
                "invalid-validation-condition",
                "Invalid variable validation condition",
                format!("The condition for variable {var:?} must refer to var.{var} in order to test incoming values."),
                cond_span,
            );
            return None;
        }
        Some(VariableValidation {
            condition,
            error_message,
            span: self.sp(b.ty.span),
        })
    }
}
