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

/// A state, stored as its state-file (v4 JSON) text.
pub mod state_text {
    use ferro_state::{read_state, write_state, State};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(st: &State, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&write_state(st))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<State, D::Error> {
        let text = String::deserialize(d)?;
        read_state(text.as_bytes()).map_err(|e| serde::de::Error::custom(e.0))
    }
}
