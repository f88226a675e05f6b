//! Where provider packages come from: filesystem mirrors (unpacked
//! `HOST/NS/TYPE/VERSION/OS_ARCH/` directories and packed
//! `HOST/NS/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip` archives) and the origin
//! registry (`providers.v1`) and network mirrors (`index.json`); the package itself is fetched
//! and authenticated by the installer.

use super::registry::Discovery;
use super::version::Version;
use ferro_addrs::Provider as ProviderAddr;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A package of one provider version for one platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PackageLocation {
    /// An unpacked package directory.
    Dir(PathBuf),
    /// A zip archive.
    Zip(PathBuf),
    /// A package the provider's origin registry offers (its download metadata is asked for
    /// once the version is chosen).
    Registry,
    /// A package a network mirror (this base URL) lists.
    Mirror(String),
}

/// Something that lists and provides provider packages.
pub trait PackageSource {
    /// Versions available for `platform` (`linux_amd64`), with where each package is.
    fn available(
        &self,
        addr: &ProviderAddr,
        platform: &str,
    ) -> Result<BTreeMap<Version, PackageLocation>, String>;
    /// For "where we looked" lists in errors.
    fn describe(&self) -> String;
}

/// A local directory in Terraform's mirror layouts.
pub struct FilesystemMirror {
    pub root: PathBuf,
}

impl PackageSource for FilesystemMirror {
    fn available(
        &self,
        addr: &ProviderAddr,
        platform: &str,
    ) -> Result<BTreeMap<Version, PackageLocation>, String> {
        let mut out = BTreeMap::new();
        let type_dir = self
            .root
            .join(&addr.hostname)
            .join(&addr.namespace)
            .join(&addr.ty);
        let entries = match std::fs::read_dir(&type_dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
            Err(e) => {
                return Err(format!(
                    "cannot read the mirror directory {}: {e}",
                    type_dir.display()
                ))
            }
        };
        let zip_prefix = format!("terraform-provider-{}_", addr.ty);
        let zip_suffix = format!("_{platform}.zip");
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = entry.path();
            if path.is_dir() {
                // Unpacked: VERSION/OS_ARCH/ containing the executable.
                let Ok(v) = Version::parse(&name) else {
                    continue;
                };
                if name.starts_with('v') {
                    continue;
                }
                let pkg = path.join(platform);
                if pkg.is_dir() {
                    out.entry(v).or_insert(PackageLocation::Dir(pkg));
                }
            } else if let Some(v) = name
                .strip_prefix(&zip_prefix)
                .and_then(|r| r.strip_suffix(&zip_suffix))
            {
                if let Ok(v) = Version::parse(v) {
                    out.entry(v).or_insert(PackageLocation::Zip(path));
                }
            }
        }
        Ok(out)
    }

    fn describe(&self) -> String {
        format!("the filesystem mirror {}", self.root.display())
    }
}

/// The provider's origin registry (`direct`), or a network mirror (`network_mirror`).
pub struct NetworkSource {
    /// `None` for `direct` (the provider's own hostname), else the mirror URL.
    pub mirror_url: Option<String>,
    pub discovery: Arc<Discovery>,
}

impl PackageSource for NetworkSource {
    fn available(
        &self,
        addr: &ProviderAddr,
        _platform: &str,
    ) -> Result<BTreeMap<Version, PackageLocation>, String> {
        match &self.mirror_url {
            None => Ok(super::registry::provider_versions(&self.discovery, addr)?
                .into_iter()
                .map(|v| (v, PackageLocation::Registry))
                .collect()),
            Some(url) => Ok(
                super::registry::mirror_versions(&self.discovery, url, addr)?
                    .into_iter()
                    .map(|v| (v, PackageLocation::Mirror(url.clone())))
                    .collect(),
            ),
        }
    }

    fn describe(&self) -> String {
        match &self.mirror_url {
            None => "the origin registry".to_string(),
            Some(u) => format!("the network mirror {u}"),
        }
    }
}

/// The executable in an installed package directory: the first file named
/// `terraform-provider-TYPE…` (Terraform's rule).
pub fn find_executable(dir: &Path, ty: &str) -> Option<PathBuf> {
    let prefix = format!("terraform-provider-{ty}");
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    names.sort();
    names.into_iter().next()
}

/// This machine's platform in Terraform's spelling (`linux_amd64`).
pub fn current_platform() -> String {
    let arch = match std::env::consts::ARCH {
        "x86_64" => "amd64",
        "x86" => "386",
        "aarch64" => "arm64",
        other => other,
    };
    format!("{}_{arch}", std::env::consts::OS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirror_lists_unpacked_and_packed_packages_for_the_platform() {
        let root = std::env::temp_dir().join(format!("ferro-mirror-{}", std::process::id()));
        let tdir = root.join("registry.terraform.io/hashicorp/null");
        std::fs::create_dir_all(tdir.join("2.1.2/linux_amd64")).unwrap();
        std::fs::create_dir_all(tdir.join("3.0.0/darwin_arm64")).unwrap();
        std::fs::write(
            tdir.join("terraform-provider-null_3.1.0_linux_amd64.zip"),
            b"",
        )
        .unwrap();
        std::fs::write(
            tdir.join("terraform-provider-null_3.2.0_windows_amd64.zip"),
            b"",
        )
        .unwrap();
        let m = FilesystemMirror { root: root.clone() };
        let got = m
            .available(&ProviderAddr::default_for("null"), "linux_amd64")
            .unwrap();
        let versions: Vec<String> = got.keys().map(|v| v.to_string()).collect();
        assert_eq!(versions, ["2.1.2", "3.1.0"]);
        assert!(matches!(
            got[&Version::new(2, 1, 2)],
            PackageLocation::Dir(_)
        ));
        assert!(matches!(
            got[&Version::new(3, 1, 0)],
            PackageLocation::Zip(_)
        ));
        assert!(m
            .available(&ProviderAddr::default_for("random"), "linux_amd64")
            .unwrap()
            .is_empty());
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn platform_name() {
        let p = current_platform();
        assert!(p.contains('_') && !p.contains("x86_64"), "{p}");
    }
}
