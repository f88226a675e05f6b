//! State locking for the local backend, compatible with Terraform 1.0.3's `statemgr.Filesystem`.
//!
//! Terraform locks a local state by opening the state file (`O_RDWR|O_CREAT`, mode 0666) and
//! taking a POSIX record lock over the whole file (`fcntl(F_SETLK, F_WRLCK)`), then writing a
//! description of the holder to `.<statefile>.lock.info` (mode 0600, compact JSON). ferro takes
//! an *open file description* lock (`F_OFD_SETLK`) instead: Linux makes OFD locks and classic
//! record locks conflict, so the two tools exclude each other, while the OFD lock is not dropped
//! when some other descriptor of the same file is closed in this process (a classic record lock
//! is) and two locks in one process conflict too.
//!
//! ferro replaces the state file by renaming a new file over it; the new file is locked before
//! the rename (see `LocalBackend::persist`), so whatever inode the path names stays locked.

use crate::{new_lineage, StateError};
use serde::{Deserialize, Serialize};
use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// What Terraform stores in `.terraform.tfstate.lock.info` (field order as Terraform writes it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LockInfo {
    #[serde(rename = "ID")]
    pub id: String,
    #[serde(rename = "Operation")]
    pub operation: String,
    #[serde(rename = "Info")]
    pub info: String,
    #[serde(rename = "Who")]
    pub who: String,
    #[serde(rename = "Version")]
    pub version: String,
    /// RFC 3339 with nanoseconds, as Go's `time.Time` marshals it.
    #[serde(rename = "Created")]
    pub created: String,
    #[serde(rename = "Path")]
    pub path: String,
}

impl LockInfo {
    /// A new lock description for `operation` (e.g. `OperationTypeApply`, `state-mv`).
    pub fn new(operation: &str, path: &str) -> LockInfo {
        LockInfo {
            id: new_lineage(),
            operation: operation.to_string(),
            info: String::new(),
            who: who(),
            version: crate::WRITER_VERSION.to_string(),
            created: rfc3339_nano(SystemTime::now()),
            path: path.to_string(),
        }
    }

    /// The block Terraform prints under "Lock Info:" (ends with a newline).
    pub fn describe(&self) -> String {
        format!(
            "Lock Info:\n  ID:        {}\n  Path:      {}\n  Operation: {}\n  Who:       {}\n  Version:   {}\n  Created:   {}\n  Info:      {}\n",
            self.id,
            self.path,
            self.operation,
            self.who,
            self.version,
            go_time_string(&self.created),
            self.info
        )
    }
}

/// Why a lock could not be taken.
#[derive(Debug, Clone)]
pub struct LockError {
    /// The underlying error (`resource temporarily unavailable` when another process holds it).
    pub message: String,
    /// The holder's description, when it could be read.
    pub holder: Option<LockInfo>,
}

impl std::fmt::Display for LockError {
    /// Terraform's `LockError.Error()`: the message, then the holder's description.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if let Some(h) = &self.holder {
            write!(f, "\n{}", h.describe())?;
        }
        Ok(())
    }
}

/// A held lock: the locked handle of the state file and the description written beside it.
#[derive(Debug)]
pub struct HeldLock {
    pub(crate) file: File,
    pub info: LockInfo,
    /// The lock created the (empty) state file; it is removed on unlock if still empty.
    pub(crate) created: bool,
}

/// `.<name>.lock.info` beside the state file.
pub fn lock_info_path(state: &Path) -> PathBuf {
    let name = state
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    state.with_file_name(format!(".{name}.lock.info"))
}

