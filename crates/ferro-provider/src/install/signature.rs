//! Authenticating a registry package as Terraform 1.0.3 does: the `SHA256SUMS` document must
//! list the archive with the registry's `shasum`, the archive must have that SHA-256, and the
//! document's detached OpenPGP signature must verify with one of the registry's signing keys.
//! The signer is then HashiCorp (the signature verifies with HashiCorp's own key), a partner
//! (the signing key carries a trust signature made by HashiCorp's partners key) or the
//! provider's author (self-signed).

use pgp::composed::{Deserializable, DetachedSignature, SignedPublicKey};
use pgp::types::KeyDetails;
use std::io::Read;

/// HashiCorp's public key (key ID 34365D9472D7468F), as Terraform embeds it.
const HASHICORP_KEY: &str = include_str!("keys/hashicorp.asc");
/// The key HashiCorp signs its partners' keys with.
const HASHICORP_PARTNERS_KEY: &str = include_str!("keys/hashicorp-partners.asc");

/// A signing key from the registry's download response.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SigningKey {
    pub ascii_armor: String,
    pub trust_signature: String,
}

/// Who vouches for a package, in Terraform's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Authentication {
    /// No signature was checked (a package from a local mirror).
    Unauthenticated,
    /// Only a checksum was checked.
    VerifiedChecksum,
    /// Signed with HashiCorp's key.
    HashiCorp { key_id: String },
    /// Signed with a key HashiCorp's partners key vouches for.
    Partner { key_id: String },
    /// Signed with the author's own key.
    SelfSigned { key_id: String },
}

impl Authentication {
    /// The words in `- Installed … (…)`.
    pub fn describe(&self) -> String {
        match self {
            Authentication::Unauthenticated => "unauthenticated".into(),
            Authentication::VerifiedChecksum => "verified checksum".into(),
            Authentication::HashiCorp { .. } => "signed by HashiCorp".into(),
            // Third-party signers are named by key ID.
            Authentication::Partner { key_id } => {
                format!("signed by a HashiCorp partner, key ID {key_id}")
            }
            Authentication::SelfSigned { key_id } => format!("self-signed, key ID {key_id}"),
        }
    }

    /// Terraform's name for the result, without a key ID (`self-signed`).
    pub fn kind(&self) -> &'static str {
        match self {
            Authentication::Unauthenticated => "unauthenticated",
            Authentication::VerifiedChecksum => "verified checksum",
            Authentication::HashiCorp { .. } => "signed by HashiCorp",
            Authentication::Partner { .. } => "signed by a HashiCorp partner",
            Authentication::SelfSigned { .. } => "self-signed",
        }
    }

    pub fn signed(&self) -> bool {
        matches!(
            self,
            Authentication::HashiCorp { .. }
                | Authentication::Partner { .. }
                | Authentication::SelfSigned { .. }
        )
    }

    pub fn third_party(&self) -> bool {
        matches!(
            self,
            Authentication::Partner { .. } | Authentication::SelfSigned { .. }
        )
    }
}

/// The SHA-256 `document` lists for `filename`, checked against the registry's `want`.
pub fn check_listed_checksum(
    document: &str,
    filename: &str,
    want: &[u8; 32],
) -> Result<(), String> {
    let listed = document.lines().find_map(|l| {
        let mut f = l.split_whitespace();
        let sum = f.next()?;
        (f.next()? == filename).then_some(sum)
    });
    let Some(listed) = listed else {
        return Err(format!(
            "checksum list has no SHA-256 hash for {filename:?}"
        ));
    };
    let got = decode_hex32(listed)
        .ok_or_else(|| format!("checksum list has invalid SHA256 hash {listed:?}"))?;
    if &got != want {
        return Err(format!(
            "checksum list has unexpected SHA-256 hash {} (expected {})",
            hex(&got),
            hex(want)
        ));
    }
    Ok(())
}

/// The archive's own SHA-256 against the registry's.
pub fn check_archive_checksum(archive: &[u8], want: &[u8; 32]) -> Result<(), String> {
    use sha2::Digest;
    let got: [u8; 32] = sha2::Sha256::digest(archive).into();
    if &got != want {
        return Err(format!(
            "archive has incorrect checksum zh:{} (expected zh:{})",
            hex(&got),
            hex(want)
        ));
    }
    Ok(())
}

