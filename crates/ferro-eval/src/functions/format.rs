//! `format` and `formatlist`: Go-style verbs (`%d %f %e %g %s %q %v %t %x %X %o %b`, flags,
//! width, precision, `%%`, explicit argument indexes `%[2]d`) with cty's value handling.

use super::{arg_err, elems, fail, func, p, s, FnContext, Registry, Ret, R};
use ferro_value::convert::convert;
use ferro_value::{json, Number, Type, Value, ValueKind};

pub(super) fn register(r: &mut Registry) {
    r.insert(
        "format",
        func(vec![p("format", Type::String)], Some(p("args", Type::Dynamic).null().unknown()), Ret::Fixed(Type::String), format_fn),
    );
    r.insert(
        "formatlist",
        func(
            vec![p("format", Type::String)],
            Some(p("args", Type::Dynamic).null().unknown()),
            Ret::Fixed(Type::list(Type::String)),
            formatlist_fn,
        ),
    );
}

fn format_fn(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let args = &a[1..];
    if args.iter().any(|v| !v.is_wholly_known()) {
        return Ok(Value::unknown(Type::String));
    }
    let plain: Vec<Value> = args.iter().map(|v| v.deep_unmark().0).collect();
    Ok(Value::string(format_str(s(&a[0]), &plain)?))
}

fn formatlist_fn(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let fmt = s(&a[0]);
    let args = &a[1..];
    let mut iter_len: Option<usize> = None;
    let mut unknown = false;
    for (i, v) in args.iter().enumerate() {
        if v.is_unknown() {
            unknown = true;
            continue;
        }
        let is_seq = matches!(v.kind, ValueKind::List(..) | ValueKind::Tuple(_) | ValueKind::Set(..));
        if !is_seq || v.is_null() {
            continue;
        }
        let len = elems(v).len();
        match iter_len {
            None => iter_len = Some(len),
            Some(l) if l != len => {
                return Err(arg_err(
                    i + 1,
                    format!("argument {} has length {len}, which is inconsistent with argument {} of length {l}", i + 1, first_seq(args) + 1),
                ))
            }
            _ => {}
        }
    }
    if unknown {
        return Ok(Value::unknown(Type::list(Type::String)));
    }
    let Some(count) = iter_len else {
        // No lists: a single-element list.
        let plain: Vec<Value> = args.iter().map(|v| v.deep_unmark().0).collect();
        let text = format_str(fmt, &plain).map_err(|e| match e {
            super::CallError::Failed(m) => fail(format!("error on format iteration 0: {m}")),
            super::CallError::Arg { message, .. } => fail(format!("error on format iteration 0: {message}")),
            other => other,
        })?;
        return Ok(Value::list(Type::String, vec![Value::string(text)]));
    };
    let mut out = Vec::with_capacity(count);
    for idx in 0..count {
        let mut row = Vec::with_capacity(args.len());
        for v in args {
            let is_seq = matches!(v.kind, ValueKind::List(..) | ValueKind::Tuple(_) | ValueKind::Set(..));
            let item = if is_seq { elems(v)[idx].clone() } else { v.clone() };
            if !item.is_wholly_known() {
                row.clear();
                break;
            }
            row.push(item.deep_unmark().0);
        }
        if row.len() != args.len() {
            out.push(Value::unknown(Type::String));
            continue;
        }
        let text = format_str(fmt, &row).map_err(|e| match e {
            super::CallError::Failed(m) => fail(format!("error on format iteration {idx}: {m}")),
            super::CallError::Arg { message, .. } => fail(format!("error on format iteration {idx}: {message}")),
            other => other,
        })?;
        out.push(Value::string(text));
    }
    Ok(Value::list(Type::String, out))
}

fn first_seq(args: &[Value]) -> usize {
    args.iter().position(|v| matches!(v.kind, ValueKind::List(..) | ValueKind::Tuple(_) | ValueKind::Set(..))).unwrap_or(0)
}

#[derive(Default, Debug)]
struct Verb {
    raw: String,
    offset: usize,
    plus: bool,
    minus: bool,
    sharp: bool,
    space: bool,
    zero: bool,
    width: Option<usize>,
    prec: Option<usize>,
    mode: char,
    arg: usize,
}

