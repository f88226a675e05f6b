//! Renderings of plans and states for people (Terraform's human plan format) and for tools
//! (`show -json`).

mod deferred;
mod diff;
pub mod graph;
pub mod graph_dot;
mod json;
mod json_config;
pub mod json_ui;
mod pen;
pub mod validate_json;
pub mod values;

pub use json::{plan_json, state_json};

use diff::DiffPrinter;
use ferro_addrs::ResourceMode;
use ferro_plan::{Action, ActionReason, Plan, PlanMode, ResourceInstanceChange};
use ferro_runtime::config_value::mark_schema_sensitive;
use ferro_runtime::statecodec::apply_sensitive_paths;
use ferro_runtime::Providers;
use ferro_state::{ObjectState, State};
use ferro_value::schema::{Attribute, Block, Schema};
use ferro_value::{Type, Value};
pub use pen::word_wrap;
use pen::Pen;

/// Columns prose is wrapped at (Terraform's default when the output is not a terminal).
const COLUMNS: usize = 78;

/// Decode a state object against its schema, with the sensitive marks state recorded.
pub fn decode_object(o: &ObjectState, schema: &Schema) -> Option<Value> {
    let v = o.attributes.to_value(&schema.implied_type()).ok()?;
    Some(apply_sensitive_paths(v, &o.sensitive_attributes))
}

/// Resource changes in address order (deposed objects after the current one).
pub fn sorted_changes(plan: &Plan) -> Vec<&ResourceInstanceChange> {
    let mut v: Vec<&ResourceInstanceChange> = plan.changes.iter().map(|c| &**c).collect();
    // Unstable: no two changes have one address and deposed key (and a plan's are sorted).
    v.sort_unstable_by(|a, b| (&a.addr, a.deposed()).cmp(&(&b.addr, b.deposed())));
    v
}

/// The schema of the resource type a change is for.
pub fn schema_block<'a>(providers: &'a Providers, c: &ResourceInstanceChange) -> Option<&'a Block> {
    providers
        .resource_schema(&c.provider, &c.addr.resource.resource)
        .map(|s| &s.block)
}

/// The three-character action symbol in front of a resource block.
fn action_symbol(a: Action) -> &'static str {
    match a {
        Action::DeleteThenCreate => "[red]-[reset]/[green]+[reset]",
        Action::CreateThenDelete => "[green]+[reset]/[red]-[reset]",
        // OpenTofu's, two columns wider than the others.
        Action::ForgetThenCreate => "  [red].[reset]/[green]+[reset]",
        Action::Create => "  [green]+[reset]",
        Action::Delete => "  [red]-[reset]",
        Action::Read => " [cyan]<=[reset]",
        Action::Update => "  [yellow]~[reset]",
        Action::NoOp => "   ",
    }
}

/// What else the plan says of a change besides its action.
#[derive(Default, Clone, Copy)]
struct Notes<'a> {
    /// The address state had before a `moved` block.
    moved_from: Option<&'a ferro_addrs::AbsResourceInstance>,
    /// The id an `import` block imports the object by.
    import_id: Option<&'a str>,
    /// Its configuration was generated (`plan -generate-config-out`).
    generated: bool,
    /// A `removed` block drops the object from state without destroying it.
    forget: bool,
}

