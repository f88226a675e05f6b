//! The machine-readable UI of `plan -json`, `apply -json`, `refresh -json` and `destroy -json`:
//! Terraform 1.0's `terraform.ui` messages (UI version 0.1.0), one JSON object per line on
//! standard output: `version` first, then `planned_change`s (and ferro's `deferred_change`s)
//! and a `change_summary`, the hooks of each
//! step as it runs (`apply_start`, `apply_complete`, `apply_errored`), what is done to
//! ephemeral resources (`ephemeral_op_start`, `_progress`, `_complete`, `_errored`, while
//! planning too), the final summary and
//! `outputs`, and every diagnostic as a `diagnostic` message.
//!
//! While a command runs with `-json`, [`enable`] makes the shared diagnostic printers
//! (`print_diags`, `plain_error`) write `diagnostic` messages instead of rendered text. The
//! switch is per thread: `ferro_cli::run` may run on several threads at once (the tests do).

use ferro_addrs::{AbsResourceInstance, InstanceKey};
use ferro_diag::{Diagnostic, Severity, SourceLookup};
use ferro_plan::{Action, ActionReason, Plan};
use serde_json::{json, Map, Value};
use std::cell::Cell;
use std::io::Write;

thread_local! {
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
}

/// The JSON UI is on for this thread until this is dropped.
pub struct Enabled(());

impl Drop for Enabled {
    fn drop(&mut self) {
        ACTIVE.with(|a| a.set(false));
    }
}

pub fn enable() -> Enabled {
    ACTIVE.with(|a| a.set(true));
    Enabled(())
}

pub fn active() -> bool {
    ACTIVE.with(Cell::get)
}

/// Terraform's `@timestamp`: RFC 3339 in UTC with microseconds.
fn timestamp() -> String {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = d.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (year, month, day) = ferro_value::civil::civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_micros()
    )
}

/// One message: the `@` members, then the message's own members and `type`, in name order
/// (as Terraform's logger writes them).
pub fn emit(
    out: &mut dyn Write,
    level: &str,
    message: &str,
    kind: &str,
    fields: Vec<(&str, Value)>,
) {
    let mut m = Map::new();
    m.insert("@level".into(), level.into());
    m.insert("@message".into(), message.into());
    m.insert("@module".into(), "terraform.ui".into());
    m.insert("@timestamp".into(), timestamp().into());
    let mut rest: Vec<(&str, Value)> = fields;
    rest.push(("type", kind.into()));
    rest.sort_by(|a, b| a.0.cmp(b.0));
    for (k, v) in rest {
        m.insert(k.into(), v);
    }
    let _ = writeln!(out, "{}", Value::Object(m));
    let _ = out.flush();
}

/// The first message of every run.
pub fn version(out: &mut dyn Write) {
    emit(
        out,
        "info",
        &format!("Terraform {}", ferro_state::WRITER_VERSION),
        "version",
        vec![
            ("terraform", ferro_state::WRITER_VERSION.into()),
            ("ui", "0.1.0".into()),
        ],
    );
}

pub fn diagnostics(out: &mut dyn Write, diags: &[Diagnostic], sources: &dyn SourceLookup) {
    for d in diags {
        let (level, word) = match d.severity {
            Severity::Error => ("error", "Error"),
            Severity::Warning => ("warn", "Warning"),
        };
        emit(
            out,
            level,
            &format!("{word}: {}", d.summary),
            "diagnostic",
            vec![("diagnostic", crate::validate_json::diagnostic(d, sources))],
        );
    }
}

/// A resource instance as the UI names it.
fn resource(addr: &AbsResourceInstance) -> Value {
    let r = &addr.resource.resource;
    let key = match &addr.resource.key {
        InstanceKey::None => Value::Null,
        InstanceKey::Int(i) => json!(i),
        InstanceKey::Str(s) => json!(s),
    };
    json!({
        "addr": addr.to_string(),
        "module": addr.module.to_string(),
        "resource": addr.resource.to_string(),
        "implied_provider": r.implied_provider(),
        "resource_type": &*r.ty,
        "resource_name": &*r.name,
        "resource_key": key,
    })
}

