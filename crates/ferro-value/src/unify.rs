//! Type unification: the single type a set of values can all convert to (conditional branches,
//! list/set/map literals via `tolist` etc.).
//!
//! Follows cty/convert `Unify`: types of one structural kind are unified kind-wise (objects
//! with the same attribute names attribute-wise, other objects to a map; tuples of one length
//! element-wise; collections by element type); otherwise the first given type every other type
//! converts to safely wins (so number and string unify to string). Any `Dynamic` makes the
//! result `Dynamic`.

use crate::convert::{conversion_type, convert};
use crate::{ObjectType, TupleTypes, Type, Value};
use std::collections::BTreeMap;

/// The most specific type all of `types` can safely convert to, or None.
pub fn unify(types: &[Type]) -> Option<Type> {
    unify_types(types, false)
}

/// Like [`unify`] but also allowing lenient conversions (string to number or bool).
pub fn unify_lenient(types: &[Type]) -> Option<Type> {
    unify_types(types, true)
}

/// Unify the values' types and convert every value to that type.
pub fn unify_values(values: &[Value]) -> Option<(Type, Vec<Value>)> {
    let types: Vec<Type> = values.iter().map(Value::ty).collect();
    let t = unify(&types)?;
    let converted = values
        .iter()
        .map(|v| convert(v, &t).ok())
        .collect::<Option<Vec<_>>>()?;
    Some((t, converted))
}

pub(crate) fn unify_types(types: &[Type], lenient: bool) -> Option<Type> {
    let first = types.first()?;
    if types.iter().all(|t| t == first) {
        return Some(first.clone());
    }
    let count = |f: fn(&Type) -> bool| types.iter().filter(|t| f(t)).count();
    let dynamic = count(|t| *t == Type::Dynamic);
    let n = types.len();
    // Structural kinds mixed with `Dynamic`: the result is only known at run time.
    if dynamic > 0 && count(|t| !t.is_primitive() && *t != Type::Dynamic) > 0 {
        return Some(Type::Dynamic);
    }
    let maps = count(|t| matches!(t, Type::Map(_)));
    let lists = count(|t| matches!(t, Type::List(_)));
    let sets = count(|t| matches!(t, Type::Set(_)));
    let objects = count(|t| matches!(t, Type::Object(_)));
    let tuples = count(|t| matches!(t, Type::Tuple(_)));
    if maps == n {
        return unify_elements(types, lenient).map(Type::map);
    }
    if maps > 0 && maps + objects == n {
        if let Some(t) = unify_as_map(types, lenient) {
            return Some(t);
        }
    }
    if lists == n {
        return unify_elements(types, lenient).map(Type::list);
    }
    // Lists and tuples together: each tuple taken as the list of its unified element types
    // (`true ? tolist([1]) : ["a"]` is a list of strings), as cty unifies them.
    if lists > 0 && tuples > 0 && lists + tuples + dynamic == n {
        let mut as_lists = Vec::with_capacity(n);
        for t in types {
            match t {
                Type::Tuple(es) if es.is_empty() => {}
                Type::Tuple(es) => as_lists.push(Type::list(unify_types(es, lenient)?)),
                Type::Dynamic => {}
                other => as_lists.push(other.clone()),
            }
        }
        return unify_elements(&as_lists, lenient).map(Type::list);
    }
    if sets == n {
        return unify_elements(types, lenient).map(Type::set);
    }
    if objects == n {
        return unify_objects(types, lenient);
    }
    if tuples == n {
        return unify_tuples(types, lenient);
    }
    if objects > 0 && tuples > 0 {
        return None;
    }
    // General case: the first candidate everything converts to.
    for want in preference_order(types) {
        if types.iter().all(|t| {
            t == want || *t == Type::Dynamic || conversion_type(t, want, lenient).is_some()
        }) {
            return Some(want.clone());
        }
    }
    None
}

