//! `.terraform.lock.hcl`: the provider versions and package hashes `init` selected, in exactly
//! the format Terraform writes (providers sorted by address, `version`/`constraints` aligned,
//! one hash per line, sorted), and read back for verification.

use super::hcl;
use super::version::Version;
use ferro_addrs::Provider as ProviderAddr;
use std::collections::BTreeMap;
use std::path::Path;

pub const LOCK_FILE_NAME: &str = ".terraform.lock.hcl";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockedProvider {
    pub version: Version,
    /// The constraints string as recorded (normalized), if any.
    pub constraints: Option<String>,
    /// `h1:…` (and possibly `zh:…`) hashes, sorted.
    pub hashes: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LockFile {
    pub providers: BTreeMap<ProviderAddr, LockedProvider>,
}

/// The environment variable that names the default registry outright.
pub const DEFAULT_REGISTRY_ENV: &str = "FERRO_DEFAULT_REGISTRY";

/// The registry a provider `source` without a hostname names in the working directory `dir`:
///
/// 1. `FERRO_DEFAULT_REGISTRY`, when it names one of the two public registries;
/// 2. OpenTofu's registry when the directory's lock file was written for OpenTofu: it locks
///    a provider on `registry.opentofu.org` and none on `registry.terraform.io`;
/// 3. Terraform's registry otherwise.
///
/// An unreadable lock file counts as none here; `init` and the commands that check the lock
/// report it.
pub fn default_registry(dir: &Path) -> Result<&'static str, String> {
    if let Ok(v) = std::env::var(DEFAULT_REGISTRY_ENV) {
        let v = v.trim().to_ascii_lowercase();
        return match v.as_str() {
            ferro_addrs::DEFAULT_REGISTRY => Ok(ferro_addrs::DEFAULT_REGISTRY),
            ferro_addrs::OPENTOFU_REGISTRY => Ok(ferro_addrs::OPENTOFU_REGISTRY),
            "" => Ok(default_from_lock(dir)),
            _ => Err(format!(
                "{DEFAULT_REGISTRY_ENV} must be {} or {}, not {v:?}.",
                ferro_addrs::DEFAULT_REGISTRY,
                ferro_addrs::OPENTOFU_REGISTRY
            )),
        };
    }
    Ok(default_from_lock(dir))
}

fn default_from_lock(dir: &Path) -> &'static str {
    let Ok(lock) = LockFile::load(dir) else {
        return ferro_addrs::DEFAULT_REGISTRY;
    };
    let on = |host: &str| lock.providers.keys().any(|p| p.hostname == host);
    if on(ferro_addrs::OPENTOFU_REGISTRY) && !on(ferro_addrs::DEFAULT_REGISTRY) {
        ferro_addrs::OPENTOFU_REGISTRY
    } else {
        ferro_addrs::DEFAULT_REGISTRY
    }
}

