//! Terminal control that needs the C library, kept apart because the rest of the workspace
//! forbids `unsafe`: raw mode for a line editor (with a guard that puts the previous mode
//! back), the width of the terminal, and pseudo-terminal pairs for tests that drive an
//! interactive program.
//!
//! Every `unsafe` block is a single C call on a file descriptor the caller keeps open, with
//! its result checked.

#[cfg(unix)]
mod unix;

#[cfg(unix)]
pub use unix::{columns, is_canonical, RawMode};

#[cfg(target_os = "linux")]
pub use unix::{open_pty, Pty};

/// jemalloc's options, read when it starts (a `_RJEM_MALLOC_CONF` variable still overrides
/// them). Each thread keeps freed blocks in a cache of its own, up to 200 per size class by
/// default; ferro runs a few dozen threads (planning pool, apply workers, provider I/O), and at
/// the peak of a 100 000-instance destroy those caches held about 3 MiB that nothing would use
/// again. Sixteen per class cost no measurable time (`cargo xtask bench scale`).
#[cfg(all(unix, not(target_env = "musl")))]
#[export_name = "_rjem_malloc_conf"]
pub static ALLOCATOR_OPTIONS: Option<&'static u8> = Some(&b"tcache_nslots_small_max:16\0"[0]);

/// Give the pages jemalloc holds freed back to the system now, in every arena (`ferro-cli`
/// installs jemalloc as the allocator). jemalloc keeps freed pages for seconds to hand them out
/// again; after the planner frees many small objects at once, what it builds next cannot use
/// their pages, and the process's resident size would count both. Without jemalloc as the
/// allocator (a `system-alloc` build) there is nothing of it to purge and this does nothing.
#[cfg(all(unix, not(target_env = "musl")))]
pub fn allocator_purge() {
    // "arena.<MALLCTL_ARENAS_ALL>.purge": 4096 names every arena.
    const NAME: &[u8] = b"arena.4096.purge\0";
    // A write-less, read-less control: nothing is passed but the name, which is
    // NUL-terminated. An error (no such control) leaves memory as it was.
    let _ = unsafe {
        tikv_jemalloc_sys::mallctl(
            NAME.as_ptr().cast(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            0,
        )
    };
}
