//! Fetching non-local module sources as Terraform's getter does: registry addresses
//! (`[HOST/]NAMESPACE/NAME/PROVIDER`, a version chosen from `modules.v1` against the call's
//! `version` constraints, then whatever `X-Terraform-Get` names), `https://` archives (`.zip`,
//! `.tar.gz`, `.tgz`, or `?archive=`), other `https://` URLs answering with `X-Terraform-Get`,
//! git (`git::URL`, and the `github.com/ORG/REPO`, `bitbucket.org/ORG/REPO` and `git@HOST:PATH`
//! shorthands), S3 (`s3::URL` and the `BUCKET.s3.amazonaws.com/KEY` shorthands; see
//! `module_s3`), each with `//subdir`. Archives are unpacked beside the destination and moved
//! into place only once complete.

use ferro_provider::install::registry::{
    module_download_source, module_versions, Discovery, ModuleAddr,
};
use ferro_provider::install::version::{Constraints, Version};
use ferro_provider::install::{tar, zip};
use std::path::Path;
use std::process::Command;

/// Why a fetch failed, in Terraform's words: the diagnostic's summary and detail.
pub(crate) struct FetchError {
    pub summary: &'static str,
    pub detail: String,
}

/// What a fetch produced.
pub(crate) struct Fetched {
    /// The module's directory relative to the destination (`None`: the destination itself).
    pub subdir: Option<String>,
    /// The registry version chosen, for registry sources.
    pub version: Option<String>,
}

/// Fetches module sources over the network (and through the system `git`).
pub(crate) struct ModuleFetcher {
    pub discovery: Discovery,
    /// The registry a module address without a hostname names.
    pub default_registry: &'static str,
}

impl ModuleFetcher {
    /// Fetch `source` for the call `name` (`key` in the tree) into `dest`. `say` receives
    /// Terraform's `Downloading …` line.
    pub(crate) fn fetch(
        &self,
        key: &str,
        source: &str,
        constraint: Option<&str>,
        dest: &Path,
        say: &mut dyn FnMut(String),
    ) -> Result<Fetched, FetchError> {
        let name = key.rsplit('.').next().unwrap_or(key);
        let (package, user_subdir) = split_subdir(source);
        let download_failed = |from: &str, e: String| FetchError {
            summary: "Failed to download module",
            detail: format!("Could not download module {name:?} source code from {from:?}: {e}."),
        };
        if let Some(addr) = ModuleAddr::parse_in(&package, self.default_registry) {
            let version = self.choose_version(name, &addr, constraint)?;
            say(format!("Downloading {package} {version} for {key}..."));
            let location =
                module_download_source(&self.discovery, &addr, &version).map_err(|e| {
                    FetchError {
                        summary: "Error accessing remote module registry",
                        detail: format!(
                            "Failed to retrieve a download URL for {} {version} from {}: {e}",
                            addr.for_display(),
                            addr.hostname
                        ),
                    }
                })?;
            let sub = self
                .get(&location, dest, 0)
                .map_err(|e| download_failed(&location, e))?;
            return Ok(Fetched {
                subdir: join_subdirs(sub, user_subdir),
                version: Some(version.to_string()),
            });
        }
        if constraint.is_some() {
            return Err(FetchError {
                summary: "Invalid version constraint",
                detail: format!(
                    "Cannot apply a version constraint to module {name:?} because it has a non Registry URL."
                ),
            });
        }
        say(format!("Downloading {package} for {key}..."));
        let sub = self
            .get(&package, dest, 0)
            .map_err(|e| download_failed(source, e))?;
        Ok(Fetched {
            subdir: join_subdirs(sub, user_subdir),
            version: None,
        })
    }

