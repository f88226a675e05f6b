//! The server loop: messages are read on a thread of their own and queued; the loop looks ahead
//! in the queue so a request cancelled before it ran is answered `RequestCancelled`, applies
//! notifications to the database, answers requests, and publishes diagnostics when the queue
//! is empty or a request follows edits (so a burst of edits is analysed once); the
//! whole-workspace dependency-cycle check follows when the input has been quiet for a moment. A panic in a handler becomes an
//! `InternalError` answer; the server keeps running.

use crate::lines::{path_to_uri, uri_to_path, LineIndex};
use crate::rpc::{self, code, Message};
use crate::world::World;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::mpsc;

/// A JSON-RPC error: code and message.
pub type RpcError = (i64, String);

pub fn invalid_params(msg: impl Into<String>) -> RpcError {
    (code::INVALID_PARAMS, msg.into())
}

pub struct Server<'w> {
    out: &'w mut dyn Write,
    pub world: Option<World>,
    shutdown: bool,
    pub utf8: bool,
    /// What was last published per document, so only changes are sent.
    published: HashMap<PathBuf, Vec<Value>>,
    dirty: bool,
    /// The dependency-cycle check is still to be done for the latest edits.
    cycles_pending: bool,
    watch_registration: bool,
    /// Open test files (`*.tftest.hcl`, …), which are not configuration: their texts, whose
    /// diagnostics are `ferro-test`'s reading of them.
    test_docs: HashMap<PathBuf, String>,
}

/// How long the input must be quiet before the whole-workspace dependency-cycle check runs.
const CYCLE_CHECK_QUIET: std::time::Duration = std::time::Duration::from_millis(300);

