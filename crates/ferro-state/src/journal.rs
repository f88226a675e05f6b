//! The apply journal: completed changes appended beside the state file, one per line, so that a
//! process killed between two full state writes loses nothing.
//!
//! Rewriting the whole state after every change would cost time quadratic in the size of an
//! apply, so the executor writes the full state only now and then; every change in between is
//! appended to `.<statefile>.journal` (one `write` per change, so it survives the process being
//! killed). The first line names the snapshot the journal continues: the state's lineage and the
//! serial of the file on disk when the journal was started (`null` when there was no state
//! file). Reading the state folds a journal that continues exactly the snapshot on disk; a
//! journal that continues an older snapshot (the state was written after it, by ferro or by
//! Terraform) is stale and ignored. A successful full write removes the journal.
//!
//! A line cut short by a kill (no trailing newline or not valid JSON) ends the journal.
//!
//! The journal of an encrypted state is encrypted a record at a time: the header stays in clear
//! (it holds the lineage and serial, which the encrypted state file shows in clear too), and
//! each change line is an encryption envelope of its own, one line of JSON (see
//! `encryption/mod.rs`). A torn line still ends the journal; each complete line decrypts alone,
//! and the key is derived once per run, not per line (every line of a run shares its metadata).
//! Reading an encrypted journal follows the state's rules: a line in clear is refused unless an
//! `unencrypted` method is configured, and a line that does not decrypt is an error.
//!
//! Disk space is reserved before the apply's first provider call ([`Journal::reserve`]): the
//! file is filled with zeros past its last line (which ends the journal for a reader) and the
//! lines are written over them, and the reserve is grown ahead of need, while at least half
//! of it is still free. When the disk cannot give more, [`Journal::out_of_space`] tells the
//! coordinator to start no more changes: the changes already running still fit in what is
//! reserved, so every object reported created is in the journal.
//!
//! Worker threads journal their changes ([`Journal::record`]) before reporting them complete;
//! the coordinator applies them to its in-memory state later and acknowledges them
//! ([`Journal::applied`]). A full write (`LocalBackend::persist`) holds the journal's lock, writes
//! the in-memory state *plus* the journaled-but-unacknowledged changes, and only then removes the
//! journal: whatever was journaled is in the new file, so a kill at any point loses nothing and
//! nothing is ever replayed twice.

use crate::encryption::TargetEncryption;
use crate::{ObjectState, OutputState, State, StateError};
use ferro_addrs::{AbsProviderConfig, AbsResource, InstanceKey};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// One change to state made by a completed apply step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Change {
    SetCurrent {
        res: AbsResource,
        provider: AbsProviderConfig,
        key: InstanceKey,
        obj: Option<ObjectState>,
    },
    Depose {
        res: AbsResource,
        key: InstanceKey,
        deposed_key: String,
    },
    RemoveDeposed {
        res: AbsResource,
        key: InstanceKey,
        deposed_key: String,
    },
    SetOutput {
        name: String,
        out: Option<OutputState>,
    },
}

