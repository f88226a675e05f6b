//! Default values of `optional(type, default)` attributes in type constraints, applied to a value
//! before it is converted to the constraint (as Terraform 1.3+ does): an object attribute that is
//! absent or null takes its default, recursively through nested objects and collection elements.

use crate::{Value, ValueKind};
use std::collections::BTreeMap;

/// Defaults for one level of a type constraint.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypeDefaults {
    /// Object attribute → its default value.
    pub attrs: BTreeMap<String, Value>,
    /// Object attribute → defaults inside that attribute's type.
    pub children: BTreeMap<String, TypeDefaults>,
    /// Defaults inside the element type of a list, set or map (or every tuple element).
    pub element: Option<Box<TypeDefaults>>,
}

impl TypeDefaults {
    pub fn is_empty(&self) -> bool {
        self.attrs.is_empty() && self.children.is_empty() && self.element.is_none()
    }
}

/// `v` with the defaults filled in. Unknown and null values are returned unchanged.
pub fn apply_defaults(v: &Value, d: &TypeDefaults) -> Value {
    match &v.kind {
        ValueKind::Object(m) => {
            let mut out = (**m).clone();
            for (name, def) in &d.attrs {
                let missing = out.get(name).is_none_or(Value::is_null);
                if missing {
                    out.insert(name.clone(), def.clone());
                }
            }
            for (name, child) in &d.children {
                if let Some(x) = out.get(name).cloned() {
                    out.insert(name.clone(), apply_defaults(&x, child));
                }
            }
            if let Some(e) = &d.element {
                // An object value standing for a map: every attribute is an element.
                if d.attrs.is_empty() && d.children.is_empty() {
                    for x in out.values_mut() {
                        *x = apply_defaults(x, e);
                    }
                }
            }
            Value::object(out).with_marks(v.marks)
        }
        ValueKind::Map(t, m) => match &d.element {
            Some(e) => Value::map(
                t.clone(),
                m.iter()
                    .map(|(k, x)| (k.clone(), apply_defaults(x, e)))
                    .collect(),
            )
            .with_marks(v.marks),
            None => v.clone(),
        },
        ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => match &d.element {
            // The element type may change (attributes added), so rebuild as a tuple and let
            // conversion to the constraint make it a list or set again.
            Some(e) => {
                Value::tuple(es.iter().map(|x| apply_defaults(x, e)).collect()).with_marks(v.marks)
            }
            None => v.clone(),
        },
        _ => v.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_missing_and_null_attributes_recursively() {
        let mut inner = TypeDefaults::default();
        inner.attrs.insert("port".into(), Value::int(80));
        let mut d = TypeDefaults::default();
        d.attrs.insert("name".into(), Value::string("web"));
        d.children.insert(
            "listeners".into(),
            TypeDefaults {
                element: Some(Box::new(inner)),
                ..Default::default()
            },
        );
        let v = Value::object(
            [
                ("name".to_string(), Value::null(crate::Type::String)),
                (
                    "listeners".to_string(),
                    Value::tuple(vec![
                        Value::empty_object(),
                        Value::object([("port".to_string(), Value::int(8080))].into()),
                    ]),
                ),
            ]
            .into(),
        );
        let out = apply_defaults(&v, &d);
        assert_eq!(out.get_attr("name"), Some(&Value::string("web")));
        let ls = out.get_attr("listeners").unwrap().as_elements().unwrap();
        assert_eq!(ls[0].get_attr("port"), Some(&Value::int(80)));
        assert_eq!(ls[1].get_attr("port"), Some(&Value::int(8080)));
    }
}
