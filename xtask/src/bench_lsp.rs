//! `cargo xtask bench lsp`: `ferro lsp` on a generated workspace of 500 modules and 20 000
//! resources, driven over stdio as an editor drives it. Reports the initial analysis time
//! (initialize until the first answer, which comes after every file's diagnostics), the
//! server's peak resident memory, the diagnostics latency after a one-character edit, and the
//! completion latency (medians). Targets: < 2 s, < 300 MB, < 50 ms, < 30 ms.

use ferro_lsp::lines::path_to_uri;
use ferro_lsp::rpc::write_message;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

pub const MODULES: usize = 500;
pub const RESOURCES_PER_MODULE: usize = 40;

/// The module file that the edits change.
fn module_main(i: usize) -> String {
    let mut s = format!(
        "variable \"name\" {{\n  type = string\n}}\n\nlocals {{\n  prefix = \"${{var.name}}-{i}\"\n}}\n\n"
    );
    for r in 0..RESOURCES_PER_MODULE {
        let prev = if r == 0 {
            "local.prefix".to_string()
        } else {
            format!("random_id.r{}.hex", r - 1)
        };
        s.push_str(&format!(
            "resource \"random_id\" \"r{r}\" {{\n  byte_length = 4\n  prefix      = {prev}\n}}\n\n"
        ));
    }
    s
}

/// Write the workspace: a root calling 500 modules of 40 resources each.
pub fn write_workspace(dir: &Path) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    let mut root = String::new();
    for i in 0..MODULES {
        root.push_str(&format!(
            "module \"m{i}\" {{\n  source = \"./modules/m{i}\"\n  name   = \"m{i}\"\n}}\n\n"
        ));
        let m = dir.join(format!("modules/m{i}"));
        std::fs::create_dir_all(&m).map_err(io)?;
        std::fs::write(m.join("main.tf"), module_main(i)).map_err(io)?;
        std::fs::write(
            m.join("outputs.tf"),
            format!(
                "output \"last\" {{\n  value = random_id.r{}.hex\n}}\n",
                RESOURCES_PER_MODULE - 1
            ),
        )
        .map_err(io)?;
    }
    root.push_str("output \"first\" {\n  value = module.m0.last\n}\n");
    std::fs::write(dir.join("main.tf"), root).map_err(io)
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

impl Server {
    fn send(&mut self, v: &Value) -> Result<(), String> {
        write_message(&mut self.stdin, v).map_err(|e| e.to_string())
    }

    fn notify(&mut self, method: &str, params: Value) -> Result<(), String> {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
    }

    fn read(&mut self) -> Result<Value, String> {
        let mut len = 0usize;
        loop {
            let mut line = String::new();
            if self
                .stdout
                .read_line(&mut line)
                .map_err(|e| e.to_string())?
                == 0
            {
                return Err("the server closed its output".into());
            }
            let t = line.trim_end();
            if t.is_empty() {
                break;
            }
            if let Some(v) = t.strip_prefix("Content-Length:") {
                len = v.trim().parse().map_err(|_| "bad Content-Length")?;
            }
        }
        let mut body = vec![0; len];
        self.stdout
            .read_exact(&mut body)
            .map_err(|e| e.to_string())?;
        serde_json::from_slice(&body).map_err(|e| e.to_string())
    }

