//! JSON forms: cty type JSON, cty value JSON driven by a type (state attributes, outputs), and
//! plain JSON of a value's own type (`show -json`).

use crate::convert::{convert, format_path, strip_optional};
use crate::{Key, ValueMap};
use crate::{Number, ObjectType, PathStep, Type, Value, ValueKind};
use serde_json::{Map, Value as J};
use std::collections::{BTreeMap, BTreeSet};
use std::str::FromStr;

/// `"string"`, `["list","string"]`, `["object",{"a":"number"}]`, … (object optional attrs as 3rd element).
pub fn type_to_json(t: &Type) -> serde_json::Value {
    match t {
        Type::String => J::from("string"),
        Type::Number => J::from("number"),
        Type::Bool => J::from("bool"),
        Type::Dynamic => J::from("dynamic"),
        Type::List(e) => J::Array(vec![J::from("list"), type_to_json(e)]),
        Type::Set(e) => J::Array(vec![J::from("set"), type_to_json(e)]),
        Type::Map(e) => J::Array(vec![J::from("map"), type_to_json(e)]),
        Type::Tuple(ts) => J::Array(vec![
            J::from("tuple"),
            J::Array(ts.iter().map(type_to_json).collect()),
        ]),
        Type::Object(o) => {
            let attrs: Map<String, J> = o
                .attrs
                .iter()
                .map(|(k, t)| (k.clone(), type_to_json(t)))
                .collect();
            let mut arr = vec![J::from("object"), J::Object(attrs)];
            if !o.optional.is_empty() {
                arr.push(J::Array(
                    o.optional.iter().map(|s| J::from(s.as_str())).collect(),
                ));
            }
            J::Array(arr)
        }
    }
}

/// Compact type JSON text as Go writes it (`["list","string"]`).
pub fn type_to_json_string(t: &Type) -> String {
    type_to_json(t).to_string()
}

pub fn type_from_json(j: &serde_json::Value) -> Result<Type, String> {
    match j {
        J::String(s) => match s.as_str() {
            "string" => Ok(Type::String),
            "number" => Ok(Type::Number),
            "bool" => Ok(Type::Bool),
            "dynamic" => Ok(Type::Dynamic),
            other => Err(format!("invalid primitive type name {other:?}")),
        },
        J::Array(arr) => {
            let kind = arr
                .first()
                .and_then(J::as_str)
                .ok_or("type array must start with a kind string")?;
            let arg = arr
                .get(1)
                .ok_or_else(|| format!("{kind} type is missing its argument"))?;
            let max_len = if kind == "object" { 3 } else { 2 };
            if arr.len() > max_len {
                return Err(format!("extraneous data after {kind} type"));
            }
            match kind {
                "list" => Ok(Type::list(type_from_json(arg)?)),
                "set" => Ok(Type::set(type_from_json(arg)?)),
                "map" => Ok(Type::map(type_from_json(arg)?)),
                "tuple" => {
                    let elems = arg
                        .as_array()
                        .ok_or("tuple type requires an array of element types")?;
                    Ok(Type::Tuple(
                        elems.iter().map(type_from_json).collect::<Result<_, _>>()?,
                    ))
                }
                "object" => {
                    let attrs = arg
                        .as_object()
                        .ok_or("object type requires an object of attribute types")?;
                    let mut ot = ObjectType::new(
                        attrs
                            .iter()
                            .map(|(k, v)| Ok((k.clone(), type_from_json(v)?)))
                            .collect::<Result<BTreeMap<_, _>, String>>()?,
                    );
                    if let Some(opt) = arr.get(2) {
                        let names = opt
                            .as_array()
                            .ok_or("object optional attributes must be an array")?;
                        let mut set = BTreeSet::new();
                        for n in names {
                            let n = n
                                .as_str()
                                .ok_or("optional attribute names must be strings")?;
                            if !ot.attrs.contains_key(n) {
                                return Err(format!(
                                    "optional attribute {n:?} is not an attribute of the object"
                                ));
                            }
                            set.insert(n.to_string());
                        }
                        ot.optional = set;
                    }
                    Ok(Type::from_object(ot))
                }
                other => Err(format!("invalid type kind {other:?}")),
            }
        }
        _ => Err("invalid type specification".into()),
    }
}

