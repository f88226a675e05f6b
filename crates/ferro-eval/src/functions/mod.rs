//! The built-in function library, with the calling convention of cty's `function` package and
//! HCL's function call expression: arguments are converted to each parameter's type, nulls are
//! refused unless a parameter allows them, an unknown argument makes the result an unknown of
//! the function's return type unless the parameter opts in to seeing unknowns, and marks
//! (sensitive) are taken off arguments and put back on the result.
//!
//! Each category of functions lives in its own module and contributes entries to the registry.

mod collection;
mod conversion;
mod crypto;
mod datetime;
mod rsadecrypt;
pub use datetime::{
    parse_duration as parse_go_duration, parse_rfc3339, DAYS as WEEKDAY_NAMES,
    MONTHS as MONTH_NAMES,
};
mod encoding;
mod filesystem;
mod format;
mod goflate;
mod gojson;
mod gopow;
mod ip;
mod numeric;
mod regex_fns;
mod sets;
mod string;
mod yaml;
mod yaml_scalar;

use ferro_value::convert::convert;
use ferro_value::{Marks, Type, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Why a call failed, in the terms HCL reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    NoSuchFunction,
    /// Fewer arguments than parameters: the name of the first missing parameter.
    NotEnoughArgs {
        expected: String,
        missing: &'static str,
    },
    /// More arguments than parameters (and no variadic parameter).
    TooManyArgs {
        expected: usize,
    },
    /// Argument index, parameter name and what is wrong with it.
    Arg {
        index: usize,
        param: &'static str,
        message: String,
    },
    /// The function failed as a whole.
    Failed(String),
    /// Several arguments that do not convert to their parameters' types (each an `Arg`):
    /// HCL reports every one.
    Args(Vec<CallError>),
}

/// An argument error without the parameter name yet (filled in by [`call_function`]).
pub(crate) fn arg_err(index: usize, message: impl Into<String>) -> CallError {
    CallError::Arg {
        index,
        param: "",
        message: message.into(),
    }
}

/// Largest string or collection a function builds; beyond it the call fails instead of
/// exhausting memory (Terraform aborts there).
pub(crate) const MAX_RESULT_BYTES: usize = 256 << 20;

pub(crate) fn fail(message: impl Into<String>) -> CallError {
    CallError::Failed(message.into())
}

pub(crate) type R<T> = std::result::Result<T, CallError>;

/// What a function may need from where it is called.
pub struct FnContext<'a> {
    /// The module directory: relative paths of file functions start here.
    pub base_dir: &'a Path,
    /// Called with the resolved path before a file function reads or inspects a file.
    pub on_read: &'a dyn Fn(&Path),
    /// Console-only functions (`type`) are available.
    pub console: bool,
    /// Impure functions return unknown values of their result type (see
    /// [`crate::Scope::pure_only`]); their arguments are checked all the same.
    pub pure_only: bool,
    /// Evaluates `templatefile` templates (set by the evaluator).
    pub(crate) depth: usize,
}

impl FnContext<'_> {
    pub(crate) fn resolve(&self, p: &str) -> PathBuf {
        let path = Path::new(p);
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.base_dir.join(path)
        }
    }
}

/// One parameter of a function (cty `function.Parameter`).
#[derive(Clone)]
pub(crate) struct Param {
    pub name: &'static str,
    pub ty: Type,
    pub allow_null: bool,
    pub allow_unknown: bool,
    pub allow_dynamic: bool,
    pub allow_marked: bool,
    /// Sees the marks inside its argument (its elements' and attributes'), not the argument's
    /// own: those go to the result whole, the inner ones stay where they are (cty functions
    /// that allow marks and re-mark their result with the collection's marks).
    pub inner_marks: bool,
}

pub(crate) fn p(name: &'static str, ty: Type) -> Param {
    Param {
        name,
        ty,
        allow_null: false,
        allow_unknown: false,
        allow_dynamic: false,
        allow_marked: false,
        inner_marks: false,
    }
}

