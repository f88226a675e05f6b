//! Positions and document addresses: byte offsets ↔ LSP positions (UTF-16 code units, or bytes
//! when the client negotiated `utf-8`), and `file://` URIs ↔ paths.

use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Line starts of a text, for converting between offsets and positions.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
    utf8: bool,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str, utf8: bool) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts, utf8 }
    }

    /// The (line, character) of a byte offset (clamped to the text).
    pub fn position(&self, offset: usize) -> (u32, u32) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let mut end = offset;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let seg = &self.text[start..end];
        let col = if self.utf8 {
            seg.len()
        } else {
            seg.encode_utf16().count()
        };
        (line as u32, col as u32)
    }

    /// The byte offset of a position; positions past a line's end or the text's end clamp.
    pub fn offset(&self, line: u32, character: u32) -> usize {
        let Some(&start) = self.starts.get(line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(line as usize + 1)
            .map(|e| e - 1)
            .unwrap_or(self.text.len());
        let seg = &self.text[start..end];
        let mut units = 0usize;
        for (i, c) in seg.char_indices() {
            if units >= character as usize {
                return start + i;
            }
            units += if self.utf8 {
                c.len_utf8()
            } else {
                c.len_utf16()
            };
        }
        end
    }

    pub fn lsp_position(&self, offset: usize) -> Value {
        let (l, c) = self.position(offset);
        json!({"line": l, "character": c})
    }

    pub fn range(&self, start: usize, end: usize) -> Value {
        json!({"start": self.lsp_position(start), "end": self.lsp_position(end)})
    }

    /// The offset of an LSP position object; None when it is malformed.
    pub fn offset_of(&self, pos: &Value) -> Option<usize> {
        let line = pos.get("line")?.as_u64()?;
        let ch = pos.get("character")?.as_u64()?;
        Some(self.offset(line as u32, ch as u32))
    }
}

/// The path of a `file://` URI; None for other schemes.
pub fn uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://host/path` is not a local file; `file:///path` has an empty host.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    let s = String::from_utf8(out).ok()?;
    Some(PathBuf::from(s))
}

/// The `file://` URI of an absolute path, percent-encoding what URIs cannot hold.
pub fn path_to_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.to_string_lossy().bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_positions_round_trip() {
        let text = "a = \"é😀x\"\nb\n";
        let idx = LineIndex::new(text, false);
        let x = text.find('x').unwrap();
        assert_eq!(idx.position(x), (0, 8));
        assert_eq!(idx.offset(0, 8), x);
        assert_eq!(idx.offset(1, 0), text.find('b').unwrap());
        assert_eq!(idx.offset(1, 99), text.len() - 1);
        assert_eq!(idx.offset(9, 0), text.len());
        let idx8 = LineIndex::new(text, true);
        assert_eq!(idx8.position(x), (0, x as u32));
    }

    #[test]
    fn uris_round_trip() {
        let p = Path::new("/tmp/a dir/ü.tf");
        let uri = path_to_uri(p);
        assert_eq!(uri, "file:///tmp/a%20dir/%C3%BC.tf");
        assert_eq!(uri_to_path(&uri).unwrap(), p);
        assert_eq!(uri_to_path("untitled:1"), None);
        assert_eq!(uri_to_path("file:///x%"), Some(PathBuf::from("/x%")));
    }
}
