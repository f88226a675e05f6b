//! How `yamldecode` reads a scalar, as Terraform 1.0's cty-yaml resolves it: the first
//! character hints at a type; plain scalars that look like YAML 1.2 integers or floats are
//! numbers, dates and times become RFC 3339 strings; an explicit tag is honoured (numbers
//! then also take Go's base prefixes), and quoted scalars stay strings.

use ferro_value::{Number, Type, Value};
use yaml_rust::scanner::TScalarStyle;

const TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// The value of one scalar, `tag` being its full tag ("" when it has none).
pub(super) fn resolve(text: &str, style: TScalarStyle, tag: &str) -> Result<Value, String> {
    let mut kind = match tag.strip_prefix(TAG_PREFIX) {
        None if tag.is_empty() => "",
        Some(k @ ("str" | "bool" | "int" | "float" | "null" | "timestamp" | "binary")) => k,
        _ => return Err(format!("unsupported tag {tag:?}")),
    };
    let hint = match text.as_bytes().first() {
        None => Some(Hint::Empty),
        Some(b'+' | b'-' | b'0'..=b'9') => Some(Hint::Numeric),
        Some(c) if b"yYnNtTfFoO~".contains(c) => Some(Hint::Word),
        Some(b'.') => Some(Hint::Dot),
        Some(_) => None,
    };
    if let Some(hint) = hint.filter(|_| kind != "str" && kind != "binary") {
        if style != TScalarStyle::Plain {
            return Ok(Value::string(text));
        }
        if let Some(v) = word(text) {
            return Ok(v);
        }
        if kind.is_empty() && matches!(text, ".nan" | ".NaN" | ".NAN") {
            return Err("floating point NaN is not supported".into());
        }
        match hint {
            Hint::Dot => {
                if let Some(n) = Number::parse(text) {
                    return Ok(Value::number(n));
                }
            }
            Hint::Numeric => {
                if kind.is_empty() || kind == "timestamp" {
                    if let Some(t) = timestamp(text) {
                        return Ok(Value::string(t));
                    }
                }
                if integer_literal(text) {
                    kind = "int";
                } else if float_literal(text) {
                    kind = "float";
                }
            }
            Hint::Word | Hint::Empty => {}
        }
    }
    let cannot = || format!("cannot parse {text:?} as {TAG_PREFIX}{kind}");
    match kind {
        "" | "str" => Ok(Value::string(text)),
        "binary" if base64_ok(text) => Ok(Value::string(text)),
        "binary" => Err(format!("{}: not valid base64", cannot())),
        "bool" => match word(text) {
            Some(v) if v.ty() == Type::Bool => Ok(v),
            _ => Err(cannot()),
        },
        "int" | "float" => {
            let plain = text.replace('_', "");
            Number::parse(&plain)
                .or_else(|| go_parse_int(&plain))
                .map(Value::number)
                .ok_or_else(cannot)
        }
        "timestamp" => timestamp(text).map(Value::string).ok_or_else(cannot),
        _ => Ok(Value::null(Type::Dynamic)),
    }
}

#[derive(Clone, Copy)]
enum Hint {
    Empty,
    Numeric,
    Word,
    Dot,
}

/// The scalars that name a value whatever their type hint: nulls, booleans (YAML 1.1's words)
/// and infinities.
fn word(text: &str) -> Option<Value> {
    Some(match text {
        "" | "~" | "null" | "Null" | "NULL" => Value::null(Type::Dynamic),
        "y" | "Y" | "yes" | "Yes" | "YES" | "on" | "On" | "ON" | "true" | "True" | "TRUE" => {
            Value::bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "off" | "Off" | "OFF" | "false" | "False" | "FALSE" => {
            Value::bool(false)
        }
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            Value::number(Number::positive_infinity())
        }
        "-.inf" | "-.Inf" | "-.INF" => Value::number(Number::negative_infinity()),
        _ => return None,
    })
}

fn strip_sign(t: &str) -> (bool, &str) {
    match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    }
}

