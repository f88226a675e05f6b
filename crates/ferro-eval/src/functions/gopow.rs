//! `math.Pow` as Go computes it (Terraform's `pow`): the fractional part of the exponent through
//! `exp(y·log x)`, the integer part by repeated squaring of the mantissa. The last bit of the
//! result differs from the C library's `pow` for many arguments, so the same algorithm is used.

/// Go's `math.Pow(x, y)`.
pub(crate) fn pow(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if y == 1.0 {
        return x;
    }
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if x == 0.0 {
        return if y < 0.0 {
            if is_odd_int(y) {
                f64::INFINITY.copysign(x)
            } else {
                f64::INFINITY
            }
        } else if is_odd_int(y) {
            x
        } else {
            0.0
        };
    }
    if y.is_infinite() {
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if x.is_infinite() {
        if x < 0.0 {
            return pow(1.0 / x, -y);
        }
        return if y < 0.0 { 0.0 } else { f64::INFINITY };
    }
    if y == 0.5 {
        return x.sqrt();
    }
    if y == -0.5 {
        return 1.0 / x.sqrt();
    }
    let mut yi = y.abs().trunc();
    let mut yf = y.abs() - yi;
    if yf != 0.0 && x < 0.0 {
        return f64::NAN;
    }
    if yi >= 2f64.powi(63) {
        // yi is a large even integer.
        return if x == -1.0 {
            1.0
        } else if (x.abs() < 1.0) == (y > 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
    }
    let mut a1 = 1.0;
    let mut ae: i64 = 0;
    if yf != 0.0 {
        if yf > 0.5 {
            yf -= 1.0;
            yi += 1.0;
        }
        a1 = (yf * x.ln()).exp();
    }
    let (mut x1, mut xe) = frexp(x);
    let mut i = yi as i64;
    while i != 0 {
        if !(-(1 << 12)..=(1 << 12)).contains(&xe) {
            ae += xe;
            break;
        }
        if i & 1 == 1 {
            a1 *= x1;
            ae += xe;
        }
        x1 *= x1;
        xe <<= 1;
        if x1 < 0.5 {
            x1 += x1;
            xe -= 1;
        }
        i >>= 1;
    }
    if y < 0.0 {
        a1 = 1.0 / a1;
        ae = -ae;
    }
    ldexp(a1, ae)
}

fn is_odd_int(y: f64) -> bool {
    y.fract() == 0.0 && y.abs() < 9.007_199_254_740_992e15 && (y as i64) % 2 != 0
}

/// Mantissa in [0.5, 1) and exponent.
fn frexp(f: f64) -> (f64, i64) {
    if f == 0.0 || !f.is_finite() {
        return (f, 0);
    }
    let mut e = 0i64;
    let mut f = f;
    if f.abs() < f64::MIN_POSITIVE {
        f *= (1u64 << 52) as f64;
        e = -52;
    }
    let bits = f.to_bits();
    e += ((bits >> 52) & 0x7ff) as i64 - 1022;
    let m = f64::from_bits((bits & !(0x7ff << 52)) | (1022 << 52));
    (m, e)
}

/// `frac × 2^exp` with gradual underflow and overflow to infinity.
fn ldexp(frac: f64, exp: i64) -> f64 {
    if frac == 0.0 || !frac.is_finite() {
        return frac;
    }
    let (m, e) = frexp(frac);
    let mut exp = exp + e;
    let mut x = m;
    // Scale in steps that stay within the exponent range.
    while exp > 1000 {
        x *= 2f64.powi(1000);
        exp -= 1000;
        if x.is_infinite() {
            return x;
        }
    }
    while exp < -1000 {
        x *= 2f64.powi(-1000);
        exp += 1000;
        if x == 0.0 {
            return x;
        }
    }
    x * 2f64.powi(exp as i32)
}

#[cfg(test)]
mod tests {
    #[test]
    fn matches_go() {
        assert_eq!(super::pow(2.0, 2.5).to_string(), "5.65685424949238");
        assert_eq!(super::pow(2.0, 8.0), 256.0);
        assert_eq!(super::pow(2.0, -1.0), 0.5);
        assert_eq!(super::pow(10.0, 1e6), f64::INFINITY);
        assert!(super::pow(-8.0, 0.5).is_nan());
    }
}
