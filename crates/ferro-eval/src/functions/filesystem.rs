//! Filesystem functions: abspath, basename, dirname, file, filebase64, fileexists, fileset,
//! pathexpand, templatefile. Relative paths start at the module directory ([`FnContext`]).

use super::{arg_err, fail, func, p, s, FnContext, Registry, Ret, R};
use ferro_value::{Type, Value, ValueKind};
use std::path::Path;

pub(super) fn register(r: &mut Registry) {
    let path = || vec![p("path", Type::String)];
    let st = || Ret::Fixed(Type::String);
    r.insert(
        "abspath",
        func(path(), None, st(), |_, a, _| {
            let given = s(&a[0]);
            let full = if given.starts_with('/') {
                given.to_string()
            } else {
                let cwd = std::env::current_dir()
                    .map(|d| d.to_string_lossy().into_owned())
                    .unwrap_or_else(|_| "/".into());
                format!("{cwd}/{given}")
            };
            Ok(Value::string(clean(&full)))
        }),
    );
    r.insert(
        "dirname",
        func(path(), None, st(), |_, a, _| {
            Ok(Value::string(dirname(s(&a[0]))))
        }),
    );
    r.insert(
        "basename",
        func(path(), None, st(), |_, a, _| {
            Ok(Value::string(basename(s(&a[0]))))
        }),
    );
    r.insert(
        "pathexpand",
        func(path(), None, st(), |_, a, _| {
            let given = s(&a[0]);
            let home = std::env::var("HOME").unwrap_or_default();
            let out = if given == "~" {
                home
            } else if let Some(rest) = given.strip_prefix("~/") {
                format!("{}/{rest}", home.trim_end_matches('/'))
            } else {
                given.to_string()
            };
            Ok(Value::string(out))
        }),
    );
    r.insert("file", func(path(), None, st(), |c, a, _| {
        let bytes = read(c, s(&a[0]))?;
        match String::from_utf8(bytes) {
            Ok(text) => Ok(Value::string(text)),
            Err(_) => Err(fail(format!(
                "contents of {} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead",
                s(&a[0])
            ))),
        }
    }));
    r.insert(
        "filebase64",
        func(path(), None, st(), |c, a, _| {
            Ok(Value::string(super::encoding::b64_encode(&read(
                c,
                s(&a[0]),
            )?)))
        }),
    );
    r.insert(
        "fileexists",
        func(path(), None, Ret::Fixed(Type::Bool), |c, a, _| {
            let full = c.resolve(&expand_home(s(&a[0])));
            (c.on_read)(&full);
            match std::fs::metadata(&full) {
                Ok(m) if m.is_file() => Ok(Value::bool(true)),
                Ok(m) => Err(fail(format!(
                    "{} is not a regular file, but {}",
                    clean(s(&a[0])),
                    go_q(&go_file_mode(&m))
                ))),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Value::bool(false)),
                Err(_) => Err(fail(format!("failed to stat {}", clean(s(&a[0]))))),
            }
        }),
    );
    r.insert(
        "fileset",
        func(
            vec![p("path", Type::String), p("pattern", Type::String)],
            None,
            Ret::Fixed(Type::set(Type::String)),
            fileset,
        ),
    );
    r.insert(
        "templatefile",
        func(
            vec![p("path", Type::String), p("vars", Type::Dynamic).dynamic()],
            None,
            Ret::Fixed(Type::Dynamic),
            templatefile,
        ),
    );
    r.insert(
        "templatestring",
        func(
            vec![
                p("template", Type::String),
                p("vars", Type::Dynamic).dynamic(),
            ],
            None,
            Ret::Fixed(Type::Dynamic),
            templatestring,
        ),
    );
}

fn go_q(text: &str) -> String {
    super::numeric::go_quote(text)
}

fn expand_home(p: &str) -> String {
    if let Some(rest) = p.strip_prefix("~/") {
        let home = std::env::var("HOME").unwrap_or_default();
        return format!("{}/{rest}", home.trim_end_matches('/'));
    }
    p.to_string()
}