/// Candidates in preference order, as cty sorts them: strings first (every primitive converts
/// to them), then the other primitives, then collections (lists before sets before maps), then
/// structural types; each kind in the given order, and a value of unknown type (which converts
/// to anything) last.
fn preference_order(types: &[Type]) -> Vec<&Type> {
    let rank = |t: &Type| match t {
        Type::String => 0,
        Type::Number | Type::Bool => 1,
        Type::List(_) => 2,
        Type::Set(_) => 3,
        Type::Map(_) => 4,
        Type::Tuple(_) => 5,
        Type::Object(_) => 6,
        Type::Dynamic => 7,
    };
    let mut out: Vec<&Type> = Vec::with_capacity(types.len());
    for t in types {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out.sort_by_key(|t| rank(t));
    out
}

fn unify_elements(types: &[Type], lenient: bool) -> Option<Type> {
    let elems: Vec<Type> = types
        .iter()
        .filter_map(|t| t.element_type().cloned())
        .collect();
    unify_types(&elems, lenient)
}

fn unify_as_map(types: &[Type], lenient: bool) -> Option<Type> {
    let mut elems = Vec::new();
    for t in types {
        match t {
            Type::Map(e) => elems.push((**e).clone()),
            Type::Object(o) => elems.extend(o.attrs.values().cloned()),
            _ => return None,
        }
    }
    if elems.is_empty() {
        return Some(Type::map(Type::Dynamic));
    }
    unify_types(&elems, lenient).map(Type::map)
}

fn unify_objects(types: &[Type], lenient: bool) -> Option<Type> {
    let objs: Vec<&ObjectType> = types
        .iter()
        .filter_map(|t| match t {
            Type::Object(o) => Some(&**o),
            _ => None,
        })
        .collect();
    let same_names = objs.iter().all(|o| o.attrs.keys().eq(objs[0].attrs.keys()));
    if !same_names {
        return unify_as_map(types, lenient);
    }
    let mut attrs = BTreeMap::new();
    for name in objs[0].attrs.keys() {
        let ts: Vec<Type> = objs.iter().map(|o| o.attrs[name].clone()).collect();
        attrs.insert(name.clone(), unify_types(&ts, lenient)?);
    }
    Some(Type::from_object(ObjectType::new(attrs)))
}

fn unify_tuples(types: &[Type], lenient: bool) -> Option<Type> {
    let tuples: Vec<&TupleTypes> = types
        .iter()
        .filter_map(|t| match t {
            Type::Tuple(ts) => Some(ts),
            _ => None,
        })
        .collect();
    let len = tuples[0].len();
    if tuples.iter().any(|t| t.len() != len) {
        // Tuples of different lengths unify to a list of their unified element types.
        let elems: Vec<Type> = tuples.iter().flat_map(|t| t.iter().cloned()).collect();
        if elems.is_empty() {
            return Some(Type::list(Type::Dynamic));
        }
        return unify_types(&elems, lenient).map(Type::list);
    }
    let mut out = Vec::with_capacity(len);
    for i in 0..len {
        let ts: Vec<Type> = tuples.iter().map(|t| t[i].clone()).collect();
        out.push(unify_types(&ts, lenient)?);
    }
    Some(Type::Tuple(out.into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oty(pairs: &[(&str, Type)]) -> Type {
        Type::object(pairs.iter().map(|(k, t)| (k.to_string(), t.clone())))
    }

    #[test]
    fn primitives() {
        assert_eq!(unify(&[Type::String, Type::String]), Some(Type::String));
        assert_eq!(unify(&[Type::Number, Type::String]), Some(Type::String));
        assert_eq!(unify(&[Type::Bool, Type::String]), Some(Type::String));
        assert_eq!(unify(&[Type::Number, Type::Bool]), None);
        assert_eq!(unify(&[Type::Number, Type::Dynamic]), Some(Type::Number));
        assert_eq!(unify(&[Type::Dynamic, Type::Dynamic]), Some(Type::Dynamic));
        assert_eq!(unify(&[]), None);
    }

    #[test]
    fn structural() {
        let a = oty(&[("x", Type::Number)]);
        let b = oty(&[("x", Type::String)]);
        assert_eq!(unify(&[a.clone(), b]), Some(oty(&[("x", Type::String)])));
        let c = oty(&[("y", Type::String)]);
        assert_eq!(unify(&[a.clone(), c]), Some(Type::map(Type::String)));
        let d = oty(&[("y", Type::Bool)]);
        assert_eq!(unify(&[a, d]), None);
        let t1 = Type::Tuple(vec![Type::Number, Type::String].into());
        let t2 = Type::Tuple(vec![Type::String, Type::String].into());
        assert_eq!(
            unify(&[t1.clone(), t2]),
            Some(Type::Tuple(vec![Type::String, Type::String].into()))
        );
        assert_eq!(
            unify(&[t1, Type::Tuple(vec![Type::Number].into())]),
            Some(Type::list(Type::String))
        );
        assert_eq!(
            unify(&[Type::list(Type::Number), Type::list(Type::String)]),
            Some(Type::list(Type::String))
        );
        assert_eq!(
            unify(&[
                Type::list(Type::String),
                Type::Tuple(vec![Type::String].into())
            ]),
            Some(Type::list(Type::String))
        );
        assert_eq!(
            unify(&[Type::map(Type::String), oty(&[("a", Type::Number)])]),
            Some(Type::map(Type::String))
        );
    }

    #[test]
    fn values() {
        let (t, vs) = unify_values(&[Value::int(1), Value::string("a")]).unwrap();
        assert_eq!(t, Type::String);
        assert_eq!(vs, vec![Value::string("1"), Value::string("a")]);
        assert!(unify_values(&[Value::int(1), Value::bool(true)]).is_none());
        let (t, vs) = unify_values(&[Value::null(Type::Dynamic), Value::int(1)]).unwrap();
        assert_eq!(t, Type::Number);
        assert_eq!(vs[0], Value::null(Type::Number));
        assert_eq!(vs[1], Value::int(1));
    }
}
