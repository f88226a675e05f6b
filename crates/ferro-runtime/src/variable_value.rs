//! An input variable's value: converted to its declared type (defaults of `optional`
//! attributes first), refused when null for a non-nullable variable, marked when sensitive.

use ferro_addrs::ModuleInstance;
use ferro_diag::Diagnostic;
use ferro_value::convert::convert;
use ferro_value::{Type, Value};

/// Why `value` does not convert to the variable's declared type (defaults of `optional`
/// attributes applied first), as the conversion says it; None when it converts.
pub fn variable_conversion_error(var: &ferro_hir::Variable, value: &Value) -> Option<String> {
    let ty = var.ty.clone().unwrap_or(Type::Dynamic);
    let value = match &var.defaults {
        Some(d) => ferro_value::defaults::apply_defaults(value, d),
        None => value.clone(),
    };
    convert(&value, &ty).err().map(|e| e.message)
}

/// Convert a variable's value to its declared type (defaults of `optional` attributes first),
/// refusing null for a non-nullable variable and marking a sensitive one.
pub fn convert_variable(
    var: &ferro_hir::Variable,
    value: Value,
    span: Option<ferro_diag::Span>,
    module: &ModuleInstance,
) -> Result<Value, Diagnostic> {
    let ty = var.ty.clone().unwrap_or(Type::Dynamic);
    let value = match &var.defaults {
        Some(d) => ferro_value::defaults::apply_defaults(&value, d),
        None => value,
    };
    let name = &var.name;
    let converted = convert(&value, &ty).map_err(|e| {
        let (summary, detail) = if module.is_root() {
            (
                "Invalid value for input variable",
                format!(
                    "The given value is not suitable for var.{name}: {}.",
                    e.message
                ),
            )
        } else {
            (
                "Invalid value for module argument",
                format!(
                    "The given value is not suitable for child module variable {name:?}: {}.",
                    e.message
                ),
            )
        };
        Diagnostic::error("invalid-variable-value", summary)
            .with_detail(detail)
            .with_span_opt(span)
    })?;
    if converted.is_null() && !var.nullable {
        return Err(
            Diagnostic::error("invalid-variable-value", "Required variable not set")
                .with_detail(format!(
                    "The variable {name:?} is required, but the given value is null."
                ))
                .with_span_opt(span),
        );
    }
    // A variable declared ephemeral (Terraform 1.10) marks its value so; any other may not
    // be given an ephemeral one (a module's caller passing one on).
    let converted = if var.ephemeral {
        converted.with_marks(ferro_value::Marks::EPHEMERAL)
    } else if converted.contains_ephemeral() {
        return Err(ephemeral_not_allowed(
            "This input variable is not declared as accepting ephemeral values, so it cannot be set to a result derived from an ephemeral value.",
            span,
        ));
    } else {
        converted
    };
    Ok(if var.sensitive {
        converted.mark_sensitive()
    } else {
        converted
    })
}

/// Terraform's error for an ephemeral value where the declaration does not allow one.
pub fn ephemeral_not_allowed(detail: &str, span: Option<ferro_diag::Span>) -> Diagnostic {
    Diagnostic::error("ephemeral-not-allowed", "Ephemeral value not allowed")
        .with_detail(detail)
        .with_span_opt(span)
}
