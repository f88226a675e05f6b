//! [`SdkProvider`]: a provider assembled from [`Resource`]s and [`DataSource`]s. It implements
//! ferro's [`Provider`] trait directly — ferro links it in process with no gRPC — and
//! [`crate::serve`] puts the same object behind the plugin protocol.

use crate::plan::{check, plan};
use crate::schema::ResourceSchema;
use crate::Diags;
use ferro_provider::{
    ApplyRequest, ApplyResponse, DeferralReason, FunctionError, IdentitySchema, ImportRequest,
    ImportResponse, ImportedResource, MoveRequest, MoveResponse, OpenEphemeralResponse,
    PlanRequest, PlanResponse, Provider, ProviderDiagnostic, ProviderSchema, ReadDataRequest,
    ReadDataResponse, ReadRequest, ReadResponse, RenewEphemeralResponse, UpgradeIdentityRequest,
    UpgradeIdentityResponse, UpgradeRequest, UpgradeResponse,
};
use ferro_value::schema::FunctionDecl;
use ferro_value::{Type, Value};
use std::collections::BTreeMap;
use std::sync::{Arc, RwLock};

/// What [`Resource::modify_plan`] receives.
pub struct ModifyPlanRequest<'a> {
    pub config: &'a Value,
    /// Prior state (null on create).
    pub state: &'a Value,
    /// Null: the provider has no provider_meta schema.
    pub provider_meta: &'a Value,
}

/// What [`Resource::modify_plan`] may change.
pub struct ModifyPlanResponse {
    /// The framework's plan; may be modified within core's rules.
    pub plan: Value,
    /// Attribute names whose change forces replacement (added to the attribute modifiers').
    pub requires_replace: Vec<String>,
    pub diagnostics: Diags,
    /// Set to answer that the change cannot be planned yet (`deferred`, with its reason): the
    /// client plans it again in a later round. Only a client that allows deferral
    /// (`terraform plan -allow-deferral`, `ferro plan -allow-deferral`) is given it; any other
    /// gets an error diagnostic instead, as terraform-plugin-framework answers.
    pub deferred: Option<DeferralReason>,
}

/// A resource type whose objects a resource takes over when a `moved` block moves them to it
/// (`MoveResourceState`, protocol 5.5/6.5 and Terraform 1.8): the source provider, matched on
/// its address without the hostname unless one is given (a mirror serves the same provider),
/// and the source type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveSource {
    provider: Option<String>,
    type_name: String,
}

impl MoveSource {
    /// Objects of `type_name` from the provider `provider` (`NAMESPACE/TYPE`, or with its
    /// hostname `HOST/NAMESPACE/TYPE`).
    pub fn new(provider: &str, type_name: &str) -> MoveSource {
        MoveSource {
            provider: Some(provider.trim_matches('/').to_string()),
            type_name: type_name.to_string(),
        }
    }

    /// Objects of `type_name` from any provider.
    pub fn any_provider(type_name: &str) -> MoveSource {
        MoveSource {
            provider: None,
            type_name: type_name.to_string(),
        }
    }

    /// Whether an object of `type_name` from the provider at `address` is of this source.
    pub fn matches(&self, address: &str, type_name: &str) -> bool {
        if self.type_name != type_name {
            return false;
        }
        match &self.provider {
            None => true,
            Some(p) => {
                address == p
                    || address
                        .strip_suffix(p.as_str())
                        .is_some_and(|host| host.ends_with('/'))
            }
        }
    }
}

/// What [`Resource::move_state`] receives: the source object as the source provider's state
/// holds it.
#[derive(Debug, Clone, Copy)]
pub struct MoveStateRequest<'a> {
    /// The source provider's address (`registry.terraform.io/hashicorp/null`).
    pub source_provider_address: &'a str,
    pub source_type_name: &'a str,
    pub source_schema_version: u64,
    /// The source object's attributes exactly as state stored them (decode them with the
    /// source's type through [`crate::values::from_json`] to work on typed values).
    pub source_state: &'a serde_json::Value,
    pub source_private: &'a [u8],
    /// The source object's resource identity (Terraform 1.12) exactly as state stored it, of
    /// the source type's identity schema (decode it with that schema's type through
    /// [`crate::values::from_json`]); None when the object has none. The target's identity is
    /// what [`Resource::identity`] answers for the moved object.
    pub source_identity: Option<&'a serde_json::Value>,
    /// The identity schema version the source identity was stored under.
    pub source_identity_schema_version: u64,
}

/// What [`Resource::move_state`] yields: the object as this resource type holds it (of the
/// schema's type, wholly known), and its private data.
#[derive(Debug, Clone)]
pub struct MovedState {
    pub state: Value,
    pub private: Vec<u8>,
}