/// One resource instance change: the `# addr will be …` header and the block diff.
fn resource_change(
    c: &ResourceInstanceChange,
    schema: &Block,
    pen: Pen,
    notes: Notes<'_>,
) -> String {
    let moved_from = notes.moved_from;
    let mut out = String::new();
    let mut addr = c.addr.to_string();
    if let Some(k) = c.deposed() {
        addr = format!("{addr} (deposed object {k})");
    }
    let head = match c.action {
        Action::Create => format!("[bold]  # {addr}[reset] will be created"),
        Action::Read => {
            // Terraform 1.0 gives every deferred read this one reason line, whatever made it
            // wait (the plan records the real reason for show -json).
            format!(
                "[bold]  # {addr}[reset] will be read during apply\n  # (config refers to values not yet known)"
            )
        }
        Action::Update => format!("[bold]  # {addr}[reset] will be updated in-place"),
        Action::CreateThenDelete | Action::DeleteThenCreate => match c.reason() {
            Some(ActionReason::ReplaceBecauseTainted) => {
                format!("[bold]  # {addr}[reset] is tainted, so must be [bold][red]replaced")
            }
            Some(ActionReason::ReplaceByTriggers) => format!(
                "[bold]  # {addr}[reset] will be [bold][red]replaced[reset] due to changes in replace_triggered_by"
            ),
            Some(ActionReason::ReplaceByRequest) => {
                format!("[bold]  # {addr}[reset] will be [bold][red]replaced[reset], as requested")
            }
            _ => format!("[bold]  # {addr}[reset] must be [bold][red]replaced"),
        },
        // OpenTofu's words for a replacement that forgets the old object.
        Action::ForgetThenCreate => {
            let why = match c.reason() {
                Some(ActionReason::ReplaceBecauseTainted) => {
                    format!("[bold]  # {addr}[reset] is tainted, so it must be [bold][red]replaced[reset]")
                }
                Some(ActionReason::ReplaceByRequest) => format!(
                    "[bold]  # {addr}[reset] will be [bold][red]replaced[reset], as requested"
                ),
                Some(ActionReason::ReplaceByTriggers) => format!(
                    "[bold]  # {addr}[reset] will be [bold][red]replaced[reset] due to changes in replace_triggered_by"
                ),
                _ => format!("[bold]  # {addr}[reset] must be [bold][red]replaced[reset]"),
            };
            format!("{why} - [yellow]older instance will [bold]not[reset][yellow] be destroyed [reset]([bold]lifecycle.destroy = false[reset])")
        }
        Action::Delete => {
            let mut h = format!("[bold]  # {addr}[reset] will be [bold][red]destroyed");
            if c.deposed().is_some() {
                h.push_str(
                    "\n  # (left over from a partially-failed replacement of this instance)",
                );
            }
            h
        }
        Action::NoOp => match (moved_from, notes.import_id) {
            (_, Some(_)) if notes.generated => format!(
                "[bold]  # {addr}[reset] will be imported\n  #[reset] (config will be generated)"
            ),
            (_, Some(_)) => format!("[bold]  # {addr}[reset] will be imported"),
            (Some(old), None) => {
                format!("[bold]  # {old}[reset] has moved to [bold]{addr}[reset]")
            }
            (None, None) => format!("{addr} has no changes"),
        },
    };
    let head = if notes.forget {
        let mut h = format!("[bold]  # {addr}[reset] will be removed from the ferro state but will not be destroyed");
        // OpenTofu's note when `lifecycle { destroy = false }` is why.
        match c.reason() {
            Some(ActionReason::ForgotBecauseLifecycleDestroyInConfig) => h.push_str(
                " \n (because [bold]lifecycle.destroy = false[reset] is set in the configuration)",
            ),
            Some(ActionReason::ForgotBecauseLifecycleDestroyInState) => h.push_str(" \n (because [bold]lifecycle.destroy = false[reset] was configured before this resource was removed from the configuration)"),
            _ => {}
        }
        h
    } else {
        head
    };
    let head = match moved_from {
        Some(old) if c.action != Action::NoOp => format!("{head}\n  # [reset](moved from {old})"),
        _ => head,
    };
    let head = match notes.import_id {
        // An import by identity has no ID: Terraform says only that it comes first.
        Some("") if c.action != Action::NoOp => {
            format!("{head}\n  # [reset](will be imported first)")
        }
        Some(id) if c.action != Action::NoOp => {
            format!("{head}\n  # [reset](imported from {})", diff::go_quote(id))
        }
        _ => head,
    };
    out.push_str(&pen.paint(&head));
    out.push_str(&pen.paint("[reset]\n"));
    if notes.forget {
        out.push_str(&pen.paint("  [bold]."));
        out.push_str(&pen.paint("[reset]"));
    } else {
        out.push_str(&pen.paint(action_symbol(c.action)));
    }
    out.push(' ');
    out.push_str(&block_header(&c.addr.resource.resource));
    let before = mark_schema_sensitive(schema, &c.before.value());
    let (action, after) = if notes.forget {
        (Action::NoOp, before.clone())
    } else if c.action == Action::ForgetThenCreate {
        // Drawn as a replacement (the new object against the old one).
        (
            Action::DeleteThenCreate,
            mark_schema_sensitive(schema, &c.after.value()),
        )
    } else {
        (c.action, mark_schema_sensitive(schema, &c.after.value()))
    };
    let mut p = DiffPrinter::new(pen, action, c.requires_replace());
    if notes.forget || (notes.import_id.is_some() && c.action == Action::NoOp) {
        p = p.verbose();
    }
    let written = p.block_body(schema, &before, &after, 6);
    out.push_str(&p.out);
    if written {
        out.push_str("\n    ");
    }
    out.push_str("}\n");
    out
}

