//! The CLI configuration file (`TF_CLI_CONFIG_FILE`, else `~/.terraformrc`): the
//! `provider_installation` block (`filesystem_mirror`, `network_mirror`, `direct`,
//! `dev_overrides`, with `include`/`exclude` patterns), the installation methods implied when
//! it is absent, `credentials "HOST" { token }`, `host "HOST" { services }` and
//! `plugin_cache_dir`.
//!
//! Terraform reads this file as HCL 1, which allows quoted argument names
//! (`"hashicorp/null" = "/dir"` in `dev_overrides`); those are rewritten to placeholders before
//! ferro-syntax parses the text, and mapped back afterwards.

use super::hcl;
use ferro_addrs::Provider as ProviderAddr;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MethodKind {
    /// A local directory in the unpacked or packed layout.
    FilesystemMirror(PathBuf),
    /// The provider's origin registry.
    Direct,
    /// `network_mirror { url = … }`.
    NetworkMirror(String),
}

/// One installation method with the providers it applies to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Method {
    pub kind: MethodKind,
    pub include: Vec<ProviderPattern>,
    pub exclude: Vec<ProviderPattern>,
}

impl Method {
    pub fn applies_to(&self, addr: &ProviderAddr) -> bool {
        (self.include.is_empty() || self.include.iter().any(|p| p.matches(addr)))
            && !self.exclude.iter().any(|p| p.matches(addr))
    }
}

/// `hostname/namespace/type` with `*` wildcards (`hashicorp/*`, `example.com/*/*`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderPattern {
    pub hostname: String,
    pub namespace: String,
    pub ty: String,
}

impl ProviderPattern {
    pub fn parse(s: &str) -> Result<ProviderPattern, String> {
        let parts: Vec<&str> = s.split('/').collect();
        let (hostname, namespace, ty) = match parts.as_slice() {
            [ns, ty] => ("registry.terraform.io", *ns, *ty),
            [h, ns, ty] => (*h, *ns, *ty),
            _ => return Err(format!("invalid provider address pattern {s:?}: must have the form [HOSTNAME/]NAMESPACE/TYPE")),
        };
        if hostname.is_empty()
            || namespace.is_empty()
            || ty.is_empty()
            || (namespace == "*" && ty != "*")
        {
            return Err(format!("invalid provider address pattern {s:?}"));
        }
        Ok(ProviderPattern {
            hostname: hostname.to_lowercase(),
            namespace: namespace.to_lowercase(),
            ty: ty.to_lowercase(),
        })
    }

