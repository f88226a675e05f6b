//! Providers: the [`Provider`] trait that core drives through the resource instance change
//! lifecycle (validate → plan → apply, plus upgrade/read/import), the registry that starts
//! providers by source address (the built-in `terraform` provider is registered by
//! ferro-providers, which builds it with ferro-sdk).
//!
//! Requests and responses carry [`Value`]s conforming to the schema's implied type; codecs to
//! wire formats (msgpack, JSON) belong to the plugin client, not to callers.

pub mod builtin;
pub mod install;
pub mod plugin;
pub mod process;
mod registry;

pub use registry::{
    builtin_fallback, set_builtin_fallbacks, set_builtin_providers, BuiltinFactory,
    BuiltinProviderFactory, ProviderRegistry, ProviderSource,
};

use ferro_value::schema::{FunctionDecl, Schema};
use ferro_value::{PathStep, Value};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// A diagnostic as a provider reports it: no source range, maybe an attribute path that core
/// maps back to the configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderDiagnostic {
    pub severity: Severity,
    pub summary: String,
    pub detail: String,
    pub attribute: Option<Vec<PathStep>>,
}

impl ProviderDiagnostic {
    pub fn error(summary: impl Into<String>, detail: impl Into<String>) -> Self {
        ProviderDiagnostic {
            severity: Severity::Error,
            summary: summary.into(),
            detail: detail.into(),
            attribute: None,
        }
    }
}

pub fn has_errors(diags: &[ProviderDiagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProviderSchema {
    pub provider: Schema,
    pub resources: BTreeMap<String, Schema>,
    pub data_sources: BTreeMap<String, Schema>,
    /// The provider can take over objects of other resource types (`MoveResourceState`, the
    /// server capability `move_resource_state`).
    pub move_resource_state: bool,
    /// The provider's functions (`provider::LOCAL::NAME` in configuration), from
    /// GetProviderSchema's `functions` (protocol 5.5/6.5 and later; none for older providers).
    pub functions: BTreeMap<String, FunctionDecl>,
    /// The provider's ephemeral resource types (`ephemeral "TYPE" "NAME"`), from
    /// GetProviderSchema's `ephemeral_resource_schemas` (protocol 5.7/6.7 and later).
    pub ephemeral_resources: BTreeMap<String, Schema>,
    /// The identity schema of each managed resource type that has one (GetResourceIdentitySchemas,
    /// protocol 5.9/6.9 and later; none for older providers).
    pub identities: BTreeMap<String, IdentitySchema>,
}

/// The data that identifies an object of a managed resource type (Terraform 1.12's resource
/// identity), versioned apart from the resource's schema.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct IdentitySchema {
    pub version: u64,
    pub attributes: BTreeMap<String, IdentityAttribute>,
}

/// One attribute of an [`IdentitySchema`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdentityAttribute {
    pub ty: ferro_value::Type,
    /// An `import` block's `identity` must set it.
    pub required_for_import: bool,
    /// An `import` block's `identity` may set it (the provider can find it otherwise).
    pub optional_for_import: bool,
    pub description: String,
}

impl IdentitySchema {
    /// The object type identity values have.
    pub fn implied_type(&self) -> ferro_value::Type {
        ferro_value::Type::object(
            self.attributes
                .iter()
                .map(|(k, a)| (k.clone(), a.ty.clone())),
        )
    }
}

/// Why a provider-defined function call failed (the protocol's `FunctionError`): the
/// provider's text, and the argument it is about when it names one (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionError {
    pub text: String,
    pub argument: Option<usize>,
}

impl FunctionError {
    pub fn new(text: impl Into<String>) -> Self {
        FunctionError {
            text: text.into(),
            argument: None,
        }
    }

    pub fn argument(index: usize, text: impl Into<String>) -> Self {
        FunctionError {
            text: text.into(),
            argument: Some(index),
        }
    }
}

pub struct PlanRequest<'a> {
    pub type_name: &'a str,
    pub prior_state: &'a Value,
    pub proposed_new_state: &'a Value,
    pub config: &'a Value,
    pub prior_private: &'a [u8],
    /// The identity state holds for the object (None: none, or a new object).
    pub prior_identity: Option<&'a Value>,
}