fn number_json(n: &Number) -> Result<J, String> {
    if n.is_infinite() {
        return Err("cannot serialize infinity as JSON".into());
    }
    serde_json::Number::from_str(&n.to_string())
        .map(J::Number)
        .map_err(|e| e.to_string())
}

/// Encode against `ty`: where `ty` is Dynamic the value is wrapped `{"value": …, "type": …}`.
/// Unknown values are an error ("value is not known"); marks are ignored.
pub fn value_to_json(v: &Value, ty: &Type) -> Result<serde_json::Value, String> {
    let v = if v.ty() == *ty || *ty == Type::Dynamic {
        v.clone()
    } else {
        convert(v, ty).map_err(|e| e.to_string())?
    };
    let mut path = Vec::new();
    encode(&v, ty, &mut path)
}

fn path_err(path: &[PathStep], msg: &str) -> String {
    let p = format_path(path);
    if p.is_empty() {
        msg.to_string()
    } else {
        format!("{p}: {msg}")
    }
}

fn encode(v: &Value, ty: &Type, path: &mut Vec<PathStep>) -> Result<J, String> {
    if *ty == Type::Dynamic {
        let own = v.ty();
        if own == Type::Dynamic {
            return match v.kind {
                ValueKind::Null(_) => Ok(J::Null),
                _ => Err(path_err(path, "value is not known")),
            };
        }
        let mut m = Map::new();
        m.insert("value".into(), encode(v, &own, path)?);
        m.insert("type".into(), type_to_json(&own));
        return Ok(J::Object(m));
    }
    match &v.kind {
        ValueKind::Null(_) => return Ok(J::Null),
        ValueKind::Unknown(_) => return Err(path_err(path, "value is not known")),
        _ => {}
    }
    let mismatch = || path_err(path, &format!("{} required", ty.friendly_name()));
    match (&v.kind, ty) {
        (ValueKind::String(s), Type::String) => Ok(J::String(s.to_string())),
        (ValueKind::Bool(b), Type::Bool) => Ok(J::Bool(*b)),
        (ValueKind::Number(n), Type::Number) => number_json(n).map_err(|e| path_err(path, &e)),
        (ValueKind::List(_, es) | ValueKind::Set(_, es), Type::List(et) | Type::Set(et)) => {
            let mut out = Vec::with_capacity(es.len());
            for (i, e) in es.iter().enumerate() {
                path.push(PathStep::Index(Value::int(i as i64)));
                out.push(encode(e, et, path)?);
                path.pop();
            }
            Ok(J::Array(out))
        }
        (ValueKind::Tuple(es), Type::Tuple(ts)) if es.len() == ts.len() => {
            let mut out = Vec::with_capacity(es.len());
            for (i, (e, t)) in es.iter().zip(ts).enumerate() {
                path.push(PathStep::Index(Value::int(i as i64)));
                out.push(encode(e, t, path)?);
                path.pop();
            }
            Ok(J::Array(out))
        }
        (ValueKind::Map(_, m), Type::Map(et)) => {
            let mut out = Map::new();
            for (k, e) in m.iter() {
                path.push(PathStep::Index(Value::string(k.as_str())));
                out.insert(k.to_string(), encode(e, et, path)?);
                path.pop();
            }
            Ok(J::Object(out))
        }
        (ValueKind::Object(m), Type::Object(ot)) => {
            let mut out = Map::new();
            for (k, t) in &ot.attrs {
                path.push(PathStep::Attr(k.clone()));
                let e = match m.get(k) {
                    Some(e) => encode(e, t, path)?,
                    None => J::Null,
                };
                path.pop();
                out.insert(k.clone(), e);
            }
            Ok(J::Object(out))
        }
        _ => Err(mismatch()),
    }
}

/// Decode against `ty` (lenient as cty: missing object attributes are null, primitive coercions allowed).
pub fn value_from_json(j: &serde_json::Value, ty: &Type) -> Result<Value, String> {
    let mut path = Vec::new();
    decode(j, ty, &mut path)
}