/// The resource an apply event names (its text address; a deposed object's suffix dropped).
fn resource_of_event(addr: &str) -> Option<(AbsResourceInstance, Value)> {
    let plain = addr.split(" (deposed object").next().unwrap_or(addr);
    match ferro_addrs::parse_target(plain).ok()? {
        ferro_addrs::Target::Instance(i) => {
            let v = resource(&i);
            Some((i, v))
        }
        ferro_addrs::Target::Resource(r) => {
            let i = r.instance(InstanceKey::None);
            let v = resource(&i);
            Some((i, v))
        }
        ferro_addrs::Target::Module(_) => None,
    }
}

fn action_name(a: Action) -> &'static str {
    match a {
        Action::Create => "create",
        Action::Read => "read",
        Action::Update => "update",
        Action::Delete => "delete",
        Action::DeleteThenCreate | Action::CreateThenDelete | Action::ForgetThenCreate => "replace",
        Action::NoOp => "noop",
    }
}

/// A `planned_change` for every change the plan makes, by address.
pub fn planned_changes(out: &mut dyn Write, plan: &Plan) {
    let mut changes: Vec<_> = plan
        .changes
        .iter()
        .filter(|c| c.action != Action::NoOp)
        // A data source leaving state is no change (Terraform neither lists nor counts it).
        .filter(|c| {
            !(c.action == Action::Delete
                && c.addr.resource.resource.mode == ferro_addrs::ResourceMode::Data)
        })
        .collect();
    changes.sort_by(|a, b| (&a.addr, a.deposed()).cmp(&(&b.addr, b.deposed())));
    for c in changes {
        let action = action_name(c.action);
        let mut change = json!({ "resource": resource(&c.addr), "action": action });
        if let Some(reason) = c.reason().and_then(change_reason) {
            change["reason"] = json!(reason);
        }
        emit(
            out,
            "info",
            &format!("{}: Plan to {action}", c.addr),
            "planned_change",
            vec![("change", change)],
        );
    }
}

/// A `deferred_change` (ferro's own message; Terraform's UI says nothing of deferred changes)
/// for every change a partial plan (`-allow-deferral`) leaves for a later plan, by address:
/// the resource (its `addr` and `module` with Terraform's wildcard key `[*]` where instances
/// are not known), the action as far as it could be planned, and the reason as `show -json`'s
/// `deferred_changes` names it. A no-op, as in the human plan, is not listed.
pub fn deferred_changes(out: &mut dyn Write, plan: &Plan) {
    for d in plan
        .deferred
        .iter()
        .filter(|d| d.change.action != Action::NoOp)
    {
        let action = action_name(d.change.action);
        let mut res = resource(&d.change.addr);
        res["addr"] = json!(d.address);
        res["module"] = json!(d.module_address);
        emit(
            out,
            "info",
            &format!(
                "{}: Plan to {action} deferred ({})",
                d.address,
                d.reason.explanation()
            ),
            "deferred_change",
            vec![(
                "change",
                json!({ "resource": res, "action": action, "reason": d.reason.json_name() }),
            )],
        );
    }
}

/// The `reason` of a `planned_change`, as Terraform names it. Terraform 1.0.3 gives reasons
/// for replacements only (`replace_triggered_by` is a later Terraform's name for a reason 1.0
/// cannot have); a data source read gets none, as in 1.0.3.
fn change_reason(r: ActionReason) -> Option<&'static str> {
    match r {
        ActionReason::ReplaceBecauseTainted => Some("tainted"),
        ActionReason::ReplaceByRequest => Some("requested"),
        ActionReason::ReplaceBecauseCannotUpdate => Some("cannot_update"),
        ActionReason::ReplaceByTriggers => Some("replace_triggered_by"),
        ActionReason::ReadBecauseConfigUnknown
        | ActionReason::ReadBecauseDependencyPending
        | ActionReason::ForgotBecauseLifecycleDestroyInConfig
        | ActionReason::ForgotBecauseLifecycleDestroyInState => None,
    }
}

