//! `Packed`: a value held as a few bytes, for values that are kept long and read rarely.
//!
//! A plan holds one change per resource instance, and each change a prior and a planned
//! object. Decoded, a small object is several heap blocks (the entries, their `Arc`s, nested
//! maps): a `null_resource`'s planned object is about 250 bytes, more than the 30 bytes it
//! takes written out. Nearly every change is read a handful of times (rendered, written to a
//! plan file, sent to the provider at apply), so a change keeps its objects packed and decodes
//! them where they are read.
//!
//! The encoding is ferro's own and never leaves the process (plan files write the decoded
//! value). It is self-describing: unlike cty's msgpack it needs no schema to be read back, and
//! it keeps marks and the types of nulls, unknowns and empty collections, so
//! `Packed::new(v).value()` is raw-equal to `v`.
//!
//! Object types are written as an index into a process-wide table (they come from schemas and
//! configurations, and a null nested block carries its whole type), and so are attribute
//! names and short map keys; both tables are bounded like [`crate::Key::map_key`]'s: past the
//! bound a type or a key is written out.

use crate::{Key, Marks, Number, ObjectType, Str, Type, Value, ValueKind, ValueMap};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

/// A packed value. The null of dynamic type (a create's prior, a delete's planned value) takes
/// no block. Clones share the bytes (a no-op change's prior and planned values are one block).
#[derive(Clone, Default)]
pub struct Packed(Option<Arc<[u8]>>);

// Value tags (low bits); `MARKED` says a marks byte follows the tag.
const V_NULL: u8 = 0;
const V_UNKNOWN: u8 = 1;
const V_FALSE: u8 = 2;
const V_TRUE: u8 = 3;
const V_NUMBER: u8 = 4;
const V_STRING: u8 = 5;
const V_LIST: u8 = 6;
const V_SET: u8 = 7;
const V_MAP: u8 = 8;
const V_TUPLE: u8 = 9;
const V_OBJECT: u8 = 10;
const MARKED: u8 = 0x80;

// Type tags.
const T_STRING: u8 = 0;
const T_NUMBER: u8 = 1;
const T_BOOL: u8 = 2;
const T_DYNAMIC: u8 = 3;
const T_LIST: u8 = 4;
const T_SET: u8 = 5;
const T_MAP: u8 = 6;
const T_TUPLE: u8 = 7;
const T_OBJECT: u8 = 8;
const T_OBJECT_REF: u8 = 9;

impl Packed {
    pub fn new(v: &Value) -> Packed {
        if v.marks.is_empty() && matches!(v.kind, ValueKind::Null(Type::Dynamic)) {
            return Packed(None);
        }
        let mut w = Writer {
            out: Vec::with_capacity(32),
            tables: tables(),
        };
        w.value(v);
        let Writer { out, mut tables } = w;
        if out.first() == Some(&V_NULL) {
            return Packed(Some(tables.nulls.share(out)));
        }
        Packed(Some(out.into()))
    }

    /// The value, decoded.
    pub fn value(&self) -> Value {
        match &self.0 {
            None => Value::null(Type::Dynamic),
            Some(bytes) => {
                let mut r = Reader {
                    bytes,
                    at: 0,
                    tables: tables(),
                };
                r.value()
            }
        }
    }

    /// Whether the value is null (of any type), without decoding it.
    pub fn is_null(&self) -> bool {
        self.0
            .as_deref()
            .is_none_or(|b| b.first().is_some_and(|t| t & !MARKED == V_NULL))
    }

    /// This, sharing `other`'s block when the two hold the same bytes.
    pub fn share_from(self, other: &Packed) -> Packed {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) if !Arc::ptr_eq(a, b) && a == b => other.clone(),
            _ => self,
        }
    }

    /// The bytes held (for measuring).
    pub fn packed_len(&self) -> usize {
        self.0.as_deref().map_or(0, <[u8]>::len)
    }
}

impl From<&Value> for Packed {
    fn from(v: &Value) -> Packed {
        Packed::new(v)
    }
}

