//! Terminal control that needs the C library, kept apart because the rest of the workspace
//! forbids `unsafe`: raw mode for a line editor (with a guard that puts the previous mode
//! back), the width of the terminal, and pseudo-terminal pairs for tests that drive an
//! interactive program; and the C allocator's tuning for the process.
//!
//! Every `unsafe` block is a single C call: on a file descriptor the caller keeps open, with
//! its result checked, or the allocator's tuning once at start-up.

mod malloc;
#[cfg(unix)]
mod unix;

pub use malloc::limit_arenas as limit_malloc_arenas;

#[cfg(unix)]
pub use unix::{columns, is_canonical, RawMode};

#[cfg(target_os = "linux")]
pub use unix::{open_pty, Pty};
