//! Orphans: objects in state that the configuration no longer has (a removed resource, a
//! module instance or call that is gone, a removed output) are planned for destruction, or
//! forgotten when a `removed` block without `destroy = true` covers them.

use super::*;

/// How many instances the orphan walk refreshes before it plans their deletes.
const ORPHAN_WINDOW: usize = 4096;

/// What planning a resource's orphans needs (see [`Walk::orphan_setup`]).
struct OrphanSetup {
    schema: Schema,
    lc: ferro_hir::Lifecycle,
    is_data: bool,
    provider: Arc<AbsProviderConfig>,
    /// A `removed` block without `destroy = true` covers the resource: its objects are
    /// forgotten, not destroyed.
    forget: bool,
}

impl<'a> Walk<'a> {
    /// Resources in state that the configuration no longer declares are destroyed; so are
    /// outputs that no longer exist.
    pub(super) fn orphans(&mut self) {
        let tree = self.tree;
        self.removed_still_configured();
        // Outlines of the resources that may have orphans: the walk replaces the objects
        // themselves in `refreshed` as it refreshes them, and a full copy here would keep every
        // replaced object alive.
        let destroy = self.input.options.destroy;
        let state_resources: Vec<_> = self
            .refreshed
            .resources
            .values()
            .filter(|rs| destroy || !configured_here(tree, &rs.addr))
            .map(|rs| rs.outline(|_, _| true))
            .collect();
        // Room for a delete of every instance outlined (a destroy plans one each): grown one
        // push at a time, the list of changes doubled, and held both copies while it moved.
        self.changes
            .reserve(state_resources.iter().map(|rs| rs.instances.len()).sum());
        let setups: Vec<_> = state_resources
            .iter()
            .map(|rs| self.orphan_setup(tree, rs))
            .collect();
        // A window of instances at a time, across resources: its objects are refreshed
        // together (in parallel), then its deletes planned. A refreshed object waits decoded
        // until its change takes it, so only a window's objects are ever held that way, not
        // every object of state.
        let mut windows: Vec<Vec<(usize, std::ops::Range<usize>)>> = vec![Vec::new()];
        let mut room = ORPHAN_WINDOW;
        for (i, rs) in state_resources.iter().enumerate() {
            let mut at = 0;
            while at < rs.instances.len() {
                let take = room.min(rs.instances.len() - at);
                windows
                    .last_mut()
                    .expect("a window")
                    .push((i, at..at + take));
                at += take;
                room -= take;
                if room == 0 {
                    windows.push(Vec::new());
                    room = ORPHAN_WINDOW;
                }
            }
        }
        for window in windows {
            // The managed objects the window plans (or, in a targeted destroy, refreshes).
            let refreshes: Vec<_> = window
                .iter()
                .filter_map(|(i, range)| {
                    let rs = &state_resources[*i];
                    let setup = setups[*i].as_ref().filter(|s| !s.is_data)?;
                    Some(
                        rs.instances[range.clone()]
                            .iter()
                            .filter(|inst| {
                                inst.has_current
                                    && self.refreshes(&rs.addr.instance(inst.key.clone()))
                            })
                            .map(move |inst| (&rs.addr, &inst.key, &rs.provider, &setup.schema)),
                    )
                })
                .flatten()
                .collect();
            self.prefetch_priors(refreshes);
            for (i, range) in window {
                let Some(setup) = &setups[i] else {
                    continue;
                };
                let first_change = self.changes.len();
                self.orphan_instances(&state_resources[i], setup, range);
                if setup.forget {
                    let gone: Vec<_> = self.changes.drain(first_change..).collect();
                    self.forgotten.extend(gone);
                }
            }
        }
        self.orphan_outputs(tree);
    }

    /// Whether the orphan walk refreshes an instance: one it plans, or in a targeted destroy
    /// one that a refresh of the same targets covers.
    fn refreshes(&self, addr: &AbsResourceInstance) -> bool {
        self.targeting.includes(addr)
            || self
                .destroy_refresh
                .as_ref()
                .is_some_and(|t| t.includes(addr))
    }

