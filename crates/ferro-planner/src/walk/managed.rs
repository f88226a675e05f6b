//! Managed resources in the walk: each module instance's copy of a resource is prepared
//! (expanded), then the instances of every module instance are planned together, a chunk of
//! instances at a time: the chunk's configurations are evaluated in instance order, their
//! provider calls run together, and the chunk's results are merged in instance order before
//! the next chunk. Each copy is finished once its last result is merged (deletes of instances
//! no longer wanted, the resource's value set).

use super::*;

/// One instance to plan: key, configuration (None after an error), whether
/// `replace_triggered_by` fired, and the provider configuration (instance) it uses.
type Work = (InstanceKey, Option<Value>, bool, Arc<AbsProviderConfig>);

/// One planned instance: key, value, what planning it gave, its provider configuration.
type Planned = (InstanceKey, Value, Acc, Arc<AbsProviderConfig>);

/// One instance to plan, before its configuration is evaluated: key, and `each.value`.
type Pending = (InstanceKey, Option<Value>);

/// The instances of a copy still to plan, in order: the indices of a `count` are a range.
enum PendingKeys {
    Indices(std::ops::Range<i64>),
    Keys(std::vec::IntoIter<Pending>),
}

impl PendingKeys {
    fn len(&self) -> usize {
        match self {
            PendingKeys::Indices(r) => usize::try_from(r.end - r.start).unwrap_or(0),
            PendingKeys::Keys(k) => k.len(),
        }
    }
}

impl Iterator for PendingKeys {
    type Item = Pending;
    fn next(&mut self) -> Option<Pending> {
        match self {
            PendingKeys::Indices(r) => r.next().map(|i| (InstanceKey::Int(i), None)),
            PendingKeys::Keys(k) => k.next(),
        }
    }
}

/// A managed resource in one module instance, ready for its provider calls.
pub(super) struct Prepared {
    file: ferro_db::SourceFile,
    decl: ResourceDecl,
    abs: AbsResource,
    cfg: Arc<AbsProviderConfig>,
    schema: Schema,
    expansion: Expansion,
    /// Resources it depends on (for state's `dependencies`).
    deps: ferro_state::Dependencies,
    /// Every resource it depends on, through anything: what an object the plan leaves as it
    /// is (a no-op) records, and what a refresh adds to what it recorded, as in Terraform.
    graph_deps: ferro_state::Dependencies,
    wanted: Wanted,
    /// The instances to plan, in order. Their configurations are evaluated when their chunk
    /// is planned, so a resource's configuration values are not all held at once (they were
    /// a third of a large plan's peak memory).
    pending: PendingKeys,
    /// Whether the body evaluates the same for every instance (see
    /// [`crate::config_value::instance_independent`]), and then the value its first
    /// evaluation gave, when it reported nothing.
    independent: bool,
    shared_config: Option<Option<Value>>,
    /// Instances this plan leaves alone (outside -target, or -refresh-only).
    untouched: Vec<InstanceKey>,
    /// How many instances the copy has (planned and left alone).
    instances: usize,
    /// Each planned instance's `count`/`each` context, kept only for a resource with
    /// postconditions (they are checked against the planned object after the provider calls).
    contexts: HashMap<InstanceKey, InstanceCtx>,
    /// Whether an expression of the module refers to the resource ([`ModuleEval::reads`]):
    /// when none does, its instances' values are not gathered and it gets no value.
    read: bool,
}

