//! How cty sees a number when `format` prints it with `%e`, `%f`, `%g` or `%v`: the binary float
//! the decimal rounds to (Go's `big.Float` with a 512-bit mantissa, rounded to nearest, ties to
//! even, as `cty.ParseNumberVal` does), and that float as decimal digits in the form Go's
//! `big.Float.Text` works on: the exact expansion, or the shortest digits that round back to
//! the same float.
//!
//! ferro keeps numbers as exact decimals, so `0.05` is exactly a tie at one decimal place; cty's
//! binary value of `0.05` is slightly above it and prints as `0.1` with `%.1f`. Formatting the
//! binary value reproduces that.

use super::bigint::Big;
use super::{finite_parts, Number};
use std::cmp::Ordering;

/// Mantissa bits of a cty number.
pub const CTY_MANTISSA_BITS: u64 = 512;

/// Largest binary exponent (in absolute value) whose expansion ferro computes: about 10^±20000.
/// The expansion of `m × 2^e` has about 0.7·|e| digits and costs quadratic time in that; beyond
/// it the number's own decimal digits stand in (see [`Number::binary_digits`]).
const MAX_BINARY_EXP: i64 = 66_000;

/// Decimal digits `0.d₁d₂…dₙ × 10^exp`, unsigned (Go's `decimal` type of `math/big`).
/// `digits` are ASCII digits without trailing zeros; zero has no digits and `exp` 0.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FloatDecimal {
    pub digits: Vec<u8>,
    pub exp: i64,
}

impl FloatDecimal {
    /// The ASCII digit at position `i` (0 is the first), `'0'` outside the digits.
    pub fn at(&self, i: i64) -> u8 {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.digits.get(i).copied())
            .unwrap_or(b'0')
    }

    /// Keep `n` digits, rounding half to even only when the dropped digits are exactly one half
    /// (Go's `decimal.round`). Nothing happens when `n` is negative or not below the length.
    pub fn round(&mut self, n: i64) {
        let Some(k) = self.index(n) else { return };
        let up = if self.digits[k] == b'5' && k + 1 == self.digits.len() {
            k > 0 && (self.digits[k - 1] - b'0') % 2 == 1
        } else {
            self.digits[k] >= b'5'
        };
        if up {
            self.round_up(n);
        } else {
            self.round_down(n);
        }
    }

    /// Keep `n` digits and add one unit in the last kept place.
    pub fn round_up(&mut self, n: i64) {
        let Some(mut k) = self.index(n) else { return };
        while k > 0 && self.digits[k - 1] >= b'9' {
            k -= 1;
        }
        if k == 0 {
            // All kept digits were nines: 0.999… becomes 1.
            self.digits.clear();
            self.digits.push(b'1');
            self.exp += 1;
            return;
        }
        self.digits[k - 1] += 1;
        self.digits.truncate(k);
    }

    /// Keep `n` digits, dropping the rest.
    pub fn round_down(&mut self, n: i64) {
        let Some(k) = self.index(n) else { return };
        self.digits.truncate(k);
        self.trim();
    }

    fn index(&self, n: i64) -> Option<usize> {
        usize::try_from(n).ok().filter(|&k| k < self.digits.len())
    }

    fn trim(&mut self) {
        while self.digits.last() == Some(&b'0') {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.exp = 0;
        }
    }
}

/// `mant × 2^exp2` with `mant` of exactly the precision's bits.
pub(super) struct BinaryFloat {
    pub(super) mant: Big,
    pub(super) exp2: i64,
}

/// Where the part dropped by an integer division lies relative to one half.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rest {
    Zero,
    BelowHalf,
    Half,
    AboveHalf,
}