impl From<Value> for Packed {
    fn from(v: Value) -> Packed {
        Packed::new(&v)
    }
}

/// Raw equality of the values (two packings of equal values may differ where one wrote an
/// object type out and the other by its index).
impl PartialEq for Packed {
    fn eq(&self, other: &Packed) -> bool {
        self.0 == other.0 || self.value() == other.value()
    }
}

impl fmt::Debug for Packed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value().fmt(f)
    }
}

impl serde::Serialize for Packed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.value().serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Packed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Value::deserialize(d).map(|v| Packed::new(&v))
    }
}

/// The process-wide tables of object types and names written by index. A value is packed or
/// read under one lock of them, not one per type or key.
#[derive(Default)]
struct Tables {
    types: ObjectTypes,
    names: Names,
    nulls: Nulls,
}

/// The blocks of unmarked nulls of a type, each shared by every value packed as the same
/// bytes: a plan's deletes all have the null of their schema's type as planned value. Bounded
/// like the other tables: past the bound a null gets a block of its own.
#[derive(Default)]
struct Nulls(std::collections::HashSet<Arc<[u8]>>);

/// The most null blocks the table keeps.
const NULLS_MAX: usize = 1024;

impl Nulls {
    fn share(&mut self, bytes: Vec<u8>) -> Arc<[u8]> {
        if let Some(b) = self.0.get(&bytes[..]) {
            return b.clone();
        }
        let b: Arc<[u8]> = bytes.into();
        if self.0.len() < NULLS_MAX {
            self.0.insert(b.clone());
        }
        b
    }
}

static TABLES: LazyLock<Mutex<Tables>> = LazyLock::new(Default::default);

fn tables() -> MutexGuard<'static, Tables> {
    TABLES.lock().unwrap_or_else(|e| e.into_inner())
}

/// The object types written by index: the table (an index names the first `Arc` entered with
/// those contents), and where each type is in it, by its `Arc`'s address and by its contents.
/// Every `Arc` whose address is recorded is kept (`kept`), so no address is reused while
/// it names an entry.
#[derive(Default)]
struct ObjectTypes {
    types: Vec<Arc<ObjectType>>,
    kept: Vec<Arc<ObjectType>>,
    by_ptr: HashMap<usize, u32>,
    by_value: HashMap<Arc<ObjectType>, u32>,
}

/// The most object types the table keeps (and four times as many addresses).
const OBJECT_TYPES_MAX: usize = 4096;

impl ObjectTypes {
    fn index(&mut self, o: &Arc<ObjectType>) -> Option<u32> {
        let ptr = Arc::as_ptr(o) as usize;
        if let Some(i) = self.by_ptr.get(&ptr) {
            return Some(*i);
        }
        let i = match self.by_value.get(o).copied() {
            Some(i) => i,
            None if self.types.len() >= OBJECT_TYPES_MAX => return None,
            None => {
                let i = self.types.len() as u32;
                self.types.push(o.clone());
                self.by_value.insert(o.clone(), i);
                i
            }
        };
        // An `Arc` nothing else holds dies with the value being packed (a type read back
        // from a plan file is one per value): its address would never be seen again, and
        // keeping it would keep a copy of the type per value, up to the bound.
        if Arc::strong_count(o) > 1 && self.kept.len() < OBJECT_TYPES_MAX * 4 {
            self.kept.push(o.clone());
            self.by_ptr.insert(ptr, i);
        }
        Some(i)
    }
}

/// Object attribute names and short map keys written by index: a decoded object's names are
/// most of its bytes written out, and every instance of a resource repeats them. Bounded, as
/// map keys are data.
#[derive(Default)]
struct Names {
    keys: Vec<Key>,
    index: HashMap<Key, u32>,
}

/// The most names the table keeps, and the longest.
const NAMES_MAX: usize = 16384;
const NAME_LEN_MAX: usize = 64;