impl Change {
    pub fn apply_to(self, state: &mut State) {
        match self {
            Change::SetCurrent {
                res,
                provider,
                key,
                obj,
            } => state.set_current(&res, &provider, &key, obj),
            Change::Depose {
                res,
                key,
                deposed_key,
            } => {
                if let Some(inst) = state
                    .resources
                    .get_mut(&res)
                    .and_then(|r| r.instances.get_mut(&key))
                {
                    if let Some(cur) = inst.current.take() {
                        let cur = std::sync::Arc::unwrap_or_clone(cur);
                        inst.deposed.insert(deposed_key, cur);
                    }
                }
            }
            Change::RemoveDeposed {
                res,
                key,
                deposed_key,
            } => {
                if let Some(inst) = state
                    .resources
                    .get_mut(&res)
                    .and_then(|r| r.instances.get_mut(&key))
                {
                    inst.deposed.remove(&deposed_key);
                }
                state.prune_instance(&res, &key);
            }
            Change::SetOutput { name, out } => match out {
                Some(o) => {
                    state.outputs.insert(name, o);
                }
                None => {
                    state.outputs.remove(&name);
                }
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Header {
    ferro_journal: u32,
    lineage: String,
    base_serial: Option<u64>,
}

/// `.<name>.journal` beside the state file.
pub fn journal_path(state: &Path) -> PathBuf {
    let name = state
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    state.with_file_name(format!(".{name}.journal"))
}

/// An open journal being written to: lines go at `len`, over the zeros reserved up to
/// `reserved`.
pub(crate) struct JournalWriter {
    file: fs::File,
    buf: Vec<u8>,
    /// Where the next line goes (the end of the last complete line).
    len: u64,
    /// The file's size: bytes past `len` are reserved zeros.
    reserved: u64,
    /// The longest line written, to keep room for a burst of them.
    longest: u64,
    /// Growing the reserve failed: the disk is full.
    out_of_space: bool,
    /// The length of the header line this writer wrote (0: it continues another's journal).
    header_len: u64,
    /// Encrypts each record when the state is encrypted.
    encryption: Option<Arc<TargetEncryption>>,
}

/// The chunk of zeros the reserve is grown by at a time.
static ZEROS: [u8; 1 << 16] = [0; 1 << 16];

impl JournalWriter {
    /// Start a journal continuing the snapshot `(lineage, base_serial)`.
    pub(crate) fn create(
        path: &Path,
        lineage: &str,
        base_serial: Option<u64>,
        encryption: Option<Arc<TargetEncryption>>,
    ) -> std::io::Result<JournalWriter> {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        // The journal holds attribute values: it gets the state file's permissions.
        let state_file = path.with_file_name(
            path.file_name()
                .map(|n| {
                    n.to_string_lossy()
                        .trim_start_matches('.')
                        .trim_end_matches(".journal")
                        .to_string()
                })
                .unwrap_or_default(),
        );
        let mode = fs::metadata(&state_file)
            .ok()
            .map(|m| m.permissions().mode() & 0o777);
        let file = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .mode(mode.unwrap_or(0o666))
            .open(path)?;
        if let Some(mode) = mode {
            file.set_permissions(fs::Permissions::from_mode(mode))?;
        }
        let mut w = JournalWriter {
            file,
            buf: Vec::new(),
            len: 0,
            reserved: 0,
            longest: 0,
            out_of_space: false,
            header_len: 0,
            encryption,
        };
        w.write_header(lineage, base_serial)?;
        Ok(w)
    }

    fn write_header(&mut self, lineage: &str, base_serial: Option<u64>) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        let header = Header {
            ferro_journal: 1,
            lineage: lineage.to_string(),
            base_serial,
        };
        let mut line = serde_json::to_vec(&header)?;
        line.push(b'\n');
        self.file.write_all_at(&line, 0)?;
        self.len = line.len() as u64;
        self.header_len = self.len;
        self.reserved = self.reserved.max(self.len);
        Ok(())
    }

    /// Continue an existing journal (one that `load` folded).
    pub(crate) fn append_to(
        path: &Path,
        encryption: Option<Arc<TargetEncryption>>,
    ) -> std::io::Result<JournalWriter> {
        let file = fs::OpenOptions::new().read(true).write(true).open(path)?;
        // New lines start after the last complete one: a line cut short by the kill and the
        // zeros reserved after it are written over.
        let bytes = fs::read(path)?;
        let lines_end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
        let keep = bytes[..lines_end]
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1);
        Ok(JournalWriter {
            file,
            buf: Vec::new(),
            len: keep as u64,
            reserved: bytes.len() as u64,
            longest: 0,
            out_of_space: false,
            header_len: 0,
            encryption,
        })
    }

    /// Nothing was written since the header.
    fn len_is_header(&self) -> bool {
        self.len == self.header_len
    }

    /// Make the file at least `size` bytes of lines and zeros. On failure the reserve is what
    /// it was (zeros written before the failure stay, unused).
    fn grow_to(&mut self, size: u64) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        let mut at = self.reserved;
        while at < size {
            let n = (size - at).min(ZEROS.len() as u64);
            self.file.write_all_at(&ZEROS[..n as usize], at)?;
            at += n;
        }
        self.reserved = self.reserved.max(size);
        Ok(())
    }

    /// Keep at least half of the reserve free, and room for a burst of lines as long as the
    /// longest: grow it ahead of need, doubling. When the disk refuses, say so through
    /// `out_of_space` (what is reserved still takes the lines of the changes running).
    fn keep_ahead(&mut self) {
        if self.out_of_space {
            return;
        }
        let free = self.reserved - self.len;
        let wanted = (self.reserved / 2).max(self.longest * 32);
        if free >= wanted {
            return;
        }
        let size = (self.reserved * 2).max(self.len + wanted * 2);
        if self.grow_to(size).is_err() {
            self.out_of_space = true;
        }
    }

    /// Write `changes` as lines with a single write.
    pub(crate) fn append(&mut self, changes: &[Change]) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        self.buf.clear();
        for c in changes {
            match &self.encryption {
                Some(enc) => {
                    let line = serde_json::to_vec(c)?;
                    let sealed = enc
                        .encrypt_record(&line)
                        .map_err(|e| std::io::Error::other(e.0))?;
                    self.buf.extend_from_slice(&sealed);
                }
                None => serde_json::to_writer(&mut self.buf, c)?,
            }
            self.buf.push(b'\n');
        }
        let n = self.buf.len() as u64;
        if self.len + n > self.reserved {
            // Past the reserve (a line far longer than any before): take what the disk gives.
            self.grow_to(self.len + n)
                .inspect_err(|_| self.out_of_space = true)?;
        }
        self.file.write_all_at(&self.buf, self.len)?;
        self.len += n;
        self.longest = self.longest.max(n);
        self.keep_ahead();
        Ok(())
    }

