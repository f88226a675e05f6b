//! Arbitrary-precision numbers with Terraform's (cty's) semantics.
//! CONTRACT (to be implemented): see docs in each fn.

use serde::{Deserialize, Serialize};

/// A number. Equality, ordering and hashing are numeric (1 == 1.0).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Number(String);

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}
impl Eq for Number {}
impl std::hash::Hash for Number {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.to_string().hash(state)
    }
}
impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Number {
    fn cmp(&self, _other: &Self) -> std::cmp::Ordering {
        unimplemented!("numeric order")
    }
}
impl std::fmt::Display for Number {
    /// Canonical decimal text as cty writes it: no exponent, minimal digits (`1`, `1.5`, `0.1`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Number {
    pub fn from_i64(i: i64) -> Number {
        Number(i.to_string())
    }
    /// None for NaN.
    pub fn from_f64(_f: f64) -> Option<Number> {
        unimplemented!()
    }
    /// Parse an HCL/JSON number literal or decimal string (`1`, `-2.5`, `1e10`, `1.5E-3`).
    pub fn parse(_s: &str) -> Option<Number> {
        unimplemented!()
    }
    /// Exact integer value when it fits in i64.
    pub fn to_i64(&self) -> Option<i64> {
        unimplemented!()
    }
    pub fn to_f64(&self) -> f64 {
        unimplemented!()
    }
    pub fn is_integer(&self) -> bool {
        unimplemented!()
    }
    pub fn add(&self, _o: &Number) -> Number {
        unimplemented!()
    }
    pub fn sub(&self, _o: &Number) -> Number {
        unimplemented!()
    }
    pub fn mul(&self, _o: &Number) -> Number {
        unimplemented!()
    }
    /// Err on division by zero with Terraform's message.
    pub fn div(&self, _o: &Number) -> Result<Number, String> {
        unimplemented!()
    }
    pub fn rem(&self, _o: &Number) -> Result<Number, String> {
        unimplemented!()
    }
    pub fn neg(&self) -> Number {
        unimplemented!()
    }
}