/// Format `fmt` with (known, unmarked) `args`.
pub(crate) fn format_str(fmt: &str, args: &[Value]) -> R<String> {
    let mut out = String::new();
    let chars: Vec<(usize, char)> = fmt.char_indices().collect();
    let mut i = 0;
    let mut next_arg = 0usize;
    let mut used_max = 0usize;
    let mut verbs = 0usize;
    while i < chars.len() {
        let (off, c) = chars[i];
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if i < chars.len() && chars[i].1 == '%' {
            out.push('%');
            i += 1;
            continue;
        }
        let mut v = Verb { offset: off, ..Verb::default() };
        while i < chars.len() {
            match chars[i].1 {
                '+' => v.plus = true,
                '-' => v.minus = true,
                '#' => v.sharp = true,
                ' ' => v.space = true,
                '0' => v.zero = true,
                _ => break,
            }
            i += 1;
        }
        let mut explicit: Option<usize> = None;
        let read_index = |i: &mut usize, explicit: &mut Option<usize>| -> R<()> {
            if *i < chars.len() && chars[*i].1 == '[' {
                let mut j = *i + 1;
                let mut num = 0usize;
                let mut any = false;
                while j < chars.len() && chars[j].1.is_ascii_digit() {
                    num = num.saturating_mul(10).saturating_add(chars[j].1 as usize - '0' as usize);
                    any = true;
                    j += 1;
                }
                if !any || j >= chars.len() || chars[j].1 != ']' {
                    return Err(fail(format!("invalid format string starting at offset {off}")));
                }
                *explicit = Some(num);
                *i = j + 1;
            }
            Ok(())
        };
        read_index(&mut i, &mut explicit)?;
        let mut width = String::new();
        while i < chars.len() && chars[i].1.is_ascii_digit() {
            width.push(chars[i].1);
            i += 1;
        }
        if !width.is_empty() {
            v.width = width.parse().ok();
        }
        if i < chars.len() && chars[i].1 == '.' {
            i += 1;
            let mut prec = String::new();
            while i < chars.len() && chars[i].1.is_ascii_digit() {
                prec.push(chars[i].1);
                i += 1;
            }
            v.prec = Some(prec.parse().unwrap_or(0));
        }
        read_index(&mut i, &mut explicit)?;
        if i >= chars.len() {
            return Err(fail(format!("invalid format string starting at offset {off}")));
        }
        v.mode = chars[i].1;
        i += 1;
        v.raw = chars[start..i].iter().map(|(_, c)| *c).collect();
        if !"vtbdoxXeEfgGsq".contains(v.mode) {
            return Err(fail(format!("unsupported format verb {:?} in {:?} at offset {}", v.mode, v.raw, off)));
        }
        let argnum = match explicit {
            Some(k) => k,
            None => next_arg + 1,
        };
        next_arg = argnum;
        v.arg = argnum;
        verbs += 1;
        if argnum == 0 || argnum > args.len() {
            return Err(fail(format!("not enough arguments for {:?} at {}: need index {} but have {} total", v.raw, v.offset, argnum, args.len())));
        }
        used_max = used_max.max(argnum);
        let arg = &args[argnum - 1];
        let text = format_verb(&v, arg).map_err(|m| fail(format!("unsupported value for {:?} at {}: {m}", v.raw, v.offset)))?;
        out.push_str(&text);
    }
    if used_max < args.len() {
        if verbs == 0 {
            return Err(arg_err(1, "too many arguments; no verbs in format string"));
        }
        return Err(arg_err(1, format!("too many arguments; only {used_max} used by format string")));
    }
    Ok(out)
}

fn pad(v: &Verb, body: String, numeric_zero: bool) -> String {
    let len = body.chars().count();
    let Some(w) = v.width else { return body };
    if len >= w {
        return body;
    }
    let fill = w - len;
    if v.minus {
        return format!("{body}{}", " ".repeat(fill));
    }
    if v.zero && numeric_zero {
        // Zeros go after the sign.
        let (sign, rest) = match body.chars().next() {
            Some(c @ ('+' | '-' | ' ')) => (c.to_string(), body[1..].to_string()),
            _ => (String::new(), body),
        };
        return format!("{sign}{}{rest}", "0".repeat(fill));
    }
    if v.zero {
        return format!("{}{body}", "0".repeat(fill));
    }
    format!("{}{body}", " ".repeat(fill))
}

fn to_string_value(arg: &Value) -> Result<String, String> {
    match convert(arg, &Type::String) {
        Ok(sv) => Ok(s(&sv).to_string()),
        Err(e) => Err(e.message),
    }
}

