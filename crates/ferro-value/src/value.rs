//! Values: known, null or unknown, of any type, with marks.

use crate::{Number, ObjectType, Str, Type, ValueMap};
use serde::{Deserialize, Serialize};

use std::sync::Arc;

/// Marks carried by a value through every operation: "sensitive", and "ephemeral" (a value
/// that must not persist: from an ephemeral variable or output, Terraform 1.10+).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
pub struct Marks(u8);

impl Marks {
    pub const NONE: Marks = Marks(0);
    pub const SENSITIVE: Marks = Marks(1);
    pub const EPHEMERAL: Marks = Marks(2);

    pub fn is_sensitive(self) -> bool {
        self.0 & 1 != 0
    }
    pub fn is_ephemeral(self) -> bool {
        self.0 & 2 != 0
    }
    pub fn union(self, other: Marks) -> Marks {
        Marks(self.0 | other.0)
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The marks as a byte (for [`crate::Packed`]).
    pub fn bits(self) -> u8 {
        self.0
    }
    pub fn from_bits(bits: u8) -> Marks {
        Marks(bits)
    }
}

/// A value. `PartialEq` is *raw* equality (same type, same shape, unknowns equal to unknowns of
/// the same type, marks compared too); language-level `==` is [`crate::ops::equals`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Value {
    pub kind: ValueKind,
    pub marks: Marks,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ValueKind {
    Null(Type),
    Unknown(Type),
    Bool(bool),
    /// Boxed: a number is 48 bytes, and every value would be as large (numbers are rarer than
    /// strings in resource objects).
    Number(Arc<Number>),
    /// Short texts inline, longer ones shared (see [`Str`]).
    String(Str),
    /// Element type and elements (all conforming to the element type).
    List(Type, Arc<Vec<Value>>),
    /// Element type and elements, kept sorted (by `Value::set_order`) and free of duplicates.
    Set(Type, Arc<Vec<Value>>),
    Map(Type, Arc<ValueMap>),
    Tuple(Arc<Vec<Value>>),
    Object(Arc<ValueMap>),
}

/// One step of a path into a value: an attribute name or a key/index.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PathStep {
    Attr(String),
    /// A key: a number (list/tuple index), or a string (map key); sets use the element itself.
    Index(Value),
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    /// A total order used to keep sets canonical and to sort map-like output. Known values sort
    /// before unknowns and nulls; numbers numerically, strings byte-wise, false before true.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        crate::ops::set_order(self, other)
    }
}

impl Value {
    fn plain(kind: ValueKind) -> Value {
        Value {
            kind,
            marks: Marks::NONE,
        }
    }

    pub fn null(ty: Type) -> Value {
        Value::plain(ValueKind::Null(ty))
    }
    pub fn unknown(ty: Type) -> Value {
        Value::plain(ValueKind::Unknown(ty))
    }
    /// The wholly unknown value of dynamic type.
    pub fn dynamic_unknown() -> Value {
        Value::unknown(Type::Dynamic)
    }
    pub fn bool(b: bool) -> Value {
        Value::plain(ValueKind::Bool(b))
    }
    pub fn number(n: Number) -> Value {
        Value::plain(ValueKind::Number(Arc::new(n)))
    }
    pub fn int(i: i64) -> Value {
        Value::number(Number::from_i64(i))
    }
    /// A string, in Unicode normalization form C as cty keeps every string (so `"e\u0301"`
    /// equals `"é"`). ASCII and already-composed text is stored as given.
    pub fn string(s: impl Into<Str>) -> Value {
        let s: Str = s.into();
        if s.is_ascii()
            || unicode_normalization::is_nfc_quick(s.chars())
                == unicode_normalization::IsNormalized::Yes
        {
            return Value::plain(ValueKind::String(s));
        }
        let nfc: String = unicode_normalization::UnicodeNormalization::nfc(s.as_str()).collect();
        Value::plain(ValueKind::String(nfc.into()))
    }
    // The collection constructors free the room their vectors reserved beyond what they hold
    // (a vector grown by pushes starts at four entries): a value is immutable from here on,
    // and a resource's configuration and planned values are held once per instance.

