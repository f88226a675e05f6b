//! Executing one step: final plan + apply for creates/updates, destroy for deletes, evaluation
//! for outputs. Steps return state outcomes; the coordinator applies them to state in order.

use crate::run::Event;
use ferro_addrs::{AbsProviderConfig, AbsResource, InstanceKey};
use ferro_diag::Diagnostic;
use ferro_plan::{Action, Plan, ResourceInstanceChange, Step};
use ferro_provider::{ApplyRequest, Severity};
use ferro_runtime::config_value::{eval_body, mark_schema_sensitive};
use ferro_runtime::objchange::assert_compatible;
use ferro_runtime::scope::{EvalTree, InstanceCtx, ModuleEval};
use ferro_runtime::statecodec::{encode_object, Hold};
use ferro_runtime::Providers;
use ferro_state::{Change, OutputState};
use ferro_value::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

pub(crate) struct StepCtx<'a> {
    pub plan: &'a Plan,
    pub providers: &'a Providers,
    pub tree: &'a EvalTree<'a>,
    pub on_event: &'a (dyn Fn(Event) + Sync),
    /// What steps read of the prior state (apply's working state is the prior state, moved).
    pub priors: crate::priors::Priors,
    /// for_each values per resource, evaluated once.
    pub for_each_cache: Mutex<HashMap<AbsResource, BTreeMap<String, Value>>>,
    /// Configuration values of resources whose body every instance evaluates alike
    /// (`instance_independent`), evaluated by the first instance to run and shared by the
    /// others: one copy of what it holds (a large string joined from another resource's
    /// values, say) for all of them. Every instance of such a resource waits for the same
    /// steps, so the values it reads are final when the first one runs.
    pub config_cache: Mutex<HashMap<AbsResource, Value>>,
    /// Provider configurations whose blocks refer to resources: each is configured by the first
    /// step that uses it (every such step waits for those resources), and what configuring it
    /// said is kept for the steps after.
    pub deferred: HashMap<AbsProviderConfig, OnceLock<Vec<Diagnostic>>>,
    /// The ephemeral resources apply has opened.
    pub ephemeral: &'a ferro_runtime::ephemeral::EphemeralSet<'a>,
    /// Ephemeral resources not opened yet, their configuration unknown when apply started:
    /// opened before a deferred provider configuration is configured.
    pub pending_ephemeral: Mutex<Vec<crate::ephemeral::Pending>>,
}

impl StepCtx<'_> {
    /// Configure the provider configuration `cfg` if it was left for its first step. Whether
    /// it is configured, and what configuring it said (only to the step that configured it).
    fn provider_ready(&self, cfg: &AbsProviderConfig) -> (bool, Vec<Diagnostic>) {
        let Some(cell) = self.deferred.get(cfg) else {
            return (true, Vec::new());
        };
        let mut said = Vec::new();
        let ds = cell.get_or_init(|| {
            let mut ds = crate::ephemeral::reopen(
                self.tree,
                self.providers,
                self.ephemeral,
                &self.pending_ephemeral,
            );
            ds.extend(self.ephemeral.renew_due());
            ds.extend(ferro_runtime::configure_provider(
                self.tree,
                self.providers,
                cfg,
            ));
            said.clone_from(&ds);
            ds
        });
        (!ds.iter().any(Diagnostic::is_error), said)
    }
}

/// The configuration value of one instance (see [`StepCtx::config_cache`]); evaluations with
/// anything to say are not shared, so each instance reports it with its address.
fn instance_config(
    ctx: &StepCtx<'_>,
    m: &ModuleEval<'_>,
    file: ferro_db::SourceFile,
    decl: &ferro_hir::ResourceDecl,
    block: &ferro_value::schema::Block,
    abs: &AbsResource,
    inst: &InstanceCtx,
) -> (Value, Vec<Diagnostic>) {
    let cached = ctx
        .config_cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(abs)
        .cloned();
    if let Some(v) = cached {
        return (v, Vec::new());
    }
    let (v, ds) = eval_body(m, file, &decl.body, block, inst);
    if ds.is_empty() && ferro_runtime::config_value::instance_independent(m.hir(file), &decl.body) {
        ctx.config_cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(abs.clone(), v.clone());
    }
    (v, ds)
}

