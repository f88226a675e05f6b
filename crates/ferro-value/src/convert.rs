//! Type conversion with Terraform's rules (cty/convert): safe and lenient conversions, structural
//! to collection, primitives to and from string, and `optional` attributes in object constraints.
//!
//! Conversion is decided at the type level first ([`conversion_type`]), as cty does: when no
//! conversion exists the error has an empty path and a message naming what was required
//! (`number required`, `attribute "a": string required`, …). Failures that only show on the
//! value (`"abc"` to number, a map lacking a key for a required attribute) carry the path to the
//! failing element. Object to object conversion drops attributes the target does not declare.

use crate::unify::unify_types;
use crate::{Key, ValueMap};
use crate::{Number, ObjectType, PathStep, Type, Value, ValueKind};
use std::collections::BTreeMap;

/// Why a value could not be converted; `message` is Terraform's wording
/// (e.g. `a number is required`, `attribute "name" is required`), `path` where inside the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertError {
    pub path: Vec<PathStep>,
    pub message: String,
}

impl std::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = format_path(&self.path);
        if p.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{p}: {}", self.message)
        }
    }
}

impl std::error::Error for ConvertError {}

/// A path as Terraform prints it in messages: `.a[0]["k"]`.
pub fn format_path(path: &[PathStep]) -> String {
    let mut s = String::new();
    for step in path {
        match step {
            PathStep::Attr(a) => {
                s.push('.');
                s.push_str(a);
            }
            PathStep::Index(v) => match &v.kind {
                ValueKind::String(k) => s.push_str(&format!("[{:?}]", k.as_ref())),
                ValueKind::Number(n) => s.push_str(&format!("[{n}]")),
                _ => s.push_str("[...]"),
            },
        }
    }
    s
}

/// Convert `v` to conform to `ty` (which may contain `Dynamic` and optional attributes).
/// Unknown and null values convert to unknown/null of the target type; marks are kept.
pub fn convert(v: &Value, ty: &Type) -> Result<Value, ConvertError> {
    let mut path = Vec::new();
    convert_at(v, ty, &mut path)
}

/// Like [`convert`] but only allowing *safe* conversions (no string to number/bool).
pub fn can_convert_safely(from: &Type, to: &Type) -> bool {
    conversion_type(from, to, false).is_some()
}

/// The type a value of type `from` has after conversion to `to`, when a conversion exists
/// (`lenient` allows string to number/bool). Dynamic parts of `to` are filled from `from`;
/// optional-attribute markers are dropped.
pub fn conversion_type(from: &Type, to: &Type, lenient: bool) -> Option<Type> {
    if *to == Type::Dynamic {
        return Some(from.clone());
    }
    if from == to {
        return Some(strip_optional(to));
    }
    if *from == Type::Dynamic {
        return Some(strip_optional(to));
    }
    match (from, to) {
        (Type::Number | Type::Bool, Type::String) => Some(Type::String),
        (Type::String, Type::Number | Type::Bool) if lenient => Some(to.clone()),
        (Type::List(fe) | Type::Set(fe), Type::List(te)) => {
            conversion_type(fe, te, lenient).map(Type::list)
        }
        (Type::List(fe) | Type::Set(fe), Type::Set(te)) => {
            conversion_type(fe, te, lenient).map(Type::set)
        }
        (Type::Tuple(ts), Type::List(te)) => tuple_elem_type(ts, te, lenient).map(Type::list),
        (Type::Tuple(ts), Type::Set(te)) => tuple_elem_type(ts, te, lenient).map(Type::set),
        (Type::Map(fe), Type::Map(te)) => conversion_type(fe, te, lenient).map(Type::map),
        (Type::Object(ot), Type::Map(te)) => {
            let ts: Vec<Type> = ot.attrs.values().cloned().collect();
            tuple_elem_type(&ts, te, lenient).map(Type::map)
        }
        (Type::Tuple(fs), Type::Tuple(ts)) => {
            if fs.len() != ts.len() {
                return None;
            }
            fs.iter()
                .zip(ts)
                .map(|(f, t)| conversion_type(f, t, lenient))
                .collect::<Option<Vec<_>>>()
                .map(|ts| Type::Tuple(ts.into()))
        }
        (Type::List(fe) | Type::Set(fe), Type::Tuple(ts)) if lenient => ts
            .iter()
            .map(|t| conversion_type(fe, t, lenient))
            .collect::<Option<Vec<_>>>()
            .map(|ts| Type::Tuple(ts.into())),
        (Type::Object(fo), Type::Object(to_)) => {
            let mut attrs = BTreeMap::new();
            for (name, at) in &to_.attrs {
                match fo.attrs.get(name) {
                    Some(ft) => {
                        attrs.insert(name.clone(), conversion_type(ft, at, lenient)?);
                    }
                    None if to_.optional.contains(name) => {
                        attrs.insert(name.clone(), strip_optional(at));
                    }
                    None => return None,
                }
            }
            Some(Type::from_object(ObjectType::new(attrs)))
        }
        (Type::Map(fe), Type::Object(to_)) if lenient => {
            let mut attrs = BTreeMap::new();
            for (name, at) in &to_.attrs {
                attrs.insert(name.clone(), conversion_type(fe, at, lenient)?);
            }
            Some(Type::from_object(ObjectType::new(attrs)))
        }
        _ => None,
    }
}

