//! An object's attributes as state holds them.
//!
//! A state file gives each object as cty JSON, written against a schema version that may be
//! older than the provider's. Until the planner decodes an object, state keeps its JSON as
//! text: a parsed JSON tree costs ten to twenty times the text it came from (every object is
//! a map with its own table, every string its own allocation), and most objects of a large
//! state are only ever handed back to their provider and written out again. Once the planner
//! has upgraded and decoded an object against the current schema, state holds the decoded
//! value instead, the same value the plan holds, so a state and the plan made from it keep one
//! copy of each object rather than a JSON tree beside a value. The JSON is produced again only
//! where a file or a reader wants it. An object the plan deletes is held in the packed form
//! the delete's prior value has, the same block (see [`Attributes::Packed`]).

use ferro_value::{json, Packed, Type, Value};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

#[derive(Debug, Clone)]
pub enum Attributes {
    /// As read from a state file, a journal or a backend, not decoded yet: cty JSON text,
    /// compact, with object members in name order as state files are written (see
    /// [`crate::codec::canonical`]).
    Json(Arc<str>),
    /// Decoded against a schema's type (see [`Attributes::from_value`]).
    Decoded(Arc<Decoded>),
    /// The block a plan's change holds as its prior value (`ResourceInstanceChange::before`),
    /// shared: a destroy plan holds every object of the state as a delete's prior, and state
    /// holds the same block rather than the object's text beside it. Its value (marks aside)
    /// is of the schema's type: `State::share_current_attributes` takes a block only then.
    Packed(Packed),
}

/// A value known to encode against its type: wholly known, conforming, unmarked.
#[derive(Debug)]
pub struct Decoded {
    value: Value,
    ty: Type,
}

impl Attributes {
    /// Attributes holding `value`, decoded against `ty` (a schema's implied type). Fails, as
    /// encoding for a state file would, when the value is not wholly known or does not
    /// conform to `ty`; the value kept is the one converted to `ty`, without marks.
    pub fn from_value(value: &Value, ty: &Type) -> Result<Attributes, String> {
        // Encoding is the check: a value that encodes once encodes again when written.
        let (value, _) = Self::conform(value, ty)?;
        Ok(Attributes::Decoded(Arc::new(Decoded {
            value,
            ty: ty.clone(),
        })))
    }

    /// Attributes holding `value` as its JSON text (failing as [`Attributes::from_value`]
    /// does): for an object nothing in this run reads again, such as one apply made for a
    /// resource no expression refers to. A null_resource's text is a quarter of its value.
    pub fn text_from_value(value: &Value, ty: &Type) -> Result<Attributes, String> {
        let (_, j) = Self::conform(value, ty)?;
        Ok(Attributes::from(j))
    }

    /// `value` unmarked and converted to `ty`, and its JSON.
    fn conform(value: &Value, ty: &Type) -> Result<(Value, serde_json::Value), String> {
        let (plain, _) = value.deep_unmark();
        let value = if *ty == Type::Dynamic || plain.ty() == *ty {
            plain
        } else {
            ferro_value::convert::convert(&plain, ty).map_err(|e| e.to_string())?
        };
        let j = json::value_to_json(&value, ty)?;
        Ok((value, j))
    }

    /// The attributes as cty JSON (object keys in name order, as state files have them).
    pub fn json(&self) -> serde_json::Value {
        match self {
            // Cannot fail: the text was written from a parsed JSON value.
            Attributes::Json(text) => serde_json::from_str(text).unwrap_or(serde_json::Value::Null),
            // Cannot fail: `from_value` encoded this value against this type.
            Attributes::Decoded(d) => {
                json::value_to_json(&d.value, &d.ty).unwrap_or(serde_json::Value::Null)
            }
            // Cannot fail: the block was taken only for a value state's text held exactly.
            Attributes::Packed(p) => {
                let v = unmarked(p);
                json::value_to_json(&v, &v.ty()).unwrap_or(serde_json::Value::Null)
            }
        }
    }

