//! Evaluation of HIR expressions with Terraform's semantics: unknowns propagate, marks
//! (sensitive) propagate, errors are diagnostics pointing at the offending expression.
//!
//! The evaluator knows nothing of where referenced values come from: callers supply a [`Scope`]
//! (the planner's scope holds planned values, the interpreter's holds applied ones).

mod eval;
mod functions;
mod source_range;

pub use eval::{
    eval_expr, eval_expr_bound, eval_position_free, expression_values, ProviderCallError,
    ProviderFunctionLookup, ProviderFunctions, Scope,
};
pub use functions::{
    call_function, function_names, function_signature, is_function, parse_go_duration,
    parse_rfc3339, CallError, FnContext, FunctionSignature, IMPURE_FUNCTIONS, MONTH_NAMES,
    WEEKDAY_NAMES,
};