/// What a completed step hands the coordinator: changes to state (journaled, then applied)
/// and events to announce once the changes before them are in the state.
pub(crate) enum Outcome {
    Change(Change),
    Report(Event),
}

/// The `id` an object is named by in progress lines ("Destroying... [id=…]").
fn id_of(v: &Value) -> Option<String> {
    v.get_attr("id")
        .and_then(|x| x.as_str())
        .map(str::to_string)
}

/// Run one step. `change` is the plan's change the step applies or destroys (the coordinator
/// hands it over with the step: apply owns the plan's changes and drops each once its last step
/// is done).
pub(crate) fn run_step(
    ctx: &StepCtx<'_>,
    step: &Step,
    change: Option<&ResourceInstanceChange>,
) -> (Vec<Outcome>, Vec<Diagnostic>, bool) {
    match (step, change) {
        (Step::Join, _) => (Vec::new(), Vec::new(), true),
        (Step::Apply(i) | Step::Destroy(i), Some(c)) => {
            let (ready, mut diags) = ctx.provider_ready(&c.provider);
            if !ready {
                (ctx.on_event)(Event::Failed {
                    addr: c.addr.to_string(),
                });
                return (Vec::new(), diags, false);
            }
            let (outcomes, ds, ok) = match step {
                Step::Apply(_) => apply_change(ctx, *i as usize, c),
                _ => destroy_change(ctx, *i as usize, c),
            };
            diags.extend(ds);
            (outcomes, diags, ok)
        }
        (Step::Output(j), _) => output(ctx, *j as usize),
        (Step::Apply(i) | Step::Destroy(i), None) => (
            Vec::new(),
            vec![
                Diagnostic::error("internal-error", "Internal error").with_detail(format!(
                    "ferro lost the plan's change {i} before its step ran. This is a bug in ferro."
                )),
            ],
            false,
        ),
    }
}

fn each_value(
    ctx: &StepCtx<'_>,
    m: &ModuleEval<'_>,
    file: ferro_db::SourceFile,
    decl: &ferro_hir::ResourceDecl,
    key: &InstanceKey,
) -> Option<Value> {
    let InstanceKey::Str(k) = key else {
        return None;
    };
    let fe = decl.for_each?;
    let abs = AbsResource {
        module: m.path().clone(),
        resource: decl.addr.clone(),
    };
    let mut cache = ctx.for_each_cache.lock().unwrap_or_else(|e| e.into_inner());
    if !cache.contains_key(&abs) {
        let (v, _) = m.eval(file, fe, &InstanceCtx::default());
        cache.insert(abs.clone(), ferro_runtime::scope::each_values(&v));
    }
    cache.get(&abs).and_then(|m| m.get(k).cloned())
}

