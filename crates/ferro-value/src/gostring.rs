//! Values and types written as cty's `GoString` writes them (`cty.StringVal("one\n")`,
//! `cty.NumberIntVal(2)`, `cty.ListVal([]cty.Value{...})`). Terraform uses this form only in
//! the messages meant for provider developers (an inconsistent final plan or apply result), and
//! users paste those messages into bug reports, so they read the same from ferro.
//!
//! Sensitive values are never written out: a marked value is `(sensitive value)`.

use crate::json::go_quote;
use crate::{Number, Type, Value, ValueKind};

/// `v` as cty's `%#v` writes it.
pub fn value_go_string(v: &Value) -> String {
    let mut out = String::new();
    write_value(v, &mut out);
    out
}

/// `t` as cty's `%#v` writes a type.
pub fn type_go_string(t: &Type) -> String {
    let mut out = String::new();
    write_type(t, &mut out);
    out
}

fn write_type(t: &Type, out: &mut String) {
    match t {
        Type::String => out.push_str("cty.String"),
        Type::Number => out.push_str("cty.Number"),
        Type::Bool => out.push_str("cty.Bool"),
        Type::Dynamic => out.push_str("cty.DynamicPseudoType"),
        Type::List(e) => wrap_type("cty.List(", e, out),
        Type::Set(e) => wrap_type("cty.Set(", e, out),
        Type::Map(e) => wrap_type("cty.Map(", e, out),
        Type::Tuple(elems) if elems.is_empty() => out.push_str("cty.EmptyTuple"),
        Type::Tuple(elems) => {
            out.push_str("cty.Tuple([]cty.Type{");
            for (i, e) in elems.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_type(e, out);
            }
            out.push_str("})");
        }
        Type::Object(o) if o.attrs.is_empty() => out.push_str("cty.EmptyObject"),
        Type::Object(o) => {
            out.push_str("cty.Object(map[string]cty.Type{");
            for (i, (k, e)) in o.attrs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&go_quote(k));
                out.push(':');
                write_type(e, out);
            }
            out.push_str("})");
        }
    }
}

fn wrap_type(head: &str, e: &Type, out: &mut String) {
    out.push_str(head);
    write_type(e, out);
    out.push(')');
}

fn write_value(v: &Value, out: &mut String) {
    if v.is_sensitive() {
        out.push_str("(sensitive value)");
        return;
    }
    match &v.kind {
        ValueKind::Null(t) => {
            out.push_str("cty.NullVal(");
            write_type(t, out);
            out.push(')');
        }
        ValueKind::Unknown(Type::Dynamic) => out.push_str("cty.DynamicVal"),
        ValueKind::Unknown(t) => {
            out.push_str("cty.UnknownVal(");
            write_type(t, out);
            out.push(')');
        }
        ValueKind::Bool(true) => out.push_str("cty.True"),
        ValueKind::Bool(false) => out.push_str("cty.False"),
        ValueKind::Number(n) => write_number(n, out),
        ValueKind::String(s) => {
            out.push_str("cty.StringVal(");
            out.push_str(&go_quote(s));
            out.push(')');
        }
        ValueKind::List(t, elems) if elems.is_empty() => {
            wrap_type("cty.ListValEmpty(", t, out);
        }
        ValueKind::Set(t, elems) if elems.is_empty() => {
            wrap_type("cty.SetValEmpty(", t, out);
        }
        ValueKind::Map(t, entries) if entries.is_empty() => {
            wrap_type("cty.MapValEmpty(", t, out);
        }
        ValueKind::Tuple(elems) if elems.is_empty() => out.push_str("cty.EmptyTupleVal"),
        ValueKind::Object(attrs) if attrs.is_empty() => out.push_str("cty.EmptyObjectVal"),
        ValueKind::List(_, elems) => write_elems("cty.ListVal", elems, out),
        ValueKind::Set(_, elems) => write_elems("cty.SetVal", elems, out),
        ValueKind::Tuple(elems) => write_elems("cty.TupleVal", elems, out),
        ValueKind::Map(_, entries) => {
            write_entries("cty.MapVal", entries.iter().map(|(k, v)| (&**k, v)), out)
        }
        ValueKind::Object(attrs) => {
            write_entries("cty.ObjectVal", attrs.iter().map(|(k, v)| (&**k, v)), out)
        }
    }
}

fn write_elems(head: &str, elems: &[Value], out: &mut String) {
    out.push_str(head);
    out.push_str("([]cty.Value{");
    for (i, e) in elems.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_value(e, out);
    }
    out.push_str("})");
}

fn write_entries<'a>(
    head: &str,
    entries: impl Iterator<Item = (&'a str, &'a Value)>,
    out: &mut String,
) {
    out.push_str(head);
    out.push_str("(map[string]cty.Value{");
    for (i, (k, v)) in entries.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&go_quote(k));
        out.push(':');
        write_value(v, out);
    }
    out.push_str("})");
}