/// Serve LSP on `input`/`output` until `exit` or the end of the input; returns the exit code
/// (0 after `shutdown` then `exit`, 1 otherwise, as the protocol asks).
pub fn serve(input: impl BufRead + Send + 'static, output: &mut dyn Write) -> i32 {
    let (tx, rx) = mpsc::channel::<Message>();
    let reader = std::thread::spawn(move || {
        let mut input = input;
        loop {
            match rpc::read_message(&mut input) {
                Ok(Some(m)) => {
                    if tx.send(m).is_err() {
                        break;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    eprintln!("ferro lsp: cannot read a message: {e}");
                    break;
                }
            }
        }
    });
    let mut server = Server {
        out: output,
        world: None,
        shutdown: false,
        utf8: false,
        published: HashMap::new(),
        dirty: false,
        cycles_pending: false,
        watch_registration: false,
        test_docs: HashMap::new(),
    };
    let code = server.run(&rx);
    drop(rx);
    // The reader ends at the end of the input; at `exit` it may still be blocked reading.
    if reader.is_finished() {
        let _ = reader.join();
    }
    code
}

fn cancel_id(m: &Message) -> Option<&Value> {
    match m {
        Message::Notification { method, params } if method == "$/cancelRequest" => params.get("id"),
        _ => None,
    }
}

impl Server<'_> {
    fn run(&mut self, rx: &mpsc::Receiver<Message>) -> i32 {
        let mut queue: VecDeque<Message> = VecDeque::new();
        loop {
            while let Ok(m) = rx.try_recv() {
                queue.push_back(m);
            }
            if queue.is_empty() {
                if self.dirty {
                    self.publish_diagnostics(false);
                }
                if self.cycles_pending {
                    // The cycle check walks the whole item graph: it waits for a quiet moment.
                    match rx.recv_timeout(CYCLE_CHECK_QUIET) {
                        Ok(m) => queue.push_back(m),
                        Err(mpsc::RecvTimeoutError::Timeout) => self.publish_diagnostics(true),
                        Err(mpsc::RecvTimeoutError::Disconnected) => return 1,
                    }
                    continue;
                }
                match rx.recv() {
                    Ok(m) => queue.push_back(m),
                    Err(_) => return 1,
                }
                continue;
            }
            let cancelled: Vec<Value> = queue.iter().filter_map(cancel_id).cloned().collect();
            let Some(msg) = queue.pop_front() else {
                continue;
            };
            // A request sees (and comes after) the diagnostics of the edits before it.
            if self.dirty && matches!(msg, Message::Request { .. }) {
                self.publish_diagnostics(false);
            }
            match msg {
                Message::Request { id, .. } if cancelled.contains(&id) => {
                    self.send(&rpc::error_response(
                        &id,
                        code::REQUEST_CANCELLED,
                        "the request was cancelled",
                    ));
                }
                Message::Request { id, method, params } => {
                    let reply = self.request(&method, &params);
                    let v = match reply {
                        Ok(result) => rpc::response(&id, result),
                        Err((c, m)) => rpc::error_response(&id, c, &m),
                    };
                    self.send(&v);
                }
                Message::Notification { method, .. } if method == "exit" => {
                    return if self.shutdown { 0 } else { 1 };
                }
                Message::Notification { method, params } => {
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        self.notification(&method, &params)
                    }));
                    if r.is_err() {
                        self.log(&format!("the notification {method} failed (a ferro bug)"));
                    }
                }
                Message::Response => {}
                Message::Invalid { id, code, message } => {
                    self.send(&rpc::error_response(&id, code, &message));
                }
            }
        }
    }

    fn send(&mut self, v: &Value) {
        if let Err(e) = rpc::write_message(self.out, v) {
            eprintln!("ferro lsp: cannot write a message: {e}");
        }
    }

    fn log(&mut self, message: &str) {
        self.send(&rpc::notification(
            "window/logMessage",
            json!({"type": 1, "message": message}),
        ));
    }

    fn request(&mut self, method: &str, params: &Value) -> Result<Value, RpcError> {
        if method == "initialize" {
            return self.initialize(params);
        }
        if self.world.is_none() {
            return Err((
                code::SERVER_NOT_INITIALIZED,
                "the server has not been initialized".into(),
            ));
        }
        if method == "shutdown" {
            self.shutdown = true;
            return Ok(Value::Null);
        }
        if self.shutdown {
            return Err((code::INVALID_REQUEST, "the server is shutting down".into()));
        }
        let utf8 = self.utf8;
        // Test files are not configuration: completion there knows their blocks.
        if method == "textDocument/completion" {
            let path = params
                .pointer("/textDocument/uri")
                .and_then(Value::as_str)
                .and_then(uri_to_path);
            if let Some(text) = path.and_then(|p| self.test_docs.get(&p)) {
                let idx = LineIndex::new(text, utf8);
                let offset = params
                    .get("position")
                    .and_then(|p| idx.offset_of(p))
                    .unwrap_or(0);
                return Ok(crate::features::test_files::completion(text, offset));
            }
        }
        let Some(world) = self.world.as_ref() else {
            return Err((code::INTERNAL_ERROR, "no workspace".into()));
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::features::dispatch(world, method, params, utf8)
        }));
        match r {
            Ok(r) => r,
            Err(_) => Err((
                code::INTERNAL_ERROR,
                format!("{method} failed (a ferro bug); the server keeps running"),
            )),
        }
    }

    fn initialize(&mut self, params: &Value) -> Result<Value, RpcError> {
        if self.world.is_some() {
            return Err((
                code::INVALID_REQUEST,
                "initialize was already called".into(),
            ));
        }
        let root = params
            .get("workspaceFolders")
            .and_then(|f| f.get(0))
            .and_then(|f| f.get("uri"))
            .and_then(Value::as_str)
            .or_else(|| params.get("rootUri").and_then(Value::as_str))
            .and_then(uri_to_path)
            .or_else(|| {
                params
                    .get("rootPath")
                    .and_then(Value::as_str)
                    .map(PathBuf::from)
            })
            .or_else(|| std::env::current_dir().ok())
            .unwrap_or_else(|| PathBuf::from("/"));
        let caps = params.get("capabilities").cloned().unwrap_or(Value::Null);
        let encodings = caps
            .pointer("/general/positionEncodings")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        self.utf8 = encodings.iter().any(|e| e == "utf-8");
        self.watch_registration = caps
            .pointer("/workspace/didChangeWatchedFiles/dynamicRegistration")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        self.world = Some(World::new(root));
        self.dirty = true;
        Ok(json!({
            "capabilities": crate::features::capabilities(self.utf8),
            "serverInfo": {"name": "ferro-lsp", "version": env!("CARGO_PKG_VERSION")},
        }))
    }

    fn notification(&mut self, method: &str, params: &Value) {
        if method == "initialized" {
            if self.watch_registration {
                let watchers = json!([
                    {"globPattern": "**/*.tf"},
                    {"globPattern": "**/*.tf.json"},
                    {"globPattern": "**/*.tofu"},
                    {"globPattern": "**/*.tofu.json"},
                    {"globPattern": "**/.terraform/ferro-schemas.json"},
                ]);
                self.send(&json!({
                    "jsonrpc": "2.0",
                    "id": "ferro-watch",
                    "method": "client/registerCapability",
                    "params": {"registrations": [{
                        "id": "ferro-watch",
                        "method": "workspace/didChangeWatchedFiles",
                        "registerOptions": {"watchers": watchers},
                    }]},
                }));
            }
            return;
        }
        if self.test_document(method, params) {
            self.dirty = true;
            return;
        }
        let Some(world) = self.world.as_mut() else {
            return;
        };
        let doc_path = || {
            params
                .pointer("/textDocument/uri")
                .and_then(Value::as_str)
                .and_then(uri_to_path)
        };
        let version = params
            .pointer("/textDocument/version")
            .and_then(Value::as_i64)
            .unwrap_or(0);
        match method {
            "textDocument/didOpen" => {
                let (Some(path), Some(text)) = (
                    doc_path(),
                    params.pointer("/textDocument/text").and_then(Value::as_str),
                ) else {
                    return;
                };
                world.open(&path, text.to_string(), version);
            }
            "textDocument/didChange" => {
                let Some(path) = doc_path() else { return };
                let Some(file) = world.file(&path) else {
                    return;
                };
                let mut text = file.text(&world.db).clone();
                for change in params
                    .get("contentChanges")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    apply_change(&mut text, change, self.utf8);
                }
                world.set_text(&path, text, version);
            }
            "textDocument/didClose" => {
                let Some(path) = doc_path() else { return };
                world.close(&path);
            }
            "workspace/didChangeWatchedFiles" => {
                for ch in params
                    .get("changes")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let Some(path) = ch.get("uri").and_then(Value::as_str).and_then(uri_to_path)
                    else {
                        continue;
                    };
                    if path.ends_with(crate::schemas::CACHE_FILE) {
                        world.reload_schemas();
                    } else {
                        world.disk_changed(&path);
                    }
                }
            }
            _ => return,
        }
        self.dirty = true;
    }

    /// Publish the diagnostics of every file whose set changed since the last time; with
    /// `cycles`, including the dependency-cycle check (otherwise it is left for later).
    fn publish_diagnostics(&mut self, cycles: bool) {
        self.dirty = false;
        self.cycles_pending = !cycles;
        let Some(world) = self.world.as_ref() else {
            return;
        };
        let utf8 = self.utf8;
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut by_file: HashMap<PathBuf, Vec<Value>> = HashMap::new();
            for f in world.all_files() {
                by_file.insert(world.path_of(f), Vec::new());
            }
            for d in world.diagnostics_with(cycles) {
                let Some(span) = d.span else { continue };
                let Some(file) = world.file_by_id(span.file) else {
                    continue;
                };
                if let Some(v) = crate::validate::to_lsp(world, &d, utf8) {
                    by_file.entry(world.path_of(file)).or_default().push(v);
                }
            }
            by_file
        }));
        let Ok(mut by_file) = r else {
            self.log("computing diagnostics failed (a ferro bug)");
            return;
        };
        for (path, text) in &self.test_docs {
            by_file.insert(path.clone(), test_file_diagnostics(path, text, utf8));
        }
        let mut paths: Vec<&PathBuf> = by_file.keys().collect();
        // Files that had diagnostics and are gone now are cleared too.
        let gone: Vec<PathBuf> = self
            .published
            .keys()
            .filter(|p| !by_file.contains_key(*p))
            .cloned()
            .collect();
        paths.sort();
        let mut messages = Vec::new();
        for p in paths {
            let diags = &by_file[p];
            let before = self.published.get(p);
            if before.map(|b| b == diags).unwrap_or(diags.is_empty()) {
                continue;
            }
            messages.push((p.clone(), diags.clone()));
        }
        for p in gone {
            messages.push((p, Vec::new()));
        }
        for (p, diags) in messages {
            self.send(&rpc::notification(
                "textDocument/publishDiagnostics",
                json!({"uri": path_to_uri(&p), "diagnostics": diags}),
            ));
            if diags.is_empty() {
                self.published.remove(&p);
            } else {
                self.published.insert(p, diags);
            }
        }
    }
}

