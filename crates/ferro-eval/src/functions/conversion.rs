//! Type conversion and sensitivity functions: tobool, tolist, tomap, tonumber, toset, tostring,
//! sensitive, nonsensitive, issensitive.

use super::{arg_err, func, p, FnContext, Registry, Ret, R};
use ferro_value::convert::{conversion_type, convert};
use ferro_value::{Type, Value};

fn to_param() -> super::Param {
    p("v", Type::Dynamic).null().marked().dynamic()
}

/// The name used for a conversion target in messages (`list of any single type`).
fn constraint_name(t: &Type) -> String {
    match t {
        Type::List(e) if **e == Type::Dynamic => "list of any single type".into(),
        Type::Set(e) if **e == Type::Dynamic => "set of any single type".into(),
        Type::Map(e) if **e == Type::Dynamic => "map of any single type".into(),
        Type::Dynamic => "any type".into(),
        other => other.friendly_name(),
    }
}

fn target(name: &str) -> Type {
    match name {
        "tostring" => Type::String,
        "tonumber" => Type::Number,
        "tobool" => Type::Bool,
        "tolist" => Type::list(Type::Dynamic),
        "toset" => Type::set(Type::Dynamic),
        _ => Type::map(Type::Dynamic),
    }
}

fn to_type(want: &Type, a: &[Value]) -> R<Type> {
    let (v, _) = a[0].deep_unmark();
    let got = v.ty();
    if got == *want {
        return Ok(want.clone());
    }
    match conversion_type(&got, want, true) {
        Some(t) => Ok(t),
        None => Err(arg_err(
            0,
            match (&got, want) {
                (Type::Tuple(_), Type::Tuple(_)) => {
                    "incompatible tuple type for conversion".to_string()
                }
                (Type::Object(_), Type::Object(_)) => {
                    "incompatible object type for conversion".to_string()
                }
                _ => format!(
                    "cannot convert {} to {}",
                    got.friendly_name(),
                    constraint_name(want)
                ),
            },
        )),
    }
}

fn to_impl(want: &Type, a: &[Value], rt: &Type) -> R<Value> {
    // An untyped null stays untyped (cty passes dynamic nulls through).
    if a[0].is_null() && a[0].is_dynamic() {
        return Ok(a[0].clone());
    }
    match convert(&a[0], rt) {
        Ok(v) => Ok(v),
        Err(_) => {
            let (v, marks) = a[0].deep_unmark();
            let got = v.ty();
            if marks.is_sensitive() {
                return Err(arg_err(
                    0,
                    format!(
                        "cannot convert this sensitive {} to {}",
                        got.friendly_name(),
                        constraint_name(want)
                    ),
                ));
            }
            let what = match v.as_str() {
                Some(text) => super::numeric::go_quote(text),
                None => "string".to_string(),
            };
            Err(arg_err(0, match (&got, want) {
                (Type::String, Type::Bool) => format!("cannot convert {what} to bool; only the strings \"true\" or \"false\" are allowed"),
                (Type::String, Type::Number) => format!("cannot convert {what} to number; given string must be a decimal representation of a number"),
                _ => format!("cannot convert {} to {}", got.friendly_name(), constraint_name(want)),
            }))
        }
    }
}

