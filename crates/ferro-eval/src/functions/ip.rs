//! IP network functions: cidrhost, cidrnetmask, cidrsubnet, cidrsubnets (IPv4 and IPv6, with
//! the address arithmetic of hashicorp/go-cidr), and OpenTofu's cidrcontains.

use super::{arg_err, fail, func, n, p, s, FnContext, Registry, Ret, R};
use ferro_value::{Type, Value};
use std::net::Ipv6Addr;

/// A network: address bits, prefix length, and width (32 or 128).
#[derive(Clone, Copy)]
struct Net {
    addr: u128,
    len: u32,
    width: u32,
}

fn parse_v4(text: &str) -> Option<u128> {
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut v: u128 = 0;
    for part in parts {
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let x: u32 = part.parse().ok()?;
        if x > 255 {
            return None;
        }
        v = v << 8 | x as u128;
    }
    Some(v)
}

fn parse_cidr(text: &str) -> Result<Net, String> {
    let err = || format!("invalid CIDR expression: invalid CIDR address: {text}");
    let (ip, len) = text.split_once('/').ok_or_else(err)?;
    if len.is_empty() || !len.bytes().all(|b| b.is_ascii_digit()) || len.len() > 3 {
        return Err(err());
    }
    let len: u32 = len.parse().map_err(|_| err())?;
    let (addr, width) = match parse_v4(ip) {
        Some(a) => (a, 32),
        None => {
            let a: Ipv6Addr = ip.parse().map_err(|_| err())?;
            (u128::from(a), 128)
        }
    };
    if len > width {
        return Err(err());
    }
    Ok(Net {
        addr: addr & mask(len, width),
        len,
        width,
    })
}

fn mask(len: u32, width: u32) -> u128 {
    let all: u128 = if width == 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    };
    if len == 0 {
        0
    } else {
        all & !(all >> len)
    }
}

fn fmt_addr(a: u128, width: u32) -> String {
    if width == 32 {
        format!(
            "{}.{}.{}.{}",
            (a >> 24) & 255,
            (a >> 16) & 255,
            (a >> 8) & 255,
            a & 255
        )
    } else {
        Ipv6Addr::from(a).to_string()
    }
}

fn fmt_net(nt: &Net) -> String {
    format!("{}/{}", fmt_addr(nt.addr, nt.width), nt.len)
}

const WHOLE: &str =
    "value must be a whole number, between -9223372036854775808 and 9223372036854775807";

/// A host or network number (a big integer in Terraform: no range in the message).
fn big_int_of(v: &Value) -> R<i128> {
    let x = n(v);
    if !x.is_integer() {
        return Err(fail("value must be a whole number"));
    }
    x.to_string()
        .parse::<i128>()
        .map_err(|_| fail("value must be a whole number"))
}

fn int_of(v: &Value) -> R<i128> {
    let x = n(v);
    if !x.is_integer() {
        return Err(fail(WHOLE));
    }
    x.to_i64().map(i128::from).ok_or_else(|| fail(WHOLE))
}

pub(super) fn register(r: &mut Registry) {
    let st = || Ret::Fixed(Type::String);
    r.insert(
        "cidrhost",
        func(
            vec![p("prefix", Type::String), p("hostnum", Type::Number)],
            None,
            st(),
            cidrhost,
        ),
    );
    r.insert(
        "cidrnetmask",
        func(vec![p("prefix", Type::String)], None, st(), |_, a, _| {
            let nt = parse_cidr(s(&a[0])).map_err(fail)?;
            Ok(Value::string(fmt_addr(mask(nt.len, nt.width), nt.width)))
        }),
    );
    r.insert(
        "cidrsubnet",
        func(
            vec![
                p("prefix", Type::String),
                p("newbits", Type::Number),
                p("netnum", Type::Number),
            ],
            None,
            st(),
            cidrsubnet,
        ),
    );
    r.insert(
        "cidrcontains",
        func(
            vec![
                p("containing_prefix", Type::String),
                p("contained_ip_or_prefix", Type::String),
            ],
            None,
            Ret::Fixed(Type::Bool),
            cidrcontains,
        ),
    );
    r.insert(
        "cidrsubnets",
        func(
            vec![p("prefix", Type::String)],
            Some(p("newbits", Type::Number)),
            Ret::Fixed(Type::list(Type::String)),
            cidrsubnets,
        ),
    );
}

/// `cidrcontains(containing_prefix, contained_ip_or_prefix)` (OpenTofu 1.8): whether an
/// address, or every address of a prefix, lies inside the first prefix. Mixing IPv4 and IPv6
/// is an error rather than `false`.
fn cidrcontains(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let (prefix, addr) = (s(&a[0]), s(&a[1]));
    // The containing prefix's own error has no "invalid CIDR expression" preamble here.
    let containing = parse_cidr(prefix).map_err(|e| {
        fail(
            e.strip_prefix("invalid CIDR expression: ")
                .unwrap_or(&e)
                .to_string(),
        )
    })?;
    let (start, end, width) = match parse_ip(addr) {
        Some((ip, width)) => (ip, None, width),
        None => {
            let inner = parse_cidr(addr)
                .map_err(|_| fail(format!("invalid IP address or prefix: {addr}")))?;
            let last = inner.addr | !mask(inner.len, inner.width) & width_mask(inner.width);
            (inner.addr, Some(last), inner.width)
        }
    };
    if width != containing.width {
        return Err(fail(format!(
            "address family mismatch: {prefix} vs. {addr}"
        )));
    }
    let net_mask = mask(containing.len, containing.width);
    let inside = |ip: u128| ip & net_mask == containing.addr;
    Ok(Value::bool(inside(start) && end.is_none_or(inside)))
}

