//! A provider's private data as state holds it: base64 text behind one thin pointer.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::collections::HashSet;
use std::sync::{Arc, LazyLock, Mutex};

/// Provider private data, base64 as a state file stores it. One word (the text is behind a
/// second pointer), so an object is 64 bytes, the 80-byte size class with its counts, where a
/// two-word text put every object of a state in the 96-byte class. Clones share the text:
/// the objects of a resource usually have the same (see [`PrivateText::shared`]).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
// Boxed on purpose: the box behind the count makes the handle one word.
#[allow(clippy::redundant_allocation)]
pub struct PrivateText(Arc<Box<str>>);

/// Texts handed out by [`PrivateText::shared`]: at most this many, each at most so long.
const SHARED_MAX: usize = 1024;
const SHARED_LEN_MAX: usize = 512;

static SHARED: LazyLock<Mutex<HashSet<PrivateText>>> = LazyLock::new(Default::default);

impl PrivateText {
    /// The text, sharing the copy handed out before for the same text (providers give every
    /// object of a resource the same few bytes): short texts are kept, up to a bound.
    pub fn shared(text: &str) -> PrivateText {
        if text.len() > SHARED_LEN_MAX {
            return PrivateText::from(text);
        }
        let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = shared.get(text) {
            return t.clone();
        }
        let t = PrivateText::from(text);
        if shared.len() < SHARED_MAX {
            shared.insert(t.clone());
        }
        t
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the two share one text (not merely equal ones).
    pub fn is_shared_with(&self, other: &PrivateText) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl std::ops::Deref for PrivateText {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for PrivateText {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for PrivateText {
    fn from(text: &str) -> Self {
        PrivateText(Arc::new(text.into()))
    }
}

impl From<String> for PrivateText {
    fn from(text: String) -> Self {
        PrivateText(Arc::new(text.into_boxed_str()))
    }
}

impl std::fmt::Debug for PrivateText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_str().fmt(f)
    }
}

impl Serialize for PrivateText {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self)
    }
}

impl<'de> Deserialize<'de> for PrivateText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(PrivateText::from)
    }
}

#[cfg(test)]
mod tests {
    use super::PrivateText;

    #[test]
    fn equal_texts_are_shared_and_read_as_their_text() {
        let a = PrivateText::shared("eyJzY2hlbWFfdmVyc2lvbiI6IjAifQ==");
        let b = PrivateText::shared("eyJzY2hlbWFfdmVyc2lvbiI6IjAifQ==");
        assert!(a.is_shared_with(&b));
        assert_eq!(&*a, "eyJzY2hlbWFfdmVyc2lvbiI6IjAifQ==");
        assert_eq!(std::mem::size_of::<Option<PrivateText>>(), 8);
        let long = "A".repeat(600);
        assert!(!PrivateText::shared(&long).is_shared_with(&PrivateText::shared(&long)));
    }
}
