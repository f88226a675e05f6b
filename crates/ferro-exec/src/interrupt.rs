//! How an apply is interrupted: a graceful stop (first Ctrl-C: no new steps, running ones finish,
//! state holds everything completed) and an abort (second Ctrl-C: state is saved with what has
//! completed so far and the apply returns without waiting).

use std::sync::atomic::{AtomicBool, Ordering};

/// Set by a signal handler, read by the interpreter's coordinator.
#[derive(Debug, Default)]
pub struct Interrupt {
    stop: AtomicBool,
    abort: AtomicBool,
    saved: AtomicBool,
}

impl Interrupt {
    pub const fn new() -> Self {
        Interrupt {
            stop: AtomicBool::new(false),
            abort: AtomicBool::new(false),
            saved: AtomicBool::new(false),
        }
    }

    /// Ask for a graceful stop.
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Ask to stop at once (implies a stop).
    pub fn request_abort(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.abort.store(true, Ordering::SeqCst);
    }

    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    pub fn abort_requested(&self) -> bool {
        self.abort.load(Ordering::SeqCst)
    }

    /// Whether the state was written after an abort was requested (the handler may then end
    /// the process).
    pub fn saved_after_abort(&self) -> bool {
        self.saved.load(Ordering::SeqCst)
    }

    pub(crate) fn mark_saved(&self) {
        self.saved.store(true, Ordering::SeqCst);
    }
}