    /// Start over after a full write of the snapshot `(lineage, serial)`, keeping the space:
    /// the lines are zeroed first (so a kill in between leaves a journal with nothing to fold),
    /// then the header names the new snapshot.
    fn restart(&mut self, lineage: &str, serial: u64) -> std::io::Result<()> {
        use std::os::unix::fs::FileExt;
        let mut at = 0;
        while at < self.len {
            let n = (self.len - at).min(ZEROS.len() as u64);
            self.file.write_all_at(&ZEROS[..n as usize], at)?;
            at += n;
        }
        self.write_header(lineage, Some(serial))
    }
}

/// Fold the journal at `path` into `state` (None: no state file) if it continues exactly that
/// snapshot. Returns the folded state and the number of changes folded, or None when there is
/// no applicable journal. With `encryption`, each record is decrypted first: one that does not
/// decrypt is an error (the journal is kept), as a state that does not decrypt is.
pub(crate) fn fold(
    path: &Path,
    state: Option<&State>,
    encryption: Option<&TargetEncryption>,
) -> Result<Option<(State, usize)>, StateError> {
    let Ok(bytes) = fs::read(path) else {
        return Ok(None);
    };
    // The lines end where the reserved zeros begin.
    let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
    let mut lines = bytes[..end].split_inclusive(|b| *b == b'\n');
    let Some(header) = lines
        .next()
        .and_then(|l| serde_json::from_slice::<Header>(l).ok())
    else {
        return Ok(None);
    };
    let applies = match (state, header.base_serial) {
        (None, None) => true,
        (Some(s), Some(serial)) => s.lineage == header.lineage && s.serial == serial,
        _ => false,
    };
    if !applies || header.ferro_journal != 1 {
        return Ok(None);
    }
    let mut out = state
        .cloned()
        .unwrap_or_else(|| State::new(header.lineage.clone()));
    let mut folded = 0;
    for line in lines {
        let Some(line) = line.strip_suffix(b"\n") else {
            break;
        };
        let change = match encryption {
            // A torn record is not JSON: it ends the journal, as a torn clear line does.
            Some(enc) if serde_json::from_slice::<serde::de::IgnoredAny>(line).is_ok() => {
                let plain = enc.decrypt_record(line).map_err(|e| {
                    StateError(format!(
                        "failed to decrypt the state journal {}: {e}",
                        path.display()
                    ))
                })?;
                serde_json::from_slice::<Change>(&plain).ok()
            }
            _ => serde_json::from_slice::<Change>(line).ok(),
        };
        let Some(change) = change else {
            break;
        };
        change.apply_to(&mut out);
        folded += 1;
    }
    Ok((folded > 0).then_some((out, folded)))
}

