//! Every plugin process still running, so that whatever ends ferro (a second Ctrl-C, SIGTERM,
//! an interrupted plan, an early exit) can kill them all: plugin processes never outlive ferro.
//! Dropping a client kills its process too; this covers the exits that skip destructors.

use super::client::{kill, Process};
use std::sync::{Arc, Mutex, Weak};

static LIVE: Mutex<Vec<Weak<Mutex<Process>>>> = Mutex::new(Vec::new());

/// Remember a started plugin process.
pub(super) fn register(p: &Arc<Mutex<Process>>) {
    let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    live.retain(|w| w.strong_count() > 0);
    live.push(Arc::downgrade(p));
}

/// Kill every plugin process this ferro process started that is still running. Safe to call from
/// any thread (a signal handler's), any number of times.
pub fn kill_all_plugins() {
    let live = std::mem::take(&mut *LIVE.lock().unwrap_or_else(|e| e.into_inner()));
    for w in live {
        if let Some(p) = w.upgrade() {
            kill(&mut p.lock().unwrap_or_else(|e| e.into_inner()));
        }
    }
}