/// `floor(mant × 10^exp / 2^exp2)` and where the remainder lies. Dividing by `2^k` is
/// multiplying by `5^k` and dropping `k` decimal digits, which decimal limbs make cheap.
fn scaled_floor(mant: &Big, exp: i64, exp2: i64) -> (Big, Rest) {
    let (scaled, shift) = if exp2 <= 0 {
        (mant.mul(&Big::pow(2, exp2.unsigned_abs())), exp)
    } else {
        (mant.mul(&Big::pow(5, exp2.unsigned_abs())), exp - exp2)
    };
    if shift >= 0 {
        return (scaled.mul(&Big::pow10(shift as usize)), Rest::Zero);
    }
    let drop = shift.unsigned_abs() as usize;
    let digits = scaled.to_digits();
    if digits.len() <= drop {
        // The quotient is zero; the remainder is below one tenth, so below one half.
        let rest = if scaled.is_zero() {
            Rest::Zero
        } else {
            Rest::BelowHalf
        };
        return (Big::zero(), rest);
    }
    let (kept, dropped) = digits.as_bytes().split_at(digits.len() - drop);
    let tail_zero = dropped[1..].iter().all(|&d| d == b'0');
    let rest = match dropped[0].cmp(&b'5') {
        Ordering::Greater => Rest::AboveHalf,
        Ordering::Equal if tail_zero => Rest::Half,
        Ordering::Equal => Rest::AboveHalf,
        Ordering::Less if tail_zero && dropped[0] == b'0' => Rest::Zero,
        Ordering::Less => Rest::BelowHalf,
    };
    (Big::from_digits(kept), rest)
}

/// Round the positive decimal `mant × 10^exp` to the nearest binary float with a mantissa of
/// `bits` bits (ties to even). None beyond [`MAX_BINARY_EXP`].
pub(super) fn to_binary(mant: &Big, exp: i64, bits: u64) -> Option<BinaryFloat> {
    // Estimate floor(log2(value)) from the leading digits; the loop below corrects it.
    let digits = mant.to_digits();
    let lead_len = digits.len().min(17);
    let lead: f64 = digits[..lead_len].parse().unwrap_or(1.0);
    let log10 = lead.log10() + (digits.len() - lead_len) as f64 + exp as f64;
    let mut exp2 = (log10 * std::f64::consts::LOG2_10).floor() as i64 - (bits as i64 - 1);
    let top = Big::pow(2, bits);
    let bottom = Big::pow(2, bits - 1);
    for _ in 0..8 {
        if exp2.abs() > MAX_BINARY_EXP {
            return None;
        }
        let (q, rest) = scaled_floor(mant, exp, exp2);
        if q.cmp(&top) != Ordering::Less {
            exp2 += 1;
            continue;
        }
        if q.cmp(&bottom) == Ordering::Less {
            exp2 -= 1;
            continue;
        }
        let up = match rest {
            Rest::AboveHalf => true,
            Rest::Half => q.is_odd(),
            Rest::Zero | Rest::BelowHalf => false,
        };
        if !up {
            return Some(BinaryFloat { mant: q, exp2 });
        }
        let q = q.add(&Big::from_u64(1));
        if q == top {
            return Some(BinaryFloat {
                mant: bottom,
                exp2: exp2 + 1,
            });
        }
        return Some(BinaryFloat { mant: q, exp2 });
    }
    // The estimate is off by at most one, so this is not reached.
    None
}

/// The decimal digits of `mant × 10^exp` themselves.
fn own_digits(mant: &Big, exp: i64) -> FloatDecimal {
    let digits = mant.to_digits().into_bytes();
    let mut d = FloatDecimal {
        exp: digits.len() as i64 + exp,
        digits,
    };
    d.trim();
    d
}

/// The exact decimal digits of `mant × 2^exp2` (`mant` not zero).
pub(super) fn expand(mant: &Big, exp2: i64) -> FloatDecimal {
    let (scaled, point) = if exp2 >= 0 {
        (mant.mul(&Big::pow(2, exp2.unsigned_abs())), 0)
    } else {
        // m / 2^k = m·5^k / 10^k
        (mant.mul(&Big::pow(5, exp2.unsigned_abs())), exp2)
    };
    let digits = scaled.to_digits().into_bytes();
    let mut d = FloatDecimal {
        exp: digits.len() as i64 + point,
        digits,
    };
    d.trim();
    d
}

