//! String functions: chomp, endswith, indent, join, lower, replace, split, startswith,
//! strcontains, strrev, substr, title, trim, trimprefix, trimsuffix, trimspace, upper.

use super::{arg_err, elems, fail, func, n, p, s, FnContext, Registry, Ret, R};
use ferro_value::{Type, Value};
use unicode_segmentation::UnicodeSegmentation;

fn str1(name: &'static str) -> Vec<super::Param> {
    vec![p(name, Type::String)]
}

pub(super) fn register(r: &mut Registry) {
    let st = || Ret::Fixed(Type::String);
    let bl = || Ret::Fixed(Type::Bool);
    r.insert(
        "upper",
        func(str1("str"), None, st(), |_, a, _| {
            Ok(Value::string(go_upper(s(&a[0]))))
        }),
    );
    r.insert(
        "lower",
        func(str1("str"), None, st(), |_, a, _| {
            Ok(Value::string(go_lower(s(&a[0]))))
        }),
    );
    r.insert(
        "trimspace",
        func(str1("str"), None, st(), |_, a, _| {
            Ok(Value::string(s(&a[0]).trim()))
        }),
    );
    r.insert(
        "chomp",
        func(str1("str"), None, st(), |_, a, _| {
            Ok(Value::string(s(&a[0]).trim_end_matches(['\n', '\r'])))
        }),
    );
    r.insert(
        "strrev",
        func(str1("str"), None, st(), |_, a, _| {
            Ok(Value::string(
                s(&a[0]).graphemes(true).rev().collect::<String>(),
            ))
        }),
    );
    r.insert(
        "title",
        func(str1("str"), None, st(), |_, a, _| {
            Ok(Value::string(title(s(&a[0]))))
        }),
    );
    r.insert(
        "indent",
        func(
            vec![p("spaces", Type::Number), p("str", Type::String)],
            None,
            st(),
            |_, a, _| {
                let k = match n(&a[0]).to_i64() {
                    Some(k) if n(&a[0]).is_integer() => k,
                    _ => {
                        return Err(super::fail(
                            "value must be a whole number, between -9223372036854775808 and \
                             9223372036854775807",
                        ))
                    }
                };
                // Terraform panics on a negative count; ferro reports it.
                let Ok(k) = usize::try_from(k) else {
                    return Err(super::fail("spaces must not be negative"));
                };
                let lines = s(&a[1]).matches('\n').count();
                // Terraform runs out of memory here; ferro refuses results beyond 256 MiB.
                if lines > 0 && k.saturating_mul(lines) > super::MAX_RESULT_BYTES {
                    return Err(super::fail(format!(
                        "indenting by {k} spaces would make a string longer than {} bytes",
                        super::MAX_RESULT_BYTES
                    )));
                }
                let pad = " ".repeat(k);
                Ok(Value::string(s(&a[1]).replace('\n', &format!("\n{pad}"))))
            },
        ),
    );
    r.insert(
        "trim",
        func(
            vec![p("str", Type::String), p("cutset", Type::String)],
            None,
            st(),
            |_, a, _| {
                let set: Vec<char> = s(&a[1]).chars().collect();
                Ok(Value::string(s(&a[0]).trim_matches(|c| set.contains(&c))))
            },
        ),
    );
    r.insert(
        "trimprefix",
        func(
            vec![p("str", Type::String), p("prefix", Type::String)],
            None,
            st(),
            |_, a, _| {
                Ok(Value::string(
                    s(&a[0]).strip_prefix(s(&a[1])).unwrap_or(s(&a[0])),
                ))
            },
        ),
    );
    r.insert(
        "trimsuffix",
        func(
            vec![p("str", Type::String), p("suffix", Type::String)],
            None,
            st(),
            |_, a, _| {
                Ok(Value::string(
                    s(&a[0]).strip_suffix(s(&a[1])).unwrap_or(s(&a[0])),
                ))
            },
        ),
    );
    r.insert(
        "startswith",
        func(
            vec![p("str", Type::String), p("prefix", Type::String)],
            None,
            bl(),
            |_, a, _| Ok(Value::bool(s(&a[0]).starts_with(s(&a[1])))),
        ),
    );
    r.insert(
        "endswith",
        func(
            vec![p("str", Type::String), p("suffix", Type::String)],
            None,
            bl(),
            |_, a, _| Ok(Value::bool(s(&a[0]).ends_with(s(&a[1])))),
        ),
    );
    r.insert(
        "strcontains",
        func(
            vec![p("str", Type::String), p("substr", Type::String)],
            None,
            bl(),
            |_, a, _| Ok(Value::bool(s(&a[0]).contains(s(&a[1])))),
        ),
    );
    r.insert(
        "substr",
        func(
            vec![
                p("str", Type::String),
                p("offset", Type::Number),
                p("length", Type::Number),
            ],
            None,
            st(),
            substr,
        ),
    );
    r.insert(
        "split",
        func(
            vec![p("separator", Type::String), p("str", Type::String)],
            None,
            Ret::Fixed(Type::list(Type::String)),
            |_, a, _| {
                let (sep, text) = (s(&a[0]), s(&a[1]));
                let parts: Vec<Value> = if sep.is_empty() {
                    text.chars().map(|c| Value::string(c.to_string())).collect()
                } else {
                    text.split(sep).map(Value::string).collect()
                };
                Ok(Value::list(Type::String, parts))
            },
        ),
    );
    r.insert(
        "join",
        func(
            vec![p("separator", Type::String)],
            Some(p("lists", Type::list(Type::String))),
            st(),
            join,
        ),
    );
    r.insert(
        "replace",
        func(
            vec![
                p("str", Type::String),
                p("substr", Type::String),
                p("replace", Type::String),
            ],
            None,
            st(),
            replace,
        ),
    );
}

