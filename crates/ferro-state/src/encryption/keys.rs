//! Key providers: `pbkdf2` (a key derived from a passphrase, or from the key another provider
//! gives with `chain`, and a fresh salt) and `external` (a program speaking OpenTofu's
//! protocol: a header line, the stored metadata or `null` on its standard input, the keys as
//! base64 JSON on its standard output).
//!
//! A provider gives an encryption key (for what is written now, with new metadata) and, when
//! the envelope being read has metadata for it, a decryption key. Its metadata goes into the
//! envelope under its address (`key_provider.TYPE.NAME`) or its `encrypted_metadata_alias`.

use super::envelope::MetaMap;
use super::{err, Config, EncryptionError, KeyProviderKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Key material: wiped when dropped.
pub type Secret = zeroize::Zeroizing<Vec<u8>>;

/// The keys a provider gives.
#[derive(Clone, Default)]
pub struct KeyOutput {
    pub encryption_key: Secret,
    pub decryption_key: Option<Secret>,
}

/// pbkdf2's hash functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashFunction {
    Sha256,
    Sha512,
}

impl HashFunction {
    pub fn name(self) -> &'static str {
        match self {
            HashFunction::Sha256 => "sha256",
            HashFunction::Sha512 => "sha512",
        }
    }
    pub fn from_name(name: &str) -> Option<HashFunction> {
        match name {
            "sha256" => Some(HashFunction::Sha256),
            "sha512" => Some(HashFunction::Sha512),
            _ => None,
        }
    }
}

/// A `key_provider "pbkdf2"` block, evaluated and checked.
#[derive(Clone)]
pub struct Pbkdf2Config {
    /// The passphrase, or None with `chain`.
    pub passphrase: Option<zeroize::Zeroizing<String>>,
    /// `chain = key_provider.TYPE.NAME`: the passphrase is that provider's key.
    pub chain: Option<(String, String)>,
    pub key_length: usize,
    pub iterations: u32,
    pub salt_length: usize,
    pub hash_function: HashFunction,
}

/// A `key_provider "external"` block: the program and its arguments, and how long it may run
/// before it is stopped.
#[derive(Clone)]
pub struct ExternalConfig {
    pub command: Vec<String>,
    pub timeout: std::time::Duration,
}

/// How long OpenTofu lets an external key provider run: one minute.
pub const EXTERNAL_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// A duration as Go prints it (`1m0s`, `2s`, `500ms`), as OpenTofu would name it.
fn go_duration(d: std::time::Duration) -> String {
    let secs = d.as_secs();
    if secs == 0 {
        return format!("{}ms", d.as_millis());
    }
    let frac = match d.subsec_millis() {
        0 => String::new(),
        ms => format!(".{ms:03}").trim_end_matches('0').to_string(),
    };
    match (secs / 3600, secs / 60 % 60, secs % 60) {
        (0, 0, s) => format!("{s}{frac}s"),
        (0, m, s) => format!("{m}m{s}{frac}s"),
        (h, m, s) => format!("{h}h{m}m{s}{frac}s"),
    }
}

/// Which keys a setup needs: writing needs the encryption key (and new metadata), reading only
/// the decryption key (a pbkdf2 derivation is skipped).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    Encrypt,
    Decrypt,
}

/// pbkdf2's metadata, as OpenTofu stores it.
#[derive(Serialize, Deserialize, Default)]
struct Pbkdf2Meta {
    #[serde(default, with = "b64")]
    salt: Vec<u8>,
    #[serde(default)]
    iterations: i64,
    #[serde(default)]
    hash_function: String,
    #[serde(default)]
    key_length: i64,
}

mod b64 {
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine as _;
    use serde::{Deserialize, Deserializer, Serializer};
    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&STANDARD.encode(v))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        let s: Option<String> = Option::deserialize(d)?;
        STANDARD
            .decode(s.unwrap_or_default())
            .map_err(serde::de::Error::custom)
    }
}

