//! `replace_triggered_by`: an existing instance is replaced when a resource instance (or an
//! attribute of one) that its `lifecycle` names has changes planned.

use super::*;
use ferro_hir::Expr;

/// One step after the resource in a trigger reference.
enum Step {
    Attr(String),
    Key(ExprId),
}

impl Walk<'_> {
    /// Whether any `replace_triggered_by` entry of `decl` fires for the instance `inst`.
    pub(super) fn triggered(
        &self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        decl: &ResourceDecl,
        inst: &InstanceCtx,
    ) -> bool {
        decl.lifecycle
            .replace_triggered_by
            .iter()
            .any(|&e| self.trigger_fires(m, file, e, inst))
    }

    fn trigger_fires(
        &self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        e: ExprId,
        inst: &InstanceCtx,
    ) -> bool {
        let hir = m.hir(file);
        let mut steps = Vec::new();
        let mut cur = e;
        let resource = loop {
            match &hir.exprs[cur] {
                Expr::GetAttr { target, name } => {
                    steps.push(Step::Attr(name.clone()));
                    cur = *target;
                }
                Expr::Index { target, key } => {
                    steps.push(Step::Key(*key));
                    cur = *target;
                }
                Expr::Ref(Reference::Resource(r)) => break r.clone(),
                _ => return false,
            }
        };
        steps.reverse();
        let abs = AbsResource {
            module: m.path().clone(),
            resource,
        };
        let keyed = matches!(
            self.expansions.get(&abs),
            Some(Expansion::Count | Expansion::ForEach)
        );
        let eval_key = |k: ExprId| -> Option<Value> {
            let (v, ds) = m.eval(file, k, inst);
            (!ds.iter().any(Diagnostic::is_error) && v.is_wholly_known()).then_some(v)
        };
        let mut rest = steps.into_iter().peekable();
        let mut key = None;
        if keyed {
            if let Some(Step::Key(k)) = rest.peek() {
                let Some(v) = eval_key(*k) else {
                    return false;
                };
                key = Some(match (v.as_number().and_then(|n| n.to_i64()), v.as_str()) {
                    (Some(i), _) => InstanceKey::Int(i),
                    (None, Some(s)) => InstanceKey::Str(s.to_string()),
                    _ => return false,
                });
                rest.next();
            }
        }
        let mut path = Vec::new();
        for s in rest {
            match s {
                Step::Attr(a) => path.push(PathStep::Attr(a)),
                Step::Key(k) => match eval_key(k) {
                    Some(v) => path.push(PathStep::Index(v)),
                    None => return false,
                },
            }
        }
        self.changes.iter().any(|c| {
            c.deposed().is_none()
                && c.addr.module == abs.module
                && c.addr.resource.resource == abs.resource
                && key.as_ref().is_none_or(|k| &c.addr.resource.key == k)
                && matches!(
                    c.action,
                    Action::Create
                        | Action::Update
                        | Action::DeleteThenCreate
                        | Action::CreateThenDelete
                )
                && (path.is_empty() || {
                    let before = value_at(&c.before, &path).map(|v| v.deep_unmark().0);
                    let after = value_at(&c.after, &path).map(|v| v.deep_unmark().0);
                    after.as_ref().is_none_or(|a| !a.is_wholly_known()) || before != after
                })
        })
    }
}
