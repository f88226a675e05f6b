//! The functions of the `time` provider (hashicorp/time 0.13): `rfc3339_parse`, an RFC 3339
//! timestamp's parts (in its own UTC offset; `unix` is absolute) as an object;
//! `unix_timestamp_parse`, the parts of a unix timestamp in UTC (with its RFC 3339 text); and
//! `duration_parse`, a Go duration string in hours, minutes and seconds (fractional) and whole
//! milliseconds, microseconds and nanoseconds.

use ferro_eval::{MONTH_NAMES, WEEKDAY_NAMES};
use ferro_sdk::{FunctionDecl, FunctionError, FunctionParam, SdkProvider, Type, Value};
use ferro_value::civil::{civil_from_days, days_from_civil};
use ferro_value::Number;

/// The number parts of a date and time both timestamp functions answer.
const CIVIL_NUMBERS: [&str; 10] = [
    "year", "year_day", "day", "month", "weekday", "hour", "minute", "second", "iso_year",
    "iso_week",
];

/// The object type of a date and time's parts, with `extra` attributes.
fn civil_type(extra: &[(&str, Type)]) -> Type {
    let mut attrs: Vec<(String, Type)> = CIVIL_NUMBERS
        .iter()
        .map(|n| (n.to_string(), Type::Number))
        .collect();
    attrs.push(("month_name".into(), Type::String));
    attrs.push(("weekday_name".into(), Type::String));
    attrs.extend(extra.iter().map(|(n, t)| (n.to_string(), t.clone())));
    Type::object(attrs)
}

const DURATION_FRACTIONS: [&str; 3] = ["hours", "minutes", "seconds"];
const DURATION_WHOLES: [&str; 3] = ["milliseconds", "microseconds", "nanoseconds"];

fn duration_type() -> Type {
    Type::object(
        DURATION_FRACTIONS
            .iter()
            .chain(&DURATION_WHOLES)
            .map(|n| (n.to_string(), Type::Number))
            .collect::<Vec<_>>(),
    )
}

fn decl(param: FunctionParam, return_type: Type, summary: &str, description: &str) -> FunctionDecl {
    FunctionDecl {
        params: vec![param],
        variadic: None,
        return_type,
        summary: summary.into(),
        description: description.into(),
        description_markdown: false,
        deprecation_message: String::new(),
    }
}

/// Add the functions to the provider.
pub fn with_functions(p: SdkProvider) -> SdkProvider {
    let mut timestamp = FunctionParam::new("timestamp", Type::String);
    timestamp.description = "RFC3339 timestamp string to parse".into();
    let rfc3339 = decl(
        timestamp,
        civil_type(&[("unix", Type::Number)]),
        "Parse an RFC3339 timestamp string",
        "Given an RFC3339 timestamp string, will parse and return an object representation of that date and time.",
    );
    let mut unix = FunctionParam::new("unix_timestamp", Type::Number);
    unix.description = "Unix Timestamp integer to parse".into();
    unix.description_markdown = true;
    let mut unix = decl(
        unix,
        civil_type(&[("rfc3339", Type::String)]),
        "Parse a unix timestamp integer into an object",
        "Given a unix timestamp integer, will parse and return an object representation of that date and time. A unix timestamp is the number of seconds elapsed since January 1, 1970 UTC.",
    );
    unix.description_markdown = true;
    let mut duration = FunctionParam::new("duration", Type::String);
    duration.description = "Go time package duration string to parse".into();
    let duration = decl(
        duration,
        duration_type(),
        "Parse a [Go duration string](https://pkg.go.dev/time#ParseDuration) into an object",
        "Given a [Go duration string](https://pkg.go.dev/time#ParseDuration), will parse and return an object representation of that duration.",
    );
    p.function("rfc3339_parse", rfc3339, |args: &[Value]| {
        rfc3339_parse(args[0].as_str().unwrap_or_default())
    })
    .function("unix_timestamp_parse", unix, |args: &[Value]| {
        unix_timestamp_parse(&args[0].as_number().cloned().unwrap_or_default())
    })
    .function("duration_parse", duration, |args: &[Value]| {
        duration_parse(args[0].as_str().unwrap_or_default())
    })
}

/// (local civil seconds since the epoch, offset in seconds) of an RFC 3339 timestamp, read as
/// the date functions read it; an offset's hours past 23 or minutes past 59 are refused, as Go's
/// `time.Parse(time.RFC3339, …)` refuses them.
fn parse(s: &str) -> Option<(i64, i64)> {
    if let Some(off) = s.len().checked_sub(6).and_then(|at| s.get(at..)) {
        let r = off.as_bytes();
        if matches!(r[0], b'+' | b'-') && r[3] == b':' {
            let field = |t: &str| t.parse::<i64>().ok();
            if field(&off[1..3])? > 23 || field(&off[4..6])? > 59 {
                return None;
            }
        }
    }
    ferro_eval::parse_rfc3339(s)
}