    fn choose_version(
        &self,
        name: &str,
        addr: &ModuleAddr,
        constraint: Option<&str>,
    ) -> Result<Version, FetchError> {
        let constraints = match constraint {
            Some(c) => Constraints::parse(c).map_err(|e| FetchError {
                summary: "Invalid version constraint",
                detail: e,
            })?,
            None => Constraints::default(),
        };
        let host = &addr.hostname;
        let versions = match module_versions(&self.discovery, addr) {
            Ok(Some(v)) => v,
            Ok(None) => {
                return Err(FetchError {
                    summary: "Module not found",
                    detail: format!(
                        "Module {name:?} cannot be found in the module registry at {host}."
                    ),
                })
            }
            Err(e) => {
                return Err(FetchError {
                    summary: "Error accessing remote module registry",
                    detail: format!(
                    "Failed to retrieve available versions for module {name:?} from {host}: {e}."
                ),
                })
            }
        };
        // A pre-release is a candidate only when the constraint names exactly it.
        let exact = constraint.map(str::trim);
        let candidates: Vec<&Version> = versions
            .iter()
            .filter(|v| !v.is_prerelease() || exact == Some(&v.to_string()))
            .collect();
        let shown = addr.for_display();
        let Some(latest) = candidates.iter().max() else {
            return Err(FetchError {
                summary: "Module has no versions",
                detail: format!("Module {shown:?} has no versions available on {host}."),
            });
        };
        candidates
            .iter()
            .filter(|v| constraints.allows(v))
            .max()
            .map(|v| (*v).clone())
            .ok_or_else(|| FetchError {
                summary: "Unresolvable module version constraint",
                detail: format!(
                    "There is no available version of module {shown:?} which matches the given version constraint. The newest available version is {latest}."
                ),
            })
    }

    /// go-getter's `Get`: put what `source` names at `dest`; returns the subdirectory the
    /// source's own `//subdir` (or a nested `X-Terraform-Get`) names.
    fn get(&self, source: &str, dest: &Path, depth: usize) -> Result<Option<String>, String> {
        if depth > 8 {
            return Err("too many X-Terraform-Get redirections".into());
        }
        let source = expand_shorthand(source);
        if let Some(git) = source.strip_prefix("git::") {
            return git_fetch(git, dest);
        }
        if let Some(s3) = source.strip_prefix("s3::") {
            let (url, sub) = split_subdir(s3);
            let loc = crate::module_s3::parse(&url)?;
            crate::module_s3::fetch(&loc, dest, &|bytes, name, dest| {
                let kind = match name {
                    "zip" => Some(Archive::Zip),
                    "tar.gz" | "tgz" => Some(Archive::TarGz),
                    other => archive_kind(other).1,
                };
                match kind {
                    Some(kind) => unpack(kind, bytes, dest).map(|()| true),
                    None => Ok(false),
                }
            })?;
            return Ok(sub);
        }
        if let Some(gcs) = source.strip_prefix("gcs::") {
            return self.get_gcs(gcs, dest);
        }
        if source.starts_with("hg::") {
            return Err(
                "ferro cannot fetch hg:: module sources; use a git, https, s3 or gcs source instead"
                    .into(),
            );
        }
        let url = source
            .strip_prefix("http::")
            .or_else(|| source.strip_prefix("https::"))
            .unwrap_or(&source);
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(format!("unsupported module source {source:?}"));
        }
        let (url, sub) = split_subdir(url);
        let (url, archive) = archive_kind(&url);
        let resp = self.discovery.get(&url)?;
        if !(200..300).contains(&resp.status) {
            return Err(format!("bad response code: {}", resp.status));
        }
        match archive {
            Some(kind) => {
                unpack(kind, &resp.body, dest)?;
                Ok(sub)
            }
            None => {
                let Some(next) = resp.header("X-Terraform-Get") else {
                    return Err(format!(
                        "no source URL was returned from {url:?}: it names no archive (.zip, .tar.gz, .tgz or ?archive=) and answered without an X-Terraform-Get header"
                    ));
                };
                let next =
                    if next.starts_with("./") || next.starts_with("../") || next.starts_with('/') {
                        ferro_provider::install::http::resolve_url(&resp.url, next)
                    } else {
                        next.to_string()
                    };
                let inner = self.get(&next, dest, depth + 1)?;
                Ok(join_subdirs(inner, sub))
            }
        }
    }
}