fn format_verb(v: &Verb, arg: &Value) -> Result<String, String> {
    if arg.is_null() {
        if v.mode == 'v' {
            return Ok(pad(v, "null".into(), false));
        }
        return Err("null value cannot be formatted".into());
    }
    match v.mode {
        'v' => {
            if v.sharp || !arg.ty().is_primitive() {
                let j = json::value_to_plain_json(arg);
                return Ok(pad(v, json::to_go_json_string(&j), false));
            }
            match &arg.kind {
                ValueKind::Number(num) => Ok(format_float(&Verb { mode: 'g', prec: None, ..clone_flags(v) }, num)),
                _ => Ok(pad(v, to_string_value(arg)?, false)),
            }
        }
        's' => {
            let mut text = to_string_value(arg)?;
            if let Some(pr) = v.prec {
                text = text.chars().take(pr).collect();
            }
            Ok(pad(v, text, false))
        }
        'q' => {
            let text = to_string_value(arg)?;
            Ok(pad(v, super::numeric::go_quote(&text), false))
        }
        't' => match convert(arg, &Type::Bool) {
            Ok(b) => Ok(b.as_bool().unwrap_or(false).to_string()),
            Err(e) => Err(e.message),
        },
        _ => {
            let num = match convert(arg, &Type::Number) {
                Ok(nv) => nv.as_number().cloned().unwrap_or_default(),
                Err(e) => return Err(e.message),
            };
            match v.mode {
                'b' | 'd' | 'o' | 'x' | 'X' => format_int(v, &num),
                _ => Ok(format_float(v, &num)),
            }
        }
    }
}

fn format_int(v: &Verb, num: &Number) -> Result<String, String> {
    if !num.is_integer() {
        return Err("an integer is required".into());
    }
    let neg = num.signum() < 0;
    let base: u32 = match v.mode {
        'b' => 2,
        'o' => 8,
        'x' | 'X' => 16,
        _ => 10,
    };
    let mut digits = int_digits(&num.abs(), base);
    if v.mode == 'X' {
        digits = digits.to_uppercase();
    }
    if let Some(pr) = v.prec {
        if pr == 0 && num.is_zero() {
            digits.clear();
        }
        while digits.len() < pr {
            digits.insert(0, '0');
        }
    }
    let prefix = if v.sharp {
        match v.mode {
            'b' => "0b",
            'o' => "0",
            'x' => "0x",
            'X' => "0X",
            _ => "",
        }
    } else {
        ""
    };
    let sign = if neg {
        "-"
    } else if v.plus {
        "+"
    } else if v.space {
        " "
    } else {
        ""
    };
    let body = format!("{sign}{prefix}{digits}");
    // Go's big.Int pads with zeros only when there is no precision.
    let zero_ok = v.prec.is_none();
    if v.zero && zero_ok && !v.minus {
        if let Some(w) = v.width {
            let len = body.len();
            if len < w {
                return Ok(format!("{sign}{prefix}{}{digits}", "0".repeat(w - len)));
            }
        }
        return Ok(body);
    }
    Ok(pad(&Verb { zero: false, ..clone_verb(v) }, body, false))
}

fn clone_flags(v: &Verb) -> Verb {
    Verb { plus: v.plus, minus: v.minus, sharp: v.sharp, space: v.space, zero: v.zero, ..clone_verb(v) }
}

fn clone_verb(v: &Verb) -> Verb {
    Verb { raw: v.raw.clone(), mode: v.mode, width: v.width, prec: v.prec, minus: v.minus, ..Verb::default() }
}

/// The digits of a non-negative integer in `base`.
fn int_digits(num: &Number, base: u32) -> String {
    if base == 10 {
        return num.to_string();
    }
    if let Some(i) = num.to_i64() {
        return match base {
            2 => format!("{i:b}"),
            8 => format!("{i:o}"),
            _ => format!("{i:x}"),
        };
    }
    let b = Number::from_i64(base as i64);
    let mut x = num.clone();
    let mut out = Vec::new();
    while !x.is_zero() {
        let q = x.div(&b).map(|q| q.trunc()).unwrap_or_default();
        let r = x.sub(&q.mul(&b)).to_i64().unwrap_or(0) as u32;
        out.push(std::char::from_digit(r, base).unwrap_or('0'));
        x = q;
    }
    if out.is_empty() {
        out.push('0');
    }
    out.iter().rev().collect()
}

/// Decimal digits of a finite number: (negative, digits without leading/trailing zeros, dp)
/// meaning value = 0.DIGITS × 10^dp (Go's `decimal` representation).
fn decimal_parts(num: &Number) -> (bool, Vec<u8>, i64) {
    let text = num.to_string();
    let (neg, body) = match text.strip_prefix('-') {
        Some(r) => (true, r.to_string()),
        None => (false, text),
    };
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i.to_string(), f.to_string()),
        None => (body.clone(), String::new()),
    };
    let mut digits: Vec<u8> = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
    let mut dp = int.len() as i64;
    while digits.first() == Some(&0) {
        digits.remove(0);
        dp -= 1;
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
    if digits.is_empty() {
        dp = 0;
    }
    (neg, digits, dp)
}

