//! References: a reference's value with its error placed, and `module.NAME.OUT`, for which the
//! scope is asked for the module with that output only ([`Scope::reference_output`]).

use super::*;

impl Evaluator<'_> {
    /// A reference's value, or its error with the reference's range.
    pub(super) fn referenced(&mut self, e: ExprId, v: Result<Value, Diagnostic>) -> Value {
        match v {
            Ok(v) => v,
            Err(mut d) => {
                if d.span.is_none() {
                    d.span = self.span(e);
                }
                self.diags.push(d);
                unknown()
            }
        }
    }

    /// The value of `target` when it is `module.NAME` or `module.NAME[KEY]` and the attribute
    /// `name` is taken of it: the module's value asked for with that output only
    /// ([`Scope::reference_output`]).
    pub(super) fn module_output_target(&mut self, target: ExprId, name: &str) -> Option<Value> {
        let hir = self.tree;
        let module = |id: ExprId| match &hir.exprs[id] {
            Expr::Ref(r @ Reference::Module(_)) => Some(r),
            _ => None,
        };
        if let Some(r) = module(target) {
            let v = self.scope.reference_output(r, name);
            return Some(self.referenced(target, v));
        }
        let Expr::Index { target: root, key } = &hir.exprs[target] else {
            return None;
        };
        let r = module(*root)?;
        let v = self.scope.reference_output(r, name);
        let t = self.referenced(*root, v);
        let k = self.eval(*key);
        Some(self.index(target, &t, &k))
    }
}
