//! The expression evaluator.

use crate::functions::{self, CallError, FnContext};
use crate::source_range;
use ferro_diag::{Diagnostic, FileId, Span};
use ferro_hir::{Expr, ExprId, FileHir, ItemTree, Reference, SourceMap, TemplatePart};
use ferro_syntax::ast::{BinaryOp, UnaryOp};
use ferro_value::convert::convert;
use ferro_value::ops::{self, ArithOp, CompareOp, LogicOp};
use ferro_value::ValueMap;
use ferro_value::{unify, Marks, Type, Value, ValueKind};
use std::collections::BTreeMap;
use std::path::Path;

#[path = "eval_call.rs"]
mod eval_call;
#[path = "eval_provider_call.rs"]
mod eval_provider_call;
pub use eval_provider_call::{ProviderCallError, ProviderFunctionLookup, ProviderFunctions};
#[path = "eval_refs.rs"]
mod eval_refs;
#[path = "eval_template.rs"]
mod eval_template;
#[path = "expr_values.rs"]
mod expr_values;
pub use expr_values::expression_values;

pub(crate) use eval_template::eval_template_text;

/// Supplies the values of reference roots (`var.x`, `local.y`, resources, `count.index`, …).
pub trait Scope {
    /// The value of `r`, or a diagnostic (the evaluator attaches the span when none is set).
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic>;
    /// The value of a `module.NAME` reference whose expression goes on to take only the
    /// output `output` (`module.NAME.OUT`, `module.NAME[KEY].OUT`): a scope may leave the
    /// module's other outputs out of it, as Terraform evaluates only the output named (so
    /// the others need not be ready).
    fn reference_output(&self, r: &Reference, _output: &str) -> Result<Value, Diagnostic> {
        self.reference(r)
    }
    /// The module directory: where relative paths of file functions start.
    fn base_dir(&self) -> &Path {
        Path::new(".")
    }
    /// Told before a file function (`file`, `templatefile`, `fileexists`, `filebase64`, the
    /// file hashes) reads `path` (as resolved against [`Scope::base_dir`]), so an analysis
    /// database can make the read a dependency of what it is computing.
    fn file_read(&self, _path: &Path) {}
    /// The display name and text of a source file, for messages that quote where another
    /// diagnostic points (`try` lists its arguments' errors with ranges such as
    /// `main.tf:3,5-12`). None when unknown: the range is left out.
    fn source(&self, _file: FileId) -> Option<(&str, &str)> {
        None
    }
    /// The value of a name bound outside the expression (a `dynamic` block's iterator) that
    /// the evaluation was not given; None makes it an "Unknown variable" error.
    fn free_variable(&self, _name: &str) -> Option<Value> {
        None
    }
    /// Planning (and validating): the impure functions (`uuid`, `timestamp`, `bcrypt`) give
    /// unknown values, as Terraform's plan has them "known after apply"; apply and the console
    /// call them.
    fn pure_only(&self) -> bool {
        false
    }
    /// The provider-defined functions of the module (`provider::LOCAL::NAME`); None where
    /// providers cannot be asked (static analysis), which makes such calls unknown values.
    fn provider_functions(&self) -> Option<&dyn ProviderFunctions> {
        None
    }
    /// Only the built-in functions, under no namespace (Terraform's test files outside
    /// assertions offer no other): a call with a namespace (`core::`, `provider::`) is HCL's
    /// "Call to unknown function".
    fn builtin_functions_only(&self) -> bool {
        false
    }
}

/// Evaluate one expression of `hir`. On error the value is an unknown of dynamic type and the
/// diagnostics say why.
pub fn eval_expr(hir: &FileHir, scope: &dyn Scope, e: ExprId) -> (Value, Vec<Diagnostic>) {
    eval_expr_bound(hir, scope, e, Vec::new())
}

/// [`eval_expr`] on the position-free item tree alone: the value and the diagnostics are the
/// same, but the diagnostics carry no ranges (and no values of the references they concern,
/// which are found by range). What analysis decides from an evaluation does not depend on
/// where the text is, so it reads only this; a diagnostic to show is evaluated again with
/// its file's source map.
pub fn eval_position_free(
    tree: &ItemTree,
    scope: &dyn Scope,
    e: ExprId,
) -> (Value, Vec<Diagnostic>) {
    evaluate(tree, None, scope, e, Vec::new())
}

