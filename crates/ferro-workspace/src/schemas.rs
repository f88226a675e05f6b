//! Provider schemas for the editor: the built-in providers' (asked in process, nothing is
//! started) and the cache `ferro init` writes to `.terraform/ferro-schemas.json` for installed
//! plugins. The language server only reads the cache; it never starts a provider.

use ferro_addrs::{Provider as ProviderAddr, ResourceMode};
use ferro_db::SchemaTable;
use ferro_provider::{Provider, ProviderSource};
use ferro_value::schema::{FunctionDecl, Schema};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Where `ferro init` caches the schemas, relative to the working directory.
pub const CACHE_FILE: &str = ".terraform/ferro-schemas.json";
const FORMAT_VERSION: u32 = 1;

/// One provider's schemas.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProviderSchemas {
    pub provider: Schema,
    pub resources: BTreeMap<String, Schema>,
    pub data_sources: BTreeMap<String, Schema>,
    /// The provider's functions (`provider::LOCAL::NAME`); absent from older caches.
    #[serde(default)]
    pub functions: BTreeMap<String, FunctionDecl>,
    /// The provider's ephemeral resource types; absent from older caches.
    #[serde(default)]
    pub ephemeral_resources: BTreeMap<String, Schema>,
    /// The identity schemas of its managed resource types that have one (Terraform 1.12);
    /// absent from older caches.
    #[serde(default)]
    pub identities: BTreeMap<String, IdentitySchema>,
    /// The marker that `identities` were recorded (so a managed resource type missing from
    /// them has none): set by every ferro that records them, absent (false) from the caches
    /// older ones wrote, whose types may have identity schemas nobody recorded.
    #[serde(default)]
    pub identities_recorded: bool,
}

pub use ferro_db::{IdentityAttribute, IdentitySchema};

/// An identity schema as the analysis (and the cache) reads it: the provider's without its
/// version and `optional_for_import` (an attribute not required is optional).
fn identity_from_provider(s: &ferro_provider::IdentitySchema) -> IdentitySchema {
    IdentitySchema {
        attributes: s
            .attributes
            .iter()
            .map(|(k, a)| {
                let attr = IdentityAttribute {
                    ty: a.ty.clone(),
                    required_for_import: a.required_for_import,
                    description: a.description.clone(),
                };
                (k.clone(), attr)
            })
            .collect(),
    }
}

/// Schemas by provider source address (`registry.terraform.io/hashicorp/random`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SchemaCatalog {
    pub format_version: u32,
    pub providers: BTreeMap<String, ProviderSchemas>,
}

fn schemas_of(p: &dyn Provider) -> Option<ProviderSchemas> {
    let s = p.schema().ok()?;
    Some(ProviderSchemas {
        provider: s.provider,
        resources: s.resources,
        data_sources: s.data_sources,
        functions: s.functions,
        ephemeral_resources: s.ephemeral_resources,
        identities: s
            .identities
            .iter()
            .map(|(t, i)| (t.clone(), identity_from_provider(i)))
            .collect(),
        identities_recorded: true,
    })
}

impl SchemaCatalog {
    /// The built-in providers' schemas: `terraform` and ferro's `random`, `null`, `local`, `time`.
    pub fn builtin() -> Self {
        let mut c = SchemaCatalog {
            format_version: FORMAT_VERSION,
            ..Default::default()
        };
        if let Some(s) = schemas_of(&ferro_providers::terraform::provider(Path::new("."))) {
            c.providers
                .insert("terraform.io/builtin/terraform".into(), s);
        }
        for (name, make) in ferro_providers::builtins() {
            if let Some(s) = schemas_of(make().as_ref()) {
                c.providers
                    .insert(format!("registry.terraform.io/hashicorp/{name}"), s);
            }
        }
        c
    }

    /// The built-in schemas, overridden by the cache in `root` where it has the same provider.
    pub fn load(root: &Path) -> Self {
        let mut c = Self::builtin();
        if let Some(cached) = read_cache(root) {
            c.providers.extend(cached.providers);
        }
        c
    }

