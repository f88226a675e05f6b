//! The unsigned big integer behind [`super::Number`]: decimal limbs (base 10^9), so that
//! multiplying or dividing by a power of ten is a matter of digits and printing is direct.

use std::cmp::Ordering;

const BASE: u64 = 1_000_000_000;

/// An unsigned big integer: little-endian limbs in base 10^9, no high zero limbs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub(super) struct Big(pub(super) Vec<u32>);

impl Big {
    pub(super) fn zero() -> Big {
        Big(Vec::new())
    }
    pub(super) fn from_u64(mut v: u64) -> Big {
        let mut limbs = Vec::new();
        while v > 0 {
            limbs.push((v % BASE) as u32);
            v /= BASE;
        }
        Big(limbs)
    }
    pub(super) fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    pub(super) fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }
    /// Parse a string of ASCII digits (may have leading zeros).
    pub(super) fn from_digits(digits: &[u8]) -> Big {
        let mut limbs = Vec::with_capacity(digits.len() / 9 + 1);
        let mut end = digits.len();
        while end > 0 {
            let start = end.saturating_sub(9);
            let mut limb = 0u32;
            for &d in &digits[start..end] {
                limb = limb * 10 + u32::from(d - b'0');
            }
            limbs.push(limb);
            end = start;
        }
        let mut b = Big(limbs);
        b.trim();
        b
    }
    pub(super) fn to_digits(&self) -> String {
        match self.0.split_last() {
            None => "0".to_string(),
            Some((top, rest)) => {
                let mut s = top.to_string();
                for limb in rest.iter().rev() {
                    s.push_str(&format!("{limb:09}"));
                }
                s
            }
        }
    }
    pub(super) fn num_digits(&self) -> usize {
        match self.0.last() {
            None => 0,
            Some(top) => (self.0.len() - 1) * 9 + top.to_string().len(),
        }
    }
    pub(super) fn pow10(n: usize) -> Big {
        let mut limbs = vec![0u32; n / 9];
        limbs.push(10u32.pow((n % 9) as u32));
        Big(limbs)
    }
    pub(super) fn cmp(&self, o: &Big) -> Ordering {
        if self.0.len() != o.0.len() {
            return self.0.len().cmp(&o.0.len());
        }
        for (a, b) in self.0.iter().rev().zip(o.0.iter().rev()) {
            if a != b {
                return a.cmp(b);
            }
        }
        Ordering::Equal
    }
    pub(super) fn add(&self, o: &Big) -> Big {
        let n = self.0.len().max(o.0.len());
        let mut out = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let s = u64::from(*self.0.get(i).unwrap_or(&0))
                + u64::from(*o.0.get(i).unwrap_or(&0))
                + carry;
            out.push((s % BASE) as u32);
            carry = s / BASE;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        Big(out)
    }
    /// `self - o`; requires `self >= o`.
    pub(super) fn sub(&self, o: &Big) -> Big {
        let mut out = Vec::with_capacity(self.0.len());
        let mut borrow = 0i64;
        for i in 0..self.0.len() {
            let mut d = i64::from(self.0[i]) - i64::from(*o.0.get(i).unwrap_or(&0)) - borrow;
            if d < 0 {
                d += BASE as i64;
                borrow = 1;
            } else {
                borrow = 0;
            }
            out.push(d as u32);
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    pub(super) fn mul(&self, o: &Big) -> Big {
        if self.is_zero() || o.is_zero() {
            return Big::zero();
        }
        let mut acc = vec![0u64; self.0.len() + o.0.len() + 1];
        for (i, &a) in self.0.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let mut carry = 0u64;
            for (j, &b) in o.0.iter().enumerate() {
                let cur = acc[i + j] + u64::from(a) * u64::from(b) + carry;
                acc[i + j] = cur % BASE;
                carry = cur / BASE;
            }
            let mut k = i + o.0.len();
            while carry > 0 {
                let cur = acc[k] + carry;
                acc[k] = cur % BASE;
                carry = cur / BASE;
                k += 1;
            }
        }
        let mut b = Big(acc.into_iter().map(|x| x as u32).collect());
        b.trim();
        b
    }
    pub(super) fn mul_small(&self, m: u32) -> Big {
        let mut out = Vec::with_capacity(self.0.len() + 1);
        let mut carry = 0u64;
        for &l in &self.0 {
            let cur = u64::from(l) * u64::from(m) + carry;
            out.push((cur % BASE) as u32);
            carry = cur / BASE;
        }
        if carry > 0 {
            out.push(carry as u32);
        }
        let mut b = Big(out);
        b.trim();
        b
    }
    pub(super) fn divmod_small(&self, d: u32) -> (Big, u32) {
        let mut out = vec![0u32; self.0.len()];
        let mut rem = 0u64;
        for i in (0..self.0.len()).rev() {
            let cur = rem * BASE + u64::from(self.0[i]);
            out[i] = (cur / u64::from(d)) as u32;
            rem = cur % u64::from(d);
        }
        let mut b = Big(out);
        b.trim();
        (b, rem as u32)
    }
    /// Long division (decimal digit by digit). `d` must not be zero.
    pub(super) fn divmod(&self, d: &Big) -> (Big, Big) {
        if self.cmp(d) == Ordering::Less {
            return (Big::zero(), self.clone());
        }
        if d.0.len() == 1 {
            let (q, r) = self.divmod_small(d.0[0]);
            return (q, Big::from_u64(u64::from(r)));
        }
        // Multiples 1..9 of the divisor, to pick each quotient digit by comparison.
        let multiples: Vec<Big> = (1..=9).map(|k| d.mul_small(k)).collect();
        let digits = self.to_digits();
        let mut q_digits = Vec::with_capacity(digits.len());
        let mut rem = Big::zero();
        for &c in digits.as_bytes() {
            rem = rem.mul_small(10).add(&Big::from_u64(u64::from(c - b'0')));
            let mut qd = 0u8;
            for (k, m) in multiples.iter().enumerate().rev() {
                if m.cmp(&rem) != Ordering::Greater {
                    qd = k as u8 + 1;
                    rem = rem.sub(m);
                    break;
                }
            }
            q_digits.push(b'0' + qd);
        }
        (Big::from_digits(&q_digits), rem)
    }
    pub(super) fn to_u64(&self) -> Option<u64> {
        let mut v: u64 = 0;
        for &l in self.0.iter().rev() {
            v = v.checked_mul(BASE)?.checked_add(u64::from(l))?;
        }
        Some(v)
    }
}

impl Big {
    /// `base^exp` by repeated squaring.
    pub(super) fn pow(base: u32, exp: u64) -> Big {
        let mut result = Big::from_u64(1);
        let mut square = Big::from_u64(u64::from(base));
        let mut e = exp;
        while e > 0 {
            if e & 1 == 1 {
                result = result.mul(&square);
            }
            e >>= 1;
            if e > 0 {
                square = square.mul(&square);
            }
        }
        result
    }
    pub(super) fn is_odd(&self) -> bool {
        self.0.first().is_some_and(|l| l % 2 == 1)
    }
}
