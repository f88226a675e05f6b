//! Collection functions: alltrue, anytrue, chunklist, coalesce, coalescelist, compact, concat,
//! contains, distinct, element, flatten, index, keys, length, lookup, matchkeys, merge, one,
//! range, reverse, slice, sort, sum, transpose, values, zipmap.

use super::{arg_err, elems, fail, func, n, p, s, FnContext, Registry, Ret, R};
use ferro_value::convert::convert;
use ferro_value::ops::equals;
use ferro_value::{unify, Marks, Number, ObjectType, Type, Value, ValueKind};
use std::collections::BTreeMap;

#[path = "collection_seq.rs"]
mod seq;
use seq::*;
#[path = "collection_maps.rs"]
mod maps;
use maps::*;

const WHOLE: &str =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/// A whole number as i64, or cty's gocty conversion failure.
pub(crate) fn whole(v: &Value) -> R<i64> {
    let x = n(v);
    if !x.is_integer() {
        return Err(fail(WHOLE));
    }
    x.to_i64().ok_or_else(|| fail(WHOLE))
}

fn dynp(name: &'static str) -> super::Param {
    p(name, Type::Dynamic)
}

fn elem_type(t: &Type) -> Type {
    t.element_type().cloned().unwrap_or(Type::Dynamic)
}

