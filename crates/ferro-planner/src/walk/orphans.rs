//! Orphans: objects in state that the configuration no longer has (a removed resource, a
//! module instance or call that is gone, a removed output) are planned for destruction.

use super::*;

impl Walk<'_> {
    /// Resources in state that the configuration no longer declares are destroyed; so are
    /// outputs that no longer exist.
    pub(super) fn orphans(&mut self) {
        let tree = self.tree;
        let state_resources: Vec<_> = self.refreshed.resources.values().cloned().collect();
        for rs in state_resources {
            // Configured here: its module instance exists and declares the resource.
            let scope = tree.scope(&rs.addr.module);
            let configured_here = scope
                .as_ref()
                .is_some_and(|m| m.index.resources.contains_key(&rs.addr.resource));
            if configured_here && !self.input.options.destroy {
                continue;
            }
            let is_data = rs.addr.resource.mode == ResourceMode::Data;
            let Some(schema) = self
                .input
                .providers
                .schemas
                .get(&rs.provider.provider)
                .and_then(|s| {
                    if is_data {
                        s.data_sources.get(&rs.addr.resource.ty)
                    } else {
                        s.resources.get(&rs.addr.resource.ty)
                    }
                })
                .cloned()
            else {
                self.diags.push(
                    Diagnostic::error("provider-unavailable", "Provider configuration not present")
                        .with_detail(format!("To work with {} its original provider configuration at {} is required, but it has been removed.", rs.addr, rs.provider)),
                );
                continue;
            };
            let lc = if let (true, Some(m)) = (configured_here, scope.as_ref()) {
                Self::decl(m, &rs.addr.resource).1.lifecycle.clone()
            } else {
                ferro_hir::Lifecycle::default()
            };
            for (key, inst) in &rs.instances {
                if !self.targeting.includes(&rs.addr.instance(key.clone())) {
                    continue;
                }
                if self.input.options.refresh_only {
                    // Refreshed (an object deleted outside ferro leaves state), never destroyed.
                    if !is_data && inst.current.is_some() {
                        let _ = self.prior_object(&rs.addr, key, &rs.provider, &schema);
                    }
                    continue;
                }
                if is_data {
                    if let Some(v) = self.prior_data(&rs.addr, key, &schema) {
                        self.push_delete(
                            rs.addr.instance(key.clone()),
                            &rs.provider,
                            &schema,
                            v,
                            None,
                            &lc,
                        );
                    }
                    continue;
                }
                if inst.current.is_some() {
                    if let Some(prior) = self.prior_object(&rs.addr, key, &rs.provider, &schema) {
                        self.push_delete(
                            rs.addr.instance(key.clone()),
                            &rs.provider,
                            &schema,
                            prior.value,
                            None,
                            &lc,
                        );
                    }
                }
                for (dk, obj) in &inst.deposed {
                    let ty = schema.block.implied_type();
                    if let Ok(v) = json::value_from_json(&obj.attributes, &ty) {
                        self.push_delete(
                            rs.addr.instance(key.clone()),
                            &rs.provider,
                            &schema,
                            v,
                            Some(dk.clone()),
                            &lc,
                        );
                    }
                }
            }
        }
        if !self.input.options.destroy && !self.targeting.is_active() {
            let names: Vec<String> = self
                .refreshed
                .outputs
                .keys()
                .filter(|n| !tree.root().index.outputs.contains_key(*n))
                .cloned()
                .collect();
            for n in names {
                let os = &self.refreshed.outputs[&n];
                if let Some(b) = json::type_from_json(&os.ty)
                    .ok()
                    .and_then(|t| json::value_from_json(&os.value, &t).ok())
                {
                    self.outputs.push(OutputChange {
                        name: n,
                        action: Action::Delete,
                        after: Value::null(b.ty()),
                        before: b,
                        sensitive: os.sensitive,
                    });
                }
            }
        }
    }
}
