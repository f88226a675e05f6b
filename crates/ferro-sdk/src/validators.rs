//! Attribute validators (length, regex-like pattern, one-of) and resource-level rules
//! (conflicts-with, at-least-one-of), reported on the attribute path. Unknown and null values
//! are not checked (they are validated again once known).

use crate::{attr_error, Diags};
use ferro_value::Value;

pub trait Validator: Send + Sync {
    fn description(&self) -> String;
    /// Check a known, non-null value of attribute `attr` of object `config`.
    fn validate(&self, attr: &str, value: &Value, config: &Value, diags: &mut Diags);
}

/// String length (in characters) within `min..=max`.
pub fn length_between(min: usize, max: usize) -> LengthBetween {
    LengthBetween { min, max }
}

pub struct LengthBetween {
    min: usize,
    max: usize,
}

impl Validator for LengthBetween {
    fn description(&self) -> String {
        format!(
            "string length must be between {} and {}",
            self.min, self.max
        )
    }
    fn validate(&self, attr: &str, value: &Value, _config: &Value, diags: &mut Diags) {
        if let Some(s) = value.as_str() {
            let n = s.chars().count();
            if n < self.min || n > self.max {
                diags.push(attr_error(
                    attr,
                    "Invalid Attribute Value Length",
                    format!("Attribute {attr} {}, got: {n}", self.description()),
                ));
            }
        }
    }
}

/// A number at least `min`.
pub fn at_least(min: i64) -> AtLeast {
    AtLeast(min)
}

pub struct AtLeast(i64);

impl Validator for AtLeast {
    fn description(&self) -> String {
        format!("value must be at least {}", self.0)
    }
    fn validate(&self, attr: &str, value: &Value, _config: &Value, diags: &mut Diags) {
        if let Some(n) = value.as_number() {
            if n.to_f64() < self.0 as f64 {
                diags.push(attr_error(
                    attr,
                    "Invalid Attribute Value",
                    format!(
                        "Attribute {attr} {}, got: {}",
                        self.description(),
                        n.to_f64()
                    ),
                ));
            }
        }
    }
}

/// The string is one of `allowed`.
pub fn one_of(allowed: &[&str]) -> OneOf {
    OneOf(allowed.iter().map(|s| s.to_string()).collect())
}

pub struct OneOf(Vec<String>);

impl Validator for OneOf {
    fn description(&self) -> String {
        format!("value must be one of: {:?}", self.0)
    }
    fn validate(&self, attr: &str, value: &Value, _config: &Value, diags: &mut Diags) {
        if let Some(s) = value.as_str() {
            if !self.0.iter().any(|a| a == s) {
                diags.push(attr_error(
                    attr,
                    "Invalid Attribute Value Match",
                    format!("Attribute {attr} {}, got: {s:?}", self.description()),
                ));
            }
        }
    }
}

/// Every character of the string belongs to the class `pattern` describes: a simplified,
/// dependency-free pattern of the form `^[...]+$` with ranges (`a-z`) and single characters.
pub fn matches_class(pattern: &str, message: &str) -> MatchesClass {
    MatchesClass {
        pattern: pattern.to_string(),
        message: message.to_string(),
    }
}

pub struct MatchesClass {
    pattern: String,
    message: String,
}

impl MatchesClass {
    fn allowed(&self, c: char) -> bool {
        let inner = self
            .pattern
            .trim_start_matches("^[")
            .trim_end_matches("]+$");
        let chars: Vec<char> = inner.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if i + 2 < chars.len() && chars[i + 1] == '-' {
                if chars[i] <= c && c <= chars[i + 2] {
                    return true;
                }
                i += 3;
            } else {
                if chars[i] == c {
                    return true;
                }
                i += 1;
            }
        }
        false
    }
}

impl Validator for MatchesClass {
    fn description(&self) -> String {
        self.message.clone()
    }
    fn validate(&self, attr: &str, value: &Value, _config: &Value, diags: &mut Diags) {
        if let Some(s) = value.as_str() {
            if s.is_empty() || !s.chars().all(|c| self.allowed(c)) {
                diags.push(attr_error(
                    attr,
                    "Invalid Attribute Value Match",
                    format!("Attribute {attr} {}, got: {s:?}", self.message),
                ));
            }
        }
    }
}

/// The attribute may not be set together with any of `others`.
pub fn conflicts_with(others: &[&str]) -> ConflictsWith {
    ConflictsWith(others.iter().map(|s| s.to_string()).collect())
}

pub struct ConflictsWith(Vec<String>);

impl Validator for ConflictsWith {
    fn description(&self) -> String {
        format!("conflicts with {}", self.0.join(", "))
    }
    fn validate(&self, attr: &str, _value: &Value, config: &Value, diags: &mut Diags) {
        for other in &self.0 {
            if config.get_attr(other).is_some_and(|v| !v.is_null()) {
                diags.push(attr_error(
                    attr,
                    "Invalid Attribute Combination",
                    format!("Attribute {other:?} cannot be specified when {attr:?} is specified"),
                ));
            }
        }
    }
}

/// Resource-level rule: at least one of `attrs` must be set. Returns the diagnostic to report.
pub fn at_least_one_of(config: &Value, attrs: &[&str]) -> Option<crate::Diagnostic> {
    let any_set = attrs
        .iter()
        .any(|a| config.get_attr(a).is_some_and(|v| !v.is_null()));
    if any_set {
        return None;
    }
    Some(attr_error(
        attrs.first().copied().unwrap_or(""),
        "Invalid Attribute Combination",
        format!(
            "At least one attribute out of [{}] must be specified",
            attrs.join(",")
        ),
    ))
}
