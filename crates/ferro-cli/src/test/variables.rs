//! A test file's variables: its `variable` blocks, which type the values `-var` gives
//! (Terraform 1.13), and its file-level `variables`, each of which may refer to the others, to
//! the global variables and to the outputs of the runs before (Terraform 1.13), evaluated in
//! the order their references need; one that fails keeps its diagnostics for the runs that
//! need it.

use super::external::{expression_value, TextOrigin, Unparsed};
use super::file::{DeclaredVariable, Run, TestExpr, TestFile};
use super::run::eval_variables;
use ferro_diag::{Diagnostic, FileId, Span};
use ferro_hir::{Expr, ExprId, Reference};
use ferro_value::{Type, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The file-level variables as one run sees them.
#[derive(Default)]
pub struct FileValues {
    /// The ones that evaluated, with the range of their expression.
    pub values: BTreeMap<String, (Value, Span)>,
    /// The ones that did not: the variable whose own evaluation failed (itself, or one it
    /// refers to).
    failed: BTreeMap<String, String>,
    /// The diagnostics of each variable whose own evaluation failed.
    errors: BTreeMap<String, Vec<Diagnostic>>,
}

impl FileValues {
    /// The variables without a value.
    pub fn failed_names(&self) -> impl Iterator<Item = &String> {
        self.failed.keys()
    }

    /// When some variable in `needed` has no value, the diagnostics explaining why, each
    /// failure once (none for a `variable` block's, which the file reports).
    pub fn failures_for<'n>(
        &self,
        needed: impl IntoIterator<Item = &'n str>,
    ) -> Option<Vec<Diagnostic>> {
        let roots: BTreeSet<&String> = needed
            .into_iter()
            .filter_map(|n| self.failed.get(n))
            .collect();
        (!roots.is_empty()).then(|| {
            roots
                .into_iter()
                .flat_map(|r| self.errors.get(r).cloned().unwrap_or_default())
                .collect()
        })
    }
}

/// The input variables an expression refers to (`var.NAME`).
pub fn var_refs(e: &TestExpr) -> BTreeSet<String> {
    var_ref_sites(e).into_iter().map(|(n, _)| n).collect()
}

/// Each reference to an input variable in an expression, in source order, with its range.
fn var_ref_sites(e: &TestExpr) -> Vec<(String, Option<Span>)> {
    let mut out = Vec::new();
    let mut stack: Vec<ExprId> = vec![e.id];
    while let Some(id) = stack.pop() {
        let expr = &e.hir.tree.exprs[id];
        if let Expr::Ref(Reference::Var(n)) = expr {
            out.push((n.clone(), e.hir.map.span(id)));
        }
        let mut kids = Vec::new();
        ferro_hir::child_exprs(expr, &mut kids);
        stack.extend(kids.into_iter().rev());
    }
    out
}

/// Whether the test file defines variable `n` (in its `variables` block or a `variable` block).
fn defined_in(file: &TestFile, n: &str) -> bool {
    file.variables.iter().any(|(m, _)| m == n) || file.declared.iter().any(|d| d.name == n)
}

/// Terraform 1.13's warning that a variable given from outside is referenced without a
/// definition, at `span`: such references still work, but are deprecated.
fn undefined_warning(n: &str, span: Option<Span>) -> Diagnostic {
    Diagnostic::warning("test-undefined-variable", "Variable referenced without definition")
        .with_detail(format!("Variable {n:?} was referenced without providing a definition. Referencing undefined variables within Terraform Test files is deprecated, please add a `variable` block into the relevant test file to provide a definition for the variable. This will become required in future versions of Terraform."))
        .with_span_opt(span)
}

/// Terraform 1.13's warning for each reference in `exprs` to a variable the test file does
/// not define (in its `variables` block or a `variable` block) that is given from outside
/// (`outside`: `-var`, `TF_VAR_`, a variable file).
pub fn undefined_references<'e>(
    exprs: impl IntoIterator<Item = &'e TestExpr>,
    file: &TestFile,
    outside: &BTreeMap<String, Value>,
) -> Vec<Diagnostic> {
    exprs
        .into_iter()
        .flat_map(var_ref_sites)
        .filter(|(n, _)| outside.contains_key(n) && !defined_in(file, n))
        .map(|(n, span)| undefined_warning(&n, span))
        .collect()
}