/// Read the lock description beside `state`, if any.
pub fn read_lock_info(state: &Path) -> Option<LockInfo> {
    let bytes = fs::read(lock_info_path(state)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Take an exclusive OFD lock over the whole of `file`; false when someone else holds one.
pub(crate) fn try_lock_file(file: &File) -> std::io::Result<bool> {
    use nix::fcntl::{fcntl, FcntlArg};
    let fl = nix::libc::flock {
        l_type: nix::libc::F_WRLCK as i16,
        l_whence: nix::libc::SEEK_SET as i16,
        l_start: 0,
        l_len: 0,
        l_pid: 0,
    };
    match fcntl(file, FcntlArg::F_OFD_SETLK(&fl)) {
        Ok(_) => Ok(true),
        Err(nix::errno::Errno::EAGAIN) | Err(nix::errno::Errno::EACCES) => Ok(false),
        Err(e) => Err(std::io::Error::from(e)),
    }
}

/// Whether some process holds a lock on the state file right now (checked by trying to take it).
pub fn is_locked(state: &Path) -> bool {
    match OpenOptions::new().read(true).write(true).open(state) {
        Ok(f) => matches!(try_lock_file(&f), Ok(false)),
        Err(_) => false,
    }
}

/// How long a lock without a lock description is waited for (see `acquire`).
const RELEASE_GRACE: Duration = Duration::from_millis(500);

/// Lock the state file at `state`, retrying until `timeout` has passed. `display` is the path
/// recorded in the lock description (Terraform records the path as the user gave it).
pub(crate) fn acquire(
    state: &Path,
    operation: &str,
    display: &str,
    timeout: Duration,
) -> Result<HeldLock, LockError> {
    let io_err = |e: std::io::Error| LockError {
        message: e.to_string(),
        holder: None,
    };
    let started = Instant::now();
    let deadline = started + timeout;
    let mut delay = Duration::from_millis(50);
    // A workspace selected with TF_WORKSPACE may not have its directory yet.
    if let Some(dir) = state.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io_err)?;
    }
    loop {
        let existed = state.exists();
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o666)
            .open(state)
            .map_err(io_err)?;
        if try_lock_file(&file).map_err(io_err)? {
            // The path may have been replaced between open and lock: then lock the new file.
            let same = match (file.metadata(), fs::metadata(state)) {
                (Ok(a), Ok(b)) => a.ino() == b.ino() && a.dev() == b.dev(),
                _ => false,
            };
            if !same {
                continue;
            }
            let info = LockInfo::new(operation, display);
            let info_path = lock_info_path(state);
            let json = serde_json::to_vec(&info).unwrap_or_default();
            let written = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(&info_path)
                .and_then(|mut f| std::io::Write::write_all(&mut f, &json));
            if let Err(e) = written {
                return Err(LockError {
                    message: format!("failed to write lock info {}: {e}", info_path.display()),
                    holder: None,
                });
            }
            HELD.lock().unwrap_or_else(|e| e.into_inner()).push((
                state.to_path_buf(),
                info.id.clone(),
                !existed,
            ));
            return Ok(HeldLock {
                file,
                info,
                created: !existed,
            });
        }
        drop(file);
        if Instant::now() >= deadline {
            let holder = read_lock_info(state);
            // Every holder writes its lock description; a lock without one is being released
            // (a process spawned while the holder still had the file open keeps it until it
            // starts its program), so it is waited for briefly even without -lock-timeout.
            if holder.is_none() && Instant::now() < started + RELEASE_GRACE {
                std::thread::sleep(Duration::from_millis(10));
                continue;
            }
            return Err(LockError {
                message: "resource temporarily unavailable".to_string(),
                holder,
            });
        }
        std::thread::sleep(delay.min(deadline.saturating_duration_since(Instant::now())));
        delay = (delay * 2).min(Duration::from_secs(1));
    }
}

/// Locks this process holds: (state file, lock ID, whether taking the lock created the file).
static HELD: std::sync::Mutex<Vec<(PathBuf, String, bool)>> = std::sync::Mutex::new(Vec::new());

/// Remove the description (and an empty state file the lock created) of a lock this process
/// holds on `state`.
fn clean_up(state: &Path, id: &str, created: bool) {
    if read_lock_info(state).is_some_and(|i| i.id == id) {
        let _ = fs::remove_file(lock_info_path(state));
    }
    if created && fs::metadata(state).is_ok_and(|m| m.len() == 0) {
        let _ = fs::remove_file(state);
    }
}

/// Release every lock this process holds, for a process about to exit without unwinding (an
/// interrupt while planning): the OS lock goes with the process, the description must not stay.
pub fn release_all_held_locks() {
    let held = std::mem::take(&mut *HELD.lock().unwrap_or_else(|e| e.into_inner()));
    for (state, id, created) in held {
        clean_up(&state, &id, created);
    }
}

