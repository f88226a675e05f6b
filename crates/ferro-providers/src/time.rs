//! The `time` provider (hashicorp/time): `time_static` (a timestamp fixed at creation, with its
//! parts), `time_offset` (a base timestamp plus offsets), `time_rotating` (gone from state once
//! its rotation time has passed, so it is created again) and `time_sleep` (waits on create
//! and/or destroy); and its functions `rfc3339_parse`, `unix_timestamp_parse` and `duration_parse`
//! (`time_functions.rs`).

use ferro_sdk::modifiers::{requires_replace, use_state_for_unknown};
use ferro_sdk::values::{get_str, with};
use ferro_sdk::{attr_error, Attr, Diags, Resource, ResourceSchema, SdkProvider, Value};
use ferro_value::civil::{civil_from_days, days_from_civil};
use std::time::Duration;

pub fn provider() -> SdkProvider {
    crate::time_functions::with_functions(SdkProvider::new("time"))
        .resource("time_static", TimeStatic)
        .resource("time_sleep", TimeSleep)
        .resource("time_offset", TimeOffset)
        .resource("time_rotating", TimeRotating)
}

/// (year, month, day, hour, minute, second) of a unix time, UTC.
fn civil(unix: i64) -> (i64, i64, i64, i64, i64, i64) {
    let secs = unix.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(unix.div_euclid(86_400));
    (year, month, day, secs / 3600, secs % 3600 / 60, secs % 60)
}

/// Unix time of a civil UTC time; days and months past their range roll over as Go's
/// `AddDate` does (January 31 plus one month is March 2 or 3).
fn unix_of(y: i64, m: i64, d: i64, hh: i64, mm: i64, ss: i64) -> i64 {
    let (y, m) = (y + (m - 1).div_euclid(12), (m - 1).rem_euclid(12) + 1);
    days_from_civil(y, m, d) * 86_400 + hh * 3600 + mm * 60 + ss
}

fn rfc3339(unix: i64) -> String {
    let (y, mo, d, h, mi, s) = civil(unix);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Unix time of a `YYYY-MM-DDTHH:MM:SSZ` timestamp.
fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() != 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'Z'
    {
        return None;
    }
    let n = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, m, d) = (n(0..4)?, n(5..7)?, n(8..10)?);
    let (hh, mm, ss) = (n(11..13)?, n(14..16)?, n(17..19)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    Some(unix_of(y, m, d, hh, mm, ss))
}

pub struct TimeStatic;

impl Resource for TimeStatic {
    fn schema(&self) -> ResourceSchema {
        let part = || Attr::number().computed().modifier(use_state_for_unknown());
        ResourceSchema::new()
            .attr(
                "id",
                Attr::string().computed().modifier(use_state_for_unknown()),
            )
            .attr(
                "triggers",
                Attr::map_of_strings()
                    .optional()
                    .modifier(requires_replace()),
            )
            .attr(
                "rfc3339",
                Attr::string()
                    .optional()
                    .computed()
                    .modifier(requires_replace())
                    .modifier(use_state_for_unknown()),
            )
            .attr("year", part())
            .attr("month", part())
            .attr("day", part())
            .attr("hour", part())
            .attr("minute", part())
            .attr("second", part())
            .attr("unix", part())
    }

    fn validate(&self, config: &Value, diags: &mut Diags) {
        if let Some(s) = get_str(config, "rfc3339") {
            if parse_rfc3339(&s).is_none() {
                diags.push(attr_error(
                    "rfc3339",
                    "Invalid Attribute Value",
                    format!("{s:?} is not an RFC 3339 timestamp of the form YYYY-MM-DDTHH:MM:SSZ"),
                ));
            }
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let unix = match get_str(planned, "rfc3339") {
            Some(s) => parse_rfc3339(&s)
                .ok_or_else(|| vec![attr_error("rfc3339", "Invalid timestamp", s.clone())])?,
            None => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0),
        };
        let (y, mo, d, h, mi, s) = civil(unix);
        let stamp = format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z");
        let mut v = planned.clone();
        for (n, val) in [
            ("year", y),
            ("month", mo),
            ("day", d),
            ("hour", h),
            ("minute", mi),
            ("second", s),
            ("unix", unix),
        ] {
            v = with(&v, n, Value::int(val));
        }
        v = with(&v, "rfc3339", Value::string(stamp.clone()));
        Ok(with(&v, "id", Value::string(stamp)))
    }
}