    /// The attributes as a value of `ty`: the decoded value itself (shared, not copied) when
    /// it was decoded against `ty`, else decoded from the JSON.
    pub fn to_value(&self, ty: &Type) -> Result<Value, String> {
        match self {
            Attributes::Decoded(d) if d.ty == *ty => Ok(d.value.clone()),
            Attributes::Packed(p) => {
                let v = unmarked(p);
                if v.ty() == *ty {
                    Ok(v)
                } else {
                    json::value_from_json(&self.json(), ty)
                }
            }
            _ => json::value_from_json(&self.json(), ty),
        }
    }

    /// Whether these attributes are `value` (wholly known, unmarked, of `ty`) as state holds
    /// it: decoded from it, or its JSON text exactly (as `From<serde_json::Value>` writes it).
    /// An object a refresh left as it was keeps its text, then, rather than the plan's value
    /// being put beside it.
    pub fn holds(&self, value: &Value, ty: &Type) -> bool {
        match self {
            Attributes::Decoded(d) if d.ty == *ty => d.value == *value,
            Attributes::Decoded(_) => false,
            Attributes::Json(text) => json::value_to_json(value, ty)
                .is_ok_and(|j| matches!(Attributes::from(j), Attributes::Json(t) if t == *text)),
            Attributes::Packed(p) => {
                let v = unmarked(p);
                v.ty() == *ty && v == *value
            }
        }
    }

    /// `packed` (a plan's prior value: `value` with marks, if any) in place of these
    /// attributes, when they hold `value` exactly and its type is `ty`; None otherwise.
    pub fn share_packed(&self, packed: &Packed, value: &Value, ty: &Type) -> Option<Attributes> {
        (value.ty() == *ty && self.holds(value, ty)).then(|| Attributes::Packed(packed.clone()))
    }

    /// The length of the JSON text, when these attributes are held as text.
    pub fn text_len(&self) -> Option<usize> {
        match self {
            Attributes::Json(text) => Some(text.len()),
            Attributes::Decoded(_) | Attributes::Packed(_) => None,
        }
    }

    /// The decoded value, when these attributes were decoded against `ty`.
    pub fn decoded(&self, ty: &Type) -> Option<&Value> {
        match self {
            Attributes::Decoded(d) if d.ty == *ty => Some(&d.value),
            _ => None,
        }
    }
}

/// A packed prior's value without its marks (state records sensitivity apart).
fn unmarked(p: &Packed) -> Value {
    p.value().deep_unmark().0
}

impl From<serde_json::Value> for Attributes {
    /// Attributes read as JSON, kept as their compact text in state's member order.
    fn from(j: serde_json::Value) -> Self {
        let text = serde_json::to_string(&crate::codec::canonical(&j))
            .unwrap_or_else(|_| "null".to_string());
        Attributes::Json(text.into())
    }
}

impl PartialEq for Attributes {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Attributes::Decoded(a), Attributes::Decoded(b)) if a.ty == b.ty => a.value == b.value,
            (Attributes::Json(a), Attributes::Json(b)) if a == b => true,
            _ => self.json() == other.json(),
        }
    }
}

impl Serialize for Attributes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Attributes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(d).map(Attributes::from)
    }
}

/// An object's `sensitive_attributes` as state records them (a JSON array of paths). Nearly
/// always empty, and then it holds nothing; otherwise the JSON is shared by the copies of the
/// object. It reads as the JSON value (`Deref`), `[]` when empty.
#[derive(Clone, Default)]
pub struct SensitiveAttributes(Option<Arc<serde_json::Value>>);

static NO_PATHS: serde_json::Value = serde_json::Value::Array(Vec::new());

impl std::ops::Deref for SensitiveAttributes {
    type Target = serde_json::Value;
    fn deref(&self) -> &serde_json::Value {
        self.0.as_deref().unwrap_or(&NO_PATHS)
    }
}

