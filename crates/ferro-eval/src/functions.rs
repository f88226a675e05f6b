//! Built-in functions. This is the core set the first slice needs; the full Terraform library
//! grows here function by function, each with Terraform's exact results.

use ferro_value::convert::convert;
use ferro_value::{json, unify, Marks, Number, Type, Value, ValueKind};
use std::collections::BTreeMap;

pub enum CallError {
    NoSuchFunction,
    /// Argument index and what is wrong with it.
    Arg(usize, String),
    Failed(String),
}

type Result<T> = std::result::Result<T, CallError>;

const NAMES: &[&str] = &[
    "abs", "coalesce", "concat", "contains", "distinct", "element", "flatten", "format", "join", "jsonencode", "keys",
    "length", "lookup", "lower", "max", "merge", "min", "nonsensitive", "range", "replace", "sensitive", "split",
    "tobool", "tolist", "tomap", "tonumber", "toset", "tostring", "trimspace", "upper", "values",
];

/// Names of every built-in function (for completion and "did you mean").
pub fn function_names() -> &'static [&'static str] {
    NAMES
}

fn marks_of(args: &[Value]) -> Marks {
    args.iter().fold(Marks::NONE, |m, a| m.union(a.marks))
}

fn arity(args: &[Value], n: usize) -> Result<()> {
    if args.len() != n {
        return Err(CallError::Failed(format!("function takes exactly {n} argument(s), {} given", args.len())));
    }
    Ok(())
}

fn want_str(args: &[Value], i: usize) -> Result<Option<String>> {
    let v = &args[i];
    if v.is_unknown() {
        return Ok(None);
    }
    if v.is_null() {
        return Err(CallError::Arg(i, "argument must not be null.".into()));
    }
    match convert(&v.unmarked(), &Type::String) {
        Ok(s) if s.is_unknown() => Ok(None),
        Ok(s) => Ok(Some(s.as_str().unwrap_or_default().to_string())),
        Err(_) => Err(CallError::Arg(i, "string required.".into())),
    }
}

fn want_num(args: &[Value], i: usize) -> Result<Option<Number>> {
    let v = &args[i];
    if v.is_unknown() {
        return Ok(None);
    }
    if v.is_null() {
        return Err(CallError::Arg(i, "argument must not be null.".into()));
    }
    match convert(&v.unmarked(), &Type::Number) {
        Ok(n) => Ok(n.as_number().cloned()),
        Err(_) => Err(CallError::Arg(i, "number required.".into())),
    }
}