/// A managed resource type.
pub trait Resource: Send + Sync {
    fn schema(&self) -> ResourceSchema;
    /// Resource-level validation (attribute validators run before this).
    fn validate(&self, _config: &Value, _diags: &mut Diags) {}
    /// Hook into PlanResourceChange after the framework's own planning.
    fn modify_plan(&self, _req: &ModifyPlanRequest<'_>, _resp: &mut ModifyPlanResponse) {}
    /// Create the object; `planned` may hold unknowns the result must resolve.
    fn create(&self, planned: &Value, config: &Value) -> Result<Value, Diags>;
    /// Whether the refresh of `state` must wait (`deferred` in ReadResource, with its
    /// reason): then [`Resource::read`] is not called and the object is answered as it was.
    /// Only a client that allows deferral is given it (see [`ModifyPlanResponse::deferred`]).
    fn defer_read(&self, _state: &Value) -> Option<DeferralReason> {
        None
    }
    /// Refresh: `None` when the remote object no longer exists.
    fn read(&self, state: &Value) -> Result<Option<Value>, Diags> {
        Ok(Some(state.clone()))
    }
    /// Update in place (only reached when no attribute forced replacement).
    fn update(&self, _prior: &Value, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(planned.clone())
    }
    fn delete(&self, _prior: &Value) -> Result<(), Diags> {
        Ok(())
    }
    /// Upgrade a state object stored under an older schema version (`version` is less than
    /// `schema().version`): `old` is the object's attributes exactly as state stored them, and
    /// the result is the same object as JSON of the current schema (decode `old` with a prior
    /// schema's implied type through [`crate::values::from_json`] to work on typed values). The
    /// default refuses: a resource that raises its version supplies the upgrade.
    fn upgrade_state(
        &self,
        version: u64,
        _old: &serde_json::Value,
    ) -> Result<serde_json::Value, Diags> {
        Err(vec![ProviderDiagnostic::error(
            "Unable to Upgrade Resource State",
            format!(
                "This resource was implemented without an upgrade for its state from schema version {version}. This is always a problem with the provider and should be reported to the provider developer."
            ),
        )])
    }
    /// Whether the import of `id` must wait (`deferred` in ImportResourceState): then
    /// [`Resource::import`] is not called and nothing is imported. Only a client that allows
    /// deferral is given it (see [`ModifyPlanResponse::deferred`]).
    fn defer_import(&self, _id: &str) -> Option<DeferralReason> {
        None
    }
    /// Import by ID: the state object to read afterwards.
    fn import(&self, _id: &str) -> Result<Value, Diags> {
        Err(vec![ProviderDiagnostic::error(
            "Resource Import Not Implemented",
            "This resource does not support import.",
        )])
    }
    /// The resource identity of this type (Terraform 1.12; protocol 5.9/6.9): served by
    /// GetResourceIdentitySchemas. None: objects of this type have no identity.
    fn identity_schema(&self) -> Option<IdentitySchema> {
        None
    }
    /// The identity of an object (a state, or a planned object whose identity attributes may
    /// still be unknown), of [`Resource::identity_schema`]'s type. The SDK answers it with
    /// every read, plan, apply and import, and refuses an identity that changes while the
    /// object is updated or read. Only called when the type has an identity schema. A null
    /// value (the default) answers no identity: a type may declare an identity schema and
    /// answer none, as Terraform's built-in `terraform_data` does.
    fn identity(&self, _state: &Value) -> Value {
        Value::null(Type::Dynamic)
    }
    /// Import by identity (an `import` block's `identity`, of the identity schema's type with
    /// the attributes not required for import possibly null): the state object to read
    /// afterwards.
    fn import_by_identity(&self, _identity: &Value) -> Result<Value, Diags> {
        Err(vec![ProviderDiagnostic::error(
            "Resource Import By Identity Not Implemented",
            "This resource does not support import by identity.",
        )])
    }
    /// Upgrade an identity stored under an older identity schema version: `old` is the
    /// identity exactly as state stored it; the result is the identity as JSON of the current
    /// identity schema. The default refuses.
    fn upgrade_identity(
        &self,
        version: u64,
        _old: &serde_json::Value,
    ) -> Result<serde_json::Value, Diags> {
        Err(vec![ProviderDiagnostic::error(
            "Unable to Upgrade Resource Identity",
            format!(
                "This resource was implemented without an upgrade for its identity from identity schema version {version}. This is always a problem with the provider and should be reported to the provider developer."
            ),
        )])
    }
    /// The resource types whose objects this one takes over (`moved { from = OTHER.x  to =
    /// THIS.x }`). A provider with any resource that declares some offers the server capability
    /// `move_resource_state`; [`Resource::move_state`] is called only for a declared source.
    fn move_sources(&self) -> Vec<MoveSource> {
        Vec::new()
    }
    /// Convert an object of one of [`Resource::move_sources`] into an object of this type.
    fn move_state(&self, req: &MoveStateRequest<'_>) -> Result<MovedState, Diags> {
        Err(vec![ProviderDiagnostic::error(
            "Unable to Move Resource State",
            format!(
                "The resource declares {:?} as a source of moves but does not convert its objects. This is a bug in the provider.",
                req.source_type_name
            ),
        )])
    }
}

/// The facts of a move request, as the lines of a message end with them.
fn move_facts(req: &MoveRequest<'_>) -> String {
    format!(
        "Source Provider Address: {}\nSource Resource Type: {}\nSource Resource Schema Version: {}\nTarget Resource Type: {}",
        req.source_provider_address,
        req.source_type_name,
        req.source_schema_version,
        req.target_type_name
    )
}

/// A data source type.
pub trait DataSource: Send + Sync {
    fn schema(&self) -> ResourceSchema;
    fn validate(&self, _config: &Value, _diags: &mut Diags) {}
    /// Whether the read with `config` must wait (`deferred` in ReadDataSource): then
    /// [`DataSource::read`] is not called. Only a client that allows deferral is given it
    /// (see [`ModifyPlanResponse::deferred`]).
    fn defer_read(&self, _config: &Value) -> Option<DeferralReason> {
        None
    }
    /// Read: the result must be wholly known.
    fn read(&self, config: &Value) -> Result<Value, Diags>;
    /// Read the instance at `address` (empty when the caller does not say, as over the plugin
    /// protocol): [`DataSource::read`] unless the data source cares where it is read.
    fn read_at(&self, config: &Value, _address: &str) -> Result<Value, Diags> {
        self.read(config)
    }
}

/// What [`EphemeralResource::open`] yields: the result object (wholly known), private data the
/// provider gets back when renewing and closing, and when to renew (None: never).
#[derive(Debug, Clone)]
pub struct Opened {
    pub result: Value,
    pub private: Vec<u8>,
    pub renew_at: Option<std::time::SystemTime>,
}

/// What [`EphemeralResource::renew`] yields: new private data (None: keep it) and the next
/// renewal time (None: no more).
#[derive(Debug, Clone, Default)]
pub struct Renewed {
    pub private: Option<Vec<u8>>,
    pub renew_at: Option<std::time::SystemTime>,
}

/// An ephemeral resource type (`ephemeral "TYPE" "NAME"`, protocol 5.7/6.7): opened each
/// time core needs its result, never stored, renewed while in use when it asks to be, and
/// closed when core is done with it.
pub trait EphemeralResource: Send + Sync {
    fn schema(&self) -> ResourceSchema;
    fn validate(&self, _config: &Value, _diags: &mut Diags) {}
    fn open(&self, config: &Value) -> Result<Opened, Diags>;
    fn renew(&self, _private: &[u8]) -> Result<Renewed, Diags> {
        Ok(Renewed::default())
    }
    fn close(&self, _private: &[u8]) -> Result<(), Diags> {
        Ok(())
    }
}

/// A provider built with ferro-sdk.
pub struct SdkProvider {
    name: String,
    config_schema: ResourceSchema,
    resources: BTreeMap<String, Arc<dyn Resource>>,
    data_sources: BTreeMap<String, Arc<dyn DataSource>>,
    ephemeral_resources: BTreeMap<String, Arc<dyn EphemeralResource>>,
    functions: BTreeMap<String, (FunctionDecl, Arc<dyn Function>)>,
    config: RwLock<Option<Value>>,
    /// Whether the client allows deferral ([`Provider::allow_deferral`]; over gRPC, the
    /// service decides per call from the client's capabilities).
    deferral_allowed: std::sync::atomic::AtomicBool,
}

/// A provider-defined function's logic (`provider::NAME::FN(...)` in configuration). Its
/// arguments arrive converted to the declared parameter types (a variadic parameter's
/// arguments last); nulls and unknowns only where the declaration allows them. A closure
/// `Fn(&[Value]) -> Result<Value, FunctionError>` is a function.
pub trait Function: Send + Sync {
    fn call(&self, args: &[Value]) -> Result<Value, FunctionError>;
}

impl<F> Function for F
where
    F: Fn(&[Value]) -> Result<Value, FunctionError> + Send + Sync,
{
    fn call(&self, args: &[Value]) -> Result<Value, FunctionError> {
        self(args)
    }
}

impl SdkProvider {
    /// A provider whose resource types are named `NAME_*`.
    pub fn new(name: &str) -> SdkProvider {
        SdkProvider {
            name: name.to_string(),
            config_schema: ResourceSchema::new(),
            resources: BTreeMap::new(),
            data_sources: BTreeMap::new(),
            ephemeral_resources: BTreeMap::new(),
            functions: BTreeMap::new(),
            config: RwLock::new(None),
            deferral_allowed: Default::default(),
        }
    }
    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn config_schema(mut self, s: ResourceSchema) -> SdkProvider {
        self.config_schema = s;
        self
    }
    pub fn resource(mut self, type_name: &str, r: impl Resource + 'static) -> SdkProvider {
        self.resources.insert(type_name.to_string(), Arc::new(r));
        self
    }
    pub fn data_source(mut self, type_name: &str, d: impl DataSource + 'static) -> SdkProvider {
        self.data_sources.insert(type_name.to_string(), Arc::new(d));
        self
    }
    /// Offer an ephemeral resource type (served in the schema and the ephemeral resource
    /// RPCs; protocol 5.7/6.7).
    pub fn ephemeral_resource(
        mut self,
        type_name: &str,
        e: impl EphemeralResource + 'static,
    ) -> SdkProvider {
        self.ephemeral_resources
            .insert(type_name.to_string(), Arc::new(e));
        self
    }
    /// Offer a function, called in configuration as `provider::LOCAL::NAME(...)` (served
    /// in the schema, GetFunctions and CallFunction; protocol 5.5/6.5).
    pub fn function(
        mut self,
        name: &str,
        decl: FunctionDecl,
        f: impl Function + 'static,
    ) -> SdkProvider {
        self.functions.insert(name.to_string(), (decl, Arc::new(f)));
        self
    }
    /// The configuration given to `configure` (null before).
    pub fn provider_config(&self) -> Value {
        self.config
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
            .unwrap_or_else(|| Value::null(self.config_schema.implied_type()))
    }

