//! Which provider configuration each resource uses, starting those providers, and collecting the
//! schemas the analysis needs.

use ferro_addrs::{
    AbsProviderConfig, ConfigResource, InstanceKey, ModuleInstance, Provider as ProviderAddr,
    Resource, ResourceMode, Target,
};
use ferro_db::{
    file_hir, module_index, module_tree, Db, Module, ModuleTree, SchemaTable, TreeNodeId, Workspace,
};
use ferro_diag::{Diagnostic, Span};
use ferro_provider::{Provider, ProviderSchema, ProviderSource};
use ferro_state::State;
use ferro_value::schema::Schema;
use ferro_value::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The providers a configuration (and its prior state) needs, started, with their schemas.
#[derive(Default, Clone)]
pub struct Providers {
    pub configs: BTreeMap<AbsProviderConfig, Arc<dyn Provider>>,
    pub schemas: BTreeMap<ProviderAddr, ProviderSchema>,
    /// The provider configuration each configured resource resolves to.
    pub by_resource: BTreeMap<ConfigResource, Arc<AbsProviderConfig>>,
    /// The configurations with `for_each` (OpenTofu 1.9), without keys: `each.value` by
    /// instance key, as evaluated before planning. Each instance is in `configs` with its key.
    pub instances: BTreeMap<AbsProviderConfig, BTreeMap<InstanceKey, Value>>,
    /// Providers that answer for single resources or instances in place of their
    /// configuration's (the overrides of `ferro test`): a whole resource, or one instance.
    pub overrides: Vec<(Target, Arc<dyn Provider>)>,
    /// The providers whose functions the modules call (`provider::LOCAL::NAME`).
    pub functions: Arc<crate::provider_functions::FunctionProviders>,
}

impl Providers {
    pub fn get(&self, cfg: &AbsProviderConfig) -> Option<&Arc<dyn Provider>> {
        self.configs.get(cfg)
    }

    /// The provider that answers for one instance of a resource: an override naming the
    /// instance, else one naming the whole resource (as Terraform's test overrides are looked
    /// up), else the instance's configuration's.
    pub fn for_instance(
        &self,
        cfg: &AbsProviderConfig,
        module: &ModuleInstance,
        resource: &Resource,
        key: &InstanceKey,
    ) -> Option<&Arc<dyn Provider>> {
        if !self.overrides.is_empty() {
            let instance = self.overrides.iter().find(|(t, _)| match t {
                Target::Instance(i) => {
                    i.module == *module
                        && i.resource.resource == *resource
                        && i.resource.key == *key
                }
                _ => false,
            });
            let whole = || {
                self.overrides.iter().find(|(t, _)| match t {
                    Target::Resource(r) => r.module == *module && r.resource == *resource,
                    _ => false,
                })
            };
            if let Some((_, p)) = instance.or_else(whole) {
                return Some(p);
            }
        }
        self.configs.get(cfg)
    }

    /// Whether a configuration has `for_each`.
    pub fn has_instances(&self, cfg: &AbsProviderConfig) -> bool {
        self.instances.contains_key(&cfg.config())
    }

    /// Start one provider (a process, for plugins) per instance of each configuration with
    /// `for_each` that the configuration or state uses, in place of the configuration's own.
    /// `keys`: each such configuration (without a key) with `each.value` by key.
    pub fn start_instances(
        &mut self,
        source: &dyn ProviderSource,
        keys: BTreeMap<AbsProviderConfig, BTreeMap<InstanceKey, Value>>,
    ) -> Vec<Diagnostic> {
        let mut diags = Vec::new();
        for (cfg, each) in keys {
            if self.configs.remove(&cfg).is_some() {
                for key in each.keys() {
                    let instance = cfg.with_key(key.clone());
                    match source.get_config(&instance) {
                        Ok(p) => {
                            self.configs.insert(instance, p);
                        }
                        Err(msg) => diags.push(
                            Diagnostic::error("provider-unavailable", "Failed to start provider")
                                .with_detail(format!(
                                    "Could not start provider {} (for {instance}): {msg}.",
                                    cfg.provider
                                )),
                        ),
                    }
                }
            }
            self.instances.insert(cfg, each);
        }
        diags
    }