/// What a run changed (or plans to): `operation` is `plan`, `apply` or `destroy`.
pub fn change_summary(
    out: &mut dyn Write,
    operation: &str,
    (add, change, remove): (usize, usize, usize),
) {
    let message = match operation {
        "plan" => format!("Plan: {add} to add, {change} to change, {remove} to destroy."),
        "destroy" => format!("Destroy complete! Resources: {remove} destroyed."),
        _ => {
            format!("Apply complete! Resources: {add} added, {change} changed, {remove} destroyed.")
        }
    };
    emit(
        out,
        "info",
        &message,
        "change_summary",
        vec![(
            "changes",
            json!({ "add": add, "change": change, "remove": remove, "operation": operation }),
        )],
    );
}

/// When each running step started and what it does, by address: an `apply_errored` message
/// says what failed and after how long.
#[derive(Default)]
pub struct Started(
    std::sync::Mutex<std::collections::HashMap<String, (Action, std::time::Instant)>>,
);

fn hook_message(
    out: &mut dyn Write,
    addr: &str,
    message: &str,
    kind: &str,
    fields: Vec<(&str, Value)>,
) {
    let Some((_, resource)) = resource_of_event(addr) else {
        return;
    };
    let mut obj = Map::new();
    obj.insert("resource".into(), resource);
    for (k, v) in fields {
        obj.insert(k.into(), v);
    }
    emit(
        out,
        "info",
        message,
        kind,
        vec![("hook", Value::Object(obj))],
    );
}

/// An object the plan refreshed: `refresh_start` and `refresh_complete`, as Terraform reports
/// each refresh (ferro tells of it once it is done, in the walk's order).
pub fn refresh(out: &mut dyn Write, addr: &AbsResourceInstance, id: Option<(&str, &str)>) {
    let addr = addr.to_string();
    let suffix = crate::id_suffix(id);
    let fields = || {
        id.map(|(k, v)| vec![("id_key", json!(k)), ("id_value", json!(v))])
            .unwrap_or_default()
    };
    hook_message(
        out,
        &addr,
        &format!("{addr}: Refreshing state...{suffix}"),
        "refresh_start",
        fields(),
    );
    hook_message(
        out,
        &addr,
        &format!("{addr}: Refresh complete{suffix}"),
        "refresh_complete",
        fields(),
    );
}

/// An apply event as a hook message (`text` is the human line, the message of most).
pub fn event(out: &mut dyn Write, e: &ferro_exec::Event, text: &str, started: &Started) {
    use ferro_exec::{Event, ProvisionPhase};
    let mut started = started.0.lock().unwrap_or_else(|e| e.into_inner());
    match e {
        Event::Started { addr, action, id } => {
            started.insert(addr.clone(), (*action, std::time::Instant::now()));
            let mut h = vec![("action", json!(action_name(*action)))];
            if let Some(id) = id {
                h.push(("id_key", json!("id")));
                h.push(("id_value", json!(id)));
            }
            // Terraform 1.0.3's JSON view says "Refreshing" of a data resource read during
            // apply (its human view says "Reading").
            let text = match (action, id) {
                (Action::Read, Some(id)) => format!("{addr}: Refreshing... [id={id}]"),
                (Action::Read, None) => format!("{addr}: Refreshing..."),
                _ => text.to_string(),
            };
            hook_message(out, addr, &text, "apply_start", h);
        }
        Event::Completed {
            addr,
            action,
            id,
            elapsed,
        } => {
            started.remove(addr);
            let mut h = vec![("action", json!(action_name(*action)))];
            if let Some(id) = id.as_ref().filter(|_| *action != Action::Delete) {
                h.push(("id_key", json!("id")));
                h.push(("id_value", json!(id)));
            }
            h.push(("elapsed_seconds", json!(elapsed.as_secs())));
            let text = match (action, id) {
                (Action::Read, Some(id)) => format!(
                    "{addr}: Refresh complete after {}s [id={id}]",
                    elapsed.as_secs()
                ),
                (Action::Read, None) => {
                    format!("{addr}: Refresh complete after {}s", elapsed.as_secs())
                }
                _ => text.to_string(),
            };
            hook_message(out, addr, &text, "apply_complete", h);
        }
        // A step that failed before it started (its final plan, say) has only its
        // diagnostic, as in Terraform.
        Event::Failed { addr } => {
            let Some((action, at)) = started.remove(addr) else {
                return;
            };
            let secs = at.elapsed().as_secs();
            let verb = match action {
                Action::Create => "Creation",
                Action::Delete => "Destruction",
                Action::Read => "Refresh",
                _ => "Modifications",
            };
            hook_message(
                out,
                addr,
                &format!("{addr}: {verb} errored after {secs}s"),
                "apply_errored",
                vec![
                    ("action", json!(action_name(action))),
                    ("elapsed_seconds", json!(secs)),
                ],
            );
        }
        Event::Provision {
            addr,
            provisioner,
            phase,
        } => {
            let p = ("provisioner", json!(provisioner));
            match phase {
                ProvisionPhase::Start => hook_message(out, addr, text, "provision_start", vec![p]),
                ProvisionPhase::Output(line) => hook_message(
                    out,
                    addr,
                    &format!("{addr}: ({provisioner}): {line}"),
                    "provision_progress",
                    vec![p, ("output", json!(line))],
                ),
                ProvisionPhase::Complete => hook_message(
                    out,
                    addr,
                    &format!("{addr}: ({provisioner}) Provisioning complete"),
                    "provision_complete",
                    vec![p],
                ),
                ProvisionPhase::Errored => hook_message(
                    out,
                    addr,
                    &format!("{addr}: ({provisioner}) Provisioning errored"),
                    "provision_errored",
                    vec![p],
                ),
            }
        }
        Event::Ephemeral(e) => ephemeral(out, e),
    }
}

