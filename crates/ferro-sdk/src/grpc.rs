//! The tfplugin6 `Provider` gRPC service over any ferro [`Provider`]: decodes the msgpack/JSON
//! `DynamicValue`s against the schema's implied types, calls the provider, and encodes the
//! answers (msgpack), schemas and diagnostics back into the generated protocol types.

use ferro_provider::plugin::proto::tfplugin6 as pb;
use ferro_provider::plugin::{decode_value, encode_value};
use ferro_provider::{
    ApplyRequest, ImportRequest, MoveRequest, PlanRequest, Provider, ProviderDiagnostic,
    ProviderSchema, ReadDataRequest, ReadRequest, Severity, UpgradeRequest,
};
use ferro_value::schema::{Attribute, Block, FunctionDecl, FunctionParam, NestingMode, Schema};
use ferro_value::{PathStep, Type, Value, ValueKind};
use std::sync::{Arc, OnceLock};
use tonic::{Request, Response, Status};

/// Serves one provider object.
pub struct ProviderService {
    inner: Arc<dyn Provider>,
    schema: OnceLock<Result<ProviderSchema, Vec<ProviderDiagnostic>>>,
}

impl ProviderService {
    pub fn new(inner: Arc<dyn Provider>) -> ProviderService {
        // The provider answers `deferred` whenever its logic says so: this service decides,
        // call by call, whether the client allows it ([`deferred_answer`]).
        inner.allow_deferral();
        ProviderService {
            inner,
            schema: OnceLock::new(),
        }
    }

    fn schema(&self) -> Result<&ProviderSchema, Vec<ProviderDiagnostic>> {
        self.schema
            .get_or_init(|| self.inner.schema())
            .as_ref()
            .map_err(Clone::clone)
    }

    fn resource_type(&self, name: &str) -> Result<Type, Vec<ProviderDiagnostic>> {
        let s = self.schema()?;
        s.resources
            .get(name)
            .map(|s| s.block.implied_type())
            .ok_or_else(|| unknown_type("resource type", name))
    }

    /// The identity object type of a resource type, when it has an identity schema.
    fn identity_type(&self, name: &str) -> Option<Type> {
        let s = self.schema().ok()?;
        s.identities.get(name).map(|i| i.implied_type())
    }

    fn data_type(&self, name: &str) -> Result<Type, Vec<ProviderDiagnostic>> {
        let s = self.schema()?;
        s.data_sources
            .get(name)
            .map(|s| s.block.implied_type())
            .ok_or_else(|| unknown_type("data source", name))
    }

    fn ephemeral_type(&self, name: &str) -> Result<Type, Vec<ProviderDiagnostic>> {
        let s = self.schema()?;
        s.ephemeral_resources
            .get(name)
            .map(|s| s.block.implied_type())
            .ok_or_else(|| unknown_type("ephemeral resource type", name))
    }

    fn provider_type(&self) -> Result<Type, Vec<ProviderDiagnostic>> {
        Ok(self.schema()?.provider.block.implied_type())
    }
    /// The GetProviderSchema answer. For protocol 5 (`v5`), which cannot describe nested
    /// attributes, a schema that has any is an error naming them.
    /// A client that does not say it keeps write-only attributes out of plans and state
    /// (Terraform before 1.11) must not be given a value for one: it would store it.
    fn write_only_refused(&self, type_name: &str, config: &Value) -> Vec<ProviderDiagnostic> {
        let Ok(schema) = blocking(|| self.schema().cloned()) else {
            return Vec::new();
        };
        let Some(rs) = schema.resources.get(type_name) else {
            return Vec::new();
        };
        rs.block
            .write_only_values(config)
            .into_iter()
            .map(|path| {
                let name = crate::values::path_name(&path);
                ProviderDiagnostic {
                    attribute: Some(path),
                    ..ProviderDiagnostic::error(
                        "Write-only attribute not allowed",
                        format!("The resource configuration sets the write-only attribute {name:?}, and this client does not support write-only attributes: they need Terraform 1.11 or later, OpenTofu 1.11 or later, or ferro."),
                    )
                }
            })
            .collect()
    }

    pub fn schema_response(&self, v5: bool) -> pb::get_provider_schema::Response {
        let mut resp = pb::get_provider_schema::Response::default();
        match blocking(|| self.schema().cloned()) {
            Ok(s) => {
                let nested: Vec<String> = s
                    .resources
                    .iter()
                    .chain(&s.data_sources)
                    .chain(&s.ephemeral_resources)
                    .chain([(&String::from("provider"), &s.provider)])
                    .flat_map(|(n, s)| nested_attributes(&s.block, n))
                    .collect();
                if v5 && !nested.is_empty() {
                    resp.provider = Some(schema_to_proto(&Schema::default()));
                    resp.diagnostics = diags(vec![ProviderDiagnostic::error(
                        "Protocol version 5 cannot describe nested attributes",
                        format!(
                            "This provider uses nested attributes ({}), which need plugin protocol 6 (Terraform 1.0 or later).",
                            nested.join(", ")
                        ),
                    )]);
                    return resp;
                }
                resp.provider = Some(schema_to_proto(&s.provider));
                resp.server_capabilities = Some(server_capabilities(&s));
                resp.resource_schemas = s
                    .resources
                    .iter()
                    .map(|(n, s)| (n.clone(), schema_to_proto(s)))
                    .collect();
                resp.data_source_schemas = s
                    .data_sources
                    .iter()
                    .map(|(n, s)| (n.clone(), schema_to_proto(s)))
                    .collect();
                resp.functions = functions_to_proto(&s.functions);
                resp.ephemeral_resource_schemas = s
                    .ephemeral_resources
                    .iter()
                    .map(|(n, s)| (n.clone(), schema_to_proto(s)))
                    .collect();
            }
            Err(d) => {
                resp.provider = Some(schema_to_proto(&Schema::default()));
                resp.diagnostics = diags(d);
            }
        }
        resp
    }
}

