//! State and plan encryption as OpenTofu (1.7+) does it: key providers (`pbkdf2`,
//! `external`) give keys, methods (`aes_gcm`, `unencrypted`) use them, and each target (the
//! state, saved plans, `terraform_remote_state` readers) names a method and its fallbacks.
//!
//! The configuration arrives here evaluated (the CLI reads the `encryption` block and
//! `TF_ENCRYPTION`, checks them with diagnostics and resolves static references); this module
//! does the cryptography and the file format:
//!
//! * the envelope is OpenTofu's JSON document (`envelope.rs`): `meta` (per key provider, the
//!   base64 of the JSON it needs to give the same key again, e.g. pbkdf2's salt), the base64
//!   `encrypted_data` and `encryption_version` `"v0"`; a state envelope also carries the
//!   state's `serial` and `lineage` in clear, as OpenTofu's does;
//! * aes_gcm's data is the 12-byte nonce, the ciphertext and the 16-byte tag (`method.rs`);
//! * pbkdf2 derives with HMAC-SHA-512 (or SHA-256) from the passphrase and a fresh salt per run
//!   (`keys.rs`);
//! * the apply journal of an encrypted state is encrypted a record at a time: each change line
//!   is an envelope of its own (without serial and lineage), so a line cut short by a kill still
//!   ends the journal and every complete line can be decrypted alone (see `journal.rs`).
//!
//! Reading tries the methods in order (the first is the one that writes; the others are
//! `fallback`s); data that is not an envelope is accepted only when an `unencrypted` method is
//! among them, as OpenTofu requires. Keys and passphrases are never put in messages.

mod envelope;
mod keys;
mod method;

pub use envelope::is_envelope;
pub use keys::{ExternalConfig, HashFunction, KeyOutput, Pbkdf2Config, EXTERNAL_TIMEOUT};

use envelope::{Envelope, MetaMap};
use method::Prepared;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

/// OpenTofu's minimum passphrase length for pbkdf2, in bytes.
pub const MIN_PASSPHRASE_LENGTH: usize = 16;
/// OpenTofu's lowest accepted number of pbkdf2 iterations.
pub const MIN_ITERATIONS: i64 = 200_000;
/// OpenTofu's pbkdf2 defaults.
pub const DEFAULT_ITERATIONS: u32 = 600_000;
pub const DEFAULT_KEY_LENGTH: usize = 32;
pub const DEFAULT_SALT_LENGTH: usize = 32;

/// A key provider of the configuration, its arguments evaluated.
#[derive(Clone)]
pub struct KeyProviderConfig {
    pub ty: String,
    pub name: String,
    /// `encrypted_metadata_alias`: the key its metadata is stored under instead of its address.
    pub metadata_alias: Option<String>,
    pub kind: KeyProviderKind,
}

#[derive(Clone)]
pub enum KeyProviderKind {
    Pbkdf2(Pbkdf2Config),
    External(ExternalConfig),
}

impl KeyProviderConfig {
    /// `key_provider.TYPE.NAME`.
    pub fn addr(&self) -> String {
        format!("key_provider.{}.{}", self.ty, self.name)
    }
    /// Where its metadata is stored in an envelope.
    fn meta_key(&self) -> String {
        self.metadata_alias.clone().unwrap_or_else(|| self.addr())
    }
}

/// A method of the configuration.
#[derive(Clone)]
pub struct MethodConfig {
    pub ty: String,
    pub name: String,
    pub kind: MethodKind,
}

#[derive(Clone)]
pub enum MethodKind {
    /// `keys` names a key provider (type, name); `aad` is the additional authenticated data.
    AesGcm {
        keys: (String, String),
        aad: Vec<u8>,
    },
    Unencrypted,
}

/// Every key provider and method, as configured.
#[derive(Clone, Default)]
pub struct Config {
    pub key_providers: Vec<KeyProviderConfig>,
    pub methods: Vec<MethodConfig>,
}

impl Config {
    fn key_provider(&self, ty: &str, name: &str) -> Option<&KeyProviderConfig> {
        self.key_providers
            .iter()
            .find(|k| k.ty == ty && k.name == name)
    }
}

