//! The PostgreSQL backend (`backend "pg"`), laid out and locked as Terraform 1.0.3's, so both
//! tools can share one database.
//!
//! * Configuration: `conn_str` (a `postgres://` URL or `key=value` pairs), `schema_name`
//!   (default `terraform_remote_state`), `skip_schema_creation`, `skip_table_creation`,
//!   `skip_index_creation`. Connections are made without TLS.
//! * Every command prepares the database as Terraform does: the schema (unless it exists), the
//!   sequence `public.global_states_id_seq`, the table `<schema>.states (id bigint default
//!   nextval(..) primary key, name text unique, data text)` and the index `states_by_name`.
//! * One row per workspace (`default` for the default one); `data` holds the state file's JSON.
//! * Locks are session-level advisory locks, taken with Terraform's query: the row's `id` for an
//!   existing workspace, `-1` while a workspace is being created. ferro names its lock in the
//!   session's `application_name` (`ferro:<lock ID>:<operation>`) so the loser of a race, and
//!   `force-unlock`, can find the holder through `pg_locks` and `pg_stat_activity` (Terraform
//!   records no lock description for this backend).
//! * Completed changes of an apply are journaled in a local file (given by the caller) between
//!   full writes, and folded by the next load when it continues the snapshot in the database.

use crate::backend::{
    journal_for, loaded, loaded_nothing, opened, persist_remote, save_errored, Backend, Comparable,
};
use crate::codec::read_state;
use crate::journal::Journal;
use crate::lock::{LockError, LockInfo};
use crate::{State, StateError};
use postgres::{Client, NoTls};
use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::time::{Duration, Instant};

pub const DEFAULT_SCHEMA: &str = "terraform_remote_state";
const TABLE: &str = "states";

/// The `backend "pg"` arguments.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PgConfig {
    pub conn_str: String,
    pub schema_name: String,
    pub skip_schema_creation: bool,
    pub skip_table_creation: bool,
    pub skip_index_creation: bool,
}

fn db_err(what: &str, e: postgres::Error) -> StateError {
    // The server's message when there is one ("relation ... does not exist"), else the
    // client's ("error connecting to server: Connection refused").
    let text = match e.as_db_error() {
        Some(d) => d.message().to_string(),
        None => {
            let mut t = e.to_string();
            let mut src = std::error::Error::source(&e);
            while let Some(s) = src {
                let s_text = s.to_string();
                if !t.contains(&s_text) {
                    t.push_str(": ");
                    t.push_str(&s_text);
                }
                src = s.source();
            }
            t
        }
    };
    StateError(format!("{what}: {text}"))
}

