//! Messages whose field numbering is the same in tfplugin5 (5.2) and tfplugin6 (6.0)
//! (PROTOCOL_FACTS §2.2–2.3). Each struct names the `.proto` message it encodes; the package
//! name only appears in gRPC method paths, never on the wire, so one Rust type serves both.

use std::collections::BTreeMap;

// message DynamicValue { bytes msgpack = 1; bytes json = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct DynamicValue {
    #[prost(bytes = "vec", tag = "1")]
    pub msgpack: Vec<u8>,
    #[prost(bytes = "vec", tag = "2")]
    pub json: Vec<u8>,
}

// message Diagnostic {
//   enum Severity { INVALID = 0; ERROR = 1; WARNING = 2; }
//   Severity severity = 1; string summary = 2; string detail = 3; AttributePath attribute = 4;
// }
#[derive(Clone, PartialEq, prost::Message)]
pub struct Diagnostic {
    #[prost(enumeration = "Severity", tag = "1")]
    pub severity: i32,
    #[prost(string, tag = "2")]
    pub summary: String,
    #[prost(string, tag = "3")]
    pub detail: String,
    #[prost(message, optional, tag = "4")]
    pub attribute: Option<AttributePath>,
}

// enum Diagnostic.Severity
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum Severity {
    Invalid = 0,
    Error = 1,
    Warning = 2,
}

// message AttributePath { repeated Step steps = 1; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct AttributePath {
    #[prost(message, repeated, tag = "1")]
    pub steps: Vec<AttributePathStep>,
}

// message AttributePath.Step {
//   oneof selector { string attribute_name = 1; string element_key_string = 2; int64 element_key_int = 3; }
// }
#[derive(Clone, PartialEq, prost::Message)]
pub struct AttributePathStep {
    #[prost(oneof = "Selector", tags = "1, 2, 3")]
    pub selector: Option<Selector>,
}

// oneof AttributePath.Step.selector
#[derive(Clone, PartialEq, prost::Oneof)]
pub enum Selector {
    #[prost(string, tag = "1")]
    AttributeName(String),
    #[prost(string, tag = "2")]
    ElementKeyString(String),
    #[prost(int64, tag = "3")]
    ElementKeyInt(i64),
}

// message RawState { bytes json = 1; map<string, string> flatmap = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct RawState {
    #[prost(bytes = "vec", tag = "1")]
    pub json: Vec<u8>,
    #[prost(btree_map = "string, string", tag = "2")]
    pub flatmap: BTreeMap<String, String>,
}

// message Stop.Request {} (v5) / StopProvider.Request {} (v6); also GetProviderSchema.Request,
// GetMetadata.Request, GetFunctions.Request and go-plugin's plugin.Empty.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Empty {}

// message Stop.Response { string Error = 1; } (v5) / StopProvider.Response (v6)
#[derive(Clone, PartialEq, prost::Message)]
pub struct StopResponse {
    #[prost(string, tag = "1")]
    pub error: String,
}

// message ValidateProviderConfig.Request { DynamicValue config = 1; } (v6)
// message PrepareProviderConfig.Request { DynamicValue config = 1; } (v5)
#[derive(Clone, PartialEq, prost::Message)]
pub struct ProviderConfigRequest {
    #[prost(message, optional, tag = "1")]
    pub config: Option<DynamicValue>,
}

// message PrepareProviderConfig.Response { DynamicValue prepared_config = 1; repeated Diagnostic diagnostics = 2; }
// message ValidateProviderConfig.Response { repeated Diagnostic diagnostics = 2; } (v6: field 1 unused)
#[derive(Clone, PartialEq, prost::Message)]
pub struct ProviderConfigResponse {
    #[prost(message, optional, tag = "1")]
    pub prepared_config: Option<DynamicValue>,
    #[prost(message, repeated, tag = "2")]
    pub diagnostics: Vec<Diagnostic>,
}

// message ValidateResourceTypeConfig.Request (v5) / ValidateResourceConfig.Request (v6)
// message ValidateDataSourceConfig.Request (v5) / ValidateDataResourceConfig.Request (v6)
//   { string type_name = 1; DynamicValue config = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ValidateConfigRequest {
    #[prost(string, tag = "1")]
    pub type_name: String,
    #[prost(message, optional, tag = "2")]
    pub config: Option<DynamicValue>,
}

