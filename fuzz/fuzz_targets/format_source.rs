//! The formatter never panics, and formatting what it produced changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(once) = ferro_syntax::format_source(text) {
        // terraform fmt itself is not idempotent on every input it accepts (`a = "${"${x}"}"`
        // unwraps one level per run), so only "no panic" is checked on the second pass.
        let _ = ferro_syntax::format_source(&once);
    }
});
