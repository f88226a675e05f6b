//! Terraform's static checks of provider configurations across the module tree, made when the
//! configuration is loaded (so `init` reports them too): what module calls pass in
//! `providers = {…}` against what the called modules declare, configuration aliases a module
//! expects and nobody passes, configurations inside modules called with `count`, `for_each` or
//! `depends_on`, and empty `provider` blocks that modules no longer need.

use crate::pending::{Loc, Pending};
use crate::provider_resolve::provider_source;
use crate::{item_signature, module_index, module_tree, Db, TreeNodeId, Workspace};
use ferro_addrs::{AbsProviderConfig, Provider as ProviderAddr};
use ferro_diag::Diagnostic;
use ferro_hir::ProviderPassing;
use std::collections::BTreeMap;

/// `name` or `name.alias`, as Terraform names a provider configuration inside its module.
fn config_name(name: &str, alias: Option<&str>) -> String {
    match alias {
        Some(a) => format!("{name}.{a}"),
        None => name.to_string(),
    }
}

/// `module.a.module.b`.
fn path_text(path: &[String]) -> String {
    path.iter()
        .map(|m| format!("module.{m}"))
        .collect::<Vec<_>>()
        .join(".")
}

/// How a module names a module path in these messages: "the root module" for the root.
fn module_text(path: &[String]) -> String {
    if path.is_empty() {
        "the root module".to_string()
    } else {
        path_text(path)
    }
}

/// What one static module declares about provider configurations.
struct Declared {
    /// `provider` blocks with arguments (or a `version`), by configuration name.
    configured: BTreeMap<String, Loc>,
    /// Empty `provider` blocks, by configuration name.
    empty: BTreeMap<String, Loc>,
    /// `required_providers` local names, with their provider addresses.
    local_names: BTreeMap<String, ProviderAddr>,
    /// `configuration_aliases`, by configuration name (`name.alias`).
    aliases: BTreeMap<String, AbsProviderConfig>,
    /// The registry a source without a hostname names.
    host: String,
    /// Configurations with `for_each` (OpenTofu 1.9), by configuration name.
    for_each: std::collections::BTreeSet<String>,
}

fn declared(db: &dyn Db, ws: Workspace, node: TreeNodeId) -> Declared {
    let tree = module_tree(db, ws);
    let tn = &tree.nodes[node];
    let index = module_index(db, tn.module);
    let mut d = Declared {
        configured: BTreeMap::new(),
        empty: BTreeMap::new(),
        local_names: BTreeMap::new(),
        aliases: BTreeMap::new(),
        host: crate::default_registry(db).to_string(),
        for_each: Default::default(),
    };
    for ((name, alias), item) in &index.providers {
        let pb = &item_signature(db, item.file).providers[item.index];
        let loc = Loc::new(item.file, pb.span);
        let key = config_name(name, alias.as_deref());
        if pb.for_each.is_some() {
            d.for_each.insert(key.clone());
        }
        if pb.version
            || pb.for_each.is_some()
            || !pb.body.attrs.is_empty()
            || !pb.body.blocks.is_empty()
        {
            d.configured.insert(key, loc);
        } else {
            d.empty.insert(key, loc);
        }
    }
    for (local, item) in &index.required_providers {
        let Ok(ty) = provider_source(db, tn.module, local) else {
            continue;
        };
        let rp = &item_signature(db, item.file).required_providers[item.index];
        for (name, alias) in &rp.aliases {
            d.aliases.insert(
                config_name(name, Some(alias)),
                AbsProviderConfig {
                    module: tn.path.clone(),
                    provider: ty.clone(),
                    alias: Some(alias.clone()),
                    key: ferro_addrs::InstanceKey::None,
                },
            );
        }
        d.local_names.insert(local.clone(), ty);
    }
    d
}

/// The provider type a local name stands for in a module (its `required_providers` entry,
/// else the default `hashicorp/NAME`).
/// OpenTofu's check of a reference to an aliased configuration `name` of this module by a
/// `kind` block (`resource`, `data`, `module`), with or without an instance key: a key needs a
/// configuration with for_each, and such a configuration needs a key. (An alias the module
/// does not declare is another check's.)
fn instance_problem(
    d: &Declared,
    kind: &str,
    (name, alias): (&str, &str),
    keyed: bool,
) -> Option<Diagnostic> {
    let config = config_name(name, Some(alias));
    let declared = d.configured.contains_key(&config) || d.empty.contains_key(&config);
    let instanced = d.for_each.contains(&config);
    let detail = match (keyed, instanced) {
        (true, false) if !declared && d.aliases.contains_key(&config) => format!("This module doesn't declare a provider {name:?} block with alias = {alias:?}, which is required for use with for_each."),
        (true, false) if !declared => return None,
        (true, false) => {
            "An instance key can be specified only for a provider configuration that uses for_each.".to_string()
        }
        (false, true) => "A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.".to_string(),
        _ => return None,
    };
    Some(
        Diagnostic::error(
            "provider-instance-key",
            format!("Invalid {kind} provider configuration"),
        )
        .with_detail(detail),
    )
}

