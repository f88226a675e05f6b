//! `ValueMap`: the entries of a map or the attributes of an object, kept as one vector sorted by
//! key.
//!
//! Objects and maps are mostly small (a resource's attributes, a `tags` map), and there are
//! many of them: one per instance in every prior and planned value. A `BTreeMap` node reserves
//! room for eleven entries however few it holds, so a two-attribute object cost over a
//! kilobyte. A sorted vector holds exactly its entries, and reads the same way (ordered
//! iteration, binary-search lookup). The API follows `BTreeMap` where ferro uses it.
//!
//! Building: `collect()`/`extend()` sort once, so any number of entries costs O(n log n).
//! `insert` is O(1) when keys arrive in ascending order (decoders, ordered walks) and a shift
//! of the tail otherwise; code that inserts many keys in no particular order should collect.

use crate::{Key, Value};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueMap(Vec<(Key, Value)>);

type Pair = (Key, Value);
/// Borrowing iterator over a `ValueMap`'s entries, in key order.
pub type Iter<'a> =
    std::iter::Map<std::slice::Iter<'a, Pair>, fn(&'a Pair) -> (&'a Key, &'a Value)>;
/// Mutably borrowing iterator over a `ValueMap`'s entries, in key order.
pub type IterMut<'a> =
    std::iter::Map<std::slice::IterMut<'a, Pair>, fn(&'a mut Pair) -> (&'a Key, &'a mut Value)>;

fn pair_ref(p: &Pair) -> (&Key, &Value) {
    (&p.0, &p.1)
}
fn pair_mut(p: &mut Pair) -> (&Key, &mut Value) {
    (&p.0, &mut p.1)
}

impl ValueMap {
    pub const fn new() -> Self {
        ValueMap(Vec::new())
    }
    pub fn with_capacity(n: usize) -> Self {
        ValueMap(Vec::with_capacity(n))
    }
    /// Frees the room reserved beyond the entries held.
    pub fn shrink_to_fit(&mut self) {
        self.0.shrink_to_fit();
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    fn position(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| (**k).cmp(key))
    }
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.position(key).ok().map(|i| &self.0[i].1)
    }
    pub fn get_key_value(&self, key: &str) -> Option<(&Key, &Value)> {
        self.position(key).ok().map(|i| pair_ref(&self.0[i]))
    }
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        match self.position(key) {
            Ok(i) => Some(&mut self.0[i].1),
            Err(_) => None,
        }
    }
    pub fn contains_key(&self, key: &str) -> bool {
        self.position(key).is_ok()
    }
    /// Sets `key` to `value`, returning the value it replaced.
    pub fn insert(&mut self, key: impl Into<Key>, value: Value) -> Option<Value> {
        let key = key.into();
        if self.0.last().is_none_or(|(k, _)| *k < key) {
            self.0.push((key, value));
            return None;
        }
        match self.position(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.position(key).ok().map(|i| self.0.remove(i).1)
    }
    pub fn retain(&mut self, mut keep: impl FnMut(&Key, &mut Value) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v));
    }
    pub fn iter(&self) -> Iter<'_> {
        self.0.iter().map(pair_ref as fn(&Pair) -> (&Key, &Value))
    }
    pub fn iter_mut(&mut self) -> IterMut<'_> {
        self.0
            .iter_mut()
            .map(pair_mut as fn(&mut Pair) -> (&Key, &mut Value))
    }
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Key> + ExactSizeIterator + Clone {
        self.0.iter().map(|(k, _)| k)
    }
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &Value> + ExactSizeIterator + Clone {
        self.0.iter().map(|(_, v)| v)
    }
    pub fn values_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = &mut Value> + ExactSizeIterator {
        self.0.iter_mut().map(|(_, v)| v)
    }
    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = Key> + ExactSizeIterator {
        self.0.into_iter().map(|(k, _)| k)
    }
    pub fn into_values(self) -> impl DoubleEndedIterator<Item = Value> + ExactSizeIterator {
        self.0.into_iter().map(|(_, v)| v)
    }
    pub fn first_key_value(&self) -> Option<(&Key, &Value)> {
        self.0.first().map(pair_ref)
    }
    pub fn last_key_value(&self) -> Option<(&Key, &Value)> {
        self.0.last().map(pair_ref)
    }

    /// Restores the order after entries were pushed unsorted: sorted by key, and for a key
    /// given more than once the last one wins (as repeated `insert`s would leave it).
    fn normalize(&mut self) {
        if self.0.windows(2).all(|w| w[0].0 < w[1].0) {
            return;
        }
        // Stable: equal keys keep their arrival order, so the last of a run is the newest.
        self.0.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<Pair> = Vec::with_capacity(self.0.len());
        for pair in self.0.drain(..) {
            match out.last_mut() {
                Some(last) if last.0 == pair.0 => *last = pair,
                _ => out.push(pair),
            }
        }
        self.0 = out;
    }
}