pub(super) fn register(r: &mut Registry) {
    let lb = || p("list", Type::list(Type::Bool));
    r.insert(
        "alltrue",
        func(vec![lb()], None, Ret::Fixed(Type::Bool), |_, a, _| {
            for v in elems(&a[0]) {
                if v.is_unknown() {
                    return Ok(Value::unknown(Type::Bool));
                }
                if v.is_null() || v.as_bool() == Some(false) {
                    return Ok(Value::bool(false));
                }
            }
            Ok(Value::bool(true))
        }),
    );
    r.insert(
        "anytrue",
        func(vec![lb()], None, Ret::Fixed(Type::Bool), |_, a, _| {
            let mut unknown = false;
            for v in elems(&a[0]) {
                if v.is_unknown() {
                    unknown = true;
                } else if v.as_bool() == Some(true) {
                    return Ok(Value::bool(true));
                }
            }
            Ok(if unknown {
                Value::unknown(Type::Bool)
            } else {
                Value::bool(false)
            })
        }),
    );
    r.insert(
        "chunklist",
        func(
            vec![
                p("list", Type::list(Type::Dynamic)).inner_marks(),
                p("size", Type::Number),
            ],
            None,
            Ret::Computed(|a| Ok(Type::list(a[0].ty()))),
            chunklist,
        ),
    );
    r.insert(
        "coalesce",
        func(
            vec![],
            Some(dynp("vals").null().unknown().dynamic()),
            Ret::Computed(coalesce_type),
            coalesce,
        ),
    );
    r.insert(
        "coalescelist",
        func(
            vec![],
            Some(dynp("vals").null().unknown().dynamic()),
            Ret::Computed(coalescelist_type),
            coalescelist,
        ),
    );
    r.insert(
        "compact",
        func(
            vec![p("list", Type::list(Type::String))],
            None,
            Ret::Fixed(Type::list(Type::String)),
            |_, a, _| {
                let mut out = Vec::new();
                for v in elems(&a[0]) {
                    if v.is_unknown() {
                        return Ok(Value::unknown(Type::list(Type::String)));
                    }
                    if v.is_null() || s(v).is_empty() {
                        continue;
                    }
                    out.push(v.clone());
                }
                Ok(Value::list(Type::String, out))
            },
        ),
    );
    r.insert(
        "concat",
        func(
            vec![],
            Some(dynp("seqs").inner_marks()),
            Ret::Computed(concat_type),
            concat,
        ),
    );
    r.insert(
        "contains",
        func(
            vec![dynp("list"), dynp("value")],
            None,
            Ret::Fixed(Type::Bool),
            contains,
        ),
    );
    r.insert(
        "distinct",
        func(
            vec![p("list", Type::list(Type::Dynamic))],
            None,
            Ret::Computed(|a| Ok(a[0].ty())),
            |_, a, rt| {
                if !a[0].is_wholly_known() {
                    return Ok(Value::unknown(rt.clone()));
                }
                let mut out: Vec<Value> = Vec::new();
                for v in elems(&a[0]) {
                    if !out.contains(v) {
                        out.push(v.clone());
                    }
                }
                Ok(Value::list(elem_type(rt), out))
            },
        ),
    );
    r.insert(
        "element",
        func(
            vec![dynp("list").inner_marks(), p("index", Type::Number)],
            None,
            Ret::Computed(element_type),
            element,
        ),
    );
    r.insert(
        "flatten",
        func(
            vec![dynp("list").inner_marks()],
            None,
            Ret::Computed(flatten_type),
            |_, a, rt| {
                let mut marks = Marks::NONE;
                let Some(len) = flatten_len(&a[0], &mut marks) else {
                    return Ok(Value::unknown(rt.clone()).with_marks(marks));
                };
                // Sized first: a flattened list can be every instance of a resource, and a
                // vector grown by doubling holds up to twice that until it is shrunk.
                let mut out = Vec::with_capacity(len);
                flatten_visit(&a[0], &mut Marks::default(), &mut |e| out.push(e.clone()));
                Ok(Value::tuple(out).with_marks(marks))
            },
        ),
    );
    r.insert(
        "index",
        func(
            vec![dynp("list"), dynp("value")],
            None,
            Ret::Fixed(Type::Number),
            index,
        ),
    );
    // Keys are not secret when only values are: only the collection's own marks carry over
    // (cty's keys parameter allows marked values).
    r.insert(
        "keys",
        func(
            vec![dynp("inputMap").unknown().marked()],
            None,
            Ret::Computed(keys_type),
            |_, a, rt| {
                let marks = a[0].marks;
                let out = match (&a[0].kind, rt) {
                    (ValueKind::Unknown(_), _) => Ok(Value::unknown(rt.clone())),
                    (ValueKind::Map(_, m), _) => Ok(Value::list(
                        Type::String,
                        m.keys().map(|k| Value::string(k.as_str())).collect(),
                    )),
                    (ValueKind::Object(m), _) => Ok(Value::tuple(
                        m.keys().map(|k| Value::string(k.as_str())).collect(),
                    )),
                    _ => Err(arg_err(0, "must have map or object type")),
                };
                out.map(|v| v.with_marks(marks))
            },
        ),
    );
    r.insert(
        "values",
        func(
            vec![dynp("values").inner_marks()],
            None,
            Ret::Computed(values_type),
            |_, a, _| match &a[0].kind {
                ValueKind::Map(t, m) => Ok(Value::list(t.clone(), m.values().cloned().collect())),
                ValueKind::Object(m) => Ok(Value::tuple(m.values().cloned().collect())),
                _ => Err(fail("values() requires a map as the first argument")),
            },
        ),
    );
    r.insert(
        "length",
        func(
            vec![dynp("value").unknown().dynamic().marked()],
            None,
            Ret::Fixed(Type::Number),
            length,
        ),
    );
    r.insert(
        "lookup",
        func(
            vec![dynp("inputMap").marked(), p("key", Type::String).marked()],
            Some(dynp("default").marked().null().unknown()),
            Ret::Computed(lookup_type),
            lookup,
        ),
    );
    r.insert(
        "matchkeys",
        func(
            vec![
                p("values", Type::list(Type::Dynamic)),
                p("keys", Type::list(Type::Dynamic)),
                p("searchset", Type::list(Type::Dynamic)),
            ],
            None,
            Ret::Computed(|a| Ok(a[0].ty())),
            matchkeys,
        ),
    );
    r.insert(
        "merge",
        func(
            vec![],
            Some(dynp("maps").null().dynamic().inner_marks()),
            Ret::Computed(merge_type),
            merge,
        ),
    );
    r.insert(
        "one",
        func(vec![dynp("list")], None, Ret::Computed(one_type), one),
    );
    r.insert(
        "range",
        func(
            vec![],
            Some(p("params", Type::Number)),
            Ret::Fixed(Type::list(Type::Number)),
            range,
        ),
    );
    r.insert(
        "reverse",
        func(
            vec![dynp("list").inner_marks()],
            None,
            Ret::Computed(reverse_type),
            |_, a, rt| {
                let mut es: Vec<Value> = elems(&a[0]).to_vec();
                es.reverse();
                match rt {
                    Type::Tuple(_) => Ok(Value::tuple(es)),
                    t => Ok(Value::list(elem_type(t), es)),
                }
            },
        ),
    );
    r.insert(
        "slice",
        func(
            vec![
                dynp("list").inner_marks(),
                p("start_index", Type::Number),
                p("end_index", Type::Number),
            ],
            None,
            Ret::Computed(slice_type),
            slice,
        ),
    );
    r.insert(
        "sort",
        func(
            vec![p("list", Type::list(Type::String))],
            None,
            Ret::Fixed(Type::list(Type::String)),
            |_, a, _| {
                let mut out: Vec<Value> = Vec::new();
                for (i, v) in elems(&a[0]).iter().enumerate() {
                    if v.is_unknown() {
                        return Ok(Value::unknown(Type::list(Type::String)));
                    }
                    if v.is_null() {
                        return Err(fail(format!(
                            "given list element {i} is null; a null string cannot be sorted"
                        )));
                    }
                    out.push(v.clone());
                }
                out.sort_by(|x, y| s(x).cmp(s(y)));
                Ok(Value::list(Type::String, out))
            },
        ),
    );
    r.insert(
        "sum",
        func(vec![dynp("list")], None, Ret::Fixed(Type::Number), sum),
    );
    r.insert(
        "transpose",
        func(
            vec![p("values", Type::map(Type::list(Type::String)))],
            None,
            Ret::Fixed(Type::map(Type::list(Type::String))),
            transpose,
        ),
    );
    r.insert(
        "zipmap",
        func(
            vec![
                p("keys", Type::list(Type::String)),
                dynp("values").inner_marks(),
            ],
            None,
            Ret::Computed(zipmap_type),
            zipmap,
        ),
    );
}

