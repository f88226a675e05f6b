//! State: what ferro believes exists, in Terraform's state format version 4.
//!
//! An object's attributes are kept as the JSON a state file gives (encoded against the
//! resource type's schema, possibly an older version of it) until the planner, which has the
//! schemas, decodes them; state then holds the decoded value, shared with the plan
//! ([`Attributes`]). The state crate stays independent of providers.

mod attributes;
pub mod aws;
mod backend;
mod codec;
pub mod config;
pub mod encryption;
pub mod http;
mod journal;
pub mod json;
mod local;
mod lock;
mod model;
pub mod pg;
pub mod s3;
pub mod workspace;

pub use attributes::{Attributes, SensitiveAttributes};
pub use backend::Backend;
pub use codec::{
    parse_module_instance, read_leading_state, read_state, read_state_from, write_state,
    write_state_to, StateError, NEWEST_READ_VERSION, STATE_FORMAT_VERSION, WRITER_VERSION,
};
pub use journal::{journal_path, Change, Journal};
pub use local::{new_lineage, LocalBackend};
pub use lock::{
    is_locked, lock_info_path, parse_duration, read_lock_info, release_all_held_locks, LockError,
    LockInfo,
};
pub use model::{
    Dependencies, Deposed, Identity, InstanceOutline, InstanceState, ObjectState, OutputState,
    ResourceOutline, ResourceState, State,
};