/// Verify `signature` over `document` with the registry's `keys`, and say who signed.
pub fn authenticate(
    document: &[u8],
    signature: &[u8],
    keys: &[SigningKey],
) -> Result<Authentication, String> {
    let sig = parse_signature(signature).map_err(|e| format!("error checking signature: {e}"))?;
    let mut signer = None;
    for key in keys {
        let public =
            parse_key(&key.ascii_armor).map_err(|e| format!("error decoding signing key: {e}"))?;
        match verify_with(&public, &sig, document) {
            Verified::UnknownIssuer => continue,
            Verified::Bad(e) => return Err(format!("error checking signature: {e}")),
            Verified::Good => {
                signer = Some((key, key_id(&public)));
                break;
            }
        }
    }
    let Some((key, key_id)) = signer else {
        return Err("authentication signature from unknown issuer".into());
    };
    let hashicorp =
        parse_key(HASHICORP_KEY).map_err(|e| format!("error creating HashiCorp keyring: {e}"))?;
    if matches!(verify_with(&hashicorp, &sig, document), Verified::Good) {
        return Ok(Authentication::HashiCorp { key_id });
    }
    if !key.trust_signature.is_empty() {
        let partners = parse_key(HASHICORP_PARTNERS_KEY)
            .map_err(|e| format!("error creating HashiCorp Partners keyring: {e}"))?;
        let author =
            dearmor(&key.ascii_armor).map_err(|e| format!("error decoding signing key: {e}"))?;
        let trust = parse_signature(key.trust_signature.as_bytes())
            .map_err(|e| format!("error decoding trust signature: {e}"))?;
        return match verify_with(&partners, &trust, &author) {
            Verified::Good => Ok(Authentication::Partner { key_id }),
            Verified::UnknownIssuer => Err(
                "error verifying trust signature: openpgp: signature made by unknown entity".into(),
            ),
            Verified::Bad(e) => Err(format!("error verifying trust signature: {e}")),
        };
    }
    Ok(Authentication::SelfSigned { key_id })
}

enum Verified {
    Good,
    UnknownIssuer,
    Bad(String),
}

/// Check `sig` with the primary key or a subkey of `key` whose ID the signature names as its
/// issuer (every key is tried when the signature names none).
fn verify_with(key: &SignedPublicKey, sig: &DetachedSignature, data: &[u8]) -> Verified {
    let issuers: Vec<pgp::types::KeyId> =
        sig.signature.issuer_key_id().into_iter().copied().collect();
    let fingerprints: Vec<pgp::types::Fingerprint> = sig
        .signature
        .issuer_fingerprint()
        .into_iter()
        .cloned()
        .collect();
    let named = |id: pgp::types::KeyId, fp: pgp::types::Fingerprint| {
        (issuers.is_empty() && fingerprints.is_empty())
            || issuers.contains(&id)
            || fingerprints.contains(&fp)
    };
    let mut failure = None;
    if named(
        key.primary_key.legacy_key_id(),
        key.primary_key.fingerprint(),
    ) {
        match sig.signature.verify(&key.primary_key, data) {
            Ok(()) => return Verified::Good,
            Err(e) => failure = Some(e.to_string()),
        }
    }
    for sub in &key.public_subkeys {
        if named(sub.key.legacy_key_id(), sub.key.fingerprint()) {
            match sig.signature.verify(&sub.key, data) {
                Ok(()) => return Verified::Good,
                Err(e) => failure = Some(e.to_string()),
            }
        }
    }
    match failure {
        None => Verified::UnknownIssuer,
        Some(e) => Verified::Bad(format!("openpgp: invalid signature: {e}")),
    }
}

fn key_id(key: &SignedPublicKey) -> String {
    key.primary_key.legacy_key_id().to_string().to_uppercase()
}

fn parse_key(armored: &str) -> Result<SignedPublicKey, String> {
    SignedPublicKey::from_armor_single(armored.as_bytes())
        .map(|(k, _)| k)
        .map_err(|e| e.to_string())
}

/// A detached signature, binary (as registries serve `SHA256SUMS.sig`) or armored.
fn parse_signature(bytes: &[u8]) -> Result<DetachedSignature, String> {
    let text_start = bytes.iter().position(|b| !b.is_ascii_whitespace());
    if text_start.is_some_and(|i| bytes[i..].starts_with(b"-----BEGIN PGP")) {
        DetachedSignature::from_armor_single(bytes)
            .map(|(s, _)| s)
            .map_err(|e| e.to_string())
    } else {
        DetachedSignature::from_bytes(bytes).map_err(|e| e.to_string())
    }
}

