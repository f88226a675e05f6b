//! Runs every golden case under `testdata/` through the real CLI (`BLESS=1` re-records them).

#[test]
fn golden_cases() {
    let bless = std::env::var("BLESS").is_ok_and(|v| !v.is_empty() && v != "0");
    let filter = std::env::var("GOLDEN_FILTER").ok();
    let summary = xtask::golden::run_all(
        &xtask::golden::testdata_dir(),
        filter.as_deref(),
        ferro_cli::run,
        bless,
        2,
    )
    .expect("cannot read testdata/");
    if !summary.ok() {
        panic!("golden tests failed:\n\n{}", summary.report());
    }
    eprint!("{}", summary.report());
}