/// `[-+]?(|0o[0-7_]+|[0-9_]+|0x[0-9a-fA-F_]+)`, whole: a sign alone matches too (and then
/// fails to parse, as in Terraform).
fn integer_literal(t: &str) -> bool {
    let (_, body) = strip_sign(t);
    let all = |s: &str, ok: fn(u8) -> bool| !s.is_empty() && s.bytes().all(|c| ok(c) || c == b'_');
    body.is_empty()
        || body
            .strip_prefix("0o")
            .is_some_and(|d| all(d, |c| (b'0'..=b'7').contains(&c)))
        || body
            .strip_prefix("0x")
            .is_some_and(|d| all(d, |c| c.is_ascii_hexdigit()))
        || all(body, |c| c.is_ascii_digit())
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, whole.
fn float_literal(t: &str) -> bool {
    let (_, body) = strip_sign(t);
    let (mant, exp) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    let mant_ok = match mant.split_once('.') {
        Some(("", frac)) => digits(frac),
        Some((int, frac)) => digits(int) && (frac.is_empty() || digits(frac)),
        None => digits(mant),
    };
    let exp_ok = exp.is_none_or(|e| digits(e.strip_prefix(['+', '-']).unwrap_or(e)));
    mant_ok && exp_ok
}

/// Go's `strconv.ParseInt(s, 0, 64)`, then `ParseUint`: an optional sign (signed only), then
/// `0x`, `0o` or `0b` (either case) or a leading `0` for octal.
fn go_parse_int(t: &str) -> Option<Number> {
    let (neg, body) = strip_sign(t);
    let lower = body.to_ascii_lowercase();
    let (radix, digits) = if let Some(d) = lower.strip_prefix("0x") {
        (16, d)
    } else if let Some(d) = lower.strip_prefix("0o") {
        (8, d)
    } else if let Some(d) = lower.strip_prefix("0b") {
        (2, d)
    } else if lower.len() > 1 && lower.starts_with('0') {
        (8, &lower[1..])
    } else {
        (10, lower.as_str())
    };
    let magnitude = u64::from_str_radix(digits, radix).ok()?;
    if digits.starts_with(['+', '-']) {
        return None;
    }
    let signed = t.starts_with(['+', '-']);
    if signed {
        // ParseInt: within int64 (the unsigned retry takes no sign).
        let limit = if neg { 1u64 << 63 } else { (1u64 << 63) - 1 };
        if magnitude > limit {
            return None;
        }
    }
    let n = Number::parse(&magnitude.to_string())?;
    Some(if neg { n.neg() } else { n })
}

/// Whether `t` is base64 as Go's standard decoder takes it (line breaks ignored, padding
/// required).
fn base64_ok(t: &str) -> bool {
    let s: Vec<u8> = t.bytes().filter(|c| *c != b'\n' && *c != b'\r').collect();
    if !s.len().is_multiple_of(4) {
        return false;
    }
    let pad = s.iter().rev().take_while(|c| **c == b'=').count();
    pad <= 2
        && s[..s.len() - pad]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/')
}

/// A YAML timestamp in one of the forms cty-yaml accepts (Go layouts `2006-1-2T15:4:5.999999999Z07:00`,
/// the same with a lower-case `t`, `2006-1-2 15:4:5.999999999` and `2006-1-2`), written as
/// RFC 3339 in whole seconds.
fn timestamp(s: &str) -> Option<String> {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return None;
    }
    let mut p = Cursor { b, i: 5 };
    let year: i64 = s[..4].parse().ok()?;
    let month = p.num(1, 12)?;
    p.lit(b'-')?;
    let day = p.num(1, 31)?;
    if day > days_in_month(year, month) {
        return None;
    }
    let date = format!("{year:04}-{month:02}-{day:02}");
    if p.done() {
        return Some(format!("{date}T00:00:00Z"));
    }
    let sep = p.next()?;
    let zoned = match sep {
        b'T' | b't' => true,
        b' ' => false,
        _ => return None,
    };
    let hour = p.num(0, 23)?;
    p.lit(b':')?;
    let minute = p.num(0, 59)?;
    p.lit(b':')?;
    let second = p.num(0, 59)?;
    // Fractional seconds, dropped by the RFC 3339 form.
    if p.peek() == Some(b'.') && p.b.get(p.i + 1).is_some_and(u8::is_ascii_digit) {
        p.i += 1;
        let start = p.i;
        while p.peek().is_some_and(|c| c.is_ascii_digit()) && p.i - start < 9 {
            p.i += 1;
        }
    }
    let time = format!("{date}T{hour:02}:{minute:02}:{second:02}");
    if !zoned {
        return p.done().then(|| format!("{time}Z"));
    }
    let zone = match p.next()? {
        b'Z' => "Z".to_string(),
        sign @ (b'+' | b'-') => {
            let rest = &p.b[p.i..];
            if rest.len() < 5 || rest[2] != b':' {
                return None;
            }
            let digits = [rest[0], rest[1], rest[3], rest[4]];
            if !digits.iter().all(u8::is_ascii_digit) {
                return None;
            }
            p.i += 5;
            if digits == *b"0000" {
                "Z".to_string()
            } else {
                format!(
                    "{}{}{}:{}{}",
                    sign as char,
                    rest[0] as char,
                    rest[1] as char,
                    rest[3] as char,
                    rest[4] as char
                )
            }
        }
        _ => return None,
    };
    p.done().then(|| format!("{time}{zone}"))
}

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }
    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        Some(c)
    }
    fn done(&self) -> bool {
        self.i == self.b.len()
    }
    fn lit(&mut self, c: u8) -> Option<()> {
        (self.next()? == c).then_some(())
    }
    /// One or two digits, within `lo..=hi` (Go's layout fields `1`, `2`, `15`, `4`, `5`).
    fn num(&mut self, lo: i64, hi: i64) -> Option<i64> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) && self.i - start < 2 {
            self.i += 1;
        }
        let n: i64 = std::str::from_utf8(&self.b[start..self.i])
            .ok()?
            .parse()
            .ok()?;
        (lo..=hi).contains(&n).then_some(n)
    }
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_as_terraform_writes_them() {
        assert_eq!(
            timestamp("2001-12-14").as_deref(),
            Some("2001-12-14T00:00:00Z")
        );
        assert_eq!(
            timestamp("2001-1-1").as_deref(),
            Some("2001-01-01T00:00:00Z")
        );
        assert_eq!(
            timestamp("2001-12-14 21:59:43.10").as_deref(),
            Some("2001-12-14T21:59:43Z")
        );
        assert_eq!(
            timestamp("2001-12-14t21:59:43.10-05:00").as_deref(),
            Some("2001-12-14T21:59:43-05:00")
        );
        assert_eq!(
            timestamp("2001-12-14T21:59:43+00:00").as_deref(),
            Some("2001-12-14T21:59:43Z")
        );
        for no in [
            "1999-02-29",
            "2001-13-01",
            "12345-01-01",
            "2001-12-14 21:59",
            "2001-12-14 21:59:43.10 -5",
        ] {
            assert_eq!(timestamp(no), None, "{no}");
        }
    }

    #[test]
    fn numbers_by_literal_form() {
        let plain = |t| resolve(t, TScalarStyle::Plain, "");
        assert_eq!(plain("0o17").unwrap(), Value::number(Number::from_i64(15)));
        assert_eq!(plain("0b101").unwrap(), Value::string("0b101"));
        assert_eq!(plain("_1").unwrap(), Value::string("_1"));
        assert_eq!(
            plain("+").unwrap_err(),
            "cannot parse \"+\" as tag:yaml.org,2002:int"
        );
        let int = |t| resolve(t, TScalarStyle::Plain, "tag:yaml.org,2002:int");
        assert_eq!(int("0B101").unwrap(), Value::number(Number::from_i64(5)));
        assert!(int("0x1FFFFFFFFFFFFFFFF").is_err());
    }
}
