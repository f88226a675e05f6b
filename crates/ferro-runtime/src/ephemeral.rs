//! Ephemeral resources (`ephemeral "TYPE" "NAME"`, Terraform 1.10), the same for planning and
//! apply: each instance is opened when the walk reaches it and its configuration is known
//! (OpenEphemeralResource), its result is marked ephemeral (so it can configure providers and
//! feed other ephemeral values, never state, a plan file or an output that is not ephemeral),
//! renewed when its provider asked to be (RenewEphemeralResource) and closed at the end of the
//! phase (CloseEphemeralResource). Nothing of it is recorded anywhere.

use crate::conditions::{check_conditions, with_self, CheckKind};
use crate::config_value::{eval_body, mark_schema_sensitive};
use crate::diagnostics::{provider_diag, resource_diag};
use crate::lifecycle::carry_marks;
use crate::providers::Providers;
use crate::scope::{InstanceCtx, ModuleEval};
use ferro_addrs::{AbsProviderConfig, AbsResource, InstanceKey};
use ferro_db::SourceFile;
use ferro_diag::Diagnostic;
use ferro_hir::ResourceDecl;
use ferro_plan::Expansion;
use ferro_provider::{Provider, Severity};
use ferro_value::convert::convert;
use ferro_value::schema::Schema;
use ferro_value::{Marks, Value};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime};

/// How the walk reports what it does with ephemeral resources: one line of Terraform's UI
/// (`ephemeral.T.N: Opening...`) at a time.
pub type Report<'a> = &'a (dyn Fn(String) + Sync);

/// One open instance: what renewing and closing it need.
struct Open {
    addr: String,
    type_name: String,
    provider: Arc<dyn Provider>,
    private: Vec<u8>,
    renew_at: Option<SystemTime>,
}

/// The ephemeral resource instances a phase has opened, until it closes them.
pub struct EphemeralSet<'r> {
    open: Mutex<Vec<Open>>,
    report: Option<Report<'r>>,
}

impl<'r> EphemeralSet<'r> {
    pub fn new(report: Option<Report<'r>>) -> Self {
        EphemeralSet {
            open: Mutex::new(Vec::new()),
            report,
        }
    }

    fn say(&self, line: String) {
        if let Some(r) = self.report {
            r(line);
        }
    }

    /// Renew every open instance whose renewal time has come.
    pub fn renew_due(&self) -> Vec<Diagnostic> {
        let now = SystemTime::now();
        let mut diags = Vec::new();
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        for o in open.iter_mut() {
            if o.renew_at.is_none_or(|t| t > now) {
                continue;
            }
            self.say(format!("{}: Renewing...", o.addr));
            let start = Instant::now();
            let resp = o
                .provider
                .renew_ephemeral_resource(&o.type_name, &o.private);
            let failed = resp
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error);
            diags.extend(
                resp.diagnostics
                    .iter()
                    .map(|d| provider_diag(d, &o.addr, None)),
            );
            if let Some(p) = resp.private {
                o.private = p;
            }
            o.renew_at = if failed { None } else { resp.renew_at };
            if !failed {
                self.say(format!(
                    "{}: Renewal complete after {}s",
                    o.addr,
                    start.elapsed().as_secs()
                ));
            }
        }
        diags
    }

    /// Close every open instance, the last opened first.
    pub fn close_all(&self) -> Vec<Diagnostic> {
        let open = std::mem::take(&mut *self.open.lock().unwrap_or_else(|e| e.into_inner()));
        let mut diags = Vec::new();
        for o in open.into_iter().rev() {
            self.say(format!("{}: Closing...", o.addr));
            let start = Instant::now();
            let ds = o
                .provider
                .close_ephemeral_resource(&o.type_name, &o.private);
            let failed = ds.iter().any(|d| d.severity == Severity::Error);
            diags.extend(ds.iter().map(|d| provider_diag(d, &o.addr, None)));
            if !failed {
                self.say(format!(
                    "{}: Closing complete after {}s",
                    o.addr,
                    start.elapsed().as_secs()
                ));
            }
        }
        diags
    }
}

impl Drop for EphemeralSet<'_> {
    /// A phase that ended early (an error, a panic) still closes what it opened.
    fn drop(&mut self) {
        let _ = self.close_all();
    }
}

/// A value as ephemeral: the object and each of its attributes marked, so that every value
/// taken from it carries the mark.
pub fn mark_ephemeral(v: Value) -> Value {
    let v = match v.as_entries() {
        Some(attrs) => {
            let marks = v.marks;
            Value::object(
                attrs
                    .iter()
                    .map(|(k, a)| (k.clone(), a.clone().with_marks(Marks::EPHEMERAL)))
                    .collect(),
            )
            .with_marks(marks)
        }
        None => v,
    };
    v.with_marks(Marks::EPHEMERAL)
}

