//! Between state objects and values: decoding through the provider's upgrade, encoding new
//! objects for the state file.

use ferro_state::{Attributes, ObjectState};
use ferro_value::schema::Schema;
use ferro_value::{json, PathStep, Value, ValueKind};

/// How state holds a new object's attributes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// The decoded value, shared with the plan or the expressions that hold it.
    Value,
    /// The JSON text: for an object nothing reads again in this run, which the text holds in
    /// a fraction of the value's memory.
    Text,
}

impl Hold {
    /// The decoded value when expressions read the object's resource (they hold the value),
    /// else the text.
    pub fn when_read(read: bool) -> Hold {
        if read {
            Hold::Value
        } else {
            Hold::Text
        }
    }
}

/// Encode a new object for state: attributes against the schema type (held as `hold` says),
/// sensitive paths, private data.
pub fn encode_object(
    schema: &Schema,
    v: &Value,
    private: &[u8],
    dependencies: ferro_state::Dependencies,
    cbd: bool,
    tainted: bool,
    hold: Hold,
) -> Result<ObjectState, String> {
    let ty = schema.implied_type();
    let attributes = match hold {
        Hold::Value => Attributes::from_value(v, &ty)?,
        Hold::Text => Attributes::text_from_value(v, &ty)?,
    };
    let mut paths = Vec::new();
    sensitive_paths(v, &mut Vec::new(), &mut paths);
    let schema_version = u32::try_from(schema.version)
        .map_err(|_| format!("schema version {} is out of range", schema.version))?;
    Ok(ObjectState {
        tainted,
        schema_version,
        attributes,
        sensitive_attributes: serde_json::Value::Array(paths).into(),
        private: private_text(private),
        dependencies,
        create_before_destroy: cbd,
        skip_destroy: false,
        identity: None,
    })
}

fn step_json(s: &PathStep) -> serde_json::Value {
    match s {
        PathStep::Attr(a) => serde_json::json!({"type": "get_attr", "value": a}),
        PathStep::Index(k) => {
            let ty = k.ty();
            let v = json::value_to_json(k, &ferro_value::Type::Dynamic)
                .unwrap_or(serde_json::Value::Null);
            let _ = ty;
            serde_json::json!({"type": "index", "value": v})
        }
    }
}

/// The paths of an object's sensitive values, as state records them in `sensitive_attributes`.
pub fn sensitive_path_list(v: &Value) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    sensitive_paths(v, &mut Vec::new(), &mut out);
    out
}

fn sensitive_paths(v: &Value, path: &mut Vec<PathStep>, out: &mut Vec<serde_json::Value>) {
    if v.is_sensitive() && !path.is_empty() {
        out.push(serde_json::Value::Array(
            path.iter().map(step_json).collect(),
        ));
        return;
    }
    match &v.kind {
        ValueKind::Object(m) => {
            for (k, x) in m.iter() {
                path.push(PathStep::Attr(k.to_string()));
                sensitive_paths(x, path, out);
                path.pop();
            }
        }
        ValueKind::Map(_, m) => {
            for (k, x) in m.iter() {
                path.push(PathStep::Index(Value::string(k.as_str())));
                sensitive_paths(x, path, out);
                path.pop();
            }
        }
        ValueKind::List(_, es) | ValueKind::Tuple(es) => {
            for (i, x) in es.iter().enumerate() {
                path.push(PathStep::Index(Value::int(i as i64)));
                sensitive_paths(x, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Re-apply the sensitive marks recorded in state to a decoded object.
pub fn apply_sensitive_paths(v: Value, paths: &serde_json::Value) -> Value {
    let Some(list) = paths.as_array() else {
        return v;
    };
    let mut v = v;
    for p in list {
        let Some(steps) = p.as_array() else { continue };
        v = mark_at(&v, steps);
    }
    v
}

fn mark_at(v: &Value, steps: &[serde_json::Value]) -> Value {
    let Some((first, rest)) = steps.split_first() else {
        return v.clone().mark_sensitive();
    };
    let key = match (
        first.get("type").and_then(|t| t.as_str()),
        first.get("value"),
    ) {
        (Some("get_attr"), Some(serde_json::Value::String(a))) => a.clone(),
        (Some("index"), Some(val)) => match val.get("value").unwrap_or(val) {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Number(n) => n.to_string(),
            _ => return v.clone(),
        },
        _ => return v.clone(),
    };
    match &v.kind {
        ValueKind::Object(m) | ValueKind::Map(_, m) => {
            let Some(inner) = m.get(&key) else {
                return v.clone();
            };
            let mut m2 = (**m).clone();
            m2.insert(key, mark_at(inner, rest));
            let mut out = v.clone();
            match &mut out.kind {
                ValueKind::Object(x) | ValueKind::Map(_, x) => *x = std::sync::Arc::new(m2),
                _ => {}
            }
            out
        }
        ValueKind::List(_, es) | ValueKind::Tuple(es) => {
            let Ok(i) = key.parse::<usize>() else {
                return v.clone();
            };
            let Some(inner) = es.get(i) else {
                return v.clone();
            };
            let mut es2 = (**es).clone();
            es2[i] = mark_at(inner, rest);
            let mut out = v.clone();
            match &mut out.kind {
                ValueKind::List(_, x) | ValueKind::Tuple(x) => *x = std::sync::Arc::new(es2),
                _ => {}
            }
            out
        }
        _ => v.clone(),
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding (state's `private`).
/// Private data as state holds it: base64, shared with the objects before it that have the
/// same (providers often give every object of a resource the same bytes); None when empty.
pub fn private_text(data: &[u8]) -> Option<std::sync::Arc<str>> {
    static TEXTS: ferro_value::SharedTexts = ferro_value::SharedTexts::new(1024, 512);
    (!data.is_empty()).then(|| TEXTS.share(&base64(data)))
}

pub fn base64(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

pub fn base64_decode(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = 0u32;
    let mut bits = 0;
    for c in s.bytes() {
        let v = match B64.iter().position(|x| *x == c) {
            Some(v) => v as u32,
            None => continue,
        };
        buf = (buf << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((buf >> bits) as u8);
            buf &= (1 << bits) - 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        assert_eq!(base64(b"null"), "bnVsbA==");
        assert_eq!(base64_decode("bnVsbA=="), b"null");
        assert_eq!(base64(b"ab"), "YWI=");
    }
}
