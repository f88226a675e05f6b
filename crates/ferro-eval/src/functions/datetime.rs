//! Date and time functions: formatdate, timeadd, timecmp, timestamp, plantimestamp. Timestamps
//! are RFC 3339 strings; parse errors name the failing part as cty's `parseTimestamp` does.

use super::{arg_err, fail, func, p, s, FnContext, Registry, Ret, R};
use ferro_value::civil::{civil_from_days, days_from_civil};
use ferro_value::{Type, Value};

/// A parsed timestamp: seconds since the epoch (UTC), nanoseconds, and the UTC offset in seconds
/// (None for `Z`).
#[derive(Clone, Copy, Debug)]
struct Time {
    secs: i64,
    nanos: u32,
    offset: Option<i32>,
}

/// The months' names, January first.
pub const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
/// The weekdays' names, Sunday first.
pub const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn bad(msg: impl Into<String>) -> String {
    format!("not a valid RFC3339 timestamp: {}", msg.into())
}

fn parse_ts(text: &str) -> Result<Time, String> {
    let b = text.as_bytes();
    let mut i = 0usize;
    let num = |i: &mut usize, len: usize, what: &str| -> Result<i64, String> {
        let rest = &text[*i..];
        if rest.is_empty() {
            return Err(bad(format!("end of string before {what}")));
        }
        if rest.len() < len || !rest.as_bytes()[..len].iter().all(u8::is_ascii_digit) {
            return Err(bad(format!("cannot use {rest:?} as {what}")));
        }
        let v = rest[..len].parse::<i64>().unwrap_or(0);
        *i += len;
        Ok(v)
    };
    let lit = |i: &mut usize, c: u8| -> Result<(), String> {
        let rest = &text[*i..];
        if c == b'T' {
            if b.get(*i) != Some(&b'T') {
                return Err(bad("missing required time introducer 'T'"));
            }
        } else if rest.is_empty() {
            return Err(bad(format!(
                "end of string where {:?} is expected",
                (c as char).to_string()
            )));
        } else if b[*i] != c {
            return Err(bad(format!(
                "found {rest:?} where {:?} is expected",
                (c as char).to_string()
            )));
        }
        *i += 1;
        Ok(())
    };
    let year = num(&mut i, 4, "year")?;
    lit(&mut i, b'-')?;
    let month = num(&mut i, 2, "month")?;
    if !(1..=12).contains(&month) {
        return Err(bad(format!("cannot use {:?} as month", &text[i..])));
    }
    lit(&mut i, b'-')?;
    let day = num(&mut i, 2, "day of month")?;
    lit(&mut i, b'T')?;
    let hour = num(&mut i, 2, "hour")?;
    if hour > 23 {
        return Err(bad(format!("cannot use {:?} as hour", &text[i..])));
    }
    lit(&mut i, b':')?;
    let min = num(&mut i, 2, "minute")?;
    if min > 59 {
        return Err(bad(format!("cannot use {:?} as minute", &text[i..])));
    }
    lit(&mut i, b':')?;
    let sec = num(&mut i, 2, "second")?;
    if sec > 59 {
        return Err(bad(format!("cannot use {:?} as second", &text[i..])));
    }
    let mut nanos = 0u32;
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        let frac = &text[start..i];
        let mut digits: String = frac.chars().take(9).collect();
        while digits.len() < 9 {
            digits.push('0');
        }
        nanos = digits.parse().unwrap_or(0);
    }
    let rest = &text[i..];
    let offset = if rest.starts_with('Z') {
        i += 1;
        None
    } else if rest.starts_with(['+', '-']) && rest.len() >= 6 && rest.as_bytes()[3] == b':' {
        let h: i32 = rest[1..3]
            .parse()
            .map_err(|_| bad(format!("cannot use {rest:?} as UTC offset")))?;
        let m: i32 = rest[4..6]
            .parse()
            .map_err(|_| bad(format!("cannot use {rest:?} as UTC offset")))?;
        i += 6;
        let sign = if rest.starts_with('-') { -1 } else { 1 };
        Some(sign * (h * 3600 + m * 60))
    } else if rest.is_empty() {
        return Err(bad("end of string before UTC offset"));
    } else {
        return Err(bad(format!("cannot use {rest:?} as UTC offset")));
    };
    if i != text.len() {
        return Err(bad(format!("extra text: {:?}", &text[i..])));
    }
    if day < 1 || day > days_in_month(year, month) {
        return Err(bad("day out of range"));
    }
    let local = days_from_civil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec;
    Ok(Time {
        secs: local - offset.unwrap_or(0) as i64,
        nanos,
        offset,
    })
}

