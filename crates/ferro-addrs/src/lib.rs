//! Typed, immutable addresses, displayed exactly as Terraform prints them.
//!
//! Module-local addresses (`Resource`) pair with absolute ones (`AbsResource`, carrying a
//! `ModuleInstance` path). Today only the root module exists, but every absolute address already
//! carries its module path so modules slot in without changing callers.

mod provider;
mod target;
pub mod version;

pub use provider::{
    is_public_registry, AbsProviderConfig, Provider, DEFAULT_REGISTRY, OPENTOFU_REGISTRY,
};
pub use target::{module_contains, parse_target, Target};

use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;

/// `count.index` / `each.key` of one instance, or none for a single-instance resource.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum InstanceKey {
    #[default]
    None,
    Int(i64),
    Str(String),
}

impl InstanceKey {
    pub fn is_none(&self) -> bool {
        matches!(self, InstanceKey::None)
    }
}

impl PartialOrd for InstanceKey {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for InstanceKey {
    /// No key first, then integers numerically, then strings byte-wise (state file order).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        use InstanceKey::*;
        match (self, other) {
            (None, None) => std::cmp::Ordering::Equal,
            (None, _) => std::cmp::Ordering::Less,
            (_, None) => std::cmp::Ordering::Greater,
            (Int(a), Int(b)) => a.cmp(b),
            (Int(_), Str(_)) => std::cmp::Ordering::Less,
            (Str(_), Int(_)) => std::cmp::Ordering::Greater,
            (Str(a), Str(b)) => a.cmp(b),
        }
    }
}

impl fmt::Display for InstanceKey {
    /// `""`, `[0]`, `["key"]` (with Terraform's string escaping).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceKey::None => Ok(()),
            InstanceKey::Int(i) => write!(f, "[{i}]"),
            InstanceKey::Str(s) => write!(f, "[{}]", quote(s)),
        }
    }
}

/// A string in double quotes with `"`, `\` and control characters escaped.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One step of a module instance path: `module.NAME[KEY]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ModuleInstanceStep {
    pub name: String,
    pub key: InstanceKey,
}

/// A module instance path; empty is the root module. Shared: the addresses of every resource
/// instance in a module instance (changes, state entries) hold its path once.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct ModuleInstance(pub Arc<[ModuleInstanceStep]>);

impl PartialOrd for ModuleInstance {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ModuleInstance {
    /// As Terraform orders module instances: shorter paths first, then step by step (name,
    /// then key). Plans list resources in this order.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.cmp(&other.0))
    }
}

impl ModuleInstance {
    pub fn root() -> Self {
        ModuleInstance(Arc::from([]))
    }
    pub fn is_root(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Display for ModuleInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            write!(f, "module.{}{}", step.name, step.key)?;
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ResourceMode {
    /// `data` sorts before `managed`, as in the state file.
    Data,
    Managed,
    /// `ephemeral "TYPE" "NAME"` (Terraform 1.10): opened when needed, never in state.
    Ephemeral,
}

impl ResourceMode {
    pub fn as_str(self) -> &'static str {
        match self {
            ResourceMode::Managed => "managed",
            ResourceMode::Data => "data",
            ResourceMode::Ephemeral => "ephemeral",
        }
    }
}

/// A resource within its module: `terraform_data.a`, `data.x.y`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Resource {
    pub mode: ResourceMode,
    /// Shared: every instance address of a resource (a change, a state entry) holds the
    /// resource's type and name once.
    pub ty: Arc<str>,
    pub name: Arc<str>,
}

impl Resource {
    pub fn managed(ty: impl Into<Arc<str>>, name: impl Into<Arc<str>>) -> Self {
        Resource {
            mode: ResourceMode::Managed,
            ty: ty.into(),
            name: name.into(),
        }
    }
    pub fn instance(&self, key: InstanceKey) -> ResourceInstance {
        ResourceInstance {
            resource: self.clone(),
            key,
        }
    }
    /// The provider local name implied by the type: the part before the first `_`.
    pub fn implied_provider(&self) -> &str {
        self.ty.split('_').next().unwrap_or(&self.ty)
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mode {
            ResourceMode::Managed => write!(f, "{}.{}", self.ty, self.name),
            ResourceMode::Data => write!(f, "data.{}.{}", self.ty, self.name),
            ResourceMode::Ephemeral => write!(f, "ephemeral.{}.{}", self.ty, self.name),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ResourceInstance {
    pub resource: Resource,
    pub key: InstanceKey,
}

impl fmt::Display for ResourceInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.resource, self.key)
    }
}

/// A resource in a module instance.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AbsResource {
    pub module: ModuleInstance,
    pub resource: Resource,
}

impl AbsResource {
    pub fn root(resource: Resource) -> Self {
        AbsResource {
            module: ModuleInstance::root(),
            resource,
        }
    }
    pub fn instance(&self, key: InstanceKey) -> AbsResourceInstance {
        AbsResourceInstance {
            module: self.module.clone(),
            resource: self.resource.instance(key),
        }
    }
}