/// The journal of one state file, shared by the backend and the apply's worker threads.
#[derive(Clone)]
pub struct Journal(Arc<Mutex<Inner>>);

pub(crate) struct Inner {
    pub(crate) path: PathBuf,
    writer: Option<JournalWriter>,
    /// The snapshot a new journal continues: lineage and serial of the file on disk.
    pub(crate) lineage: String,
    pub(crate) base_serial: Option<u64>,
    /// A journal on disk was folded by `load`: continue it rather than replace it.
    pub(crate) folded: bool,
    /// How many changes the last `load` folded from the journal on disk.
    pub(crate) folded_changes: usize,
    /// Journaled changes the coordinator has not applied yet, by sequence number.
    pub(crate) pending: BTreeMap<u64, Vec<Change>>,
    /// Journaled changes a state write folded into the coordinator's state before the
    /// coordinator got to them: it must not apply them a second time.
    folded_in: std::collections::HashSet<u64>,
    next_seq: u64,
    /// The state's encryption: records are encrypted with it.
    pub(crate) encryption: Option<Arc<TargetEncryption>>,
}

impl Journal {
    pub(crate) fn new(path: PathBuf) -> Journal {
        Journal(Arc::new(Mutex::new(Inner {
            path,
            writer: None,
            lineage: String::new(),
            base_serial: None,
            folded: false,
            folded_changes: 0,
            pending: BTreeMap::new(),
            folded_in: std::collections::HashSet::new(),
            next_seq: 0,
            encryption: None,
        })))
    }

    /// Encrypt the records written from now on (and decrypt those read) with the state's
    /// encryption.
    pub fn set_encryption(&self, encryption: Option<Arc<TargetEncryption>>) {
        self.lock().encryption = encryption;
    }

