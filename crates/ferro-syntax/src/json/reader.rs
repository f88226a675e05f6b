//! The JSON reader of the HCL JSON syntax: JSON text to values that keep their source
//! offsets (strings also keep whether they had escapes, so positions inside them can be mapped
//! back), with JSON's syntax errors as diagnostics.

use ferro_diag::{Diagnostic, FileId, Span};

/// Deepest JSON nesting accepted (the reader and the mapping are recursive).
const MAX_DEPTH: usize = 256;

#[derive(Debug)]
pub(super) enum JKind {
    Null,
    Bool(bool),
    /// The number's text, without a leading `-` (`neg` says whether there was one).
    Number {
        text: String,
        neg: bool,
    },
    String(JStr),
    Array(Vec<JVal>),
    Object(Vec<JProp>),
}

#[derive(Debug)]
pub(super) struct JVal {
    pub(super) kind: JKind,
    pub(super) start: usize,
    pub(super) end: usize,
}

#[derive(Debug)]
pub(super) struct JStr {
    pub(super) value: String,
    /// Whether the source text has backslash escapes (decoded offsets then differ from source ones).
    pub(super) escaped: bool,
}

#[derive(Debug)]
pub(super) struct JProp {
    pub(super) name: JStr,
    pub(super) name_start: usize,
    pub(super) name_end: usize,
    pub(super) value: JVal,
}

pub(super) struct Reader<'a> {
    pub(super) src: &'a str,
    pub(super) b: &'a [u8],
    pub(super) pos: usize,
    pub(super) file: FileId,
}

/// Reading stops at the first error (boxed: errors are rare, values are not).
pub(super) type RResult<T> = Result<T, Box<Diagnostic>>;

impl<'a> Reader<'a> {
    pub(super) fn err(
        &self,
        range: std::ops::Range<usize>,
        summary: &str,
        detail: impl Into<String>,
    ) -> Box<Diagnostic> {
        let end = range.end.min(self.src.len());
        let start = range.start.min(end);
        Box::new(
            Diagnostic::error("json-syntax", summary)
                .with_detail(detail)
                .with_span(Span::new(self.file, start..end)),
        )
    }

    /// The range of the character at `at` (empty at the end of the input).
    pub(super) fn char_range(&self, at: usize) -> std::ops::Range<usize> {
        let len = self.src[at..].chars().next().map_or(0, char::len_utf8);
        at..at + len
    }

