//! Input variable `validation` rules, checked on a variable's final value (after conversion
//! to its type), with Terraform's message: the rule's own error message, then where the rule is.

use ferro_diag::hcl_range;
use ferro_diag::Diagnostic;
use ferro_eval::{eval_expr, Scope};
use ferro_hir::{ExprId, FileHir, Reference, Variable};
use ferro_value::{Type, Value};

/// The variable being checked, and (as in Terraform 1.9+) whatever else of the module its
/// rules refer to, from `others`.
struct VarScope<'a> {
    name: &'a str,
    value: &'a Value,
    others: &'a dyn Scope,
}

impl Scope for VarScope<'_> {
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        match r {
            Reference::Var(n) if n == self.name => Ok(self.value.clone()),
            _ => self.others.reference(r),
        }
    }
}

/// The text of a failed rule's `error_message` (a string expression since Terraform 1.2).
fn error_message(hir: &FileHir, scope: &VarScope, expr: ExprId) -> Result<String, Diagnostic> {
    let (value, diags) = eval_expr(hir, scope, expr);
    if let Some(d) = diags.into_iter().find(Diagnostic::is_error) {
        return Err(d);
    }
    let text = ferro_value::convert::convert(&value.deep_unmark().0, &Type::String)
        .ok()
        .and_then(|s| s.as_str().map(str::to_string));
    text.ok_or_else(|| {
        Diagnostic::error("invalid-error-message", "Invalid error message")
            .with_detail("Unsuitable value for error message: a string is required.")
            .with_span_opt(hir.span(expr))
    })
}

/// Check every rule of `var` (declared in `hir`, a file named `name` with `text`) against
/// `value`, other references read from `others`; the first failure is the error. Unknown
/// values pass: they are checked at apply.
pub fn check_validations(
    hir: &FileHir,
    (name, text): (&str, &str),
    var: &Variable,
    value: &Value,
    others: &dyn Scope,
) -> Result<(), Diagnostic> {
    if !value.is_wholly_known() {
        return Ok(());
    }
    let scope = VarScope {
        name: &var.name,
        value,
        others,
    };
    for rule in &var.validations {
        let (result, diags) = eval_expr(hir, &scope, rule.condition);
        if let Some(d) = diags.into_iter().find(Diagnostic::is_error) {
            return Err(d);
        }
        if !result.is_known() {
            continue;
        }
        let ok = ferro_value::convert::convert(&result.unmarked(), &Type::Bool)
            .ok()
            .and_then(|b| b.as_bool());
        match ok {
            Some(true) => {}
            Some(false) => {
                let message = error_message(hir, &scope, rule.error_message)?;
                return Err(Diagnostic::error(
                    "invalid-variable-value",
                    "Invalid value for variable",
                )
                .with_detail(format!(
                    "{}\n\nThis was checked by the validation rule at {}.",
                    message.trim_end(),
                    hcl_range(name, text, hir.at(rule.span))
                ))
                .with_span(hir.at(var.span)));
            }
            None => {
                return Err(Diagnostic::error(
                    "invalid-validation-result",
                    "Invalid validation result",
                )
                .with_detail("Validation condition expression must return either true or false.")
                .with_span_opt(hir.span(rule.condition)));
            }
        }
    }
    Ok(())
}
