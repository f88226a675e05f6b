//! Types: primitives, collections, structural types and the dynamic pseudo-type.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Type {
    String,
    Number,
    Bool,
    /// The dynamic pseudo-type (`any` in type constraints): "not decided yet".
    Dynamic,
    List(Box<Type>),
    Set(Box<Type>),
    Map(Box<Type>),
    /// Shared, so a type is two words (and a value three).
    Tuple(TupleTypes),
    /// Shared: object types are copied into every null and unknown value of that type.
    Object(std::sync::Arc<ObjectType>),
}

/// A tuple type's element types, shared (one word, so a type is two words and a value four).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TupleTypes(std::sync::Arc<Vec<Type>>);

impl std::ops::Deref for TupleTypes {
    type Target = [Type];
    fn deref(&self) -> &[Type] {
        &self.0
    }
}

impl std::ops::DerefMut for TupleTypes {
    /// Copies the element types first when they are shared.
    fn deref_mut(&mut self) -> &mut [Type] {
        std::sync::Arc::make_mut(&mut self.0).as_mut_slice()
    }
}

impl From<Vec<Type>> for TupleTypes {
    fn from(v: Vec<Type>) -> Self {
        TupleTypes(std::sync::Arc::new(v))
    }
}

impl FromIterator<Type> for TupleTypes {
    fn from_iter<I: IntoIterator<Item = Type>>(iter: I) -> Self {
        TupleTypes::from(iter.into_iter().collect::<Vec<_>>())
    }
}

impl<'a> IntoIterator for &'a TupleTypes {
    type Item = &'a Type;
    type IntoIter = std::slice::Iter<'a, Type>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl IntoIterator for TupleTypes {
    type Item = Type;
    type IntoIter = std::vec::IntoIter<Type>;
    fn into_iter(self) -> Self::IntoIter {
        std::sync::Arc::unwrap_or_clone(self.0).into_iter()
    }
}

/// An object type. `optional` is only meaningful in type constraints (`optional(T)` attributes).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize)]
pub struct ObjectType {
    pub attrs: BTreeMap<String, Type>,
    pub optional: BTreeSet<String>,
}

impl ObjectType {
    pub fn new(attrs: BTreeMap<String, Type>) -> Self {
        ObjectType {
            attrs,
            optional: BTreeSet::new(),
        }
    }
}

impl Type {
    pub fn list(t: Type) -> Type {
        Type::List(Box::new(t))
    }
    pub fn set(t: Type) -> Type {
        Type::Set(Box::new(t))
    }
    pub fn map(t: Type) -> Type {
        Type::Map(Box::new(t))
    }
    pub fn from_object(o: ObjectType) -> Type {
        Type::Object(std::sync::Arc::new(o))
    }
    pub fn object(attrs: impl IntoIterator<Item = (String, Type)>) -> Type {
        Type::from_object(ObjectType::new(attrs.into_iter().collect()))
    }
    pub fn empty_object() -> Type {
        Type::from_object(ObjectType::default())
    }

    pub fn is_primitive(&self) -> bool {
        matches!(self, Type::String | Type::Number | Type::Bool)
    }

    pub fn is_collection(&self) -> bool {
        matches!(self, Type::List(_) | Type::Set(_) | Type::Map(_))
    }

    /// The element type of a list, set or map.
    pub fn element_type(&self) -> Option<&Type> {
        match self {
            Type::List(t) | Type::Set(t) | Type::Map(t) => Some(t),
            _ => None,
        }
    }

    /// True when `Dynamic` appears anywhere inside this type.
    pub fn has_dynamic(&self) -> bool {
        match self {
            Type::Dynamic => true,
            Type::String | Type::Number | Type::Bool => false,
            Type::List(t) | Type::Set(t) | Type::Map(t) => t.has_dynamic(),
            Type::Tuple(ts) => ts.iter().any(Type::has_dynamic),
            Type::Object(o) => o.attrs.values().any(Type::has_dynamic),
        }
    }

    /// The name Terraform uses in messages: `string`, `list of string`, `object`, `tuple`, ….
    pub fn friendly_name(&self) -> String {
        match self {
            Type::String => "string".into(),
            Type::Number => "number".into(),
            Type::Bool => "bool".into(),
            Type::Dynamic => "dynamic".into(),
            Type::List(t) => format!("list of {}", t.friendly_name()),
            Type::Set(t) => format!("set of {}", t.friendly_name()),
            Type::Map(t) => format!("map of {}", t.friendly_name()),
            Type::Tuple(_) => "tuple".into(),
            Type::Object(_) => "object".into(),
        }
    }

    /// Type expression syntax as written in configuration: `list(string)`, `object({a=string})`.
    pub fn type_expr(&self) -> String {
        match self {
            Type::String => "string".into(),
            Type::Number => "number".into(),
            Type::Bool => "bool".into(),
            Type::Dynamic => "any".into(),
            Type::List(t) => format!("list({})", t.type_expr()),
            Type::Set(t) => format!("set({})", t.type_expr()),
            Type::Map(t) => format!("map({})", t.type_expr()),
            Type::Tuple(ts) => {
                let inner: Vec<String> = ts.iter().map(Type::type_expr).collect();
                format!("tuple([{}])", inner.join(", "))
            }
            Type::Object(o) => {
                let inner: Vec<String> = o
                    .attrs
                    .iter()
                    .map(|(k, t)| {
                        if o.optional.contains(k) {
                            format!("{k}=optional({})", t.type_expr())
                        } else {
                            format!("{k}={}", t.type_expr())
                        }
                    })
                    .collect();
                format!("object({{{}}})", inner.join(", "))
            }
        }
    }
}