fn width_mask(width: u32) -> u128 {
    if width == 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// An address as Go's `net.ParseIP` reads it: IPv4 dotted, or IPv6 (an IPv4-mapped IPv6
/// address counts as IPv4, as Go's `To4` says).
fn parse_ip(text: &str) -> Option<(u128, u32)> {
    if let Some(v4) = parse_v4(text) {
        return Some((v4, 32));
    }
    if !text.contains(':') {
        return None;
    }
    let v6: Ipv6Addr = text.parse().ok()?;
    match v6.to_ipv4_mapped() {
        Some(v4) => Some((u32::from(v4) as u128, 32)),
        None => Some((u128::from(v6), 128)),
    }
}

fn cidrhost(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let num = big_int_of(&a[1])?;
    let nt = parse_cidr(s(&a[0])).map_err(fail)?;
    let host_bits = nt.width - nt.len;
    let max: i128 = if host_bits >= 127 {
        i128::MAX
    } else {
        (1i128 << host_bits) - 1
    };
    let hostnum = if num < 0 { max + num + 1 } else { num };
    if hostnum < 0 || hostnum > max {
        return Err(fail(format!(
            "prefix of {} does not accommodate a host numbered {}",
            nt.len, hostnum
        )));
    }
    Ok(Value::string(fmt_addr(nt.addr | hostnum as u128, nt.width)))
}

fn cidrsubnet(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let nt = parse_cidr(s(&a[0])).map_err(fail)?;
    let newbits = int_of(&a[1])?;
    let netnum = big_int_of(&a[2])?;
    // A negative extension shortens the prefix, as go-cidr computes it.
    let Ok(new_len) = u32::try_from(i128::from(nt.len) + newbits) else {
        return Err(fail(format!(
            "insufficient address space to extend prefix of {} by {}",
            nt.len, newbits
        )));
    };
    if new_len > nt.width {
        return Err(fail(format!(
            "insufficient address space to extend prefix of {} by {}",
            nt.len, newbits
        )));
    }
    let max: i128 = if newbits < 0 {
        i128::MAX
    } else {
        (1i128 << newbits) - 1
    };
    // go-cidr checks the magnitude only; a negative number is or-ed in two's complement and
    // the address is the magnitude of the (negative) result.
    if netnum.unsigned_abs() > max as u128 {
        return Err(fail(format!(
            "prefix extension of {newbits} does not accommodate a subnet numbered {netnum}"
        )));
    }
    let shift = nt.width - new_len;
    let addr = if netnum < 0 {
        let v = nt.addr | ((netnum as u128).wrapping_shl(shift));
        v.wrapping_neg() & all_ones(nt.width)
    } else {
        nt.addr | ((netnum as u128) << shift)
    };
    Ok(Value::string(fmt_net(&Net {
        addr,
        len: new_len,
        width: nt.width,
    })))
}

fn all_ones(width: u32) -> u128 {
    if width == 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

fn cidrsubnets(_: &FnContext<'_>, a: &[Value], _: &Type) -> R<Value> {
    let nt = parse_cidr(s(&a[0])).map_err(|e| arg_err(0, e))?;
    let lens = &a[1..];
    if lens.is_empty() {
        return Ok(Value::list(Type::String, vec![]));
    }
    let first = int_of(&lens[0]).map_err(|_| arg_err(1, WHOLE))? as i64 + nt.len as i64;
    let first = first.clamp(0, nt.width as i64) as u32;
    // PreviousSubnet: the subnet of length `first` just before the network.
    let m = mask(first, nt.width);
    let mut current = Net {
        addr: nt.addr.wrapping_sub(1) & all_ones(nt.width) & m,
        len: first,
        width: nt.width,
    };
    let mut out = Vec::with_capacity(lens.len());
    for (i, l) in lens.iter().enumerate() {
        let ext = int_of(l).map_err(|_| arg_err(i + 1, WHOLE))?;
        if ext < 1 {
            return Err(arg_err(i + 1, "must extend prefix by at least one bit"));
        }
        if ext > 32 {
            return Err(arg_err(i + 1, "may not extend prefix by more than 32 bits"));
        }
        let length = ext as u32 + nt.len;
        if length > nt.width {
            let proto = if nt.width == 32 { "IPv4" } else { "IPv6" };
            return Err(arg_err(i + 1, format!("would extend prefix to {length} bits, which is too long for an {proto} address")));
        }
        // NextSubnet(current, length).
        let cur_last = current.addr | (all_ones(nt.width) & !mask(current.len, nt.width));
        let m = mask(length, nt.width);
        let sub = Net {
            addr: cur_last & m,
            len: length,
            width: nt.width,
        };
        let sub_last = sub.addr | (all_ones(nt.width) & !m);
        let next_ip = sub_last.wrapping_add(1) & all_ones(nt.width);
        let next = Net {
            addr: next_ip & m,
            len: length,
            width: nt.width,
        };
        let rollover = next_ip == 0;
        let contained = next.addr & mask(nt.len, nt.width) == nt.addr;
        if rollover || !contained {
            return Err(arg_err(
                i + 1,
                format!("not enough remaining address space for a subnet with a prefix of {length} bits after {}", fmt_net(&current)),
            ));
        }
        current = next;
        out.push(Value::string(fmt_net(&current)));
    }
    Ok(Value::list(Type::String, out))
}
