//! State: what ferro believes exists, in Terraform's state format version 4.
//!
//! Attribute objects are kept as the raw JSON Terraform stores (encoded against the resource
//! type's schema); decoding them into values needs the schema and happens in the planner. This
//! keeps the state crate independent of providers and of the value model.

mod backend;
mod codec;
mod journal;
pub mod json;
mod local;
mod lock;
mod model;
pub mod pg;
pub mod workspace;

pub use backend::Backend;
pub use codec::{
    parse_module_instance, read_state, read_state_owned, write_state, StateError,
    STATE_FORMAT_VERSION, WRITER_VERSION,
};
pub use journal::{journal_path, Change, Journal};
pub use local::{new_lineage, LocalBackend};
pub use lock::{
    is_locked, lock_info_path, parse_duration, read_lock_info, release_all_held_locks, LockError,
    LockInfo,
};
pub use model::{InstanceState, ObjectState, OutputState, ResourceState, State};
