//! The instance runtime: what the planner's walk and the interpreter both do for one resource
//! instance, in one place so the two phases cannot drift apart.
//!
//! * [`scope`]: module evaluation scopes (`EvalTree`, `ModuleEval`), the values expressions see;
//! * [`lifecycle`] and [`objchange`]: the resource instance change lifecycle and core's checks
//!   of provider answers (proposed new state, plan validity, compatibility);
//! * [`conditions`], [`check_blocks`]: pre/postconditions and `check` blocks;
//! * [`config_value`]: resource bodies evaluated against their schemas;
//! * [`providers`], [`configure`]: starting providers, their schemas, configuring them;
//! * [`reads`]: what a module's expressions read of each resource;
//! * [`statecodec`]: objects encoded for state;
//! * [`diagnostics`]: provider diagnostics as ferro diagnostics;
//! * [`ephemeral`]: ephemeral resources opened, renewed and closed.

pub mod check_blocks;
pub mod conditions;
pub mod config_value;
pub mod configure;
pub mod data;
pub mod diagnostics;
pub mod ephemeral;
pub mod identity;
pub mod lifecycle;
pub mod memory;
pub mod objchange;
pub mod provider_functions;
pub mod provider_instances;
pub mod providers;
pub mod reads;
pub mod released;
pub mod scope;
pub mod statecodec;
pub mod validation;
pub mod variable_value;

pub use configure::{
    configure_provider, configure_providers, configure_providers_except, configure_providers_known,
    deferred_configs,
};
pub use diagnostics::path_span;
pub use providers::{
    identity_for_table, load_providers, load_providers_with_root_calls, provider_config, Providers,
};
