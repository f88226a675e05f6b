//! Ctrl-C (SIGINT) and SIGTERM/SIGHUP, as Terraform handles an interrupt.
//!
//! While an apply is changing infrastructure, the first signal asks it to stop gracefully (no new
//! changes start, running ones finish, state is saved, exit 1); a second one aborts at once, but
//! only after the state holds everything that has completed. At any other time (planning, the
//! confirmation prompt) nothing has been changed, so ferro stops its providers and exits. Either
//! way no provider plugin process is left running.

use ferro_exec::Interrupt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Once;
use std::time::{Duration, Instant};

static INTERRUPT: Interrupt = Interrupt::new();
static APPLYING: AtomicBool = AtomicBool::new(false);
static RECEIVED: AtomicUsize = AtomicUsize::new(0);
static INSTALL: Once = Once::new();

/// The longest an abort waits for the state to be written before ending the process anyway.
const SAVE_WAIT: Duration = Duration::from_secs(30);

/// Handle interrupts in this process from now on (the `ferro` binary calls this once).
pub fn install() {
    INSTALL.call_once(|| {
        let _ = ctrlc::set_handler(on_signal);
    });
}

/// A panic nothing catches ends the process at once, after ending every process ferro started
/// (plugins, provisioner commands) and releasing held state locks: unwinding could wait for
/// worker threads forever, and nothing started must outlive ferro. Panics that ferro catches
/// and reports (a step's, marked by `ferro_pool::catching`) only print, as before.
pub fn install_panic_exit() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report(info);
        if !ferro_pool::panic_is_caught() {
            ferro_provider::process::kill_all();
            ferro_provider::plugin::kill_all_plugins();
            ferro_state::release_all_held_locks();
            std::process::exit(101);
        }
    }));
}

/// What an apply watches (never set unless [`install`] was called).
pub fn interrupt() -> &'static Interrupt {
    &INTERRUPT
}

/// Marks the time an apply is changing infrastructure (until dropped).
pub struct Applying(());

pub fn applying() -> Applying {
    APPLYING.store(true, Ordering::SeqCst);
    Applying(())
}

impl Drop for Applying {
    fn drop(&mut self) {
        APPLYING.store(false, Ordering::SeqCst);
    }
}

fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

const GRACEFUL: &str = "\nInterrupt received.\nPlease wait for ferro to exit or data loss may occur.\nGracefully shutting down...\n\nStopping operation...\n";

fn on_signal() {
    let n = RECEIVED.fetch_add(1, Ordering::SeqCst) + 1;
    if !APPLYING.load(Ordering::SeqCst) {
        if n == 1 {
            say(GRACEFUL);
        }
        ferro_provider::plugin::kill_all_plugins();
        ferro_state::release_all_held_locks();
        std::process::exit(1);
    }
    if n == 1 {
        INTERRUPT.request_stop();
        say(GRACEFUL);
        return;
    }
    eprintln!(
        "\nTwo interrupts received. Exiting immediately. Note that data loss may have occurred."
    );
    INTERRUPT.request_abort();
    let deadline = Instant::now() + SAVE_WAIT;
    while !INTERRUPT.saved_after_abort()
        && APPLYING.load(Ordering::SeqCst)
        && Instant::now() < deadline
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    if !APPLYING.load(Ordering::SeqCst) && !INTERRUPT.saved_after_abort() {
        // The apply ended on its own and its caller is writing the outcome; let it finish.
        return;
    }
    ferro_provider::plugin::kill_all_plugins();
    std::process::exit(1);
}
