//! Small helpers for reading and building the object values resources work with.

use ferro_value::ValueMap;
use ferro_value::{PathStep, Type, Value, ValueKind};
use std::sync::Arc;

/// The attribute `name` of an object (null of dynamic type when absent or the object is null).
pub fn get(obj: &Value, name: &str) -> Value {
    obj.get_attr(name)
        .cloned()
        .unwrap_or_else(|| Value::null(Type::Dynamic))
}

/// The string attribute `name`, when known and not null.
pub fn get_str(obj: &Value, name: &str) -> Option<String> {
    obj.get_attr(name)
        .and_then(|v| v.as_str())
        .map(str::to_string)
}

/// The number attribute `name` as an i64, when known, not null and integral.
pub fn get_i64(obj: &Value, name: &str) -> Option<i64> {
    obj.get_attr(name)
        .and_then(|v| v.as_number())
        .and_then(|n| n.to_i64())
}

/// The bool attribute `name`, when known and not null.
pub fn get_bool(obj: &Value, name: &str) -> Option<bool> {
    obj.get_attr(name).and_then(|v| v.as_bool())
}

/// `obj` with attribute `name` replaced by `v` (marks kept).
pub fn with(obj: &Value, name: &str, v: Value) -> Value {
    match &obj.kind {
        ValueKind::Object(attrs) => {
            let mut attrs: ValueMap = (**attrs).clone();
            attrs.insert(name.to_string(), v);
            Value {
                kind: ValueKind::Object(Arc::new(attrs)),
                marks: obj.marks,
            }
        }
        _ => obj.clone(),
    }
}

/// Whether the attribute is null or unknown (the cases plan modifiers leave alone).
pub fn null_or_unknown(v: &Value) -> bool {
    v.is_null() || !v.is_known()
}

/// Decode a state object's JSON attributes with the object type `ty` (for state upgraders: the
/// implied type of the schema the object was written with).
pub fn from_json(json: &serde_json::Value, ty: &Type) -> Result<Value, String> {
    ferro_value::json::value_from_json(json, ty)
}

/// Encode an object value as state JSON of its type (the inverse of [`from_json`]).
pub fn to_json(v: &Value, ty: &Type) -> Result<serde_json::Value, String> {
    ferro_value::json::value_to_json(v, ty)
}

/// An attribute path as the framework names it in messages: `rules[1].name`, `tags["k"]`.
pub fn path_name(path: &[PathStep]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            PathStep::Attr(n) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(n);
            }
            PathStep::Index(k) => match (k.as_str(), k.as_number()) {
                (Some(s), _) => out.push_str(&format!("[{s:?}]")),
                (None, Some(n)) => out.push_str(&format!("[{n}]")),
                _ => out.push_str("[?]"),
            },
        }
    }
    out
}