/// Set up the key provider `(ty, name)` and its chain: its keys, and its metadata added to
/// `meta_out`. `stack` holds the providers being set up (a cycle is an error).
pub(crate) fn provide(
    config: &Config,
    (ty, name): (&str, &str),
    meta_in: &MetaMap,
    meta_out: &mut MetaMap,
    want: Want,
    stack: &mut Vec<String>,
) -> Result<KeyOutput, EncryptionError> {
    let Some(kp) = config.key_provider(ty, name) else {
        return Err(err(format!(
            "There is no key_provider {ty:?} {name:?} block declared in the encryption block."
        )));
    };
    let addr = kp.addr();
    if stack.contains(&addr) {
        stack.push(addr.clone());
        return Err(err(format!(
            "Cannot load {addr} due to circular reference between key providers. Stack trace {}",
            stack.join(" -> ")
        )));
    }
    stack.push(addr.clone());
    let meta_key = kp.meta_key();
    let stored = meta_in.get(&meta_key);
    let (output, meta) = match &kp.kind {
        KeyProviderKind::Pbkdf2(p) => {
            let (enc_pass, dec_pass) = match &p.chain {
                Some((cty, cname)) => {
                    let up = provide(config, (cty, cname), meta_in, meta_out, want, stack)?;
                    let min = super::MIN_PASSPHRASE_LENGTH;
                    let short = |what: &str| {
                        err(format!("{addr} failed with error: upstream key provider supplied {what} key that is too short (minimum {min} characters)"))
                    };
                    if want == Want::Encrypt && up.encryption_key.len() < min {
                        return Err(short("an encryption"));
                    }
                    if up.decryption_key.as_ref().is_some_and(|k| k.len() < min) {
                        return Err(short("a decryption"));
                    }
                    (up.encryption_key, up.decryption_key)
                }
                None => {
                    let pass: Secret = p
                        .passphrase
                        .as_ref()
                        .map(|s| s.as_bytes().to_vec())
                        .unwrap_or_default()
                        .into();
                    (pass.clone(), Some(pass))
                }
            };
            pbkdf2_provide(
                p,
                &addr,
                &enc_pass,
                dec_pass.as_deref().map_or(&[][..], |v| &v[..]),
                stored,
                want,
            )?
        }
        KeyProviderKind::External(e) => external_provide(e, &addr, stored)?,
    };
    stack.pop();
    if let Some(meta) = meta {
        if meta_out.contains_key(&meta_key) {
            return Err(err(format!("The metadata key {meta_key} is duplicated across multiple key providers for the same method; use the encrypted_metadata_alias option to specify unique metadata keys for each key provider in an encryption method")));
        }
        meta_out.insert(meta_key, meta);
    }
    Ok(output)
}

fn derive(hash: HashFunction, pass: &[u8], salt: &[u8], rounds: u32, len: usize) -> Secret {
    let mut out: Secret = vec![0u8; len].into();
    match hash {
        HashFunction::Sha256 => pbkdf2::pbkdf2_hmac::<sha2::Sha256>(pass, salt, rounds, &mut out),
        HashFunction::Sha512 => pbkdf2::pbkdf2_hmac::<sha2::Sha512>(pass, salt, rounds, &mut out),
    }
    out
}

fn pbkdf2_provide(
    p: &Pbkdf2Config,
    addr: &str,
    enc_pass: &[u8],
    dec_pass: &[u8],
    stored: Option<&Vec<u8>>,
    want: Want,
) -> Result<(KeyOutput, Option<Vec<u8>>), EncryptionError> {
    let fail = |m: String| err(format!("{addr} failed with error: {m}"));
    let mut decryption_key = None;
    if let Some(stored) = stored {
        let m: Pbkdf2Meta = serde_json::from_slice(stored).map_err(|e| {
            err(format!("Unable to decode encrypted metadata (did you change your encryption config?): metadata decoder for {addr} failed with error: {e}"))
        })?;
        let present = !m.salt.is_empty()
            && m.iterations != 0
            && !m.hash_function.is_empty()
            && m.key_length != 0;
        if present {
            if m.iterations < 0 || m.iterations > i64::from(u32::MAX) {
                return Err(fail(format!(
                    "invalid number of iterations ({})",
                    m.iterations
                )));
            }
            if m.key_length < 0 || m.key_length > 1 << 20 {
                return Err(fail(format!("invalid key length ({})", m.key_length)));
            }
            let Some(hash) = HashFunction::from_name(&m.hash_function) else {
                return Err(fail(format!(
                    "invalid hash function name: {}",
                    m.hash_function
                )));
            };
            decryption_key = Some(derive(
                hash,
                dec_pass,
                &m.salt,
                m.iterations as u32,
                m.key_length as usize,
            ));
        }
    }
    if want == Want::Decrypt {
        return Ok((
            KeyOutput {
                encryption_key: Secret::default(),
                decryption_key,
            },
            None,
        ));
    }
    let mut salt = vec![0u8; p.salt_length];
    getrandom::fill(&mut salt).map_err(|e| {
        fail(format!(
            "failed to obtain {} bytes of random data: {e}",
            p.salt_length
        ))
    })?;
    let encryption_key = derive(p.hash_function, enc_pass, &salt, p.iterations, p.key_length);
    let meta = Pbkdf2Meta {
        salt,
        iterations: i64::from(p.iterations),
        hash_function: p.hash_function.name().to_string(),
        key_length: p.key_length as i64,
    };
    let meta = serde_json::to_vec(&meta).map_err(|e| fail(e.to_string()))?;
    Ok((
        KeyOutput {
            encryption_key,
            decryption_key,
        },
        Some(meta),
    ))
}

