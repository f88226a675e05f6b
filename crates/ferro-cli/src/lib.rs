//! The `ferro` command line: argument parsing, commands, terminal output.
//!
//! `run` is the whole program as a function so golden tests can drive it in-process.

pub mod render;

use std::io::Write;
use std::path::Path;

/// Where a run writes. Tests pass buffers; the binary passes the real streams.
pub struct Io<'a> {
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
}

/// Run `ferro ARGS...` (args exclude the program name) in `cwd`; returns the exit code.
pub fn run(_args: &[String], _cwd: &Path, _io: &mut Io<'_>) -> i32 {
    unimplemented!()
}