/// Read a file for the file functions, with Terraform's error for a missing one.
pub(crate) fn read(c: &FnContext<'_>, given: &str) -> R<Vec<u8>> {
    let full = c.resolve(&expand_home(given));
    (c.on_read)(&full);
    match std::fs::read(&full) {
        Ok(b) => Ok(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(arg_err(0, format!(
            "no file exists at {}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource",
            given
        ))),
        Err(_) if full.is_dir() => Err(arg_err(0, format!("failed to read {given}"))),
        Err(e) => Err(arg_err(0, format!("open {}: {}", clean(given), go_errno(&e)))),
    }
}

/// The text Go gives an OS error ("file name too long"): the system's description without
/// Rust's "(os error N)", starting in lower case.
fn go_errno(e: &std::io::Error) -> String {
    let text = e.to_string();
    let text = text.split(" (os error").next().unwrap_or(&text);
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Read a file for the file hashing functions, with the Go error Terraform shows.
pub(crate) fn read_for_hash(c: &FnContext<'_>, given: &str) -> R<Vec<u8>> {
    let shown = clean(given);
    let full = c.resolve(&expand_home(given));
    (c.on_read)(&full);
    match std::fs::read(&full) {
        Ok(b) => Ok(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(fail(format!("open {shown}: no such file or directory")))
        }
        Err(_) if full.is_dir() => Err(fail(format!("read {shown}: is a directory"))),
        Err(e) => Err(fail(format!("open {shown}: {}", go_errno(&e)))),
    }
}

/// Go's `FileMode.String()` for what `fileexists` finds instead of a file.
fn go_file_mode(m: &std::fs::Metadata) -> String {
    use std::os::unix::fs::PermissionsExt;
    let kind = if m.is_dir() {
        'd'
    } else if m.file_type().is_symlink() {
        'L'
    } else {
        '-'
    };
    let bits = m.permissions().mode();
    let mut out = String::from(kind);
    for (i, c) in "rwxrwxrwx".chars().enumerate() {
        out.push(if bits & (1 << (8 - i)) != 0 { c } else { '-' });
    }
    out
}

/// Go's `filepath.Clean` for slash-separated paths.
pub(crate) fn clean(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let body = parts.join("/");
    match (rooted, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".into(),
        (false, false) => body,
    }
}

fn dirname(path: &str) -> String {
    let i = path.rfind('/').map(|i| i + 1).unwrap_or(0);
    clean(&path[..i])
}

fn basename(path: &str) -> String {
    if path.is_empty() {
        return ".".into();
    }
    let trimmed = path.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".into();
    }
    match trimmed.rfind('/') {
        Some(i) => trimmed[i + 1..].to_string(),
        None => trimmed.to_string(),
    }
}

fn fileset(c: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let base = s(&a[0]);
    let pattern = s(&a[1]);
    let root = c.resolve(base);
    let mut found = Vec::new();
    walk(&root, "", &mut found);
    let mut out = Vec::new();
    for rel in found {
        match glob_match(pattern, &rel) {
            Ok(true) => out.push(Value::string(rel)),
            Ok(false) => {}
            Err(e) => return Err(fail(format!("failed to glob pattern ({pattern}): {e}"))),
        }
    }
    if let Err(e) = glob_match(pattern, "") {
        return Err(fail(format!("failed to glob pattern ({pattern}): {e}")));
    }
    Ok(Value::set(Type::String, out))
}

fn walk(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut names: Vec<(String, bool)> = entries
        .filter_map(|e| e.ok())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.path().is_dir(),
            )
        })
        .collect();
    names.sort();
    for (name, is_dir) in names {
        let rel = if prefix.is_empty() {
            name.clone()
        } else {
            format!("{prefix}/{name}")
        };
        if is_dir {
            walk(&dir.join(&name), &rel, out);
        } else {
            out.push(rel);
        }
    }
}