/// A Go duration like `30s`, `1m30s`, `1h`, `500ms`.
fn parse_duration(s: &str) -> Option<Duration> {
    let mut total = 0f64;
    let mut num = String::new();
    let mut chars = s.chars().peekable();
    if s.is_empty() {
        return None;
    }
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() || c == '.' {
            num.push(c);
            continue;
        }
        let mut unit = c.to_string();
        if c == 'm' && chars.peek() == Some(&'s') {
            unit.push(chars.next()?);
        }
        let n: f64 = num.parse().ok()?;
        num.clear();
        total += n * match unit.as_str() {
            "h" => 3600.0,
            "m" => 60.0,
            "s" => 1.0,
            "ms" => 0.001,
            _ => return None,
        };
    }
    if !num.is_empty() {
        return None;
    }
    Some(Duration::from_secs_f64(total))
}

pub struct TimeSleep;

impl Resource for TimeSleep {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr(
                "id",
                Attr::string().computed().modifier(use_state_for_unknown()),
            )
            .attr("create_duration", Attr::string().optional())
            .attr("destroy_duration", Attr::string().optional())
            .attr(
                "triggers",
                Attr::map_of_strings()
                    .optional()
                    .modifier(requires_replace()),
            )
    }

    fn validate(&self, config: &Value, diags: &mut Diags) {
        for n in ["create_duration", "destroy_duration"] {
            if let Some(s) = get_str(config, n) {
                if parse_duration(&s).is_none() {
                    diags.push(attr_error(
                        n,
                        "Invalid Attribute Value",
                        format!("{s:?} is not a duration such as 30s or 1m30s"),
                    ));
                }
            }
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        if let Some(d) = get_str(planned, "create_duration").and_then(|s| parse_duration(&s)) {
            std::thread::sleep(d);
        }
        let (y, mo, d, h, mi, s) = civil(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_secs() as i64)
                .unwrap_or(0),
        );
        Ok(with(
            planned,
            "id",
            Value::string(format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")),
        ))
    }

    fn delete(&self, prior: &Value) -> Result<(), Diags> {
        if let Some(d) = get_str(prior, "destroy_duration").and_then(|s| parse_duration(&s)) {
            std::thread::sleep(d);
        }
        Ok(())
    }
}

const OFFSETS: [&str; 6] = [
    "offset_years",
    "offset_months",
    "offset_days",
    "offset_hours",
    "offset_minutes",
    "offset_seconds",
];

pub struct TimeOffset;

impl Resource for TimeOffset {
    fn schema(&self) -> ResourceSchema {
        let part = || Attr::number().computed().modifier(use_state_for_unknown());
        let mut s = ResourceSchema::new()
            .attr(
                "id",
                Attr::string().computed().modifier(use_state_for_unknown()),
            )
            .attr(
                "triggers",
                Attr::map_of_strings()
                    .optional()
                    .modifier(requires_replace()),
            )
            .attr(
                "base_rfc3339",
                Attr::string()
                    .optional()
                    .computed()
                    .modifier(requires_replace())
                    .modifier(use_state_for_unknown()),
            )
            .attr(
                "rfc3339",
                Attr::string().computed().modifier(use_state_for_unknown()),
            );
        for o in OFFSETS {
            s = s.attr(o, Attr::number().optional().modifier(requires_replace()));
        }
        for p in ["year", "month", "day", "hour", "minute", "second", "unix"] {
            s = s.attr(p, part());
        }
        s
    }

    fn validate(&self, config: &Value, diags: &mut Diags) {
        if let Some(d) = ferro_sdk::validators::at_least_one_of(config, &OFFSETS) {
            if config.is_wholly_known() {
                diags.push(d);
            }
        }
        if let Some(s) = get_str(config, "base_rfc3339") {
            if parse_rfc3339(&s).is_none() {
                diags.push(attr_error(
                    "base_rfc3339",
                    "Invalid Attribute Value",
                    format!("{s:?} is not an RFC 3339 timestamp of the form YYYY-MM-DDTHH:MM:SSZ"),
                ));
            }
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let base = match get_str(planned, "base_rfc3339") {
            Some(s) => parse_rfc3339(&s)
                .ok_or_else(|| vec![attr_error("base_rfc3339", "Invalid timestamp", s.clone())])?,
            None => now(),
        };
        let off = |n: &str| ferro_sdk::values::get_i64(planned, n).unwrap_or(0);
        let (y, mo, d, h, mi, s) = civil(base);
        let t = unix_of(
            y + off("offset_years"),
            mo + off("offset_months"),
            d + off("offset_days"),
            h + off("offset_hours"),
            mi + off("offset_minutes"),
            s + off("offset_seconds"),
        );
        let (y, mo, d, h, mi, s) = civil(t);
        let mut v = with(planned, "base_rfc3339", Value::string(rfc3339(base)));
        for (n, val) in [
            ("year", y),
            ("month", mo),
            ("day", d),
            ("hour", h),
            ("minute", mi),
            ("second", s),
            ("unix", t),
        ] {
            v = with(&v, n, Value::int(val));
        }
        v = with(&v, "rfc3339", Value::string(rfc3339(t)));
        Ok(with(&v, "id", Value::string(rfc3339(base))))
    }
}

const ROTATIONS: [&str; 5] = [
    "rotation_years",
    "rotation_months",
    "rotation_days",
    "rotation_hours",
    "rotation_minutes",
];

pub struct TimeRotating;

impl Resource for TimeRotating {
    fn schema(&self) -> ResourceSchema {
        let part = || Attr::number().computed().modifier(use_state_for_unknown());
        let mut s = ResourceSchema::new()
            .attr(
                "id",
                Attr::string().computed().modifier(use_state_for_unknown()),
            )
            .attr(
                "triggers",
                Attr::map_of_strings()
                    .optional()
                    .modifier(requires_replace()),
            )
            .attr(
                "rfc3339",
                Attr::string()
                    .optional()
                    .computed()
                    .modifier(requires_replace())
                    .modifier(use_state_for_unknown()),
            )
            .attr(
                "rotation_rfc3339",
                Attr::string()
                    .optional()
                    .computed()
                    .modifier(requires_replace())
                    .modifier(use_state_for_unknown()),
            );
        for r in ROTATIONS {
            s = s.attr(r, Attr::number().optional().modifier(requires_replace()));
        }
        for p in ["year", "month", "day", "hour", "minute", "second", "unix"] {
            s = s.attr(p, part());
        }
        s
    }

