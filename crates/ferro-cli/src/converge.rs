//! `apply -allow-deferral -converge` (ferro's own): plan and apply in rounds while a plan
//! defers changes, until one defers nothing or a round has nothing to apply (what is still
//! deferred then cannot become known by applying), each round under a header of its own.

use crate::commands::{execute, plan_for_apply};
use crate::ui::plain_error;
use crate::{args, Global, Io};
use ferro_plan::Plan;
use ferro_state::{Backend, State};

/// The rounds; the exit code of the last (1 when changes are still deferred at the end).
pub(crate) fn rounds(
    g: &Global,
    a: &[String],
    p: &args::Parsed,
    backend: &mut dyn Backend,
    current: Option<State>,
    parallelism: usize,
    io: &mut Io<'_>,
) -> i32 {
    let mut current = current;
    let mut round = 1;
    loop {
        if !crate::json_ui::active() {
            let _ = writeln!(
                io.stdout,
                "{}─── Round {round} (-converge) ───",
                if round == 1 { "" } else { "\n" }
            );
        }
        let mut planned = match plan_for_apply(g, a, p, false, current, io) {
            Ok(planned) => planned,
            Err(code) => return code,
        };
        let deferred = planned.plan.deferred.len();
        // A round with nothing to apply while changes wait makes no progress: what they wait
        // for would be as unknown in the next round.
        if deferred > 0 && planned.plan.is_empty() {
            planned.registry.close_all();
            return plain_error(
                io,
                "Changes are still deferred",
                &format!("Round {round} planned nothing to apply, and {deferred} {} still deferred: what {} for cannot become known by applying this configuration. The plan above says why each waits.", if deferred == 1 { "change is" } else { "changes are" }, if deferred == 1 { "it waits" } else { "they wait" }),
            );
        }
        let code = execute(g, io, &mut planned, backend, parallelism, false);
        planned.registry.close_all();
        if code != 0 || deferred == 0 {
            return code;
        }
        current = match backend.load() {
            Ok(s) => s,
            Err(e) => return plain_error(io, "Failed to load state", &e.to_string()),
        };
        round += 1;
    }
}

/// After applying a partial plan: how many changes wait for the next plan.
pub(crate) fn remaining_note(io: &mut Io<'_>, plan: &Plan) {
    let n = plan.deferred.len();
    if n == 0 {
        return;
    }
    let _ = write!(
        io.stdout,
        "\n{n} deferred {} not applied: plan and apply again to make {} (or apply with -allow-deferral -converge).\n",
        if n == 1 { "change was" } else { "changes were" },
        if n == 1 { "it" } else { "them" }
    );
}