impl Names {
    fn index(&mut self, k: &Key) -> Option<u32> {
        if k.len() > NAME_LEN_MAX {
            return None;
        }
        if let Some(i) = self.index.get(k.as_str()) {
            return Some(*i);
        }
        if self.keys.len() >= NAMES_MAX {
            return None;
        }
        let i = self.keys.len() as u32;
        self.keys.push(k.clone());
        self.index.insert(k.clone(), i);
        Some(i)
    }
}

fn write_len(out: &mut Vec<u8>, mut n: usize) {
    loop {
        let b = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

fn write_str(out: &mut Vec<u8>, s: &str) {
    write_len(out, s.len());
    out.extend_from_slice(s.as_bytes());
}

/// Writes a value under the tables' lock.
struct Writer {
    out: Vec<u8>,
    tables: MutexGuard<'static, Tables>,
}

impl Writer {
    fn ty(&mut self, t: &Type) {
        match t {
            Type::String => self.out.push(T_STRING),
            Type::Number => self.out.push(T_NUMBER),
            Type::Bool => self.out.push(T_BOOL),
            Type::Dynamic => self.out.push(T_DYNAMIC),
            Type::List(e) => {
                self.out.push(T_LIST);
                self.ty(e);
            }
            Type::Set(e) => {
                self.out.push(T_SET);
                self.ty(e);
            }
            Type::Map(e) => {
                self.out.push(T_MAP);
                self.ty(e);
            }
            Type::Tuple(ts) => {
                self.out.push(T_TUPLE);
                write_len(&mut self.out, ts.len());
                for t in ts {
                    self.ty(t);
                }
            }
            Type::Object(o) => match self.tables.types.index(o) {
                Some(i) => {
                    self.out.push(T_OBJECT_REF);
                    write_len(&mut self.out, i as usize);
                }
                None => {
                    self.out.push(T_OBJECT);
                    write_len(&mut self.out, o.attrs.len());
                    for (k, t) in &o.attrs {
                        write_str(&mut self.out, k);
                        self.ty(t);
                    }
                    write_len(&mut self.out, o.optional.len());
                    for k in &o.optional {
                        write_str(&mut self.out, k);
                    }
                }
            },
        }
    }

    fn value(&mut self, v: &Value) {
        let tag = match &v.kind {
            ValueKind::Null(_) => V_NULL,
            ValueKind::Unknown(_) => V_UNKNOWN,
            ValueKind::Bool(false) => V_FALSE,
            ValueKind::Bool(true) => V_TRUE,
            ValueKind::Number(_) => V_NUMBER,
            ValueKind::String(_) => V_STRING,
            ValueKind::List(..) => V_LIST,
            ValueKind::Set(..) => V_SET,
            ValueKind::Map(..) => V_MAP,
            ValueKind::Tuple(_) => V_TUPLE,
            ValueKind::Object(_) => V_OBJECT,
        };
        if v.marks.is_empty() {
            self.out.push(tag);
        } else {
            self.out.push(tag | MARKED);
            self.out.push(v.marks.bits());
        }
        match &v.kind {
            ValueKind::Null(t) | ValueKind::Unknown(t) => self.ty(t),
            ValueKind::Bool(_) => {}
            ValueKind::Number(n) => write_str(&mut self.out, &n.to_string()),
            ValueKind::String(s) => write_str(&mut self.out, s),
            ValueKind::List(t, es) | ValueKind::Set(t, es) => {
                self.ty(t);
                write_len(&mut self.out, es.len());
                es.iter().for_each(|e| self.value(e));
            }
            ValueKind::Tuple(es) => {
                write_len(&mut self.out, es.len());
                es.iter().for_each(|e| self.value(e));
            }
            ValueKind::Map(t, m) => {
                self.ty(t);
                self.entries(m);
            }
            ValueKind::Object(m) => self.entries(m),
        }
    }

    fn entries(&mut self, m: &ValueMap) {
        write_len(&mut self.out, m.len());
        for (k, v) in m {
            self.key(k);
            self.value(v);
        }
    }

    /// A key: `index << 1 | 1` for a name of the table, else `length << 1` and the text.
    fn key(&mut self, k: &Key) {
        match self.tables.names.index(k) {
            Some(i) => write_len(&mut self.out, (i as usize) << 1 | 1),
            None => {
                write_len(&mut self.out, k.len() << 1);
                self.out.extend_from_slice(k.as_bytes());
            }
        }
    }
}

/// Reads what this module wrote; the bytes never come from elsewhere, so a short or
/// malformed input is a bug, and reading it panics.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    tables: MutexGuard<'static, Tables>,
}

impl Reader<'_> {
    fn byte(&mut self) -> u8 {
        let b = self.bytes[self.at];
        self.at += 1;
        b
    }

    fn len(&mut self) -> usize {
        let (mut n, mut shift) = (0usize, 0);
        loop {
            let b = self.byte();
            n |= usize::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return n;
            }
            shift += 7;
        }
    }

    fn str(&mut self) -> &str {
        let n = self.len();
        let s = &self.bytes[self.at..self.at + n];
        self.at += n;
        std::str::from_utf8(s).expect("a packed text was written from a str")
    }

    fn ty(&mut self) -> Type {
        match self.byte() {
            T_STRING => Type::String,
            T_NUMBER => Type::Number,
            T_BOOL => Type::Bool,
            T_DYNAMIC => Type::Dynamic,
            T_LIST => Type::list(self.ty()),
            T_SET => Type::set(self.ty()),
            T_MAP => Type::map(self.ty()),
            T_TUPLE => {
                let n = self.len();
                Type::Tuple((0..n).map(|_| self.ty()).collect())
            }
            T_OBJECT => {
                let n = self.len();
                let attrs = (0..n)
                    .map(|_| (self.str().to_string(), self.ty()))
                    .collect();
                let n = self.len();
                let optional = (0..n).map(|_| self.str().to_string()).collect();
                Type::from_object(ObjectType { attrs, optional })
            }
            T_OBJECT_REF => {
                let i = self.len();
                Type::Object(self.tables.types.types[i].clone())
            }
            t => unreachable!("packed type tag {t}"),
        }
    }

    fn values(&mut self) -> Vec<Value> {
        let n = self.len();
        let mut es = Vec::with_capacity(n);
        for _ in 0..n {
            es.push(self.value());
        }
        es
    }

    fn key(&mut self, key: fn(&str) -> Key) -> Key {
        let n = self.len();
        if n & 1 == 1 {
            return self.tables.names.keys[n >> 1].clone();
        }
        let s = &self.bytes[self.at..self.at + (n >> 1)];
        self.at += n >> 1;
        key(std::str::from_utf8(s).expect("a packed key was written from a str"))
    }

    fn entries(&mut self, key: fn(&str) -> Key) -> ValueMap {
        let n = self.len();
        let mut es = Vec::with_capacity(n);
        for _ in 0..n {
            let k = self.key(key);
            es.push((k, self.value()));
        }
        es.into_iter().collect()
    }

    fn value(&mut self) -> Value {
        let tag = self.byte();
        let marks = if tag & MARKED != 0 {
            Marks::from_bits(self.byte())
        } else {
            Marks::NONE
        };
        let kind = match tag & !MARKED {
            V_NULL => ValueKind::Null(self.ty()),
            V_UNKNOWN => ValueKind::Unknown(self.ty()),
            V_FALSE => ValueKind::Bool(false),
            V_TRUE => ValueKind::Bool(true),
            V_NUMBER => ValueKind::Number(Arc::new(
                Number::parse(self.str()).expect("a packed number was written by Display"),
            )),
            V_STRING => ValueKind::String(Str::from(self.str())),
            V_LIST => {
                let t = self.ty();
                ValueKind::List(t, Arc::new(self.values()))
            }
            V_SET => {
                let t = self.ty();
                ValueKind::Set(t, Arc::new(self.values()))
            }
            V_TUPLE => ValueKind::Tuple(Arc::new(self.values())),
            V_MAP => {
                let t = self.ty();
                ValueKind::Map(t, Arc::new(self.entries(Key::map_key)))
            }
            V_OBJECT => ValueKind::Object(Arc::new(self.entries(Key::attr))),
            t => unreachable!("packed value tag {t}"),
        };
        Value { kind, marks }
    }
}