#[derive(Debug, Clone)]
pub struct PlanResponse {
    pub planned_state: Value,
    pub requires_replace: Vec<Vec<PathStep>>,
    pub planned_private: Vec<u8>,
    pub diagnostics: Vec<ProviderDiagnostic>,
    pub legacy_type_system: bool,
    /// The provider's answer that the change cannot be planned yet (only to a client that
    /// allows deferral: [`Provider::allow_deferral`]).
    pub deferred: Option<DeferralReason>,
    /// The identity the object will have (None when the provider has no identity for it).
    pub planned_identity: Option<Value>,
}

/// Why a provider defers a change (the protocol's `Deferred.Reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeferralReason {
    Unknown,
    ResourceConfigUnknown,
    ProviderConfigUnknown,
    AbsentPrereq,
}

impl DeferralReason {
    /// The protocol's reason code (tfplugin5 and 6 agree).
    pub fn from_proto(code: i32) -> DeferralReason {
        match code {
            1 => DeferralReason::ResourceConfigUnknown,
            2 => DeferralReason::ProviderConfigUnknown,
            3 => DeferralReason::AbsentPrereq,
            _ => DeferralReason::Unknown,
        }
    }

    /// The protocol's reason code of this reason.
    pub fn to_proto(self) -> i32 {
        match self {
            DeferralReason::Unknown => 0,
            DeferralReason::ResourceConfigUnknown => 1,
            DeferralReason::ProviderConfigUnknown => 2,
            DeferralReason::AbsentPrereq => 3,
        }
    }
}

pub struct ApplyRequest<'a> {
    pub type_name: &'a str,
    pub prior_state: &'a Value,
    pub planned_state: &'a Value,
    pub config: &'a Value,
    pub planned_private: &'a [u8],
    /// The identity the plan recorded.
    pub planned_identity: Option<&'a Value>,
}

#[derive(Debug, Clone)]
pub struct ApplyResponse {
    pub new_state: Value,
    pub private: Vec<u8>,
    pub diagnostics: Vec<ProviderDiagnostic>,
    pub legacy_type_system: bool,
    pub new_identity: Option<Value>,
}

pub struct ReadRequest<'a> {
    pub type_name: &'a str,
    pub current_state: &'a Value,
    pub private: &'a [u8],
    /// The identity state holds for the object, upgraded to the current identity schema.
    pub current_identity: Option<&'a Value>,
}

#[derive(Debug, Clone)]
pub struct ReadResponse {
    pub new_state: Value,
    pub private: Vec<u8>,
    pub diagnostics: Vec<ProviderDiagnostic>,
    /// The provider's answer that it cannot do this yet (only to a client that allows
    /// deferral: [`Provider::allow_deferral`]).
    pub deferred: Option<DeferralReason>,
    pub new_identity: Option<Value>,
}

pub struct UpgradeRequest<'a> {
    pub type_name: &'a str,
    pub version: u64,
    /// The attributes object exactly as stored in state.
    pub raw_json: &'a serde_json::Value,
}

#[derive(Debug, Clone)]
pub struct UpgradeResponse {
    pub upgraded_state: Value,
    pub diagnostics: Vec<ProviderDiagnostic>,
}

pub struct ReadDataRequest<'a> {
    pub type_name: &'a str,
    pub config: &'a Value,
    /// The address of the instance being read (`data.T.N[0]`, `module.m.data.T.N`), for
    /// providers run in-process: the plugin protocol does not carry it, so a plugin is never
    /// told it (empty when unknown). The built-in `terraform_remote_state` chooses its
    /// encryption by it, as OpenTofu does.
    pub address: &'a str,
}

#[derive(Debug, Clone)]
pub struct ReadDataResponse {
    pub state: Value,
    pub diagnostics: Vec<ProviderDiagnostic>,
    /// The provider's answer that it cannot do this yet (only to a client that allows
    /// deferral: [`Provider::allow_deferral`]).
    pub deferred: Option<DeferralReason>,
}

