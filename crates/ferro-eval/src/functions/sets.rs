//! Set functions: setintersection, setproduct, setsubtract, setunion.

use super::{elems, fail, func, p, FnContext, Registry, Ret, R};
use ferro_value::convert::convert;
use ferro_value::{unify, Type, Value, ValueKind};

pub(super) fn register(r: &mut Registry) {
    let st = || Type::set(Type::Dynamic);
    r.insert(
        "setunion",
        func(
            vec![p("first_set", st())],
            Some(p("other_sets", st())),
            Ret::Computed(set_type),
            |c, a, rt| set_op(c, a, rt, Op::Union),
        ),
    );
    r.insert(
        "setintersection",
        func(
            vec![p("first_set", st())],
            Some(p("other_sets", st())),
            Ret::Computed(set_type),
            |c, a, rt| set_op(c, a, rt, Op::Intersection),
        ),
    );
    r.insert(
        "setsubtract",
        func(
            vec![p("a", st()), p("b", st())],
            None,
            Ret::Computed(set_type),
            |c, a, rt| set_op(c, a, rt, Op::Subtract),
        ),
    );
    r.insert(
        "setproduct",
        func(
            vec![],
            Some(p("sets", Type::Dynamic).inner_marks()),
            Ret::Computed(product_type),
            setproduct,
        ),
    );
}

#[derive(Clone, Copy)]
enum Op {
    Union,
    Intersection,
    Subtract,
}

fn set_type(a: &[Value]) -> R<Type> {
    let tys: Vec<Type> = a
        .iter()
        .map(|v| v.ty().element_type().cloned().unwrap_or(Type::Dynamic))
        .collect();
    match unify::unify(&tys) {
        Some(t) => Ok(Type::set(t)),
        None => Err(fail("given sets must all have compatible element types")),
    }
}

fn set_op(_: &FnContext<'_>, a: &[Value], rt: &Type, op: Op) -> R<Value> {
    let mut sets = Vec::new();
    for v in a {
        // As cty: a union keeps unknown elements (each stays apart), so it only needs the sets
        // themselves known; an intersection or a difference needs every element known, since
        // an unknown one may turn out equal to another.
        let known = match op {
            Op::Union => v.is_known(),
            Op::Intersection | Op::Subtract => v.is_wholly_known(),
        };
        if !known {
            return Ok(Value::unknown(rt.clone()));
        }
        let c = convert(v, rt).map_err(|e| fail(e.message))?;
        sets.push(elems(&c).to_vec());
    }
    let et = rt.element_type().cloned().unwrap_or(Type::Dynamic);
    let mut acc = sets[0].clone();
    for other in &sets[1..] {
        acc = match op {
            Op::Union => acc.iter().chain(other.iter()).cloned().collect(),
            Op::Intersection => acc.into_iter().filter(|x| other.contains(x)).collect(),
            Op::Subtract => acc.into_iter().filter(|x| !other.contains(x)).collect(),
        };
    }
    Ok(Value::set(et, acc))
}

fn product_type(a: &[Value]) -> R<Type> {
    if a.len() < 2 {
        return Err(fail("at least two arguments are required"));
    }
    let mut any_set = false;
    let mut etys = Vec::new();
    for (i, v) in a.iter().enumerate() {
        match v.ty() {
            Type::Set(e) => {
                any_set = true;
                etys.push(*e);
            }
            Type::List(e) => etys.push(*e),
            Type::Tuple(ts) => {
                if ts.is_empty() {
                    etys.push(Type::Dynamic);
                } else {
                    etys.push(unify::unify(&ts).ok_or_else(|| {
                        super::arg_err(i, "all elements must be of the same type")
                    })?);
                }
            }
            Type::Dynamic => return Ok(Type::Dynamic),
            _ => return Err(super::arg_err(i, "a set or a list is required")),
        }
    }
    let tuple = Type::Tuple(etys.into());
    Ok(if any_set {
        Type::set(tuple)
    } else {
        Type::list(tuple)
    })
}

fn setproduct(_: &FnContext<'_>, a: &[Value], rt: &Type) -> R<Value> {
    let et = rt.element_type().cloned().unwrap_or(Type::Dynamic);
    let mut rows: Vec<Vec<Value>> = vec![vec![]];
    for v in a {
        // As cty: the product needs every argument's length; a set holding unknown elements
        // (which may coincide) has none until it holds one element.
        let length_known = v.is_known()
            && (!matches!(v.kind, ValueKind::Set(..))
                || v.is_wholly_known()
                || elems(v).len() == 1);
        if !length_known {
            return Ok(Value::unknown(rt.clone()));
        }
        let es = elems(v);
        let mut next = Vec::with_capacity(rows.len() * es.len());
        for r in &rows {
            for e in es {
                let mut row = r.clone();
                row.push(e.clone());
                next.push(row);
            }
        }
        rows = next;
    }
    let tuples: Vec<Value> = rows
        .into_iter()
        .map(|r| convert(&Value::tuple(r.clone()), &et).unwrap_or_else(|_| Value::tuple(r)))
        .collect();
    Ok(match rt {
        Type::Set(_) => Value::set(et, tuples),
        _ => {
            let _ = ValueKind::Tuple;
            Value::list(et, tuples)
        }
    })
}
