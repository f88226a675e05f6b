//! Reading a state document while it is parsed: each element of a version 4 `resources` array
//! is taken into the model as soon as it is parsed, and so is each element of a resource's
//! `instances`, so the parsed form of the whole resource list (in a long chain of resources
//! mostly dependency lists, several times the file's size once parsed), or of one resource's
//! instances (over a kilobyte per instance), never exists at once. Everything else is parsed as
//! a JSON value, and `read_document` checks it in the same order as for a document parsed
//! whole, so errors and their precedence do not change.

use super::{finish_resource, read_resource, InstancesRead, StateError};
use crate::ResourceState;
use ferro_addrs::AbsResource;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::fmt;

pub(super) type Resources = BTreeMap<AbsResource, ResourceState>;

/// The top level of a state document.
pub(super) enum Document {
    /// An object: its members, except a `resources` array read while parsing, which is here
    /// as the resources it held (or the first error reading one of them).
    Object {
        members: Map<String, Value>,
        resources: Option<Result<Resources, StateError>>,
    },
    /// Anything else (parsed and dropped), for `read_document` to refuse.
    Other,
}

/// The key under which serde_json (with exact numbers) passes a number as a one-entry map.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// What a value that was not the expected kind is, parsed whole.
fn any_value<'de, D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
    Value::deserialize(d)
}

macro_rules! forward_scalars {
    ($wrap:expr) => {
        fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Self::Value, E> {
            Ok($wrap(Value::Bool(v)))
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Self::Value, E> {
            Ok($wrap(Value::from(v)))
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok($wrap(Value::String(v.to_string())))
        }
        fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok($wrap(Value::String(v)))
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok($wrap(Value::Null))
        }
        fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Ok($wrap(Value::Null))
        }
    };
}

/// Parses a whole state document.
pub(super) struct DocumentSeed;

impl<'de> DeserializeSeed<'de> for DocumentSeed {
    type Value = Document;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Document, D::Error> {
        d.deserialize_any(DocumentVisitor)
    }
}

struct DocumentVisitor;

impl<'de> Visitor<'de> for DocumentVisitor {
    type Value = Document;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a state document")
    }

    forward_scalars!(|_: Value| Document::Other);

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Document, A::Error> {
        any_value(serde::de::value::SeqAccessDeserializer::new(seq)).map(|_| Document::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Document, A::Error> {
        let mut members = Map::new();
        let mut resources = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == NUMBER_TOKEN {
                // A number at the top level (how serde_json hands over exact numbers).
                let _: Value = map.next_value()?;
                return Ok(Document::Other);
            }
            // Only a version 4 document's resources are read as they are parsed; Terraform
            // writes "version" first. A second "resources" member replaces the first, as it
            // does in a document parsed whole.
            let v4 = members.get("version").and_then(Value::as_u64) == Some(4);
            if key == "resources" && v4 {
                members.remove("resources");
                match map.next_value_seed(ResourcesSeed)? {
                    Streamed::Read(r) => resources = Some(r),
                    Streamed::Other(v) => {
                        resources = None;
                        members.insert(key, v);
                    }
                }
            } else {
                let v: Value = map.next_value()?;
                if key == "resources" {
                    resources = None;
                }
                members.insert(key, v);
            }
        }
        Ok(Document::Object { members, resources })
    }
}

/// A `resources` member.
enum Streamed {
    /// An array, read element by element.
    Read(Result<Resources, StateError>),
    /// Something else (null, or not an array), for the usual checks.
    Other(Value),
}

struct ResourcesSeed;

impl<'de> DeserializeSeed<'de> for ResourcesSeed {
    type Value = Streamed;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Streamed, D::Error> {
        d.deserialize_any(ResourcesVisitor)
    }
}

struct ResourcesVisitor;

impl<'de> Visitor<'de> for ResourcesVisitor {
    type Value = Streamed;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of resources")
    }

    forward_scalars!(Streamed::Other);

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Streamed, A::Error> {
        any_value(serde::de::value::MapAccessDeserializer::new(map)).map(Streamed::Other)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Streamed, A::Error> {
        let mut out = Resources::new();
        let mut failed = None;
        let mut i = 0usize;
        loop {
            let ctx = format!("resources[{i}]");
            let Some(resource) = seq.next_element_seed(ResourceSeed { ctx: &ctx })? else {
                break;
            };
            // After the first error the rest is only parsed (syntax errors still win).
            if failed.is_none() {
                let read = match resource {
                    Resource::Members(o, instances) => {
                        finish_resource(o, instances, &ctx, &mut out)
                    }
                    Resource::Other(raw) => read_resource(raw, &ctx, &mut out),
                };
                if let Err(e) = read {
                    failed = Some(e);
                }
            }
            i += 1;
        }
        Ok(Streamed::Read(match failed {
            Some(e) => Err(e),
            None => Ok(out),
        }))
    }
}

/// An element of `resources`.
enum Resource {
    /// An object: its members other than an `instances` array, and that array's instances.
    Members(Map<String, Value>, Option<InstancesRead>),
    /// Something else, for `read_resource` to refuse.
    Other(Value),
}

struct ResourceSeed<'a> {
    ctx: &'a str,
}

impl<'de> DeserializeSeed<'de> for ResourceSeed<'_> {
    type Value = Resource;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Resource, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ResourceSeed<'_> {
    type Value = Resource;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a resource")
    }

    forward_scalars!(Resource::Other);

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Resource, A::Error> {
        any_value(serde::de::value::SeqAccessDeserializer::new(seq)).map(Resource::Other)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Resource, A::Error> {
        let mut members = Map::new();
        let mut instances = None;
        while let Some(key) = map.next_key::<String>()? {
            if key == NUMBER_TOKEN {
                // A number (how serde_json hands over exact numbers).
                let text: String = map.next_value()?;
                let n = text.parse().map_err(serde::de::Error::custom)?;
                return Ok(Resource::Other(Value::Number(n)));
            }
            if key == "instances" {
                match map.next_value_seed(InstancesSeed { ctx: self.ctx })? {
                    Ok(read) => {
                        members.remove("instances");
                        instances = Some(read);
                    }
                    Err(v) => {
                        instances = None;
                        members.insert(key, v);
                    }
                }
            } else {
                let v: Value = map.next_value()?;
                members.insert(key, v);
            }
        }
        Ok(Resource::Members(members, instances))
    }
}

/// A resource's `instances`: an array is read element by element; anything else is returned
/// whole for the usual checks.
struct InstancesSeed<'a> {
    ctx: &'a str,
}

impl<'de> DeserializeSeed<'de> for InstancesSeed<'_> {
    type Value = Result<InstancesRead, Value>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for InstancesSeed<'_> {
    type Value = Result<InstancesRead, Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of instances")
    }

    forward_scalars!(Err);

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        any_value(serde::de::value::MapAccessDeserializer::new(map)).map(Err)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut read = InstancesRead::default();
        let mut i = 0usize;
        while let Some(raw) = seq.next_element::<Value>()? {
            read.add(raw, format!("{}.instances[{i}]", self.ctx));
            i += 1;
        }
        Ok(Ok(read))
    }
}
