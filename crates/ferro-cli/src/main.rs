//! The `ferro` binary: hands the process arguments and streams to `ferro_cli::run`.

fn main() {
    ferro_cli::interrupt::install();
    let args: Vec<String> = std::env::args().skip(1).collect();
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