impl From<serde_json::Value> for SensitiveAttributes {
    fn from(v: serde_json::Value) -> Self {
        match &v {
            serde_json::Value::Array(paths) if paths.is_empty() => SensitiveAttributes(None),
            _ => SensitiveAttributes(Some(Arc::new(v))),
        }
    }
}

impl PartialEq for SensitiveAttributes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for SensitiveAttributes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

impl Serialize for SensitiveAttributes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for SensitiveAttributes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(d).map(Into::into)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_value::ValueMap;
    use std::collections::BTreeMap;

    fn object_type() -> Type {
        Type::object(BTreeMap::from([
            ("id".to_string(), Type::String),
            ("n".to_string(), Type::Number),
        ]))
    }

    fn object(id: &str) -> Value {
        Value::object(ValueMap::from_iter([
            ("id".to_string(), Value::string(id)),
            ("n".to_string(), Value::int(3)),
        ]))
    }

    #[test]
    fn decoded_values_are_shared_and_written_as_state_json() {
        let ty = object_type();
        let v = object("a-long-identifier");
        let attrs = Attributes::from_value(&v, &ty).unwrap();
        assert_eq!(
            attrs.json(),
            serde_json::json!({"id": "a-long-identifier", "n": 3})
        );
        let back = attrs.to_value(&ty).unwrap();
        assert_eq!(back, v);
        // The same strings, not copies of them.
        let (ferro_value::ValueKind::Object(a), ferro_value::ValueKind::Object(b)) =
            (&back.kind, &v.kind)
        else {
            panic!("objects expected");
        };
        assert!(Arc::ptr_eq(a, b));
        // Equal to the JSON a state file would give for it.
        let read: Attributes = serde_json::json!({"id": "a-long-identifier", "n": 3}).into();
        assert_eq!(attrs, read);
        assert_eq!(read.to_value(&ty).unwrap(), v);
    }

    #[test]
    fn json_read_is_kept_as_compact_text_in_state_order() {
        let file = r#"{
          "zone": "a",
          "id": "x",
          "extra": {"value": "v", "type": "string"},
          "nums": [1.50, 2]
        }"#;
        let read: Attributes = serde_json::from_str::<serde_json::Value>(file)
            .unwrap()
            .into();
        let Attributes::Json(text) = &read else {
            panic!("JSON attributes expected");
        };
        // Members in name order, except a dynamic-value wrapper's; numbers as written.
        assert_eq!(
            &**text,
            r#"{"extra":{"value":"v","type":"string"},"id":"x","nums":[1.50,2],"zone":"a"}"#
        );
        assert_eq!(
            serde_json::to_string(&read.json()).unwrap(),
            r#"{"extra":{"value":"v","type":"string"},"id":"x","nums":[1.50,2],"zone":"a"}"#
        );
        // The same object read with its members in another order is the same attributes.
        let again: Attributes = serde_json::from_str::<serde_json::Value>(
            r#"{"id": "x", "zone": "a", "nums": [1.50, 2], "extra": {"value": "v", "type": "string"}}"#,
        )
        .unwrap()
        .into();
        assert_eq!(read, again);
        let ty = Type::object(BTreeMap::from([
            ("id".to_string(), Type::String),
            ("zone".to_string(), Type::String),
        ]));
        let flat: Attributes = serde_json::json!({"zone": "a", "id": "x"}).into();
        assert_eq!(
            flat.to_value(&ty).unwrap().get_attr("zone"),
            Some(&Value::string("a"))
        );
    }

    #[test]
    fn values_a_state_file_cannot_hold_are_refused() {
        let ty = object_type();
        let unknown = Value::object(ValueMap::from_iter([
            ("id".to_string(), Value::unknown(Type::String)),
            ("n".to_string(), Value::int(3)),
        ]));
        assert!(Attributes::from_value(&unknown, &ty).is_err());
        assert!(Attributes::from_value(&Value::string("x"), &ty).is_err());
    }

    #[test]
    fn attributes_held_as_text_read_and_write_as_the_value() {
        let ty = object_type();
        let v = object("an-id");
        let text = Attributes::text_from_value(&v, &ty).unwrap();
        assert!(text.decoded(&ty).is_none());
        assert_eq!(text.text_len(), Some(r#"{"id":"an-id","n":3}"#.len()));
        assert_eq!(text.to_value(&ty).unwrap(), v);
        assert_eq!(text, Attributes::from_value(&v, &ty).unwrap());
        assert!(text.holds(&v, &ty));
        // Not wholly known: refused, as from_value refuses it.
        let unknown = Value::object(ValueMap::from_iter([
            ("id".to_string(), Value::unknown(Type::String)),
            ("n".to_string(), Value::int(3)),
        ]));
        assert!(Attributes::text_from_value(&unknown, &ty).is_err());
    }

    #[test]
    fn a_value_decoded_against_another_type_is_decoded_again() {
        let ty = object_type();
        let attrs = Attributes::from_value(&object("x"), &ty).unwrap();
        // A newer schema with one more attribute: the stored JSON lacks it, so it is null.
        let wider = Type::object(BTreeMap::from([
            ("id".to_string(), Type::String),
            ("n".to_string(), Type::Number),
            ("tags".to_string(), Type::Map(Box::new(Type::String))),
        ]));
        assert!(attrs.decoded(&wider).is_none());
        let v = attrs.to_value(&wider).unwrap();
        assert_eq!(
            v.get_attr("tags"),
            Some(&Value::null(Type::Map(Box::new(Type::String))))
        );
        assert_eq!(v.get_attr("id"), Some(&Value::string("x")));
    }

    #[test]
    fn sensitive_attributes_hold_nothing_when_empty() {
        let empty = SensitiveAttributes::from(serde_json::json!([]));
        assert!(empty.0.is_none());
        assert_eq!(*empty, serde_json::json!([]));
        assert_eq!(empty, SensitiveAttributes::default());
        let paths = serde_json::json!([[{"type": "get_attr", "value": "secret"}]]);
        let some = SensitiveAttributes::from(paths.clone());
        let copy = some.clone();
        assert!(Arc::ptr_eq(
            some.0.as_ref().unwrap(),
            copy.0.as_ref().unwrap()
        ));
        assert_eq!(serde_json::to_value(&some).unwrap(), paths);
        let back: SensitiveAttributes = serde_json::from_value(paths).unwrap();
        assert_eq!(back, some);
        assert_ne!(back, empty);
        assert_eq!(serde_json::to_string(&empty).unwrap(), "[]");
    }

    /// A delete's packed prior takes the place of the text it is exactly, and is written as
    /// that text; a text the value would not write back as it is (a number written `1.50`)
    /// is kept.
    #[test]
    fn a_packed_prior_replaces_the_text_it_holds_exactly() {
        let ty = object_type();
        let v = object("x");
        let packed = ferro_value::Packed::new(&v.clone().mark_sensitive());
        let read: Attributes = serde_json::json!({"n": 3, "id": "x"}).into();
        let shared = read
            .share_packed(&packed, &v, &ty)
            .expect("the same object");
        assert!(matches!(shared, Attributes::Packed(_)));
        assert_eq!(shared.json(), read.json());
        assert_eq!(shared, read);
        // Read back without the marks the plan's value carries.
        assert_eq!(shared.to_value(&ty).unwrap(), v);
        assert!(shared.holds(&v, &ty));
        assert_eq!(shared.text_len(), None);
        let other: Attributes =
            serde_json::from_str::<serde_json::Value>(r#"{"id": "x", "n": 3.0}"#)
                .unwrap()
                .into();
        assert!(other.share_packed(&packed, &v, &ty).is_none());
        let different: Attributes = serde_json::json!({"n": 4, "id": "x"}).into();
        assert!(different.share_packed(&packed, &v, &ty).is_none());
    }
}
