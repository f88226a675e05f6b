//! `init`'s provider installation: for each required provider, honour the lock file (or choose
//! the newest version matching the constraints from the configured sources: local mirrors,
//! registries, network mirrors), place the package in
//! `.terraform/providers/HOST/NS/TYPE/VERSION/OS_ARCH/` as Terraform lays it out (a symlink to
//! an unpacked mirror directory or to the shared plugin cache, or an extracted zip), check it
//! against the lock file's hashes, and produce the new lock file. Also the runtime side: find
//! and verify an installed provider before starting it.

use super::cliconfig::{CliConfig, MethodKind};
use super::download::{fetch_authenticated, fetch_listed};
use super::hash;
use super::lock::{LockFile, LockedProvider};
use super::registry::{mirror_archive, provider_package_meta, Discovery};
use super::signature::{self, Authentication};
use super::source::{
    current_platform, find_executable, FilesystemMirror, NetworkSource, PackageLocation,
    PackageSource,
};
use super::version::{Constraints, Version};
use super::zip;
use ferro_addrs::Provider as ProviderAddr;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A provider the configuration needs, with all its version constraints merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Requirement {
    pub addr: ProviderAddr,
    pub constraints: Constraints,
}

/// Progress, for `init`'s messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InstallEvent {
    /// Looking for versions matching the constraints (none: the latest).
    Finding {
        addr: ProviderAddr,
        constraints: Constraints,
    },
    /// The lock file already selects a version.
    ReusingLocked { addr: ProviderAddr },
    /// The selected version is already in `.terraform/providers` and matches the lock file.
    UsingInstalled {
        addr: ProviderAddr,
        version: Version,
    },
    Installing {
        addr: ProviderAddr,
        version: Version,
    },
    Installed {
        addr: ProviderAddr,
        version: Version,
        auth: Authentication,
    },
    /// The shared plugin cache held the package; it is linked from there.
    LinkedFromCache {
        addr: ProviderAddr,
        version: Version,
    },
    /// `dev_overrides` applies: nothing is installed.
    DevOverride { addr: ProviderAddr, dir: PathBuf },
    /// No plugin package was found, and ferro has the provider built in: it runs in process.
    Builtin { addr: ProviderAddr },
}

/// One provider that could not be installed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstallError {
    pub summary: String,
    pub detail: String,
}

/// How providers are shown in messages: `hashicorp/null` for the default registry.
pub fn display_addr(a: &ProviderAddr) -> String {
    if a.hostname == "registry.terraform.io" {
        format!("{}/{}", a.namespace, a.ty)
    } else {
        a.to_string()
    }
}

/// `.terraform/providers` of a working directory.
pub fn providers_dir(working_dir: &Path) -> PathBuf {
    working_dir.join(".terraform").join("providers")
}

/// Where the shared plugin cache keeps a package (the unpacked mirror layout).
fn cache_package_dir(
    cache: &Path,
    addr: &ProviderAddr,
    version: &Version,
    platform: &str,
) -> PathBuf {
    cache
        .join(&addr.hostname)
        .join(&addr.namespace)
        .join(&addr.ty)
        .join(version.to_string())
        .join(platform)
}

/// Where an installed package lives.
pub fn package_dir(
    working_dir: &Path,
    addr: &ProviderAddr,
    version: &Version,
    platform: &str,
) -> PathBuf {
    providers_dir(working_dir)
        .join(&addr.hostname)
        .join(&addr.namespace)
        .join(&addr.ty)
        .join(version.to_string())
        .join(platform)
}

pub struct Installer {
    working_dir: PathBuf,
    platform: String,
    sources: Vec<(super::cliconfig::Method, Box<dyn PackageSource>)>,
    dev_overrides: BTreeMap<ProviderAddr, PathBuf>,
    discovery: Arc<Discovery>,
    /// The shared plugin cache (`TF_PLUGIN_CACHE_DIR`, else `plugin_cache_dir`), when it exists.
    cache_dir: Option<PathBuf>,
    /// `-upgrade`: ignore the versions the lock file selected.
    pub upgrade: bool,
    /// A provider ferro has built in stands in when no package is found (not when locking).
    builtin_fallbacks: bool,
}

