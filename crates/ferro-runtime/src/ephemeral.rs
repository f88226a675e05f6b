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
use ferro_addrs::{AbsProviderConfig, AbsResource, AbsResourceInstance, InstanceKey};
use ferro_db::SourceFile;
use ferro_diag::Diagnostic;
use ferro_hir::ResourceDecl;
use ferro_plan::Expansion;
use ferro_provider::{Provider, Severity};
use ferro_value::convert::convert;
use ferro_value::schema::Schema;
use ferro_value::{Marks, Value};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

/// How the walk reports what it does with ephemeral resources: each operation's start, its
/// progress while it runs, and its end (the CLI shows Terraform's lines, or its JSON UI's
/// `ephemeral_op_*` messages).
pub type Report<'a> = &'a (dyn Fn(EphemeralEvent) + Sync);

/// What is done to an ephemeral resource instance (Terraform's `open`, `renew` and `close`
/// actions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EphemeralOp {
    Open,
    Renew,
    Close,
}

impl EphemeralOp {
    /// The action's name in Terraform's JSON UI.
    pub fn action(self) -> &'static str {
        match self {
            EphemeralOp::Open => "open",
            EphemeralOp::Renew => "renew",
            EphemeralOp::Close => "close",
        }
    }

    /// `Opening`: the start of Terraform's lines.
    pub fn verb(self) -> &'static str {
        match self {
            EphemeralOp::Open => "Opening",
            EphemeralOp::Renew => "Renewing",
            EphemeralOp::Close => "Closing",
        }
    }

    /// `Opening complete`, `Renewal errored`: the noun of the lines that end an operation.
    pub fn noun(self) -> &'static str {
        match self {
            EphemeralOp::Open => "Opening",
            EphemeralOp::Renew => "Renewal",
            EphemeralOp::Close => "Closing",
        }
    }
}

/// Where an operation is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EphemeralPhase {
    Start,
    /// Still running, this long after its start (every ten seconds).
    Progress(Duration),
    Complete(Duration),
    Errored(Duration),
    /// Not opened: its configuration is not known while planning (Terraform's `read`).
    Deferred,
}

/// One report: an instance, what is done to it, and where that is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EphemeralEvent {
    pub addr: AbsResourceInstance,
    pub op: EphemeralOp,
    pub phase: EphemeralPhase,
}

impl EphemeralEvent {
    /// The line of Terraform's human UI, if it has one (a failure has only its diagnostic).
    pub fn human_line(&self) -> Option<String> {
        let (addr, op) = (&self.addr, self.op);
        Some(match &self.phase {
            EphemeralPhase::Start => format!("{addr}: {}...", op.verb()),
            EphemeralPhase::Progress(d) => {
                let s = d.as_secs();
                format!(
                    "{addr}: Still {}... [{:02}m{:02}s elapsed]",
                    op.verb().to_lowercase(),
                    s / 60,
                    s % 60
                )
            }
            EphemeralPhase::Complete(d) => {
                format!("{addr}: {} complete after {}s", op.noun(), d.as_secs())
            }
            EphemeralPhase::Errored(_) => return None,
            EphemeralPhase::Deferred => format!("{addr}: Configuration unknown, deferring..."),
        })
    }
}

/// How often a running operation says it still runs (Terraform's UI timer).
const HEARTBEAT: Duration = Duration::from_secs(10);

/// One open instance: what renewing and closing it need.
struct Open {
    addr: AbsResourceInstance,
    type_name: String,
    provider: Arc<dyn Provider>,
    private: Vec<u8>,
    renew_at: Option<SystemTime>,
}

/// The ephemeral resource instances a phase has opened, until it closes them.
pub struct EphemeralSet<'r> {
    open: Mutex<Vec<Open>>,
    report: Option<Report<'r>>,
    heartbeat: Duration,
}

impl<'r> EphemeralSet<'r> {
    pub fn new(report: Option<Report<'r>>) -> Self {
        EphemeralSet {
            open: Mutex::new(Vec::new()),
            report,
            heartbeat: HEARTBEAT,
        }
    }

    fn say(&self, addr: &AbsResourceInstance, op: EphemeralOp, phase: EphemeralPhase) {
        if let Some(r) = self.report {
            r(EphemeralEvent {
                addr: addr.clone(),
                op,
                phase,
            });
        }
    }