impl HeldLock {
    /// Release the lock: remove the description, drop an empty state file the lock created.
    pub(crate) fn release(self, state: &Path) {
        HELD.lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|(_, id, _)| id != &self.info.id);
        clean_up(state, &self.info.id, self.created);
        drop(self.file);
    }
}

/// Turn a `-lock-timeout` value (`0s`, `30s`, `5m`, `1m30s`, `500ms`) into a duration.
pub fn parse_duration(text: &str) -> Result<Duration, StateError> {
    let bad = || StateError(format!("time: invalid duration \"{text}\""));
    if text == "0" {
        return Ok(Duration::ZERO);
    }
    let mut rest = text;
    let mut total = 0f64;
    if rest.is_empty() {
        return Err(bad());
    }
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(bad)?;
        let value: f64 = rest[..n].parse().map_err(|_| bad())?;
        rest = &rest[n..];
        let u = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let scale = match &rest[..u] {
            "ns" => 1e-9,
            "us" | "µs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return Err(bad()),
        };
        total += value * scale;
        rest = &rest[u..];
    }
    Ok(Duration::from_secs_f64(total))
}

/// `user@host` as Terraform records it.
fn who() -> String {
    let uid = fs::metadata("/proc/self").map(|m| m.uid()).ok();
    let user = uid
        .and_then(|uid| {
            let passwd = fs::read_to_string("/etc/passwd").ok()?;
            passwd.lines().find_map(|l| {
                let f: Vec<&str> = l.split(':').collect();
                (f.len() > 2 && f[2] == uid.to_string()).then(|| f[0].to_string())
            })
        })
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_default();
    let host = fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default();
    format!("{user}@{host}")
}

/// Go's `time.Time` JSON form in UTC: `2006-01-02T15:04:05.999999999Z`.
fn rfc3339_nano(t: SystemTime) -> String {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = d.as_secs() as i64;
    let (y, mo, da) = ferro_value::civil::civil_from_days(secs.div_euclid(86_400));
    let s = secs.rem_euclid(86_400);
    let frac = fraction(d.subsec_nanos());
    format!(
        "{y:04}-{mo:02}-{da:02}T{:02}:{:02}:{:02}{frac}Z",
        s / 3600,
        s / 60 % 60,
        s % 60
    )
}

/// `.123` with trailing zeros trimmed, or nothing for whole seconds.
fn fraction(nanos: u32) -> String {
    if nanos == 0 {
        return String::new();
    }
    let s = format!(".{nanos:09}");
    s.trim_end_matches('0').to_string()
}

/// Go's `time.Time.String()` for a UTC time given in RFC 3339 form: `2006-01-02 15:04:05.9 +0000 UTC`.
fn go_time_string(rfc: &str) -> String {
    match rfc.strip_suffix('Z').and_then(|r| r.split_once('T')) {
        Some((date, time)) => format!("{date} {time} +0000 UTC"),
        None => rfc.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_value::civil::civil_from_days;

    #[test]
    fn dates_and_durations() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_000), (2024, 10, 4));
        let t = UNIX_EPOCH + Duration::new(1_627_000_000, 120_000_000);
        assert_eq!(rfc3339_nano(t), "2021-07-23T00:26:40.12Z");
        assert_eq!(
            go_time_string("2021-07-23T00:26:40.12Z"),
            "2021-07-23 00:26:40.12 +0000 UTC"
        );
        assert_eq!(parse_duration("1m30s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("0s").unwrap(), Duration::ZERO);
        assert!(parse_duration("5").is_err());
        assert!(parse_duration("abc").is_err());
    }

    #[test]
    fn lock_info_json_matches_terraform_field_order() {
        let mut i = LockInfo::new("OperationTypeApply", "terraform.tfstate");
        i.id = "6c75b395-ff44-9451-3c33-8461e870cdce".into();
        i.who = "root@vm".into();
        i.created = "2026-11-24T08:05:54.079411757Z".into();
        assert_eq!(
            serde_json::to_string(&i).unwrap(),
            r#"{"ID":"6c75b395-ff44-9451-3c33-8461e870cdce","Operation":"OperationTypeApply","Info":"","Who":"root@vm","Version":"1.0.3","Created":"2026-11-24T08:05:54.079411757Z","Path":"terraform.tfstate"}"#
        );
    }
}
