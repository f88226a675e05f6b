//! The `Backend` trait: where one workspace's state lives and how it is locked. Commands and the
//! interpreter talk to this trait; `LocalBackend` (a file) and `PgBackend` (a row in
//! PostgreSQL) implement it. Also the pieces both share: serial bumping, folding journaled
//! changes into a full write, and the `errored.tfstate` rescue.
//!
//! Encryption is a layer every backend shares: the state's [`TargetEncryption`] lives with its
//! journal ([`Backend::set_encryption`]); what a backend reads goes through [`opened`] before it
//! is parsed, what it writes through [`sealed`], and so do the journal's records and
//! `errored.tfstate`.

use crate::codec::{render_state, write_state, WRITER_VERSION};
use crate::encryption::TargetEncryption;
use crate::journal::Journal;
use crate::{LockError, LockInfo, State, StateError};
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// One workspace's state store.
pub trait Backend {
    /// Lock the state for `operation`, waiting up to `timeout`; `display` names the state as
    /// the user knows it (recorded in the lock description).
    fn lock(&mut self, operation: &str, display: &str, timeout: Duration) -> Result<(), LockError>;
    /// The description of the lock this backend holds, if any.
    fn lock_info(&self) -> Option<&LockInfo>;
    /// Release the lock, if held (also done on drop).
    fn unlock(&mut self);
    /// Read the state: `Ok(None)` when there is none yet; a broken one is an error (and is then
    /// never overwritten by `persist`).
    fn load(&self) -> Result<Option<State>, StateError>;
    /// Write `state`, updating its serial (bumped only when the content changed) and
    /// `terraform_version` in place.
    fn persist(&mut self, state: &mut State) -> Result<(), StateError>;
    /// The journal of completed changes, for an apply that starts with a state of `lineage`.
    fn journal(&self, lineage: &str) -> Journal;
    /// Write `errored.tfstate` into `dir` when persisting fails.
    fn set_errored_dir(&mut self, dir: PathBuf);
    /// After the state could not be persisted: keep it somewhere and say where.
    fn save_errored(&self, state: &State) -> String;
    /// This workspace's journal (whatever lineage it continues).
    fn pending_journal(&self) -> &Journal;

    /// Encrypt the state (and its journal, and `errored.tfstate`) from now on, and decrypt what
    /// is read, as `encryption` says; None: in clear.
    fn set_encryption(&mut self, encryption: Option<Arc<TargetEncryption>>) {
        self.pending_journal().set_encryption(encryption);
    }

    /// Fold a journal left by an interrupted apply into the stored state now, so that every
    /// reader of the state (Terraform too) sees the objects it recorded. Called under the state
    /// lock, before a command does anything else. Returns how many changes were folded (0: no
    /// journal, or a stale one, which stays ignored).
    fn fold_journal(&mut self) -> Result<usize, StateError> {
        if !self.pending_journal().exists() {
            return Ok(0);
        }
        let Some(mut state) = self.load()? else {
            return Ok(0);
        };
        let folded = self.pending_journal().folded_changes();
        if folded > 0 {
            self.persist(&mut state)?;
        }
        Ok(folded)
    }
}

/// A digest of the rendered state with the serial and writer version blanked, for change
/// detection (the rendering is streamed into the hash, never held whole).
pub(crate) fn comparable(state: &State) -> Comparable {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    let mut len = 0u64;
    render_state(state, 0, "", &mut |piece| {
        h.write(piece.as_bytes());
        len += piece.len() as u64;
    });
    (h.finish(), len)
}

/// What [`comparable`] computes: the rendering's 64-bit SipHash and its length.
pub(crate) type Comparable = (u64, u64);

/// Set the writer version and the serial of a snapshot about to be written, given what was
/// last loaded or written (`last`: comparable content and serial). Returns the comparable
/// content, and whether it differs from `last` (an unchanged snapshot need not be written).
pub(crate) fn prepare_snapshot(
    last: &RefCell<Option<(Comparable, u64)>>,
    state: &mut State,
) -> (Comparable, bool) {
    state.terraform_version = WRITER_VERSION.to_string();
    let content = comparable(state);
    let last = last.borrow();
    match &*last {
        Some((prev, serial)) if *prev == content => {
            state.serial = *serial;
            (content, false)
        }
        Some((_, serial)) => {
            state.serial = state.serial.max(*serial) + 1;
            (content, true)
        }
        None => {
            state.serial += 1;
            (content, true)
        }
    }
}

/// A full write of `state` plus the changes journaled but not yet applied to it: they are
/// folded into `state` itself (and marked so, for [`Journal::applied`] to tell the
/// coordinator not to apply them again), `write` gets it while the journal is held, and the
/// journal is reset once the write succeeded. Folding in place spares a copy of the state per
/// write.
pub(crate) fn persist_with_journal(
    journal: &Journal,
    state: &mut State,
    write: impl FnOnce(&mut State) -> Result<(), StateError>,
) -> Result<(), StateError> {
    let mut j = journal.lock();
    j.fold_pending_into(state);
    let result = write(state);
    result?;
    let (serial, lineage) = (state.serial, state.lineage.clone());
    j.reset(&lineage, serial)
        .map_err(|e| StateError(format!("failed to remove the state journal: {e}")))
}

