//! `ferro show`: the state, or a plan saved to a file, for people or as JSON.

use crate::commands::{plan_is_stale, stale_plan_error};
use crate::load::{attach_providers, load_files, read_config_files};
use crate::ui::plain_error;
use crate::{render, spec, Global, Io};
use ferro_provider::ProviderRegistry;

pub fn show(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match spec::other::SHOW.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    let registry = ProviderRegistry::for_working_dir(&g.dir);
    if let Some(file) = p.positional.first() {
        let path = g.dir.join(file);
        let encryption = match crate::encryption::configured(g, io) {
            Ok(e) => e,
            Err(code) => return code,
        };
        let plan_enc = encryption.as_ref().and_then(|e| e.plan.clone());
        let state_enc = encryption.as_ref().and_then(|e| e.state.clone());
        let plan = match crate::commands::read_plan_path(&path, plan_enc.as_deref()) {
            Ok(p) => p,
            Err(e) => {
                // Not a plan: a state file, as Terraform's show also takes.
                let bytes = std::fs::read(&path);
                if let Ok(state) = bytes
                    .as_ref()
                    .map_err(|_| ())
                    .and_then(|b| match &state_enc {
                        Some(enc) => enc.decrypt_state(b).map(|(p, _)| p).map_err(|_| ()),
                        None => Ok(b.clone()),
                    })
                    .and_then(|b| ferro_state::read_state(&b).map_err(|_| ()))
                {
                    return show_state(g, &p, &registry, &state, io);
                }
                return plain_error(
                    io,
                    "Failed to read the given file as a state or plan file",
                    &format!("{file}: {e}"),
                );
            }
        };
        // As Terraform's, show refuses a plan the state has moved on from (applied, or
        // overtaken by another run).
        let current = match crate::backend::read(g, &p, io) {
            Ok(s) => s,
            Err(code) => return code,
        };
        if plan_is_stale(&plan, current.as_ref()) {
            return stale_plan_error(io);
        }
        // Only its identity was needed: the plan holds the state it was made against (the same
        // one, as it is not stale), and two copies of a big state would double what this holds.
        drop(current);
        let mut l = crate::load::load_plan_config(&plan, &g.dir);
        // A plan saved with its providers' schemas is shown with them: no provider runs.
        let stored = crate::stored_schemas::StoredSource::new(&plan.schemas, &registry);
        let (providers, _) = attach_providers(&mut l, &stored, Some(&plan.prior_state));
        let text = if p.flag("json") {
            render::plan_json(&plan, &providers, &l.db, l.ws)
        } else {
            render::human_plan(&plan, &providers, g.color)
        };
        let _ = io.stdout.write_all(text.as_bytes());
        return 0;
    }
    let state = match crate::backend::read(g, &p, io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let Some(state) = state else {
        if p.flag("json") {
            let _ = writeln!(io.stdout, "{{\"format_version\":\"0.2\"}}");
        } else {
            let _ = writeln!(io.stdout, "No state.");
        }
        return 0;
    };
    show_state(g, &p, &registry, &state, io)
}

/// A state, for people or as JSON, with the schemas of the working directory's providers.
fn show_state(
    g: &Global,
    p: &crate::args::Parsed,
    registry: &ProviderRegistry,
    state: &ferro_state::State,
    io: &mut Io<'_>,
) -> i32 {
    let files = read_config_files(&g.dir).unwrap_or_default();
    let mut l = load_files(files);
    let (providers, _) = attach_providers(&mut l, registry, Some(state));
    let text = if p.flag("json") {
        render::state_json(state, &providers)
    } else {
        render::human_state(state, &providers, g.color)
    };
    let _ = io.stdout.write_all(text.as_bytes());
    0
}
