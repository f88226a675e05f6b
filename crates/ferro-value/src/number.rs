//! Arbitrary-precision numbers with Terraform's (cty's) semantics.
//!
//! A finite number is `sign × mantissa × 10^exp` with an arbitrary-size integer mantissa kept
//! normalized (no trailing decimal zeros; zero is always `+0 × 10^0`), so the derived structure is
//! canonical and equality/hashing are numeric. Addition, subtraction, multiplication and the
//! remainder are exact; a non-terminating quotient is rounded (half to even) to
//! [`DIV_DIGITS`] significant digits. Like cty (Go's `big.Float`), the values ±infinity exist
//! (`1/0` is `+Inf`); NaN does not (`0/0` is an error).

use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

mod arith;
mod bigint;
mod binary;

use bigint::Big;
pub use binary::{FloatDecimal, CTY_MANTISSA_BITS};

/// Significant decimal digits kept for quotients beyond the binary range (about 10^±20000).
pub const DIV_DIGITS: usize = 160;

/// Precision of numbers parsed from literals and strings (`cty.ParseNumberVal`).
pub const CTY_PREC: u32 = 512;
/// Precision of integers made by functions (`cty.NumberIntVal`).
pub const INT_PREC: u32 = 64;
/// Precision of float results of functions (`cty.NumberFloatVal`).
pub const FLOAT_PREC: u32 = 53;

/// Up to this many significant digits a decimal is the shortest form of its 512-bit float
/// (the floats are about 10^-154 apart relative to their size).
const OWN_DIGITS: usize = 140;

/// Largest decimal exponent accepted when parsing (keeps the canonical text of a parsed number
/// to a sane size; cty has no such limit but nothing real comes near it).
const MAX_EXP: i64 = 1_000_000;

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Repr {
    /// Normalized: `mant` has no trailing decimal zero; zero has `exp=0` and is negative only
    /// for cty's negative zero.
    Finite {
        neg: bool,
        mant: Big,
        exp: i64,
    },
    PosInf,
    NegInf,
}

/// A number: the value of a `big.Float` of `prec` mantissa bits, written as the shortest decimal
/// that rounds back to it (so integers and short literals are their own digits). Equality,
/// ordering and hashing are numeric (1 == 1.0, -0 == 0) and ignore the precision.
#[derive(Debug, Clone)]
pub struct Number(Repr, u32);

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        (self.is_zero() && other.is_zero()) || self.0 == other.0
    }
}
impl Eq for Number {}

impl std::hash::Hash for Number {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        if self.is_zero() {
            Repr::Finite {
                neg: false,
                mant: Big::zero(),
                exp: 0,
            }
            .hash(state);
        } else {
            self.0.hash(state);
        }
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Number {
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::NegInf, Repr::NegInf) | (Repr::PosInf, Repr::PosInf) => Ordering::Equal,
            (Repr::NegInf, _) | (_, Repr::PosInf) => Ordering::Less,
            (_, Repr::NegInf) | (Repr::PosInf, _) => Ordering::Greater,
            (Repr::Finite { neg: an, .. }, Repr::Finite { neg: bn, .. }) => {
                let (sa, sb) = (self.signum(), other.signum());
                if sa != sb {
                    return sa.cmp(&sb);
                }
                if sa == 0 {
                    return Ordering::Equal;
                }
                let mag = cmp_magnitude(self, other);
                debug_assert_eq!(an, bn);
                if *an {
                    mag.reverse()
                } else {
                    mag
                }
            }
        }
    }
}

fn finite_parts(n: &Number) -> (bool, &Big, i64) {
    match &n.0 {
        Repr::Finite { neg, mant, exp } => (*neg, mant, *exp),
        _ => unreachable!("finite_parts on an infinity"),
    }
}

/// Compare absolute values of two finite non-zero numbers.
fn cmp_magnitude(a: &Number, b: &Number) -> Ordering {
    let (_, am, ae) = finite_parts(a);
    let (_, bm, be) = finite_parts(b);
    // Compare orders of magnitude first (position of the leading digit).
    let la = am.num_digits() as i64 + ae;
    let lb = bm.num_digits() as i64 + be;
    if la != lb {
        return la.cmp(&lb);
    }
    let (x, y) = align(am, ae, bm, be);
    x.cmp(&y)
}

