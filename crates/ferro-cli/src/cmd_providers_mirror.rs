//! `ferro providers mirror [-platform=OS_ARCH]... DIR`: download the newest version meeting
//! the configuration's constraints of every provider it requires, for each platform, from the
//! origin registries, authenticated as `init` authenticates them, into `DIR` in the packed
//! mirror layout (`HOST/NS/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip`), with the
//! network mirror protocol's `index.json` and `VERSION.json` files for every package there, as
//! Terraform 1.0.3 writes them. `DIR` then serves as a `filesystem_mirror`, or, behind any
//! HTTPS server, as a `network_mirror`.

use crate::cmd_init::configuration_requirements;
use crate::load::load_dir;
use crate::ui::plain_error;
use crate::{Global, Io};
use ferro_diag::Diagnostic;
use ferro_provider::install::cliconfig::CliConfig;
use ferro_provider::install::http::Credentials;
use ferro_provider::install::registry::{provider_package_meta, provider_versions, Discovery};
use ferro_provider::install::version::Version;
use ferro_provider::install::{display_addr, download_authenticated, hash, zip};
use std::collections::BTreeMap;
use std::path::Path;

pub(crate) fn mirror(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match crate::spec::other::PROVIDERS_MIRROR.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    let [out_dir] = p.positional.as_slice() else {
        return plain_error(
            io,
            "No output directory specified",
            "The providers mirror command requires an output directory as a command-line argument.",
        );
    };
    let out_dir = g.dir.join(out_dir);
    let platforms = match crate::cmd_providers_lock::platforms_arg(&p, io) {
        Ok(ps) => ps,
        Err(code) => return code,
    };
    let l = match load_dir(&g.dir) {
        Ok(l) => l,
        Err(e) => return plain_error(io, "Failed to read configuration", &e),
    };
    let (reqs, errors) = configuration_requirements(&l);
    if !errors.is_empty() {
        let text = ferro_diag::render(&errors, &l.sources(), g.color);
        let _ = io.stderr.write_all(text.as_bytes());
        return 1;
    }
    let cli = match CliConfig::load() {
        Ok(c) => c,
        Err(e) => return plain_error(io, "Invalid CLI configuration", &e),
    };
    let disco = Discovery::new(
        Credentials {
            tokens: cli.credentials.clone(),
        },
        cli.hosts.clone(),
    );
    let mut diags = Vec::new();
    for (addr, constraints) in &reqs {
        let shown = display_addr(addr);
        if addr.is_builtin() {
            let _ = writeln!(
                io.stdout,
                "- Skipping {shown} because it is built in to ferro"
            );
            continue;
        }
        let _ = writeln!(io.stdout, "- Mirroring {shown}...");
        let selected = provider_versions(&disco, addr).and_then(|available| {
            constraints
                .newest(available.iter())
                .cloned()
                .ok_or_else(|| format!("no releases match the given constraints {constraints}"))
        });
        let selected: Version = match selected {
            Ok(v) => v,
            Err(e) => {
                diags.push(
                    Diagnostic::error("providers-mirror", "Provider not available").with_detail(
                        format!("Failed to download {addr} from its origin registry: {e}."),
                    ),
                );
                continue;
            }
        };
        if constraints.is_empty() {
            let _ = writeln!(io.stdout, "  - Selected v{selected} with no constraints");
        } else {
            let _ = writeln!(
                io.stdout,
                "  - Selected v{selected} to meet constraints {constraints}"
            );
        }
        for platform in &platforms {
            let _ = writeln!(io.stdout, "  - Downloading package for {platform}...");
            let failed = |e: String| {
                Diagnostic::error("providers-mirror", "Cannot download provider release")
                    .with_detail(format!(
                        "Failed to download {addr} v{selected} for {platform}: {e}."
                    ))
            };
            let meta = match provider_package_meta(&disco, addr, &selected, platform) {
                Ok(m) => m,
                Err(e) => {
                    diags.push(failed(e));
                    continue;
                }
            };
            let (archive, auth, _) = match download_authenticated(&disco, &meta) {
                Ok(x) => x,
                Err(e) => {
                    diags.push(failed(e));
                    continue;
                }
            };
            let _ = writeln!(io.stdout, "  - Package authenticated: {}", auth.kind());
            let dir = out_dir
                .join(&addr.hostname)
                .join(&addr.namespace)
                .join(&addr.ty);
            let name = format!("terraform-provider-{}_{selected}_{platform}.zip", addr.ty);
            if let Err(e) = write_atomically(&dir, &name, &archive) {
                diags.push(
                    Diagnostic::error("providers-mirror", "Cannot download provider release")
                        .with_detail(format!(
                            "Failed to place {addr} package into mirror directory: {e}."
                        )),
                );
            }
        }
    }
    if let Err(e) = write_indexes(&out_dir) {
        diags
            .push(Diagnostic::error("providers-mirror", "Failed to update indexes").with_detail(e));
    }
    if !diags.is_empty() {
        let text = ferro_diag::render(&diags, &l.sources(), g.color);
        let _ = io.stderr.write_all(text.as_bytes());
        return 1;
    }
    0
}