impl LockFile {
    /// Read the lock file in `dir`; a missing file is an empty lock.
    pub fn load(dir: &Path) -> Result<LockFile, String> {
        let path = dir.join(LOCK_FILE_NAME);
        match std::fs::read_to_string(&path) {
            Ok(text) => LockFile::parse(&text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(LockFile::default()),
            Err(e) => Err(format!(
                "Failed to read the dependency lock file {}: {e}",
                path.display()
            )),
        }
    }

    pub fn parse(text: &str) -> Result<LockFile, String> {
        let what = "The dependency lock file .terraform.lock.hcl";
        let body = hcl::parse(text, what)?;
        let mut out = LockFile::default();
        if let Some(a) = hcl::attributes(&body).next() {
            return Err(format!(
                "{what} is invalid: unexpected argument {:?}.",
                a.name.name
            ));
        }
        for b in hcl::blocks(&body) {
            if b.ty.name != "provider" {
                // Terraform ignores unknown top-level block types for forward compatibility.
                continue;
            }
            let [label] = b.labels.as_slice() else {
                return Err(format!("{what} is invalid: a provider block needs exactly one label, the provider source address."));
            };
            let addr = ProviderAddr::parse_source(&label.value)
                .map_err(|e| format!("{what} is invalid: {e}."))?;
            let mut version = None;
            let mut constraints = None;
            let mut hashes = Vec::new();
            for a in hcl::attributes(&b.body) {
                let bad = |kind: &str| {
                    format!(
                        "{what} is invalid: the {:?} argument of provider {addr} must be {kind}.",
                        a.name.name
                    )
                };
                match a.name.name.as_str() {
                    "version" => {
                        let s = hcl::literal_string(&a.expr).ok_or_else(|| bad("a string"))?;
                        version =
                            Some(Version::parse(&s).map_err(|e| {
                                format!("{what} is invalid: provider {addr}: {e}.")
                            })?);
                    }
                    "constraints" => {
                        constraints =
                            Some(hcl::literal_string(&a.expr).ok_or_else(|| bad("a string"))?)
                    }
                    "hashes" => {
                        hashes =
                            hcl::string_list(&a.expr).ok_or_else(|| bad("a list of strings"))?
                    }
                    other => {
                        return Err(format!(
                            "{what} is invalid: unsupported argument {other:?} in provider {addr}."
                        ))
                    }
                }
            }
            let version = version
                .ok_or_else(|| format!("{what} is invalid: provider {addr} has no version."))?;
            hashes.sort();
            hashes.dedup();
            if out
                .providers
                .insert(
                    addr.clone(),
                    LockedProvider {
                        version,
                        constraints,
                        hashes,
                    },
                )
                .is_some()
            {
                return Err(format!(
                    "{what} is invalid: provider {addr} is locked more than once."
                ));
            }
        }
        Ok(out)
    }

    /// The file text, byte for byte as Terraform writes it.
    pub fn render(&self) -> String {
        let mut out = String::from(
            "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n",
        );
        for (addr, p) in &self.providers {
            out.push('\n');
            out.push_str(&format!("provider {} {{\n", hcl::quote(&addr.to_string())));
            match &p.constraints {
                Some(c) => {
                    out.push_str(&format!(
                        "  version     = {}\n",
                        hcl::quote(&p.version.to_string())
                    ));
                    out.push_str(&format!("  constraints = {}\n", hcl::quote(c)));
                }
                None => out.push_str(&format!(
                    "  version = {}\n",
                    hcl::quote(&p.version.to_string())
                )),
            }
            let mut hashes = p.hashes.clone();
            hashes.sort();
            hashes.dedup();
            if !hashes.is_empty() {
                out.push_str("  hashes = [\n");
                for h in &hashes {
                    out.push_str(&format!("    {},\n", hcl::quote(h)));
                }
                out.push_str("  ]\n");
            }
            out.push_str("}\n");
        }
        out
    }

    /// Write the lock file into `dir` (atomically).
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        let path = dir.join(LOCK_FILE_NAME);
        let tmp = dir.join(format!("{LOCK_FILE_NAME}.tmp{}", std::process::id()));
        std::fs::write(&tmp, self.render())
            .map_err(|e| format!("Failed to write the dependency lock file: {e}"))?;
        std::fs::rename(&tmp, &path)
            .map_err(|e| format!("Failed to write the dependency lock file: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `terraform init` (1.0.3) wrote for `hashicorp/null` pinned to 2.1.2.
    const TERRAFORM_WROTE: &str = r#"# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/null" {
  version     = "2.1.2"
  constraints = "2.1.2"
  hashes = [
    "h1:CFnENdqQu4g3LJNevA32aDxcUz2qGkRGQpFfkI8TCdE=",
  ]
}
"#;

    #[test]
    fn round_trips_terraforms_own_output() {
        let lock = LockFile::parse(TERRAFORM_WROTE).unwrap();
        let null = &lock.providers[&ProviderAddr::default_for("null")];
        assert_eq!(null.version, Version::new(2, 1, 2));
        assert_eq!(null.constraints.as_deref(), Some("2.1.2"));
        assert_eq!(
            null.hashes,
            vec!["h1:CFnENdqQu4g3LJNevA32aDxcUz2qGkRGQpFfkI8TCdE=".to_string()]
        );
        assert_eq!(lock.render(), TERRAFORM_WROTE);
    }

    #[test]
    fn providers_and_hashes_are_sorted_and_constraints_optional() {
        let mut lock = LockFile::default();
        lock.providers.insert(
            ProviderAddr::parse_source("hashicorp/random").unwrap(),
            LockedProvider {
                version: Version::new(3, 0, 0),
                constraints: None,
                hashes: vec!["h1:b".into(), "h1:a".into()],
            },
        );
        lock.providers.insert(
            ProviderAddr::parse_source("example.com/acme/thing").unwrap(),
            LockedProvider {
                version: Version::new(1, 0, 0),
                constraints: Some("~> 1.0".into()),
                hashes: Vec::new(),
            },
        );
        let text = lock.render();
        let expected = r#"# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "example.com/acme/thing" {
  version     = "1.0.0"
  constraints = "~> 1.0"
}

provider "registry.terraform.io/hashicorp/random" {
  version = "3.0.0"
  hashes = [
    "h1:a",
    "h1:b",
  ]
}
"#;
        assert_eq!(text, expected);
        assert_eq!(LockFile::parse(&text).unwrap(), {
            let mut l = lock.clone();
            l.providers.values_mut().for_each(|p| p.hashes.sort());
            l
        });
    }

    #[test]
    fn invalid_lock_files_are_errors() {
        assert!(LockFile::parse("provider {\n}\n").is_err());
        assert!(LockFile::parse("provider \"hashicorp/null\" {\n}\n")
            .unwrap_err()
            .contains("no version"));
        assert!(LockFile::parse("provider \"hashicorp/null\" {\n  version = \"x\"\n}\n").is_err());
        assert!(LockFile::parse(
            "provider \"hashicorp/null\" {\n  version = \"1.0.0\"\n  bogus = 1\n}\n"
        )
        .is_err());
        assert!(LockFile::parse("provider \"hashicorp/null\" {\n").is_err());
        assert_eq!(LockFile::parse("").unwrap(), LockFile::default());
    }
}