/// A data source read that waited for apply.
fn read_data(
    ctx: &StepCtx<'_>,
    c: &ResourceInstanceChange,
) -> (Vec<Outcome>, Vec<Diagnostic>, bool) {
    let addr = c.addr.to_string();
    let res = c.addr.resource.resource.clone();
    let abs = c.addr.containing_resource();
    let key = c.addr.resource.key.clone();
    let mut diags = Vec::new();
    let failed = |mut diags: Vec<Diagnostic>, d: Option<Diagnostic>| {
        (ctx.on_event)(Event::Failed { addr: addr.clone() });
        diags.extend(d);
        (Vec::new(), diags, false)
    };
    let (Some(provider), Some(schema)) = (
        ctx.providers.for_instance(
            &c.provider,
            &c.addr.module,
            &c.addr.resource.resource,
            &c.addr.resource.key,
        ),
        ctx.providers.resource_schema(&c.provider, &res),
    ) else {
        return failed(
            diags,
            Some(
                Diagnostic::error("provider-unavailable", "Provider not available")
                    .with_detail(format!(
                        "The provider {} for {addr} is not available.",
                        c.provider
                    ))
                    .with_address(addr.clone()),
            ),
        );
    };
    let scope = ctx.tree.scope(&c.addr.module);
    let Some((m, item)) = scope
        .as_ref()
        .and_then(|m| Some((m, m.index.resources.get(&res)?)))
    else {
        return failed(
            diags,
            Some(
                Diagnostic::error("missing-configuration", "Resource configuration missing")
                    .with_detail(format!(
                        "The plan reads {addr}, but its configuration is missing."
                    ))
                    .with_address(addr.clone()),
            ),
        );
    };
    let decl = m.resource(*item);
    let decl = &*decl;
    let inst = InstanceCtx::for_key(&key, each_value(ctx, m, item.file, decl, &key));
    let (config, ds) = eval_body(m, item.file, &decl.body, &schema.block, &inst);
    let bad = ds.iter().any(Diagnostic::is_error);
    diags.extend(ds.into_iter().map(|d| d.with_address(addr.clone())));
    if bad {
        return failed(diags, None);
    }
    // A data source read before (its prior is in state) is named by what it was, as Terraform
    // names it ("Reading... [id=…]").
    (ctx.on_event)(Event::Started {
        addr: addr.clone(),
        action: Action::Read,
        id: id_of(&c.before.value()),
    });
    let started = Instant::now();
    let provider_name = c.provider.to_string();
    let at = ferro_runtime::lifecycle::InstanceRef {
        hir: m.hir(item.file),
        decl,
        schema,
        addr: &addr,
        provider_name: &provider_name,
    };
    let (marked, ds) = ferro_runtime::data::read_data(provider.as_ref(), &at, &config);
    diags.extend(ds);
    let Some(marked) = marked else {
        return failed(diags, None);
    };
    let obj = match encode_object(
        schema,
        &marked,
        &[],
        c.dependencies.clone(),
        false,
        false,
        Hold::when_read(m.holds_whole(&res)),
    ) {
        Ok(o) => o,
        Err(e) => {
            return failed(
                diags,
                Some(
                    Diagnostic::error("provider-invalid-data", "Provider produced invalid object")
                        .with_detail(format!("The object read for {addr} cannot be stored: {e}."))
                        .with_address(addr.clone()),
                ),
            )
        }
    };
    if m.reads(&res) {
        m.set_instance(&res, &key, mark_schema_sensitive(&schema.block, &marked));
    }
    let done = Event::Completed {
        addr,
        action: Action::Read,
        id: id_of(&marked),
        elapsed: started.elapsed(),
    };
    (
        vec![
            Outcome::Change(Change::SetCurrent {
                res: abs,
                provider: (*c.provider).clone(),
                key,
                obj: Some(obj),
            }),
            Outcome::Report(done),
        ],
        diags,
        true,
    )
}