    pub fn resource_schema(&self, cfg: &AbsProviderConfig, r: &Resource) -> Option<&Schema> {
        let ps = self.schemas.get(&cfg.provider)?;
        match r.mode {
            ResourceMode::Managed => ps.resources.get(&*r.ty),
            ResourceMode::Data => ps.data_sources.get(&*r.ty),
            ResourceMode::Ephemeral => ps.ephemeral_resources.get(&*r.ty),
        }
    }

    /// The configuration schema of the provider a local provider name (`provider "name"`)
    /// stands for in the root module.
    pub fn config_schema(&self, db: &dyn Db, ws: Workspace, local: &str) -> Option<&Schema> {
        let addr = source_for(db, ws.root(db), local).ok()?;
        self.schemas.get(&addr).map(|s| &s.provider)
    }

    /// The table the analysis database validates resource bodies against.
    pub fn schema_table(&self) -> SchemaTable {
        let mut t = SchemaTable::default();
        for (r, cfg) in &self.by_resource {
            if let Some(s) = self.resource_schema(cfg, &r.resource) {
                t.resources
                    .insert((r.resource.mode, r.resource.ty.to_string()), s.clone());
            }
        }
        for (addr, ps) in &self.schemas {
            t.providers.insert(addr.clone(), ps.provider.clone());
        }
        for (r, cfg) in &self.by_resource {
            if r.resource.mode != ResourceMode::Managed {
                continue;
            }
            let Some(ps) = self.schemas.get(&cfg.provider) else {
                continue;
            };
            let ty = &*r.resource.ty;
            match ps.identities.get(ty) {
                Some(s) => {
                    t.identities.insert(ty.to_string(), identity_for_table(s));
                }
                None if ps.resources.contains_key(ty) => {
                    t.no_identity.insert(ty.to_string());
                }
                None => {}
            }
        }
        t.functions = self.functions.declarations();
        t.caller = Some(ferro_db::FunctionCaller(self.functions.clone()));
        t
    }
}

/// An identity schema as the analysis reads it.
pub fn identity_for_table(s: &ferro_provider::IdentitySchema) -> ferro_db::IdentitySchema {
    ferro_db::IdentitySchema {
        attributes: s
            .attributes
            .iter()
            .map(|(k, a)| {
                let attr = ferro_db::IdentityAttribute {
                    ty: a.ty.clone(),
                    required_for_import: a.required_for_import,
                    description: a.description.clone(),
                };
                (k.clone(), attr)
            })
            .collect(),
    }
}

/// The provider source address a local provider name stands for in `module`, its error with
/// its range.
fn source_for(
    db: &dyn Db,
    module: Module,
    local: &str,
) -> Result<ProviderAddr, (String, Option<Span>)> {
    ferro_db::provider_source(db, module, local).map_err(|(m, at)| (m, at.map(|l| l.span(db))))
}

/// Resolve and start every provider the configuration and state use.
pub fn load_providers(
    db: &dyn Db,
    ws: Workspace,
    source: &dyn ProviderSource,
    state: Option<&State>,
) -> (Providers, Vec<Diagnostic>) {
    load_providers_with_root_calls(db, ws, source, state, &[])
}