    /// Send a request and wait for its answer; `on_note` sees the notifications before it.
    fn request(
        &mut self,
        method: &str,
        params: Value,
        on_note: &mut dyn FnMut(&Value),
    ) -> Result<Value, String> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        loop {
            let m = self.read()?;
            if m.get("id") == Some(&json!(id)) && m.get("method").is_none() {
                if let Some(e) = m.get("error") {
                    return Err(format!("{method} failed: {e}"));
                }
                return Ok(m["result"].clone());
            }
            if m.get("method").is_some() {
                on_note(&m);
            }
        }
    }

    /// Read messages until a publishDiagnostics for `uri` arrives.
    fn wait_diagnostics(&mut self, uri: &str) -> Result<Vec<Value>, String> {
        loop {
            let m = self.read()?;
            if m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri {
                return Ok(m["params"]["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default());
            }
        }
    }
}

/// A process's peak resident set size in bytes (VmHWM).
pub fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

pub fn run(ferro: &Path, work: &Path, out: &mut dyn Write) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(work);
    write_workspace(work)?;
    let mut child = Command::new(ferro)
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", ferro.display()))?;
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let mut s = Server {
        child,
        stdin,
        stdout,
        next_id: 1,
    };
    let pid = s.child.id();
    let mut ignore = |_: &Value| {};

    let start = Instant::now();
    s.request(
        "initialize",
        json!({"rootUri": path_to_uri(work), "capabilities": {}}),
        &mut ignore,
    )?;
    s.notify("initialized", json!({}))?;
    let mut published = 0usize;
    s.request("workspace/symbol", json!({"query": "m0"}), &mut |n| {
        if n["method"] == "textDocument/publishDiagnostics" {
            published += 1;
        }
    })?;
    let initial = start.elapsed();

    // One-character edits inside one module file: alternately break and fix a reference.
    let path = work.join("modules/m7/main.tf");
    let uri = path_to_uri(&path);
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "terraform", "version": 1, "text": text}}),
    )?;
    let (line, col) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| l.find("var.name").map(|c| (i, c + 4)))
        .ok_or("no var.name in the module")?;
    let mut edits = Vec::new();
    for round in 0..20 {
        let new = if round % 2 == 0 { "x" } else { "n" };
        let t0 = Instant::now();
        s.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": round + 2},
                "contentChanges": [{"range": {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}, "text": new}],
            }),
        )?;
        let diags = s.wait_diagnostics(&uri)?;
        edits.push(t0.elapsed());
        let want = if round % 2 == 0 { 1 } else { 0 };
        if diags.len() != want {
            return Err(format!(
                "after edit {round} the file has {} diagnostics, expected {want}",
                diags.len()
            ));
        }
    }

    // Completion of `var.` and of a resource attribute in the same file.
    let mut completions = Vec::new();
    for round in 0..20 {
        let t0 = Instant::now();
        let r = s.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": col}}),
            &mut ignore,
        )?;
        completions.push(t0.elapsed());
        if round == 0 && r["items"].as_array().is_none_or(|i| i.is_empty()) {
            return Err(format!("completion found nothing: {r}"));
        }
    }
    let rss = peak_rss(pid).unwrap_or(0);
    s.request("shutdown", Value::Null, &mut ignore)?;
    s.notify("exit", Value::Null)?;
    let status = s.child.wait().map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(work);
    if !status.success() {
        return Err(format!("the server exited with {status}"));
    }

    let edit = median(edits);
    let completion = median(completions);
    let mb = rss as f64 / (1024.0 * 1024.0);
    let files = MODULES * 2 + 1;
    let _ = writeln!(
        out,
        "ferro lsp on {MODULES} modules, {} resources, {files} files ({published} files published at start)",
        MODULES * RESOURCES_PER_MODULE
    );
    let verdict = |ok: bool| if ok { "ok" } else { "OVER TARGET" };
    let _ = writeln!(
        out,
        "  initial analysis        {:>10}   target < 2 s     {}",
        ms(initial),
        verdict(initial < Duration::from_secs(2))
    );
    let _ = writeln!(
        out,
        "  peak resident memory    {:>7.1} MB   target < 300 MB  {}",
        mb,
        verdict(mb < 300.0)
    );
    let _ = writeln!(
        out,
        "  diagnostics after edit  {:>10}   target < 50 ms   {}  (median of 20)",
        ms(edit),
        verdict(edit < Duration::from_millis(50))
    );
    let _ = writeln!(
        out,
        "  completion              {:>10}   target < 30 ms   {}  (median of 20)",
        ms(completion),
        verdict(completion < Duration::from_millis(30))
    );
    Ok(())
}