/// The human plan body: the legend, every resource change with its attribute diff, output
/// changes, and the `Plan: N to add, N to change, N to destroy.` line (or "No changes.").
pub fn human_plan(plan: &Plan, providers: &Providers, color: bool) -> String {
    let mut buf = Vec::new();
    let _ = write_human_plan(plan, providers, color, &mut buf);
    String::from_utf8(buf).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`human_plan`], written to `w` as it is rendered: a plan of many big objects is never held
/// whole as text.
pub fn write_human_plan(
    plan: &Plan,
    providers: &Providers,
    color: bool,
    w: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let pen = Pen { color };
    let out = drift_section(plan, providers, pen);
    if plan.mode == PlanMode::RefreshOnly {
        return w.write_all(refresh_only_plan(plan, out, pen).as_bytes());
    }
    let mut out = out;
    let import_ids = plan.import_ids();
    let moved: std::collections::HashMap<_, _> = plan
        .moved
        .iter()
        .map(|(new, old)| (new.clone(), old))
        .collect();
    let changes: Vec<&ResourceInstanceChange> = sorted_changes(plan)
        .into_iter()
        .filter(|c| {
            (c.action != Action::NoOp
                || (c.deposed().is_none()
                    && (moved.contains_key(&c.addr) || import_ids.contains_key(&c.addr))))
                && !(c.action == Action::Delete
                    && c.addr.resource.resource.mode == ResourceMode::Data)
        })
        .collect();
    let outputs: Vec<&ferro_plan::OutputChange> = plan
        .outputs
        .iter()
        .filter(|o| o.action != Action::NoOp)
        .collect();
    if changes.is_empty() && outputs.is_empty() && plan.forgotten.is_empty() {
        if !plan.is_complete() {
            // Nothing to do now, but a later plan has (Terraform's words).
            out.push_str(&pen.paint("\n[reset][bold][green]No current changes.[reset][bold] This plan requires another plan to be applied first.[reset]\n"));
            out.push_str(&deferred::deferred_section(plan, providers, pen));
            return w.write_all(out.as_bytes());
        }
        if plan.mode == PlanMode::Destroy {
            out.push_str(&pen.paint("\n[reset][bold][green]No changes.[reset][bold] No objects need to be destroyed.[reset]\n\n"));
            out.push_str(&word_wrap("Either you have not created any objects yet or the existing objects were already deleted outside of ferro.", COLUMNS));
        } else {
            out.push_str(&pen.paint("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure matches the configuration.[reset]\n\n"));
            out.push_str(&word_wrap(
                "ferro has compared your real infrastructure against your configuration and found no differences, so no changes are needed.",
                COLUMNS,
            ));
        }
        out.push('\n');
        return w.write_all(out.as_bytes());
    }
    if !changes.is_empty() || !plan.forgotten.is_empty() {
        let has = |a: Action| changes.iter().any(|c| c.action == a);
        let mut head = format!(
            "\n{}\n",
            word_wrap("ferro used the selected providers to generate the following execution plan. Resource actions are indicated with the following symbols:", COLUMNS)
        );
        let legend = [
            (Action::Create, "create"),
            (Action::Update, "update in-place"),
            (Action::Delete, "destroy"),
            (
                Action::DeleteThenCreate,
                "destroy and then create replacement",
            ),
            (
                Action::CreateThenDelete,
                "create replacement and then destroy",
            ),
            (Action::Read, "read (data resources)"),
        ];
        for (a, text) in legend {
            if has(a) {
                head.push_str(&format!("{} {text}\n", action_symbol(a)));
            }
        }
        if has(Action::ForgetThenCreate) {
            head.push_str("[red].[reset]/[green]+[reset] forget and then create replacement\n");
        }
        if !plan.forgotten.is_empty() {
            head.push_str("  [bold].[reset] forget\n");
        }
        out.push_str(&pen.paint(&head));
        out.push_str("\nferro will perform the following actions:\n\n");
        let empty = Block::default();
        for c in &changes {
            let schema = schema_block(providers, c).unwrap_or(&empty);
            let notes = Notes {
                moved_from: moved.get(&c.addr).copied(),
                import_id: c
                    .deposed()
                    .is_none()
                    .then(|| import_ids.get(&c.addr).copied())
                    .flatten(),
                generated: c.deposed().is_none()
                    && plan.generated_config.iter().any(|(a, _)| a == &c.addr),
                forget: false,
            };
            out.push_str(&resource_change(c, schema, pen, notes));
            out.push('\n');
            if out.len() >= 1 << 16 {
                w.write_all(out.as_bytes())?;
                out.clear();
            }
        }
        for c in &plan.forgotten {
            let schema = schema_block(providers, c).unwrap_or(&empty);
            let notes = Notes {
                forget: true,
                ..Notes::default()
            };
            out.push_str(&resource_change(c, schema, pen, notes));
            out.push('\n');
        }
        out.push_str(&pen.paint(&format!(
            "[reset][bold]Plan:[reset] {}\n",
            plan_counts(plan)
        )));
    }
    if !outputs.is_empty() {
        out.push_str(&pen.paint("[reset]\n[bold]Changes to Outputs:[reset]"));
        out.push_str(&output_changes(&outputs, pen));
        out.push('\n');
        if changes.is_empty() {
            out.push_str(&word_wrap(
                "\nYou can apply this plan to save these new output values to the ferro state, without changing any real infrastructure.",
                COLUMNS,
            ));
            out.push('\n');
        }
    }
    out.push_str(&deferred::deferred_section(plan, providers, pen));
    w.write_all(out.as_bytes())
}