fn chunklist(_: &FnContext<'_>, a: &[Value], rt: &Type) -> R<Value> {
    let size = whole(&a[1]).map_err(|_| fail(format!("invalid size: {WHOLE}")))?;
    if size < 0 {
        return Err(fail("the size argument must be positive"));
    }
    let list_ty = elem_type(rt);
    let et = elem_type(&list_ty);
    let es = elems(&a[0]);
    // Unknown elements are chunked where they are (cty needs only the list itself known).
    if !a[0].is_known() {
        return Ok(Value::unknown(rt.clone()));
    }
    if es.is_empty() {
        return Ok(Value::list(list_ty, vec![]));
    }
    let size = if size == 0 { es.len() } else { size as usize };
    let chunks = es
        .chunks(size)
        .map(|c| Value::list(et.clone(), c.to_vec()))
        .collect();
    Ok(Value::list(list_ty, chunks))
}

fn coalesce_type(a: &[Value]) -> R<Type> {
    let tys: Vec<Type> = a.iter().map(Value::ty).collect();
    if tys.is_empty() {
        return Err(fail("all arguments must have the same type"));
    }
    if let Some(t) = unify::unify(&tys) {
        return Ok(t);
    }
    // Sequences of different lengths unify as lists of their unified element types.
    let mut elem_tys = Vec::new();
    for t in &tys {
        match t {
            Type::Tuple(ts) => elem_tys.extend(ts.iter().cloned()),
            Type::List(e) => elem_tys.push((**e).clone()),
            _ => return Err(fail("all arguments must have the same type")),
        }
    }
    if elem_tys.is_empty() {
        return Ok(Type::list(Type::Dynamic));
    }
    unify::unify(&elem_tys)
        .map(Type::list)
        .ok_or_else(|| fail("all arguments must have the same type"))
}

