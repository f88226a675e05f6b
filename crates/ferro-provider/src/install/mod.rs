//! Provider installation: the CLI configuration's installation methods, local mirrors
//! (unpacked and packed layouts), registries and network mirrors over HTTPS (with package
//! authentication), version selection, `.terraform/providers/`, the shared plugin cache and
//! the dependency lock file (`.terraform.lock.hcl`, `h1:` and `zh:` hashes); the archive
//! readers module installation shares (zip, gzip + tar).

pub mod cliconfig;
mod download;
pub mod gcs;
pub mod hash;
mod hcl;
pub mod http;
mod installer;
pub mod lock;
pub mod registry;
pub mod signature;
pub mod source;
pub mod tar;
pub use ferro_addrs::version;
pub mod zip;

pub use download::download_authenticated;
pub use installer::{
    display_addr, locate_dev_override, locate_installed, locate_installed_hashed, package_dir,
    providers_dir, InstallError, InstallEvent, Installer, Requirement,
};

/// Put a new directory at `dest`: `fill` writes it into a sibling temporary directory, which
/// then replaces `dest` whole. A failure leaves `dest` as it was and no temporary behind, so
/// nothing is ever half-installed.
pub fn replace_dir_with(
    dest: &std::path::Path,
    fill: impl FnOnce(&std::path::Path) -> Result<(), String>,
) -> Result<(), String> {
    let parent = dest
        .parent()
        .ok_or_else(|| format!("invalid directory {}", dest.display()))?;
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let tmp = parent.join(format!(
        ".{}.tmp{}",
        dest.file_name().unwrap_or_default().to_string_lossy(),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    if let Err(e) = fill(&tmp) {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let _ = std::fs::remove_dir_all(dest);
    std::fs::rename(&tmp, dest)
        .map_err(|e| format!("cannot move the module into {}: {e}", dest.display()))
}

/// Write `body` at `root`/`rel`, making the directories between.
pub fn write_under(root: &std::path::Path, rel: &str, body: &[u8]) -> Result<(), String> {
    let path = root.join(rel);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(&path, body).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