/// The warning Terraform 1.13 gives once per run for each variable its assertions or its
/// `variables` refer to that neither the module under test (`module_vars`), the run's
/// `variables` nor the file define, when it is given from outside: at its last reference
/// (the assertions' first, then the run's `variables`). The references in the run's
/// `variables` have had their own warnings too, as in Terraform.
pub fn undefined_run_references(
    run: &Run,
    file: &TestFile,
    outside: &BTreeMap<String, Value>,
    module_vars: &[String],
) -> Vec<Diagnostic> {
    let mut last: BTreeMap<String, Option<Span>> = BTreeMap::new();
    let asserts = run
        .asserts
        .iter()
        .flat_map(|a| std::iter::once(&a.condition).chain(&a.error_message));
    for e in asserts.chain(run.variables.iter().map(|(_, e)| e)) {
        for (n, span) in var_ref_sites(e) {
            last.insert(n, span);
        }
    }
    last.into_iter()
        .filter(|(n, _)| {
            outside.contains_key(n)
                && !defined_in(file, n)
                && !module_vars.contains(n)
                && !run.variables.iter().any(|(m, _)| m == n)
        })
        .map(|(n, span)| undefined_warning(&n, span))
        .collect()
}

/// The variables a run refers to in its own `variables` and its assertions.
pub fn run_var_refs(run: &Run) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (_, e) in &run.variables {
        out.extend(var_refs(e));
    }
    for a in &run.asserts {
        out.extend(var_refs(&a.condition));
        if let Some(m) = &a.error_message {
            out.extend(var_refs(m));
        }
    }
    out
}

/// Evaluate the file-level variables against the globals and the outputs of the runs so far,
/// each after the file-level variables it refers to. A variable refers to the global of its
/// own name when it names itself; variables that refer to each other in a circle fail, and
/// so do those that refer to a failed global (a `variable` block without a value).
pub fn eval_file_variables(
    exprs: &[(String, TestExpr)],
    (globals, failed_globals): (&BTreeMap<String, Value>, &BTreeSet<String>),
    runs: &BTreeMap<String, Value>,
    sources: &[(FileId, String, String)],
    dir: &Path,
) -> FileValues {
    let mut out = FileValues::default();
    for n in failed_globals {
        out.failed.insert(n.clone(), n.clone());
    }
    let mut vars = globals.clone();
    let mut pending: Vec<(&String, &TestExpr, BTreeSet<String>)> = exprs
        .iter()
        .map(|(n, e)| {
            let mut refs = var_refs(e);
            refs.remove(n);
            refs.retain(|r| exprs.iter().any(|(m, _)| m == r) || failed_globals.contains(r));
            (n, e, refs)
        })
        .collect();
    while !pending.is_empty() {
        let waiting: BTreeSet<String> = pending.iter().map(|(n, _, _)| (*n).clone()).collect();
        let (ready, rest): (Vec<_>, Vec<_>) = pending
            .into_iter()
            .partition(|(_, _, refs)| refs.iter().all(|r| !waiting.contains(r)));
        if ready.is_empty() {
            for (name, e, _) in rest {
                out.failed.insert(name.clone(), name.clone());
                out.errors.insert(
                    name.clone(),
                    vec![Diagnostic::error("test-variable-cycle", "Cycle in test variables")
                        .with_detail(format!(
                            "The variable {name:?} of the test file's variables block refers to itself through other variables of the block."
                        ))
                        .with_span(e.span)],
                );
            }
            break;
        }
        for (name, e, refs) in ready {
            if let Some(root) = refs.iter().find_map(|r| out.failed.get(r)) {
                out.failed.insert(name.clone(), root.clone());
                continue;
            }
            let mut ds = Vec::new();
            let v = eval_variables(
                &[(name.clone(), e.clone())],
                &vars,
                runs,
                sources,
                dir,
                &mut ds,
            );
            match v.into_iter().next() {
                Some((_, (v, span))) => {
                    vars.insert(name.clone(), v.clone());
                    out.values.insert(name.clone(), (v, span));
                }
                None => {
                    out.failed.insert(name.clone(), name.clone());
                    out.errors.insert(name.clone(), ds);
                }
            }
        }
        pending = rest;
    }
    out
}

/// The runs an expression refers to (`run.NAME`).
fn run_refs(e: &TestExpr) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut stack: Vec<ExprId> = vec![e.id];
    while let Some(id) = stack.pop() {
        let expr = &e.hir.tree.exprs[id];
        if let Expr::Ref(Reference::Resource(r)) = expr {
            if r.ty.as_ref() == "run" {
                out.insert(r.name.to_string());
            }
        }
        ferro_hir::child_exprs(expr, &mut stack);
    }
    out
}

/// The diagnostics of the file-level variables that fail against every run's outputs once
/// the runs are done, as Terraform 1.13 evaluates each of them whether a run needs it or not,
/// but for those that refer to a run of the file that did not complete (`done`: the runs
/// with outputs), which Terraform skips without a word.
pub fn final_failures(
    exprs: &[(String, TestExpr)],
    globals: (&BTreeMap<String, Value>, &BTreeSet<String>),
    done: &BTreeMap<String, Value>,
    runs: &[Run],
    sources: &[(FileId, String, String)],
    dir: &Path,
) -> Vec<Diagnostic> {
    let values = eval_file_variables(exprs, globals, done, sources, dir);
    let incomplete = |e: &TestExpr| {
        run_refs(e)
            .iter()
            .any(|r| !done.contains_key(r) && runs.iter().any(|run| run.name == *r))
    };
    values
        .errors
        .into_iter()
        .filter(|(n, _)| {
            exprs
                .iter()
                .find(|(m, _)| m == n)
                .is_none_or(|(_, e)| !incomplete(e))
        })
        .flat_map(|(_, ds)| ds)
        .collect()
}

