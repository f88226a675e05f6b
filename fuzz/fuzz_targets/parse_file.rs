//! The native parser never panics, and its spans stay inside the input.
#![no_main]

use ferro_diag::FileId;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (text, _) = ferro_syntax::decode_source(FileId(0), data);
    let mut parsed = ferro_syntax::parse_file(FileId(0), &text);
    let len = text.len() as u32;
    parsed.body.map_spans(&mut |s| {
        assert!(s.start <= s.end && s.end <= len, "span {s:?} outside 0..{len}");
        s
    });
    for d in &parsed.diagnostics {
        if let Some(s) = d.span {
            assert!(s.start <= s.end && s.end <= len, "diagnostic span {s:?} outside 0..{len}");
        }
    }
    let _ = ferro_syntax::parse_expr(FileId(0), &text);
    let _ = ferro_syntax::parse_template(FileId(0), &text);
});