/// The single element type structural element types `ts` convert to for a collection whose
/// declared element type is `te` (unified when `te` is or contains Dynamic).
fn tuple_elem_type(ts: &[Type], te: &Type, lenient: bool) -> Option<Type> {
    if ts.is_empty() {
        return Some(strip_optional(te));
    }
    if *te == Type::Dynamic {
        // Dynamic-typed elements (untyped nulls, unknowns) convert to whatever the others unify to.
        let concrete: Vec<Type> = ts
            .iter()
            .filter(|t| **t != Type::Dynamic)
            .cloned()
            .collect();
        if concrete.is_empty() {
            return Some(Type::Dynamic);
        }
        let u = unify_types(&concrete, lenient)?;
        if u.has_dynamic() && u != Type::Dynamic {
            return Some(u);
        }
        return if u == Type::Dynamic { None } else { Some(u) };
    }
    let rs = ts
        .iter()
        .map(|t| conversion_type(t, te, lenient))
        .collect::<Option<Vec<_>>>()?;
    if rs.iter().all(|r| *r == rs[0]) {
        return Some(rs[0].clone());
    }
    unify_types(&rs, lenient)
}

/// The type without optional-attribute markers (values never carry them).
pub fn strip_optional(t: &Type) -> Type {
    match t {
        Type::List(e) => Type::list(strip_optional(e)),
        Type::Set(e) => Type::set(strip_optional(e)),
        Type::Map(e) => Type::map(strip_optional(e)),
        Type::Tuple(ts) => Type::Tuple(ts.iter().map(strip_optional).collect()),
        Type::Object(o) => Type::from_object(ObjectType::new(
            o.attrs
                .iter()
                .map(|(k, v)| (k.clone(), strip_optional(v)))
                .collect(),
        )),
        other => other.clone(),
    }
}

/// Terraform's explanation of why `got` does not convert to `want` (cty `MismatchMessage`).
pub fn mismatch_message(got: &Type, want: &Type) -> String {
    let required = || match want {
        Type::List(e) if **e == Type::Dynamic => "list of any single type required".to_string(),
        Type::Set(e) if **e == Type::Dynamic => "set of any single type required".to_string(),
        Type::Map(e) if **e == Type::Dynamic => "map of any single type required".to_string(),
        _ => format!("{} required", want.friendly_name()),
    };
    match (got, want) {
        (Type::Object(g), Type::Object(w)) => mismatch_objects(g, w),
        (Type::Tuple(_), Type::List(e)) if **e == Type::Dynamic => {
            "all list elements must have the same type".into()
        }
        (Type::Tuple(_), Type::Set(e)) if **e == Type::Dynamic => {
            "all set elements must have the same type".into()
        }
        (Type::Object(_), Type::Map(e)) if **e == Type::Dynamic => {
            "all map elements must have the same type".into()
        }
        (Type::Tuple(ts), Type::List(e) | Type::Set(e)) => {
            for (i, t) in ts.iter().enumerate() {
                if conversion_type(t, e, true).is_none() {
                    return format!("element {i}: {}", mismatch_message(t, e));
                }
            }
            required()
        }
        (Type::Object(o), Type::Map(e)) => {
            for (k, t) in &o.attrs {
                if conversion_type(t, e, true).is_none() {
                    return format!("element {k:?}: {}", mismatch_message(t, e));
                }
            }
            required()
        }
        // A set given for a list is described by its elements too (cty's wording).
        (Type::List(g) | Type::Set(g), Type::List(w)) => {
            format!("incorrect list element type: {}", mismatch_message(g, w))
        }
        (Type::Set(g), Type::Set(w)) => {
            format!("incorrect set element type: {}", mismatch_message(g, w))
        }
        (Type::Map(g), Type::Map(w)) => {
            format!("incorrect map element type: {}", mismatch_message(g, w))
        }
        _ => required(),
    }
}

