//! Prior objects for the walk: one instance's (decoded, upgraded, refreshed), or many at once
//! with their provider calls overlapped, ahead of the sequential steps that take them.

use super::*;

impl Walk<'_> {
    pub(super) fn prior_object(
        &mut self,
        abs: &AbsResource,
        key: &InstanceKey,
        cfg: &AbsProviderConfig,
        schema: &Schema,
    ) -> Option<PriorObject> {
        if let Some(instances) = self.ahead.prefetched.get_mut(abs) {
            if let Some(taken) = instances.remove(key) {
                let (out, acc) = *taken;
                if instances.is_empty() {
                    self.ahead.prefetched.remove(abs);
                } else if instances.len() * 4 <= instances.capacity() {
                    // A map keeps its room as entries leave; the walk takes them one by one
                    // into changes, so the room is given back as it goes (halving it each
                    // time a quarter is left costs a linear number of moves in all).
                    instances.shrink_to_fit();
                }
                if let Some(acc) = acc {
                    self.merge(*acc);
                }
                return out;
            }
        }
        let mut acc = Acc::default();
        let out = self
            .prior_planner(abs, key)
            .prior_object(abs, key, cfg, schema, &mut acc);
        self.merge_instance(abs, cfg, key, acc);
        out
    }

    /// Decode, upgrade and refresh many prior objects at once, their provider calls overlapped,
    /// for the walk's sequential steps (deletes of orphans and of instances no longer wanted)
    /// to take in order. The refreshed objects go into state at once (every prefetched
    /// instance is taken later); the rest of what each produced (diagnostics, drift) is merged
    /// when it is taken, in the walk's order.
    /// The items are borrowed (from the caller's outline of state): four words each, where
    /// owned addresses and provider configurations took over 200 bytes per instance.
    pub(super) fn prefetch_priors(
        &mut self,
        items: Vec<(&AbsResource, &InstanceKey, &AbsProviderConfig, &Schema)>,
    ) {
        if items.len() < 2 {
            return;
        }
        // In chunks, each chunk's refreshed objects replacing those of state before the next
        // starts: the old and the new objects of every instance are never all held at once.
        let mut items = items.into_iter();
        loop {
            let chunk: Vec<_> = items.by_ref().take(PREFETCH_CHUNK).collect();
            if chunk.is_empty() {
                break;
            }
            let threads = self.parallelism();
            let chunk: Vec<_> = chunk
                .into_iter()
                .map(|(abs, key, cfg, schema)| {
                    (abs, key, cfg, schema, self.prior_planner(abs, key))
                })
                .collect();
            let results = parallel_map(chunk, threads, |(abs, key, cfg, schema, planner)| {
                let mut acc = Acc::default();
                let out = planner.prior_object(abs, key, cfg, schema, &mut acc);
                (abs, key, cfg, out, acc)
            });
            for (abs, key, cfg, out, mut acc) in results {
                // Told now, in the walk's order: the rest waits until the instance is taken.
                self.notice_refresh(abs, key, &mut acc);
                self.store_refreshed(abs, cfg, key, &mut acc);
                let acc = (!acc.is_empty()).then(|| Box::new(acc.compact()));
                let prefetched = Box::new((out, acc));
                match self.ahead.prefetched.get_mut(abs) {
                    Some(instances) => {
                        instances.insert(key.clone(), prefetched);
                    }
                    None => {
                        let instances = HashMap::from([(key.clone(), prefetched)]);
                        self.ahead.prefetched.insert(abs.clone(), instances);
                    }
                }
            }
        }
    }
}
