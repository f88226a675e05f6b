//! Planning: evaluate the configuration in dependency order against the refreshed prior state,
//! ask providers to plan each resource instance, decide actions, and emit the plan IR.
//!
//! The planner owns the decisions (create, update, replace, delete, no-op); the interpreter in
//! ferro-exec only carries them out. Module-level evaluation ([`scope::ModuleEval`]) and core's
//! checks of provider answers ([`objchange`]) are shared with ferro-exec.

pub mod check_blocks;
pub mod conditions;
pub mod config_value;
mod configure;
mod graph;
mod import;
pub mod lifecycle;
pub mod memory;
mod moves;
pub mod objchange;
mod providers;
pub mod reads;
pub mod resource_sets;
pub mod scope;
pub mod state_scope;
pub mod statecodec;
mod validation;
mod variable_value;
mod walk;

pub use configure::{
    configure_provider, configure_providers, configure_providers_except, configure_providers_known,
    deferred_configs,
};
pub use ferro_db::{item_graph, Item, ItemGraph, ItemId};
pub use graph::build_graph;
pub use import::{import_resource, ImportEvent};
pub use providers::{load_providers, provider_config, Providers};
pub use walk::{
    path_span, plan, prepare_variables, PlanInput, PlanOptions, RawVariable, RefreshNotice,
    VariableSource,
};
