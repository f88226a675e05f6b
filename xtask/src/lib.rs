//! Repository automation (`cargo xtask …`): the golden-test runner, later interop and benchmarks.

pub mod console_oracle;
pub mod golden;
