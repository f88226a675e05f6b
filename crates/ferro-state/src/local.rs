//! The local backend: `terraform.tfstate`, `terraform.tfstate.backup`, atomic writes.
//!
//! Behaves like Terraform's local backend (`statemgr.Filesystem`):
//! * the first persist of a run copies the existing state file to `<path>.backup`;
//! * the serial is bumped only when the content differs from what this backend last loaded or
//!   persisted (serial and `terraform_version` aside); unchanged states are not rewritten;
//! * writes go to a temporary file in the same directory which is synced and renamed over the
//!   target, so a crash never leaves a half-written state file. The new file gets the old one's
//!   permissions (a 0600 state stays 0600) and a symlinked state file is written through: the
//!   link's target is replaced, never the link;
//! * while a lock is held (see `lock.rs`) the new file is locked before it is renamed into place,
//!   so the path always names a locked file;
//! * when writing fails, [`LocalBackend::save_errored`] keeps the state in `errored.tfstate`
//!   (in the directory given by [`LocalBackend::set_errored_dir`]), as Terraform does;
//! * a state file that cannot be read or parsed is never replaced: `persist` refuses to write
//!   over a file whose last `load` failed;
//! * between full writes, completed changes go to the journal (`journal.rs`, shared with the
//!   apply's workers through [`LocalBackend::journal`]); `load` folds a journal left by a
//!   killed run;
//! * with encryption ([`Backend::set_encryption`]), the state file, its backup and
//!   `errored.tfstate` hold OpenTofu's encrypted document: the state is rendered whole,
//!   encrypted and written the same atomic way; a backup of a state kept in clear (being
//!   migrated to encryption) is encrypted as it is copied.

use crate::backend::{
    loaded, loaded_nothing, opened, persist_with_journal, prepare_snapshot, save_errored, sealed,
    Backend, Comparable,
};
use crate::codec::{read_state_from, write_state_to};
use crate::journal::{journal_path, Journal};
use crate::lock::{acquire, try_lock_file, HeldLock, LockError};
use crate::{State, StateError};
use std::cell::{Cell, RefCell};
use std::fs;
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct LocalBackend {
    pub path: PathBuf,
    /// Whether this backend object already handled the backup (done once per run).
    backed_up: bool,
    /// A digest of the content last loaded or persisted (rendered with serial 0), and its serial.
    last: RefCell<Option<(Comparable, u64)>>,
    /// The lock, while held.
    lock: Option<HeldLock>,
    /// Where `errored.tfstate` goes when a write fails (None: no emergency copy).
    errored_dir: Option<PathBuf>,
    /// Set when a load failed: the file on disk must not be overwritten.
    unreadable: Cell<bool>,
    /// Changes completed since the last full write.
    journal: Journal,
}

impl LocalBackend {
    pub fn new(path: PathBuf) -> Self {
        LocalBackend {
            backed_up: false,
            last: RefCell::new(None),
            lock: None,
            errored_dir: None,
            unreadable: Cell::new(false),
            journal: Journal::new(journal_path(&path)),
            path,
        }
    }

    /// The journal of this state, for an apply that starts with a state of `lineage`.
    pub fn journal(&self, lineage: &str) -> Journal {
        crate::backend::journal_for(&self.journal, lineage)
    }

    /// Write `errored.tfstate` into `dir` when persisting fails.
    pub fn set_errored_dir(&mut self, dir: PathBuf) {
        self.errored_dir = Some(dir);
    }

    /// Lock the state for `operation`, waiting up to `timeout`. `display` is the state path as
    /// the user named it (recorded in the lock description).
    pub fn lock(
        &mut self,
        operation: &str,
        display: &str,
        timeout: Duration,
    ) -> Result<(), LockError> {
        if self.lock.is_none() {
            self.lock = Some(acquire(&self.path, operation, display, timeout)?);
        }
        Ok(())
    }

    /// The description of the lock this backend holds, if any.
    pub fn lock_info(&self) -> Option<&crate::LockInfo> {
        self.lock.as_ref().map(|l| &l.info)
    }

