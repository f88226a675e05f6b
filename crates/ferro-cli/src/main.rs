//! The `ferro` binary: hands the process arguments and streams to `ferro_cli::run`.

/// jemalloc rather than the C library's malloc: see the note in Cargo.toml.
#[cfg(all(unix, not(target_env = "musl"), not(feature = "system-alloc")))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

fn main() {
    // The planner gives freed pages back where it frees much at once (see its `memory`).
    #[cfg(all(unix, not(target_env = "musl"), not(feature = "system-alloc")))]
    ferro_planner::memory::set_give_back(ferro_term::allocator_purge);
    // jemalloc read its options before main; naming them here keeps them in the binary.
    #[cfg(all(unix, not(target_env = "musl"), not(feature = "system-alloc")))]
    std::hint::black_box(&ferro_term::ALLOCATOR_OPTIONS);
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // Colours only on a terminal, unless FORCE_COLOR asks for them.
    use std::io::IsTerminal;
    let forced = std::env::var("FORCE_COLOR").is_ok_and(|v| !v.is_empty() && v != "0");
    if !forced && !std::io::stderr().is_terminal() && !std::io::stdout().is_terminal() {
        args.insert(0, "-no-color".to_string());
    }
    // Commands that run providers handle interrupts as Terraform does; the others keep the
    // default (the console reads Ctrl-C as a key in raw mode).
    let mut rest = args.iter().map(String::as_str);
    let mut command = None;
    while let Some(a) = rest.next() {
        if matches!(a, "-chdir" | "--chdir") {
            rest.next();
        } else if !a.starts_with('-') {
            command = Some(a);
            break;
        }
    }
    if matches!(
        command,
        Some("plan" | "apply" | "destroy" | "import" | "test")
    ) {
        ferro_cli::interrupt::install();
    }
    // The language server answers a panicking request with an error and goes on.
    if command != Some("lsp") {
        ferro_cli::interrupt::install_panic_exit();
    }
    enter_chdir(&mut args);
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("."));
    let mut stdout = std::io::stdout();
    let mut stderr = std::io::stderr();
    let code = ferro_cli::run(
        &args,
        &cwd,
        &mut ferro_cli::Io {
            stdout: &mut stdout,
            stderr: &mut stderr,
            stdin: None,
        },
    );
    if let Some(path) = std::env::var_os("FERRO_RPC_STATS").filter(|p| !p.is_empty()) {
        // For benchmarks: how many provider calls of each kind this run made.
        let lines: String = ferro_provider::plugin::rpc_counts()
            .into_iter()
            .map(|(method, n)| format!("{method} {n}\n"))
            .collect();
        let _ = std::fs::write(path, lines);
    }
    std::process::exit(code);
}

/// `-chdir=DIR` (a global option, before the command) switches the process's own working
/// directory, as Terraform's does: providers, built in or plugins, then resolve relative paths
/// (`local_file`'s `filename`, say) against the configuration's directory. The option is taken
/// off the arguments once applied; a directory that cannot be entered is left for `run` to
/// report.
fn enter_chdir(args: &mut Vec<String>) {
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        let a = args[i].trim_start_matches('-');
        let (dir, taken) = if let Some(d) = a.strip_prefix("chdir=") {
            (d.to_string(), 1)
        } else if a == "chdir" && i + 1 < args.len() {
            (args[i + 1].clone(), 2)
        } else {
            i += 1;
            continue;
        };
        if std::path::Path::new(&dir).is_dir() && std::env::set_current_dir(&dir).is_ok() {
            args.drain(i..i + taken);
        } else {
            i += taken;
        }
    }
}