/// The counts after `Plan:`: Terraform's three, with OpenTofu's import and forget counts
/// around them when the plan has any.
pub fn plan_counts(plan: &Plan) -> String {
    let (add, change, destroy) = plan.counts();
    let mut s = String::new();
    if !plan.imports.is_empty() {
        s.push_str(&format!("{} to import, ", plan.imports.len()));
    }
    s.push_str(&format!(
        "{add} to add, {change} to change, {destroy} to destroy"
    ));
    let forget = plan.forget_count();
    if forget > 0 {
        s.push_str(&format!(", {forget} to forget"));
    }
    s.push('.');
    s
}

/// "Objects have changed outside of ferro": what refreshing found changed or deleted since the
/// last apply, as Terraform 1.0 shows it before the plan.
fn drift_section(plan: &Plan, providers: &Providers, pen: Pen) -> String {
    let mut out = String::new();
    if plan.drift.is_empty() {
        return out;
    }
    out.push_str(&pen.paint(
        "\n[bold][cyan]Note:[reset][bold] Objects have changed outside of ferro[reset]\n\n",
    ));
    out.push_str(&word_wrap(
        "ferro detected the following changes made outside of ferro since the last \"ferro apply\":",
        COLUMNS,
    ));
    out.push_str("\n\n");
    let empty = Block::default();
    for d in &plan.drift {
        let deleted = d.after.is_null();
        let c = d.as_change();
        let schema = schema_block(providers, &c).unwrap_or(&empty);
        let body = resource_change(&c, schema, pen, Notes::default());
        // The header says what happened instead of what will happen.
        let verb = if deleted {
            "has been deleted"
        } else {
            "has been changed"
        };
        let mut lines = body.splitn(2, '\n');
        let head = lines.next().unwrap_or_default();
        let rest = lines.next().unwrap_or_default();
        out.push_str(&pen.paint(&format!("[bold]  # {}[reset] {verb}", d.addr)));
        if !head.is_empty() {
            out.push('\n');
        }
        out.push_str(rest);
    }
    // Terraform 1.0.3 lists the objects without blank lines between them.
    out.push('\n');
    let closing = if plan.mode == PlanMode::RefreshOnly {
        "This is a refresh-only plan, so ferro will not take any actions to undo these. If you were expecting these changes then you can apply this plan to record the updated values in the ferro state without changing any remote objects."
    } else {
        "Unless you have made equivalent changes to your configuration, or ignored the relevant attributes using ignore_changes, the following plan may include actions to undo or respond to these changes."
    };
    out.push_str(&word_wrap(closing, COLUMNS));
    out.push('\n');
    if plan.mode != PlanMode::RefreshOnly {
        out.push_str(
            "\n─────────────────────────────────────────────────────────────────────────────\n",
        );
    }
    out
}