    /// A list; `elem_ty` is used when `elems` is empty, otherwise it must match the elements.
    pub fn list(elem_ty: Type, mut elems: Vec<Value>) -> Value {
        elems.shrink_to_fit();
        Value::plain(ValueKind::List(elem_ty, Arc::new(elems)))
    }
    /// A set: the elements are sorted and de-duplicated here.
    /// A set. Its elements carry no marks, as in cty: the marks found in them (at any depth)
    /// are the set's own (a set with one sensitive element is wholly sensitive).
    pub fn set(elem_ty: Type, mut elems: Vec<Value>) -> Value {
        let mut marks = Marks::NONE;
        if elems.iter().any(Value::has_marks) {
            for e in &mut elems {
                let (plain, m) = e.deep_unmark();
                *e = plain;
                marks = marks.union(m);
            }
        }
        elems.sort();
        // As in cty, an element that is not wholly known equals nothing, not even an element
        // just like it: each stands for a value yet to come, which may or may not coincide.
        elems.dedup_by(|a, b| a == b && a.is_wholly_known());
        elems.shrink_to_fit();
        Value::plain(ValueKind::Set(elem_ty, Arc::new(elems))).with_marks(marks)
    }
    pub fn map(elem_ty: Type, mut entries: ValueMap) -> Value {
        entries.shrink_to_fit();
        Value::plain(ValueKind::Map(elem_ty, Arc::new(entries)))
    }
    pub fn tuple(mut elems: Vec<Value>) -> Value {
        elems.shrink_to_fit();
        Value::plain(ValueKind::Tuple(Arc::new(elems)))
    }
    pub fn object(mut attrs: ValueMap) -> Value {
        attrs.shrink_to_fit();
        Value::plain(ValueKind::Object(Arc::new(attrs)))
    }
    pub fn empty_object() -> Value {
        Value::object(ValueMap::new())
    }

    pub fn with_marks(mut self, marks: Marks) -> Value {
        self.marks = self.marks.union(marks);
        self
    }
    /// This value with the top-level marks in `marks` removed (the others kept).
    pub fn without_marks(&self, marks: Marks) -> Value {
        Value {
            kind: self.kind.clone(),
            marks: Marks(self.marks.0 & !marks.0),
        }
    }
    pub fn mark_sensitive(self) -> Value {
        self.with_marks(Marks::SENSITIVE)
    }
    /// This value without marks at the top level (nested values keep theirs).
    pub fn unmarked(&self) -> Value {
        Value {
            kind: self.kind.clone(),
            marks: Marks::NONE,
        }
    }
    pub fn is_sensitive(&self) -> bool {
        self.marks.is_sensitive()
    }
    /// True when this value or anything inside it carries the sensitive mark.
    pub fn contains_sensitive(&self) -> bool {
        if self.is_sensitive() {
            return true;
        }
        self.children().any(|v| v.contains_sensitive())
    }
    /// True when this value or anything inside it carries the ephemeral mark.
    pub fn contains_ephemeral(&self) -> bool {
        self.marks.is_ephemeral() || self.children().any(|v| v.contains_ephemeral())
    }
    /// The paths at which the ephemeral mark is (the outermost of nested ones).
    pub fn ephemeral_paths(&self) -> Vec<Vec<PathStep>> {
        fn walk(v: &Value, at: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
            if v.marks.is_ephemeral() {
                out.push(at.clone());
                return;
            }
            match &v.kind {
                ValueKind::List(_, es) | ValueKind::Tuple(es) => {
                    for (i, e) in es.iter().enumerate() {
                        at.push(PathStep::Index(Value::int(i as i64)));
                        walk(e, at, out);
                        at.pop();
                    }
                }
                ValueKind::Set(_, es) => {
                    for e in es.iter() {
                        at.push(PathStep::Index(e.unmarked()));
                        walk(e, at, out);
                        at.pop();
                    }
                }
                ValueKind::Map(_, m) => {
                    for (k, e) in m.iter() {
                        at.push(PathStep::Index(Value::string(k.to_string())));
                        walk(e, at, out);
                        at.pop();
                    }
                }
                ValueKind::Object(m) => {
                    for (k, e) in m.iter() {
                        at.push(PathStep::Attr(k.to_string()));
                        walk(e, at, out);
                        at.pop();
                    }
                }
                _ => {}
            }
        }
        let mut out = Vec::new();
        if self.contains_ephemeral() {
            walk(self, &mut Vec::new(), &mut out);
        }
        out
    }
    /// True when this value or anything inside it carries any mark.
    fn has_marks(&self) -> bool {
        !self.marks.is_empty() || self.children().any(Value::has_marks)
    }
    /// Remove marks at every depth; returns the marks that were found (unioned).
    pub fn deep_unmark(&self) -> (Value, Marks) {
        if !self.has_marks() {
            // Nothing to remove: the value is shared, not rebuilt.
            return (self.clone(), Marks::NONE);
        }
        let mut found = self.marks;
        let kind = match &self.kind {
            ValueKind::List(t, es) => {
                ValueKind::List(t.clone(), Arc::new(unmark_vec(es, &mut found)))
            }
            ValueKind::Set(t, es) => {
                ValueKind::Set(t.clone(), Arc::new(unmark_vec(es, &mut found)))
            }
            ValueKind::Tuple(es) => ValueKind::Tuple(Arc::new(unmark_vec(es, &mut found))),
            ValueKind::Map(t, m) => ValueKind::Map(t.clone(), Arc::new(unmark_map(m, &mut found))),
            ValueKind::Object(m) => ValueKind::Object(Arc::new(unmark_map(m, &mut found))),
            other => other.clone(),
        };
        (Value::plain(kind), found)
    }

