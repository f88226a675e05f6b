//! The plugin protocol types, generated at build time from the project's own `.proto` files
//! (`crates/ferro-provider/proto/`): tfplugin5 (5.2+), tfplugin6 (6.0+), go-plugin's controller
//! and stdio services and gRPC health — prost messages plus tonic clients and servers. Also the
//! gRPC method paths of both protocols and the conversion from the wire schema to ferro's
//! [`Schema`].
//!
//! Apart from the schema messages (protocol 5 has no nested attributes and numbers
//! `write_only` differently), every message ferro exchanges has the same encoding in both
//! protocols (PROTOCOL_FACTS §2.4), so the client encodes its requests with the tfplugin6 types
//! for either protocol and only decodes a protocol-5 schema with the tfplugin5 types.

#[allow(clippy::all, missing_docs)]
pub mod tfplugin5 {
    //! Generated from `proto/tfplugin5.proto`.
    include!(concat!(env!("OUT_DIR"), "/tfplugin5.rs"));
}

#[allow(clippy::all, missing_docs)]
pub mod tfplugin6 {
    //! Generated from `proto/tfplugin6.proto`.
    include!(concat!(env!("OUT_DIR"), "/tfplugin6.rs"));
}

#[allow(clippy::all, missing_docs)]
pub mod goplugin {
    //! Generated from `proto/plugin.proto` (go-plugin's `plugin` package).
    include!(concat!(env!("OUT_DIR"), "/plugin.rs"));
}

#[allow(clippy::all, missing_docs)]
pub mod health {
    //! Generated from `proto/health.proto` (`grpc.health.v1`).
    include!(concat!(env!("OUT_DIR"), "/grpc.health.v1.rs"));
}

use ferro_value::schema::{Attribute, Block, NestedAttributes, NestedBlock, NestingMode, Schema};
use ferro_value::{ObjectType, Type};
use std::collections::BTreeMap;
use tfplugin5 as v5;
use tfplugin6 as v6;

/// The RPCs a core calls, named by their protocol-6 names; [`Rpc::path`] gives the method path
/// in the negotiated protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rpc {
    GetProviderSchema,
    ValidateProviderConfig,
    ValidateResourceConfig,
    ValidateDataResourceConfig,
    UpgradeResourceState,
    ConfigureProvider,
    ReadResource,
    PlanResourceChange,
    ApplyResourceChange,
    ImportResourceState,
    ReadDataSource,
    StopProvider,
    GetMetadata,
    GetFunctions,
    CallFunction,
    MoveResourceState,
    ValidateEphemeralResourceConfig,
    OpenEphemeralResource,
    RenewEphemeralResource,
    CloseEphemeralResource,
    GetResourceIdentitySchemas,
    UpgradeResourceIdentity,
}

impl Rpc {
    /// The method name in protocol `version` (5 or 6).
    pub fn method(self, version: u32) -> &'static str {
        let v5 = version == 5;
        match self {
            Rpc::GetProviderSchema if v5 => "GetSchema",
            Rpc::GetProviderSchema => "GetProviderSchema",
            Rpc::ValidateProviderConfig if v5 => "PrepareProviderConfig",
            Rpc::ValidateProviderConfig => "ValidateProviderConfig",
            Rpc::ValidateResourceConfig if v5 => "ValidateResourceTypeConfig",
            Rpc::ValidateResourceConfig => "ValidateResourceConfig",
            Rpc::ValidateDataResourceConfig if v5 => "ValidateDataSourceConfig",
            Rpc::ValidateDataResourceConfig => "ValidateDataResourceConfig",
            Rpc::UpgradeResourceState => "UpgradeResourceState",
            Rpc::ConfigureProvider if v5 => "Configure",
            Rpc::ConfigureProvider => "ConfigureProvider",
            Rpc::ReadResource => "ReadResource",
            Rpc::PlanResourceChange => "PlanResourceChange",
            Rpc::ApplyResourceChange => "ApplyResourceChange",
            Rpc::ImportResourceState => "ImportResourceState",
            Rpc::ReadDataSource => "ReadDataSource",
            Rpc::StopProvider if v5 => "Stop",
            Rpc::StopProvider => "StopProvider",
            Rpc::GetMetadata => "GetMetadata",
            Rpc::GetFunctions => "GetFunctions",
            Rpc::CallFunction => "CallFunction",
            Rpc::MoveResourceState => "MoveResourceState",
            Rpc::ValidateEphemeralResourceConfig => "ValidateEphemeralResourceConfig",
            Rpc::OpenEphemeralResource => "OpenEphemeralResource",
            Rpc::RenewEphemeralResource => "RenewEphemeralResource",
            Rpc::CloseEphemeralResource => "CloseEphemeralResource",
            Rpc::GetResourceIdentitySchemas => "GetResourceIdentitySchemas",
            Rpc::UpgradeResourceIdentity => "UpgradeResourceIdentity",
        }
    }

    /// The gRPC method path, e.g. `/tfplugin5.Provider/GetSchema`.
    pub fn path(self, version: u32) -> String {
        format!("/tfplugin{version}.Provider/{}", self.method(version))
    }
}

