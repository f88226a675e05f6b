//! Sequence and mapping functions of the collection library: range, reverse, slice, sum,
//! transpose, zipmap (registered by `collection.rs`).

use super::*;
use ferro_value::ValueMap;

pub(super) fn range(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let zero = Number::zero();
    let one = Number::from_i64(1);
    let (start, end, step) = match a.len() {
        // One negative argument counts down from zero, as cty's range does.
        1 if n(&a[0]) < zero => (zero.clone(), n(&a[0]), one.neg()),
        1 => (zero.clone(), n(&a[0]), one),
        2 => {
            let (st, en) = (n(&a[0]), n(&a[1]));
            let step = if en < st { one.neg() } else { one };
            (st, en, step)
        }
        3 => (n(&a[0]), n(&a[1]), n(&a[2])),
        _ => return Err(fail("must have one, two, or three arguments")),
    };
    if a.len() == 3 {
        if step > zero && end < start {
            return Err(arg_err(
                0,
                "end must be greater than start when step is positive",
            ));
        }
        if step < zero && end > start {
            return Err(arg_err(
                0,
                "end must be less than start when step is negative",
            ));
        }
    }
    let mut out = Vec::new();
    let mut cur = start;
    let ascending = step >= zero;
    while (ascending && cur < end) || (!ascending && cur > end) {
        if out.len() >= 1024 {
            return Err(fail("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step"));
        }
        out.push(Value::number(cur.clone()));
        // cty's sum, rounded as the `+` operator rounds (0.3 three times is not 0.9).
        cur = cur.checked_add(&step).map_err(fail)?;
    }
    Ok(Value::list(Type::Number, out))
}

pub(super) fn reverse_type(a: &[Value]) -> R<Type> {
    match a[0].ty() {
        Type::List(e) | Type::Set(e) => Ok(Type::List(e)),
        Type::Tuple(mut ts) => {
            ts.reverse();
            Ok(Type::Tuple(ts))
        }
        Type::Dynamic => Ok(Type::Dynamic),
        _ => Err(arg_err(
            0,
            "can only reverse list or tuple values, not ".to_string() + &a[0].ty().friendly_name(),
        )),
    }
}

pub(super) fn slice_bounds(a: &[Value]) -> R<(usize, usize)> {
    let len = elems(&a[0]).len() as i64;
    let st = whole(&a[1]).map_err(|_| arg_err(1, format!("invalid start index: {WHOLE}")))?;
    let en = whole(&a[2]).map_err(|_| arg_err(2, format!("invalid end index: {WHOLE}")))?;
    if st < 0 {
        return Err(arg_err(1, "start index must not be less than zero"));
    }
    if en < 0 {
        return Err(arg_err(2, "end index must not be less than zero"));
    }
    if st > len {
        return Err(arg_err(
            1,
            "start index must not be greater than the length of the list",
        ));
    }
    if en > len {
        return Err(arg_err(
            2,
            "end index must not be greater than the length of the list",
        ));
    }
    if st > en {
        return Err(arg_err(1, "start index must not be greater than end index"));
    }
    Ok((st as usize, en as usize))
}

pub(super) fn slice_type(a: &[Value]) -> R<Type> {
    match a[0].ty() {
        Type::List(e) => Ok(Type::List(e)),
        Type::Tuple(ts) => {
            if a[1].is_unknown() || a[2].is_unknown() {
                return Ok(Type::Dynamic);
            }
            let (st, en) = slice_bounds(a)?;
            Ok(Type::Tuple(ts[st..en].to_vec().into()))
        }
        Type::Dynamic => Ok(Type::Dynamic),
        _ => Err(arg_err(0, "must be a list or tuple value")),
    }
}

pub(super) fn slice(_: &FnContext<'_>, a: &[Value], rt: &Type) -> R<Value> {
    let (st, en) = slice_bounds(a)?;
    let part = elems(&a[0])[st..en].to_vec();
    match rt {
        Type::List(e) => Ok(Value::list((**e).clone(), part)),
        _ => Ok(Value::tuple(part)),
    }
}

