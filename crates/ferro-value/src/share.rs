//! Sharing memory between two values that mostly agree: a value decoded from a provider's
//! answer (a planned or applied object) takes the parts equal to its prior from the prior, so
//! the two hold one copy of those parts instead of two.

use crate::{Value, ValueKind, ValueMap};
use std::sync::Arc;

impl Value {
    /// This value, with every part that is raw-equal to the part at the same place of `like`
    /// (same type, same contents, same marks) replaced by `like`'s, which shares its memory.
    /// The result is raw-equal to `self`.
    pub fn share_from(self, like: &Value) -> Value {
        let marks = self.marks;
        let kind = match (self.kind, &like.kind) {
            (ValueKind::String(a), ValueKind::String(b)) if a == *b => ValueKind::String(b.clone()),
            (ValueKind::Object(a), ValueKind::Object(b)) => {
                let (m, all) = share_map(a, b);
                if all && m.len() == b.len() {
                    ValueKind::Object(b.clone())
                } else {
                    ValueKind::Object(m)
                }
            }
            (ValueKind::Map(t, a), ValueKind::Map(u, b)) if t == *u => {
                let (m, all) = share_map(a, b);
                if all && m.len() == b.len() {
                    ValueKind::Map(t, b.clone())
                } else {
                    ValueKind::Map(t, m)
                }
            }
            (ValueKind::List(t, a), ValueKind::List(u, b)) if t == *u => {
                let (v, all) = share_vec(a, b);
                if all && v.len() == b.len() {
                    ValueKind::List(t, b.clone())
                } else {
                    ValueKind::List(t, v)
                }
            }
            (ValueKind::Tuple(a), ValueKind::Tuple(b)) => {
                let (v, all) = share_vec(a, b);
                if all && v.len() == b.len() {
                    ValueKind::Tuple(b.clone())
                } else {
                    ValueKind::Tuple(v)
                }
            }
            (ValueKind::Set(t, a), ValueKind::Set(u, b)) if t == *u => {
                // Sets are kept sorted; equal sets share whole, others are left alone.
                if a == *b {
                    ValueKind::Set(t, b.clone())
                } else {
                    ValueKind::Set(t, a)
                }
            }
            (kind, _) => kind,
        };
        Value { kind, marks }
    }

    /// Whether `self` holds the very memory of `other` (or is an equal scalar), with the same
    /// marks: what [`Value::share_from`] produces for an equal part.
    fn same_as(&self, other: &Value) -> bool {
        if self.marks != other.marks {
            return false;
        }
        match (&self.kind, &other.kind) {
            (ValueKind::String(a), ValueKind::String(b)) => a.same_as(b),
            (ValueKind::List(_, a), ValueKind::List(_, b))
            | (ValueKind::Set(_, a), ValueKind::Set(_, b))
            | (ValueKind::Tuple(a), ValueKind::Tuple(b)) => Arc::ptr_eq(a, b),
            (ValueKind::Map(_, a), ValueKind::Map(_, b))
            | (ValueKind::Object(a), ValueKind::Object(b)) => Arc::ptr_eq(a, b),
            (a, b) => a == b,
        }
    }
}

fn share_map(a: Arc<ValueMap>, b: &Arc<ValueMap>) -> (Arc<ValueMap>, bool) {
    if Arc::ptr_eq(&a, b) {
        return (a, true);
    }
    let mut all = true;
    let m: ValueMap = Arc::unwrap_or_clone(a)
        .into_iter()
        .map(|(k, v)| {
            let v = match b.get(&k) {
                Some(l) => {
                    let v = v.share_from(l);
                    all &= v.same_as(l);
                    v
                }
                None => {
                    all = false;
                    v
                }
            };
            (k, v)
        })
        .collect();
    (Arc::new(m), all)
}

fn share_vec(a: Arc<Vec<Value>>, b: &Arc<Vec<Value>>) -> (Arc<Vec<Value>>, bool) {
    if Arc::ptr_eq(&a, b) {
        return (a, true);
    }
    let mut all = true;
    let v: Vec<Value> = Arc::unwrap_or_clone(a)
        .into_iter()
        .enumerate()
        .map(|(i, v)| match b.get(i) {
            Some(l) => {
                let v = v.share_from(l);
                all &= v.same_as(l);
                v
            }
            None => {
                all = false;
                v
            }
        })
        .collect();
    (Arc::new(v), all)
}

#[cfg(test)]
mod tests {
    use crate::{Type, Value, ValueKind};

    fn obj(pairs: &[(&str, Value)]) -> Value {
        Value::object(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect::<crate::ValueMap>(),
        )
    }

    fn string_of(v: &Value, attr: &str) -> crate::Str {
        match &v.as_entries().unwrap()[attr].kind {
            ValueKind::String(s) => s.clone(),
            other => panic!("not a string: {other:?}"),
        }
    }

    #[test]
    fn an_equal_value_is_the_prior_itself() {
        let prior = obj(&[("id", Value::string("x".repeat(100))), ("n", Value::int(1))]);
        let decoded = obj(&[("id", Value::string("x".repeat(100))), ("n", Value::int(1))]);
        let shared = decoded.clone().share_from(&prior);
        assert_eq!(shared, decoded);
        assert!(shared.same_as(&prior));
    }

    #[test]
    fn equal_parts_of_a_changed_value_are_shared_and_the_change_is_kept() {
        let big = "y".repeat(1000);
        let prior = obj(&[("id", Value::string(big.clone())), ("n", Value::int(1))]);
        let decoded = obj(&[("id", Value::string(big)), ("n", Value::int(2))]);
        let shared = decoded.clone().share_from(&prior);
        assert_eq!(shared, decoded);
        assert!(!shared.same_as(&prior));
        assert!(string_of(&shared, "id").same_as(&string_of(&prior, "id")));
    }

    #[test]
    fn marks_and_types_are_never_taken_from_the_prior() {
        let prior = obj(&[("s", Value::string("a").mark_sensitive())]);
        let decoded = obj(&[("s", Value::string("a"))]);
        let shared = decoded.clone().share_from(&prior);
        assert_eq!(shared, decoded);
        let prior = Value::null(Type::String);
        let decoded = Value::null(Type::Number);
        assert_eq!(decoded.clone().share_from(&prior), decoded);
    }
}
