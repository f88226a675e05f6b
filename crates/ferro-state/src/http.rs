//! The HTTP backend (`backend "http"`), speaking Terraform's protocol:
//!
//! * `GET address`: the state (200), or none (204, 404, or an empty body).
//! * `update_method` (default `POST`) to `address` with the state as JSON and its
//!   `Content-MD5`; while locked, the lock's ID is added as the query parameter `ID`.
//! * `lock_method` (default `LOCK`) to `lock_address` with the lock description as JSON: 200
//!   takes the lock, 423 (Locked) or 409 (Conflict) means someone holds it (the body, when it
//!   is a lock description, names the holder). `unlock_method` (default `UNLOCK`) to
//!   `unlock_address` with the same description releases it. No `lock_address`: no locking; no
//!   `unlock_address`: locks are never released (as in Terraform).
//! * `username`/`password` as HTTP basic authentication; `skip_cert_verification`; a client
//!   certificate for mutual TLS (`client_certificate_pem`, `client_private_key_pem`) and a
//!   CA to trust for the server's certificate (`client_ca_certificate_pem`); retries
//!   of failed connections and 5xx/429 answers (`retry_max`, default 2; waits from
//!   `retry_wait_min`, default 1 s, doubling up to `retry_wait_max`, default 30 s).
//! * Only the default workspace.

use crate::aws::{send, ClientOptions, HttpClient, Response};
use crate::backend::{
    journal_for, loaded, loaded_nothing, opened, persist_remote, save_errored, Backend, Comparable,
};
use crate::codec::read_state;
use crate::journal::Journal;
use crate::lock::{LockError, LockInfo};
use crate::{State, StateError};
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The `backend "http"` arguments (its `Debug` shows no password).
#[derive(Clone, PartialEq, Eq)]
pub struct HttpConfig {
    pub address: String,
    pub update_method: String,
    pub lock_address: Option<String>,
    pub unlock_address: Option<String>,
    pub lock_method: String,
    pub unlock_method: String,
    pub username: Option<String>,
    pub password: Option<String>,
    pub skip_cert_verification: bool,
    pub retry_max: u32,
    pub retry_wait_min: u64,
    pub retry_wait_max: u64,
    /// PEM texts: the CA of the server's certificate, the client certificate and its key.
    pub client_ca_certificate_pem: Option<String>,
    pub client_certificate_pem: Option<String>,
    pub client_private_key_pem: Option<String>,
}

impl std::fmt::Debug for HttpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpConfig")
            .field("address", &self.address)
            .field("update_method", &self.update_method)
            .field("lock_address", &self.lock_address)
            .field("unlock_address", &self.unlock_address)
            .field("lock_method", &self.lock_method)
            .field("unlock_method", &self.unlock_method)
            .field("username", &self.username)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .field("skip_cert_verification", &self.skip_cert_verification)
            .field("retry_max", &self.retry_max)
            .field("retry_wait_min", &self.retry_wait_min)
            .field("retry_wait_max", &self.retry_wait_max)
            .field(
                "client_ca_certificate_pem",
                &self.client_ca_certificate_pem.is_some(),
            )
            .field(
                "client_certificate_pem",
                &self.client_certificate_pem.is_some(),
            )
            .field(
                "client_private_key_pem",
                &self.client_private_key_pem.as_ref().map(|_| "<redacted>"),
            )
            .finish()
    }
}

impl Default for HttpConfig {
    fn default() -> Self {
        HttpConfig {
            address: String::new(),
            update_method: "POST".into(),
            lock_address: None,
            unlock_address: None,
            lock_method: "LOCK".into(),
            unlock_method: "UNLOCK".into(),
            username: None,
            password: None,
            skip_cert_verification: false,
            retry_max: 2,
            retry_wait_min: 1,
            retry_wait_max: 30,
            client_ca_certificate_pem: None,
            client_certificate_pem: None,
            client_private_key_pem: None,
        }
    }
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// A client of one HTTP state endpoint.
pub struct HttpStore {
    cfg: HttpConfig,
    agent: HttpClient,
}

impl HttpConfig {
    /// How the client connects: certificates, and no retries of its own (the store retries
    /// as `retry_max` says).
    pub fn client_options(&self) -> ClientOptions {
        ClientOptions {
            insecure: self.skip_cert_verification,
            ca_pem: self.client_ca_certificate_pem.clone(),
            client_cert_pem: self.client_certificate_pem.clone(),
            client_key_pem: self.client_private_key_pem.clone(),
            retry: crate::aws::RetryPolicy {
                max_retries: 0,
                ..Default::default()
            },
            ..ClientOptions::default()
        }
    }
}

impl HttpStore {
    /// A client of the configured endpoint (certificates checked by `http_config` already).
    pub fn new(cfg: &HttpConfig) -> Result<HttpStore, StateError> {
        let agent = HttpClient::new(&cfg.client_options())
            .map_err(|e| StateError(format!("invalid http backend TLS settings: {e}")))?;
        Ok(HttpStore {
            agent,
            cfg: cfg.clone(),
        })
    }