fn coalesce(_: &FnContext<'_>, a: &[Value], rt: &Type) -> R<Value> {
    for v in a {
        let v = convert(v, rt).map_err(|e| fail(e.message))?;
        if v.is_unknown() {
            return Ok(Value::unknown(rt.clone()));
        }
        if v.is_null() || v.as_str() == Some("") {
            continue;
        }
        return Ok(v);
    }
    Err(fail("no non-null, non-empty-string arguments"))
}

fn coalescelist_type(a: &[Value]) -> R<Type> {
    let mut tys = Vec::new();
    for (i, v) in a.iter().enumerate() {
        let t = v.ty();
        match t {
            Type::List(_) | Type::Tuple(_) => tys.push(t),
            // An unknown argument makes the result unknown before its type is checked.
            _ if v.is_unknown() => {}
            // Terraform checks the argument types before anything else: a null (of no
            // particular type) is refused too.
            _ => {
                let _ = i;
                return Err(fail("coalescelist arguments must be lists or tuples"));
            }
        }
    }
    if tys.is_empty() {
        return Ok(Type::Dynamic);
    }
    Ok(unify::unify(&tys).unwrap_or(Type::Dynamic))
}

fn coalescelist(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    if a.is_empty() {
        return Err(fail("at least one argument is required"));
    }
    for v in a {
        if v.is_unknown() {
            return Ok(Value::dynamic_unknown());
        }
        if v.is_null() || elems(v).is_empty() {
            continue;
        }
        return Ok(v.clone());
    }
    Err(fail("no non-null arguments"))
}

fn concat_type(a: &[Value]) -> R<Type> {
    if a.is_empty() {
        return Err(fail("at least one argument is required"));
    }
    let mut elem_tys: Vec<Type> = Vec::new();
    let mut all_lists = true;
    for (i, v) in a.iter().enumerate() {
        match v.ty() {
            Type::List(e) => elem_tys.push(*e),
            Type::Tuple(_) => all_lists = false,
            Type::Dynamic => return Ok(Type::Dynamic),
            _ => {
                return Err(arg_err(
                    i,
                    "all arguments must be lists or tuples; got ".to_string()
                        + &v.ty().friendly_name(),
                ))
            }
        }
    }
    if all_lists {
        if let Some(t) = unify::unify(&elem_tys) {
            return Ok(Type::list(t));
        }
        return Err(fail("all arguments must have the same element type"));
    }
    let mut tys = Vec::new();
    for v in a {
        if v.is_unknown() {
            return Ok(Type::Dynamic);
        }
        tys.extend(elems(v).iter().map(Value::ty));
    }
    Ok(Type::Tuple(tys.into()))
}

fn concat(_: &FnContext<'_>, a: &[Value], rt: &Type) -> R<Value> {
    let mut out = Vec::new();
    for v in a {
        out.extend(elems(v).iter().cloned());
    }
    match rt {
        Type::List(e) => Ok(Value::list(
            (**e).clone(),
            out.iter()
                .map(|v| convert(v, e).unwrap_or_else(|_| v.clone()))
                .collect(),
        )),
        _ => Ok(Value::tuple(out)),
    }
}

fn contains(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    if !matches!(
        a[0].kind,
        ValueKind::List(..) | ValueKind::Tuple(_) | ValueKind::Set(..)
    ) {
        return Err(fail("argument must be list, tuple, or set"));
    }
    let mut unknown = false;
    for v in elems(&a[0]) {
        let eq = equals(v, &a[1]);
        if eq.is_unknown() {
            unknown = true;
        } else if eq.as_bool() == Some(true) {
            return Ok(Value::bool(true));
        }
    }
    Ok(if unknown {
        Value::unknown(Type::Bool)
    } else {
        Value::bool(false)
    })
}