fn decode(j: &J, ty: &Type, path: &mut Vec<PathStep>) -> Result<Value, String> {
    if *ty == Type::Dynamic {
        return match j {
            J::Null => Ok(Value::null(Type::Dynamic)),
            J::Object(m) => {
                if let Some(k) = m.keys().find(|k| *k != "value" && *k != "type") {
                    return Err(path_err(
                        path,
                        &format!("invalid key {k:?} in dynamically-typed value"),
                    ));
                }
                let tj = m
                    .get("type")
                    .ok_or_else(|| path_err(path, "missing type in dynamically-typed value"))?;
                let vj = m
                    .get("value")
                    .ok_or_else(|| path_err(path, "missing value in dynamically-typed value"))?;
                let t = type_from_json(tj).map_err(|e| path_err(path, &e))?;
                decode(vj, &t, path)
            }
            _ => Err(path_err(
                path,
                "dynamically-typed value must be an object with \"value\" and \"type\"",
            )),
        };
    }
    if j.is_null() {
        return Ok(Value::null(strip_optional(ty)));
    }
    let required = || path_err(path, &format!("{} required", ty.friendly_name()));
    match ty {
        Type::String => match j {
            J::String(s) => Ok(Value::string(s.as_str())),
            J::Number(n) => {
                let n = Number::parse(&n.to_string()).ok_or_else(required)?;
                Ok(Value::string(n.to_string()))
            }
            J::Bool(b) => Ok(Value::string(if *b { "true" } else { "false" })),
            _ => Err(required()),
        },
        Type::Number => match j {
            J::Number(n) => Number::parse(&n.to_string())
                .map(Value::number)
                .ok_or_else(required),
            J::String(s) => Number::parse(s)
                .map(Value::number)
                .ok_or_else(|| path_err(path, "a number is required")),
            _ => Err(required()),
        },
        Type::Bool => match j {
            J::Bool(b) => Ok(Value::bool(*b)),
            J::String(s) => match s.as_str() {
                "true" | "1" => Ok(Value::bool(true)),
                "false" | "0" => Ok(Value::bool(false)),
                _ => Err(path_err(path, "a bool is required")),
            },
            _ => Err(required()),
        },
        Type::List(et) | Type::Set(et) => {
            let arr = j.as_array().ok_or_else(required)?;
            let mut out = Vec::with_capacity(arr.len());
            for (i, e) in arr.iter().enumerate() {
                path.push(PathStep::Index(Value::int(i as i64)));
                out.push(decode(e, et, path)?);
                path.pop();
            }
            let et = strip_optional(et);
            Ok(if matches!(ty, Type::List(_)) {
                Value::list(et, out)
            } else {
                Value::set(et, out)
            })
        }
        Type::Tuple(ts) => {
            let arr = j.as_array().ok_or_else(required)?;
            if arr.len() != ts.len() {
                return Err(path_err(
                    path,
                    &format!("a tuple of length {} is required", ts.len()),
                ));
            }
            let mut out = Vec::with_capacity(arr.len());
            for (i, (e, t)) in arr.iter().zip(ts).enumerate() {
                path.push(PathStep::Index(Value::int(i as i64)));
                out.push(decode(e, t, path)?);
                path.pop();
            }
            Ok(Value::tuple(out))
        }
        Type::Map(et) => {
            let obj = j.as_object().ok_or_else(required)?;
            let mut out = ValueMap::new();
            for (k, e) in obj {
                path.push(PathStep::Index(Value::string(k.as_str())));
                out.insert(Key::map_key(k), decode(e, et, path)?);
                path.pop();
            }
            Ok(Value::map(strip_optional(et), out))
        }
        Type::Object(ot) => {
            let obj = j.as_object().ok_or_else(required)?;
            if let Some(k) = obj.keys().find(|k| !ot.attrs.contains_key(*k)) {
                return Err(path_err(path, &format!("unsupported attribute {k:?}")));
            }
            let mut out = ValueMap::new();
            for (k, t) in &ot.attrs {
                path.push(PathStep::Attr(k.clone()));
                let v = match obj.get(k) {
                    Some(e) => decode(e, t, path)?,
                    None => Value::null(strip_optional(t)),
                };
                path.pop();
                out.insert(Key::attr(k), v);
            }
            Ok(Value::object(out))
        }
        Type::Dynamic => unreachable!("handled above"),
    }
}