    fn no_ephemeral(&self, type_name: &str) -> ProviderDiagnostic {
        ProviderDiagnostic::error(
            "Invalid ephemeral resource",
            format!(
                "The provider {} does not support ephemeral resource {type_name:?}.",
                self.name
            ),
        )
    }

    fn res(&self, type_name: &str) -> Result<&Arc<dyn Resource>, Diags> {
        self.resources.get(type_name).ok_or_else(|| {
            vec![ProviderDiagnostic::error(
                "Invalid resource type",
                format!(
                    "The provider {} does not support resource type {type_name:?}.",
                    self.name
                ),
            )]
        })
    }
}

/// The error for an identity asked of a resource type without an identity schema.
fn no_identity(type_name: &str) -> ProviderDiagnostic {
    ProviderDiagnostic::error(
        "Resource Identity Not Implemented",
        format!("The resource type {type_name:?} has no resource identity."),
    )
}

/// The identity an answer carries for `state` (None when the type has none); an identity
/// that differs from the one the object had (`before`, when core sent it) is an error, as
/// terraform-plugin-framework refuses it.
fn identity_answer(
    r: &dyn Resource,
    state: &Value,
    before: Option<&Value>,
    operation: &str,
    diags: &mut Diags,
) -> Option<Value> {
    r.identity_schema()?;
    if state.is_null() {
        return None;
    }
    let identity = r.identity(state);
    if identity.is_null() {
        return None;
    }
    if let Some(before) = before.filter(|b| !b.is_null() && b.is_wholly_known()) {
        if *before != identity {
            diags.push(ProviderDiagnostic::error(
                "Unexpected Identity Change",
                format!("During the {operation} operation, the provider answered an identity other than the object's stored one. An object's identity must not change; this is always a problem with the provider and should be reported to the provider developer."),
            ));
        }
    }
    Some(identity)
}

/// The error a `deferred` answer becomes for a client that does not allow deferral.
pub(crate) fn deferral_refused(what: &str, type_name: &str) -> ProviderDiagnostic {
    ProviderDiagnostic::error(
        "Invalid deferred response",
        format!("The provider answered that the {what} of {type_name:?} must be deferred, but the client does not allow deferral (it did not send the deferral_allowed capability). This is a bug in the provider, which should be reported in the provider's own issue tracker."),
    )
}

impl SdkProvider {
    /// The reason a deferral answer is given with, or None: a deferral the client does not
    /// allow becomes an error in `diags`.
    fn gate(
        &self,
        reason: Option<DeferralReason>,
        what: &str,
        type_name: &str,
        diags: &mut Diags,
    ) -> Option<DeferralReason> {
        let reason = reason?;
        if self
            .deferral_allowed
            .load(std::sync::atomic::Ordering::Relaxed)
        {
            Some(reason)
        } else {
            diags.push(deferral_refused(what, type_name));
            None
        }
    }
}

fn no_unknowns(v: &Value, what: &str) -> Diags {
    if v.is_wholly_known() {
        Vec::new()
    } else {
        vec![ProviderDiagnostic::error(
            "Provider returned invalid result",
            format!(
                "The {what} still holds unknown values after apply. This is a bug in the provider."
            ),
        )]
    }
}

impl Provider for SdkProvider {
    fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>> {
        Ok(ProviderSchema {
            provider: self.config_schema.to_schema(),
            resources: self
                .resources
                .iter()
                .map(|(n, r)| (n.clone(), r.schema().to_schema()))
                .collect(),
            data_sources: self
                .data_sources
                .iter()
                .map(|(n, d)| (n.clone(), d.schema().to_schema()))
                .collect(),
            move_resource_state: self
                .resources
                .values()
                .any(|r| !r.move_sources().is_empty()),
            functions: self
                .functions
                .iter()
                .map(|(n, (d, _))| (n.clone(), d.clone()))
                .collect(),
            ephemeral_resources: self
                .ephemeral_resources
                .iter()
                .map(|(n, e)| (n.clone(), e.schema().to_schema()))
                .collect(),
            identities: self
                .resources
                .iter()
                .filter_map(|(n, r)| Some((n.clone(), r.identity_schema()?)))
                .collect(),
        })
    }