/// What the SDK tells clients it can do. Every call decodes with the schema the provider
/// holds in process, so a client need not ask for the schema first
/// (`get_provider_schema_optional`): one that kept it from an earlier run may skip the call.
fn server_capabilities(s: &ProviderSchema) -> pb::ServerCapabilities {
    pb::ServerCapabilities {
        plan_destroy: false,
        get_provider_schema_optional: true,
        move_resource_state: s.move_resource_state,
    }
}

/// The nested attributes of a block and its nested blocks, as `owner.attribute`.
/// Function declarations in their protocol form (types as JSON type expressions). Terraform
/// 1.0.3 skips the field (an unknown field to it).
pub fn functions_to_proto(
    fs: &std::collections::BTreeMap<String, FunctionDecl>,
) -> std::collections::BTreeMap<String, pb::Function> {
    let param = |p: &FunctionParam| pb::function::Parameter {
        name: p.name.clone(),
        r#type: ferro_value::json::type_to_json_string(&p.ty).into_bytes(),
        allow_null_value: p.allow_null,
        allow_unknown_values: p.allow_unknown,
        description: p.description.clone(),
        description_kind: kind(p.description_markdown),
    };
    fs.iter()
        .map(|(name, f)| {
            let proto = pb::Function {
                parameters: f.params.iter().map(param).collect(),
                variadic_parameter: f.variadic.as_ref().map(param),
                r#return: Some(pb::function::Return {
                    r#type: ferro_value::json::type_to_json_string(&f.return_type).into_bytes(),
                }),
                summary: f.summary.clone(),
                description: f.description.clone(),
                description_kind: kind(f.description_markdown),
                deprecation_message: f.deprecation_message.clone(),
            };
            (name.clone(), proto)
        })
        .collect()
}

fn nested_attributes(b: &Block, owner: &str) -> Vec<String> {
    let mut out: Vec<String> = b
        .attributes
        .iter()
        .filter(|(_, a)| a.nested.is_some())
        .map(|(n, _)| format!("{owner}.{n}"))
        .collect();
    for (n, nb) in &b.block_types {
        out.extend(nested_attributes(&nb.block, &format!("{owner}.{n}")));
    }
    out
}

/// A point in time in the protocol's timestamp shape.
fn timestamp(t: std::time::SystemTime) -> pb::Timestamp {
    let d = t.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    pb::Timestamp {
        seconds: i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
        nanos: d.subsec_nanos() as i32,
    }
}

fn unknown_type(what: &str, name: &str) -> Vec<ProviderDiagnostic> {
    vec![ProviderDiagnostic::error(
        format!("Unknown {what}"),
        format!("This provider has no {what} {name:?}."),
    )]
}

fn decode(dv: Option<&pb::DynamicValue>, ty: &Type) -> Result<Value, Vec<ProviderDiagnostic>> {
    decode_value(dv, ty).map_err(|e| {
        vec![ProviderDiagnostic::error(
            "Invalid value from Terraform",
            format!("The value Terraform sent does not match the schema: {e}"),
        )]
    })
}

fn encode(v: &Value, ty: &Type, diags: &mut Vec<pb::Diagnostic>) -> Option<pb::DynamicValue> {
    match encode_value(&v.deep_unmark().0, ty) {
        Ok(dv) => Some(dv),
        Err(e) => {
            diags.push(diag(ProviderDiagnostic::error(
                "Invalid value from the provider",
                format!("The provider's answer does not match its schema: {e}"),
            )));
            None
        }
    }
}

/// An identity core sent (None when it sent none or the type has no identity schema).
fn decode_identity(
    data: Option<&pb::ResourceIdentityData>,
    ty: Option<&Type>,
) -> Result<Option<Value>, Vec<ProviderDiagnostic>> {
    let (Some(dv), Some(ty)) = (data.and_then(|d| d.identity_data.as_ref()), ty) else {
        return Ok(None);
    };
    let v = decode(Some(dv), ty)?;
    Ok((!v.is_null()).then_some(v))
}

/// An identity for an answer.
fn encode_identity(
    v: Option<&Value>,
    ty: Option<&Type>,
    diags: &mut Vec<pb::Diagnostic>,
) -> Option<pb::ResourceIdentityData> {
    let (v, ty) = (v?, ty?);
    Some(pb::ResourceIdentityData {
        identity_data: Some(encode(v, ty, diags)?),
    })
}