    /// One request, retried as `retry_max` and the waits say; the password never appears in
    /// an error.
    fn request(
        &self,
        what: &str,
        method: &str,
        url: &str,
        body: &[u8],
        json: bool,
    ) -> Result<Response, StateError> {
        let mut headers = Vec::new();
        if let Some(user) = &self.cfg.username {
            let pass = self.cfg.password.clone().unwrap_or_default();
            headers.push((
                "authorization".to_string(),
                format!("Basic {}", base64(format!("{user}:{pass}").as_bytes())),
            ));
        }
        if json {
            headers.push(("content-type".to_string(), "application/json".to_string()));
        }
        if !body.is_empty() && method == self.cfg.update_method {
            use md5::Digest;
            headers.push(("content-md5".to_string(), base64(&md5::Md5::digest(body))));
        }
        let mut wait = Duration::from_secs(self.cfg.retry_wait_min);
        let max_wait = Duration::from_secs(self.cfg.retry_wait_max.max(self.cfg.retry_wait_min));
        let mut attempt = 0;
        loop {
            let result = send(&self.agent, method, url, &headers, body);
            let retry = match &result {
                Err(_) => true,
                Ok(r) => r.status >= 500 || r.status == 429,
            };
            if !retry || attempt >= self.cfg.retry_max {
                return result.map_err(|e| StateError(format!("{what}: {e}")));
            }
            attempt += 1;
            std::thread::sleep(wait);
            wait = (wait * 2).min(max_wait);
        }
    }

    /// The stored state (None: none yet).
    pub fn get(&self) -> Result<Option<Vec<u8>>, StateError> {
        let resp = self.request("failed to get state", "GET", &self.cfg.address, &[], false)?;
        match resp.status {
            200 => {}
            204 | 404 => return Ok(None),
            401 => {
                return Err(StateError(
                    "HTTP remote state endpoint requires auth".into(),
                ))
            }
            403 => return Err(StateError("HTTP remote state endpoint invalid auth".into())),
            s => {
                return Err(StateError(format!(
                    "HTTP error: {s} (GET {})",
                    self.cfg.address
                )))
            }
        }
        if resp.body.is_empty() {
            return Ok(None);
        }
        if let Some(md5) = resp.header("content-md5") {
            use md5::Digest;
            if base64(&md5::Md5::digest(&resp.body)) != md5.trim() {
                return Err(StateError(format!(
                    "Failed to read state: the state's MD5 ({md5}) does not match its content (GET {})",
                    self.cfg.address
                )));
            }
        }
        Ok(Some(resp.body))
    }

    /// Store `data`; `lock_id` is the held lock's ID.
    pub fn put(&self, data: &[u8], lock_id: Option<&str>) -> Result<(), StateError> {
        let mut url = self.cfg.address.clone();
        if let Some(id) = lock_id {
            let sep = if url.contains('?') { '&' } else { '?' };
            url = format!("{url}{sep}ID={}", crate::aws::uri_encode(id, false));
        }
        let method = self.cfg.update_method.clone();
        let resp = self.request("failed to upload state", &method, &url, data, true)?;
        match resp.status {
            200 | 201 | 204 => Ok(()),
            s => Err(StateError(format!(
                "HTTP error: {s} ({method} {})",
                self.cfg.address
            ))),
        }
    }

    /// Whether locking is configured.
    pub fn locks(&self) -> bool {
        self.cfg
            .lock_address
            .as_deref()
            .is_some_and(|a| !a.is_empty())
    }

