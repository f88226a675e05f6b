//! Data resources: read at plan time when their configuration is known and no managed resource
//! they wait for has changes pending, else a read planned for apply.

use super::*;

impl Walk<'_> {
    /// A data resource: read now when its configuration is known and no managed resource it
    /// waits for ([`Walk::dependency_pending`]) has changes pending; otherwise plan a read
    /// during apply.
    pub(super) fn data_resource(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        decl: &ResourceDecl,
        abs: &AbsResource,
        cfg: &Arc<AbsProviderConfig>,
        schema: &Schema,
    ) {
        let r = &abs.resource;
        let Some((expansion, keys)) = self.expand(m, file, decl.count, decl.for_each, decl.enabled)
        else {
            m.set_resource(r.clone(), Value::dynamic_unknown());
            return;
        };
        self.rel.expansions.insert(abs.clone(), expansion);
        let resource_cfg = cfg;
        if !self.ctx.input.providers.has_instances(cfg)
            && self.ctx.input.providers.get(cfg).is_none()
        {
            return;
        }
        let pending = self.dependency_pending(m, file, decl);
        // Terraform 1.0 records no dependencies for data resources in state.
        let deps = ferro_state::Dependencies::default();
        let wanted = Wanted::new(&keys);
        let mut instance_values = InstanceValues::default();
        for (key, each_value) in keys {
            let inst = InstanceCtx::for_key(&key, each_value);
            let addr = abs.instance(key.clone());
            if !self.ctx.targeting.includes(&addr) {
                let v = self
                    .prior_data(abs, &key, schema)
                    .unwrap_or_else(|| Value::unknown(schema.implied_type()));
                instance_values.push(key, mark_schema_sensitive(&schema.block, &v));
                continue;
            }
            let addr_s = addr.to_string();
            // The instance of a `for_each` provider configuration it names (OpenTofu 1.9).
            let cfg = match ferro_runtime::provider_instances::instance_provider(
                m,
                file,
                decl,
                resource_cfg,
                &inst,
                self.ctx.input.providers,
                &addr_s,
            ) {
                Ok(cfg) => cfg,
                Err(ds) => {
                    self.out.diags.extend(ds);
                    instance_values.push(key, Value::unknown(schema.implied_type()));
                    continue;
                }
            };
            let Some(provider) = self
                .ctx
                .input
                .providers
                .for_instance(&cfg, &abs.module, &abs.resource, &key)
                .cloned()
            else {
                instance_values.push(key, Value::unknown(schema.implied_type()));
                continue;
            };
            let (config, mut ds) = eval_body(m, file, &decl.body, &schema.block, &inst);
            ds.extend(ferro_runtime::diagnostics::ephemeral_in_resource(
                m.hir(file),
                &config,
                &addr_s,
                decl,
                &schema.block,
            ));
            ds.extend(check_conditions(
                m,
                file,
                &decl.lifecycle.preconditions,
                &inst,
                CheckKind::ResourcePrecondition,
                Some(&addr_s),
            ));
            let failed = ds.iter().any(Diagnostic::is_error);
            self.out.diags.extend(ds.into_iter().map(|d| {
                if d.address.is_none() {
                    d.with_address(addr_s.clone())
                } else {
                    d
                }
            }));
            if failed {
                instance_values.push(key, Value::unknown(schema.implied_type()));
                continue;
            }
            let (plain_cfg, _) = config.deep_unmark();
            for d in provider.validate_data_source_config(&r.ty, &plain_cfg) {
                self.out
                    .diags
                    .push(resource_diag(m.hir(file), &d, &addr_s, decl));
            }
            if !plain_cfg.is_wholly_known() || pending {
                let planned = planned_data_object(&schema.block, &config);
                let reason = if pending {
                    ActionReason::ReadBecauseDependencyPending
                } else {
                    ActionReason::ReadBecauseConfigUnknown
                };
                let before = self
                    .prior_data(abs, &key, schema)
                    .unwrap_or_else(|| Value::null(schema.implied_type()));
                self.push_change(
                    ResourceInstanceChange {
                        dependencies: deps.clone(),
                        ..ResourceInstanceChange::new(
                            addr,
                            cfg.clone(),
                            Action::Read,
                            before,
                            planned.clone(),
                            schema.version,
                        )
                    }
                    .with_reason(Some(reason)),
                );
                instance_values.push(key, mark_schema_sensitive(&schema.block, &planned));
                continue;
            }
            let provider_name = cfg.to_string();
            let at = crate::lifecycle::InstanceRef {
                hir: m.hir(file),
                decl,
                schema,
                addr: &addr_s,
                provider_name: &provider_name,
            };
            let (read, ds) =
                ferro_runtime::data::read_data_or_defer(provider.as_ref(), &at, &config);
            self.out.diags.extend(ds);
            let value = match read {
                ferro_runtime::data::DataRead::Read(v) => v,
                ferro_runtime::data::DataRead::Failed => {
                    instance_values.push(key, Value::unknown(schema.implied_type()));
                    continue;
                }
                ferro_runtime::data::DataRead::Deferred(reason) => {
                    // The provider cannot read it yet: the read waits for a later plan, and
                    // so does what depends on it.
                    let planned = planned_data_object(&schema.block, &config);
                    let before = self
                        .prior_data(abs, &key, schema)
                        .unwrap_or_else(|| Value::null(schema.implied_type()));
                    let change = ResourceInstanceChange::new(
                        addr,
                        cfg.clone(),
                        Action::Read,
                        before,
                        planned.clone(),
                        schema.version,
                    );
                    self.defer_provider_answer(reason, vec![Box::new(change)]);
                    instance_values.push(key, mark_schema_sensitive(&schema.block, &planned));
                    continue;
                }
            };
            match crate::statecodec::encode_object(
                schema,
                &value,
                &[],
                deps.clone(),
                false,
                false,
                crate::statecodec::Hold::Value,
            ) {
                Ok(obj) => self.refreshed.set_current(abs, &cfg, &key, Some(obj)),
                Err(e) => self.out.diags.push(
                    Diagnostic::error("provider-invalid-data", "Provider produced invalid object")
                        .with_detail(format!(
                            "The object read for {addr_s} cannot be stored: {e}."
                        ))
                        .with_address(addr_s.clone()),
                ),
            }
            self.out.diags.extend(check_conditions(
                m,
                file,
                &decl.lifecycle.postconditions,
                &with_self(&inst, &value),
                CheckKind::ResourcePostcondition,
                Some(&addr_s),
            ));
            instance_values.push(key, mark_schema_sensitive(&schema.block, &value));
        }
        // Instances the configuration no longer has are dropped from state (no provider call).
        if let Some(rs) = self.refreshed.resources.get(abs).cloned() {
            for (key, inst) in &rs.instances {
                let provider = Arc::new(rs.instance_provider(key));
                if !wanted.contains(key) {
                    if let Some(obj) = &inst.current {
                        if let Ok(v) = obj.attributes.to_value(&schema.implied_type()) {
                            self.push_delete(
                                abs.instance(key.clone()),
                                &provider,
                                schema,
                                v,
                                None,
                                &ferro_hir::Lifecycle::default(),
                            );
                        }
                    }
                }
            }
        }
        m.set_resource(
            r.clone(),
            instance_values.into_resource_value(expansion, schema),
        );
    }

    /// The object a data resource had in state, if any (data sources have no upgrade step).
    pub(super) fn prior_data(
        &self,
        abs: &AbsResource,
        key: &InstanceKey,
        schema: &Schema,
    ) -> Option<Value> {
        let obj = self.refreshed.current_object(abs, key)?;
        obj.attributes.to_value(&schema.implied_type()).ok()
    }
}

