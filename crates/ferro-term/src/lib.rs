//! Terminal control that needs the C library, kept apart because the rest of the workspace
//! forbids `unsafe`: raw mode for a line editor (with a guard that puts the previous mode
//! back), the width of the terminal, and pseudo-terminal pairs for tests that drive an
//! interactive program.
//!
//! Every `unsafe` block is a single C call on a file descriptor the caller keeps open, with
//! its result checked.

#[cfg(unix)]
mod unix;

#[cfg(unix)]
pub use unix::{columns, is_canonical, RawMode};

#[cfg(target_os = "linux")]
pub use unix::{open_pty, Pty};
