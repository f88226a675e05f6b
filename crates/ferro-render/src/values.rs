//! Values and types as `ferro console` and `ferro output` print them (Terraform's
//! `repl.FormatValue` and type strings).

use ferro_value::json::go_quote;
use ferro_value::{Type, Value, ValueKind, ValueMap};

/// A value as `terraform console` prints it.
pub fn format_value(v: &Value, indent: usize) -> String {
    if v.is_unknown() {
        return "(known after apply)".into();
    }
    if v.is_sensitive() {
        return "(sensitive)".into();
    }
    match &v.kind {
        ValueKind::Null(t) => match t {
            Type::Dynamic => "null".into(),
            Type::String => "tostring(null)".into(),
            Type::Number => "tonumber(null)".into(),
            Type::Bool => "tobool(null)".into(),
            Type::List(e) => format!("tolist(null) /* of {} */", e.friendly_name()),
            Type::Set(e) => format!("toset(null) /* of {} */", e.friendly_name()),
            Type::Map(e) => format!("tomap(null) /* of {} */", e.friendly_name()),
            other => format!("null /* {} */", other.friendly_name()),
        },
        ValueKind::Unknown(_) => "(known after apply)".into(),
        ValueKind::Bool(b) => b.to_string(),
        ValueKind::Number(n) => n.to_string(),
        ValueKind::String(s) => multiline(s, indent).unwrap_or_else(|| go_quote(s)),
        ValueKind::Tuple(es) => sequence(es, indent),
        ValueKind::List(_, es) => format!("tolist({})", sequence(es, indent)),
        ValueKind::Set(_, es) => format!("toset({})", sequence(es, indent)),
        ValueKind::Object(m) => mapping(m, indent),
        ValueKind::Map(_, m) => format!("tomap({})", mapping(m, indent)),
    }
}

fn multiline(s: &str, indent: usize) -> Option<String> {
    let lines: Vec<&str> = s.split('\n').collect();
    if lines.len() < 2 {
        return None;
    }
    let op = if indent > 0 { "<<-" } else { "<<" };
    let mut delim = String::from("EOT");
    while lines.iter().any(|l| l.trim() == delim) {
        delim.push('_');
    }
    let pad = " ".repeat(indent);
    let mut out = format!("{op}{delim}");
    for l in &lines {
        out.push('\n');
        out.push_str(&pad);
        out.push_str(l);
    }
    out.push('\n');
    out.push_str(&pad);
    out.push_str(&delim);
    Some(out)
}

fn sequence(es: &[Value], indent: usize) -> String {
    let mut out = String::from("[");
    let inner = indent + 2;
    for e in es {
        out.push('\n');
        out.push_str(&" ".repeat(inner));
        out.push_str(&format_value(e, inner));
        out.push(',');
    }
    if !es.is_empty() {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out.push(']');
    out
}

fn mapping(m: &ValueMap, indent: usize) -> String {
    let mut out = String::from("{");
    let inner = indent + 2;
    for (k, e) in m {
        out.push('\n');
        out.push_str(&" ".repeat(inner));
        out.push_str(&multiline(k, inner).unwrap_or_else(|| go_quote(k)));
        out.push_str(" = ");
        out.push_str(&format_value(e, inner));
    }
    if !m.is_empty() {
        out.push('\n');
        out.push_str(&" ".repeat(indent));
    }
    out.push('}');
    out
}

/// A type as the console's `type()` shows it.
pub fn format_type(t: &Type, indent: usize) -> String {
    let pad = " ".repeat(indent + 4);
    let end = " ".repeat(indent);
    match t {
        Type::Object(o) => {
            if o.attrs.is_empty() {
                return "object({})".into();
            }
            let mut out = String::from("object({\n");
            for (k, v) in &o.attrs {
                out.push_str(&format!("{pad}{k}: {},\n", format_type(v, indent + 4)));
            }
            out.push_str(&format!("{end}}})"));
            out
        }
        Type::Tuple(ts) => {
            if ts.is_empty() {
                return "tuple([])".into();
            }
            let mut out = String::from("tuple([\n");
            for v in ts {
                out.push_str(&format!("{pad}{},\n", format_type(v, indent + 4)));
            }
            out.push_str(&format!("{end}])"));
            out
        }
        Type::List(e) => format!("list({})", format_type(e, indent)),
        Type::Set(e) => format!("set({})", format_type(e, indent)),
        Type::Map(e) => format!("map({})", format_type(e, indent)),
        Type::Dynamic => "dynamic".into(),
        other => other.type_expr(),
    }
}