#[cfg(test)]
mod tests {
    use super::Packed;
    use crate::{Number, ObjectType, Type, Value, ValueMap};
    use std::collections::BTreeMap;

    fn round_trip(v: Value) {
        let p = Packed::new(&v);
        assert_eq!(p.value(), v);
        assert_eq!(p.is_null(), v.is_null(), "{v:?}");
    }

    /// Every kind of value, with the types of its nulls, unknowns and empty collections and
    /// its marks, reads back raw-equal.
    #[test]
    fn values_read_back_as_they_were() {
        let block = Type::object([
            ("a".to_string(), Type::String),
            ("n".to_string(), Type::list(Type::Number)),
        ]);
        let mut optional = ObjectType::new(BTreeMap::from([("x".to_string(), Type::Bool)]));
        optional.optional.insert("x".into());
        let values = [
            Value::null(Type::Dynamic),
            Value::null(Type::String),
            Value::null(block.clone()).mark_sensitive(),
            Value::unknown(Type::set(block.clone())),
            Value::unknown(Type::from_object(optional)),
            Value::bool(true),
            Value::bool(false),
            Value::number(Number::parse("-12.5e-30").unwrap()),
            Value::number(Number::parse("123456789012345678901234567890").unwrap()),
            Value::string("x".repeat(300)),
            Value::string("é").mark_sensitive(),
            Value::list(Type::Number, vec![]),
            Value::list(
                Type::String,
                vec![Value::string("a"), Value::unknown(Type::String)],
            ),
            Value::set(Type::String, vec![Value::string("b"), Value::string("a")]),
            Value::map(
                Type::String,
                ValueMap::from([("k", Value::string("v").mark_sensitive())]),
            ),
            Value::tuple(vec![Value::int(1), Value::null(Type::Bool)]),
            // A key too long for the table of names is written out.
            Value::map(
                Type::Bool,
                ValueMap::from([("k".repeat(100), Value::bool(true))]),
            ),
            Value::object(ValueMap::from([
                ("id", Value::unknown(Type::String)),
                ("block", Value::list(block, vec![])),
                (
                    "triggers",
                    Value::map(Type::String, ValueMap::from([("i", Value::string("0"))])),
                ),
            ])),
        ];
        for v in values {
            round_trip(v);
        }
    }

