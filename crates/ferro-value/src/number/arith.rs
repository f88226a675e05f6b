//! cty's arithmetic on [`Number`]: each operation works on the exact binary values of its
//! operands (Go `big.Float`s of their precision) and rounds the result, nearest even, to the
//! larger of the two precisions, as `big.Float` does for a fresh result. Signed zeros follow
//! IEEE rules (`0 * -1` is `-0`, `x - x` is `+0`). The result is kept as the shortest decimal
//! that rounds back to the binary value, which is what cty prints.

use super::bigint::Big;
use super::binary::{expand, shortest, to_binary};
use super::{align, Number, Repr, DIV_DIGITS};
use std::cmp::Ordering;

/// Integers of up to this many decimal digits are exact at `prec` bits.
fn exact_int_digits(prec: u32) -> usize {
    (f64::from(prec) * std::f64::consts::LOG10_2).floor() as usize
}

fn is_small_int(mant: &Big, exp: i64, prec: u32) -> bool {
    exp >= 0 && mant.num_digits() as u64 + exp as u64 <= exact_int_digits(prec) as u64
}

/// Exponent differences (in decimal digits) beyond which the smaller operand of a sum only
/// matters as a sticky bit; such sums keep the larger operand.
const MAX_ALIGN: i64 = 100_000;

/// Round the exact decimal `±mant × 10^exp` to a float of `prec` bits and return it as its
/// shortest decimal (a zero mantissa gives the zero of the given sign).
pub(super) fn round(neg: bool, mant: &Big, exp: i64, prec: u32) -> Number {
    if mant.is_zero() {
        return Number::signed_zero(neg).with_prec(prec);
    }
    if is_small_int(mant, exp, prec) {
        return Number::finite_prec(neg, mant.clone(), exp, prec);
    }
    match to_binary(mant, exp, u64::from(prec)) {
        Some(b) => {
            let d = shortest(&b);
            let len = d.digits.len() as i64;
            Number::finite_prec(neg, Big::from_digits(&d.digits), d.exp - len, prec)
        }
        None => round_decimal(neg, mant, exp, prec),
    }
}

/// Beyond the binary range (about 10^±20000): keep [`DIV_DIGITS`] significant decimal digits.
fn round_decimal(neg: bool, mant: &Big, exp: i64, prec: u32) -> Number {
    let n = mant.num_digits();
    if n <= DIV_DIGITS {
        return Number::finite_prec(neg, mant.clone(), exp, prec);
    }
    let drop = n - DIV_DIGITS;
    let unit = Big::pow10(drop);
    let (mut kept, rest) = mant.divmod(&unit);
    if rest.mul_small(2).cmp(&unit) != Ordering::Less {
        kept = kept.add(&Big::from_u64(1));
    }
    Number::finite_prec(neg, kept, exp + drop as i64, prec)
}

impl Number {
    /// The exact decimal value of the binary float this number stands for (sign, mantissa,
    /// exponent); None for the infinities.
    pub(super) fn exact_parts(&self) -> Option<(bool, Big, i64)> {
        let Repr::Finite { neg, mant, exp } = &self.0 else {
            return None;
        };
        if mant.is_zero() || is_small_int(mant, *exp, self.1) {
            return Some((*neg, mant.clone(), *exp));
        }
        Some(match to_binary(mant, *exp, self.prec()) {
            Some(b) => {
                let d = expand(&b.mant, b.exp2);
                let len = d.digits.len() as i64;
                (*neg, Big::from_digits(&d.digits), d.exp - len)
            }
            None => (*neg, mant.clone(), *exp),
        })
    }

    /// True for negative numbers, -Inf and -0.
    fn sign_bit(&self) -> bool {
        self.signum() < 0 || self.is_negative_zero()
    }

    /// Sum as cty computes it, or Err for opposing infinities.
    pub fn checked_add(&self, o: &Number) -> Result<Number, String> {
        if self.is_infinite() && o.is_infinite() && self.signum() != o.signum() {
            return Err("can't compute sum of opposing infinities".into());
        }
        Ok(add_prec(self, o, self.1.max(o.1)))
    }

    /// Difference as cty computes it, or Err for subtracting an infinity from itself.
    pub fn checked_sub(&self, o: &Number) -> Result<Number, String> {
        if self.is_infinite() && o.is_infinite() && self.signum() == o.signum() {
            return Err("can't subtract infinity from itself".into());
        }
        Ok(add_prec(self, &o.neg(), self.1.max(o.1)))
    }

