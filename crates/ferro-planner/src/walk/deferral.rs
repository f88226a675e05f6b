//! Deferral (`-allow-deferral`, Terraform's experiment): instead of failing on a `count` or
//! `for_each` that is not known yet, or on a provider configuration that is not, the walk
//! leaves the resource (or the module call, with everything under it) for a later plan, and
//! with it everything that depends on it. What is left is listed in the plan's `deferred`
//! changes with its reason; apply performs none of it.

use super::expansion::expansion_unknown;
use super::*;
use ferro_plan::{DeferredChange, DeferredReason};

/// What the walk has deferred so far.
#[derive(Default)]
pub(super) struct Deferral {
    /// Whether the walk may defer (`-allow-deferral`).
    pub(super) allowed: bool,
    /// Static resources something of which is deferred: what their dependents wait for.
    resources: HashSet<ConfigResource>,
    /// Module calls not expanded, by calling module instance and call name: nothing under
    /// them is planned, and state's objects there stay as they are.
    calls: HashSet<(ModuleInstance, String)>,
    /// Provider configurations whose configuration is not known yet (not configured).
    providers: HashSet<AbsProviderConfig>,
    /// Import targets whose provider deferred the import: the instance's change is deferred
    /// with that reason.
    pub(super) imports: HashMap<AbsResourceInstance, ferro_provider::DeferralReason>,
    pub(super) changes: Vec<DeferredChange>,
}

impl Deferral {
    pub(super) fn new(allowed: bool) -> Deferral {
        Deferral {
            allowed,
            ..Default::default()
        }
    }

    /// Whether a module instance is under a module call left unexpanded (O(depth)).
    pub(super) fn covers_module(&self, path: &ModuleInstance) -> bool {
        if self.calls.is_empty() {
            return false;
        }
        (0..path.0.len()).any(|i| {
            let parent = ModuleInstance(path.0[..i].iter().cloned().collect());
            self.calls.contains(&(parent, path.0[i].name.clone()))
        })
    }

    /// Whether a provider configuration is left unconfigured, its configuration unknown.
    pub(super) fn provider_unknown(&self, cfg: &AbsProviderConfig) -> bool {
        !self.providers.is_empty() && self.providers.contains(&cfg.config())
    }

    /// Whether any of `deps` is deferred.
    fn any_deferred(&self, deps: Option<&BTreeSet<ConfigResource>>) -> bool {
        !self.resources.is_empty()
            && deps.is_some_and(|ds| ds.iter().any(|d| self.resources.contains(d)))
    }

    /// The reason an import of `addr` was deferred, if it was.
    pub(super) fn import_deferred(
        &self,
        abs: &AbsResource,
        key: &InstanceKey,
    ) -> Option<ferro_provider::DeferralReason> {
        if self.imports.is_empty() {
            return None;
        }
        self.imports.get(&abs.instance(key.clone())).copied()
    }

    /// Whether a root output depends on something deferred (it cannot be computed yet).
    pub(super) fn output_waits(&self, deps: Option<&BTreeSet<ConfigResource>>) -> bool {
        self.any_deferred(deps)
    }
}

/// The object a deferred change its provider did not plan shows: unknown where the
/// configuration sets an argument (or a nested block) or the provider computes one, null or
/// empty elsewhere, as a provider would plan it before anything is known.
fn unplanned_value(schema: &Schema, body: &ferro_hir::BlockBody) -> Value {
    let set: HashSet<&str> = body
        .attrs
        .iter()
        .map(|a| a.name.as_str())
        .chain(body.blocks.iter().map(|b| b.ty.as_str()))
        .collect();
    let mut attrs = ferro_value::ValueMap::new();
    for (name, a) in &schema.block.attributes {
        let v = if set.contains(name.as_str()) || a.computed {
            Value::unknown(a.ty.clone())
        } else {
            Value::null(a.ty.clone())
        };
        attrs.insert(name.clone(), v);
    }
    let empty = schema.block.empty_value();
    for name in schema.block.block_types.keys() {
        let v = match &empty.kind {
            ValueKind::Object(m) => match m.get(name) {
                Some(e) if set.contains(name.as_str()) => Value::unknown(e.ty()),
                Some(e) => e.clone(),
                None => Value::dynamic_unknown(),
            },
            _ => Value::dynamic_unknown(),
        };
        attrs.insert(name.clone(), v);
    }
    Value::object(attrs)
}

/// A configuration value with the attributes it leaves null that the provider computes
/// unknown: what a provider would plan for it, before it can be asked.
fn computed_unknown(block: &ferro_value::schema::Block, config: &Value) -> Value {
    let ValueKind::Object(m) = &config.kind else {
        return config.clone();
    };
    let mut attrs = (**m).clone();
    for (name, a) in &block.attributes {
        if a.computed && attrs.get(name).is_none_or(Value::is_null) {
            attrs.insert(name.clone(), Value::unknown(a.ty.clone()));
        }
    }
    Value::object(attrs).with_marks(config.marks)
}