    /// Release the lock, if held (also done on drop).
    pub fn unlock(&mut self) {
        if let Some(l) = self.lock.take() {
            l.release(&self.path);
        }
    }

    /// Where the previous state is kept: `<path>.backup`.
    pub fn backup_path(&self) -> PathBuf {
        let mut p = self.path.clone().into_os_string();
        p.push(".backup");
        PathBuf::from(p)
    }

    /// Read the state file. A missing (or empty) file is `Ok(None)`; a broken one is an error.
    pub fn load(&self) -> Result<Option<State>, StateError> {
        let file = match fs::File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                self.unreadable.set(false);
                return loaded_nothing(&self.journal);
            }
            Err(e) => {
                self.unreadable.set(true);
                return Err(StateError(format!(
                    "failed to read state file {}: {e}",
                    self.path.display()
                )));
            }
        };
        let read = if self.journal.encryption().is_some() {
            self.read_encrypted(file)
        } else {
            read_state_from(std::io::BufReader::with_capacity(1 << 16, file))
        };
        let state = match read {
            Ok(Some(state)) => state,
            Ok(None) => {
                self.unreadable.set(false);
                return loaded_nothing(&self.journal);
            }
            Err(e) => {
                self.unreadable.set(true);
                return Err(StateError(format!(
                    "failed to load state file {}: {e}",
                    self.path.display()
                )));
            }
        };
        let state = loaded(&self.journal, &self.last, state).inspect_err(|_| {
            self.unreadable.set(true);
        })?;
        self.unreadable.set(false);
        Ok(Some(state))
    }

    /// Read an encrypted state file whole and decrypt it (an empty file is no state).
    fn read_encrypted(&self, mut file: fs::File) -> Result<Option<State>, StateError> {
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|e| StateError(e.to_string()))?;
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        let plain = opened(&self.journal, &bytes)?;
        crate::codec::read_state(&plain).map(Some)
    }

    /// Write `state` to the state file, updating `state.serial` (and `terraform_version`) in place.
    pub fn persist(&mut self, state: &mut State) -> Result<(), StateError> {
        if self.unreadable.get() {
            return Err(StateError(format!(
                "refusing to overwrite the state file {}, which could not be read",
                self.path.display()
            )));
        }
        if !self.backed_up {
            self.write_backup()?;
            self.backed_up = true;
        }
        // What goes to disk: the state plus changes journaled but not yet applied to it.
        let journal = self.journal.clone();
        // Taken before the journal is locked for the write (its lock is not reentrant).
        let encryption = journal.encryption();
        persist_with_journal(&journal, state, |s| {
            self.write_snapshot(s, encryption.as_deref())
        })
    }

    /// Write one snapshot (bumping its serial if its content changed), encrypted with
    /// `encryption` when given.
    fn write_snapshot(
        &mut self,
        state: &mut State,
        encryption: Option<&crate::encryption::TargetEncryption>,
    ) -> Result<(), StateError> {
        let (content, changed) = prepare_snapshot(&self.last, state);
        let migrating = encryption.is_some_and(|e| e.migration_pending());
        if !changed && !migrating && self.path.exists() {
            return Ok(());
        }
        let target = write_target(&self.path);
        let locked = self.lock.is_some();
        // An encrypted state is rendered whole and encrypted before anything is written.
        let encrypted = match encryption {
            Some(enc) => Some(sealed(Some(enc), crate::codec::write_state(state))?),
            None => None,
        };
        // Streamed into the file an instance at a time: no copy of the rendered state is held.
        let render = |f: &mut dyn Write| {
            if let Some(text) = &encrypted {
                return f.write_all(text.as_bytes());
            }
            let mut result = Ok(());
            write_state_to(state, &mut |piece| {
                if result.is_ok() {
                    result = f.write_all(piece.as_bytes());
                }
            });
            result
        };
        match atomic_write(&target, &render, locked) {
            Ok(new_file) => {
                if let (Some(l), Some(f)) = (self.lock.as_mut(), new_file) {
                    // The old file is unlinked; holding the new one keeps the path locked.
                    l.file = f;
                    l.created = false;
                }
            }
            Err(e) => {
                return Err(StateError(format!(
                    "failed to write state file {}: {e}",
                    self.path.display()
                )));
            }
        }
        *self.last.borrow_mut() = Some((content, state.serial));
        if let Some(e) = encryption {
            e.migration_done();
        }
        Ok(())
    }

    /// After the state could not be persisted: keep it in `errored.tfstate` (in the directory
    /// given by [`set_errored_dir`](Self::set_errored_dir)), as Terraform does, or, when that
    /// cannot be written either, put the state itself in the returned message. The message says
    /// where the state is.
    pub fn save_errored(&self, state: &State) -> String {
        save_errored(self.errored_dir.as_deref(), &self.journal, state)
    }

    /// Empty the state file after its content moved to another backend (`init
    /// -migrate-state`), keeping the old content in the backup, as Terraform does.
    pub fn clear(&mut self) -> Result<(), StateError> {
        if !self.path.exists() {
            return Ok(());
        }
        self.write_backup()?;
        atomic_write(&write_target(&self.path), &|_| Ok(()), false)
            .map(|_| ())
            .map_err(|e| {
                StateError(format!(
                    "failed to empty state file {}: {e}",
                    self.path.display()
                ))
            })
    }

    fn write_backup(&self) -> Result<(), StateError> {
        let read_error = |e: std::io::Error| {
            StateError(format!(
                "failed to read state file {}: {e}",
                self.path.display()
            ))
        };
        // Scanned, then copied, in blocks: the old state is never held whole.
        let blank = match fs::File::open(&self.path) {
            Ok(f) => all_whitespace(f).map_err(read_error)?,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(read_error(e)),
        };
        if blank {
            return Ok(());
        }
        let backup = self.backup_path();
        // With encryption, a state still in clear (being migrated) is encrypted as it is
        // backed up: nothing is written in clear once encryption is configured.
        if let Some(enc) = self.journal.encryption() {
            let old = fs::read(&self.path).map_err(read_error)?;
            if !crate::encryption::is_envelope(&old) {
                let text = enc
                    .encrypt_state(&old)
                    .map_err(|e| StateError(format!("failed to encrypt the state backup: {e}")))?;
                return atomic_write(&backup, &|out: &mut dyn Write| out.write_all(&text), false)
                    .map(|_| ())
                    .map_err(|e| {
                        StateError(format!(
                            "failed to write state backup {}: {e}",
                            backup.display()
                        ))
                    });
            }
        }
        let copy =
            |out: &mut dyn Write| std::io::copy(&mut fs::File::open(&self.path)?, out).map(|_| ());
        atomic_write(&backup, &copy, false)
            .map(|_| ())
            .map_err(|e| {
                StateError(format!(
                    "failed to write state backup {}: {e}",
                    backup.display()
                ))
            })
    }
}