/// The parts of the civil date and time `local` seconds after 1970-01-01T00:00:00 (in the
/// timestamp's own offset), as Go's `time.Time` gives them (`ISOWeek` included).
fn civil_parts(local: i64) -> Vec<(String, Value)> {
    let days = local.div_euclid(86_400);
    let secs = local.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days);
    let weekday = (days + 4).rem_euclid(7);
    let year_day = days - days_from_civil(year, 1, 1) + 1;
    // ISO 8601 weeks: the week's Thursday decides the year.
    let iso_weekday = if weekday == 0 { 7 } else { weekday };
    let thursday = days + 4 - iso_weekday;
    let (iso_year, _, _) = civil_from_days(thursday);
    let iso_week = (thursday - days_from_civil(iso_year, 1, 1)) / 7 + 1;
    let numbers = [
        year,
        year_day,
        day,
        month,
        weekday,
        secs / 3600,
        secs % 3600 / 60,
        secs % 60,
        iso_year,
        iso_week,
    ];
    let mut attrs: Vec<(String, Value)> = CIVIL_NUMBERS
        .iter()
        .zip(numbers)
        .map(|(n, v)| (n.to_string(), Value::int(v)))
        .collect();
    attrs.push((
        "month_name".into(),
        Value::string(MONTH_NAMES[(month - 1) as usize]),
    ));
    attrs.push((
        "weekday_name".into(),
        Value::string(WEEKDAY_NAMES[weekday as usize]),
    ));
    attrs
}

fn rfc3339_parse(s: &str) -> Result<Value, FunctionError> {
    let Some((local, offset)) = parse(s) else {
        return Err(FunctionError::argument(
            0,
            format!(
                "Error parsing RFC3339 timestamp: {} is not a valid RFC3339 timestamp",
                ferro_value::json::go_quote(s)
            ),
        ));
    };
    let mut attrs = civil_parts(local);
    attrs.push(("unix".into(), Value::int(local - offset)));
    Ok(Value::object(attrs.into_iter().collect()))
}

/// The parts of a unix timestamp in UTC, and its RFC 3339 text (Go's `time.Unix(t, 0).UTC()`).
/// The argument must be a whole number that fits 64 bits, as the framework's `Int64Parameter`
/// requires.
fn unix_timestamp_parse(n: &Number) -> Result<Value, FunctionError> {
    if !n.is_integer() {
        return Err(FunctionError::argument(
            0,
            format!("Value {n} is not an integer"),
        ));
    }
    let Some(ts) = n.to_i64() else {
        return Err(FunctionError::argument(
            0,
            format!("Value {n} cannot be represented as a 64-bit integer"),
        ));
    };
    let mut attrs = civil_parts(ts);
    let part = |name: &str| {
        attrs
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_number())
            .and_then(Number::to_i64)
            .unwrap_or_default()
    };
    let year = part("year");
    // Go writes a negative year as "-" and at least four digits.
    let year_text = if year < 0 {
        format!("-{:04}", year.unsigned_abs())
    } else {
        format!("{year:04}")
    };
    let text = format!(
        "{year_text}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        part("month"),
        part("day"),
        part("hour"),
        part("minute"),
        part("second")
    );
    attrs.push(("rfc3339".into(), Value::string(text)));
    Ok(Value::object(attrs.into_iter().collect()))
}

