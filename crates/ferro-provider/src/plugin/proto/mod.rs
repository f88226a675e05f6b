//! The tfplugin5 (5.2+) and tfplugin6 (6.0+) messages a core needs, written by hand as prost
//! messages (no protoc, no build-time code generation), the gRPC method paths of both
//! protocols, and the conversion from the wire schema to ferro's [`Schema`].

pub mod common;
pub mod v5;
pub mod v6;

use ferro_value::schema::{Attribute, Block, NestedBlock, NestingMode, Schema};
use ferro_value::{ObjectType, Type};
use std::collections::BTreeMap;

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

impl From<v5::Schema> for v6::Schema {
    fn from(s: v5::Schema) -> Self {
        v6::Schema {
            version: s.version,
            block: s.block.map(Into::into),
        }
    }
}

impl From<v5::Block> for v6::Block {
    fn from(b: v5::Block) -> Self {
        v6::Block {
            version: b.version,
            attributes: b.attributes.into_iter().map(Into::into).collect(),
            block_types: b.block_types.into_iter().map(Into::into).collect(),
            description: b.description,
            description_kind: b.description_kind,
            deprecated: b.deprecated,
        }
    }
}

impl From<v5::Attribute> for v6::Attribute {
    fn from(a: v5::Attribute) -> Self {
        v6::Attribute {
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
}

impl From<v5::NestedBlock> for v6::NestedBlock {
    fn from(nb: v5::NestedBlock) -> Self {
        v6::NestedBlock {
            type_name: nb.type_name,
            block: nb.block.map(Into::into),
            nesting: nb.nesting,
            min_items: nb.min_items,
            max_items: nb.max_items,
        }
    }
}

impl From<v5::GetProviderSchemaResponse> for v6::GetProviderSchemaResponse {
    fn from(r: v5::GetProviderSchemaResponse) -> Self {
        let conv =
            |m: BTreeMap<String, v5::Schema>| m.into_iter().map(|(k, v)| (k, v.into())).collect();
        v6::GetProviderSchemaResponse {
            provider: r.provider.map(Into::into),
            resource_schemas: conv(r.resource_schemas),
            data_source_schemas: conv(r.data_source_schemas),
            diagnostics: r.diagnostics,
            provider_meta: r.provider_meta.map(Into::into),
            server_capabilities: r.server_capabilities,
        }
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
    Ok(Schema {
        version: s.version as u64,
        block,
    })
}

fn block_from_proto(b: &v6::Block, what: &str) -> Result<Block, String> {
    let mut out = Block::default();
    for a in &b.attributes {
        let ty = attribute_type(a, what)?;
        let mut attr = Attribute::new(ty);
        attr.description = a.description.clone();
        attr.required = a.required;
        attr.optional = a.optional;
        attr.computed = a.computed;
        attr.sensitive = a.sensitive;
        out.attributes.insert(a.name.clone(), attr);
    }
    for nb in &b.block_types {
        let inner = match &nb.block {
            Some(inner) => block_from_proto(inner, what)?,
            None => Block::default(),
        };
        let nesting = match common::NestingMode::try_from(nb.nesting) {
            Ok(common::NestingMode::Single) => NestingMode::Single,
            Ok(common::NestingMode::Group) => NestingMode::Group,
            Ok(common::NestingMode::List) => NestingMode::List,
            Ok(common::NestingMode::Set) => NestingMode::Set,
            Ok(common::NestingMode::Map) => NestingMode::Map,
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

/// An attribute's type: its JSON type constraint, or the type a protocol-6 nested attribute
/// implies (object, or a list/set/map of objects).
fn attribute_type(a: &v6::Attribute, what: &str) -> Result<Type, String> {
    if let Some(obj) = &a.nested_type {
        let mut attrs = BTreeMap::new();
        for inner in &obj.attributes {
            attrs.insert(inner.name.clone(), attribute_type(inner, what)?);
        }
        let elem = Type::Object(ObjectType::new(attrs));
        return match common::NestingMode::try_from(obj.nesting) {
            Ok(common::NestingMode::Single) => Ok(elem),
            Ok(common::NestingMode::List) => Ok(Type::list(elem)),
            Ok(common::NestingMode::Set) => Ok(Type::set(elem)),
            Ok(common::NestingMode::Map) => Ok(Type::map(elem)),
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
        let dv = common::DynamicValue {
            msgpack: vec![0xc0],
            json: Vec::new(),
        };
        assert_eq!(dv.encode_to_vec(), vec![0x0a, 0x01, 0xc0]);
        let dv = common::DynamicValue {
            msgpack: Vec::new(),
            json: b"null".to_vec(),
        };
        assert_eq!(dv.encode_to_vec(), vec![0x12, 0x04, b'n', b'u', b'l', b'l']);
    }

    #[test]
    fn v6_nested_attributes_map_to_their_implied_types() {
        let inner = v6::Attribute {
            name: "port".into(),
            r#type: b"\"number\"".to_vec(),
            optional: true,
            ..Default::default()
        };
        let nested = v6::Attribute {
            name: "rules".into(),
            nested_type: Some(v6::Object {
                attributes: vec![inner],
                nesting: common::NestingMode::Set as i32,
                min_items: 0,
                max_items: 0,
            }),
            optional: true,
            ..Default::default()
        };
        let block = v6::Block {
            attributes: vec![nested],
            block_types: vec![v6::NestedBlock {
                type_name: "timeouts".into(),
                block: Some(v6::Block::default()),
                nesting: common::NestingMode::Single as i32,
                ..Default::default()
            }],
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
        assert_eq!(s.block.block_types["timeouts"].nesting, NestingMode::Single);
    }

    #[test]
    fn invalid_schemas_are_errors() {
        let bad = v6::Schema {
            version: -1,
            block: Some(v6::Block::default()),
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
            block: Some(v6::Block {
                block_types: vec![v6::NestedBlock {
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
        let a = v5::Attribute {
            name: "id".into(),
            r#type: b"\"string\"".to_vec(),
            optional: true,
            computed: true,
            ..Default::default()
        };
        let bytes = a.encode_to_vec();
        let back = v5::Attribute::decode(bytes.as_slice()).unwrap();
        assert_eq!(back, a);
        let wide: v6::Attribute = back.into();
        assert!(wide.nested_type.is_none() && wide.optional && wide.computed);
    }
}
