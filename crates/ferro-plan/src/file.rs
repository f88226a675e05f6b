//! The saved plan file (`ferro plan -out=FILE`): a zip-free, versioned JSON document.
//!
//! Terraform's plan files are zip archives of protobufs that no other tool reads; ferro's are
//! its own format (see docs/compatibility.md). The file starts with a magic header line so a
//! Terraform plan or a random file is recognised and refused with a clear error, and ends with
//! a line giving the SHA-256 of everything before it, so a file corrupted or edited after it was
//! saved is refused as a whole (Terraform's zip has a CRC per member for the same purpose):
//!
//! ```text
//! ferro-plan 4\n
//! {...the plan as JSON...}\n
//! {...the prior state, as its state file's text...}\n
//! sha256 <64 hex digits of everything before this line's line break>\n
//! ```
//!
//! The prior state follows the plan as a state file of its own rather than inside it as a
//! string: it is written and read in pieces, never held as text (at 100 000 instances the
//! text would be more than the state it decodes to).

use crate::{Plan, PLAN_FORMAT_VERSION};
use sha2::{Digest, Sha256};
use std::io::Write as _;

const MAGIC: &str = "ferro-plan";
/// The first word of the closing line.
const TRAILER: &str = "sha256";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanFileError(pub String);

impl std::fmt::Display for PlanFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub fn write_plan_file(plan: &Plan) -> Result<Vec<u8>, PlanFileError> {
    let mut out = Vec::new();
    write_plan_file_to(plan, &mut out)?;
    Ok(out)
}

/// [`write_plan_file`] streamed into `w` (a large plan is never held encoded in memory).
pub fn write_plan_file_to(plan: &Plan, w: &mut dyn std::io::Write) -> Result<(), PlanFileError> {
    let fail =
        |e: &dyn std::fmt::Display| PlanFileError(format!("the plan could not be encoded: {e}"));
    let mut hashing = HashingWriter {
        inner: w,
        hasher: Sha256::new(),
    };
    writeln!(hashing, "{MAGIC} {PLAN_FORMAT_VERSION}").map_err(|e| fail(&e))?;
    serde_json::to_writer(&mut hashing, plan).map_err(|e| fail(&e))?;
    hashing.write_all(b"\n").map_err(|e| fail(&e))?;
    // The state file's text without its closing line break (the checksum covers what the
    // reader takes, which ends with the document's closing brace).
    let mut error = None;
    let mut held_breaks = 0;
    ferro_state::write_state_to(&plan.prior_state, &mut |piece| {
        if error.is_some() {
            return;
        }
        let text = piece.trim_end_matches('\n');
        if text.is_empty() {
            held_breaks += piece.len();
            return;
        }
        let breaks = "\n".repeat(std::mem::replace(
            &mut held_breaks,
            piece.len() - text.len(),
        ));
        if let Err(e) = hashing
            .write_all(breaks.as_bytes())
            .and_then(|()| hashing.write_all(text.as_bytes()))
        {
            error = Some(e);
        }
    });
    if let Some(e) = error {
        return Err(fail(&e));
    }
    let digest = hashing.hasher.finalize();
    write!(w, "\n{TRAILER} {}\n", hex(&digest)).map_err(|e| fail(&e))?;
    w.flush().map_err(|e| fail(&e))
}

/// Writes through to `inner`, hashing what it writes.
struct HashingWriter<'a> {
    inner: &'a mut dyn std::io::Write,
    hasher: Sha256,
}

impl std::io::Write for HashingWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn read_plan_file(bytes: &[u8]) -> Result<Plan, PlanFileError> {
    read_plan_file_from(bytes)
}

/// Whether `bytes` starts as a ferro plan file in clear.
pub fn is_plan_file(bytes: &[u8]) -> bool {
    bytes.starts_with(format!("{MAGIC} ").as_bytes())
}

/// A plan file encrypted as OpenTofu encrypts plans: the whole file (magic line, plan,
/// checksum) is the encrypted data of one envelope. With the `unencrypted` method first, the
/// file is written in clear.
pub fn write_encrypted_plan_file(
    plan: &Plan,
    encryption: &ferro_state::encryption::TargetEncryption,
) -> Result<Vec<u8>, PlanFileError> {
    let clear = write_plan_file(plan)?;
    encryption
        .encrypt_plan(&clear)
        .map_err(|e| PlanFileError(format!("the plan could not be encrypted: {e}")))
}

/// Read a plan file, decrypting it first when plans are encrypted (`encryption`); a plan in
/// clear is then accepted only with the `unencrypted` method configured, as in OpenTofu.
pub fn read_plan_file_with(
    bytes: &[u8],
    encryption: Option<&ferro_state::encryption::TargetEncryption>,
) -> Result<Plan, PlanFileError> {
    match encryption {
        None => read_plan_file(bytes),
        Some(enc) => {
            let clear = enc
                .decrypt_plan(bytes, &is_plan_file)
                .map_err(|e| PlanFileError(format!("the plan file could not be decrypted: {e}")))?;
            read_plan_file(&clear)
        }
    }
}