/// [`eval_expr`] with names bound around the expression (the iterators of enclosing `dynamic`
/// blocks, each an object with `key` and `value`).
pub fn eval_expr_bound(
    hir: &FileHir,
    scope: &dyn Scope,
    e: ExprId,
    bindings: Vec<(String, Value)>,
) -> (Value, Vec<Diagnostic>) {
    evaluate(&hir.tree, Some(&hir.map), scope, e, bindings)
}

fn evaluate(
    tree: &ItemTree,
    map: Option<&SourceMap>,
    scope: &dyn Scope,
    e: ExprId,
    bindings: Vec<(String, Value)>,
) -> (Value, Vec<Diagnostic>) {
    let mut ev = Evaluator {
        tree,
        map,
        scope,
        bindings,
        splat: Vec::new(),
        diags: Vec::new(),
        depth: 0,
    };
    let v = ev.eval(e);
    let mut diags = std::mem::take(&mut ev.diags);
    if !diags.is_empty() {
        ev.describe_values(e, &mut diags);
    }
    (v, diags)
}

struct Evaluator<'a> {
    tree: &'a ItemTree,
    /// The ranges of the tree's expressions; none when evaluating for analysis only.
    map: Option<&'a SourceMap>,
    scope: &'a dyn Scope,
    bindings: Vec<(String, Value)>,
    splat: Vec<Value>,
    diags: Vec<Diagnostic>,
    /// Nesting of `templatefile` calls.
    depth: usize,
}

fn unknown() -> Value {
    Value::dynamic_unknown()
}