/// Call a built-in function with already evaluated arguments.
pub fn call_function(name: &str, args: &[Value]) -> Result<Value> {
    let marks = marks_of(args);
    let any_unknown = args.iter().any(|a| a.is_unknown());
    let string_fn = |f: fn(&str) -> String| -> Result<Value> {
        arity(args, 1)?;
        Ok(match want_str(args, 0)? {
            Some(s) => Value::string(f(&s)),
            None => Value::unknown(Type::String),
        })
    };
    let v = match name {
        "upper" => string_fn(|s| s.to_uppercase())?,
        "lower" => string_fn(|s| s.to_lowercase())?,
        "trimspace" => string_fn(|s| s.trim().to_string())?,
        "tostring" | "tonumber" | "tobool" => {
            arity(args, 1)?;
            let ty = match name {
                "tostring" => Type::String,
                "tonumber" => Type::Number,
                _ => Type::Bool,
            };
            convert(&args[0], &ty).map_err(|e| CallError::Arg(0, format!("{}.", e.message)))?
        }
        "tolist" | "toset" | "tomap" => {
            arity(args, 1)?;
            let a = &args[0];
            let target = match (name, a.ty()) {
                ("tomap", Type::Object(o)) => Type::map(unify::unify(&o.attrs.values().cloned().collect::<Vec<_>>()).unwrap_or(Type::Dynamic)),
                ("tomap", t) => t,
                (_, Type::Tuple(ts)) => {
                    let el = if ts.is_empty() { Type::Dynamic } else { unify::unify(&ts).ok_or_else(|| CallError::Arg(0, "all elements must have the same type.".into()))? };
                    if name == "tolist" { Type::list(el) } else { Type::set(el) }
                }
                (_, Type::List(el) | Type::Set(el)) => if name == "tolist" { Type::List(el) } else { Type::Set(el) },
                (_, Type::Dynamic) => if name == "tolist" { Type::list(Type::Dynamic) } else { Type::set(Type::Dynamic) },
                (_, t) => return Err(CallError::Arg(0, format!("cannot convert {} to {}.", t.friendly_name(), &name[2..]))),
            };
            convert(a, &target).map_err(|e| CallError::Arg(0, format!("{}.", e.message)))?
        }
        "length" => {
            arity(args, 1)?;
            let a = &args[0];
            match &a.kind {
                ValueKind::Unknown(_) => Value::unknown(Type::Number),
                ValueKind::Null(_) => return Err(CallError::Arg(0, "argument must not be null.".into())),
                ValueKind::String(s) => Value::int(s.chars().count() as i64),
                _ => match (a.as_elements(), a.as_entries()) {
                    (Some(es), _) => Value::int(es.len() as i64),
                    (_, Some(m)) => Value::int(m.len() as i64),
                    _ => return Err(CallError::Arg(0, "argument must be a string, a collection type, or a structural type.".into())),
                },
            }
        }
        "join" => {
            arity(args, 2)?;
            let sep = want_str(args, 0)?;
            match (sep, args[1].as_elements()) {
                (Some(sep), Some(es)) => {
                    let mut parts = Vec::new();
                    for e in es {
                        if e.is_unknown() {
                            return Ok(Value::unknown(Type::String).with_marks(marks));
                        }
                        match convert(&e.unmarked(), &Type::String) {
                            Ok(s) if !s.is_null() => parts.push(s.as_str().unwrap_or_default().to_string()),
                            _ => return Err(CallError::Arg(1, "element must be a string.".into())),
                        }
                    }
                    Value::string(parts.join(&sep))
                }
                _ if any_unknown => Value::unknown(Type::String),
                _ => return Err(CallError::Arg(1, "list of string required.".into())),
            }
        }
        "split" => {
            arity(args, 2)?;
            match (want_str(args, 0)?, want_str(args, 1)?) {
                (Some(sep), Some(s)) => {
                    let parts: Vec<Value> = if s.is_empty() {
                        vec![Value::string("")]
                    } else {
                        s.split(sep.as_str()).map(Value::string).collect()
                    };
                    Value::list(Type::String, parts)
                }
                _ => Value::unknown(Type::list(Type::String)),
            }
        }
        "replace" => {
            arity(args, 3)?;
            match (want_str(args, 0)?, want_str(args, 1)?, want_str(args, 2)?) {
                (Some(s), Some(from), Some(to)) => Value::string(s.replace(&from, &to)),
                _ => Value::unknown(Type::String),
            }
        }
        "abs" => {
            arity(args, 1)?;
            match want_num(args, 0)? {
                Some(n) if n < Number::from_i64(0) => Value::number(n.neg()),
                Some(n) => Value::number(n),
                None => Value::unknown(Type::Number),
            }
        }
        "max" | "min" => {
            if args.is_empty() {
                return Err(CallError::Failed("must pass at least one number".into()));
            }
            let mut best: Option<Number> = None;
            for i in 0..args.len() {
                match want_num(args, i)? {
                    None => return Ok(Value::unknown(Type::Number).with_marks(marks)),
                    Some(n) => {
                        best = Some(match best {
                            None => n,
                            Some(b) if (name == "max") == (n > b) => n,
                            Some(b) => b,
                        })
                    }
                }
            }
            Value::number(best.unwrap_or_else(|| Number::from_i64(0)))
        }
        "range" => {
            if args.is_empty() || args.len() > 3 {
                return Err(CallError::Failed("range expects one to three arguments".into()));
            }
            let mut nums = Vec::new();
            for i in 0..args.len() {
                match want_num(args, i)? {
                    Some(n) => nums.push(n),
                    None => return Ok(Value::unknown(Type::list(Type::Number))),
                }
            }
            let (start, end, step) = match nums.as_slice() {
                [e] => (Number::from_i64(0), e.clone(), Number::from_i64(1)),
                [s, e] => {
                    let step = if e < s { Number::from_i64(-1) } else { Number::from_i64(1) };
                    (s.clone(), e.clone(), step)
                }
                [s, e, st] => (s.clone(), e.clone(), st.clone()),
                _ => unreachable_range(),
            };
            let zero = Number::from_i64(0);
            if step == zero {
                return Err(CallError::Arg(2, "step must not be zero.".into()));
            }
            let mut out = Vec::new();
            let mut cur = start;
            while (step > zero && cur < end) || (step < zero && cur > end) {
                out.push(Value::number(cur.clone()));
                if out.len() > 1024 {
                    return Err(CallError::Failed("more than 1024 values were generated; either decrease the difference between start and end or use a smaller step".into()));
                }
                cur = cur.add(&step);
            }
            Value::list(Type::Number, out)
        }
        "concat" => {
            let mut out = Vec::new();
            for (i, a) in args.iter().enumerate() {
                if a.is_unknown() {
                    return Ok(Value::dynamic_unknown().with_marks(marks));
                }
                match a.as_elements() {
                    Some(es) => out.extend(es.iter().cloned()),
                    None => return Err(CallError::Arg(i, "all arguments must be lists or tuples.".into())),
                }
            }
            list_or_tuple(out)
        }
        "flatten" => {
            arity(args, 1)?;
            let mut out = Vec::new();
            if !flatten_into(&args[0], &mut out) {
                return Ok(Value::dynamic_unknown().with_marks(marks));
            }
            Value::tuple(out)
        }
        "distinct" => {
            arity(args, 1)?;
            match args[0].as_elements() {
                Some(es) => {
                    let mut out: Vec<Value> = Vec::new();
                    for e in es {
                        if !out.contains(e) {
                            out.push(e.clone());
                        }
                    }
                    list_or_tuple(out)
                }
                None if args[0].is_unknown() => Value::dynamic_unknown(),
                None => return Err(CallError::Arg(0, "list required.".into())),
            }
        }
        "contains" => {
            arity(args, 2)?;
            match args[0].as_elements() {
                Some(es) => {
                    let mut result = Value::bool(false);
                    for e in es {
                        let eq = ferro_value::ops::equals(e, &args[1]);
                        if eq.is_unknown() {
                            result = Value::unknown(Type::Bool);
                        } else if eq.as_bool() == Some(true) {
                            result = Value::bool(true);
                            break;
                        }
                    }
                    result
                }
                None if args[0].is_unknown() => Value::unknown(Type::Bool),
                None => return Err(CallError::Arg(0, "list, set or tuple required.".into())),
            }
        }
        "element" => {
            arity(args, 2)?;
            let idx = want_num(args, 1)?;
            match (args[0].as_elements(), idx) {
                (Some(es), Some(i)) => {
                    if es.is_empty() {
                        return Err(CallError::Failed("cannot use element function with an empty list".into()));
                    }
                    let i = i.to_i64().ok_or_else(|| CallError::Arg(1, "a whole number is required.".into()))?;
                    if i < 0 {
                        return Err(CallError::Arg(1, "cannot use element function with a negative index.".into()));
                    }
                    es[(i as usize) % es.len()].clone()
                }
                _ => Value::dynamic_unknown(),
            }
        }
        "keys" | "values" => {
            arity(args, 1)?;
            match args[0].as_entries() {
                Some(m) if name == "keys" => {
                    let ks: Vec<Value> = m.keys().map(|k| Value::string(k.as_str())).collect();
                    Value::list(Type::String, ks)
                }
                Some(m) => list_or_tuple(m.values().cloned().collect()),
                None if args[0].is_unknown() => Value::dynamic_unknown(),
                None => return Err(CallError::Arg(0, "map or object required.".into())),
            }
        }
        "lookup" => {
            if args.len() != 2 && args.len() != 3 {
                return Err(CallError::Failed("lookup takes two or three arguments".into()));
            }
            let key = want_str(args, 1)?;
            match (args[0].as_entries(), key) {
                (Some(m), Some(k)) => match m.get(&k) {
                    Some(v) => v.clone(),
                    None if args.len() == 3 => args[2].clone(),
                    None => return Err(CallError::Failed(format!("lookup failed to find key {k:?}"))),
                },
                _ => Value::dynamic_unknown(),
            }
        }
        "merge" => {
            let mut out = BTreeMap::new();
            for (i, a) in args.iter().enumerate() {
                if a.is_null() {
                    continue;
                }
                if a.is_unknown() {
                    return Ok(Value::dynamic_unknown().with_marks(marks));
                }
                match a.as_entries() {
                    Some(m) => out.extend(m.iter().map(|(k, v)| (k.clone(), v.clone()))),
                    None => return Err(CallError::Arg(i, "map or object required.".into())),
                }
            }
            Value::object(out)
        }
        "coalesce" => {
            for a in args {
                if a.is_unknown() {
                    return Ok(Value::dynamic_unknown().with_marks(marks));
                }
                if !a.is_null() && a.as_str() != Some("") {
                    return Ok(a.clone());
                }
            }
            return Err(CallError::Failed("no non-null, non-empty-string arguments".into()));
        }
        "format" => {
            if args.is_empty() {
                return Err(CallError::Failed("format requires at least one argument".into()));
            }
            if any_unknown {
                return Ok(Value::unknown(Type::String).with_marks(marks));
            }
            let fmt = want_str(args, 0)?.unwrap_or_default();
            Value::string(simple_format(&fmt, &args[1..])?)
        }
        "jsonencode" => {
            arity(args, 1)?;
            if !args[0].is_wholly_known() {
                return Ok(Value::unknown(Type::String).with_marks(marks));
            }
            let (plain, _) = args[0].deep_unmark();
            Value::string(json::value_to_plain_json(&plain).to_string())
        }
        "sensitive" => {
            arity(args, 1)?;
            return Ok(args[0].clone().mark_sensitive());
        }
        "nonsensitive" => {
            arity(args, 1)?;
            return Ok(args[0].unmarked());
        }
        _ => return Err(CallError::NoSuchFunction),
    };
    Ok(v.with_marks(marks))
}

