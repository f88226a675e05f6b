//! Serde adapters for plan fields whose natural shape JSON cannot hold directly.

/// A map with structured keys, stored as a list of `[key, value]` pairs.
pub mod map_as_pairs {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::BTreeMap;

    pub fn serialize<K: Serialize, V: Serialize, S: Serializer>(
        m: &BTreeMap<K, V>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(m.iter())
    }

    pub fn deserialize<'de, K, V, D>(d: D) -> Result<BTreeMap<K, V>, D::Error>
    where
        K: Deserialize<'de> + Ord,
        V: Deserialize<'de>,
        D: Deserializer<'de>,
    {
        let pairs: Vec<(K, V)> = Vec::deserialize(d)?;
        Ok(pairs.into_iter().collect())
    }
}

/// A plan's changes, read back with the sharing the planner gave them: the changes of a
/// resource's instances are next to each other in a plan, and each takes from the one before
/// it the parts they have in common (module path, resource type and name, provider,
/// dependencies, private data) as it is read. Written as a plain list.
pub mod shared_changes {
    use crate::ResourceInstanceChange;
    use serde::de::{SeqAccess, Visitor};
    use serde::Deserializer;
    use std::sync::Arc;

    // The plan's own list of boxed changes (`Plan::changes` says why they are boxed).
    #[allow(clippy::vec_box)]
    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<Box<ResourceInstanceChange>>, D::Error> {
        struct Changes;
        impl<'de> Visitor<'de> for Changes {
            type Value = Vec<Box<ResourceInstanceChange>>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a list of changes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out: Vec<Box<ResourceInstanceChange>> = Vec::new();
                while let Some(mut c) = seq.next_element::<Box<ResourceInstanceChange>>()? {
                    if let Some(prev) = out.last() {
                        share(&mut c, prev);
                    }
                    out.push(c);
                }
                out.shrink_to_fit();
                Ok(out)
            }
        }
        d.deserialize_seq(Changes)
    }

    /// Make `c` hold `prev`'s blocks where the two are equal.
    fn share(c: &mut ResourceInstanceChange, prev: &ResourceInstanceChange) {
        let (a, b) = (&mut c.addr, &prev.addr);
        if a.module == b.module {
            a.module = b.module.clone();
        }
        let (r, p) = (&mut a.resource.resource, &b.resource.resource);
        if r.ty == p.ty {
            r.ty = p.ty.clone();
        }
        if r.name == p.name {
            r.name = p.name.clone();
        }
        if !Arc::ptr_eq(&c.provider, &prev.provider) && c.provider == prev.provider {
            c.provider = prev.provider.clone();
        }
        if c.dependencies == prev.dependencies {
            c.dependencies = prev.dependencies.clone();
        }
        c.planned_private.share_from(&prev.planned_private);
    }
}
