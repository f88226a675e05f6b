//! `rsadecrypt(ciphertext, privatekey)`: RSA PKCS #1 v1.5 decryption of base64 text with a PEM
//! private key. The key is read as Terraform reads it (golang.org/x/crypto/ssh's
//! `ParseRawPrivateKey`): the first PEM block, `RSA PRIVATE KEY` (PKCS #1), `PRIVATE KEY`
//! (PKCS #8) or `OPENSSH PRIVATE KEY`, refused when encrypted; the messages are Terraform's.

use super::encoding::b64_decode;
use super::{arg_err, fail, func, p, s, Registry, Ret, R};
use ferro_value::{Type, Value};
use rsa::pkcs1::DecodeRsaPrivateKey;
use rsa::pkcs8::der::Decode;
use rsa::{BigUint, Pkcs1v15Encrypt, RsaPrivateKey};

pub(super) fn register(r: &mut Registry) {
    r.insert(
        "rsadecrypt",
        func(
            vec![p("ciphertext", Type::String), p("privatekey", Type::String)],
            None,
            Ret::Fixed(Type::String),
            |_, a, _| rsadecrypt(s(&a[0]), s(&a[1])),
        ),
    );
}

fn rsadecrypt(ciphertext: &str, pem: &str) -> R<Value> {
    let Some(data) = b64_decode(ciphertext) else {
        return Err(arg_err(
            0,
            format!(
                "failed to decode input {}: cipher text must be base64-encoded",
                ferro_value::json::go_quote(ciphertext)
            ),
        ));
    };
    let key = private_key(pem.as_bytes()).map_err(|e| arg_err(1, e))?;
    let plain = key
        .decrypt(Pkcs1v15Encrypt, &data)
        .map_err(|_| fail("failed to decrypt: crypto/rsa: decryption error"))?;
    Ok(Value::string(String::from_utf8_lossy(&plain).into_owned()))
}

/// The RSA key of the first PEM block, or Terraform's message for why there is none.
fn private_key(text: &[u8]) -> Result<RsaPrivateKey, String> {
    let invalid = |e: &str| format!("invalid private key: {e}");
    let Some(block) = first_pem_block(text) else {
        return Err(invalid("ssh: no key found"));
    };
    let encrypted = block
        .headers
        .iter()
        .any(|(k, v)| k == "Proc-Type" && v.contains("ENCRYPTED"));
    if encrypted {
        return Err(invalid("ssh: this private key is passphrase protected"));
    }
    match block.kind.as_str() {
        "RSA PRIVATE KEY" => pkcs1(&block.der).map_err(|e| e.into_message()),
        "PRIVATE KEY" => pkcs8(&block.der).map_err(|e| e.into_message()),
        "EC PRIVATE KEY" | "DSA PRIVATE KEY" => Err(not_rsa()),
        "OPENSSH PRIVATE KEY" => openssh(&block.der),
        other => Err(invalid(&format!(
            "ssh: unsupported key type {}",
            ferro_value::json::go_quote(other)
        ))),
    }
}

fn not_rsa() -> String {
    "invalid private key type: the key is not an RSA key".to_string()
}

/// Why a DER key was refused: x509's own refusals read "invalid private key: x509: ...",
/// malformed DER "invalid ASN1 data in the given private key: ...".
enum KeyError {
    X509(String),
    Asn1(String),
    NotRsa,
}

impl KeyError {
    fn into_message(self) -> String {
        match self {
            KeyError::X509(m) => format!("invalid private key: x509: {m}"),
            KeyError::Asn1(m) => format!("invalid ASN1 data in the given private key: {m}"),
            KeyError::NotRsa => not_rsa(),
        }
    }
}

fn pkcs1(der: &[u8]) -> Result<RsaPrivateKey, KeyError> {
    match rsa::pkcs1::RsaPrivateKey::from_der(der) {
        Ok(k) if k.version() != rsa::pkcs1::Version::TwoPrime => Err(KeyError::X509(
            "multi-prime RSA keys are not supported".into(),
        )),
        Ok(_) => RsaPrivateKey::from_pkcs1_der(der)
            .map_err(|e| KeyError::X509(format!("invalid RSA private key: {e}"))),
        Err(e) => {
            if rsa::pkcs8::PrivateKeyInfo::from_der(der).is_ok() {
                return Err(KeyError::X509(
                    "failed to parse private key (use ParsePKCS8PrivateKey instead for this key format)"
                        .into(),
                ));
            }
            Err(KeyError::Asn1(e.to_string()))
        }
    }
}

fn pkcs8(der: &[u8]) -> Result<RsaPrivateKey, KeyError> {
    const RSA: &str = "1.2.840.113549.1.1.1";
    const EC: &str = "1.2.840.10045.2.1";
    const ED25519: &str = "1.3.101.112";
    let info = match rsa::pkcs8::PrivateKeyInfo::from_der(der) {
        Ok(info) => info,
        Err(e) => {
            if rsa::pkcs1::RsaPrivateKey::from_der(der).is_ok() {
                return Err(KeyError::X509(
                    "failed to parse private key (use ParsePKCS1PrivateKey instead for this key format)"
                        .into(),
                ));
            }
            return Err(KeyError::Asn1(e.to_string()));
        }
    };
    match info.algorithm.oid.to_string().as_str() {
        RSA => pkcs1(info.private_key).map_err(|e| {
            let inner = match e {
                KeyError::X509(m) | KeyError::Asn1(m) => m,
                KeyError::NotRsa => String::new(),
            };
            KeyError::X509(format!(
                "failed to parse RSA private key embedded in PKCS#8: {inner}"
            ))
        }),
        EC | ED25519 => Err(KeyError::NotRsa),
        oid => Err(KeyError::X509(format!(
            "PKCS#8 wrapping contained private key with unknown algorithm: {oid}"
        ))),
    }
}