impl fmt::Debug for ValueMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Into<Key>> FromIterator<(K, Value)> for ValueMap {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        let mut m = ValueMap(iter.into_iter().map(|(k, v)| (k.into(), v)).collect());
        m.normalize();
        m
    }
}

impl<K: Into<Key>> Extend<(K, Value)> for ValueMap {
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, iter: I) {
        self.0.extend(iter.into_iter().map(|(k, v)| (k.into(), v)));
        self.normalize();
    }
}

impl<K: Into<Key>> From<BTreeMap<K, Value>> for ValueMap {
    fn from(m: BTreeMap<K, Value>) -> Self {
        // Already in key order, without duplicates.
        ValueMap(m.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl<K: Into<Key>, const N: usize> From<[(K, Value); N]> for ValueMap {
    fn from(entries: [(K, Value); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl From<ValueMap> for BTreeMap<String, Value> {
    fn from(m: ValueMap) -> Self {
        m.0.into_iter().map(|(k, v)| (k.into(), v)).collect()
    }
}

impl IntoIterator for ValueMap {
    type Item = (Key, Value);
    type IntoIter = std::vec::IntoIter<(Key, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a ValueMap {
    type Item = (&'a Key, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut ValueMap {
    type Item = (&'a Key, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl std::ops::Index<&str> for ValueMap {
    type Output = Value;
    fn index(&self, key: &str) -> &Value {
        self.get(key).expect("no entry with this key in the map")
    }
}

impl Serialize for ValueMap {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for ValueMap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        BTreeMap::<String, Value>::deserialize(d).map(ValueMap::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::string(v)
    }

    #[test]
    fn insert_keeps_key_order_and_replaces() {
        let mut m = ValueMap::new();
        for k in ["b", "d", "a", "c", "b"] {
            m.insert(k.to_string(), s(k));
        }
        assert_eq!(
            m.keys().map(Key::as_str).collect::<Vec<_>>(),
            ["a", "b", "c", "d"]
        );
        assert_eq!(m.insert("a", s("x")), Some(s("a")));
        assert_eq!(m.get("a"), Some(&s("x")));
        assert_eq!(m.remove("c"), Some(s("c")));
        assert!(!m.contains_key("c"));
        assert_eq!(m.len(), 3);
    }

    #[test]
    fn collect_sorts_and_last_duplicate_wins() {
        let m: ValueMap = [("z", "1"), ("a", "2"), ("z", "3"), ("m", "4")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), s(v)))
            .collect();
        let b: BTreeMap<String, Value> = [("z", "1"), ("a", "2"), ("z", "3"), ("m", "4")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), s(v)))
            .collect();
        assert_eq!(m, ValueMap::from(b));
        assert_eq!(m.get("z"), Some(&s("3")));
    }

    #[test]
    fn order_matches_btreemap_order() {
        let a: ValueMap = [("a".to_string(), s("1"))].into();
        let b: ValueMap = [("a".to_string(), s("1")), ("b".to_string(), s("0"))].into();
        let ba: BTreeMap<String, Value> = a.clone().into();
        let bb: BTreeMap<String, Value> = b.clone().into();
        assert_eq!(a.cmp(&b), ba.cmp(&bb));
    }
}
