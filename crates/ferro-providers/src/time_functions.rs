//! The functions of the `time` provider (hashicorp/time 0.11): `rfc3339_parse`, an RFC 3339
//! timestamp's parts (in its own UTC offset; `unix` is absolute) as an object.

use ferro_eval::{MONTH_NAMES, WEEKDAY_NAMES};
use ferro_sdk::{FunctionDecl, FunctionError, FunctionParam, SdkProvider, Type, Value};
use ferro_value::civil::{civil_from_days, days_from_civil};

const NUMBER_PARTS: [&str; 11] = [
    "year", "year_day", "day", "month", "weekday", "hour", "minute", "second", "unix", "iso_year",
    "iso_week",
];

fn return_type() -> Type {
    let mut attrs: Vec<(String, Type)> = NUMBER_PARTS
        .iter()
        .map(|n| (n.to_string(), Type::Number))
        .collect();
    attrs.push(("month_name".into(), Type::String));
    attrs.push(("weekday_name".into(), Type::String));
    Type::object(attrs)
}

/// Add the functions to the provider.
pub fn with_functions(p: SdkProvider) -> SdkProvider {
    let mut timestamp = FunctionParam::new("timestamp", Type::String);
    timestamp.description = "RFC3339 timestamp string to parse".into();
    let decl = FunctionDecl {
        params: vec![timestamp],
        variadic: None,
        return_type: return_type(),
        summary: "Parse an RFC3339 timestamp string".into(),
        description: "Given an RFC3339 timestamp string, will parse and return an object representation of that date and time.".into(),
        description_markdown: false,
        deprecation_message: String::new(),
    };
    p.function("rfc3339_parse", decl, |args: &[Value]| {
        rfc3339_parse(args[0].as_str().unwrap_or_default())
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
        local - offset,
        iso_year,
        iso_week,
    ];
    let mut attrs: Vec<(String, Value)> = NUMBER_PARTS
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
    Ok(Value::object(attrs.into_iter().collect()))
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
}
