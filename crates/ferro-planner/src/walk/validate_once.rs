//! `ValidateResourceConfig` once per distinct (provider instance, resource type, configuration
//! value) in a plan: instances whose configurations are the same (every instance of a `count`
//! whose body does not read `count.index`, say) share one call. What the provider said is kept
//! and given to each such instance, so each still reports it with its own address, as when
//! every instance asked.

use ferro_provider::{Provider, ProviderDiagnostic};
use ferro_value::Value;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// The answers so far, by a 128-bit digest of the question (two SipHash passes with different
/// salts: a collision, which would give one configuration another's answer, is as unlikely as
/// the digest is wide).
///
/// A plan may ask once per instance (a `count` whose body reads `count.index`), and nearly
/// every answer is empty: such a question is remembered by its digest alone, 16 bytes, not
/// beside a slot and an answer of its own (which cost a plan of 100 000 such instances 10 MB).
pub(super) struct Validated {
    inner: Mutex<Inner>,
    /// The answer of every question the provider found nothing to say about, shared.
    none: Arc<[ProviderDiagnostic]>,
}

#[derive(Default)]
struct Inner {
    /// Questions answered without diagnostics.
    clean: HashSet<u128>,
    /// Questions answered with diagnostics, and their answers.
    answered: HashMap<u128, Arc<[ProviderDiagnostic]>>,
    /// Questions being asked: the instances asking the same at the same time wait for the
    /// first one's answer rather than ask again.
    asking: HashMap<u128, Slot>,
}

type Slot = Arc<OnceLock<Arc<[ProviderDiagnostic]>>>;

impl Default for Validated {
    fn default() -> Self {
        Validated {
            inner: Mutex::default(),
            none: Arc::from(Vec::new()),
        }
    }
}

