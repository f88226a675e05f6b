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
            self.rel.expansions.get(&abs),
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
        let fires = |c: &ResourceInstanceChange, path: &[PathStep]| {
            path.is_empty() || {
                let (before, after) = (c.before.value(), c.after.value());
                let before = value_at(&before, path).map(|v| v.deep_unmark().0);
                let after = value_at(&after, path).map(|v| v.deep_unmark().0);
                after.as_ref().is_none_or(|a| !a.is_wholly_known()) || before != after
            }
        };
        let mut index = self.rel.trigger_index.borrow_mut();
        index.catch_up(&self.out.changes);
        let Some(instances) = index.by_resource.get(&abs) else {
            return false;
        };
        match key {
            Some(k) => instances
                .get(&k)
                .is_some_and(|&i| fires(&self.out.changes[i], &path)),
            // The whole resource: the same answer for every instance that asks, kept.
            None => {
                let asked = (abs, path);
                if let Some(&known) = index.whole.get(&asked) {
                    return known;
                }
                let instances = &index.by_resource[&asked.0];
                let known = instances
                    .values()
                    .any(|&i| fires(&self.out.changes[i], &asked.1));
                index.whole.insert(asked, known);
                known
            }
        }
    }
}

/// The planned changes that can fire a `replace_triggered_by` entry (creates, updates and
/// replacements of current objects), by resource and instance key, so each instance's
/// triggers are looked up rather than found by going through every change planned so far
/// (which cost a resource of n instances, each naming its own trigger, n² comparisons).
/// Built on first use and brought up to date as the walk plans more: the walk only adds
/// changes until every resource is planned.
#[derive(Default)]
pub(super) struct TriggerIndex {
    /// How many of the walk's changes are indexed.
    seen: usize,
    by_resource: HashMap<AbsResource, HashMap<InstanceKey, usize>>,
    /// Answers for entries naming a whole resource (no instance key): the resource is
    /// planned before anything that names it, so they cannot change.
    whole: HashMap<(AbsResource, Vec<PathStep>), bool>,
}

impl TriggerIndex {
    fn catch_up(&mut self, changes: &[Box<ResourceInstanceChange>]) {
        for (i, c) in changes.iter().enumerate().skip(self.seen) {
            let fires = matches!(
                c.action,
                Action::Create
                    | Action::Update
                    | Action::DeleteThenCreate
                    | Action::CreateThenDelete
            );
            if fires && c.deposed().is_none() {
                self.by_resource
                    .entry(c.addr.containing_resource())
                    .or_default()
                    .insert(c.addr.resource.key.clone(), i);
            }
        }
        self.seen = changes.len();
    }
}
