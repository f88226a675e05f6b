//! The S3 backend (`backend "s3"`), laid out and locked as Terraform's, so ferro, Terraform and
//! OpenTofu can share one bucket:
//!
//! * The default workspace's state is the object `key`; workspace `NAME`'s is
//!   `<workspace_key_prefix>/NAME/<key>` (prefix `env:` by default). Workspaces are listed from
//!   the keys under the prefix whose last part is `key`, as Terraform lists them.
//! * DynamoDB locking (`dynamodb_table`): the item `LockID = "<bucket>/<key>"` with the lock
//!   description as JSON in `Info`, put only if absent; beside it the item
//!   `LockID = "<bucket>/<key>-md5"` whose `Digest` is the hex MD5 of the stored state, written
//!   after every state write and checked on every read (a state that does not match is
//!   re-read for a while, then refused, as Terraform refuses it).
//! * S3-native locking (`use_lockfile`, Terraform 1.11 / OpenTofu 1.10): the object
//!   `<state key>.tflock` holding the lock description, created with `If-None-Match: *`.
//!   With both configured both locks are taken.
//! * `encrypt` (SSE-S3, or SSE-KMS with `kms_key_id`), `sse_customer_key` (SSE-C) and `acl`
//!   apply to every state write.
//! * Completed changes of an apply are journaled in a local file between full writes, as for
//!   the pg backend.

use crate::aws::credentials::{self, CredentialSettings};
use crate::aws::dynamodb::DynamoDbClient;
use crate::aws::s3::S3Client;
use crate::aws::{AwsError, ClientOptions, HttpClient, Session};
use crate::backend::{
    journal_for, loaded, loaded_nothing, opened, persist_remote, save_errored, Backend, Comparable,
};
use crate::codec::read_state;
use crate::journal::Journal;
use crate::lock::{LockError, LockInfo};
use crate::workspace::DEFAULT_WORKSPACE;
use crate::{State, StateError};
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const DEFAULT_WORKSPACE_KEY_PREFIX: &str = "env:";
const MD5_SUFFIX: &str = "-md5";
const LOCKFILE_SUFFIX: &str = ".tflock";

/// The `backend "s3"` settings, once both spellings of its arguments are merged (its `Debug`
/// shows no secret).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct S3Config {
    pub bucket: String,
    pub key: String,
    pub region: String,
    pub workspace_key_prefix: String,
    pub encrypt: bool,
    pub kms_key_id: Option<String>,
    pub sse_customer_key: Option<String>,
    pub acl: Option<String>,
    pub dynamodb_table: Option<String>,
    pub use_lockfile: bool,
    pub s3_endpoint: String,
    pub dynamodb_endpoint: String,
    pub path_style: bool,
    pub skip_credentials_validation: bool,
    pub skip_requesting_account_id: bool,
    /// The accounts the credentials must (or must not) belong to.
    pub allowed_account_ids: Vec<String>,
    pub forbidden_account_ids: Vec<String>,
    /// TLS, proxies and retries of every request.
    pub client: ClientOptions,
    pub credentials: CredentialSettings,
}

impl std::fmt::Debug for S3Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Config")
            .field("bucket", &self.bucket)
            .field("key", &self.key)
            .field("region", &self.region)
            .field("workspace_key_prefix", &self.workspace_key_prefix)
            .field("encrypt", &self.encrypt)
            .field("kms_key_id", &self.kms_key_id)
            .field(
                "sse_customer_key",
                &self.sse_customer_key.as_ref().map(|_| "<redacted>"),
            )
            .field("acl", &self.acl)
            .field("dynamodb_table", &self.dynamodb_table)
            .field("use_lockfile", &self.use_lockfile)
            .field("s3_endpoint", &self.s3_endpoint)
            .field("dynamodb_endpoint", &self.dynamodb_endpoint)
            .field("path_style", &self.path_style)
            .field(
                "skip_credentials_validation",
                &self.skip_credentials_validation,
            )
            .field(
                "skip_requesting_account_id",
                &self.skip_requesting_account_id,
            )
            .field("allowed_account_ids", &self.allowed_account_ids)
            .field("forbidden_account_ids", &self.forbidden_account_ids)
            .field("client", &self.client)
            .field("credentials", &self.credentials)
            .finish()
    }
}

