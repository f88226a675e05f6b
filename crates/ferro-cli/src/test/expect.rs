//! Judging a run: which diagnostics the run's `expect_failures` account for, the expected
//! failures that did not happen, and the `assert` blocks.

use super::file::{Assert, Traversal};
use super::Status;
use crate::load::Loaded;
use ferro_diag::{Diagnostic, Span};
use ferro_eval::Scope;
use ferro_value::Type;

/// The ranges the failures of the object an expected failure names point at: a variable's
/// block, and the conditions of an output, a check block or a resource.
fn object_spans(l: &Loaded, text: &str) -> Vec<Span> {
    let root = l.ws.root(&l.db);
    let index = ferro_db::module_index(&l.db, root);
    let Some((head, rest)) = text.split_once('.') else {
        return Vec::new();
    };
    let name = rest.split(['[', '.']).next().unwrap_or(rest);
    let conditions = |hir: &ferro_hir::FileHir, cs: &[ferro_hir::Condition]| -> Vec<Span> {
        cs.iter()
            .flat_map(|c| [hir.span(c.condition), Some(hir.at(c.span))])
            .flatten()
            .collect()
    };
    match head {
        "var" => index
            .variables
            .get(name)
            .map(|item| {
                let hir = ferro_db::file_hir(&l.db, item.file);
                vec![hir.at(hir.variables[item.index].span)]
            })
            .unwrap_or_default(),
        "output" => index
            .outputs
            .get(name)
            .map(|item| {
                let hir = ferro_db::file_hir(&l.db, item.file);
                conditions(hir, &hir.outputs[item.index].preconditions)
            })
            .unwrap_or_default(),
        "check" => index
            .checks
            .iter()
            .flat_map(|item| {
                let hir = ferro_db::file_hir(&l.db, item.file);
                let c = &hir.checks[item.index];
                if c.name == name {
                    conditions(hir, &c.asserts)
                } else {
                    Vec::new()
                }
            })
            .collect(),
        _ => resource_of(text)
            .and_then(|addr| index.resources.get(&addr).copied())
            .map(|item| {
                let hir = ferro_db::file_hir(&l.db, item.file);
                let r = &hir.resources[item.index];
                let mut out = conditions(hir, &r.lifecycle.preconditions);
                out.extend(conditions(hir, &r.lifecycle.postconditions));
                out
            })
            .unwrap_or_default(),
    }
}

fn resource_of(text: &str) -> Option<ferro_addrs::Resource> {
    let base = text.split('[').next().unwrap_or(text);
    let parts: Vec<&str> = base.split('.').collect();
    match parts.as_slice() {
        ["data", ty, name, ..] => Some(ferro_addrs::Resource {
            mode: ferro_addrs::ResourceMode::Data,
            ty: (*ty).into(),
            name: (*name).into(),
        }),
        [ty, name, ..] => Some(ferro_addrs::Resource::managed(*ty, *name)),
        _ => None,
    }
}

/// Whether a diagnostic is a custom condition's (the failures `expect_failures` can expect).
fn is_custom_condition(d: &Diagnostic) -> bool {
    d.code == "condition-failed"
        || (d.code == "invalid-variable-value" && d.summary == "Invalid value for variable")
}

fn within(inner: Span, outer: Span) -> bool {
    inner.file == outer.file && inner.start >= outer.start && inner.end <= outer.end
}

/// Split `diags` into those no expectation accounts for and those one does, marking each
/// expectation met.
pub fn match_expected(
    l: &Loaded,
    diags: Vec<Diagnostic>,
    expected: &mut [(&Traversal, bool)],
) -> (Vec<Diagnostic>, Vec<(usize, Diagnostic)>) {
    if expected.is_empty() {
        return (diags, Vec::new());
    }
    let spans: Vec<Vec<Span>> = expected
        .iter()
        .map(|(t, _)| object_spans(l, &t.text))
        .collect();
    let mut rest = Vec::new();
    let mut matched = Vec::new();
    for d in diags {
        if !is_custom_condition(&d) {
            rest.push(d);
            continue;
        }
        let hit = expected.iter().enumerate().position(|(i, (t, _))| {
            let by_span = d
                .span
                .is_some_and(|s| spans[i].iter().any(|o| within(s, *o)));
            let by_address = d.address.as_deref().is_some_and(|a| {
                a == t.text
                    || a.starts_with(&format!("{}[", t.text))
                    || a.starts_with(&format!("{}.", t.text))
            });
            by_span || by_address
        });
        match hit {
            Some(i) => {
                expected[i].1 = true;
                matched.push((i, d));
            }
            None => rest.push(d),
        }
    }
    (rest, matched)
}

