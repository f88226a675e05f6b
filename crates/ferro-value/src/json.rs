//! JSON forms: cty type JSON, cty value JSON driven by a type (state attributes, outputs), and
//! plain JSON of a value's own type (`show -json`).

use crate::{Type, Value};

/// `"string"`, `["list","string"]`, `["object",{"a":"number"}]`, … (object optional attrs as 3rd element).
pub fn type_to_json(_t: &Type) -> serde_json::Value {
    unimplemented!()
}

pub fn type_from_json(_j: &serde_json::Value) -> Result<Type, String> {
    unimplemented!()
}

/// Encode against `ty`: where `ty` is Dynamic the value is wrapped `{"value": …, "type": …}`.
/// Unknown values are an error ("value is not known"); marks are ignored.
pub fn value_to_json(_v: &Value, _ty: &Type) -> Result<serde_json::Value, String> {
    unimplemented!()
}

/// Decode against `ty` (lenient as cty: missing object attributes are null, primitive coercions allowed).
pub fn value_from_json(_j: &serde_json::Value, _ty: &Type) -> Result<Value, String> {
    unimplemented!()
}

/// Encode with the value's own concrete type, no wrappers. Unknown values become JSON null.
pub fn value_to_plain_json(_v: &Value) -> serde_json::Value {
    unimplemented!()
}

/// Decode JSON without a type: objects become objects, arrays tuples, numbers numbers (`jsondecode`).
pub fn value_from_plain_json(_j: &serde_json::Value) -> Value {
    unimplemented!()
}
