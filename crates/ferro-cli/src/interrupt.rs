//! Ctrl-C: the first interrupt asks the running operation to stop gracefully (no new changes
//! start, running ones finish, state is saved); a second one exits at once, as Terraform does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// The process-wide interrupt flag, with the handler installed on first use.
pub fn flag() -> &'static AtomicBool {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                eprintln!("\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred.");
                std::process::exit(1);
            }
            eprintln!("\nInterrupt received.\nPlease wait for ferro to exit or data loss may occur.\nGracefully shutting down...");
        });
    });
    &INTERRUPTED
}
