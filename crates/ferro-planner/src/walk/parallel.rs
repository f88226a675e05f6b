//! Planning the instances of one resource concurrently: their provider calls overlap, results
//! come back in instance order so the plan stays deterministic (`ferro_pool::map`, on threads
//! kept across the plan's waves).

pub(super) use ferro_pool::map as parallel_map;

/// How many instances of one resource are planned at once (Terraform's default parallelism).
pub(super) const PLAN_PARALLELISM: usize = 10;
/// How many prior objects [`super::Walk::prefetch_priors`] refreshes before it puts the
/// refreshed objects into state.
pub(super) const PREFETCH_CHUNK: usize = 256;
/// How many instances [`super::Walk::resources`] plans before it merges their results: what
/// waits to be merged is bounded by this, not by the size of the resource, and the threads
/// wait for a chunk's slowest call once per chunk.
pub(super) const PLAN_CHUNK: usize = 1024;
