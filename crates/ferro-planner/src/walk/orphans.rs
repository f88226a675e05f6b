//! Orphans: objects in state that the configuration no longer has (a removed resource, a
//! module instance or call that is gone, a removed output) are planned for destruction, or
//! forgotten when a `removed` block without `destroy = true` covers them or, without such a
//! block, their resource has (or had, as state records) `lifecycle { destroy = false }`.

use super::*;

/// How many instances the orphan walk refreshes before it plans their deletes.
const ORPHAN_WINDOW: usize = 4096;

/// What planning a resource's orphans needs (see [`Walk::orphan_setup`]).
struct OrphanSetup {
    schema: Schema,
    lc: ferro_hir::Lifecycle,
    is_data: bool,
    provider: Arc<AbsProviderConfig>,
    /// The `removed` block covering the resource, if any: whether it destroys the objects
    /// (otherwise they are forgotten).
    removed: Option<bool>,
}

impl<'a> Walk<'a> {
    /// Resources in state that the configuration no longer declares are destroyed; so are
    /// outputs that no longer exist.
    pub(super) fn orphans(&mut self) {
        let tree = self.ctx.tree;
        self.removed_still_configured();
        // The resources that may have orphans, with how many instances each has. Their
        // instances are outlined a window at a time (below), as the window starts: the walk
        // replaces the objects themselves in `refreshed` as it refreshes them (an outline holds
        // no current object, so it keeps none of the replaced ones alive), and only a window's
        // outlines are held, not one per instance of the state.
        let destroy = self.ctx.input.options.destroy;
        let resources: Vec<(AbsResource, usize)> = self
            .refreshed
            .resources
            .values()
            .filter(|rs| destroy || !configured_here(tree, &rs.addr))
            // Under a module call deferred, or of a provider configuration not known yet:
            // left as they are, for a later plan.
            .filter(|rs| {
                !self.deferral.covers_module(&rs.addr.module)
                    && !self.deferral.provider_unknown(&rs.provider)
            })
            .map(|rs| (rs.addr.clone(), rs.instances.len()))
            .collect();
        // Room for a delete of every instance (a destroy plans one each): grown one push at a
        // time, the list of changes doubled, and held both copies while it moved.
        self.out
            .changes
            .reserve(resources.iter().map(|(_, n)| n).sum());
        let setups: Vec<_> = resources
            .iter()
            .map(|(addr, _)| {
                let provider = self.refreshed.resources[addr].provider.clone();
                self.orphan_setup(tree, addr, &provider)
            })
            .collect();
        // A window of instances at a time, across resources: its objects are refreshed
        // together (in parallel), then its deletes planned. A refreshed object waits decoded
        // until its change takes it, so only a window's objects are ever held that way, not
        // every object of state. A window takes the instances after the last key the window
        // before took of the same resource.
        let mut next = 0;
        let mut after: Option<InstanceKey> = None;
        while next < resources.len() {
            let mut window: Vec<(usize, ferro_state::ResourceOutline)> = Vec::new();
            let mut room = ORPHAN_WINDOW;
            while room > 0 && next < resources.len() {
                let outline = self
                    .refreshed
                    .resources
                    .get(&resources[next].0)
                    .map(|rs| rs.outline_after(after.as_ref(), room))
                    .filter(|o| !o.instances.is_empty());
                let Some(outline) = outline else {
                    next += 1;
                    after = None;
                    continue;
                };
                room -= outline.instances.len();
                after = outline.instances.last().map(|inst| inst.key.clone());
                window.push((next, outline));
                if room > 0 {
                    // The resource has no instances left.
                    next += 1;
                    after = None;
                }
            }
            // The managed objects the window plans (or, in a targeted destroy, refreshes).
            let refreshes: Vec<_> = window
                .iter()
                .filter_map(|(i, rs)| {
                    let setup = setups[*i].as_ref().filter(|s| !s.is_data)?;
                    Some(
                        rs.instances
                            .iter()
                            .filter(|inst| {
                                // (An object of a `for_each` provider configuration's instance
                                // is refreshed when its delete is planned.)
                                inst.has_current
                                    && inst.provider_key.is_none()
                                    && self.refreshes(&rs.addr.instance(inst.key.clone()))
                            })
                            .map(move |inst| (&rs.addr, &inst.key, &rs.provider, &setup.schema)),
                    )
                })
                .flatten()
                .collect();
            self.prefetch_priors(refreshes);
            for (i, rs) in &window {
                let Some(setup) = &setups[*i] else {
                    continue;
                };
                self.out.removed_rule = setup.removed;
                self.orphan_instances(rs, setup);
                self.out.removed_rule = None;
            }
        }
        self.orphan_outputs(tree);
    }

