//! Type conversion with Terraform's rules (cty/convert): safe and unsafe conversions, structural
//! to collection, primitives to and from string, and `optional` attributes in object constraints.

use crate::{PathStep, Type, Value};

/// Why a value could not be converted; `message` is Terraform's wording
/// (e.g. `a number is required`, `attribute "name" is required`), `path` where inside the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertError {
    pub path: Vec<PathStep>,
    pub message: String,
}

/// Convert `v` to conform to `ty` (which may contain `Dynamic` and optional attributes).
/// Unknown and null values convert to unknown/null of the target type; marks are kept.
pub fn convert(_v: &Value, _ty: &Type) -> Result<Value, ConvertError> {
    unimplemented!()
}