impl Validated {
    /// The provider's diagnostics for `config` of `type_name`, asked at most once per plan.
    pub(super) fn validate(
        &self,
        provider: &Arc<dyn Provider>,
        type_name: &str,
        config: &Value,
    ) -> Arc<[ProviderDiagnostic]> {
        let key = digest(provider, type_name, config);
        let (slot, first) = {
            let mut inner = self.lock();
            if inner.clean.contains(&key) {
                return self.none.clone();
            }
            if let Some(answer) = inner.answered.get(&key) {
                return answer.clone();
            }
            match inner.asking.get(&key) {
                Some(slot) => (slot.clone(), false),
                None => {
                    let slot = Slot::default();
                    inner.asking.insert(key, slot.clone());
                    (slot, true)
                }
            }
        };
        // Asked without the map locked: other questions go on meanwhile.
        let answer = slot
            .get_or_init(|| {
                let diags = provider.validate_resource_config(type_name, config);
                if diags.is_empty() {
                    self.none.clone()
                } else {
                    diags.into()
                }
            })
            .clone();
        if first {
            let mut inner = self.lock();
            inner.asking.remove(&key);
            if answer.is_empty() {
                inner.clean.insert(key);
            } else {
                inner.answered.insert(key, answer.clone());
            }
        }
        answer
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn digest(provider: &Arc<dyn Provider>, type_name: &str, config: &Value) -> u128 {
    // The provider instance by identity: each lives as long as the plan.
    let instance = Arc::as_ptr(provider) as *const () as usize;
    let half = |salt: u64| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        salt.hash(&mut h);
        instance.hash(&mut h);
        type_name.hash(&mut h);
        config.hash(&mut h);
        h.finish()
    };
    (u128::from(half(0x5a17_0001)) << 64) | u128::from(half(0x5a17_0002))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_provider::{
        ApplyRequest, ApplyResponse, ImportRequest, ImportResponse, PlanRequest, PlanResponse,
        ProviderSchema, ReadDataRequest, ReadDataResponse, ReadRequest, ReadResponse,
        UpgradeRequest, UpgradeResponse,
    };
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts validations; warns about a configuration whose `name` is "bad".
    #[derive(Default)]
    struct Counting(AtomicUsize);

    impl Provider for Counting {
        fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>> {
            Ok(ProviderSchema::default())
        }
        fn configure(&self, _: &Value) -> Vec<ProviderDiagnostic> {
            Vec::new()
        }
        fn validate_resource_config(&self, _: &str, config: &Value) -> Vec<ProviderDiagnostic> {
            self.0.fetch_add(1, Ordering::SeqCst);
            match config.get_attr("name") {
                Some(v) if *v == Value::string("bad") => {
                    vec![ProviderDiagnostic::error("Bad name", "no")]
                }
                _ => Vec::new(),
            }
        }
        // The other calls are not made by this test; each answers with an error saying so.
        fn upgrade_resource_state(&self, _: UpgradeRequest<'_>) -> UpgradeResponse {
            UpgradeResponse {
                upgraded_state: Value::dynamic_unknown(),
                diagnostics: unused(),
            }
        }
        fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse {
            ReadResponse {
                new_state: req.current_state.clone(),
                private: Vec::new(),
                diagnostics: unused(),
                deferred: None,
                new_identity: None,
            }
        }
        fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse {
            PlanResponse {
                planned_state: req.proposed_new_state.clone(),
                requires_replace: Vec::new(),
                planned_private: Vec::new(),
                diagnostics: unused(),
                legacy_type_system: false,
                deferred: None,
                planned_identity: None,
            }
        }
        fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse {
            ApplyResponse {
                new_state: req.planned_state.clone(),
                private: Vec::new(),
                diagnostics: unused(),
                legacy_type_system: false,
                new_identity: None,
            }
        }
        fn read_data_source(&self, req: ReadDataRequest<'_>) -> ReadDataResponse {
            ReadDataResponse {
                state: req.config.clone(),
                diagnostics: unused(),
                deferred: None,
            }
        }
        fn import_resource_state(&self, _: ImportRequest<'_>) -> ImportResponse {
            ImportResponse {
                imported: Vec::new(),
                diagnostics: unused(),
                deferred: None,
            }
        }
    }

    fn unused() -> Vec<ProviderDiagnostic> {
        vec![ProviderDiagnostic::error(
            "Not used",
            "This test provider only validates.",
        )]
    }

    fn config(name: &str) -> Value {
        Value::object(
            [("name".to_string(), Value::string(name))]
                .into_iter()
                .collect(),
        )
    }

    #[test]
    fn each_distinct_question_is_asked_once_and_answers_are_kept() {
        let counting = Arc::new(Counting::default());
        let p: Arc<dyn Provider> = counting.clone();
        let other: Arc<dyn Provider> = Arc::new(Counting::default());
        let v = Validated::default();
        for _ in 0..5 {
            assert!(v.validate(&p, "x_thing", &config("a")).is_empty());
        }
        assert_eq!(counting.0.load(Ordering::SeqCst), 1);
        // Another value, another type, another provider instance: asked again.
        assert!(v.validate(&p, "x_thing", &config("b")).is_empty());
        assert!(v.validate(&p, "x_other", &config("a")).is_empty());
        assert!(v.validate(&other, "x_thing", &config("a")).is_empty());
        assert_eq!(counting.0.load(Ordering::SeqCst), 3);
        // An error is given to every instance that asks.
        for _ in 0..3 {
            assert_eq!(v.validate(&p, "x_thing", &config("bad")).len(), 1);
        }
        assert_eq!(counting.0.load(Ordering::SeqCst), 4);
    }

    #[test]
    fn instances_asking_the_same_at_once_share_one_call() {
        let counting = Arc::new(Counting::default());
        let p: Arc<dyn Provider> = counting.clone();
        let v = Validated::default();
        std::thread::scope(|s| {
            for i in 0..8 {
                let (p, v) = (&p, &v);
                s.spawn(move || {
                    let name = if i % 2 == 0 { "bad" } else { "good" };
                    for _ in 0..50 {
                        let diags = v.validate(p, "x_thing", &config(name));
                        assert_eq!(diags.len(), usize::from(name == "bad"));
                    }
                });
            }
        });
        assert_eq!(counting.0.load(Ordering::SeqCst), 2);
    }
}