pub struct ImportRequest<'a> {
    pub type_name: &'a str,
    /// The import ID (empty when importing by identity).
    pub id: &'a str,
    /// An `import` block's `identity` (then `id` is empty).
    pub identity: Option<&'a Value>,
}

/// One object an import produced (a provider may return several, of different types).
#[derive(Debug, Clone)]
pub struct ImportedResource {
    pub type_name: String,
    pub state: Value,
    pub private: Vec<u8>,
    pub identity: Option<Value>,
}

#[derive(Debug, Clone)]
pub struct ImportResponse {
    pub imported: Vec<ImportedResource>,
    pub diagnostics: Vec<ProviderDiagnostic>,
    /// The provider's answer that it cannot do this yet (only to a client that allows
    /// deferral: [`Provider::allow_deferral`]).
    pub deferred: Option<DeferralReason>,
}

/// A `moved` block across resource types: the object as state holds it under its old type.
pub struct MoveRequest<'a> {
    /// The source address of the provider the object belonged to.
    pub source_provider_address: &'a str,
    pub source_type_name: &'a str,
    pub source_schema_version: u64,
    /// The attributes object exactly as stored in state.
    pub source_state: &'a serde_json::Value,
    pub source_private: &'a [u8],
    pub target_type_name: &'a str,
    /// The object's identity exactly as stored in state, and its identity schema version.
    pub source_identity: Option<&'a serde_json::Value>,
    pub source_identity_schema_version: u64,
}

#[derive(Debug, Clone)]
pub struct MoveResponse {
    /// The object as the target type holds it (decoded against the target's schema).
    pub target_state: Value,
    pub target_private: Vec<u8>,
    pub diagnostics: Vec<ProviderDiagnostic>,
    pub target_identity: Option<Value>,
}

/// A stored identity of an older identity schema version (UpgradeResourceIdentity).
pub struct UpgradeIdentityRequest<'a> {
    pub type_name: &'a str,
    pub version: u64,
    /// The identity object exactly as stored in state.
    pub raw_json: &'a serde_json::Value,
}

#[derive(Debug, Clone)]
pub struct UpgradeIdentityResponse {
    pub upgraded_identity: Value,
    pub diagnostics: Vec<ProviderDiagnostic>,
}

/// What opening an ephemeral resource produced: its result object, the provider's private data
/// for renewing and closing it, and when it must be renewed (if ever).
#[derive(Debug, Clone)]
pub struct OpenEphemeralResponse {
    pub result: Value,
    pub private: Vec<u8>,
    pub renew_at: Option<std::time::SystemTime>,
    pub diagnostics: Vec<ProviderDiagnostic>,
}

/// What renewing an ephemeral resource produced: new private data (None: keep the old) and the
/// time of the next renewal (None: no more renewals).
#[derive(Debug, Clone, Default)]
pub struct RenewEphemeralResponse {
    pub private: Option<Vec<u8>>,
    pub renew_at: Option<std::time::SystemTime>,
    pub diagnostics: Vec<ProviderDiagnostic>,
}

/// The error core reports for an ephemeral resource type a provider does not offer.
pub fn unsupported_ephemeral_resource(type_name: &str) -> ProviderDiagnostic {
    ProviderDiagnostic::error(
        "Invalid ephemeral resource",
        format!("The provider does not support ephemeral resource {type_name:?}."),
    )
}