/// Where the plan's changes stood before a resource whose dependencies are deferred was
/// planned: its changes, from there on, are moved to the deferred ones.
pub(super) struct DeferMark(Option<usize>);

impl Walk<'_> {
    /// Before planning `cr`: whether it waits for something deferred.
    pub(super) fn defer_mark(
        &mut self,
        cr: &ConfigResource,
        deps: Option<&BTreeSet<ConfigResource>>,
    ) -> DeferMark {
        if !self.deferral.allowed || !self.deferral.any_deferred(deps) {
            return DeferMark(None);
        }
        self.note_deferred(cr.clone());
        DeferMark(Some(self.out.changes.len()))
    }

    /// After planning a resource marked by [`Walk::defer_mark`]: its changes are deferred.
    pub(super) fn defer_take(&mut self, mark: DeferMark) {
        let Some(from) = mark.0 else { return };
        let taken: Vec<_> = self.out.changes.drain(from..).collect();
        for change in taken {
            self.deferral.changes.push(DeferredChange {
                reason: DeferredReason::DeferredPrereq,
                address: change.addr.to_string(),
                module_address: change.addr.module.to_string(),
                index_unknown: false,
                change,
            });
        }
    }

    /// A resource noted deferred: dependents wait for it, and data sources that depend on it
    /// read during apply, as for a resource with changes pending.
    fn note_deferred(&mut self, cr: ConfigResource) {
        self.rel.pending.insert(cr.clone());
        self.rel.changing.insert(cr.clone());
        self.rel.last_noted = None;
        self.deferral.resources.insert(cr);
    }

    /// Before a resource is expanded in a module instance: defer it when its provider
    /// configuration is not known yet, or its `count`/`for_each` is not. True when it was
    /// (its value is then unknown).
    pub(super) fn defer_resource(
        &mut self,
        m: &ModuleEval<'_>,
        file: ferro_db::SourceFile,
        decl: &ResourceDecl,
        abs: &AbsResource,
        cfg: &Arc<AbsProviderConfig>,
        schema: &Schema,
    ) -> bool {
        if !self.deferral.allowed {
            return false;
        }
        let provider_unknown = self.deferral.providers.contains(cfg.as_ref());
        let count_unknown = expansion_unknown(m, file, decl.count, decl.for_each);
        if !provider_unknown && !count_unknown {
            return false;
        }
        let reason = if provider_unknown {
            DeferredReason::ProviderConfigUnknown
        } else {
            DeferredReason::InstanceCountUnknown
        };
        let ty = schema.implied_type();
        let unplanned = unplanned_value(schema, &decl.body);
        let action = if abs.resource.mode == ResourceMode::Data {
            Action::Read
        } else {
            Action::Create
        };
        if count_unknown {
            let change = ResourceInstanceChange::new(
                abs.instance(InstanceKey::None),
                cfg.clone(),
                action,
                Value::null(ty.clone()),
                unplanned,
                schema.version,
            );
            self.deferral.changes.push(DeferredChange {
                reason,
                address: format!("{abs}[*]"),
                module_address: abs.module.to_string(),
                index_unknown: true,
                change: Box::new(change),
            });
        } else {
            // The provider is not configured: each instance is listed as the configuration
            // has it, its object (if any) left as state holds it.
            let mut sink = Vec::new();
            let keys = expand_keys_in(m, file, decl.count, decl.for_each, decl.enabled, &mut sink)
                .map(|(_, keys)| keys.into_vec())
                .unwrap_or_default();
            self.out.diags.extend(sink);
            for (key, each_value) in keys {
                let addr = abs.instance(key.clone());
                // The configuration as it is known without the provider, what it computes
                // unknown.
                let inst = InstanceCtx::for_key(&key, each_value);
                let (config, ds) = eval_body(m, file, &decl.body, &schema.block, &inst);
                let after = if ds.iter().any(Diagnostic::is_error) {
                    unplanned.clone()
                } else {
                    computed_unknown(&schema.block, &config)
                };
                let before = self.state_value(abs, &key, schema);
                let (action, before) = match before {
                    Some(b) if action != Action::Read => (Action::Update, b),
                    _ => (action, Value::null(ty.clone())),
                };
                let change = ResourceInstanceChange::new(
                    addr.clone(),
                    cfg.clone(),
                    action,
                    before,
                    after,
                    schema.version,
                );
                self.deferral.changes.push(DeferredChange {
                    reason,
                    address: addr.to_string(),
                    module_address: addr.module.to_string(),
                    index_unknown: false,
                    change: Box::new(change),
                });
            }
        }
        self.note_deferred(abs.config());
        true
    }

    /// A module call whose `count`/`for_each` is not known yet: not expanded, and every
    /// resource under it deferred. True when it was.
    pub(super) fn defer_call(&mut self, m: &ModuleEval<'_>, name: &str) -> bool {
        if !self.deferral.allowed {
            return false;
        }
        let item = m.index.module_calls[name];
        let call = &m.hir(item.file).module_calls[item.index];
        if !expansion_unknown(m, item.file, call.count, call.for_each) {
            return false;
        }
        let Some(&child) = m.statics().children.get(name) else {
            return false;
        };
        let prefix = if m.path().is_root() {
            String::new()
        } else {
            format!("{}.", m.path())
        };
        let address = format!("{prefix}module.{name}[*]");
        let path = m.path().child(name, InstanceKey::None);
        self.defer_module(child, address, path);
        self.deferral
            .calls
            .insert((m.path().clone(), name.to_string()));
        true
    }

    /// Every resource of a static module (and of the modules it calls), deferred under a
    /// module instance whose key is not known: `address` is the module's as printed.
    fn defer_module(&mut self, node: ferro_db::TreeNodeId, address: String, path: ModuleInstance) {
        let tree = self.ctx.tree;
        let statics = &tree.statics[node];
        for (r, item) in &statics.index.resources {
            let cr = ConfigResource {
                module: statics.path.clone(),
                resource: r.clone(),
            };
            let Some(cfg) = self.ctx.input.providers.by_resource.get(&cr).cloned() else {
                continue;
            };
            let Some(schema) = self.ctx.input.providers.resource_schema(&cfg, r) else {
                continue;
            };
            let ty = schema.implied_type();
            let unplanned =
                unplanned_value(schema, &tree.hir(item.file).resources[item.index].body);
            let action = if r.mode == ResourceMode::Data {
                Action::Read
            } else {
                Action::Create
            };
            let expanded = statics.index.expanded.contains_key(r);
            let abs = AbsResource {
                module: path.clone(),
                resource: r.clone(),
            };
            let change = ResourceInstanceChange::new(
                abs.instance(InstanceKey::None),
                cfg.clone(),
                action,
                Value::null(ty),
                unplanned,
                schema.version,
            );
            self.deferral.changes.push(DeferredChange {
                reason: DeferredReason::InstanceCountUnknown,
                address: format!("{address}.{r}{}", if expanded { "[*]" } else { "" }),
                module_address: address.clone(),
                index_unknown: expanded,
                change: Box::new(change),
            });
            self.note_deferred(cr);
        }
        for (name, &child) in statics.children.iter() {
            let wild = tree.statics[child]
                .call
                .is_some_and(|(_, c)| c.count.is_some() || c.for_each.is_some());
            let address = format!("{address}.module.{name}{}", if wild { "[*]" } else { "" });
            self.defer_module(child, address, path.child(name, InstanceKey::None));
        }
    }

    /// A provider configuration that refers to resources, at its place in the walk: when its
    /// configuration is not known yet it is not configured, and the resources that use it are
    /// deferred. True when it was left so.
    pub(super) fn defer_provider(&mut self, cfg: &AbsProviderConfig) -> bool {
        if !self.deferral.allowed || !self.ahead.deferred_providers.contains(cfg) {
            return false;
        }
        if crate::configure::provider_config_known(self.ctx.tree, self.ctx.input.providers, cfg) {
            return false;
        }
        self.ahead.deferred_providers.remove(cfg);
        self.deferral.providers.insert(cfg.clone());
        true
    }

    /// Changes their provider deferred (`deferred` in its answer to PlanResourceChange).
    #[allow(clippy::vec_box)]
    pub(super) fn defer_provider_answer(
        &mut self,
        reason: ferro_provider::DeferralReason,
        changes: Vec<Box<ResourceInstanceChange>>,
    ) {
        use ferro_provider::DeferralReason as P;
        let reason = match reason {
            P::ProviderConfigUnknown => DeferredReason::ProviderConfigUnknown,
            P::AbsentPrereq => DeferredReason::AbsentPrereq,
            P::ResourceConfigUnknown | P::Unknown => DeferredReason::ResourceConfigUnknown,
        };
        for change in changes {
            self.note_deferred(change.addr.containing_resource().config());
            self.deferral.changes.push(DeferredChange {
                reason,
                address: change.addr.to_string(),
                module_address: change.addr.module.to_string(),
                index_unknown: false,
                change,
            });
        }
    }

    /// The deferred changes, in address order.
    pub(super) fn deferred_changes(&mut self) -> Vec<DeferredChange> {
        let mut changes = std::mem::take(&mut self.deferral.changes);
        changes.sort_by(|a, b| a.address.cmp(&b.address));
        changes
    }
}