/// A remote backend's write: fold the journal into `state`, set its serial against `last`
/// ([`prepare_snapshot`]), and when it changed, `put` the rendered state and remember it as
/// the last written.
pub(crate) fn persist_remote(
    journal: &Journal,
    last: &RefCell<Option<(Comparable, u64)>>,
    state: &mut State,
    put: impl FnOnce(&str) -> Result<(), StateError>,
) -> Result<(), StateError> {
    // Taken before the journal is locked for the write (its lock is not reentrant).
    let encryption = journal.encryption();
    persist_with_journal(journal, state, |s| {
        let (content, changed) = prepare_snapshot(last, s);
        let migrating = encryption.as_ref().is_some_and(|e| e.migration_pending());
        if !changed && !migrating {
            return Ok(());
        }
        put(&sealed(encryption.as_deref(), write_state(s))?)?;
        if let Some(e) = &encryption {
            e.migration_done();
        }
        *last.borrow_mut() = Some((content, s.serial));
        Ok(())
    })
}

/// What a backend's `load` returns once it has read `state`: remember it as the last
/// written ([`prepare_snapshot`]), base the journal on it, and fold in a journal a run killed
/// before it could write left behind.
pub(crate) fn loaded(
    journal: &Journal,
    last: &RefCell<Option<(Comparable, u64)>>,
    state: State,
) -> Result<State, StateError> {
    *last.borrow_mut() = Some((comparable(&state), state.serial));
    let mut j = journal.lock();
    j.lineage = state.lineage.clone();
    j.base_serial = Some(state.serial);
    let enc = j.encryption.clone();
    if let Some((folded, changes)) = crate::journal::fold(&j.path, Some(&state), enc.as_deref())? {
        j.folded = true;
        j.folded_changes = changes;
        return Ok(folded);
    }
    Ok(state)
}

/// What a backend's `load` returns when it has no state: the journal a run that started
/// without one left behind, folded onto nothing, if there is one.
pub(crate) fn loaded_nothing(journal: &Journal) -> Result<Option<State>, StateError> {
    let mut j = journal.lock();
    let enc = j.encryption.clone();
    let Some((folded, changes)) = crate::journal::fold(&j.path, None, enc.as_deref())? else {
        return Ok(None);
    };
    j.folded = true;
    j.folded_changes = changes;
    j.lineage = folded.lineage.clone();
    Ok(Some(folded))
}

/// What a backend read, decrypted when the state is encrypted (a state in clear passes only
/// with the `unencrypted` method among the configured ones).
pub(crate) fn opened<'a>(
    journal: &Journal,
    bytes: &'a [u8],
) -> Result<std::borrow::Cow<'a, [u8]>, StateError> {
    match journal.encryption() {
        None => Ok(std::borrow::Cow::Borrowed(bytes)),
        Some(enc) => enc
            .decrypt_state(bytes)
            .map(|(plain, _)| std::borrow::Cow::Owned(plain))
            .map_err(|e| StateError(format!("failed to decrypt the state: {e}"))),
    }
}

/// A rendered state as it is stored: encrypted when the state is.
pub(crate) fn sealed(
    encryption: Option<&TargetEncryption>,
    text: String,
) -> Result<String, StateError> {
    match encryption {
        None => Ok(text),
        Some(enc) => enc
            .encrypt_state(text.as_bytes())
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .map_err(|e| StateError(format!("failed to encrypt the state: {e}"))),
    }
}

/// The backend's journal for a state of `lineage`: a journal that holds nothing yet takes
/// the lineage (see [`Backend::journal`]).
pub(crate) fn journal_for(journal: &Journal, lineage: &str) -> Journal {
    let mut j = journal.lock();
    if j.base_serial.is_none() && !j.folded {
        j.lineage = lineage.to_string();
    }
    drop(j);
    journal.clone()
}

/// Keep `state` in `errored.tfstate` in `dir`, as Terraform does, or, when that cannot be
/// written either, put the state itself in the returned message. The message says where the
/// state is.
pub(crate) fn save_errored(dir: Option<&Path>, journal: &Journal, state: &State) -> String {
    // Encrypted like the state itself; should encryption fail, the state is not shown in clear.
    let text = match sealed(journal.encryption().as_deref(), write_state(state)) {
        Ok(text) => text,
        Err(e) => return format!("The error shown above has prevented ferro from writing the updated state, and\nencrypting it for \"errored.tfstate\" failed as well ({e})."),
    };
    if let Some(dir) = dir {
        let errored = dir.join("errored.tfstate");
        match std::fs::write(&errored, text.as_bytes()) {
            Ok(()) => return "The error shown above has prevented ferro from writing the updated state to\nthe configured backend. To allow for recovery, the state has been written to\nthe file \"errored.tfstate\" in the current working directory.\n\nRunning \"ferro apply\" again at this point will create a forked state,\nmaking it harder to recover.\n\nTo retry writing this state, use the following command:\n    ferro state push errored.tfstate".to_string(),
            Err(_) => {
                let _ = std::fs::remove_file(&errored);
            }
        }
    }
    format!("The error shown above has prevented ferro from writing the updated state, and\nwriting it to \"errored.tfstate\" failed as well, so it is printed here. Save it\nto a file and run \"ferro state push FILE\" once the problem is fixed:\n\n{text}")
}