    /// Whether the orphan walk refreshes an instance: one it plans, or in a targeted destroy
    /// one that a refresh of the same targets covers.
    fn refreshes(&self, addr: &AbsResourceInstance) -> bool {
        self.ctx.targeting.includes(addr)
            || self
                .ctx
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
        addr: &AbsResource,
        provider: &AbsProviderConfig,
    ) -> Option<OrphanSetup> {
        let scope = tree.scope(&addr.module);
        let configured_here = configured_here(tree, addr);
        if configured_here && !self.ctx.input.options.destroy {
            return None;
        }
        let is_data = addr.resource.mode == ResourceMode::Data;
        if !self.provider_config_present(provider) {
            self.out.diags.push(
                Diagnostic::error("provider-unavailable", "Provider configuration not present")
                    .with_detail(format!("To work with {} its original provider configuration at {} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy {}, after which you can remove the provider configuration again.", addr, provider, addr))
                    .with_address(addr.to_string()),
            );
            return None;
        }
        let Some(schema) = self
            .ctx
            .input
            .providers
            .schemas
            .get(&provider.provider)
            .and_then(|s| {
                if is_data {
                    s.data_sources.get(&*addr.resource.ty)
                } else {
                    s.resources.get(&*addr.resource.ty)
                }
            })
            .cloned()
        else {
            self.out.diags.push(
                Diagnostic::error("provider-unavailable", "Provider configuration not present")
                    .with_detail(format!("To work with {} its original provider configuration at {} is required, but it has been removed.", addr, provider)),
            );
            return None;
        };
        let mut lc = if let (true, Some(m)) = (configured_here, scope.as_ref()) {
            Self::decl(m, &addr.resource).1.lifecycle.clone()
        } else {
            ferro_hir::Lifecycle::default()
        };
        // prevent_destroy belongs to the resource's configuration block, wherever its module
        // instance went (a destroy plan expands no module calls; a removed module instance
        // still has the block), as Terraform attaches configuration to orphans.
        if !is_data && self.rel.prevent_destroy.contains(&addr.config()) {
            lc.prevent_destroy = true;
        }
        Some(OrphanSetup {
            schema,
            lc,
            is_data,
            provider: Arc::new(provider.clone()),
            removed: self.removed_rule(addr),
        })
    }

    /// Plan the orphans among the instances outlined in `rs`.
    fn orphan_instances(&mut self, rs: &ferro_state::ResourceOutline, setup: &OrphanSetup) {
        let OrphanSetup {
            schema,
            lc,
            is_data,
            provider,
            ..
        } = setup;
        let is_data = *is_data;
        for inst in &rs.instances {
            let key = &inst.key;
            let addr = rs.addr.instance(key.clone());
            // The instance of a `for_each` provider configuration the object belongs to.
            let keyed;
            let provider = match inst.provider_key.is_none() {
                true => provider,
                false => {
                    keyed = Arc::new(provider.with_key(inst.provider_key.clone()));
                    &keyed
                }
            };
            // A destroy removes a data resource only when a target names it (or its module).
            let covered = if is_data && self.ctx.input.options.destroy {
                self.ctx.targeting.includes_named(&addr)
            } else {
                self.ctx.targeting.includes(&addr)
            };
            if !covered {
                if !is_data && inst.has_current && self.refreshes(&addr) {
                    let _ = self.prior_object(&rs.addr, key, provider, schema);
                }
                continue;
            }
            if !is_data && !self.ctx.input.options.refresh_only {
                let objects = inst
                    .has_current
                    .then_some(None)
                    .into_iter()
                    .chain(inst.deposed.iter().map(|(dk, _)| Some(dk.as_str())));
                let missing: Vec<Diagnostic> = objects
                    .filter_map(|dk| {
                        ferro_runtime::provider_instances::instance_present(
                            self.ctx.input.providers,
                            &addr,
                            provider,
                            dk,
                        )
                        .err()
                    })
                    .collect();
                if !missing.is_empty() {
                    self.out.diags.extend(missing);
                    continue;
                }
            }
            if self.ctx.input.options.refresh_only {
                // Refreshed (an object deleted outside ferro leaves state), never destroyed.
                if !is_data && inst.has_current {
                    let _ = self.prior_object(&rs.addr, key, provider, schema);
                }
                // A data resource no longer in the configuration leaves the refreshed state,
                // which a refresh-only apply saves (Terraform 1.0.3 removes it in every mode).
                if is_data {
                    self.refreshed
                        .set_current(&rs.addr, &rs.provider, key, None);
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
                if let Some(prior) = self.prior_object(&rs.addr, key, provider, schema) {
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
        if !self.ctx.input.options.destroy && !self.ctx.targeting.is_active() {
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
                    self.out.outputs.push(OutputChange {
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
        let Some(st) = self
            .ctx
            .tree
            .statics
            .iter()
            .find(|st| st.path == cfg.module)
        else {
            return false;
        };
        let host = self.ctx.tree.default_registry;
        st.index.providers.keys().any(|(name, alias)| {
            alias == &cfg.alias && {
                let source = st.index.required_providers.get(name).and_then(|item| {
                    let rp = &self.ctx.tree.hir(item.file).required_providers[item.index];
                    rp.source.as_deref()
                });
                ferro_addrs::Provider::for_local_name(source, name, host) == cfg.provider
            }
        })
    }

    /// The `removed` block covering a resource of state, if any: whether it asks for the
    /// objects to be destroyed.
    fn removed_rule(&self, addr: &AbsResource) -> Option<bool> {
        let names: Vec<&str> = addr.module.0.iter().map(|s| s.name.as_str()).collect();
        for st in &self.ctx.tree.statics {
            for item in &st.index.removed {
                let block = &self.ctx.tree.hir(item.file).removed[item.index];
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
        for st in &self.ctx.tree.statics {
            for item in &st.index.removed {
                let block = &self.ctx.tree.hir(item.file).removed[item.index];
                let (prefix, resource) = removed_target(&st.path, &block.from);
                let declared = self.ctx.tree.statics.iter().any(|o| {
                    o.path.iter().map(String::as_str).eq(prefix.iter().copied())
                        && resource.is_none_or(|r| o.index.resources.contains_key(r))
                });
                if declared {
                    let what = if resource.is_some() {
                        "resource"
                    } else {
                        "module"
                    };
                    self.out.diags.push(
                        Diagnostic::error("removed-still-declared", format!("Removed {what} block still exists"))
                            .with_detail(format!("This statement declares a removal of the {what} {}, but this {what} block still exists in the configuration. Please remove the {what} block.", block.from))
                            .with_span(self.ctx.tree.hir(item.file).at(block.from_span)),
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