    /// Whether its type is `dynamic` (a null or unknown of no known type): what
    /// `ty() == Type::Dynamic` says, without building a collection's whole type (a resource's
    /// tuple of 10 000 objects, in `length(aws_instance.web)`).
    pub fn is_dynamic(&self) -> bool {
        matches!(
            &self.kind,
            ValueKind::Null(Type::Dynamic) | ValueKind::Unknown(Type::Dynamic)
        )
    }

    pub fn is_null(&self) -> bool {
        matches!(self.kind, ValueKind::Null(_))
    }
    /// True when this value itself is unknown (not: contains an unknown).
    pub fn is_unknown(&self) -> bool {
        matches!(self.kind, ValueKind::Unknown(_))
    }
    pub fn is_known(&self) -> bool {
        !self.is_unknown()
    }
    /// True when neither this value nor anything inside it is unknown.
    pub fn is_wholly_known(&self) -> bool {
        !self.is_unknown() && self.children().all(Value::is_wholly_known)
    }

    /// Direct children of a collection or structural value (empty for anything else).
    pub fn children(&self) -> Box<dyn Iterator<Item = &Value> + '_> {
        match &self.kind {
            ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => {
                Box::new(es.iter())
            }
            ValueKind::Map(_, m) | ValueKind::Object(m) => Box::new(m.values()),
            _ => Box::new(std::iter::empty()),
        }
    }

    /// The value's type (for null and unknown: the type they were made with).
    pub fn ty(&self) -> Type {
        match &self.kind {
            ValueKind::Null(t) | ValueKind::Unknown(t) => t.clone(),
            ValueKind::Bool(_) => Type::Bool,
            ValueKind::Number(_) => Type::Number,
            ValueKind::String(_) => Type::String,
            ValueKind::List(t, _) => Type::list(t.clone()),
            ValueKind::Set(t, _) => Type::set(t.clone()),
            ValueKind::Map(t, _) => Type::map(t.clone()),
            ValueKind::Tuple(es) => Type::Tuple(es.iter().map(Value::ty).collect()),
            ValueKind::Object(m) => Type::from_object(ObjectType::new(
                m.iter().map(|(k, v)| (k.to_string(), v.ty())).collect(),
            )),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            ValueKind::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match &self.kind {
            ValueKind::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_number(&self) -> Option<&Number> {
        match &self.kind {
            ValueKind::Number(n) => Some(n),
            _ => None,
        }
    }
    /// Elements of a list, set or tuple.
    pub fn as_elements(&self) -> Option<&[Value]> {
        match &self.kind {
            ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => Some(es),
            _ => None,
        }
    }
    /// Entries of a map or attributes of an object.
    pub fn as_entries(&self) -> Option<&ValueMap> {
        match &self.kind {
            ValueKind::Map(_, m) | ValueKind::Object(m) => Some(m),
            _ => None,
        }
    }
    /// An object's attribute (None when this is not an object or has no such attribute).
    pub fn get_attr(&self, name: &str) -> Option<&Value> {
        match &self.kind {
            ValueKind::Object(m) => m.get(name),
            _ => None,
        }
    }
}

fn unmark_vec(es: &[Value], found: &mut Marks) -> Vec<Value> {
    es.iter()
        .map(|e| {
            let (v, m) = e.deep_unmark();
            *found = found.union(m);
            v
        })
        .collect()
}

fn unmark_map(m: &ValueMap, found: &mut Marks) -> ValueMap {
    m.iter()
        .map(|(k, e)| {
            let (v, mk) = e.deep_unmark();
            *found = found.union(mk);
            (k.clone(), v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_round_trip() {
        let v = Value::object(
            [
                (
                    "n".to_string(),
                    Value::number(Number::parse("1e21").unwrap()),
                ),
                (
                    "s".to_string(),
                    Value::set(Type::String, vec![Value::string("b"), Value::string("a")])
                        .mark_sensitive(),
                ),
                ("u".to_string(), Value::unknown(Type::list(Type::Number))),
            ]
            .into(),
        );
        let text = serde_json::to_string(&v).unwrap();
        assert!(text.contains("\"1000000000000000000000\""));
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
        assert!(back.contains_sensitive());
        assert!(!back.is_wholly_known());
    }
}