/// Terraform's way of writing a duration (Go's): `0s`, `10s`, `1m4s`, `1h0m5s`.
fn go_duration(d: std::time::Duration) -> String {
    let s = d.as_secs();
    match (s / 3600, s % 3600 / 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, min, sec) => format!("{min}m{sec}s"),
        (h, min, sec) => format!("{h}h{min}m{sec}s"),
    }
}

/// What is done to an ephemeral resource instance, as Terraform's `ephemeral_op_start`,
/// `ephemeral_op_progress`, `ephemeral_op_complete` and `ephemeral_op_errored` messages. An
/// instance left unopened while planning (its configuration unknown) has none, as in
/// Terraform.
pub fn ephemeral(out: &mut dyn Write, e: &ferro_exec::EphemeralEvent) {
    use ferro_exec::EphemeralPhase;
    let (addr, op) = (&e.addr, e.op);
    let action = ("action", json!(op.action()));
    let (kind, message, fields) = match &e.phase {
        EphemeralPhase::Start => (
            "ephemeral_op_start",
            format!("{addr}: {}...", op.verb()),
            vec![action],
        ),
        EphemeralPhase::Progress(d) => (
            "ephemeral_op_progress",
            format!(
                "{addr}: Still {}... [{} elapsed]",
                op.verb().to_lowercase(),
                go_duration(*d)
            ),
            vec![action, ("elapsed_seconds", json!(d.as_secs()))],
        ),
        EphemeralPhase::Complete(d) => (
            "ephemeral_op_complete",
            format!("{addr}: {} complete after {}", op.noun(), go_duration(*d)),
            vec![action, ("elapsed_seconds", json!(d.as_secs()))],
        ),
        EphemeralPhase::Errored(d) => (
            "ephemeral_op_errored",
            format!("{addr}: {} errored after {}", op.noun(), go_duration(*d)),
            vec![action, ("elapsed_seconds", json!(d.as_secs()))],
        ),
        EphemeralPhase::Deferred => return,
    };
    let mut obj = Map::new();
    obj.insert("resource".into(), resource(addr));
    for (k, v) in fields {
        obj.insert(k.into(), v);
    }
    emit(
        out,
        "info",
        &message,
        kind,
        vec![("hook", Value::Object(obj))],
    );
}

/// The root module's outputs after an apply, values included (sensitive ones too, marked).
pub fn outputs(out: &mut dyn Write, state: &ferro_state::State) {
    let mut all = Map::new();
    for (name, o) in &state.outputs {
        all.insert(
            name.clone(),
            json!({ "sensitive": o.sensitive, "type": o.ty, "value": o.value }),
        );
    }
    emit(
        out,
        "info",
        &format!("Outputs: {}", all.len()),
        "outputs",
        vec![("outputs", Value::Object(all))],
    );
}