impl Walk<'_> {
    /// A resource (a data source, or a managed resource in one module instance).
    pub(super) fn resource(&mut self, m: &ModuleEval<'_>, r: &Resource) {
        self.resources(std::slice::from_ref(m), r);
    }

    /// A resource in each of the given module instances: each is prepared (expanded), then
    /// the instances of every module instance are planned together, a chunk at a time
    /// (configurations evaluated in order, provider calls run together), and each copy is
    /// finished in order.
    pub(super) fn resources(&mut self, scopes: &[ModuleEval<'_>], r: &Resource) {
        let mut prepared: Vec<(&ModuleEval<'_>, Prepared)> = Vec::new();
        for m in scopes {
            if let Some(p) = self.prepare_resource(m, r) {
                prepared.push((m, p));
            }
        }
        // The instances of every module instance's copy, in order, taken a chunk at a time:
        // each chunk's configurations are evaluated, its provider calls made, and its results
        // merged (into the plan's changes, the refreshed state and the instances' values)
        // before the next chunk is taken, so configurations and results waiting to be merged
        // are bounded by a chunk rather than by the resource's instances.
        let total: usize = prepared.iter().map(|(_, p)| p.pending.len()).sum();
        // Each copy's instance values, given their room when its first result is merged.
        let mut values: Vec<InstanceValues> = Vec::new();
        values.resize_with(prepared.len(), InstanceValues::default);
        // Room for the resource's changes at once (about one per planned instance): growing
        // one push at a time, the plan's list of changes doubled and held both copies while
        // it moved. (Not when no-ops are left out: most instances of a large plan are.)
        if !self.ctx.discard_noops {
            self.out.changes.reserve(total);
        }
        let threads = self.parallelism();
        let mut prepared: Vec<Option<(&ModuleEval<'_>, Prepared)>> =
            prepared.into_iter().map(Some).collect();
        // Copies are finished in order, each once its last result is merged, so changes and
        // diagnostics come out in the order a copy-by-copy walk gives them.
        let mut finished = 0;
        // The copy the next chunk starts taking instances from.
        let mut copy = 0;
        loop {
            let mut chunk: Vec<(usize, Work)> = Vec::with_capacity(PLAN_CHUNK.min(total));
            while chunk.len() < PLAN_CHUNK && copy < prepared.len() {
                let Some((m, p)) = prepared[copy].as_mut() else {
                    copy += 1;
                    continue;
                };
                match p.pending.next() {
                    Some((key, each_value)) => {
                        chunk.push((copy, self.instance_work(m, p, key, each_value)))
                    }
                    None => copy += 1,
                }
            }
            if chunk.is_empty() {
                break;
            }
            let results = {
                let planner = self.planner();
                let prepared = &prepared;
                parallel_map(chunk, threads, |(i, (key, config, triggered, cfg))| {
                    let Some((m, p)) = &prepared[i] else {
                        unreachable!("a copy is finished only after its last result")
                    };
                    let mut acc = Acc::default();
                    let v = match config {
                        None => Value::unknown(p.schema.implied_type()),
                        Some(config) => {
                            let addr = p.abs.instance(key.clone());
                            let prior = planner.prior_object_for(
                                &p.abs,
                                &key,
                                &cfg,
                                &p.schema,
                                Some(&config),
                                &mut acc,
                            );
                            let resource = ResourceRef {
                                hir: m.hir(p.file),
                                decl: &p.decl,
                                cfg: &cfg,
                                schema: &p.schema,
                            };
                            let instance = InstanceInput {
                                addr,
                                config,
                                prior,
                                dependencies: p.deps.clone(),
                                triggered,
                            };
                            let v = planner.plan_instance(&resource, instance, &mut acc);
                            mark_schema_sensitive(&p.schema.block, &v)
                        }
                    };
                    (i, (key, v, acc.compact(), cfg))
                })
            };
            for (i, planned) in results {
                while finished < i {
                    self.finish_copy(r, &mut prepared, &mut values, finished);
                    finished += 1;
                }
                if let Some((m, p)) = &prepared[i] {
                    if p.read && values[i].capacity() == 0 {
                        values[i].reserve_exact(p.instances);
                    }
                    self.merge_result(m, p, &mut values[i], planned);
                }
            }
        }
        while finished < prepared.len() {
            self.finish_copy(r, &mut prepared, &mut values, finished);
            finished += 1;
        }
    }

    /// Finish copy `i` of a resource (see [`Walk::finish_resource`]), taking it out of the
    /// lists.
    fn finish_copy(
        &mut self,
        r: &Resource,
        prepared: &mut [Option<(&ModuleEval<'_>, Prepared)>],
        values: &mut [InstanceValues],
        i: usize,
    ) {
        if let Some((m, p)) = prepared[i].take() {
            self.finish_resource(m, r, p, std::mem::take(&mut values[i]));
        }
    }

    /// Merge one planned instance of a copy: its changes, diagnostics and refreshed object,
    /// its postconditions, and its value (`values`, the copy's instance values so far).
    fn merge_result(
        &mut self,
        m: &ModuleEval<'_>,
        p: &Prepared,
        values: &mut InstanceValues,
        (key, v, acc, cfg): Planned,
    ) {
        let ok = !acc.diags.iter().any(Diagnostic::is_error);
        let noop = acc
            .changes
            .iter()
            .any(|c| c.action == Action::NoOp && c.deposed().is_none());
        self.merge_instance(&p.abs, &cfg, &key, acc);
        // A no-op leaves apply nothing to write, so the object takes the dependencies the
        // configuration gives it now in the prior state, which apply saves (as Terraform
        // 1.0.3 finalizes them in its refreshed state).
        if noop {
            self.refreshed
                .set_current_dependencies(&p.abs, &key, &p.graph_deps);
            // And the provider configuration it resolves to now: moving a resource from an
            // aliased configuration to the default one is recorded by the next apply even
            // when nothing else about it changes, as Terraform records it.
            self.refreshed.set_instance_provider(&p.abs, &key, &cfg);
        }
        if ok && !p.decl.lifecycle.postconditions.is_empty() {
            let inst = p.contexts.get(&key).cloned().unwrap_or_default();
            self.out.diags.extend(check_conditions(
                m,
                p.file,
                &p.decl.lifecycle.postconditions,
                &with_self(&inst, &v),
                CheckKind::ResourcePostcondition,
                Some(&p.abs.instance(key.clone()).to_string()),
            ));
        }
        if p.read {
            // Only what the module's expressions read of it is kept (crate::reads).
            values.push(key, m.projected(&p.abs.resource, v));
        }
    }

    /// A resource in one module instance up to its provider calls: None when there is nothing
    /// to plan (a data source, which is read here, or an error already reported).
    fn prepare_resource(&mut self, m: &ModuleEval<'_>, r: &Resource) -> Option<Prepared> {
        let (file, decl) = Self::decl(m, r);
        let decl = decl.into_owned();
        let abs = AbsResource {
            module: m.path().clone(),
            resource: r.clone(),
        };
        let cr = abs.config();
        if let Some(d) = self_reference(m.hir(file), &decl) {
            self.out.diags.push(d);
            m.set_resource(r.clone(), Value::dynamic_unknown());
            return None;
        }
        let cfg = self.ctx.input.providers.by_resource.get(&cr).cloned()?;
        let schema = self.ctx.input.providers.resource_schema(&cfg, r).cloned()?;
        if r.mode == ResourceMode::Ephemeral {
            self.ephemeral_resource(m, file, &decl, &abs, &cfg, &schema);
            return None;
        }
        if self.ctx.input.options.destroy {
            // A destroy plans no instance here (`orphans` plans the delete of every object in
            // state). What is evaluated on the way (locals, for their errors) sees the objects
            // in state, as in Terraform's destroy plan; a resource with none is unknown.
            if m.reads(r) {
                if let Some(rs) = self.refreshed.resources.get(&abs) {
                    let v = crate::state_scope::resource_value(rs, Some(self.ctx.input.providers));
                    m.set_resource(r.clone(), v);
                }
            }
            return None;
        }
        if self.defer_resource(m, file, &decl, &abs, &cfg, &schema) {
            m.set_resource(r.clone(), Value::dynamic_unknown());
            return None;
        }
        if r.mode == ResourceMode::Data {
            self.data_resource(m, file, &decl, &abs, &cfg, &schema);
            return None;
        }
        let (expansion, keys) =
            match self.expand_keys(m, file, decl.count, decl.for_each, decl.enabled) {
                Some(x) => x,
                None => {
                    m.set_resource(r.clone(), Value::dynamic_unknown());
                    return None;
                }
            };
        self.rel.expansions.insert(abs.clone(), expansion);
        self.fix_count_boundary(&abs, decl.count.is_some());
        // Sorted as text (`module.a.x` before `null_resource.y`): Terraform 1.0.3 writes them
        // in no fixed order (they come from a set), so a state file it reads back is the same
        // either way, and sorted, ferro's does not change from run to run.
        let names = |set: &crate::resource_sets::ResourceSets| -> Vec<String> {
            // Ephemeral resources order apply but are never recorded (nothing of them is in
            // state).
            let mut names: Vec<String> = set
                .get(&cr)
                .map(|s| {
                    s.filter(|d| d.resource.mode != ResourceMode::Ephemeral)
                        .map(|d| d.to_string())
                        .collect()
                })
                .unwrap_or_default();
            names.sort_unstable();
            names
        };
        let deps: ferro_state::Dependencies = names(&self.rel.recorded).into();
        let graph_deps = names(&self.rel.transitive);
        // Shared with `deps` when they are the same (nothing goes through another resource).
        let graph_deps: ferro_state::Dependencies = if graph_deps[..] == deps[..] {
            deps.clone()
        } else {
            graph_deps.into()
        };
        let every_instance =
            !self.ctx.input.options.refresh_only && !self.ctx.targeting.is_active();
        let (wanted, pending, untouched) = match keys {
            // Every index of a count is planned: the range says as much, and its keys are
            // never listed (a list of them was a fifth of a large no-op plan's peak).
            Keys::Indices(n) if n > 0 && every_instance => (
                Wanted::Count(usize::try_from(n).unwrap_or(usize::MAX)),
                PendingKeys::Indices(0..n),
                Vec::new(),
            ),
            keys => {
                let keys = keys.into_vec();
                let wanted = Wanted::new(&keys);
                let mut pending: Vec<Pending> = Vec::new();
                let mut untouched: Vec<InstanceKey> = Vec::new();
                for (key, each_value) in keys {
                    if self.ctx.input.options.refresh_only
                        || !self.ctx.targeting.includes(&abs.instance(key.clone()))
                    {
                        untouched.push(key);
                    } else {
                        pending.push((key, each_value));
                    }
                }
                let pending = match wanted {
                    // Every index of a count, in order: the range says as much.
                    Wanted::Count(n) if untouched.is_empty() => {
                        PendingKeys::Indices(0..i64::try_from(n).unwrap_or(i64::MAX))
                    }
                    _ => PendingKeys::Keys(pending.into_iter()),
                };
                (wanted, pending, untouched)
            }
        };
        // A body that no instance evaluates differently (no `count`, `each` or `self`, nothing
        // impure) is evaluated once, and the instances share its value: one copy of what it
        // holds, however many instances there are. When that evaluation has anything to say
        // (an error, a warning), every instance evaluates its own, as before, so each
        // reports it with its address.
        let independent = crate::config_value::instance_independent(m.hir(file), &decl.body);
        Some(Prepared {
            file,
            decl,
            abs,
            cfg,
            schema,
            expansion,
            deps,
            graph_deps,
            wanted,
            instances: pending.len() + untouched.len(),
            pending,
            independent,
            shared_config: None,
            untouched,
            contexts: HashMap::new(),
            read: m.reads(r),
        })
    }

    /// Evaluate the configuration of one instance of a prepared copy (its preconditions and
    /// `replace_triggered_by` too), reporting what that says with the instance's address.
    fn instance_work(
        &mut self,
        m: &ModuleEval<'_>,
        p: &mut Prepared,
        key: InstanceKey,
        each_value: Option<Value>,
    ) -> Work {
        let inst = InstanceCtx::for_key(&key, each_value);
        let addr = p.abs.instance(key.clone());
        // The instance of a `for_each` provider configuration it names (OpenTofu 1.9).
        let cfg = match ferro_runtime::provider_instances::instance_provider(
            m,
            p.file,
            &p.decl,
            &p.cfg,
            &inst,
            self.ctx.input.providers,
            &addr.to_string(),
        ) {
            Ok(cfg) => cfg,
            Err(ds) => {
                self.out.diags.extend(ds);
                return (key, None, false, p.cfg.clone());
            }
        };
        let (config, mut ds) = match &p.shared_config {
            Some(Some(v)) => (v.clone(), Vec::new()),
            _ => {
                let (v, mut ds) = eval_body(m, p.file, &p.decl.body, &p.schema.block, &inst);
                ds.extend(ferro_runtime::diagnostics::ephemeral_in_resource(
                    m.hir(p.file),
                    &v,
                    &addr.to_string(),
                    &p.decl,
                    &p.schema.block,
                ));
                if p.independent && p.shared_config.is_none() {
                    p.shared_config = Some(ds.is_empty().then(|| v.clone()));
                }
                (v, ds)
            }
        };
        ds.extend(check_conditions(
            m,
            p.file,
            &p.decl.lifecycle.preconditions,
            &inst,
            CheckKind::ResourcePrecondition,
            Some(&addr.to_string()),
        ));
        let failed = ds.iter().any(Diagnostic::is_error);
        self.out.diags.extend(ds.into_iter().map(|d| {
            if d.address.is_none() {
                d.with_address(addr.to_string())
            } else {
                d
            }
        }));
        if !p.decl.lifecycle.postconditions.is_empty() {
            p.contexts.insert(key.clone(), inst.clone());
        }
        let triggered = self.triggered(m, p.file, &p.decl, &inst);
        (
            key,
            if failed { None } else { Some(config) },
            triggered,
            cfg,
        )
    }

    /// A resource in one module instance after its instances' results are merged (their
    /// values are `instance_values`): value the instances left alone, plan the deletes of
    /// instances no longer wanted, and set the resource's value for what refers to it.
    fn finish_resource(
        &mut self,
        m: &ModuleEval<'_>,
        r: &Resource,
        p: Prepared,
        mut instance_values: InstanceValues,
    ) {
        let Prepared {
            decl,
            abs,
            schema,
            expansion,
            wanted,
            untouched,
            cfg,
            read,
            graph_deps,
            ..
        } = p;
        // Instances this plan leaves alone (outside -target, or -refresh-only): their value is
        // the object in state (refreshed only by -refresh-only, and then only when targeted).
        // (Refreshing them goes into the refreshed state whether or not the value is read.)
        for key in untouched {
            let refresh = self.ctx.input.options.refresh_only
                && self.ctx.targeting.includes(&abs.instance(key.clone()));
            let v = if refresh {
                let icfg = match self.refreshed.resources.get(&abs) {
                    Some(rs) => Arc::new(rs.instance_provider(&key)),
                    None => cfg.clone(),
                };
                let v = self
                    .prior_object(&abs, &key, &icfg, &schema)
                    .map(|p| p.value);
                // A refresh records the configuration's dependencies beside those stored, as
                // Terraform 1.0.3's does (what `apply -refresh-only` then saves).
                self.refreshed
                    .merge_current_dependencies(&abs, &key, &graph_deps);
                v
            } else if read {
                self.state_value(&abs, &key, &schema)
            } else {
                continue;
            };
            if !read {
                continue;
            }
            let v = v.unwrap_or_else(|| Value::unknown(schema.implied_type()));
            instance_values.push(
                key,
                m.projected(r, mark_schema_sensitive(&schema.block, &v)),
            );
        }
        instance_values.sort();
        // Existing instances the configuration no longer wants are destroyed, and so are objects
        // left deposed by an earlier failed create_before_destroy replacement. (In destroy mode
        // `orphans` plans every object in state instead.)
        // Only the instances with something to destroy are outlined: the walk below replaces
        // objects in the state they come from.
        if let (false, false, Some(rs)) = (
            self.ctx.input.options.destroy,
            self.ctx.input.options.refresh_only,
            self.refreshed.resources.get(&abs).map(|rs| {
                rs.outline(|key, inst| {
                    ((!wanted.contains(key) && inst.current.is_some()) || !inst.deposed.is_empty())
                        && self.ctx.targeting.includes(&abs.instance(key.clone()))
                })
            }),
        ) {
            // Each object with the provider configuration instance it belongs to; one whose
            // instance is gone (its key left the configuration's for_each) cannot be
            // destroyed.
            let providers = self.ctx.input.providers;
            let cfgs: Vec<Arc<AbsProviderConfig>> = rs
                .instances
                .iter()
                .map(|inst| match inst.provider_key.is_none() {
                    true => Arc::new(rs.provider.clone()),
                    false => Arc::new(rs.provider.with_key(inst.provider_key.clone())),
                })
                .collect();
            let mut present = Vec::with_capacity(cfgs.len());
            for (inst, cfg) in rs.instances.iter().zip(&cfgs) {
                let addr = abs.instance(inst.key.clone());
                let mut ok = true;
                if !wanted.contains(&inst.key) && inst.has_current {
                    if let Err(d) = ferro_runtime::provider_instances::instance_present(
                        providers, &addr, cfg, None,
                    ) {
                        self.out.diags.push(d);
                        ok = false;
                    }
                }
                for dk in inst.deposed.iter().map(|(dk, _)| dk) {
                    if let Err(d) = ferro_runtime::provider_instances::instance_present(
                        providers,
                        &addr,
                        cfg,
                        Some(dk),
                    ) {
                        self.out.diags.push(d);
                        ok = false;
                    }
                }
                present.push(ok);
            }
            let gone = rs
                .instances
                .iter()
                .zip(&cfgs)
                .zip(&present)
                .filter(|((inst, _), ok)| **ok && !wanted.contains(&inst.key) && inst.has_current)
                .map(|((inst, cfg), _)| (&abs, &inst.key, &**cfg, &schema))
                .collect();
            self.prefetch_priors(gone);
            for ((inst, provider), ok) in rs.instances.iter().zip(&cfgs).zip(&present) {
                if !ok {
                    continue;
                }
                let key = &inst.key;
                if !wanted.contains(key) && inst.has_current {
                    if let Some(prior) = self.prior_object(&abs, key, provider, &schema) {
                        self.push_delete(
                            abs.instance(key.clone()),
                            provider,
                            &schema,
                            prior.value,
                            None,
                            &decl.lifecycle,
                        );
                    }
                }
                for (dk, obj) in &inst.deposed {
                    if let Ok(v) = obj.attributes.to_value(&schema.implied_type()) {
                        self.push_delete(
                            abs.instance(key.clone()),
                            provider,
                            &schema,
                            v,
                            Some(dk.clone()),
                            &ferro_hir::Lifecycle::default(),
                        );
                    }
                }
            }
        }
        if read {
            m.set_resource(
                r.clone(),
                instance_values.into_resource_value(expansion, &schema),
            );
        }
    }
}