fn mismatch_objects(got: &ObjectType, want: &ObjectType) -> String {
    let mut missing = Vec::new();
    let mut first_err: Option<(String, String)> = None;
    for (name, wt) in &want.attrs {
        match got.attrs.get(name) {
            None => {
                if !want.optional.contains(name) {
                    missing.push(name.clone());
                }
            }
            Some(gt) => {
                if gt != wt && conversion_type(gt, wt, true).is_none() && first_err.is_none() {
                    first_err = Some((name.clone(), mismatch_message(gt, wt)));
                }
            }
        }
    }
    match missing.len() {
        0 => {}
        1 => return format!("attribute {:?} is required", missing[0]),
        2 => {
            return format!(
                "attributes {:?} and {:?} are required",
                missing[0], missing[1]
            )
        }
        n => {
            let init: Vec<String> = missing[..n - 1].iter().map(|m| format!("{m:?}")).collect();
            return format!(
                "attributes {}, and {:?} are required",
                init.join(", "),
                missing[n - 1]
            );
        }
    }
    match first_err {
        Some((name, msg)) => format!("attribute {name:?}: {msg}"),
        None => "incorrect object attributes".into(),
    }
}

fn err(path: &[PathStep], message: impl Into<String>) -> ConvertError {
    ConvertError {
        path: path.to_vec(),
        message: message.into(),
    }
}

fn convert_at(v: &Value, to: &Type, path: &mut Vec<PathStep>) -> Result<Value, ConvertError> {
    let marks = v.marks;
    if *to == Type::Dynamic {
        return Ok(v.clone());
    }
    let from = v.ty();
    if from == *to {
        return Ok(v.clone());
    }
    let rt =
        conversion_type(&from, to, true).ok_or_else(|| err(path, mismatch_message(&from, to)))?;
    let out = match &v.kind {
        ValueKind::Null(_) => Value::null(rt),
        ValueKind::Unknown(_) => Value::unknown(rt),
        _ => convert_known(v, to, &rt, path)?,
    };
    Ok(out.with_marks(marks))
}

/// `to` with its Dynamic parts replaced by the resolved parts of `rt` (keeping `to`'s optional
/// attribute markers), the type children are converted to.
fn overlay(to: &Type, rt: &Type) -> Type {
    match (to, rt) {
        (Type::Dynamic, _) => rt.clone(),
        (Type::List(a), Type::List(b)) => Type::list(overlay(a, b)),
        (Type::Set(a), Type::Set(b)) => Type::set(overlay(a, b)),
        (Type::Map(a), Type::Map(b)) => Type::map(overlay(a, b)),
        (Type::Tuple(a), Type::Tuple(b)) if a.len() == b.len() => {
            Type::Tuple(a.iter().zip(b).map(|(x, y)| overlay(x, y)).collect())
        }
        (Type::Object(a), Type::Object(b)) => Type::from_object(ObjectType {
            attrs: a
                .attrs
                .iter()
                .map(|(k, t)| {
                    (
                        k.clone(),
                        b.attrs
                            .get(k)
                            .map_or_else(|| t.clone(), |bt| overlay(t, bt)),
                    )
                })
                .collect(),
            optional: a.optional.clone(),
        }),
        _ => to.clone(),
    }
}