/// The value of a test file's `variable` block, as Terraform 1.13 prepares it: the value given
/// from outside (`-var`, `TF_VAR_`, a variable file), text read as its type says, else its
/// default; converted to its type. `Err`: why it has no value.
pub fn declared_value(
    d: &DeclaredVariable,
    external: &BTreeMap<String, Unparsed>,
    globals: &BTreeMap<String, Value>,
    sources: &[(FileId, String, String)],
    dir: &Path,
) -> Result<Value, Vec<Diagnostic>> {
    let name = &d.name;
    let error = |summary: &str, detail: String, span: Span| {
        vec![Diagnostic::error("invalid-variable-value", summary)
            .with_detail(detail)
            .with_span(span)]
    };
    // Where the block is, as Terraform's messages about a variable file's value name it.
    let declared_at = || {
        sources
            .iter()
            .find(|(id, _, _)| *id == d.span.file)
            .map(|(_, n, t)| ferro_diag::hcl_range(n, t, d.span))
            .unwrap_or_default()
    };
    let given = external.get(name);
    let literal = matches!(
        d.ty.as_ref().map(|(t, _)| t),
        None | Some(Type::String | Type::Number | Type::Bool)
    );
    let value = match given {
        Some(Unparsed::Text(text, _)) if literal => Value::string(text),
        Some(Unparsed::Text(text, origin)) => match expression_value(text) {
            Some(v) => v,
            None => {
                let how = match origin {
                    TextOrigin::Cli => format!("-var=\"{name}=...\""),
                    TextOrigin::Env => format!("the TF_VAR_{name} environment variable"),
                };
                return Err(error(
                    "Invalid value for input variable",
                    format!("The value set using {how} is not a valid expression."),
                    d.span,
                ));
            }
        },
        Some(Unparsed::Constant(raw)) => raw.value.clone(),
        None => match &d.default {
            Some(default) => {
                let mut ds = Vec::new();
                let v = eval_variables(
                    &[(name.clone(), default.clone())],
                    globals,
                    &BTreeMap::new(),
                    sources,
                    dir,
                    &mut ds,
                );
                match v.into_values().next() {
                    Some((v, _)) => v,
                    None => return Err(ds),
                }
            }
            // Terraform requires a value for a declared variable without a default.
            None => {
                return Err(error(
                    "Required variable not set",
                    format!("The variable {name:?} is required, but is not set."),
                    d.span,
                ))
            }
        },
    };
    let Some((ty, defaults)) = &d.ty else {
        return Ok(value);
    };
    let value = match defaults {
        Some(ds) if !value.is_null() => ferro_value::defaults::apply_defaults(&value, ds),
        _ => value,
    };
    let converted = ferro_value::convert::convert(&value, ty);
    // A non-nullable variable set to null takes its default, as a module's does.
    if !d.nullable && given.is_some() && converted.as_ref().is_ok_and(Value::is_null) {
        if d.default.is_some() {
            return declared_value(d, &BTreeMap::new(), globals, sources, dir);
        }
        return Err(match given {
            Some(Unparsed::Constant(raw)) => error(
                "Required variable not set",
                format!(
                    "The given value is not suitable for var.{name} defined at {}: required variable may not be set to null.",
                    declared_at()
                ),
                raw.span.unwrap_or(d.span),
            ),
            Some(Unparsed::Text(_, origin)) => error(
                "Required variable not set",
                format!(
                    "Unsuitable value for var.{name} {}: required variable may not be set to null.",
                    origin.phrase(name)
                ),
                d.span,
            ),
            None => Vec::new(),
        });
    }
    converted.map_err(|e| match given {
        Some(Unparsed::Text(_, origin)) => error(
            "Invalid value for input variable",
            format!(
                "Unsuitable value for var.{name} {}: {}.",
                origin.phrase(name),
                e.message
            ),
            d.span,
        ),
        Some(Unparsed::Constant(raw)) => error(
            "Invalid value for input variable",
            format!(
                "The given value is not suitable for var.{name} declared at {}: {}.",
                declared_at(),
                e.message
            ),
            raw.span.unwrap_or(d.span),
        ),
        None => error(
            "Invalid default value for module argument",
            format!(
                "The default value for variable {name:?} is incompatible with its type constraint: {}.",
                e.message
            ),
            d.span,
        ),
    })
}