    fn identity_schema(&self, type_name: &str) -> Option<IdentitySchema> {
        self.resources.get(type_name)?.identity_schema()
    }

    fn upgrade_resource_identity(
        &self,
        req: UpgradeIdentityRequest<'_>,
    ) -> UpgradeIdentityResponse {
        let fail = |d: Diags| UpgradeIdentityResponse {
            upgraded_identity: Value::null(Type::Dynamic),
            diagnostics: d,
        };
        let r = match self.res(req.type_name) {
            Ok(r) => r,
            Err(d) => return fail(d),
        };
        let Some(schema) = r.identity_schema() else {
            return fail(vec![no_identity(req.type_name)]);
        };
        if req.version > schema.version {
            return fail(vec![ProviderDiagnostic::error(
                "Unable to Upgrade Resource Identity",
                format!(
                    "The stored identity of {} has identity schema version {}, newer than this provider's version {}; use a provider version that knows it.",
                    req.type_name, req.version, schema.version
                ),
            )]);
        }
        let upgraded;
        let json = if req.version < schema.version {
            upgraded = match r.upgrade_identity(req.version, req.raw_json) {
                Ok(j) => j,
                Err(d) => return fail(d),
            };
            &upgraded
        } else {
            req.raw_json
        };
        match ferro_value::json::value_from_json(json, &schema.implied_type()) {
            Ok(v) => UpgradeIdentityResponse {
                upgraded_identity: v,
                diagnostics: Vec::new(),
            },
            Err(e) => fail(vec![ProviderDiagnostic::error(
                "Unable to Upgrade Resource Identity",
                format!(
                    "The identity of {} does not match its identity schema (version {}): {e}",
                    req.type_name, schema.version
                ),
            )]),
        }
    }