impl Server<'_> {
    /// Open, change or close a test file; false when the notification is not about one.
    fn test_document(&mut self, method: &str, params: &Value) -> bool {
        let Some(path) = params
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .and_then(uri_to_path)
        else {
            return false;
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !ferro_test::is_test_file(&name) {
            return false;
        }
        match method {
            "textDocument/didOpen" => {
                let text = params
                    .pointer("/textDocument/text")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                self.test_docs.insert(path, text.to_string());
            }
            "textDocument/didChange" => {
                let utf8 = self.utf8;
                let Some(text) = self.test_docs.get_mut(&path) else {
                    return true;
                };
                for change in params
                    .get("contentChanges")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    apply_change(text, change, utf8);
                }
            }
            "textDocument/didClose" => {
                self.test_docs.remove(&path);
            }
            _ => return false,
        }
        true
    }
}

/// The diagnostics of a test file's text, as LSP diagnostics.
fn test_file_diagnostics(path: &std::path::Path, text: &str, utf8: bool) -> Vec<Value> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let file = ferro_diag::FileId(u32::MAX - 2);
    let parsed = ferro_test::parse_test_file(&name, file, text, name.ends_with(".json"));
    let idx = crate::lines::LineIndex::new(text, utf8);
    parsed
        .diags
        .iter()
        .filter_map(|d| {
            let span = d.span?;
            Some(json!({
                "range": idx.range(span.start as usize, span.end as usize),
                "severity": if d.is_error() { 1 } else { 2 },
                "code": d.code,
                "source": "ferro",
                "message": crate::validate::message(d),
            }))
        })
        .collect()
}