/// Bring two mantissas to the common (smaller) exponent.
fn align(am: &Big, ae: i64, bm: &Big, be: i64) -> (Big, Big) {
    let e = ae.min(be);
    let x = if ae > e {
        am.mul(&Big::pow10((ae - e) as usize))
    } else {
        am.clone()
    };
    let y = if be > e {
        bm.mul(&Big::pow10((be - e) as usize))
    } else {
        bm.clone()
    };
    (x, y)
}

impl std::fmt::Display for Number {
    /// Canonical decimal text as cty writes it: no exponent, minimal digits (`1`, `1.5`, `0.1`).
    /// Infinities are written `+Inf` / `-Inf` as Go does.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            Repr::PosInf => f.write_str("+Inf"),
            Repr::NegInf => f.write_str("-Inf"),
            Repr::Finite { neg, mant, exp } => {
                let digits = mant.to_digits();
                let mut s = String::with_capacity(digits.len() + 4);
                if *neg {
                    s.push('-');
                }
                if *exp >= 0 {
                    s.push_str(&digits);
                    if !mant.is_zero() {
                        s.extend(std::iter::repeat_n('0', *exp as usize));
                    }
                } else {
                    let point = digits.len() as i64 + exp;
                    if point > 0 {
                        s.push_str(&digits[..point as usize]);
                        s.push('.');
                        s.push_str(&digits[point as usize..]);
                    } else {
                        s.push_str("0.");
                        s.extend(std::iter::repeat_n('0', (-point) as usize));
                        s.push_str(&digits);
                    }
                }
                f.write_str(&s)
            }
        }
    }
}

