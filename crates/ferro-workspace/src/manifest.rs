//! `.terraform/modules/modules.json`: the module calls `init` installed, as Terraform records
//! them (`Key`, `Source`, `Version`, `Dir`).

use std::path::Path;

/// Where the manifest lives, relative to the working directory.
pub const MANIFEST: &str = ".terraform/modules/modules.json";

/// One installed module call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    pub key: String,
    pub source: String,
    /// The version chosen from a module registry.
    pub version: Option<String>,
    /// The directory, relative to the working directory, without a trailing `/`.
    pub dir: String,
}

/// The entries of the manifest in `root`; none when there is no readable one.
pub fn read_manifest(root: &Path) -> Vec<Installed> {
    let Ok(text) = std::fs::read_to_string(root.join(MANIFEST)) else {
        return Vec::new();
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    v.get("Modules")
        .and_then(|m| m.as_array())
        .into_iter()
        .flatten()
        .filter_map(|m| {
            Some(Installed {
                key: m.get("Key")?.as_str()?.to_string(),
                source: m.get("Source")?.as_str()?.to_string(),
                version: m
                    .get("Version")
                    .and_then(|v| v.as_str())
                    .map(str::to_string),
                dir: m.get("Dir")?.as_str()?.trim_end_matches('/').to_string(),
            })
        })
        .collect()
}

/// The installed directories of non-local module sources, by key.
pub fn read_installed(root: &Path) -> Vec<(String, String)> {
    read_manifest(root)
        .into_iter()
        .filter(|m| !m.key.is_empty() && !ferro_db::is_local_source(&m.source))
        .map(|m| (m.key, m.dir))
        .collect()
}