/// `pq.QuoteIdentifier`: double quotes around, inner ones doubled.
fn quote_ident(name: &str) -> String {
    let name = name.split('\0').next().unwrap_or_default();
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// A connection to the database holding the states, prepared as Terraform prepares it.
pub struct PgStore {
    client: RefCell<Client>,
    /// The quoted schema name.
    schema: String,
}

impl PgStore {
    pub fn connect(cfg: &PgConfig) -> Result<PgStore, StateError> {
        let mut client = Client::connect(&cfg.conn_str, NoTls)
            .map_err(|e| db_err("failed to connect to PostgreSQL", e))?;
        let schema_name = if cfg.schema_name.is_empty() {
            DEFAULT_SCHEMA
        } else {
            &cfg.schema_name
        };
        let schema = quote_ident(schema_name);
        let prep = |e| db_err("failed to prepare the PostgreSQL database", e);
        if !cfg.skip_schema_creation {
            // Like Terraform: only try to create a schema that is not there, so a role without
            // CREATE on the database can use an existing one.
            let row = client
                .query_one(
                    "select count(1) from information_schema.schemata where schema_name = $1",
                    &[&schema_name],
                )
                .map_err(prep)?;
            let count: i64 = row.get(0);
            if count < 1 {
                client
                    .batch_execute(&format!("CREATE SCHEMA IF NOT EXISTS {schema}"))
                    .map_err(prep)?;
            }
        }
        if !cfg.skip_table_creation {
            client
                .batch_execute(
                    "CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint",
                )
                .map_err(prep)?;
            client
                .batch_execute(&format!(
                    "CREATE TABLE IF NOT EXISTS {schema}.{TABLE} (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text)"
                ))
                .map_err(prep)?;
        }
        if !cfg.skip_index_creation {
            client
                .batch_execute(&format!(
                    "CREATE UNIQUE INDEX IF NOT EXISTS states_by_name ON {schema}.{TABLE} (name)"
                ))
                .map_err(prep)?;
        }
        Ok(PgStore {
            client: RefCell::new(client),
            schema,
        })
    }

    /// Every workspace: `default` first (whether or not it has a row), then the others by name.
    pub fn workspaces(&self) -> Result<Vec<String>, StateError> {
        let rows = self
            .client
            .borrow_mut()
            .query(
                &format!(
                    "SELECT name FROM {}.{TABLE} WHERE name != 'default' ORDER BY name",
                    self.schema
                ),
                &[],
            )
            .map_err(|e| db_err("failed to list workspaces", e))?;
        let mut out = vec![crate::workspace::DEFAULT_WORKSPACE.to_string()];
        out.extend(rows.iter().map(|r| r.get::<_, String>(0)));
        Ok(out)
    }

    /// Remove a workspace's row.
    pub fn delete_workspace(&self, name: &str) -> Result<(), StateError> {
        if name == crate::workspace::DEFAULT_WORKSPACE || name.is_empty() {
            return Err(StateError("can't delete default state".into()));
        }
        self.client
            .borrow_mut()
            .execute(
                &format!("DELETE FROM {}.{TABLE} WHERE name = $1", self.schema),
                &[&name],
            )
            .map(|_| ())
            .map_err(|e| db_err("failed to delete workspace", e))
    }

    /// The stored state text of a workspace (None: no row).
    fn get(&self, name: &str) -> Result<Option<String>, StateError> {
        let row = self
            .client
            .borrow_mut()
            .query_opt(
                &format!("SELECT data FROM {}.{TABLE} WHERE name = $1", self.schema),
                &[&name],
            )
            .map_err(|e| db_err("failed to read state from PostgreSQL", e))?;
        Ok(row.map(|r| r.get::<_, Option<String>>(0).unwrap_or_default()))
    }

    fn put(&self, name: &str, data: &str) -> Result<(), StateError> {
        self.client
            .borrow_mut()
            .execute(
                &format!(
                    "INSERT INTO {s}.{TABLE} (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE {TABLE}.name = $1",
                    s = self.schema
                ),
                &[&name, &data],
            )
            .map(|_| ())
            .map_err(|e| db_err("failed to write state to PostgreSQL", e))
    }

    fn query_bool(&self, sql: &str) -> Result<bool, postgres::Error> {
        let row = self.client.borrow_mut().query_one(sql, &[])?;
        Ok(row.get(0))
    }

    /// One attempt at Terraform's lock of workspace `name`: the advisory lock id taken, or why
    /// not (with the id that is held by someone else).
    fn try_lock(&self, name: &str) -> Result<Result<i64, (String, i64)>, StateError> {
        let err = |e| db_err("failed to lock state in PostgreSQL", e);
        let row = self
            .client
            .borrow_mut()
            .query_opt(
                &format!(
                    "SELECT {TABLE}.id, pg_try_advisory_lock({TABLE}.id), pg_try_advisory_lock(-1) FROM {}.{TABLE} WHERE {TABLE}.name = $1",
                    self.schema
                ),
                &[&name],
            )
            .map_err(err)?;
        let Some(row) = row else {
            // No row yet: the workspace is being created; take the creation lock.
            return if self
                .query_bool("SELECT pg_try_advisory_lock(-1)")
                .map_err(err)?
            {
                Ok(Ok(-1))
            } else {
                Ok(Err((
                    format!("Already locked for workspace creation: {name}"),
                    -1,
                )))
            };
        };
        let (id, locked, locked_create): (i64, bool, bool) = (row.get(0), row.get(1), row.get(2));
        match (locked, locked_create) {
            (false, got_create) => {
                if got_create {
                    self.unlock_id(-1).map_err(err)?;
                }
                Ok(Err((format!("Workspace is already locked: {name}"), id)))
            }
            (true, false) => {
                self.unlock_id(id).map_err(err)?;
                Ok(Err((
                    format!("Cannot lock workspace; already locked for workspace creation: {name}"),
                    -1,
                )))
            }
            (true, true) => {
                self.unlock_id(-1).map_err(err)?;
                Ok(Ok(id))
            }
        }
    }

    fn unlock_id(&self, id: i64) -> Result<(), postgres::Error> {
        self.client
            .borrow_mut()
            .query_one("SELECT pg_advisory_unlock($1)", &[&id])
            .map(|_| ())
    }

    /// The session holding advisory lock `id` in this database, described as a lock.
    fn holder(&self, id: i64) -> Option<(i32, LockInfo)> {
        let row = self
            .client
            .borrow_mut()
            .query_opt(
                "SELECT a.pid, coalesce(a.usename::text, ''), coalesce(host(a.client_addr), 'local'), \
                 coalesce(a.application_name, ''), \
                 to_char(a.backend_start AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"') \
                 FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
                 WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 \
                 AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
                 AND ((l.classid::bigint << 32) | l.objid::bigint) = $1 \
                 AND l.pid <> pg_backend_pid() LIMIT 1",
                &[&id],
            )
            .ok()??;
        let pid: i32 = row.get(0);
        let user: String = row.get(1);
        let addr: String = row.get(2);
        let app: String = row.get(3);
        let started: String = row.get(4);
        let (lock_id, operation, ferro) = parse_application_name(&app);
        Some((
            pid,
            LockInfo {
                id: lock_id,
                operation,
                info: format!(
                    "held by PostgreSQL backend process {pid}{}",
                    if ferro {
                        " (ferro)".to_string()
                    } else if app.is_empty() {
                        String::new()
                    } else {
                        format!(" (application {app:?})")
                    }
                ),
                who: format!("{user}@{addr}"),
                version: String::new(),
                created: started,
                path: id.to_string(),
            },
        ))
    }

    /// End the session holding ferro's lock `lock_id` on any workspace of this database (its
    /// advisory locks go with it). Returns whether one was found.
    pub fn force_unlock(&self, lock_id: &str) -> Result<bool, StateError> {
        let pattern = format!("ferro:{lock_id}:%");
        let rows = self
            .client
            .borrow_mut()
            .query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                 WHERE application_name LIKE $1 AND datname = current_database() AND pid <> pg_backend_pid()",
                &[&pattern],
            )
            .map_err(|e| db_err("failed to unlock state", e))?;
        Ok(rows.iter().any(|r| r.get::<_, bool>(0)))
    }
}