fn apply_change(
    ctx: &StepCtx<'_>,
    index: usize,
    c: &ResourceInstanceChange,
) -> (Vec<Outcome>, Vec<Diagnostic>, bool) {
    if c.action == Action::Read {
        return read_data(ctx, c);
    }
    let addr = c.addr.to_string();
    let res = c.addr.resource.resource.clone();
    let abs = c.addr.containing_resource();
    let key = c.addr.resource.key.clone();
    let mut diags = Vec::new();
    let fail = |mut diags: Vec<Diagnostic>, outcomes: Vec<Outcome>, d: Diagnostic| {
        (ctx.on_event)(Event::Failed { addr: addr.clone() });
        diags.push(d);
        (outcomes, diags, false)
    };
    let (Some(provider), Some(schema)) = (
        ctx.providers.for_instance(
            &c.provider,
            &c.addr.module,
            &c.addr.resource.resource,
            &c.addr.resource.key,
        ),
        ctx.providers.resource_schema(&c.provider, &res),
    ) else {
        return fail(
            diags,
            Vec::new(),
            Diagnostic::error("provider-unavailable", "Provider not available")
                .with_detail(format!(
                    "The provider {} for {addr} is not available.",
                    c.provider
                ))
                .with_address(addr.clone()),
        );
    };
    let scope = ctx.tree.scope(&c.addr.module);
    let Some((m, item)) = scope
        .as_ref()
        .and_then(|m| Some((m, m.index.resources.get(&res)?)))
    else {
        return fail(
            diags,
            Vec::new(),
            Diagnostic::error("missing-configuration", "Resource configuration missing")
                .with_detail(format!(
                    "The plan applies {addr}, but its configuration is missing."
                ))
                .with_address(addr.clone()),
        );
    };
    let decl = m.resource(*item);
    let decl = &*decl;
    let inst = InstanceCtx::for_key(&key, each_value(ctx, m, item.file, decl, &key));
    let (config, mut ds) = instance_config(ctx, m, item.file, decl, &schema.block, &abs, &inst);
    if !ds.iter().any(Diagnostic::is_error) {
        // Preconditions are checked again with what apply has learned so far: one that was
        // unknown while planning may fail now, before anything is changed.
        ds.extend(ferro_runtime::conditions::check_conditions(
            m,
            item.file,
            &decl.lifecycle.preconditions,
            &inst,
            ferro_runtime::conditions::CheckKind::ResourcePrecondition,
            Some(&addr),
        ));
    }
    let failed = ds.iter().any(Diagnostic::is_error);
    diags.extend(ds.into_iter().map(|d| d.with_address(addr.clone())));
    if failed {
        (ctx.on_event)(Event::Failed { addr: addr.clone() });
        return (Vec::new(), diags, false);
    }
    let ty = schema.implied_type();
    let create = c.action != Action::Update;
    let before = c.before.value();
    let prior = if create {
        Value::null(ty.clone())
    } else {
        before.deep_unmark().0
    };
    let mut outcomes = Vec::new();
    if c.action == Action::CreateThenDelete {
        outcomes.push(Outcome::Change(Change::Depose {
            res: abs.clone(),
            key: key.clone(),
            deposed_key: ctx.priors.deposed_key(index),
        }));
    }
    let action_shown = if create {
        Action::Create
    } else {
        Action::Update
    };
    let started = Instant::now();
    // The final plan takes the lifecycle's steps again, now with the values learned so far:
    // ignore_changes against the prior object, the state's private data (not the initial
    // plan's), core's checks of the answer.
    let config = ferro_runtime::lifecycle::configured_value(
        &decl.lifecycle,
        &config,
        (!create).then_some(&before),
    );
    let (plain_cfg, _) = config.deep_unmark();
    let prior_private = if create {
        Vec::new()
    } else {
        ctx.priors.private(index)
    };
    let provider_name = c.provider.provider.to_string();
    let at = ferro_runtime::lifecycle::InstanceRef {
        hir: m.hir(item.file),
        decl,
        schema,
        addr: &addr,
        provider_name: &provider_name,
    };
    let prior_identity = if create { None } else { c.before_identity() };
    let (final_plan, ds) = ferro_runtime::lifecycle::plan_change(
        provider.as_ref(),
        &at,
        &prior,
        &config,
        &prior_private,
        prior_identity.as_ref(),
    );
    diags.extend(ds);
    let Some(final_plan) = final_plan else {
        (ctx.on_event)(Event::Failed { addr: addr.clone() });
        return (outcomes, diags, false);
    };
    let final_planned = final_plan.value.deep_unmark().0;
    // The final plan must keep what the user approved, whatever type system the provider
    // reports: Terraform relaxes only the initial plan's validity check and the apply result
    // check for legacy (SDKv2) providers, never this one.
    let errs = assert_compatible(&schema.block, &c.after.value(), &final_plan.value);
    if !errs.is_empty() {
        for err in errs {
            let detail = format!(
                "When expanding the plan for {addr} to include new values learned so far during apply, provider \"{}\" produced an invalid new value for {err}.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.",
                c.provider.provider,
            );
            diags.push(
                Diagnostic::error(
                    "provider-inconsistent-final-plan",
                    "Provider produced inconsistent final plan",
                )
                .with_detail(detail)
                .with_address(addr.clone()),
            );
        }
        (ctx.on_event)(Event::Failed { addr: addr.clone() });
        return (outcomes, diags, false);
    }
    // "Creating..." comes once the final plan has passed core's checks, as Terraform says it.
    (ctx.on_event)(Event::Started {
        addr: addr.clone(),
        action: action_shown,
        id: if create { None } else { id_of(&prior) },
    });
    let resp = provider.apply_resource_change(ApplyRequest {
        type_name: &res.ty,
        prior_state: &prior,
        planned_state: &final_planned,
        config: &plain_cfg,
        planned_private: &final_plan.private,
        planned_identity: final_plan.identity.as_ref(),
    });
    let mut errored = false;
    for d in &resp.diagnostics {
        errored |= d.severity == Severity::Error;
        diags.push(ferro_runtime::diagnostics::resource_diag(
            m.hir(item.file),
            d,
            &addr,
            decl,
        ));
    }
    // The parts the provider left as planned are the final plan's, not a second copy (and
    // so are the parts the final plan took from the configuration): state and the instance's
    // value take the new object.
    let identity_schema = provider.identity_schema(&res.ty);
    let mut new_identity = None;
    if let Some(v) = &resp.new_identity {
        let errs = ferro_runtime::identity::check_identity(
            v,
            identity_schema.as_ref(),
            true,
            &ferro_runtime::identity::IdentityAt {
                addr: &addr,
                provider_name: &provider_name,
                provider_type: res.implied_provider(),
            },
        );
        let invalid = !errs.is_empty();
        errored |= invalid;
        diags.extend(errs);
        if let Some(s) = identity_schema.as_ref().filter(|_| !invalid) {
            new_identity = ferro_runtime::identity::identity_for_state(v, s);
        }
    }
    let mut new_state = resp.new_state.clone().share_from(&final_planned);
    if !new_state.is_null() && !new_state.is_wholly_known() {
        diags.push(
            Diagnostic::error("provider-invalid-result", "Provider returned invalid result object after apply")
                .with_detail(format!("After the apply operation, provider \"{}\" still indicated an unknown value for {addr}. All values must be known after apply, so this is always a bug in the provider and should be reported in the provider's own repository. ferro will still save the other known object values in the state.", c.provider.provider))
                .with_address(addr.clone()),
        );
        errored = true;
        new_state = null_unknowns(&new_state);
    }
    if !errored {
        let wo = ferro_runtime::diagnostics::write_only_returned(
            &schema.block,
            &new_state,
            &c.provider.provider.to_string(),
            &addr,
            "after apply",
        );
        if !wo.is_empty() {
            // Nothing of a write-only value may be stored.
            new_state = schema.block.null_write_only(&new_state);
            diags.extend(wo);
            errored = true;
        }
    }
    if !errored && !resp.legacy_type_system {
        let errs = assert_compatible(&schema.block, &final_plan.value, &new_state);
        for err in &errs {
            diags.push(
                Diagnostic::error("provider-inconsistent-result", "Provider produced inconsistent result after apply")
                    .with_detail(format!("When applying changes to {addr}, provider \"{}\" produced an unexpected new value: {err}.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", c.provider.provider))
                    .with_address(addr.clone()),
            );
        }
        errored |= !errs.is_empty();
    }
    if new_state.is_null() {
        if !errored {
            diags.push(
                Diagnostic::error("provider-invalid-result", "Provider returned invalid result object after apply")
                    .with_detail(format!("The provider returned a null object for {addr} after {}, which is only valid for destroy.", if create { "create" } else { "update" }))
                    .with_address(addr.clone()),
            );
        }
        (ctx.on_event)(Event::Failed { addr: addr.clone() });
        return (outcomes, diags, false);
    }
    // Carry configuration sensitivity into the stored object.
    let marked = ferro_runtime::lifecycle::carry_marks(&new_state, &config);
    // A failed create (the provider returned an object with errors) leaves it tainted, and so
    // does a failed creation-time provisioner.
    let mut tainted = errored && create;
    if create && !errored {
        // A failed creation-time provisioner leaves the new object tainted.
        let ds = crate::provision::run_provisioners(
            m,
            item.file,
            decl,
            &ferro_runtime::conditions::with_self(&inst, &marked),
            crate::provision::When::Create,
            &addr,
            ctx.on_event,
        );
        if ds.iter().any(Diagnostic::is_error) {
            errored = true;
            tainted = true;
        }
        diags.extend(ds);
    }
    let mut postcondition_failed = false;
    if !errored && !decl.lifecycle.postconditions.is_empty() {
        let ds = ferro_runtime::conditions::check_conditions(
            m,
            item.file,
            &decl.lifecycle.postconditions,
            &ferro_runtime::conditions::with_self(&inst, &marked),
            ferro_runtime::conditions::CheckKind::ResourcePostcondition,
            Some(&addr),
        );
        let failed = ds.iter().any(Diagnostic::is_error);
        diags.extend(ds);
        if failed {
            // The object exists; it is kept, and the apply fails.
            errored = true;
            postcondition_failed = true;
        }
    }
    match encode_object(
        schema,
        &marked,
        &resp.private,
        c.dependencies.clone(),
        c.create_before_destroy,
        tainted,
        Hold::when_read(m.holds_whole(&res)),
    ) {
        Ok(mut obj) => {
            obj.skip_destroy = c.skip_destroy;
            obj.identity = new_identity;
            outcomes.push(Outcome::Change(Change::SetCurrent {
                res: abs.clone(),
                provider: (*c.provider).clone(),
                key: key.clone(),
                obj: Some(obj),
            }))
        }
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    "provider-invalid-result",
                    "Provider produced invalid object",
                )
                .with_detail(format!("The new object for {addr} cannot be stored: {e}."))
                .with_address(addr.clone()),
            );
            errored = true;
        }
    }
    if m.reads(&res) {
        m.set_instance(&res, &key, mark_schema_sensitive(&schema.block, &marked));
    }
    let completed = Event::Completed {
        addr: addr.clone(),
        action: action_shown,
        id: id_of(&new_state),
        elapsed: started.elapsed(),
    };
    if postcondition_failed {
        // The change itself completed (Terraform says so) before its postcondition failed.
        outcomes.push(Outcome::Report(completed));
        return (outcomes, diags, false);
    }
    if errored {
        (ctx.on_event)(Event::Failed { addr });
        return (outcomes, diags, false);
    }
    outcomes.push(Outcome::Report(completed));
    (outcomes, diags, true)
}