/// Method path of go-plugin's controller service (§1.7).
pub const CONTROLLER_SHUTDOWN: &str = "/plugin.GRPCController/Shutdown";
/// Method path of go-plugin's stdio mirroring service (§1.7); absent from older plugins.
pub const STDIO_STREAM: &str = "/plugin.GRPCStdio/StreamStdio";

/// Widen a protocol-5 schema response to the protocol-6 shape (no nested attributes).
pub fn widen_v5_schema_response(
    r: v5::get_provider_schema::Response,
) -> v6::get_provider_schema::Response {
    let conv = |m: BTreeMap<String, v5::Schema>| {
        m.into_iter().map(|(k, v)| (k, widen_schema(v))).collect()
    };
    v6::get_provider_schema::Response {
        provider: r.provider.map(widen_schema),
        resource_schemas: conv(r.resource_schemas),
        data_source_schemas: conv(r.data_source_schemas),
        ephemeral_resource_schemas: conv(r.ephemeral_resource_schemas),
        diagnostics: r.diagnostics.into_iter().map(widen_diagnostic).collect(),
        provider_meta: r.provider_meta.map(widen_schema),
        server_capabilities: r.server_capabilities.map(|c| v6::ServerCapabilities {
            plan_destroy: c.plan_destroy,
            get_provider_schema_optional: c.get_provider_schema_optional,
            move_resource_state: c.move_resource_state,
        }),
        functions: r
            .functions
            .into_iter()
            .map(|(k, f)| (k, widen_function(f)))
            .collect(),
    }
}