fn convert_known(
    v: &Value,
    to: &Type,
    rt: &Type,
    path: &mut Vec<PathStep>,
) -> Result<Value, ConvertError> {
    let tgt = overlay(to, rt);
    let rt_elem = rt.element_type().cloned().unwrap_or(Type::Dynamic);
    let is_set = matches!(v.kind, ValueKind::Set(..));
    let out = match (&v.kind, &tgt) {
        (ValueKind::Number(n), Type::String) => Value::string(n.to_string()),
        (ValueKind::Bool(b), Type::String) => Value::string(if *b { "true" } else { "false" }),
        (ValueKind::String(s), Type::Number) => match Number::parse(s) {
            Some(n) => Value::number(n),
            None => return Err(err(path, "a number is required")),
        },
        (ValueKind::String(s), Type::Bool) => match s.as_ref() {
            "true" | "1" => Value::bool(true),
            "false" | "0" => Value::bool(false),
            _ => return Err(err(path, "a bool is required")),
        },
        (ValueKind::String(_) | ValueKind::Number(_) | ValueKind::Bool(_), _) => v.unmarked(),
        // A set whose length is not known (it holds unknown elements that may coincide) gives
        // a sequence of unknown length, as cty's conversion does.
        (ValueKind::Set(_, es), Type::List(_) | Type::Tuple(_))
            if es.len() > 1 && !v.is_wholly_known() =>
        {
            Value::unknown(match &tgt {
                Type::List(_) => Type::list(rt_elem),
                _ => tgt.clone(),
            })
        }
        (ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es), Type::List(te)) => {
            Value::list(rt_elem, convert_seq(es, |_| te, path, is_set)?)
        }
        (ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es), Type::Set(te)) => {
            Value::set(rt_elem, convert_seq(es, |_| te, path, is_set)?)
        }
        (
            ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es),
            Type::Tuple(tts),
        ) => {
            if es.len() != tts.len() {
                return Err(err(
                    path,
                    format!("a tuple of length {} is required", tts.len()),
                ));
            }
            Value::tuple(convert_seq(es, |i| &tts[i], path, is_set)?)
        }
        (ValueKind::Map(_, m) | ValueKind::Object(m), Type::Map(te)) => {
            let mut out = ValueMap::new();
            for (k, e) in m.iter() {
                path.push(PathStep::Index(Value::string(k.as_str())));
                let c = convert_at(e, te, path)?;
                path.pop();
                out.insert(k.clone(), c);
            }
            Value::map(rt_elem, out)
        }
        (ValueKind::Object(m) | ValueKind::Map(_, m), Type::Object(want)) => {
            let from_map = matches!(v.kind, ValueKind::Map(..));
            let mut out = ValueMap::new();
            for (name, at) in &want.attrs {
                match m.get(name) {
                    Some(e) => {
                        path.push(if from_map {
                            PathStep::Index(Value::string(name.as_str()))
                        } else {
                            PathStep::Attr(name.clone())
                        });
                        let c = convert_at(e, at, path)?;
                        path.pop();
                        out.insert(Key::attr(name), c);
                    }
                    None if want.optional.contains(name) => {
                        out.insert(Key::attr(name), Value::null(strip_optional(at)));
                    }
                    None if from_map => {
                        return Err(err(
                            path,
                            format!("map has no element for required attribute {name:?}"),
                        ))
                    }
                    None => return Err(err(path, format!("attribute {name:?} is required"))),
                }
            }
            Value::object(out)
        }
        _ => return Err(err(path, mismatch_message(&v.ty(), to))),
    };
    Ok(out)
}