/// A ferro diagnostic in wire form.
pub fn diag(d: ProviderDiagnostic) -> pb::Diagnostic {
    pb::Diagnostic {
        severity: match d.severity {
            Severity::Error => pb::diagnostic::Severity::Error as i32,
            Severity::Warning => pb::diagnostic::Severity::Warning as i32,
        },
        summary: d.summary,
        detail: d.detail,
        attribute: d.attribute.map(|p| path(&p)),
    }
}

/// Whether a call's client capabilities allow a `deferred` answer.
fn deferral_allowed(c: Option<&pb::ClientCapabilities>) -> bool {
    c.is_some_and(|c| c.deferral_allowed)
}

/// The `deferred` field of an answer: the provider's reason when the client allows deferral;
/// otherwise none, and an error in `diagnostics` (as terraform-plugin-framework answers).
fn deferred_answer(
    reason: Option<ferro_provider::DeferralReason>,
    allowed: bool,
    what: &str,
    type_name: &str,
    diagnostics: &mut Vec<pb::Diagnostic>,
) -> Option<pb::Deferred> {
    let reason = reason?;
    if allowed {
        Some(pb::Deferred {
            reason: reason.to_proto(),
        })
    } else {
        diagnostics.push(diag(crate::provider::deferral_refused(what, type_name)));
        None
    }
}

fn diags(ds: Vec<ProviderDiagnostic>) -> Vec<pb::Diagnostic> {
    ds.into_iter().map(diag).collect()
}

/// An attribute path in wire form (set elements cannot be named: the path stops there).
pub fn path(steps: &[PathStep]) -> pb::AttributePath {
    use pb::attribute_path::step::Selector;
    let mut out = Vec::new();
    for s in steps {
        let sel = match s {
            PathStep::Attr(n) => Selector::AttributeName(n.clone()),
            PathStep::Index(v) => match &v.kind {
                ValueKind::String(k) => Selector::ElementKeyString(k.to_string()),
                ValueKind::Number(n) => match n.to_i64() {
                    Some(i) => Selector::ElementKeyInt(i),
                    None => break,
                },
                _ => break,
            },
        };
        out.push(pb::attribute_path::Step {
            selector: Some(sel),
        });
    }
    pb::AttributePath { steps: out }
}

/// A ferro schema in wire form.
pub fn schema_to_proto(s: &Schema) -> pb::Schema {
    pb::Schema {
        version: s.version as i64,
        block: Some(block_to_proto(&s.block)),
    }
}

fn block_to_proto(b: &Block) -> pb::schema::Block {
    use pb::schema::nested_block::NestingMode as Wire;
    pb::schema::Block {
        attributes: b
            .attributes
            .iter()
            .map(|(name, a)| attribute_to_proto(name, a))
            .collect(),
        block_types: b
            .block_types
            .iter()
            .map(|(name, nb)| pb::schema::NestedBlock {
                type_name: name.clone(),
                block: Some(block_to_proto(&nb.block)),
                nesting: match nb.nesting {
                    NestingMode::Single => Wire::Single,
                    NestingMode::Group => Wire::Group,
                    NestingMode::List => Wire::List,
                    NestingMode::Set => Wire::Set,
                    NestingMode::Map => Wire::Map,
                } as i32,
                min_items: nb.min_items as i64,
                max_items: nb.max_items as i64,
            })
            .collect(),
        description: b.description.clone(),
        description_kind: kind(b.description_markdown),
        deprecated: b.deprecated,
        ..Default::default()
    }
}

fn kind(markdown: bool) -> i32 {
    if markdown {
        pb::StringKind::Markdown as i32
    } else {
        pb::StringKind::Plain as i32
    }
}

/// An identity schema in wire form.
pub fn identity_schema_to_proto(s: &ferro_provider::IdentitySchema) -> pb::ResourceIdentitySchema {
    pb::ResourceIdentitySchema {
        version: s.version as i64,
        identity_attributes: s
            .attributes
            .iter()
            .map(
                |(name, a)| pb::resource_identity_schema::IdentityAttribute {
                    name: name.clone(),
                    r#type: ferro_value::json::type_to_json_string(&a.ty).into_bytes(),
                    required_for_import: a.required_for_import,
                    optional_for_import: a.optional_for_import,
                    description: a.description.clone(),
                },
            )
            .collect(),
    }
}

/// An attribute in wire form: a type, or (protocol 6 nested attributes) an object description.
fn attribute_to_proto(name: &str, a: &Attribute) -> pb::schema::Attribute {
    use pb::schema::object::NestingMode as Wire;
    let (r#type, nested_type) = match &a.nested {
        Some(n) => (
            Vec::new(),
            Some(pb::schema::Object {
                attributes: n
                    .attributes
                    .iter()
                    .map(|(name, a)| attribute_to_proto(name, a))
                    .collect(),
                nesting: match n.nesting {
                    NestingMode::Single | NestingMode::Group => Wire::Single,
                    NestingMode::List => Wire::List,
                    NestingMode::Set => Wire::Set,
                    NestingMode::Map => Wire::Map,
                } as i32,
                min_items: n.min_items as i64,
                max_items: n.max_items as i64,
            }),
        ),
        None => (
            ferro_value::json::type_to_json_string(&a.ty).into_bytes(),
            None,
        ),
    };
    pb::schema::Attribute {
        name: name.to_string(),
        r#type,
        nested_type,
        description: a.description.clone(),
        required: a.required,
        optional: a.optional,
        computed: a.computed,
        sensitive: a.sensitive,
        description_kind: kind(a.description_markdown),
        deprecated: a.deprecated,
        write_only: a.write_only,
    }
}