    /// The state's encryption, if configured.
    pub fn encryption(&self) -> Option<Arc<TargetEncryption>> {
        self.lock().encryption.clone()
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, Inner> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Create the journal now, before the first change, with `bytes` of disk space reserved
    /// for its lines (grown later as they fill it). An error means the apply cannot record
    /// what it does and must not start.
    pub fn reserve(&self, bytes: u64) -> Result<(), crate::StateError> {
        let mut j = self.lock();
        let path = j.path.clone();
        let io_err = |e: std::io::Error| {
            crate::StateError(format!(
                "failed to reserve {bytes} bytes for the state journal {}: {e}",
                path.display()
            ))
        };
        let created = j.writer.is_none() && !j.folded;
        if j.writer.is_none() {
            let enc = j.encryption.clone();
            let writer = if j.folded {
                JournalWriter::append_to(&j.path, enc)
            } else {
                JournalWriter::create(&j.path, &j.lineage, j.base_serial, enc)
            };
            j.writer = Some(writer.map_err(io_err)?);
        }
        let grown = match j.writer.as_mut() {
            Some(w) => {
                let size = w.len + bytes;
                w.grow_to(size)
            }
            None => Ok(()),
        };
        if let Err(e) = grown {
            // A journal made for this apply goes again, with the space it took.
            if created {
                j.writer = None;
                let _ = fs::remove_file(&j.path);
            }
            return Err(io_err(e));
        }
        Ok(())
    }

    /// The disk refused to grow the reserve: start no more changes (those running still fit).
    pub fn out_of_space(&self) -> bool {
        self.lock().writer.as_ref().is_some_and(|w| w.out_of_space)
    }

    /// The apply is over and its last full write succeeded: the journal file goes.
    pub fn finish(&self) {
        let mut j = self.lock();
        if j.pending.is_empty() && j.writer.as_ref().is_some_and(|w| w.len_is_header()) {
            j.writer = None;
            let _ = fs::remove_file(&j.path);
        }
    }

    /// Whether a journal file exists (applicable or stale: only a load can tell).
    pub fn exists(&self) -> bool {
        self.lock().path.exists()
    }

    /// How many changes the last load folded from a journal left by an interrupted run.
    pub fn folded_changes(&self) -> usize {
        self.lock().folded_changes
    }

    /// The journal file's name, for messages.
    pub fn file_name(&self) -> String {
        let j = self.lock();
        j.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }

    /// Make `changes` durable; returns the sequence number to acknowledge with [`applied`].
    ///
    /// [`applied`]: Journal::applied
    pub fn record(&self, changes: &[Change]) -> Result<u64, crate::StateError> {
        let mut j = self.lock();
        let io_err = |e: std::io::Error, path: &Path| {
            crate::StateError(format!(
                "failed to write state journal {}: {e}",
                path.display()
            ))
        };
        if j.writer.is_none() {
            let enc = j.encryption.clone();
            let writer = if j.folded {
                JournalWriter::append_to(&j.path, enc)
            } else {
                JournalWriter::create(&j.path, &j.lineage, j.base_serial, enc)
            };
            j.writer = Some(writer.map_err(|e| io_err(e, &j.path))?);
        }
        let path = j.path.clone();
        if let Some(w) = j.writer.as_mut() {
            w.append(changes).map_err(|e| io_err(e, &path))?;
        }
        let seq = j.next_seq;
        j.next_seq += 1;
        j.pending.insert(seq, changes.to_vec());
        Ok(seq)
    }

    /// The coordinator is done with the changes recorded as `seq`. Returns false when it must
    /// still apply them to its state, true when a state write has already folded them in
    /// (applying some of them twice would not be the same: a second `Depose` deposes the new
    /// object).
    pub fn applied(&self, seq: u64) -> bool {
        let mut j = self.lock();
        j.pending.remove(&seq);
        j.folded_in.remove(&seq)
    }
}

impl Inner {
    /// Apply the pending changes to `state`, in the order they were recorded, and remember
    /// that they are in it.
    pub(crate) fn fold_pending_into(&mut self, state: &mut State) {
        for (seq, changes) in std::mem::take(&mut self.pending) {
            for c in changes {
                c.apply_to(state);
            }
            self.folded_in.insert(seq);
        }
    }

