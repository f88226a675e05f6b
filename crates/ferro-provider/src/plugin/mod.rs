//! The plugin client: go-plugin handshake, tfplugin5/tfplugin6 over gRPC, and [`GrpcProvider`],
//! which implements [`crate::Provider`] for an external provider executable.

mod client;
pub mod handshake;
pub mod proto;
mod provider;
mod reaper;
mod stats;
pub mod tls;

pub use client::{PluginClient, PluginOptions};
pub use provider::{decode_value, encode_value, schema_cache_path, GrpcProvider, Metadata};
pub use reaper::kill_all_plugins;
pub use stats::rpc_counts;