/// Run blocking provider logic without stalling the runtime's other connections.
fn blocking<T>(f: impl FnOnce() -> T) -> T {
    tokio::task::block_in_place(f)
}

type Rpc<T> = Result<Response<T>, Status>;

#[tonic::async_trait]
impl pb::provider_server::Provider for ProviderService {
    async fn get_metadata(
        &self,
        _: Request<pb::get_metadata::Request>,
    ) -> Rpc<pb::get_metadata::Response> {
        let mut resp = pb::get_metadata::Response::default();
        match blocking(|| self.schema().cloned()) {
            Ok(s) => {
                resp.server_capabilities = Some(server_capabilities(&s));
                resp.resources = s
                    .resources
                    .keys()
                    .map(|n| pb::get_metadata::ResourceMetadata {
                        type_name: n.clone(),
                    })
                    .collect();
                resp.data_sources = s
                    .data_sources
                    .keys()
                    .map(|n| pb::get_metadata::DataSourceMetadata {
                        type_name: n.clone(),
                    })
                    .collect();
                resp.functions = s
                    .functions
                    .keys()
                    .map(|n| pb::get_metadata::FunctionMetadata { name: n.clone() })
                    .collect();
                resp.ephemeral_resources = s
                    .ephemeral_resources
                    .keys()
                    .map(|n| pb::get_metadata::EphemeralResourceMetadata {
                        type_name: n.clone(),
                    })
                    .collect();
            }
            Err(d) => resp.diagnostics = diags(d),
        }
        Ok(Response::new(resp))
    }

    async fn get_provider_schema(
        &self,
        _: Request<pb::get_provider_schema::Request>,
    ) -> Rpc<pb::get_provider_schema::Response> {
        Ok(Response::new(self.schema_response(false)))
    }

    async fn validate_provider_config(
        &self,
        req: Request<pb::validate_provider_config::Request>,
    ) -> Rpc<pb::validate_provider_config::Response> {
        let req = req.into_inner();
        let d = self
            .provider_type()
            .and_then(|ty| decode(req.config.as_ref(), &ty))
            .map(|cfg| blocking(|| self.inner.validate_provider_config(&cfg)))
            .unwrap_or_else(|d| d);
        Ok(Response::new(pb::validate_provider_config::Response {
            diagnostics: diags(d),
        }))
    }

    async fn validate_resource_config(
        &self,
        req: Request<pb::validate_resource_config::Request>,
    ) -> Rpc<pb::validate_resource_config::Response> {
        let req = req.into_inner();
        let allowed = req
            .client_capabilities
            .as_ref()
            .is_some_and(|c| c.write_only_attributes_allowed);
        let d = self
            .resource_type(&req.type_name)
            .and_then(|ty| decode(req.config.as_ref(), &ty))
            .map(|cfg| {
                let mut d = if allowed {
                    Vec::new()
                } else {
                    self.write_only_refused(&req.type_name, &cfg)
                };
                d.extend(blocking(|| {
                    self.inner.validate_resource_config(&req.type_name, &cfg)
                }));
                d
            })
            .unwrap_or_else(|d| d);
        Ok(Response::new(pb::validate_resource_config::Response {
            diagnostics: diags(d),
        }))
    }

    async fn validate_data_resource_config(
        &self,
        req: Request<pb::validate_data_resource_config::Request>,
    ) -> Rpc<pb::validate_data_resource_config::Response> {
        let req = req.into_inner();
        let d = self
            .data_type(&req.type_name)
            .and_then(|ty| decode(req.config.as_ref(), &ty))
            .map(|cfg| blocking(|| self.inner.validate_data_source_config(&req.type_name, &cfg)))
            .unwrap_or_else(|d| d);
        Ok(Response::new(pb::validate_data_resource_config::Response {
            diagnostics: diags(d),
        }))
    }

    async fn upgrade_resource_state(
        &self,
        req: Request<pb::upgrade_resource_state::Request>,
    ) -> Rpc<pb::upgrade_resource_state::Response> {
        let req = req.into_inner();
        let mut resp = pb::upgrade_resource_state::Response::default();
        let ty = match self.resource_type(&req.type_name) {
            Ok(ty) => ty,
            Err(d) => {
                resp.diagnostics = diags(d);
                return Ok(Response::new(resp));
            }
        };
        let raw = req.raw_state.map(|r| r.json).unwrap_or_default();
        let json: serde_json::Value = match serde_json::from_slice(&raw) {
            Ok(j) => j,
            Err(e) => {
                resp.diagnostics = vec![diag(ProviderDiagnostic::error(
                    "Unable to read stored state",
                    format!("The stored state is not valid JSON: {e}"),
                ))];
                return Ok(Response::new(resp));
            }
        };
        let out = blocking(|| {
            self.inner.upgrade_resource_state(UpgradeRequest {
                type_name: &req.type_name,
                version: req.version.max(0) as u64,
                raw_json: &json,
            })
        });
        resp.diagnostics = diags(out.diagnostics);
        resp.upgraded_state = encode(&out.upgraded_state, &ty, &mut resp.diagnostics);
        Ok(Response::new(resp))
    }

