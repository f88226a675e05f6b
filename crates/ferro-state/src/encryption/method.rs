//! Methods: `aes_gcm` (AES-128/192/256 in GCM, NIST SP 800-38D, by the key's length) and
//! `unencrypted` (the way in and out of encryption). aes_gcm's output is the random 12-byte
//! nonce followed by the ciphertext and the 16-byte tag; `aad` is authenticated, not stored.

use super::envelope::MetaMap;
use super::keys::{self, Want};
use super::{err, Config, EncryptionError, MethodKind};
use aes_gcm::aead::consts::U12;
use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes128Gcm, Aes256Gcm, AesGcm};

type Aes192Gcm = AesGcm<aes_gcm::aes::Aes192, U12>;

const NONCE_LEN: usize = 12;

/// A method ready to use: its keys are known.
pub(crate) enum Prepared {
    AesGcm {
        encryption_key: keys::Secret,
        decryption_key: Option<keys::Secret>,
        aad: Vec<u8>,
    },
    Unencrypted,
}

/// Set up method `index` of `config`: its key provider gives keys for `meta_in` (the
/// envelope being read, or nothing when writing) and adds its metadata to `meta_out`.
pub(crate) fn setup(
    config: &Config,
    index: usize,
    meta_in: &MetaMap,
    meta_out: &mut MetaMap,
    want: Want,
) -> Result<Prepared, EncryptionError> {
    let Some(m) = config.methods.get(index) else {
        return Err(err("bug: an encryption target names no method"));
    };
    match &m.kind {
        MethodKind::Unencrypted => Ok(Prepared::Unencrypted),
        MethodKind::AesGcm {
            keys: (ty, name),
            aad,
        } => {
            let out = keys::provide(config, (ty, name), meta_in, meta_out, want, &mut Vec::new())?;
            let valid = |n: usize| matches!(n, 16 | 24 | 32);
            if want == Want::Encrypt && !valid(out.encryption_key.len()) {
                return Err(err(format!("Invalid method configuration: AES-GCM requires the key length to be one of: 16, 24, 32, received {} bytes in the encryption key", out.encryption_key.len())));
            }
            if let Some(k) = out.decryption_key.as_ref().filter(|k| !valid(k.len())) {
                return Err(err(format!("Invalid method configuration: AES-GCM requires the key length to be one of: 16, 24, 32, received {} bytes in the decryption key", k.len())));
            }
            Ok(Prepared::AesGcm {
                encryption_key: out.encryption_key,
                decryption_key: out.decryption_key,
                aad: aad.clone(),
            })
        }
    }
}

fn seal(key: &[u8], nonce: &[u8], payload: Payload<'_, '_>) -> Result<Vec<u8>, aes_gcm::Error> {
    let nonce = aes_gcm::Nonce::<U12>::from_slice(nonce);
    match key.len() {
        16 => Aes128Gcm::new_from_slice(key)
            .map_err(|_| aes_gcm::Error)?
            .encrypt(nonce, payload),
        24 => Aes192Gcm::new_from_slice(key)
            .map_err(|_| aes_gcm::Error)?
            .encrypt(nonce, payload),
        _ => Aes256Gcm::new_from_slice(key)
            .map_err(|_| aes_gcm::Error)?
            .encrypt(nonce, payload),
    }
}

fn unseal(key: &[u8], nonce: &[u8], payload: Payload<'_, '_>) -> Result<Vec<u8>, aes_gcm::Error> {
    let nonce = aes_gcm::Nonce::<U12>::from_slice(nonce);
    match key.len() {
        16 => Aes128Gcm::new_from_slice(key)
            .map_err(|_| aes_gcm::Error)?
            .decrypt(nonce, payload),
        24 => Aes192Gcm::new_from_slice(key)
            .map_err(|_| aes_gcm::Error)?
            .decrypt(nonce, payload),
        _ => Aes256Gcm::new_from_slice(key)
            .map_err(|_| aes_gcm::Error)?
            .decrypt(nonce, payload),
    }
}

impl Prepared {
    /// The encrypted form of `data`, or None for `unencrypted` (data is written as it is).
    pub(crate) fn encrypt(&self, data: &[u8]) -> Result<Option<Vec<u8>>, EncryptionError> {
        let Prepared::AesGcm {
            encryption_key,
            aad,
            ..
        } = self
        else {
            return Ok(None);
        };
        let mut nonce = [0u8; NONCE_LEN];
        getrandom::fill(&mut nonce)
            .map_err(|e| err(format!("encryption failed: could not generate nonce: {e}")))?;
        let sealed = seal(encryption_key, &nonce, Payload { msg: data, aad })
            .map_err(|_| err("encryption failed: the cipher could not be set up"))?;
        let mut out = Vec::with_capacity(NONCE_LEN + sealed.len());
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        Ok(Some(out))
    }

    /// Decrypt `data` (nonce, ciphertext, tag); the error says why in OpenTofu's words.
    pub(crate) fn decrypt(&self, data: &[u8]) -> Result<Vec<u8>, String> {
        let Prepared::AesGcm {
            decryption_key,
            aad,
            ..
        } = self
        else {
            return Err("the unencrypted method does not decrypt".into());
        };
        let Some(key) = decryption_key.as_ref().filter(|k| !k.is_empty()) else {
            return Err("decryption key unavailable".into());
        };
        if data.is_empty() {
            return Err("decryption failed: cannot decrypt empty data".into());
        }
        if data.len() < NONCE_LEN {
            return Err(
                "decryption failed: cannot decrypt data because it is too small (likely data corruption)"
                    .into(),
            );
        }
        let (nonce, rest) = data.split_at(NONCE_LEN);
        unseal(key, nonce, Payload { msg: rest, aad })
            .map_err(|_| "decryption failed: cipher: message authentication failed".to_string())
    }
}
