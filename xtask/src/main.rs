//! `cargo xtask SUBCOMMAND`: repository automation.
//!
//! * `golden [FILTER] [--bless]` runs the golden transcript tests under `testdata/` (FILTER is a
//!   substring of `<area>/<case>`; `--bless`, or `BLESS=1`, rewrites `expected.txt`).
//! * `fmt-oracle` records `testdata/fmt/corpus/*.tf.expected` with the reference terraform.

use std::process::ExitCode;
use xtask::golden;

const USAGE: &str = "usage: cargo xtask <subcommand>

subcommands:
  golden [FILTER] [--bless]   run the golden transcript tests in testdata/
  fmt-oracle                  record testdata/fmt/corpus/*.tf.expected with terraform fmt
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("golden") => golden_cmd(&args[1..]),
        Some("fmt-oracle") => fmt_oracle_cmd(),
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

fn fmt_oracle_cmd() -> ExitCode {
    let data = golden::testdata_dir();
    let repo = data.parent().map(std::path::Path::to_path_buf).unwrap_or_default();
    let terraform = match xtask::fmt_oracle::find_terraform(&repo) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot find the reference terraform: {e}");
            return ExitCode::FAILURE;
        }
    };
    match xtask::fmt_oracle::record(&data.join("fmt/corpus"), &terraform) {
        Ok((written, failed)) => {
            for f in &failed {
                eprintln!("terraform rejected {f}\n");
            }
            println!("{written} expected outputs written, {} inputs rejected by terraform", failed.len());
            if failed.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(e) => {
            eprintln!("cannot read the corpus: {e}");
            ExitCode::FAILURE
        }
    }
}