fn element_type(a: &[Value]) -> R<Type> {
    match a[0].ty() {
        Type::List(e) => Ok(*e),
        Type::Tuple(ts) => {
            if a[1].is_unknown() || ts.is_empty() {
                return Ok(Type::Dynamic);
            }
            let i = whole(&a[1]).map_err(|_| fail(format!("invalid index: {WHOLE}")))?;
            if i < 0 {
                return Err(fail("cannot use element function with a negative index"));
            }
            Ok(ts[i as usize % ts.len()].clone())
        }
        Type::Dynamic => Ok(Type::Dynamic),
        _ => Err(fail(
            "cannot read elements from ".to_string() + &a[0].ty().friendly_name(),
        )),
    }
}

fn element(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let es = elems(&a[0]);
    let i = whole(&a[1]).map_err(|_| fail(format!("invalid index: {WHOLE}")))?;
    if es.is_empty() {
        return Err(fail("cannot use element function with an empty list"));
    }
    if i < 0 {
        return Err(fail("cannot use element function with a negative index"));
    }
    Ok(es[i as usize % es.len()].clone())
}

fn flatten_type(a: &[Value]) -> R<Type> {
    if !matches!(a[0].ty(), Type::List(_) | Type::Set(_) | Type::Tuple(_)) {
        return Err(fail("can only flatten lists, sets and tuples"));
    }
    // The element types only: the elements themselves are the function's to gather.
    let Some(len) = flatten_len(&a[0], &mut Marks::default()) else {
        return Ok(Type::Dynamic);
    };
    let mut types = Vec::with_capacity(len);
    flatten_visit(&a[0], &mut Marks::default(), &mut |e| types.push(e.ty()));
    Ok(Type::Tuple(types.into()))
}

/// How many elements flattening `v` gives; None when an unknown list is met. The marks of
/// the nested lists it passes go to `marks` (see [`flatten_visit`]).
fn flatten_len(v: &Value, marks: &mut Marks) -> Option<usize> {
    let mut n = 0;
    flatten_visit(v, marks, &mut |_| n += 1).then_some(n)
}

/// Visit the elements flattening `v` gives, in order. Returns false when an unknown list was
/// met (the result is then unknown). The marks of the nested lists taken apart go to `marks`
/// (the result carries them whole).
fn flatten_visit(v: &Value, marks: &mut Marks, out: &mut impl FnMut(&Value)) -> bool {
    if v.is_unknown() {
        return false;
    }
    // A set holding unknown elements (which may coincide) has no known length, so neither has
    // the flattened result (as in cty).
    if matches!(v.kind, ValueKind::Set(..)) && elems(v).len() > 1 && !v.is_wholly_known() {
        return false;
    }
    for e in elems(v) {
        if e.is_unknown()
            && matches!(
                e.ty(),
                Type::List(_) | Type::Set(_) | Type::Tuple(_) | Type::Dynamic
            )
        {
            return false;
        }
        if matches!(
            e.kind,
            ValueKind::List(..) | ValueKind::Set(..) | ValueKind::Tuple(_)
        ) {
            *marks = marks.union(e.marks);
            if !flatten_visit(e, marks, out) {
                return false;
            }
        } else {
            out(e);
        }
    }
    true
}

fn index(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    if !matches!(a[0].kind, ValueKind::List(..) | ValueKind::Tuple(_)) {
        return Err(fail("argument must be a list or tuple"));
    }
    if !a[0].is_wholly_known() {
        return Ok(Value::unknown(Type::Number));
    }
    if elems(&a[0]).is_empty() {
        return Err(fail("cannot search an empty list"));
    }
    for (i, v) in elems(&a[0]).iter().enumerate() {
        let eq = equals(v, &a[1]);
        if eq.is_unknown() {
            return Ok(Value::unknown(Type::Number));
        }
        if eq.as_bool() == Some(true) {
            return Ok(Value::int(i as i64));
        }
    }
    Err(fail("item not found"))
}