    /// Product as cty computes it, or Err for zero times infinity.
    pub fn checked_mul(&self, o: &Number) -> Result<Number, String> {
        if (self.is_infinite() && o.is_zero()) || (self.is_zero() && o.is_infinite()) {
            return Err("can't multiply zero by infinity".into());
        }
        Ok(mul_prec(self, o, self.1.max(o.1)))
    }

    /// Quotient as cty computes it: a non-zero number divided by zero is an infinity of the
    /// sign of the operands; zero by zero and infinity by infinity are errors.
    pub fn div(&self, o: &Number) -> Result<Number, String> {
        if (self.is_zero() && o.is_zero()) || (self.is_infinite() && o.is_infinite()) {
            return Err("can't divide zero by zero or infinity by infinity".into());
        }
        let neg = self.sign_bit() != o.sign_bit();
        let prec = self.1.max(o.1);
        if self.is_infinite() || o.is_zero() {
            return Ok(if neg {
                Number::negative_infinity()
            } else {
                Number::positive_infinity()
            });
        }
        if o.is_infinite() || self.is_zero() {
            return Ok(Number::signed_zero(neg).with_prec(prec));
        }
        let (_, am, ae) = self.exact_parts().unwrap_or_default();
        let (_, bm, be) = o.exact_parts().unwrap_or_default();
        // Enough fractional digits that no rounding boundary of a float of `prec` bits near
        // the quotient lies strictly inside the last unit: then the truncated quotient plus a
        // sticky digit rounds as the exact one does.
        let log10 = (am.num_digits() as i64 + ae) - (bm.num_digits() as i64 + be) - 1;
        let log2_low = (log10 as f64 * std::f64::consts::LOG2_10).floor() as i64 - 4;
        let frac = (i64::from(prec) + 3 - log2_low).max(1);
        let shift = ae - be + frac;
        let (num, den) = if shift >= 0 {
            (am.mul(&Big::pow10(shift as usize)), bm)
        } else {
            (am, bm.mul(&Big::pow10(shift.unsigned_abs() as usize)))
        };
        let (q, r) = num.divmod(&den);
        if r.is_zero() {
            return Ok(round(neg, &q, -frac, prec));
        }
        let sticky = q.mul_small(10).add(&Big::from_u64(1));
        Ok(round(neg, &sticky, -frac - 1, prec))
    }

    /// Remainder as cty computes it: `a - b * trunc(a / b)` at the dividend's precision, the
    /// dividend itself for a zero or infinite divisor.
    pub fn rem(&self, o: &Number) -> Result<Number, String> {
        if o.is_zero() || o.is_infinite() {
            return Ok(self.clone());
        }
        if self.is_infinite() {
            return Ok(mul_prec(self, o, self.1.max(o.1)));
        }
        let (
            Repr::Finite {
                mant: am, exp: ae, ..
            },
            Repr::Finite {
                mant: bm, exp: be, ..
            },
        ) = (&self.0, &o.0)
        else {
            return Ok(self.clone());
        };
        // Integers: the exact remainder (with the dividend's sign; an exact multiple is +0).
        let small = |m: &Big, e: i64| e >= 0 && m.num_digits() as i64 + e <= 30;
        if !am.is_zero() && small(am, *ae) && small(bm, *be) {
            // Both are aligned to the smaller exponent, which the remainder keeps.
            let (x, y) = align(am, *ae, bm, *be);
            let (_, r) = x.divmod(&y);
            return Ok(if r.is_zero() {
                Number::zero().with_prec(self.1)
            } else {
                Number::finite_prec(self.signum() < 0, r, (*ae).min(*be), self.1)
            });
        }
        let q = self.div(o)?;
        let t = q.trunc();
        let (_, tm, te) = t.exact_parts().unwrap_or_default();
        let t = round(t.signum() < 0, &tm, te, self.1);
        let m = mul_prec(o, &t, self.1);
        Ok(add_prec(self, &m.neg(), self.1))
    }
}

