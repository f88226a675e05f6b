//! Which provider configuration a provider reference stands for, read from item trees only:
//! the item graph needs it to make each resource wait for its provider configuration, and the
//! planner to start and configure providers. Errors carry a [`Loc`], not a range, so the item
//! graph stays free of positions.

use crate::pending::Loc;
use crate::{item_signature, module_index, Db, Module, ModuleTree, TreeNodeId};
use ferro_addrs::{AbsProviderConfig, Provider as ProviderAddr};

/// Why a provider reference resolves nowhere: a message and, when known, the range at fault.
pub type ResolveError = (String, Option<Loc>);

/// The provider source address a local provider name stands for in `module`: its
/// `required_providers` entry, else the default (`hashicorp/NAME` on the database's default
/// registry, [`crate::default_registry`]).
pub fn provider_source(
    db: &dyn Db,
    module: Module,
    local: &str,
) -> Result<ProviderAddr, ResolveError> {
    provider_source_in(db, module_index(db, module), local)
}

/// [`provider_source`] for a module whose index is at hand.
pub fn provider_source_in(
    db: &dyn Db,
    index: &crate::ModuleIndex,
    local: &str,
) -> Result<ProviderAddr, ResolveError> {
    let host = crate::default_registry(db);
    match index.required_providers.get(local) {
        Some(item) => {
            let rp = &item_signature(db, item.file).required_providers[item.index];
            match &rp.source {
                Some(src) => ProviderAddr::parse_source_in(src, host)
                    .map_err(|e| (e, Some(Loc::new(item.file, rp.span)))),
                None => Ok(ProviderAddr::default_in(local, host)),
            }
        }
        None => Ok(ProviderAddr::default_in(local, host)),
    }
}

/// The provider source address a local name stands for, or the default address when its
/// `source` is invalid (reported elsewhere).
pub fn provider_source_or_default(
    db: &dyn Db,
    index: &crate::ModuleIndex,
    local: &str,
) -> ProviderAddr {
    provider_source_in(db, index, local)
        .unwrap_or_else(|_| ProviderAddr::default_in(local, crate::default_registry(db)))
}

/// The provider configuration that a provider reference (`local` name and optional alias) in
/// static module `node` stands for: a `provider` block of that module, else what the call passes
/// for it in `providers = {…}`, else (for a default configuration) the parent's default
/// configuration of the same provider, up to the root, where a missing block is an empty
/// configuration.
pub fn resolve_provider(
    db: &dyn Db,
    tree: &ModuleTree,
    node: TreeNodeId,
    local: &str,
    alias: Option<String>,
) -> Result<AbsProviderConfig, ResolveError> {
    let tn = &tree.nodes[node];
    let index = module_index(db, tn.module);
    let fqn = provider_source(db, tn.module, local)?;
    let here = AbsProviderConfig {
        module: tn.path.clone(),
        provider: fqn.clone(),
        alias: alias.clone(),
        key: ferro_addrs::InstanceKey::None,
    };
    if index
        .providers
        .contains_key(&(local.to_string(), alias.clone()))
    {
        return Ok(here);
    }
    let (Some(parent), Some(call)) = (tn.parent, tn.call) else {
        return Ok(AbsProviderConfig {
            module: Vec::new(),
            ..here
        });
    };
    let call = &item_signature(db, call.file).module_calls[call.index];
    if let Some(p) = call
        .providers
        .iter()
        .find(|p| p.child.0 == local && p.child.1 == alias)
    {
        return resolve_provider(db, tree, parent, &p.parent.0, p.parent.1.clone());
    }
    if alias.is_some() {
        // An alias the call does not pass resolves nowhere above; keep it in this module.
        return Ok(here);
    }
    inherit(db, tree, parent, here)
}

/// Implicit inheritance of a default provider configuration by provider address: the nearest
/// ancestor with a local name for the same provider resolves it; when no module above names
/// it, it is the root module's default configuration (as Terraform resolves it).
fn inherit(
    db: &dyn Db,
    tree: &ModuleTree,
    node: TreeNodeId,
    wanted: AbsProviderConfig,
) -> Result<AbsProviderConfig, ResolveError> {
    let module = tree.nodes[node].module;
    let fqn = &wanted.provider;
    let named = module_index(db, module)
        .required_providers
        .keys()
        .find(|l| provider_source(db, module, l).ok().as_ref() == Some(fqn))
        .cloned()
        .or_else(|| {
            (provider_source(db, module, &fqn.ty).ok().as_ref() == Some(fqn))
                .then(|| fqn.ty.clone())
        });
    match (named, tree.nodes[node].parent) {
        (Some(local), _) => resolve_provider(db, tree, node, &local, None),
        (None, Some(parent)) => inherit(db, tree, parent, wanted),
        (None, None) => Ok(AbsProviderConfig {
            module: Vec::new(),
            ..wanted
        }),
    }
}

/// The `provider` block (its local name and alias) of the configuration `cfg`, when its module
/// declares one: a default configuration without a block is an empty one.
pub fn provider_block_of(
    db: &dyn Db,
    tree: &ModuleTree,
    cfg: &AbsProviderConfig,
) -> Option<(TreeNodeId, String, Option<String>)> {
    let node = tree.find(&cfg.module)?;
    let module = tree.nodes[node].module;
    module_index(db, module)
        .providers
        .keys()
        .find(|(local, alias)| {
            alias == &cfg.alias
                && provider_source(db, module, local).ok().as_ref() == Some(&cfg.provider)
        })
        .map(|(local, alias)| (node, local.clone(), alias.clone()))
}

/// The configuration a `provider "NAME"` block (with its alias) of static module `node`
/// declares.
pub fn block_config(
    db: &dyn Db,
    tree: &ModuleTree,
    node: TreeNodeId,
    local: &str,
    alias: Option<String>,
) -> AbsProviderConfig {
    let tn = &tree.nodes[node];
    AbsProviderConfig {
        module: tn.path.clone(),
        provider: provider_source_or_default(db, module_index(db, tn.module), local),
        alias,
        key: ferro_addrs::InstanceKey::None,
    }
}

/// Whether the module of `cfg` lists its alias in `configuration_aliases` (a configuration its
/// callers must pass: when none does, the provider checks say so).
pub fn alias_expected(db: &dyn Db, tree: &ModuleTree, cfg: &AbsProviderConfig) -> bool {
    let (Some(node), Some(alias)) = (tree.find(&cfg.module), &cfg.alias) else {
        return false;
    };
    let module = tree.nodes[node].module;
    module_index(db, module)
        .required_providers
        .iter()
        .any(|(local, item)| {
            provider_source(db, module, local).ok().as_ref() == Some(&cfg.provider)
                && item_signature(db, item.file).required_providers[item.index]
                    .aliases
                    .iter()
                    .any(|(_, a)| a == alias)
        })
}
