//! Planning one managed resource instance: its prior object (decoded, upgraded, refreshed),
//! the provider's planned change and core's checks of it, and the action that follows.

use super::*;

/// What planning one instance produced: diagnostics, changes and refreshed state objects,
/// merged into the walk in instance order (so parallel planning stays deterministic).
#[derive(Default)]
pub(super) struct Acc {
    pub(super) diags: Vec<Diagnostic>,
    pub(super) changes: Vec<ResourceInstanceChange>,
    pub(super) drift: Vec<ferro_plan::ResourceDrift>,
    pub(super) sets: Vec<(
        AbsResource,
        AbsProviderConfig,
        InstanceKey,
        Option<ferro_state::ObjectState>,
    )>,
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
}

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
        let obj = self.refreshed.current_object(abs, key)?.clone();
        let addr = abs.instance(key.clone()).to_string();
        let provider = self.providers.get(cfg)?.clone();
        if obj.schema_version > schema.version {
            // Terraform refuses to downgrade an object written by a newer provider.
            acc.diags.push(
                Diagnostic::error("newer-schema", "Resource instance managed by newer provider version")
                    .with_detail(format!("The current state of {addr} was created by a newer provider version than is currently selected. Upgrade the {} provider to work with this state.", abs.resource.implied_provider())),
            );
            return None;
        }
        let resp = provider.upgrade_resource_state(UpgradeRequest {
            type_name: &abs.resource.ty,
            version: obj.schema_version,
            raw_json: &obj.attributes,
        });
        let mut failed = false;
        for d in &resp.diagnostics {
            failed |= d.severity == Severity::Error;
            acc.diags.push(provider_diag(d, &addr, None));
        }
        if failed {
            return None;
        }
        let mut value = apply_sensitive_paths(resp.upgraded_state, &obj.sensitive_attributes);
        let private = obj
            .private
            .as_deref()
            .map(base64_decode)
            .unwrap_or_default();
        let mut private_out = private.clone();
        if self.options.refresh && abs.resource.mode == ResourceMode::Managed {
            let (plain, _) = value.deep_unmark();
            let read = provider.read_resource(ReadRequest {
                type_name: &abs.resource.ty,
                current_state: &plain,
                private: &private,
            });
            for d in &read.diagnostics {
                failed |= d.severity == Severity::Error;
                acc.diags.push(provider_diag(d, &addr, None));
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
                    provider: cfg.clone(),
                    after: if read.new_state.is_null() {
                        Value::null(schema.block.implied_type())
                    } else {
                        apply_sensitive_paths(read.new_state.clone(), &obj.sensitive_attributes)
                    },
                    before: value.clone(),
                });
            }
            if read.new_state.is_null() {
                // The object is gone: forget it so it is planned for creation.
                let prov = cfg.clone();
                acc.sets.push((abs.clone(), prov, key.clone(), None));
                return None;
            }
            value = apply_sensitive_paths(read.new_state, &obj.sensitive_attributes);
            private_out = read.private;
            if let Ok(enc) = crate::statecodec::encode_object(
                schema,
                &value,
                &private_out,
                obj.dependencies.clone(),
                obj.create_before_destroy,
                obj.tainted,
            ) {
                let mut enc = enc;
                enc.sensitive_attributes = obj.sensitive_attributes.clone();
                acc.sets
                    .push((abs.clone(), cfg.clone(), key.clone(), Some(enc)));
            }
        }
        Some(PriorObject {
            value,
            private: private_out,
            tainted: obj.tainted,
            schema_version: obj.schema_version,
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn plan_instance(
        &self,
        hir: &ferro_hir::FileHir,
        decl: &ResourceDecl,
        cfg: &AbsProviderConfig,
        schema: &Schema,
        addr: AbsResourceInstance,
        mut config: Value,
        prior: Option<PriorObject>,
        dependencies: Vec<String>,
        triggered: bool,
        acc: &mut Acc,
    ) -> Value {
        let ty = schema.block.implied_type();
        let addr_s = addr.to_string();
        let Some(provider) = self.providers.get(cfg).cloned() else {
            return Value::unknown(ty);
        };
        let (plain_cfg, _) = config.deep_unmark();
        for d in provider.validate_resource_config(&addr.resource.resource.ty, &plain_cfg) {
            acc.diags.push(resource_diag(hir, &d, &addr_s, decl));
        }
        if let Some(p) = &prior {
            config = apply_ignore_changes(&decl.lifecycle, &config, &p.value);
        }
        let tainted = prior.as_ref().is_some_and(|p| p.tainted);
        let by_request = self.options.replace.contains(&addr);
        let prior_val = match &prior {
            Some(p) if !tainted => p.value.clone(),
            _ => Value::null(ty.clone()),
        };
        let prior_private = prior
            .as_ref()
            .map(|p| p.private.clone())
            .unwrap_or_default();
        let Some(first) = self.call_plan(
            &provider,
            schema,
            &addr_s,
            hir,
            decl,
            &prior_val,
            &config,
            &prior_private,
            acc,
        ) else {
            return Value::unknown(ty);
        };
        let (mut planned, mut private, replace_paths) = first;
        let cbd = decl.lifecycle.create_before_destroy
            || self
                .forced_cbd
                .contains(&addr.containing_resource().config());
        let (action, reason) = match &prior {
            None => (Action::Create, None),
            Some(_) if tainted => (
                replace_action(cbd),
                Some(ActionReason::ReplaceBecauseTainted),
            ),
            Some(p) => {
                let changed: Vec<Vec<PathStep>> = replace_paths
                    .iter()
                    .filter(|path| {
                        value_at(&p.value, path).map(|v| v.deep_unmark().0)
                            != value_at(&planned, path).map(|v| v.deep_unmark().0)
                    })
                    .cloned()
                    .collect();
                let forced = !changed.is_empty() || by_request || triggered;
                if forced {
                    // Plan the replacement object as a create.
                    let null = Value::null(ty.clone());
                    match self.call_plan(
                        &provider,
                        schema,
                        &addr_s,
                        hir,
                        decl,
                        &null,
                        &config,
                        &[],
                        acc,
                    ) {
                        Some((pl, pr, _)) => {
                            planned = pl;
                            private = pr;
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
                    self.push_change(
                        addr,
                        cfg,
                        schema,
                        replace_action(cbd),
                        Some(reason),
                        p.value.clone(),
                        planned.clone(),
                        changed,
                        private,
                        dependencies,
                        cbd,
                        acc,
                    );
                    return planned;
                }
                if planned.deep_unmark().0 == p.value.deep_unmark().0 {
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
        let _ = prior.as_ref().map(|p| p.schema_version);
        let result = if action == Action::NoOp {
            before.clone()
        } else {
            planned.clone()
        };
        self.push_change(
            addr,
            cfg,
            schema,
            action,
            reason,
            before,
            planned,
            Vec::new(),
            private,
            dependencies,
            cbd,
            acc,
        );
        result
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn push_change(
        &self,
        addr: AbsResourceInstance,
        cfg: &AbsProviderConfig,
        schema: &Schema,
        action: Action,
        reason: Option<ActionReason>,
        before: Value,
        after: Value,
        requires_replace: Vec<Vec<PathStep>>,
        planned_private: Vec<u8>,
        dependencies: Vec<String>,
        cbd: bool,
        acc: &mut Acc,
    ) {
        if action.is_replace()
            && self
                .prevent_destroy
                .contains(&addr.containing_resource().config())
        {
            acc.diags.push(super::prevent_destroy_error(&addr));
        }
        acc.changes.push(ResourceInstanceChange {
            addr,
            deposed: None,
            provider: cfg.clone(),
            action,
            reason,
            before,
            after,
            requires_replace,
            planned_private,
            schema_version: schema.version,
            dependencies,
            create_before_destroy: cbd,
        });
    }

    /// One PlanResourceChange call with core's checks; None after reporting errors.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn call_plan(
        &self,
        provider: &std::sync::Arc<dyn ferro_provider::Provider>,
        schema: &Schema,
        addr: &str,
        hir: &ferro_hir::FileHir,
        decl: &ResourceDecl,
        prior: &Value,
        config: &Value,
        prior_private: &[u8],
        acc: &mut Acc,
    ) -> Option<(Value, Vec<u8>, Vec<Vec<PathStep>>)> {
        let (plain_cfg, cfg_marks) = config.deep_unmark();
        let (plain_prior, _) = prior.deep_unmark();
        let proposed = proposed_new(&schema.block, &plain_prior, &plain_cfg);
        let resp = provider.plan_resource_change(PlanRequest {
            type_name: &decl.addr.ty,
            prior_state: &plain_prior,
            proposed_new_state: &proposed,
            config: &plain_cfg,
            prior_private,
        });
        let mut failed = false;
        for d in &resp.diagnostics {
            failed |= d.severity == Severity::Error;
            acc.diags.push(resource_diag(hir, d, addr, decl));
        }
        if failed {
            return None;
        }
        // Named as Terraform names it: the provider's source address.
        // Named as Terraform names it: the provider's source address (looked up only for
        // the message).
        let provider_name = || {
            self.providers
                .by_resource
                .iter()
                .find(|(r, _)| r.resource == decl.addr)
                .map(|(_, c)| c.provider.to_string())
                .unwrap_or_else(|| decl.addr.implied_provider().to_string())
        };
        if convert(&resp.planned_state, &schema.block.implied_type()).is_err() {
            acc.diags.push(
                Diagnostic::error("provider-invalid-plan", "Provider produced invalid plan")
                    .with_detail(format!("Provider {:?} planned an invalid value for {addr}: the planned object does not conform to the resource type schema.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", provider_name()))
                    .with_address(addr),
            );
            return None;
        }
        if !resp.legacy_type_system {
            let errs =
                assert_plan_valid(&schema.block, &plain_prior, &plain_cfg, &resp.planned_state);
            if !errs.is_empty() {
                for e in errs {
                    acc.diags.push(
                        Diagnostic::error("provider-invalid-plan", "Provider produced invalid plan")
                            .with_detail(format!("Provider {:?} planned an invalid value for {addr}{e}.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", provider_name()))
                            .with_address(addr),
                    );
                }
                return None;
            }
        }
        // Sensitivity from the configuration carries over to the planned object.
        let planned = carry_marks(&resp.planned_state, config, cfg_marks);
        Some((planned, resp.planned_private, resp.requires_replace))
    }
}

/// Marks on configuration attributes are carried to the same attributes of the planned object.
pub(super) fn carry_marks(planned: &Value, config: &Value, top: ferro_value::Marks) -> Value {
    match (&planned.kind, config.as_entries()) {
        (ValueKind::Object(pm), Some(cm)) => {
            let mut out = (**pm).clone();
            for (k, v) in out.iter_mut() {
                if let Some(c) = cm.get(k) {
                    if c.contains_sensitive() {
                        *v = if c.is_sensitive() {
                            v.clone().with_marks(c.marks)
                        } else {
                            carry_marks(v, c, ferro_value::Marks::NONE)
                        };
                    }
                }
            }
            Value::object(out).with_marks(top)
        }
        _ => planned.clone().with_marks(config.marks),
    }
}

pub(super) fn apply_ignore_changes(
    lc: &ferro_hir::Lifecycle,
    config: &Value,
    prior: &Value,
) -> Value {
    if lc.ignore_all_changes {
        let (Some(cm), Some(pm)) = (config.as_entries(), prior.as_entries()) else {
            return config.clone();
        };
        let mut out = cm.clone();
        for (k, v) in out.iter_mut() {
            if let Some(p) = pm.get(k) {
                *v = p.clone();
            }
        }
        return Value::object(out).with_marks(config.marks);
    }
    let mut out = config.clone();
    for path in &lc.ignore_changes {
        out = ignore_at(&out, Some(prior), path).unwrap_or(out);
    }
    out
}

/// `config` with the value at `path` replaced by the prior object's value there (a map key the
/// prior object lacks is removed; one only the prior object has is added back). None leaves
/// `config` as it is (the path leads nowhere).
fn ignore_at(
    config: &Value,
    prior: Option<&Value>,
    path: &[ferro_hir::IgnoreStep],
) -> Option<Value> {
    use ferro_hir::IgnoreStep;
    let Some((step, rest)) = path.split_first() else {
        return Some(prior.cloned().unwrap_or_else(|| Value::null(config.ty())));
    };
    if !config.is_known() {
        return None;
    }
    // As cty applies paths: attributes step into objects, string keys into maps, numbers into
    // lists (`tags.Name` on a map leads nowhere, as in Terraform).
    match (&config.kind, step) {
        (ValueKind::Object(m), IgnoreStep::Attr(k)) => {
            let cur = m.get(k)?;
            let p = prior.and_then(|p| p.as_entries()).and_then(|pm| pm.get(k));
            let new = ignore_at(cur, p, rest)?;
            let mut out = (**m).clone();
            out.insert(k.to_string(), new);
            Some(Value::object(out).with_marks(config.marks))
        }
        (ValueKind::Map(ety, m), IgnoreStep::Key(k)) => {
            let p = prior.and_then(|p| p.as_entries()).and_then(|pm| pm.get(k));
            let mut out = (**m).clone();
            match (m.get(k), p) {
                (Some(_), None) if rest.is_empty() => {
                    out.remove(k);
                }
                (Some(cur), _) => {
                    out.insert(k.to_string(), ignore_at(cur, p, rest)?);
                }
                (None, Some(pv)) if rest.is_empty() => {
                    out.insert(k.to_string(), pv.clone());
                }
                (None, _) => return None,
            }
            Some(Value::map(ety.clone(), out).with_marks(config.marks))
        }
        (ValueKind::Null(_), _) if rest.is_empty() => prior.cloned(),
        (ValueKind::List(ety, items), IgnoreStep::Index(i)) => {
            let i = *i as usize;
            let cur = items.get(i)?;
            let p = prior.and_then(|p| match &p.kind {
                ValueKind::List(_, ps) | ValueKind::Tuple(ps) => ps.get(i),
                _ => None,
            });
            let new = ignore_at(cur, p, rest)?;
            let mut out = (**items).clone();
            out[i] = new;
            Some(Value::list(ety.clone(), out).with_marks(config.marks))
        }
        _ => None,
    }
}
