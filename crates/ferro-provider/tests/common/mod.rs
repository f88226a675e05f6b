//! Shared by the integration tests: the oracle cache with the real null provider.

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::OnceLock;

/// The oracle cache directory (running the repository's `tools/fetch-oracles.sh`, which
/// downloads through pip on first use).
pub fn oracle_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(run_oracles).clone()
}

fn run_oracles() -> PathBuf {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/fetch-oracles.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .output()
        .expect("run tools/fetch-oracles.sh");
    assert!(
        out.status.success(),
        "tools/fetch-oracles.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let dir = text
        .lines()
        .find_map(|l| l.strip_prefix("export FERRO_ORACLES="))
        .expect("fetch-oracles.sh prints FERRO_ORACLES");
    PathBuf::from(dir)
}

/// The filesystem mirror holding null 2.1.2 (unpacked layout).
pub fn oracle_mirror() -> PathBuf {
    oracle_dir().join("mirror")
}

pub fn null_binary() -> PathBuf {
    let p = oracle_mirror().join(
        "registry.terraform.io/hashicorp/null/2.1.2/linux_amd64/terraform-provider-null_v2.1.2_x4",
    );
    assert!(p.is_file(), "missing {}", p.display());
    p
}

/// A fresh temporary directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ferro-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
