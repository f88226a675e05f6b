//! OpenTofu's encrypted document: a JSON object with `meta` (metadata per key provider, each the
//! base64 of a JSON document), `encrypted_data` (base64) and `encryption_version` (`"v0"`); a
//! state's also begins with its `serial` and `lineage`. Written compact, in OpenTofu's field
//! order (Go's encoder: struct fields in order, map keys sorted).

use base64::engine::general_purpose::STANDARD as B64;
use base64::Engine as _;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The only envelope version there is.
pub(crate) const VERSION: &str = "v0";

/// Metadata per storage key (a key provider's address or alias): the JSON the provider needs
/// to give the same key again, as bytes.
pub(crate) type MetaMap = BTreeMap<String, Vec<u8>>;

pub(crate) struct Envelope {
    /// A state's serial and lineage, kept in clear beside the encrypted state.
    pub state: Option<(Option<i64>, String)>,
    pub meta: MetaMap,
    pub data: Vec<u8>,
}

pub(crate) struct Decoded {
    pub meta: MetaMap,
    pub data: Vec<u8>,
    pub version: String,
}

#[derive(Serialize)]
struct StateOut<'a> {
    serial: Option<i64>,
    lineage: &'a str,
    meta: BTreeMap<&'a str, String>,
    encrypted_data: String,
    encryption_version: &'static str,
}

#[derive(Serialize)]
struct PlainOut<'a> {
    meta: BTreeMap<&'a str, String>,
    encrypted_data: String,
    encryption_version: &'static str,
}

#[derive(Deserialize)]
struct In {
    #[serde(default)]
    meta: Option<BTreeMap<String, Option<String>>>,
    #[serde(default)]
    encrypted_data: Option<String>,
    #[serde(default)]
    encryption_version: Option<String>,
}

impl Envelope {
    pub(crate) fn encode(&self) -> Vec<u8> {
        let meta = self
            .meta
            .iter()
            .map(|(k, v)| (k.as_str(), B64.encode(v)))
            .collect();
        let data = B64.encode(&self.data);
        let out = match &self.state {
            Some((serial, lineage)) => serde_json::to_vec(&StateOut {
                serial: *serial,
                lineage,
                meta,
                encrypted_data: data,
                encryption_version: VERSION,
            }),
            None => serde_json::to_vec(&PlainOut {
                meta,
                encrypted_data: data,
                encryption_version: VERSION,
            }),
        };
        out.unwrap_or_default()
    }

    /// Read `bytes` as an envelope: `Ok(None)` when it is JSON but not an envelope (no
    /// `encryption_version`), `Err` when it is not JSON (or its base64 is broken).
    pub(crate) fn decode(bytes: &[u8]) -> Result<Option<Decoded>, String> {
        let doc: In = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        let version = doc.encryption_version.unwrap_or_default();
        if version.is_empty() {
            return Ok(None);
        }
        let decode = |s: &str| {
            B64.decode(s.trim())
                .map_err(|e| format!("the encrypted document's base64 is invalid: {e}"))
        };
        let mut meta = MetaMap::new();
        for (k, v) in doc.meta.unwrap_or_default() {
            if let Some(v) = v {
                meta.insert(k, decode(&v)?);
            }
        }
        let data = decode(doc.encrypted_data.as_deref().unwrap_or_default())?;
        Ok(Some(Decoded {
            meta,
            data,
            version,
        }))
    }
}

/// Whether `bytes` is an encrypted document (JSON with a non-empty `encryption_version`).
pub fn is_envelope(bytes: &[u8]) -> bool {
    matches!(Envelope::decode(bytes), Ok(Some(_)))
}

#[derive(Deserialize)]
struct Identity {
    #[serde(default)]
    serial: Option<i64>,
    #[serde(default)]
    lineage: Option<String>,
}

/// The serial and lineage of a state in clear, to repeat in its envelope.
pub(crate) fn state_identity(plain: &[u8]) -> Result<(Option<i64>, String), String> {
    let id: Identity = serde_json::from_slice(plain).map_err(|e| e.to_string())?;
    Ok((id.serial, id.lineage.unwrap_or_default()))
}

/// The envelope's serial and lineage must be the decrypted state's (OpenTofu's check: a
/// envelope whose clear identity was edited is refused).
pub(crate) fn check_identity(envelope: &[u8], plain: &[u8]) -> Result<(), String> {
    let outer: Identity = serde_json::from_slice(envelope).map_err(|e| e.to_string())?;
    let inner: Identity = serde_json::from_slice(plain).map_err(|e| e.to_string())?;
    if let (Some(a), Some(b)) = (outer.serial, inner.serial) {
        if a != b {
            return Err(format!(
                "invalid state metadata, serial field mismatch {a} vs {b}"
            ));
        }
    }
    if let Some(a) = outer.lineage.filter(|l| !l.is_empty()) {
        let b = inner.lineage.unwrap_or_default();
        if a != b {
            return Err(format!(
                "invalid state metadata, lineage field mismatch {a} vs {b}"
            ));
        }
    }
    Ok(())
}

/// Whether data that is not an envelope is a state in clear (JSON with a
/// `terraform_version`).
pub(crate) fn is_clear_state(data: &[u8]) -> Result<(), String> {
    #[derive(Deserialize)]
    struct Version {
        #[serde(default)]
        terraform_version: Option<String>,
    }
    let v: Version = serde_json::from_slice(data).map_err(|e| e.to_string())?;
    if v.terraform_version.unwrap_or_default().is_empty() {
        return Err("Given payload is not a state file".into());
    }
    Ok(())
}
