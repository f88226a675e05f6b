//! State locking from the command line: `-lock`, `-lock-timeout`, the "Error acquiring the
//! state lock" report, and `ferro force-unlock`.

use crate::spec::other::FORCE_UNLOCK;
use crate::{args, Global, Io};
use ferro_diag::Diagnostic;
use ferro_state::Backend;
use std::io::BufRead;
use std::time::Duration;

/// Terraform's explanation under a lock failure (`clistate.LockErrorMessage`).
const LOCK_ERROR_TAIL: &str = "ferro acquires a state lock to protect the state from being written\nby multiple users at the same time. Please resolve the issue above and try\nagain. For most commands, you can disable locking with the \"-lock=false\"\nflag, but this is not recommended.";

fn error(io: &mut Io<'_>, code: &str, summary: &str, detail: &str) -> i32 {
    let d = Diagnostic::error(code, summary).with_detail(detail);
    let text = ferro_diag::render(&[d], &ferro_db::Sources::from_files(Vec::new()), false);
    let _ = io.stderr.write_all(text.as_bytes());
    1
}

/// Take the state lock for `operation` as `-lock` and `-lock-timeout` in `p` say. `display` is
/// the state path as the user knows it. On failure the error is printed and the exit code
/// returned.
pub(crate) fn take(
    backend: &mut dyn Backend,
    p: &args::Parsed,
    operation: &str,
    display: &str,
    io: &mut Io<'_>,
) -> Result<(), i32> {
    if !p.bools.get("lock").copied().unwrap_or(true) {
        return Ok(());
    }
    let timeout = match p.value("lock-timeout") {
        None => Duration::ZERO,
        Some(t) => match ferro_state::parse_duration(t) {
            Ok(d) => d,
            Err(e) => return Err(error(io, "cli", "Invalid -lock-timeout value", &e.0)),
        },
    };
    backend.lock(operation, display, timeout).map_err(|e| {
        error(
            io,
            "state-lock",
            "Error acquiring the state lock",
            &format!("Error message: {e}\n\n{LOCK_ERROR_TAIL}"),
        )
    })?;
    fold_journal(backend, io)
}

/// With the lock held, before anything else: a journal an interrupted apply left is folded
/// into the stored state, so Terraform (or anything else reading the state) sees every object
/// that was created, and the user is told in one line.
fn fold_journal(backend: &mut dyn Backend, io: &mut Io<'_>) -> Result<(), i32> {
    let journal = backend.pending_journal().file_name();
    match backend.fold_journal() {
        Ok(0) => Ok(()),
        Ok(n) => {
            let line = format!(
                "Recovered {n} change{} recorded by an interrupted apply in {journal} and saved {} into the state.\n",
                if n == 1 { "" } else { "s" },
                if n == 1 { "it" } else { "them" },
            );
            // Machine-readable output stays one JSON document per line.
            let out = if crate::json_ui::active() {
                &mut *io.stderr
            } else {
                &mut *io.stdout
            };
            let _ = out.write_all(line.as_bytes());
            Ok(())
        }
        Err(e) => Err(error(
            io,
            "state-journal",
            "Failed to save the recovered state",
            &format!("{journal} holds changes of an interrupted apply that are not in the state yet, and they could not be saved into it: {e}\n\nNothing was changed; the journal is kept, and the next command tries again."),
        )),
    }
}

/// `ferro force-unlock [-force] LOCK_ID`.
///
/// A local state lock is an OS lock held by a process; it ends when that process ends and no
/// other process can release it, so (as in Terraform) this only succeeds for a lock that is no
/// longer held: it then removes the stale lock description.
pub fn force_unlock(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match FORCE_UNLOCK.parse(a) {
        Ok(p) => p,
        Err(e) => {
            let _ = write!(io.stderr, "{e}\n{}", FORCE_UNLOCK.help);
            return 1;
        }
    };
    let [id] = p.positional.as_slice() else {
        let _ = write!(
            io.stderr,
            "Expected a single argument: LOCK_ID\n{}",
            FORCE_UNLOCK.help
        );
        return 1;
    };
    if !p.flag("force") {
        let _ = write!(io.stdout, "Do you really want to force-unlock?\n  ferro will remove the lock on the remote state.\n  This will allow local ferro commands to modify this state, even though it\n  may still be in use. Only 'yes' will be accepted to confirm.\n\n  Enter a value: ");
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
            let _ = writeln!(io.stdout, "force-unlock cancelled.");
            return 1;
        }
    }
    let fail = |io: &mut Io<'_>, msg: &str| {
        let _ = writeln!(io.stderr, "Failed to unlock state: {msg}");
        1
    };
    let unlocked = "ferro state has been successfully unlocked!\n\nThe state has been unlocked, and ferro commands should now be able to\nobtain a new lock on the remote state.\n";
    let loc = match crate::backend::location_or_report(g, io) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let workspace = ferro_state::workspace::current_workspace(&g.dir);
    match &loc {
        crate::backend::Location::S3(cfg) => {
            return match ferro_state::s3::S3Store::connect(cfg)
                .and_then(|s| s.unlock(&workspace, id))
            {
                Ok(()) => {
                    let _ = write!(io.stdout, "{unlocked}");
                    0
                }
                Err(e) => fail(io, &e.0),
            };
        }
        crate::backend::Location::Http(cfg) => {
            let mut info = ferro_state::LockInfo::new("", "");
            info.id = id.to_string();
            return match ferro_state::http::HttpStore::new(cfg).and_then(|s| s.unlock(&info)) {
                Ok(()) => {
                    let _ = write!(io.stdout, "{unlocked}");
                    0
                }
                Err(e) => fail(io, &e.0),
            };
        }
        _ => {}
    }
    if let crate::backend::Location::Pg(cfg) = &loc {
        // A pg lock belongs to a database session: ending ferro's session that holds it
        // releases it.
        return match ferro_state::pg::PgStore::connect(cfg).and_then(|s| s.force_unlock(id)) {
            Ok(true) => {
                let _ = write!(io.stdout, "{unlocked}");
                0
            }
            Ok(false) => fail(io, &format!("no session holds a ferro lock with ID {id:?}")),
            Err(e) => fail(io, &e.0),
        };
    }
    let path = crate::backend::current_state_path(&g.dir);
    let info = ferro_state::read_lock_info(&path);
    match info {
        Some(info) if info.id != *id => fail(
            io,
            &format!("lock id {id:?} does not match existing lock"),
        ),
        Some(_) if ferro_state::is_locked(&path) => fail(
            io,
            "the lock is held by a running process; local state files cannot be unlocked by another process",
        ),
        Some(_) => {
            if let Err(e) = std::fs::remove_file(ferro_state::lock_info_path(&path)) {
                return fail(io, &e.to_string());
            }
            let _ = write!(io.stdout, "{unlocked}");
            0
        }
        None => fail(io, "LocalState not locked"),
    }
}