/// Go's `strings.ToUpper`: one-to-one case mapping (no `ß` to `SS`).
fn go_upper(text: &str) -> String {
    text.chars()
        .map(|c| {
            let mut u = c.to_uppercase();
            match (u.next(), u.next()) {
                (Some(x), None) => x,
                _ => c,
            }
        })
        .collect()
}

/// Go's `strings.ToLower`: one-to-one case mapping.
fn go_lower(text: &str) -> String {
    text.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}

fn title(text: &str) -> String {
    // Go's strings.Title: upper-case letters that follow a separator.
    let is_sep = |c: char| {
        if c.is_ascii() {
            !(c.is_ascii_alphanumeric() || c == '_')
        } else if c.is_alphanumeric() {
            false
        } else {
            c.is_whitespace()
        }
    };
    let mut out = String::with_capacity(text.len());
    let mut prev = ' ';
    for c in text.chars() {
        if is_sep(prev) {
            out.extend(c.to_uppercase());
        } else {
            out.push(c);
        }
        prev = c;
    }
    out
}

fn substr(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let text = s(&a[0]);
    let mut offset = super::collection::whole(&a[1])?;
    let mut length = super::collection::whole(&a[2])?;
    let gs: Vec<&str> = text.graphemes(true).collect();
    let total = gs.len() as i64;
    if offset < 0 {
        offset = (offset + total).max(0);
    }
    if offset > total {
        return Ok(Value::string(""));
    }
    if length < 0 {
        length = total - offset;
    }
    let end = (offset + length).min(total);
    Ok(Value::string(
        gs[offset as usize..end.max(offset) as usize].concat(),
    ))
}

fn join(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let sep = s(&a[0]);
    let lists = &a[1..];
    if lists.is_empty() {
        return Err(fail("at least one list is required"));
    }
    let mut parts: Vec<&str> = Vec::new();
    for (li, l) in lists.iter().enumerate() {
        for (ei, e) in elems(l).iter().enumerate() {
            if e.is_unknown() {
                return Ok(Value::unknown(Type::String));
            }
            if e.is_null() {
                return Err(arg_err(
                    li + 1,
                    format!("element {ei} is null; cannot concatenate null values"),
                ));
            }
            parts.push(s(e));
        }
    }
    Ok(Value::string(parts.join(sep)))
}

fn replace(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let (text, sub, rep) = (s(&a[0]), s(&a[1]), s(&a[2]));
    if sub.len() > 1 && sub.starts_with('/') && sub.ends_with('/') {
        let pattern = &sub[1..sub.len() - 1];
        let re = super::regex_fns::compile(pattern).map_err(|e| arg_err(1, e))?;
        return Ok(Value::string(super::regex_fns::replace_all(&re, text, rep)));
    }
    Ok(Value::string(text.replace(sub, rep)))
}

/// Number of grapheme clusters (what `length` counts for strings).
pub(crate) fn grapheme_len(text: &str) -> usize {
    text.graphemes(true).count()
}
