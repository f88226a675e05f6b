//! Repository automation (`cargo xtask …`): the golden-test runner, later interop and benchmarks.

pub mod bench_lsp;
pub mod bench_modules;
pub mod bench_pg;
pub mod bench_providers;
pub mod bench_random;
pub mod bench_s3;
pub mod bench_scale;
pub mod bench_test;
pub mod console_gen;
pub mod console_oracle;
pub mod fmt_oracle;
pub mod fuzz_smoke;
pub mod golden;
pub mod interop;
mod interop_diag;
mod interop_lifecycle;
mod interop_modules;
mod interop_orphans;
mod interop_providers;
mod interop_registry;
mod interop_render;
pub mod interop_s3;
pub mod interop_sdk;
mod interop_sensitive;
mod interop_ssh;
mod interop_trust;
pub mod oracles;