/// Glob matching with `*`, `?`, `[...]`, `{a,b}` and `**` (any number of directories).
pub(crate) fn glob_match(pattern: &str, path: &str) -> Result<bool, String> {
    // Expand alternatives first.
    if let Some(open) = pattern.find('{') {
        let close = pattern[open..]
            .find('}')
            .map(|c| c + open)
            .ok_or("syntax error in pattern")?;
        let (head, body, tail) = (
            &pattern[..open],
            &pattern[open + 1..close],
            &pattern[close + 1..],
        );
        for alt in body.split(',') {
            if glob_match(&format!("{head}{alt}{tail}"), path)? {
                return Ok(true);
            }
        }
        return Ok(false);
    }
    let pat: Vec<&str> = pattern.split('/').collect();
    let segs: Vec<&str> = if path.is_empty() {
        vec![]
    } else {
        path.split('/').collect()
    };
    match_segments(&pat, &segs)
}

fn match_segments(pat: &[&str], segs: &[&str]) -> Result<bool, String> {
    match pat.first() {
        None => Ok(segs.is_empty()),
        Some(&"**") => {
            for k in 0..=segs.len() {
                if match_segments(&pat[1..], &segs[k..])? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Some(p) => {
            match segs.first() {
                None => Ok(false),
                Some(sg) => Ok(match_one(p.as_bytes(), sg.as_bytes())?
                    && match_segments(&pat[1..], &segs[1..])?),
            }
        }
    }
}

fn match_one(p: &[u8], t: &[u8]) -> Result<bool, String> {
    match p.first() {
        None => Ok(t.is_empty()),
        Some(b'*') => {
            for k in 0..=t.len() {
                if match_one(&p[1..], &t[k..])? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        Some(b'?') => Ok(!t.is_empty() && match_one(&p[1..], &t[1..])?),
        Some(b'[') => {
            let close = p
                .iter()
                .skip(1)
                .position(|&b| b == b']')
                .map(|i| i + 1)
                .ok_or("syntax error in pattern")?;
            let class = &p[1..close];
            let Some(&c) = t.first() else {
                return Ok(false);
            };
            let (neg, class) = match class.first() {
                Some(b'^' | b'!') => (true, &class[1..]),
                _ => (false, class),
            };
            let mut hit = false;
            let mut i = 0;
            while i < class.len() {
                if i + 2 < class.len() && class[i + 1] == b'-' {
                    if class[i] <= c && c <= class[i + 2] {
                        hit = true;
                    }
                    i += 3;
                } else {
                    if class[i] == c {
                        hit = true;
                    }
                    i += 1;
                }
            }
            Ok(hit != neg && match_one(&p[close + 1..], &t[1..])?)
        }
        Some(b'\\') if p.len() > 1 => Ok(t.first() == Some(&p[1]) && match_one(&p[2..], &t[1..])?),
        Some(&c) => Ok(t.first() == Some(&c) && match_one(&p[1..], &t[1..])?),
    }
}

/// The variables a template function binds: None when the map is not known yet.
fn template_vars(vars: &Value) -> R<Option<Vec<(String, Value)>>> {
    match &vars.kind {
        ValueKind::Map(_, m) | ValueKind::Object(m) => Ok(Some(
            m.iter().map(|(k, v)| (k.to_string(), v.clone())).collect(),
        )),
        ValueKind::Unknown(_) => Ok(None),
        _ => Err(arg_err(1, "invalid vars value: must be a map")),
    }
}

/// `templatestring(template, vars)` (Terraform 1.9): render a template held in a string value.
fn templatestring(c: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let text = s(&a[0]).to_string();
    let Some(bindings) = template_vars(&a[1])? else {
        return Ok(Value::dynamic_unknown());
    };
    if c.depth > 8 {
        return Err(fail(
            "cannot recursively call templatestring from inside another template function",
        ));
    }
    crate::eval::eval_template_text(c, "<templatestring>", &text, bindings)
}

fn templatefile(c: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let given = s(&a[0]);
    let bytes = read(c, given)?;
    let text = String::from_utf8(bytes)
        .map_err(|_| fail(format!("contents of {given} are not valid UTF-8")))?;
    let Some(bindings) = template_vars(&a[1])? else {
        return Ok(Value::dynamic_unknown());
    };
    if c.depth > 8 {
        return Err(fail(
            "cannot recursively call templatefile from inside templatefile call",
        ));
    }
    crate::eval::eval_template_text(c, given, &text, bindings)
}