/// Convert a sequence's elements; `target(i)` is the element type for index `i`. Path steps
/// are indexes, or the element itself for sets.
fn convert_seq<'t>(
    es: &[Value],
    target: impl Fn(usize) -> &'t Type,
    path: &mut Vec<PathStep>,
    is_set: bool,
) -> Result<Vec<Value>, ConvertError> {
    let mut out = Vec::with_capacity(es.len());
    for (i, e) in es.iter().enumerate() {
        let step = if is_set {
            e.clone()
        } else {
            Value::int(i as i64)
        };
        path.push(PathStep::Index(step));
        let c = convert_at(e, target(i), path)?;
        path.pop();
        out.push(c);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> Value {
        Value::string(x)
    }
    fn obj(pairs: &[(&str, Value)]) -> Value {
        Value::object(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }
    fn oty(pairs: &[(&str, Type)]) -> Type {
        Type::object(pairs.iter().map(|(k, t)| (k.to_string(), t.clone())))
    }

    #[test]
    fn primitives() {
        assert_eq!(convert(&Value::int(5), &Type::String).unwrap(), s("5"));
        assert_eq!(
            convert(&Value::bool(true), &Type::String).unwrap(),
            s("true")
        );
        assert_eq!(
            convert(&s("1.50"), &Type::Number).unwrap(),
            Value::number(Number::parse("1.5").unwrap())
        );
        assert_eq!(
            convert(&s("false"), &Type::Bool).unwrap(),
            Value::bool(false)
        );
        let e = convert(&s("abc"), &Type::Number).unwrap_err();
        assert_eq!(e.message, "a number is required");
        assert!(e.path.is_empty());
        assert_eq!(
            convert(&s("yes"), &Type::Bool).unwrap_err().message,
            "a bool is required"
        );
        assert_eq!(
            convert(&Value::bool(true), &Type::Number)
                .unwrap_err()
                .message,
            "number required"
        );
        assert_eq!(
            convert(&Value::int(1), &Type::Bool).unwrap_err().message,
            "bool required"
        );
        assert_eq!(
            convert(&Value::int(1), &Type::list(Type::String))
                .unwrap_err()
                .message,
            "list of string required"
        );
        assert_eq!(convert(&s("x"), &Type::Dynamic).unwrap(), s("x"));
    }

    #[test]
    fn null_unknown_marks() {
        assert_eq!(
            convert(&Value::null(Type::Dynamic), &Type::String).unwrap(),
            Value::null(Type::String)
        );
        assert_eq!(
            convert(&Value::null(Type::Number), &Type::String).unwrap(),
            Value::null(Type::String)
        );
        assert_eq!(
            convert(&Value::dynamic_unknown(), &Type::Number).unwrap(),
            Value::unknown(Type::Number)
        );
        assert_eq!(
            convert(
                &Value::unknown(Type::list(Type::String)),
                &Type::list(Type::Dynamic)
            )
            .unwrap(),
            Value::unknown(Type::list(Type::String))
        );
        assert!(convert(&Value::null(Type::Bool), &Type::Number).is_err());
        let m = convert(&Value::int(1).mark_sensitive(), &Type::String).unwrap();
        assert!(m.is_sensitive());
        assert_eq!(m.as_str(), Some("1"));
        let l = Value::list(Type::Number, vec![Value::int(1).mark_sensitive()]);
        let c = convert(&l, &Type::list(Type::String)).unwrap();
        assert!(c.as_elements().unwrap()[0].is_sensitive());
    }

    #[test]
    fn collections() {
        let t = Value::tuple(vec![s("a"), Value::int(1)]);
        assert_eq!(
            convert(&t, &Type::list(Type::Dynamic)).unwrap(),
            Value::list(Type::String, vec![s("a"), s("1")])
        );
        assert_eq!(
            convert(&t, &Type::set(Type::String)).unwrap(),
            Value::set(Type::String, vec![s("1"), s("a")])
        );
        let bad = Value::tuple(vec![s("a"), Value::bool(true), s("x")]);
        let e = convert(&bad, &Type::list(Type::Number)).unwrap_err();
        assert_eq!(e.message, "element 1: number required");
        let bad2 = Value::tuple(vec![Value::int(1), s("x")]);
        let e = convert(&bad2, &Type::list(Type::Number)).unwrap_err();
        assert_eq!(e.message, "a number is required");
        assert_eq!(e.path, vec![PathStep::Index(Value::int(1))]);
        let mixed = Value::tuple(vec![Value::int(1), Value::bool(true)]);
        assert_eq!(
            convert(&mixed, &Type::list(Type::Dynamic))
                .unwrap_err()
                .message,
            "all list elements must have the same type"
        );
        let l = Value::list(Type::String, vec![s("b"), s("a"), s("b")]);
        let st = convert(&l, &Type::set(Type::String)).unwrap();
        assert_eq!(st.as_elements().unwrap(), &[s("a"), s("b")]);
        let back = convert(&st, &Type::list(Type::String)).unwrap();
        assert_eq!(back, Value::list(Type::String, vec![s("a"), s("b")]));
        let o = obj(&[("a", s("x")), ("b", Value::int(2))]);
        assert_eq!(
            convert(&o, &Type::map(Type::Dynamic)).unwrap(),
            Value::map(
                Type::String,
                [("a".to_string(), s("x")), ("b".to_string(), s("2"))].into()
            )
        );
        let o2 = obj(&[
            ("a", s("x")),
            ("b", Value::tuple(vec![])),
            ("c", Value::int(1)),
        ]);
        assert_eq!(
            convert(&o2, &Type::map(Type::Dynamic)).unwrap_err().message,
            "all map elements must have the same type"
        );
        let tt = convert(
            &Value::list(Type::Number, vec![Value::int(1)]),
            &Type::Tuple(vec![Type::String].into()),
        )
        .unwrap();
        assert_eq!(tt, Value::tuple(vec![s("1")]));
        assert_eq!(
            convert(&Value::tuple(vec![]), &Type::list(Type::Dynamic)).unwrap(),
            Value::list(Type::Dynamic, vec![])
        );
    }

    #[test]
    fn dynamic_elements_and_nested_optional() {
        let t = Value::tuple(vec![
            s("a"),
            Value::null(Type::Dynamic),
            Value::dynamic_unknown(),
        ]);
        let c = convert(&t, &Type::list(Type::Dynamic)).unwrap();
        assert_eq!(
            c,
            Value::list(
                Type::String,
                vec![
                    s("a"),
                    Value::null(Type::String),
                    Value::unknown(Type::String)
                ]
            )
        );
        let mut ot = ObjectType::new(
            [
                ("a".to_string(), Type::String),
                ("b".to_string(), Type::Number),
            ]
            .into(),
        );
        ot.optional.insert("b".into());
        let want = Type::list(Type::from_object(ot));
        let v = Value::tuple(vec![
            obj(&[("a", s("x"))]),
            obj(&[("a", s("y")), ("b", s("2"))]),
        ]);
        let c = convert(&v, &want).unwrap();
        let plain = oty(&[("a", Type::String), ("b", Type::Number)]);
        assert_eq!(
            c,
            Value::list(
                plain,
                vec![
                    obj(&[("a", s("x")), ("b", Value::null(Type::Number))]),
                    obj(&[("a", s("y")), ("b", Value::int(2))])
                ]
            )
        );
        let dyn_attr = oty(&[("a", Type::Dynamic)]);
        let v = Value::tuple(vec![obj(&[("a", s("x"))]), obj(&[("a", Value::int(1))])]);
        let c = convert(&v, &Type::list(dyn_attr)).unwrap();
        assert_eq!(c.ty(), Type::list(oty(&[("a", Type::String)])));
        assert_eq!(c.as_elements().unwrap()[1], obj(&[("a", s("1"))]));
    }

    #[test]
    fn objects() {
        let want = oty(&[("name", Type::String), ("port", Type::Number)]);
        let v = obj(&[
            ("name", s("x")),
            ("port", s("80")),
            ("extra", Value::bool(true)),
        ]);
        let c = convert(&v, &want).unwrap();
        assert_eq!(c, obj(&[("name", s("x")), ("port", Value::int(80))]));
        let missing = obj(&[("port", Value::int(1))]);
        let e = convert(&missing, &want).unwrap_err();
        assert_eq!(e.message, "attribute \"name\" is required");
        let none = Value::empty_object();
        assert_eq!(
            convert(&none, &want).unwrap_err().message,
            "attributes \"name\" and \"port\" are required"
        );
        let badattr = obj(&[("name", Value::empty_object()), ("port", Value::int(1))]);
        assert_eq!(
            convert(&badattr, &want).unwrap_err().message,
            "attribute \"name\": string required"
        );
        let badval = obj(&[("name", s("n")), ("port", s("eighty"))]);
        let e = convert(&badval, &want).unwrap_err();
        assert_eq!(e.path, vec![PathStep::Attr("port".into())]);
        assert_eq!(e.message, "a number is required");
        assert_eq!(e.to_string(), ".port: a number is required");

        let mut ot = ObjectType::new(
            [
                ("a".to_string(), Type::String),
                ("b".to_string(), Type::Number),
            ]
            .into(),
        );
        ot.optional.insert("b".into());
        let opt = Type::from_object(ot);
        let c = convert(&obj(&[("a", s("x"))]), &opt).unwrap();
        assert_eq!(c, obj(&[("a", s("x")), ("b", Value::null(Type::Number))]));
        assert_eq!(c.ty(), oty(&[("a", Type::String), ("b", Type::Number)]));

        let m = Value::map(
            Type::String,
            [("a".to_string(), s("x")), ("z".to_string(), s("y"))].into(),
        );
        let c = convert(&m, &opt).unwrap();
        assert_eq!(c, obj(&[("a", s("x")), ("b", Value::null(Type::Number))]));
        let e = convert(&Value::map(Type::String, ValueMap::new()), &opt).unwrap_err();
        assert_eq!(e.message, "map has no element for required attribute \"a\"");

        let lo = Value::tuple(vec![
            obj(&[("name", s("a")), ("port", Value::int(1))]),
            obj(&[("port", Value::int(2))]),
        ]);
        let e = convert(&lo, &Type::list(want.clone())).unwrap_err();
        assert_eq!(e.message, "element 1: attribute \"name\" is required");
    }
}