impl Installer {
    pub fn new(working_dir: &Path, cli: &CliConfig) -> Installer {
        let discovery = Arc::new(Discovery::new(
            super::http::Credentials {
                tokens: cli.credentials.clone(),
            },
            cli.hosts.clone(),
        ));
        let sources = cli
            .methods(working_dir)
            .into_iter()
            .map(|m| {
                let src: Box<dyn PackageSource> = match &m.kind {
                    MethodKind::FilesystemMirror(p) => {
                        Box::new(FilesystemMirror { root: p.clone() })
                    }
                    MethodKind::Direct => Box::new(NetworkSource {
                        mirror_url: None,
                        discovery: discovery.clone(),
                    }),
                    MethodKind::NetworkMirror(u) => Box::new(NetworkSource {
                        mirror_url: Some(u.clone()),
                        discovery: discovery.clone(),
                    }),
                };
                (m, src)
            })
            .collect();
        Installer {
            working_dir: working_dir.to_path_buf(),
            platform: current_platform(),
            sources,
            dev_overrides: cli.dev_overrides.clone(),
            discovery,
            cache_dir: std::env::var_os("TF_PLUGIN_CACHE_DIR")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                .or_else(|| cli.plugin_cache_dir.clone())
                .filter(|d| d.is_dir()),
            upgrade: false,
            builtin_fallbacks: true,
        }
    }

    /// An installer for `providers lock`: one installation method (the origin registries
    /// unless `-fs-mirror` or `-net-mirror` names another), for `platform`, into
    /// `working_dir` (a scratch directory), without the plugin cache, dev overrides or
    /// built-in stand-ins.
    pub fn for_locking(
        working_dir: &Path,
        cli: &CliConfig,
        method: MethodKind,
        platform: &str,
    ) -> Installer {
        let direct = CliConfig {
            installation: Some(vec![super::cliconfig::Method {
                kind: method,
                include: Vec::new(),
                exclude: Vec::new(),
            }]),
            dev_overrides: BTreeMap::new(),
            plugin_cache_dir: None,
            ..cli.clone()
        };
        let mut i = Installer::new(working_dir, &direct);
        i.platform = platform.to_string();
        i.cache_dir = None;
        i.builtin_fallbacks = false;
        i
    }