impl Backend for LocalBackend {
    fn lock(&mut self, operation: &str, display: &str, timeout: Duration) -> Result<(), LockError> {
        LocalBackend::lock(self, operation, display, timeout)
    }
    fn lock_info(&self) -> Option<&crate::LockInfo> {
        LocalBackend::lock_info(self)
    }
    fn unlock(&mut self) {
        LocalBackend::unlock(self)
    }
    fn load(&self) -> Result<Option<State>, StateError> {
        LocalBackend::load(self)
    }
    fn persist(&mut self, state: &mut State) -> Result<(), StateError> {
        LocalBackend::persist(self, state)
    }
    fn journal(&self, lineage: &str) -> Journal {
        LocalBackend::journal(self, lineage)
    }
    fn set_errored_dir(&mut self, dir: PathBuf) {
        LocalBackend::set_errored_dir(self, dir)
    }
    fn save_errored(&self, state: &State) -> String {
        LocalBackend::save_errored(self, state)
    }
    fn pending_journal(&self) -> &Journal {
        &self.journal
    }
}

impl Drop for LocalBackend {
    fn drop(&mut self) {
        self.unlock();
    }
}

/// The file a write to `path` replaces: the final target when `path` is a symlink.
fn write_target(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => match fs::canonicalize(path) {
            Ok(p) => p,
            Err(_) => fs::read_link(path)
                .map(|t| path.parent().unwrap_or(Path::new(".")).join(t))
                .unwrap_or_else(|_| path.to_path_buf()),
        },
        _ => path.to_path_buf(),
    }
}