    /// A `null_resource`'s planned object packs into a few dozen bytes.
    #[test]
    fn a_small_object_packs_small() {
        let v = Value::object(ValueMap::from([
            ("id", Value::unknown(Type::String)),
            (
                "triggers",
                Value::map(Type::String, ValueMap::from([("i", Value::string("17"))])),
            ),
        ]));
        let p = Packed::new(&v);
        assert!(p.packed_len() <= 16, "{}", p.packed_len());
        assert!(Packed::new(&Value::null(Type::Dynamic)).packed_len() == 0);
    }

    /// Nulls of one type (a plan's deletes' planned values) share one block; a marked null,
    /// or a null of another type, does not take it.
    #[test]
    fn nulls_of_a_type_share_a_block() {
        let ty = Type::object([("id".to_string(), Type::String)]);
        let a = Packed::new(&Value::null(ty.clone()));
        let b = Packed::new(&Value::null(ty.clone()));
        let (Some(x), Some(y)) = (&a.0, &b.0) else {
            panic!("typed nulls take a block");
        };
        assert!(std::sync::Arc::ptr_eq(x, y));
        let marked = Packed::new(&Value::null(ty.clone()).mark_sensitive());
        assert!(!std::sync::Arc::ptr_eq(x, marked.0.as_ref().unwrap()));
        assert_eq!(marked.value(), Value::null(ty).mark_sensitive());
        let other = Packed::new(&Value::null(Type::String));
        assert_eq!(other.value(), Value::null(Type::String));
    }
}
