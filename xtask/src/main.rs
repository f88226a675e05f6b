//! `cargo xtask SUBCOMMAND`: repository automation.
//!
//! * `console-oracle` records terraform's console output for the expression corpus.
//! * `golden [FILTER] [--bless]` runs the golden transcript tests under `testdata/` (FILTER is a
//!   substring of `<area>/<case>`; `--bless`, or `BLESS=1`, rewrites `expected.txt`).

use std::process::ExitCode;
use xtask::golden;

const USAGE: &str = "usage: cargo xtask <subcommand>

subcommands:
  golden [FILTER] [--bless]   run the golden transcript tests in testdata/
  console-oracle              record terraform 1.0.3 console output for testdata/console/exprs.txt
  bench eval                  time and count allocations of expression evaluation
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("golden") => golden_cmd(&args[1..]),
        Some("bench") => {
            let which = args.get(1).cloned().unwrap_or_else(|| "eval".into());
            let status = std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                .args(["run", "--release", "-q", "-p", "ferro-bench", "--", &which])
                .status();
            match status {
                Ok(s) if s.success() => ExitCode::SUCCESS,
                _ => ExitCode::FAILURE,
            }
        }
        Some("console-oracle") => match xtask::console_oracle::run() {
            Ok(n) => {
                println!("recorded {n} expressions in testdata/console/expected.txt");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("console-oracle: {e}");
                ExitCode::FAILURE
            }
        },
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("unknown subcommand {other:?}\n\n{USAGE}");
            ExitCode::from(2)
        }
        None => {
            eprintln!("no subcommand given\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn golden_cmd(args: &[String]) -> ExitCode {
    let mut bless = std::env::var("BLESS").is_ok_and(|v| !v.is_empty() && v != "0");
    let mut filter: Option<&str> = None;
    for a in args {
        match a.as_str() {
            "--bless" => bless = true,
            flag if flag.starts_with('-') => {
                eprintln!("unknown option {flag:?}\n\n{USAGE}");
                return ExitCode::from(2);
            }
            f if filter.is_none() => filter = Some(f),
            extra => {
                eprintln!("unexpected argument {extra:?} (only one FILTER is allowed)\n\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let root = golden::testdata_dir();
    let cases = match golden::discover(&root, filter) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("cannot read {}: {e}", root.display());
            return ExitCode::FAILURE;
        }
    };
    if cases.is_empty() {
        match filter {
            Some(f) => {
                eprintln!("no golden cases match {f:?}");
                return ExitCode::FAILURE;
            }
            None => eprintln!("no golden cases under {}", root.display()),
        }
    }
    let summary = golden::run_cases(&cases, ferro_cli::run, bless, 2);
    for (name, outcome) in &summary.results {
        match outcome {
            golden::Outcome::Passed => println!("ok      {name}"),
            golden::Outcome::Blessed => println!("blessed {name}"),
            golden::Outcome::Failed(_) => println!("FAIL    {name}"),
        }
    }
    println!();
    print!("{}", summary.report());
    if summary.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
