//! `ferro init`'s backend step: prepare the configured backend, record it in
//! `.terraform/terraform.tfstate` as Terraform 1.0.3 does, and when the backend changes (local
//! to pg, pg to local, one pg configuration to another) copy every workspace's state across,
//! asking first unless `-force-copy` is given; `-reconfigure` starts afresh without copying.

use crate::args;
use crate::backend::{
    config_block, local_layout, open_workspace, pg_config, save, saved, saved_path, workspaces,
    BackendBlock, Lit, Location,
};
use crate::{Global, Io};
use ferro_state::workspace::LocalLayout;
use ferro_state::LocalBackend;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::time::Duration;

fn fail(io: &mut Io<'_>, summary: &str, detail: &str) -> i32 {
    crate::ui::plain_error(io, summary, detail)
}

fn type_name(loc: &Location) -> &'static str {
    match loc {
        Location::Local(_) => "local",
        Location::Pg(_) => "pg",
    }
}

/// `-backend-config=KEY=VALUE` pairs over the block's arguments.
fn merged(block: &BackendBlock, p: &args::Parsed) -> Result<BTreeMap<String, Lit>, String> {
    let mut attrs = block.attrs.clone();
    for kv in p.all("backend-config") {
        let Some((k, v)) = kv.split_once('=') else {
            return Err(format!(
                "-backend-config={kv}: only KEY=VALUE pairs are supported, not files"
            ));
        };
        let v = match v {
            "true" if k.starts_with("skip_") => Lit::Bool(true),
            "false" if k.starts_with("skip_") => Lit::Bool(false),
            v => Lit::Str(v.to_string()),
        };
        attrs.insert(k.to_string(), v);
    }
    Ok(attrs)
}

/// The backend step of `init`. Prints what it does; on failure the error is printed and the
/// exit code returned.
pub(crate) fn init_backend(g: &Global, p: &args::Parsed, io: &mut Io<'_>) -> Result<(), i32> {
    let block = config_block(&g.dir).map_err(|e| fail(io, "Invalid backend configuration", &e))?;
    let (new, attrs) = match &block {
        None => (Location::Local(LocalLayout::default()), BTreeMap::new()),
        Some(b) if b.ty == "local" => {
            let attrs = merged(b, p).map_err(|e| fail(io, "Invalid backend configuration", &e))?;
            let layout =
                local_layout(&attrs).map_err(|e| fail(io, "Invalid backend configuration", &e))?;
            (Location::Local(layout), attrs)
        }
        Some(b) if b.ty == "pg" => {
            let attrs = merged(b, p).map_err(|e| fail(io, "Invalid backend configuration", &e))?;
            let cfg =
                pg_config(&attrs).map_err(|e| fail(io, "Invalid backend configuration", &e))?;
            (Location::Pg(cfg), attrs)
        }
        Some(b) => {
            return Err(fail(
                io,
                "Unsupported backend type",
                &format!(
                    "There is no backend type named {:?}; ferro supports \"local\" and \"pg\".",
                    b.ty
                ),
            ))
        }
    };
    let old = match saved(&g.dir) {
        Some((ty, config, _)) if ty == "pg" => {
            let mut attrs = BTreeMap::new();
            for (k, v) in config.as_object().into_iter().flatten() {
                match v {
                    serde_json::Value::String(s) => {
                        attrs.insert(k.clone(), Lit::Str(s.clone()));
                    }
                    serde_json::Value::Bool(b) => {
                        attrs.insert(k.clone(), Lit::Bool(*b));
                    }
                    _ => {}
                }
            }
            pg_config(&attrs).map(Location::Pg).ok()
        }
        Some((ty, config, _)) if ty == "local" => {
            local_layout(&crate::backend::saved_attrs(&config))
                .ok()
                .map(Location::Local)
        }
        _ => Some(Location::Local(LocalLayout::default())),
    };
    if let Location::Pg(cfg) = &new {
        // Connecting prepares the schema, table and index.
        if let Err(e) = ferro_state::pg::PgStore::connect(cfg) {
            return Err(fail(
                io,
                "Failed to configure the backend \"pg\"",
                &format!("Error configuring the backend \"pg\": {e}"),
            ));
        }
    }
    let changed = old.as_ref() != Some(&new);
    if changed && !p.flag("reconfigure") {
        if let Some(old) = &old {
            migrate(g, p, old, &new, io)?;
        }
    }
    match &block {
        Some(b) => {
            let already = saved(&g.dir).is_some_and(|(ty, _, hash)| {
                ty == b.ty && hash == u64::from(crate::backend::config_hash(b))
            });
            if !already || changed {
                save(&g.dir, b, &attrs)
                    .map_err(|e| fail(io, "Failed to save backend configuration", &e))?;
            }
            if changed {
                let _ = write!(io.stdout, "\nSuccessfully configured the backend {:?}! ferro will automatically\nuse this backend unless the backend configuration changes.\n", b.ty);
            }
        }
        None => {
            if saved(&g.dir).is_some() {
                let _ = std::fs::remove_file(saved_path(&g.dir));
                let _ = write!(
                    io.stdout,
                    "\nSuccessfully unset the backend {:?}. ferro will now operate locally.\n",
                    old.as_ref().map_or("pg", type_name)
                );
            }
        }
    }
    Ok(())
}