    /// What planning the orphans of a resource needs, found once per resource (with the
    /// diagnostics when its provider configuration or schema is gone); None when none of its
    /// instances is planned.
    fn orphan_setup(
        &mut self,
        tree: &EvalTree<'_>,
        rs: &ferro_state::ResourceOutline,
    ) -> Option<OrphanSetup> {
        let scope = tree.scope(&rs.addr.module);
        let configured_here = configured_here(tree, &rs.addr);
        if configured_here && !self.input.options.destroy {
            return None;
        }
        let is_data = rs.addr.resource.mode == ResourceMode::Data;
        if !self.provider_config_present(&rs.provider) {
            self.diags.push(
                Diagnostic::error("provider-unavailable", "Provider configuration not present")
                    .with_detail(format!("To work with {} its original provider configuration at {} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy {}, after which you can remove the provider configuration again.", rs.addr, rs.provider, rs.addr))
                    .with_address(rs.addr.to_string()),
            );
            return None;
        }
        let Some(schema) = self
            .input
            .providers
            .schemas
            .get(&rs.provider.provider)
            .and_then(|s| {
                if is_data {
                    s.data_sources.get(&*rs.addr.resource.ty)
                } else {
                    s.resources.get(&*rs.addr.resource.ty)
                }
            })
            .cloned()
        else {
            self.diags.push(
                Diagnostic::error("provider-unavailable", "Provider configuration not present")
                    .with_detail(format!("To work with {} its original provider configuration at {} is required, but it has been removed.", rs.addr, rs.provider)),
            );
            return None;
        };
        let mut lc = if let (true, Some(m)) = (configured_here, scope.as_ref()) {
            Self::decl(m, &rs.addr.resource).1.lifecycle.clone()
        } else {
            ferro_hir::Lifecycle::default()
        };
        // prevent_destroy belongs to the resource's configuration block, wherever its module
        // instance went (a destroy plan expands no module calls; a removed module instance
        // still has the block), as Terraform attaches configuration to orphans.
        if !is_data && self.prevent_destroy.contains(&rs.addr.config()) {
            lc.prevent_destroy = true;
        }
        Some(OrphanSetup {
            schema,
            lc,
            is_data,
            provider: Arc::new(rs.provider.clone()),
            forget: !is_data && self.removed_rule(&rs.addr) == Some(false),
        })
    }

    /// Plan the orphans among the instances of `rs` in `range`.
    fn orphan_instances(
        &mut self,
        rs: &ferro_state::ResourceOutline,
        setup: &OrphanSetup,
        range: std::ops::Range<usize>,
    ) {
        let OrphanSetup {
            schema,
            lc,
            is_data,
            provider,
            ..
        } = setup;
        let is_data = *is_data;
        for inst in &rs.instances[range] {
            let key = &inst.key;
            if !self.targeting.includes(&rs.addr.instance(key.clone())) {
                if !is_data && inst.has_current && self.refreshes(&rs.addr.instance(key.clone())) {
                    let _ = self.prior_object(&rs.addr, key, &rs.provider, schema);
                }
                continue;
            }
            if self.input.options.refresh_only {
                // Refreshed (an object deleted outside ferro leaves state), never destroyed.
                if !is_data && inst.has_current {
                    let _ = self.prior_object(&rs.addr, key, &rs.provider, schema);
                }
                continue;
            }
            if is_data {
                if let Some(v) = self.prior_data(&rs.addr, key, schema) {
                    self.push_delete(rs.addr.instance(key.clone()), provider, schema, v, None, lc);
                }
                continue;
            }
            if inst.has_current {
                if let Some(prior) = self.prior_object(&rs.addr, key, &rs.provider, schema) {
                    self.push_delete(
                        rs.addr.instance(key.clone()),
                        provider,
                        schema,
                        prior.value,
                        None,
                        lc,
                    );
                }
            }
            for (dk, obj) in &inst.deposed {
                let ty = schema.implied_type();
                if let Ok(v) = obj.attributes.to_value(&ty) {
                    self.push_delete(
                        rs.addr.instance(key.clone()),
                        provider,
                        schema,
                        v,
                        Some(dk.clone()),
                        lc,
                    );
                }
            }
        }
    }