pub(super) fn sum(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let v = &a[0];
    // An object or map is iterable to cty: "empty" when it is, else not a sequence.
    let entries = match &v.kind {
        ValueKind::Object(m) => Some(m.len()),
        ValueKind::Map(_, m) => Some(m.len()),
        _ => None,
    };
    match entries {
        Some(0) => return Err(arg_err(0, "cannot sum an empty list")),
        Some(_) => {
            return Err(arg_err(
                0,
                format!(
                    "argument must be list, set, or tuple. Received {}",
                    v.ty().friendly_name()
                ),
            ))
        }
        None => {}
    }
    if !matches!(
        v.kind,
        ValueKind::List(..) | ValueKind::Tuple(_) | ValueKind::Set(..)
    ) {
        return Err(arg_err(0, "cannot sum noniterable"));
    }
    let es = elems(v);
    if es.is_empty() {
        return Err(arg_err(0, "cannot sum an empty list"));
    }
    // cty starts from the first element and adds the others to it.
    let mut acc: Option<Number> = None;
    for e in es {
        if e.is_unknown() {
            return Ok(Value::unknown(Type::Number));
        }
        if e.is_null() {
            return Err(arg_err(
                0,
                "argument must be list, set, or tuple of number values",
            ));
        }
        // Terraform converts all elements but the first, and panics when the first is not a
        // number; ferro refuses it.
        if acc.is_none() && e.ty() != Type::Number {
            return Err(arg_err(
                0,
                "argument must be list, set, or tuple of number values",
            ));
        }
        let x = convert(e, &Type::Number)
            .map_err(|_| arg_err(0, "argument must be list, set, or tuple of number values"))?;
        let x = n(&x);
        acc = Some(match acc {
            None => x,
            Some(a) => a.checked_add(&x).map_err(|e| arg_err(0, e))?,
        });
    }
    Ok(Value::number(acc.unwrap_or_default()))
}

pub(super) fn transpose(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let Some(m) = a[0].as_entries() else {
        return Ok(Value::map(Type::list(Type::String), ValueMap::new()));
    };
    for (k, list) in m.iter() {
        if !list.is_wholly_known() {
            return Ok(Value::unknown(Type::map(Type::list(Type::String))));
        }
        for v in elems(list) {
            if v.is_null() {
                return Err(fail("input must not contain null list elements"));
            }
            out.entry(s(v).to_string())
                .or_default()
                .push(Value::string(k.as_str()));
        }
    }
    let res = out
        .into_iter()
        .map(|(k, vs)| (k, Value::list(Type::String, vs)))
        .collect();
    Ok(Value::map(Type::list(Type::String), res))
}

pub(super) fn zipmap_type(a: &[Value]) -> R<Type> {
    match a[1].ty() {
        Type::List(e) => Ok(Type::Map(e)),
        Type::Tuple(ts) => {
            if !a[0].is_wholly_known() {
                return Ok(Type::Dynamic);
            }
            let ks = elems(&a[0]);
            if ks.len() != ts.len() {
                return Err(fail(format!(
                    "number of keys ({}) does not match number of values ({})",
                    ks.len(),
                    ts.len()
                )));
            }
            let mut attrs = BTreeMap::new();
            for (k, t) in ks.iter().zip(ts) {
                if k.is_null() {
                    return Err(arg_err(0, "keys list has null value"));
                }
                attrs.insert(s(k).to_string(), t);
            }
            Ok(Type::from_object(ObjectType::new(attrs)))
        }
        Type::Dynamic => Ok(Type::Dynamic),
        _ => Err(fail("values argument must be a list or tuple value")),
    }
}

pub(super) fn zipmap(_: &FnContext<'_>, a: &[Value], rt: &Type) -> R<Value> {
    let (ks, vs) = (elems(&a[0]), elems(&a[1]));
    if ks.len() != vs.len() {
        return Err(fail(format!(
            "number of keys ({}) does not match number of values ({})",
            ks.len(),
            vs.len()
        )));
    }
    if !a[0].is_wholly_known() {
        return Ok(Value::unknown(rt.clone()));
    }
    let mut out = BTreeMap::new();
    for (k, v) in ks.iter().zip(vs) {
        if k.is_null() {
            return Err(arg_err(0, "keys list has null value"));
        }
        out.insert(s(k).to_string(), v.clone());
    }
    match rt {
        Type::Map(e) => Ok(Value::map((**e).clone(), out.into())),
        _ => Ok(Value::object(out.into())),
    }
}