pub(super) fn register(r: &mut Registry) {
    r.insert(
        "tostring",
        func(
            vec![to_param()],
            None,
            Ret::Computed(|a| to_type(&target("tostring"), a)),
            |_, a, rt| to_impl(&target("tostring"), a, rt),
        ),
    );
    r.insert(
        "tonumber",
        func(
            vec![to_param()],
            None,
            Ret::Computed(|a| to_type(&target("tonumber"), a)),
            |_, a, rt| to_impl(&target("tonumber"), a, rt),
        ),
    );
    r.insert(
        "tobool",
        func(
            vec![to_param()],
            None,
            Ret::Computed(|a| to_type(&target("tobool"), a)),
            |_, a, rt| to_impl(&target("tobool"), a, rt),
        ),
    );
    r.insert(
        "tolist",
        func(
            vec![to_param()],
            None,
            Ret::Computed(|a| to_type(&target("tolist"), a)),
            |_, a, rt| to_impl(&target("tolist"), a, rt),
        ),
    );
    r.insert(
        "toset",
        func(
            vec![to_param()],
            None,
            Ret::Computed(|a| to_type(&target("toset"), a)),
            |_, a, rt| to_impl(&target("toset"), a, rt),
        ),
    );
    r.insert(
        "tomap",
        func(
            vec![to_param()],
            None,
            Ret::Computed(|a| to_type(&target("tomap"), a)),
            |_, a, rt| to_impl(&target("tomap"), a, rt),
        ),
    );
    let any = || {
        p("value", Type::Dynamic)
            .null()
            .unknown()
            .marked()
            .dynamic()
    };
    r.insert(
        "sensitive",
        func(
            vec![any()],
            None,
            Ret::Computed(|a| Ok(a[0].ty())),
            |_, a, _| Ok(a[0].clone().mark_sensitive()),
        ),
    );
    r.insert(
        "nonsensitive",
        func(
            vec![any()],
            None,
            Ret::Computed(|a| Ok(a[0].ty())),
            nonsensitive,
        ),
    );
    r.insert(
        "ephemeralasnull",
        func(
            vec![any()],
            None,
            Ret::Computed(|a| Ok(a[0].ty())),
            |_, a, _| Ok(ephemeral_as_null(&a[0])),
        ),
    );
    r.insert(
        "issensitive",
        func(vec![any()], None, Ret::Fixed(Type::Bool), |_, a, _| {
            Ok(Value::bool(a[0].is_sensitive()))
        }),
    );
}

/// `ephemeralasnull(v)` (Terraform 1.10): `v` with every ephemeral part (the whole value, or
/// elements and attributes inside it) replaced by a null of its type.
fn ephemeral_as_null(v: &Value) -> Value {
    use ferro_value::ValueKind;
    if v.marks.is_ephemeral() {
        return Value::null(v.ty())
            .with_marks(v.without_marks(ferro_value::Marks::EPHEMERAL).marks);
    }
    if !v.contains_ephemeral() {
        return v.clone();
    }
    let kind = match &v.kind {
        ValueKind::List(t, es) => ValueKind::List(
            t.clone(),
            std::sync::Arc::new(es.iter().map(ephemeral_as_null).collect()),
        ),
        // Rebuilt as a set: elements that became alike are one.
        ValueKind::Set(t, es) => {
            return Value::set(t.clone(), es.iter().map(ephemeral_as_null).collect())
                .with_marks(v.marks)
        }
        ValueKind::Tuple(es) => ValueKind::Tuple(std::sync::Arc::new(
            es.iter().map(ephemeral_as_null).collect(),
        )),
        ValueKind::Map(t, m) => ValueKind::Map(
            t.clone(),
            std::sync::Arc::new(
                m.iter()
                    .map(|(k, e)| (k.clone(), ephemeral_as_null(e)))
                    .collect(),
            ),
        ),
        ValueKind::Object(m) => ValueKind::Object(std::sync::Arc::new(
            m.iter()
                .map(|(k, e)| (k.clone(), ephemeral_as_null(e)))
                .collect(),
        )),
        other => other.clone(),
    };
    Value {
        kind,
        marks: v.marks,
    }
}

fn nonsensitive(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    if !a[0].is_sensitive() && !a[0].is_unknown() {
        return Err(arg_err(
            0,
            "the given value is not sensitive, so this call is redundant",
        ));
    }
    // Only the sensitive mark goes: an ephemeral value stays ephemeral.
    Ok(a[0].without_marks(ferro_value::Marks::SENSITIVE))
}
