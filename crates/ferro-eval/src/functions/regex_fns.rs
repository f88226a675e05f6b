//! Regular expression functions (`regex`, `regexall`) and the pattern handling `replace` shares.
//!
//! Patterns use RE2 syntax as Go's `regexp` does; the `regex` crate accepts the same syntax. Perl
//! classes (`\d`, `\w`, `\s`, `\b`) are ASCII-only in RE2, so they are rewritten to ASCII classes
//! before compiling.

use super::{arg_err, fail, func, p, s, FnContext, Registry, Ret, R};
use ferro_value::ValueMap;
use ferro_value::{ObjectType, Type, Value};
use regex::Regex;

pub(super) fn register(r: &mut Registry) {
    let params = || vec![p("pattern", Type::String), p("string", Type::String)];
    r.insert(
        "regex",
        func(params(), None, Ret::Computed(regex_type), regex_fn),
    );
    r.insert(
        "regexall",
        func(params(), None, Ret::Computed(regexall_type), regexall_fn),
    );
}

/// Rewrite RE2's ASCII-only Perl classes for the `regex` crate (which makes them Unicode-aware).
fn re2_to_rust(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut in_class = false;
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let Some(&next) = chars.peek() else {
                    out.push('\\');
                    break;
                };
                chars.next();
                let repl = match (next, in_class) {
                    ('d', false) => Some("[0-9]"),
                    ('d', true) => Some("0-9"),
                    ('w', false) => Some("[0-9A-Za-z_]"),
                    ('w', true) => Some("0-9A-Za-z_"),
                    ('s', false) => Some("[\\t\\n\\f\\r ]"),
                    ('s', true) => Some("\\t\\n\\f\\r "),
                    ('D', false) => Some("[^0-9]"),
                    ('W', false) => Some("[^0-9A-Za-z_]"),
                    ('S', false) => Some("[^\\t\\n\\f\\r ]"),
                    ('b', false) => Some("(?-u:\\b)"),
                    ('B', false) => Some("(?-u:\\B)"),
                    _ => None,
                };
                match repl {
                    Some(r) => out.push_str(r),
                    None => {
                        out.push('\\');
                        out.push(next);
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push('[');
                // A leading `^` and `]` are literal parts of the class opening.
                if chars.peek() == Some(&'^') {
                    out.push('^');
                    chars.next();
                }
                if chars.peek() == Some(&']') {
                    out.push_str("\\]");
                    chars.next();
                }
            }
            '[' if in_class && chars.peek() == Some(&':') => {
                // POSIX class like [:alpha:]: copy through the closing `:]`.
                out.push('[');
                for d in chars.by_ref() {
                    out.push(d);
                    if d == ']' {
                        break;
                    }
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(']');
            }
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn compile(pattern: &str) -> Result<Regex, String> {
    Regex::new(&re2_to_rust(pattern)).map_err(|e| {
        let msg = e.to_string();
        let last = msg
            .lines()
            .rev()
            .find(|l| l.starts_with("error: "))
            .map(|l| l.trim_start_matches("error: ").to_string());
        format!("invalid regexp pattern: {}", last.unwrap_or(msg))
    })
}

/// Replace every match, expanding `$1`, `${name}` like Go's `ReplaceAllString`.
pub(crate) fn replace_all(re: &Regex, text: &str, rep: &str) -> String {
    re.replace_all(text, rep).into_owned()
}

enum Shape {
    Whole,
    List(usize),
    Object(Vec<String>),
}

fn shape(re: &Regex) -> R<Shape> {
    let names: Vec<Option<&str>> = re.capture_names().skip(1).collect();
    let unnamed = names.iter().filter(|n| n.is_none()).count();
    let named: Vec<String> = names.iter().flatten().map(|n| n.to_string()).collect();
    match (unnamed, named.len()) {
        (0, 0) => Ok(Shape::Whole),
        (k, 0) => Ok(Shape::List(k)),
        (0, _) => Ok(Shape::Object(named)),
        _ => Err(arg_err(
            0,
            "invalid regexp pattern: cannot mix both named and unnamed capture groups",
        )),
    }
}

fn shape_type(sh: &Shape) -> Type {
    match sh {
        Shape::Whole => Type::String,
        Shape::List(k) => Type::Tuple(vec![Type::String; *k].into()),
        Shape::Object(names) => Type::from_object(ObjectType::new(
            names.iter().map(|n| (n.clone(), Type::String)).collect(),
        )),
    }
}

fn pattern_shape(a: &[Value]) -> R<Option<(Regex, Shape)>> {
    if a[0].is_unknown() {
        return Ok(None);
    }
    let re = compile(s(&a[0])).map_err(|e| arg_err(0, e))?;
    let sh = shape(&re)?;
    Ok(Some((re, sh)))
}

fn regex_type(a: &[Value]) -> R<Type> {
    Ok(pattern_shape(a)?
        .map(|(_, sh)| shape_type(&sh))
        .unwrap_or(Type::Dynamic))
}

fn regexall_type(a: &[Value]) -> R<Type> {
    Ok(Type::list(
        pattern_shape(a)?
            .map(|(_, sh)| shape_type(&sh))
            .unwrap_or(Type::Dynamic),
    ))
}

fn match_value(caps: &regex::Captures<'_>, sh: &Shape) -> Value {
    let group = |i: usize| match caps.get(i) {
        Some(m) => Value::string(m.as_str()),
        None => Value::null(Type::String),
    };
    match sh {
        Shape::Whole => group(0),
        Shape::List(k) => Value::tuple((1..=*k).map(group).collect()),
        Shape::Object(names) => {
            let mut m = ValueMap::new();
            for name in names {
                let v = match caps.name(name) {
                    Some(x) => Value::string(x.as_str()),
                    None => Value::null(Type::String),
                };
                m.insert(name.clone(), v);
            }
            Value::object(m)
        }
    }
}

fn regex_fn(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let Some((re, sh)) = pattern_shape(a)? else {
        return Ok(Value::dynamic_unknown());
    };
    match re.captures(s(&a[1])) {
        Some(caps) => Ok(match_value(&caps, &sh)),
        None => Err(fail("pattern did not match any part of the given string")),
    }
}

fn regexall_fn(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let Some((re, sh)) = pattern_shape(a)? else {
        return Ok(Value::unknown(Type::list(Type::Dynamic)));
    };
    let out: Vec<Value> = re
        .captures_iter(s(&a[1]))
        .map(|c| match_value(&c, &sh))
        .collect();
    Ok(Value::list(shape_type(&sh), out))
}
