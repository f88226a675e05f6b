//! `Key`: an object attribute name or a map key, shared.
//!
//! Every decoded object holds its attribute names, and a plan holds one object per resource
//! instance (often several), so a name held as its own `String` cost a heap block per attribute
//! per instance. A `Key` is a reference-counted string: copies share one block, and the names
//! of attributes decoded against a schema come from a process-wide table ([`Key::attr`]), so
//! every instance of a resource shares them.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::collections::HashSet;
use std::fmt;
use std::sync::{Arc, LazyLock, Mutex};

#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Key(Arc<str>);

/// Attribute names seen by decoders. Bounded by the names schemas and configurations use:
/// only names that come from a type are interned, never arbitrary map keys.
static ATTR_NAMES: LazyLock<Mutex<HashSet<Arc<str>>>> = LazyLock::new(Default::default);

/// Map keys shared by decoders (see [`Key::map_key`]): at most 4 096 keys of up to 32 bytes,
/// about 256 KB of table and texts.
static MAP_KEYS: SharedTexts = SharedTexts::new(4096, 32);

/// A process-wide table of short texts that many values repeat, so each is held once. It
/// stops growing at `max` texts: what it holds is data, and data with many distinct texts
/// must not fill memory with them; past the bound, and for a text longer than `len_max`,
/// [`SharedTexts::share`] allocates the text as it would without the table.
pub struct SharedTexts {
    texts: LazyLock<Mutex<HashSet<Arc<str>>>>,
    max: usize,
    len_max: usize,
}

impl SharedTexts {
    pub const fn new(max: usize, len_max: usize) -> SharedTexts {
        SharedTexts {
            texts: LazyLock::new(Default::default),
            max,
            len_max,
        }
    }

    /// The table's copy of `text`, entered when there is room.
    pub fn share(&self, text: &str) -> Arc<str> {
        if text.len() > self.len_max {
            return Arc::from(text);
        }
        let mut texts = self.texts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = texts.get(text) {
            return t.clone();
        }
        let t: Arc<str> = Arc::from(text);
        if texts.len() < self.max {
            texts.insert(t.clone());
        }
        t
    }
}

impl Key {
    /// The shared key for an attribute name of an object type.
    pub fn attr(name: &str) -> Key {
        let mut names = ATTR_NAMES.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(k) = names.get(name) {
            return Key(k.clone());
        }
        let k: Arc<str> = Arc::from(name);
        names.insert(k.clone());
        Key(k)
    }
    /// A map key read by a decoder. Short keys are shared through a second, bounded
    /// process-wide table ([`SharedTexts`]), so the keys a state repeats in every object
    /// (`Name`, `Environment` in each resource's `tags`) are held once.
    pub fn map_key(key: &str) -> Key {
        Key(MAP_KEYS.share(key))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for Key {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for Key {
    fn from(s: String) -> Key {
        Key(Arc::from(s))
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Key {
        Key(Arc::from(s.as_str()))
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Key {
        Key(Arc::from(s))
    }
}

impl From<&Key> for Key {
    fn from(k: &Key) -> Key {
        k.clone()
    }
}

impl From<Arc<str>> for Key {
    fn from(s: Arc<str>) -> Key {
        Key(s)
    }
}

impl From<Key> for String {
    fn from(k: Key) -> String {
        k.0.to_string()
    }
}

impl From<&Key> for String {
    fn from(k: &Key) -> String {
        k.0.to_string()
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Key> for str {
    fn eq(&self, other: &Key) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Key> for String {
    fn eq(&self, other: &Key) -> bool {
        **self == *other.0
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(Key::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_names_are_shared_and_order_as_strings() {
        let a = Key::attr("triggers");
        let b = Key::attr("triggers");
        assert!(Arc::ptr_eq(&a.0, &b.0));
        assert_eq!(a, Key::from("triggers".to_string()));
        let mut ks = [Key::from("b"), Key::from("a"), Key::from("ab")];
        ks.sort();
        assert_eq!(ks.map(|k| k.to_string()), ["a", "ab", "b"]);
    }

    #[test]
    fn short_map_keys_are_shared_and_long_ones_are_not() {
        let a = Key::map_key("Environment");
        let b = Key::map_key(&String::from("Environment"));
        assert!(Arc::ptr_eq(&a.0, &b.0));
        let long = "k".repeat(MAP_KEYS.len_max + 1);
        let (c, d) = (Key::map_key(&long), Key::map_key(&long));
        assert_eq!(c, d);
        assert!(!Arc::ptr_eq(&c.0, &d.0));
    }

    #[test]
    fn decoded_map_keys_are_shared_between_objects() {
        use crate::{json, Type, ValueKind};
        let ty = Type::Map(Box::new(Type::String));
        let j: serde_json::Value = serde_json::json!({"Name": "x"});
        let (v, w) = (
            json::value_from_json(&j, &ty).unwrap(),
            json::value_from_json(&j, &ty).unwrap(),
        );
        let (ValueKind::Map(_, m), ValueKind::Map(_, n)) = (&v.kind, &w.kind) else {
            panic!("not maps");
        };
        let (k1, _) = m.get_key_value("Name").unwrap();
        let (k2, _) = n.get_key_value("Name").unwrap();
        assert!(Arc::ptr_eq(&k1.0, &k2.0));
    }
}
