//! Which provider configuration each resource uses, starting those providers, and collecting the
//! schemas the analysis needs.

use ferro_addrs::{AbsProviderConfig, Provider as ProviderAddr, Resource, ResourceMode};
use ferro_db::{file_hir, module_index, Db, SchemaTable, Workspace};
use ferro_diag::{Diagnostic, Span};
use ferro_provider::{Provider, ProviderSchema, ProviderSource};
use ferro_state::State;
use ferro_value::schema::Schema;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The providers a configuration (and its prior state) needs, started, with their schemas.
#[derive(Default, Clone)]
pub struct Providers {
    pub configs: BTreeMap<AbsProviderConfig, Arc<dyn Provider>>,
    pub schemas: BTreeMap<ProviderAddr, ProviderSchema>,
    /// The provider configuration each configured resource resolves to.
    pub by_resource: BTreeMap<Resource, AbsProviderConfig>,
}

impl Providers {
    pub fn get(&self, cfg: &AbsProviderConfig) -> Option<&Arc<dyn Provider>> {
        self.configs.get(cfg)
    }

    pub fn resource_schema(&self, cfg: &AbsProviderConfig, r: &Resource) -> Option<&Schema> {
        let ps = self.schemas.get(&cfg.provider)?;
        match r.mode {
            ResourceMode::Managed => ps.resources.get(&r.ty),
            ResourceMode::Data => ps.data_sources.get(&r.ty),
        }
    }

    /// The configuration schema of the provider a local provider name (`provider "name"`)
    /// stands for in the root module.
    pub fn config_schema(&self, db: &dyn Db, ws: Workspace, local: &str) -> Option<&Schema> {
        let addr = source_for(db, ws, local).ok()?;
        self.schemas.get(&addr).map(|s| &s.provider)
    }

    /// The table the analysis database validates resource bodies against.
    pub fn schema_table(&self) -> SchemaTable {
        let mut t = SchemaTable::default();
        for (r, cfg) in &self.by_resource {
            if let Some(s) = self.resource_schema(cfg, r) {
                t.resources.insert((r.mode, r.ty.clone()), s.clone());
            }
        }
        t
    }
}

fn source_for(
    db: &dyn Db,
    ws: Workspace,
    local: &str,
) -> Result<ProviderAddr, (String, Option<Span>)> {
    let index = module_index(db, ws);
    match index.required_providers.get(local) {
        Some(item) => {
            let rp = &file_hir(db, item.file).required_providers[item.index];
            match &rp.source {
                Some(src) => ProviderAddr::parse_source(src).map_err(|e| (e, Some(rp.span))),
                None => Ok(ProviderAddr::default_for(local)),
            }
        }
        None => Ok(ProviderAddr::default_for(local)),
    }
}

/// Resolve and start every provider the configuration and state use.
pub fn load_providers(
    db: &dyn Db,
    ws: Workspace,
    source: &dyn ProviderSource,
    state: Option<&State>,
) -> (Providers, Vec<Diagnostic>) {
    let mut out = Providers::default();
    let mut diags = Vec::new();
    let index = module_index(db, ws);
    let mut wanted: BTreeMap<AbsProviderConfig, (Option<Span>, String)> = BTreeMap::new();
    for (res, item) in &index.resources {
        let decl = &file_hir(db, item.file).resources[item.index];
        let (local, alias, span) = match &decl.provider {
            Some((l, a, s)) => (l.clone(), a.clone(), *s),
            None => (res.implied_provider().to_string(), None, decl.span),
        };
        match source_for(db, ws, &local) {
            Ok(addr) => {
                let cfg = AbsProviderConfig {
                    module: Vec::new(),
                    provider: addr,
                    alias,
                };
                out.by_resource.insert(res.clone(), cfg.clone());
                wanted.entry(cfg).or_insert((Some(span), res.to_string()));
            }
            Err((msg, s)) => diags.push(
                Diagnostic::error("invalid-provider-source", "Invalid provider source address")
                    .with_detail(msg)
                    .with_span_opt(s.or(Some(span))),
            ),
        }
    }
    if let Some(st) = state {
        for r in st.resources.values() {
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
    for (res, cfg) in &out.by_resource {
        if out.schemas.contains_key(&cfg.provider) && out.resource_schema(cfg, res).is_none() {
            let item = &index.resources[res];
            let decl = &file_hir(db, item.file).resources[item.index];
            let what = if res.mode == ResourceMode::Managed {
                "resource"
            } else {
                "data source"
            };
            diags.push(
                Diagnostic::error("invalid-resource-type", format!("Invalid {what} type"))
                    .with_detail(format!(
                        "The provider {} does not support {what} type {:?}.",
                        cfg.provider, res.ty
                    ))
                    .with_span(decl.span),
            );
        }
    }
    (out, diags)
}