    async fn get_resource_identity_schemas(
        &self,
        _: Request<pb::get_resource_identity_schemas::Request>,
    ) -> Rpc<pb::get_resource_identity_schemas::Response> {
        let mut resp = pb::get_resource_identity_schemas::Response::default();
        match blocking(|| self.schema().cloned()) {
            Ok(s) => {
                resp.identity_schemas = s
                    .identities
                    .iter()
                    .map(|(name, i)| (name.clone(), identity_schema_to_proto(i)))
                    .collect();
            }
            Err(d) => resp.diagnostics = diags(d),
        }
        Ok(Response::new(resp))
    }

    async fn upgrade_resource_identity(
        &self,
        req: Request<pb::upgrade_resource_identity::Request>,
    ) -> Rpc<pb::upgrade_resource_identity::Response> {
        let req = req.into_inner();
        let mut resp = pb::upgrade_resource_identity::Response::default();
        let Some(ty) = self.identity_type(&req.type_name) else {
            resp.diagnostics = diags(unknown_type("resource identity", &req.type_name));
            return Ok(Response::new(resp));
        };
        let raw = req.raw_identity.map(|r| r.json).unwrap_or_default();
        let json: serde_json::Value = match serde_json::from_slice(&raw) {
            Ok(j) => j,
            Err(e) => {
                resp.diagnostics = vec![diag(ProviderDiagnostic::error(
                    "Unable to read stored identity",
                    format!("The stored identity is not valid JSON: {e}"),
                ))];
                return Ok(Response::new(resp));
            }
        };
        let out = blocking(|| {
            self.inner
                .upgrade_resource_identity(ferro_provider::UpgradeIdentityRequest {
                    type_name: &req.type_name,
                    version: req.version.max(0) as u64,
                    raw_json: &json,
                })
        });
        resp.diagnostics = diags(out.diagnostics);
        if !out.upgraded_identity.is_null() {
            resp.upgraded_identity = encode_identity(
                Some(&out.upgraded_identity),
                Some(&ty),
                &mut resp.diagnostics,
            );
        }
        Ok(Response::new(resp))
    }

    async fn configure_provider(
        &self,
        req: Request<pb::configure_provider::Request>,
    ) -> Rpc<pb::configure_provider::Response> {
        let req = req.into_inner();
        let d = self
            .provider_type()
            .and_then(|ty| decode(req.config.as_ref(), &ty))
            .map(|cfg| blocking(|| self.inner.configure(&cfg)))
            .unwrap_or_else(|d| d);
        Ok(Response::new(pb::configure_provider::Response {
            diagnostics: diags(d),
        }))
    }

    async fn read_resource(
        &self,
        req: Request<pb::read_resource::Request>,
    ) -> Rpc<pb::read_resource::Response> {
        let req = req.into_inner();
        let mut resp = pb::read_resource::Response::default();
        let run = |resp: &mut pb::read_resource::Response| -> Result<(), Vec<ProviderDiagnostic>> {
            let ty = self.resource_type(&req.type_name)?;
            let state = decode(req.current_state.as_ref(), &ty)?;
            let id_ty = self.identity_type(&req.type_name);
            let identity = decode_identity(req.current_identity.as_ref(), id_ty.as_ref())?;
            let out = blocking(|| {
                self.inner.read_resource(ReadRequest {
                    type_name: &req.type_name,
                    current_state: &state,
                    private: &req.private,
                    current_identity: identity.as_ref(),
                })
            });
            resp.diagnostics = diags(out.diagnostics);
            resp.new_state = encode(&out.new_state, &ty, &mut resp.diagnostics);
            resp.new_identity = encode_identity(
                out.new_identity.as_ref(),
                id_ty.as_ref(),
                &mut resp.diagnostics,
            );
            resp.private = out.private;
            resp.deferred = deferred_answer(
                out.deferred,
                deferral_allowed(req.client_capabilities.as_ref()),
                "read",
                &req.type_name,
                &mut resp.diagnostics,
            );
            Ok(())
        };
        if let Err(d) = run(&mut resp) {
            resp.diagnostics = diags(d);
        }
        Ok(Response::new(resp))
    }

