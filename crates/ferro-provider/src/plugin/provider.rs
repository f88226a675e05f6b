//! [`GrpcProvider`]: the [`Provider`] trait over a plugin connection. Values travel as
//! msgpack `DynamicValue`s encoded against the schema's implied type (JSON accepted in
//! answers), the schema is fetched once and cached, and gRPC failures become diagnostics the
//! way Terraform words them (PROTOCOL_FACTS §1.9), naming the provider and, when the process
//! died, its last log lines.

use super::client::{PluginClient, PluginOptions};
use super::proto::tfplugin6::{self as pb, DynamicValue};
use super::proto::{schema_from_proto, tfplugin5 as v5, widen_v5_schema_response, Rpc};
use crate::{
    ApplyRequest, ApplyResponse, FunctionError, IdentityAttribute, IdentitySchema, ImportRequest,
    ImportResponse, ImportedResource, MoveRequest, MoveResponse, OpenEphemeralResponse,
    PlanRequest, PlanResponse, Provider, ProviderDiagnostic, ProviderSchema, ReadDataRequest,
    ReadDataResponse, ReadRequest, ReadResponse, RenewEphemeralResponse, Severity,
    UpgradeIdentityRequest, UpgradeIdentityResponse, UpgradeRequest, UpgradeResponse,
};
use ferro_addrs::Provider as ProviderAddr;
use ferro_value::schema::{FunctionDecl, FunctionParam};
use ferro_value::{PathStep, Type, Value};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

mod schema;

pub(crate) use schema::functions_from_proto;
pub use schema::schema_cache_path;
use schema::LoadedSchema;

/// The Terraform version ferro reports to providers in Configure: the release whose behaviour
/// it follows (PROTOCOL_FACTS' baseline).
pub const TERRAFORM_VERSION: &str = "1.0.3";

/// A provider running as a plugin process.
pub struct GrpcProvider {
    client: PluginClient,
    schema: OnceLock<Result<LoadedSchema, Vec<ProviderDiagnostic>>>,
    /// Whether calls say the client allows deferral ([`Provider::allow_deferral`]).
    deferral_allowed: std::sync::atomic::AtomicBool,
    /// Where this provider package's schema is cached across runs (see [`schema_cache_path`]).
    schema_cache: Option<std::path::PathBuf>,
}

impl GrpcProvider {
    /// The client capabilities calls send: none, unless deferral is allowed (as before the
    /// protocol had them).
    fn capabilities(&self) -> Option<pb::ClientCapabilities> {
        self.deferral_allowed
            .load(std::sync::atomic::Ordering::Relaxed)
            .then(|| pb::ClientCapabilities {
                deferral_allowed: true,
                ..Default::default()
            })
    }

    /// Start the provider executable and connect.
    pub fn start(
        addr: &ProviderAddr,
        executable: &Path,
        opts: &PluginOptions,
    ) -> Result<GrpcProvider, String> {
        PluginClient::start(addr, executable, opts).map(GrpcProvider::new)
    }

    pub fn new(client: PluginClient) -> GrpcProvider {
        GrpcProvider {
            client,
            schema: OnceLock::new(),
            deferral_allowed: Default::default(),
            schema_cache: None,
        }
    }

    /// Keep this provider's schema in `path` across runs ([`schema_cache_path`]).
    pub fn with_schema_cache(mut self, path: std::path::PathBuf) -> GrpcProvider {
        self.schema_cache = Some(path);
        self
    }

    pub fn protocol_version(&self) -> u32 {
        self.client.protocol_version()
    }

    fn call<Req, Resp>(&self, rpc: Rpc, req: Req) -> Result<Resp, Vec<ProviderDiagnostic>>
    where
        Req: prost::Message + Send + 'static,
        Resp: prost::Message + Default + Send + 'static,
    {
        let v = self.client.protocol_version();
        super::stats::record(rpc);
        self.client
            .unary(&rpc.path(v), req)
            .map_err(|st| vec![self.status_diagnostic(rpc, &st)])
    }

    fn status_diagnostic(&self, rpc: Rpc, st: &tonic::Status) -> ProviderDiagnostic {
        use tonic::Code;
        let method = rpc.method(self.client.protocol_version());
        let addr = self.client.provider_addr();
        let (summary, mut detail) = match st.code() {
            Code::Unavailable => (
                "Plugin did not respond",
                format!("The plugin encountered an error, and failed to respond to the plugin.(*GRPCProvider).{method} call. The plugin logs may contain more details."),
            ),
            Code::Cancelled => ("Request cancelled", format!("The request to the plugin.(*GRPCProvider).{method} call was cancelled.")),
            Code::Unimplemented => ("Unsupported plugin method", format!("The {method} method is not supported by this plugin.")),
            _ => (
                "Plugin error",
                format!("The plugin returned an unexpected error from plugin.(*GRPCProvider).{method}: {}", st.message()),
            ),
        };
        detail.push_str(&format!(" (provider {addr})"));
        if st.code() != Code::Unimplemented {
            match self.client.crash_report() {
                Some(report) => {
                    detail.push_str("\n\n");
                    detail.push_str(&report);
                }
                None if st.code() == Code::Unavailable => {
                    detail.push_str(&format!(" ({})", st.message()))
                }
                None => {}
            }
        }
        ProviderDiagnostic::error(summary, detail)
    }

