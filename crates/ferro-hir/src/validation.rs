//! Lowering a variable's `validation { condition, error_message }` block, with the static rules
//! of Terraform 1.9+: the condition must refer to the variable, and it and the message (a string
//! expression, not the literal sentence Terraform 1.0 wanted) may refer to the rest of the
//! module too. Real modules written for later versions rely on both.

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
                    _ => self.unsupported_argument(a),
                },
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        let Some((condition, cond_span)) = condition else {
            self.error(
                "missing-argument",
                "Missing required argument",
                "The argument \"condition\" is required, but no definition was found.",
                Self::missing_item_span(b),
            );
            return None;
        };
        let Some((error_message, _)) = message else {
            self.error(
                "missing-argument",
                "Missing required argument",
                "The argument \"error_message\" is required, but no definition was found.",
                Self::missing_item_span(b),
            );
            return None;
        };
        // Terraform 1.9+: the rule may refer to the rest of the module (other variables,
        // locals, resources, …), but the condition must still test the variable itself.
        let mut refers_to_var = false;
        walk_references(&self.hir.exprs, condition, &mut |_, r| {
            if matches!(r, Reference::Var(n) if n == var) {
                refers_to_var = true;
            }
        });
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