    async fn plan_resource_change(
        &self,
        req: Request<pb::plan_resource_change::Request>,
    ) -> Rpc<pb::plan_resource_change::Response> {
        let req = req.into_inner();
        let mut resp = pb::plan_resource_change::Response::default();
        let run =
            |resp: &mut pb::plan_resource_change::Response| -> Result<(), Vec<ProviderDiagnostic>> {
                let ty = self.resource_type(&req.type_name)?;
                let prior = decode(req.prior_state.as_ref(), &ty)?;
                let proposed = decode(req.proposed_new_state.as_ref(), &ty)?;
                let config = decode(req.config.as_ref(), &ty)?;
                let id_ty = self.identity_type(&req.type_name);
                let identity = decode_identity(req.prior_identity.as_ref(), id_ty.as_ref())?;
                let out = blocking(|| {
                    self.inner.plan_resource_change(PlanRequest {
                        type_name: &req.type_name,
                        prior_state: &prior,
                        proposed_new_state: &proposed,
                        config: &config,
                        prior_private: &req.prior_private,
                        prior_identity: identity.as_ref(),
                    })
                });
                resp.diagnostics = diags(out.diagnostics);
                resp.planned_state = encode(&out.planned_state, &ty, &mut resp.diagnostics);
                resp.planned_identity = encode_identity(
                    out.planned_identity.as_ref(),
                    id_ty.as_ref(),
                    &mut resp.diagnostics,
                );
                resp.requires_replace = out.requires_replace.iter().map(|p| path(p)).collect();
                resp.planned_private = out.planned_private;
                resp.legacy_type_system = out.legacy_type_system;
                resp.deferred = deferred_answer(
                    out.deferred,
                    deferral_allowed(req.client_capabilities.as_ref()),
                    "change",
                    &req.type_name,
                    &mut resp.diagnostics,
                );
                Ok(())
            };
        if let Err(d) = run(&mut resp) {
            resp.diagnostics = diags(d);
        }
        Ok(Response::new(resp))
    }

    async fn apply_resource_change(
        &self,
        req: Request<pb::apply_resource_change::Request>,
    ) -> Rpc<pb::apply_resource_change::Response> {
        let req = req.into_inner();
        let mut resp = pb::apply_resource_change::Response::default();
        let run = |resp: &mut pb::apply_resource_change::Response| -> Result<(), Vec<ProviderDiagnostic>> {
            let ty = self.resource_type(&req.type_name)?;
            let prior = decode(req.prior_state.as_ref(), &ty)?;
            let planned = decode(req.planned_state.as_ref(), &ty)?;
            let config = decode(req.config.as_ref(), &ty)?;
            let id_ty = self.identity_type(&req.type_name);
            let identity = decode_identity(req.planned_identity.as_ref(), id_ty.as_ref())?;
            let out = blocking(|| {
                self.inner.apply_resource_change(ApplyRequest {
                    type_name: &req.type_name,
                    prior_state: &prior,
                    planned_state: &planned,
                    config: &config,
                    planned_private: &req.planned_private,
                    planned_identity: identity.as_ref(),
                })
            });
            resp.diagnostics = diags(out.diagnostics);
            resp.new_state = encode(&out.new_state, &ty, &mut resp.diagnostics);
            resp.new_identity = encode_identity(
                out.new_identity.as_ref(),
                id_ty.as_ref(),
                &mut resp.diagnostics,
            );
            resp.private = out.private;
            resp.legacy_type_system = out.legacy_type_system;
            Ok(())
        };
        if let Err(d) = run(&mut resp) {
            resp.diagnostics = diags(d);
        }
        Ok(Response::new(resp))
    }

    async fn import_resource_state(
        &self,
        req: Request<pb::import_resource_state::Request>,
    ) -> Rpc<pb::import_resource_state::Response> {
        let req = req.into_inner();
        let mut resp = pb::import_resource_state::Response::default();
        let identity = match (req.identity.as_ref(), self.identity_type(&req.type_name)) {
            (Some(_), None) => {
                resp.diagnostics = diags(vec![ProviderDiagnostic::error(
                    "Resource Identity Not Implemented",
                    format!(
                        "The resource type {:?} has no resource identity.",
                        req.type_name
                    ),
                )]);
                return Ok(Response::new(resp));
            }
            (data, ty) => match decode_identity(data, ty.as_ref()) {
                Ok(v) => v,
                Err(d) => {
                    resp.diagnostics = diags(d);
                    return Ok(Response::new(resp));
                }
            },
        };
        let out = blocking(|| {
            self.inner.import_resource_state(ImportRequest {
                type_name: &req.type_name,
                id: &req.id,
                identity: identity.as_ref(),
            })
        });
        resp.diagnostics = diags(out.diagnostics);
        resp.deferred = deferred_answer(
            out.deferred,
            deferral_allowed(req.client_capabilities.as_ref()),
            "import",
            &req.type_name,
            &mut resp.diagnostics,
        );
        for imp in out.imported {
            match self.resource_type(&imp.type_name) {
                Ok(ty) => {
                    let state = encode(&imp.state, &ty, &mut resp.diagnostics);
                    let identity = encode_identity(
                        imp.identity.as_ref(),
                        self.identity_type(&imp.type_name).as_ref(),
                        &mut resp.diagnostics,
                    );
                    resp.imported_resources
                        .push(pb::import_resource_state::ImportedResource {
                            type_name: imp.type_name,
                            state,
                            private: imp.private,
                            identity,
                        });
                }
                Err(d) => resp.diagnostics.extend(diags(d)),
            }
        }
        Ok(Response::new(resp))
    }