fn type_of(d: &Declared, local: &str) -> ProviderAddr {
    d.local_names
        .get(local)
        .cloned()
        .unwrap_or_else(|| ProviderAddr::default_in(local, &d.host))
}

/// Whether a provider address is in the default registry's `hashicorp` namespace.
fn is_default(d: &Declared, p: &ProviderAddr) -> bool {
    *p == ProviderAddr::default_in(&p.ty, &d.host)
}

/// The checks, module by module, as position-free diagnostics.
#[salsa::tracked(returns(ref))]
pub fn provider_config_problems(db: &dyn Db, ws: Workspace) -> Vec<Pending> {
    let tree = module_tree(db, ws);
    let decls: Vec<Declared> = (0..tree.nodes.len()).map(|n| declared(db, ws, n)).collect();
    let mut out = Vec::new();
    // A module's findings after its children's (every node comes after its parent), in the
    // order Terraform reports them.
    for (node, tn) in tree.nodes.iter().enumerate().rev() {
        let d = &decls[node];
        // What this module's own call passes into it.
        let call = tn
            .call
            .map(|c| (c, &item_signature(db, c.file).module_calls[c.index]));
        let passed_in: BTreeMap<String, &ProviderPassing> = call
            .iter()
            .flat_map(|(_, mc)| &mc.providers)
            .map(|p| (config_name(&p.child.0, p.child.1.as_deref()), p))
            .collect();
        // The default configurations this module passes on to its own calls must be named
        // here, and (in a child) have a configuration.
        let index = module_index(db, tn.module);
        // An instance key only with a configuration that has for_each, and always with one
        // (OpenTofu 1.9), in resources and in what calls pass.
        for item in index.resources.values() {
            let r = &item_signature(db, item.file).resources[item.index];
            if let Some((name, Some(alias), span)) = r.provider() {
                let kind = match r.addr.mode {
                    ferro_addrs::ResourceMode::Managed => "resource",
                    ferro_addrs::ResourceMode::Data => "data",
                    ferro_addrs::ResourceMode::Ephemeral => "ephemeral",
                };
                let name = (name.as_str(), alias.as_str());
                if let Some(p) = instance_problem(d, kind, name, r.provider_key) {
                    out.push(Pending::new(p, Loc::new(item.file, *span)));
                }
            }
        }
        for item in index.module_calls.values() {
            let mc = &item_signature(db, item.file).module_calls[item.index];
            for p in &mc.providers {
                if let (name, Some(alias)) = &p.parent {
                    let name = (name.as_str(), alias.as_str());
                    if let Some(problem) =
                        instance_problem(d, "module", name, p.parent_key.is_some())
                    {
                        out.push(Pending::new(problem, Loc::new(item.file, p.span)));
                    }
                }
                if p.parent.1.is_some() {
                    continue;
                }
                let name = &p.parent.0;
                let at = Loc::new(item.file, p.span);
                let conf = d.configured.contains_key(name);
                if !(conf || d.local_names.contains_key(name)) {
                    out.push(Pending::new(
                        Diagnostic::warning("provider-undefined", format!("Provider {name} is undefined"))
                            .with_detail(format!("No provider named {name} has been declared in {}.\nIf you wish to refer to the {name} provider within the module, add a provider configuration, or an entry in the required_providers block.", module_text(&tn.path))),
                        at,
                    ));
                    continue;
                }
                if !(tn.path.is_empty() || conf || passed_in.contains_key(name)) {
                    let parent = tn
                        .parent
                        .map(|p| tree.nodes[p].path.as_slice())
                        .unwrap_or(&[]);
                    out.push(Pending::new(
                        Diagnostic::warning("provider-not-passed", format!("No configuration passed in for provider {name} in {}", path_text(&tn.path)))
                            .with_detail(format!("Provider {name} is referenced within {}, but no configuration has been supplied.\nAdd a provider named {name} to the providers map for {} in {}.", module_text(&tn.path), path_text(&tn.path), module_text(parent))),
                        at,
                    ));
                }
            }
        }
        let (Some(parent), Some((call_item, mc))) = (tn.parent, call) else {
            continue;
        };
        let path = path_text(&tn.path);
        let parent_text = module_text(&tree.nodes[parent].path);
        // Configurations are not allowed below a call with count, for_each or depends_on.
        let mut nope = false;
        let mut cur = Some(node);
        while let Some(n) = cur {
            if let Some(c) = tree.nodes[n].call {
                let mc = &item_signature(db, c.file).module_calls[c.index];
                nope |= mc.count.is_some()
                    || mc.for_each.is_some()
                    || mc.enabled.is_some()
                    || !mc.depends_on.is_empty();
            }
            cur = tree.nodes[n].parent;
        }
        if nope && !d.configured.is_empty() {
            out.push(Pending::at(
                Diagnostic::error(
                    "provider-in-expanded-module",
                    format!("Module {path} contains provider configuration"),
                )
                .with_detail(
                    "Providers cannot be configured within modules using count, for_each or depends_on.",
                ),
                None,
            ));
        }
        for (name, passed) in &passed_in {
            if d.configured.contains_key(name) {
                out.push(Pending::new(
                    Diagnostic::error("provider-override", "Cannot override provider configuration")
                        .with_detail(format!("Provider {name} is configured within the module {path} and cannot be overridden.")),
                    Loc::new(call_item.file, passed.span),
                ));
            }
        }
        for (name, addr) in &d.aliases {
            if d.configured.contains_key(name) || passed_in.contains_key(name) {
                continue;
            }
            out.push(Pending::new(
                Diagnostic::error("provider-alias-not-passed", format!("No configuration for provider {name}"))
                    .with_detail(format!("Configuration required for {addr}.\nAdd a provider named {name} to the providers map for {path} in {parent_text}.")),
                Loc::new(call_item.file, mc.span),
            ));
        }
        let parent_decl = &decls[parent];
        for (name, passed) in &passed_in {
            let at = Loc::new(call_item.file, passed.span);
            let alias = passed.child.1.clone();
            let child_addr = match (d.local_names.get(name), d.aliases.get(name)) {
                (_, Some(a)) => a.clone(),
                (Some(ty), None) => AbsProviderConfig {
                    module: tn.path.clone(),
                    provider: ty.clone(),
                    alias: None,
                    key: ferro_addrs::InstanceKey::None,
                },
                (None, None) => AbsProviderConfig {
                    module: tn.path.clone(),
                    provider: type_of(d, &passed.child.0),
                    alias,
                    key: ferro_addrs::InstanceKey::None,
                },
            };
            let named = d.local_names.contains_key(name)
                || d.aliases.contains_key(name)
                || d.empty.contains_key(name);
            if !named {
                let summary = format!("Provider {name} is undefined");
                let diag = if is_default(d, &child_addr.provider) {
                    Diagnostic::warning("provider-undefined", summary)
                } else {
                    Diagnostic::error("provider-undefined", summary)
                };
                out.push(Pending::new(
                    diag.with_detail(format!("Module {path} does not declare a provider named {name}.\nIf you wish to specify a provider configuration for the module, add an entry for {name} in the required_providers block within the module.")),
                    at,
                ));
            }
            // The configuration passed must be of the same provider type (Terraform reads the
            // parent's requirement under the child's name when the parent has one).
            let parent_type = parent_decl
                .local_names
                .get(name)
                .cloned()
                .unwrap_or_else(|| type_of(parent_decl, &passed.parent.0));
            if parent_type != child_addr.provider {
                let parent_addr = AbsProviderConfig {
                    module: tree.nodes[parent].path.clone(),
                    provider: parent_type,
                    alias: passed.parent.1.clone(),
                    key: ferro_addrs::InstanceKey::None,
                };
                out.push(Pending::new(
                    Diagnostic::error("provider-type-mismatch", format!("Invalid type for provider {child_addr}"))
                        .with_detail(format!("Cannot use configuration from {parent_addr} for {child_addr}. The given provider configuration is for a different provider type.")),
                    at,
                ));
            }
        }
        for (name, loc) in &d.empty {
            let is_alias = name.contains('.');
            let mut detail = format!("Remove the {name} provider block from {path}.");
            if is_alias && !d.aliases.contains_key(name) {
                let local = name.split('.').next().unwrap_or(name);
                detail = format!("Remove the {name} provider block from {path}. Add {name} to the list of configuration_aliases for {local} in required_providers to define the provider configuration name.");
            }
            if !is_alias && !d.local_names.contains_key(name) {
                detail.push_str(&format!("\nTo ensure the correct provider configuration is used, add {name} to the required_providers configuration"));
            }
            out.push(Pending::new(
                Diagnostic::warning(
                    "empty-provider-block",
                    "Empty provider configuration blocks are not required",
                )
                .with_detail(detail),
                *loc,
            ));
        }
    }
    out
}