    /// Install every requirement; returns the new lock file, or every error.
    pub fn install(
        &self,
        reqs: &[Requirement],
        lock: &LockFile,
        on_event: &mut dyn FnMut(InstallEvent),
    ) -> Result<LockFile, Vec<InstallError>> {
        let mut new_lock = LockFile::default();
        let mut errors = Vec::new();
        for req in reqs {
            if let Some(dir) = self.dev_overrides.get(&req.addr) {
                on_event(InstallEvent::DevOverride {
                    addr: req.addr.clone(),
                    dir: dir.clone(),
                });
                if let Some(old) = lock.providers.get(&req.addr) {
                    new_lock.providers.insert(req.addr.clone(), old.clone());
                }
                continue;
            }
            match self.install_one(req, lock.providers.get(&req.addr), on_event) {
                Ok(locked) => {
                    new_lock.providers.insert(req.addr.clone(), locked);
                }
                // No package anywhere and nothing locked: ferro's own provider stands in.
                Err(_)
                    if self.builtin_fallbacks
                        && crate::builtin_fallback(&req.addr).is_some()
                        && !lock.providers.contains_key(&req.addr) =>
                {
                    on_event(InstallEvent::Builtin {
                        addr: req.addr.clone(),
                    })
                }
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(new_lock)
        } else {
            Err(errors)
        }
    }

    fn install_one(
        &self,
        req: &Requirement,
        locked: Option<&LockedProvider>,
        on_event: &mut dyn FnMut(InstallEvent),
    ) -> Result<LockedProvider, InstallError> {
        let shown = display_addr(&req.addr);
        let addr = &req.addr;
        let query_error = |detail: String| InstallError {
            summary: "Failed to query available provider packages".into(),
            detail,
        };
        // What the lock file recorded, even when upgrading: a package already unpacked for
        // that version is verified against its hashes.
        let previous = locked;
        let locked = locked.filter(|_| !self.upgrade);
        if let Some(l) = locked {
            if !req.constraints.allows(&l.version) {
                return Err(query_error(format!(
                    "Could not retrieve the list of available versions for provider {shown}: locked provider {addr} {} does not match configured version constraint {}; must use ferro init -upgrade to allow selection of new versions",
                    l.version, req.constraints
                )));
            }
            on_event(InstallEvent::ReusingLocked { addr: addr.clone() });
            let dest = package_dir(&self.working_dir, addr, &l.version, &self.platform);
            if dest.is_dir() && hash::hash_dir(&dest).is_ok_and(|h| l.hashes.contains(&h)) {
                on_event(InstallEvent::UsingInstalled {
                    addr: addr.clone(),
                    version: l.version.clone(),
                });
                return Ok(LockedProvider {
                    version: l.version.clone(),
                    constraints: constraints_text(&req.constraints),
                    hashes: l.hashes.clone(),
                });
            }
        } else {
            on_event(InstallEvent::Finding {
                addr: addr.clone(),
                constraints: req.constraints.clone(),
            });
        }

        // Gather versions from every applicable source; the first source listing a version wins.
        let mut available: BTreeMap<Version, PackageLocation> = BTreeMap::new();
        let mut looked = Vec::new();
        let mut source_errors = Vec::new();
        for (method, src) in &self.sources {
            if !method.applies_to(addr) {
                continue;
            }
            looked.push(src.describe());
            match src.available(addr, &self.platform) {
                Ok(found) => {
                    for (v, loc) in found {
                        available.entry(v).or_insert(loc);
                    }
                }
                Err(e) => source_errors.push(e),
            }
        }
        if available.is_empty() && source_errors.len() == 1 && looked.len() == 1 {
            // One source, and it failed: its error is the whole story, as Terraform tells it.
            return Err(query_error(format!(
                "Could not retrieve the list of available versions for provider {shown}: {}",
                source_errors[0]
            )));
        }
        if available.is_empty() {
            let mut detail = format!(
                "Could not retrieve the list of available versions for provider {shown}: provider {addr} was not found in any of the search locations"
            );
            for l in &looked {
                detail.push_str(&format!("\n\n  - {l}"));
            }
            if looked.is_empty() {
                detail.push_str("\n\nNo provider installation method in the CLI configuration applies to this provider.");
            }
            for e in &source_errors {
                detail.push_str(&format!("\n\n{e}."));
            }
            return Err(query_error(detail));
        }
        let version = match locked {
            Some(l) => match available.get_key_value(&l.version) {
                Some((v, _)) => v.clone(),
                None => {
                    return Err(query_error(format!(
                        "The dependency lock file selects {shown} v{}, but that version is not available from any of the search locations (available: {}). Run ferro init -upgrade to select another version.",
                        l.version,
                        list_versions(&available)
                    )))
                }
            },
            None => match req.constraints.newest(available.keys()) {
                Some(v) => v.clone(),
                None => {
                    return Err(query_error(format!(
                        "Could not retrieve the list of available versions for provider {shown}: no available releases match the given constraints {} (available: {})",
                        req.constraints,
                        list_versions(&available)
                    )))
                }
            },
        };
        let loc = &available[&version];
        let install_error = |detail: String| InstallError {
            summary: "Failed to install provider".into(),
            detail: format!("Error while installing {shown} v{version}: {detail}"),
        };
        let dest = package_dir(&self.working_dir, addr, &version, &self.platform);
        let mut hashes = match locked {
            Some(l) if l.version == version => l.hashes.clone(),
            _ => Vec::new(),
        };
        let done = |hashes: &mut Vec<String>, new: Vec<String>| {
            hashes.extend(new);
            hashes.sort();
            hashes.dedup();
            LockedProvider {
                version: version.clone(),
                constraints: constraints_text(&req.constraints),
                hashes: std::mem::take(hashes),
            }
        };
        // A registry package already unpacked for the version the lock file recorded, and
        // matching its hashes (an `init -upgrade` that selects the version it had), is kept
        // without asking the registry for it again.
        let network = matches!(loc, PackageLocation::Registry | PackageLocation::Mirror(_));
        if network
            && previous.is_some_and(|p| p.version == version)
            && dest.is_dir()
            && hash::hash_dir(&dest).is_ok_and(|h| previous.is_some_and(|p| p.hashes.contains(&h)))
        {
            on_event(InstallEvent::UsingInstalled {
                addr: addr.clone(),
                version: version.clone(),
            });
            let kept = previous.map(|p| p.hashes.clone()).unwrap_or_default();
            return Ok(done(&mut hashes, kept));
        }
        // A package the shared plugin cache already holds is linked from there, checked
        // against the lock file's hashes when it has some (Terraform 1.0's rule).
        let cached = self
            .cache_dir
            .as_ref()
            .filter(|_| network)
            .map(|c| cache_package_dir(c, addr, &version, &self.platform));
        if let Some(cached) = cached
            .as_ref()
            .filter(|c| find_executable(c, &addr.ty).is_some())
        {
            let cache_error = |detail: String| {
                InstallError {
                summary: "Failed to install provider from shared cache".into(),
                detail: format!(
                    "Error while importing {shown} v{version} from the shared cache directory: {detail}."
                ),
            }
            };
            let h1 = hash::hash_dir(cached).map_err(cache_error)?;
            if !hashes.is_empty() && !hashes.contains(&h1) {
                return Err(cache_error(format!(
                    "the provider cache at {} has a copy of {addr} {version} that doesn't match any of the checksums recorded in the dependency lock file",
                    cached.display()
                )));
            }
            on_event(InstallEvent::LinkedFromCache {
                addr: addr.clone(),
                version: version.clone(),
            });
            place_package(&PackageLocation::Dir(cached.clone()), None, &dest)
                .map_err(cache_error)?;
            return Ok(done(&mut hashes, vec![h1]));
        }
        let (zip_entries, auth, signed_hashes, archive_sum) = match loc {
            PackageLocation::Zip(p) => {
                let bytes = std::fs::read(p)
                    .map_err(|e| install_error(format!("cannot read {}: {e}", p.display())))?;
                let entries = zip::read_zip(&bytes)
                    .map_err(|e| install_error(format!("{}: {e}", p.display())))?;
                (
                    Some(entries),
                    Authentication::Unauthenticated,
                    Vec::new(),
                    None,
                )
            }
            PackageLocation::Dir(_) => (None, Authentication::Unauthenticated, Vec::new(), None),
            PackageLocation::Registry => {
                let meta = provider_package_meta(&self.discovery, addr, &version, &self.platform)
                    .map_err(install_error)?;
                on_event(InstallEvent::Installing {
                    addr: addr.clone(),
                    version: version.clone(),
                });
                let fetched = fetch_authenticated(&self.discovery, &meta).map_err(install_error)?;
                (Some(fetched.0), fetched.1, fetched.2, Some(fetched.3))
            }
            PackageLocation::Mirror(base) => {
                let (url, listed) =
                    mirror_archive(&self.discovery, base, addr, &version, &self.platform)
                        .map_err(install_error)?;
                on_event(InstallEvent::Installing {
                    addr: addr.clone(),
                    version: version.clone(),
                });
                let (entries, auth, sum) =
                    fetch_listed(&self.discovery, &url, &listed).map_err(install_error)?;
                (Some(entries), auth, Vec::new(), Some(sum))
            }
        };
        let h1 = match (&zip_entries, loc) {
            (Some(entries), _) => hash::hash_zip(entries),
            (None, PackageLocation::Dir(p)) => hash::hash_dir(p),
            (None, _) => Err("the package was not read".to_string()),
        }
        .map_err(install_error)?;
        let zh = archive_sum.map(|s| format!("zh:{}", signature::hex(&s)));
        if !hashes.is_empty()
            && !hashes.contains(&h1)
            && !zh.as_ref().is_some_and(|z| hashes.contains(z))
        {
            return Err(install_error(format!(
                "the local package for {addr} {version} doesn't match any of the checksums previously recorded in the dependency lock file (its checksum is {h1}; the lock file has {}). The package may have been modified or replaced; if you trust it, run ferro init -upgrade or remove the provider's entry from .terraform.lock.hcl.",
                hashes.join(", ")
            )));
        }
        // The package already unpacked for the version the lock file recorded, and matching
        // its hashes (an `init -upgrade` that selects the version it had): kept, as Terraform
        // keeps it. Without a lock entry to check it against, it is installed again.
        let in_place = previous.is_some_and(|p| p.version == version && p.hashes.contains(&h1))
            && dest.is_dir()
            && hash::hash_dir(&dest).is_ok_and(|h| h == h1);
        if in_place {
            on_event(InstallEvent::UsingInstalled {
                addr: addr.clone(),
                version: version.clone(),
            });
            return Ok(done(&mut hashes, vec![h1]));
        }
        if !network {
            on_event(InstallEvent::Installing {
                addr: addr.clone(),
                version: version.clone(),
            });
        }
        if let Some(entries) = &zip_entries {
            if !entries.iter().any(|e| {
                e.name
                    .starts_with(&format!("terraform-provider-{}", addr.ty))
            }) {
                return Err(install_error(format!(
                    "provider binary not found: the package contains no executable named terraform-provider-{}*",
                    addr.ty
                )));
            }
        }
        match &cached {
            // Into the shared cache, and linked from there.
            Some(cached) => {
                place_package(loc, zip_entries.as_deref(), cached).map_err(install_error)?;
                place_package(&PackageLocation::Dir(cached.clone()), None, &dest)
                    .map_err(install_error)?;
            }
            None => place_package(loc, zip_entries.as_deref(), &dest).map_err(install_error)?,
        }
        if find_executable(&dest, &addr.ty).is_none() {
            let _ = remove_existing(&dest);
            return Err(install_error(format!(
                "the package contains no executable named terraform-provider-{}*",
                addr.ty
            )));
        }
        on_event(InstallEvent::Installed {
            addr: addr.clone(),
            version: version.clone(),
            auth: auth.clone(),
        });
        let mut new = vec![h1];
        // Hashes for other platforms are trusted only from a signed checksum list.
        if auth.signed() {
            new.extend(signed_hashes);
        }
        Ok(done(&mut hashes, new))
    }
}

fn constraints_text(c: &Constraints) -> Option<String> {
    (!c.is_empty()).then(|| c.to_string())
}

fn list_versions(m: &BTreeMap<Version, PackageLocation>) -> String {
    m.keys()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Put a package at `dest`: a symlink to an unpacked directory (a copy where links fail), or
/// the extracted archive.
fn place_package(
    loc: &PackageLocation,
    zip_entries: Option<&[zip::Entry]>,
    dest: &Path,
) -> Result<(), String> {
    let parent = dest
        .parent()
        .ok_or_else(|| format!("invalid install path {}", dest.display()))?;
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    remove_existing(dest)?;
    match (loc, zip_entries) {
        (_, Some(entries)) => {
            let tmp = parent.join(format!(
                ".{}.tmp{}",
                dest.file_name().unwrap_or_default().to_string_lossy(),
                std::process::id()
            ));
            remove_existing(&tmp)?;
            std::fs::create_dir_all(&tmp)
                .map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
            zip::extract(entries, &tmp)?;
            std::fs::rename(&tmp, dest)
                .map_err(|e| format!("cannot move the package into {}: {e}", dest.display()))
        }
        (PackageLocation::Dir(src), None) => {
            let src = std::fs::canonicalize(src)
                .map_err(|e| format!("cannot read {}: {e}", src.display()))?;
            #[cfg(unix)]
            if std::os::unix::fs::symlink(&src, dest).is_ok() {
                return Ok(());
            }
            copy_dir(&src, dest)
        }
        (PackageLocation::Zip(p), None) => Err(format!("the archive {} was not read", p.display())),
        (PackageLocation::Registry | PackageLocation::Mirror(_), None) => {
            Err("the package was not downloaded".into())
        }
    }
}

fn remove_existing(p: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(p) {
        Ok(m) if m.is_dir() => {
            std::fs::remove_dir_all(p).map_err(|e| format!("cannot remove {}: {e}", p.display()))
        }
        Ok(_) => std::fs::remove_file(p).map_err(|e| format!("cannot remove {}: {e}", p.display())),
        Err(_) => Ok(()),
    }
}

fn copy_dir(src: &Path, dest: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dest).map_err(|e| format!("cannot create {}: {e}", dest.display()))?;
    for entry in std::fs::read_dir(src)
        .map_err(|e| format!("cannot read {}: {e}", src.display()))?
        .flatten()
    {
        let to = dest.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &to)?;
        } else {
            std::fs::copy(entry.path(), &to)
                .map_err(|e| format!("cannot copy {}: {e}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Find the installed executable for `addr` as selected by the lock file in `working_dir`,
/// checking the package against the lock file's hashes (the runtime side of `init`).
pub fn locate_installed(
    working_dir: &Path,
    addr: &ProviderAddr,
    lock: &LockFile,
) -> Result<PathBuf, String> {
    locate_installed_hashed(working_dir, addr, lock).map(|(exe, _)| exe)
}

/// [`locate_installed`], with the package's `h1:` hash (checked against the lock file).
pub fn locate_installed_hashed(
    working_dir: &Path,
    addr: &ProviderAddr,
    lock: &LockFile,
) -> Result<(PathBuf, String), String> {
    let shown = display_addr(addr);
    let Some(locked) = lock.providers.get(addr) else {
        return Err(format!(
            "the provider {addr} is not in the dependency lock file .terraform.lock.hcl; run \"ferro init\" to install it"
        ));
    };
    let platform = current_platform();
    let dir = package_dir(working_dir, addr, &locked.version, &platform);
    if !dir.is_dir() {
        return Err(format!(
            "the provider {shown} v{} is required but not installed in {}; run \"ferro init\" to install it",
            locked.version,
            dir.display()
        ));
    }
    let h1 = hash::hash_dir(&dir)?;
    if !locked.hashes.is_empty() && !locked.hashes.contains(&h1) {
        return Err(format!(
            "the cached package for {addr} {} does not match any of the checksums recorded in the dependency lock file (its checksum is {h1}); run \"ferro init\" to reinstall it",
            locked.version
        ));
    }
    let exe = find_executable(&dir, &addr.ty).ok_or_else(|| {
        format!(
            "the installed package for {shown} v{} in {} has no terraform-provider-{} executable",
            locked.version,
            dir.display(),
            addr.ty
        )
    })?;
    Ok((exe, h1))
}

/// Find a dev_overrides executable for `addr` in `dir`.
pub fn locate_dev_override(dir: &Path, addr: &ProviderAddr) -> Result<PathBuf, String> {
    find_executable(dir, &addr.ty).ok_or_else(|| {
        format!("the dev_overrides directory {} for provider {} contains no terraform-provider-{} executable", dir.display(), display_addr(addr), addr.ty)
    })
}