impl Evaluator<'_> {
    fn span(&self, e: ExprId) -> Option<Span> {
        self.map?.span(e)
    }

    /// See [`SourceMap::start_span`].
    fn start_span(&self, e: ExprId) -> Option<Span> {
        self.map?.start_span(e)
    }

    /// See [`SourceMap::step_span`].
    fn step_span(&self, e: ExprId) -> Option<Span> {
        self.map?.step_span(e)
    }

    /// Report an error about `e` as a whole, pointing at all of it.
    fn err(&mut self, e: ExprId, summary: &str, detail: impl Into<String>) -> Value {
        self.err_at(self.span(e), summary, detail)
    }

    /// Report an error pointing at `span`.
    fn err_at(&mut self, span: Option<Span>, summary: &str, detail: impl Into<String>) -> Value {
        let code = summary
            .to_lowercase()
            .replace([' ', '"'], "-")
            .replace("--", "-");
        let code = code.trim_matches('-').to_string();
        self.diags.push(
            Diagnostic::error(&code, summary)
                .with_detail(detail)
                .with_span_opt(span),
        );
        unknown()
    }

    /// Evaluate one expression. Deeply nested expressions (long operator chains, thousands of
    /// nested conditionals) move to a fresh stack segment instead of overflowing the thread's.
    fn eval(&mut self, e: ExprId) -> Value {
        stacker::maybe_grow(128 * 1024, 4 << 20, || self.eval_here(e))
    }

    fn eval_here(&mut self, e: ExprId) -> Value {
        let hir = self.tree;
        match &hir.exprs[e] {
            Expr::Literal(v) => v.clone(),
            Expr::Missing => unknown(),
            // Only `convert` reads a type constraint; it has no value of its own.
            Expr::TypeConstraint { .. } => unknown(),
            Expr::Template(parts) => self.template(e, parts),
            Expr::TemplateWrap(inner) => self.eval(*inner),
            Expr::Ref(r) => {
                let v = self.scope.reference(r);
                self.referenced(e, v)
            }
            Expr::ForVar(name) => match self.bindings.iter().rev().find(|(n, _)| n == name) {
                Some((_, v)) => v.clone(),
                None => match self.scope.free_variable(name) {
                    Some(v) => v,
                    None => self.err(
                        e,
                        "Unknown variable",
                        format!("There is no variable named {name:?}."),
                    ),
                },
            },
            Expr::SplatElem => self.splat.last().cloned().unwrap_or_else(unknown),
            Expr::GetAttr { target, name } => {
                let t = match self.module_output_target(*target, name) {
                    Some(t) => t,
                    None => self.eval(*target),
                };
                self.get_attr(e, &t, name)
            }
            Expr::Index { target, key } => {
                let t = self.eval(*target);
                let k = self.eval(*key);
                self.index(e, &t, &k)
            }
            Expr::Splat { target, body } => {
                let t = self.eval(*target);
                self.splat_expr(&t, *body)
            }
            Expr::Call {
                name,
                args,
                expand_final,
            } => self.call(e, name, args, *expand_final),
            Expr::Tuple(items) => {
                let vals = items.iter().map(|i| self.eval(*i)).collect();
                Value::tuple(vals)
            }
            Expr::Object(items) => self.object(items),
            Expr::Unary { op, operand } => {
                let v = self.eval(*operand);
                let r = match op {
                    UnaryOp::Not => ops::not(&v),
                    UnaryOp::Neg => ops::neg(&v),
                };
                r.unwrap_or_else(|err| {
                    // A null converts to the operand's type; it is the operation that refuses
                    // it, and HCL reports that as the operation failing.
                    if v.is_null() {
                        self.err(
                            *operand,
                            "Operation failed",
                            format!("Error during operation: {}.", err.message),
                        )
                    } else {
                        self.err(
                            *operand,
                            "Invalid operand",
                            format!("Unsuitable value for unary operand: {}.", err.message),
                        )
                    }
                })
            }
            Expr::Binary {
                op: op @ (BinaryOp::And | BinaryOp::Or),
                lhs,
                rhs,
            } => self.logical(e, *op, *lhs, *rhs),
            Expr::Binary { op, lhs, rhs } => {
                let l = self.eval(*lhs);
                let r = self.eval(*rhs);
                self.binary(e, *op, *lhs, *rhs, &l, &r)
            }
            Expr::Conditional {
                cond,
                then,
                otherwise,
            } => self.conditional(*cond, *then, *otherwise),
            Expr::For {
                key_var,
                value_var,
                collection,
                key,
                value,
                cond,
                group,
            } => self.for_expr(
                e,
                key_var.as_deref(),
                value_var,
                *collection,
                *key,
                *value,
                *cond,
                *group,
            ),
        }
    }

    fn binary(
        &mut self,
        e: ExprId,
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
        l: &Value,
        r: &Value,
    ) -> Value {
        let res = match op {
            BinaryOp::Eq => Ok(ops::equals(l, r)),
            BinaryOp::NotEq => {
                let eq = ops::equals(l, r);
                ops::not(&eq)
            }
            BinaryOp::Add => ops::arith(ArithOp::Add, l, r),
            BinaryOp::Sub => ops::arith(ArithOp::Sub, l, r),
            BinaryOp::Mul => ops::arith(ArithOp::Mul, l, r),
            BinaryOp::Div => ops::arith(ArithOp::Div, l, r),
            BinaryOp::Mod => ops::arith(ArithOp::Mod, l, r),
            BinaryOp::Lt => ops::compare(CompareOp::Lt, l, r),
            BinaryOp::LtEq => ops::compare(CompareOp::LtEq, l, r),
            BinaryOp::Gt => ops::compare(CompareOp::Gt, l, r),
            BinaryOp::GtEq => ops::compare(CompareOp::GtEq, l, r),
            BinaryOp::And => ops::logic(LogicOp::And, l, r),
            BinaryOp::Or => ops::logic(LogicOp::Or, l, r),
        };
        match res {
            Ok(v) => v,
            Err(err) => {
                if err.message == "argument must not be null" {
                    return self.err(
                        e,
                        "Operation failed",
                        "Error during operation: argument must not be null.",
                    );
                }
                // HCL converts both operands before reporting, so both can be wrong.
                if err.operand == Some(0) {
                    let want = match op {
                        BinaryOp::And | BinaryOp::Or => Some((Type::Bool, "a bool is required")),
                        BinaryOp::Eq | BinaryOp::NotEq => None,
                        _ => Some((Type::Number, "a number is required")),
                    };
                    if let Some((ty, msg)) = want {
                        let right_err = if r.is_unknown() || r.is_null() {
                            None
                        } else {
                            convert(&r.unmarked(), &ty).err()
                        };
                        if let Some(rerr) = right_err {
                            let detail =
                                format!("Unsuitable value for left operand: {}.", err.message);
                            self.err(lhs, "Invalid operand", detail);
                            let _ = msg;
                            let rmsg = rerr.message;
                            return self.err(
                                rhs,
                                "Invalid operand",
                                format!("Unsuitable value for right operand: {rmsg}."),
                            );
                        }
                    }
                }
                let (at, side) = match err.operand {
                    Some(0) => (lhs, "left operand"),
                    Some(_) => (rhs, "right operand"),
                    None => (e, "operation"),
                };
                let detail = if err.operand.is_some() {
                    format!("Unsuitable value for {side}: {}.", err.message)
                } else {
                    err.message.clone()
                };
                let summary = if err.operand.is_some() {
                    "Invalid operand"
                } else {
                    "Operation failed"
                };
                self.err(at, summary, detail)
            }
        }
    }

    /// `&&` and `||` as HCL 2.23 (Terraform 1.12) evaluates them: both sides are evaluated and
    /// converted to bool (a conversion failure is always reported), then a side that decides
    /// the result alone keeps only its own diagnostics (`ops::logic_short_circuit`), so
    /// `var.x != null && var.x.a > 0` works when x is null. The result carries both sides'
    /// marks.
    fn logical(&mut self, e: ExprId, op: BinaryOp, lhs: ExprId, rhs: ExprId) -> Value {
        let logic_op = if op == BinaryOp::And {
            LogicOp::And
        } else {
            LogicOp::Or
        };
        let saved = self.diags.len();
        let l = self.eval(lhs);
        let lhs_diags: Vec<_> = self.diags.drain(saved..).collect();
        let r = self.eval(rhs);
        let rhs_diags: Vec<_> = self.diags.drain(saved..).collect();
        let (l, lhs_marks) = l.deep_unmark();
        let (r, rhs_marks) = r.deep_unmark();
        let marks = lhs_marks.union(rhs_marks);
        let lc = convert(&l, &Type::Bool);
        let rc = convert(&r, &Type::Bool);
        let (l, r) = match (lc, rc) {
            (Ok(l), Ok(r)) => (l, r),
            (lc, rc) => {
                // Conversion errors come first; the sides' own diagnostics follow.
                for (res, at, side) in [(lc, lhs, "left"), (rc, rhs, "right")] {
                    if let Err(err) = res {
                        let detail =
                            format!("Unsuitable value for {side} operand: {}.", err.message);
                        self.err(at, "Invalid operand", detail);
                    }
                }
                self.diags.extend(lhs_diags);
                self.diags.extend(rhs_diags);
                return Value::unknown(Type::Bool);
            }
        };
        let left_failed = lhs_diags.iter().any(Diagnostic::is_error);
        if let Some((v, side)) = ops::logic_short_circuit(logic_op, &l, &r, left_failed) {
            self.diags.extend(match side {
                ops::Side::Left => lhs_diags,
                ops::Side::Right => rhs_diags,
            });
            return v.with_marks(marks);
        }
        let failed = left_failed || rhs_diags.iter().any(Diagnostic::is_error);
        self.diags.extend(lhs_diags);
        self.diags.extend(rhs_diags);
        if failed {
            return Value::unknown(Type::Bool).with_marks(marks);
        }
        match ops::logic(logic_op, &l, &r) {
            Ok(v) => v.with_marks(marks),
            Err(err) => self.err(
                e,
                "Operation failed",
                format!("Error during operation: {}.", err.message),
            ),
        }
    }

    fn template(&mut self, e: ExprId, parts: &[TemplatePart]) -> Value {
        let mut out = String::new();
        let mut marks = Marks::NONE;
        let mut is_unknown = false;
        self.template_parts(e, parts, &mut out, &mut marks, &mut is_unknown);
        if is_unknown {
            return Value::unknown(Type::String).with_marks(marks);
        }
        Value::string(out).with_marks(marks)
    }

    #[allow(clippy::only_used_in_recursion)]
    fn template_parts(
        &mut self,
        e: ExprId,
        parts: &[TemplatePart],
        out: &mut String,
        marks: &mut Marks,
        unk: &mut bool,
    ) {
        for p in parts {
            match p {
                TemplatePart::Literal(s) => out.push_str(s),
                TemplatePart::Interp(x) => {
                    let v = self.eval(*x);
                    *marks = marks.union(v.marks);
                    if v.is_unknown() {
                        *unk = true;
                        continue;
                    }
                    if v.is_null() {
                        self.err(*x, "Invalid template interpolation value", "The expression result is null. Cannot include a null value in a string template.");
                        *unk = true;
                        continue;
                    }
                    match convert(&v.unmarked(), &Type::String) {
                        Ok(s) => out.push_str(s.as_str().unwrap_or_default()),
                        Err(_) => {
                            self.err(
                                *x,
                                "Invalid template interpolation value",
                                "Cannot include the given value in a string template: string required.",
                            );
                            *unk = true;
                        }
                    }
                }
                TemplatePart::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    let c = self.eval(*cond);
                    *marks = marks.union(c.marks);
                    match self.condition_bool(*cond, &c, "condition") {
                        Some(true) => self.template_parts(e, then, out, marks, unk),
                        Some(false) => self.template_parts(e, otherwise, out, marks, unk),
                        None => *unk = true,
                    }
                }
                TemplatePart::For {
                    key_var,
                    value_var,
                    collection,
                    body,
                } => {
                    let coll = self.eval(*collection);
                    *marks = marks.union(coll.marks);
                    let Some(pairs) = self.iterate(*collection, &coll) else {
                        *unk = true;
                        continue;
                    };
                    for (k, v) in pairs {
                        let n = self.bind(key_var.as_deref(), value_var, k, v);
                        self.template_parts(e, body, out, marks, unk);
                        self.bindings.truncate(self.bindings.len() - n);
                    }
                }
            }
        }
    }

    fn bind(&mut self, key_var: Option<&str>, value_var: &str, k: Value, v: Value) -> usize {
        let mut n = 1;
        if let Some(kv) = key_var {
            self.bindings.push((kv.to_string(), k));
            n += 1;
        }
        self.bindings.push((value_var.to_string(), v));
        n
    }

    /// Some(b) for a known bool; None for unknown (or after reporting an error).
    fn condition_bool(&mut self, at: ExprId, v: &Value, what: &str) -> Option<bool> {
        if v.is_unknown() {
            return None;
        }
        if v.is_null() {
            self.err(
                at,
                "Null condition",
                format!("The {what} value is null. Conditions must either be true or false."),
            );
            return None;
        }
        match convert(&v.unmarked(), &Type::Bool) {
            Ok(b) if b.is_unknown() => None,
            Ok(b) => b.as_bool(),
            Err(ce) => {
                if what == "filter" {
                    self.err(
                        at,
                        "Invalid 'for' condition",
                        format!("The 'if' clause value is invalid: {}.", ce.message),
                    );
                } else {
                    self.err(
                        at,
                        "Incorrect condition type",
                        format!("The {what} expression must be of type bool."),
                    );
                }
                None
            }
        }
    }

    /// Key/value pairs of a collection for `for`; None when the collection is unknown or invalid.
    fn iterate(&mut self, at: ExprId, coll: &Value) -> Option<Vec<(Value, Value)>> {
        let marks = coll.marks;
        let m = |v: &Value| v.clone().with_marks(marks);
        match &coll.kind {
            ValueKind::Unknown(_) => None,
            ValueKind::Null(_) => {
                self.err(
                    at,
                    "Iteration over null value",
                    "A null value cannot be used as the collection in a 'for' expression.",
                );
                None
            }
            ValueKind::List(_, es) | ValueKind::Tuple(es) => Some(
                es.iter()
                    .enumerate()
                    .map(|(i, v)| (Value::int(i as i64), m(v)))
                    .collect(),
            ),
            ValueKind::Set(_, es) => Some(es.iter().map(|v| (m(v), m(v))).collect()),
            ValueKind::Map(_, es) | ValueKind::Object(es) => Some(
                es.iter()
                    .map(|(k, v)| (Value::string(k.as_str()), m(v)))
                    .collect(),
            ),
            _ => {
                self.err(
                    at,
                    "Iteration over non-iterable value",
                    format!("A value of type {} cannot be used as the collection in a 'for' expression.", coll.ty().friendly_name()),
                );
                None
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn for_expr(
        &mut self,
        e: ExprId,
        key_var: Option<&str>,
        value_var: &str,
        collection: ExprId,
        key: Option<ExprId>,
        value: ExprId,
        cond: Option<ExprId>,
        group: bool,
    ) -> Value {
        let coll = self.eval(collection);
        let Some(pairs) = self.iterate(collection, &coll) else {
            return unknown();
        };
        let mut tuple_out = Vec::new();
        let mut obj_out: BTreeMap<String, Value> = BTreeMap::new();
        let mut grouped: BTreeMap<String, Vec<Value>> = BTreeMap::new();
        let mut any_unknown = false;
        for (k, v) in pairs {
            let n = self.bind(key_var, value_var, k, v);
            let keep = match cond {
                Some(c) => {
                    let cv = self.eval(c);
                    let before = self.diags.len();
                    match self.condition_bool(c, &cv, "filter") {
                        Some(b) => b,
                        None if self.diags.len() > before => {
                            self.bindings.truncate(self.bindings.len() - n);
                            return unknown();
                        }
                        None => {
                            any_unknown = true;
                            false
                        }
                    }
                }
                None => true,
            };
            if keep {
                match key {
                    None => tuple_out.push(self.eval(value)),
                    Some(kx) => {
                        let kv = self.eval(kx);
                        let vv = self.eval(value);
                        if kv.is_unknown() {
                            any_unknown = true;
                        } else if kv.is_null() {
                            self.err(
                                kx,
                                "Invalid object key",
                                "Key expression in 'for' expression must not produce a null value.",
                            );
                        } else {
                            match convert(&kv.unmarked(), &Type::String) {
                                Ok(ks) => {
                                    let ks = ks.as_str().unwrap_or_default().to_string();
                                    if group {
                                        grouped.entry(ks).or_default().push(vv);
                                    } else {
                                        match obj_out.entry(ks) {
                                            std::collections::btree_map::Entry::Occupied(o) => {
                                                let ks = o.key();
                                                self.err(
                                                    kx,
                                                    "Duplicate object key",
                                                    format!("Two different items produced the key {ks:?} in this 'for' expression. If duplicates are expected, use the ellipsis (...) after the value expression to enable grouping by key."),
                                                );
                                            }
                                            std::collections::btree_map::Entry::Vacant(v) => {
                                                v.insert(vv);
                                            }
                                        }
                                    }
                                }
                                Err(_) => {
                                    self.err(kx, "Invalid object key", "The key expression produced an invalid result: string required.");
                                }
                            }
                        }
                    }
                }
            }
            self.bindings.truncate(self.bindings.len() - n);
        }
        let _ = e;
        if any_unknown {
            return unknown();
        }
        match key {
            None => Value::tuple(tuple_out),
            Some(_) if group => Value::object(
                grouped
                    .into_iter()
                    .map(|(k, vs)| (k, Value::tuple(vs)))
                    .collect(),
            ),
            Some(_) => Value::object(obj_out.into()),
        }
    }

    fn conditional(&mut self, cond: ExprId, then: ExprId, otherwise: ExprId) -> Value {
        let c = self.eval(cond);
        let choice = self.condition_bool(cond, &c, "condition");
        // Both branches are evaluated to find the result type, but only the chosen branch's
        // errors are reported (so `x != null ? x.a : ""` works when x is null).
        let saved = self.diags.len();
        let t = self.eval(then);
        let then_diags: Vec<_> = self.diags.drain(saved..).collect();
        let f = self.eval(otherwise);
        let else_diags: Vec<_> = self.diags.drain(saved..).collect();
        let marks = c.marks;
        // HCL unifies the branches' types allowing unsafe conversions (a set of numbers and a
        // tuple of strings unify to the set type), and converts only the branch it takes.
        let unified_ty = unify::unify_lenient(&[t.ty(), f.ty()]);
        let converted = |v: &Value| {
            unified_ty
                .as_ref()
                .map(|ty| ferro_value::convert::convert(v, ty))
        };
        if unified_ty.is_none() && then_diags.is_empty() && else_diags.is_empty() {
            let (ts, fs) = (self.span(then), self.span(otherwise));
            let at = match (ts, fs) {
                (Some(a), Some(b)) => Some(Span { end: b.end, ..a }),
                (a, b) => a.or(b),
            };
            return self.err_at(
                at,
                "Inconsistent conditional result types",
                format!(
                    "The true and false result expressions must have consistent types. The \
                     given expressions are {} and {}, respectively.",
                    t.ty().friendly_name(),
                    f.ty().friendly_name()
                ),
            );
        }
        // The branch taken must convert to the unified type (its unsafe conversions can fail).
        let taken = |this: &mut Self, v: Value, branch: ExprId, which: &str| match converted(&v) {
            Some(Ok(c)) => c.with_marks(marks),
            Some(Err(e)) => this.err(
                branch,
                "Inconsistent conditional result types",
                format!(
                    "The {which} result value has the wrong type: {}.",
                    e.message
                ),
            ),
            None => v.with_marks(marks),
        };
        match choice {
            Some(true) => {
                let failed = then_diags.iter().any(Diagnostic::is_error);
                self.diags.extend(then_diags);
                if failed {
                    return t.with_marks(marks);
                }
                taken(self, t, then, "true")
            }
            Some(false) => {
                let failed = else_diags.iter().any(Diagnostic::is_error);
                self.diags.extend(else_diags);
                if failed {
                    return f.with_marks(marks);
                }
                taken(self, f, otherwise, "false")
            }
            None => {
                let ty = unified_ty.unwrap_or(Type::Dynamic);
                Value::unknown(ty).with_marks(marks)
            }
        }
    }

    fn object(&mut self, items: &[(ExprId, ExprId)]) -> Value {
        let mut out = ValueMap::new();
        let mut marks = Marks::NONE;
        let mut any_unknown = false;
        for (k, v) in items {
            let kv = self.eval(*k);
            let vv = self.eval(*v);
            if kv.is_unknown() {
                any_unknown = true;
                continue;
            }
            if kv.is_null() {
                self.err(*k, "Null value as key", "Can't use a null value as a key.");
                continue;
            }
            marks = marks.union(kv.marks);
            match convert(&kv.unmarked(), &Type::String) {
                Ok(s) => {
                    out.insert(
                        ferro_value::Key::map_key(s.as_str().unwrap_or_default()),
                        vv,
                    );
                }
                Err(_) => {
                    self.err(
                        *k,
                        "Incorrect key type",
                        "Can't use this value as a key: string required.",
                    );
                }
            }
        }
        if any_unknown {
            return unknown().with_marks(marks);
        }
        Value::object(out).with_marks(marks)
    }

    /// `t.name`, as HCL's `GetAttr`: what is allowed depends on the type, known or not.
    fn get_attr(&mut self, e: ExprId, t: &Value, name: &str) -> Value {
        const UNSUPPORTED: &str = "Unsupported attribute";
        let marks = t.marks;
        // Errors point at the `.name` step, as HCL's do.
        let at = self.step_span(e);
        if t.is_null() {
            return self.err_at(
                at,
                "Attempt to get attribute from null value",
                "This value is null, so it does not have any attributes.",
            );
        }
        let no_attribute = || format!("This object does not have an attribute named {name:?}.");
        // A known object or map answers from its entries: its whole type (built from every
        // entry's) is needed only for unknown values and the other kinds.
        match &t.kind {
            ValueKind::Object(attrs) => {
                return match attrs.get(name) {
                    Some(v) => v.clone().with_marks(marks),
                    None => self.err_at(at, UNSUPPORTED, no_attribute()),
                }
            }
            ValueKind::Map(_, entries) => {
                return match entries.get(name) {
                    Some(v) => v.clone().with_marks(marks),
                    None => self.err_at(
                        at,
                        "Missing map element",
                        format!("This map does not have an element with the key {name:?}."),
                    ),
                }
            }
            _ => {}
        }
        match t.ty() {
            Type::Object(o) => match o.attrs.get(name) {
                Some(aty) => Value::unknown(aty.clone()).with_marks(marks),
                None => self.err_at(at, UNSUPPORTED, no_attribute()),
            },
            Type::Map(elem) => Value::unknown(*elem).with_marks(marks),
            Type::Dynamic => unknown().with_marks(marks),
            Type::List(elem) if matches!(*elem, Type::Object(_)) => self.err_at(
                at,
                UNSUPPORTED,
                format!("Can't access attributes on a list of objects. Did you mean to access attribute {name:?} for a specific element of the list, or across all elements of the list?"),
            ),
            Type::Set(elem) if matches!(*elem, Type::Object(_)) => self.err_at(
                at,
                UNSUPPORTED,
                "Can't access attributes on a set of objects. Did you mean to access an attribute across all elements of the set?",
            ),
            ty if ty.is_primitive() => {
                self.err_at(at, UNSUPPORTED, format!("Can't access attributes on a primitive-typed value ({}).", ty.friendly_name()))
            }
            _ => self.err_at(at, UNSUPPORTED, "This value does not have any attributes."),
        }
    }

    /// `t[k]`, as HCL's `Index`: the key is converted to what the collection's type wants, then
    /// looked up when both are known.
    fn index(&mut self, e: ExprId, t: &Value, k: &Value) -> Value {
        const NO_ELEMENT: &str =
            "The given key does not identify an element in this collection value";
        let marks = t.marks.union(k.marks);
        // Errors point at the `[key]` step, as HCL's do.
        let at = self.step_span(e);
        if t.is_null() {
            return self.err_at(
                at,
                "Attempt to index null value",
                "This value is null, so it does not have any indices.",
            );
        }
        if k.is_null() {
            return self.err_at(
                at,
                "Invalid index",
                "Can't use a null value as an indexing key.",
            );
        }
        // The collection's kind of type, not its whole type: a known collection's type is
        // built from every element's, and `x[count.index]` over a resource of many instances,
        // evaluated once per instance, would cost the square of the count.
        // (`shape` is the whole type except for tuples and objects, which stand for their kind.)
        let shape = match &t.kind {
            ValueKind::Null(ty) | ValueKind::Unknown(ty) => ty.clone(),
            ValueKind::List(el, _) => Type::List(Box::new(el.clone())),
            ValueKind::Map(el, _) => Type::Map(Box::new(el.clone())),
            ValueKind::Set(el, _) => Type::Set(Box::new(el.clone())),
            ValueKind::Tuple(_) => Type::Tuple(Vec::new().into()),
            ValueKind::Object(_) => Type::empty_object(),
            ValueKind::Bool(_) => Type::Bool,
            ValueKind::Number(_) => Type::Number,
            ValueKind::String(_) => Type::String,
        };
        if shape == Type::Dynamic || k.is_dynamic() {
            return unknown().with_marks(marks);
        }
        let key_ty = match &shape {
            Type::List(_) | Type::Tuple(_) => Type::Number,
            Type::Map(_) | Type::Object(_) => Type::String,
            Type::Set(_) => {
                return self.err_at(
                    at,
                    "Invalid index",
                    "Elements of a set are identified only by their value and don't have any separate index or key to select with, so it's only possible to perform operations across all elements of the set.",
                )
            }
            _ => return self.err_at(at, "Invalid index", "This value does not have any indices."),
        };
        let key = match convert(&k.unmarked(), &key_ty) {
            Ok(key) => key,
            Err(err) => {
                return self.err_at(
                    at,
                    "Invalid index",
                    format!("{NO_ELEMENT}: {}.", err.message),
                )
            }
        };
        if t.is_unknown() || key.is_unknown() {
            return match shape {
                Type::List(el) | Type::Map(el) => Value::unknown(*el),
                _ => unknown(),
            }
            .with_marks(marks);
        }
        match &t.kind {
            ValueKind::List(_, es) | ValueKind::Tuple(es) => {
                let n = key.as_number().cloned().unwrap_or_default();
                let detail = if !n.is_integer() {
                    format!("{NO_ELEMENT}: indexing a sequence requires a whole number, but the given index has a fractional part.")
                } else if n.signum() < 0 {
                    format!("{NO_ELEMENT}: a negative number is not a valid index for a sequence.")
                } else if let Some(v) = n.to_i64().and_then(|i| es.get(i as usize)) {
                    return v.clone().with_marks(marks);
                } else if es.is_empty() {
                    format!("{NO_ELEMENT}: the collection has no elements.")
                } else {
                    format!("{NO_ELEMENT}.")
                };
                self.err_at(at, "Invalid index", detail)
            }
            ValueKind::Map(_, es) | ValueKind::Object(es) => match es.get(key.as_str().unwrap_or_default()) {
                Some(v) => v.clone().with_marks(marks),
                None if matches!(shape, Type::Object(_)) && k.ty() == Type::Number => self.err_at(
                    at,
                    "Invalid index",
                    format!("{NO_ELEMENT}. An object only supports looking up attributes by name, not by numeric index."),
                ),
                None => self.err_at(at, "Invalid index", format!("{NO_ELEMENT}.")),
            },
            _ => self.err_at(at, "Invalid index", "This value does not have any indices."),
        }
    }

    fn splat_expr(&mut self, t: &Value, body: ExprId) -> Value {
        let marks = t.marks;
        // The elements are visited in place: a splat over every instance of a resource would
        // otherwise copy them all first.
        let single;
        let (elems, as_list): (&[Value], bool) = match &t.kind {
            ValueKind::Unknown(_) => return unknown().with_marks(marks),
            ValueKind::Null(_) => return Value::tuple(Vec::new()).with_marks(marks),
            ValueKind::List(_, es) | ValueKind::Set(_, es) => (es, true),
            ValueKind::Tuple(es) => (es, false),
            _ => {
                single = [t.unmarked()];
                (&single, false)
            }
        };
        let mut out = Vec::with_capacity(elems.len());
        for el in elems {
            self.splat.push(el.clone());
            out.push(self.eval(body));
            self.splat.pop();
        }
        if as_list {
            if let Some((ty, vs)) = unify::unify_values(&out) {
                if !out.is_empty() {
                    return Value::list(ty, vs).with_marks(marks);
                }
            }
        }
        Value::tuple(out).with_marks(marks)
    }
}