/// An error of encryption or decryption, in words fit for the user (never a key).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncryptionError(pub String);

impl std::fmt::Display for EncryptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn err(msg: impl Into<String>) -> EncryptionError {
    EncryptionError(msg.into())
}

/// How reading went: with the first method, or with a fallback (the next write migrates).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Satisfied,
    Migration,
}

/// One target's encryption (`state`, `plan`, a remote state reader): its methods, the first
/// being the one that writes.
pub struct TargetEncryption {
    /// `state`, `plan`, `remote_state_data_sources.default`, … (for messages).
    name: String,
    config: Arc<Config>,
    /// Indexes into `config.methods`, the writing one first, then the fallbacks in order.
    methods: Vec<usize>,
    /// The writing method with fresh keys and the metadata to store beside its output, set up
    /// on first use (or by [`TargetEncryption::prepare`]).
    primary: OnceLock<Result<(Prepared, MetaMap), EncryptionError>>,
    /// The methods set up for the metadata of the envelope read last: the journal's records all
    /// share one, and a key derivation per record would cost seconds each.
    last_read: Mutex<Option<(MetaMap, Vec<Result<Prepared, EncryptionError>>)>>,
    /// A state was read with a fallback method (or in clear): the next write must happen even
    /// if the state did not change, to finish the migration.
    migrating: std::sync::atomic::AtomicBool,
}