/// The value a data resource is planned to have when its read waits for apply: configured values
/// as given, every computed attribute that was not set unknown (nested blocks likewise).
pub(super) fn planned_data_object(schema: &ferro_value::schema::Block, config: &Value) -> Value {
    if config.is_null() || !config.is_known() {
        return config.clone();
    }
    let Some(attrs) = config.as_entries() else {
        return config.clone();
    };
    let mut out = attrs.clone();
    for (name, a) in &schema.attributes {
        if a.computed && out.get(name).is_none_or(Value::is_null) {
            out.insert(
                name.clone(),
                Value::unknown(a.ty.clone()).with_marks(if a.sensitive {
                    ferro_value::Marks::SENSITIVE
                } else {
                    ferro_value::Marks::NONE
                }),
            );
        }
    }
    for (name, nb) in &schema.block_types {
        if let Some(v) = out.get(name).cloned() {
            let mapped = match (&v.kind, nb.nesting) {
                (ValueKind::List(t, es), _) => Value::list(
                    t.clone(),
                    es.iter()
                        .map(|e| planned_data_object(&nb.block, e))
                        .collect(),
                ),
                (ValueKind::Tuple(es), _) => Value::tuple(
                    es.iter()
                        .map(|e| planned_data_object(&nb.block, e))
                        .collect(),
                ),
                (ValueKind::Set(t, es), _) => Value::set(
                    t.clone(),
                    es.iter()
                        .map(|e| planned_data_object(&nb.block, e))
                        .collect(),
                ),
                (ValueKind::Map(t, m), _) => Value::map(
                    t.clone(),
                    m.iter()
                        .map(|(k, e)| (k.clone(), planned_data_object(&nb.block, e)))
                        .collect(),
                ),
                (ValueKind::Object(_), ferro_value::schema::NestingMode::Map) => Value::object(
                    v.as_entries()
                        .into_iter()
                        .flatten()
                        .map(|(k, e)| (k.clone(), planned_data_object(&nb.block, e)))
                        .collect(),
                ),
                (ValueKind::Object(_), _) => planned_data_object(&nb.block, &v),
                _ => v.clone(),
            };
            out.insert(name.clone(), mapped);
        }
    }
    Value::object(out).with_marks(config.marks)
}