/// Go's `time.Duration` methods on a parsed duration: `Hours`, `Minutes`, `Seconds` as
/// float64 (whole units plus the remainder's fraction), the others truncated toward zero.
fn duration_parse(s: &str) -> Result<Value, FunctionError> {
    let Ok(nanos) = ferro_eval::parse_go_duration(s) else {
        return Err(FunctionError::argument(
            0,
            format!(
                "Error parsing duration string: {} is not a valid duration string",
                ferro_value::json::go_quote(s)
            ),
        ));
    };
    // A parsed duration fits an int64 of nanoseconds.
    let d = i64::try_from(nanos).unwrap_or(if nanos < 0 { i64::MIN } else { i64::MAX });
    let fraction = |unit: i64| (d / unit) as f64 + (d % unit) as f64 / unit as f64;
    let float = |f: f64| Value::number(Number::from_f64(f).unwrap_or_default());
    let values = [
        float(fraction(3_600_000_000_000)),
        float(fraction(60_000_000_000)),
        float(fraction(1_000_000_000)),
        Value::int(d / 1_000_000),
        Value::int(d / 1_000),
        Value::int(d),
    ];
    Ok(Value::object(
        DURATION_FRACTIONS
            .iter()
            .chain(&DURATION_WHOLES)
            .zip(values)
            .map(|(n, v)| (n.to_string(), v))
            .collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(v: &Value, name: &str) -> Value {
        v.get_attr(name)
            .cloned()
            .unwrap_or_else(|| Value::null(Type::Dynamic))
    }

    #[test]
    fn parts_of_a_timestamp_in_its_own_offset() {
        // The provider's documented example.
        let v = rfc3339_parse("2023-07-25T23:43:16Z").unwrap();
        assert_eq!(part(&v, "year"), Value::int(2023));
        assert_eq!(part(&v, "year_day"), Value::int(206));
        assert_eq!(part(&v, "weekday"), Value::int(2));
        assert_eq!(part(&v, "weekday_name"), Value::string("Tuesday"));
        assert_eq!(part(&v, "month_name"), Value::string("July"));
        assert_eq!(part(&v, "unix"), Value::int(1690328596));
        assert_eq!(part(&v, "iso_year"), Value::int(2023));
        assert_eq!(part(&v, "iso_week"), Value::int(30));
        let v = rfc3339_parse("2021-01-01T01:30:00.5+02:00").unwrap();
        assert_eq!(part(&v, "hour"), Value::int(1));
        assert_eq!(part(&v, "unix"), Value::int(1609457400));
        // January 1, 2021 is a Friday of ISO week 53 of 2020.
        assert_eq!(part(&v, "iso_year"), Value::int(2020));
        assert_eq!(part(&v, "iso_week"), Value::int(53));
        for bad in [
            "2023-07-25T23:43:16",
            "2023-07-25t23:43:16Z",
            "2023-07-25T23:43:16.Z",
            "2023-07-25T23:43:16+24:00",
            "2023-07-25T23:43:16+01:75",
        ] {
            assert!(rfc3339_parse(bad).is_err(), "{bad}");
        }
        let err = rfc3339_parse("2023-02-30T00:00:00Z").unwrap_err();
        assert_eq!(err.argument, Some(0));
        assert_eq!(
            err.text,
            "Error parsing RFC3339 timestamp: \"2023-02-30T00:00:00Z\" is not a valid RFC3339 timestamp"
        );
    }

    #[test]
    fn parts_of_a_unix_timestamp_in_utc() {
        let v = unix_timestamp_parse(&Number::from_i64(1690328596)).unwrap();
        assert_eq!(part(&v, "rfc3339"), Value::string("2023-07-25T23:43:16Z"));
        assert_eq!(part(&v, "year_day"), Value::int(206));
        assert_eq!(part(&v, "weekday_name"), Value::string("Tuesday"));
        assert_eq!(part(&v, "iso_week"), Value::int(30));
        assert_eq!(part(&v, "unix"), Value::null(Type::Dynamic));
        // Before the epoch, and a year before the common era as Go writes it.
        let v = unix_timestamp_parse(&Number::from_i64(-1)).unwrap();
        assert_eq!(part(&v, "rfc3339"), Value::string("1969-12-31T23:59:59Z"));
        let v = unix_timestamp_parse(&Number::from_i64(-62_198_755_200)).unwrap();
        assert_eq!(part(&v, "rfc3339"), Value::string("-0001-01-01T00:00:00Z"));
        let half = Number::parse("1.5").unwrap();
        assert_eq!(
            unix_timestamp_parse(&half).unwrap_err().text,
            "Value 1.5 is not an integer"
        );
        let big = Number::parse("1e19").unwrap();
        let err = unix_timestamp_parse(&big).unwrap_err();
        assert_eq!(err.argument, Some(0));
        assert!(err
            .text
            .ends_with("cannot be represented as a 64-bit integer"));
    }

    #[test]
    fn durations_in_go_units() {
        let v = duration_parse("1h30m").unwrap();
        assert_eq!(
            part(&v, "hours"),
            Value::number(Number::parse("1.5").unwrap())
        );
        assert_eq!(part(&v, "minutes"), Value::int(90));
        assert_eq!(part(&v, "seconds"), Value::int(5400));
        assert_eq!(part(&v, "milliseconds"), Value::int(5_400_000));
        let v = duration_parse("-1.5us").unwrap();
        assert_eq!(part(&v, "nanoseconds"), Value::int(-1500));
        assert_eq!(part(&v, "microseconds"), Value::int(-1));
        assert_eq!(part(&v, "milliseconds"), Value::int(0));
        let err = duration_parse("1d").unwrap_err();
        assert_eq!(err.argument, Some(0));
        assert_eq!(
            err.text,
            "Error parsing duration string: \"1d\" is not a valid duration string"
        );
    }
}