fn unreachable_range() -> (Number, Number, Number) {
    (Number::from_i64(0), Number::from_i64(0), Number::from_i64(1))
}

fn list_or_tuple(vals: Vec<Value>) -> Value {
    if vals.is_empty() {
        return Value::tuple(vals);
    }
    match unify::unify_values(&vals) {
        Some((ty, vs)) if ty != Type::Dynamic => Value::list(ty, vs),
        _ => Value::tuple(vals),
    }
}

/// Returns false when an unknown list was met (the result is then unknown).
fn flatten_into(v: &Value, out: &mut Vec<Value>) -> bool {
    if v.is_unknown() {
        return false;
    }
    match &v.kind {
        ValueKind::List(..) | ValueKind::Set(..) | ValueKind::Tuple(..) => {
            for e in v.as_elements().unwrap_or_default() {
                if e.as_elements().is_some() || e.is_unknown() {
                    if !flatten_into(e, out) {
                        return false;
                    }
                } else {
                    out.push(e.clone());
                }
            }
            true
        }
        _ => {
            out.push(v.clone());
            true
        }
    }
}

/// `%s`, `%d`, `%v`, `%q` and `%%`; the full verb set comes with the complete library.
fn simple_format(fmt: &str, args: &[Value]) -> Result<String> {
    let mut out = String::new();
    let mut chars = fmt.chars();
    let mut next = 0usize;
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let verb = chars.next().ok_or_else(|| CallError::Failed("unterminated format verb".into()))?;
        if verb == '%' {
            out.push('%');
            continue;
        }
        let arg = args.get(next).ok_or_else(|| CallError::Failed(format!("not enough arguments for %{verb}")))?;
        next += 1;
        let s = convert(&arg.unmarked(), &Type::String).ok().and_then(|s| s.as_str().map(str::to_string));
        match verb {
            's' | 'v' => out.push_str(&s.unwrap_or_else(|| json::value_to_plain_json(&arg.deep_unmark().0).to_string())),
            'd' => match arg.as_number().and_then(Number::to_i64) {
                Some(i) => out.push_str(&i.to_string()),
                None => return Err(CallError::Arg(next, "an integer is required for %d.".into())),
            },
            'q' => out.push_str(&serde_json::Value::String(s.unwrap_or_default()).to_string()),
            other => return Err(CallError::Failed(format!("unsupported format verb %{other}"))),
        }
    }
    Ok(out)
}
