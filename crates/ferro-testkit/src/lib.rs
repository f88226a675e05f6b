//! What ferro's tests start on this machine in place of the network (see the package
//! description). Test support only: the tool itself never depends on this crate.

pub mod gcs;
pub mod registry;
pub mod socks;