/// Encode with the value's own concrete type, no wrappers. Unknown values become JSON null.
pub fn value_to_plain_json(v: &Value) -> serde_json::Value {
    match &v.kind {
        ValueKind::Null(_) | ValueKind::Unknown(_) => J::Null,
        ValueKind::Bool(b) => J::Bool(*b),
        ValueKind::Number(n) => number_json(n).unwrap_or(J::Null),
        ValueKind::String(s) => J::String(s.to_string()),
        ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => {
            J::Array(es.iter().map(value_to_plain_json).collect())
        }
        ValueKind::Map(_, m) | ValueKind::Object(m) => J::Object(
            m.iter()
                .map(|(k, e)| (k.to_string(), value_to_plain_json(e)))
                .collect(),
        ),
    }
}

/// Decode JSON without a type: objects become objects, arrays tuples, numbers numbers (`jsondecode`).
pub fn value_from_plain_json(j: &serde_json::Value) -> Value {
    match j {
        J::Null => Value::null(Type::Dynamic),
        J::Bool(b) => Value::bool(*b),
        J::Number(n) => match Number::parse(&n.to_string()) {
            Some(n) => Value::number(n),
            None => Value::null(Type::Number),
        },
        J::String(s) => Value::string(s.as_str()),
        J::Array(a) => Value::tuple(a.iter().map(value_from_plain_json).collect()),
        J::Object(m) => Value::object(
            m.iter()
                .map(|(k, e)| (k.clone(), value_from_plain_json(e)))
                .collect(),
        ),
    }
}

/// Compact JSON text escaped as Go's `encoding/json` does (`<`, `>`, `&`, U+2028 and U+2029
/// as `\u` escapes), for byte-compatible state and plan files.
pub fn to_go_json_string(j: &serde_json::Value) -> String {
    go_escape(&j.to_string())
}

/// Apply Go's HTML-safe escaping to already serialized JSON text (those characters can only
/// occur inside strings), and write backspace and form feed as Go does (`\u0008`, `\u000c`
/// where serde_json writes `\b`, `\f`).
pub fn go_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('b') => out.push_str("\\u0008"),
                Some('f') => out.push_str("\\u000c"),
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            },
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

fn is_go_printable(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let u = c as u32;
    // Format characters (category Cf) and noncharacters are not printable in Go.
    !matches!(u, 0xAD | 0x600..=0x605 | 0x61C | 0x6DD | 0x70F | 0x180E | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x206F | 0xFEFF | 0xFFF9..=0xFFFB | 0xFFFE | 0xFFFF | 0xE000..=0xF8FF)
}

