//! `ferro workspace list|show|new|select|delete`, and where the selected workspace's state is.

use crate::args::{self, Spec};
use crate::backend::{location_or_report, open_workspace, Location};
use crate::spec::other::{
    WORKSPACE, WORKSPACE_DELETE, WORKSPACE_LIST, WORKSPACE_NEW, WORKSPACE_SELECT, WORKSPACE_SHOW,
};
use crate::spec::usage_line;
use crate::{Global, Io};
use ferro_state::workspace::{
    current_workspace, environment_file, valid_workspace_name, DEFAULT_WORKSPACE,
};

pub fn workspace(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let rest = a.get(1..).unwrap_or(&[]);
    match a.first().map(String::as_str) {
        Some("list") => list(g, rest, io),
        Some("show") => show(g, rest, io),
        Some("new") => new(g, rest, io),
        Some("select") => select(g, rest, io),
        Some("delete") => delete(g, rest, io),
        _ => {
            let _ = io.stdout.write_all(WORKSPACE.help.as_bytes());
            0
        }
    }
}

/// Parse a subcommand's arguments; a flag it does not have is printed as an error.
fn parse(spec: &Spec, a: &[String], io: &mut Io<'_>) -> Option<args::Parsed> {
    match spec.parse(a) {
        Ok(p) => Some(p),
        Err(e) => {
            let _ = writeln!(io.stderr, "{e}");
            None
        }
    }
}

/// The workspaces of the configured backend, or the error printed.
fn all_workspaces(g: &Global, loc: &Location, io: &mut Io<'_>) -> Result<Vec<String>, i32> {
    crate::backend::workspaces(&g.dir, loc).map_err(|e| {
        let _ = writeln!(io.stderr, "Failed to get configured named states: {e}");
        1
    })
}

fn list(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    if parse(&WORKSPACE_LIST, a, io).is_none() {
        return 1;
    }
    let loc = match location_or_report(g, io) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let names = match all_workspaces(g, &loc, io) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let current = current_workspace(&g.dir);
    let mut out = String::new();
    for name in names {
        let mark = if name == current { "* " } else { "  " };
        out.push_str(&format!("{mark}{name}\n"));
    }
    let _ = writeln!(io.stdout, "{out}");
    0
}

fn show(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    if parse(&WORKSPACE_SHOW, a, io).is_none() {
        return 1;
    }
    let _ = writeln!(io.stdout, "{}", current_workspace(&g.dir));
    0
}

fn one_name(io: &mut Io<'_>, p: &args::Parsed, usage: &str) -> Option<String> {
    match p.positional.as_slice() {
        [name] => Some(name.clone()),
        _ => {
            let _ = writeln!(io.stderr, "Expected a single argument: NAME.\n\n{usage}");
            None
        }
    }
}

fn check_name(io: &mut Io<'_>, name: &str) -> bool {
    if valid_workspace_name(name) {
        return true;
    }
    let _ = writeln!(io.stderr, "\nThe workspace name {name:?} is not allowed. The name must contain only URL safe\ncharacters, and no path separators.\n");
    false
}

fn set_current(g: &Global, name: &str) -> std::io::Result<()> {
    let env = environment_file(&g.dir);
    if let Some(parent) = env.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(env, name)
}

fn new(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let Some(p) = parse(&WORKSPACE_NEW, a, io) else {
        return 1;
    };
    let Some(name) = one_name(io, &p, usage_line(WORKSPACE_NEW.help)) else {
        return 1;
    };
    if !check_name(io, &name) {
        return 1;
    }
    let loc = match location_or_report(g, io) {
        Ok(l) => l,
        Err(code) => return code,
    };
    match all_workspaces(g, &loc, io) {
        Ok(names) if names.contains(&name) => {
            let _ = writeln!(io.stderr, "Workspace {name:?} already exists");
            return 1;
        }
        Ok(_) => {}
        Err(code) => return code,
    }
    // A seed state (-state=FILE) is read before anything is created.
    let seed = match p.value("state") {
        None => None,
        Some(src) => {
            let parsed = std::fs::read(g.dir.join(src))
                .map_err(|e| e.to_string())
                .and_then(|b| ferro_state::read_state(&b).map_err(|e| e.0));
            match parsed {
                Ok(s) => Some(s),
                Err(e) => {
                    let _ = writeln!(io.stderr, "Error loading state from {src:?}: {e}");
                    return 1;
                }
            }
        }
    };
    if let Location::Local(layout) = &loc {
        if let Err(e) = std::fs::create_dir_all(layout.workspace_dir(&g.dir, &name)) {
            let _ = writeln!(io.stderr, "Failed to create workspace {name:?}: {e}");
            return 1;
        }
    }
    if let Location::Http(_) = &loc {
        let _ = writeln!(io.stderr, "Failed to create workspace {name:?}: workspaces not supported: the \"http\" backend has only the \"default\" workspace");
        return 1;
    }
    // A pg or s3 workspace exists once it has a row or object: it starts with an empty
    // state, as Terraform's.
    let seed = match (seed, &loc) {
        (None, Location::Pg(_) | Location::S3(_)) => {
            Some(ferro_state::State::new(ferro_state::new_lineage()))
        }
        (seed, _) => seed,
    };
    if let Some(mut state) = seed {
        let rel = match &loc {
            Location::Local(layout) => layout.state_rel(&name),
            _ => String::new(),
        };
        let mut backend = match open_workspace(&g.dir, &loc, &name) {
            Ok(b) => b,
            Err(e) => {
                let _ = writeln!(io.stderr, "Failed to create workspace {name:?}: {e}");
                return 1;
            }
        };
        match crate::encryption::for_state(g, io) {
            Ok(enc) => backend.set_encryption(enc),
            Err(code) => return code,
        }
        backend.set_errored_dir(g.dir.clone());
        if let Err(code) = crate::cmd_lock::take(backend.as_mut(), &p, "workspace-new", &rel, io) {
            return code;
        }
        if let Err(e) = backend.persist(&mut state) {
            let _ = writeln!(io.stderr, "Failed to write the new workspace's state: {e}");
            return 1;
        }
    }
    if let Err(e) = set_current(g, &name) {
        let _ = writeln!(io.stderr, "Failed to select workspace {name:?}: {e}");
        return 1;
    }
    let _ = write!(io.stdout, "Created and switched to workspace {name:?}!\n\nYou're now on a new, empty workspace. Workspaces isolate their state,\nso if you run \"ferro plan\" ferro will not see any existing state\nfor this configuration.\n");
    0
}