    /// One attempt at the lock: Ok(Ok(())) taken, Ok(Err(message, holder)) held by another.
    #[allow(clippy::type_complexity)]
    fn try_lock(
        &self,
        info: &LockInfo,
    ) -> Result<Result<(), (String, Option<LockInfo>)>, StateError> {
        let Some(addr) = self.cfg.lock_address.clone() else {
            return Ok(Ok(()));
        };
        let body = serde_json::to_vec(info).unwrap_or_default();
        let method = self.cfg.lock_method.clone();
        let resp = self.request("HTTP remote state lock failed", &method, &addr, &body, true)?;
        match resp.status {
            200 => Ok(Ok(())),
            401 => Err(StateError(
                "HTTP remote state endpoint requires auth".into(),
            )),
            403 => Err(StateError("HTTP remote state endpoint invalid auth".into())),
            409 | 423 => {
                let holder: Option<LockInfo> = serde_json::from_slice(&resp.body).ok();
                let message = match &holder {
                    Some(h) => format!("HTTP remote state already locked: ID={}", h.id),
                    None => "HTTP remote state already locked, failed to unmarshal body".into(),
                };
                Ok(Err((message, holder)))
            }
            s => Err(StateError(format!(
                "Unexpected HTTP response code {s} ({method} {addr})"
            ))),
        }
    }

    /// Release the lock described by `info`.
    pub fn unlock(&self, info: &LockInfo) -> Result<(), StateError> {
        let Some(addr) = self.cfg.unlock_address.clone().filter(|a| !a.is_empty()) else {
            // As Terraform: without an unlock address a lock is never released.
            return Ok(());
        };
        let body = serde_json::to_vec(info).unwrap_or_default();
        let method = self.cfg.unlock_method.clone();
        let resp = self.request(
            "HTTP remote state unlock failed",
            &method,
            &addr,
            &body,
            true,
        )?;
        match resp.status {
            200 => Ok(()),
            s => Err(StateError(format!(
                "Unexpected HTTP response code {s} ({method} {addr})"
            ))),
        }
    }
}

/// The single workspace of an HTTP backend.
pub struct HttpBackend {
    store: HttpStore,
    lock: Option<LockInfo>,
    last: RefCell<Option<(Comparable, u64)>>,
    unreadable: Cell<bool>,
    journal: Journal,
    errored_dir: Option<PathBuf>,
}

impl HttpBackend {
    pub fn new(store: HttpStore, journal_path: PathBuf) -> HttpBackend {
        HttpBackend {
            store,
            lock: None,
            last: RefCell::new(None),
            unreadable: Cell::new(false),
            journal: Journal::new(journal_path),
            errored_dir: None,
        }
    }

    pub fn store(&self) -> &HttpStore {
        &self.store
    }
}

impl Backend for HttpBackend {
    fn lock(
        &mut self,
        operation: &str,
        _display: &str,
        timeout: Duration,
    ) -> Result<(), LockError> {
        if self.lock.is_some() || !self.store.locks() {
            return Ok(());
        }
        let info = LockInfo::new(operation, "");
        let deadline = Instant::now() + timeout;
        let mut delay = Duration::from_millis(100);
        loop {
            match self.store.try_lock(&info) {
                Ok(Ok(())) => {
                    self.lock = Some(info);
                    return Ok(());
                }
                Ok(Err((message, holder))) => {
                    if Instant::now() >= deadline {
                        return Err(LockError { message, holder });
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
            let _ = self.store.unlock(&info);
        }
    }

    fn load(&self) -> Result<Option<State>, StateError> {
        let Some(bytes) = self.store.get()? else {
            self.unreadable.set(false);
            return loaded_nothing(&self.journal);
        };
        let state = opened(&self.journal, &bytes)
            .and_then(|b| read_state(&b))
            .map_err(|e| {
                self.unreadable.set(true);
                StateError(format!(
                    "failed to load the state from the HTTP backend: {e}"
                ))
            })?;
        self.unreadable.set(false);
        loaded(&self.journal, &self.last, state).map(Some)
    }

    fn persist(&mut self, state: &mut State) -> Result<(), StateError> {
        if self.unreadable.get() {
            return Err(StateError(
                "refusing to overwrite the state in the HTTP backend, which could not be read"
                    .into(),
            ));
        }
        let journal = self.journal.clone();
        let lock_id = self.lock.as_ref().map(|l| l.id.clone());
        let (store, last) = (&self.store, &self.last);
        persist_remote(&journal, last, state, |text| {
            store.put(text.as_bytes(), lock_id.as_deref())
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

impl Drop for HttpBackend {
    fn drop(&mut self) {
        self.unlock();
    }
}