/// `ferro:<id>:<operation>` → (id, operation, true); anything else → empty, false.
fn parse_application_name(app: &str) -> (String, String, bool) {
    match app
        .strip_prefix("ferro:")
        .and_then(|rest| rest.split_once(':'))
    {
        Some((id, op)) => (id.to_string(), op.to_string(), true),
        None => (String::new(), String::new(), false),
    }
}

/// One workspace of the PostgreSQL backend.
pub struct PgBackend {
    store: PgStore,
    workspace: String,
    /// The advisory lock id held and its description.
    lock: Option<(i64, LockInfo)>,
    last: RefCell<Option<(Comparable, u64)>>,
    unreadable: Cell<bool>,
    journal: Journal,
    errored_dir: Option<PathBuf>,
}

impl PgBackend {
    /// The state of `workspace` in `store`; completed changes are journaled at `journal_path`.
    pub fn new(store: PgStore, workspace: &str, journal_path: PathBuf) -> PgBackend {
        PgBackend {
            store,
            workspace: workspace.to_string(),
            lock: None,
            last: RefCell::new(None),
            unreadable: Cell::new(false),
            journal: Journal::new(journal_path),
            errored_dir: None,
        }
    }

    pub fn store(&self) -> &PgStore {
        &self.store
    }
}

impl Backend for PgBackend {
    fn lock(
        &mut self,
        operation: &str,
        _display: &str,
        timeout: Duration,
    ) -> Result<(), LockError> {
        if self.lock.is_some() {
            return Ok(());
        }
        let deadline = Instant::now() + timeout;
        let mut delay = Duration::from_millis(50);
        // The lock is named in the session before it is taken, where a loser reads it: named
        // after, a loser that read in between would find the holder's session unnamed.
        let mut info = LockInfo::new(operation, "");
        let name: String = format!("ferro:{}:{operation}", info.id);
        let _ = self
            .store
            .client
            .borrow_mut()
            .query_one("SELECT set_config('application_name', $1, false)", &[&name]);
        loop {
            let attempt = self
                .store
                .try_lock(&self.workspace)
                .map_err(|e| LockError {
                    message: e.0,
                    holder: None,
                })?;
            match attempt {
                Ok(id) => {
                    info.path = id.to_string();
                    self.lock = Some((id, info));
                    return Ok(());
                }
                Err((message, held)) => {
                    if Instant::now() >= deadline {
                        let holder = self.store.holder(held).map(|(_, i)| i);
                        let _ = self
                            .store
                            .client
                            .borrow_mut()
                            .batch_execute("SET application_name = ''");
                        return Err(LockError { message, holder });
                    }
                }
            }
            std::thread::sleep(delay.min(deadline.saturating_duration_since(Instant::now())));
            delay = (delay * 2).min(Duration::from_secs(1));
        }
    }

    fn lock_info(&self) -> Option<&LockInfo> {
        self.lock.as_ref().map(|(_, i)| i)
    }

    fn unlock(&mut self) {
        if let Some((id, _)) = self.lock.take() {
            let _ = self.store.unlock_id(id);
            let _ = self
                .store
                .client
                .borrow_mut()
                .batch_execute("SET application_name = ''");
        }
    }

    fn load(&self) -> Result<Option<State>, StateError> {
        let text = self.store.get(&self.workspace)?;
        let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
            self.unreadable.set(false);
            return loaded_nothing(&self.journal);
        };
        let state = opened(&self.journal, text.as_bytes())
            .and_then(|b| read_state(&b))
            .map_err(|e| {
                self.unreadable.set(true);
                StateError(format!(
                    "failed to load the state of workspace {:?} from PostgreSQL: {e}",
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
        persist_remote(&journal, last, state, |text| store.put(workspace, text))
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

impl Drop for PgBackend {
    fn drop(&mut self) {
        self.unlock();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_lock_names() {
        assert_eq!(
            quote_ident("terraform_remote_state"),
            "\"terraform_remote_state\""
        );
        assert_eq!(quote_ident("a\"b"), "\"a\"\"b\"");
        assert_eq!(
            parse_application_name("ferro:6c75b395-ff44-9451-3c33-8461e870cdce:OperationTypeApply"),
            (
                "6c75b395-ff44-9451-3c33-8461e870cdce".to_string(),
                "OperationTypeApply".to_string(),
                true
            )
        );
        assert!(!parse_application_name("psql").2);
    }
}