/// A `-refresh-only` plan: the drift found (already in `out`) and output changes; no resource
/// actions.
fn refresh_only_plan(plan: &Plan, mut out: String, pen: Pen) -> String {
    let outputs: Vec<&ferro_plan::OutputChange> = plan
        .outputs
        .iter()
        .filter(|o| o.action != Action::NoOp)
        .collect();
    if plan.drift.is_empty() && outputs.is_empty() {
        out.push_str(&pen.paint("\n[reset][bold][green]No changes.[reset][bold] Your infrastructure still matches the configuration.[reset]\n\n"));
        out.push_str(&word_wrap("ferro has checked that the real remote objects still match the result of your most recent changes, and found no differences.", COLUMNS));
        out.push('\n');
        return out;
    }
    if !outputs.is_empty() {
        // After the objects that changed outside, a rule, as Terraform 1.0.3 separates them.
        if !plan.drift.is_empty() {
            out.push_str(
                "\n─────────────────────────────────────────────────────────────────────────────\n",
            );
        }
        out.push_str(&pen.paint("[reset]\n[bold]Changes to Outputs:[reset]"));
        out.push_str(&output_changes(&outputs, pen));
        out.push('\n');
        out.push_str(&word_wrap(
            "\nYou can apply this plan to save these new output values to the ferro state, without changing any real infrastructure.",
            COLUMNS,
        ));
        out.push('\n');
    }
    out
}

/// The outputs section: outputs are printed like attributes of a block with dynamic types.
fn output_changes(outputs: &[&ferro_plan::OutputChange], pen: Pen) -> String {
    let mut schema = Block::default();
    let mut old = ferro_value::ValueMap::new();
    let mut new = ferro_value::ValueMap::new();
    for o in outputs {
        let mut a = Attribute::new(Type::Dynamic).optional();
        a.sensitive = o.sensitive;
        schema.attributes.insert(o.name.clone(), a);
        old.insert(o.name.clone(), o.before.clone());
        new.insert(o.name.clone(), o.after.clone());
    }
    let mut p = DiffPrinter::new(pen, Action::Update, &[]);
    p.block_body(&schema, &Value::object(old), &Value::object(new), 2);
    p.out
}

