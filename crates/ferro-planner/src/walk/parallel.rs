//! Planning the instances of one resource concurrently: their provider calls overlap, results
//! come back in instance order so the plan stays deterministic.

/// How many instances of one resource are planned at once (Terraform's default parallelism).
pub(super) const PLAN_PARALLELISM: usize = 10;
/// How many prior objects [`super::Walk::prefetch_priors`] refreshes before it puts the
/// refreshed objects into state.
pub(super) const PREFETCH_CHUNK: usize = 256;

/// `f` over `items` on up to `threads` threads; results in the order of `items`.
pub(super) fn parallel_map<T: Send, R: Send>(
    items: Vec<T>,
    threads: usize,
    f: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let n = items.len();
    if n <= 1 || threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let queue = std::sync::Mutex::new(items.into_iter().enumerate());
    let results: std::sync::Mutex<Vec<Option<R>>> =
        std::sync::Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..threads.min(n) {
            scope.spawn(|| loop {
                let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                let Some((i, item)) = next else { break };
                let r = f(item);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}
