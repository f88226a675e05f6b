//! Provider source addresses (`registry.terraform.io/hashicorp/null`) and provider configuration
//! addresses (`provider["registry.terraform.io/hashicorp/null"].alias`).

use crate::InstanceKey;
use serde::{Deserialize, Serialize};
use std::fmt;

pub const DEFAULT_REGISTRY: &str = "registry.terraform.io";
/// OpenTofu's public registry: what a bare `source` means to OpenTofu.
pub const OPENTOFU_REGISTRY: &str = "registry.opentofu.org";
pub const BUILTIN_HOST: &str = "terraform.io";

/// A provider's fully-qualified source address: hostname/namespace/type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Provider {
    pub hostname: String,
    pub namespace: String,
    pub ty: String,
}

impl Provider {
    /// The built-in `terraform` provider: `terraform.io/builtin/terraform`.
    pub fn builtin(ty: &str) -> Provider {
        Provider {
            hostname: BUILTIN_HOST.into(),
            namespace: "builtin".into(),
            ty: ty.into(),
        }
    }
    /// `registry.terraform.io/hashicorp/<ty>`, what an undeclared local name implies.
    pub fn default_for(ty: &str) -> Provider {
        Provider::default_in(ty, DEFAULT_REGISTRY)
    }
    /// `<host>/hashicorp/<ty>`: what an undeclared local name implies when `host` is the
    /// working directory's default registry (see `is_public_registry`).
    pub fn default_in(ty: &str, host: &str) -> Provider {
        if ty == "terraform" {
            return Provider::builtin(ty);
        }
        Provider {
            hostname: host.into(),
            namespace: "hashicorp".into(),
            ty: ty.into(),
        }
    }
    /// Whether the address is on one of the two public registries (Terraform's or
    /// OpenTofu's), the hosts a source without a hostname can stand for.
    pub fn is_public_registry(&self) -> bool {
        is_public_registry(&self.hostname)
    }
    /// The address as Terraform shows it in messages: `hashicorp/null` for the public
    /// registry, `terraform.io/builtin/terraform`, `example.com/ns/ty` for other hosts.
    pub fn for_display(&self) -> String {
        if self.hostname == DEFAULT_REGISTRY {
            format!("{}/{}", self.namespace, self.ty)
        } else {
            self.to_string()
        }
    }
    pub fn is_builtin(&self) -> bool {
        self.hostname == BUILTIN_HOST && self.namespace == "builtin"
    }
    /// The provider a local name with this `required_providers` source stands for: the
    /// source read with `host` as the default registry, or `hashicorp/<local>` there when
    /// there is no source or it is invalid (reported elsewhere).
    pub fn for_local_name(source: Option<&str>, local: &str, host: &str) -> Provider {
        source
            .and_then(|s| Provider::parse_source_in(s, host).ok())
            .unwrap_or_else(|| Provider::default_in(local, host))
    }
    /// Parse a `source` string: `type`, `namespace/type` or `hostname/namespace/type`; a
    /// source without a hostname is on Terraform's public registry.
    pub fn parse_source(s: &str) -> Result<Provider, String> {
        Provider::parse_source_in(s, DEFAULT_REGISTRY)
    }
    /// Parse a `source` string, where a source without a hostname is on `default_host`.
    pub fn parse_source_in(s: &str, default_host: &str) -> Result<Provider, String> {
        let parts: Vec<&str> = s.split('/').collect();
        let valid = |p: &str| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
        };
        // A hostname may carry a port (`example.com:8443`), as svchost allows.
        let valid_host = |h: &str| match h.split_once(':') {
            Some((name, port)) => {
                valid(name) && !port.is_empty() && port.chars().all(|c| c.is_ascii_digit())
            }
            None => valid(h),
        };
        let n = parts.len();
        if !parts.iter().enumerate().all(|(i, p)| {
            if n == 3 && i == 0 {
                valid_host(p)
            } else {
                valid(p)
            }
        }) {
            return Err(format!("invalid provider source string {s:?}"));
        }
        match parts.as_slice() {
            [ty] => Ok(Provider::default_in(&ty.to_lowercase(), default_host)),
            [ns, ty] => Ok(Provider {
                hostname: default_host.into(),
                namespace: ns.to_lowercase(),
                ty: ty.to_lowercase(),
            }),
            [host, ns, ty] => Ok(Provider {
                hostname: host.to_lowercase(),
                namespace: ns.to_lowercase(),
                ty: ty.to_lowercase(),
            }),
            _ => Err(format!("invalid provider source string {s:?}")),
        }
    }
    /// Parse the FQN form used in state files.
    pub fn parse_fqn(s: &str) -> Result<Provider, String> {
        let parts: Vec<&str> = s.split('/').collect();
        match parts.as_slice() {
            [host, ns, ty] if !host.is_empty() && !ns.is_empty() && !ty.is_empty() => {
                Ok(Provider {
                    hostname: host.to_string(),
                    namespace: ns.to_string(),
                    ty: ty.to_string(),
                })
            }
            _ => Err(format!("invalid provider address {s:?}")),
        }
    }
}