    /// After a full write of a snapshot with `serial` that includes everything journaled. A
    /// journal holding reserved space keeps it, emptied and naming the new snapshot; one
    /// without is removed.
    pub(crate) fn reset(&mut self, lineage: &str, serial: u64) -> std::io::Result<()> {
        self.folded = false;
        self.folded_changes = 0;
        self.pending.clear();
        self.lineage = lineage.to_string();
        self.base_serial = Some(serial);
        if let Some(w) = self.writer.as_mut() {
            if w.restart(lineage, serial).is_ok() {
                return Ok(());
            }
        }
        self.writer = None;
        match fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{new_lineage, LocalBackend};
    use ferro_addrs::{Provider, Resource};
    use serde_json::json;

    fn set(name: &str, key: i64) -> Change {
        Change::SetCurrent {
            res: AbsResource::root(Resource::managed("terraform_data", name)),
            provider: AbsProviderConfig::root(Provider::builtin("terraform")),
            key: InstanceKey::Int(key),
            obj: Some(ObjectState {
                tainted: false,
                schema_version: 0,
                attributes: json!({"id": format!("{name}{key}")}).into(),
                sensitive_attributes: json!([]).into(),
                private: None,
                dependencies: Default::default(),
                create_before_destroy: false,
                skip_destroy: false,
                identity: None,
            }),
        }
    }

    fn count(s: &State) -> usize {
        s.resources.values().map(|r| r.instances.len()).sum()
    }

    #[test]
    fn journal_is_folded_torn_lines_dropped_and_stale_journals_ignored() {
        let dir = std::env::temp_dir().join(format!("ferro-journal-{}", new_lineage()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("terraform.tfstate");

        // A run with no state file journals two changes and is killed mid-way through a third.
        let b = LocalBackend::new(path.clone());
        let j = b.journal("lin-1");
        j.record(&[set("a", 0)]).unwrap();
        j.record(&[set("a", 1)]).unwrap();
        drop(b);
        // The torn line went where lines go: after the last one, over the reserved zeros.
        let bytes = fs::read(journal_path(&path)).unwrap();
        let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
        let f = fs::OpenOptions::new()
            .write(true)
            .open(journal_path(&path))
            .unwrap();
        std::os::unix::fs::FileExt::write_all_at(&f, b"{\"SetCurrent\":{\"res\"", end as u64)
            .unwrap();
        drop(f);

        // The next load folds what completed; the next record continues the same journal.
        let mut b = LocalBackend::new(path.clone());
        let s = b.load().unwrap().expect("the journal alone gives a state");
        assert_eq!(count(&s), 2);
        assert_eq!(s.lineage, "lin-1");
        let j = b.journal(&s.lineage);
        j.record(&[set("a", 2)]).unwrap();
        let again = LocalBackend::new(path.clone()).load().unwrap().unwrap();
        assert_eq!(
            count(&again),
            3,
            "the torn line was dropped, the new one kept"
        );

        // A full write includes journaled changes not yet applied, then removes the journal.
        let seq = j.record(&[set("b", 0)]).unwrap();
        let mut mem = again.clone();
        mem.resources.retain(|r, _| &*r.resource.name == "a");
        b.persist(&mut mem).unwrap();
        // The write folded the pending change into the state it was given: the coordinator
        // is told not to apply it again.
        assert_eq!(count(&mem), 4);
        assert!(j.applied(seq), "the change is already in the written state");
        // The journal keeps its space for the rest of the apply, holding nothing to fold.
        assert_eq!(
            fold(&journal_path(&path), Some(&mem), None)
                .unwrap()
                .map(|(_, n)| n),
            None
        );
        let on_disk = LocalBackend::new(path.clone()).load().unwrap().unwrap();
        assert_eq!(count(&on_disk), 4);
        // A change acknowledged before any write is the coordinator's to apply.
        let seq = j.record(&[set("c", 0)]).unwrap();
        assert!(!j.applied(seq));
        b.persist(&mut mem).unwrap();
        assert_eq!(count(&mem), 4, "nothing pending was folded in");

        // A journal continuing an older snapshot (the state moved on) is ignored.
        fs::write(
            journal_path(&path),
            format!(
                "{{\"ferro_journal\":1,\"lineage\":\"lin-1\",\"base_serial\":{}}}\n{}\n",
                on_disk.serial - 1,
                serde_json::to_string(&set("z", 9)).unwrap()
            ),
        )
        .unwrap();
        let loaded = LocalBackend::new(path.clone()).load().unwrap().unwrap();
        assert_eq!(count(&loaded), 4);
        let _ = fs::remove_dir_all(&dir);
    }
}
