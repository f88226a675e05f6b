//! The functions of the test provider `terraform.io/builtin/ferrotest`
//! (`provider::ferrotest::NAME` once a module requires it), one per rule of provider-defined
//! function calls:
//!
//! * `greet(name string) string`: `"Hello, NAME!"`;
//! * `sum(numbers... number) number`: a variadic parameter;
//! * `positive(n number) number`: `n`, or an error about the argument (`function_argument`)
//!   when it is not above zero;
//! * `fail(message string) string`: always an error about the call as a whole;
//! * `describe(value any) string`: accepts null and unknown arguments and says which it got
//!   (`"null"`, `"unknown"`, or the value's type).

use crate::FunctionError;
use ferro_value::schema::{FunctionDecl, FunctionParam};
use ferro_value::{Number, Type, Value};
use std::collections::BTreeMap;

fn decl(params: Vec<FunctionParam>, ret: Type, summary: &str) -> FunctionDecl {
    FunctionDecl {
        params,
        variadic: None,
        return_type: ret,
        summary: summary.to_string(),
        description: String::new(),
        description_markdown: false,
        deprecation_message: String::new(),
    }
}

/// The declarations, as the schema lists them.
pub fn functions() -> BTreeMap<String, FunctionDecl> {
    let mut out = BTreeMap::new();
    out.insert(
        "greet".to_string(),
        decl(
            vec![FunctionParam::new("name", Type::String)],
            Type::String,
            "Greets someone by name.",
        ),
    );
    let mut sum = decl(Vec::new(), Type::Number, "Adds numbers.");
    sum.variadic = Some(FunctionParam::new("numbers", Type::Number));
    out.insert("sum".to_string(), sum);
    out.insert(
        "positive".to_string(),
        decl(
            vec![FunctionParam::new("n", Type::Number)],
            Type::Number,
            "Returns a number that must be above zero.",
        ),
    );
    out.insert(
        "fail".to_string(),
        decl(
            vec![FunctionParam::new("message", Type::String)],
            Type::String,
            "Always fails with the given message.",
        ),
    );
    let mut any = FunctionParam::new("value", Type::Dynamic);
    any.allow_null = true;
    any.allow_unknown = true;
    out.insert(
        "describe".to_string(),
        decl(vec![any], Type::String, "Says what kind of value it got."),
    );
    out
}

/// CallFunction.
pub fn call(name: &str, args: &[Value]) -> Result<Value, FunctionError> {
    let str_arg = |i: usize| args.get(i).and_then(Value::as_str).unwrap_or_default();
    match name {
        "greet" => Ok(Value::string(format!("Hello, {}!", str_arg(0)))),
        "sum" => {
            let mut total = Number::from(0);
            for a in args {
                total = total.add(&a.as_number().cloned().unwrap_or_default());
            }
            Ok(Value::number(total))
        }
        "positive" => {
            let n = args
                .first()
                .and_then(Value::as_number)
                .cloned()
                .unwrap_or_default();
            if n > Number::from(0) {
                Ok(Value::number(n))
            } else {
                Err(FunctionError::argument(
                    0,
                    "the number must be greater than zero",
                ))
            }
        }
        "fail" => Err(FunctionError::new(str_arg(0))),
        "describe" => {
            let v = args
                .first()
                .cloned()
                .unwrap_or_else(|| Value::null(Type::Dynamic));
            let what = if v.is_null() {
                "null".to_string()
            } else if v.is_unknown() {
                "unknown".to_string()
            } else {
                v.ty().type_expr()
            };
            Ok(Value::string(what))
        }
        _ => Err(FunctionError::new(format!("no function named {name:?}"))),
    }
}