fn write_atomically(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, dir.join(name)).map_err(|e| format!("cannot write {name}: {e}"))
}

/// `HOST/NS/TYPE/index.json` and `VERSION.json` for every packed package under `root`
/// (Terraform's files: two-space indented, keys sorted, each archive's `h1:` hash).
fn write_indexes(root: &Path) -> Result<(), String> {
    let subdirs = |d: &Path| -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        v.sort();
        v
    };
    for host in subdirs(root) {
        for ns in subdirs(&host) {
            for ty_dir in subdirs(&ns) {
                let ty = ty_dir
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                let prefix = format!("terraform-provider-{ty}_");
                // version → platform → (file name, hash)
                let mut found: BTreeMap<String, BTreeMap<String, (String, String)>> =
                    BTreeMap::new();
                for entry in std::fs::read_dir(&ty_dir).into_iter().flatten().flatten() {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let Some(rest) = name
                        .strip_prefix(&prefix)
                        .and_then(|r| r.strip_suffix(".zip"))
                    else {
                        continue;
                    };
                    let mut parts = rest.splitn(2, '_');
                    let (Some(version), Some(platform)) = (parts.next(), parts.next()) else {
                        continue;
                    };
                    if Version::parse(version).is_err() {
                        continue;
                    }
                    let bytes = std::fs::read(entry.path())
                        .map_err(|e| format!("Could not read {name}: {e}."))?;
                    let h1 = zip::read_zip(&bytes)
                        .and_then(|entries| hash::hash_zip(&entries))
                        .map_err(|e| {
                            format!("Failed to determine a hash value for {name}: {e}.")
                        })?;
                    found
                        .entry(version.to_string())
                        .or_default()
                        .insert(platform.to_string(), (name.clone(), h1));
                }
                if found.is_empty() {
                    continue;
                }
                let mut versions = serde_json::Map::new();
                for v in found.keys() {
                    versions.insert(v.clone(), serde_json::json!({}));
                }
                let index = serde_json::json!({ "versions": versions });
                write_json(&ty_dir.join("index.json"), &index)?;
                for (version, archives) in &found {
                    let mut a = serde_json::Map::new();
                    for (platform, (name, h1)) in archives {
                        a.insert(
                            platform.clone(),
                            serde_json::json!({ "hashes": [h1], "url": name }),
                        );
                    }
                    let doc = serde_json::json!({ "archives": a });
                    write_json(&ty_dir.join(format!("{version}.json")), &doc)?;
                }
            }
        }
    }
    Ok(())
}

fn write_json(path: &Path, doc: &serde_json::Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(doc).map_err(|e| e.to_string())?;
    std::fs::write(path, text).map_err(|e| {
        format!(
            "Failed to write an updated JSON index {}: {e}.",
            path.display()
        )
    })
}
