//! Encoding functions: base64decode, base64encode, base64gzip, base64gunzip, csvdecode,
//! jsondecode, jsonencode, textdecodebase64, textencodebase64, urlencode, urldecode,
//! yamldecode, yamlencode.

use super::{arg_err, fail, func, p, s, Registry, Ret, R};
use ferro_value::ValueMap;
use ferro_value::{json, Type, Value};

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding.
pub(crate) fn b64_encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let v = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(B64[((v >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Strict standard base64 decoding (Go's `StdEncoding`, which ignores `\r` and `\n`).
/// Where Go's decoder reports invalid base64: the first byte that is not a base64 symbol, else
/// the start of the incomplete last group.
fn b64_error_offset(text: &str) -> usize {
    let symbol = |c: u8| c.is_ascii_alphanumeric() || c == b'+' || c == b'/';
    let data = text.trim_end_matches('=');
    match data
        .bytes()
        .position(|c| !symbol(c) && c != b'\n' && c != b'\r')
    {
        Some(i) => i,
        None => text.len() - text.len() % 4,
    }
}

pub(crate) fn b64_decode(text: &str) -> Option<Vec<u8>> {
    let clean: Vec<u8> = text
        .bytes()
        .filter(|b| *b != b'\n' && *b != b'\r')
        .collect();
    if !clean.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(clean.len() / 4 * 3);
    for (ci, chunk) in clean.chunks(4).enumerate() {
        let last = ci == clean.len() / 4 - 1;
        let mut v = 0u32;
        let mut pad = 0;
        for (k, &c) in chunk.iter().enumerate() {
            let d = match c {
                b'A'..=b'Z' => c - b'A',
                b'a'..=b'z' => c - b'a' + 26,
                b'0'..=b'9' => c - b'0' + 52,
                b'+' => 62,
                b'/' => 63,
                b'=' if last && k >= 2 => {
                    pad += 1;
                    0
                }
                _ => return None,
            };
            if pad > 0 && c != b'=' {
                return None;
            }
            v = v << 6 | d as u32;
        }
        let bytes = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    Some(out)
}

pub(super) fn register(r: &mut Registry) {
    let st = || Ret::Fixed(Type::String);
    r.insert(
        "base64encode",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            Ok(Value::string(b64_encode(s(&a[0]).as_bytes())))
        }),
    );
    r.insert(
        "base64decode",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            let bytes = b64_decode(s(&a[0]))
                .ok_or_else(|| fail(format!("failed to decode base64 data '{}'", s(&a[0]))))?;
            String::from_utf8(bytes)
                .map(Value::string)
                .map_err(|_| fail("the result of decoding the provided string is not valid UTF-8"))
        }),
    );
    r.insert(
        "base64gzip",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            let gz = super::goflate::gzip(s(&a[0]).as_bytes());
            Ok(Value::string(b64_encode(&gz)))
        }),
    );
    r.insert(
        "base64gunzip",
        func(
            vec![p("str", Type::String).marked()],
            None,
            st(),
            |_, a, _| base64_gunzip(&a[0]),
        ),
    );
    r.insert(
        "urldecode",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            query_unescape(s(&a[0])).map(Value::string).map_err(|e| {
                // OpenTofu prints the (empty) result of the failed decoding, not the input.
                fail(format!("failed to decode URL '': {e}"))
            })
        }),
    );
    r.insert(
        "urlencode",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            let mut out = String::new();
            for b in s(&a[0]).bytes() {
                match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                        out.push(b as char)
                    }
                    b' ' => out.push('+'),
                    _ => out.push_str(&format!("%{b:02X}")),
                }
            }
            Ok(Value::string(out))
        }),
    );
    r.insert(
        "jsonencode",
        func(
            vec![p("val", Type::Dynamic).null().dynamic()],
            None,
            st(),
            |_, a, _| {
                if !a[0].is_wholly_known() {
                    return Ok(Value::unknown(Type::String));
                }
                Ok(Value::string(json::to_go_json_string(
                    &json::value_to_plain_json(&a[0]),
                )))
            },
        ),
    );
    r.insert(
        "jsondecode",
        func(
            vec![p("str", Type::String)],
            None,
            Ret::Computed(json_type),
            |_, a, _| json_decode(s(&a[0])),
        ),
    );
    r.insert(
        "csvdecode",
        func(
            vec![p("str", Type::String)],
            None,
            Ret::Computed(csv_type),
            |_, a, _| csv_decode(s(&a[0])),
        ),
    );
    r.insert("textencodebase64", func(vec![p("string", Type::String), p("encoding", Type::String)], None, st(), |_, a, _| {
        let enc = encoding(s(&a[1]))?;
        let mut out = Vec::new();
        for c in s(&a[0]).chars() {
            match enc {
                Enc::Utf8 => out.extend_from_slice(c.to_string().as_bytes()),
                Enc::Utf16(le) => {
                    let mut buf = [0u16; 2];
                    for u in c.encode_utf16(&mut buf) {
                        out.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
                    }
                }
                Enc::Latin1 | Enc::Ascii => {
                    let limit = if matches!(enc, Enc::Ascii) { 0x80 } else { 0x100 };
                    if (c as u32) < limit {
                        out.push(c as u8);
                    } else {
                        return Err(arg_err(0, format!("the given string contains characters that cannot be represented in {}", s(&a[1]))));
                    }
                }
            }
        }
        Ok(Value::string(b64_encode(&out)))
    }));
    r.insert(
        "textdecodebase64",
        func(
            vec![p("source", Type::String), p("encoding", Type::String)],
            None,
            st(),
            |_, a, _| {
                let enc = encoding(s(&a[1]))?;
                let bytes = b64_decode(s(&a[0])).ok_or_else(|| {
                    arg_err(
                        0,
                        format!(
                            "the given value is has an invalid base64 symbol at offset {}",
                            b64_error_offset(s(&a[0]))
                        ),
                    )
                })?;
                let text = match enc {
                    Enc::Utf8 => String::from_utf8_lossy(&bytes).into_owned(),
                    Enc::Utf16(le) => {
                        let units: Vec<u16> = bytes
                            .chunks(2)
                            .map(|c| {
                                let pair = [c[0], *c.get(1).unwrap_or(&0)];
                                if le {
                                    u16::from_le_bytes(pair)
                                } else {
                                    u16::from_be_bytes(pair)
                                }
                            })
                            .collect();
                        String::from_utf16_lossy(&units)
                    }
                    Enc::Latin1 | Enc::Ascii => bytes.iter().map(|b| *b as char).collect(),
                };
                // Terraform refuses any text with a replacement character in it: bytes the
                // encoding does not define (an odd byte of UTF-16 among them).
                let odd = matches!(enc, Enc::Utf16(_)) && bytes.len() % 2 == 1;
                if odd || text.contains('\u{FFFD}') {
                    return Err(arg_err(
                        0,
                        format!(
                            "the given string contains symbols that are not defined for {}",
                            s(&a[1])
                        ),
                    ));
                }
                Ok(Value::string(text))
            },
        ),
    );
    r.insert(
        "yamlencode",
        func(
            vec![p("value", Type::Dynamic).null().dynamic()],
            None,
            st(),
            |_, a, _| {
                if !a[0].is_wholly_known() {
                    return Ok(Value::unknown(Type::String));
                }
                Ok(Value::string(super::yaml::encode(&a[0])))
            },
        ),
    );
    r.insert(
        "yamldecode",
        func(
            vec![p("src", Type::String)],
            None,
            Ret::Computed(yaml_type),
            |_, a, _| super::yaml::decode(s(&a[0])).map_err(fail),
        ),
    );
}