/// Whether `host` is one of the two public registries.
pub fn is_public_registry(host: &str) -> bool {
    host == DEFAULT_REGISTRY || host == OPENTOFU_REGISTRY
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}/{}", self.hostname, self.namespace, self.ty)
    }
}

/// A provider configuration in a module: what state's `provider` field names. With a `key`,
/// one instance of a configuration that has `for_each` (OpenTofu 1.9): the key is printed
/// after the alias (`provider["…"].by_region["us"]`), as OpenTofu's `InstanceString`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AbsProviderConfig {
    /// Module path without instance keys (configurations are static per module).
    pub module: Vec<String>,
    pub provider: Provider,
    pub alias: Option<String>,
    /// The instance of a `for_each` configuration; `InstanceKey::None` for every other.
    #[serde(default = "no_key", skip_serializing_if = "InstanceKey::is_none")]
    pub key: InstanceKey,
}

fn no_key() -> InstanceKey {
    InstanceKey::None
}

impl AbsProviderConfig {
    pub fn root(provider: Provider) -> Self {
        AbsProviderConfig {
            module: Vec::new(),
            provider,
            alias: None,
            key: InstanceKey::None,
        }
    }

    /// The configuration without an instance key (what a `provider` block declares).
    pub fn config(&self) -> AbsProviderConfig {
        AbsProviderConfig {
            key: InstanceKey::None,
            ..self.clone()
        }
    }

    /// The instance `key` of this configuration.
    pub fn with_key(&self, key: InstanceKey) -> AbsProviderConfig {
        AbsProviderConfig {
            key,
            ..self.clone()
        }
    }

    /// Parse the state form: `[module.a.]provider["host/ns/type"][.alias]`, plus legacy
    /// `provider.null` / `provider.aws.west` forms from 0.12 states.
    pub fn parse(s: &str) -> Result<AbsProviderConfig, String> {
        let mut rest = s;
        let mut module = Vec::new();
        while let Some(r) = rest.strip_prefix("module.") {
            let end = r
                .find('.')
                .ok_or_else(|| format!("invalid provider configuration address {s:?}"))?;
            module.push(r[..end].to_string());
            rest = &r[end + 1..];
        }
        if let Some(r) = rest.strip_prefix("provider[\"") {
            let end = r
                .find("\"]")
                .ok_or_else(|| format!("invalid provider configuration address {s:?}"))?;
            let provider = Provider::parse_fqn(&r[..end])?;
            let tail = &r[end + 2..];
            let (alias, key) = match tail.strip_prefix('.') {
                Some(a) if !a.is_empty() => match a.find('[') {
                    // An instance of a `for_each` configuration: `.alias["key"]`.
                    Some(i) if i > 0 => {
                        let (key, rest) = crate::take_key(&a[i..])?;
                        if !rest.is_empty() || key.is_none() {
                            return Err(format!("invalid provider configuration address {s:?}"));
                        }
                        (Some(a[..i].to_string()), key)
                    }
                    Some(_) => return Err(format!("invalid provider configuration address {s:?}")),
                    None => (Some(a.to_string()), InstanceKey::None),
                },
                None if tail.is_empty() => (None, InstanceKey::None),
                _ => return Err(format!("invalid provider configuration address {s:?}")),
            };
            return Ok(AbsProviderConfig {
                module,
                provider,
                alias,
                key,
            });
        }
        if let Some(r) = rest.strip_prefix("provider.") {
            let mut parts = r.splitn(2, '.');
            let ty = parts.next().unwrap_or_default();
            let alias = parts.next().map(str::to_string);
            return Ok(AbsProviderConfig {
                module,
                provider: Provider::default_for(ty),
                alias,
                key: InstanceKey::None,
            });
        }
        Err(format!("invalid provider configuration address {s:?}"))
    }
}

impl fmt::Display for AbsProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.module {
            write!(f, "module.{m}.")?;
        }
        write!(f, "provider[\"{}\"]", self.provider)?;
        if let Some(a) = &self.alias {
            write!(f, ".{a}")?;
        }
        write!(f, "{}", self.key)
    }
}
