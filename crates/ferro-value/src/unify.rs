//! Type unification: the single type a set of values can all convert to (conditional branches,
//! list/set/map literals via `tolist` etc.).

use crate::{Type, Value};

/// The most specific type all of `types` can safely convert to, or None.
pub fn unify(_types: &[Type]) -> Option<Type> {
    unimplemented!()
}

/// Unify the values' types and convert every value to that type.
pub fn unify_values(_values: &[Value]) -> Option<(Type, Vec<Value>)> {
    unimplemented!()
}