/// Terraform's error for every expected failure that did not happen.
pub fn missing_expected(expected: &[(&Traversal, bool)]) -> Vec<Diagnostic> {
    expected
        .iter()
        .filter(|(_, hit)| !hit)
        .map(|(t, _)| {
            Diagnostic::error("test-missing-expected-failure", "Missing expected failure")
                .with_detail(format!(
                    "The checkable object, {}, was expected to report an error but did not.",
                    t.text
                ))
                .with_span(t.span)
        })
        .collect()
}

/// The warning Terraform gives when a failure expected of a run that applies happened while
/// planning, so that nothing could be applied.
pub fn planning_failure_warning(t: &Traversal) -> Diagnostic {
    Diagnostic::warning("test-expected-failure-in-plan", "Expected failure while planning")
        .with_detail(format!("A custom condition within {} failed during the planning stage and prevented the requested apply operation. While this was an expected failure, the apply operation could not be executed and so the overall test case will be marked as a failure and the original diagnostic included in the test report.", object_name(&t.text)))
        .with_span(t.span)
}

/// The checkable object an expectation names (`aws_instance.a[0]` is `aws_instance.a`).
fn object_name(text: &str) -> &str {
    text.split('[').next().unwrap_or(text)
}

/// Check one assertion; its status and, unless it passed, why.
pub fn check_assert(a: &Assert, scope: &dyn Scope) -> (Status, Vec<Diagnostic>) {
    let c = &a.condition;
    let (v, ds) = ferro_eval::eval_expr(&c.hir, scope, c.id);
    if ds.iter().any(Diagnostic::is_error) {
        return (Status::Error, ds);
    }
    let with_values = |d: Diagnostic| {
        let mut d = d.with_span(c.span);
        d.values = ferro_eval::expression_values(&c.hir, scope, c.id);
        d
    };
    let (plain, _) = v.deep_unmark();
    if plain.is_null() {
        return (
            Status::Error,
            vec![with_values(
                Diagnostic::error("test-invalid-condition", "Invalid condition run").with_detail(
                    "Condition expression must return either true or false, not null.",
                ),
            )],
        );
    }
    if !plain.is_wholly_known() {
        return (
            Status::Error,
            vec![with_values(Diagnostic::error("test-unknown-condition", "Unknown condition value").with_detail("Condition expression could not be evaluated at this time. This means you have executed a `run` block with `command = plan` and one of the values your condition depended on is not known until after the plan has been applied. Either remove this value from your condition, or execute an `apply` command from this `run` block. Alternatively, if there is an override for this value, you can make it available during the plan phase by setting `override_during = plan` in the `override_` block."))],
        );
    }
    let ok = match ferro_value::convert::convert(&plain, &Type::Bool)
        .ok()
        .and_then(|b| b.as_bool())
    {
        Some(b) => b,
        None => {
            return (
                Status::Error,
                vec![with_values(
                    Diagnostic::error("test-invalid-condition", "Invalid condition run")
                        .with_detail("Invalid condition run value: a bool is required."),
                )],
            )
        }
    };
    if ok {
        return (Status::Pass, Vec::new());
    }
    let message = match &a.error_message {
        Some(m) => {
            let (v, ds) = ferro_eval::eval_expr(&m.hir, scope, m.id);
            if let Some(d) = ds.into_iter().find(Diagnostic::is_error) {
                return (Status::Error, vec![d]);
            }
            let (plain, marks) = v.deep_unmark();
            if marks.is_sensitive() {
                "(sensitive value)".to_string()
            } else {
                match ferro_value::convert::convert(&plain, &Type::String)
                    .ok()
                    .and_then(|s| s.as_str().map(str::to_string))
                {
                    Some(s) => s.trim().to_string(),
                    None => {
                        return (
                            Status::Error,
                            vec![Diagnostic::error(
                                "invalid-error-message",
                                "Invalid error message",
                            )
                            .with_detail(
                                "Unsuitable value for error message: a string is required.",
                            )
                            .with_span(m.span)],
                        )
                    }
                }
            }
        }
        None => String::new(),
    };
    (
        Status::Fail,
        vec![with_values(
            Diagnostic::error("test-assertion-failed", "Test assertion failed")
                .with_detail(message),
        )],
    )
}