/// cty: an integer is `NumberIntVal` (written as Go writes a `*big.Float` with `%v`, the
/// shortest `%g`), a number a float64 holds exactly is `NumberFloatVal` (Go's `%#v` of the
/// float64, also the shortest `%g`), anything else `MustParseNumberVal` of its decimal text.
fn write_number(n: &Number, out: &mut String) {
    if n.is_infinite() {
        let text = if n.signum() < 0 { "-Inf" } else { "+Inf" };
        out.push_str(&format!("cty.NumberFloatVal({text})"));
    } else if n.is_integer() {
        out.push_str(&format!("cty.NumberIntVal({})", shortest_g(n)));
    } else if n.is_exact_f64() {
        out.push_str(&format!("cty.NumberFloatVal({})", shortest_g(n)));
    } else {
        out.push_str(&format!(
            "cty.MustParseNumberVal({})",
            go_quote(&n.to_string())
        ));
    }
}

/// Go's `%g` with the shortest precision of a finite number's exact decimal digits: exponent
/// form when the decimal exponent is below -4 or at least 6 (`1e+06`, `1.5e-05`), else plain.
fn shortest_g(n: &Number) -> String {
    let text = n.to_string();
    let (neg, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.as_str()),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let all: String = format!("{int}{frac}");
    let lead = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_start_matches('0').trim_end_matches('0');
    if digits.is_empty() {
        return if neg { "-0".into() } else { "0".into() };
    }
    // The decimal exponent of the first significant digit.
    let exp = int.len() as i64 - 1 - lead as i64;
    let sign = if neg { "-" } else { "" };
    if !(-4..6).contains(&exp) {
        let (first, rest) = digits.split_at(1);
        let mantissa = if rest.is_empty() {
            first.to_string()
        } else {
            format!("{first}.{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{mantissa}e{esign}{:02}", exp.abs())
    } else {
        format!("{sign}{body}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ValueMap;

    fn num(s: &str) -> Value {
        Value::number(Number::parse(s).unwrap())
    }

    #[test]
    fn primitives_read_as_cty_writes_them() {
        assert_eq!(
            value_go_string(&Value::string("one\n")),
            "cty.StringVal(\"one\\n\")"
        );
        assert_eq!(value_go_string(&num("2")), "cty.NumberIntVal(2)");
        assert_eq!(value_go_string(&num("-42")), "cty.NumberIntVal(-42)");
        assert_eq!(value_go_string(&num("1000000")), "cty.NumberIntVal(1e+06)");
        assert_eq!(value_go_string(&num("123456")), "cty.NumberIntVal(123456)");
        assert_eq!(value_go_string(&num("1.5")), "cty.NumberFloatVal(1.5)");
        assert_eq!(
            value_go_string(&num("0.1")),
            "cty.MustParseNumberVal(\"0.1\")"
        );
        assert_eq!(
            value_go_string(&num("0.00001525878906")),
            "cty.MustParseNumberVal(\"0.00001525878906\")"
        );
        assert_eq!(
            value_go_string(&num("0.0000152587890625")),
            "cty.NumberFloatVal(1.52587890625e-05)"
        );
        assert_eq!(value_go_string(&Value::bool(true)), "cty.True");
        assert_eq!(
            value_go_string(&Value::null(Type::String)),
            "cty.NullVal(cty.String)"
        );
        assert_eq!(value_go_string(&Value::dynamic_unknown()), "cty.DynamicVal");
        assert_eq!(
            value_go_string(&Value::unknown(Type::List(Box::new(Type::Number)))),
            "cty.UnknownVal(cty.List(cty.Number))"
        );
    }

    #[test]
    fn collections_read_as_cty_writes_them() {
        let mut m = ValueMap::default();
        m.insert("b", Value::string("x"));
        m.insert("a", Value::bool(false));
        assert_eq!(
            value_go_string(&Value::object(m)),
            "cty.ObjectVal(map[string]cty.Value{\"a\":cty.False, \"b\":cty.StringVal(\"x\")})"
        );
        assert_eq!(
            value_go_string(&Value::list(
                Type::String,
                vec![Value::string("a"), Value::string("b")]
            )),
            "cty.ListVal([]cty.Value{cty.StringVal(\"a\"), cty.StringVal(\"b\")})"
        );
        assert_eq!(
            value_go_string(&Value::list(Type::String, vec![])),
            "cty.ListValEmpty(cty.String)"
        );
    }

    #[test]
    fn sensitive_values_are_not_written() {
        let secret = Value::string("hunter2").mark_sensitive();
        assert_eq!(value_go_string(&secret), "(sensitive value)");
    }
}
