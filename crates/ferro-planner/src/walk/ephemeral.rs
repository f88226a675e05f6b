//! Ephemeral resources in the plan walk: opened where the item graph reaches them (see
//! [`ferro_runtime::ephemeral`]), never planned as changes, never in the refreshed state.

use super::*;

impl Walk<'_> {
    /// An ephemeral resource in module instance `m`: its instances expanded and opened.
    pub(super) fn ephemeral_resource(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        decl: &ResourceDecl,
        abs: &AbsResource,
        cfg: &Arc<AbsProviderConfig>,
        schema: &Schema,
    ) {
        let Some((expansion, keys)) = self.expand(m, file, decl.count, decl.for_each, decl.enabled)
        else {
            m.set_resource(
                abs.resource.clone(),
                ferro_runtime::ephemeral::mark_ephemeral(Value::dynamic_unknown()),
            );
            return;
        };
        let (ds, _) = ferro_runtime::ephemeral::open_resource(
            m,
            file,
            decl,
            abs,
            cfg,
            schema,
            self.ctx.input.providers,
            &self.ctx.ephemeral,
            expansion,
            keys,
        );
        self.out.diags.extend(ds);
    }
}