/// Copy every workspace's state from `old` to `new`.
fn migrate(
    g: &Global,
    p: &args::Parsed,
    old: &Location,
    new: &Location,
    io: &mut Io<'_>,
) -> Result<(), i32> {
    let names = workspaces(&g.dir, old)
        .map_err(|e| fail(io, "Failed to read the previous backend's workspaces", &e))?;
    let (from, to) = (type_name(old), type_name(new));
    let mut asked = false;
    for ws in names {
        // Between two local layouts, a workspace whose file stays where it is has nothing to
        // move (and must not be emptied after the "copy").
        if let (Location::Local(a), Location::Local(b)) = (old, new) {
            if g.dir.join(a.state_rel(&ws)) == g.dir.join(b.state_rel(&ws)) {
                continue;
            }
        }
        let src = open_workspace(&g.dir, old, &ws)
            .map_err(|e| fail(io, "Failed to open the previous backend", &e))?;
        let state = src
            .load()
            .map_err(|e| fail(io, "Failed to load the state to migrate", &e.0))?;
        let Some(mut state) = state.filter(|s| !s.is_empty()) else {
            continue;
        };
        let mut dst = open_workspace(&g.dir, new, &ws)
            .map_err(|e| fail(io, "Failed to open the new backend", &e))?;
        if let Err(e) = dst.lock("migration destination state", "", Duration::from_secs(0)) {
            return Err(fail(
                io,
                "Error acquiring the state lock",
                &format!("Error message: {e}"),
            ));
        }
        let existing = dst
            .load()
            .map_err(|e| fail(io, "Failed to load the new backend's state", &e.0))?;
        let dst_has_state = existing.as_ref().is_some_and(|s| !s.is_empty());
        if !p.flag("force-copy") && !asked {
            let question = if dst_has_state {
                format!("Do you want to copy existing state to the new backend?\n  Pre-existing state was found while migrating the previous {from:?} backend to the\n  newly configured {to:?} backend. An existing non-empty state already exists in\n  the new backend. The two states have been saved to temporary files that will be\n  removed after responding to this query.\n\n  Do you want to overwrite the state in the new backend with the previous state?\n  Enter \"yes\" to copy and \"no\" to start with the existing state in the newly\n  configured {to:?} backend.\n\n  Enter a value: ")
            } else {
                format!("Do you want to copy existing state to the new backend?\n  Pre-existing state was found while migrating the previous {from:?} backend to the\n  newly configured {to:?} backend. No existing state was found in the newly\n  configured {to:?} backend. Do you want to copy this state to the new {to:?}\n  backend? Enter \"yes\" to copy and \"no\" to start with an empty state.\n\n  Enter a value: ")
            };
            if !crate::env::input_enabled(p) {
                return Err(fail(
                    io,
                    "Error asking for state migration action",
                    "State needs to be migrated, but input is disabled (-input=false). Use -force-copy to copy the states without asking, or -reconfigure to start with the new backend's states.",
                ));
            }
            let _ = write!(io.stdout, "{question}");
            let _ = io.stdout.flush();
            let mut line = String::new();
            match io.stdin.as_mut() {
                Some(input) => {
                    let _ = input.read_line(&mut line);
                }
                None => {
                    let _ = std::io::stdin().lock().read_line(&mut line);
                }
            }
            let _ = writeln!(io.stdout);
            if line.trim() != "yes" {
                return Ok(());
            }
            asked = true;
        }
        // The copy keeps the lineage; the destination gives it the next serial.
        if let Err(e) = dst.persist(&mut state) {
            return Err(fail(io, "Failed to write the migrated state", &e.0));
        }
        drop(dst);
        drop(src);
        if let Location::Local(layout) = old {
            // As Terraform: the local state is emptied once it is in the new backend (its
            // content stays in the backup).
            let path = g.dir.join(layout.state_rel(&ws));
            if let Err(e) = LocalBackend::new(path).clear() {
                return Err(fail(io, "Failed to empty the migrated local state", &e.0));
            }
        }
    }
    Ok(())
}
