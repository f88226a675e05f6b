//! Loading a plugin's schemas: GetProviderSchema and GetResourceIdentitySchemas asked (or
//! taken from the cache kept across runs, by package hash), and their protocol forms turned
//! into ferro's schemas, function declarations and identity schemas.

use super::*;

/// The schema cache file of the installed provider package whose hash is `h1` (as the lock
/// file records it): `.terraform/ferro-schema-cache/h1-….pb` under `working_dir`.
///
/// The file holds the provider's GetProviderSchema answer as it came (protocol-6 encoding).
/// It is read only when that answer said the call is optional
/// (`get_provider_schema_optional`), as Terraform reuses a schema within a run only then; a
/// different package has a different hash and so a file of its own.
pub fn schema_cache_path(working_dir: &Path, h1: &str) -> std::path::PathBuf {
    let name: String = h1
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    working_dir
        .join(".terraform/ferro-schema-cache")
        .join(format!("{name}.pb"))
}

pub(super) struct LoadedSchema {
    pub(super) schema: ProviderSchema,
    /// The encoded null `provider_meta` value when the provider declares a provider_meta
    /// schema (Terraform then always sends one; ferro has no `provider_meta` blocks yet).
    pub(super) null_provider_meta: Option<DynamicValue>,
}

impl GrpcProvider {
    /// The provider's GetProviderSchema and GetResourceIdentitySchemas answers (None for the
    /// second when the provider predates the call): from the cache when one was kept and the
    /// provider said asking is optional, else asked (and kept, when it is optional).
    fn schema_response(&self) -> Result<CachedSchemas, Vec<ProviderDiagnostic>> {
        use prost::Message;
        let optional = |c: &CachedSchemas| {
            c.schema
                .as_ref()
                .and_then(|r| r.server_capabilities.as_ref())
                .is_some_and(|c| c.get_provider_schema_optional)
        };
        if let Some(path) = &self.schema_cache {
            let cached = std::fs::read(path)
                .ok()
                .and_then(|bytes| CachedSchemas::decode(&bytes[..]).ok());
            if let Some(c) = cached.filter(optional) {
                return Ok(c);
            }
        }
        let resp: pb::get_provider_schema::Response = if self.client.protocol_version() == 5 {
            widen_v5_schema_response(self.call::<_, v5::get_provider_schema::Response>(
                Rpc::GetProviderSchema,
                v5::get_provider_schema::Request {},
            )?)
        } else {
            self.call(Rpc::GetProviderSchema, pb::get_provider_schema::Request {})?
        };
        let clean = |ds: &[pb::Diagnostic]| {
            !ds.iter()
                .any(|d| d.severity != pb::diagnostic::Severity::Warning as i32)
        };
        if !clean(&resp.diagnostics) {
            // Not asked further: loading reports the schema's errors.
            return Ok(CachedSchemas {
                schema: Some(resp),
                identities: None,
            });
        }
        let identities = self.identity_response()?;
        let answers = CachedSchemas {
            schema: Some(resp),
            identities,
        };
        let identities_clean = answers
            .identities
            .as_ref()
            .is_none_or(|r| clean(&r.diagnostics));
        if let (Some(path), true) = (&self.schema_cache, identities_clean && optional(&answers)) {
            // A cache that cannot be written is only a cache: the next run asks again.
            let _ = write_atomically(path, &answers.encode_to_vec());
        }
        Ok(answers)
    }

    pub(super) fn load_schema(&self) -> Result<LoadedSchema, Vec<ProviderDiagnostic>> {
        let answers = self.schema_response()?;
        let resp = answers.schema.unwrap_or_default();
        let diags = diagnostics_from_proto(resp.diagnostics);
        if crate::has_errors(&diags) {
            return Err(diags);
        }
        let addr = self.client.provider_addr();
        let bad = |msg: String| {
            vec![ProviderDiagnostic::error(
                "Invalid provider schema",
                format!("Provider {addr} returned an invalid schema: {msg}."),
            )]
        };
        let provider = match &resp.provider {
            Some(s) => schema_from_proto(s, "the provider configuration").map_err(bad)?,
            None => return Err(bad("missing provider schema".into())),
        };
        let mut out = ProviderSchema {
            provider,
            move_resource_state: resp
                .server_capabilities
                .as_ref()
                .is_some_and(|c| c.move_resource_state),
            ..Default::default()
        };
        out.functions = functions_from_proto(&resp.functions).map_err(bad)?;
        for (name, s) in &resp.resource_schemas {
            out.resources.insert(
                name.clone(),
                schema_from_proto(s, &format!("resource type {name:?}")).map_err(bad)?,
            );
        }
        for (name, s) in &resp.ephemeral_resource_schemas {
            out.ephemeral_resources.insert(
                name.clone(),
                schema_from_proto(s, &format!("ephemeral resource {name:?}")).map_err(bad)?,
            );
        }
        for (name, s) in &resp.data_source_schemas {
            out.data_sources.insert(
                name.clone(),
                schema_from_proto(s, &format!("data source {name:?}")).map_err(bad)?,
            );
        }
        out.identities = identity_schemas(answers.identities).map_err(|e| match e {
            IdentityError::Diagnostics(d) => d,
            IdentityError::Invalid(m) => bad(m),
        })?;
        let null_provider_meta = match &resp.provider_meta {
            Some(s) => {
                let ty = schema_from_proto(s, "provider_meta")
                    .map_err(bad)?
                    .block
                    .implied_type();
                Some(encode_value(&Value::null(ty.clone()), &ty).map_err(bad)?)
            }
            None => None,
        };
        Ok(LoadedSchema {
            schema: out,
            null_provider_meta,
        })
    }