#[derive(Clone, Copy)]
enum Enc {
    Utf8,
    Utf16(bool),
    Latin1,
    Ascii,
}

fn encoding(name: &str) -> R<Enc> {
    let norm = name.to_ascii_lowercase().replace('_', "-");
    Ok(match norm.as_str() {
        "utf-8" | "utf8" | "unicode-1-1-utf-8" => Enc::Utf8,
        "utf-16le" => Enc::Utf16(true),
        "utf-16be" | "utf-16" => Enc::Utf16(false),
        "iso-8859-1" | "latin1" | "l1" | "iso-ir-100" | "iso8859-1" | "cp819" | "ibm819"
        | "csisolatin1" => Enc::Latin1,
        "us-ascii" | "ascii" | "iso646-us" | "us" | "csascii" | "ansi-x3.4-1968" => Enc::Ascii,
        _ => {
            return Err(arg_err(
                1,
                format!(
                "{name:?} is not a supported IANA encoding name or alias in this Terraform version"
            ),
            ))
        }
    })
}

fn json_type(a: &[Value]) -> R<Type> {
    if a[0].is_unknown() {
        return Ok(Type::Dynamic);
    }
    Ok(json_decode(s(&a[0]))?.ty())
}

fn yaml_type(a: &[Value]) -> R<Type> {
    if a[0].is_unknown() {
        return Ok(Type::Dynamic);
    }
    Ok(super::yaml::decode(s(&a[0])).map_err(fail)?.ty())
}