impl ModuleFetcher {
    /// A `gcs::` source: one archive object, unpacked, or every object under a prefix
    /// (`ferro_provider::install::gcs`).
    fn get_gcs(&self, source: &str, dest: &Path) -> Result<Option<String>, String> {
        use ferro_provider::install::gcs::{Gcs, GcsUrl};
        let (url, sub) = split_subdir(source);
        let (url, archive) = archive_kind(&url);
        let loc = GcsUrl::parse(&url)?;
        let client = self.discovery.client()?;
        let gcs = Gcs::new(&client)?;
        match archive {
            Some(kind) => {
                let body = gcs.read(&loc.bucket, &loc.object, loc.generation.as_deref())?;
                unpack(kind, &body, dest)?;
            }
            None => gcs.download_tree(&loc, dest)?,
        }
        Ok(sub)
    }
}

/// `a//b?q` → (`a?q`, `b`): go-getter's `SourceDirSubdir`, which looks for `//` after the
/// scheme's own.
pub(crate) fn split_subdir(source: &str) -> (String, Option<String>) {
    let start = source.find("://").map_or(0, |i| i + 3);
    let (body, query) = match source.find('?') {
        Some(q) => (&source[..q], &source[q..]),
        None => (source, ""),
    };
    match body[start.min(body.len())..].find("//") {
        Some(i) => {
            let at = start + i;
            let sub = body[at + 2..].trim_matches('/').to_string();
            (
                format!("{}{query}", &body[..at]),
                (!sub.is_empty()).then_some(sub),
            )
        }
        None => (source.to_string(), None),
    }
}

fn join_subdirs(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a}/{b}")),
        (a, b) => a.or(b),
    }
}

/// The getter's detectors: `github.com/ORG/REPO…` and `bitbucket.org/ORG/REPO…` are git
/// over https, `git@HOST:PATH` git over ssh, `BUCKET.s3….amazonaws.com/KEY` S3,
/// `www.googleapis.com/storage/v1/…` a GCS bucket.
pub(crate) fn expand_shorthand(source: &str) -> String {
    if let Some(s3) = crate::module_s3::detect(source) {
        return s3;
    }
    if source.starts_with("www.googleapis.com/storage/") {
        return format!("gcs::https://{source}");
    }
    for host in ["github.com/", "bitbucket.org/"] {
        if let Some(rest) = source.strip_prefix(host) {
            let (path, query) = match rest.find('?') {
                Some(q) => (&rest[..q], &rest[q..]),
                None => (rest, ""),
            };
            let mut parts = path.splitn(3, '/');
            let (org, repo) = (
                parts.next().unwrap_or_default(),
                parts.next().unwrap_or_default(),
            );
            let tail = parts.next().map(|t| format!("/{t}")).unwrap_or_default();
            let repo = repo.trim_end_matches(".git");
            return format!("git::https://{host}{org}/{repo}.git{tail}{query}");
        }
    }
    if let Some(rest) = source.strip_prefix("git@") {
        if let Some((host, path)) = rest.split_once(':') {
            return format!("git::ssh://git@{host}/{path}");
        }
    }
    source.to_string()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Archive {
    Zip,
    TarGz,
}

/// The archive a URL names (`?archive=` wins over the path's extension, and is removed from
/// the URL, as go-getter does).
fn archive_kind(url: &str) -> (String, Option<Archive>) {
    let kind_of = |ext: &str| match ext {
        "zip" => Some(Archive::Zip),
        "tar.gz" | "tgz" => Some(Archive::TarGz),
        _ => None,
    };
    let (path, query) = match url.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (url, None),
    };
    let mut kind = None;
    let mut kept = Vec::new();
    for pair in query.into_iter().flat_map(|q| q.split('&')) {
        match pair.strip_prefix("archive=") {
            Some(a) => kind = kind_of(a),
            None => kept.push(pair),
        }
    }
    if kind.is_none() {
        kind = [".zip", ".tar.gz", ".tgz"]
            .iter()
            .find(|e| path.ends_with(*e))
            .and_then(|e| kind_of(&e[1..]));
    }
    let url = if kept.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", kept.join("&"))
    };
    (url, kind)
}