/// `show` of a state.
pub fn human_state(state: &State, providers: &Providers, color: bool) -> String {
    let pen = Pen { color };
    if state.is_empty() {
        return "No state.\n".into();
    }
    let mut out = String::new();
    // Laid out as Terraform lays it out: module by module, each module's listing followed by
    // one more blank line, then the outputs, trailing blank lines trimmed. (Terraform takes
    // the modules in no fixed order, and an empty root module taken first starts its listing
    // with a blank line; ferro takes them in address order.)
    let mut current_module: Option<&ferro_addrs::ModuleInstance> = None;
    for (res, rs) in &state.resources {
        let schema = providers.resource_schema(&rs.provider, &res.resource);
        for (key, inst) in &rs.instances {
            let Some(o) = &inst.current else { continue };
            if current_module.is_some_and(|m| *m != res.module) {
                out.push('\n');
            }
            current_module = Some(&res.module);
            let addr = res.instance(key.clone());
            let taint = if o.tainted { " (tainted)" } else { "" };
            out.push_str(&format!("# {addr}:{taint}\n"));
            let kw = if res.resource.mode == ResourceMode::Managed {
                "resource"
            } else {
                "data"
            };
            out.push_str(&format!(
                "{kw} {} {} {{",
                diff::go_quote(&res.resource.ty),
                diff::go_quote(&res.resource.name)
            ));
            match schema.and_then(|s| decode_object(o, s).map(|v| (s, v))) {
                Some((s, v)) => {
                    let mut p = DiffPrinter::new(pen, Action::NoOp, &[]).verbose();
                    let v = mark_schema_sensitive(&s.block, &v);
                    if p.block_body(&s.block, &v, &v, 2) {
                        out.push_str(&p.out);
                        out.push('\n');
                    }
                }
                None => out.push_str(
                    "\n    # (the provider's schema for this resource type is not available)\n",
                ),
            }
            out.push_str("}\n\n");
        }
    }
    out.push('\n');
    if !state.outputs.is_empty() {
        out.push_str("Outputs:\n\n");
        for (name, o) in &state.outputs {
            if o.sensitive {
                out.push_str(&format!("{name} = (sensitive value)\n"));
                continue;
            }
            let v = ferro_value::json::type_from_json(&o.ty)
                .ok()
                .and_then(|t| ferro_value::json::value_from_json(&o.value, &t).ok());
            // Written as Terraform's `show` writes them: as unchanged plan values.
            match v {
                Some(v) => {
                    let mut p = DiffPrinter::new(pen, Action::NoOp, &[]);
                    p.value(&v, Action::NoOp, 0);
                    out.push_str(&format!("{name} = {}\n", p.out));
                }
                None => out.push_str(&format!("{name} = {}\n", o.value)),
            }
        }
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// The " [id=…]" a progress line names its object with (nothing without a naming attribute).
pub fn id_suffix(id: Option<(&str, &str)>) -> String {
    id.map(|(k, v)| format!(" [{k}={v}]")).unwrap_or_default()
}

/// The header of a resource's block in a plan: `resource "T" "N" {` (Terraform 1.0 leaves two
/// spaces before the brace of a data block).
pub(crate) fn block_header(r: &ferro_addrs::Resource) -> String {
    let (ty, name) = (diff::go_quote(&r.ty), diff::go_quote(&r.name));
    match r.mode {
        ResourceMode::Managed => format!("resource {ty} {name} {{"),
        ResourceMode::Data => format!("data {ty} {name}  {{"),
        ResourceMode::Ephemeral => format!("ephemeral {ty} {name} {{"),
    }
}
