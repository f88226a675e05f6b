//! Planning: evaluate the configuration in dependency order against the refreshed prior state,
//! ask providers to plan each resource instance, decide actions, and emit the plan IR.
//!
//! The planner owns the decisions (create, update, replace, delete, no-op); the interpreter in
//! ferro-exec only carries them out. It keeps the walk (expansion, ordering, refresh, orphans,
//! targeting, moves, imports); what planning and apply both do for one instance (evaluation
//! scopes, the lifecycle steps, conditions, state encoding, provider configuration) is
//! ferro-runtime's, re-exported here under the names the planner's users know.

pub use ferro_runtime::{
    check_blocks, conditions, config_value, lifecycle, memory, objchange, reads, scope, statecodec,
};
use ferro_runtime::{configure, providers, validation};
mod graph;
mod import;
mod moves;
pub mod resource_sets;
pub mod state_scope;
mod walk;

pub use ferro_db::{item_graph, Item, ItemGraph, ItemId};
pub use ferro_runtime::configure::{
    configure_provider, configure_providers, configure_providers_except, configure_providers_known,
    deferred_configs,
};
pub use ferro_runtime::providers::{
    load_providers, load_providers_with_root_calls, provider_config, Providers,
};
pub use graph::build_graph;
pub use import::{import_resource, ImportEvent};
pub use walk::{
    ephemeral_root_variables, path_span, plan, prepare_variables, GeneratedImport,
    GeneratedImports, PlanInput, PlanOptions, RawVariable, RefreshNotice, VariableSource,
};
