//! `ferro providers lock [-platform=OS_ARCH]... [-fs-mirror=DIR | -net-mirror=URL]
//! [PROVIDER...]`: ask the providers' origin registries (or the one mirror named) for the
//! packages of every requested platform, authenticate them as `init` does,
//! and record their hashes in `.terraform.lock.hcl` (each platform's `h1:`, and the `zh:`
//! hashes of signed checksum lists), keeping the versions the lock file already selects.

use crate::cmd_init::configuration_requirements;
use crate::load::load_dir;
use crate::ui::plain_error;
use crate::{Global, Io};
use ferro_addrs::Provider as ProviderAddr;
use ferro_diag::Diagnostic;
use ferro_provider::install::cliconfig::{CliConfig, MethodKind};
use ferro_provider::install::lock::{LockFile, LockedProvider};
use ferro_provider::install::source::current_platform;
use ferro_provider::install::{display_addr, InstallEvent, Installer, Requirement};
use std::collections::BTreeMap;

pub(crate) fn lock(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match crate::spec::other::PROVIDERS_LOCK.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    // Unlike init, lock ignores the CLI configuration's installation methods.
    let method = match (p.value("fs-mirror"), p.value("net-mirror")) {
        (Some(_), Some(_)) => {
            return plain_error(
                io,
                "Invalid installation method options",
                "The -fs-mirror and -net-mirror command line options are mutually-exclusive.",
            )
        }
        (Some(dir), None) => MethodKind::FilesystemMirror(g.dir.join(dir)),
        (None, Some(url)) if url.starts_with("https://") => MethodKind::NetworkMirror(url.into()),
        (None, Some(_)) => {
            return plain_error(
                io,
                "Invalid network mirror URL",
                "The -net-mirror option requires a valid https: URL as the mirror base URL.",
            )
        }
        (None, None) => MethodKind::Direct,
    };
    let platforms = match platforms_arg(&p, io) {
        Ok(ps) => ps,
        Err(code) => return code,
    };
    let l = match load_dir(&g.dir) {
        Ok(l) => l,
        Err(e) => return plain_error(io, "Failed to read configuration", &e),
    };
    let (mut reqs, errors) = configuration_requirements(&l);
    if !errors.is_empty() {
        let text = ferro_diag::render(&errors, &l.sources(), g.color);
        let _ = io.stderr.write_all(text.as_bytes());
        return 1;
    }
    reqs.retain(|a, _| !a.is_builtin());
    // Providers named on the command line narrow the set; each must be one the configuration
    // requires.
    if !p.positional.is_empty() {
        let mut wanted = Vec::new();
        let host = match ferro_provider::install::lock::default_registry(&g.dir) {
            Ok(h) => h,
            Err(e) => return plain_error(io, "Invalid environment", &e),
        };
        for raw in &p.positional {
            let addr = match ProviderAddr::parse_source_in(raw, host) {
                Ok(a) => a,
                Err(e) => return plain_error(io, "Invalid provider address", &e),
            };
            if !reqs.contains_key(&addr) {
                return plain_error(
                    io,
                    "Invalid provider argument",
                    &format!("The provider {raw} is not required by the current configuration."),
                );
            }
            wanted.push(addr);
        }
        reqs.retain(|a, _| wanted.contains(a));
    }
    let reqs: Vec<Requirement> = reqs
        .into_iter()
        .map(|(addr, constraints)| Requirement { addr, constraints })
        .collect();
    let cli = match CliConfig::load() {
        Ok(c) => c,
        Err(e) => return plain_error(io, "Invalid CLI configuration", &e),
    };
    let old = match LockFile::load(&g.dir) {
        Ok(l) => l,
        Err(e) => return plain_error(io, "Failed to read the dependency lock file", &e),
    };

    let mut merged: BTreeMap<ProviderAddr, LockedProvider> = BTreeMap::new();
    for platform in &platforms {
        let scratch = std::env::temp_dir().join(format!(
            "ferro-providers-lock-{}-{platform}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&scratch);
        let installer = Installer::for_locking(&scratch, &cli, method.clone(), platform);
        let result = installer.install(&reqs, &old, &mut |e| match e {
            InstallEvent::Installing { addr, version } => {
                let _ = writeln!(
                    io.stdout,
                    "- Fetching {} {version} for {platform}...",
                    display_addr(&addr)
                );
            }
            InstallEvent::Installed {
                addr,
                version: _,
                auth,
            } => {
                let _ = writeln!(
                    io.stdout,
                    "- Obtained {} checksums for {platform} ({})",
                    display_addr(&addr),
                    auth.describe()
                );
            }
            _ => {}
        });
        let _ = std::fs::remove_dir_all(&scratch);
        match result {
            Ok(lock) => {
                for (addr, entry) in lock.providers {
                    match merged.get_mut(&addr) {
                        Some(m) if m.version == entry.version => {
                            m.hashes.extend(entry.hashes);
                            m.hashes.sort();
                            m.hashes.dedup();
                        }
                        Some(m) => {
                            return plain_error(
                                io,
                                "Inconsistent provider versions",
                                &format!(
                                    "The version constraint for {} selected inconsistent versions for different platforms ({} and {}), which is unexpected.\n\nThe upstream registry may have changed its available versions during ferro's work. If so, re-running this command may produce a successful result.",
                                    display_addr(&addr),
                                    m.version,
                                    entry.version
                                ),
                            )
                        }
                        None => {
                            merged.insert(addr, entry);
                        }
                    }
                }
            }
            Err(errs) => {
                let detail = errs
                    .iter()
                    .map(|e| format!("{}: {}", e.summary, e.detail))
                    .collect::<Vec<_>>()
                    .join("\n\n");
                let d = Diagnostic::error("providers-lock", "Could not retrieve providers for locking")
                    .with_detail(format!(
                        "ferro failed to fetch the requested providers for {platform} in order to calculate their checksums: {detail}."
                    ));
                let text = ferro_diag::render(&[d], &l.sources(), g.color);
                let _ = io.stderr.write_all(text.as_bytes());
                return 1;
            }
        }
    }
    let mut new = old.clone();
    new.providers.extend(merged);
    if new != old
        || !g
            .dir
            .join(ferro_provider::install::lock::LOCK_FILE_NAME)
            .exists()
    {
        if let Err(e) = new.save(&g.dir) {
            return plain_error(io, "Failed to write the dependency lock file", &e);
        }
    }
    let _ = io.stdout.write_all(
        b"\nSuccess! ferro has updated the lock file.\n\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.\n\n",
    );
    0
}

/// `os_arch`: two lower-case words joined by one underscore.
/// The `-platform` options, each once, in order (the current platform when none is given); an
/// invalid one is Terraform's error, printed, its exit code returned.
pub(crate) fn platforms_arg(p: &crate::args::Parsed, io: &mut Io<'_>) -> Result<Vec<String>, i32> {
    let mut platforms: Vec<String> = Vec::new();
    for raw in p.all("platform") {
        if !valid_platform(raw) {
            return Err(plain_error(
                io,
                "Invalid target platform",
                &format!("The string {raw:?} given in the -platform option is not a valid target platform: must be two words separated by an underscore."),
            ));
        }
        if !platforms.contains(raw) {
            platforms.push(raw.clone());
        }
    }
    if platforms.is_empty() {
        platforms.push(current_platform());
    }
    Ok(platforms)
}

pub(crate) fn valid_platform(s: &str) -> bool {
    let word = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
    };
    matches!(s.split_once('_'), Some((os, arch)) if word(os) && word(arch))
}