    /// GetResourceIdentitySchemas (protocol 5.9/6.9+): None for a provider that predates it.
    fn identity_response(
        &self,
    ) -> Result<Option<pb::get_resource_identity_schemas::Response>, Vec<ProviderDiagnostic>> {
        match self.call(
            Rpc::GetResourceIdentitySchemas,
            pb::get_resource_identity_schemas::Request {},
        ) {
            Ok(r) => Ok(Some(r)),
            Err(d) if d.iter().any(|d| d.summary == "Unsupported plugin method") => Ok(None),
            Err(d) => Err(d),
        }
    }
}

/// Why the identity schemas could not be had.
enum IdentityError {
    Diagnostics(Vec<ProviderDiagnostic>),
    Invalid(String),
}

/// Identity schemas from their protocol form (attribute types are JSON type expressions).
pub(crate) fn identity_schemas_from_proto(
    m: &BTreeMap<String, pb::ResourceIdentitySchema>,
) -> Result<BTreeMap<String, IdentitySchema>, String> {
    let mut out = BTreeMap::new();
    for (name, s) in m {
        let version = u64::try_from(s.version).map_err(|_| {
            format!(
                "the identity schema of resource type {name:?} has a negative version {}",
                s.version
            )
        })?;
        let mut attributes = BTreeMap::new();
        for a in &s.identity_attributes {
            let ty = serde_json::from_slice(&a.r#type)
                .map_err(|e| e.to_string())
                .and_then(|j| ferro_value::json::type_from_json(&j))
                .map_err(|e| {
                    format!(
                        "identity attribute {:?} of resource type {name:?}: {e}",
                        a.name
                    )
                })?;
            attributes.insert(
                a.name.clone(),
                IdentityAttribute {
                    ty,
                    required_for_import: a.required_for_import,
                    optional_for_import: a.optional_for_import,
                    description: a.description.clone(),
                },
            );
        }
        out.insert(
            name.clone(),
            IdentitySchema {
                version,
                attributes,
            },
        );
    }
    Ok(out)
}

/// Function declarations from their protocol form (types are JSON type expressions).
pub(crate) fn functions_from_proto(
    fs: &BTreeMap<String, pb::Function>,
) -> Result<BTreeMap<String, FunctionDecl>, String> {
    let ty = |name: &str, b: &[u8]| -> Result<Type, String> {
        serde_json::from_slice(b)
            .map_err(|e| e.to_string())
            .and_then(|j| ferro_value::json::type_from_json(&j))
            .map_err(|e| format!("function {name:?}: {e}"))
    };
    let markdown = |k: i32| k == pb::StringKind::Markdown as i32;
    let mut out = BTreeMap::new();
    for (name, f) in fs {
        let param = |p: &pb::function::Parameter| -> Result<FunctionParam, String> {
            Ok(FunctionParam {
                name: p.name.clone(),
                ty: ty(name, &p.r#type)?,
                allow_null: p.allow_null_value,
                allow_unknown: p.allow_unknown_values,
                description: p.description.clone(),
                description_markdown: markdown(p.description_kind),
            })
        };
        let decl = FunctionDecl {
            params: f.parameters.iter().map(param).collect::<Result<_, _>>()?,
            variadic: f.variadic_parameter.as_ref().map(param).transpose()?,
            return_type: match &f.r#return {
                Some(r) => ty(name, &r.r#type)?,
                None => return Err(format!("function {name:?} has no return type")),
            },
            summary: f.summary.clone(),
            description: f.description.clone(),
            description_markdown: markdown(f.description_kind),
            deprecation_message: f.deprecation_message.clone(),
        };
        out.insert(name.clone(), decl);
    }
    Ok(out)
}

/// What the schema cache file holds: the provider's answers as they came (protocol-6 form).
#[derive(Clone, PartialEq, prost::Message)]
struct CachedSchemas {
    #[prost(message, optional, tag = "1")]
    schema: Option<pb::get_provider_schema::Response>,
    /// None: the provider does not have GetResourceIdentitySchemas.
    #[prost(message, optional, tag = "2")]
    identities: Option<pb::get_resource_identity_schemas::Response>,
}

/// The identity schemas of a GetResourceIdentitySchemas answer (none without one).
fn identity_schemas(
    resp: Option<pb::get_resource_identity_schemas::Response>,
) -> Result<BTreeMap<String, IdentitySchema>, IdentityError> {
    let Some(resp) = resp else {
        return Ok(BTreeMap::new());
    };
    let diags = diagnostics_from_proto(resp.diagnostics);
    if crate::has_errors(&diags) {
        return Err(IdentityError::Diagnostics(diags));
    }
    identity_schemas_from_proto(&resp.identity_schemas).map_err(IdentityError::Invalid)
}

/// Write `bytes` to `path` through a temporary file beside it, so that a reader never sees
/// half a file (two runs may write the same cache).
fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}
