//! `import` blocks: before the walk, every target not yet in state is imported (the provider's
//! `ImportResourceState`, then `ReadResource`) into the refreshed state, so the walk plans it
//! like any existing object; after the walk, every imported instance must be one the
//! configuration declares (else planning fails rather than destroy what was just imported).

use super::*;
use ferro_hir::{ImportBy, ImportKey};

impl Walk<'_> {
    /// The root module's import blocks are imported now; a child module's are checked and
    /// kept for their target's turn in the walk ([`Walk::module_imports`]), when the module's
    /// instances are known. A block in a module overrides one in a module below it that
    /// imports into the same resource, as in Terraform.
    pub(super) fn import_blocks(&mut self) {
        let tree = self.ctx.tree;
        if self.ctx.input.options.destroy || self.ctx.input.options.refresh_only {
            return;
        }
        let mut nodes: Vec<usize> = (0..tree.statics.len()).collect();
        nodes.sort_by_key(|&n| tree.statics[n].path.len());
        let mut claimed: HashMap<ConfigResource, usize> = HashMap::new();
        for node in nodes {
            let st = &tree.statics[node];
            for item in &st.index.imports {
                let hir = tree.hir(item.file);
                let block = &hir.imports[item.index];
                let rel = block.to.module.static_path();
                let target = ConfigResource {
                    module: st.path.iter().chain(&rel).cloned().collect(),
                    resource: block.to.resource.clone(),
                };
                match claimed.get(&target) {
                    Some(&owner) if owner != node => continue,
                    Some(_) => {}
                    None => {
                        claimed.insert(target.clone(), node);
                    }
                }
                if node == 0 {
                    self.import_block(&tree.root(), item.file, block);
                    continue;
                }
                let to_span = hir.at(block.to_span);
                let mut holder = Some(node);
                for name in &rel {
                    holder = holder.and_then(|n| tree.statics[n].children.get(name).copied());
                }
                match holder {
                    // As `ferro_db::import_target_problems` reports them to validate.
                    None => {
                        let to = ConfigResource {
                            module: rel,
                            resource: target.resource,
                        };
                        self.out.diags.push(missing_target(&to, to_span))
                    }
                    Some(n)
                        if !tree.statics[n]
                            .index
                            .resources
                            .contains_key(&target.resource) =>
                    {
                        self.out.diags.push(not_generated(
                            to_span,
                            format!("Resource {target} not found. Only resources within the root module are eligible for config generation."),
                        ));
                    }
                    Some(_) => self
                        .ahead
                        .module_imports
                        .entry(target)
                        .or_default()
                        .push((node, *item)),
                }
            }
        }
    }

    /// At the turn of the resource `r` of static module `node`: the import blocks of child
    /// modules that import into it, each in every instance of the module that holds it (its
    /// `for_each`, `id` and `to` evaluated there; `to` is relative to that module).
    pub(super) fn module_imports(&mut self, node: usize, r: &Resource) {
        let tree = self.ctx.tree;
        let target = ConfigResource {
            module: tree.statics[node].path.clone(),
            resource: r.clone(),
        };
        let Some(blocks) = self.ahead.module_imports.remove(&target) else {
            return;
        };
        for (holder, item) in blocks {
            let block = &tree.hir(item.file).imports[item.index];
            for path in tree.instances_of(holder) {
                if let Some(m) = tree.scope(&path) {
                    self.import_block(&m, item.file, block);
                }
            }
        }
    }

    /// Import the targets of one block, evaluated in the module instance `m` that holds it.
    fn import_block(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        block: &ferro_hir::Import,
    ) {
        let hir = m.hir(file);
        let (to_span, block_span) = (hir.at(block.to_span), hir.at(block.span));
        let to = AbsResource {
            module: ModuleInstance(
                m.path()
                    .0
                    .iter()
                    .chain(block.to.module.0.iter())
                    .cloned()
                    .collect(),
            ),
            resource: block.to.resource.clone(),
        };
        let instances = match block.for_each {
            Some(f) => match self.expand(m, file, None, Some(f), None) {
                Some((_, keys)) => keys,
                None => return,
            },
            None => vec![(InstanceKey::None, None)],
        };
        for (k, each) in instances {
            let ctx = match each {
                Some(v) => InstanceCtx::for_key(&k, Some(v)),
                None => InstanceCtx::default(),
            };
            let key = match &block.key {
                ImportKey::None => InstanceKey::None,
                ImportKey::Static(k) => k.clone(),
                ImportKey::Expr(e) => match self.import_key(m, file, *e, &ctx) {
                    Some(k) => k,
                    None => continue,
                },
            };
            let addr = to.instance(key);
            let (id, identity) = match block.by {
                ImportBy::Id(e) => match self.import_id(m, file, e, &ctx) {
                    Some(id) => (id, None),
                    None => continue,
                },
                ImportBy::Identity(e) => match self.import_identity(m, file, e, &ctx, &addr) {
                    Some(v) => (String::new(), Some(v)),
                    None => continue,
                },
            };
            if !self.out.imported.insert(addr.clone()) {
                self.out.diags.push(
                    Diagnostic::error("import-duplicate", "Duplicate import configuration")
                        .with_detail(format!(
                            "An import block for the resource {addr} was already declared."
                        ))
                        .with_span(to_span),
                );
                continue;
            }
            if self
                .refreshed
                .current_object(&addr.containing_resource(), &addr.resource.key)
                .is_some()
            {
                // Already managed: nothing to import.
                continue;
            }
            if !self.ctx.targeting.includes(&addr) {
                continue;
            }
            let generate = if self.declared(&addr) {
                None
            } else if !addr.module.is_root() {
                self.out.diags.push(not_generated(
                    to_span,
                    format!("Resource {} not found. Only resources within the root module are eligible for config generation.", addr.containing_resource()),
                ));
                // Once per block, as Terraform's validation says it.
                return;
            } else if block.for_each.is_some() || addr.resource.key != InstanceKey::None {
                self.out.diags.push(not_generated(to_span, "The given import block is not compatible with config generation. The -generate-config-out option cannot be used with import blocks which use for_each, or resources which use for_each or count.".to_string()));
                return;
            } else if let Some(sink) = &self.ctx.input.options.generate_config {
                Some(sink.clone())
            } else {
                self.out.diags.push(not_generated(to_span, format!("The configuration for the given import target {addr} does not exist. If you wish to automatically generate config for this resource, use the -generate-config-out option within ferro plan. Otherwise, make sure the target resource exists within your configuration. For example:\n\n  ferro plan -generate-config-out=generated.tf")));
                continue;
            };
            // A provider that refers to resources is configured early for an import: the
            // import runs before the walk reaches it.
            let cfg = self
                .ctx
                .input
                .providers
                .by_resource
                .get(&addr.containing_resource().config())
                .cloned();
            if let Some(cfg) = cfg {
                if !self.configure_deferred(&cfg) {
                    continue;
                }
            }
            let (ds, deferred) = crate::import::import_or_defer(
                self.ctx.input.providers,
                &mut self.refreshed,
                &addr,
                &id,
                identity.as_ref(),
                &mut |_| {},
            );
            let failed = ds.iter().any(Diagnostic::is_error);
            self.out.diags.extend(ds.into_iter().map(|d| match d.span {
                None => d.with_span(block_span),
                Some(_) => d,
            }));
            if failed {
                continue;
            }
            if let Some(reason) = deferred {
                // The provider cannot import it yet: the instance's change waits for a later
                // plan (with what depends on it), and nothing is imported now.
                if !self.deferral.allowed {
                    self.out.diags.push(
                        ferro_runtime::data::deferred_here(
                            &cfg_name(self.ctx.input.providers, &addr),
                            &addr.to_string(),
                            "import",
                        )
                        .with_span(block_span),
                    );
                    continue;
                }
                self.deferral.imports.insert(addr, reason);
                continue;
            }
            if let Some(sink) = generate {
                let abs = addr.containing_resource();
                let cfg = self.ctx.input.providers.by_resource.get(&abs.config());
                let schema =
                    cfg.and_then(|c| self.ctx.input.providers.resource_schema(c, &abs.resource));
                let Some(schema) = schema.cloned() else {
                    continue;
                };
                if let Some(value) = self.state_value(&abs, &addr.resource.key, &schema) {
                    // Imported only to write its configuration: the plan made with that
                    // configuration imports it again.
                    self.refreshed.forget_instance(&abs, &addr.resource.key);
                    let mut out = sink.lock().unwrap_or_else(|e| e.into_inner());
                    out.push(GeneratedImport {
                        addr,
                        id,
                        value,
                        schema,
                    });
                }
                continue;
            }
            if let Some(v) = &identity {
                self.out
                    .import_identities
                    .push((addr.clone(), ferro_value::json::value_to_plain_json(v)));
            }
            self.out.imports.push((addr, id));
            self.out.import_spans.push(to_span);
        }
    }

    /// Whether the configuration declares the target's resource in a module that exists
    /// statically.
    fn declared(&self, addr: &AbsResourceInstance) -> bool {
        let path: Vec<&str> = addr.module.0.iter().map(|s| s.name.as_str()).collect();
        self.ctx.tree.statics.iter().any(|st| {
            st.path.iter().map(String::as_str).eq(path.iter().copied())
                && st.index.resources.contains_key(&addr.resource.resource)
        })
    }

    fn import_key(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        e: ExprId,
        ctx: &InstanceCtx,
    ) -> Option<InstanceKey> {
        let (v, ds) = m.eval(file, e, ctx);
        let failed = ds.iter().any(Diagnostic::is_error);
        self.out.diags.extend(ds);
        if failed {
            return None;
        }
        let (v, _) = v.deep_unmark();
        let key = match &v.kind {
            ValueKind::String(s) => Some(InstanceKey::Str(s.to_string())),
            ValueKind::Number(n) if n.is_integer() => n.to_i64().map(InstanceKey::Int),
            _ => None,
        };
        if key.is_none() {
            self.out.diags.push(
                Diagnostic::error(
                    "invalid-import-address",
                    "Invalid import address expression",
                )
                .with_detail(
                    "The instance key of an import target must be a known string or whole number.",
                )
                .with_span_opt(m.hir(file).span(e)),
            );
        }
        key
    }

    fn import_id(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        e: ExprId,
        ctx: &InstanceCtx,
    ) -> Option<String> {
        let (v, ds) = m.eval(file, e, ctx);
        let failed = ds.iter().any(Diagnostic::is_error);
        self.out.diags.extend(ds);
        if failed {
            return None;
        }
        let bad = |detail: &str| {
            Diagnostic::error("invalid-import-id", "Invalid import id argument")
                .with_detail(detail.to_string())
                .with_span_opt(m.hir(file).span(e))
        };
        if !v.is_wholly_known() {
            self.out.diags.push(bad("The import block \"id\" argument depends on resource attributes that cannot be determined until apply, so ferro cannot plan to import this resource."));
            return None;
        }
        let (plain, _) = v.deep_unmark();
        match convert(&plain, &Type::String)
            .ok()
            .and_then(|s| s.as_str().map(str::to_string))
        {
            Some(id) if !id.is_empty() => Some(id),
            _ => {
                self.out.diags.push(bad(
                    "The import block \"id\" argument must be a non-empty string.",
                ));
                None
            }
        }
    }

    /// The `identity` of an import block (Terraform 1.12): an object of the target type's
    /// identity schema, whose attributes required for import must be set and the others may
    /// be; known, not sensitive, not null.
    fn import_identity(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        e: ExprId,
        ctx: &InstanceCtx,
        addr: &AbsResourceInstance,
    ) -> Option<Value> {
        let span = m.hir(file).span(e);
        let abs = addr.containing_resource();
        let providers = self.ctx.input.providers;
        let schema = providers
            .by_resource
            .get(&abs.config())
            .and_then(|c| providers.get(c))
            .and_then(|p| p.identity_schema(&abs.resource.ty));
        let (v, ds) = m.eval(file, e, ctx);
        let failed = ds.iter().any(Diagnostic::is_error);
        self.out.diags.extend(ds);
        if failed {
            return None;
        }
        let Some(schema) = schema else {
            // What Terraform's plugin client answers for a type without an identity schema.
            self.out.diags.push(
                Diagnostic::error(
                    "import-no-identity-schema",
                    format!("unknown identity type {:?}", abs.resource.ty),
                )
                .with_detail(format!(
                    "The provider of {abs} declares no resource identity for {:?}, so it cannot be imported by identity; import it by \"id\".",
                    abs.resource.ty
                ))
                .with_span_opt(span),
            );
            return None;
        };
        let bad = |detail: &str| {
            Diagnostic::error(
                "invalid-import-identity",
                "Invalid import identity argument",
            )
            .with_detail(detail.to_string())
            .with_span_opt(span)
        };
        if v.is_null() {
            self.out
                .diags
                .push(bad("The import identity cannot be null."));
            return None;
        }
        // The same type `validate` checks the expression against.
        let want = ferro_runtime::identity_for_table(&schema).import_type();
        let converted = match convert(&v, &want) {
            Ok(c) => c,
            Err(err) => {
                self.out.diags.push(
                    Diagnostic::error("incorrect-value-type", "Incorrect value type")
                        .with_detail(format!("Invalid expression value: {err}."))
                        .with_span_opt(span),
                );
                return None;
            }
        };
        if !converted.is_wholly_known() {
            self.out.diags.push(bad("The import block \"identity\" argument depends on resource attributes that cannot be determined until apply, so ferro cannot plan to import this resource."));
            return None;
        }
        if converted.contains_sensitive() {
            self.out.diags.push(
                Diagnostic::error("invalid-import-identity", "Invalid import identity")
                    .with_detail(format!(
                        "Import identity for {addr} must not contain sensitive values"
                    ))
                    .with_span_opt(span),
            );
            return None;
        }
        // The identity schema's object: attributes left out are null.
        convert(&converted.deep_unmark().0, &schema.implied_type()).ok()
    }

    /// Every imported instance must have been planned as a configured instance; one the
    /// configuration does not expand to (a key count or for_each does not produce) would
    /// otherwise be destroyed right after its import.
    pub(super) fn check_imported(&mut self) {
        let planned: HashSet<&AbsResourceInstance> = self
            .out
            .changes
            .iter()
            .filter(|c| c.deposed().is_none() && c.action != Action::Delete)
            .map(|c| &c.addr)
            .collect();
        for ((addr, _), span) in self.out.imports.iter().zip(&self.out.import_spans) {
            if !planned.contains(addr) {
                self.out.diags.push(missing_target(addr, *span));
            }
        }
    }
}

fn missing_target(addr: &impl std::fmt::Display, span: impl Into<Option<Span>>) -> Diagnostic {
    Diagnostic::error("import-no-config", "Configuration for import target does not exist")
        .with_detail(format!("The configuration for the given import target {addr} does not exist. All target instances must have an associated configuration to be imported."))
        .with_span_opt(span.into())
}

/// Terraform's errors for an import target the configuration does not declare.
fn not_generated(span: Span, detail: String) -> Diagnostic {
    Diagnostic::error(
        "import-no-config",
        "Configuration for import target does not exist",
    )
    .with_detail(detail)
    .with_span(span)
}

/// The provider of an import target, as messages name it.
fn cfg_name(providers: &crate::providers::Providers, addr: &AbsResourceInstance) -> String {
    providers
        .by_resource
        .get(&addr.containing_resource().config())
        .map(|c| c.provider.to_string())
        .unwrap_or_default()
}