fn csv_type(a: &[Value]) -> R<Type> {
    if a[0].is_unknown() {
        return Ok(Type::Dynamic);
    }
    Ok(csv_decode(s(&a[0]))?.ty())
}

fn json_decode(text: &str) -> R<Value> {
    if text.trim().is_empty() {
        return Err(fail("EOF"));
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let j: serde_json::Value = match serde::Deserialize::deserialize(&mut de) {
        Ok(j) => j,
        Err(e) => {
            return Err(fail(match e.classify() {
                serde_json::error::Category::Eof => {
                    // Go says "EOF" when the input ends between tokens, "unexpected EOF" inside one.
                    let t = text.trim_end();
                    let inside = t.ends_with(|c: char| {
                        c.is_ascii_alphanumeric() || c == '"' || c == '\\' || c == '.' || c == '-'
                    }) && !t.ends_with(|c: char| c.is_ascii_digit());
                    if inside {
                        "unexpected EOF".to_string()
                    } else {
                        "EOF".to_string()
                    }
                }
                _ => super::gojson::syntax_error(text).unwrap_or_else(|| go_json_error(&e)),
            }));
        }
    };
    if de.end().is_err() {
        return Err(fail("extraneous data after JSON object"));
    }
    Ok(json::value_from_plain_json(&j))
}

fn go_json_error(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let head = msg.split(" at line").next().unwrap_or(&msg).to_string();
    format!("invalid character: {head}")
}

fn csv_type_err(line: usize, what: &str) -> super::CallError {
    fail(format!("CSV parse error on line {line}: {what}"))
}

/// Go `encoding/csv` reading (comma separator, quotes, `""` escapes).
fn csv_records(text: &str) -> R<Vec<(usize, Vec<String>)>> {
    let chars: Vec<char> = text.chars().collect();
    let mut recs = Vec::new();
    let mut i = 0;
    let mut line = 1;
    while i < chars.len() {
        let start_line = line;
        // Skip empty lines.
        if chars[i] == '\n' || (chars[i] == '\r' && chars.get(i + 1) == Some(&'\n')) {
            i += if chars[i] == '\r' { 2 } else { 1 };
            line += 1;
            continue;
        }
        let mut fields = Vec::new();
        loop {
            let mut field = String::new();
            if i < chars.len() && chars[i] == '"' {
                i += 1;
                loop {
                    if i >= chars.len() {
                        return Err(csv_type_err(
                            start_line,
                            "extraneous or missing \" in quoted-field",
                        ));
                    }
                    let c = chars[i];
                    if c == '"' {
                        if chars.get(i + 1) == Some(&'"') {
                            field.push('"');
                            i += 2;
                            continue;
                        }
                        i += 1;
                        break;
                    }
                    if c == '\n' {
                        line += 1;
                    }
                    field.push(c);
                    i += 1;
                }
                if i < chars.len() && chars[i] != ',' && chars[i] != '\n' && chars[i] != '\r' {
                    return Err(csv_type_err(
                        line,
                        "extraneous or missing \" in quoted-field",
                    ));
                }
            } else {
                while i < chars.len()
                    && chars[i] != ','
                    && chars[i] != '\n'
                    && !(chars[i] == '\r' && chars.get(i + 1) == Some(&'\n'))
                {
                    if chars[i] == '"' {
                        return Err(csv_type_err(line, "bare \" in non-quoted-field"));
                    }
                    field.push(chars[i]);
                    i += 1;
                }
            }
            fields.push(field);
            if i < chars.len() && chars[i] == ',' {
                i += 1;
                continue;
            }
            if i < chars.len() && chars[i] == '\r' {
                i += 1;
            }
            if i < chars.len() && chars[i] == '\n' {
                i += 1;
                line += 1;
            }
            break;
        }
        recs.push((start_line, fields));
    }
    Ok(recs)
}

fn csv_decode(text: &str) -> R<Value> {
    let recs = csv_records(text)?;
    let Some((_, header)) = recs.first() else {
        return Err(fail("missing header line"));
    };
    let mut rows = Vec::new();
    for (line, rec) in &recs[1..] {
        if rec.len() != header.len() {
            return Err(csv_type_err(*line, "wrong number of fields"));
        }
        let obj: ValueMap = header
            .iter()
            .cloned()
            .zip(rec.iter().map(|f| Value::string(f.as_str())))
            .collect();
        rows.push(Value::object(obj));
    }
    let row_ty = Type::object(header.iter().map(|h| (h.clone(), Type::String)));
    Ok(Value::list(row_ty, rows))
}

/// `base64gunzip` (OpenTofu 1.8): standard base64, then gzip. The argument sees its marks so
/// that an error names a sensitive value as OpenTofu does, without its text.
fn base64_gunzip(arg: &Value) -> R<Value> {
    let marks = arg.deep_unmark().1;
    let text = s(arg);
    let shown = if marks.is_sensitive() {
        "(sensitive value)".to_string()
    } else {
        json::go_quote(text)
    };
    let data =
        b64_decode(text).ok_or_else(|| fail(format!("failed to decode base64 data {shown}")))?;
    let plain = gunzip(&data)?;
    let text = String::from_utf8(plain)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
    Ok(Value::string(text).with_marks(marks))
}

/// Decompress a gzip stream, with Go's `compress/gzip` words for the common failures.
fn gunzip(data: &[u8]) -> R<Vec<u8>> {
    use std::io::Read;
    if data.is_empty() {
        return Err(fail("failed to gunzip bytestream: EOF"));
    }
    if data.len() < 10 {
        return Err(fail("failed to gunzip bytestream: unexpected EOF"));
    }
    if data[0] != 0x1f || data[1] != 0x8b || data[2] != 8 {
        return Err(fail("failed to gunzip bytestream: gzip: invalid header"));
    }
    let mut out = Vec::new();
    let mut reader = flate2::read::GzDecoder::new(data).take(super::MAX_RESULT_BYTES as u64 + 1);
    match reader.read_to_end(&mut out) {
        Ok(_) if out.len() > super::MAX_RESULT_BYTES => {
            Err(fail("failed to read gunzip raw data: result too large"))
        }
        Ok(_) => Ok(out),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            Err(fail("failed to read gunzip raw data: unexpected EOF"))
        }
        Err(e) if e.to_string().contains("checksum") || e.to_string().contains("crc") => Err(fail(
            "failed to read gunzip raw data: gzip: invalid checksum",
        )),
        Err(_) => Err(fail("failed to read gunzip raw data: flate: corrupt input")),
    }
}

/// Go's `url.QueryUnescape`: `+` is a space, `%XX` a byte; a `%` without two hex digits is
/// the error `invalid URL escape "%.."` (the escape's first three bytes at most).
fn query_unescape(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (
                    bytes.get(i + 1).copied().and_then(hex),
                    bytes.get(i + 2).copied().and_then(hex),
                ) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 3;
                    }
                    _ => {
                        let end = (i + 3).min(bytes.len());
                        let escape = String::from_utf8_lossy(&bytes[i..end]);
                        return Err(format!("invalid URL escape {}", json::go_quote(&escape)));
                    }
                }
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    Ok(String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}