impl fmt::Display for AbsResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.module.is_root() {
            write!(f, "{}", self.resource)
        } else {
            write!(f, "{}.{}", self.module, self.resource)
        }
    }
}

/// A resource instance in a module instance: `module.a["x"].terraform_data.b[0]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AbsResourceInstance {
    pub module: ModuleInstance,
    pub resource: ResourceInstance,
}

impl AbsResourceInstance {
    pub fn containing_resource(&self) -> AbsResource {
        AbsResource {
            module: self.module.clone(),
            resource: self.resource.resource.clone(),
        }
    }
}

impl fmt::Display for AbsResourceInstance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.module.is_root() {
            write!(f, "{}", self.resource)
        } else {
            write!(f, "{}.{}", self.module, self.resource)
        }
    }
}

/// A resource in a static module path (no instance keys): what configuration declares and
/// what state's `dependencies` name (`module.a.terraform_data.b`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ConfigResource {
    pub module: Vec<String>,
    pub resource: Resource,
}

impl fmt::Display for ConfigResource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.module {
            write!(f, "module.{m}.")?;
        }
        write!(f, "{}", self.resource)
    }
}

impl ModuleInstance {
    /// The static module path: call names without instance keys.
    pub fn static_path(&self) -> Vec<String> {
        self.0.iter().map(|s| s.name.clone()).collect()
    }

    /// This path with one more step.
    pub fn child(&self, name: &str, key: InstanceKey) -> ModuleInstance {
        let mut steps = self.0.to_vec();
        steps.push(ModuleInstanceStep {
            name: name.to_string(),
            key,
        });
        ModuleInstance(steps.into())
    }

    /// The parent module instance and the last step; None for the root.
    pub fn split_last(&self) -> Option<(ModuleInstance, &ModuleInstanceStep)> {
        let (last, rest) = self.0.split_last()?;
        Some((ModuleInstance(rest.into()), last))
    }
}

impl AbsResource {
    pub fn config(&self) -> ConfigResource {
        ConfigResource {
            module: self.module.static_path(),
            resource: self.resource.clone(),
        }
    }
}

/// Read one `[key]` at the start of `s`: the key and the rest.
pub(crate) fn take_key(s: &str) -> Result<(InstanceKey, &str), String> {
    let Some(inner) = s.strip_prefix('[') else {
        return Ok((InstanceKey::None, s));
    };
    if let Some(q) = inner.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = q.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, 'n')) => out.push('\n'),
                    Some((_, 't')) => out.push('\t'),
                    Some((_, 'r')) => out.push('\r'),
                    Some((_, c)) => out.push(c),
                    None => break,
                },
                '"' => {
                    let rest = &q[i + 1..];
                    let rest = rest
                        .strip_prefix(']')
                        .ok_or_else(|| "expected ] after an instance key".to_string())?;
                    return Ok((InstanceKey::Str(out), rest));
                }
                c => out.push(c),
            }
        }
        return Err("unterminated instance key".to_string());
    }
    let end = inner
        .find(']')
        .ok_or_else(|| "expected ] after an instance key".to_string())?;
    let n: i64 = inner[..end]
        .trim()
        .parse()
        .map_err(|_| format!("invalid instance key {:?}", &inner[..end]))?;
    Ok((InstanceKey::Int(n), &inner[end + 1..]))
}

/// Split a leading `module.a[KEY].module.b.` path off an address.
pub fn parse_module_prefix(s: &str) -> Result<(ModuleInstance, &str), String> {
    let mut rest = s;
    let mut steps = Vec::new();
    while let Some(r) = rest.strip_prefix("module.") {
        let end = r
            .find(['.', '['])
            .ok_or_else(|| format!("{s:?} is not a resource address"))?;
        let name = &r[..end];
        if name.is_empty() {
            return Err(format!("{s:?} has an empty module name"));
        }
        let (key, after) = take_key(&r[end..])?;
        steps.push(ModuleInstanceStep {
            name: name.to_string(),
            key,
        });
        rest = match after.strip_prefix('.') {
            Some(a) => a,
            None if after.is_empty() => after,
            None => return Err(format!("{s:?} is not a valid address")),
        };
    }
    Ok((ModuleInstance(steps.into()), rest))
}

