//! cty's msgpack value encoding (tfplugin `DynamicValue.msgpack`), always driven by a type:
//! dynamic slots hold `[bin(type JSON), value]`, unknowns are extension values (`d4 00 00`),
//! nulls are nil, numbers are the most compact int, an exact float64, or a decimal string.

use crate::convert::{convert, strip_optional};
use crate::json::{type_from_json, type_to_json_string};
use crate::{Key, ValueMap};
use crate::{Number, Type, Value, ValueKind};

/// Encode `v` against `ty` (marks are ignored; strip them first where that matters).
pub fn to_msgpack(v: &Value, ty: &Type) -> Result<Vec<u8>, String> {
    let v = if v.ty() == *ty || *ty == Type::Dynamic {
        v.clone()
    } else {
        convert(v, ty).map_err(|e| e.to_string())?
    };
    let mut out = Vec::new();
    encode(&v, ty, &mut out)?;
    Ok(out)
}

/// Decode msgpack bytes as a value of `ty`. Any extension value decodes as unknown.
pub fn from_msgpack(bytes: &[u8], ty: &Type) -> Result<Value, String> {
    let mut r = Reader { b: bytes, pos: 0 };
    let v = decode(&mut r, ty)?;
    if r.pos != bytes.len() {
        return Err("extra data after msgpack value".into());
    }
    Ok(v)
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    let n = s.len();
    if n < 32 {
        out.push(0xa0 | n as u8);
    } else if n <= 0xff {
        out.push(0xd9);
        out.push(n as u8);
    } else if n <= 0xffff {
        out.push(0xda);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(0xdb);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
    out.extend_from_slice(s.as_bytes());
}

fn write_bin(out: &mut Vec<u8>, b: &[u8]) {
    let n = b.len();
    if n <= 0xff {
        out.push(0xc4);
        out.push(n as u8);
    } else if n <= 0xffff {
        out.push(0xc5);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(0xc6);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
    out.extend_from_slice(b);
}

fn write_array_len(out: &mut Vec<u8>, n: usize) {
    if n < 16 {
        out.push(0x90 | n as u8);
    } else if n <= 0xffff {
        out.push(0xdc);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(0xdd);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
}

fn write_map_len(out: &mut Vec<u8>, n: usize) {
    if n < 16 {
        out.push(0x80 | n as u8);
    } else if n <= 0xffff {
        out.push(0xde);
        out.extend_from_slice(&(n as u16).to_be_bytes());
    } else {
        out.push(0xdf);
        out.extend_from_slice(&(n as u32).to_be_bytes());
    }
}

/// The most compact integer encoding, as Go's msgpack `EncodeInt` writes it.
fn write_int(out: &mut Vec<u8>, i: i64) {
    if i >= 0 {
        let u = i as u64;
        if u <= 0x7f {
            out.push(u as u8);
        } else if u <= 0xff {
            out.push(0xcc);
            out.push(u as u8);
        } else if u <= 0xffff {
            out.push(0xcd);
            out.extend_from_slice(&(u as u16).to_be_bytes());
        } else if u <= 0xffff_ffff {
            out.push(0xce);
            out.extend_from_slice(&(u as u32).to_be_bytes());
        } else {
            out.push(0xcf);
            out.extend_from_slice(&u.to_be_bytes());
        }
    } else if i >= -32 {
        out.push(i as i8 as u8);
    } else if i >= i64::from(i8::MIN) {
        out.push(0xd0);
        out.push(i as i8 as u8);
    } else if i >= i64::from(i16::MIN) {
        out.push(0xd1);
        out.extend_from_slice(&(i as i16).to_be_bytes());
    } else if i >= i64::from(i32::MIN) {
        out.push(0xd2);
        out.extend_from_slice(&(i as i32).to_be_bytes());
    } else {
        out.push(0xd3);
        out.extend_from_slice(&i.to_be_bytes());
    }
}

fn write_number(out: &mut Vec<u8>, n: &Number) {
    if let Some(i) = n.to_i64() {
        write_int(out, i);
    } else if n.is_exact_f64() {
        out.push(0xcb);
        out.extend_from_slice(&n.to_f64().to_be_bytes());
    } else {
        write_str(out, &n.to_string());
    }
}

fn encode(v: &Value, ty: &Type, out: &mut Vec<u8>) -> Result<(), String> {
    if *ty == Type::Dynamic {
        let own = v.ty();
        if own == Type::Dynamic {
            match v.kind {
                ValueKind::Unknown(_) => out.extend_from_slice(&[0xd4, 0, 0]),
                _ => out.push(0xc0),
            }
            return Ok(());
        }
        write_array_len(out, 2);
        write_bin(out, type_to_json_string(&own).as_bytes());
        return encode(v, &own, out);
    }
    match (&v.kind, ty) {
        (ValueKind::Unknown(_), _) => out.extend_from_slice(&[0xd4, 0, 0]),
        (ValueKind::Null(_), _) => out.push(0xc0),
        (ValueKind::String(s), Type::String) => write_str(out, s),
        (ValueKind::Number(n), Type::Number) => write_number(out, n),
        (ValueKind::Bool(b), Type::Bool) => out.push(if *b { 0xc3 } else { 0xc2 }),
        (ValueKind::List(_, es) | ValueKind::Set(_, es), Type::List(et) | Type::Set(et)) => {
            write_array_len(out, es.len());
            for e in es.iter() {
                encode(e, et, out)?;
            }
        }
        (ValueKind::Tuple(es), Type::Tuple(ts)) if es.len() == ts.len() => {
            write_array_len(out, es.len());
            for (e, t) in es.iter().zip(ts) {
                encode(e, t, out)?;
            }
        }
        (ValueKind::Map(_, m), Type::Map(et)) => {
            write_map_len(out, m.len());
            for (k, e) in m.iter() {
                write_str(out, k);
                encode(e, et, out)?;
            }
        }
        (ValueKind::Object(m), Type::Object(ot)) => {
            write_map_len(out, ot.attrs.len());
            for (k, t) in &ot.attrs {
                write_str(out, k);
                match m.get(k) {
                    Some(e) => encode(e, t, out)?,
                    None => out.push(0xc0),
                }
            }
        }
        _ => return Err(format!("{} required", ty.friendly_name())),
    }
    Ok(())
}

struct Reader<'a> {
    b: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Result<u8, String> {
        self.b
            .get(self.pos)
            .copied()
            .ok_or_else(|| "unexpected end of msgpack data".to_string())
    }
    fn byte(&mut self) -> Result<u8, String> {
        let b = self.peek()?;
        self.pos += 1;
        Ok(b)
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.b.len() - self.pos < n {
            return Err("unexpected end of msgpack data".into());
        }
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    fn uint(&mut self, n: usize) -> Result<u64, String> {
        Ok(self
            .take(n)?
            .iter()
            .fold(0u64, |acc, b| (acc << 8) | u64::from(*b)))
    }
    /// Skip an extension value if one is next; true when one was skipped.
    fn skip_ext(&mut self) -> Result<bool, String> {
        let len = match self.peek()? {
            b @ 0xd4..=0xd8 => {
                self.pos += 1;
                1usize << (b - 0xd4)
            }
            0xc7 => {
                self.pos += 1;
                self.uint(1)? as usize
            }
            0xc8 => {
                self.pos += 1;
                self.uint(2)? as usize
            }
            0xc9 => {
                self.pos += 1;
                self.uint(4)? as usize
            }
            _ => return Ok(false),
        };
        self.take(1 + len)?; // type code and payload
        Ok(true)
    }
    fn is_nil(&mut self) -> Result<bool, String> {
        if self.peek()? == 0xc0 {
            self.pos += 1;
            Ok(true)
        } else {
            Ok(false)
        }
    }
    /// A str or bin payload.
    fn bytes(&mut self) -> Result<&'a [u8], String> {
        let n = match self.byte()? {
            b @ 0xa0..=0xbf => usize::from(b & 0x1f),
            0xd9 | 0xc4 => self.uint(1)? as usize,
            0xda | 0xc5 => self.uint(2)? as usize,
            0xdb | 0xc6 => self.uint(4)? as usize,
            b => return Err(format!("string required (msgpack byte 0x{b:02x})")),
        };
        self.take(n)
    }
    /// A str payload, borrowed from the message.
    fn string(&mut self) -> Result<&'a str, String> {
        std::str::from_utf8(self.bytes()?)
            .map_err(|_| "invalid UTF-8 in msgpack string".to_string())
    }
    fn array_len(&mut self) -> Result<usize, String> {
        match self.byte()? {
            b @ 0x90..=0x9f => Ok(usize::from(b & 0x0f)),
            0xdc => Ok(self.uint(2)? as usize),
            0xdd => Ok(self.uint(4)? as usize),
            b => Err(format!("array required (msgpack byte 0x{b:02x})")),
        }
    }
    fn map_len(&mut self) -> Result<usize, String> {
        match self.byte()? {
            b @ 0x80..=0x8f => Ok(usize::from(b & 0x0f)),
            0xde => Ok(self.uint(2)? as usize),
            0xdf => Ok(self.uint(4)? as usize),
            b => Err(format!("map required (msgpack byte 0x{b:02x})")),
        }
    }
    fn number(&mut self) -> Result<Number, String> {
        let b = self.peek()?;
        let n = match b {
            0x00..=0x7f => {
                self.pos += 1;
                Number::from_i64(i64::from(b))
            }
            0xe0..=0xff => {
                self.pos += 1;
                Number::from_i64(i64::from(b as i8))
            }
            0xcc..=0xcf => {
                self.pos += 1;
                Number::from_u64(self.uint(1 << (b - 0xcc))?)
            }
            0xd0..=0xd3 => {
                self.pos += 1;
                let size = 1usize << (b - 0xd0);
                let raw = self.uint(size)?;
                let shift = 64 - 8 * size as u32;
                Number::from_i64(((raw << shift) as i64) >> shift)
            }
            0xca => {
                self.pos += 1;
                let f = f32::from_bits(self.uint(4)? as u32);
                Number::from_f64(f64::from(f)).ok_or("NaN is not a number")?
            }
            0xcb => {
                self.pos += 1;
                let f = f64::from_bits(self.uint(8)?);
                Number::from_f64(f).ok_or("NaN is not a number")?
            }
            0xa0..=0xbf | 0xd9..=0xdb => {
                let s = self.string()?;
                Number::parse(s).ok_or_else(|| format!("invalid number {s:?}"))?
            }
            _ => return Err(format!("number required (msgpack byte 0x{b:02x})")),
        };
        Ok(n)
    }
}

fn decode(r: &mut Reader<'_>, ty: &Type) -> Result<Value, String> {
    if r.skip_ext()? {
        return Ok(Value::unknown(strip_optional(ty)));
    }
    if *ty == Type::Dynamic {
        if r.is_nil()? {
            return Ok(Value::null(Type::Dynamic));
        }
        if r.array_len()? != 2 {
            return Err("dynamically-typed value must be a two-element array".into());
        }
        let tj: serde_json::Value = serde_json::from_slice(r.bytes()?)
            .map_err(|e| format!("invalid type JSON in dynamic value: {e}"))?;
        let t = type_from_json(&tj)?;
        return decode(r, &t);
    }
    if r.is_nil()? {
        return Ok(Value::null(strip_optional(ty)));
    }
    match ty {
        Type::String => Ok(Value::string(r.string()?)),
        Type::Number => Ok(Value::number(r.number()?)),
        Type::Bool => match r.byte()? {
            0xc2 => Ok(Value::bool(false)),
            0xc3 => Ok(Value::bool(true)),
            b => Err(format!("bool required (msgpack byte 0x{b:02x})")),
        },
        Type::List(et) | Type::Set(et) => {
            let n = r.array_len()?;
            let mut out = Vec::with_capacity(n.min(4096));
            for _ in 0..n {
                out.push(decode(r, et)?);
            }
            let et = strip_optional(et);
            Ok(if matches!(ty, Type::List(_)) {
                Value::list(et, out)
            } else {
                Value::set(et, out)
            })
        }
        Type::Tuple(ts) => {
            let n = r.array_len()?;
            if n != ts.len() {
                return Err(format!("a tuple of length {} is required", ts.len()));
            }
            let mut out = Vec::with_capacity(n);
            for t in ts {
                out.push(decode(r, t)?);
            }
            Ok(Value::tuple(out))
        }
        Type::Map(et) => {
            let n = r.map_len()?;
            let mut out = ValueMap::with_capacity(n);
            for _ in 0..n {
                let k = r.string()?;
                out.insert(Key::map_key(k), decode(r, et)?);
            }
            Ok(Value::map(strip_optional(et), out))
        }
        Type::Object(ot) => {
            let n = r.map_len()?;
            if n != ot.attrs.len() {
                return Err(format!(
                    "an object with {} attributes is required (got {n})",
                    ot.attrs.len()
                ));
            }
            let mut out = ValueMap::with_capacity(n);
            for _ in 0..n {
                let k = r.string()?;
                let t = ot
                    .attrs
                    .get(k)
                    .ok_or_else(|| format!("unsupported attribute {k:?}"))?;
                out.insert(Key::attr(k), decode(r, t)?);
            }
            if out.len() != ot.attrs.len() {
                return Err("duplicate attribute in msgpack object".into());
            }
            Ok(Value::object(out))
        }
        Type::Dynamic => unreachable!("handled above"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(s: &str) -> Vec<u8> {
        s.split_whitespace()
            .map(|h| u8::from_str_radix(h, 16).unwrap())
            .collect()
    }
    fn s(x: &str) -> Value {
        Value::string(x)
    }

    fn null_resource_ty() -> Type {
        Type::object([
            ("id".to_string(), Type::String),
            ("triggers".to_string(), Type::map(Type::String)),
        ])
    }

    #[test]
    fn worked_examples() {
        let ty = null_resource_ty();
        let v = Value::object(
            [
                ("id".to_string(), Value::unknown(Type::String)),
                (
                    "triggers".to_string(),
                    Value::map(Type::String, [("a".to_string(), s("b"))].into()),
                ),
            ]
            .into(),
        );
        let b = hex("82 a2 69 64 d4 00 00 a8 74 72 69 67 67 65 72 73 81 a1 61 a1 62");
        assert_eq!(to_msgpack(&v, &ty).unwrap(), b);
        assert_eq!(from_msgpack(&b, &ty).unwrap(), v);

        let v2 = Value::object(
            [
                ("id".to_string(), s("1")),
                ("triggers".to_string(), Value::null(Type::map(Type::String))),
            ]
            .into(),
        );
        let b2 = hex("82 a2 69 64 a1 31 a8 74 72 69 67 67 65 72 73 c0");
        assert_eq!(to_msgpack(&v2, &ty).unwrap(), b2);
        assert_eq!(from_msgpack(&b2, &ty).unwrap(), v2);

        assert_eq!(
            to_msgpack(&Value::null(ty.clone()), &ty).unwrap(),
            vec![0xc0]
        );
        assert_eq!(from_msgpack(&[0xc0], &ty).unwrap(), Value::null(ty.clone()));

        let b3 = hex("92 c4 08 22 73 74 72 69 6e 67 22 a2 68 69");
        assert_eq!(to_msgpack(&s("hi"), &Type::Dynamic).unwrap(), b3);
        assert_eq!(from_msgpack(&b3, &Type::Dynamic).unwrap(), s("hi"));

        let l = Value::list(
            Type::Number,
            vec![Value::int(1), Value::number(Number::parse("2.5").unwrap())],
        );
        let b4 = hex("92 c4 11 5b 22 6c 69 73 74 22 2c 22 6e 75 6d 62 65 72 22 5d 92 01 cb 40 04 00 00 00 00 00 00");
        assert_eq!(to_msgpack(&l, &Type::Dynamic).unwrap(), b4);
        assert_eq!(from_msgpack(&b4, &Type::Dynamic).unwrap(), l);

        let b5 = hex("92 c4 08 22 73 74 72 69 6e 67 22 c0");
        assert_eq!(
            to_msgpack(&Value::null(Type::String), &Type::Dynamic).unwrap(),
            b5
        );
        assert_eq!(
            from_msgpack(&b5, &Type::Dynamic).unwrap(),
            Value::null(Type::String)
        );

        let big = Value::number(Number::parse("12345678901234567890123").unwrap());
        let mut b6 = vec![0xb7];
        b6.extend_from_slice(b"12345678901234567890123");
        assert_eq!(to_msgpack(&big, &Type::Number).unwrap(), b6);
        assert_eq!(from_msgpack(&b6, &Type::Number).unwrap(), big);

        // Unknown list in a dynamic slot is wrapped; the totally unknown value is not.
        let ul = to_msgpack(&Value::unknown(Type::list(Type::String)), &Type::Dynamic).unwrap();
        assert_eq!(&ul[..2], &[0x92, 0xc4]);
        assert_eq!(&ul[ul.len() - 3..], &[0xd4, 0, 0]);
        assert_eq!(
            to_msgpack(&Value::dynamic_unknown(), &Type::Dynamic).unwrap(),
            vec![0xd4, 0, 0]
        );
    }

    #[test]
    fn numbers_and_lenient_decoding() {
        for (i, expect) in [
            (0i64, "00"),
            (127, "7f"),
            (128, "cc 80"),
            (65535, "cd ff ff"),
            (65536, "ce 00 01 00 00"),
            (-1, "ff"),
            (-32, "e0"),
            (-33, "d0 df"),
            (-129, "d1 ff 7f"),
            (i64::MIN, "d3 80 00 00 00 00 00 00 00"),
        ] {
            let b = to_msgpack(&Value::int(i), &Type::Number).unwrap();
            assert_eq!(b, hex(expect), "{i}");
            assert_eq!(from_msgpack(&b, &Type::Number).unwrap(), Value::int(i));
        }
        let point1 =
            to_msgpack(&Value::number(Number::parse("0.1").unwrap()), &Type::Number).unwrap();
        assert_eq!(point1, hex("a3 30 2e 31"));
        // float32 1.5, uint64, refined unknown, ext8.
        assert_eq!(
            from_msgpack(&hex("ca 3f c0 00 00"), &Type::Number).unwrap(),
            Value::number(Number::parse("1.5").unwrap())
        );
        assert_eq!(
            from_msgpack(&hex("cf 00 00 00 00 00 00 00 05"), &Type::Number).unwrap(),
            Value::int(5)
        );
        assert_eq!(
            from_msgpack(&hex("c7 03 0c 81 01 c2"), &Type::String).unwrap(),
            Value::unknown(Type::String)
        );
        assert_eq!(
            from_msgpack(&hex("d4 00 00"), &Type::Dynamic).unwrap(),
            Value::dynamic_unknown()
        );
        // Objects must carry every attribute.
        assert!(from_msgpack(&hex("81 a2 69 64 a1 31"), &null_resource_ty()).is_err());
        assert!(from_msgpack(&hex("c0 c0"), &Type::String).is_err());
        // Sets decode sorted and deduplicated; dynamic wrappers accept str type JSON.
        let st = from_msgpack(&hex("93 a1 62 a1 61 a1 62"), &Type::set(Type::String)).unwrap();
        assert_eq!(st.as_elements().unwrap(), &[s("a"), s("b")]);
        let d = from_msgpack(
            &hex("92 a8 22 73 74 72 69 6e 67 22 a2 68 69"),
            &Type::Dynamic,
        )
        .unwrap();
        assert_eq!(d, s("hi"));
    }

    #[test]
    fn round_trip_nested() {
        let ty = Type::object([
            (
                "t".to_string(),
                Type::Tuple(vec![Type::Bool, Type::Dynamic].into()),
            ),
            ("s".to_string(), Type::set(Type::Number)),
        ]);
        let v = Value::object(
            [
                (
                    "t".to_string(),
                    Value::tuple(vec![
                        Value::bool(true),
                        Value::map(Type::String, [("k".to_string(), s("v"))].into()),
                    ]),
                ),
                (
                    "s".to_string(),
                    Value::set(Type::Number, vec![Value::int(3), Value::int(-1000)]),
                ),
            ]
            .into(),
        );
        let b = to_msgpack(&v, &ty).unwrap();
        assert_eq!(from_msgpack(&b, &ty).unwrap(), v);
        let long = s(&"x".repeat(300));
        let b = to_msgpack(&long, &Type::String).unwrap();
        assert_eq!(&b[..3], &[0xda, 0x01, 0x2c]);
        assert_eq!(from_msgpack(&b, &Type::String).unwrap(), long);
    }
}
