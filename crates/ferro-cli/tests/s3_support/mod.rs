//! Shared helpers of the s3 and http backend tests: the moto server (from
//! `FERRO_MOTO_ENDPOINT`, or started with `tools/moto-test-server.sh`), one fresh bucket and
//! lock table per test, running ferro (and Terraform) with test credentials, and a small HTTP
//! state server speaking Terraform's http backend protocol.

#![allow(dead_code)]

use ferro_state::aws::dynamodb::DynamoDbClient;
use ferro_state::aws::s3::S3Client;
use ferro_state::aws::{http_agent, AwsCredentials, Session};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const FERRO: &str = env!("CARGO_BIN_EXE_ferro");
pub const REGION: &str = "us-east-1";

/// The moto endpoint. Never skips: no server is a test failure.
pub fn endpoint() -> String {
    if let Ok(c) = std::env::var("FERRO_MOTO_ENDPOINT") {
        if !c.is_empty() {
            return c;
        }
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/moto-test-server.sh");
    let out = Command::new("bash").arg(&script).output();
    match out {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).trim().to_string(),
        Ok(o) => panic!(
            "no S3 API server for the s3 backend tests: FERRO_MOTO_ENDPOINT is not set and tools/moto-test-server.sh failed:\n{}\nStart one with: export FERRO_MOTO_ENDPOINT=\"$(tools/moto-test-server.sh)\"",
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!("no S3 API server for the s3 backend tests: tools/moto-test-server.sh could not run: {e}"),
    }
}

fn session() -> Arc<Session> {
    Arc::new(Session {
        agent: http_agent(false),
        creds: AwsCredentials {
            access_key_id: "test".into(),
            secret_access_key: "test".into(),
            session_token: None,
        },
        region: REGION.into(),
    })
}

/// A bucket and a lock table of their own for one test.
pub struct Bucket {
    pub endpoint: String,
    pub name: String,
    pub table: String,
    pub s3: S3Client,
    pub ddb: DynamoDbClient,
}

impl Bucket {
    pub fn new(tag: &str) -> Bucket {
        let endpoint = endpoint();
        let id = &ferro_state::new_lineage().replace('-', "")[..10];
        let name = format!("ferro-{tag}-{id}");
        let table = format!("locks-{tag}-{id}");
        let s3 = S3Client {
            session: session(),
            endpoint: endpoint.clone(),
            path_style: true,
        };
        let ddb = DynamoDbClient {
            session: session(),
            endpoint: endpoint.clone(),
        };
        s3.create_bucket(&name).unwrap_or_else(|e| {
            panic!("cannot create a bucket on the moto server at {endpoint}: {e}")
        });
        ddb.create_lock_table(&table).unwrap();
        Bucket {
            endpoint,
            name,
            table,
            s3,
            ddb,
        }
    }

    /// Every key of the bucket.
    pub fn keys(&self) -> Vec<String> {
        self.s3.list_keys(&self.name, "").unwrap()
    }

    pub fn object(&self, key: &str) -> Option<String> {
        self.s3
            .get_object(&self.name, key)
            .unwrap()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
    }

    /// The lock table's items: LockID → the other attributes.
    pub fn items(
        &self,
    ) -> std::collections::BTreeMap<String, std::collections::BTreeMap<String, String>> {
        self.ddb
            .scan(&self.table)
            .unwrap()
            .into_iter()
            .map(|mut i| (i.remove("LockID").unwrap_or_default(), i))
            .collect()
    }

    /// Wait until the lock item of `key` exists.
    pub fn wait_for_lock(&self, key: &str) {
        let id = format!("{}/{key}", self.name);
        let deadline = Instant::now() + Duration::from_secs(60);
        while !self.items().contains_key(&id) {
            assert!(Instant::now() < deadline, "nobody took the lock {id}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Wait until the object `key` exists.
    pub fn wait_for_object(&self, key: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.object(key).is_none() {
            assert!(Instant::now() < deadline, "the object {key} never appeared");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A backend block in Terraform 1.0.3's spelling (what it needs to use moto), with the
    /// DynamoDB lock table; `extra` lines go inside.
    pub fn backend(&self, key: &str, extra: &str) -> String {
        format!(
            "terraform {{\n  backend \"s3\" {{\n    bucket = \"{b}\"\n    key = \"{key}\"\n    region = \"{REGION}\"\n    endpoint = \"{e}\"\n    dynamodb_endpoint = \"{e}\"\n    sts_endpoint = \"{e}\"\n    force_path_style = true\n    skip_credentials_validation = true\n    skip_metadata_api_check = true\n    dynamodb_table = \"{t}\"\n{extra}  }}\n}}\n",
            b = self.name,
            e = self.endpoint,
            t = self.table
        )
    }

    /// The same in the newer spelling, locking with a lock file instead of the table.
    pub fn backend_lockfile(&self, key: &str) -> String {
        format!(
            "terraform {{\n  backend \"s3\" {{\n    bucket = \"{b}\"\n    key = \"{key}\"\n    region = \"{REGION}\"\n    endpoints = {{\n      s3 = \"{e}\"\n      sts = \"{e}\"\n    }}\n    use_path_style = true\n    skip_credentials_validation = true\n    use_lockfile = true\n  }}\n}}\n",
            b = self.name,
            e = self.endpoint,
        )
    }
}

pub struct TempDir(pub PathBuf);
impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!(
            "ferro-s3-{tag}-{}-{}",
            std::process::id(),
            ferro_state::new_lineage()
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    pub fn write(&self, name: &str, text: &str) {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(path, text).unwrap();
    }
}
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A command with the test credentials in the environment (and none of the caller's AWS
/// settings).
pub fn command(program: &str, dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(program);
    c.args(args).current_dir(dir).env("TF_IN_AUTOMATION", "1");
    for (k, _) in std::env::vars() {
        if k.starts_with("AWS_") {
            c.env_remove(k);
        }
    }
    c.env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test");
    c
}

/// Start `program args` in `dir` with a piped stdin (it stops at the approval prompt, holding
/// the lock).
pub fn start(program: &str, dir: &Path, args: &[&str]) -> Child {
    command(program, dir, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

pub fn run(program: &str, dir: &Path, args: &[&str]) -> Output {
    command(program, dir, args)
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

/// The `ID:` line of a lock error.
pub fn lock_id(err: &str) -> String {
    err.lines()
        .find_map(|l| l.trim().strip_prefix("ID:"))
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// What the HTTP state server holds and counts.
#[derive(Default)]
pub struct HttpState {
    pub state: Option<Vec<u8>>,
    pub lock: Option<String>,
    /// Requests still to be answered 503 (to exercise retries).
    pub fail_next: usize,
    pub requests: Vec<String>,
    /// The `ID` query parameter of every state write.
    pub write_ids: Vec<String>,
}

/// A small HTTP server for Terraform's http backend protocol, on a free 127.0.0.1 port:
/// `/state` (GET, POST, DELETE) and `/lock` (LOCK, UNLOCK), basic authentication `user:pw`.
/// It runs until the test process ends.
pub struct HttpServer {
    pub url: String,
    pub shared: Arc<Mutex<HttpState>>,
}

impl HttpServer {
    pub fn start() -> HttpServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let shared = Arc::new(Mutex::new(HttpState::default()));
        let s = shared.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let s = s.clone();
                std::thread::spawn(move || serve(conn, &s));
            }
        });
        HttpServer { url, shared }
    }
}

fn serve(mut conn: std::net::TcpStream, shared: &Mutex<HttpState>) {
    let mut reader = BufReader::new(conn.try_clone().unwrap());
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let mut parts = line.split_whitespace();
        let (method, target) = (
            parts.next().unwrap_or_default().to_string(),
            parts.next().unwrap_or_default().to_string(),
        );
        let mut len = 0usize;
        let mut auth = String::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                match k.to_ascii_lowercase().as_str() {
                    "content-length" => len = v.trim().parse().unwrap_or(0),
                    "authorization" => auth = v.trim().to_string(),
                    _ => {}
                }
            }
        }
        let mut body = vec![0u8; len];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let (status, reply) = answer(shared, &method, &target, &auth, body);
        let head = format!(
            "HTTP/1.1 {status} X\r\ncontent-length: {}\r\ncontent-type: application/json\r\n\r\n",
            reply.len()
        );
        if conn.write_all(head.as_bytes()).is_err() || conn.write_all(&reply).is_err() {
            return;
        }
    }
}

fn answer(
    shared: &Mutex<HttpState>,
    method: &str,
    target: &str,
    auth: &str,
    body: Vec<u8>,
) -> (u16, Vec<u8>) {
    let mut s = shared.lock().unwrap();
    s.requests.push(format!("{method} {target}"));
    if s.fail_next > 0 {
        s.fail_next -= 1;
        return (503, Vec::new());
    }
    // "user:pw"
    if auth != "Basic dXNlcjpwdw==" {
        return (401, Vec::new());
    }
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    match (method, path) {
        ("GET", "/state") => match &s.state {
            Some(st) => (200, st.clone()),
            None => (404, Vec::new()),
        },
        ("POST", "/state") => {
            let id = query
                .split('&')
                .find_map(|p| p.strip_prefix("ID="))
                .unwrap_or_default()
                .to_string();
            s.write_ids.push(id);
            s.state = Some(body);
            (200, Vec::new())
        }
        ("DELETE", "/state") => {
            s.state = None;
            (200, Vec::new())
        }
        ("LOCK", "/lock") => match &s.lock {
            Some(held) => (423, held.clone().into_bytes()),
            None => {
                s.lock = Some(String::from_utf8_lossy(&body).into_owned());
                (200, Vec::new())
            }
        },
        ("UNLOCK", "/lock") => {
            let id = |j: &str| {
                serde_json::from_str::<serde_json::Value>(j)
                    .ok()
                    .and_then(|v| v.get("ID")?.as_str().map(str::to_string))
            };
            let asked = id(&String::from_utf8_lossy(&body));
            match &s.lock {
                Some(held) if id(held) == asked => {
                    s.lock = None;
                    (200, Vec::new())
                }
                Some(held) => (409, held.clone().into_bytes()),
                None => (200, Vec::new()),
            }
        }
        _ => (405, Vec::new()),
    }
}
