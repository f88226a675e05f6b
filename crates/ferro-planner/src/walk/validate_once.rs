//! `ValidateResourceConfig` once per distinct (provider instance, resource type, configuration
//! value) in a plan: instances whose configurations are the same (every instance of a `count`
//! whose body does not read `count.index`, say) share one call. What the provider said is kept
//! and given to each such instance, so each still reports it with its own address, as when
//! every instance asked.

use ferro_provider::{Provider, ProviderDiagnostic};
use ferro_value::Value;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

/// The answers so far, by a 128-bit digest of the question (two SipHash passes with different
/// salts: a collision, which would give one configuration another's answer, is as unlikely as
/// the digest is wide).
#[derive(Default)]
pub(super) struct Validated {
    answers: Mutex<HashMap<u128, Answer>>,
}

/// One question's answer, filled by the first instance that asks; the others asking at the
/// same time wait for it rather than ask again.
type Answer = Arc<OnceLock<Arc<[ProviderDiagnostic]>>>;

impl Validated {
    /// The provider's diagnostics for `config` of `type_name`, asked at most once per plan.
    pub(super) fn validate(
        &self,
        provider: &Arc<dyn Provider>,
        type_name: &str,
        config: &Value,
    ) -> Arc<[ProviderDiagnostic]> {
        let key = digest(provider, type_name, config);
        let slot: Answer = self
            .answers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key)
            .or_default()
            .clone();
        // Asked without the map locked: other questions go on meanwhile.
        slot.get_or_init(|| provider.validate_resource_config(type_name, config).into())
            .clone()
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
}
