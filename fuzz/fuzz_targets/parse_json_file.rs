//! The JSON parser never panics, and its spans stay inside the input.
#![no_main]

use ferro_diag::FileId;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, _) = ferro_syntax::decode_source(FileId(0), data);
    let len = text.len() as u32;
    for mut parsed in [ferro_syntax::parse_json_file(FileId(0), &text), ferro_syntax::parse_json_values(FileId(0), &text)] {
        parsed.body.map_spans(&mut |s| {
            assert!(s.start <= s.end && s.end <= len, "span {s:?} outside 0..{len}");
            s
        });
        for d in &parsed.diagnostics {
            if let Some(s) = d.span {
                assert!(s.start <= s.end && s.end <= len, "diagnostic span {s:?} outside 0..{len}");
            }
        }
    }
});