    fn orphan_outputs(&mut self, tree: &EvalTree<'_>) {
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

    /// Whether the configuration still has the provider configuration an object of state was
    /// made with: the root module's default configurations always exist (implied when no block
    /// declares them); an alias, or a child module's own configuration, needs its block.
    fn provider_config_present(&self, cfg: &AbsProviderConfig) -> bool {
        if cfg.module.is_empty() && cfg.alias.is_none() {
            return true;
        }
        let Some(st) = self.tree.statics.iter().find(|st| st.path == cfg.module) else {
            return false;
        };
        st.index.providers.keys().any(|(name, alias)| {
            alias == &cfg.alias && {
                let source = st
                    .index
                    .required_providers
                    .get(name)
                    .and_then(|item| {
                        let rp = &self.tree.hir(item.file).required_providers[item.index];
                        rp.source.as_deref()
                    })
                    .and_then(|s| ferro_addrs::Provider::parse_source(s).ok());
                source.unwrap_or_else(|| ferro_addrs::Provider::default_for(name)) == cfg.provider
            }
        })
    }

    /// The `removed` block covering a resource of state, if any: whether it asks for the
    /// objects to be destroyed.
    fn removed_rule(&self, addr: &AbsResource) -> Option<bool> {
        let names: Vec<&str> = addr.module.0.iter().map(|s| s.name.as_str()).collect();
        for st in &self.tree.statics {
            for item in &st.index.removed {
                let block = &self.tree.hir(item.file).removed[item.index];
                let (prefix, resource) = removed_target(&st.path, &block.from);
                let covered = match resource {
                    Some(r) => names == prefix && r == &addr.resource,
                    None => names.starts_with(&prefix),
                };
                if covered {
                    return Some(block.destroy);
                }
            }
        }
        None
    }

    /// A `removed` block naming something the configuration still declares is an error.
    fn removed_still_configured(&mut self) {
        for st in &self.tree.statics {
            for item in &st.index.removed {
                let block = &self.tree.hir(item.file).removed[item.index];
                let (prefix, resource) = removed_target(&st.path, &block.from);
                let declared = self.tree.statics.iter().any(|o| {
                    o.path.iter().map(String::as_str).eq(prefix.iter().copied())
                        && resource.is_none_or(|r| o.index.resources.contains_key(r))
                });
                if declared {
                    let what = if resource.is_some() {
                        "resource"
                    } else {
                        "module"
                    };
                    self.diags.push(
                        Diagnostic::error("removed-still-declared", format!("Removed {what} block still exists"))
                            .with_detail(format!("This statement declares a removal of the {what} {}, but this {what} block still exists in the configuration. Please remove the {what} block.", block.from))
                            .with_span(self.tree.hir(item.file).at(block.from_span)),
                    );
                }
            }
        }
    }
}

/// The static module path a `removed` block's `from` names (the declaring module's path, then
/// the module calls of `from`) and the resource, when it names one.
fn removed_target<'a>(
    module: &'a [String],
    from: &'a ferro_addrs::Target,
) -> (Vec<&'a str>, Option<&'a Resource>) {
    let mut path: Vec<&str> = module.iter().map(String::as_str).collect();
    let (steps, resource) = match from {
        ferro_addrs::Target::Module(m) => (&m.0, None),
        ferro_addrs::Target::Resource(r) => (&r.module.0, Some(&r.resource)),
        ferro_addrs::Target::Instance(i) => (&i.module.0, Some(&i.resource.resource)),
    };
    path.extend(steps.iter().map(|s| s.name.as_str()));
    (path, resource)
}

/// Whether the configuration has the resource: its module instance exists and declares it.
fn configured_here(tree: &EvalTree<'_>, addr: &AbsResource) -> bool {
    tree.scope(&addr.module)
        .is_some_and(|m| m.index.resources.contains_key(&addr.resource))
}