    fn validate_provider_config(&self, config: &Value) -> Vec<ProviderDiagnostic> {
        crate::validators::validate_config(&self.config_schema, config)
    }

    fn allow_deferral(&self) {
        self.deferral_allowed
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn configure(&self, config: &Value) -> Vec<ProviderDiagnostic> {
        *self.config.write().unwrap_or_else(|e| e.into_inner()) = Some(config.clone());
        Vec::new()
    }

    fn validate_resource_config(&self, type_name: &str, config: &Value) -> Vec<ProviderDiagnostic> {
        let r = match self.res(type_name) {
            Ok(r) => r,
            Err(d) => return d,
        };
        let mut diags = crate::validators::validate_config(&r.schema(), config);
        r.validate(config, &mut diags);
        diags
    }

    fn upgrade_resource_state(&self, req: UpgradeRequest<'_>) -> UpgradeResponse {
        let fail = |d: Diags| UpgradeResponse {
            upgraded_state: Value::null(Type::Dynamic),
            diagnostics: d,
        };
        let r = match self.res(req.type_name) {
            Ok(r) => r,
            Err(d) => return fail(d),
        };
        let schema = r.schema();
        let ty = schema.implied_type();
        if req.version > schema.version {
            return fail(vec![ProviderDiagnostic::error(
                "Unable to Upgrade Resource State",
                format!(
                    "The stored state of {} has schema version {}, newer than this provider's version {}; use a provider version that knows it.",
                    req.type_name, req.version, schema.version
                ),
            )]);
        }
        let upgraded;
        let json = if req.version < schema.version {
            upgraded = match r.upgrade_state(req.version, req.raw_json) {
                Ok(j) => j,
                Err(d) => return fail(d),
            };
            &upgraded
        } else {
            req.raw_json
        };
        match ferro_value::json::value_from_json(json, &ty) {
            Ok(v) => UpgradeResponse {
                upgraded_state: v,
                diagnostics: Vec::new(),
            },
            Err(e) => fail(vec![ProviderDiagnostic::error(
                "Unable to upgrade resource state",
                format!(
                    "The {} state of {} does not match its schema (version {}): {e}",
                    if req.version < schema.version {
                        "upgraded"
                    } else {
                        "stored"
                    },
                    req.type_name,
                    schema.version
                ),
            )]),
        }
    }

    fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse {
        let resp = |v: Value, d: Diags| ReadResponse {
            new_state: v,
            private: req.private.to_vec(),
            diagnostics: d,
            deferred: None,
            new_identity: None,
        };
        let r = match self.res(req.type_name) {
            Ok(r) => r,
            Err(d) => return resp(req.current_state.clone(), d),
        };
        if let Some(reason) = r.defer_read(req.current_state) {
            let mut d = Vec::new();
            let deferred = self.gate(Some(reason), "read", req.type_name, &mut d);
            return ReadResponse {
                deferred,
                ..resp(req.current_state.clone(), d)
            };
        }
        match r.read(req.current_state) {
            // Write-only attributes are never read back.
            Ok(Some(v)) => {
                let mut d = Vec::new();
                let new_identity =
                    identity_answer(r.as_ref(), &v, req.current_identity, "read", &mut d);
                ReadResponse {
                    new_identity,
                    ..resp(r.schema().to_block().null_write_only(&v), d)
                }
            }
            Ok(None) => resp(Value::null(r.schema().implied_type()), Vec::new()),
            Err(d) => resp(req.current_state.clone(), d),
        }
    }

    fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse {
        let fail = |d: Diags| PlanResponse {
            planned_state: req.proposed_new_state.clone(),
            requires_replace: Vec::new(),
            planned_private: Vec::new(),
            diagnostics: d,
            legacy_type_system: false,
            deferred: None,
            planned_identity: None,
        };
        let r = match self.res(req.type_name) {
            Ok(r) => r,
            Err(d) => return fail(d),
        };
        let schema = r.schema();
        let mut p = plan(&schema, req.prior_state, req.proposed_new_state, req.config);
        let mut deferred = None;
        if !req.proposed_new_state.is_null() {
            let meta = Value::null(Type::Dynamic);
            let mreq = ModifyPlanRequest {
                config: req.config,
                state: req.prior_state,
                provider_meta: &meta,
            };
            let mut mresp = ModifyPlanResponse {
                plan: p.planned.clone(),
                requires_replace: Vec::new(),
                diagnostics: Vec::new(),
                deferred: None,
            };
            r.modify_plan(&mreq, &mut mresp);
            p.diagnostics.append(&mut mresp.diagnostics);
            deferred = self.gate(mresp.deferred, "change", req.type_name, &mut p.diagnostics);
            let problems = check(&schema, req.prior_state, req.config, &mresp.plan);
            if problems.is_empty() {
                p.planned = mresp.plan;
            } else {
                p.diagnostics.extend(problems);
            }
            for name in mresp.requires_replace {
                let path = vec![ferro_value::PathStep::Attr(name)];
                if !p.requires_replace.contains(&path) {
                    p.requires_replace.push(path);
                }
            }
        }
        // An update keeps the object's identity; a new object's is what its plan says so far.
        let planned_identity = match (&r.identity_schema(), req.proposed_new_state.is_null()) {
            (Some(_), false) => match req.prior_identity {
                Some(prior) if !req.prior_state.is_null() && p.requires_replace.is_empty() => {
                    Some(prior.clone())
                }
                _ => Some(r.identity(&p.planned)).filter(|i| !i.is_null()),
            },
            _ => None,
        };
        PlanResponse {
            planned_identity,
            // The configuration's write-only values reach create and update in their
            // `config`; the plan holds null for them.
            planned_state: schema.to_block().null_write_only(&p.planned),
            requires_replace: p.requires_replace,
            planned_private: req.prior_private.to_vec(),
            diagnostics: p.diagnostics,
            legacy_type_system: false,
            deferred,
        }
    }

    fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse {
        let resp = |v: Value, d: Diags| ApplyResponse {
            new_state: v,
            private: req.planned_private.to_vec(),
            diagnostics: d,
            legacy_type_system: false,
            new_identity: None,
        };
        let r = match self.res(req.type_name) {
            Ok(r) => r,
            Err(d) => return resp(req.prior_state.clone(), d),
        };
        if req.planned_state.is_null() {
            return match r.delete(req.prior_state) {
                Ok(()) => resp(req.planned_state.clone(), Vec::new()),
                Err(d) => resp(req.prior_state.clone(), d),
            };
        }
        let result = if req.prior_state.is_null() {
            r.create(req.planned_state, req.config)
        } else {
            r.update(req.prior_state, req.planned_state, req.config)
        };
        match result {
            Ok(v) => {
                let v = r.schema().to_block().null_write_only(&v);
                let mut d = no_unknowns(&v, "new state");
                // An update must keep the identity the plan had.
                let kept = req.planned_identity.filter(|_| !req.prior_state.is_null());
                let new_identity = identity_answer(r.as_ref(), &v, kept, "update", &mut d);
                ApplyResponse {
                    new_identity,
                    ..resp(v, d)
                }
            }
            Err(d) => resp(req.prior_state.clone(), d),
        }
    }

    fn validate_data_source_config(
        &self,
        type_name: &str,
        config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        match self.data_sources.get(type_name) {
            Some(d) => {
                let mut diags = crate::validators::validate_config(&d.schema(), config);
                d.validate(config, &mut diags);
                diags
            }
            None => Vec::new(),
        }
    }

    fn read_data_source(&self, req: ReadDataRequest<'_>) -> ReadDataResponse {
        let Some(d) = self.data_sources.get(req.type_name) else {
            return ReadDataResponse {
                state: Value::null(Type::Dynamic),
                diagnostics: vec![ProviderDiagnostic::error(
                    "Invalid data source",
                    format!(
                        "The provider {} does not support data source {:?}.",
                        self.name, req.type_name
                    ),
                )],
                deferred: None,
            };
        };
        if let Some(reason) = d.defer_read(req.config) {
            let mut diags = Vec::new();
            let deferred = self.gate(Some(reason), "read", req.type_name, &mut diags);
            return ReadDataResponse {
                state: Value::null(d.schema().implied_type()),
                diagnostics: diags,
                deferred,
            };
        }
        match d.read_at(req.config, req.address) {
            Ok(v) => {
                let diags = no_unknowns(&v, "data source result");
                ReadDataResponse {
                    state: v,
                    diagnostics: diags,
                    deferred: None,
                }
            }
            Err(diags) => ReadDataResponse {
                state: Value::null(d.schema().implied_type()),
                diagnostics: diags,
                deferred: None,
            },
        }
    }

    fn import_resource_state(&self, req: ImportRequest<'_>) -> ImportResponse {
        let r = match self.res(req.type_name) {
            Ok(r) => r,
            Err(d) => {
                return ImportResponse {
                    imported: Vec::new(),
                    diagnostics: d,
                    deferred: None,
                }
            }
        };
        if let Some(reason) = r.defer_import(req.id) {
            let mut diagnostics = Vec::new();
            let deferred = self.gate(Some(reason), "import", req.type_name, &mut diagnostics);
            return ImportResponse {
                imported: Vec::new(),
                diagnostics,
                deferred,
            };
        }
        let imported = match req.identity {
            Some(identity) if r.identity_schema().is_some() => r.import_by_identity(identity),
            Some(_) => Err(vec![no_identity(req.type_name)]),
            None => r.import(req.id),
        };
        match imported {
            Ok(state) => ImportResponse {
                imported: vec![ImportedResource {
                    type_name: req.type_name.to_string(),
                    identity: r
                        .identity_schema()
                        .map(|_| r.identity(&state))
                        .filter(|i| !i.is_null()),
                    state,
                    private: Vec::new(),
                }],
                diagnostics: Vec::new(),
                deferred: None,
            },
            Err(d) => ImportResponse {
                imported: Vec::new(),
                diagnostics: d,
                deferred: None,
            },
        }
    }

    fn validate_ephemeral_resource_config(
        &self,
        type_name: &str,
        config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        match self.ephemeral_resources.get(type_name) {
            Some(e) => {
                let mut diags = crate::validators::validate_config(&e.schema(), config);
                e.validate(config, &mut diags);
                diags
            }
            None => vec![self.no_ephemeral(type_name)],
        }
    }

    fn open_ephemeral_resource(&self, type_name: &str, config: &Value) -> OpenEphemeralResponse {
        let fail = |ty: Type, diagnostics| OpenEphemeralResponse {
            result: Value::null(ty),
            private: Vec::new(),
            renew_at: None,
            diagnostics,
        };
        let Some(e) = self.ephemeral_resources.get(type_name) else {
            return fail(Type::Dynamic, vec![self.no_ephemeral(type_name)]);
        };
        match e.open(config) {
            Ok(o) => OpenEphemeralResponse {
                diagnostics: no_unknowns(&o.result, "ephemeral resource result"),
                result: o.result,
                private: o.private,
                renew_at: o.renew_at,
            },
            Err(d) => fail(e.schema().implied_type(), d),
        }
    }

    fn renew_ephemeral_resource(&self, type_name: &str, private: &[u8]) -> RenewEphemeralResponse {
        let Some(e) = self.ephemeral_resources.get(type_name) else {
            return RenewEphemeralResponse {
                diagnostics: vec![self.no_ephemeral(type_name)],
                ..Default::default()
            };
        };
        match e.renew(private) {
            Ok(r) => RenewEphemeralResponse {
                private: r.private,
                renew_at: r.renew_at,
                diagnostics: Vec::new(),
            },
            Err(diagnostics) => RenewEphemeralResponse {
                diagnostics,
                ..Default::default()
            },
        }
    }

    fn close_ephemeral_resource(&self, type_name: &str, private: &[u8]) -> Vec<ProviderDiagnostic> {
        match self.ephemeral_resources.get(type_name) {
            Some(e) => e.close(private).err().unwrap_or_default(),
            None => vec![self.no_ephemeral(type_name)],
        }
    }

    fn move_resource_state(&self, req: MoveRequest<'_>) -> MoveResponse {
        let fail = |diagnostics| MoveResponse {
            target_state: Value::null(Type::Dynamic),
            target_private: Vec::new(),
            diagnostics,
            target_identity: None,
        };
        let r = match self.res(req.target_type_name) {
            Ok(r) => r,
            Err(d) => return fail(d),
        };
        let sources = r.move_sources();
        if sources.is_empty() {
            return fail(vec![ProviderDiagnostic::error(
                "Unable to Move Resource State",
                format!(
                    "The target resource type does not support moving resource state: it accepts objects of no other resource type. Its provider's developers can add that support.\n\n{}",
                    move_facts(&req)
                ),
            )]);
        }
        if !sources
            .iter()
            .any(|s| s.matches(req.source_provider_address, req.source_type_name))
        {
            return fail(vec![ProviderDiagnostic::error(
                "Unable to Move Resource State",
                format!(
                    "The target resource type does not support moving resource state from the given source resource. Its provider's developers can add that support by converting the objects of this source.\n\n{}",
                    move_facts(&req)
                ),
            )]);
        }
        let moved = r.move_state(&MoveStateRequest {
            source_provider_address: req.source_provider_address,
            source_type_name: req.source_type_name,
            source_schema_version: req.source_schema_version,
            source_state: req.source_state,
            source_private: req.source_private,
            source_identity: req.source_identity,
            source_identity_schema_version: req.source_identity_schema_version,
        });
        let moved = match moved {
            Ok(m) => m,
            Err(d) => return fail(d),
        };
        let schema = r.schema();
        match ferro_value::convert::convert(&moved.state, &schema.implied_type()) {
            Ok(v) if !v.is_null() => {
                let v = schema.to_block().null_write_only(&v);
                // The object's identity as the target type has it (a new type: nothing to
                // compare with the source's).
                let mut diagnostics = no_unknowns(&v, "moved state");
                let target_identity =
                    identity_answer(r.as_ref(), &v, None, "move", &mut diagnostics);
                MoveResponse {
                    diagnostics,
                    target_state: v,
                    target_private: moved.private,
                    target_identity,
                }
            }
            Ok(_) => fail(vec![ProviderDiagnostic::error(
                "Provider returned invalid result",
                format!(
                    "The move of a {} object to {} produced no object. This is a bug in the provider.",
                    req.source_type_name, req.target_type_name
                ),
            )]),
            Err(e) => fail(vec![ProviderDiagnostic::error(
                "Provider returned invalid result",
                format!(
                    "The moved state does not match the schema of {}: {}. This is a bug in the provider.",
                    req.target_type_name, e.message
                ),
            )]),
        }
    }

    fn call_function(&self, name: &str, args: &[Value]) -> Result<Value, FunctionError> {
        match self.functions.get(name) {
            Some((_, f)) => f.call(args),
            None => Err(FunctionError::new(format!("Function {name:?} not found"))),
        }
    }
}