/// A protocol 5 function declaration in protocol 6's terms (the messages are the same).
pub fn widen_function(f: v5::Function) -> v6::Function {
    let param = |p: v5::function::Parameter| v6::function::Parameter {
        name: p.name,
        r#type: p.r#type,
        allow_null_value: p.allow_null_value,
        allow_unknown_values: p.allow_unknown_values,
        description: p.description,
        description_kind: p.description_kind,
    };
    v6::Function {
        parameters: f.parameters.into_iter().map(param).collect(),
        variadic_parameter: f.variadic_parameter.map(param),
        r#return: f
            .r#return
            .map(|r| v6::function::Return { r#type: r.r#type }),
        summary: f.summary,
        description: f.description,
        description_kind: f.description_kind,
        deprecation_message: f.deprecation_message,
    }
}

fn widen_schema(s: v5::Schema) -> v6::Schema {
    v6::Schema {
        version: s.version,
        block: s.block.map(widen_block),
    }
}

fn widen_block(b: v5::schema::Block) -> v6::schema::Block {
    v6::schema::Block {
        version: b.version,
        attributes: b.attributes.into_iter().map(widen_attribute).collect(),
        block_types: b
            .block_types
            .into_iter()
            .map(|nb| v6::schema::NestedBlock {
                type_name: nb.type_name,
                block: nb.block.map(widen_block),
                nesting: nb.nesting,
                min_items: nb.min_items,
                max_items: nb.max_items,
            })
            .collect(),
        description: b.description,
        description_kind: b.description_kind,
        deprecated: b.deprecated,
    }
}

fn widen_attribute(a: v5::schema::Attribute) -> v6::schema::Attribute {
    v6::schema::Attribute {
        name: a.name,
        r#type: a.r#type,
        nested_type: None,
        description: a.description,
        required: a.required,
        optional: a.optional,
        computed: a.computed,
        sensitive: a.sensitive,
        description_kind: a.description_kind,
        deprecated: a.deprecated,
        write_only: a.write_only,
    }
}

fn widen_diagnostic(d: v5::Diagnostic) -> v6::Diagnostic {
    v6::Diagnostic {
        severity: d.severity,
        summary: d.summary,
        detail: d.detail,
        attribute: d.attribute.map(|p| v6::AttributePath {
            steps: p
                .steps
                .into_iter()
                .map(|st| v6::attribute_path::Step {
                    selector: st.selector.map(|sel| {
                        use v5::attribute_path::step::Selector as S5;
                        use v6::attribute_path::step::Selector as S6;
                        match sel {
                            S5::AttributeName(n) => S6::AttributeName(n),
                            S5::ElementKeyString(k) => S6::ElementKeyString(k),
                            S5::ElementKeyInt(i) => S6::ElementKeyInt(i),
                        }
                    }),
                })
                .collect(),
        }),
    }
}

/// Convert a wire schema (protocol 5 schemas are first widened to the protocol 6 shape).
/// `what` names the schema in errors ("resource type \"null_resource\"").
pub fn schema_from_proto(s: &v6::Schema, what: &str) -> Result<Schema, String> {
    if s.version < 0 {
        return Err(format!(
            "the schema of {what} has a negative version {}",
            s.version
        ));
    }
    let block = match &s.block {
        Some(b) => block_from_proto(b, what)?,
        None => return Err(format!("the schema of {what} has no block")),
    };
    Ok(Schema::new(s.version as u64, block))
}

fn block_from_proto(b: &v6::schema::Block, what: &str) -> Result<Block, String> {
    let mut out = Block {
        description: b.description.clone(),
        description_markdown: b.description_kind == v6::StringKind::Markdown as i32,
        deprecated: b.deprecated,
        ..Block::default()
    };
    for a in &b.attributes {
        out.attributes
            .insert(a.name.clone(), attribute_from_proto(a, what)?);
    }
    for nb in &b.block_types {
        let inner = match &nb.block {
            Some(inner) => block_from_proto(inner, what)?,
            None => Block::default(),
        };
        use v6::schema::nested_block::NestingMode as Wire;
        let nesting = match Wire::try_from(nb.nesting) {
            Ok(Wire::Single) => NestingMode::Single,
            Ok(Wire::Group) => NestingMode::Group,
            Ok(Wire::List) => NestingMode::List,
            Ok(Wire::Set) => NestingMode::Set,
            Ok(Wire::Map) => NestingMode::Map,
            _ => {
                return Err(format!(
                "the nested block type {:?} in the schema of {what} has an invalid nesting mode {}",
                nb.type_name, nb.nesting
            ))
            }
        };
        out.block_types.insert(
            nb.type_name.clone(),
            NestedBlock {
                nesting,
                block: inner,
                min_items: nb.min_items.max(0) as u64,
                max_items: nb.max_items.max(0) as u64,
            },
        );
    }
    Ok(out)
}

/// An attribute with its flags; a protocol-6 nested attribute keeps its objects' attributes.
fn attribute_from_proto(a: &v6::schema::Attribute, what: &str) -> Result<Attribute, String> {
    let mut attr = Attribute::new(attribute_type(a, what)?);
    attr.description = a.description.clone();
    attr.required = a.required;
    attr.optional = a.optional;
    attr.computed = a.computed;
    attr.sensitive = a.sensitive;
    attr.description_markdown = a.description_kind == v6::StringKind::Markdown as i32;
    attr.deprecated = a.deprecated;
    attr.write_only = a.write_only;
    if let Some(obj) = &a.nested_type {
        use v6::schema::object::NestingMode as Wire;
        let nesting = match Wire::try_from(obj.nesting) {
            Ok(Wire::Single) => NestingMode::Single,
            Ok(Wire::List) => NestingMode::List,
            Ok(Wire::Set) => NestingMode::Set,
            _ => NestingMode::Map,
        };
        let mut attributes = BTreeMap::new();
        for inner in &obj.attributes {
            attributes.insert(inner.name.clone(), attribute_from_proto(inner, what)?);
        }
        attr.nested = Some(Box::new(NestedAttributes {
            nesting,
            attributes,
            min_items: obj.min_items.max(0) as u64,
            max_items: obj.max_items.max(0) as u64,
        }));
    }
    Ok(attr)
}

/// An attribute's type: its JSON type constraint, or the type a protocol-6 nested attribute
/// implies (object, or a list/set/map of objects).
fn attribute_type(a: &v6::schema::Attribute, what: &str) -> Result<Type, String> {
    if let Some(obj) = &a.nested_type {
        let mut attrs = BTreeMap::new();
        for inner in &obj.attributes {
            attrs.insert(inner.name.clone(), attribute_type(inner, what)?);
        }
        let elem = Type::from_object(ObjectType::new(attrs));
        use v6::schema::object::NestingMode as Wire;
        return match Wire::try_from(obj.nesting) {
            Ok(Wire::Single) => Ok(elem),
            Ok(Wire::List) => Ok(Type::list(elem)),
            Ok(Wire::Set) => Ok(Type::set(elem)),
            Ok(Wire::Map) => Ok(Type::map(elem)),
            _ => Err(format!(
                "the nested attribute {:?} in the schema of {what} has an invalid nesting mode {}",
                a.name, obj.nesting
            )),
        };
    }
    let json: serde_json::Value = serde_json::from_slice(&a.r#type).map_err(|e| {
        format!(
            "the attribute {:?} in the schema of {what} has an invalid type: {e}",
            a.name
        )
    })?;
    ferro_value::json::type_from_json(&json).map_err(|e| {
        format!(
            "the attribute {:?} in the schema of {what} has an invalid type: {e}",
            a.name
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    #[test]
    fn method_paths_follow_the_protocol() {
        assert_eq!(
            Rpc::GetProviderSchema.path(5),
            "/tfplugin5.Provider/GetSchema"
        );
        assert_eq!(
            Rpc::GetProviderSchema.path(6),
            "/tfplugin6.Provider/GetProviderSchema"
        );
        assert_eq!(
            Rpc::ValidateProviderConfig.path(5),
            "/tfplugin5.Provider/PrepareProviderConfig"
        );
        assert_eq!(
            Rpc::StopProvider.path(6),
            "/tfplugin6.Provider/StopProvider"
        );
        assert_eq!(Rpc::StopProvider.path(5), "/tfplugin5.Provider/Stop");
    }

    #[test]
    fn dynamic_value_wire_encoding_uses_field_numbers_one_and_two() {
        let dv = v6::DynamicValue {
            msgpack: vec![0xc0],
            json: Vec::new(),
        };
        assert_eq!(dv.encode_to_vec(), vec![0x0a, 0x01, 0xc0]);
        let dv = v6::DynamicValue {
            msgpack: Vec::new(),
            json: b"null".to_vec(),
        };
        assert_eq!(dv.encode_to_vec(), vec![0x12, 0x04, b'n', b'u', b'l', b'l']);
    }

    #[test]
    fn v6_nested_attributes_map_to_their_implied_types() {
        let inner = v6::schema::Attribute {
            name: "port".into(),
            r#type: b"\"number\"".to_vec(),
            optional: true,
            ..Default::default()
        };
        let nested = v6::schema::Attribute {
            name: "rules".into(),
            nested_type: Some(v6::schema::Object {
                attributes: vec![inner],
                nesting: v6::schema::object::NestingMode::Set as i32,
                min_items: 0,
                max_items: 0,
            }),
            optional: true,
            ..Default::default()
        };
        let block = v6::schema::Block {
            attributes: vec![nested],
            block_types: vec![v6::schema::NestedBlock {
                type_name: "timeouts".into(),
                block: Some(v6::schema::Block {
                    description: "How long operations may take.".into(),
                    ..Default::default()
                }),
                nesting: v6::schema::nested_block::NestingMode::Single as i32,
                ..Default::default()
            }],
            description: "A test resource.".into(),
            ..Default::default()
        };
        let s = schema_from_proto(
            &v6::Schema {
                version: 2,
                block: Some(block),
            },
            "test",
        )
        .unwrap();
        assert_eq!(s.version, 2);
        let port = Type::object([("port".to_string(), Type::Number)]);
        assert_eq!(s.block.attributes["rules"].ty, Type::set(port));
        let nested = s.block.attributes["rules"].nested.as_ref().unwrap();
        assert_eq!(nested.nesting, NestingMode::Set);
        assert!(nested.attributes["port"].optional);
        assert_eq!(s.block.block_types["timeouts"].nesting, NestingMode::Single);
        assert_eq!(s.block.description, "A test resource.");
        assert_eq!(
            s.block.block_types["timeouts"].block.description,
            "How long operations may take."
        );
    }

    #[test]
    fn invalid_schemas_are_errors() {
        let bad = v6::Schema {
            version: -1,
            block: Some(v6::schema::Block::default()),
        };
        assert!(schema_from_proto(&bad, "x").is_err());
        let no_block = v6::Schema {
            version: 0,
            block: None,
        };
        assert!(schema_from_proto(&no_block, "x")
            .unwrap_err()
            .contains("no block"));
        let bad_nesting = v6::Schema {
            version: 0,
            block: Some(v6::schema::Block {
                block_types: vec![v6::schema::NestedBlock {
                    type_name: "b".into(),
                    nesting: 0,
                    ..Default::default()
                }],
                ..Default::default()
            }),
        };
        assert!(schema_from_proto(&bad_nesting, "x")
            .unwrap_err()
            .contains("invalid nesting mode"));
    }

    #[test]
    fn a_v5_attribute_survives_the_round_trip_through_the_wire() {
        let a = v5::schema::Attribute {
            name: "id".into(),
            r#type: b"\"string\"".to_vec(),
            optional: true,
            computed: true,
            ..Default::default()
        };
        let bytes = a.encode_to_vec();
        let back = v5::schema::Attribute::decode(bytes.as_slice()).unwrap();
        assert_eq!(back, a);
        let wide = widen_attribute(back);
        assert!(wide.nested_type.is_none() && wide.optional && wide.computed);
    }
}