fn length(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let v = &a[0];
    let marks = v.marks;
    // Tuples and objects by their kind, not their type: the type of a resource's tuple of
    // 10 000 objects is as large as they are, and built for every instance reading it.
    let r = match &v.kind {
        _ if v.is_dynamic() => Value::unknown(Type::Number),
        ValueKind::Tuple(es) => Value::int(es.len() as i64),
        ValueKind::Object(m) => Value::int(m.len() as i64),
        ValueKind::Null(Type::Tuple(ts)) | ValueKind::Unknown(Type::Tuple(ts)) => {
            Value::int(ts.len() as i64)
        }
        ValueKind::Null(Type::Object(o)) | ValueKind::Unknown(Type::Object(o)) => {
            Value::int(o.attrs.len() as i64)
        }
        ValueKind::Unknown(_) => Value::unknown(Type::Number),
        ValueKind::String(text) => Value::int(super::string::grapheme_len(text) as i64),
        // Unknown elements of a set may turn out equal to others, so its length is known
        // only when it is wholly known or holds one element (cty's rule).
        ValueKind::Set(_, es) if es.len() != 1 && !v.is_wholly_known() => {
            Value::unknown(Type::Number)
        }
        ValueKind::List(_, es) | ValueKind::Set(_, es) => Value::int(es.len() as i64),
        ValueKind::Map(_, m) => Value::int(m.len() as i64),
        _ => {
            return Err(fail(
                "argument must be a string, a collection type, or a structural type",
            ))
        }
    };
    Ok(r.with_marks(marks))
}

fn one_type(a: &[Value]) -> R<Type> {
    match a[0].ty() {
        Type::List(e) | Type::Set(e) => Ok(*e),
        Type::Tuple(ts) => match ts.len() {
            0 => Ok(Type::Dynamic),
            1 => Ok(ts[0].clone()),
            _ => Err(arg_err(
                0,
                "must be a list, set, or tuple value with either zero or one elements",
            )),
        },
        Type::Dynamic => Ok(Type::Dynamic),
        _ => Err(arg_err(
            0,
            "must be a list, set, or tuple value with either zero or one elements",
        )),
    }
}

