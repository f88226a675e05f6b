//! A debug-build record of what a module instance released (see the planner's walk release
//! and apply's settling).

use ferro_addrs::{ModuleInstance, Resource};
#[cfg(debug_assertions)]
use std::collections::HashSet;

/// The resources whose values the walk (or apply, settling the instance) released in one
/// module instance, recorded in debug builds only: reading one again is a bug of the order
/// analysis, and the golden suite runs debug builds. Release builds keep nothing.
#[derive(Default)]
pub struct Released {
    #[cfg(debug_assertions)]
    names: std::sync::Mutex<HashSet<Resource>>,
    /// The instance's outputs were released: its parent reads `module.CALL` no more.
    #[cfg(debug_assertions)]
    outputs: std::sync::atomic::AtomicBool,
}

impl Released {
    pub fn insert(&self, _r: &Resource) {
        #[cfg(debug_assertions)]
        self.names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(_r.clone());
    }

    pub fn insert_outputs(&self) {
        #[cfg(debug_assertions)]
        self.outputs
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// Panics (debug builds) when the instance's outputs were released.
    pub fn check_outputs(&self, _path: &ModuleInstance) {
        #[cfg(debug_assertions)]
        assert!(
            !self.outputs.load(std::sync::atomic::Ordering::Relaxed),
            "an output of {_path} was evaluated after its outputs were released"
        );
    }

    /// Panics (debug builds) when `r` was released.
    pub fn check(&self, _r: &Resource, _path: &ModuleInstance) {
        #[cfg(debug_assertions)]
        assert!(
            !self
                .names
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains(_r),
            "{_r} in {_path} was read after its value was released"
        );
    }
}
