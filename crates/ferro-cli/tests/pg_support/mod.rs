//! Shared helpers of the PostgreSQL backend tests: the server (from `FERRO_PG_CONN_STR`, or
//! started with `tools/pg-test-server.sh`), one fresh database per test, running ferro and
//! Terraform, and waiting for an advisory lock to be held.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const FERRO: &str = env!("CARGO_BIN_EXE_ferro");

/// The test server's connection string. Never skips: no server is a test failure.
pub fn server() -> String {
    if let Ok(c) = std::env::var("FERRO_PG_CONN_STR") {
        if !c.is_empty() {
            return c;
        }
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/pg-test-server.sh");
    let out = Command::new("bash").arg(&script).output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        Ok(o) => panic!(
            "no PostgreSQL server for the pg backend tests: FERRO_PG_CONN_STR is not set and tools/pg-test-server.sh failed:\n{}\nStart one with: export FERRO_PG_CONN_STR=\"$(tools/pg-test-server.sh)\"",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!("no PostgreSQL server for the pg backend tests: FERRO_PG_CONN_STR is not set and tools/pg-test-server.sh could not run: {e}"),
    }
}

/// A database of its own for one test (advisory locks are per database), dropped at the end.
pub struct Db {
    pub conn: String,
    admin: String,
    name: String,
}

impl Db {
    pub fn new(tag: &str) -> Db {
        let admin = server();
        let name = format!(
            "ferro_{tag}_{}",
            &ferro_state::new_lineage().replace('-', "")[..12]
        );
        let mut c = postgres::Client::connect(&admin, postgres::NoTls).unwrap_or_else(|e| {
            panic!("cannot reach the PostgreSQL test server at {admin}: {e}. Start one with: export FERRO_PG_CONN_STR=\"$(tools/pg-test-server.sh)\"")
        });
        c.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
        let conn = with_database(&admin, &name);
        Db { conn, admin, name }
    }

    pub fn client(&self) -> postgres::Client {
        postgres::Client::connect(&self.conn, postgres::NoTls).unwrap()
    }

    /// Names and state texts of the rows of `terraform_remote_state.states`.
    pub fn rows(&self) -> Vec<(String, String)> {
        self.client()
            .query(
                "SELECT name, coalesce(data, '') FROM terraform_remote_state.states ORDER BY name",
                &[],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect()
    }

    /// Wait until some session holds an advisory lock in this database.
    pub fn wait_for_lock(&self) {
        let mut c = self.client();
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let n: i64 = c
                .query_one(
                    "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                    &[],
                )
                .unwrap()
                .get(0);
            if n > 0 {
                return;
            }
            assert!(Instant::now() < deadline, "nobody took the lock");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        if let Ok(mut c) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = c.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

/// `postgres://user@host:port/DB?params` with DB replaced.
fn with_database(url: &str, db: &str) -> String {
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let path_start = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    let q = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    format!("{}/{db}{q}", &base[..path_start])
}

pub struct TempDir(pub PathBuf);
impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!(
            "ferro-pg-{tag}-{}-{}",
            std::process::id(),
            ferro_state::new_lineage()
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    pub fn write(&self, name: &str, text: &str) {
        std::fs::write(self.0.join(name), text).unwrap();
    }
}
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A backend block for `conn`.
pub fn backend(conn: &str) -> String {
    format!("terraform {{\n  backend \"pg\" {{\n    conn_str = \"{conn}\"\n  }}\n}}\n")
}

pub fn terraform() -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/fetch-oracles.sh");
    let out = Command::new("bash").arg(&script).output().unwrap();
    assert!(out.status.success(), "tools/fetch-oracles.sh failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("export TERRAFORM=").map(str::to_string))
        .expect("TERRAFORM from fetch-oracles.sh")
}

/// Start `program args` in `dir` with a piped stdin (it stops at the approval prompt, holding
/// the lock).
pub fn start(program: &str, dir: &Path, args: &[&str]) -> Child {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("TF_IN_AUTOMATION", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

pub fn run(program: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("TF_IN_AUTOMATION", "1")
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Run and require exit code 0; returns standard output.
pub fn ok(program: &str, dir: &Path, args: &[&str]) -> String {
    let o = run(program, dir, args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{program} {args:?} failed:\n{}\n{}",
        text(&o.stdout),
        text(&o.stderr)
    );
    text(&o.stdout)
}

pub fn approve(mut child: Child) -> Output {
    child.stdin.take().unwrap().write_all(b"yes\n").unwrap();
    child.wait_with_output().unwrap()
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}