    /// The identity object type of a resource type, when it has an identity schema.
    fn identity_type(&self, type_name: &str) -> Option<Type> {
        let schema = self.cached_schema().ok()?;
        schema.identities.get(type_name).map(|s| s.implied_type())
    }

    /// An identity for a request (None when there is none or the type has no identity schema).
    fn encode_identity(
        &self,
        type_name: &str,
        v: Option<&Value>,
    ) -> Result<Option<pb::ResourceIdentityData>, Vec<ProviderDiagnostic>> {
        let (Some(v), Some(ty)) = (v, self.identity_type(type_name)) else {
            return Ok(None);
        };
        if v.is_null() {
            return Ok(None);
        }
        Ok(Some(pb::ResourceIdentityData {
            identity_data: Some(self.encode("resource identity", v, &ty)?),
        }))
    }

    /// An identity from an answer: None when the provider sent none.
    fn decode_identity(
        &self,
        type_name: &str,
        data: Option<&pb::ResourceIdentityData>,
        diags: &mut Vec<ProviderDiagnostic>,
    ) -> Option<Value> {
        let dv = data?.identity_data.as_ref()?;
        if dv.msgpack.is_empty() && dv.json.is_empty() {
            return None;
        }
        let Some(ty) = self.identity_type(type_name) else {
            diags.push(ProviderDiagnostic::error(
                "Provider produced an invalid value",
                format!("Provider {} returned a resource identity for resource type {type_name:?}, which has no identity schema. This is a bug in the provider, which should be reported in the provider's own issue tracker.", self.client.provider_addr()),
            ));
            return None;
        };
        let v = self.decode("resource identity", Some(dv), &ty, diags);
        (!v.is_null()).then_some(v)
    }

    fn loaded(&self) -> Result<&LoadedSchema, Vec<ProviderDiagnostic>> {
        self.schema
            .get_or_init(|| self.load_schema())
            .as_ref()
            .map_err(Clone::clone)
    }

    fn cached_schema(&self) -> Result<&ProviderSchema, Vec<ProviderDiagnostic>> {
        self.loaded().map(|l| &l.schema)
    }

    fn provider_meta(&self) -> Option<DynamicValue> {
        self.loaded()
            .ok()
            .and_then(|l| l.null_provider_meta.clone())
    }

    fn provider_type(&self) -> Result<Type, Vec<ProviderDiagnostic>> {
        Ok(self.cached_schema()?.provider.block.implied_type())
    }

    fn resource_type(&self, type_name: &str) -> Result<Type, Vec<ProviderDiagnostic>> {
        match self.cached_schema()?.resources.get(type_name) {
            Some(s) => Ok(s.block.implied_type()),
            None => Err(vec![ProviderDiagnostic::error(
                "Invalid resource type",
                format!(
                    "The provider {} does not support resource type {type_name:?}.",
                    self.client.provider_addr()
                ),
            )]),
        }
    }

    fn data_source_type(&self, type_name: &str) -> Result<Type, Vec<ProviderDiagnostic>> {
        match self.cached_schema()?.data_sources.get(type_name) {
            Some(s) => Ok(s.block.implied_type()),
            None => Err(vec![ProviderDiagnostic::error(
                "Invalid data source",
                format!(
                    "The provider {} does not support data source {type_name:?}.",
                    self.client.provider_addr()
                ),
            )]),
        }
    }

    fn ephemeral_type(&self, type_name: &str) -> Result<Type, Vec<ProviderDiagnostic>> {
        match self.cached_schema()?.ephemeral_resources.get(type_name) {
            Some(s) => Ok(s.block.implied_type()),
            None => Err(vec![ProviderDiagnostic::error(
                "Invalid ephemeral resource",
                format!(
                    "The provider {} does not support ephemeral resource {type_name:?}.",
                    self.client.provider_addr()
                ),
            )]),
        }
    }

    fn encode(
        &self,
        what: &str,
        v: &Value,
        ty: &Type,
    ) -> Result<DynamicValue, Vec<ProviderDiagnostic>> {
        encode_value(v, ty).map_err(|e| {
            vec![ProviderDiagnostic::error(
                "Failed to encode a value for the provider",
                format!(
                    "Cannot encode the {what} for provider {}: {e}.",
                    self.client.provider_addr()
                ),
            )]
        })
    }

    fn decode(
        &self,
        what: &str,
        dv: Option<&DynamicValue>,
        ty: &Type,
        diags: &mut Vec<ProviderDiagnostic>,
    ) -> Value {
        decode_value(dv, ty).unwrap_or_else(|e| {
            diags.push(ProviderDiagnostic::error(
                "Provider produced an invalid value",
                format!("Provider {} returned a {what} that does not conform to the schema: {e}. This is a bug in the provider, which should be reported in the provider's own issue tracker.", self.client.provider_addr()),
            ));
            Value::null(ty.clone())
        })
    }