impl Serialize for Number {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Number;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a decimal number string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Number, E> {
                Number::parse(v).ok_or_else(|| E::custom(format!("invalid number {v:?}")))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Number, E> {
                Ok(Number::from_i64(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Number, E> {
                Ok(Number::from_u64(v))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Number, E> {
                Number::from_f64(v).ok_or_else(|| E::custom("NaN is not a number"))
            }
        }
        d.deserialize_any(V)
    }
}

impl Default for Number {
    fn default() -> Self {
        Number::zero()
    }
}

impl std::str::FromStr for Number {
    type Err = String;
    fn from_str(s: &str) -> Result<Number, String> {
        Number::parse(s).ok_or_else(|| format!("invalid number {s:?}"))
    }
}

impl From<i64> for Number {
    fn from(i: i64) -> Number {
        Number::from_i64(i)
    }
}

impl Number {
    fn finite(neg: bool, mant: Big, exp: i64) -> Number {
        Number::finite_prec(neg, mant, exp, CTY_PREC)
    }

    /// A finite number of the given precision; a zero mantissa gives +0.
    fn finite_prec(neg: bool, mut mant: Big, mut exp: i64, prec: u32) -> Number {
        if mant.is_zero() {
            return Number(
                Repr::Finite {
                    neg: false,
                    mant,
                    exp: 0,
                },
                prec,
            );
        }
        while mant.0.first() == Some(&0) {
            mant.0.remove(0);
            exp += 9;
        }
        loop {
            let (q, r) = mant.divmod_small(10);
            if r != 0 {
                break;
            }
            mant = q;
            exp += 1;
        }
        Number(Repr::Finite { neg, mant, exp }, prec)
    }

    /// Zero with a sign: cty keeps negative zero (`-0`, `0 * -1`) and prints it as `-0`.
    pub fn signed_zero(neg: bool) -> Number {
        Number(
            Repr::Finite {
                neg,
                mant: Big::zero(),
                exp: 0,
            },
            CTY_PREC,
        )
    }

    /// True for negative zero.
    pub fn is_negative_zero(&self) -> bool {
        matches!(&self.0, Repr::Finite { neg: true, mant, .. } if mant.is_zero())
    }

    /// The mantissa bits of the `big.Float` cty holds for this number: 512 for literals and
    /// parsed strings, 64 for integers that functions return, 53 for their float results.
    pub fn prec(&self) -> u64 {
        u64::from(self.1)
    }

    /// The same value, labelled with another precision (callers make sure it is exact there).
    fn with_prec(mut self, prec: u32) -> Number {
        self.1 = prec;
        self
    }

    /// +0.
    pub fn zero() -> Number {
        Number::finite(false, Big::zero(), 0)
    }
    pub fn positive_infinity() -> Number {
        Number(Repr::PosInf, CTY_PREC)
    }
    pub fn negative_infinity() -> Number {
        Number(Repr::NegInf, CTY_PREC)
    }
    pub fn is_infinite(&self) -> bool {
        !matches!(self.0, Repr::Finite { .. })
    }
    pub fn is_zero(&self) -> bool {
        matches!(&self.0, Repr::Finite { mant, .. } if mant.is_zero())
    }
    /// -1, 0 or 1.
    pub fn signum(&self) -> i32 {
        match &self.0 {
            Repr::PosInf => 1,
            Repr::NegInf => -1,
            Repr::Finite { mant, .. } if mant.is_zero() => 0,
            Repr::Finite { neg: true, .. } => -1,
            Repr::Finite { .. } => 1,
        }
    }

    /// An integer as cty's `NumberIntVal` makes it (64-bit precision).
    pub fn from_i64(i: i64) -> Number {
        Number::finite_prec(i < 0, Big::from_u64(i.unsigned_abs()), 0, INT_PREC)
    }
    pub fn from_u64(u: u64) -> Number {
        Number::finite_prec(false, Big::from_u64(u), 0, INT_PREC)
    }
    /// None for NaN. Finite values become the shortest decimal that round-trips through f64
    /// (what cty shows for a float64-precision number).
    pub fn from_f64(f: f64) -> Option<Number> {
        if f.is_nan() {
            return None;
        }
        if f.is_infinite() {
            return Some(if f > 0.0 {
                Number::positive_infinity()
            } else {
                Number::negative_infinity()
            });
        }
        if f == 0.0 {
            return Some(Number::signed_zero(f.is_sign_negative()).with_prec(FLOAT_PREC));
        }
        Number::parse(&format!("{f}")).map(|n| n.with_prec(FLOAT_PREC))
    }
    /// The exact binary value of a finite f64, as a decimal.
    fn exact_from_f64(f: f64) -> Option<Number> {
        if !f.is_finite() {
            return None;
        }
        if f == 0.0 {
            return Some(Number::zero());
        }
        let bits = f.to_bits();
        let neg = bits >> 63 != 0;
        let raw_exp = ((bits >> 52) & 0x7ff) as i64;
        let frac = bits & ((1u64 << 52) - 1);
        let (m, e) = if raw_exp == 0 {
            (frac, -1074)
        } else {
            (frac | (1u64 << 52), raw_exp - 1075)
        };
        let mant = Big::from_u64(m);
        if e >= 0 {
            let mut p = mant;
            for _ in 0..e {
                p = p.mul_small(2);
            }
            Some(Number::finite(neg, p, 0))
        } else {
            // m / 2^k = m * 5^k / 10^k
            let mut p = mant;
            for _ in 0..(-e) {
                p = p.mul_small(5);
            }
            Some(Number::finite(neg, p, e))
        }
    }
    /// True when this number is exactly representable as an f64 (msgpack encodes it as float64).
    pub fn is_exact_f64(&self) -> bool {
        if self.is_infinite() || self.is_zero() {
            return true;
        }
        let f = self.to_f64();
        let Some((neg, mant, exp)) = self.exact_parts() else {
            return true;
        };
        Number::exact_from_f64(f).as_ref() == Some(&Number::finite(neg, mant, exp))
    }

    /// Parse an HCL/JSON number literal or decimal string (`1`, `-2.5`, `1e10`, `1.5E-3`).
    /// Also accepts `Inf`, `+Inf`, `-Inf` (any case) like Go's `big.ParseFloat`.
    pub fn parse(s: &str) -> Option<Number> {
        let b = s.as_bytes();
        let mut i = 0;
        let mut neg = false;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            neg = b[i] == b'-';
            i += 1;
        }
        let rest = &s[i..];
        // Go's big.Float takes these two spellings only ("INF" and "Infinity" are not numbers).
        if rest == "inf" || rest == "Inf" {
            return Some(if neg {
                Number::negative_infinity()
            } else {
                Number::positive_infinity()
            });
        }
        let mut digits: Vec<u8> = Vec::new();
        let mut frac_len: i64 = 0;
        let mut seen_digit = false;
        while i < b.len() && b[i].is_ascii_digit() {
            digits.push(b[i]);
            seen_digit = true;
            i += 1;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                digits.push(b[i]);
                frac_len += 1;
                seen_digit = true;
                i += 1;
            }
        }
        if !seen_digit {
            return None;
        }
        let mut exp: i64 = 0;
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            i += 1;
            let mut eneg = false;
            if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                eneg = b[i] == b'-';
                i += 1;
            }
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                exp = exp.checked_mul(10)?.checked_add(i64::from(b[i] - b'0'))?;
                if exp > MAX_EXP {
                    return None;
                }
                i += 1;
            }
            if i == start {
                return None;
            }
            if eneg {
                exp = -exp;
            }
        }
        if i != b.len() {
            return None;
        }
        let mant = Big::from_digits(&digits);
        if mant.is_zero() {
            return Some(Number::signed_zero(neg));
        }
        let n = Number::finite(neg, mant, exp - frac_len);
        // Short literals are their own shortest form; long ones are rounded as cty parses them.
        Some(match &n.0 {
            Repr::Finite { mant, exp, .. } if mant.num_digits() > OWN_DIGITS => {
                arith::round(neg, mant, *exp, CTY_PREC)
            }
            _ => n,
        })
    }

    /// Exact integer value when it fits in i64.
    pub fn to_i64(&self) -> Option<i64> {
        if !self.is_integer() {
            return None;
        }
        let (neg, mant, exp) = finite_parts(self);
        if exp > 19 {
            return None;
        }
        let v = mant.mul(&Big::pow10(exp as usize)).to_u64()?;
        if neg {
            if v <= i64::MAX as u64 + 1 {
                Some((v as i64).wrapping_neg())
            } else {
                None
            }
        } else {
            i64::try_from(v).ok()
        }
    }
    /// Nearest f64 (infinities map to infinities; huge values overflow to infinity).
    pub fn to_f64(&self) -> f64 {
        match &self.0 {
            Repr::PosInf => f64::INFINITY,
            Repr::NegInf => f64::NEG_INFINITY,
            Repr::Finite { neg, mant, exp } => {
                let text = format!(
                    "{}{}e{}",
                    if *neg { "-" } else { "" },
                    mant.to_digits(),
                    exp
                );
                text.parse::<f64>().unwrap_or(0.0)
            }
        }
    }
    pub fn is_integer(&self) -> bool {
        match &self.0 {
            Repr::Finite { exp, .. } => *exp >= 0,
            _ => false,
        }
    }
    pub fn add(&self, o: &Number) -> Number {
        match (&self.0, &o.0) {
            (Repr::PosInf, Repr::NegInf) | (Repr::NegInf, Repr::PosInf) => {
                // cty panics (NaN); the language reports an error before getting here.
                Number::zero()
            }
            (Repr::PosInf, _) | (_, Repr::PosInf) => Number::positive_infinity(),
            (Repr::NegInf, _) | (_, Repr::NegInf) => Number::negative_infinity(),
            _ => {
                let (an, am, ae) = finite_parts(self);
                let (bn, bm, be) = finite_parts(o);
                let (x, y) = align(am, ae, bm, be);
                let e = ae.min(be);
                if an == bn {
                    Number::finite(an, x.add(&y), e)
                } else {
                    match x.cmp(&y) {
                        Ordering::Equal => Number::zero(),
                        Ordering::Greater => Number::finite(an, x.sub(&y), e),
                        Ordering::Less => Number::finite(bn, y.sub(&x), e),
                    }
                }
            }
        }
    }
    pub fn sub(&self, o: &Number) -> Number {
        self.add(&o.neg())
    }
    pub fn mul(&self, o: &Number) -> Number {
        if self.is_infinite() || o.is_infinite() {
            let s = self.signum() * o.signum();
            return match s {
                1 => Number::positive_infinity(),
                -1 => Number::negative_infinity(),
                _ => Number::zero(),
            };
        }
        let (an, am, ae) = finite_parts(self);
        let (bn, bm, be) = finite_parts(o);
        Number::finite(an != bn, am.mul(bm), ae + be)
    }
    /// Negation; the negation of zero is the zero of the other sign, as in cty.
    pub fn neg(&self) -> Number {
        match &self.0 {
            Repr::PosInf => Number::negative_infinity(),
            Repr::NegInf => Number::positive_infinity(),
            Repr::Finite { neg, mant, exp } => Number(
                Repr::Finite {
                    neg: !neg,
                    mant: mant.clone(),
                    exp: *exp,
                },
                self.1,
            ),
        }
    }
    pub fn abs(&self) -> Number {
        if self.signum() < 0 || self.is_negative_zero() {
            self.neg()
        } else {
            self.clone()
        }
    }
    /// Round toward negative infinity to an integer (zero is +0, as cty's integer results).
    pub fn floor(&self) -> Number {
        let t = self.trunc();
        if self.signum() < 0 && &t != self {
            t.sub(&Number::from_i64(1))
        } else {
            t
        }
    }
    /// Round toward positive infinity to an integer.
    pub fn ceil(&self) -> Number {
        let t = self.trunc();
        if self.signum() > 0 && &t != self {
            t.add(&Number::from_i64(1))
        } else {
            t
        }
    }
    /// Drop the fractional part (round toward zero).
    pub fn trunc(&self) -> Number {
        if self.is_zero() {
            return Number::zero();
        }
        match &self.0 {
            Repr::Finite { neg, mant, exp } if *exp < 0 => {
                let drop = (-exp) as usize;
                if drop > mant.num_digits() {
                    return Number::zero();
                }
                let (q, _) = mant.divmod(&Big::pow10(drop));
                Number::finite_prec(*neg, q, 0, self.1)
            }
            _ => self.clone(),
        }
    }
    /// `self` raised to a non-negative integer power (exact).
    pub fn pow_int(&self, e: u32) -> Number {
        let mut result = Number::from_i64(1);
        let mut base = self.clone();
        let mut e = e;
        while e > 0 {
            if e & 1 == 1 {
                result = result.mul(&base);
            }
            e >>= 1;
            if e > 0 {
                base = base.mul(&base);
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        Number::parse(s).unwrap()
    }

    #[test]
    fn display_canonical() {
        assert_eq!(n("1").to_string(), "1");
        assert_eq!(n("1.0").to_string(), "1");
        assert_eq!(n("1.50").to_string(), "1.5");
        assert_eq!(n("0.1").to_string(), "0.1");
        assert_eq!(n("1e21").to_string(), "1000000000000000000000");
        assert_eq!(n("-0.5").to_string(), "-0.5");
        assert_eq!(n("-0").to_string(), "-0");
        assert_eq!(n("0.000").to_string(), "0");
        assert_eq!(n("1.5E-3").to_string(), "0.0015");
        assert_eq!(n("120").to_string(), "120");
        assert_eq!(n("1000000000").to_string(), "1000000000");
        assert_eq!(n(".5").to_string(), "0.5");
        assert_eq!(n("1e100").to_string(), format!("1{}", "0".repeat(100)));
        assert_eq!(n("Inf").to_string(), "+Inf");
        assert_eq!(n("-inf").to_string(), "-Inf");
    }

    #[test]
    fn parse_rejects() {
        for s in ["", "-", "abc", "1e", "1x", "1.2.3", " 1", "e5", "."] {
            assert!(Number::parse(s).is_none(), "{s}");
        }
    }

    #[test]
    fn arithmetic() {
        assert_eq!(n("0.1").add(&n("0.2")).to_string(), "0.3");
        assert_eq!(n("0.1").add(&n("0.2")), n("0.3"));
        assert_eq!(n("5").sub(&n("7")).to_string(), "-2");
        assert_eq!(n("1.5").mul(&n("-2")).to_string(), "-3");
        let mut p = Number::from_i64(1);
        for _ in 0..70 {
            p = p.mul(&Number::from_i64(2));
        }
        assert_eq!(p.to_string(), "1180591620717411303424");
        assert_eq!(Number::from_i64(2).pow_int(70), p);
        assert_eq!(
            n("10").div(&n("3")).unwrap().to_string(),
            format!("3.{}2", "3".repeat(153))
        );
        assert_eq!(n("1").div(&n("8")).unwrap().to_string(), "0.125");
        assert_eq!(
            n("1e100").div(&n("1e-100")).unwrap().to_string(),
            format!("1{}", "0".repeat(200))
        );
        assert_eq!(n("7").div(&n("2")).unwrap().to_string(), "3.5");
        assert_eq!(n("-7").rem(&n("3")).unwrap().to_string(), "-1");
        assert_eq!(n("7").rem(&n("-3")).unwrap().to_string(), "1");
        assert_eq!(n("5.5").rem(&n("2")).unwrap().to_string(), "1.5");
        assert_eq!(n("1e100").rem(&n("7")).unwrap().to_string(), "4");
        // Operands with trailing zeros (7919e1, 2e4): the remainder keeps the common exponent.
        assert_eq!(n("79190").rem(&n("20000")).unwrap().to_string(), "19190");
        assert_eq!(n("1500").rem(&n("400")).unwrap().to_string(), "300");
        assert_eq!(n("1").div(&n("0")).unwrap(), Number::positive_infinity());
        assert_eq!(n("-1").div(&n("0")).unwrap(), Number::negative_infinity());
        assert!(n("0").div(&n("0")).is_err());
        assert_eq!(n("1").rem(&n("0")).unwrap(), n("1"));
        assert_eq!(n("2.5").neg().to_string(), "-2.5");
        assert_eq!(n("-2.5").floor().to_string(), "-3");
        assert_eq!(n("-2.5").ceil().to_string(), "-2");
        assert_eq!(n("2.5").trunc().to_string(), "2");
    }

    #[test]
    fn ordering_and_hash() {
        use std::collections::HashSet;
        assert_eq!(n("1"), n("1.0"));
        let mut h = HashSet::new();
        h.insert(n("1"));
        assert!(h.contains(&n("1.000")));
        assert!(n("-2") < n("-1.5"));
        assert!(n("0.001") < n("0.01"));
        assert!(n("99") < n("100"));
        assert!(n("-100") < n("-99"));
        assert!(n("0") < n("0.0001"));
        assert!(n("-0.0001") < n("0"));
        assert!(Number::negative_infinity() < n("-1e100"));
        assert!(Number::positive_infinity() > n("1e100"));
    }

    #[test]
    fn conversions() {
        assert_eq!(n("123").to_i64(), Some(123));
        assert_eq!(n("-9223372036854775808").to_i64(), Some(i64::MIN));
        assert_eq!(n("9223372036854775808").to_i64(), None);
        assert_eq!(n("1.5").to_i64(), None);
        assert_eq!(n("1e3").to_i64(), Some(1000));
        assert_eq!(n("2.5").to_f64(), 2.5);
        assert_eq!(Number::from_f64(0.1).unwrap().to_string(), "0.1");
        assert_eq!(
            Number::from_f64(1e21).unwrap().to_string(),
            "1000000000000000000000"
        );
        assert!(Number::from_f64(f64::NAN).is_none());
        assert!(n("2.5").is_exact_f64());
        assert!(!n("0.1").is_exact_f64());
        assert!(n("12345678901234567890123").is_integer());
        assert!(!n("12345678901234567890123").is_exact_f64());
        let j = serde_json::to_string(&n("1.5")).unwrap();
        assert_eq!(j, "\"1.5\"");
        let back: Number = serde_json::from_str(&j).unwrap();
        assert_eq!(back, n("1.5"));
        assert!(Number::parse("1e2000000").is_none());
        let big = n("1e500").add(&n("1e-500"));
        assert_eq!(big.to_string().len(), 1002);
    }
}
