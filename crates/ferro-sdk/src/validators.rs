//! Attribute validators (length, regex-like pattern, one-of, conflicts-with) and
//! at-least-one-of rules, run on every attribute of a configuration — inside nested attributes
//! and blocks too — and reported on the attribute's full path (`rules[1].name`). Unknown and
//! null values are not checked (they are validated again once known).

use crate::schema::{Attr, BlockType, ResourceSchema};
use crate::values::{get, path_name};
use crate::Diags;
use ferro_value::schema::NestingMode;
use ferro_value::{PathStep, Value, ValueKind};
use std::collections::BTreeMap;

pub trait Validator: Send + Sync {
    fn description(&self) -> String;
    /// Check a known, non-null `value` of the attribute at `path` (from the resource object;
    /// set elements have no path of their own, so paths through a set stop at the set), whose
    /// enclosing object (the configuration, or one object of a nested attribute) is `object`.
    fn validate(&self, path: &[PathStep], value: &Value, object: &Value, diags: &mut Diags);
}

/// An error diagnostic attached to the attribute at `path`.
pub fn path_error(
    path: &[PathStep],
    summary: impl Into<String>,
    detail: impl Into<String>,
) -> crate::Diagnostic {
    let mut d = crate::Diagnostic::error(summary, detail);
    d.attribute = Some(path.to_vec());
    d
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
    fn validate(&self, path: &[PathStep], value: &Value, _object: &Value, diags: &mut Diags) {
        let attr = path_name(path);
        if let Some(s) = value.as_str() {
            let n = s.chars().count();
            if n < self.min || n > self.max {
                diags.push(path_error(
                    path,
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
    fn validate(&self, path: &[PathStep], value: &Value, _object: &Value, diags: &mut Diags) {
        let attr = path_name(path);
        if let Some(n) = value.as_number() {
            if n.to_f64() < self.0 as f64 {
                diags.push(path_error(
                    path,
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
    fn validate(&self, path: &[PathStep], value: &Value, _object: &Value, diags: &mut Diags) {
        let attr = path_name(path);
        if let Some(s) = value.as_str() {
            if !self.0.iter().any(|a| a == s) {
                diags.push(path_error(
                    path,
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
    fn validate(&self, path: &[PathStep], value: &Value, _object: &Value, diags: &mut Diags) {
        let attr = path_name(path);
        if let Some(s) = value.as_str() {
            if s.is_empty() || !s.chars().all(|c| self.allowed(c)) {
                diags.push(path_error(
                    path,
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
    fn validate(&self, path: &[PathStep], _value: &Value, object: &Value, diags: &mut Diags) {
        let attr = path_name(path);
        for other in &self.0 {
            if object.get_attr(other).is_some_and(|v| !v.is_null()) {
                let other = path_name(&sibling(path, other));
                diags.push(path_error(
                    path,
                    "Invalid Attribute Combination",
                    format!("Attribute {other:?} cannot be specified when {attr:?} is specified"),
                ));
            }
        }
    }
}

/// The path of attribute `name` of the object holding the attribute at `path`.
fn sibling(path: &[PathStep], name: &str) -> Vec<PathStep> {
    let mut p = path[..path.len().saturating_sub(1)].to_vec();
    p.push(PathStep::Attr(name.to_string()));
    p
}

/// Resource-level rule: at least one of `attrs` must be set. Returns the diagnostic to report.
pub fn at_least_one_of(config: &Value, attrs: &[&str]) -> Option<crate::Diagnostic> {
    at_least_one_of_at(&[], config, attrs)
}

/// At least one of `attrs` of `object` (at `path`: empty for the resource object) must be set.
/// Returns the diagnostic to report, on the first attribute's path.
pub fn at_least_one_of_at(
    path: &[PathStep],
    object: &Value,
    attrs: &[&str],
) -> Option<crate::Diagnostic> {
    if object.is_null() || !object.is_known() {
        return None;
    }
    let any_set = attrs
        .iter()
        .any(|a| object.get_attr(a).is_some_and(|v| !v.is_null()));
    if any_set {
        return None;
    }
    let names: Vec<String> = attrs
        .iter()
        .map(|a| {
            let mut p = path.to_vec();
            p.push(PathStep::Attr(a.to_string()));
            path_name(&p)
        })
        .collect();
    let mut first = path.to_vec();
    first.push(PathStep::Attr(
        attrs.first().copied().unwrap_or("").to_string(),
    ));
    Some(path_error(
        &first,
        "Invalid Attribute Combination",
        format!(
            "At least one attribute out of [{}] must be specified",
            names.join(",")
        ),
    ))
}

/// Run the validators of every attribute of `schema` (and of the objects of its nested
/// attributes and blocks, in every nesting mode) on a configuration object.
pub fn validate_config(schema: &ResourceSchema, config: &Value) -> Diags {
    let mut diags = Vec::new();
    validate_object(
        &schema.attributes,
        &[],
        &schema.blocks,
        config,
        &[],
        &mut diags,
    );
    diags
}

fn validate_object(
    attrs: &BTreeMap<String, Attr>,
    groups: &[Vec<String>],
    blocks: &BTreeMap<String, BlockType>,
    object: &Value,
    path: &[PathStep],
    diags: &mut Diags,
) {
    if object.is_null() || !object.is_known() {
        return;
    }
    for (name, a) in attrs {
        let mut at = path.to_vec();
        at.push(PathStep::Attr(name.clone()));
        let v = get(object, name);
        if v.is_null() || !v.is_known() {
            continue;
        }
        if v.is_wholly_known() {
            for val in &a.validators {
                val.validate(&at, &v, object, diags);
            }
        }
        if let Some((nesting, nested)) = &a.nested {
            let none = BTreeMap::new();
            let each = &mut |o: &Value, p: &[PathStep], d: &mut Diags| {
                validate_object(&nested.attributes, &nested.at_least_one_of, &none, o, p, d)
            };
            each_object(*nesting, &v, &at, diags, each);
        }
    }
    for group in groups {
        let names: Vec<&str> = group.iter().map(String::as_str).collect();
        diags.extend(at_least_one_of_at(path, object, &names));
    }
    for (name, b) in blocks {
        let mut at = path.to_vec();
        at.push(PathStep::Attr(name.clone()));
        let v = get(object, name);
        let each = &mut |o: &Value, p: &[PathStep], d: &mut Diags| {
            validate_object(&b.block.attributes, &[], &b.block.blocks, o, p, d)
        };
        each_object(b.nesting, &v, &at, diags, each);
    }
}

/// Call `f` on each object of a nested attribute or block value at `path`, with its path: list
/// elements by index, map elements by key, set elements at the set's path.
fn each_object(
    nesting: NestingMode,
    v: &Value,
    path: &[PathStep],
    diags: &mut Diags,
    f: &mut dyn FnMut(&Value, &[PathStep], &mut Diags),
) {
    let index = |key: Value| {
        let mut p = path.to_vec();
        p.push(PathStep::Index(key));
        p
    };
    match &v.kind {
        ValueKind::List(_, es) | ValueKind::Tuple(es) => {
            for (i, e) in es.iter().enumerate() {
                f(e, &index(Value::int(i as i64)), diags);
            }
        }
        ValueKind::Map(_, es) => {
            for (k, e) in es.iter() {
                f(e, &index(Value::string(k.as_str())), diags);
            }
        }
        ValueKind::Set(_, es) => {
            for e in es.iter() {
                f(e, path, diags);
            }
        }
        ValueKind::Object(_) if matches!(nesting, NestingMode::Single | NestingMode::Group) => {
            f(v, path, diags)
        }
        _ => {}
    }
}