/// An RFC 3339 timestamp as the date functions read it: seconds since the epoch counted in the
/// timestamp's own UTC offset, and that offset in seconds; None when it does not parse.
pub fn parse_rfc3339(text: &str) -> Option<(i64, i64)> {
    let t = parse_ts(text).ok()?;
    let offset = i64::from(t.offset.unwrap_or(0));
    Some((t.secs + offset, offset))
}

/// Local civil fields: (year, month, day, hour, minute, second, weekday).
fn fields(t: &Time) -> (i64, i64, i64, i64, i64, i64, usize) {
    let local = t.secs + t.offset.unwrap_or(0) as i64;
    let days = local.div_euclid(86400);
    let sod = local.rem_euclid(86400);
    let (y, m, d) = civil_from_days(days);
    let wd = (days + 4).rem_euclid(7) as usize;
    (y, m, d, sod / 3600, sod % 3600 / 60, sod % 60, wd)
}

fn offset_text(off: Option<i32>, colon: bool) -> String {
    let o = off.unwrap_or(0);
    let sign = if o < 0 { '-' } else { '+' };
    let a = o.abs();
    if colon {
        format!("{sign}{:02}:{:02}", a / 3600, a % 3600 / 60)
    } else {
        format!("{sign}{:02}{:02}", a / 3600, a % 3600 / 60)
    }
}

fn rfc3339(t: &Time) -> String {
    let (y, m, d, h, mi, se, _) = fields(t);
    let z = match t.offset {
        None => "Z".to_string(),
        Some(o) => offset_text(Some(o), true),
    };
    format!("{y:04}-{m:02}-{d:02}T{h:02}:{mi:02}:{se:02}{z}")
}

fn now() -> Time {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    Time {
        secs: d.as_secs() as i64,
        nanos: 0,
        offset: None,
    }
}

pub(super) fn register(r: &mut Registry) {
    let st = || Ret::Fixed(Type::String);
    r.insert(
        "timestamp",
        func(vec![], None, st(), |_, _, _| {
            Ok(Value::string(rfc3339(&now())))
        }),
    );
    r.insert(
        "plantimestamp",
        func(vec![], None, st(), |_, _, _| {
            Ok(Value::string(rfc3339(&now())))
        }),
    );
    r.insert(
        "formatdate",
        func(
            vec![p("format", Type::String), p("time", Type::String)],
            None,
            st(),
            formatdate,
        ),
    );
    r.insert(
        "timeadd",
        func(
            vec![p("timestamp", Type::String), p("duration", Type::String)],
            None,
            st(),
            |_, a, _| {
                let t = parse_ts(s(&a[0])).map_err(fail)?;
                let d = parse_duration(s(&a[1])).map_err(fail)?;
                let total = t.secs as i128 * 1_000_000_000 + t.nanos as i128 + d;
                let secs = total.div_euclid(1_000_000_000) as i64;
                let nanos = total.rem_euclid(1_000_000_000) as u32;
                Ok(Value::string(rfc3339(&Time {
                    secs,
                    nanos,
                    offset: t.offset,
                })))
            },
        ),
    );
    r.insert(
        "timecmp",
        func(
            vec![
                p("timestamp_a", Type::String),
                p("timestamp_b", Type::String),
            ],
            None,
            Ret::Fixed(Type::Number),
            |_, a, _| {
                let x = parse_ts(s(&a[0])).map_err(|e| arg_err(0, e))?;
                let y = parse_ts(s(&a[1])).map_err(|e| arg_err(1, e))?;
                let c = (x.secs, x.nanos).cmp(&(y.secs, y.nanos));
                Ok(Value::int(c as i64))
            },
        ),
    );
}

