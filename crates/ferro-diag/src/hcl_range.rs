//! Source ranges written as HCL writes them (`main.tf:3,5-12`, `main.tf:3,5-4,2`), for messages
//! that quote where something else is: `try`'s list of failures, "already declared at …".
//!
//! HCL counts lines and columns from 1, columns in grapheme clusters (`é` written as `e` and a
//! combining accent is one column), and a range ends at the column after its last character.

use crate::Span;
use unicode_segmentation::UnicodeSegmentation;

/// Line and column (1-based, columns in grapheme clusters) of byte `offset` in `text`.
fn position(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before[..line_start].matches('\n').count() + 1;
    (line, before[line_start..].graphemes(true).count() + 1)
}

/// `NAME:LINE,COL-ENDCOL`, or `NAME:LINE,COL-ENDLINE,ENDCOL` for a range over several lines
/// (HCL's `Range.String`).
pub fn hcl_range(name: &str, text: &str, span: Span) -> String {
    let (line, col) = position(text, span.start as usize);
    let (end_line, end_col) = position(text, span.end as usize);
    if line == end_line {
        format!("{name}:{line},{col}-{end_col}")
    } else {
        format!("{name}:{line},{col}-{end_line},{end_col}")
    }
}

const MARK: char = '\u{1}';

/// A range quoted in a message by a pass that does not know the file's name (the parser):
/// [`name_ranges`] writes it as HCL does once the diagnostic reaches a front end that does.
pub fn range_mark(span: Span) -> String {
    format!("{MARK}range:{}-{}{MARK}", span.start, span.end)
}

/// Write the ranges [`range_mark`] left in a diagnostic's detail as `NAME:LINE,COL-ENDCOL`,
/// the ranges being in `text`, the source named `name`.
pub fn name_ranges(d: &mut crate::Diagnostic, name: &str, text: &str) {
    let open = format!("{MARK}range:");
    while let Some(at) = d.detail.find(&open) {
        let rest = &d.detail[at + open.len()..];
        let Some(close) = rest.find(MARK) else {
            break;
        };
        let quoted = rest[..close]
            .split_once('-')
            .and_then(|(s, e)| Some((s.parse::<u32>().ok()?, e.parse::<u32>().ok()?)))
            .map(|(start, end)| {
                let file = d.span.map_or(crate::FileId(0), |s| s.file);
                hcl_range(name, text, Span { file, start, end })
            })
            .unwrap_or_default();
        let end = at + open.len() + close + MARK.len_utf8();
        d.detail.replace_range(at..end, &quoted);
    }
}