    /// The analysis database's table: every resource and data source type of every provider.
    pub fn table(&self) -> SchemaTable {
        let mut t = SchemaTable::default();
        for (addr, p) in &self.providers {
            if let Ok(addr) = ProviderAddr::parse_source(addr) {
                t.functions.insert(addr, p.functions.clone());
            }
            for (ty, s) in &p.resources {
                t.resources
                    .insert((ResourceMode::Managed, ty.clone()), s.clone());
            }
            for (ty, s) in &p.data_sources {
                t.resources
                    .insert((ResourceMode::Data, ty.clone()), s.clone());
            }
            for (ty, s) in &p.ephemeral_resources {
                t.resources
                    .insert((ResourceMode::Ephemeral, ty.clone()), s.clone());
            }
            for (ty, s) in &p.identities {
                t.identities.insert(ty.clone(), s.clone());
            }
            if p.identities_recorded {
                let without = p
                    .resources
                    .keys()
                    .filter(|ty| !p.identities.contains_key(*ty));
                t.no_identity.extend(without.cloned());
            }
        }
        t
    }

    /// A resource or data source type's schema and the provider that has it.
    pub fn resource(&self, mode: ResourceMode, ty: &str) -> Option<(&str, &Schema)> {
        self.providers.iter().find_map(|(addr, p)| {
            let map = match mode {
                ResourceMode::Managed => &p.resources,
                ResourceMode::Data => &p.data_sources,
                ResourceMode::Ephemeral => &p.ephemeral_resources,
            };
            map.get(ty).map(|s| (addr.as_str(), s))
        })
    }

    /// A managed resource type's identity schema, when a provider that has the type has one.
    pub fn identity(&self, ty: &str) -> Option<&IdentitySchema> {
        self.providers.values().find_map(|p| p.identities.get(ty))
    }

    /// Every type of `mode`, with its provider, in name order.
    pub fn types(&self, mode: ResourceMode) -> Vec<(&str, &str)> {
        let mut out: Vec<(&str, &str)> = self
            .providers
            .iter()
            .flat_map(|(addr, p)| {
                let map = match mode {
                    ResourceMode::Managed => &p.resources,
                    ResourceMode::Data => &p.data_sources,
                    ResourceMode::Ephemeral => &p.ephemeral_resources,
                };
                map.keys().map(move |k| (k.as_str(), addr.as_str()))
            })
            .collect();
        out.sort();
        out.dedup_by(|a, b| a.0 == b.0);
        out
    }
}

/// The cache written by `ferro init`, if there is a readable one of this format.
pub fn read_cache(root: &Path) -> Option<SchemaCatalog> {
    let text = std::fs::read(root.join(CACHE_FILE)).ok()?;
    let c: SchemaCatalog = serde_json::from_slice(&text).ok()?;
    (c.format_version == FORMAT_VERSION).then_some(c)
}

/// Ask each provider for its schemas (starting it through `source`) and write the cache.
/// Providers that cannot be started are left out; their names are returned.
pub fn write_cache(
    root: &Path,
    source: &dyn ProviderSource,
    providers: &[ProviderAddr],
) -> Result<Vec<String>, String> {
    let mut c = SchemaCatalog {
        format_version: FORMAT_VERSION,
        ..Default::default()
    };
    let mut missing = Vec::new();
    for addr in providers {
        match source.get(addr).ok().and_then(|p| schemas_of(p.as_ref())) {
            Some(s) => {
                c.providers.insert(addr.to_string(), s);
            }
            None => missing.push(addr.to_string()),
        }
    }
    let path = root.join(CACHE_FILE);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let body = serde_json::to_vec(&c).map_err(|e| e.to_string())?;
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, body).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, &path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_schemas_need_no_process_and_the_cache_round_trips() {
        let c = SchemaCatalog::builtin();
        assert!(c.resource(ResourceMode::Managed, "random_id").is_some());
        assert!(c
            .resource(ResourceMode::Managed, "terraform_data")
            .is_some());
        assert!(c.resource(ResourceMode::Data, "local_file").is_some());
        let dir = std::env::temp_dir().join(format!("ferro-lsp-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // The built-in `terraform` provider is registered by ferro-providers, as `ferro` does
        // at start-up.
        ferro_providers::install();
        let registry = ferro_provider::ProviderRegistry::new();
        let addr = ProviderAddr::parse_source("terraform.io/builtin/terraform").unwrap();
        assert!(write_cache(&dir, &registry, &[addr]).unwrap().is_empty());
        let back = read_cache(&dir).unwrap();
        assert_eq!(
            back.providers.keys().collect::<Vec<_>>(),
            ["terraform.io/builtin/terraform"]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
