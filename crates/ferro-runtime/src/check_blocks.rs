//! `check` blocks: their assertions are evaluated once everything they refer to has a value,
//! at the end of planning and again at the end of apply. A failed assertion (or one that
//! cannot be evaluated) is a warning: checks report, they never stop a run.

use crate::conditions::{check_conditions, CheckKind};
use crate::scope::{EvalTree, InstanceCtx};
use ferro_diag::{Diagnostic, Severity};

/// The warnings of every `check` block of every module instance. An assertion whose value is
/// not known yet (planning) is left for apply.
pub fn evaluate_checks(tree: &EvalTree<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (node, st) in tree.statics.iter().enumerate() {
        if st.index.checks.is_empty() {
            continue;
        }
        for path in tree.instances_of(node) {
            let Some(m) = tree.scope(&path) else {
                continue;
            };
            for item in &st.index.checks {
                let check = &tree.hir(item.file).checks[item.index];
                let ds = check_conditions(
                    &m,
                    item.file,
                    &check.asserts,
                    &InstanceCtx::default(),
                    CheckKind::CheckAssertion,
                    None,
                );
                out.extend(ds.into_iter().map(|mut d| {
                    d.severity = Severity::Warning;
                    d
                }));
            }
        }
    }
    out
}
