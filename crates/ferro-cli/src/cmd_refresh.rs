//! `ferro refresh`: read every managed object back from its provider and record the result
//! (and the current output values) in the state without changing any infrastructure, under the
//! state lock, as Terraform 1.0.3's `refresh` does.

use crate::cmd_output::print_outputs;
use crate::commands::make_plan;
use crate::ui::plain_error;
use crate::{spec, Global, Io};
use ferro_diag::Diagnostic;
use ferro_plan::Action;
use ferro_state::OutputState;
use ferro_value::json;

pub fn refresh(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match spec::core::REFRESH.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    // `-json`: the machine-readable UI (the version first, diagnostics and outputs as
    // messages), as Terraform's `refresh -json`.
    let _json = p.flag("json").then(|| {
        let ui = crate::json_ui::enable();
        crate::json_ui::version(io.stdout);
        ui
    });
    let (mut backend, display) = match crate::backend::open(g, &p, io) {
        Ok(b) => b,
        Err(code) => return code,
    };
    backend.set_errored_dir(g.dir.clone());
    if let Err(code) =
        crate::cmd_lock::take(backend.as_mut(), &p, "OperationTypeRefresh", &display, io)
    {
        return code;
    }
    let current = match backend.load() {
        Ok(s) => s,
        Err(e) => return plain_error(io, "Failed to load state", &e.0),
    };
    // As Terraform 1.0.3: a warning, and the refresh goes on (it still records and prints the
    // outputs).
    if current.as_ref().is_none_or(|s| s.resources.is_empty()) {
        let d = Diagnostic::warning("empty-state", "Empty or non-existent state").with_detail(
            "There are currently no resources tracked in the state, so there is nothing to refresh.",
        );
        let none = ferro_db::Sources::from_files(Vec::new());
        if crate::json_ui::active() {
            crate::json_ui::diagnostics(io.stdout, &[d], &none);
        } else {
            // On standard output, as Terraform prints its warnings.
            let text = ferro_diag::render(&[d], &none, false);
            let _ = io.stdout.write_all(text.as_bytes());
        }
    }
    let planned = match make_plan(g, a, &p, false, false, current.clone(), io) {
        Ok(x) => x,
        Err(code) => return code,
    };
    planned.registry.close_all();
    let mut state = planned.plan.prior_state.clone();
    for oc in &planned.plan.outputs {
        if oc.action == Action::Delete {
            state.outputs.remove(&oc.name);
            continue;
        }
        let (plain, _) = oc.after.deep_unmark();
        if !plain.is_wholly_known() {
            continue;
        }
        // A null output is not kept in state, as an apply keeps none.
        if plain.is_null() {
            state.outputs.remove(&oc.name);
            continue;
        }
        let ty = plain.ty();
        if let Ok(value) = json::value_to_json(&plain, &ty) {
            state.outputs.insert(
                oc.name.clone(),
                OutputState {
                    value,
                    ty: json::type_to_json(&ty),
                    sensitive: oc.sensitive,
                },
            );
        }
    }
    state.prune();
    if let Err(e) = backend.persist(&mut state) {
        let msg = backend.save_errored(&state);
        return plain_error(
            io,
            "Failed to persist state to backend",
            &format!("{e}\n\n{msg}"),
        );
    }
    if crate::json_ui::active() {
        crate::json_ui::outputs(io.stdout, &state);
    } else {
        print_outputs(io, &state);
    }
    0
}