// message Validate*.Response { repeated Diagnostic diagnostics = 1; }
// message Configure.Response / ConfigureProvider.Response { repeated Diagnostic diagnostics = 1; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct DiagnosticsResponse {
    #[prost(message, repeated, tag = "1")]
    pub diagnostics: Vec<Diagnostic>,
}

// message UpgradeResourceState.Request { string type_name = 1; int64 version = 2; RawState raw_state = 3; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct UpgradeResourceStateRequest {
    #[prost(string, tag = "1")]
    pub type_name: String,
    #[prost(int64, tag = "2")]
    pub version: i64,
    #[prost(message, optional, tag = "3")]
    pub raw_state: Option<RawState>,
}

// message UpgradeResourceState.Response { DynamicValue upgraded_state = 1; repeated Diagnostic diagnostics = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct UpgradeResourceStateResponse {
    #[prost(message, optional, tag = "1")]
    pub upgraded_state: Option<DynamicValue>,
    #[prost(message, repeated, tag = "2")]
    pub diagnostics: Vec<Diagnostic>,
}

// message Configure.Request (v5) / ConfigureProvider.Request (v6)
//   { string terraform_version = 1; DynamicValue config = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ConfigureRequest {
    #[prost(string, tag = "1")]
    pub terraform_version: String,
    #[prost(message, optional, tag = "2")]
    pub config: Option<DynamicValue>,
}

// message ReadResource.Request
//   { string type_name = 1; DynamicValue current_state = 2; bytes private = 3; DynamicValue provider_meta = 4; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ReadResourceRequest {
    #[prost(string, tag = "1")]
    pub type_name: String,
    #[prost(message, optional, tag = "2")]
    pub current_state: Option<DynamicValue>,
    #[prost(bytes = "vec", tag = "3")]
    pub private: Vec<u8>,
    #[prost(message, optional, tag = "4")]
    pub provider_meta: Option<DynamicValue>,
}

// message ReadResource.Response { DynamicValue new_state = 1; repeated Diagnostic diagnostics = 2; bytes private = 3; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ReadResourceResponse {
    #[prost(message, optional, tag = "1")]
    pub new_state: Option<DynamicValue>,
    #[prost(message, repeated, tag = "2")]
    pub diagnostics: Vec<Diagnostic>,
    #[prost(bytes = "vec", tag = "3")]
    pub private: Vec<u8>,
}

// message PlanResourceChange.Request {
//   string type_name = 1; DynamicValue prior_state = 2; DynamicValue proposed_new_state = 3;
//   DynamicValue config = 4; bytes prior_private = 5; DynamicValue provider_meta = 6;
// }
#[derive(Clone, PartialEq, prost::Message)]
pub struct PlanResourceChangeRequest {
    #[prost(string, tag = "1")]
    pub type_name: String,
    #[prost(message, optional, tag = "2")]
    pub prior_state: Option<DynamicValue>,
    #[prost(message, optional, tag = "3")]
    pub proposed_new_state: Option<DynamicValue>,
    #[prost(message, optional, tag = "4")]
    pub config: Option<DynamicValue>,
    #[prost(bytes = "vec", tag = "5")]
    pub prior_private: Vec<u8>,
    #[prost(message, optional, tag = "6")]
    pub provider_meta: Option<DynamicValue>,
}

// message PlanResourceChange.Response {
//   DynamicValue planned_state = 1; repeated AttributePath requires_replace = 2;
//   bytes planned_private = 3; repeated Diagnostic diagnostics = 4; bool legacy_type_system = 5;
// }
// (`legacy_type_system` is absent from 6.0/6.1; an old v6 server simply never sets it.)
#[derive(Clone, PartialEq, prost::Message)]
pub struct PlanResourceChangeResponse {
    #[prost(message, optional, tag = "1")]
    pub planned_state: Option<DynamicValue>,
    #[prost(message, repeated, tag = "2")]
    pub requires_replace: Vec<AttributePath>,
    #[prost(bytes = "vec", tag = "3")]
    pub planned_private: Vec<u8>,
    #[prost(message, repeated, tag = "4")]
    pub diagnostics: Vec<Diagnostic>,
    #[prost(bool, tag = "5")]
    pub legacy_type_system: bool,
}