/// Where a data resource's wait reaches: managed resources, and whole module calls (by their
/// configuration path: everything declared in them).
#[derive(Default)]
struct Awaited {
    resources: BTreeSet<ConfigResource>,
    modules: Vec<Vec<String>>,
}

impl Awaited {
    /// A `depends_on` entry or a reference, written in the module at configuration path
    /// `module`.
    fn add(&mut self, module: &[String], r: &Reference) {
        match r {
            Reference::Resource(res) if res.mode == ResourceMode::Managed => {
                self.resources.insert(ConfigResource {
                    module: module.to_vec(),
                    resource: res.clone(),
                });
            }
            Reference::Module(name) => {
                let mut path = module.to_vec();
                path.push(name.clone());
                self.modules.push(path);
            }
            _ => {}
        }
    }
}

impl Walk<'_> {
    /// Whether a managed resource the data resource waits for has a change planned (not a
    /// no-op), in any instance: then Terraform 1.0 reads the data during apply, even when its
    /// configuration is known. It waits for, as Terraform 1.0.3 does:
    /// - the managed resources its own configuration refers to (not through a local or a
    ///   module output) and those its `depends_on` names;
    /// - everything in the module calls its `depends_on` names;
    /// - what the `depends_on` of every module call it is inside of names;
    /// - and, for each of those resources, every resource it depends on in turn (state's
    ///   dependencies: through locals, variables and modules too).
    pub(super) fn dependency_pending(
        &self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        decl: &ResourceDecl,
    ) -> bool {
        let here = &m.statics().path;
        let hir = m.hir(file);
        let mut awaited = Awaited::default();
        for e in decl.config_exprs() {
            ferro_hir::walk_references(&hir.exprs, e, &mut |_, r| {
                if matches!(r, Reference::Resource(_)) {
                    awaited.add(here, r);
                }
            });
        }
        for (r, _) in &decl.depends_on {
            awaited.add(here, r);
        }
        // The calls this module instance sits in, each with its own `depends_on`.
        let path = m.path();
        for depth in (0..path.0.len()).rev() {
            let parent = ferro_addrs::ModuleInstance(path.0[..depth].into());
            let Some(pm) = self.ctx.tree.scope(&parent) else {
                continue;
            };
            let name = &path.0[depth].name;
            let Some(item) = pm.index.module_calls.get(name) else {
                continue;
            };
            let call = &pm.hir(item.file).module_calls[item.index];
            for (r, _) in &call.depends_on {
                awaited.add(&pm.statics().path, r);
            }
        }
        if awaited.resources.is_empty() && awaited.modules.is_empty() {
            return false;
        }
        let mut all = awaited.resources.clone();
        for (cr, deps) in self.rel.transitive.iter() {
            let inside = awaited.modules.iter().any(|p| cr.module.starts_with(p));
            if inside && cr.resource.mode == ResourceMode::Managed {
                all.insert(cr.clone());
            }
            if inside || awaited.resources.contains(cr) {
                all.extend(
                    deps.filter(|d| d.resource.mode == ResourceMode::Managed)
                        .cloned(),
                );
            }
        }
        all.iter().any(|cr| self.rel.pending.contains(cr))
    }
}
