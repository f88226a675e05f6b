//! Giving freed memory back to the system at the points where the walk frees much at once.
//!
//! An allocator keeps the pages it freed for a while, to hand them out again; pages it keeps
//! count in the process's resident size until then. When the walk releases the values of a
//! resource with 100 000 instances (see `walk::release`), what it builds next (outputs,
//! larger blocks) cannot reuse the small objects' pages, and the process's peak grows by what
//! it freed. The binary knows its allocator: it installs how to give pages back
//! ([`set_give_back`]); libraries and tests run without one.

use std::sync::OnceLock;

static GIVE_BACK: OnceLock<fn()> = OnceLock::new();

/// Install how the process gives freed pages back to the system (once; later calls are
/// ignored).
pub fn set_give_back(f: fn()) {
    let _ = GIVE_BACK.set(f);
}

/// Give freed pages back now, if the process said how.
pub fn give_back() {
    if let Some(f) = GIVE_BACK.get() {
        f();
    }
}