/// Go's `strconv.Quote`.
pub fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\x0c' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\x0b' => out.push_str("\\v"),
            c if is_go_printable(c) => out.push(c),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn s(x: &str) -> Value {
        Value::string(x)
    }

    #[test]
    fn go_escaping_of_serialized_text() {
        let j = serde_json::Value::String("\u{8}\u{c}\\b<&>\u{2028}\n".into());
        assert_eq!(
            to_go_json_string(&j),
            r#""\u0008\u000c\\b\u003c\u0026\u003e\u2028\n""#
        );
    }

    #[test]
    fn types_round_trip() {
        let cases = [
            json!("string"),
            json!("dynamic"),
            json!(["list", "string"]),
            json!(["set", ["map", "bool"]]),
            json!(["tuple", []]),
            json!(["tuple", ["string", "number"]]),
            json!(["map", ["object", {"name": "string", "ports": ["list", "number"]}]]),
            json!(["object", {"a": "string", "b": "number"}, ["b"]]),
        ];
        for c in cases {
            let t = type_from_json(&c).unwrap();
            assert_eq!(type_to_json(&t), c);
        }
        let t = type_from_json(&json!(["object", {"b": "number", "a": "string"}])).unwrap();
        assert_eq!(
            type_to_json_string(&t),
            r#"["object",{"a":"string","b":"number"}]"#
        );
        for bad in [
            json!("any"),
            json!(["list"]),
            json!(["list", "string", "x"]),
            json!(["foo", "string"]),
            json!(1),
        ] {
            assert!(type_from_json(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn values_typed() {
        let ty = Type::object([
            ("id".to_string(), Type::String),
            ("dyn".to_string(), Type::Dynamic),
        ]);
        let v = Value::object(
            [
                ("id".to_string(), s("x<y")),
                (
                    "dyn".to_string(),
                    Value::list(Type::Number, vec![Value::int(1)]),
                ),
            ]
            .into(),
        );
        let j = value_to_json(&v, &ty).unwrap();
        assert_eq!(
            j.to_string(),
            r#"{"dyn":{"value":[1],"type":["list","number"]},"id":"x<y"}"#
        );
        assert_eq!(
            to_go_json_string(&j),
            r#"{"dyn":{"value":[1],"type":["list","number"]},"id":"x\u003cy"}"#
        );
        assert_eq!(value_from_json(&j, &ty).unwrap(), v);

        let wrapped_null = value_to_json(&Value::null(Type::String), &Type::Dynamic).unwrap();
        assert_eq!(wrapped_null, json!({"value": null, "type": "string"}));
        assert_eq!(
            value_from_json(&wrapped_null, &Type::Dynamic).unwrap(),
            Value::null(Type::String)
        );
        assert_eq!(
            value_to_json(&Value::null(Type::Dynamic), &Type::Dynamic).unwrap(),
            J::Null
        );
        assert_eq!(
            value_to_json(&Value::unknown(Type::String), &Type::String).unwrap_err(),
            "value is not known"
        );
        assert!(value_to_json(&Value::dynamic_unknown(), &Type::Dynamic).is_err());

        let big = Value::number(Number::parse("1e21").unwrap());
        assert_eq!(
            value_to_json(&big, &Type::Number).unwrap().to_string(),
            "1000000000000000000000"
        );
        let frac = Value::number(Number::parse("0.1").unwrap());
        assert_eq!(
            value_to_json(&frac, &Type::Number).unwrap().to_string(),
            "0.1"
        );
        // Conversion to the requested type first.
        assert_eq!(
            value_to_json(&Value::int(5), &Type::String).unwrap(),
            json!("5")
        );
    }

    #[test]
    fn decode_lenient() {
        let ty = Type::object([
            ("a".to_string(), Type::Number),
            ("b".to_string(), Type::Bool),
        ]);
        let v = value_from_json(&json!({"a": "12"}), &ty).unwrap();
        assert_eq!(v.get_attr("a"), Some(&Value::int(12)));
        assert_eq!(v.get_attr("b"), Some(&Value::null(Type::Bool)));
        assert!(value_from_json(&json!({"c": 1}), &ty)
            .unwrap_err()
            .contains("unsupported attribute \"c\""));
        assert_eq!(
            value_from_json(&json!("true"), &Type::Bool).unwrap(),
            Value::bool(true)
        );
        assert_eq!(
            value_from_json(&json!(1.5), &Type::String).unwrap(),
            s("1.5")
        );
        assert_eq!(
            value_from_json(&json!(false), &Type::String).unwrap(),
            s("false")
        );
        assert!(value_from_json(
            &json!({"value": 1, "type": "number", "x": 1}),
            &Type::Dynamic
        )
        .is_err());
        assert_eq!(
            value_from_json(&json!({"type": "number", "value": 1}), &Type::Dynamic).unwrap(),
            Value::int(1)
        );
        let set = value_from_json(&json!(["b", "a", "b"]), &Type::set(Type::String)).unwrap();
        assert_eq!(set.as_elements().unwrap(), &[s("a"), s("b")]);
        assert!(value_from_json(&json!([1, 2]), &Type::Tuple(vec![Type::Number].into())).is_err());
        let n: J = serde_json::from_str("123456789012345678901234567890.5").unwrap();
        assert_eq!(
            value_from_json(&n, &Type::Number)
                .unwrap()
                .as_number()
                .unwrap()
                .to_string(),
            "123456789012345678901234567890.5"
        );
    }

    #[test]
    fn plain() {
        let v = Value::object(
            [
                (
                    "l".to_string(),
                    Value::set(Type::String, vec![s("b"), s("a")]),
                ),
                ("u".to_string(), Value::unknown(Type::String)),
                (
                    "n".to_string(),
                    Value::number(Number::parse("2.50").unwrap()),
                ),
            ]
            .into(),
        );
        assert_eq!(
            value_to_plain_json(&v).to_string(),
            r#"{"l":["a","b"],"n":2.5,"u":null}"#
        );
        let back = value_from_plain_json(&json!({"a": [1, "x", null], "b": true}));
        assert_eq!(
            back,
            Value::object(
                [
                    (
                        "a".to_string(),
                        Value::tuple(vec![Value::int(1), s("x"), Value::null(Type::Dynamic)])
                    ),
                    ("b".to_string(), Value::bool(true)),
                ]
                .into()
            )
        );
    }
}