    async fn move_resource_state(
        &self,
        req: Request<pb::move_resource_state::Request>,
    ) -> Rpc<pb::move_resource_state::Response> {
        let req = req.into_inner();
        let mut resp = pb::move_resource_state::Response::default();
        let ty = match self.resource_type(&req.target_type_name) {
            Ok(ty) => ty,
            Err(d) => {
                resp.diagnostics = diags(d);
                return Ok(Response::new(resp));
            }
        };
        let raw = req.source_state.map(|r| r.json).unwrap_or_default();
        let source: serde_json::Value = match serde_json::from_slice(&raw) {
            Ok(j) => j,
            Err(e) => {
                resp.diagnostics = vec![diag(ProviderDiagnostic::error(
                    "Missing Source Resource State",
                    format!("The source object's state given to MoveResourceState is not a JSON object: {e}. This is a bug in the client."),
                ))];
                return Ok(Response::new(resp));
            }
        };
        // The source's identity is of another type's schema: handed on as stored (JSON).
        let source_identity: Option<serde_json::Value> = req
            .source_identity
            .as_ref()
            .and_then(|r| serde_json::from_slice(&r.json).ok());
        let out = blocking(|| {
            self.inner.move_resource_state(MoveRequest {
                source_provider_address: &req.source_provider_address,
                source_type_name: &req.source_type_name,
                source_schema_version: req.source_schema_version.max(0) as u64,
                source_state: &source,
                source_private: &req.source_private,
                target_type_name: &req.target_type_name,
                source_identity: source_identity.as_ref(),
                source_identity_schema_version: req.source_identity_schema_version.max(0) as u64,
            })
        });
        resp.diagnostics = diags(out.diagnostics);
        if !resp
            .diagnostics
            .iter()
            .any(|d| d.severity == pb::diagnostic::Severity::Error as i32)
        {
            resp.target_state = encode(&out.target_state, &ty, &mut resp.diagnostics);
            resp.target_private = out.target_private;
            let id_ty = self.identity_type(&req.target_type_name);
            resp.target_identity = encode_identity(
                out.target_identity.as_ref(),
                id_ty.as_ref(),
                &mut resp.diagnostics,
            );
        }
        Ok(Response::new(resp))
    }

    async fn read_data_source(
        &self,
        req: Request<pb::read_data_source::Request>,
    ) -> Rpc<pb::read_data_source::Response> {
        let req = req.into_inner();
        let mut resp = pb::read_data_source::Response::default();
        let run =
            |resp: &mut pb::read_data_source::Response| -> Result<(), Vec<ProviderDiagnostic>> {
                let ty = self.data_type(&req.type_name)?;
                let config = decode(req.config.as_ref(), &ty)?;
                let out = blocking(|| {
                    self.inner.read_data_source(ReadDataRequest {
                        type_name: &req.type_name,
                        config: &config,
                        address: "",
                    })
                });
                resp.diagnostics = diags(out.diagnostics);
                resp.state = encode(&out.state, &ty, &mut resp.diagnostics);
                resp.deferred = deferred_answer(
                    out.deferred,
                    deferral_allowed(req.client_capabilities.as_ref()),
                    "read",
                    &req.type_name,
                    &mut resp.diagnostics,
                );
                Ok(())
            };
        if let Err(d) = run(&mut resp) {
            resp.diagnostics = diags(d);
        }
        Ok(Response::new(resp))
    }

    async fn get_functions(
        &self,
        _: Request<pb::get_functions::Request>,
    ) -> Rpc<pb::get_functions::Response> {
        let mut resp = pb::get_functions::Response::default();
        match blocking(|| self.schema().cloned()) {
            Ok(s) => resp.functions = functions_to_proto(&s.functions),
            Err(d) => resp.diagnostics = diags(d),
        }
        Ok(Response::new(resp))
    }

    async fn call_function(
        &self,
        req: Request<pb::call_function::Request>,
    ) -> Rpc<pb::call_function::Response> {
        let req = req.into_inner();
        let mut resp = pb::call_function::Response::default();
        let failed = |text: String, argument: Option<i64>| pb::FunctionError {
            text,
            function_argument: argument,
        };
        let decl = match self.schema() {
            Ok(s) => s.functions.get(&req.name).cloned(),
            Err(d) => {
                let text = d
                    .into_iter()
                    .map(|d| d.summary)
                    .collect::<Vec<_>>()
                    .join("; ");
                resp.error = Some(failed(text, None));
                return Ok(Response::new(resp));
            }
        };
        let Some(decl) = decl else {
            resp.error = Some(failed(format!("Function {:?} not found", req.name), None));
            return Ok(Response::new(resp));
        };
        let mut args = Vec::with_capacity(req.arguments.len());
        for (i, a) in req.arguments.iter().enumerate() {
            let ty = decl.param(i).map_or(Type::Dynamic, |p| p.ty.clone());
            match decode_value(Some(a), &ty) {
                Ok(v) => args.push(v),
                Err(e) => {
                    resp.error = Some(failed(e, Some(i as i64)));
                    return Ok(Response::new(resp));
                }
            }
        }
        match blocking(|| self.inner.call_function(&req.name, &args)) {
            Ok(v) => match encode_value(&v, &decl.return_type) {
                Ok(dv) => resp.result = Some(dv),
                Err(e) => resp.error = Some(failed(e, None)),
            },
            Err(e) => {
                resp.error = Some(failed(e.text, e.argument.map(|i| i as i64)));
            }
        }
        Ok(Response::new(resp))
    }

