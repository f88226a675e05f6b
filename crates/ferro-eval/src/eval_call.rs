//! Function calls in expressions: argument evaluation and expansion (`f(xs...)`), `try` and
//! `can` (which see errors instead of reporting them), and "did you mean" for unknown names.

use super::*;

impl Evaluator<'_> {
    pub(super) fn call(
        &mut self,
        e: ExprId,
        name: &str,
        args: &[ExprId],
        expand_final: bool,
    ) -> Value {
        if let Some(sep) = name
            .rfind("::")
            .filter(|_| self.scope.builtin_functions_only())
        {
            // HCL looks the namespace up in the function table before the arguments.
            let namespace = &name[..sep + 2];
            return self.err_at(
                self.name_span(e, name),
                "Call to unknown function",
                format!("There are no functions in namespace {namespace:?}."),
            );
        }
        // `core::NAME` is the built-in function NAME (Terraform 1.8).
        let name = match name.strip_prefix("core::") {
            Some(core) if is_core_function(core) => core,
            _ => name,
        };
        // `try` and `can` see errors instead of reporting them.
        if name == "try" || name == "can" {
            return self.try_can(e, name, args);
        }
        if let Some(v) = self.namespaced_call(e, name, args, expand_final) {
            return v;
        }
        if name == "convert" {
            return self.convert_call(e, args, expand_final);
        }
        if let Some(literal) = removed_constructor(name) {
            // Terraform 1.0 still knows these names, to say what replaced them.
            for a in args {
                self.eval(*a);
            }
            return self.err_at(
                self.start_span(e),
                "Error in function call",
                format!("Call to function {name:?} failed: the {name:?} function was deprecated in Terraform v0.12 and is no longer available; use {literal} syntax to write a literal {name}."),
            );
        }
        if !functions::is_function(name) {
            let mut detail = format!("There is no function named {name:?}.");
            if let Some(s) = suggestion(name) {
                detail.push_str(&format!(" Did you mean {s:?}?"));
            }
            return self.err_at(self.name_span(e, name), "Call to unknown function", detail);
        }
        let mut vals: Vec<Value> = args.iter().map(|a| self.eval(*a)).collect();
        if expand_final {
            if let Some(last) = vals.pop() {
                match last.as_elements() {
                    Some(es) => vals.extend(es.iter().cloned()),
                    None if last.is_unknown() => return unknown(),
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
        let on_read = |p: &std::path::Path| self.scope.file_read(p);
        let ctx = FnContext {
            base_dir: self.scope.base_dir(),
            on_read: &on_read,
            console: false,
            pure_only: self.scope.pure_only(),
            depth: self.depth,
        };
        // Where HCL points: an argument's start (all of an expanded final argument), the
        // closing parenthesis for a missing argument, `name(` for a failed call.
        let arg_span = |this: &Self, index: usize| {
            if expand_final && index + 1 >= args.len() {
                args.last().and_then(|a| this.span(*a))
            } else {
                args.get(index).and_then(|a| this.start_span(*a))
            }
        };
        match functions::call_function(&ctx, name, &vals) {
            Ok(v) => v,
            Err(CallError::NoSuchFunction) => self.err_at(
                self.name_span(e, name),
                "Call to unknown function",
                format!("There is no function named {name:?}."),
            ),
            Err(CallError::NotEnoughArgs { expected, missing }) => {
                let close_paren = self.span(e).map(|s| Span {
                    start: s.end.saturating_sub(1).max(s.start),
                    ..s
                });
                self.err_at(
                    close_paren,
                    "Not enough function arguments",
                    format!("Function {name:?} expects {expected} argument(s). Missing value for {missing:?}."),
                )
            }
            Err(CallError::TooManyArgs { expected }) => {
                let at = arg_span(self, expected).or_else(|| self.start_span(e));
                self.err_at(
                    at,
                    "Too many function arguments",
                    format!("Function {name:?} expects only {expected} argument(s)."),
                )
            }
            Err(err @ (CallError::Arg { .. } | CallError::Args(_))) => {
                let errs = match err {
                    CallError::Args(es) => es,
                    one => vec![one],
                };
                let mut out = Value::dynamic_unknown();
                for err in errs {
                    let CallError::Arg {
                        index,
                        param,
                        message,
                    } = err
                    else {
                        continue;
                    };
                    let at = arg_span(self, index).or_else(|| self.start_span(e));
                    let param = if param.is_empty() {
                        functions::param_name(name, index)
                    } else {
                        param
                    };
                    out = self.err_at(
                        at,
                        "Invalid function argument",
                        format!("Invalid value for {param:?} parameter: {message}."),
                    );
                }
                out
            }
            Err(CallError::Failed(msg)) => self.err_at(
                self.start_span(e),
                "Error in function call",
                format!("Call to function {name:?} failed: {msg}."),
            ),
        }
    }

    /// `convert(value, type)` (Terraform 1.15, OpenTofu 1.13): the value converted to a type
    /// constraint written as type syntax, then the defaults of its `optional` attributes
    /// filled in. The result has the constraint's type without optional attributes; an
    /// unknown value gives an unknown of that type; marks go from the value to the result.
    fn convert_call(&mut self, e: ExprId, args: &[ExprId], expand_final: bool) -> Value {
        if args.len() < 2 {
            let close_paren = self.span(e).map(|s| Span {
                start: s.end.saturating_sub(1).max(s.start),
                ..s
            });
            let missing = if args.is_empty() { "value" } else { "type" };
            return self.err_at(
                close_paren,
                "Not enough function arguments",
                format!(
                    "Function \"convert\" expects 2 argument(s). Missing value for {missing:?}."
                ),
            );
        }
        if args.len() > 2 {
            return self.err_at(
                self.start_span(args[2]),
                "Too many function arguments",
                "Function \"convert\" expects only 2 argument(s).",
            );
        }
        let value = self.eval(args[0]);
        let hir = self.tree;
        let (ty, defaults) = match &hir.exprs[args[1]] {
            Expr::TypeConstraint { ty, defaults } if !expand_final => (ty, defaults),
            // Lowering already reported why the type is not a type constraint.
            Expr::Missing => return unknown(),
            _ => {
                return self.err_at(
                    self.start_span(args[1]),
                    "Invalid function argument",
                    "Invalid value for \"type\" parameter: a type constraint is required.",
                )
            }
        };
        let ret_ty = ferro_value::convert::strip_optional(ty);
        let (plain, marks) = value.deep_unmark();
        if plain.is_unknown() {
            return Value::unknown(ret_ty).with_marks(marks);
        }
        let converted = match ferro_value::convert::convert(&plain, ty) {
            Ok(v) => v,
            Err(err) => {
                return self.err_at(
                    self.start_span(args[0]),
                    "Invalid function argument",
                    format!("Invalid value for \"value\" parameter: {}.", err.message),
                )
            }
        };
        let filled = match defaults {
            Some(d) => ferro_value::defaults::apply_defaults(&converted, d),
            None => converted,
        };
        // Defaults may have given optional attributes their values; the result's type has
        // no optional attributes.
        let out = ferro_value::convert::convert(&filled, &ret_ty).unwrap_or(filled);
        out.with_marks(marks)
    }

    /// The name of the call `e` (HCL points at it for an unknown function).
    pub(super) fn name_span(&self, e: ExprId, name: &str) -> Option<Span> {
        self.start_span(e).map(|s| Span {
            end: (s.start + name.len() as u32).min(s.end),
            ..s
        })
    }

    /// `try` and `can`: each argument is evaluated in turn and its diagnostics are caught.
    /// When every argument of `try` fails, its error lists all their diagnostics with ranges.
    pub(super) fn try_can(&mut self, e: ExprId, name: &str, args: &[ExprId]) -> Value {
        if name == "can" && args.is_empty() {
            let close_paren = self.span(e).map(|s| Span {
                start: s.end.saturating_sub(1).max(s.start),
                ..s
            });
            return self.err_at(
                close_paren,
                "Not enough function arguments",
                "Function \"can\" expects 1 argument(s). Missing value for \"expression\".",
            );
        }
        if name == "can" && args.len() > 1 {
            return self.err_at(
                self.start_span(args[1]),
                "Too many function arguments",
                "Function \"can\" expects only 1 argument(s).",
            );
        }
        if args.is_empty() {
            return self.err_at(
                self.start_span(e),
                "Error in function call",
                "Call to function \"try\" failed: at least one argument is required.",
            );
        }
        let mut caught = Vec::new();
        for a in args {
            let saved = self.diags.len();
            let v = self.eval(*a);
            // References to undeclared objects are static errors that try and can do not catch.
            if self.diags[saved..]
                .iter()
                .any(|d| d.code == "undeclared-reference")
            {
                let keep: Vec<_> = self
                    .diags
                    .drain(saved..)
                    .filter(|d| d.code == "undeclared-reference")
                    .collect();
                self.diags.extend(keep);
                return unknown();
            }
            let diags: Vec<Diagnostic> = self.diags.drain(saved..).collect();
            let failed = diags.iter().any(Diagnostic::is_error);
            if name == "can" {
                if !failed && !v.is_wholly_known() {
                    return Value::unknown(Type::Bool);
                }
                return Value::bool(!failed);
            }
            if !failed {
                if !v.is_wholly_known() {
                    return unknown();
                }
                return v;
            }
            caught.extend(diags);
        }
        let scope = self.scope;
        let range = |span: Span| {
            scope
                .source(span.file)
                .map(|(file, text)| source_range::hcl_range(file, text, span))
        };
        let message = source_range::try_failure_message(&caught, &range);
        self.err_at(
            self.start_span(e),
            "Error in function call",
            format!("Call to function \"try\" failed: {message}."),
        )
    }
}

/// Whether `name` is a function of the core namespace (`core::NAME`).
pub(super) fn is_core_function(name: &str) -> bool {
    functions::is_function(name) || matches!(name, "can" | "try" | "convert")
}

/// The literal syntax that replaced the `list` and `map` functions of Terraform 0.11.
fn removed_constructor(name: &str) -> Option<&'static str> {
    match name {
        "list" => Some("tolist([ ... ])"),
        "map" => Some("tomap({ ... })"),
        _ => None,
    }
}

/// The closest function name within an edit distance of 2 (Terraform picks any such name, in
/// its function table's unordered iteration; the closest one is the helpful choice). `type`
/// exists only in the console, so a configuration is never pointed at it.
fn suggestion(name: &str) -> Option<&'static str> {
    let names: Vec<&'static str> = functions::function_names()
        .into_iter()
        .filter(|c| *c != "type")
        .collect();
    ferro_diag::suggest(name, names.iter().copied())
}
