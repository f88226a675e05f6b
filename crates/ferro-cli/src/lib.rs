//! The `ferro` command line: argument parsing, commands, terminal output.
//!
//! `run` is the whole program as a function so golden tests can drive it in-process.
//! **Architecture invariant:** this crate (with ferro-lsp and xtask) is the only one that does
//! terminal IO or parses command lines.

mod args;
mod backend;
mod backend_static;
pub mod cmd_console;
mod cmd_fmt;
mod cmd_get;
mod cmd_graph;
mod cmd_import;
mod cmd_init;
mod cmd_lock;
mod cmd_output;
mod cmd_providers;
mod cmd_providers_lock;
mod cmd_providers_mirror;
mod cmd_refresh;
mod cmd_show;
mod cmd_state;
mod cmd_taint;
mod cmd_version;
mod cmd_workspace;
mod commands;
mod console_terminal;
mod converge;
mod encryption;
mod env;
mod follow_on;
mod genconfig;
mod init_backend;
mod init_modules;
pub mod interrupt;
mod line_editor;
mod load;
mod module_fetch;
mod module_s3;
mod provider_for_each;
mod spec;
mod static_eval;
mod static_sources;
mod stored_schemas;
mod target_file;
pub mod test;
mod ui;
pub use env::with_env;
/// The renderers live below the CLI, in ferro-render.
pub use ferro_render as render;
use ferro_render::{json_ui, validate_json};

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

  ferro makes infrastructure match the configuration in the working
  directory. Name a command from the lists below; \"ferro COMMAND -help\"
  explains it.

Common commands:
  init          Set up the directory: backend, modules and providers
  validate      Look for errors in the configuration, offline
  plan          Work out and print what apply would change
  apply         Carry out the changes the configuration calls for
  destroy       Delete every object the state tracks

Further commands:
  console       Evaluate expressions against the configuration and state
  fmt           Tidy the layout of configuration files
  force-unlock  Clear a state lock a finished run left behind
  get           Fetch the called modules into .terraform/modules
  graph         Print the dependency graph in Graphviz's DOT language
  import        Start tracking an object that already exists
  lsp           Run the language server for editors
  output        Print the root module's output values
  providers     List the providers the configuration and state need
  refresh       Read every tracked object back into the state
  show          Print the state, or a plan saved to a file
  state         Inspect and edit the state directly
  taint         Mark an instance for replacement by the next plan
  test          Run the module's test files (*.tftest.hcl)
  untaint       Clear the replacement mark set by taint
  version       Print ferro's version and the providers locked
  workspace     Keep several states for one configuration

Global options, given before the command:
  -chdir=DIR    Run the command as if started in DIR.
  -help         Print this list; with a command, that command's help
                (also -h or --help, and after the command as well).
  -no-color     Print without terminal colours (after the command too).
  -version      The same as the version command (also -v).
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
    let mut rest = match env::merge_cli_args(rest) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(io.stderr, "{e}");
            return 1;
        }
    };
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
    encryption::begin_run(&g.dir, cmd_args);
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
        "show" => cmd_show::show(&g, cmd_args, io),
        "output" => cmd_output::output(&g, cmd_args, io),
        "console" => cmd_console::console(&g, cmd_args, io),
        "state" => cmd_state::state(&g, cmd_args, io),
        "workspace" => cmd_workspace::workspace(&g, cmd_args, io),
        "refresh" => cmd_refresh::refresh(&g, cmd_args, io),
        "force-unlock" => cmd_lock::force_unlock(&g, cmd_args, io),
        "import" => cmd_import::import(&g, cmd_args, io),
        "providers" => cmd_providers::providers(&g, cmd_args, io),
        "get" => cmd_get::get(&g, cmd_args, io),
        "graph" => cmd_graph::graph(&g, cmd_args, io),
        "taint" => cmd_taint::taint(&g, cmd_args, io, true),
        "untaint" => cmd_taint::taint(&g, cmd_args, io, false),
        "test" => test::test(&g, cmd_args, io),
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