/// Write `bytes` to `<path>.tmp-<pid>` in the same directory with `path`'s permissions, sync
/// it, and rename it over `path`. With `lock`, the new file is locked before the rename and its
/// handle is returned.
/// Whether a file holds nothing but whitespace.
fn all_whitespace(mut f: fs::File) -> std::io::Result<bool> {
    let mut block = [0u8; 1 << 16];
    loop {
        let n = f.read(&mut block)?;
        if n == 0 {
            return Ok(true);
        }
        if !block[..n].iter().all(u8::is_ascii_whitespace) {
            return Ok(false);
        }
    }
}

/// Write a file by way of a temporary one renamed over it; `render` writes the content.
fn atomic_write(
    path: &Path,
    render: &dyn Fn(&mut dyn Write) -> std::io::Result<()>,
    lock: bool,
) -> std::io::Result<Option<fs::File>> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp-{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let mode = fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777);
    let result = (|| {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            fs::create_dir_all(dir)?;
        }
        let mut f = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .mode(mode.unwrap_or(0o666))
            .open(&tmp)?;
        if let Some(mode) = mode {
            f.set_permissions(fs::Permissions::from_mode(mode))?;
        }
        if lock && !try_lock_file(&f)? {
            return Err(std::io::Error::new(
                ErrorKind::WouldBlock,
                "could not lock the new state file",
            ));
        }
        let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut f);
        render(&mut w)?;
        w.flush()?;
        drop(w);
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        Ok(f)
    })();
    let file = match result {
        Ok(f) => f,
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
    };
    // Make the rename durable too; not every platform can sync a directory, so ignore failures.
    if let Some(dir) = path.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(lock.then_some(file))
}

