//! Calls of provider-defined functions, `provider::LOCAL::NAME(args)` (Terraform 1.8,
//! OpenTofu 1.7): the local name is one the module's `required_providers` declares, the
//! function one its provider declares. Arguments are converted to the declared parameter types
//! and checked as cty checks them (nulls refused unless allowed; a not wholly known argument
//! makes the result an unknown of the return type without calling, unless allowed); marks come
//! off the arguments and go on the result; the provider's errors are reported as HCL reports a
//! function's (an argument's error at the argument).

use super::*;
use ferro_value::schema::FunctionDecl;

/// What a scope knows of provider-defined functions.
pub trait ProviderFunctions {
    /// The declaration of function `name` of the provider the module calls `local`.
    fn lookup(&self, local: &str, name: &str) -> ProviderFunctionLookup;
    /// Call it, with arguments converted to the declared types.
    fn call(&self, local: &str, name: &str, args: &[Value]) -> Result<Value, ProviderCallError>;
}

/// The answer to [`ProviderFunctions::lookup`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProviderFunctionLookup {
    Found(FunctionDecl),
    /// `local` is not in the module's `required_providers`.
    NotRequired,
    /// The provider is required but has no function of that name.
    NoSuchFunction,
    /// The provider could not be asked (it failed to start: reported elsewhere); the call
    /// is an unknown value.
    Unavailable,
}

impl ProviderFunctionLookup {
    /// Function `name` among a required provider's declarations `fs`. A provider that
    /// declares no functions at all answers as if it were not required (Terraform's message
    /// then advises declaring it).
    pub fn in_declarations(
        fs: &std::collections::BTreeMap<String, FunctionDecl>,
        name: &str,
    ) -> ProviderFunctionLookup {
        match fs.get(name) {
            Some(d) => ProviderFunctionLookup::Found(d.clone()),
            None if fs.is_empty() => ProviderFunctionLookup::NotRequired,
            None => ProviderFunctionLookup::NoSuchFunction,
        }
    }
}

/// Why a call failed, as the provider says it (`FunctionError`): the argument it is about
/// (0-based) when it names one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderCallError {
    pub text: String,
    pub argument: Option<usize>,
}

/// A namespaced function name split as HCL splits it: the namespace (with its trailing `::`)
/// and the name after the last `::`.
fn split_namespace(name: &str) -> (&str, &str) {
    match name.rfind("::") {
        Some(i) => (&name[..i + 2], &name[i + 2..]),
        None => ("", name),
    }
}