// message ApplyResourceChange.Request {
//   string type_name = 1; DynamicValue prior_state = 2; DynamicValue planned_state = 3;
//   DynamicValue config = 4; bytes planned_private = 5; DynamicValue provider_meta = 6;
// }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ApplyResourceChangeRequest {
    #[prost(string, tag = "1")]
    pub type_name: String,
    #[prost(message, optional, tag = "2")]
    pub prior_state: Option<DynamicValue>,
    #[prost(message, optional, tag = "3")]
    pub planned_state: Option<DynamicValue>,
    #[prost(message, optional, tag = "4")]
    pub config: Option<DynamicValue>,
    #[prost(bytes = "vec", tag = "5")]
    pub planned_private: Vec<u8>,
    #[prost(message, optional, tag = "6")]
    pub provider_meta: Option<DynamicValue>,
}

// message ApplyResourceChange.Response {
//   DynamicValue new_state = 1; bytes private = 2; repeated Diagnostic diagnostics = 3; bool legacy_type_system = 4;
// }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ApplyResourceChangeResponse {
    #[prost(message, optional, tag = "1")]
    pub new_state: Option<DynamicValue>,
    #[prost(bytes = "vec", tag = "2")]
    pub private: Vec<u8>,
    #[prost(message, repeated, tag = "3")]
    pub diagnostics: Vec<Diagnostic>,
    #[prost(bool, tag = "4")]
    pub legacy_type_system: bool,
}

// message ImportResourceState.Request { string type_name = 1; string id = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ImportResourceStateRequest {
    #[prost(string, tag = "1")]
    pub type_name: String,
    #[prost(string, tag = "2")]
    pub id: String,
}

// message ImportResourceState.ImportedResource { string type_name = 1; DynamicValue state = 2; bytes private = 3; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ImportedResource {
    #[prost(string, tag = "1")]
    pub type_name: String,
    #[prost(message, optional, tag = "2")]
    pub state: Option<DynamicValue>,
    #[prost(bytes = "vec", tag = "3")]
    pub private: Vec<u8>,
}

// message ImportResourceState.Response { repeated ImportedResource imported_resources = 1; repeated Diagnostic diagnostics = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ImportResourceStateResponse {
    #[prost(message, repeated, tag = "1")]
    pub imported_resources: Vec<ImportedResource>,
    #[prost(message, repeated, tag = "2")]
    pub diagnostics: Vec<Diagnostic>,
}

// message ReadDataSource.Request { string type_name = 1; DynamicValue config = 2; DynamicValue provider_meta = 3; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ReadDataSourceRequest {
    #[prost(string, tag = "1")]
    pub type_name: String,
    #[prost(message, optional, tag = "2")]
    pub config: Option<DynamicValue>,
    #[prost(message, optional, tag = "3")]
    pub provider_meta: Option<DynamicValue>,
}

// message ReadDataSource.Response { DynamicValue state = 1; repeated Diagnostic diagnostics = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct ReadDataSourceResponse {
    #[prost(message, optional, tag = "1")]
    pub state: Option<DynamicValue>,
    #[prost(message, repeated, tag = "2")]
    pub diagnostics: Vec<Diagnostic>,
}

// message ServerCapabilities { bool plan_destroy = 1; bool get_provider_schema_optional = 2; bool move_resource_state = 3; }
// (5.3/6.3 and later; older servers leave it unset.)
#[derive(Clone, PartialEq, prost::Message)]
pub struct ServerCapabilities {
    #[prost(bool, tag = "1")]
    pub plan_destroy: bool,
    #[prost(bool, tag = "2")]
    pub get_provider_schema_optional: bool,
    #[prost(bool, tag = "3")]
    pub move_resource_state: bool,
}

// message GetMetadata.Response {
//   ServerCapabilities server_capabilities = 1; repeated Diagnostic diagnostics = 2;
//   repeated DataSourceMetadata data_sources = 3; repeated ResourceMetadata resources = 4;
//   repeated FunctionMetadata functions = 5;
// } (5.4/6.4 and later)
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetMetadataResponse {
    #[prost(message, optional, tag = "1")]
    pub server_capabilities: Option<ServerCapabilities>,
    #[prost(message, repeated, tag = "2")]
    pub diagnostics: Vec<Diagnostic>,
    #[prost(message, repeated, tag = "3")]
    pub data_sources: Vec<TypeNameMetadata>,
    #[prost(message, repeated, tag = "4")]
    pub resources: Vec<TypeNameMetadata>,
    #[prost(message, repeated, tag = "5")]
    pub functions: Vec<FunctionMetadata>,
}

