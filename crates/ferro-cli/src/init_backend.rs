//! `ferro init`'s backend step: prepare the configured backend, record it in
//! `.terraform/terraform.tfstate` as Terraform 1.0.3 does, and when the backend changes (local
//! to pg, pg to local, one pg configuration to another) copy every workspace's state across,
//! asking first unless `-force-copy` is given; `-reconfigure` starts afresh without copying.

use crate::args;
use crate::backend::{
    config_block, location_of, open_workspace, save, saved, saved_attrs, saved_path,
    unsupported_type, workspaces, BackendBlock, Lit, Location, BACKEND_TYPES,
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
        Location::S3(_) => "s3",
        Location::Http(_) => "http",
    }
}

/// `-backend-config` values over the block's arguments, in order: `KEY=VALUE` pairs (the
/// value read as the argument's type) and files of arguments (HCL or JSON, the form of a
/// backend block's body).
fn merged(
    g: &Global,
    block: &BackendBlock,
    p: &args::Parsed,
) -> Result<BTreeMap<String, Lit>, String> {
    let mut attrs = block.attrs.clone();
    for kv in p.all("backend-config") {
        match kv.split_once('=') {
            Some((k, v)) => {
                attrs.insert(
                    k.to_string(),
                    ferro_state::config::pair_value(&block.ty, k, v),
                );
            }
            None => {
                let path = g.dir.join(kv);
                let text = std::fs::read_to_string(&path).map_err(|e| {
                    format!("Failed to read the backend configuration file {kv:?}: {e}")
                })?;
                attrs.extend(crate::backend::attributes_of_file(kv, &text)?);
            }
        }
    }
    Ok(attrs)
}

/// The backend step of `init`. Prints what it does; on failure the error is printed and the
/// exit code returned.
pub(crate) fn init_backend(g: &Global, p: &args::Parsed, io: &mut Io<'_>) -> Result<(), i32> {
    let block = config_block(&g.dir).map_err(|e| e.report(io, g.color))?;
    let (new, attrs) = match &block {
        None => (Location::Local(LocalLayout::default()), BTreeMap::new()),
        Some(b) if BACKEND_TYPES.contains(&b.ty.as_str()) => {
            let attrs =
                merged(g, b, p).map_err(|e| fail(io, "Invalid backend configuration", &e))?;
            let loc = location_of(&b.ty, &attrs).map_err(|e| {
                let d = ferro_diag::Diagnostic::error("cli", "Invalid backend configuration")
                    .with_detail(e.clone());
                let (d, sources) = b.diagnostic(d, None, &e);
                crate::ui::print_diags(io, &[d], &sources, false);
                1
            })?;
            if b.ty == "s3" {
                for (summary, detail, arg) in ferro_state::config::s3_warnings(&attrs) {
                    let d = ferro_diag::Diagnostic::warning("backend-deprecated", summary)
                        .with_detail(detail.clone());
                    let (d, sources) = b.diagnostic(d, Some(arg.as_deref().unwrap_or("")), &detail);
                    crate::ui::print_diags(io, &[d], &sources, false);
                }
            }
            (loc, attrs)
        }
        Some(b) => {
            return Err(fail(
                io,
                "Unsupported backend type",
                &unsupported_type(&b.ty),
            ))
        }
    };
    let old = match saved(&g.dir) {
        Some((ty, config, _)) => location_of(&ty, &saved_attrs(&config)).ok(),
        None => Some(Location::Local(LocalLayout::default())),
    };
    if let Err(e) = check_reachable(&g.dir, &new) {
        let ty = type_name(&new);
        return Err(fail(
            io,
            &format!("Failed to configure the backend {ty:?}"),
            &format!("Error configuring the backend {ty:?}: {e}"),
        ));
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

/// Check that a remote backend answers as `init` sets it up: pg prepares its schema, s3 lists
/// the bucket's workspaces (finding credentials and the bucket), http reads the state.
fn check_reachable(dir: &std::path::Path, loc: &Location) -> Result<(), String> {
    match loc {
        Location::Local(_) => Ok(()),
        Location::Pg(cfg) => ferro_state::pg::PgStore::connect(cfg)
            .map(|_| ())
            .map_err(|e| e.0),
        Location::S3(_) => workspaces(dir, loc).map(|_| ()),
        Location::Http(cfg) => ferro_state::http::HttpStore::new(cfg)
            .and_then(|s| s.get())
            .map(|_| ())
            .map_err(|e| e.0),
    }
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
        // The state moves encrypted as configured: read with the state's methods (their
        // fallbacks included), written with the first.
        let encryption = crate::encryption::for_state(g, io)?;
        let mut src = open_workspace(&g.dir, old, &ws)
            .map_err(|e| fail(io, "Failed to open the previous backend", &e))?;
        src.set_encryption(encryption.clone());
        let state = src
            .load()
            .map_err(|e| fail(io, "Failed to load the state to migrate", &e.0))?;
        let Some(mut state) = state.filter(|s| !s.is_empty()) else {
            continue;
        };
        let mut dst = open_workspace(&g.dir, new, &ws)
            .map_err(|e| fail(io, "Failed to open the new backend", &e))?;
        dst.set_encryption(encryption);
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