/// Parse a resource instance address as typed on the command line (`a.b`, `a.b[0]`, `a.b["k"]`,
/// `data.a.b`, each optionally inside `module.x[KEY].`).
pub fn parse_resource_instance(s: &str) -> Result<AbsResourceInstance, String> {
    let (module, rest) = parse_module_prefix(s)?;
    let (base, key) = match rest.find('[') {
        Some(i) => {
            let (key, tail) = take_key(&rest[i..])?;
            if !tail.is_empty() {
                return Err(format!("{s:?} is not a resource instance address"));
            }
            (&rest[..i], key)
        }
        None => (rest, InstanceKey::None),
    };
    let parts: Vec<&str> = base.split('.').collect();
    let resource = match parts.as_slice() {
        ["data", ty, name] => Resource {
            mode: ResourceMode::Data,
            ty: (*ty).into(),
            name: (*name).into(),
        },
        [ty, name] => Resource::managed(*ty, *name),
        _ => return Err(format!("{s:?} is not a resource instance address")),
    };
    if resource.ty.is_empty() || resource.name.is_empty() {
        return Err(format!("{s:?} is not a resource instance address"));
    }
    Ok(AbsResource { module, resource }.instance(key))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn provider_hostnames_may_carry_a_port() {
        let p = Provider::parse_source("localhost:8443/acme/thing").unwrap();
        assert_eq!(p.hostname, "localhost:8443");
        assert_eq!(p.to_string(), "localhost:8443/acme/thing");
        assert!(Provider::parse_source("localhost:/acme/thing").is_err());
        assert!(Provider::parse_source("localhost:x/acme/thing").is_err());
        assert!(Provider::parse_source("acme:1/thing").is_err());
    }

    #[test]
    fn provider_configuration_instances_parse_and_print_as_opentofu() {
        for text in [
            "provider[\"registry.opentofu.org/hashicorp/aws\"].by_region[\"us-east-1\"]",
            "module.a.provider[\"registry.opentofu.org/hashicorp/aws\"].x[\"k\\\"q\"]",
            "provider[\"registry.opentofu.org/hashicorp/aws\"].by_region",
        ] {
            let c = AbsProviderConfig::parse(text).unwrap();
            assert_eq!(c.to_string(), text);
        }
        let c = AbsProviderConfig::parse(
            "provider[\"registry.opentofu.org/hashicorp/aws\"].by_region[\"us\"]",
        )
        .unwrap();
        assert_eq!(c.alias.as_deref(), Some("by_region"));
        assert_eq!(c.key, InstanceKey::Str("us".into()));
        assert_eq!(c.config().key, InstanceKey::None);
        // A key needs an alias, and nothing may follow it.
        for bad in [
            "provider[\"registry.opentofu.org/hashicorp/aws\"].[\"us\"]",
            "provider[\"registry.opentofu.org/hashicorp/aws\"].a[\"us\"]x",
            "provider[\"registry.opentofu.org/hashicorp/aws\"].a[\"us\"",
        ] {
            assert!(AbsProviderConfig::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn displays_like_terraform() {
        let r = AbsResource::root(Resource::managed("terraform_data", "a"));
        assert_eq!(
            r.instance(InstanceKey::None).to_string(),
            "terraform_data.a"
        );
        assert_eq!(
            r.instance(InstanceKey::Int(3)).to_string(),
            "terraform_data.a[3]"
        );
        assert_eq!(
            r.instance(InstanceKey::Str("x\"y".into())).to_string(),
            "terraform_data.a[\"x\\\"y\"]"
        );
        let m = ModuleInstance(
            vec![ModuleInstanceStep {
                name: "m".into(),
                key: InstanceKey::Str("k".into()),
            }]
            .into(),
        );
        let abs = AbsResource {
            module: m,
            resource: Resource {
                mode: ResourceMode::Data,
                ty: "t".into(),
                name: "n".into(),
            },
        };
        assert_eq!(abs.to_string(), "module.m[\"k\"].data.t.n");
    }

    #[test]
    fn parses_cli_addresses() {
        let a = parse_resource_instance("terraform_data.a[\"k\"]").unwrap();
        assert_eq!(a.to_string(), "terraform_data.a[\"k\"]");
        assert!(parse_resource_instance("nope").is_err());
    }

    #[test]
    fn instance_keys_sort_like_state() {
        let mut ks = vec![
            InstanceKey::Str("b".into()),
            InstanceKey::Int(10),
            InstanceKey::Int(2),
            InstanceKey::None,
        ];
        ks.sort();
        assert_eq!(
            ks,
            vec![
                InstanceKey::None,
                InstanceKey::Int(2),
                InstanceKey::Int(10),
                InstanceKey::Str("b".into())
            ]
        );
    }
}

#[cfg(test)]
mod module_address_tests {
    use super::*;

    #[test]
    fn parses_module_instance_addresses() {
        let a = parse_resource_instance("module.a[\"k\"].module.b[0].null_resource.x[2]").unwrap();
        assert_eq!(
            a.to_string(),
            "module.a[\"k\"].module.b[0].null_resource.x[2]"
        );
        assert_eq!(
            a.module.static_path(),
            vec!["a".to_string(), "b".to_string()]
        );
        assert_eq!(
            a.containing_resource().config().to_string(),
            "module.a.module.b.null_resource.x"
        );
        let d = parse_resource_instance("module.m.data.t.n").unwrap();
        assert_eq!(d.to_string(), "module.m.data.t.n");
        assert!(parse_resource_instance("module.a[").is_err());
        assert!(parse_resource_instance("module..x.y").is_err());
    }
}
