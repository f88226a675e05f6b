//! Mock providers (`mock_provider` blocks): a provider that answers every call from its
//! schema without touching anything. Computed attributes are unknown in a plan (unless the
//! mock says `override_during = plan`) and at apply take the `defaults` of a `mock_resource` /
//! `mock_data` block or a generated value: strings of 8 random alphanumeric characters, zero,
//! false, empty collections, as Terraform generates them.

use ferro_addrs::{AbsProviderConfig, Provider as ProviderAddr};
use ferro_provider::{
    ApplyRequest, ApplyResponse, ImportRequest, ImportResponse, PlanRequest, PlanResponse,
    Provider, ProviderDiagnostic, ProviderRegistry, ProviderSchema, ProviderSource,
    ReadDataRequest, ReadDataResponse, ReadRequest, ReadResponse, UpgradeRequest, UpgradeResponse,
};
use ferro_value::schema::{Attribute, Block, NestingMode, Schema};
use ferro_value::{Type, Value, ValueKind, ValueMap};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// What a mock answers for one resource or data source type.
#[derive(Clone, Default)]
pub struct TypeMock {
    pub defaults: Option<Value>,
    /// The defaults are known in the plan (`override_during = plan`).
    pub at_plan: bool,
    /// An override: its values replace what an existing object holds too.
    pub force: bool,
}

pub struct MockProvider {
    pub schema: ProviderSchema,
    pub resources: BTreeMap<String, TypeMock>,
    pub data: BTreeMap<String, TypeMock>,
    pub at_plan: bool,
    seed: AtomicU64,
}

impl MockProvider {
    pub fn new(
        schema: ProviderSchema,
        resources: BTreeMap<String, TypeMock>,
        data: BTreeMap<String, TypeMock>,
        at_plan: bool,
    ) -> MockProvider {
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
            | 1;
        MockProvider {
            schema,
            resources,
            data,
            at_plan,
            seed: AtomicU64::new(seed),
        }
    }

    fn random_string(&self) -> String {
        const CHARS: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        let mut x = self
            .seed
            .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed);
        (0..8)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                CHARS[(x % CHARS.len() as u64) as usize] as char
            })
            .collect()
    }

    /// A value of `ty` as a mock makes one up.
    fn generated(&self, ty: &Type) -> Value {
        match ty {
            Type::String | Type::Dynamic => Value::string(self.random_string()),
            Type::Number => Value::int(0),
            Type::Bool => Value::bool(false),
            Type::List(t) => Value::list((**t).clone(), Vec::new()),
            Type::Set(t) => Value::set((**t).clone(), Vec::new()),
            Type::Map(t) => Value::map((**t).clone(), ValueMap::new()),
            Type::Tuple(ts) => Value::tuple(ts.iter().map(|t| self.generated(t)).collect()),
            Type::Object(o) => Value::object(
                o.attrs
                    .iter()
                    .map(|(k, t)| (k.clone(), self.generated(t)))
                    .collect(),
            ),
        }
    }

    /// `value` with every computed attribute that is null (or, `unknown_too`, unknown) filled:
    /// from `defaults` where it names the attribute, else generated.
    fn fill(
        &self,
        block: &Block,
        value: &Value,
        defaults: Option<&Value>,
        unknown_too: bool,
    ) -> Value {
        self.fill_with(block, value, defaults, unknown_too, false)
    }

    /// [`MockProvider::fill`]; with `force`, the attributes `defaults` names take its values
    /// even where the object has some.
    fn fill_with(
        &self,
        block: &Block,
        value: &Value,
        defaults: Option<&Value>,
        unknown_too: bool,
        force: bool,
    ) -> Value {
        let ValueKind::Object(attrs) = &value.kind else {
            return value.clone();
        };
        let mut out = (**attrs).clone();
        for (name, a) in &block.attributes {
            let cur = attrs.get(name.as_str());
            let empty = match cur {
                None => true,
                Some(v) => v.is_null() || (unknown_too && v.is_unknown()),
            };
            let given = defaults.and_then(|d| d.get_attr(name));
            if let Some(g) = given {
                if a.computed && (empty || force) {
                    let v = ferro_value::convert::convert(g, &a.ty).unwrap_or_else(|_| g.clone());
                    out.insert(name.clone(), v);
                }
                continue;
            }
            if a.computed && empty {
                out.insert(name.clone(), self.generated(&a.ty));
            }
        }
        for (name, nb) in &block.block_types {
            let Some(v) = attrs.get(name.as_str()) else {
                continue;
            };
            let d = defaults.and_then(|d| d.get_attr(name));
            let filled = match (&nb.nesting, &v.kind) {
                (NestingMode::Single | NestingMode::Group, ValueKind::Object(_)) => {
                    self.fill_with(&nb.block, v, d, unknown_too, force)
                }
                (NestingMode::List, ValueKind::List(t, es)) => Value::list(
                    t.clone(),
                    es.iter()
                        .map(|e| self.fill(&nb.block, e, d, unknown_too))
                        .collect(),
                ),
                (NestingMode::List, ValueKind::Tuple(es)) => Value::tuple(
                    es.iter()
                        .map(|e| self.fill(&nb.block, e, d, unknown_too))
                        .collect(),
                ),
                (NestingMode::Set, ValueKind::Set(t, es)) => Value::set(
                    t.clone(),
                    es.iter()
                        .map(|e| self.fill(&nb.block, e, d, unknown_too))
                        .collect(),
                ),
                _ => v.clone(),
            };
            out.insert(name.clone(), filled);
        }
        Value::object(out)
    }

    /// `value` with computed attributes that are null made unknown (a plan of a new object).
    fn unknown_computed(block: &Block, value: &Value) -> Value {
        let ValueKind::Object(attrs) = &value.kind else {
            return value.clone();
        };
        let mut out = (**attrs).clone();
        for (name, a) in &block.attributes {
            if a.computed && attrs.get(name.as_str()).is_none_or(Value::is_null) {
                out.insert(name.clone(), Value::unknown(a.ty.clone()));
            }
        }
        Value::object(out)
    }
}

