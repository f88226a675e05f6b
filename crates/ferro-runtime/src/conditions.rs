//! `precondition` and `postcondition` blocks of resources, data sources and outputs: each
//! condition must hold, or planning (or apply) fails with the block's error message.
//!
//! A condition whose value is not known yet passes for now; resource postconditions are
//! checked again after apply, against the new object.

use crate::scope::{InstanceCtx, ModuleEval};
use ferro_db::SourceFile;
use ferro_diag::Diagnostic;
use ferro_hir::Condition;
use ferro_value::convert::convert;
use ferro_value::{Type, Value};

/// Which kind of check a condition belongs to (it decides the message's summary).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckKind {
    ResourcePrecondition,
    ResourcePostcondition,
    OutputPrecondition,
    /// An `assert` of a `check` block (reported as a warning by the caller).
    CheckAssertion,
}

impl CheckKind {
    fn summary(self) -> &'static str {
        match self {
            CheckKind::ResourcePrecondition => "Resource precondition failed",
            CheckKind::ResourcePostcondition => "Resource postcondition failed",
            CheckKind::OutputPrecondition => "Module output value precondition failed",
            CheckKind::CheckAssertion => "Check block assertion failed",
        }
    }
}

/// Evaluate `conds` in `m` for the instance `inst`; the diagnostics of every condition that
/// failed (or could not be evaluated). `addr` names the object checked.
pub fn check_conditions(
    m: &ModuleEval<'_>,
    file: SourceFile,
    conds: &[Condition],
    inst: &InstanceCtx,
    kind: CheckKind,
    addr: Option<&str>,
) -> Vec<Diagnostic> {
    let hir = m.hir(file);
    let mut out = Vec::new();
    let with_addr = |d: Diagnostic| match addr {
        Some(a) if d.address.is_none() => d.with_address(a.to_string()),
        _ => d,
    };
    for c in conds {
        let span = hir.span(c.condition).or(Some(hir.at(c.span)));
        let (v, ds) = m.eval(file, c.condition, inst);
        if ds.iter().any(Diagnostic::is_error) {
            out.extend(ds.into_iter().map(with_addr));
            continue;
        }
        let (plain, _) = v.deep_unmark();
        if !plain.is_known() {
            continue;
        }
        let ok = match convert(&plain, &Type::Bool).ok().and_then(|b| b.as_bool()) {
            Some(b) => b,
            None => {
                out.push(with_addr(
                    Diagnostic::error("invalid-condition", "Invalid condition result")
                        .with_detail(if plain.is_null() {
                            "Condition expression must return either true or false, not null."
                                .to_string()
                        } else {
                            "Invalid condition result value: a bool is required.".to_string()
                        })
                        .with_span_opt(span),
                ));
                continue;
            }
        };
        if ok {
            continue;
        }
        let (msg, ds) = m.eval(file, c.error_message, inst);
        let message = match convert(&msg.deep_unmark().0, &Type::String) {
            Ok(s) if ds.is_empty() => s.as_str().map(str::to_string),
            _ => None,
        };
        let detail = match message {
            Some(s) => s,
            None => {
                out.push(with_addr(
                    Diagnostic::error("invalid-error-message", "Invalid error message")
                        .with_detail("Unsuitable value for error message: a string is required.")
                        .with_span_opt(hir.span(c.error_message).or(Some(hir.at(c.span)))),
                ));
                continue;
            }
        };
        out.push(with_addr(
            Diagnostic::error("condition-failed", kind.summary())
                .with_detail(detail)
                .with_span_opt(span),
        ));
    }
    out
}

/// The instance context with `self` bound to `value` (for postconditions).
pub fn with_self(inst: &InstanceCtx, value: &Value) -> InstanceCtx {
    let mut i = inst.clone();
    i.self_value = Some(value.clone());
    i
}
