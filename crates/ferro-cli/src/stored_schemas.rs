//! The provider schemas a saved plan keeps (`Plan::schemas`): `plan -out` stores, for each
//! provider whose objects the plan holds, its configuration schema and the schemas of the
//! types of those objects; `show PLANFILE` renders with them instead of starting providers,
//! so a plan can be shown where its providers are not installed.

use ferro_addrs::{Provider as ProviderAddr, ResourceMode};
use ferro_plan::{Plan, StoredSchema};
use ferro_planner::Providers;
use ferro_provider::{
    ApplyRequest, ApplyResponse, ImportRequest, ImportResponse, PlanRequest, PlanResponse,
    Provider, ProviderDiagnostic, ProviderSchema, ProviderSource, ReadDataRequest,
    ReadDataResponse, ReadRequest, ReadResponse, UpgradeRequest, UpgradeResponse,
};
use ferro_value::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The schemas to store with `plan`: those of the types of its objects (in its prior state,
/// its changes and the drift it found), by provider.
pub(crate) fn for_plan(plan: &Plan, providers: &Providers) -> Vec<StoredSchema> {
    let mut used: BTreeMap<&ProviderAddr, BTreeSet<(ResourceMode, &str)>> = BTreeMap::new();
    for rs in plan.prior_state.resources.values() {
        let r = &rs.addr.resource;
        used.entry(&rs.provider.provider)
            .or_default()
            .insert((r.mode, &r.ty));
    }
    let changes = plan.changes.iter().chain(plan.forgotten.iter());
    for c in changes {
        let r = &c.addr.resource.resource;
        used.entry(&c.provider.provider)
            .or_default()
            .insert((r.mode, &r.ty));
    }
    for d in &plan.drift {
        let r = &d.addr.resource.resource;
        used.entry(&d.provider.provider)
            .or_default()
            .insert((r.mode, &r.ty));
    }
    used.into_iter()
        .filter_map(|(addr, types)| {
            let ps = providers.schemas.get(addr)?;
            let pick = |mode: ResourceMode, all: &BTreeMap<String, _>| {
                types
                    .iter()
                    .filter(|(m, _)| *m == mode)
                    .filter_map(|(_, t)| all.get(*t).map(|s| (t.to_string(), s)))
                    .map(|(t, s): (String, &ferro_value::schema::Schema)| (t, s.clone()))
                    .collect()
            };
            Some(StoredSchema {
                provider: addr.to_string(),
                config: ps.provider.clone(),
                resources: pick(ResourceMode::Managed, &ps.resources),
                data_sources: pick(ResourceMode::Data, &ps.data_sources),
            })
        })
        .collect()
}

/// Providers for showing a saved plan: the ones it stores answer with their schemas (and
/// nothing else); any other comes from `fallback`.
pub(crate) struct StoredSource<'a> {
    schemas: BTreeMap<ProviderAddr, Arc<dyn Provider>>,
    fallback: &'a dyn ProviderSource,
}

impl<'a> StoredSource<'a> {
    pub(crate) fn new(stored: &[StoredSchema], fallback: &'a dyn ProviderSource) -> Self {
        let schemas = stored
            .iter()
            .filter_map(|s| {
                let addr = ProviderAddr::parse_fqn(&s.provider).ok()?;
                let schema = ProviderSchema {
                    provider: s.config.clone(),
                    resources: s.resources.clone(),
                    data_sources: s.data_sources.clone(),
                    ..ProviderSchema::default()
                };
                Some((addr, Arc::new(SchemaOnly(schema)) as Arc<dyn Provider>))
            })
            .collect();
        StoredSource { schemas, fallback }
    }
}

impl ProviderSource for StoredSource<'_> {
    fn get(&self, addr: &ProviderAddr) -> Result<Arc<dyn Provider>, String> {
        match self.schemas.get(addr) {
            Some(p) => Ok(p.clone()),
            None => self.fallback.get(addr),
        }
    }
}

/// A provider that is only its schema: every call is an error saying so.
struct SchemaOnly(ProviderSchema);

fn schema_only() -> Vec<ProviderDiagnostic> {
    vec![ProviderDiagnostic::error(
        "Provider not started",
        "Only the provider's schema, stored in the saved plan, is available here.",
    )]
}

impl Provider for SchemaOnly {
    fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>> {
        Ok(self.0.clone())
    }
    fn configure(&self, _: &Value) -> Vec<ProviderDiagnostic> {
        schema_only()
    }
    fn validate_resource_config(&self, _: &str, _: &Value) -> Vec<ProviderDiagnostic> {
        schema_only()
    }
    fn upgrade_resource_state(&self, _: UpgradeRequest<'_>) -> UpgradeResponse {
        UpgradeResponse {
            upgraded_state: Value::dynamic_unknown(),
            diagnostics: schema_only(),
        }
    }
    fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse {
        ReadResponse {
            new_state: req.current_state.clone(),
            private: Vec::new(),
            diagnostics: schema_only(),
            deferred: None,
            new_identity: None,
        }
    }
    fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse {
        PlanResponse {
            planned_state: req.prior_state.clone(),
            requires_replace: Vec::new(),
            planned_private: Vec::new(),
            diagnostics: schema_only(),
            legacy_type_system: false,
            deferred: None,
            planned_identity: None,
        }
    }
    fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse {
        ApplyResponse {
            new_state: req.prior_state.clone(),
            private: Vec::new(),
            diagnostics: schema_only(),
            legacy_type_system: false,
            new_identity: None,
        }
    }
    fn read_data_source(&self, req: ReadDataRequest<'_>) -> ReadDataResponse {
        ReadDataResponse {
            state: req.config.clone(),
            diagnostics: schema_only(),
            deferred: None,
        }
    }
    fn import_resource_state(&self, _: ImportRequest<'_>) -> ImportResponse {
        ImportResponse {
            imported: Vec::new(),
            diagnostics: schema_only(),
            deferred: None,
        }
    }
}