/// Apply one `TextDocumentContentChangeEvent` (a range edit, or the whole text).
pub fn apply_change(text: &mut String, change: &Value, utf8: bool) {
    let Some(new) = change.get("text").and_then(Value::as_str) else {
        return;
    };
    match change.get("range") {
        Some(range) if !range.is_null() => {
            let idx = LineIndex::new(text, utf8);
            let (Some(s), Some(e)) = (
                range.get("start").and_then(|p| idx.offset_of(p)),
                range.get("end").and_then(|p| idx.offset_of(p)),
            ) else {
                return;
            };
            let (s, e) = (s.min(e), s.max(e));
            text.replace_range(s..e, new);
        }
        _ => *text = new.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_cancelled_before_it_runs_gets_request_cancelled() {
        let (tx, rx) = mpsc::channel();
        let req = |id: i64, method: &str, params: Value| Message::Request {
            id: json!(id),
            method: method.into(),
            params,
        };
        let note = |method: &str, params: Value| Message::Notification {
            method: method.into(),
            params,
        };
        let root = std::env::temp_dir().join(format!("ferro-lsp-cancel-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&root);
        let uri = crate::lines::path_to_uri(&root);
        tx.send(req(
            1,
            "initialize",
            json!({"rootUri": uri, "capabilities": {}}),
        ))
        .unwrap();
        tx.send(req(2, "workspace/symbol", json!({"query": ""})))
            .unwrap();
        tx.send(note("$/cancelRequest", json!({"id": 2}))).unwrap();
        tx.send(req(3, "workspace/symbol", json!({"query": ""})))
            .unwrap();
        tx.send(req(4, "shutdown", Value::Null)).unwrap();
        tx.send(note("exit", Value::Null)).unwrap();
        let mut out = Vec::new();
        let mut server = Server {
            out: &mut out,
            world: None,
            shutdown: false,
            utf8: false,
            published: HashMap::new(),
            dirty: false,
            cycles_pending: false,
            watch_registration: false,
            test_docs: HashMap::new(),
        };
        assert_eq!(server.run(&rx), 0);
        let mut r = std::io::BufReader::new(&out[..]);
        let mut answers = HashMap::new();
        while let Ok(Some(_)) = rpc::read_message(&mut r) {}
        // Read the frames again as plain JSON: responses are not requests.
        let text = String::from_utf8(out.clone()).unwrap();
        for body in text.split("Content-Length: ").skip(1) {
            let json_start = body.find('{').unwrap();
            let v: Value = serde_json::from_str(&body[json_start..]).unwrap();
            if let Some(id) = v.get("id").and_then(Value::as_i64) {
                answers.insert(id, v);
            }
        }
        let _ = std::fs::remove_dir_all(&root);
        assert_eq!(answers[&2]["error"]["code"], code::REQUEST_CANCELLED);
        assert!(answers[&3]["result"].is_array());
        assert_eq!(answers[&4]["result"], Value::Null);
    }
}