    pub(super) fn skip_ws(&mut self) {
        while let Some(c) = self.b.get(self.pos) {
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    pub(super) fn eof_err(&self) -> Box<Diagnostic> {
        self.err(
            self.pos..self.pos,
            "Unexpected end of file",
            "The JSON data ends prematurely: a value, or the close of an object or array, is missing here.",
        )
    }

    pub(super) fn value(&mut self, depth: usize) -> RResult<JVal> {
        self.skip_ws();
        let start = self.pos;
        let Some(&c) = self.b.get(self.pos) else {
            return Err(self.eof_err());
        };
        if depth > MAX_DEPTH {
            return Err(self.err(
                self.char_range(start),
                "Nesting too deep",
                format!("JSON arrays and objects may be nested at most {MAX_DEPTH} levels deep."),
            ));
        }
        let kind = match c {
            b'{' => {
                self.pos += 1;
                let mut props = Vec::new();
                let mut comma = 0;
                self.skip_ws();
                if self.b.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                } else {
                    loop {
                        self.skip_ws();
                        let name_start = self.pos;
                        match self.b.get(self.pos) {
                            Some(b'"') => {}
                            None => return Err(self.eof_err()),
                            Some(b'}') if !props.is_empty() => {
                                return Err(self.err(
                                    comma..comma + 1,
                                    "Trailing comma in object",
                                    "JSON does not permit a trailing comma after the last property of an object.",
                                ))
                            }
                            Some(c) => {
                                let detail = if matches!(c, b'/' | b'#') {
                                    "JSON does not allow comments. In a configuration body, write a comment as a \
                                     property named \"//\"."
                                } else {
                                    "A JSON object property name must be a string in double quotes."
                                };
                                return Err(self.err(self.char_range(self.pos), "Invalid object property name", detail));
                            }
                        }
                        let name = self.string()?;
                        let name_end = self.pos;
                        self.skip_ws();
                        match self.b.get(self.pos) {
                            Some(b':') => self.pos += 1,
                            None => return Err(self.eof_err()),
                            Some(_) => {
                                return Err(self.err(
                                    self.char_range(self.pos),
                                    "Missing property value colon",
                                    "JSON object properties must have a colon between the name and the value.",
                                ))
                            }
                        }
                        let value = self.value(depth + 1)?;
                        props.push(JProp {
                            name,
                            name_start,
                            name_end,
                            value,
                        });
                        self.skip_ws();
                        match self.b.get(self.pos) {
                            Some(b',') => {
                                comma = self.pos;
                                self.pos += 1
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                break;
                            }
                            None => return Err(self.eof_err()),
                            Some(_) => {
                                return Err(self.err(
                                    self.char_range(self.pos),
                                    "Missing property separator comma",
                                    "A comma is required to separate each property from the next inside an object.",
                                ))
                            }
                        }
                    }
                }
                JKind::Object(props)
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                let mut comma = 0;
                self.skip_ws();
                if self.b.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                } else {
                    loop {
                        self.skip_ws();
                        if self.b.get(self.pos) == Some(&b']') && !items.is_empty() {
                            return Err(self.err(
                                comma..comma + 1,
                                "Trailing comma in array",
                                "JSON does not permit a trailing comma after the last element of an array.",
                            ));
                        }
                        items.push(self.value(depth + 1)?);
                        self.skip_ws();
                        match self.b.get(self.pos) {
                            Some(b',') => {
                                comma = self.pos;
                                self.pos += 1
                            }
                            Some(b']') => {
                                self.pos += 1;
                                break;
                            }
                            None => return Err(self.eof_err()),
                            Some(_) => {
                                return Err(self.err(
                                    self.char_range(self.pos),
                                    "Missing array element separator comma",
                                    "A comma is required to separate each element of an array from the next.",
                                ))
                            }
                        }
                    }
                }
                JKind::Array(items)
            }
            b'"' => JKind::String(self.string()?),
            b'-' | b'0'..=b'9' => self.number()?,
            c if c.is_ascii_alphabetic() => {
                let len = self.b[self.pos..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                    .count();
                let word = &self.src[self.pos..self.pos + len];
                let kind = match word {
                    "true" => JKind::Bool(true),
                    "false" => JKind::Bool(false),
                    "null" => JKind::Null,
                    _ => {
                        return Err(self.err(
                            self.pos..self.pos + len,
                            "Invalid JSON keyword",
                            format!(
                                "The keyword {word:?} is not valid in JSON. Only \"true\", \"false\" and \"null\" \
                                 are keywords; text must be a string in double quotes."
                            ),
                        ))
                    }
                };
                self.pos += len;
                kind
            }
            _ => {
                let r = self.char_range(self.pos);
                let what = if self.src[r.clone()].starts_with(['/', '#']) {
                    "JSON does not allow comments. In a configuration body, write a comment as a property named \"//\"."
                } else {
                    "A JSON value is expected here: an object, an array, a string, a number, true, false or null."
                };
                return Err(self.err(r, "Invalid JSON value", what));
            }
        };
        Ok(JVal {
            kind,
            start,
            end: self.pos,
        })
    }

    pub(super) fn number(&mut self) -> RResult<JKind> {
        let start = self.pos;
        let neg = self.b[self.pos] == b'-';
        if neg {
            self.pos += 1;
        }
        let digits = |r: &Self, from: usize| {
            r.b[from..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count()
        };
        let int = digits(self, self.pos);
        let bad = |r: &Self, at: usize| {
            r.err(
                start..at.max(start + 1).min(r.src.len()),
                "Invalid JSON number",
                "A JSON number is an optional minus sign, digits without leading zeros, an optional fraction \
                 and an optional exponent, like -1.5e10.",
            )
        };
        if int == 0 || (int > 1 && self.b[self.pos] == b'0') {
            return Err(bad(self, self.pos + int));
        }
        self.pos += int;
        if self.b.get(self.pos) == Some(&b'.') {
            let frac = digits(self, self.pos + 1);
            if frac == 0 {
                return Err(bad(self, self.pos + 1));
            }
            self.pos += 1 + frac;
        }
        if matches!(self.b.get(self.pos), Some(b'e' | b'E')) {
            let mut at = self.pos + 1;
            if matches!(self.b.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            let exp = digits(self, at);
            if exp == 0 {
                return Err(bad(self, at));
            }
            self.pos = at + exp;
        }
        let text_start = if neg { start + 1 } else { start };
        Ok(JKind::Number {
            text: self.src[text_start..self.pos].to_string(),
            neg,
        })
    }

    /// A string starting at `self.pos` (which holds `"`).
    pub(super) fn string(&mut self) -> RResult<JStr> {
        let open = self.pos;
        self.pos += 1;
        let mut value = String::new();
        let mut escaped = false;
        loop {
            let run = self.b[self.pos..]
                .iter()
                .take_while(|&&c| c != b'"' && c != b'\\' && c >= 0x20)
                .count();
            value.push_str(&self.src[self.pos..self.pos + run]);
            self.pos += run;
            match self.b.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(JStr { value, escaped });
                }
                Some(b'\\') => {
                    escaped = true;
                    let (ch, len) = decode_escape(&self.src[self.pos..]).ok_or_else(|| {
                        let r = self.char_range(self.pos + 1);
                        self.err(
                            self.pos..r.end,
                            "Invalid escape sequence",
                            "JSON strings allow only the escapes \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \
                             \\uXXXX (with surrogate pairs for characters outside the Basic Multilingual Plane).",
                        )
                    })?;
                    value.push(ch);
                    self.pos += len;
                }
                Some(b'\n') | None => {
                    return Err(self.err(
                        open..self.pos,
                        "Unterminated string",
                        "No closing quote was found for this string: JSON strings end with '\"' on the same line.",
                    ))
                }
                Some(_) => {
                    let r = self.char_range(self.pos);
                    return Err(self.err(
                        r,
                        "Invalid character in string",
                        "Control characters must be escaped in JSON strings (for example \\t or \\u0001).",
                    ));
                }
            }
        }
    }
}

/// The character and source length of the escape at the start of `s` (which starts with `\`).
fn decode_escape(s: &str) -> Option<(char, usize)> {
    let b = s.as_bytes();
    let simple = match b.get(1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hex = |at: usize| -> Option<u32> {
                let h = s.get(at..at + 4)?;
                h.bytes()
                    .all(|c| c.is_ascii_hexdigit())
                    .then(|| u32::from_str_radix(h, 16).ok())?
            };
            let hi = hex(2)?;
            if (0xD800..0xDC00).contains(&hi) {
                if s.get(6..8) != Some("\\u") {
                    return None;
                }
                let lo = hex(8)?;
                if !(0xDC00..0xE000).contains(&lo) {
                    return None;
                }
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return Some((char::from_u32(c)?, 12));
            }
            return Some((char::from_u32(hi)?, 6));
        }
        _ => return None,
    };
    Some((simple, 2))
}

/// For a string whose source text (without quotes) starts at `base`: the source offset of each
/// byte offset of the decoded value, plus one for its end.
pub(super) fn offset_map(src: &str, base: usize) -> Vec<u32> {
    let mut map = Vec::new();
    let mut pos = base;
    let b = src.as_bytes();
    while pos < src.len() && b[pos] != b'"' {
        if b[pos] == b'\\' {
            let Some((ch, len)) = decode_escape(&src[pos..]) else {
                break;
            };
            map.extend(std::iter::repeat_n(pos as u32, ch.len_utf8()));
            pos += len;
        } else {
            map.push(pos as u32);
            pos += 1;
        }
    }
    map.push(pos as u32);
    map
}