fn add_prec(a: &Number, b: &Number, prec: u32) -> Number {
    if a.is_infinite() {
        return a.clone();
    }
    if b.is_infinite() {
        return b.clone();
    }
    let (an, am, ae) = a.exact_parts().unwrap_or_default();
    let (bn, bm, be) = b.exact_parts().unwrap_or_default();
    match (am.is_zero(), bm.is_zero()) {
        (true, true) => return Number::signed_zero(an && bn).with_prec(prec),
        (true, false) => return round(bn, &bm, be, prec),
        (false, true) => return round(an, &am, ae, prec),
        (false, false) => {}
    }
    // Far apart in magnitude: the smaller one cannot change the rounded result.
    let la = am.num_digits() as i64 + ae;
    let lb = bm.num_digits() as i64 + be;
    if (ae - be).abs() > MAX_ALIGN {
        return if la >= lb {
            round(an, &am, ae, prec)
        } else {
            round(bn, &bm, be, prec)
        };
    }
    let (x, y) = align(&am, ae, &bm, be);
    let e = ae.min(be);
    if an == bn {
        return round(an, &x.add(&y), e, prec);
    }
    match x.cmp(&y) {
        Ordering::Equal => Number::zero().with_prec(prec),
        Ordering::Greater => round(an, &x.sub(&y), e, prec),
        Ordering::Less => round(bn, &y.sub(&x), e, prec),
    }
}

fn mul_prec(a: &Number, b: &Number, prec: u32) -> Number {
    let neg = a.sign_bit() != b.sign_bit();
    if a.is_infinite() || b.is_infinite() {
        return match (a.is_zero() || b.is_zero(), neg) {
            (true, _) => Number::zero(),
            (false, true) => Number::negative_infinity(),
            (false, false) => Number::positive_infinity(),
        };
    }
    let (_, am, ae) = a.exact_parts().unwrap_or_default();
    let (_, bm, be) = b.exact_parts().unwrap_or_default();
    round(neg, &am.mul(&bm), ae + be, prec)
}

#[cfg(test)]
mod tests {
    use super::super::Number;

    fn n(s: &str) -> Number {
        Number::parse(s).unwrap()
    }

    #[test]
    fn results_round_to_512_bits_and_print_shortest() {
        let third = n("1").div(&n("3")).unwrap();
        assert_eq!(third.to_string(), "0.33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333335");
        let two = n("2").div(&n("3")).unwrap().checked_mul(&n("3")).unwrap();
        assert_eq!(two.to_string(), "2");
        assert_eq!(
            n("1").checked_sub(&n("0.9")).unwrap().to_string(),
            "0.10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003"
        );
        assert_eq!(n("0.1").checked_add(&n("0.2")).unwrap().to_string(), "0.3");
        assert_eq!(n("0.1").checked_mul(&n("1")).unwrap(), n("0.1"));
    }

    #[test]
    fn precision_follows_the_operands() {
        let a = Number::from_i64(1);
        let b = Number::from_i64(3);
        assert_eq!(a.div(&b).unwrap().to_string(), "0.33333333333333333334");
        let f = Number::from_f64(2f64.sqrt()).unwrap();
        assert_eq!(f.to_string(), "1.4142135623730951");
        assert_eq!(
            f.checked_mul(&n("1")).unwrap().to_string(),
            "1.4142135623730951454746218587388284504413604736328125"
        );
    }

    #[test]
    fn signed_zero_and_modulo() {
        assert_eq!(n("0").checked_mul(&n("-1")).unwrap().to_string(), "-0");
        assert_eq!(n("-0").to_string(), "-0");
        assert_eq!(n("-0").checked_add(&n("0")).unwrap().to_string(), "0");
        assert_eq!(n("-0").checked_sub(&n("0")).unwrap().to_string(), "-0");
        assert_eq!(n("-0"), n("0"));
        assert_eq!(n("1").div(&n("-0")).unwrap(), Number::negative_infinity());
        assert_eq!(n("5").rem(&n("0")).unwrap().to_string(), "5");
        assert_eq!(n("-5").rem(&n("3")).unwrap().to_string(), "-2");
        assert_eq!(n("5").rem(&n("-3")).unwrap().to_string(), "2");
        assert_eq!(n("5.5").rem(&n("2")).unwrap().to_string(), "1.5");
        assert_eq!(n("1e100").rem(&n("7")).unwrap().to_string(), "4");
        assert_eq!(
            n("10").rem(&n("3.3")).unwrap().to_string(),
            "0.10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000048"
        );
    }
}