/// The external protocol's header magic.
const EXTERNAL_MAGIC: &str = "OpenTofu-External-Key-Provider";

#[derive(Deserialize)]
struct ExternalHeader {
    #[serde(default)]
    magic: String,
    #[serde(default)]
    version: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExternalOutput {
    keys: ExternalKeys,
    #[serde(default)]
    meta: Option<ExternalMeta>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ExternalKeys {
    #[serde(default, with = "b64")]
    encryption_key: Vec<u8>,
    #[serde(default, with = "b64")]
    decryption_key: Vec<u8>,
}

#[derive(Serialize, Deserialize, Default)]
struct ExternalMeta {
    #[serde(default)]
    external_data: Option<BTreeMap<String, serde_json::Value>>,
}

fn external_provide(
    e: &ExternalConfig,
    addr: &str,
    stored: Option<&Vec<u8>>,
) -> Result<(KeyOutput, Option<Vec<u8>>), EncryptionError> {
    use std::io::{Read as _, Write as _};
    let fail = |m: String| err(format!("{addr} failed with error: {m}"));
    let input: Vec<u8> = match stored {
        Some(bytes) => {
            let m: ExternalMeta = serde_json::from_slice(bytes).map_err(|e| {
                err(format!("Unable to decode encrypted metadata (did you change your encryption config?): metadata decoder for {addr} failed with error: {e}"))
            })?;
            match m.external_data {
                Some(_) => serde_json::to_vec(&m).map_err(|e| fail(e.to_string()))?,
                None => b"null".to_vec(),
            }
        }
        None => b"null".to_vec(),
    };
    let Some((program, args)) = e.command.split_first() else {
        return Err(fail("the command option is required".into()));
    };
    let mut child = std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| fail(format!("the external command could not be started: {e}")))?;
    // Its output is collected while it runs (it may write before it reads), and it is stopped
    // when it runs longer than OpenTofu allows.
    let collect = |pipe: Option<Box<dyn std::io::Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    };
    let stdout = collect(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = collect(child.stderr.take().map(|p| Box::new(p) as _));
    if let Some(mut stdin) = child.stdin.take() {
        // A program that exits without reading its input is judged by its output.
        let _ = stdin.write_all(&input);
    }
    let deadline = std::time::Instant::now() + e.timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if std::time::Instant::now() >= deadline => {
                let _ = child.kill();
                let _ = child.wait();
                // The pipes are left to their readers: a program the command started may
                // still hold them.
                return Err(fail(format!(
                    "external key provider failure: the external command did not finish within {} and was stopped (a key provider program must print its keys and exit; does it wait for something?)",
                    go_duration(e.timeout)
                )));
            }
            Ok(None) => std::thread::sleep(std::time::Duration::from_millis(10)),
            Err(err) => return Err(fail(format!("the external command failed: {err}"))),
        }
    };
    let out = std::process::Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    // The program's output holds the keys (base64): wiped with them.
    let out_stdout: Secret = out.stdout.into();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(fail(format!("external key provider failure: the external command exited with a non-zero exit code ({})\n\nStderr:\n-------\n{stderr}", out.status)));
    }
    let text = &out_stdout;
    let Some(nl) = text.iter().position(|b| *b == b'\n') else {
        return Err(fail(
            "external key provider protocol failure: no header line".into(),
        ));
    };
    let header: ExternalHeader = serde_json::from_slice(&text[..nl]).map_err(|e| {
        fail(format!(
            "external key provider protocol failure: failed to unmarshal header from external binary ({e})"
        ))
    })?;
    if header.magic != EXTERNAL_MAGIC {
        return Err(fail(format!(
            "external key provider protocol failure: invalid magic received from external key provider: {}",
            header.magic
        )));
    }
    if header.version != 1 {
        return Err(fail(format!(
            "external key provider protocol failure: invalid version number received from external key provider: {}",
            header.version
        )));
    }
    let output: ExternalOutput = serde_json::from_slice(&text[nl + 1..]).map_err(|e| {
        fail(format!(
            "the external command returned an invalid JSON response ({e})\n\nStderr:\n-------\n{stderr}"
        ))
    })?;
    let meta =
        serde_json::to_vec(&output.meta.unwrap_or_default()).map_err(|e| fail(e.to_string()))?;
    Ok((
        KeyOutput {
            encryption_key: output.keys.encryption_key.into(),
            decryption_key: Some(Secret::from(output.keys.decryption_key))
                .filter(|k| !k.is_empty()),
        },
        Some(meta),
    ))
}