    pub fn matches(&self, a: &ProviderAddr) -> bool {
        let part = |p: &str, v: &str| p == "*" || p == v;
        part(&self.hostname, &a.hostname)
            && part(&self.namespace, &a.namespace)
            && part(&self.ty, &a.ty)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CliConfig {
    /// Where the configuration was read from, if a file existed.
    pub path: Option<PathBuf>,
    /// Explicit installation methods in order; `None` when there is no `provider_installation`
    /// block (then [`CliConfig::methods`] gives the implied ones).
    pub installation: Option<Vec<Method>>,
    /// `dev_overrides`: provider → directory holding its executable.
    pub dev_overrides: BTreeMap<ProviderAddr, PathBuf>,
    /// `credentials "HOST" { token = "…" }`: host (lower case) → token.
    pub credentials: BTreeMap<String, String>,
    /// `host "HOST" { services = { "providers.v1" = "…" } }`: host → service → URL.
    pub hosts: BTreeMap<String, BTreeMap<String, String>>,
    /// `plugin_cache_dir` (`TF_PLUGIN_CACHE_DIR` wins over it).
    pub plugin_cache_dir: Option<PathBuf>,
}

impl CliConfig {
    /// Read the CLI configuration the way Terraform finds it.
    pub fn load() -> Result<CliConfig, String> {
        let path = match std::env::var_os("TF_CLI_CONFIG_FILE").filter(|v| !v.is_empty()) {
            Some(p) => PathBuf::from(p),
            None => match home_dir() {
                Some(h) => h.join(".terraformrc"),
                None => return Ok(CliConfig::default()),
            },
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => {
                let mut c = CliConfig::parse(&text, &path.display().to_string())?;
                c.path = Some(path);
                Ok(c)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(CliConfig::default()),
            Err(e) => Err(format!(
                "Failed to read the CLI configuration {}: {e}",
                path.display()
            )),
        }
    }

    /// Parse CLI configuration text; `name` is used in errors.
    pub fn parse(text: &str, name: &str) -> Result<CliConfig, String> {
        let (text, quoted) = unquote_argument_names(text);
        let what = format!("The CLI configuration file {name}");
        let body = hcl::parse(&text, &what)?;
        let key = |n: &str| quoted.get(n).cloned().unwrap_or_else(|| n.to_string());
        let mut out = CliConfig::default();
        for a in hcl::attributes(&body) {
            if a.name.name == "plugin_cache_dir" {
                let dir = hcl::literal_string(&a.expr).ok_or_else(|| {
                    format!("{what} is invalid: plugin_cache_dir must be a string.")
                })?;
                out.plugin_cache_dir = Some(expand_home(&dir));
            }
        }
        for b in hcl::blocks(&body) {
            let kind = b.ty.name.as_str();
            if kind != "credentials" && kind != "host" {
                continue;
            }
            let [label] = b.labels.as_slice() else {
                return Err(format!(
                    "{what} is invalid: a {kind} block needs exactly one label, the hostname."
                ));
            };
            let host = label.value.to_lowercase();
            for a in hcl::attributes(&b.body) {
                match (kind, a.name.name.as_str()) {
                    ("credentials", "token") => {
                        let token = hcl::literal_string(&a.expr).ok_or_else(|| {
                            format!("{what} is invalid: the token for {host} must be a string.")
                        })?;
                        out.credentials.insert(host.clone(), token);
                    }
                    ("host", "services") => {
                        let services = hcl::string_map(&a.expr).ok_or_else(|| {
                            format!("{what} is invalid: the services of host {host} must be an object of URL strings.")
                        })?;
                        out.hosts.insert(
                            host.clone(),
                            services.into_iter().map(|(k, v)| (key(&k), v)).collect(),
                        );
                    }
                    _ => {}
                }
            }
        }
        for b in hcl::blocks(&body).filter(|b| b.ty.name == "provider_installation") {
            if out.installation.is_some() {
                return Err(format!(
                    "{what} is invalid: only one provider_installation block is allowed."
                ));
            }
            let mut methods = Vec::new();
            for m in hcl::blocks(&b.body) {
                let mut include = Vec::new();
                let mut exclude = Vec::new();
                let mut path = None;
                let mut url = None;
                if m.ty.name == "dev_overrides" {
                    for a in hcl::attributes(&m.body) {
                        let addr = ProviderAddr::parse_source(&key(&a.name.name))
                            .map_err(|e| format!("{what} is invalid: dev_overrides: {e}."))?;
                        let dir = hcl::literal_string(&a.expr)
                            .ok_or_else(|| format!("{what} is invalid: the dev_overrides entry for {addr} must be a directory path string."))?;
                        out.dev_overrides.insert(addr, expand_home(&dir));
                    }
                    continue;
                }
                for a in hcl::attributes(&m.body) {
                    let patterns = || -> Result<Vec<ProviderPattern>, String> {
                        hcl::string_list(&a.expr)
                            .ok_or_else(|| {
                                format!(
                                    "{what} is invalid: {} in {} must be a list of strings.",
                                    a.name.name, m.ty.name
                                )
                            })?
                            .iter()
                            .map(|s| {
                                ProviderPattern::parse(s)
                                    .map_err(|e| format!("{what} is invalid: {e}."))
                            })
                            .collect()
                    };
                    match a.name.name.as_str() {
                        "include" => include = patterns()?,
                        "exclude" => exclude = patterns()?,
                        "path" if m.ty.name == "filesystem_mirror" => {
                            path = Some(hcl::literal_string(&a.expr).ok_or_else(|| {
                                format!(
                                    "{what} is invalid: filesystem_mirror path must be a string."
                                )
                            })?)
                        }
                        "url" if m.ty.name == "network_mirror" => {
                            url = Some(hcl::literal_string(&a.expr).ok_or_else(|| {
                                format!("{what} is invalid: network_mirror url must be a string.")
                            })?)
                        }
                        other => {
                            return Err(format!(
                                "{what} is invalid: unsupported argument {other:?} in {}.",
                                m.ty.name
                            ))
                        }
                    }
                }
                let kind = match m.ty.name.as_str() {
                    "filesystem_mirror" => {
                        MethodKind::FilesystemMirror(expand_home(&path.ok_or_else(|| {
                            format!("{what} is invalid: filesystem_mirror requires a path.")
                        })?))
                    }
                    "direct" => MethodKind::Direct,
                    "network_mirror" => MethodKind::NetworkMirror(url.ok_or_else(|| {
                        format!("{what} is invalid: network_mirror requires a url.")
                    })?),
                    other => {
                        return Err(format!(
                            "{what} is invalid: unknown provider installation method {other:?}."
                        ))
                    }
                };
                methods.push(Method {
                    kind,
                    include,
                    exclude,
                });
            }
            out.installation = Some(methods);
        }
        Ok(out)
    }

    /// The installation methods in force: the explicit ones, or Terraform's implied ones (each
    /// existing local plugin directory as a filesystem mirror, then the origin registry).
    pub fn methods(&self, working_dir: &Path) -> Vec<Method> {
        if let Some(m) = &self.installation {
            return m.clone();
        }
        let mut out: Vec<Method> = implied_mirror_dirs(working_dir)
            .into_iter()
            .filter(|d| d.is_dir())
            .map(|d| Method {
                kind: MethodKind::FilesystemMirror(d),
                include: Vec::new(),
                exclude: Vec::new(),
            })
            .collect();
        out.push(Method {
            kind: MethodKind::Direct,
            include: Vec::new(),
            exclude: Vec::new(),
        });
        out
    }
}

/// Terraform's implied local mirror directories, in search order.
pub fn implied_mirror_dirs(working_dir: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![working_dir.join("terraform.d/plugins")];
    if let Some(h) = home_dir() {
        dirs.push(h.join(".terraform.d/plugins"));
    }
    match std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        Some(x) => dirs.push(PathBuf::from(x).join("terraform/plugins")),
        None => {
            if let Some(h) = home_dir() {
                dirs.push(h.join(".local/share/terraform/plugins"));
            }
        }
    }
    let data_dirs = std::env::var("XDG_DATA_DIRS")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "/usr/local/share:/usr/share".into());
    for d in data_dirs.split(':').filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d).join("terraform/plugins"));
    }
    dirs
}

fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
}

fn expand_home(p: &str) -> PathBuf {
    match (p.strip_prefix("~/"), home_dir()) {
        (Some(rest), Some(h)) => h.join(rest),
        _ => PathBuf::from(p),
    }
}

/// Replace HCL 1 quoted argument names (`"a/b" = …` at the start of a line) with identifiers.
fn unquote_argument_names(text: &str) -> (String, BTreeMap<String, String>) {
    let mut map = BTreeMap::new();
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if let Some(rest) = trimmed.strip_prefix('"') {
            if let Some(end) = rest.find('"') {
                let (key, after) = (&rest[..end], &rest[end + 1..]);
                if !key.contains('\\')
                    && after.trim_start().starts_with('=')
                    && !after.trim_start().starts_with("==")
                {
                    let ident = format!("ferro_quoted_argument_{}", map.len());
                    map.insert(ident.clone(), key.to_string());
                    out.push_str(indent);
                    out.push_str(&ident);
                    out.push_str(after);
                    continue;
                }
            }
        }
        out.push_str(line);
    }
    (out, map)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_mirrors_direct_and_dev_overrides() {
        let text = r#"
provider_installation {
  dev_overrides {
    "hashicorp/null" = "/home/dev/null-provider"
    "example.com/acme/thing" = "/opt/thing"
  }
  filesystem_mirror {
    path    = "/srv/mirror"
    include = ["registry.terraform.io/hashicorp/*"]
  }
  direct {
    exclude = ["hashicorp/*"]
  }
}
"#;
        let c = CliConfig::parse(text, "test.tfrc").unwrap();
        assert_eq!(
            c.dev_overrides[&ProviderAddr::default_for("null")],
            PathBuf::from("/home/dev/null-provider")
        );
        assert_eq!(
            c.dev_overrides[&ProviderAddr::parse_source("example.com/acme/thing").unwrap()],
            PathBuf::from("/opt/thing")
        );
        let m = c.installation.as_ref().unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(
            m[0].kind,
            MethodKind::FilesystemMirror("/srv/mirror".into())
        );
        assert_eq!(m[1].kind, MethodKind::Direct);
        let null = ProviderAddr::default_for("null");
        let other = ProviderAddr::parse_source("acme/thing").unwrap();
        assert!(m[0].applies_to(&null) && !m[0].applies_to(&other));
        assert!(!m[1].applies_to(&null) && m[1].applies_to(&other));
    }

    #[test]
    fn the_oracle_cli_config_parses() {
        let c = CliConfig::parse("provider_installation {\n  filesystem_mirror {\n    path = \"/root/.cache/m\"\n  }\n}\n", "x").unwrap();
        assert_eq!(
            c.installation.unwrap()[0].kind,
            MethodKind::FilesystemMirror("/root/.cache/m".into())
        );
    }

    #[test]
    fn without_provider_installation_the_methods_are_implied() {
        let c = CliConfig::parse("plugin_cache_dir = \"/tmp/x\"\n", "x").unwrap();
        assert!(c.installation.is_none());
        let wd = std::env::temp_dir().join(format!("ferro-cliconfig-{}", std::process::id()));
        std::fs::create_dir_all(wd.join("terraform.d/plugins")).unwrap();
        let methods = c.methods(&wd);
        assert_eq!(
            methods[0].kind,
            MethodKind::FilesystemMirror(wd.join("terraform.d/plugins"))
        );
        assert_eq!(methods.last().unwrap().kind, MethodKind::Direct);
        std::fs::remove_dir_all(&wd).unwrap();
        assert!(implied_mirror_dirs(Path::new("/w"))
            .iter()
            .any(|d| d.ends_with("terraform/plugins")));
    }

    #[test]
    fn patterns() {
        let p = ProviderPattern::parse("hashicorp/*").unwrap();
        assert!(p.matches(&ProviderAddr::default_for("aws")));
        assert!(!p.matches(&ProviderAddr::parse_source("example.com/hashicorp/aws").unwrap()));
        assert!(ProviderPattern::parse("*/*")
            .unwrap()
            .matches(&ProviderAddr::parse_source("a/b").unwrap()));
        assert!(ProviderPattern::parse("*/aws").is_err());
        assert!(ProviderPattern::parse("aws").is_err());
    }

    #[test]
    fn reads_credentials_hosts_and_the_plugin_cache() {
        let text = r#"
plugin_cache_dir = "/var/cache/tf"
credentials "App.Example.com" {
  token = "secret"
}
host "example.com" {
  services = {
    "providers.v1" = "https://mirror.example.com/v1/providers/"
    "modules.v1"   = "/modules/"
  }
}
"#;
        let c = CliConfig::parse(text, "rc").unwrap();
        assert_eq!(c.plugin_cache_dir, Some(PathBuf::from("/var/cache/tf")));
        assert_eq!(c.credentials["app.example.com"], "secret");
        assert_eq!(
            c.hosts["example.com"]["providers.v1"],
            "https://mirror.example.com/v1/providers/"
        );
        assert_eq!(c.hosts["example.com"]["modules.v1"], "/modules/");
    }

    #[test]
    fn errors_name_the_problem() {
        let e = CliConfig::parse("provider_installation {\n  teleport {}\n}\n", "rc").unwrap_err();
        assert!(e.contains("teleport"), "{e}");
        let e = CliConfig::parse("provider_installation {\n  filesystem_mirror {}\n}\n", "rc")
            .unwrap_err();
        assert!(e.contains("requires a path"), "{e}");
        assert!(CliConfig::parse("provider_installation {", "rc").is_err());
    }
}