/// Round `digits` to `n` digits, half to even (Go's big decimal rounding).
fn round_digits(digits: &mut Vec<u8>, dp: &mut i64, n: i64) {
    if n < 0 {
        digits.clear();
        return;
    }
    let n = n as usize;
    if n >= digits.len() {
        return;
    }
    let up = match digits[n].cmp(&5) {
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Equal => {
            if n + 1 < digits.len() {
                true
            } else {
                n > 0 && digits[n - 1] % 2 == 1
            }
        }
    };
    digits.truncate(n);
    if up {
        let mut i = n;
        loop {
            if i == 0 {
                digits.insert(0, 1);
                *dp += 1;
                break;
            }
            i -= 1;
            if digits[i] < 9 {
                digits[i] += 1;
                break;
            }
            digits[i] = 0;
        }
    }
    while digits.last() == Some(&0) {
        digits.pop();
    }
    if digits.is_empty() {
        *dp = 0;
    }
}

fn fmt_e(digits: &[u8], dp: i64, prec: usize, upper: bool) -> String {
    let mut out = String::new();
    let first = digits.first().copied().unwrap_or(0);
    out.push((b'0' + first) as char);
    if prec > 0 {
        out.push('.');
        for k in 1..=prec {
            out.push((b'0' + digits.get(k).copied().unwrap_or(0)) as char);
        }
    }
    let exp = if digits.is_empty() { 0 } else { dp - 1 };
    out.push(if upper { 'E' } else { 'e' });
    out.push(if exp < 0 { '-' } else { '+' });
    let e = exp.abs();
    if e < 10 {
        out.push('0');
    }
    out.push_str(&e.to_string());
    out
}

fn fmt_f(digits: &[u8], dp: i64, prec: usize) -> String {
    let mut out = String::new();
    if dp > 0 {
        for k in 0..dp as usize {
            out.push((b'0' + digits.get(k).copied().unwrap_or(0)) as char);
        }
    } else {
        out.push('0');
    }
    if prec > 0 {
        out.push('.');
        for k in 0..prec as i64 {
            let idx = dp + k;
            let d = if idx >= 0 { digits.get(idx as usize).copied().unwrap_or(0) } else { 0 };
            out.push((b'0' + d) as char);
        }
    }
    out
}

fn format_float(v: &Verb, num: &Number) -> String {
    let neg = num.signum() < 0;
    let body = if num.is_infinite() {
        "Inf".to_string()
    } else {
        let (_, mut digits, mut dp) = decimal_parts(num);
        match v.mode {
            'e' | 'E' => {
                let prec = v.prec.unwrap_or(6);
                round_digits(&mut digits, &mut dp, prec as i64 + 1);
                fmt_e(&digits, dp, prec, v.mode == 'E')
            }
            'f' => {
                let prec = v.prec.unwrap_or(6);
                let target = dp + prec as i64;
                round_digits(&mut digits, &mut dp, target);
                fmt_f(&digits, dp, prec)
            }
            _ => {
                let shortest = v.prec.is_none();
                let mut prec = match v.prec {
                    Some(0) => 1,
                    Some(p) => p,
                    None => digits.len().max(1),
                };
                if !shortest {
                    round_digits(&mut digits, &mut dp, prec as i64);
                }
                let mut eprec = prec;
                if eprec > digits.len() && digits.len() as i64 >= dp {
                    eprec = digits.len();
                }
                if shortest {
                    eprec = 6;
                }
                let exp = if digits.is_empty() { 0 } else { dp - 1 };
                if exp < -4 || exp >= eprec as i64 {
                    if prec > digits.len() {
                        prec = digits.len();
                    }
                    fmt_e(&digits, dp, prec.saturating_sub(1), v.mode == 'G')
                } else {
                    if prec as i64 > dp {
                        prec = digits.len();
                    }
                    fmt_f(&digits, dp, (prec as i64 - dp).max(0) as usize)
                }
            }
        }
    };
    let sign = if neg {
        "-"
    } else if v.plus || (num.is_infinite() && !neg) {
        "+"
    } else if v.space {
        " "
    } else {
        ""
    };
    let len = sign.len() + body.len();
    let fill = v.width.map(|w| w.saturating_sub(len)).unwrap_or(0);
    if v.zero && !num.is_infinite() {
        format!("{sign}{}{body}", "0".repeat(fill))
    } else if v.minus {
        format!("{sign}{body}{}", " ".repeat(fill))
    } else {
        format!("{}{sign}{body}", " ".repeat(fill))
    }
}