fn aws_err(e: AwsError) -> StateError {
    StateError(e.to_string())
}

/// What Terraform says when the digest item and the state disagree.
fn bad_checksum(digest: &str) -> String {
    format!("state data in S3 does not have the expected content.\n\nThis may be caused by unusually long delays in S3 processing a previous state\nupdate.  Please wait for a minute or two and try again. If this problem\npersists, and neither S3 nor DynamoDB are experiencing an outage, you may need\nto manually verify the remote state and update the Digest value stored in the\nDynamoDB table to the following value: {digest}")
}

/// How long a state whose digest does not match is re-read before it is refused (Terraform
/// waits 10 seconds; S3 has been strongly consistent since 2020).
const CONSISTENCY_WAIT: Duration = Duration::from_secs(2);

fn md5_hex(bytes: &[u8]) -> String {
    use md5::Digest;
    md5::Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Terraform's check of the credentials' account.
fn account_allowed(cfg: &S3Config, account: &str) -> Result<(), StateError> {
    let refused = (!cfg.allowed_account_ids.is_empty()
        && !cfg.allowed_account_ids.iter().any(|a| a == account))
        || cfg.forbidden_account_ids.iter().any(|a| a == account);
    if refused {
        return Err(StateError(format!(
            "Invalid account ID: AWS account ID not allowed: {account}"
        )));
    }
    Ok(())
}

/// A connection to the bucket (and lock table) holding the states.
pub struct S3Store {
    pub cfg: S3Config,
    s3: S3Client,
    ddb: Option<DynamoDbClient>,
}

impl S3Store {
    /// Find credentials, validate them through STS unless `skip_credentials_validation`, and
    /// check their account against `allowed_account_ids`/`forbidden_account_ids`.
    pub fn connect(cfg: &S3Config) -> Result<S3Store, StateError> {
        let failed = |e: String| StateError(format!("error configuring S3 Backend: {e}"));
        let agent = HttpClient::new(&cfg.client).map_err(failed)?;
        let creds = credentials::resolve(&agent, &cfg.credentials).map_err(failed)?;
        let constrained =
            !cfg.allowed_account_ids.is_empty() || !cfg.forbidden_account_ids.is_empty();
        let account = if !cfg.skip_credentials_validation
            || constrained && !cfg.skip_requesting_account_id
        {
            crate::aws::sts::caller_identity(&agent, &cfg.credentials, &creds).map_err(failed)?
        } else {
            String::new()
        };
        account_allowed(cfg, &account)?;
        let session = Arc::new(Session {
            agent,
            creds,
            region: cfg.region.clone(),
        });
        let ddb = cfg
            .dynamodb_table
            .as_ref()
            .filter(|t| !t.is_empty())
            .map(|_| DynamoDbClient {
                session: session.clone(),
                endpoint: cfg.dynamodb_endpoint.clone(),
            });
        Ok(S3Store {
            s3: S3Client {
                session,
                endpoint: cfg.s3_endpoint.clone(),
                path_style: cfg.path_style,
            },
            ddb,
            cfg: cfg.clone(),
        })
    }

    pub fn s3(&self) -> &S3Client {
        &self.s3
    }

    pub fn dynamodb(&self) -> Option<&DynamoDbClient> {
        self.ddb.as_ref()
    }

    /// The object holding workspace `name`'s state.
    pub fn state_key(&self, name: &str) -> String {
        if name == DEFAULT_WORKSPACE {
            self.cfg.key.clone()
        } else {
            let joined = format!("{}/{name}/{}", self.cfg.workspace_key_prefix, self.cfg.key);
            joined.trim_start_matches('/').to_string()
        }
    }

    /// `<bucket>/<state key>`: the lock item's `LockID` and the lock's `Path`.
    pub fn lock_path(&self, name: &str) -> String {
        format!("{}/{}", self.cfg.bucket, self.state_key(name))
    }

    fn table(&self) -> Option<(&DynamoDbClient, &str)> {
        let t = self.cfg.dynamodb_table.as_deref()?;
        Some((self.ddb.as_ref()?, t))
    }

    /// The workspace a key belongs to (Terraform's `keyEnv`), if any.
    fn workspace_of(&self, key: &str) -> Option<String> {
        let prefix = &self.cfg.workspace_key_prefix;
        if prefix.is_empty() {
            let (ws, rest) = key.split_once('/')?;
            return (rest == self.cfg.key).then(|| ws.to_string());
        }
        let rest = key.strip_prefix(&format!("{prefix}/"))?;
        let (ws, rest) = rest.split_once('/')?;
        (rest == self.cfg.key && !ws.is_empty()).then(|| ws.to_string())
    }

    /// Every workspace: `default` first, then the others by name.
    pub fn workspaces(&self) -> Result<Vec<String>, StateError> {
        let prefix = if self.cfg.workspace_key_prefix.is_empty() {
            String::new()
        } else {
            format!("{}/", self.cfg.workspace_key_prefix)
        };
        let keys = self
            .s3
            .list_keys(&self.cfg.bucket, &prefix)
            .map_err(|e| {
                if e.code == "NoSuchBucket" {
                    StateError(format!("S3 bucket {:?} does not exist.\n\nThe referenced S3 bucket must have been previously created. If the S3 bucket\nwas created within the last minute, please wait for a minute or two and try\nagain.\n\nError: {e}", self.cfg.bucket))
                } else {
                    aws_err(e)
                }
            })?;
        let mut names: Vec<String> = keys.iter().filter_map(|k| self.workspace_of(k)).collect();
        names.sort();
        names.dedup();
        names.retain(|n| n != DEFAULT_WORKSPACE);
        names.insert(0, DEFAULT_WORKSPACE.to_string());
        Ok(names)
    }

    /// Remove a workspace's state object and its digest item.
    pub fn delete_workspace(&self, name: &str) -> Result<(), StateError> {
        if name == DEFAULT_WORKSPACE || name.is_empty() {
            return Err(StateError("can't delete default state".into()));
        }
        self.s3
            .delete_object(&self.cfg.bucket, &self.state_key(name))
            .map_err(aws_err)?;
        if let Some((ddb, table)) = self.table() {
            ddb.delete_item(table, &format!("{}{MD5_SUFFIX}", self.lock_path(name)))
                .map_err(aws_err)?;
        }
        Ok(())
    }

    fn sse_c_headers(&self) -> Result<Vec<(String, String)>, StateError> {
        use base64::Engine;
        let Some(key) = self
            .cfg
            .sse_customer_key
            .as_deref()
            .filter(|k| !k.is_empty())
        else {
            return Ok(Vec::new());
        };
        let raw = base64::engine::general_purpose::STANDARD
            .decode(key)
            .ok()
            .filter(|k| k.len() == 32)
            .ok_or_else(|| {
                StateError(
                    "sse_customer_key must be 44 characters of base64 (a 256-bit key)".into(),
                )
            })?;
        use md5::Digest;
        let digest = md5::Md5::digest(&raw);
        Ok(vec![
            (
                "x-amz-server-side-encryption-customer-algorithm".into(),
                "AES256".into(),
            ),
            (
                "x-amz-server-side-encryption-customer-key".into(),
                key.to_string(),
            ),
            (
                "x-amz-server-side-encryption-customer-key-md5".into(),
                base64::engine::general_purpose::STANDARD.encode(digest),
            ),
        ])
    }

    /// The stored state of workspace `name`, checked against the digest item.
    pub fn get(&self, name: &str) -> Result<Option<Vec<u8>>, StateError> {
        let key = self.state_key(name);
        let started = Instant::now();
        loop {
            let body = if self.cfg.sse_customer_key.is_some() {
                let url = self.s3.url(&self.cfg.bucket, &key);
                let resp = self
                    .s3
                    .session
                    .send(
                        crate::aws::Service::S3,
                        "GET",
                        &url,
                        self.sse_c_headers()?,
                        &[],
                    )
                    .map_err(StateError)?;
                match resp.status {
                    200..=299 => Some(resp.body),
                    404 => None,
                    _ => {
                        return Err(aws_err(crate::aws::xml_error(
                            &format!("GetObject s3://{}/{key}", self.cfg.bucket),
                            &resp,
                        )))
                    }
                }
            } else {
                self.s3
                    .get_object(&self.cfg.bucket, &key)
                    .map_err(|e| StateError(format!("failed to read the state from S3: {e}")))?
            };
            let Some((ddb, table)) = self.table() else {
                return Ok(body);
            };
            let digest = body.as_deref().map(md5_hex).unwrap_or_default();
            let expected = ddb
                .get_item(table, &format!("{}{MD5_SUFFIX}", self.lock_path(name)))
                .ok()
                .flatten()
                .and_then(|mut item| item.remove("Digest"))
                .unwrap_or_default();
            if expected.is_empty() || expected == digest {
                return Ok(body);
            }
            if started.elapsed() >= CONSISTENCY_WAIT {
                return Err(StateError(bad_checksum(&digest)));
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Store `data` as workspace `name`'s state and record its digest.
    pub fn put(&self, name: &str, data: &[u8]) -> Result<(), StateError> {
        let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
        if self.cfg.encrypt {
            match self.cfg.kms_key_id.as_deref().filter(|k| !k.is_empty()) {
                Some(kms) => {
                    headers.push(("x-amz-server-side-encryption".into(), "aws:kms".into()));
                    headers.push((
                        "x-amz-server-side-encryption-aws-kms-key-id".into(),
                        kms.to_string(),
                    ));
                }
                None => headers.push(("x-amz-server-side-encryption".into(), "AES256".into())),
            }
        }
        headers.extend(self.sse_c_headers()?);
        if let Some(acl) = self.cfg.acl.as_deref().filter(|a| !a.is_empty()) {
            headers.push(("x-amz-acl".into(), acl.to_string()));
        }
        self.s3
            .put_object(&self.cfg.bucket, &self.state_key(name), data, headers)
            .map_err(|e| StateError(format!("failed to upload state: {e}")))?;
        if let Some((ddb, table)) = self.table() {
            let id = format!("{}{MD5_SUFFIX}", self.lock_path(name));
            let digest = md5_hex(data);
            let item = BTreeMap::from([("LockID", id.as_str()), ("Digest", digest.as_str())]);
            ddb.put_item(table, &item, false).map_err(|e| {
                StateError(format!(
                    "the state was written, but its digest could not be recorded in the DynamoDB table {table:?}, so Terraform will refuse to read it until the item \"{id}\" holds Digest {digest}: {e}"
                ))
            })?;
        }
        Ok(())
    }

    /// The description of the lock on workspace `name` (the DynamoDB item's, else the lock
    /// file's), if any.
    pub fn lock_holder(&self, name: &str) -> Option<LockInfo> {
        if let Some((ddb, table)) = self.table() {
            if let Ok(Some(item)) = ddb.get_item(table, &self.lock_path(name)) {
                if let Some(info) = item.get("Info") {
                    return serde_json::from_str(info).ok();
                }
            }
        }
        if self.cfg.use_lockfile {
            let key = format!("{}{LOCKFILE_SUFFIX}", self.state_key(name));
            if let Ok(Some(body)) = self.s3.get_object(&self.cfg.bucket, &key) {
                return serde_json::from_slice(&body).ok();
            }
        }
        None
    }

    /// One attempt at locking workspace `name` with `info`: `Ok(Ok(()))` when taken,
    /// `Ok(Err(why))` when someone else holds it.
    fn try_lock(&self, name: &str, info: &LockInfo) -> Result<Result<(), AwsError>, StateError> {
        let json = serde_json::to_string(info).unwrap_or_default();
        if self.cfg.use_lockfile {
            let key = format!("{}{LOCKFILE_SUFFIX}", self.state_key(name));
            let headers = vec![
                ("content-type".to_string(), "application/json".to_string()),
                ("if-none-match".to_string(), "*".to_string()),
            ];
            match self
                .s3
                .put_object(&self.cfg.bucket, &key, json.as_bytes(), headers)
            {
                Ok(()) => {}
                Err(e) if e.status == 412 || e.status == 409 => return Ok(Err(e)),
                Err(e) => return Err(aws_err(e)),
            }
        }
        if let Some((ddb, table)) = self.table() {
            let path = self.lock_path(name);
            let item = BTreeMap::from([("LockID", path.as_str()), ("Info", json.as_str())]);
            match ddb.put_item(table, &item, true) {
                Ok(()) => {}
                Err(e) => {
                    if self.cfg.use_lockfile {
                        let key = format!("{}{LOCKFILE_SUFFIX}", self.state_key(name));
                        let _ = self.s3.delete_object(&self.cfg.bucket, &key);
                    }
                    if e.code == "ConditionalCheckFailedException" {
                        return Ok(Err(e));
                    }
                    return Err(aws_err(e));
                }
            }
        }
        Ok(Ok(()))
    }

    /// Release the lock `id` on workspace `name`; a lock held under another ID is refused, as
    /// Terraform refuses it.
    pub fn unlock(&self, name: &str, id: &str) -> Result<(), StateError> {
        let mismatch = |held: &str| {
            StateError(format!(
                "lock id {id:?} does not match existing lock (held by {held:?})"
            ))
        };
        let mut found = false;
        if let Some((ddb, table)) = self.table() {
            let path = self.lock_path(name);
            let item = ddb.get_item(table, &path).map_err(aws_err)?;
            if let Some(item) = item {
                let held: Option<LockInfo> =
                    item.get("Info").and_then(|i| serde_json::from_str(i).ok());
                let held_id = held.map(|h| h.id).unwrap_or_default();
                if held_id != id {
                    return Err(mismatch(&held_id));
                }
                ddb.delete_item(table, &path).map_err(aws_err)?;
                found = true;
            }
        }
        if self.cfg.use_lockfile {
            let key = format!("{}{LOCKFILE_SUFFIX}", self.state_key(name));
            if let Some(body) = self
                .s3
                .get_object(&self.cfg.bucket, &key)
                .map_err(aws_err)?
            {
                let held: Option<LockInfo> = serde_json::from_slice(&body).ok();
                let held_id = held.map(|h| h.id).unwrap_or_default();
                if held_id != id {
                    return Err(mismatch(&held_id));
                }
                self.s3
                    .delete_object(&self.cfg.bucket, &key)
                    .map_err(aws_err)?;
                found = true;
            }
        }
        if !found {
            return Err(StateError(format!(
                "no lock is held on the state {:?}",
                self.lock_path(name)
            )));
        }
        Ok(())
    }

    /// Whether this backend locks at all (Terraform's s3 backend does not without a lock
    /// table or lock file).
    pub fn locks(&self) -> bool {
        self.table().is_some() || self.cfg.use_lockfile
    }
}

/// One workspace of the S3 backend.
pub struct S3Backend {
    store: S3Store,
    workspace: String,
    lock: Option<LockInfo>,
    last: RefCell<Option<(Comparable, u64)>>,
    unreadable: Cell<bool>,
    journal: Journal,
    errored_dir: Option<PathBuf>,
}

impl S3Backend {
    /// The state of `workspace` in `store`; completed changes are journaled at `journal_path`.
    pub fn new(store: S3Store, workspace: &str, journal_path: PathBuf) -> S3Backend {
        S3Backend {
            store,
            workspace: workspace.to_string(),
            lock: None,
            last: RefCell::new(None),
            unreadable: Cell::new(false),
            journal: Journal::new(journal_path),
            errored_dir: None,
        }
    }

    pub fn store(&self) -> &S3Store {
        &self.store
    }
}

impl Backend for S3Backend {
    fn lock(
        &mut self,
        operation: &str,
        _display: &str,
        timeout: Duration,
    ) -> Result<(), LockError> {
        if self.lock.is_some() || !self.store.locks() {
            return Ok(());
        }
        let info = LockInfo::new(operation, &self.store.lock_path(&self.workspace));
        let deadline = Instant::now() + timeout;
        let mut delay = Duration::from_millis(100);
        loop {
            match self.store.try_lock(&self.workspace, &info) {
                Ok(Ok(())) => {
                    self.lock = Some(info);
                    return Ok(());
                }
                Ok(Err(e)) => {
                    if Instant::now() >= deadline {
                        let message = if e.code.is_empty() {
                            e.to_string()
                        } else {
                            format!("{}: {}", e.code, e.message)
                        };
                        return Err(LockError {
                            message,
                            holder: self.store.lock_holder(&self.workspace),
                        });
                    }
                }
                Err(e) => {
                    return Err(LockError {
                        message: e.0,
                        holder: None,
                    })
                }
            }
            std::thread::sleep(delay.min(deadline.saturating_duration_since(Instant::now())));
            delay = (delay * 2).min(Duration::from_secs(1));
        }
    }

    fn lock_info(&self) -> Option<&LockInfo> {
        self.lock.as_ref()
    }

    fn unlock(&mut self) {
        if let Some(info) = self.lock.take() {
            let _ = self.store.unlock(&self.workspace, &info.id);
        }
    }

    fn load(&self) -> Result<Option<State>, StateError> {
        let bytes = self.store.get(&self.workspace)?;
        let Some(bytes) = bytes.filter(|b| !b.iter().all(u8::is_ascii_whitespace)) else {
            self.unreadable.set(false);
            return loaded_nothing(&self.journal);
        };
        let state = opened(&self.journal, &bytes)
            .and_then(|b| read_state(&b))
            .map_err(|e| {
                self.unreadable.set(true);
                StateError(format!(
                    "failed to load the state of workspace {:?} from S3: {e}",
                    self.workspace
                ))
            })?;
        self.unreadable.set(false);
        loaded(&self.journal, &self.last, state).map(Some)
    }

    fn persist(&mut self, state: &mut State) -> Result<(), StateError> {
        if self.unreadable.get() {
            return Err(StateError(format!(
                "refusing to overwrite the state of workspace {:?}, which could not be read",
                self.workspace
            )));
        }
        let journal = self.journal.clone();
        let (store, last, workspace) = (&self.store, &self.last, &self.workspace);
        persist_remote(&journal, last, state, |text| {
            store.put(workspace, text.as_bytes())
        })
    }

    fn journal(&self, lineage: &str) -> Journal {
        journal_for(&self.journal, lineage)
    }

    fn set_errored_dir(&mut self, dir: PathBuf) {
        self.errored_dir = Some(dir);
    }

    fn save_errored(&self, state: &State) -> String {
        save_errored(self.errored_dir.as_deref(), &self.journal, state)
    }

    fn pending_journal(&self) -> &Journal {
        &self.journal
    }
}

impl Drop for S3Backend {
    fn drop(&mut self) {
        self.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_and_messages() {
        assert_eq!(md5_hex(b""), "d41d8cd98f00b204e9800998ecf8427e");
        assert!(bad_checksum("ab").ends_with("following value: ab"));
    }
}