    fn validate(&self, config: &Value, diags: &mut Diags) {
        let mut all: Vec<&str> = ROTATIONS.to_vec();
        all.push("rotation_rfc3339");
        if config.is_wholly_known() {
            if let Some(d) = ferro_sdk::validators::at_least_one_of(config, &all) {
                diags.push(d);
            }
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let base = match get_str(planned, "rfc3339") {
            Some(s) => parse_rfc3339(&s)
                .ok_or_else(|| vec![attr_error("rfc3339", "Invalid timestamp", s.clone())])?,
            None => now(),
        };
        let rotation = match get_str(planned, "rotation_rfc3339") {
            Some(s) => parse_rfc3339(&s).ok_or_else(|| {
                vec![attr_error(
                    "rotation_rfc3339",
                    "Invalid timestamp",
                    s.clone(),
                )]
            })?,
            None => {
                let r = |n: &str| ferro_sdk::values::get_i64(planned, n).unwrap_or(0);
                let (y, mo, d, h, mi, s) = civil(base);
                unix_of(
                    y + r("rotation_years"),
                    mo + r("rotation_months"),
                    d + r("rotation_days"),
                    h + r("rotation_hours"),
                    mi + r("rotation_minutes"),
                    s,
                )
            }
        };
        let (y, mo, d, h, mi, s) = civil(base);
        let mut v = with(planned, "rfc3339", Value::string(rfc3339(base)));
        v = with(&v, "rotation_rfc3339", Value::string(rfc3339(rotation)));
        for (n, val) in [
            ("year", y),
            ("month", mo),
            ("day", d),
            ("hour", h),
            ("minute", mi),
            ("second", s),
            ("unix", base),
        ] {
            v = with(&v, n, Value::int(val));
        }
        Ok(with(&v, "id", Value::string(rfc3339(base))))
    }

    /// Past its rotation time the object is gone, so the next plan creates a new one.
    fn read(&self, state: &Value) -> Result<Option<Value>, Diags> {
        match get_str(state, "rotation_rfc3339").and_then(|s| parse_rfc3339(&s)) {
            Some(r) if now() >= r => Ok(None),
            _ => Ok(Some(state.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_and_durations_round_trip() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_rfc3339("2024-02-29T12:34:56Z"), Some(1_709_210_096));
        assert_eq!(civil(1_709_210_096), (2024, 2, 29, 12, 34, 56));
        assert_eq!(parse_rfc3339("2024-02-29 12:34:56"), None);
        assert_eq!(parse_duration("1m30s"), Some(Duration::from_secs(90)));
        assert_eq!(parse_duration("500ms"), Some(Duration::from_millis(500)));
        assert_eq!(parse_duration("10"), None);
        // Go's AddDate: January 31 plus one month rolls over into March.
        let jan31 = parse_rfc3339("2023-01-31T00:00:00Z").unwrap();
        let (y, m, d, ..) = civil(jan31);
        assert_eq!(
            rfc3339(unix_of(y, m + 1, d, 0, 0, 0)),
            "2023-03-03T00:00:00Z"
        );
        assert_eq!(
            rfc3339(unix_of(2023, 13, 1, 0, 0, -1)),
            "2023-12-31T23:59:59Z"
        );
    }
}