/// The operations core calls on a provider. Implementations must be thread-safe: the interpreter
/// calls them from several workers at once.
pub trait Provider: Send + Sync {
    fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>>;
    /// The identity schema of a managed resource type, when it has one.
    fn identity_schema(&self, type_name: &str) -> Option<IdentitySchema> {
        self.schema().ok()?.identities.get(type_name).cloned()
    }
    fn validate_provider_config(&self, _config: &Value) -> Vec<ProviderDiagnostic> {
        Vec::new()
    }
    fn configure(&self, config: &Value) -> Vec<ProviderDiagnostic>;
    /// From now on, tell the provider (in the client capabilities of each call) that this
    /// client honours a `deferred` answer: `plan -allow-deferral`. Before `configure`.
    fn allow_deferral(&self) {}
    fn validate_resource_config(&self, type_name: &str, config: &Value) -> Vec<ProviderDiagnostic>;
    fn upgrade_resource_state(&self, req: UpgradeRequest<'_>) -> UpgradeResponse;
    fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse;
    /// Bring a stored identity of an older identity schema version to the current one. Only
    /// called for types with an identity schema.
    fn upgrade_resource_identity(
        &self,
        req: UpgradeIdentityRequest<'_>,
    ) -> UpgradeIdentityResponse {
        UpgradeIdentityResponse {
            upgraded_identity: Value::null(ferro_value::Type::Dynamic),
            diagnostics: vec![ProviderDiagnostic::error(
                "Unsupported identity upgrade",
                format!(
                    "The provider cannot upgrade identities of resource type {:?} from version {}.",
                    req.type_name, req.version
                ),
            )],
        }
    }
    fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse;
    fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse;
    fn validate_data_source_config(
        &self,
        _type_name: &str,
        _config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        Vec::new()
    }
    fn read_data_source(&self, req: ReadDataRequest<'_>) -> ReadDataResponse {
        ReadDataResponse {
            state: Value::null(ferro_value::Type::Dynamic),
            diagnostics: vec![ProviderDiagnostic::error(
                "Unsupported data source",
                format!("This provider has no data source {:?}.", req.type_name),
            )],
            deferred: None,
        }
    }
    fn import_resource_state(&self, req: ImportRequest<'_>) -> ImportResponse {
        ImportResponse {
            imported: Vec::new(),
            diagnostics: vec![ProviderDiagnostic::error(
                "Resource import not supported",
                format!(
                    "The resource type {:?} does not support importing.",
                    req.type_name
                ),
            )],
            deferred: None,
        }
    }
    /// Take over an object of another resource type. Only called when the schema says the
    /// provider can (`move_resource_state`).
    fn move_resource_state(&self, req: MoveRequest<'_>) -> MoveResponse {
        MoveResponse {
            target_state: Value::null(ferro_value::Type::Dynamic),
            target_private: Vec::new(),
            diagnostics: vec![ProviderDiagnostic::error(
                "Unsupported `moved` across resource types",
                format!(
                    "The provider does not support moving {:?} objects to {:?}.",
                    req.source_type_name, req.target_type_name
                ),
            )],
            target_identity: None,
        }
    }
    /// Call one of the functions the schema declares, with arguments already converted to
    /// its parameter types (CallFunction). Only called for declared functions.
    fn call_function(&self, name: &str, _args: &[Value]) -> Result<Value, FunctionError> {
        Err(FunctionError::new(format!(
            "The provider has no function named {name:?}."
        )))
    }
    /// Check an ephemeral resource's configuration (ValidateEphemeralResourceConfig).
    fn validate_ephemeral_resource_config(
        &self,
        _type_name: &str,
        _config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        Vec::new()
    }
    /// Open an ephemeral resource (OpenEphemeralResource). Only called for types the schema
    /// declares, with a wholly known configuration.
    fn open_ephemeral_resource(&self, type_name: &str, _config: &Value) -> OpenEphemeralResponse {
        OpenEphemeralResponse {
            result: Value::null(ferro_value::Type::Dynamic),
            private: Vec::new(),
            renew_at: None,
            diagnostics: vec![unsupported_ephemeral_resource(type_name)],
        }
    }
    /// Renew an open ephemeral resource at the time its last answer named.
    fn renew_ephemeral_resource(
        &self,
        _type_name: &str,
        _private: &[u8],
    ) -> RenewEphemeralResponse {
        RenewEphemeralResponse::default()
    }
    /// Close an open ephemeral resource.
    fn close_ephemeral_resource(
        &self,
        _type_name: &str,
        _private: &[u8],
    ) -> Vec<ProviderDiagnostic> {
        Vec::new()
    }
    /// Ask the provider to stop in-flight operations (Ctrl-C).
    fn stop(&self) {}
    /// Shut the provider down (end its process, for plugins).
    fn close(&self) {}
    /// Whether the provider can no longer answer (its plugin process has ended): every later
    /// call fails the same way, so callers report the crash once.
    fn crashed(&self) -> bool {
        false
    }
}