/// OpenSSH's own key format (`openssh-key-v1`), unencrypted, holding one `ssh-rsa` key.
fn openssh(data: &[u8]) -> Result<RsaPrivateKey, String> {
    const MAGIC: &[u8] = b"openssh-key-v1\0";
    let malformed = || "invalid private key: ssh: malformed OpenSSH key".to_string();
    let Some(rest) = data.strip_prefix(MAGIC) else {
        return Err("invalid private key: ssh: invalid openssh private key format".into());
    };
    let mut r = SshReader(rest);
    let cipher = r.string().ok_or_else(malformed)?;
    let kdf = r.string().ok_or_else(malformed)?;
    let _kdf_options = r.string().ok_or_else(malformed)?;
    let count = r.u32().ok_or_else(malformed)?;
    let _public = r.string().ok_or_else(malformed)?;
    let private = r.string().ok_or_else(malformed)?;
    if cipher != b"none" || kdf != b"none" {
        return Err("invalid private key: ssh: this private key is passphrase protected".into());
    }
    if count != 1 {
        return Err("invalid private key: ssh: multi-key files are not supported".into());
    }
    let mut k = SshReader(private);
    let (c1, c2) = (
        k.u32().ok_or_else(malformed)?,
        k.u32().ok_or_else(malformed)?,
    );
    if c1 != c2 {
        return Err("invalid private key: ssh: checkint mismatch".into());
    }
    let kind = k.string().ok_or_else(malformed)?;
    if kind != b"ssh-rsa" {
        return Err(not_rsa());
    }
    let mut int = || k.string().map(BigUint::from_bytes_be).ok_or_else(malformed);
    let (n, e, d, _iqmp, p, q) = (int()?, int()?, int()?, int()?, int()?, int()?);
    RsaPrivateKey::from_components(n, e, d, vec![p, q])
        .map_err(|e| format!("invalid private key: {e}"))
}

/// The SSH wire encoding: big-endian `uint32` and length-prefixed strings.
struct SshReader<'a>(&'a [u8]);

impl<'a> SshReader<'a> {
    fn u32(&mut self) -> Option<u32> {
        let (head, rest) = self.0.split_first_chunk::<4>()?;
        self.0 = rest;
        Some(u32::from_be_bytes(*head))
    }

    fn string(&mut self) -> Option<&'a [u8]> {
        let len = self.u32()? as usize;
        if self.0.len() < len {
            return None;
        }
        let (s, rest) = self.0.split_at(len);
        self.0 = rest;
        Some(s)
    }
}

/// One PEM block as Go's `encoding/pem` reads it.
struct PemBlock {
    kind: String,
    headers: Vec<(String, String)>,
    der: Vec<u8>,
}

/// The first well-formed PEM block of `text` (Go's `pem.Decode`: text before it is skipped,
/// a malformed block is passed over, headers end at the first line without a colon).
fn first_pem_block(text: &[u8]) -> Option<PemBlock> {
    const BEGIN: &[u8] = b"-----BEGIN ";
    let mut rest = text;
    loop {
        let at = find(rest, BEGIN)?;
        if at > 0 && rest[at - 1] != b'\n' {
            rest = &rest[at + BEGIN.len()..];
            continue;
        }
        let after = &rest[at + BEGIN.len()..];
        if let Some(block) = pem_block_at(after) {
            return Some(block);
        }
        rest = after;
    }
}

fn pem_block_at(after_begin: &[u8]) -> Option<PemBlock> {
    let (line, mut rest) = split_line(after_begin);
    let kind = std::str::from_utf8(line.strip_suffix(b"-----")?).ok()?;
    let mut headers = Vec::new();
    loop {
        if rest.is_empty() {
            return None;
        }
        let (line, next) = split_line(rest);
        let Some(colon) = line.iter().position(|b| *b == b':') else {
            break;
        };
        let key = String::from_utf8_lossy(&line[..colon]).trim().to_string();
        let value = String::from_utf8_lossy(&line[colon + 1..])
            .trim()
            .to_string();
        headers.push((key, value));
        rest = next;
    }
    // Go accepts an empty line between the headers and the body.
    if !headers.is_empty() {
        let (line, next) = split_line(rest);
        if line.iter().all(u8::is_ascii_whitespace) {
            rest = next;
        }
    }
    let end_marker = format!("-----END {kind}-----");
    let (body, after_end) = if rest.starts_with(end_marker.as_bytes()) {
        (&rest[..0], &rest[end_marker.len()..])
    } else {
        let marker = format!("\n{end_marker}");
        let at = find(rest, marker.as_bytes())?;
        (&rest[..at], &rest[at + marker.len()..])
    };
    let (tail, _) = split_line(after_end);
    if !tail.iter().all(u8::is_ascii_whitespace) {
        return None;
    }
    let clean: String = String::from_utf8_lossy(body)
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let der = b64_decode(&clean)?;
    Some(PemBlock {
        kind: kind.to_string(),
        headers,
        der,
    })
}

fn split_line(text: &[u8]) -> (&[u8], &[u8]) {
    match text.iter().position(|b| *b == b'\n') {
        Some(i) => {
            let line = &text[..i];
            (line.strip_suffix(b"\r").unwrap_or(line), &text[i + 1..])
        }
        None => (text, &[]),
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}