// message GetMetadata.DataSourceMetadata / ResourceMetadata { string type_name = 1; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct TypeNameMetadata {
    #[prost(string, tag = "1")]
    pub type_name: String,
}

// message GetMetadata.FunctionMetadata { string name = 1; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct FunctionMetadata {
    #[prost(string, tag = "1")]
    pub name: String,
}

// message Function {
//   repeated Parameter parameters = 1; Parameter variadic_parameter = 2; Return return = 3;
//   string summary = 4; string description = 5; StringKind description_kind = 6; string deprecation_message = 7;
// } (5.5/6.5 and later)
#[derive(Clone, PartialEq, prost::Message)]
pub struct Function {
    #[prost(message, repeated, tag = "1")]
    pub parameters: Vec<FunctionParameter>,
    #[prost(message, optional, tag = "2")]
    pub variadic_parameter: Option<FunctionParameter>,
    #[prost(message, optional, tag = "3")]
    pub r#return: Option<FunctionReturn>,
    #[prost(string, tag = "4")]
    pub summary: String,
    #[prost(string, tag = "5")]
    pub description: String,
    #[prost(enumeration = "StringKind", tag = "6")]
    pub description_kind: i32,
    #[prost(string, tag = "7")]
    pub deprecation_message: String,
}

// message Function.Parameter {
//   string name = 1; bytes type = 2; bool allow_null_value = 3; bool allow_unknown_values = 4;
//   string description = 5; StringKind description_kind = 6;
// }
#[derive(Clone, PartialEq, prost::Message)]
pub struct FunctionParameter {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(bytes = "vec", tag = "2")]
    pub r#type: Vec<u8>,
    #[prost(bool, tag = "3")]
    pub allow_null_value: bool,
    #[prost(bool, tag = "4")]
    pub allow_unknown_values: bool,
    #[prost(string, tag = "5")]
    pub description: String,
    #[prost(enumeration = "StringKind", tag = "6")]
    pub description_kind: i32,
}

// message Function.Return { bytes type = 1; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct FunctionReturn {
    #[prost(bytes = "vec", tag = "1")]
    pub r#type: Vec<u8>,
}

// message GetFunctions.Response { map<string, Function> functions = 1; repeated Diagnostic diagnostics = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct GetFunctionsResponse {
    #[prost(btree_map = "string, message", tag = "1")]
    pub functions: BTreeMap<String, Function>,
    #[prost(message, repeated, tag = "2")]
    pub diagnostics: Vec<Diagnostic>,
}

// message CallFunction.Request { string name = 1; repeated DynamicValue arguments = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct CallFunctionRequest {
    #[prost(string, tag = "1")]
    pub name: String,
    #[prost(message, repeated, tag = "2")]
    pub arguments: Vec<DynamicValue>,
}

// message CallFunction.Response { DynamicValue result = 1; FunctionError error = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct CallFunctionResponse {
    #[prost(message, optional, tag = "1")]
    pub result: Option<DynamicValue>,
    #[prost(message, optional, tag = "2")]
    pub error: Option<FunctionError>,
}

// message FunctionError { string text = 1; optional int64 function_argument = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct FunctionError {
    #[prost(string, tag = "1")]
    pub text: String,
    #[prost(int64, optional, tag = "2")]
    pub function_argument: Option<i64>,
}

// enum StringKind { PLAIN = 0; MARKDOWN = 1; }
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum StringKind {
    Plain = 0,
    Markdown = 1,
}

// enum Schema.NestedBlock.NestingMode { INVALID = 0; SINGLE = 1; LIST = 2; SET = 3; MAP = 4; GROUP = 5; }
// (also Schema.Object.NestingMode in v6, which has no GROUP)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, prost::Enumeration)]
#[repr(i32)]
pub enum NestingMode {
    Invalid = 0,
    Single = 1,
    List = 2,
    Set = 3,
    Map = 4,
    Group = 5,
}

// go-plugin: message plugin.StdioData { enum Channel { INVALID = 0; STDOUT = 1; STDERR = 2; } Channel channel = 1; bytes data = 2; }
#[derive(Clone, PartialEq, prost::Message)]
pub struct StdioData {
    #[prost(int32, tag = "1")]
    pub channel: i32,
    #[prost(bytes = "vec", tag = "2")]
    pub data: Vec<u8>,
}