fn null_unknowns(v: &Value) -> Value {
    use ferro_value::ValueKind;
    match &v.kind {
        ValueKind::Unknown(t) => Value::null(t.clone()),
        ValueKind::Object(m) => Value::object(
            m.iter()
                .map(|(k, x)| (k.clone(), null_unknowns(x)))
                .collect(),
        )
        .with_marks(v.marks),
        _ => v.clone(),
    }
}

fn destroy_change(
    ctx: &StepCtx<'_>,
    index: usize,
    c: &ResourceInstanceChange,
) -> (Vec<Outcome>, Vec<Diagnostic>, bool) {
    let addr = c.addr.to_string();
    let res = c.addr.resource.resource.clone();
    let abs = c.addr.containing_resource();
    let key = c.addr.resource.key.clone();
    let mut diags = Vec::new();
    if res.mode == ferro_addrs::ResourceMode::Data {
        // Data sources are only forgotten; there is nothing to destroy.
        return (
            vec![Outcome::Change(Change::SetCurrent {
                res: abs,
                provider: (*c.provider).clone(),
                key,
                obj: None,
            })],
            diags,
            true,
        );
    }
    let Some(provider) = ctx.providers.for_instance(
        &c.provider,
        &c.addr.module,
        &c.addr.resource.resource,
        &c.addr.resource.key,
    ) else {
        diags.push(
            Diagnostic::error("provider-unavailable", "Provider not available")
                .with_detail(format!(
                    "The provider {} for {addr} is not available.",
                    c.provider
                ))
                .with_address(addr.clone()),
        );
        return (Vec::new(), diags, false);
    };
    let before = c.before.value();
    let (prior, _) = before.deep_unmark();
    let id = id_of(&prior);
    // Terraform names the deposed object when it starts destroying one.
    let shown = match (c.deposed(), c.action) {
        (Some(dk), _) => format!("{addr} (deposed object {dk})"),
        (None, Action::CreateThenDelete) => {
            format!("{addr} (deposed object {})", ctx.priors.deposed_key(index))
        }
        _ => addr.clone(),
    };
    (ctx.on_event)(Event::Started {
        addr: shown,
        action: Action::Delete,
        id: id.clone(),
    });
    let started = Instant::now();
    // Destroy-time provisioners run first, while the configuration still declares the resource
    // (or a `removed` block that destroys it has them); a failure keeps the object.
    let declared = ctx.tree.scope(&c.addr.module).and_then(|m| {
        let item = m.index.resources.get(&res).copied()?;
        let decl = m.resource(item).into_owned();
        Some((m, item.file, decl))
    });
    let found = declared.or_else(|| crate::provision::removed_provisioners(ctx.tree, &abs));
    if let Some((m, file, decl)) = found {
        if decl.provisioners.iter().any(|p| p.when_destroy) {
            let inst = InstanceCtx::for_key(&c.addr.resource.key, None);
            let ds = crate::provision::run_provisioners(
                &m,
                file,
                &decl,
                &ferro_runtime::conditions::with_self(&inst, &before),
                crate::provision::When::Destroy,
                &addr,
                ctx.on_event,
            );
            if ds.iter().any(Diagnostic::is_error) {
                diags.extend(ds);
                (ctx.on_event)(Event::Failed { addr: addr.clone() });
                return (Vec::new(), diags, false);
            }
            diags.extend(ds);
        }
    }
    let null = Value::null(prior.ty());
    // A delete's planned private data is the object's own (the plan may not carry it).
    let private = if c.planned_private.is_empty() {
        ctx.priors.private(index)
    } else {
        c.planned_private.to_vec()
    };
    let resp = provider.apply_resource_change(ApplyRequest {
        type_name: &res.ty,
        prior_state: &prior,
        planned_state: &null,
        config: &null,
        planned_private: &private,
        planned_identity: None,
    });
    let mut errored = false;
    for d in &resp.diagnostics {
        errored |= d.severity == Severity::Error;
        diags.push(ferro_runtime::diagnostics::provider_diag(d, &addr, None));
    }
    if !errored && !resp.new_state.is_null() {
        diags.push(
            Diagnostic::error(
                "provider-invalid-result",
                "Provider returned invalid result object after apply",
            )
            .with_detail(format!(
                "After applying a destroy for {addr}, the provider did not return a null object."
            ))
            .with_address(addr.clone()),
        );
        errored = true;
    }
    if errored {
        (ctx.on_event)(Event::Failed { addr });
        return (Vec::new(), diags, false);
    }
    let outcome = match (c.deposed(), c.action) {
        (Some(dk), _) => Outcome::Change(Change::RemoveDeposed {
            res: abs,
            key,
            deposed_key: dk.to_string(),
        }),
        (None, Action::CreateThenDelete) => Outcome::Change(Change::RemoveDeposed {
            res: abs,
            key,
            deposed_key: ctx.priors.deposed_key(index),
        }),
        (None, _) => Outcome::Change(Change::SetCurrent {
            res: abs,
            provider: (*c.provider).clone(),
            key,
            obj: None,
        }),
    };
    let done = Event::Completed {
        addr,
        action: Action::Delete,
        id,
        elapsed: started.elapsed(),
    };
    (vec![outcome, Outcome::Report(done)], diags, true)
}