/// [`load_providers`], with the providers whose functions `root_calls` call (expressions
/// evaluated in the root module's scope from outside the configuration, such as a test
/// file's assertions) among the function providers.
pub fn load_providers_with_root_calls(
    db: &dyn Db,
    ws: Workspace,
    source: &dyn ProviderSource,
    state: Option<&State>,
    root_calls: &[&ferro_hir::FileHir],
) -> (Providers, Vec<Diagnostic>) {
    let mut out = Providers::default();
    let (functions, mut diags) =
        crate::provider_functions::FunctionProviders::load(db, ws, source, root_calls);
    out.functions = Arc::new(functions);
    let tree = module_tree(db, ws);
    let mut wanted: BTreeMap<AbsProviderConfig, (Option<Span>, String)> = BTreeMap::new();
    for (node, tn) in tree.nodes.iter().enumerate() {
        let index = module_index(db, tn.module);
        for (res, item) in &index.resources {
            let hir = file_hir(db, item.file);
            let decl = &hir.resources[item.index];
            let (local, alias) = decl.provider_ref();
            let span = hir.at(decl.provider.as_ref().map_or(decl.span, |p| p.2));
            let cr = ConfigResource {
                module: tn.path.clone(),
                resource: res.clone(),
            };
            match resolve_config(db, tree, node, local, alias.map(str::to_string)) {
                // Terraform's graph names no range here.
                Ok(cfg) if !alias_declared(db, tree, &cfg) => diags.push(
                    Diagnostic::error("provider-config-not-present", "Provider configuration not present")
                        .with_detail(format!("To work with {cr} its original provider configuration at {cfg} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy {cr}, after which you can remove the provider configuration again.")),
                ),
                Ok(cfg) => {
                    out.by_resource.insert(cr.clone(), Arc::new(cfg.clone()));
                    wanted.entry(cfg).or_insert((Some(span), cr.to_string()));
                }
                Err((msg, s)) => diags.push(
                    Diagnostic::error("invalid-provider-source", "Invalid provider source address")
                        .with_detail(msg)
                        .with_span_opt(s.or(Some(span))),
                ),
            }
        }
    }
    // The target of an import block the configuration does not declare (its configuration
    // is generated by `plan -generate-config-out`) is imported with the default
    // configuration of the provider its type implies, in the module it names.
    for tn in &tree.nodes {
        let index = module_index(db, tn.module);
        for item in &index.imports {
            let hir = file_hir(db, item.file);
            let block = &hir.imports[item.index];
            let cr = block.to.config();
            if out.by_resource.contains_key(&cr) {
                continue;
            }
            let Some(target) = tree.nodes.iter().position(|t| t.path == cr.module) else {
                continue;
            };
            if let Ok(cfg) = resolve_config(db, tree, target, cr.resource.implied_provider(), None)
            {
                out.by_resource.insert(cr.clone(), Arc::new(cfg.clone()));
                wanted
                    .entry(cfg)
                    .or_insert((Some(hir.at(block.to_span)), cr.to_string()));
            }
        }
    }
    if let Some(st) = state {
        for r in st.resources.values() {
            // An object whose resource left the configuration can only be destroyed through
            // the provider configuration that made it; an alias no longer declared is an
            // error per instance, named as Terraform names its orphan nodes.
            if !out.by_resource.contains_key(&r.addr.config())
                && !alias_declared(db, tree, &r.provider)
            {
                for key in r.instances.keys() {
                    let orphan = format!("{} (orphan)", r.addr.instance(key.clone()));
                    diags.push(
                        Diagnostic::error("provider-config-not-present", "Provider configuration not present")
                            .with_detail(format!("To work with {orphan} its original provider configuration at {} is required, but it has been removed. This occurs when a provider configuration is removed while objects created by that provider still exist in the state. Re-add the provider configuration to destroy {orphan}, after which you can remove the provider configuration again.", r.provider)),
                    );
                }
                continue;
            }
            wanted
                .entry(r.provider.clone())
                .or_insert((None, r.addr.to_string()));
        }
    }
    for (cfg, (span, user)) in wanted {
        if !out.schemas.contains_key(&cfg.provider) {
            match source.get(&cfg.provider) {
                Ok(p) => match p.schema() {
                    Ok(s) => {
                        out.schemas.insert(cfg.provider.clone(), s);
                    }
                    Err(ds) => {
                        for d in ds {
                            diags.push(
                                Diagnostic::error(
                                    "provider-schema",
                                    "Failed to load provider schema",
                                )
                                .with_detail(format!(
                                    "{}: {} {}",
                                    cfg.provider, d.summary, d.detail
                                ))
                                .with_span_opt(span),
                            );
                        }
                        continue;
                    }
                },
                Err(msg) => {
                    diags.push(
                        Diagnostic::error(
                            "provider-unavailable",
                            "Failed to query available provider packages",
                        )
                        .with_detail(format!(
                            "Could not start provider {} (needed by {user}): {msg}.",
                            cfg.provider
                        ))
                        .with_span_opt(span),
                    );
                    continue;
                }
            }
        }
        // One provider instance (process, for plugins) per provider configuration.
        match source.get_config(&cfg) {
            Ok(p) => {
                out.configs.insert(cfg, p);
            }
            Err(msg) => diags.push(
                Diagnostic::error("provider-unavailable", "Failed to start provider")
                    .with_detail(format!(
                        "Could not start provider {} (needed by {user}): {msg}.",
                        cfg.provider
                    ))
                    .with_span_opt(span),
            ),
        }
    }
    for (cr, cfg) in &out.by_resource {
        let res = &cr.resource;
        if out.schemas.contains_key(&cfg.provider) && out.resource_schema(cfg, res).is_none() {
            let Some(node) = tree.find(&cr.module) else {
                continue;
            };
            let item = &module_index(db, tree.nodes[node].module).resources[res];
            let hir = file_hir(db, item.file);
            let decl = &hir.resources[item.index];
            let (summary, what) = match res.mode {
                ResourceMode::Managed => ("Invalid resource type", "resource type"),
                ResourceMode::Data => ("Invalid data source", "data source"),
                ResourceMode::Ephemeral => ("Invalid ephemeral resource", "ephemeral resource"),
            };
            // Terraform's hint: the other mode, or the closest name of this one.
            let ps = &out.schemas[&cfg.provider];
            let (same, other) = match res.mode {
                ResourceMode::Managed => (&ps.resources, &ps.data_sources),
                ResourceMode::Data => (&ps.data_sources, &ps.resources),
                ResourceMode::Ephemeral => (&ps.ephemeral_resources, &ps.ephemeral_resources),
            };
            let hint = if res.mode != ResourceMode::Ephemeral && other.contains_key(res.ty.as_ref())
            {
                match res.mode {
                    ResourceMode::Managed => format!("\n\nDid you intend to use the data source {:?}? If so, declare this using a \"data\" block instead of a \"resource\" block.", res.ty),
                    _ => format!("\n\nDid you intend to use the managed resource type {:?}? If so, declare this using a \"resource\" block instead of a \"data\" block.", res.ty),
                }
            } else {
                ferro_diag::suggest(&res.ty, same.keys())
                    .map(|s| format!(" Did you mean {s:?}?"))
                    .unwrap_or_default()
            };
            // Terraform points at the type label.
            let header = hir.at(decl.span);
            let span = type_label_span(item.file.text(db), header).unwrap_or(header);
            diags.push(
                Diagnostic::error("invalid-resource-type", summary)
                    .with_detail(format!(
                        "The provider {} does not support {what} {:?}.{hint}",
                        cfg.provider.for_display(),
                        res.ty
                    ))
                    .with_span(span),
            );
        }
    }
    (out, diags)
}