    /// The provider's functions as GetFunctions lists them (protocol 5.5/6.5+); empty for
    /// older providers. Core takes them from GetProviderSchema ([`ProviderSchema::functions`]).
    pub fn functions(&self) -> Result<BTreeMap<String, FunctionDecl>, Vec<ProviderDiagnostic>> {
        let resp: pb::get_functions::Response =
            match self.call(Rpc::GetFunctions, pb::get_functions::Request {}) {
                Ok(r) => r,
                Err(d) if d.iter().any(|d| d.summary == "Unsupported plugin method") => {
                    return Ok(BTreeMap::new())
                }
                Err(d) => return Err(d),
            };
        let diags = diagnostics_from_proto(resp.diagnostics);
        if crate::has_errors(&diags) {
            return Err(diags);
        }
        functions_from_proto(&resp.functions)
            .map_err(|e| vec![ProviderDiagnostic::error("Invalid provider function", e)])
    }

    /// GetMetadata (protocol 5.4/6.4+): resource, data source and (5.7/6.7+) ephemeral
    /// resource type names without schemas. `None` for providers that predate it.
    pub fn metadata(&self) -> Option<Metadata> {
        let resp: pb::get_metadata::Response = self
            .call(Rpc::GetMetadata, pb::get_metadata::Request {})
            .ok()?;
        Some(Metadata {
            resources: resp.resources.into_iter().map(|r| r.type_name).collect(),
            data_sources: resp.data_sources.into_iter().map(|r| r.type_name).collect(),
            ephemeral_resources: resp
                .ephemeral_resources
                .into_iter()
                .map(|r| r.type_name)
                .collect(),
        })
    }
}

/// The type names GetMetadata lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Metadata {
    pub resources: Vec<String>,
    pub data_sources: Vec<String>,
    pub ephemeral_resources: Vec<String>,
}

/// A protocol timestamp as a point in time (None before the epoch or out of range).
pub(crate) fn timestamp_to_time(t: &pb::Timestamp) -> Option<std::time::SystemTime> {
    let secs = u64::try_from(t.seconds).ok()?;
    let nanos = u32::try_from(t.nanos).ok()?;
    std::time::UNIX_EPOCH.checked_add(std::time::Duration::new(secs, nanos))
}

/// msgpack against `ty` (what Terraform always sends).
pub fn encode_value(v: &Value, ty: &Type) -> Result<DynamicValue, String> {
    Ok(DynamicValue {
        msgpack: ferro_value::msgpack::to_msgpack(v, ty)?,
        json: Vec::new(),
    })
}

/// msgpack if present, else JSON, else null (as Terraform's client does).
pub fn decode_value(dv: Option<&DynamicValue>, ty: &Type) -> Result<Value, String> {
    match dv {
        Some(dv) if !dv.msgpack.is_empty() => ferro_value::msgpack::from_msgpack(&dv.msgpack, ty),
        Some(dv) if !dv.json.is_empty() => {
            let j: serde_json::Value =
                serde_json::from_slice(&dv.json).map_err(|e| format!("invalid JSON: {e}"))?;
            ferro_value::json::value_from_json(&j, ty)
        }
        _ => Ok(Value::null(ty.clone())),
    }
}

fn join_diagnostics(ds: &[ProviderDiagnostic]) -> String {
    ds.iter()
        .map(|d| format!("{}: {}", d.summary, d.detail))
        .collect::<Vec<_>>()
        .join("\n")
}

pub(crate) fn diagnostics_from_proto(ds: Vec<pb::Diagnostic>) -> Vec<ProviderDiagnostic> {
    ds.into_iter()
        .map(|d| ProviderDiagnostic {
            severity: if d.severity == pb::diagnostic::Severity::Warning as i32 {
                Severity::Warning
            } else {
                Severity::Error
            },
            summary: d.summary,
            detail: d.detail,
            attribute: d.attribute.map(path_from_proto),
        })
        .collect()
}

pub(crate) fn path_from_proto(p: pb::AttributePath) -> Vec<PathStep> {
    p.steps
        .into_iter()
        .filter_map(|s| match s.selector? {
            pb::attribute_path::step::Selector::AttributeName(n) => Some(PathStep::Attr(n)),
            pb::attribute_path::step::Selector::ElementKeyString(k) => {
                Some(PathStep::Index(Value::string(k)))
            }
            pb::attribute_path::step::Selector::ElementKeyInt(i) => {
                Some(PathStep::Index(Value::int(i)))
            }
        })
        .collect()
}

impl Provider for GrpcProvider {
    fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>> {
        self.cached_schema().cloned()
    }

    fn identity_schema(&self, type_name: &str) -> Option<IdentitySchema> {
        self.cached_schema()
            .ok()?
            .identities
            .get(type_name)
            .cloned()
    }