    /// Run one operation `f` on `addr`, reporting its start, its progress every heartbeat
    /// while it runs, and its end (`failed` tells whether it failed).
    fn timed<T>(
        &self,
        addr: &AbsResourceInstance,
        op: EphemeralOp,
        f: impl FnOnce() -> T,
        failed: impl FnOnce(&T) -> bool,
    ) -> T {
        self.say(addr, op, EphemeralPhase::Start);
        let start = Instant::now();
        let result = match self.report {
            None => f(),
            Some(_) => std::thread::scope(|s| {
                let (done, wait) = std::sync::mpsc::channel::<()>();
                s.spawn(move || {
                    while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                        wait.recv_timeout(self.heartbeat)
                    {
                        self.say(addr, op, EphemeralPhase::Progress(start.elapsed()));
                    }
                });
                let result = f();
                drop(done);
                result
            }),
        };
        let elapsed = start.elapsed();
        let phase = if failed(&result) {
            EphemeralPhase::Errored(elapsed)
        } else {
            EphemeralPhase::Complete(elapsed)
        };
        self.say(addr, op, phase);
        result
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
            let resp = self.timed(
                &o.addr,
                EphemeralOp::Renew,
                || {
                    o.provider
                        .renew_ephemeral_resource(&o.type_name, &o.private)
                },
                |r| r.diagnostics.iter().any(|d| d.severity == Severity::Error),
            );
            let failed = resp
                .diagnostics
                .iter()
                .any(|d| d.severity == Severity::Error);
            let addr = o.addr.to_string();
            diags.extend(
                resp.diagnostics
                    .iter()
                    .map(|d| provider_diag(d, &addr, None)),
            );
            if let Some(p) = resp.private {
                o.private = p;
            }
            o.renew_at = if failed { None } else { resp.renew_at };
        }
        diags
    }

    /// Close every open instance, the last opened first.
    pub fn close_all(&self) -> Vec<Diagnostic> {
        let open = std::mem::take(&mut *self.open.lock().unwrap_or_else(|e| e.into_inner()));
        let mut diags = Vec::new();
        for o in open.into_iter().rev() {
            let ds = self.timed(
                &o.addr,
                EphemeralOp::Close,
                || {
                    o.provider
                        .close_ephemeral_resource(&o.type_name, &o.private)
                },
                |ds| ds.iter().any(|d| d.severity == Severity::Error),
            );
            let addr = o.addr.to_string();
            diags.extend(ds.iter().map(|d| provider_diag(d, &addr, None)));
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
        let addr = abs.instance(key.clone());
        let addr_s = addr.to_string();
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
            set.say(&addr, EphemeralOp::Open, EphemeralPhase::Deferred);
            deferred = true;
            values.push((key, unknown()));
            continue;
        }
        // The result is checked within the operation: an invalid one is its failure.
        let (resp, result) = set.timed(
            &addr,
            EphemeralOp::Open,
            || {
                let resp = provider.open_ephemeral_resource(&abs.resource.ty, &plain_cfg);
                let result = convert(&resp.result, &ty)
                    .ok()
                    .filter(|v| !v.is_null() && v.is_wholly_known());
                (resp, result)
            },
            |(resp, result)| {
                result.is_none()
                    || resp
                        .diagnostics
                        .iter()
                        .any(|d| d.severity == Severity::Error)
            },
        );
        let mut errored = false;
        for d in &resp.diagnostics {
            errored |= d.severity == Severity::Error;
            diags.push(resource_diag(hir, d, &addr_s, decl));
        }
        if errored {
            values.push((key, unknown()));
            continue;
        }
        let result = match result {
            Some(v) => v,
            None => {
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
                addr: addr.clone(),
                type_name: abs.resource.ty.to_string(),
                provider: provider.clone(),
                private: resp.private,
                renew_at: resp.renew_at,
            });
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

#[cfg(test)]
mod tests {
    use super::*;

    fn addr() -> AbsResourceInstance {
        let Ok(ferro_addrs::Target::Resource(mut r)) =
            ferro_addrs::parse_target("random_password.db")
        else {
            panic!("not a resource address");
        };
        r.resource.mode = ferro_addrs::ResourceMode::Ephemeral;
        r.instance(InstanceKey::None)
    }

    #[test]
    fn a_long_operation_reports_its_progress_then_its_end() {
        let seen = Mutex::new(Vec::new());
        let report = |e: EphemeralEvent| seen.lock().unwrap().push(e);
        let mut set = EphemeralSet::new(Some(&report));
        set.heartbeat = Duration::from_millis(20);
        let a = addr();
        let out = set.timed(
            &a,
            EphemeralOp::Renew,
            || {
                std::thread::sleep(Duration::from_millis(110));
                7
            },
            |_| false,
        );
        assert_eq!(out, 7);
        let seen = seen.lock().unwrap().clone();
        assert_eq!(seen.first().map(|e| &e.phase), Some(&EphemeralPhase::Start));
        assert!(matches!(
            seen.last().map(|e| &e.phase),
            Some(EphemeralPhase::Complete(_))
        ));
        let progress = seen
            .iter()
            .filter(|e| matches!(e.phase, EphemeralPhase::Progress(_)))
            .count();
        assert!(progress >= 2, "{seen:?}");
        assert_eq!(
            seen[1].human_line().as_deref(),
            Some("ephemeral.random_password.db: Still renewing... [00m00s elapsed]")
        );
        assert_eq!(
            seen[0].human_line().as_deref(),
            Some("ephemeral.random_password.db: Renewing...")
        );
    }

    #[test]
    fn a_failed_operation_reports_an_error_and_no_human_line() {
        let seen = Mutex::new(Vec::new());
        let report = |e: EphemeralEvent| seen.lock().unwrap().push(e);
        let set = EphemeralSet::new(Some(&report));
        set.timed(&addr(), EphemeralOp::Open, || (), |_| true);
        let seen = seen.lock().unwrap().clone();
        assert_eq!(seen.len(), 2);
        assert!(matches!(seen[1].phase, EphemeralPhase::Errored(_)));
        assert_eq!(seen[1].human_line(), None);
    }
}
