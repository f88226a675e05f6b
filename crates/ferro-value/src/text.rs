//! `Str`: the text of a string value. Short texts are held in the value itself, longer ones in
//! one shared block.
//!
//! Most strings in resource objects are short (ids, names, counts turned into strings), and a
//! plan holds an object or two per resource instance. Behind an `Arc` each such string cost a
//! heap block of at least 32 bytes beside the value; held inline it costs nothing more than
//! the value, which has the room anyway (a `Value` is as large as its largest kind).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The longest text held inline, in bytes: with the length byte and the variant's tag this
/// keeps `Str` at 24 bytes, the size of the largest other kind of value.
const INLINE: usize = 22;

#[derive(Clone)]
pub struct Str(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Shared(Arc<str>),
}

impl Str {
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => std::str::from_utf8(&bytes[..usize::from(*len)])
                .expect("an inline text is copied whole from a str"),
            Repr::Shared(s) => s,
        }
    }

    /// Whether the two hold the same memory, or are inline copies of the same text (which share
    /// nothing to begin with): what sharing a part between two values leaves.
    pub fn same_as(&self, other: &Str) -> bool {
        match (&self.0, &other.0) {
            (Repr::Shared(a), Repr::Shared(b)) => Arc::ptr_eq(a, b),
            (Repr::Inline { .. }, Repr::Inline { .. }) => self.as_str() == other.as_str(),
            _ => false,
        }
    }

    fn inline(s: &str) -> Option<Str> {
        (s.len() <= INLINE).then(|| {
            let mut bytes = [0; INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            Str(Repr::Inline {
                len: s.len() as u8,
                bytes,
            })
        })
    }
}

impl Default for Str {
    fn default() -> Str {
        Str::from("")
    }
}

impl std::ops::Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Str {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Str {
    fn eq(&self, other: &Str) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Str {}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialOrd for Str {
    fn partial_cmp(&self, other: &Str) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Str {
    fn cmp(&self, other: &Str) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Str {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl fmt::Debug for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Str {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Str {
        Str::inline(s).unwrap_or_else(|| Str(Repr::Shared(Arc::from(s))))
    }
}

impl From<&String> for Str {
    fn from(s: &String) -> Str {
        Str::from(s.as_str())
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        Str::inline(&s).unwrap_or_else(|| Str(Repr::Shared(Arc::from(s))))
    }
}

impl From<Box<str>> for Str {
    fn from(s: Box<str>) -> Str {
        Str::inline(&s).unwrap_or_else(|| Str(Repr::Shared(Arc::from(s))))
    }
}

impl From<Arc<str>> for Str {
    fn from(s: Arc<str>) -> Str {
        Str::inline(&s).unwrap_or(Str(Repr::Shared(s)))
    }
}

impl From<&Arc<str>> for Str {
    fn from(s: &Arc<str>) -> Str {
        Str::from(s.clone())
    }
}

impl From<std::borrow::Cow<'_, str>> for Str {
    fn from(s: std::borrow::Cow<'_, str>) -> Str {
        match s {
            std::borrow::Cow::Borrowed(b) => Str::from(b),
            std::borrow::Cow::Owned(o) => Str::from(o),
        }
    }
}

impl From<char> for Str {
    fn from(c: char) -> Str {
        Str::from(c.encode_utf8(&mut [0; 4]) as &str)
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        s.as_str().to_string()
    }
}

impl Serialize for Str {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Str {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Ok(Str::from(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_texts_read_back_and_compare_as_text() {
        let short = Str::from("7347996291983267573");
        let edge = Str::from("x".repeat(INLINE));
        let long = Str::from("y".repeat(INLINE + 1));
        assert!(matches!(short.0, Repr::Inline { .. }));
        assert!(matches!(edge.0, Repr::Inline { .. }));
        assert!(matches!(long.0, Repr::Shared(_)));
        assert_eq!(&*short, "7347996291983267573");
        assert_eq!(edge.len(), INLINE);
        assert_eq!(long.len(), INLINE + 1);
        assert_eq!(Str::from("é".repeat(11)).as_str(), "é".repeat(11));
        let (a, b) = (Str::from("a"), Str::from("b".repeat(30)));
        assert_eq!(a.cmp(&b), std::cmp::Ordering::Less);
        assert_eq!(
            Str::from(String::from("abc")),
            Str::from(Arc::<str>::from("abc"))
        );
        assert_eq!(std::mem::size_of::<Str>(), 24);
        // Inline texts cost a value no room: it stays 40 bytes.
        assert_eq!(std::mem::size_of::<crate::Value>(), 40);
    }
}