impl Evaluator<'_> {
    /// A call whose name has a namespace (`core::`, `provider::LOCAL::`).
    pub(super) fn namespaced_call(
        &mut self,
        e: ExprId,
        name: &str,
        args: &[ExprId],
        expand_final: bool,
    ) -> Option<Value> {
        let (namespace, func) = split_namespace(name);
        if namespace.is_empty() {
            return None;
        }
        let parts: Vec<&str> = namespace.split("::").collect();
        let unknown_fn = |detail: String| ("Unknown provider function", detail);
        let failure = if parts[0] != "provider" {
            Some(unknown_fn(format!("The function namespace {:?} is not valid. Provider function calls must use the \"provider::\" namespace prefix.", parts[0])))
        } else if parts.len() < 2 || parts[1].is_empty() {
            Some(unknown_fn(
                "The function call must include the provider name after the \"provider::\" prefix."
                    .to_string(),
            ))
        } else {
            None
        };
        let local = parts.get(1).copied().unwrap_or_default();
        let decl = match failure {
            Some(_) => None,
            None => match self.scope.provider_functions() {
                // A scope that cannot call providers (static analysis): an unknown result.
                None => {
                    for a in args {
                        self.eval(*a);
                    }
                    return Some(unknown());
                }
                Some(pf) => match pf.lookup(local, func) {
                    ProviderFunctionLookup::Found(d) if parts.len() == 3 => Some(d),
                    ProviderFunctionLookup::Unavailable => {
                        for a in args {
                            self.eval(*a);
                        }
                        return Some(unknown());
                    }
                    ProviderFunctionLookup::NoSuchFunction if parts.len() == 3 => {
                        return Some(self.err_at(
                            self.name_span(e, name),
                            "Unknown provider function",
                            format!("The function {func:?} is not available from the provider {local:?}."),
                        ))
                    }
                    _ => {
                        return Some(self.err_at(
                            self.name_span(e, name),
                            "Unknown provider function",
                            format!("There is no function named \"{namespace}{func}\". Ensure that provider name {local:?} is declared in this module's required_providers block, and that this provider offers a function named {func:?}."),
                        ))
                    }
                },
            },
        };
        let Some(decl) = decl else {
            let (summary, detail) = failure.unwrap_or_default();
            return Some(self.err_at(self.name_span(e, name), summary, detail));
        };
        Some(self.provider_call(e, name, local, func, &decl, args, expand_final))
    }

    #[allow(clippy::too_many_arguments)]
    fn provider_call(
        &mut self,
        e: ExprId,
        name: &str,
        local: &str,
        func: &str,
        decl: &FunctionDecl,
        args: &[ExprId],
        expand_final: bool,
    ) -> Value {
        let mut vals: Vec<Value> = args.iter().map(|a| self.eval(*a)).collect();
        if expand_final {
            if let Some(last) = vals.pop() {
                match last.as_elements() {
                    Some(es) => vals.extend(es.iter().cloned()),
                    None if last.is_unknown() => return Value::unknown(decl.return_type.clone()),
                    None => {
                        return self.err(
                            *args.last().unwrap_or(&e),
                            "Invalid expanding argument value",
                            "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
                        )
                    }
                }
            }
        }
        let arg_span = |this: &Self, index: usize| {
            if expand_final && index + 1 >= args.len() {
                args.last().and_then(|a| this.span(*a))
            } else {
                args.get(index).and_then(|a| this.start_span(*a))
            }
        };
        if vals.len() < decl.params.len() {
            let close_paren = self.span(e).map(|s| Span {
                start: s.end.saturating_sub(1).max(s.start),
                ..s
            });
            let expected = if decl.variadic.is_some() {
                format!("at least {}", decl.params.len())
            } else {
                decl.params.len().to_string()
            };
            let missing = &decl.params[vals.len()].name;
            return self.err_at(
                close_paren,
                "Not enough function arguments",
                format!("Function {name:?} expects {expected} argument(s). Missing value for {missing:?}."),
            );
        }
        if vals.len() > decl.params.len() && decl.variadic.is_none() {
            let expected = decl.params.len();
            let at = arg_span(self, expected).or_else(|| self.start_span(e));
            return self.err_at(
                at,
                "Too many function arguments",
                format!("Function {name:?} expects only {expected} argument(s)."),
            );
        }
        // Convert each argument; every one that does not convert is reported.
        let mut converted = Vec::with_capacity(vals.len());
        let mut marks = Marks::NONE;
        let mut failed = false;
        for (i, v) in vals.iter().enumerate() {
            let Some(param) = decl.param(i) else { continue };
            let (plain, m) = v.deep_unmark();
            marks = marks.union(m);
            match convert(&plain, &param.ty) {
                Ok(c) => converted.push(c),
                Err(err) => {
                    failed = true;
                    let at = arg_span(self, i).or_else(|| self.start_span(e));
                    self.err_at(
                        at,
                        "Invalid function argument",
                        format!(
                            "Invalid value for {:?} parameter: {}.",
                            param.name, err.message
                        ),
                    );
                }
            }
        }
        if failed {
            return unknown();
        }
        let ret_ty = decl.return_type.clone();
        for (i, v) in converted.iter().enumerate() {
            let Some(param) = decl.param(i) else { continue };
            if v.is_null() && !param.allow_null {
                let at = arg_span(self, i).or_else(|| self.start_span(e));
                return self.err_at(
                    at,
                    "Invalid function argument",
                    format!(
                        "Invalid value for {:?} parameter: argument must not be null.",
                        param.name
                    ),
                );
            }
        }
        for (i, v) in converted.iter().enumerate() {
            if decl.param(i).is_some_and(|p| !p.allow_unknown) && !v.is_wholly_known() {
                return Value::unknown(ret_ty).with_marks(marks);
            }
        }
        let Some(pf) = self.scope.provider_functions() else {
            return Value::unknown(ret_ty).with_marks(marks);
        };
        match pf.call(local, func, &converted) {
            Ok(v) => match convert(&v, &ret_ty) {
                Ok(v) => v.with_marks(marks),
                Err(err) => self.err_at(
                    self.start_span(e),
                    "Error in function call",
                    format!("Call to function {name:?} failed: the provider returned a value that does not conform to the return type: {}.", err.message),
                ),
            },
            Err(err) => match err.argument.filter(|i| *i < converted.len()) {
                Some(i) => {
                    let param = decl.param(i).map(|p| p.name.clone()).unwrap_or_default();
                    let at = arg_span(self, i).or_else(|| self.start_span(e));
                    self.err_at(
                        at,
                        "Invalid function argument",
                        format!("Invalid value for {param:?} parameter: {}.", err.text),
                    )
                }
                None => self.err_at(
                    self.start_span(e),
                    "Error in function call",
                    format!("Call to function {name:?} failed: {}.", err.text),
                ),
            },
        }
    }
}
