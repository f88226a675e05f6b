//! Numeric functions: abs, ceil, floor, log, max, min, parseint, pow, signum.

use super::{arg_err, fail, func, n, p, s, Registry, Ret, R};
use ferro_value::{Number, Type, Value};

pub(super) fn register(r: &mut Registry) {
    let num = || p("num", Type::Number);
    r.insert(
        "abs",
        func(
            vec![num().marked()],
            None,
            Ret::Fixed(Type::Number),
            |_, a, _| Ok(Value::number(n(&a[0]).abs()).with_marks(a[0].marks)),
        ),
    );
    r.insert(
        "ceil",
        func(vec![num()], None, Ret::Fixed(Type::Number), |_, a, _| {
            Ok(Value::number(n(&a[0]).ceil()))
        }),
    );
    r.insert(
        "floor",
        func(vec![num()], None, Ret::Fixed(Type::Number), |_, a, _| {
            Ok(Value::number(n(&a[0]).floor()))
        }),
    );
    r.insert(
        "signum",
        func(vec![num()], None, Ret::Fixed(Type::Number), |_, a, _| {
            super::collection::whole(&a[0])?;
            Ok(Value::int(n(&a[0]).signum() as i64))
        }),
    );
    r.insert(
        "log",
        func(
            vec![num(), p("base", Type::Number)],
            None,
            Ret::Fixed(Type::Number),
            |_, a, _| {
                let x = n(&a[0]).to_f64();
                let b = n(&a[1]).to_f64();
                float_result(x.ln() / b.ln())
            },
        ),
    );
    r.insert(
        "pow",
        func(
            vec![num(), p("power", Type::Number)],
            None,
            Ret::Fixed(Type::Number),
            |_, a, _| {
                let x = n(&a[0]);
                let e = n(&a[1]);
                float_result(super::gopow::pow(x.to_f64(), e.to_f64()))
            },
        ),
    );
    r.insert(
        "max",
        func(
            vec![],
            Some(p("numbers", Type::Number).dynamic()),
            Ret::Fixed(Type::Number),
            |_, a, _| extreme(a, true),
        ),
    );
    r.insert(
        "min",
        func(
            vec![],
            Some(p("numbers", Type::Number).dynamic()),
            Ret::Fixed(Type::Number),
            |_, a, _| extreme(a, false),
        ),
    );
    r.insert(
        "parseint",
        func(
            vec![p("number", Type::Dynamic), p("base", Type::Number)],
            None,
            Ret::Fixed(Type::Number),
            parseint,
        ),
    );
}

fn float_result(f: f64) -> R<Value> {
    match Number::from_f64(f) {
        Some(x) => Ok(Value::number(x)),
        None => Err(fail("the result is not a number (NaN)")),
    }
}

fn extreme(a: &[Value], max: bool) -> R<Value> {
    if a.is_empty() {
        return Err(fail("must pass at least one number"));
    }
    let mut best = n(&a[0]);
    for v in &a[1..] {
        let x = n(v);
        if (max && x > best) || (!max && x < best) {
            best = x;
        }
    }
    Ok(Value::number(best))
}

fn parseint(_: &super::FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    if a[0].ty() != Type::String {
        return Err(arg_err(
            0,
            format!(
                "first argument must be a string, not {}",
                a[0].ty().friendly_name()
            ),
        ));
    }
    let text = s(&a[0]);
    let base_n = n(&a[1]);
    let base = match base_n.to_i64() {
        Some(b) if base_n.is_integer() => b,
        _ => return Err(arg_err(
            1,
            "value must be a whole number, between -9223372036854775808 and 9223372036854775807",
        )),
    };
    if !(2..=62).contains(&base) {
        return Err(arg_err(
            1,
            "base must be a whole number between 2 and 62 inclusive",
        ));
    }
    let bad = || {
        arg_err(
            0,
            format!("cannot parse {} as a base {} integer", go_quote(text), base),
        )
    };
    let (neg, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() {
        return Err(bad());
    }
    let mut acc = Number::zero();
    let b = Number::from_i64(base);
    for c in digits.chars() {
        let d = match c {
            '0'..='9' => c as i64 - '0' as i64,
            'a'..='z' => c as i64 - 'a' as i64 + 10,
            'A'..='Z' if base <= 36 => c as i64 - 'A' as i64 + 10,
            'A'..='Z' => c as i64 - 'A' as i64 + 36,
            _ => return Err(bad()),
        };
        if d >= base {
            return Err(bad());
        }
        acc = acc.mul(&b).add(&Number::from_i64(d));
    }
    Ok(Value::number(if neg && !acc.is_zero() {
        acc.neg()
    } else {
        acc
    }))
}

pub(crate) use ferro_value::json::go_quote;