/// [`read_plan_file`] streamed from `r` (a large plan file is never held whole in memory: at
/// 100 000 instances it is several times the plan it decodes to). The checksum is verified
/// before the plan is returned: a corrupted or edited file is an error, never a plan.
pub fn read_plan_file_from(r: impl std::io::Read) -> Result<Plan, PlanFileError> {
    let not_plan = || PlanFileError("the file is not a ferro plan file".into());
    let mut r = HashingReader::new(r);
    // The header line, read without holding more than it (a file that is not a plan may have
    // no line break at all).
    let mut header = Vec::new();
    std::io::BufRead::read_until(
        &mut std::io::Read::take(&mut r, HEADER_MAX as u64),
        b'\n',
        &mut header,
    )
    .map_err(|e| PlanFileError(format!("the plan file could not be read: {e}")))?;
    if header.pop() != Some(b'\n') {
        return Err(not_plan());
    }
    let header = std::str::from_utf8(&header).map_err(|_| not_plan())?;
    let mut parts = header.split(' ');
    if parts.next() != Some(MAGIC) {
        return Err(not_plan());
    }
    let version: u32 = parts.next().and_then(|v| v.parse().ok()).unwrap_or(0);
    if version != PLAN_FORMAT_VERSION {
        return Err(PlanFileError(format!(
            "the plan file has format version {version}, but this ferro reads version {PLAN_FORMAT_VERSION}; create the plan again with this version"
        )));
    }
    let corrupt = || {
        PlanFileError(
            "the plan file is corrupt: its checksum does not match its content (it was changed or damaged after it was saved)".into(),
        )
    };
    // serde_json stops reading at the object's closing brace: what it consumed is what the
    // checksum covers, and what follows must be exactly the closing line.
    let plan = {
        let mut de = serde_json::Deserializer::from_reader(&mut r);
        <Plan as serde::Deserialize>::deserialize(&mut de)
    };
    let unreadable = |e: serde_json::Error| {
        if e.is_io() {
            PlanFileError(format!("the plan file could not be read: {e}"))
        } else {
            // A changed byte usually breaks the JSON itself; say so in the same words.
            corrupt()
        }
    };
    let mut plan = plan.map_err(unreadable)?;
    plan.prior_state = {
        let mut de = serde_json::Deserializer::from_reader(&mut r);
        ferro_state::read_leading_state(&mut de).map_err(|e| match e {
            Ok(e) => unreadable(e),
            Err(_) => corrupt(),
        })?
    };
    let digest = r.digest();
    let mut rest = Vec::new();
    std::io::Read::read_to_end(
        &mut std::io::Read::take(r.rest(), TRAILER_MAX as u64),
        &mut rest,
    )
    .map_err(|e| PlanFileError(format!("the plan file could not be read: {e}")))?;
    if rest != format!("\n{TRAILER} {digest}\n").as_bytes() {
        return Err(corrupt());
    }
    crate::check_consistency(&plan)
        .map_err(|e| PlanFileError(format!("the plan file is inconsistent: {e}")))?;
    Ok(plan)
}

/// Reads `inner` through a buffer of its own, hashing exactly the bytes handed out (a whole
/// buffer once it is used up, the used part of the last one when the hash is taken).
struct HashingReader<R> {
    inner: R,
    buf: Vec<u8>,
    pos: usize,
    hasher: Sha256,
}

impl<R: std::io::Read> HashingReader<R> {
    fn new(inner: R) -> Self {
        HashingReader {
            inner,
            buf: Vec::new(),
            pos: 0,
            hasher: Sha256::new(),
        }
    }

    /// The digest of everything handed out so far; what is left unread stays to be read from
    /// [`HashingReader::rest`] (nothing of it is hashed).
    fn digest(&mut self) -> String {
        self.hasher.update(&self.buf[..self.pos]);
        self.buf.drain(..self.pos);
        self.pos = 0;
        hex(&self.hasher.clone().finalize())
    }

    /// A reader of everything not handed out yet.
    fn rest(&mut self) -> impl std::io::Read + '_ {
        let unread = std::mem::take(&mut self.buf).split_off(self.pos);
        self.pos = 0;
        std::io::Read::chain(std::io::Cursor::new(unread), &mut self.inner)
    }
}

impl<R: std::io::Read> std::io::BufRead for HashingReader<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos == self.buf.len() {
            self.hasher.update(&self.buf);
            self.buf.resize(1 << 16, 0);
            self.pos = 0;
            let n = loop {
                match self.inner.read(&mut self.buf) {
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    other => break other,
                }
            };
            let n = n.inspect_err(|_| self.buf.clear())?;
            self.buf.truncate(n);
        }
        Ok(&self.buf[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.buf.len());
    }
}

impl<R: std::io::Read> std::io::Read for HashingReader<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let available = std::io::BufRead::fill_buf(self)?;
        let n = out.len().min(available.len());
        out[..n].copy_from_slice(&available[..n]);
        std::io::BufRead::consume(self, n);
        Ok(n)
    }
}

/// The longest header line a plan file has (its magic, a space and a version number).
const HEADER_MAX: usize = 64;
/// Enough of what follows the JSON to see that it is more than the closing line.
const TRAILER_MAX: usize = 128;

#[cfg(test)]
mod tests {
    use super::{read_plan_file, read_plan_file_from};

    /// A file that is not a plan is refused on its first line, long or without a line break,
    /// with the same message.
    #[test]
    fn a_file_that_is_not_a_plan_is_refused_on_its_header() {
        let long_line = format!("{}\n{{}}", "x".repeat(100_000));
        for text in ["no line break", "{\"version\": 4}\n", long_line.as_str()] {
            let err = read_plan_file_from(text.as_bytes()).unwrap_err();
            assert_eq!(err.0, "the file is not a ferro plan file", "{text:.40}");
        }
    }

    /// A plan file written by a ferro whose plans had another shape is refused with what to do,
    /// not read with parts of its changes missing.
    #[test]
    fn a_plan_file_of_another_format_version_is_refused() {
        let old = b"ferro-plan 2\n{}";
        let err = read_plan_file(old).unwrap_err();
        assert!(
            err.0.contains("format version 2") && err.0.contains("create the plan again"),
            "{}",
            err.0
        );
    }
}
