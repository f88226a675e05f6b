//! Planning one managed resource instance: its prior object (decoded, upgraded, refreshed),
//! the provider's planned change and core's checks of it, and the action that follows.

use super::*;
use crate::lifecycle;

/// What planning one instance produced: diagnostics, changes and its refreshed state object,
/// merged into the walk in instance order (so parallel planning stays deterministic).
#[derive(Default)]
pub(super) struct Acc {
    pub(super) diags: Vec<Diagnostic>,
    /// Boxed as the plan holds them: merging moves a pointer, and the instances' changes and
    /// the plan's list of them are never held twice.
    #[allow(clippy::vec_box)]
    pub(super) changes: Vec<Box<ResourceInstanceChange>>,
    pub(super) drift: Vec<ferro_plan::ResourceDrift>,
    /// The instance's object as refreshed, for state. The instance is not named: whoever
    /// merges the accumulator knows which instance it planned, and a large resource's
    /// accumulators would otherwise each hold a copy of its address.
    pub(super) refreshed: Option<Refreshed>,
    /// Set when the instance's object was refreshed: the attribute that names it in the
    /// "Refreshing state..." line (see [`crate::RefreshNotice`]), reported when merged.
    pub(super) refreshing: Option<Option<(&'static str, String)>>,
    /// The provider deferred the instance's change (`-allow-deferral`): merged into the
    /// plan's deferred changes.
    pub(super) deferred: Option<ferro_provider::DeferralReason>,
}

/// What a refresh changed of an instance's object in state.
pub(super) enum Refreshed {
    /// The object is gone.
    Gone,
    /// A new object.
    Object(ferro_state::ObjectState),
    /// Only the provider's private data (SDKv2 providers rewrite it on every read): state's
    /// object takes it in place, so a refresh that changes nothing else allocates no object.
    Private(Option<Arc<str>>),
}

impl Acc {
    /// Frees the room the vectors reserved beyond what they hold. One `Acc` is kept per
    /// instance until its resource is merged, and a vector's first push reserves four entries
    /// (a change is about 450 bytes): without this, 10 000 instances kept 30 MB of empty room.
    pub(super) fn compact(mut self) -> Self {
        self.diags.shrink_to_fit();
        self.changes.shrink_to_fit();
        self.drift.shrink_to_fit();
        self
    }

    /// Whether it holds nothing to merge.
    pub(super) fn is_empty(&self) -> bool {
        self.diags.is_empty()
            && self.changes.is_empty()
            && self.drift.is_empty()
            && self.refreshed.is_none()
            && self.refreshing.is_none()
    }
}

/// The resource an instance belongs to: where it is declared, the provider configuration it
/// uses, and its type's schema (shared by all its instances).
#[derive(Clone, Copy)]
pub(super) struct ResourceRef<'a> {
    pub(super) hir: &'a ferro_hir::FileHir,
    pub(super) decl: &'a ResourceDecl,
    pub(super) cfg: &'a Arc<AbsProviderConfig>,
    pub(super) schema: &'a Schema,
}

/// One instance to plan: its address, its configuration value, the object state has for it
/// (refreshed), the dependencies its object records, and whether a `replace_triggered_by`
/// reference changed.
pub(super) struct InstanceInput {
    pub(super) addr: AbsResourceInstance,
    pub(super) config: Value,
    pub(super) prior: Option<PriorObject>,
    pub(super) dependencies: ferro_state::Dependencies,
    pub(super) triggered: bool,
}

/// The read-only view of a walk that planning one resource instance needs; it is `Sync`, so the
/// instances of one resource are planned concurrently (their provider calls overlap).
pub(super) struct InstancePlanner<'a> {
    pub(super) providers: &'a Providers,
    pub(super) options: &'a PlanOptions,
    pub(super) refreshed: &'a State,
    pub(super) forced_cbd: &'a HashSet<ConfigResource>,
    /// Resources whose `lifecycle` sets `prevent_destroy` (a replacement is refused too).
    pub(super) prevent_destroy: &'a HashSet<ConfigResource>,
    /// Whether prior objects are refreshed (the plan's `-refresh`, narrowed for the objects
    /// a targeted destroy removes without refreshing them).
    pub(super) refresh: bool,
    pub(super) validated: &'a super::validate_once::Validated,
    /// With `-minimal-refresh`, where the objects left unread are counted.
    pub(super) minimal_refresh: Option<&'a std::sync::atomic::AtomicUsize>,
}