/// A fresh lineage: 16 random bytes formatted as a UUID (8-4-4-4-12 lowercase hex).
pub fn new_lineage() -> String {
    let bytes = random_bytes();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

fn random_bytes() -> [u8; 16] {
    let mut buf = [0u8; 16];
    if let Ok(mut f) = fs::File::open("/dev/urandom") {
        if f.read_exact(&mut buf).is_ok() {
            return buf;
        }
    }
    // Fallback: hash the time, the process id and a counter.
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    for (i, chunk) in buf.chunks_mut(8).enumerate() {
        let mut h = DefaultHasher::new();
        (now.as_nanos(), std::process::id(), n, i).hash(&mut h);
        chunk.copy_from_slice(&h.finish().to_le_bytes());
    }
    buf
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{read_state, write_state};
    use crate::WRITER_VERSION;
    use crate::{ObjectState, State};
    use ferro_addrs::{AbsProviderConfig, AbsResource, InstanceKey, Provider, Resource};
    use serde_json::json;

    struct TempDir(PathBuf);
    impl TempDir {
        fn new(tag: &str) -> TempDir {
            let p = std::env::temp_dir().join(format!(
                "ferro-state-{tag}-{}-{}",
                std::process::id(),
                new_lineage()
            ));
            fs::create_dir_all(&p).unwrap();
            TempDir(p)
        }
    }
    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn obj(id: &str) -> ObjectState {
        ObjectState {
            tainted: false,
            schema_version: 0,
            attributes: json!({"id": id}).into(),
            sensitive_attributes: json!([]).into(),
            private: None,
            dependencies: Default::default(),
            create_before_destroy: false,
            skip_destroy: false,
            identity: None,
        }
    }

    fn add(state: &mut State, name: &str, id: &str) {
        let addr = AbsResource::root(Resource::managed("null_resource", name));
        let p = AbsProviderConfig::root(Provider::default_for("null"));
        state.set_current(&addr, &p, &InstanceKey::None, Some(obj(id)));
    }

    #[test]
    fn lineage_is_uuid_shaped_and_random() {
        let a = new_lineage();
        let b = new_lineage();
        assert_ne!(a, b);
        let parts: Vec<&str> = a.split('-').collect();
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            vec![8, 4, 4, 4, 12]
        );
        assert!(a
            .chars()
            .all(|c| c == '-' || c.is_ascii_digit() || ('a'..='f').contains(&c)));
    }

    #[test]
    fn missing_file_loads_as_none_and_garbage_is_an_error() {
        let d = TempDir::new("missing");
        let b = LocalBackend::new(d.0.join("terraform.tfstate"));
        assert_eq!(b.load().unwrap(), None);
        fs::write(&b.path, "").unwrap();
        assert_eq!(b.load().unwrap(), None);
        fs::write(&b.path, "{not json").unwrap();
        assert!(b.load().unwrap_err().0.contains("not valid JSON"));
    }

    #[test]
    fn serial_backup_and_no_rewrite() {
        let d = TempDir::new("serial");
        let path = d.0.join("terraform.tfstate");
        let backup = d.0.join("terraform.tfstate.backup");

        // Run 1: brand-new state.
        let mut b = LocalBackend::new(path.clone());
        assert!(b.load().unwrap().is_none());
        let mut s = State::new(new_lineage());
        b.persist(&mut s).unwrap();
        assert_eq!(s.serial, 1);
        assert!(!backup.exists());
        let first = fs::read_to_string(&path).unwrap();
        assert!(first.contains("\"serial\": 1,"));
        // Unchanged: serial stays, file untouched.
        b.persist(&mut s).unwrap();
        assert_eq!(s.serial, 1);
        add(&mut s, "a", "1");
        b.persist(&mut s).unwrap();
        assert_eq!(s.serial, 2);
        add(&mut s, "b", "2");
        b.persist(&mut s).unwrap();
        assert_eq!(s.serial, 3);
        assert!(
            !backup.exists(),
            "no backup when there was no file at the start"
        );
        let after_run1 = fs::read_to_string(&path).unwrap();
        assert_eq!(read_state(after_run1.as_bytes()).unwrap(), s);

        // Run 2: load, persist unchanged → no bump, but a backup of the original file.
        let mut b = LocalBackend::new(path.clone());
        let mut s2 = b.load().unwrap().unwrap();
        assert_eq!(s2.serial, 3);
        b.persist(&mut s2).unwrap();
        assert_eq!(s2.serial, 3);
        assert_eq!(fs::read_to_string(&backup).unwrap(), after_run1);
        assert_eq!(fs::read_to_string(&path).unwrap(), after_run1);
        // A change bumps the serial; the backup keeps the run's starting content.
        add(&mut s2, "c", "3");
        b.persist(&mut s2).unwrap();
        assert_eq!(s2.serial, 4);
        add(&mut s2, "d", "4");
        b.persist(&mut s2).unwrap();
        assert_eq!(s2.serial, 5);
        assert_eq!(fs::read_to_string(&backup).unwrap(), after_run1);
        let on_disk = read_state(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(on_disk, s2);
        // No temporary files left behind.
        let names: Vec<String> = fs::read_dir(&d.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.contains(".tmp-")), "{names:?}");
    }

    #[test]
    fn persist_sets_writer_version() {
        let d = TempDir::new("version");
        let path = d.0.join("terraform.tfstate");
        let mut s = State::new("x".into());
        s.terraform_version = "0.15.0".into();
        fs::write(&path, write_state(&s)).unwrap();
        let mut b = LocalBackend::new(path.clone());
        let mut loaded = b.load().unwrap().unwrap();
        b.persist(&mut loaded).unwrap();
        // Content unchanged apart from the version: no serial bump and no rewrite.
        assert_eq!(loaded.serial, 0);
        assert_eq!(loaded.terraform_version, WRITER_VERSION);
        assert!(fs::read_to_string(&path)
            .unwrap()
            .contains("\"terraform_version\": \"0.15.0\""));
        // A real change rewrites it with ferro's version and the next serial.
        add(&mut loaded, "a", "1");
        b.persist(&mut loaded).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            text.contains("\"terraform_version\": \"1.0.3\",\n  \"serial\": 1,"),
            "{text}"
        );
        assert!(d.0.join("terraform.tfstate.backup").exists());
    }

    #[test]
    fn writes_keep_permissions_and_follow_symlinks() {
        use std::os::unix::fs::PermissionsExt;
        let d = TempDir::new("perms");
        let real_dir = d.0.join("real");
        fs::create_dir_all(&real_dir).unwrap();
        let real = real_dir.join("prod.tfstate");
        let mut s = State::new(new_lineage());
        fs::write(&real, write_state(&s)).unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        let link = d.0.join("terraform.tfstate");
        std::os::unix::fs::symlink(&real, &link).unwrap();

        let mut b = LocalBackend::new(link.clone());
        b.lock("OperationTypeApply", "terraform.tfstate", Duration::ZERO)
            .unwrap();
        s = b.load().unwrap().unwrap();
        add(&mut s, "a", "1");
        b.persist(&mut s).unwrap();
        add(&mut s, "b", "2");
        b.persist(&mut s).unwrap();
        // The link is still a link, its target holds the new state, and stays 0600.
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(read_state(&fs::read(&real).unwrap()).unwrap(), s);
        let mode = fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        // The file at the path is the one we hold locked: a second locker is refused.
        let mut other = LocalBackend::new(link.clone());
        let e = other
            .lock("OperationTypeApply", "terraform.tfstate", Duration::ZERO)
            .unwrap_err();
        assert_eq!(e.message, "resource temporarily unavailable");
        assert_eq!(e.holder.unwrap().id, b.lock_info().unwrap().id);
        b.unlock();
        other
            .lock("OperationTypeApply", "terraform.tfstate", Duration::ZERO)
            .unwrap();
    }

    #[test]
    fn failed_write_leaves_errored_tfstate_and_the_old_file() {
        let d = TempDir::new("errored");
        let path = d.0.join("terraform.tfstate");
        let mut s = State::new(new_lineage());
        fs::write(&path, write_state(&s)).unwrap();
        let before = fs::read(&path).unwrap();
        // The temporary file cannot be created: its name is taken by a directory.
        fs::create_dir_all(d.0.join(format!("terraform.tfstate.tmp-{}", std::process::id())))
            .unwrap();
        let mut b = LocalBackend::new(path.clone());
        b.set_errored_dir(d.0.clone());
        s = b.load().unwrap().unwrap();
        add(&mut s, "a", "1");
        let e = b.persist(&mut s).unwrap_err();
        assert!(e.0.contains("failed to write state file"), "{e}");
        assert_eq!(fs::read(&path).unwrap(), before);
        let msg = b.save_errored(&s);
        assert!(msg.contains("\"errored.tfstate\" in the current working directory"));
        let saved = read_state(&fs::read(d.0.join("errored.tfstate")).unwrap()).unwrap();
        assert_eq!(saved, s);
    }

    #[test]
    fn unreadable_state_is_never_overwritten() {
        let d = TempDir::new("corrupt");
        let path = d.0.join("terraform.tfstate");
        fs::write(&path, "{\"version\": 4, \"ser").unwrap();
        let mut b = LocalBackend::new(path.clone());
        assert!(b.load().is_err());
        let mut s = State::new(new_lineage());
        assert!(b.persist(&mut s).is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), "{\"version\": 4, \"ser");
    }
}