/// One ephemeral resource of module instance `m`, with the instances `keys` its expansion
/// gives: each opened (when its configuration is known) and its result set as the resource's
/// value in `m`. The diagnostics say what failed; the flag, whether an instance was left
/// unopened because its configuration is not known yet.
#[allow(clippy::too_many_arguments)]
pub fn open_resource(
    m: &ModuleEval<'_>,
    file: SourceFile,
    decl: &ResourceDecl,
    abs: &AbsResource,
    cfg: &Arc<AbsProviderConfig>,
    schema: &Schema,
    providers: &Providers,
    set: &EphemeralSet<'_>,
    expansion: Expansion,
    keys: Vec<(InstanceKey, Option<Value>)>,
) -> (Vec<Diagnostic>, bool) {
    let hir = m.hir(file);
    let mut diags = Vec::new();
    let ty = schema.implied_type();
    let unknown = || mark_ephemeral(Value::unknown(ty.clone()));
    let mut values: Vec<(InstanceKey, Value)> = Vec::with_capacity(keys.len());
    let mut deferred = false;
    for (key, each_value) in keys {
        let inst = InstanceCtx::for_key(&key, each_value);
        let addr_s = abs.instance(key.clone()).to_string();
        // The instance of a `for_each` provider configuration it names (OpenTofu 1.9).
        let cfg = match crate::provider_instances::instance_provider(
            m, file, decl, cfg, &inst, providers, &addr_s,
        ) {
            Ok(cfg) => cfg,
            Err(ds) => {
                diags.extend(ds);
                values.push((key, unknown()));
                continue;
            }
        };
        let Some(provider) = providers
            .for_instance(&cfg, &abs.module, &abs.resource, &key)
            .cloned()
        else {
            values.push((key, unknown()));
            continue;
        };
        let (config, mut ds) = eval_body(m, file, &decl.body, &schema.block, &inst);
        ds.extend(check_conditions(
            m,
            file,
            &decl.lifecycle.preconditions,
            &inst,
            CheckKind::ResourcePrecondition,
            Some(&addr_s),
        ));
        let failed = ds.iter().any(Diagnostic::is_error);
        diags.extend(ds.into_iter().map(|d| {
            if d.address.is_none() {
                d.with_address(addr_s.clone())
            } else {
                d
            }
        }));
        if failed {
            values.push((key, unknown()));
            continue;
        }
        let (plain_cfg, _) = config.deep_unmark();
        let mut invalid = false;
        for d in provider.validate_ephemeral_resource_config(&abs.resource.ty, &plain_cfg) {
            invalid |= d.severity == Severity::Error;
            diags.push(resource_diag(hir, &d, &addr_s, decl));
        }
        if invalid {
            values.push((key, unknown()));
            continue;
        }
        if !plain_cfg.is_wholly_known() {
            // Not opened: what refers to it is unknown too, until apply opens it.
            set.say(format!("{addr_s}: Configuration unknown, deferring..."));
            deferred = true;
            values.push((key, unknown()));
            continue;
        }
        set.say(format!("{addr_s}: Opening..."));
        let start = Instant::now();
        let resp = provider.open_ephemeral_resource(&abs.resource.ty, &plain_cfg);
        let mut errored = false;
        for d in &resp.diagnostics {
            errored |= d.severity == Severity::Error;
            diags.push(resource_diag(hir, d, &addr_s, decl));
        }
        if errored {
            values.push((key, unknown()));
            continue;
        }
        let result = match convert(&resp.result, &ty) {
            Ok(v) if !v.is_null() && v.is_wholly_known() => v,
            Ok(_) | Err(_) => {
                diags.push(
                    Diagnostic::error("provider-invalid-ephemeral", "Provider produced invalid object")
                        .with_detail(format!("Provider {:?} produced an invalid result for {addr_s}: it must be a wholly known object of the ephemeral resource's schema.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", cfg.provider.to_string()))
                        .with_address(addr_s.clone()),
                );
                values.push((key, unknown()));
                continue;
            }
        };
        set.open
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Open {
                addr: addr_s.clone(),
                type_name: abs.resource.ty.to_string(),
                provider: provider.clone(),
                private: resp.private,
                renew_at: resp.renew_at,
            });
        set.say(format!(
            "{addr_s}: Opening complete after {}s",
            start.elapsed().as_secs()
        ));
        let value = mark_ephemeral(mark_schema_sensitive(
            &schema.block,
            &carry_marks(&result, &config),
        ));
        diags.extend(check_conditions(
            m,
            file,
            &decl.lifecycle.postconditions,
            &with_self(&inst, &value),
            CheckKind::ResourcePostcondition,
            Some(&addr_s),
        ));
        values.push((key, value));
    }
    let value = match expansion {
        Expansion::Single | Expansion::Enabled => values
            .pop()
            .map(|(_, v)| v)
            .unwrap_or_else(|| Value::null(ty.clone())),
        Expansion::Count => Value::tuple(values.into_iter().map(|(_, v)| v).collect()),
        Expansion::ForEach => Value::object(
            values
                .into_iter()
                .map(|(k, v)| {
                    let name = match k {
                        InstanceKey::Str(s) => s,
                        _ => String::new(),
                    };
                    (name, v)
                })
                .collect(),
        ),
    };
    m.set_resource(abs.resource.clone(), value.with_marks(Marks::EPHEMERAL));
    (diags, deferred)
}