    async fn validate_ephemeral_resource_config(
        &self,
        req: Request<pb::validate_ephemeral_resource_config::Request>,
    ) -> Rpc<pb::validate_ephemeral_resource_config::Response> {
        let req = req.into_inner();
        let d = self
            .ephemeral_type(&req.type_name)
            .and_then(|ty| decode(req.config.as_ref(), &ty))
            .map(|cfg| {
                blocking(|| {
                    self.inner
                        .validate_ephemeral_resource_config(&req.type_name, &cfg)
                })
            })
            .unwrap_or_else(|d| d);
        Ok(Response::new(
            pb::validate_ephemeral_resource_config::Response {
                diagnostics: diags(d),
            },
        ))
    }

    async fn open_ephemeral_resource(
        &self,
        req: Request<pb::open_ephemeral_resource::Request>,
    ) -> Rpc<pb::open_ephemeral_resource::Response> {
        let req = req.into_inner();
        let mut resp = pb::open_ephemeral_resource::Response::default();
        let run = |resp: &mut pb::open_ephemeral_resource::Response| -> Result<(), Vec<ProviderDiagnostic>> {
            let ty = self.ephemeral_type(&req.type_name)?;
            let config = decode(req.config.as_ref(), &ty)?;
            let out = blocking(|| self.inner.open_ephemeral_resource(&req.type_name, &config));
            resp.diagnostics = diags(out.diagnostics);
            resp.result = encode(&out.result, &ty, &mut resp.diagnostics);
            resp.private = Some(out.private);
            resp.renew_at = out.renew_at.map(timestamp);
            Ok(())
        };
        if let Err(d) = run(&mut resp) {
            resp.diagnostics = diags(d);
        }
        Ok(Response::new(resp))
    }

    async fn renew_ephemeral_resource(
        &self,
        req: Request<pb::renew_ephemeral_resource::Request>,
    ) -> Rpc<pb::renew_ephemeral_resource::Response> {
        let req = req.into_inner();
        let private = req.private.unwrap_or_default();
        let out = blocking(|| {
            self.inner
                .renew_ephemeral_resource(&req.type_name, &private)
        });
        Ok(Response::new(pb::renew_ephemeral_resource::Response {
            diagnostics: diags(out.diagnostics),
            renew_at: out.renew_at.map(timestamp),
            private: out.private,
        }))
    }

    async fn close_ephemeral_resource(
        &self,
        req: Request<pb::close_ephemeral_resource::Request>,
    ) -> Rpc<pb::close_ephemeral_resource::Response> {
        let req = req.into_inner();
        let private = req.private.unwrap_or_default();
        let d = blocking(|| {
            self.inner
                .close_ephemeral_resource(&req.type_name, &private)
        });
        Ok(Response::new(pb::close_ephemeral_resource::Response {
            diagnostics: diags(d),
        }))
    }

    async fn stop_provider(
        &self,
        _: Request<pb::stop_provider::Request>,
    ) -> Rpc<pb::stop_provider::Response> {
        self.inner.stop();
        Ok(Response::new(pb::stop_provider::Response::default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Attr, Diags, Resource, ResourceSchema, SdkProvider};
    use pb::provider_server::Provider as _;

    struct Secret;
    impl Resource for Secret {
        fn schema(&self) -> ResourceSchema {
            ResourceSchema::new().attr("token_wo", Attr::string().optional().write_only())
        }
        fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
            Ok(planned.clone())
        }
    }

    /// A client that does not announce write-only support (Terraform before 1.11) is refused
    /// a value for a write-only attribute; one that does, or leaves it null, is not.
    #[test]
    fn write_only_values_need_the_client_capability() {
        let service = ProviderService::new(Arc::new(SdkProvider::new("t").resource("t_s", Secret)));
        let ty = service.resource_type("t_s").unwrap();
        let set = Value::object(
            [("token_wo".to_string(), Value::string("x"))]
                .into_iter()
                .collect(),
        );
        let unset = Value::object(
            [("token_wo".to_string(), Value::null(Type::String))]
                .into_iter()
                .collect(),
        );
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .build()
            .unwrap();
        let validate = |v: &Value, allowed: bool| {
            let req = pb::validate_resource_config::Request {
                type_name: "t_s".into(),
                config: Some(encode_value(v, &ty).unwrap()),
                client_capabilities: Some(pb::ClientCapabilities {
                    deferral_allowed: false,
                    write_only_attributes_allowed: allowed,
                }),
            };
            rt.block_on(service.validate_resource_config(Request::new(req)))
                .unwrap()
                .into_inner()
                .diagnostics
        };
        let refused = validate(&set, false);
        assert_eq!(refused.len(), 1);
        assert_eq!(refused[0].summary, "Write-only attribute not allowed");
        assert!(validate(&set, true).is_empty());
        assert!(validate(&unset, false).is_empty());
    }
}
