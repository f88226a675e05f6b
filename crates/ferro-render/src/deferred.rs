//! The deferred changes of a partial plan (`-allow-deferral`) in the human plan: each with
//! the reason it waits, in Terraform's words, then how many there are.

use super::{action_symbol, schema_block, DiffPrinter, Pen};
use ferro_plan::{Action, Plan};
use ferro_runtime::config_value::mark_schema_sensitive;
use ferro_runtime::Providers;
use ferro_value::schema::Block;

/// The section after the plan's own changes: empty for a complete plan.
pub(crate) fn deferred_section(plan: &Plan, providers: &Providers, pen: Pen) -> String {
    if plan.is_complete() {
        return String::new();
    }
    let mut out = String::new();
    out.push_str(
        "\n─────────────────────────────────────────────────────────────────────────────\n",
    );
    out.push_str(&pen.paint("\n[bold][cyan]Note:[reset][bold] This is a partial plan, parts can only be known in the next plan / apply cycle.[reset]\n\n"));
    let empty = Block::default();
    for d in &plan.deferred {
        let c = &d.change;
        // A no-op has nothing to say, as in Terraform.
        if c.action == Action::NoOp {
            continue;
        }
        let schema = schema_block(providers, c).unwrap_or(&empty);
        out.push_str(&pen.paint(&format!(
            "\n[bold]  # {}[reset] was deferred\n  #[reset] ({})\n",
            d.address,
            d.reason.explanation()
        )));
        out.push_str(&pen.paint(action_symbol(c.action)));
        out.push(' ');
        out.push_str(&super::block_header(&c.addr.resource.resource));
        let before = mark_schema_sensitive(schema, &c.before.value());
        let after = mark_schema_sensitive(schema, &c.after.value());
        let mut p = DiffPrinter::new(pen, c.action, c.requires_replace());
        let written = p.block_body(schema, &before, &after, 6);
        out.push_str(&p.out);
        if written {
            out.push_str("\n    ");
        }
        out.push_str("}\n");
    }
    // The changes shown: a deferred no-op (a refresh left for later) is not one.
    let n = plan
        .deferred
        .iter()
        .filter(|d| d.change.action != Action::NoOp)
        .count();
    if n == 0 {
        return out;
    }
    out.push_str(&pen.paint(&format!(
        "\n[reset][bold]Deferred:[reset] {n} {} for a later plan and apply.\n",
        if n == 1 {
            "change waits"
        } else {
            "changes wait"
        }
    )));
    out
}
