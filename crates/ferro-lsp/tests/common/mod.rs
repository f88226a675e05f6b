//! An in-process LSP client for the tests: the server runs on a thread, connected by channels.

#![allow(dead_code)]

use ferro_lsp::lines::path_to_uri;
use ferro_lsp::rpc::write_message;
use serde_json::{json, Value};
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// Bytes arriving on a channel, read as a stream (the end of the channel is the end of input).
pub struct ChannelReader {
    rx: mpsc::Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for ChannelReader {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ChannelReader {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.pos >= self.buf.len() {
            match self.rx.recv() {
                Ok(b) => {
                    self.buf = b;
                    self.pos = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.buf[self.pos..])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

pub struct ChannelWriter(mpsc::Sender<Vec<u8>>);

impl Write for ChannelWriter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let _ = self.0.send(b.to_vec());
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub struct Client {
    to_server: Option<mpsc::Sender<Vec<u8>>>,
    from_server: ChannelReader,
    pub notifications: Vec<Value>,
    next_id: i64,
    server: Option<std::thread::JoinHandle<i32>>,
    pub root: PathBuf,
}

impl Client {
    /// Start a server and initialize it on `root`.
    pub fn start(root: &Path) -> Client {
        let mut c = Client::spawn(root);
        let r = c.request(
            "initialize",
            json!({"rootUri": path_to_uri(root), "capabilities": {}}),
        );
        assert!(r.get("result").is_some(), "{r}");
        c.notify("initialized", json!({}));
        c
    }

    /// Start a server without initializing it.
    pub fn spawn(root: &Path) -> Client {
        let (tx_in, rx_in) = mpsc::channel::<Vec<u8>>();
        let (tx_out, rx_out) = mpsc::channel::<Vec<u8>>();
        let server = std::thread::spawn(move || {
            let input = ChannelReader {
                rx: rx_in,
                buf: Vec::new(),
                pos: 0,
            };
            let mut out = ChannelWriter(tx_out);
            ferro_lsp::serve(input, &mut out)
        });
        Client {
            to_server: Some(tx_in),
            from_server: ChannelReader {
                rx: rx_out,
                buf: Vec::new(),
                pos: 0,
            },
            notifications: Vec::new(),
            next_id: 1,
            server: Some(server),
            root: root.to_path_buf(),
        }
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        if let Some(tx) = &self.to_server {
            let _ = tx.send(bytes.to_vec());
        }
    }

    pub fn send(&mut self, v: &Value) {
        let mut buf = Vec::new();
        write_message(&mut buf, v).unwrap();
        self.send_raw(&buf);
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Send a request without waiting; returns its id.
    pub fn send_request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// Wait for the response to request `id` (collecting notifications meanwhile).
    pub fn response(&mut self, id: i64) -> Value {
        let (done, watchdog) = mpsc::channel::<()>();
        // Reading blocks; a watchdog turns a hang into a failure.
        std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) =
                watchdog.recv_timeout(Duration::from_secs(60))
            {
                eprintln!("the server did not answer within 60 s");
                std::process::exit(101);
            }
        });
        let _done = done;
        loop {
            let mut buf = Vec::new();
            let raw = self.recv_raw(&mut buf);
            if raw.get("id") == Some(&json!(id)) && raw.get("method").is_none() {
                return raw;
            }
            if raw.get("method").is_some() {
                self.notifications.push(raw);
            }
        }
    }

    fn recv_raw(&mut self, _buf: &mut Vec<u8>) -> Value {
        // Parse the frame ourselves: responses are not requests or notifications.
        let mut len = 0usize;
        loop {
            let mut line = String::new();
            self.from_server.read_line(&mut line).unwrap();
            assert!(!line.is_empty(), "the server closed its output");
            let t = line.trim_end();
            if t.is_empty() {
                break;
            }
            if let Some(v) = t.strip_prefix("Content-Length:") {
                len = v.trim().parse().unwrap();
            }
        }
        let mut body = vec![0; len];
        self.from_server.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(id)
    }

    /// The result of a request that must succeed.
    pub fn result(&mut self, method: &str, params: Value) -> Value {
        let r = self.request(method, params);
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        r["result"].clone()
    }

    /// Wait until diagnostics for `uri` are published (newest first among those received).
    pub fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        // A round trip guarantees the server went idle (and published) after earlier messages.
        let _ = self.request("workspace/symbol", json!({"query": "\u{0}none"}));
        let _ = self.request("workspace/symbol", json!({"query": "\u{0}none"}));
        self.notifications
            .iter()
            .rev()
            .find(|n| n["method"] == "textDocument/publishDiagnostics" && n["params"]["uri"] == uri)
            .map(|n| {
                n["params"]["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
            .unwrap_or_default()
    }

    pub fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": text}}),
        );
    }

    pub fn uri(&self, rel: &str) -> String {
        path_to_uri(&self.root.join(rel))
    }

    /// Wait for the server to end; its exit code.
    pub fn join(mut self) -> i32 {
        self.to_server.take();
        self.server.take().unwrap().join().unwrap()
    }

    /// shutdown + exit; returns the server's exit code.
    pub fn shutdown(mut self) -> i32 {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        self.notify("exit", Value::Null);
        self.to_server.take();
        self.server.take().unwrap().join().unwrap()
    }
}

/// A fresh directory with the given files, removed when the test is over unless it failed.
pub fn workspace(name: &str, files: &[(&str, &str)]) -> Workspace {
    let dir = std::env::temp_dir().join(format!("ferro-lsp-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (p, text) in files {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    Workspace(dir)
}

/// A test's workspace directory (see [`workspace`]).
pub struct Workspace(PathBuf);

impl std::ops::Deref for Workspace {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// (line, character) of the first occurrence of `needle` in `text`, plus `delta` characters.
pub fn pos(text: &str, needle: &str, delta: usize) -> Value {
    let i = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in text"))
        + delta;
    let line = text[..i].matches('\n').count();
    let col = i - text[..i].rfind('\n').map(|x| x + 1).unwrap_or(0);
    json!({"line": line, "character": col})
}