impl Provider for MockProvider {
    fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>> {
        Ok(self.schema.clone())
    }
    fn configure(&self, _config: &Value) -> Vec<ProviderDiagnostic> {
        Vec::new()
    }
    fn validate_resource_config(
        &self,
        _type_name: &str,
        _config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        Vec::new()
    }
    fn upgrade_resource_state(&self, req: UpgradeRequest<'_>) -> UpgradeResponse {
        let ty = self
            .schema
            .resources
            .get(req.type_name)
            .map(Schema::implied_type)
            .unwrap_or(Type::Dynamic);
        let v = ferro_value::json::value_from_json(req.raw_json, &ty)
            .unwrap_or_else(|_| ferro_value::json::value_from_plain_json(req.raw_json));
        UpgradeResponse {
            upgraded_state: v,
            diagnostics: Vec::new(),
        }
    }
    fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse {
        ReadResponse {
            new_state: req.current_state.clone(),
            private: req.private.to_vec(),
            diagnostics: Vec::new(),
            deferred: None,
            new_identity: None,
        }
    }
    fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse {
        let planned = match self.schema.resources.get(req.type_name) {
            Some(s) if !req.proposed_new_state.is_null() => {
                let mock = self.resources.get(req.type_name);
                let defaults = mock.and_then(|m| m.defaults.as_ref());
                if mock.is_some_and(|m| m.force) && !req.prior_state.is_null() {
                    // An overridden object that exists takes the override's values now.
                    self.fill_with(&s.block, req.proposed_new_state, defaults, false, true)
                } else if self.at_plan || mock.is_some_and(|m| m.at_plan) {
                    self.fill(
                        &s.block,
                        req.proposed_new_state,
                        mock.and_then(|m| m.defaults.as_ref()),
                        false,
                    )
                } else if req.prior_state.is_null() {
                    Self::unknown_computed(&s.block, req.proposed_new_state)
                } else {
                    req.proposed_new_state.clone()
                }
            }
            _ => req.proposed_new_state.clone(),
        };
        PlanResponse {
            planned_state: planned,
            requires_replace: Vec::new(),
            planned_private: Vec::new(),
            diagnostics: Vec::new(),
            legacy_type_system: false,
            deferred: None,
            planned_identity: None,
        }
    }
    fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse {
        let new_state = match self.schema.resources.get(req.type_name) {
            Some(s) if !req.planned_state.is_null() => {
                let defaults = self
                    .resources
                    .get(req.type_name)
                    .and_then(|m| m.defaults.as_ref());
                self.fill(&s.block, req.planned_state, defaults, true)
            }
            _ => req.planned_state.clone(),
        };
        ApplyResponse {
            new_state,
            private: Vec::new(),
            diagnostics: Vec::new(),
            legacy_type_system: false,
            new_identity: None,
        }
    }
    fn read_data_source(&self, req: ReadDataRequest<'_>) -> ReadDataResponse {
        let state = match self.schema.data_sources.get(req.type_name) {
            Some(s) => {
                let defaults = self
                    .data
                    .get(req.type_name)
                    .and_then(|m| m.defaults.as_ref());
                self.fill(&s.block, req.config, defaults, true)
            }
            None => req.config.clone(),
        };
        ReadDataResponse {
            state,
            diagnostics: Vec::new(),
            deferred: None,
        }
    }
    fn import_resource_state(&self, _req: ImportRequest<'_>) -> ImportResponse {
        ImportResponse {
            imported: Vec::new(),
            diagnostics: vec![ProviderDiagnostic::error(
                "Import not supported by mock providers",
                "A mock provider cannot import existing objects.",
            )],
            deferred: None,
        }
    }
}