    fn validate_provider_config(&self, config: &Value) -> Vec<ProviderDiagnostic> {
        let run = || -> Result<Vec<ProviderDiagnostic>, Vec<ProviderDiagnostic>> {
            let ty = self.provider_type()?;
            let config = self.encode("provider configuration", config, &ty)?;
            // v5 PrepareProviderConfig also returns a prepared config; Terraform ignores it.
            let resp: pb::validate_provider_config::Response = self.call(
                Rpc::ValidateProviderConfig,
                pb::validate_provider_config::Request {
                    config: Some(config),
                },
            )?;
            Ok(diagnostics_from_proto(resp.diagnostics))
        };
        run().unwrap_or_else(|d| d)
    }

    fn allow_deferral(&self) {
        self.deferral_allowed
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn configure(&self, config: &Value) -> Vec<ProviderDiagnostic> {
        let run = || -> Result<Vec<ProviderDiagnostic>, Vec<ProviderDiagnostic>> {
            let ty = self.provider_type()?;
            let config = self.encode("provider configuration", config, &ty)?;
            let req = pb::configure_provider::Request {
                client_capabilities: self.capabilities(),
                terraform_version: TERRAFORM_VERSION.to_string(),
                config: Some(config),
            };
            let resp: pb::configure_provider::Response = self.call(Rpc::ConfigureProvider, req)?;
            Ok(diagnostics_from_proto(resp.diagnostics))
        };
        run().unwrap_or_else(|d| d)
    }

    fn validate_resource_config(&self, type_name: &str, config: &Value) -> Vec<ProviderDiagnostic> {
        let run = || -> Result<Vec<ProviderDiagnostic>, Vec<ProviderDiagnostic>> {
            let ty = self.resource_type(type_name)?;
            let config = self.encode("resource configuration", config, &ty)?;
            // As Terraform 1.11+: this client keeps write-only attributes out of plans and
            // state, so a provider may declare them.
            let req = pb::validate_resource_config::Request {
                client_capabilities: Some(pb::ClientCapabilities {
                    deferral_allowed: self
                        .deferral_allowed
                        .load(std::sync::atomic::Ordering::Relaxed),
                    write_only_attributes_allowed: true,
                }),
                type_name: type_name.to_string(),
                config: Some(config),
            };
            let resp: pb::validate_resource_config::Response =
                self.call(Rpc::ValidateResourceConfig, req)?;
            Ok(diagnostics_from_proto(resp.diagnostics))
        };
        run().unwrap_or_else(|d| d)
    }

    fn validate_data_source_config(
        &self,
        type_name: &str,
        config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        let run = || -> Result<Vec<ProviderDiagnostic>, Vec<ProviderDiagnostic>> {
            let ty = self.data_source_type(type_name)?;
            let config = self.encode("data source configuration", config, &ty)?;
            let req = pb::validate_data_resource_config::Request {
                type_name: type_name.to_string(),
                config: Some(config),
            };
            let resp: pb::validate_data_resource_config::Response =
                self.call(Rpc::ValidateDataResourceConfig, req)?;
            Ok(diagnostics_from_proto(resp.diagnostics))
        };
        run().unwrap_or_else(|d| d)
    }

    fn upgrade_resource_state(&self, req: UpgradeRequest<'_>) -> UpgradeResponse {
        let ty = match self.resource_type(req.type_name) {
            Ok(t) => t,
            Err(diagnostics) => {
                return UpgradeResponse {
                    upgraded_state: Value::null(Type::Dynamic),
                    diagnostics,
                }
            }
        };
        let json = serde_json::to_vec(req.raw_json).unwrap_or_default();
        let msg = pb::upgrade_resource_state::Request {
            type_name: req.type_name.to_string(),
            version: req.version as i64,
            raw_state: Some(pb::RawState {
                json,
                flatmap: BTreeMap::new(),
            }),
        };
        match self.call::<_, pb::upgrade_resource_state::Response>(Rpc::UpgradeResourceState, msg) {
            Ok(resp) => {
                let mut diagnostics = diagnostics_from_proto(resp.diagnostics);
                let upgraded_state = self.decode(
                    "upgraded state",
                    resp.upgraded_state.as_ref(),
                    &ty,
                    &mut diagnostics,
                );
                UpgradeResponse {
                    upgraded_state,
                    diagnostics,
                }
            }
            Err(diagnostics) => UpgradeResponse {
                upgraded_state: Value::null(ty),
                diagnostics,
            },
        }
    }

    fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse {
        let fail = |ty: Type, diagnostics| ReadResponse {
            new_state: Value::null(ty),
            private: Vec::new(),
            diagnostics,
            deferred: None,
            new_identity: None,
        };
        let ty = match self.resource_type(req.type_name) {
            Ok(t) => t,
            Err(d) => return fail(Type::Dynamic, d),
        };
        let current_state = match self.encode("current state", req.current_state, &ty) {
            Ok(v) => v,
            Err(d) => return fail(ty, d),
        };
        let msg = pb::read_resource::Request {
            client_capabilities: self.capabilities(),
            type_name: req.type_name.to_string(),
            current_state: Some(current_state),
            private: req.private.to_vec(),
            provider_meta: self.provider_meta(),
            current_identity: match self.encode_identity(req.type_name, req.current_identity) {
                Ok(v) => v,
                Err(d) => return fail(ty, d),
            },
        };
        match self.call::<_, pb::read_resource::Response>(Rpc::ReadResource, msg) {
            Ok(resp) => {
                let mut diagnostics = diagnostics_from_proto(resp.diagnostics);
                let new_state =
                    self.decode("new state", resp.new_state.as_ref(), &ty, &mut diagnostics);
                let new_identity = self.decode_identity(
                    req.type_name,
                    resp.new_identity.as_ref(),
                    &mut diagnostics,
                );
                ReadResponse {
                    new_state,
                    private: resp.private,
                    diagnostics,
                    deferred: resp
                        .deferred
                        .map(|d| crate::DeferralReason::from_proto(d.reason)),
                    new_identity,
                }
            }
            Err(d) => fail(ty, d),
        }
    }

    fn upgrade_resource_identity(
        &self,
        req: UpgradeIdentityRequest<'_>,
    ) -> UpgradeIdentityResponse {
        let Some(ty) = self.identity_type(req.type_name) else {
            return UpgradeIdentityResponse {
                upgraded_identity: Value::null(Type::Dynamic),
                diagnostics: vec![ProviderDiagnostic::error(
                    "Invalid resource type",
                    format!(
                        "The provider {} has no identity schema for resource type {:?}.",
                        self.client.provider_addr(),
                        req.type_name
                    ),
                )],
            };
        };
        let msg = pb::upgrade_resource_identity::Request {
            type_name: req.type_name.to_string(),
            version: req.version as i64,
            raw_identity: Some(pb::RawState {
                json: serde_json::to_vec(req.raw_json).unwrap_or_default(),
                flatmap: BTreeMap::new(),
            }),
        };
        match self
            .call::<_, pb::upgrade_resource_identity::Response>(Rpc::UpgradeResourceIdentity, msg)
        {
            Ok(resp) => {
                let mut diagnostics = diagnostics_from_proto(resp.diagnostics);
                let upgraded_identity = self.decode(
                    "upgraded identity",
                    resp.upgraded_identity
                        .as_ref()
                        .and_then(|d| d.identity_data.as_ref()),
                    &ty,
                    &mut diagnostics,
                );
                UpgradeIdentityResponse {
                    upgraded_identity,
                    diagnostics,
                }
            }
            Err(diagnostics) => UpgradeIdentityResponse {
                upgraded_identity: Value::null(ty),
                diagnostics,
            },
        }
    }

    fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse {
        let fail = |ty: Type, diagnostics| PlanResponse {
            planned_state: Value::null(ty),
            requires_replace: Vec::new(),
            planned_private: Vec::new(),
            diagnostics,
            legacy_type_system: false,
            deferred: None,
            planned_identity: None,
        };
        let ty = match self.resource_type(req.type_name) {
            Ok(t) => t,
            Err(d) => return fail(Type::Dynamic, d),
        };
        let encoded = (|| {
            Ok::<_, Vec<ProviderDiagnostic>>((
                self.encode("prior state", req.prior_state, &ty)?,
                self.encode("proposed new state", req.proposed_new_state, &ty)?,
                self.encode("configuration", req.config, &ty)?,
            ))
        })();
        let (prior, proposed, config) = match encoded {
            Ok(e) => e,
            Err(d) => return fail(ty, d),
        };
        let msg = pb::plan_resource_change::Request {
            client_capabilities: self.capabilities(),
            type_name: req.type_name.to_string(),
            prior_state: Some(prior),
            proposed_new_state: Some(proposed),
            config: Some(config),
            prior_private: req.prior_private.to_vec(),
            provider_meta: self.provider_meta(),
            prior_identity: match self.encode_identity(req.type_name, req.prior_identity) {
                Ok(v) => v,
                Err(d) => return fail(ty, d),
            },
        };
        match self.call::<_, pb::plan_resource_change::Response>(Rpc::PlanResourceChange, msg) {
            Ok(resp) => {
                let mut diagnostics = diagnostics_from_proto(resp.diagnostics);
                let planned_state = self.decode(
                    "planned state",
                    resp.planned_state.as_ref(),
                    &ty,
                    &mut diagnostics,
                );
                let planned_identity = self.decode_identity(
                    req.type_name,
                    resp.planned_identity.as_ref(),
                    &mut diagnostics,
                );
                PlanResponse {
                    planned_state,
                    requires_replace: resp
                        .requires_replace
                        .into_iter()
                        .map(path_from_proto)
                        .collect(),
                    planned_private: resp.planned_private,
                    diagnostics,
                    legacy_type_system: resp.legacy_type_system,
                    planned_identity,
                    deferred: resp
                        .deferred
                        .map(|d| crate::DeferralReason::from_proto(d.reason)),
                }
            }
            Err(d) => fail(ty, d),
        }
    }

    fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse {
        let fail = |ty: Type, diagnostics| ApplyResponse {
            new_state: Value::null(ty),
            private: Vec::new(),
            diagnostics,
            legacy_type_system: false,
            new_identity: None,
        };
        let ty = match self.resource_type(req.type_name) {
            Ok(t) => t,
            Err(d) => return fail(Type::Dynamic, d),
        };
        let encoded = (|| {
            Ok::<_, Vec<ProviderDiagnostic>>((
                self.encode("prior state", req.prior_state, &ty)?,
                self.encode("planned state", req.planned_state, &ty)?,
                self.encode("configuration", req.config, &ty)?,
            ))
        })();
        let (prior, planned, config) = match encoded {
            Ok(e) => e,
            Err(d) => return fail(ty, d),
        };
        let msg = pb::apply_resource_change::Request {
            type_name: req.type_name.to_string(),
            prior_state: Some(prior),
            planned_state: Some(planned),
            config: Some(config),
            planned_private: req.planned_private.to_vec(),
            provider_meta: self.provider_meta(),
            planned_identity: match self.encode_identity(req.type_name, req.planned_identity) {
                Ok(v) => v,
                Err(d) => return fail(ty, d),
            },
        };
        match self.call::<_, pb::apply_resource_change::Response>(Rpc::ApplyResourceChange, msg) {
            Ok(resp) => {
                let mut diagnostics = diagnostics_from_proto(resp.diagnostics);
                let new_state =
                    self.decode("new state", resp.new_state.as_ref(), &ty, &mut diagnostics);
                let new_identity = self.decode_identity(
                    req.type_name,
                    resp.new_identity.as_ref(),
                    &mut diagnostics,
                );
                ApplyResponse {
                    new_state,
                    private: resp.private,
                    diagnostics,
                    legacy_type_system: resp.legacy_type_system,
                    new_identity,
                }
            }
            Err(d) => fail(ty, d),
        }
    }

    fn read_data_source(&self, req: ReadDataRequest<'_>) -> ReadDataResponse {
        let fail = |ty: Type, diagnostics| ReadDataResponse {
            state: Value::null(ty),
            diagnostics,
            deferred: None,
        };
        let ty = match self.data_source_type(req.type_name) {
            Ok(t) => t,
            Err(d) => return fail(Type::Dynamic, d),
        };
        let config = match self.encode("configuration", req.config, &ty) {
            Ok(v) => v,
            Err(d) => return fail(ty, d),
        };
        let msg = pb::read_data_source::Request {
            client_capabilities: self.capabilities(),
            type_name: req.type_name.to_string(),
            config: Some(config),
            provider_meta: self.provider_meta(),
        };
        match self.call::<_, pb::read_data_source::Response>(Rpc::ReadDataSource, msg) {
            Ok(resp) => {
                let mut diagnostics = diagnostics_from_proto(resp.diagnostics);
                let state = self.decode(
                    "data source state",
                    resp.state.as_ref(),
                    &ty,
                    &mut diagnostics,
                );
                ReadDataResponse {
                    state,
                    diagnostics,
                    deferred: resp
                        .deferred
                        .map(|d| crate::DeferralReason::from_proto(d.reason)),
                }
            }
            Err(d) => fail(ty, d),
        }
    }

    fn import_resource_state(&self, req: ImportRequest<'_>) -> ImportResponse {
        if req.identity.is_some() && self.identity_type(req.type_name).is_none() {
            // Terraform's plugin client's words.
            return ImportResponse {
                imported: Vec::new(),
                diagnostics: vec![ProviderDiagnostic::error(
                    format!("unknown identity type {:?}", req.type_name),
                    String::new(),
                )],
                deferred: None,
            };
        }
        let identity = match self.encode_identity(req.type_name, req.identity) {
            Ok(v) => v,
            Err(diagnostics) => {
                return ImportResponse {
                    imported: Vec::new(),
                    diagnostics,
                    deferred: None,
                }
            }
        };
        let msg = pb::import_resource_state::Request {
            client_capabilities: self.capabilities(),
            type_name: req.type_name.to_string(),
            id: req.id.to_string(),
            identity,
        };
        let resp: pb::import_resource_state::Response =
            match self.call(Rpc::ImportResourceState, msg) {
                Ok(r) => r,
                Err(diagnostics) => {
                    return ImportResponse {
                        imported: Vec::new(),
                        diagnostics,
                        deferred: None,
                    }
                }
            };
        let mut diagnostics = diagnostics_from_proto(resp.diagnostics);
        let deferred = resp
            .deferred
            .map(|d| crate::DeferralReason::from_proto(d.reason));
        let mut imported = Vec::new();
        for r in resp.imported_resources {
            let ty = match self.resource_type(&r.type_name) {
                Ok(t) => t,
                Err(d) => {
                    diagnostics.extend(d);
                    continue;
                }
            };
            let state = self.decode("imported state", r.state.as_ref(), &ty, &mut diagnostics);
            let identity =
                self.decode_identity(&r.type_name, r.identity.as_ref(), &mut diagnostics);
            imported.push(ImportedResource {
                type_name: r.type_name,
                state,
                private: r.private,
                identity,
            });
        }
        ImportResponse {
            imported,
            diagnostics,
            deferred,
        }
    }

    fn move_resource_state(&self, req: MoveRequest<'_>) -> MoveResponse {
        let failed = |diagnostics| MoveResponse {
            target_state: Value::null(Type::Dynamic),
            target_private: Vec::new(),
            diagnostics,
            target_identity: None,
        };
        let ty = match self.resource_type(req.target_type_name) {
            Ok(t) => t,
            Err(d) => return failed(d),
        };
        let msg = pb::move_resource_state::Request {
            source_provider_address: req.source_provider_address.to_string(),
            source_type_name: req.source_type_name.to_string(),
            source_schema_version: req.source_schema_version as i64,
            source_state: Some(pb::RawState {
                json: serde_json::to_vec(req.source_state).unwrap_or_default(),
                flatmap: Default::default(),
            }),
            target_type_name: req.target_type_name.to_string(),
            source_private: req.source_private.to_vec(),
            source_identity: req.source_identity.map(|j| pb::RawState {
                json: serde_json::to_vec(j).unwrap_or_default(),
                flatmap: Default::default(),
            }),
            source_identity_schema_version: req.source_identity_schema_version as i64,
        };
        let resp: pb::move_resource_state::Response = match self.call(Rpc::MoveResourceState, msg) {
            Ok(r) => r,
            Err(d) => return failed(d),
        };
        let mut diagnostics = diagnostics_from_proto(resp.diagnostics);
        if crate::has_errors(&diagnostics) {
            return failed(diagnostics);
        }
        let target_state = self.decode(
            "moved state",
            resp.target_state.as_ref(),
            &ty,
            &mut diagnostics,
        );
        let target_identity = self.decode_identity(
            req.target_type_name,
            resp.target_identity.as_ref(),
            &mut diagnostics,
        );
        MoveResponse {
            target_state,
            target_private: resp.target_private,
            diagnostics,
            target_identity,
        }
    }

    fn call_function(&self, name: &str, args: &[Value]) -> Result<Value, FunctionError> {
        let schema = self
            .cached_schema()
            .map_err(|d| FunctionError::new(join_diagnostics(&d)))?;
        let Some(decl) = schema.functions.get(name) else {
            return Err(FunctionError::new(format!(
                "The provider has no function named {name:?}."
            )));
        };
        let mut arguments = Vec::with_capacity(args.len());
        for (i, v) in args.iter().enumerate() {
            let ty = decl.param(i).map_or(Type::Dynamic, |p| p.ty.clone());
            arguments.push(encode_value(v, &ty).map_err(|e| FunctionError::argument(i, e))?);
        }
        let msg = pb::call_function::Request {
            name: name.to_string(),
            arguments,
        };
        let resp: pb::call_function::Response = self
            .call(Rpc::CallFunction, msg)
            .map_err(|d| FunctionError::new(join_diagnostics(&d)))?;
        if let Some(e) = resp.error {
            return Err(FunctionError {
                text: e.text,
                argument: e.function_argument.and_then(|i| usize::try_from(i).ok()),
            });
        }
        if resp.result.is_none() {
            return Err(FunctionError::new(
                "provider returned no result and no errors",
            ));
        }
        decode_value(resp.result.as_ref(), &decl.return_type).map_err(FunctionError::new)
    }

    fn validate_ephemeral_resource_config(
        &self,
        type_name: &str,
        config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        let run = || -> Result<Vec<ProviderDiagnostic>, Vec<ProviderDiagnostic>> {
            let ty = self.ephemeral_type(type_name)?;
            let msg = pb::validate_ephemeral_resource_config::Request {
                type_name: type_name.to_string(),
                config: Some(self.encode("configuration", config, &ty)?),
            };
            let resp: pb::validate_ephemeral_resource_config::Response =
                self.call(Rpc::ValidateEphemeralResourceConfig, msg)?;
            Ok(diagnostics_from_proto(resp.diagnostics))
        };
        run().unwrap_or_else(|d| d)
    }

    fn open_ephemeral_resource(&self, type_name: &str, config: &Value) -> OpenEphemeralResponse {
        let fail = |ty: Type, diagnostics| OpenEphemeralResponse {
            result: Value::null(ty),
            private: Vec::new(),
            renew_at: None,
            diagnostics,
        };
        let ty = match self.ephemeral_type(type_name) {
            Ok(t) => t,
            Err(d) => return fail(Type::Dynamic, d),
        };
        let config = match self.encode("configuration", config, &ty) {
            Ok(v) => v,
            Err(d) => return fail(ty, d),
        };
        let msg = pb::open_ephemeral_resource::Request {
            type_name: type_name.to_string(),
            config: Some(config),
            client_capabilities: Some(pb::ClientCapabilities {
                deferral_allowed: false,
                write_only_attributes_allowed: false,
            }),
        };
        match self.call::<_, pb::open_ephemeral_resource::Response>(Rpc::OpenEphemeralResource, msg)
        {
            Ok(resp) => {
                let mut diagnostics = diagnostics_from_proto(resp.diagnostics);
                if resp.deferred.is_some() {
                    diagnostics.push(ProviderDiagnostic::error(
                        "Provider deferred changes when Terraform did not allow deferrals",
                        format!("The provider signaled a deferred action for ephemeral resource {type_name:?}, but ferro does not allow deferrals. This is a bug in the provider."),
                    ));
                }
                let result = self.decode(
                    "ephemeral resource result",
                    resp.result.as_ref(),
                    &ty,
                    &mut diagnostics,
                );
                OpenEphemeralResponse {
                    result,
                    private: resp.private.unwrap_or_default(),
                    renew_at: resp.renew_at.as_ref().and_then(timestamp_to_time),
                    diagnostics,
                }
            }
            Err(d) => fail(ty, d),
        }
    }

    fn renew_ephemeral_resource(&self, type_name: &str, private: &[u8]) -> RenewEphemeralResponse {
        let msg = pb::renew_ephemeral_resource::Request {
            type_name: type_name.to_string(),
            private: Some(private.to_vec()),
        };
        match self
            .call::<_, pb::renew_ephemeral_resource::Response>(Rpc::RenewEphemeralResource, msg)
        {
            Ok(resp) => RenewEphemeralResponse {
                private: resp.private,
                renew_at: resp.renew_at.as_ref().and_then(timestamp_to_time),
                diagnostics: diagnostics_from_proto(resp.diagnostics),
            },
            Err(diagnostics) => RenewEphemeralResponse {
                diagnostics,
                ..Default::default()
            },
        }
    }

    fn close_ephemeral_resource(&self, type_name: &str, private: &[u8]) -> Vec<ProviderDiagnostic> {
        let msg = pb::close_ephemeral_resource::Request {
            type_name: type_name.to_string(),
            private: Some(private.to_vec()),
        };
        match self
            .call::<_, pb::close_ephemeral_resource::Response>(Rpc::CloseEphemeralResource, msg)
        {
            Ok(resp) => diagnostics_from_proto(resp.diagnostics),
            Err(d) => d,
        }
    }

    fn stop(&self) {
        let _ = self.call::<_, pb::stop_provider::Response>(
            Rpc::StopProvider,
            pb::stop_provider::Request {},
        );
    }

    fn close(&self) {
        self.client.close();
    }

    fn crashed(&self) -> bool {
        self.client.has_exited()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagnostics_keep_severity_and_attribute_paths() {
        let d = pb::Diagnostic {
            severity: pb::diagnostic::Severity::Warning as i32,
            summary: "s".into(),
            detail: "d".into(),
            attribute: Some(pb::AttributePath {
                steps: vec![
                    pb::attribute_path::Step {
                        selector: Some(pb::attribute_path::step::Selector::AttributeName(
                            "rule".into(),
                        )),
                    },
                    pb::attribute_path::Step {
                        selector: Some(pb::attribute_path::step::Selector::ElementKeyInt(2)),
                    },
                    pb::attribute_path::Step {
                        selector: Some(pb::attribute_path::step::Selector::ElementKeyString(
                            "k".into(),
                        )),
                    },
                ],
            }),
        };
        let out = diagnostics_from_proto(vec![
            d,
            pb::Diagnostic {
                severity: 1,
                ..Default::default()
            },
        ]);
        assert_eq!(out[0].severity, Severity::Warning);
        assert_eq!(
            out[0].attribute,
            Some(vec![
                PathStep::Attr("rule".into()),
                PathStep::Index(Value::int(2)),
                PathStep::Index(Value::string("k"))
            ])
        );
        assert_eq!(out[1].severity, Severity::Error);
        assert_eq!(out[1].attribute, None);
    }

    #[test]
    fn dynamic_values_decode_msgpack_then_json_then_null() {
        let ty = Type::object([("id".to_string(), Type::String)]);
        let v = Value::object(
            [("id".to_string(), Value::string("1"))]
                .into_iter()
                .collect(),
        );
        let dv = encode_value(&v, &ty).unwrap();
        assert_eq!(dv.msgpack, vec![0x81, 0xa2, b'i', b'd', 0xa1, b'1']);
        assert_eq!(decode_value(Some(&dv), &ty).unwrap(), v);
        let json = DynamicValue {
            msgpack: Vec::new(),
            json: br#"{"id":"1"}"#.to_vec(),
        };
        assert_eq!(decode_value(Some(&json), &ty).unwrap(), v);
        assert_eq!(
            decode_value(Some(&DynamicValue::default()), &ty).unwrap(),
            Value::null(ty.clone())
        );
        assert_eq!(decode_value(None, &ty).unwrap(), Value::null(ty));
    }
}