impl Number {
    /// The exact decimal expansion of the binary float cty holds for this number (the nearest
    /// float with a 512-bit mantissa); None for infinities.
    ///
    /// Beyond about 10^±20000, where the expansion is too costly, the number's own decimal
    /// digits stand in: they round the same way except at an exact decimal tie or past the
    /// 150th significant digit.
    pub fn binary_digits(&self) -> Option<FloatDecimal> {
        if self.is_infinite() {
            return None;
        }
        if self.is_zero() {
            return Some(FloatDecimal::default());
        }
        let (_, mant, exp) = finite_parts(self);
        Some(match to_binary(mant, exp, self.prec()) {
            Some(b) => expand(&b.mant, b.exp2),
            None => own_digits(mant, exp),
        })
    }

    /// The shortest decimal digits that round to the same 512-bit binary float as this number,
    /// chosen as Go 1.16's `big.Float.Text` with a negative precision chooses them (what cty's
    /// `%v` and `%g` print); None for infinities. Beyond about 10^±20000 the number's own
    /// digits stand in (the same result for numbers of up to 150 significant digits, as no
    /// shorter decimal lies that close to them).
    pub fn shortest_binary_digits(&self) -> Option<FloatDecimal> {
        if self.is_infinite() {
            return None;
        }
        if self.is_zero() {
            return Some(FloatDecimal::default());
        }
        let (_, mant, exp) = finite_parts(self);
        let Some(b) = to_binary(mant, exp, self.prec()) else {
            return Some(own_digits(mant, exp));
        };
        Some(shortest(&b))
    }
}

