//! Counts of the provider RPCs this process made, by method: benchmarks compare them with the
//! calls a phase must make (`FERRO_RPC_STATS=FILE` has the CLI write them at exit).

use super::proto::Rpc;
use std::sync::atomic::{AtomicU64, Ordering};

const ALL: [Rpc; 22] = [
    Rpc::GetProviderSchema,
    Rpc::ValidateProviderConfig,
    Rpc::ValidateResourceConfig,
    Rpc::ValidateDataResourceConfig,
    Rpc::UpgradeResourceState,
    Rpc::ConfigureProvider,
    Rpc::ReadResource,
    Rpc::PlanResourceChange,
    Rpc::ApplyResourceChange,
    Rpc::ImportResourceState,
    Rpc::ReadDataSource,
    Rpc::StopProvider,
    Rpc::GetMetadata,
    Rpc::GetFunctions,
    Rpc::CallFunction,
    Rpc::MoveResourceState,
    Rpc::ValidateEphemeralResourceConfig,
    Rpc::OpenEphemeralResource,
    Rpc::RenewEphemeralResource,
    Rpc::CloseEphemeralResource,
    Rpc::GetResourceIdentitySchemas,
    Rpc::UpgradeResourceIdentity,
];

static COUNTS: [AtomicU64; ALL.len()] = [const { AtomicU64::new(0) }; ALL.len()];

fn slot(rpc: Rpc) -> usize {
    ALL.iter().position(|r| *r == rpc).unwrap_or(0)
}

pub(super) fn record(rpc: Rpc) {
    COUNTS[slot(rpc)].fetch_add(1, Ordering::Relaxed);
}

/// Every method called at least once and how often, by protocol-6 name.
pub fn rpc_counts() -> Vec<(&'static str, u64)> {
    ALL.iter()
        .zip(COUNTS.iter())
        .map(|(rpc, n)| (rpc.method(6), n.load(Ordering::Relaxed)))
        .filter(|(_, n)| *n > 0)
        .collect()
}