fn one(_: &FnContext<'_>, a: &[Value], rt: &Type) -> R<Value> {
    let es = elems(&a[0]);
    if !a[0].is_wholly_known() && es.iter().any(|e| e.is_unknown()) && es.len() <= 1 {
        return Ok(es
            .first()
            .cloned()
            .unwrap_or_else(|| Value::unknown(rt.clone())));
    }
    match es.len() {
        0 => Ok(Value::null(rt.clone())),
        1 => Ok(es[0].clone()),
        _ => Err(arg_err(
            0,
            "must be a list, set, or tuple value with either zero or one elements",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{call_function, FnContext};
    use ferro_value::{Type, Value};

    fn call(name: &str, args: &[Value]) -> Value {
        let ctx = FnContext {
            base_dir: std::path::Path::new("."),
            on_read: &|_| {},
            console: false,
            pure_only: false,
            depth: 0,
        };
        call_function(&ctx, name, args).expect("the call succeeds")
    }

    /// Ids known only after apply, gathered into a set: Terraform keeps each one and
    /// counts them as unknown (they may coincide), where one element alone has length 1.
    #[test]
    fn unknown_set_elements_stay_apart_and_leave_the_length_unknown() {
        let ids = Value::tuple(vec![
            Value::unknown(Type::String),
            Value::unknown(Type::String),
        ]);
        let set = call("toset", &[ids]);
        assert_eq!(set.as_elements().map(<[Value]>::len), Some(2));
        assert_eq!(call("length", &[set]), Value::unknown(Type::Number));

        let one = call("toset", &[Value::tuple(vec![Value::unknown(Type::String)])]);
        assert_eq!(call("length", &[one]), Value::int(1));

        let known = Value::tuple(vec![Value::string("a"), Value::string("a")]);
        assert_eq!(call("length", &[call("toset", &[known])]), Value::int(1));
    }

    /// `length` of a resource's instances, planned or unknown: a tuple or an object counts its
    /// elements even when they are unknown, an unknown value of a structural type counts its
    /// type's, and an unknown value of a collection or of no known type leaves it unknown.
    #[test]
    fn length_counts_structures_by_shape_and_leaves_unknown_collections_unknown() {
        let planned = Value::tuple(vec![
            Value::unknown(Type::String),
            Value::unknown(Type::Dynamic),
            Value::null(Type::Number),
        ]);
        assert_eq!(call("length", &[planned]), Value::int(3));
        let tuple_ty = Value::tuple(vec![Value::string("a"), Value::int(1)]).ty();
        assert_eq!(call("length", &[Value::unknown(tuple_ty)]), Value::int(2));
        let mut m = ferro_value::ValueMap::new();
        m.insert("a", Value::unknown(Type::String));
        let obj = Value::object(m);
        assert_eq!(call("length", &[Value::unknown(obj.ty())]), Value::int(1));
        assert_eq!(call("length", &[obj]), Value::int(1));
        let list_of = Value::unknown(Type::list(Type::String));
        assert_eq!(call("length", &[list_of]), Value::unknown(Type::Number));
        assert_eq!(
            call("length", &[Value::dynamic_unknown()]),
            Value::unknown(Type::Number)
        );
        let secret = Value::tuple(vec![Value::string("x")]).mark_sensitive();
        assert!(call("length", &[secret]).is_sensitive());
    }

    /// A union keeps the known elements and each unknown one; an intersection cannot say.
    #[test]
    fn a_union_with_unknown_elements_is_known_in_shape() {
        let ids = call(
            "toset",
            &[Value::tuple(vec![
                Value::unknown(Type::String),
                Value::unknown(Type::String),
            ])],
        );
        let q = call("toset", &[Value::tuple(vec![Value::string("q")])]);
        let union = call("setunion", &[q.clone(), ids.clone()]);
        assert_eq!(union.as_elements().map(<[Value]>::len), Some(3));
        assert!(union.as_elements().unwrap().contains(&Value::string("q")));
        let inter = call("setintersection", &[q, ids]);
        assert!(!inter.is_known());
    }

    /// What Terraform 1.0.3 plans for ids known only after apply: chunks and products keep
    /// their shape; a set of them turned into a list does not (its length is not known).
    #[test]
    fn unknown_elements_keep_the_shape_where_cty_keeps_it() {
        let ids = Value::tuple(vec![
            Value::unknown(Type::String),
            Value::unknown(Type::String),
        ]);
        let chunks = call("chunklist", &[ids.clone(), Value::int(1)]);
        assert_eq!(chunks.as_elements().map(<[Value]>::len), Some(2));
        let a = Value::tuple(vec![Value::string("a")]);
        let product = call("setproduct", &[a.clone(), ids.clone()]);
        assert_eq!(product.as_elements().map(<[Value]>::len), Some(2));
        let set = call("toset", &[ids]);
        assert!(!call("setproduct", &[a, set.clone()]).is_known());
        assert!(!call("tolist", std::slice::from_ref(&set)).is_known());
        assert!(!call("flatten", &[set]).is_known());
        let one = call("toset", &[Value::tuple(vec![Value::unknown(Type::String)])]);
        assert_eq!(
            call("tolist", &[one]).as_elements().map(<[Value]>::len),
            Some(1)
        );
    }
}