/// The shortest decimal digits that round back to the binary float `b` (Go's `roundShortest`).
pub(super) fn shortest(b: &BinaryFloat) -> FloatDecimal {
    {
        let mut d = expand(&b.mant, b.exp2);
        // The bounds of the numbers rounding to this float: one half unit in the last place
        // below and above, i.e. (2·mant ∓ 1) × 2^(exp2-1).
        let twice = b.mant.mul_small(2);
        let one = Big::from_u64(1);
        let lower = expand(&twice.sub(&one), b.exp2 - 1);
        let upper = expand(&twice.add(&one), b.exp2 - 1);
        // With an even mantissa, ties round to this float, so the bounds themselves qualify.
        let inclusive = !b.mant.is_odd();
        for i in 0..d.digits.len() {
            let m = d.digits[i];
            let l = lower.at(i as i64);
            let u = upper.at(i as i64);
            let n = i as i64 + 1;
            // Truncating is fine when lower differs here, or when lower ends here and counts.
            let ok_down = l != m || (inclusive && i + 1 == lower.digits.len());
            // Rounding up is fine when upper differs here and the rounded value stays below it.
            let ok_up = m != u && (inclusive || m + 1 < u || i + 1 < upper.digits.len());
            match (ok_down, ok_up) {
                (true, true) => d.round(n),
                (true, false) => d.round_down(n),
                (false, true) => d.round_up(n),
                (false, false) => continue,
            }
            break;
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(s: &str) -> Number {
        Number::parse(s).unwrap()
    }

    fn text(d: &FloatDecimal) -> String {
        format!("0.{}e{}", String::from_utf8_lossy(&d.digits), d.exp)
    }

    #[test]
    fn decimal_ties_that_are_not_binary_ties() {
        // 0.05 is slightly above its decimal value in binary, 0.35 slightly below.
        let d = n("0.05").binary_digits().unwrap();
        assert!(d.digits.starts_with(b"5000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"));
        assert!(d.digits.len() > 400, "{}", text(&d));
        assert_eq!(d.exp, -1);
        let d = n("0.35").binary_digits().unwrap();
        assert!(d.digits.starts_with(b"3499999999"), "{}", text(&d));
        assert_eq!(d.exp, 0);
    }

    #[test]
    fn exact_binary_values_expand_exactly() {
        for (s, digits, exp) in [
            ("0.5", "5", 0),
            ("2.5", "25", 1),
            ("1024", "1024", 4),
            ("0.375", "375", 0),
            ("-3", "3", 1),
        ] {
            let d = n(s).binary_digits().unwrap();
            assert_eq!(
                (String::from_utf8_lossy(&d.digits).as_ref(), d.exp),
                (digits, exp),
                "{s}"
            );
        }
        assert_eq!(n("0").binary_digits().unwrap(), FloatDecimal::default());
        // 2^512 + 1 needs 513 bits: the 1 is lost (a tie, rounded to the even mantissa).
        let big = Number::from_i64(2).pow_int(512);
        let d = big.add(&Number::from_i64(1)).binary_digits().unwrap();
        assert_eq!(d, big.binary_digits().unwrap());
        // 2^512 + 3 lies halfway between 2^512 + 2 (odd mantissa) and 2^512 + 4 (even).
        let d = big.add(&Number::from_i64(3)).binary_digits().unwrap();
        assert_eq!(d, big.add(&Number::from_i64(4)).binary_digits().unwrap());
    }

    #[test]
    fn one_e_300_keeps_the_binary_tail() {
        let d = n("1e300").binary_digits().unwrap();
        let s = String::from_utf8_lossy(&d.digits).into_owned();
        assert_eq!(d.exp, 301);
        assert!(
            s.starts_with(&format!("1{}258988293585", "0".repeat(154))),
            "{s}"
        );
    }

    #[test]
    fn shortest_digits_are_the_literal() {
        for (s, digits, exp) in [
            ("0.1", "1", 0),
            ("0.05", "5", -1),
            ("123.456", "123456", 3),
            ("1e300", "1", 301),
            ("1e-300", "1", -299),
            ("7", "7", 1),
        ] {
            let d = n(s).shortest_binary_digits().unwrap();
            assert_eq!(
                (String::from_utf8_lossy(&d.digits).as_ref(), d.exp),
                (digits, exp),
                "{s}"
            );
        }
        // Far outside the expandable range, a short number is still its own shortest form.
        let d = n("1.5e-100000").shortest_binary_digits().unwrap();
        assert_eq!((d.digits.as_slice(), d.exp), (&b"15"[..], -99999));
        let d = n("1.5e-100000").binary_digits().unwrap();
        assert_eq!((d.digits.as_slice(), d.exp), (&b"15"[..], -99999));
        assert!(n("-Inf").binary_digits().is_none());
    }

    #[test]
    fn decimal_rounding_follows_go() {
        let mut d = FloatDecimal {
            digits: b"25".to_vec(),
            exp: 1,
        };
        d.round(1);
        assert_eq!(d.digits, b"2");
        let mut d = FloatDecimal {
            digits: b"35".to_vec(),
            exp: 1,
        };
        d.round(1);
        assert_eq!(d.digits, b"4");
        let mut d = FloatDecimal {
            digits: b"251".to_vec(),
            exp: 1,
        };
        d.round(1);
        assert_eq!(d.digits, b"3");
        let mut d = FloatDecimal {
            digits: b"9996".to_vec(),
            exp: 0,
        };
        d.round(3);
        assert_eq!((d.digits.as_slice(), d.exp), (&b"1"[..], 1));
        let mut d = FloatDecimal {
            digits: b"1004".to_vec(),
            exp: 0,
        };
        d.round(3);
        assert_eq!((d.digits.as_slice(), d.exp), (&b"1"[..], 0));
        let mut d = FloatDecimal {
            digits: b"5".to_vec(),
            exp: -1,
        };
        d.round(-1);
        assert_eq!(d.digits, b"5");
        d.round(0);
        assert!(d.digits.is_empty());
        assert_eq!(d.at(-1), b'0');
    }
}