/// Go's `time.ParseDuration`, in nanoseconds, with Go's error messages: unsigned 64-bit
/// arithmetic, so a duration past about 292 years is "invalid".
pub fn parse_duration(text: &str) -> Result<i128, String> {
    const LIMIT: u64 = 1 << 63;
    let q = super::numeric::go_quote;
    let invalid = || format!("time: invalid duration {}", q(text));
    let (neg, mut rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest == "0" {
        return Ok(0);
    }
    if rest.is_empty() {
        return Err(invalid());
    }
    let mut total: u64 = 0;
    while !rest.is_empty() {
        if !rest.starts_with(|c: char| c == '.' || c.is_ascii_digit()) {
            return Err(invalid());
        }
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let mut v: u64 = 0;
        for c in rest[..digits].bytes() {
            if v > (LIMIT - 1) / 10 {
                return Err(invalid());
            }
            v = v * 10 + u64::from(c - b'0');
            if v > LIMIT {
                return Err(invalid());
            }
        }
        let pre = digits > 0;
        rest = &rest[digits..];
        let (mut frac, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(after) = rest.strip_prefix('.') {
            let n = after
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(after.len());
            let mut overflow = false;
            for c in after[..n].bytes() {
                if overflow || frac > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = frac * 10 + u64::from(c - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                frac = y;
                scale *= 10.0;
            }
            post = n > 0;
            rest = &after[n..];
        }
        if !pre && !post {
            return Err(invalid());
        }
        let uend = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let unit: u64 = match &rest[..uend] {
            "ns" => 1,
            "us" | "µs" | "μs" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            "" => return Err(format!("time: missing unit in duration {}", q(text))),
            u => {
                return Err(format!(
                    "time: unknown unit {} in duration {}",
                    q(u),
                    q(text)
                ))
            }
        };
        rest = &rest[uend..];
        if v > LIMIT / unit {
            return Err(invalid());
        }
        v *= unit;
        if frac > 0 {
            v += (frac as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return Err(invalid());
            }
        }
        total += v;
        if total > LIMIT {
            return Err(invalid());
        }
    }
    if neg {
        return Ok(-i128::from(total));
    }
    if total > LIMIT - 1 {
        return Err(invalid());
    }
    Ok(i128::from(total))
}

fn formatdate(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let spec = s(&a[0]);
    let t = parse_ts(s(&a[1])).map_err(|e| arg_err(1, e))?;
    let (y, m, d, h, mi, se, wd) = fields(&t);
    let chars: Vec<char> = spec.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\'' {
            // Quoted literal; '' is a literal quote.
            if chars.get(i + 1) == Some(&'\'') {
                out.push('\'');
                i += 2;
                continue;
            }
            let mut j = i + 1;
            let mut lit = String::new();
            loop {
                match chars.get(j) {
                    None => return Err(arg_err(0, "unterminated literal '")),
                    Some('\'') if chars.get(j + 1) == Some(&'\'') => {
                        lit.push('\'');
                        j += 2;
                    }
                    Some('\'') => break,
                    Some(&x) => {
                        lit.push(x);
                        j += 1;
                    }
                }
            }
            out.push_str(&lit);
            i = j + 1;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            out.push(c);
            i += 1;
            continue;
        }
        let mut j = i;
        while j < chars.len() && chars[j] == c {
            j += 1;
        }
        let tok: String = chars[i..j].iter().collect();
        let h12 = if h % 12 == 0 { 12 } else { h % 12 };
        let piece = match tok.as_str() {
            "YYYY" => format!("{y:04}"),
            "YY" => format!("{:02}", y.rem_euclid(100)),
            "MMMM" => MONTHS[(m - 1) as usize].to_string(),
            "MMM" => MONTHS[(m - 1) as usize][..3].to_string(),
            "MM" => format!("{m:02}"),
            "M" => m.to_string(),
            "DD" => format!("{d:02}"),
            "D" => d.to_string(),
            "EEEE" => DAYS[wd].to_string(),
            "EEE" => DAYS[wd][..3].to_string(),
            "hh" => format!("{h:02}"),
            "h" => h.to_string(),
            "HH" => format!("{h12:02}"),
            "H" => h12.to_string(),
            "AA" => (if h < 12 { "AM" } else { "PM" }).to_string(),
            "aa" => (if h < 12 { "am" } else { "pm" }).to_string(),
            "mm" => format!("{mi:02}"),
            "m" => mi.to_string(),
            "ss" => format!("{se:02}"),
            "s" => se.to_string(),
            "ZZZZZ" => offset_text(t.offset, true),
            "ZZZZ" => offset_text(t.offset, false),
            "ZZZ" => match t.offset {
                None => "UTC".to_string(),
                Some(o) => offset_text(Some(o), false),
            },
            "Z" => match t.offset {
                None => "Z".to_string(),
                Some(o) => offset_text(Some(o), true),
            },
            _ if tok.starts_with('Y') => {
                return Err(arg_err(
                    0,
                    format!(
                        "invalid date format verb {tok:?}: year must either be \"YY\" or \"YYYY\""
                    ),
                ))
            }
            _ => return Err(arg_err(0, format!("invalid date format verb {tok:?}"))),
        };
        out.push_str(&piece);
        i = j;
    }
    Ok(Value::string(out))
}
