//! What steps read of the prior state. Apply's working state is the plan's prior state itself
//! (moved, not copied: at a hundred thousand instances a copy of its maps is megabytes), so
//! the little the steps need of the objects as they were is taken out before the first step
//! changes anything.

use ferro_addrs::AbsResourceInstance;
use ferro_plan::{Action, ResourceInstanceChange};
use ferro_state::State;
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Default)]
pub(crate) struct Priors {
    /// Per change (by index): the private data of the object it updates or destroys, as state
    /// holds it (base64, shared with state's object); None for a create or no private data.
    /// Empty when no change has any (a delete carries its object's own: see
    /// `Walk::push_delete`).
    private: Vec<Option<Arc<str>>>,
    /// Per create_before_destroy replacement (by change index): the key its prior object is
    /// deposed under.
    deposed_keys: HashMap<usize, String>,
}

impl Priors {
    pub(crate) fn take(prior: &State, changes: &[Box<ResourceInstanceChange>]) -> Priors {
        let mut private: Vec<Option<Arc<str>>> = Vec::new();
        let mut deposed_keys = HashMap::new();
        for (i, c) in changes.iter().enumerate() {
            // An update's final plan sends the prior's private data; a destroy sends it when the
            // change carries none of its own.
            let reads_prior = match c.action {
                Action::Update => true,
                Action::Delete | Action::DeleteThenCreate | Action::CreateThenDelete => {
                    c.planned_private.is_empty()
                }
                _ => false,
            };
            if let Some(p) = reads_prior
                .then(|| prior.object_private(&c.addr, c.deposed()))
                .flatten()
            {
                if private.is_empty() {
                    private.resize(changes.len(), None);
                }
                private[i] = Some(p);
            }
            if c.action == Action::CreateThenDelete && c.deposed().is_none() {
                deposed_keys.insert(i, deposed_key_for(prior, &c.addr, i));
            }
        }
        Priors {
            private,
            deposed_keys,
        }
    }

    /// The private data of the prior object change `index` works on (empty when it has none).
    pub(crate) fn private(&self, index: usize) -> Vec<u8> {
        self.private
            .get(index)
            .and_then(Option::as_deref)
            .map(ferro_runtime::statecodec::base64_decode)
            .unwrap_or_default()
    }

    /// The key change `index` (a create_before_destroy replacement) deposes its prior object
    /// under.
    pub(crate) fn deposed_key(&self, index: usize) -> String {
        self.deposed_keys.get(&index).cloned().unwrap_or_default()
    }
}

/// Deposed key for a create-before-destroy replacement, derived from the change so the destroy
/// step finds the same object, and never a key the instance already has in the prior state (an
/// object left deposed by an earlier failed replacement keeps its key).
fn deposed_key_for(prior: &State, inst: &AbsResourceInstance, index: usize) -> String {
    let addr = inst.to_string();
    let taken = prior
        .resources
        .get(&inst.containing_resource())
        .and_then(|r| r.instances.get(&inst.resource.key))
        .map(|i| i.deposed.keys().cloned().collect::<Vec<_>>())
        .unwrap_or_default();
    let mut salt: u32 = 0;
    loop {
        let mut h: u32 = 0x811c_9dc5;
        for b in addr.bytes().chain(index.to_le_bytes()).chain(
            salt.to_le_bytes()
                .into_iter()
                .take(if salt == 0 { 0 } else { 4 }),
        ) {
            h ^= u32::from(b);
            h = h.wrapping_mul(0x0100_0193);
        }
        let key = format!("{h:08x}");
        if !taken.contains(&key) {
            return key;
        }
        salt += 1;
    }
}