/// Above this many bytes of JSON, a refreshed object's text in state is replaced by the
/// decoded value the plan holds anyway (below it, the text costs less than the new state entry
/// the value would take).
const KEEP_STATE_TEXT_UP_TO: usize = 512;

impl InstancePlanner<'_> {
    /// Decode, upgrade and (optionally) refresh the current object of an instance from state.
    pub(super) fn prior_object(
        &self,
        abs: &AbsResource,
        key: &InstanceKey,
        cfg: &AbsProviderConfig,
        schema: &Schema,
        acc: &mut Acc,
    ) -> Option<PriorObject> {
        self.prior_object_for(abs, key, cfg, schema, None, acc)
    }

    /// [`InstancePlanner::prior_object`] of an instance whose configuration is `config`: with
    /// `-minimal-refresh`, an object the configuration would not change is not read.
    pub(super) fn prior_object_for(
        &self,
        abs: &AbsResource,
        key: &InstanceKey,
        cfg: &AbsProviderConfig,
        schema: &Schema,
        config: Option<&Value>,
        acc: &mut Acc,
    ) -> Option<PriorObject> {
        let obj = self.refreshed.current_object(abs, key)?;
        let addr = abs.instance(key.clone()).to_string();
        let provider = self
            .providers
            .for_instance(cfg, &abs.module, &abs.resource, key)?
            .clone();
        if u64::from(obj.schema_version) > schema.version {
            // Terraform refuses to downgrade an object written by a newer provider.
            acc.diags.push(
                Diagnostic::error("newer-schema", "Resource instance managed by newer provider version")
                    .with_detail(format!("The current state of {addr} was created by a newer provider version than is currently selected. Upgrade the {} provider to work with this state.", abs.resource.implied_provider())),
            );
            return None;
        }
        let ty = schema.implied_type();
        let mut failed = false;
        let current_version = u64::from(obj.schema_version) == schema.version;
        // Decoded against this schema earlier in this run (upgraded then): taken as it is.
        // Stored at the current version and decoding against the schema as it stands, in the
        // form the provider's upgrade would give it: that is the provider's answer, and the
        // call is left out (see docs/compatibility.md).
        let local = match obj.attributes.decoded(&ty) {
            Some(v) if current_version => Some(v.clone()),
            _ if current_version => obj
                .attributes
                .to_value(&ty)
                .ok()
                .filter(|v| schema.block.in_upgraded_form(v)),
            _ => None,
        };
        let upgraded = match local {
            Some(v) => v,
            None => {
                let resp = provider.upgrade_resource_state(UpgradeRequest {
                    type_name: &abs.resource.ty,
                    version: u64::from(obj.schema_version),
                    raw_json: &obj.attributes.json(),
                });
                for d in &resp.diagnostics {
                    failed |= d.severity == Severity::Error;
                    acc.diags.push(provider_diag(d, &addr, None));
                }
                if failed {
                    return None;
                }
                resp.upgraded_state
            }
        };
        let identity_schema = provider.identity_schema(&abs.resource.ty);
        let provider_name = cfg.provider.to_string();
        let id_at = ferro_runtime::identity::IdentityAt {
            addr: &addr,
            provider_name: &provider_name,
            provider_type: abs.resource.implied_provider(),
        };
        let mut identity = match ferro_runtime::identity::stored_identity(
            provider.as_ref(),
            &abs.resource.ty,
            identity_schema.as_ref(),
            obj,
            &id_at,
        ) {
            Ok(v) => v,
            Err(ds) => {
                acc.diags.extend(ds);
                return None;
            }
        };
        let mut value = apply_sensitive_paths(upgraded, &obj.sensitive_attributes);
        let private = obj
            .private
            .as_deref()
            .map(base64_decode)
            .unwrap_or_default();
        let mut private_out = private.clone();
        let unchanged = match (self.minimal_refresh, config) {
            (Some(count), Some(config)) if !obj.tainted => {
                let (prior, _) = value.deep_unmark();
                let (config, _) = config.deep_unmark();
                // Write-only values are never in the prior object.
                let config = schema.block.null_write_only(&config);
                let same = crate::objchange::proposed_new(&schema.block, &prior, &config) == prior;
                if same {
                    count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                same
            }
            _ => false,
        };
        if self.refresh && abs.resource.mode == ResourceMode::Managed && !unchanged {
            acc.refreshing = Some(ferro_plan::object_value_id(&value));
            let (plain, _) = value.deep_unmark();
            let read = provider.read_resource(ReadRequest {
                type_name: &abs.resource.ty,
                current_state: &plain,
                private: &private,
                current_identity: identity.as_ref(),
            });
            for d in &read.diagnostics {
                failed |= d.severity == Severity::Error;
                acc.diags.push(provider_diag(d, &addr, None));
            }
            if !failed && read.deferred.is_some() {
                // The provider cannot read the object yet: it is planned from state as it is,
                // and its change waits for a later plan with what depends on it.
                acc.deferred = acc.deferred.or(read.deferred);
                return Some(PriorObject {
                    value,
                    private,
                    tainted: obj.tainted,
                    identity,
                });
            }
            if !failed {
                let wo = ferro_runtime::diagnostics::write_only_returned(
                    &schema.block,
                    &read.new_state,
                    &cfg.provider.to_string(),
                    &addr.to_string(),
                    "during refresh",
                );
                failed |= !wo.is_empty();
                acc.diags.extend(wo);
            }
            if let (false, Some(new_identity)) = (failed, &read.new_identity) {
                let errs = ferro_runtime::identity::check_identity(
                    new_identity,
                    identity_schema.as_ref(),
                    true,
                    &id_at,
                );
                failed |= !errs.is_empty();
                acc.diags.extend(errs);
            }
            if !failed && !read.new_state.is_wholly_known() {
                acc.diags.push(
                    Diagnostic::error("provider-invalid-data", "Provider produced invalid object")
                        .with_detail(format!("Provider \"{}\" returned a value for {addr} during refresh that is not wholly known.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", cfg.provider))
                        .with_address(addr.to_string()),
                );
                failed = true;
            }
            if failed {
                return None;
            }
            let (before_plain, _) = value.deep_unmark();
            if before_plain != read.new_state.deep_unmark().0 {
                acc.drift.push(ferro_plan::ResourceDrift {
                    addr: abs.instance(key.clone()),
                    provider: Arc::new(cfg.clone()),
                    after: if read.new_state.is_null() {
                        Value::null(schema.implied_type())
                    } else {
                        apply_sensitive_paths(read.new_state.clone(), &obj.sensitive_attributes)
                    },
                    before: value.clone(),
                });
            }
            if read.new_state.is_null() {
                // The object is gone: forget it so it is planned for creation.
                acc.refreshed = Some(Refreshed::Gone);
                return None;
            }
            // The parts the refresh left as they were are the prior's, not a second copy.
            let refreshed = read.new_state.share_from(&value.deep_unmark().0);
            value = apply_sensitive_paths(refreshed, &obj.sensitive_attributes);
            private_out = read.private;
            // The identity the provider answered with (or, when it sent none, the one state
            // holds, upgraded) is what state records from now on.
            let stored_before = obj.identity.clone();
            if read.new_identity.is_some() {
                identity = read.new_identity.clone();
            }
            let identity_state = match (&identity, &identity_schema) {
                (Some(v), Some(s)) => ferro_runtime::identity::identity_for_state(v, s),
                _ => None,
            };
            let identity_changed = identity_state.is_some() && identity_state != stored_before;
            // State takes a changed object as the decoded value the plan holds as its prior:
            // the JSON it replaces is dropped, so the walk never holds an object twice. An
            // object that already is that value (its JSON text exactly, or decoded earlier in
            // this run) is left as it is when its text is short: the text costs less than a
            // second entry for the value, and is written back as it is. A long text (large
            // strings, long lists) is replaced by the value all the same: held beside the
            // plan's decoded prior, it would be the object twice over.
            let same_attributes = u64::from(obj.schema_version) == schema.version
                && obj.attributes.holds(&value.deep_unmark().0, &ty);
            let long_text = obj
                .attributes
                .text_len()
                .is_some_and(|n| n > KEEP_STATE_TEXT_UP_TO);
            if same_attributes && !long_text && !identity_changed {
                if private_out != private {
                    // Only the private data changed: the attributes stay as they are (shared).
                    acc.refreshed = Some(Refreshed::Private(crate::statecodec::private_text(
                        &private_out,
                    )));
                }
            } else {
                if let Ok(mut enc) = crate::statecodec::encode_object(
                    schema,
                    &value,
                    &private_out,
                    obj.dependencies.clone(),
                    obj.create_before_destroy,
                    obj.tainted,
                    crate::statecodec::Hold::Value,
                ) {
                    enc.sensitive_attributes = obj.sensitive_attributes.clone();
                    enc.skip_destroy = obj.skip_destroy;
                    enc.identity = identity_state.or(stored_before);
                    acc.refreshed = Some(Refreshed::Object(enc));
                }
            }
        }
        Some(PriorObject {
            value,
            private: private_out,
            tainted: obj.tainted,
            identity,
        })
    }

    /// Plan one instance of `resource` (validate its configuration, plan the change with the
    /// provider, decide the action) and push the change into `acc`; returns the planned value.
    pub(super) fn plan_instance(
        &self,
        resource: &ResourceRef<'_>,
        instance: InstanceInput,
        acc: &mut Acc,
    ) -> Value {
        let ResourceRef {
            hir,
            decl,
            cfg,
            schema,
        } = *resource;
        let InstanceInput {
            addr,
            mut config,
            prior,
            dependencies,
            triggered,
        } = instance;
        let ty = schema.implied_type();
        let addr_s = addr.to_string();
        let Some(provider) = self
            .providers
            .for_instance(
                cfg,
                &addr.module,
                &addr.resource.resource,
                &addr.resource.key,
            )
            .cloned()
        else {
            return Value::unknown(ty);
        };
        let (plain_cfg, _) = config.deep_unmark();
        let said = self
            .validated
            .validate(&provider, &addr.resource.resource.ty, &plain_cfg);
        for d in said.iter() {
            acc.diags.push(resource_diag(hir, d, &addr_s, decl));
        }
        // ignore_changes keeps prior values in an update; a replacement object (tainted prior,
        // or replacement forced below) is planned from the whole configuration, as Terraform
        // plans it against a null prior object.
        let tainted = prior.as_ref().is_some_and(|p| p.tainted);
        let whole_config = config.clone();
        config = crate::lifecycle::configured_value(
            &decl.lifecycle,
            &config,
            prior.as_ref().filter(|p| !p.tainted).map(|p| &p.value),
        );
        let by_request = self.options.replace.contains(&addr);
        let prior_val = match &prior {
            Some(p) if !tainted => p.value.clone(),
            _ => Value::null(ty.clone()),
        };
        let prior_private = prior
            .as_ref()
            .map(|p| p.private.clone())
            .unwrap_or_default();
        let provider_name = self.provider_name(decl);
        let at = crate::lifecycle::InstanceRef {
            hir,
            decl,
            schema,
            addr: &addr_s,
            provider_name: &provider_name,
        };
        let prior_identity = prior
            .as_ref()
            .filter(|p| !p.tainted)
            .and_then(|p| p.identity.clone());
        let identity_version = provider
            .identity_schema(&addr.resource.resource.ty)
            .map_or(0, |s| s.version);
        let (first, ds) = lifecycle::plan_change(
            provider.as_ref(),
            &at,
            &prior_val,
            &config,
            &prior_private,
            prior_identity.as_ref(),
        );
        acc.diags.extend(ds);
        let Some(first) = first else {
            return Value::unknown(ty);
        };
        acc.deferred = acc.deferred.or(first.deferred);
        let (mut planned, mut private, replace_paths, mut planned_identity) = (
            first.value,
            first.private,
            first.requires_replace,
            first.identity,
        );
        let cbd = decl.lifecycle.create_before_destroy
            || self
                .forced_cbd
                .contains(&addr.containing_resource().config());
        let skip_destroy = decl.lifecycle.skip_destroy;
        let (action, reason) = match &prior {
            None => (Action::Create, None),
            Some(_) if tainted => (
                replace_action(cbd, skip_destroy),
                Some(ActionReason::ReplaceBecauseTainted),
            ),
            Some(p) => {
                let changed: Vec<Vec<PathStep>> = replace_paths
                    .iter()
                    .filter(|path| {
                        // A write-only attribute has no values to compare: the provider's
                        // word alone forces the replacement, as in Terraform.
                        schema.block.write_only_at(path)
                            || value_at(&p.value, path).map(|v| v.deep_unmark().0)
                                != value_at(&planned, path).map(|v| v.deep_unmark().0)
                    })
                    .cloned()
                    .collect();
                let forced = !changed.is_empty() || by_request || triggered;
                if forced {
                    // Plan the replacement object as a create.
                    let null = Value::null(ty.clone());
                    let (second, ds) = lifecycle::plan_change(
                        provider.as_ref(),
                        &at,
                        &null,
                        &whole_config,
                        &[],
                        None,
                    );
                    acc.diags.extend(ds);
                    match second {
                        Some(p) => {
                            planned = p.value;
                            private = p.private;
                            planned_identity = p.identity;
                        }
                        None => return Value::unknown(ty),
                    }
                    let reason = if by_request {
                        ActionReason::ReplaceByRequest
                    } else if triggered {
                        ActionReason::ReplaceByTriggers
                    } else {
                        ActionReason::ReplaceBecauseCannotUpdate
                    };
                    let change = ResourceInstanceChange {
                        planned_private: private.into(),
                        dependencies,
                        create_before_destroy: cbd,
                        skip_destroy,
                        ..ResourceInstanceChange::new(
                            addr,
                            cfg.clone(),
                            replace_action(cbd, skip_destroy),
                            p.value.clone(),
                            planned.clone(),
                            schema.version,
                        )
                    }
                    .with_reason(Some(reason))
                    .with_requires_replace(changed.into())
                    .with_identities(
                        p.identity.as_ref(),
                        planned_identity.as_ref().map(|v| (v, identity_version)),
                    );
                    self.push_change(change, acc);
                    return planned;
                }
                // A value that only gains or loses its sensitive mark still changes what state
                // records: an update, as Terraform plans it.
                let same_marks = crate::statecodec::sensitive_path_list(&planned)
                    == crate::statecodec::sensitive_path_list(&p.value);
                if planned.deep_unmark().0 == p.value.deep_unmark().0 && same_marks {
                    (Action::NoOp, None)
                } else {
                    (Action::Update, None)
                }
            }
        };
        let before = prior
            .as_ref()
            .map(|p| p.value.clone())
            .unwrap_or_else(|| Value::null(ty.clone()));
        // A no-op's planned value equals its prior one: the change holds the prior twice (it is
        // shared) rather than keeping the provider's answer decoded beside it.
        let planned = if action == Action::NoOp {
            before.clone()
        } else {
            planned
        };
        let result = planned.clone();
        let change = ResourceInstanceChange {
            planned_private: private.into(),
            dependencies,
            create_before_destroy: cbd,
            skip_destroy,
            ..ResourceInstanceChange::new(
                addr,
                cfg.clone(),
                action,
                before,
                planned,
                schema.version,
            )
        }
        .with_reason(reason)
        .with_identities(
            prior.as_ref().and_then(|p| p.identity.as_ref()),
            planned_identity
                .as_ref()
                .or(prior_identity.as_ref().filter(|_| action == Action::NoOp))
                .map(|v| (v, identity_version)),
        );
        self.push_change(change, acc);
        result
    }

    /// Record a planned change (refusing replacements of `prevent_destroy` resources).
    pub(super) fn push_change(&self, change: ResourceInstanceChange, acc: &mut Acc) {
        if change.action.is_replace()
            && self
                .prevent_destroy
                .contains(&change.addr.containing_resource().config())
        {
            acc.diags.push(super::prevent_destroy_error(&change.addr));
        }
        acc.changes.push(Box::new(change));
    }

    /// The provider's source address for a resource, as Terraform names it in messages.
    fn provider_name(&self, decl: &ResourceDecl) -> String {
        self.providers
            .by_resource
            .iter()
            .find(|(r, _)| r.resource == decl.addr)
            .map(|(_, c)| c.provider.to_string())
            .unwrap_or_else(|| decl.addr.implied_provider().to_string())
    }
}
