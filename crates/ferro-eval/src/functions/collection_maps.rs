//! Map and object functions of the collection library: keys, values, lookup, matchkeys,
//! merge (registered by `collection.rs`).

use super::*;

pub(super) fn keys_type(a: &[Value]) -> R<Type> {
    match a[0].ty() {
        Type::Map(_) => Ok(Type::list(Type::String)),
        Type::Object(o) => Ok(Type::Tuple(o.attrs.keys().map(|_| Type::String).collect())),
        Type::Dynamic => Ok(Type::Dynamic),
        _ => Err(arg_err(0, "must have map or object type")),
    }
}

pub(super) fn values_type(a: &[Value]) -> R<Type> {
    match a[0].ty() {
        Type::Map(e) => Ok(Type::List(e)),
        Type::Object(o) => Ok(Type::Tuple(o.attrs.values().cloned().collect())),
        Type::Dynamic => Ok(Type::Dynamic),
        _ => Err(fail("values() requires a map as the first argument")),
    }
}

pub(super) fn lookup_type(a: &[Value]) -> R<Type> {
    if a.len() < 2 || a.len() > 3 {
        return Err(fail(format!(
            "lookup() takes two or three arguments, got {}",
            a.len()
        )));
    }
    let (m, _) = a[0].deep_unmark();
    match m.ty() {
        // A map's elements decide the result type; the default must convert to it.
        Type::Map(e) => {
            if a.len() == 3 && convert(&a[2].deep_unmark().0, &e).is_err() {
                return Err(arg_err(
                    2,
                    "the default value must have the same type as the map elements",
                ));
            }
            Ok(*e)
        }
        Type::Object(o) => {
            let (k, _) = a[1].deep_unmark();
            if k.is_unknown() {
                return Ok(Type::Dynamic);
            }
            match o.attrs.get(s(&k)) {
                Some(t) => Ok(t.clone()),
                None if a.len() == 3 => Ok(a[2].deep_unmark().0.ty()),
                None => Err(arg_err(
                    0,
                    format!("the given object has no attribute {:?}", s(&k)),
                )),
            }
        }
        Type::Dynamic => Ok(Type::Dynamic),
        _ => Err(arg_err(0, "lookup() requires a map as the first argument")),
    }
}

pub(super) fn lookup(_: &FnContext<'_>, a: &[Value], rt: &Type) -> R<Value> {
    let marks = a[0].marks.union(a[1].marks);
    let (key, _) = a[1].deep_unmark();
    let m = &a[0];
    if m.is_unknown() || key.is_unknown() {
        return Ok(Value::unknown(rt.clone()).with_marks(marks));
    }
    let entries = m.as_entries().cloned().unwrap_or_default();
    let k = s(&key);
    let found = match entries.get(k) {
        Some(v) => v.clone(),
        None if a.len() == 3 && a[2].is_unknown() => {
            return Ok(Value::unknown(rt.clone()).with_marks(marks))
        }
        None if a.len() == 3 => a[2].clone(),
        None if matches!(m.kind, ValueKind::Object(_)) => {
            return Err(arg_err(
                0,
                format!("the given object has no attribute {k:?}"),
            ))
        }
        None => return Err(fail(format!("lookup failed to find '{k}'"))),
    };
    let found = convert(&found, rt).unwrap_or(found);
    Ok(found.with_marks(marks))
}

pub(super) fn matchkeys(_: &FnContext<'_>, a: &[Value], rt: &Type) -> R<Value> {
    let (vals, keys, search) = (elems(&a[0]), elems(&a[1]), elems(&a[2]));
    if vals.len() != keys.len() {
        return Err(fail("length of keys and values should be equal"));
    }
    if !a[1].is_wholly_known() || !a[2].is_wholly_known() {
        return Ok(Value::unknown(rt.clone()));
    }
    // Keys and search set are compared after unifying their types.
    let kt = unify::unify(&[a[1].ty(), a[2].ty()])
        .ok_or_else(|| arg_err(1, "keys and searchset must be of the same type"))?;
    let keys_c = convert(&a[1], &kt).map_err(|e| arg_err(1, e.message))?;
    let search_c = convert(&a[2], &kt).map_err(|e| arg_err(2, e.message))?;
    let _ = (keys, search);
    let mut out = Vec::new();
    for (i, k) in elems(&keys_c).iter().enumerate() {
        if elems(&search_c)
            .iter()
            .any(|x| equals(x, k).as_bool() == Some(true))
        {
            out.push(vals[i].clone());
        }
    }
    Ok(Value::list(elem_type(rt), out))
}

pub(super) fn merge_type(a: &[Value]) -> R<Type> {
    let mut all_maps = true;
    let mut map_elem: Option<Type> = None;
    let mut attrs: BTreeMap<String, Type> = BTreeMap::new();
    for v in a {
        match v.ty() {
            Type::Dynamic => return Ok(Type::Dynamic),
            Type::Map(e) => {
                if v.is_null() {
                    continue;
                }
                match &map_elem {
                    None => map_elem = Some((*e).clone()),
                    Some(t) if *t == *e => {}
                    _ => all_maps = false,
                }
                if let Some(m) = v.as_entries() {
                    for k in m.keys() {
                        attrs.insert(k.to_string(), (*e).clone());
                    }
                } else {
                    return Ok(Type::Dynamic);
                }
            }
            Type::Object(o) => {
                all_maps = false;
                for (k, t) in std::sync::Arc::unwrap_or_clone(o).attrs {
                    attrs.insert(k, t);
                }
            }
            other => {
                return Err(fail(format!(
                    "arguments must be maps or objects, got {:?}",
                    other.friendly_name()
                )))
            }
        }
    }
    if all_maps {
        return Ok(map_elem.map(Type::map).unwrap_or_else(Type::empty_object));
    }
    Ok(Type::from_object(ObjectType::new(attrs)))
}

pub(super) fn merge(_: &FnContext<'_>, a: &[Value], rt: &Type) -> R<Value> {
    let mut out = BTreeMap::new();
    for v in a {
        if v.is_null() {
            continue;
        }
        if v.is_unknown() {
            return Ok(Value::unknown(rt.clone()));
        }
        if let Some(m) = v.as_entries() {
            out.extend(m.iter().map(|(k, x)| (k.clone(), x.clone())));
        }
    }
    match rt {
        Type::Map(e) => Ok(Value::map((**e).clone(), out.into())),
        _ => Ok(Value::object(out.into())),
    }
}