impl Param {
    pub fn null(mut self) -> Self {
        self.allow_null = true;
        self
    }
    pub fn unknown(mut self) -> Self {
        self.allow_unknown = true;
        self
    }
    pub fn dynamic(mut self) -> Self {
        self.allow_dynamic = true;
        self
    }
    pub fn marked(mut self) -> Self {
        self.allow_marked = true;
        self
    }
    pub fn inner_marks(mut self) -> Self {
        self.inner_marks = true;
        self
    }
}

pub(crate) type TypeFn = fn(&[Value]) -> R<Type>;
pub(crate) type ImplFn = fn(&FnContext<'_>, &[Value], &Type) -> R<Value>;

/// A function's signature and implementation (cty `function.Spec`).
pub(crate) struct Func {
    pub params: Vec<Param>,
    pub var_param: Option<Param>,
    pub ret: Ret,
    pub imp: ImplFn,
}

/// The return type: fixed, or computed from the (converted, unmarked) arguments.
pub(crate) enum Ret {
    Fixed(Type),
    Computed(TypeFn),
}

pub(crate) fn func(params: Vec<Param>, var_param: Option<Param>, ret: Ret, imp: ImplFn) -> Func {
    Func {
        params,
        var_param,
        ret,
        imp,
    }
}

pub(crate) type Registry = HashMap<&'static str, Func>;

fn registry() -> &'static Registry {
    static REG: OnceLock<Registry> = OnceLock::new();
    REG.get_or_init(|| {
        let mut r = Registry::new();
        numeric::register(&mut r);
        string::register(&mut r);
        regex_fns::register(&mut r);
        format::register(&mut r);
        collection::register(&mut r);
        sets::register(&mut r);
        encoding::register(&mut r);
        filesystem::register(&mut r);
        datetime::register(&mut r);
        crypto::register(&mut r);
        rsadecrypt::register(&mut r);
        ip::register(&mut r);
        conversion::register(&mut r);
        r
    })
}

/// Names of every built-in function, sorted (for completion and "did you mean").
pub fn function_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = registry().keys().copied().collect();
    names.extend(["can", "convert", "try", "type"]);
    names.sort_unstable();
    names
}

/// A built-in function's parameters and return type, for editors (hover, signature help,
/// completion snippets). `None` for names that are not functions and for the evaluator's own
/// `can`, `try` and `type`, whose parameters are expressions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionSignature {
    /// Parameter names and types, in order.
    pub params: Vec<(&'static str, Type)>,
    /// The variadic parameter, if any.
    pub var_param: Option<(&'static str, Type)>,
    /// The return type when it does not depend on the arguments.
    pub ret: Option<Type>,
}

/// The signature of a built-in function.
pub fn function_signature(name: &str) -> Option<FunctionSignature> {
    let f = registry().get(name)?;
    Some(FunctionSignature {
        params: f.params.iter().map(|p| (p.name, p.ty.clone())).collect(),
        var_param: f.var_param.as_ref().map(|p| (p.name, p.ty.clone())),
        ret: match &f.ret {
            Ret::Fixed(t) => Some(t.clone()),
            Ret::Computed(_) => None,
        },
    })
}

/// Whether `name` is a built-in function (the evaluator handles `can`, `try` and `type`).
pub fn is_function(name: &str) -> bool {
    registry().contains_key(name)
}

/// The parameter name for argument `i` of `name` (for error messages).
pub(crate) fn param_name(name: &str, i: usize) -> &'static str {
    match registry().get(name) {
        Some(f) => f
            .params
            .get(i)
            .or(f.var_param.as_ref())
            .map(|p| p.name)
            .unwrap_or(""),
        None => "",
    }
}

fn marks_of(v: &Value) -> Marks {
    let (_, m) = v.deep_unmark();
    m
}