fn select(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let Some(p) = parse(&WORKSPACE_SELECT, a, io) else {
        return 1;
    };
    let Some(name) = one_name(io, &p, usage_line(WORKSPACE_SELECT.help)) else {
        return 1;
    };
    if !check_name(io, &name) {
        return 1;
    }
    if name == current_workspace(&g.dir) {
        let _ = writeln!(io.stdout, "You're already on workspace {name:?}.");
        return 0;
    }
    let loc = match location_or_report(g, io) {
        Ok(l) => l,
        Err(code) => return code,
    };
    match all_workspaces(g, &loc, io) {
        Ok(names) if names.contains(&name) => {}
        Ok(_) => {
            let _ = write!(io.stderr, "\nWorkspace {name:?} doesn't exist.\n\nYou can create this workspace with the \"new\" subcommand.\n");
            return 1;
        }
        Err(code) => return code,
    }
    if let Err(e) = set_current(g, &name) {
        let _ = writeln!(io.stderr, "Failed to select workspace {name:?}: {e}");
        return 1;
    }
    let _ = writeln!(io.stdout, "Switched to workspace {name:?}.");
    0
}

fn delete(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let Some(p) = parse(&WORKSPACE_DELETE, a, io) else {
        return 1;
    };
    let Some(name) = one_name(io, &p, usage_line(WORKSPACE_DELETE.help)) else {
        return 1;
    };
    if !check_name(io, &name) {
        return 1;
    }
    let loc = match location_or_report(g, io) {
        Ok(l) => l,
        Err(code) => return code,
    };
    match all_workspaces(g, &loc, io) {
        Ok(names) if names.contains(&name) => {}
        Ok(_) => {
            let _ = write!(io.stderr, "Workspace {name:?} doesn't exist.\n\nYou can create this workspace with the \"new\" subcommand.\n");
            return 1;
        }
        Err(code) => return code,
    }
    if name == current_workspace(&g.dir) {
        let _ = write!(io.stderr, "Workspace {name:?} is your active workspace.\n\nYou cannot delete the currently active workspace. Please switch\nto another workspace and try again.\n");
        return 1;
    }
    if name == DEFAULT_WORKSPACE {
        let _ = writeln!(io.stderr, "cannot delete default state");
        return 1;
    }
    let rel = match &loc {
        Location::Local(layout) => layout.state_rel(&name),
        _ => String::new(),
    };
    let mut backend = match open_workspace(&g.dir, &loc, &name) {
        Ok(b) => b,
        Err(e) => {
            let _ = writeln!(io.stderr, "Failed to delete workspace {name:?}: {e}");
            return 1;
        }
    };
    match crate::encryption::for_state(g, io) {
        Ok(enc) => backend.set_encryption(enc),
        Err(code) => return code,
    }
    if let Err(code) = crate::cmd_lock::take(backend.as_mut(), &p, "workspace-delete", &rel, io) {
        return code;
    }
    let state = match backend.load() {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(io.stderr, "Failed to load state: {e}");
            return 1;
        }
    };
    let has_resources = state
        .as_ref()
        .is_some_and(|s| s.resources.values().any(|r| !r.instances.is_empty()));
    if has_resources && !p.flag("force") {
        let _ = write!(io.stderr, "Workspace {name:?} is not empty.\n\nDeleting {name:?} can result in dangling resources: resources that\nexist but are no longer manageable by ferro. Please destroy\nthese resources first.  If you want to delete this workspace\nanyway and risk dangling resources, use the '-force' flag.\n");
        return 1;
    }
    backend.unlock();
    drop(backend);
    let removed = match &loc {
        Location::Local(layout) => {
            std::fs::remove_dir_all(layout.workspace_dir(&g.dir, &name)).map_err(|e| e.to_string())
        }
        Location::Pg(cfg) => ferro_state::pg::PgStore::connect(cfg)
            .and_then(|s| s.delete_workspace(&name))
            .map_err(|e| e.0),
        Location::S3(cfg) => ferro_state::s3::S3Store::connect(cfg)
            .and_then(|s| s.delete_workspace(&name))
            .map_err(|e| e.0),
        Location::Http(_) => Err("workspaces not supported".to_string()),
    };
    if let Err(e) = removed {
        let _ = writeln!(io.stderr, "Failed to delete workspace {name:?}: {e}");
        return 1;
    }
    let _ = writeln!(io.stdout, "Deleted workspace {name:?}!");
    if has_resources {
        let _ = write!(io.stdout, "WARNING: {name:?} was non-empty.\nThe resources managed by the deleted workspace may still exist,\nbut are no longer manageable by ferro since the state has\nbeen deleted.\n\n");
    }
    0
}