impl TargetEncryption {
    /// `methods` are indexes into `config.methods`, the writing one first; the list is not
    /// empty (the CLI has checked the configuration).
    pub fn new(name: &str, config: Arc<Config>, methods: Vec<usize>) -> TargetEncryption {
        TargetEncryption {
            name: name.to_string(),
            config,
            methods,
            primary: OnceLock::new(),
            last_read: Mutex::new(None),
            migrating: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Set up the writing method now (deriving its keys, running external key providers), so
    /// that a state can always be written once the work has begun: a command that may write
    /// calls this before it changes anything.
    pub fn prepare(&self) -> Result<(), EncryptionError> {
        self.primary().map(|_| ())
    }

    fn primary(&self) -> Result<&(Prepared, MetaMap), EncryptionError> {
        self.primary
            .get_or_init(|| {
                let mut meta = MetaMap::new();
                let m = self.methods.first().copied().unwrap_or(usize::MAX);
                let prepared = method::setup(
                    &self.config,
                    m,
                    &MetaMap::new(),
                    &mut meta,
                    keys::Want::Encrypt,
                )?;
                Ok((prepared, meta))
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Whether the writing method is `unencrypted` (what is written is in clear).
    pub fn writes_clear(&self) -> bool {
        self.methods
            .first()
            .and_then(|m| self.config.methods.get(*m))
            .is_some_and(|m| matches!(m.kind, MethodKind::Unencrypted))
    }

    fn accepts_clear(&self) -> bool {
        self.methods.iter().any(|m| {
            self.config
                .methods
                .get(*m)
                .is_some_and(|m| matches!(m.kind, MethodKind::Unencrypted))
        })
    }

    /// Encrypt `data` into an envelope (`state`: with the state's serial and lineage in clear);
    /// data passes through unchanged when the writing method is `unencrypted`.
    fn seal(
        &self,
        data: &[u8],
        state: Option<(Option<i64>, String)>,
    ) -> Result<Vec<u8>, EncryptionError> {
        let (prepared, meta) = self.primary()?;
        let Some(sealed) = prepared.encrypt(data)? else {
            return Ok(data.to_vec());
        };
        let envelope = Envelope {
            state,
            meta: meta.clone(),
            data: sealed,
        };
        Ok(envelope.encode())
    }

    /// Decrypt `data`; `is_clear` tells whether data that is not an envelope is a valid clear
    /// payload (then accepted only with an `unencrypted` method).
    fn open(
        &self,
        data: &[u8],
        is_clear: &dyn Fn(&[u8]) -> Result<(), String>,
    ) -> Result<(Vec<u8>, Status), EncryptionError> {
        let envelope = match Envelope::decode(data) {
            Ok(Some(e)) => e,
            decoded => {
                if let Err(why) = is_clear(data) {
                    return Err(match decoded {
                        Err(json) => {
                            err(format!("invalid data format for decryption: {json}, {why}"))
                        }
                        _ => err(format!(
                            "unable to determine data structure during decryption: {why}"
                        )),
                    });
                }
                if !self.accepts_clear() {
                    return Err(err(
                        "encountered unencrypted payload without unencrypted method configured",
                    ));
                }
                let status = if self.writes_clear() {
                    Status::Satisfied
                } else {
                    Status::Migration
                };
                return Ok((data.to_vec(), status));
            }
        };
        if envelope.version != envelope::VERSION {
            return Err(err(format!(
                "invalid encrypted payload version: {} != {}",
                envelope.version,
                envelope::VERSION
            )));
        }
        let mut cache = self.last_read.lock().unwrap_or_else(|e| e.into_inner());
        if cache
            .as_ref()
            .is_none_or(|(meta, _)| *meta != envelope.meta)
        {
            let prepared = self
                .methods
                .iter()
                .map(|m| {
                    let mut out = MetaMap::new();
                    method::setup(
                        &self.config,
                        *m,
                        &envelope.meta,
                        &mut out,
                        keys::Want::Decrypt,
                    )
                })
                .collect();
            *cache = Some((envelope.meta.clone(), prepared));
        }
        let Some((_, prepared)) = cache.as_ref() else {
            return Err(err("bug: no decryption methods"));
        };
        let mut failures = Vec::new();
        for (i, p) in prepared.iter().enumerate() {
            let p = match p {
                Ok(Prepared::Unencrypted) => continue,
                Ok(p) => p,
                // A key provider that cannot give the key fails the read as OpenTofu's does.
                Err(e) => return Err(e.clone()),
            };
            match p.decrypt(&envelope.data) {
                Ok(plain) => {
                    let status = if i == 0 {
                        Status::Satisfied
                    } else {
                        Status::Migration
                    };
                    return Ok((plain, status));
                }
                Err(e) => failures.push(format!(
                    "attempted decryption failed for {}: {e}",
                    self.name
                )),
            }
        }
        let mut msg = "decryption failed for all provided methods".to_string();
        for f in failures {
            msg.push('\n');
            msg.push_str(&f);
        }
        Err(err(msg))
    }

    /// Whether the last state read needs writing again with the first method (it was read
    /// with a fallback, or in clear), even when it did not change.
    pub fn migration_pending(&self) -> bool {
        self.migrating.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Encrypt a rendered state (state format v4 JSON).
    pub fn encrypt_state(&self, plain: &[u8]) -> Result<Vec<u8>, EncryptionError> {
        if self.writes_clear() {
            return Ok(plain.to_vec());
        }
        let ident = envelope::state_identity(plain)
            .map_err(|e| err(format!("the state to encrypt is not valid JSON: {e}")))?;
        self.seal(plain, Some(ident))
    }

    /// The state was written with the first method: the migration is over.
    pub fn migration_done(&self) {
        self.migrating
            .store(false, std::sync::atomic::Ordering::Relaxed);
    }

    /// Decrypt a stored state, checking the clear serial and lineage against the decrypted
    /// ones; a state in clear passes only with an `unencrypted` method.
    pub fn decrypt_state(&self, data: &[u8]) -> Result<(Vec<u8>, Status), EncryptionError> {
        let (plain, status) = self.open(data, &envelope::is_clear_state)?;
        if is_envelope(data) {
            envelope::check_identity(data, &plain).map_err(err)?;
        }
        if status == Status::Migration {
            self.migrating
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        Ok((plain, status))
    }

    /// Encrypt a saved plan file.
    pub fn encrypt_plan(&self, plain: &[u8]) -> Result<Vec<u8>, EncryptionError> {
        self.seal(plain, None)
    }

    /// Decrypt a saved plan file; `is_plan` tells a plan file in clear.
    pub fn decrypt_plan(
        &self,
        data: &[u8],
        is_plan: &dyn Fn(&[u8]) -> bool,
    ) -> Result<Vec<u8>, EncryptionError> {
        let check = |d: &[u8]| -> Result<(), String> {
            if is_plan(d) {
                Ok(())
            } else {
                Err("the file is not a plan file".into())
            }
        };
        self.open(data, &check).map(|(p, _)| p)
    }

    /// Encrypt one journal record (a line without its line break): the result is one line of
    /// JSON, an envelope without serial and lineage.
    pub fn encrypt_record(&self, plain: &[u8]) -> Result<Vec<u8>, EncryptionError> {
        self.seal(plain, None)
    }

    /// Decrypt one journal record written by [`encrypt_record`](Self::encrypt_record).
    pub fn decrypt_record(&self, line: &[u8]) -> Result<Vec<u8>, EncryptionError> {
        let is_json = |d: &[u8]| {
            serde_json::from_slice::<serde::de::IgnoredAny>(d)
                .map(|_| ())
                .map_err(|e| e.to_string())
        };
        self.open(line, &is_json).map(|(p, _)| p)
    }
}

/// Every target's encryption, as configured; a target not configured is `None` (data passes
/// in clear, as without encryption).
#[derive(Default)]
pub struct Encryption {
    pub state: Option<Arc<TargetEncryption>>,
    pub plan: Option<Arc<TargetEncryption>>,
    /// `remote_state_data_sources { default { … } }`.
    pub remote_default: Option<Arc<TargetEncryption>>,
    /// `remote_state_data_source "ADDRESS" { … }`, by the data source's address.
    pub remotes: BTreeMap<String, Arc<TargetEncryption>>,
}

impl Encryption {
    /// The encryption of the `terraform_remote_state` instance at `addr` (its address as core
    /// writes it, `data.terraform_remote_state.NAME[KEY]`, `module.M.data.…`): the
    /// `remote_state_data_source` target whose label is [`remote_target_name`] of it, or the
    /// `default` one.
    pub fn remote(&self, addr: &str) -> Option<Arc<TargetEncryption>> {
        self.remotes
            .get(&remote_target_name(addr))
            .or(self.remote_default.as_ref())
            .cloned()
    }
}

/// The encryption of each working directory's run, for the `terraform_remote_state` data
/// source (a provider of the run, started for that directory): keyed by the directory, so runs
/// of different directories in one process (the golden tests) never see each other's.
static REMOTE_READERS: Mutex<BTreeMap<std::path::PathBuf, Arc<Encryption>>> =
    Mutex::new(BTreeMap::new());

/// Record the encryption configured for the run in `dir` (None: none).
pub fn set_run_encryption(dir: &std::path::Path, encryption: Option<Arc<Encryption>>) {
    let mut readers = REMOTE_READERS.lock().unwrap_or_else(|e| e.into_inner());
    match encryption {
        Some(e) => readers.insert(dir.to_path_buf(), e),
        None => readers.remove(dir),
    };
}

/// The label of the `remote_state_data_source` target that applies to the instance at `addr`,
/// as OpenTofu derives it: the address without its first `data.terraform_remote_state.` and
/// without a leading `module.` (`data.terraform_remote_state.a[0]` is `a[0]`,
/// `module.m.data.terraform_remote_state.b` is `m.b`, `module.m.module.n.data.…c` is
/// `m.module.n.c`).
pub fn remote_target_name(addr: &str) -> String {
    let name = addr.replacen("data.terraform_remote_state.", "", 1);
    match name.strip_prefix("module.") {
        Some(rest) => rest.to_string(),
        None => name,
    }
}

/// How the `terraform_remote_state` instance at `addr` in the configuration of `dir` reads
/// remote states: its `remote_state_data_source` target, or the `default` one (None: in
/// clear).
pub fn remote_state_encryption(dir: &std::path::Path, addr: &str) -> Option<Arc<TargetEncryption>> {
    let readers = REMOTE_READERS.lock().unwrap_or_else(|e| e.into_inner());
    readers.get(dir).and_then(|e| e.remote(addr))
}

#[cfg(test)]
mod tests;