/// Call a built-in function with already evaluated arguments.
pub fn call_function(ctx: &FnContext<'_>, name: &str, args: &[Value]) -> R<Value> {
    let Some(f) = registry().get(name) else {
        return Err(CallError::NoSuchFunction);
    };
    fn named(f: &Func, e: CallError) -> CallError {
        match e {
            CallError::Arg {
                index,
                param: "",
                message,
            } => {
                let param = f
                    .params
                    .get(index)
                    .or(f.var_param.as_ref())
                    .map(|p| p.name)
                    .unwrap_or("");
                CallError::Arg {
                    index,
                    param,
                    message,
                }
            }
            CallError::Args(es) => CallError::Args(es.into_iter().map(|e| named(f, e)).collect()),
            other => other,
        }
    }
    call(ctx, name, f, args).map_err(|e| named(f, e))
}

/// Functions whose result differs from one call to the next (Terraform 1.0's list).
pub const IMPURE_FUNCTIONS: &[&str] = &["bcrypt", "timestamp", "uuid"];

fn call(ctx: &FnContext<'_>, name: &str, f: &Func, args: &[Value]) -> R<Value> {
    if args.len() < f.params.len() {
        return Err(CallError::NotEnoughArgs {
            expected: if f.var_param.is_some() {
                format!("at least {}", f.params.len())
            } else {
                f.params.len().to_string()
            },
            missing: f.params[args.len()].name,
        });
    }
    if args.len() > f.params.len() && f.var_param.is_none() {
        return Err(CallError::TooManyArgs {
            expected: f.params.len(),
        });
    }
    let fallback = p("", Type::Dynamic);
    let param_of = |i: usize| -> &Param {
        f.params
            .get(i)
            .or(f.var_param.as_ref())
            .unwrap_or(&fallback)
    };
    // HCL converts every argument to its parameter's type first.
    let mut conv = Vec::with_capacity(args.len());
    let mut bad = Vec::new();
    for (i, a) in args.iter().enumerate() {
        let prm = param_of(i);
        match convert(a, &prm.ty) {
            Ok(v) => conv.push(v),
            Err(e) => bad.push(arg_err(i, e.message)),
        }
    }
    if bad.len() > 1 {
        return Err(CallError::Args(bad));
    }
    if let Some(e) = bad.pop() {
        return Err(e);
    }
    // Type checking (cty ReturnTypeForValues): marks off for parameters that do not see them,
    // nulls refused, dynamic-typed arguments give a dynamic result type.
    let mut plain = conv.clone();
    let mut result_marks = Marks::NONE;
    let mut dynamic_result = false;
    for (i, v) in conv.iter().enumerate() {
        let prm = param_of(i);
        if prm.inner_marks {
            result_marks = result_marks.union(v.marks);
            plain[i].marks = Marks::NONE;
        } else if !prm.allow_marked {
            let (u, m) = v.deep_unmark();
            result_marks = result_marks.union(m);
            plain[i] = u;
        }
        if v.is_null() && !prm.allow_null {
            return Err(arg_err(i, "argument must not be null"));
        }
        if v.is_dynamic() && !prm.allow_dynamic {
            dynamic_result = true;
        }
    }
    let ret_ty = if dynamic_result {
        Type::Dynamic
    } else {
        match &f.ret {
            Ret::Fixed(t) => t.clone(),
            Ret::Computed(tf) => tf(&plain)?,
        }
    };
    for (i, v) in plain.iter().enumerate() {
        if v.is_unknown() && !param_of(i).allow_unknown {
            // Not called: the unknown result carries every argument's marks (as cty's), those
            // of parameters that see marks too.
            let marks = conv.iter().fold(result_marks, |m, v| m.union(marks_of(v)));
            return Ok(Value::unknown(ret_ty).with_marks(marks));
        }
    }
    if ctx.pure_only && IMPURE_FUNCTIONS.contains(&name) {
        return Ok(Value::unknown(ret_ty).with_marks(result_marks));
    }
    let out = (f.imp)(ctx, &plain, &ret_ty)?;
    Ok(out.with_marks(result_marks))
}

// ---- helpers shared by the function modules ----

pub(crate) fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

pub(crate) fn n(v: &Value) -> ferro_value::Number {
    v.as_number().cloned().unwrap_or_default()
}

pub(crate) fn elems(v: &Value) -> &[Value] {
    v.as_elements().unwrap_or_default()
}