/// A schema for a mocked provider that is not installed, made from what the configuration
/// and the test file use of it: every argument a resource sets is an optional attribute of
/// any type, every attribute an expression reads or a mock's defaults name is computed, and
/// `id` is a computed string.
pub fn synthesized_schema(
    resources: &BTreeMap<String, BTreeSet<String>>,
    data: &BTreeMap<String, BTreeSet<String>>,
    read: &BTreeMap<String, BTreeSet<String>>,
) -> ProviderSchema {
    let block_for = |key: &str, set: &BTreeSet<String>| {
        let mut b = Block::default();
        b.attributes.insert(
            "id".to_string(),
            Attribute::new(Type::String).optional().computed(),
        );
        for a in set {
            b.attributes
                .entry(a.clone())
                .or_insert_with(|| Attribute::new(Type::Dynamic).optional());
        }
        for a in read.get(key).into_iter().flatten() {
            b.attributes
                .entry(a.clone())
                .or_insert_with(|| Attribute::new(Type::Dynamic).optional().computed());
        }
        Schema::new(0, b)
    };
    ProviderSchema {
        provider: Schema::new(0, Block::default()),
        resources: resources
            .iter()
            .map(|(t, s)| (t.clone(), block_for(t, s)))
            .collect(),
        data_sources: data
            .iter()
            .map(|(t, s)| (t.clone(), block_for(&format!("data.{t}"), s)))
            .collect(),
        move_resource_state: false,
        functions: Default::default(),
        ephemeral_resources: Default::default(),
        identities: Default::default(),
    }
}

/// The providers of a run: the working directory's, with mocked configurations answered by
/// their mocks.
pub struct TestProviders<'a> {
    pub registry: &'a ProviderRegistry,
    /// (provider type, alias) → mock.
    pub mocks: BTreeMap<(String, Option<String>), Arc<MockProvider>>,
}

impl ProviderSource for TestProviders<'_> {
    fn get(&self, addr: &ProviderAddr) -> Result<Arc<dyn Provider>, String> {
        self.get_config(&AbsProviderConfig::root(addr.clone()))
    }
    fn get_config(&self, cfg: &AbsProviderConfig) -> Result<Arc<dyn Provider>, String> {
        if let Some(m) = self
            .mocks
            .get(&(cfg.provider.ty.clone(), cfg.alias.clone()))
        {
            return Ok(m.clone());
        }
        self.registry.get_config(cfg)
    }
}
