//! Counts of the provider RPCs this process made, by method: benchmarks compare them with the
//! calls a phase must make (`FERRO_RPC_STATS=FILE` has the CLI write them at exit).

use super::proto::Rpc;
use std::collections::BTreeMap;
use std::sync::Mutex;

/// Calls by protocol-6 method name. A lock per call costs far less than the call itself.
static COUNTS: Mutex<BTreeMap<&'static str, u64>> = Mutex::new(BTreeMap::new());

pub(super) fn record(rpc: Rpc) {
    let mut counts = COUNTS.lock().unwrap_or_else(|e| e.into_inner());
    *counts.entry(rpc.method(6)).or_default() += 1;
}

/// Every method called at least once and how often, by protocol-6 name (in name order).
pub fn rpc_counts() -> Vec<(&'static str, u64)> {
    let counts = COUNTS.lock().unwrap_or_else(|e| e.into_inner());
    counts.iter().map(|(m, n)| (*m, *n)).collect()
}
