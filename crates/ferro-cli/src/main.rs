//! The `ferro` binary: hands the process arguments and streams to `ferro_cli::run`.

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    // Colours only on a terminal, unless FORCE_COLOR asks for them.
    use std::io::IsTerminal;
    let forced = std::env::var("FORCE_COLOR").is_ok_and(|v| !v.is_empty() && v != "0");
    if !forced && !std::io::stderr().is_terminal() && !std::io::stdout().is_terminal() {
        args.insert(0, "-no-color".to_string());
    }
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
    std::process::exit(code);
}