fn output(ctx: &StepCtx<'_>, j: usize) -> (Vec<Outcome>, Vec<Diagnostic>, bool) {
    let oc = &ctx.plan.outputs[j];
    if oc.action == Action::Delete {
        return (
            vec![Outcome::Change(Change::SetOutput {
                name: oc.name.clone(),
                out: None,
            })],
            Vec::new(),
            true,
        );
    }
    let m = ctx.tree.root();
    let Some(item) = m.index.outputs.get(&oc.name) else {
        return (Vec::new(), Vec::new(), true);
    };
    let o = &m.hir(item.file).outputs[item.index];
    let Some(e) = o.value else {
        return (Vec::new(), Vec::new(), true);
    };
    // A value planned wholly known is the value: it is written as planned (this step runs
    // even when something it refers to failed); others are evaluated now.
    let (v, diags) = if crate::run::output_planned_known(oc) {
        (oc.after.clone(), Vec::new())
    } else {
        m.eval(item.file, e, &InstanceCtx::default())
    };
    if diags.iter().any(Diagnostic::is_error) {
        return (Vec::new(), diags, false);
    }
    let (plain, _) = v.deep_unmark();
    let ty = plain.ty();
    // A null output is not kept in state, as Terraform leaves it out.
    let out = json::value_to_json(&plain, &ty)
        .ok()
        .filter(|_| !plain.is_null())
        .map(|value| OutputState {
            value,
            ty: json::type_to_json(&ty),
            sensitive: o.sensitive,
        });
    (
        vec![Outcome::Change(Change::SetOutput {
            name: oc.name.clone(),
            out,
        })],
        diags,
        true,
    )
}
