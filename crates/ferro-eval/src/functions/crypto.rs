//! Hash and crypto functions: md5, sha1, sha256, sha512, base64sha256, base64sha512, bcrypt,
//! their file* variants, uuid and uuidv5.

use super::encoding::b64_encode;
use super::{arg_err, fail, func, n, p, s, FnContext, Registry, Ret, R};
use ferro_value::{Type, Value};
use md5::Md5;
use sha1::Sha1;
use sha2::{Digest, Sha256, Sha512};

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn digest<D: Digest>(data: &[u8]) -> Vec<u8> {
    D::digest(data).to_vec()
}

type HashFn = fn(&[u8]) -> Vec<u8>;

fn hasher(name: &str) -> (HashFn, bool) {
    // (digest, base64 output?)
    match name {
        "md5" | "filemd5" => (digest::<Md5>, false),
        "sha1" | "filesha1" => (digest::<Sha1>, false),
        "sha256" | "filesha256" => (digest::<Sha256>, false),
        "sha512" | "filesha512" => (digest::<Sha512>, false),
        "base64sha256" | "filebase64sha256" => (digest::<Sha256>, true),
        _ => (digest::<Sha512>, true),
    }
}

fn out(name: &str, data: &[u8]) -> Value {
    let (h, b64) = hasher(name);
    let d = h(data);
    Value::string(if b64 { b64_encode(&d) } else { hex(&d) })
}

pub(super) fn register(r: &mut Registry) {
    let st = || Ret::Fixed(Type::String);
    r.insert(
        "md5",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            Ok(out("md5", s(&a[0]).as_bytes()))
        }),
    );
    r.insert(
        "sha1",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            Ok(out("sha1", s(&a[0]).as_bytes()))
        }),
    );
    r.insert(
        "sha256",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            Ok(out("sha256", s(&a[0]).as_bytes()))
        }),
    );
    r.insert(
        "sha512",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            Ok(out("sha512", s(&a[0]).as_bytes()))
        }),
    );
    r.insert(
        "base64sha256",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            Ok(out("base64sha256", s(&a[0]).as_bytes()))
        }),
    );
    r.insert(
        "base64sha512",
        func(vec![p("str", Type::String)], None, st(), |_, a, _| {
            Ok(out("base64sha512", s(&a[0]).as_bytes()))
        }),
    );
    r.insert(
        "filemd5",
        func(vec![p("path", Type::String)], None, st(), |c, a, _| {
            Ok(out("md5", &super::filesystem::read_for_hash(c, s(&a[0]))?))
        }),
    );
    r.insert(
        "filesha1",
        func(vec![p("path", Type::String)], None, st(), |c, a, _| {
            Ok(out("sha1", &super::filesystem::read_for_hash(c, s(&a[0]))?))
        }),
    );
    r.insert(
        "filesha256",
        func(vec![p("path", Type::String)], None, st(), |c, a, _| {
            Ok(out(
                "sha256",
                &super::filesystem::read_for_hash(c, s(&a[0]))?,
            ))
        }),
    );
    r.insert(
        "filesha512",
        func(vec![p("path", Type::String)], None, st(), |c, a, _| {
            Ok(out(
                "sha512",
                &super::filesystem::read_for_hash(c, s(&a[0]))?,
            ))
        }),
    );
    r.insert(
        "filebase64sha256",
        func(vec![p("path", Type::String)], None, st(), |c, a, _| {
            Ok(out(
                "base64sha256",
                &super::filesystem::read_for_hash(c, s(&a[0]))?,
            ))
        }),
    );
    r.insert(
        "filebase64sha512",
        func(vec![p("path", Type::String)], None, st(), |c, a, _| {
            Ok(out(
                "base64sha512",
                &super::filesystem::read_for_hash(c, s(&a[0]))?,
            ))
        }),
    );
    r.insert(
        "bcrypt",
        func(
            vec![p("str", Type::String)],
            Some(p("cost", Type::Number)),
            st(),
            bcrypt_fn,
        ),
    );
    r.insert(
        "uuid",
        func(vec![], None, st(), |_, _, _| {
            let mut b = random_bytes::<16>()?;
            b[6] = (b[6] & 0x0f) | 0x40;
            b[8] = (b[8] & 0x3f) | 0x80;
            Ok(Value::string(format_uuid(&b)))
        }),
    );
    r.insert(
        "uuidv5",
        func(
            vec![p("namespace", Type::String), p("name", Type::String)],
            None,
            st(),
            uuidv5,
        ),
    );
}

fn random_bytes<const N: usize>() -> R<[u8; N]> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(|e| fail(format!("cannot read random bytes: {e}")))?;
    Ok(b)
}

fn format_uuid(b: &[u8]) -> String {
    let h = hex(b);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

fn parse_uuid(text: &str) -> Option<Vec<u8>> {
    let t = text.strip_prefix("urn:uuid:").unwrap_or(text);
    let t = t.trim_start_matches('{').trim_end_matches('}');
    let hexs: String = t.chars().filter(|c| *c != '-').collect();
    if hexs.len() != 32 || t.len() != 36 && t.len() != 32 {
        return None;
    }
    (0..16)
        .map(|i| u8::from_str_radix(&hexs[2 * i..2 * i + 2], 16).ok())
        .collect()
}

fn uuidv5(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let ns_text = match s(&a[0]) {
        "dns" => "6ba7b810-9dad-11d1-80b4-00c04fd430c8",
        "url" => "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
        "oid" => "6ba7b812-9dad-11d1-80b4-00c04fd430c8",
        "x500" => "6ba7b814-9dad-11d1-80b4-00c04fd430c8",
        other => other,
    };
    let Some(ns) = parse_uuid(ns_text) else {
        return Err(fail(format!(
            "uuidv5() doesn't support namespace {} (invalid UUID length: {})",
            s(&a[0]),
            s(&a[0]).len()
        )));
    };
    let mut h = Sha1::new();
    h.update(&ns);
    h.update(s(&a[1]).as_bytes());
    let d = h.finalize();
    let mut b = d[..16].to_vec();
    b[6] = (b[6] & 0x0f) | 0x50;
    b[8] = (b[8] & 0x3f) | 0x80;
    Ok(Value::string(format_uuid(&b)))
}

fn bcrypt_fn(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let cost = match a.len() {
        1 => 10,
        2 => {
            let c = n(&a[1]);
            match c.to_i64() {
                Some(k) if c.is_integer() => k,
                _ => return Err(arg_err(1, "cost must be a whole number")),
            }
        }
        _ => {
            return Err(fail(format!(
                "bcrypt() takes no more than two arguments, but got {}",
                a.len()
            )))
        }
    };
    // Go's bcrypt uses its default cost below the minimum.
    let cost = if cost < 4 { 10 } else { cost };
    if cost > 31 {
        return Err(fail(format!("error occured generating password crypto/bcrypt: cost {cost} is outside allowed range (4,31)")));
    }
    let salt = random_bytes::<16>()?;
    let parts = bcrypt::hash_with_salt(s(&a[0]).as_bytes(), cost as u32, salt)
        .map_err(|e| fail(format!("error occured generating password {e}")))?;
    Ok(Value::string(
        parts.format_for_version(bcrypt::Version::TwoA),
    ))
}