/// The provider configuration that the provider reference `local` (with `alias`) stands for in
/// static module `node`: for a `provider` block of that module, the block itself.
pub fn provider_config(
    db: &dyn Db,
    ws: Workspace,
    node: TreeNodeId,
    local: &str,
    alias: Option<String>,
) -> Result<AbsProviderConfig, String> {
    resolve_config(db, module_tree(db, ws), node, local, alias).map_err(|(msg, _)| msg)
}

/// Whether an aliased configuration is declared by a provider block of its module (a default
/// configuration needs no block).
fn alias_declared(db: &dyn Db, tree: &ModuleTree, cfg: &AbsProviderConfig) -> bool {
    if cfg.alias.is_none() {
        return true;
    }
    tree.find(&cfg.module).is_none()
        || ferro_db::provider_block_of(db, tree, cfg).is_some()
        || ferro_db::alias_expected(db, tree, cfg)
}

/// [`ferro_db::resolve_provider`], its error with its range.
fn resolve_config(
    db: &dyn Db,
    tree: &ModuleTree,
    node: TreeNodeId,
    local: &str,
    alias: Option<String>,
) -> Result<AbsProviderConfig, (String, Option<Span>)> {
    ferro_db::resolve_provider(db, tree, node, local, alias)
        .map_err(|(m, at)| (m, at.map(|l| l.span(db))))
}

/// The first label of a block header (`resource "type" "name"`): quoted with its quotes, or a
/// bare name.
fn type_label_span(text: &str, header: ferro_diag::Span) -> Option<ferro_diag::Span> {
    let h = text.get(header.start as usize..header.end as usize)?;
    let keyword = h.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    let rest = &h[keyword..];
    let at = keyword + (rest.len() - rest.trim_start().len());
    let label = &h[at..];
    let len = match label.strip_prefix('"') {
        Some(q) => q.find('"')? + 2,
        None => label
            .find(|c: char| c.is_whitespace())
            .unwrap_or(label.len()),
    };
    Some(ferro_diag::Span {
        file: header.file,
        start: header.start + at as u32,
        end: header.start + (at + len) as u32,
    })
}