fn dearmor(armored: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    pgp::armor::Dearmor::new(armored.as_bytes())
        .read_to_end(&mut out)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// Lower-case hex, as `SHA256SUMS` and `zh:` hashes write digests.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 64 hex digits as 32 bytes.
pub fn decode_hex32(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// Every `zh:` hash a signed `SHA256SUMS` document vouches for (none when it does not look
/// like a checksum list), as Terraform records them.
pub fn zh_hashes(document: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in document.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            continue;
        }
        if fields.len() < 2 {
            return Vec::new();
        }
        match decode_hex32(fields[0]) {
            Some(sum) => out.push(format!("zh:{}", hex(&sum))),
            None => return Vec::new(),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_keys_parse_and_hashicorps_has_its_published_id() {
        let k = parse_key(HASHICORP_KEY).unwrap();
        assert_eq!(key_id(&k), "34365D9472D7468F");
        parse_key(HASHICORP_PARTNERS_KEY).unwrap();
    }

    /// Terraform 1.0.3's test vectors (see `keys/testdata/README.md`).
    mod vectors {
        use base64::Engine;
        pub fn b64(text: &str) -> Vec<u8> {
            base64::engine::general_purpose::STANDARD
                .decode(text.trim())
                .unwrap()
        }
        pub const SHASUMS: &str = include_str!("keys/testdata/provider-shasums.txt");
        pub const SHASUMS_SIG: &str = include_str!("keys/testdata/provider-shasums.sig.b64");
        pub const AUTHOR_KEY: &str = include_str!("keys/testdata/author-key.asc");
        pub const AUTHOR_TRUST: &str = include_str!("keys/testdata/author-trust-signature.asc");
        pub const OTHER_TRUST: &str = include_str!("keys/testdata/other-trust-signature.asc");
        pub const AUTHOR_SIG: &str = include_str!("keys/testdata/author-signature.b64");
        pub const BAD_SIG: &str = include_str!("keys/testdata/bad-signature.b64");
        pub const PLACEHOLDER: &[u8] = b"example shasums data";
    }

    #[test]
    fn a_list_signed_with_hashicorps_key_is_hashicorps() {
        let keys = [SigningKey {
            ascii_armor: HASHICORP_KEY.into(),
            trust_signature: String::new(),
        }];
        let sig = vectors::b64(vectors::SHASUMS_SIG);
        assert_eq!(
            authenticate(vectors::SHASUMS.as_bytes(), &sig, &keys),
            Ok(Authentication::HashiCorp {
                key_id: "34365D9472D7468F".into()
            })
        );
        assert_eq!(
            authenticate(vectors::SHASUMS.as_bytes(), &sig, &keys)
                .unwrap()
                .describe(),
            "signed by HashiCorp"
        );
        // Another document under the same signature is refused.
        let e = authenticate(b"something else", &sig, &keys).unwrap_err();
        assert!(e.starts_with("error checking signature: "), "{e}");
        assert_eq!(zh_hashes(vectors::SHASUMS).len(), 11);
    }

    #[test]
    fn a_key_with_the_partners_trust_signature_is_a_partners() {
        let sig = vectors::b64(vectors::AUTHOR_SIG);
        let key = |trust: &str| {
            [SigningKey {
                ascii_armor: vectors::AUTHOR_KEY.into(),
                trust_signature: trust.into(),
            }]
        };
        assert_eq!(
            authenticate(vectors::PLACEHOLDER, &sig, &key(vectors::AUTHOR_TRUST)),
            Ok(Authentication::Partner {
                key_id: "37A6AB3BCF2C170A".into()
            })
        );
        assert_eq!(
            authenticate(vectors::PLACEHOLDER, &sig, &key("")),
            Ok(Authentication::SelfSigned {
                key_id: "37A6AB3BCF2C170A".into()
            })
        );
        // A trust signature made for another key does not vouch for this one.
        let e = authenticate(vectors::PLACEHOLDER, &sig, &key(vectors::OTHER_TRUST)).unwrap_err();
        assert!(e.starts_with("error verifying trust signature: "), "{e}");
        // A broken signature, and one no listed key made.
        assert!(authenticate(
            vectors::PLACEHOLDER,
            &vectors::b64(vectors::BAD_SIG),
            &key("")
        )
        .is_err());
        let hashicorp = [SigningKey {
            ascii_armor: HASHICORP_KEY.into(),
            trust_signature: String::new(),
        }];
        assert_eq!(
            authenticate(vectors::PLACEHOLDER, &sig, &hashicorp),
            Err("authentication signature from unknown issuer".into())
        );
    }

    #[test]
    fn checksum_lists() {
        let sum = [0xabu8; 32];
        let doc = format!(
            "{}  p_1.0.0_linux_amd64.zip\n{}  p_1.0.0_darwin_arm64.zip\n",
            hex(&sum),
            hex(&[1u8; 32])
        );
        check_listed_checksum(&doc, "p_1.0.0_linux_amd64.zip", &sum).unwrap();
        let e = check_listed_checksum(&doc, "p_1.0.0_darwin_arm64.zip", &sum).unwrap_err();
        assert!(
            e.starts_with("checksum list has unexpected SHA-256 hash 0101"),
            "{e}"
        );
        assert!(check_listed_checksum(&doc, "other.zip", &sum)
            .unwrap_err()
            .contains("no SHA-256 hash"));
        assert_eq!(
            zh_hashes(&doc),
            [
                format!("zh:{}", hex(&sum)),
                format!("zh:{}", hex(&[1u8; 32]))
            ]
        );
        assert!(zh_hashes("not a list\n").is_empty());
        assert_eq!(
            Authentication::SelfSigned {
                key_id: "AB".into()
            }
            .describe(),
            "self-signed, key ID AB"
        );
    }
}
