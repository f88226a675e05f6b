//! The environment variables commands read (`TF_VAR_name`), with per-thread additions: the
//! golden runner and other tests run several CLIs in one process, where the process
//! environment is shared, so a case's variables are given to its thread only.

use std::cell::RefCell;

thread_local! {
    static EXTRA: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// Run `f` with `vars` added to (and taking precedence over) the process environment, as
/// commands on this thread see it.
pub fn with_env<R>(vars: &[(String, String)], f: impl FnOnce() -> R) -> R {
    let saved = EXTRA.with(|e| std::mem::replace(&mut *e.borrow_mut(), vars.to_vec()));
    struct Restore(Option<Vec<(String, String)>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(v) = self.0.take() {
                EXTRA.with(|e| *e.borrow_mut() = v);
            }
        }
    }
    let _restore = Restore(Some(saved));
    f()
}

/// Every environment variable, the thread's additions included.
pub(crate) fn vars() -> Vec<(String, String)> {
    let extra = EXTRA.with(|e| e.borrow().clone());
    let mut out: Vec<(String, String)> = std::env::vars()
        .filter(|(k, _)| !extra.iter().any(|(n, _)| n == k))
        .collect();
    out.extend(extra);
    out
}

/// One environment variable, the thread's additions included.
pub(crate) fn var(name: &str) -> Option<String> {
    EXTRA
        .with(|e| {
            e.borrow()
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        })
        .or_else(|| std::env::var(name).ok())
}

/// Whether `TF_IN_AUTOMATION` is set (to anything but the empty string): as in Terraform, the
/// text that suggests the next command to a person at a terminal is left out (`init`'s
/// "You may now begin working…", the plan's closing note on `-out` or its saved file).
pub(crate) fn in_automation() -> bool {
    var("TF_IN_AUTOMATION").is_some_and(|v| !v.is_empty())
}
