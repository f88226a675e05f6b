//! The `ferro` command line: argument parsing, commands, terminal output.
//!
//! `run` is the whole program as a function so golden tests can drive it in-process.
//! **Architecture invariant:** this crate (with ferro-lsp and xtask) is the only one that does
//! terminal IO or parses command lines.

mod args;
mod backend;
pub mod cmd_console;
mod cmd_fmt;
mod cmd_get;
mod cmd_graph;
mod cmd_init;
mod cmd_lock;
mod cmd_output;
mod cmd_providers;
mod cmd_refresh;
mod cmd_state;
mod cmd_taint;
mod cmd_version;
mod cmd_workspace;
mod commands;
mod console_terminal;
mod env;
mod graph_dot;
mod init_backend;
mod init_modules;
pub mod interrupt;
pub(crate) mod json_ui;
mod line_editor;
mod load;
pub mod render;
mod spec;
mod validate_json;
pub use env::with_env;

use std::io::Write;
use std::path::{Path, PathBuf};

/// Where a run writes. Tests pass buffers; the binary passes the real streams.
pub struct Io<'a> {
    pub stdout: &'a mut (dyn Write + Send),
    pub stderr: &'a mut (dyn Write + Send),
    /// Standard input for commands that read it (`console`, `fmt -`, confirmation prompts);
    /// None means the process's own standard input.
    pub stdin: Option<&'a mut (dyn std::io::BufRead + Send)>,
}

/// Settings every command shares.
pub(crate) struct Global {
    pub dir: PathBuf,
    pub color: bool,
}

/// The command list `ferro`, `ferro -help` and an unknown command print.
pub(crate) const USAGE: &str = "Usage: ferro [global options] <subcommand> [args]

The available commands for execution are listed below.

Main commands:
  init          Prepare your working directory for other commands
  validate      Check whether the configuration is valid
  plan          Show changes required by the current configuration
  apply         Create or update infrastructure
  destroy       Destroy previously-created infrastructure

All other commands:
  console       Try ferro expressions at an interactive command prompt
  fmt           Reformat your configuration in the standard style
  force-unlock  Release a stuck lock on the current workspace
  get           Install or upgrade remote ferro modules
  graph         Generate a Graphviz graph of the steps in an operation
  import        Associate existing infrastructure with a ferro resource
  lsp           Run the language server for editors
  output        Show output values from your root module
  providers     Show the providers required for this configuration
  refresh       Update the state to match remote systems
  show          Show the current state or a saved plan
  state         Advanced state management
  taint         Mark a resource instance as not fully functional
  untaint       Remove the 'tainted' state from a resource instance
  version       Show the current ferro version
  workspace     Workspace management

Global options (use these before the subcommand, if any):
  -chdir=DIR    Switch to a different working directory before executing the
                given subcommand.
  -help         Show this help output, or the help of the given command
                (also -h, --help; after the command too).
  -no-color     Disable color output (also accepted after the subcommand).
";

/// Run `ferro ARGS...` (args exclude the program name) in `cwd`; returns the exit code.
pub fn run(args: &[String], cwd: &Path, io: &mut Io<'_>) -> i32 {
    // hashicorp/random, hashicorp/null, ... run in process unless a plugin is installed.
    ferro_providers::install();
    let mut dir = cwd.to_path_buf();
    let mut color = true;
    let mut help = false;
    let mut rest: Vec<String> = Vec::new();
    let mut i = 0;
    // Global options come before the subcommand.
    while i < args.len() && args[i].starts_with('-') {
        let a = args[i].trim_start_matches('-');
        if let Some(d) = a.strip_prefix("chdir=") {
            dir = cwd.join(d);
        } else if a == "chdir" && i + 1 < args.len() {
            i += 1;
            dir = cwd.join(&args[i]);
        } else if a == "no-color" {
            color = false;
        } else if a == "help" || a == "h" {
            // As Terraform: `ferro -help plan` is plan's help.
            help = true;
        } else if a == "version" || a == "v" {
            rest.push("version".into());
        } else {
            let _ = writeln!(io.stderr, "Error: unknown global option -{a}\n\n{USAGE}");
            return 1;
        }
        i += 1;
    }
    rest.extend(args[i..].iter().cloned());
    if rest.iter().any(|a| a == "-no-color" || a == "--no-color") {
        color = false;
        rest.retain(|a| a != "-no-color" && a != "--no-color");
    }
    if !dir.is_dir() {
        let _ = writeln!(
            io.stderr,
            "Error: Invalid -chdir option: the directory {} does not exist.",
            dir.display()
        );
        return 1;
    }
    let g = Global { dir, color };
    let Some(cmd) = rest.first().cloned() else {
        let _ = io.stdout.write_all(USAGE.as_bytes());
        // Terraform's exit codes: 0 when help was asked for, 127 for no command at all.
        return if help { 0 } else { 127 };
    };
    let cmd_args = &rest[1..];
    // `-help` (or `-h`, `--help`) anywhere before a `--` shows the command's help, whatever
    // else is on the line; an unknown command stays an error.
    if help || args::wants_help(cmd_args) {
        if let Some(text) = spec::help_for(&cmd, cmd_args) {
            let _ = io.stdout.write_all(text.as_bytes());
            if !text.ends_with('\n') {
                let _ = io.stdout.write_all(b"\n");
            }
            return 0;
        }
    }
    match cmd.as_str() {
        "init" => cmd_init::init(&g, cmd_args, io),
        "validate" => commands::validate(&g, cmd_args, io),
        "fmt" => cmd_fmt::fmt(&g, cmd_args, io),
        "plan" => commands::plan(&g, cmd_args, io),
        "apply" => commands::apply(&g, cmd_args, io, false),
        "destroy" => commands::apply(&g, cmd_args, io, true),
        "show" => commands::show(&g, cmd_args, io),
        "output" => cmd_output::output(&g, cmd_args, io),
        "console" => cmd_console::console(&g, cmd_args, io),
        "state" => cmd_state::state(&g, cmd_args, io),
        "workspace" => cmd_workspace::workspace(&g, cmd_args, io),
        "refresh" => cmd_refresh::refresh(&g, cmd_args, io),
        "force-unlock" => cmd_lock::force_unlock(&g, cmd_args, io),
        "import" => commands::import(&g, cmd_args, io),
        "providers" => cmd_providers::providers(&g, cmd_args, io),
        "get" => cmd_get::get(&g, cmd_args, io),
        "graph" => cmd_graph::graph(&g, cmd_args, io),
        "taint" => cmd_taint::taint(&g, cmd_args, io, true),
        "untaint" => cmd_taint::taint(&g, cmd_args, io, false),
        // The language server speaks LSP on the process's own standard streams.
        "lsp" => ferro_lsp::run_stdio(),
        "version" => cmd_version::version(&g, cmd_args, io),
        other => {
            let _ = writeln!(
                io.stderr,
                "ferro has no command named {other:?}.\n\n{USAGE}"
            );
            1
        }
    }
}