/// Unpack an archive into `dest` through a sibling temporary directory.
fn unpack(kind: Archive, bytes: &[u8], dest: &Path) -> Result<(), String> {
    let entries = match kind {
        Archive::Zip => zip::read_zip(bytes)?,
        Archive::TarGz => tar::read_tar(&tar::gunzip(bytes)?)?,
    };
    ferro_provider::install::replace_dir_with(dest, |tmp| zip::extract(&entries, tmp))
}

/// Clone `url` (with `?ref=` and `//subdir` as go-getter reads them) into `dest`; returns the
/// subdirectory.
pub(crate) fn git_fetch(url: &str, dest: &Path) -> Result<Option<String>, String> {
    let (url, sub) = split_subdir(url);
    let (url, query) = match url.split_once('?') {
        Some((u, q)) => (u.to_string(), q.to_string()),
        None => (url.clone(), String::new()),
    };
    let mut reference = None;
    let mut depth = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("ref", r)) => reference = Some(r.to_string()),
            Some(("depth", d)) => depth = Some(d.to_string()),
            _ => return Err(format!("unsupported git source argument {pair:?}")),
        }
    }
    let _ = std::fs::remove_dir_all(dest);
    if let Some(parent) = dest.parent() {
        std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
    }
    let run = |args: &[&str]| -> Result<(), String> {
        let out = Command::new("git")
            .args(args)
            .output()
            .map_err(|e| format!("cannot run git: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "git {} failed: {}",
                args.first().copied().unwrap_or_default(),
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    };
    let dest_s = dest.display().to_string();
    match &depth {
        // A shallow clone has only the named branch or tag (go-getter's rule).
        Some(d) => {
            let mut args = vec!["clone", "--quiet", "--depth", d.as_str()];
            if let Some(r) = &reference {
                args.extend(["--branch", r.as_str()]);
            }
            args.extend([url.as_str(), dest_s.as_str()]);
            run(&args)?;
        }
        None => {
            run(&["clone", "--quiet", &url, &dest_s])?;
            if let Some(r) = &reference {
                run(&["-C", &dest_s, "checkout", "--quiet", r])?;
            }
        }
    }
    Ok(sub)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subdirectories_split_as_go_getter_splits_them() {
        assert_eq!(
            split_subdir("https://h/x.zip//mod/a?archive=zip"),
            (
                "https://h/x.zip?archive=zip".to_string(),
                Some("mod/a".to_string())
            )
        );
        assert_eq!(
            split_subdir("https://h/x.zip"),
            ("https://h/x.zip".to_string(), None)
        );
        assert_eq!(
            split_subdir("acme/net/aws//modules/sub"),
            ("acme/net/aws".to_string(), Some("modules/sub".to_string()))
        );
        assert_eq!(
            split_subdir("git::https://h/r.git//sub?ref=v1"),
            (
                "git::https://h/r.git?ref=v1".to_string(),
                Some("sub".to_string())
            )
        );
    }

    #[test]
    fn shorthands_become_git() {
        assert_eq!(
            expand_shorthand("github.com/hashicorp/example?ref=v1"),
            "git::https://github.com/hashicorp/example.git?ref=v1"
        );
        assert_eq!(
            expand_shorthand("bitbucket.org/acme/net//sub"),
            "git::https://bitbucket.org/acme/net.git//sub"
        );
        assert_eq!(
            expand_shorthand("git@github.com:acme/net.git"),
            "git::ssh://git@github.com/acme/net.git"
        );
        assert_eq!(expand_shorthand("https://h/x.zip"), "https://h/x.zip");
    }

    #[test]
    fn archive_kinds() {
        assert_eq!(
            archive_kind("https://h/x.tgz"),
            ("https://h/x.tgz".to_string(), Some(Archive::TarGz))
        );
        assert_eq!(
            archive_kind("https://h/dl?archive=zip&token=1"),
            ("https://h/dl?token=1".to_string(), Some(Archive::Zip))
        );
        assert_eq!(
            archive_kind("https://h/page"),
            ("https://h/page".to_string(), None)
        );
    }
}
