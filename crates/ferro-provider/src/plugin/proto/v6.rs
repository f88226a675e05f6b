//! tfplugin6 (6.0) schema messages: like tfplugin5's, plus nested attributes
//! (`Schema.Attribute.nested_type` and `Schema.Object`).

use super::common::{Diagnostic, NestingMode, ServerCapabilities, StringKind};
use std::collections::BTreeMap;

// message Schema { int64 version = 1; Block block = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct Schema {
    #[prost(int64, tag = "1")]
    pub version: i64,
    #[prost(message, optional, tag = "2")]
    pub block: Option<Block>,
}

// message Schema.Block {
//   int64 version = 1; repeated Attribute attributes = 2; repeated NestedBlock block_types = 3;
//   string description = 4; StringKind description_kind = 5; bool deprecated = 6;
// }
#[derive(Clone, PartialEq, prost::Message)]
pub struct Block {
    #[prost(int64, tag = "1")]
    pub version: i64,
    #[prost(message, repeated, tag = "2")]
    pub attributes: Vec<Attribute>,
    #[prost(message, repeated, tag = "3")]
    pub block_types: Vec<NestedBlock>,
    #[prost(string, tag = "4")]
    pub description: String,
    #[prost(enumeration = "StringKind", tag = "5")]
    pub description_kind: i32,
    #[prost(bool, tag = "6")]
    pub deprecated: bool,
}

// message Schema.Attribute {
//   string name = 1; bytes type = 2; Object nested_type = 10; string description = 3; bool required = 4;
//   bool optional = 5; bool computed = 6; bool sensitive = 7; StringKind description_kind = 8;
//   bool deprecated = 9; bool write_only = 11; (6.8)
// }
#[derive(Clone, PartialEq, prost::Message)]
pub struct Attribute {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(bytes = "vec", tag = "2")]
    pub r#type: Vec<u8>,
    #[prost(message, optional, tag = "10")]
    pub nested_type: Option<Object>,
    #[prost(string, tag = "3")]
    pub description: String,
    #[prost(bool, tag = "4")]
    pub required: bool,
    #[prost(bool, tag = "5")]
    pub optional: bool,
    #[prost(bool, tag = "6")]
    pub computed: bool,
    #[prost(bool, tag = "7")]
    pub sensitive: bool,
    #[prost(enumeration = "StringKind", tag = "8")]
    pub description_kind: i32,
    #[prost(bool, tag = "9")]
    pub deprecated: bool,
    #[prost(bool, tag = "11")]
    pub write_only: bool,
}

// message Schema.NestedBlock {
//   string type_name = 1; Block block = 2; NestingMode nesting = 3; int64 min_items = 4; int64 max_items = 5;
// }
#[derive(Clone, PartialEq, prost::Message)]
pub struct NestedBlock {
    #[prost(string, tag = "1")]
    pub type_name: String,
    #[prost(message, optional, tag = "2")]
    pub block: Option<Block>,
    #[prost(enumeration = "NestingMode", tag = "3")]
    pub nesting: i32,
    #[prost(int64, tag = "4")]
    pub min_items: i64,
    #[prost(int64, tag = "5")]
    pub max_items: i64,
}

// message Schema.Object {
//   repeated Attribute attributes = 1; NestingMode nesting = 3; int64 min_items = 4; int64 max_items = 5;
// } (NestingMode: INVALID = 0; SINGLE = 1; LIST = 2; SET = 3; MAP = 4;)
#[derive(Clone, PartialEq, prost::Message)]
pub struct Object {
    #[prost(message, repeated, tag = "1")]
    pub attributes: Vec<Attribute>,
    #[prost(enumeration = "NestingMode", tag = "3")]
    pub nesting: i32,
    #[prost(int64, tag = "4")]
    pub min_items: i64,
    #[prost(int64, tag = "5")]
    pub max_items: i64,
}

// message GetProviderSchema.Response {
//   Schema provider = 1; map<string, Schema> resource_schemas = 2; map<string, Schema> data_source_schemas = 3;
//   repeated Diagnostic diagnostics = 4; Schema provider_meta = 5; ServerCapabilities server_capabilities = 6;
// }
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetProviderSchemaResponse {
    #[prost(message, optional, tag = "1")]
    pub provider: Option<Schema>,
    #[prost(btree_map = "string, message", tag = "2")]
    pub resource_schemas: BTreeMap<String, Schema>,
    #[prost(btree_map = "string, message", tag = "3")]
    pub data_source_schemas: BTreeMap<String, Schema>,
    #[prost(message, repeated, tag = "4")]
    pub diagnostics: Vec<Diagnostic>,
    #[prost(message, optional, tag = "5")]
    pub provider_meta: Option<Schema>,
    #[prost(message, optional, tag = "6")]
    pub server_capabilities: Option<ServerCapabilities>,
}
