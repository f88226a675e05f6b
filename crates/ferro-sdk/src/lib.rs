//! ferro-sdk: the provider half of the plugin protocol. A provider author describes resource
//! types with typed schemas ([`schema`]), writes their create/read/update/delete logic
//! ([`Resource`]), offers functions (`provider::NAME::FN(...)` in configuration:
//! [`SdkProvider::function`], served in the schema, GetFunctions and CallFunction), and
//! attaches plan modifiers and validators to attributes, may answer that a change, a read or
//! an import must wait (`deferred`, with a [`DeferralReason`]: [`provider_types::ModifyPlanResponse`]'s
//! `deferred`, [`Resource::defer_read`], [`Resource::defer_import`],
//! [`DataSource::defer_read`]; given only to a client that allows deferral, an error for
//! any other), take over objects of other resource types that `moved` blocks move to them
//! ([`Resource::move_sources`], [`Resource::move_state`]: MoveResourceState); the framework
//! computes planned states that obey core's rules (PROTOCOL_FACTS §6), and serves the provider
//! either over gRPC as a plugin ([`serve`]) or in process through ferro's [`Provider`] trait
//! ([`SdkProvider`] implements it directly).
//!
//! [`Provider`]: ferro_provider::Provider

mod grpc;
mod grpc_v5;
pub mod modifiers;
pub mod plan;
mod provider;
pub mod schema;
pub mod server;
pub mod stdio;
pub mod validators;
pub mod values;

pub use ferro_provider::{DeferralReason, FunctionError, IdentityAttribute, IdentitySchema};
pub use ferro_value::schema::{FunctionDecl, FunctionParam};
pub use provider::{
    DataSource, EphemeralResource, Function, MoveSource, MoveStateRequest, MovedState, Opened,
    Renewed, Resource, SdkProvider,
};

/// The request and response types of [`Resource::modify_plan`].
pub mod provider_types {
    pub use crate::provider::{ModifyPlanRequest, ModifyPlanResponse};
}
pub use schema::{Attr, ResourceSchema};
pub use server::serve;

pub use ferro_provider::{ProviderDiagnostic as Diagnostic, Severity};
pub use ferro_value::{PathStep, Type, Value};

/// Diagnostics returned by provider logic.
pub type Diags = Vec<Diagnostic>;

/// An error diagnostic attached to an attribute.
pub fn attr_error(attr: &str, summary: impl Into<String>, detail: impl Into<String>) -> Diagnostic {
    let mut d = Diagnostic::error(summary, detail);
    d.attribute = Some(vec![PathStep::Attr(attr.to_string())]);
    d
}
