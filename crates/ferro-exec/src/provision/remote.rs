//! The `file` and `remote-exec` provisioners, as Terraform 1.0 runs them over SSH
//! (`ferro-ssh`): connect, retrying until the connection's `timeout`; remote-exec uploads each
//! script to `script_path` (a `#!/bin/sh` line added when it has none), makes it executable,
//! runs it with a pseudo-terminal showing every line of its output, and empties it; file copies
//! `content`, a file or a directory to `destination` with scp.

use super::connection::{self, Settings};
use super::SUPPRESSED;
use crate::{Event, ProvisionPhase};
use ferro_db::SourceFile;
use ferro_diag::Diagnostic;
use ferro_hir::{Provisioner, ResourceDecl};
use ferro_runtime::scope::{InstanceCtx, ModuleEval};
use ferro_value::{Value, ValueKind};
use std::path::{Path, PathBuf};

/// The provisioner's own arguments, evaluated (null ones left out).
struct Config {
    values: Vec<(String, Value)>,
    /// Something in them is sensitive: every piece of output is replaced by [`SUPPRESSED`].
    sensitive: bool,
}

impl Config {
    fn get(&self, name: &str) -> Option<&Value> {
        self.values.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

fn evaluate(
    m: &ModuleEval<'_>,
    file: SourceFile,
    p: &Provisioner,
    inst: &InstanceCtx,
) -> Result<Config, Diagnostic> {
    let mut out = Config {
        values: Vec::new(),
        sensitive: false,
    };
    for a in &p.body.attrs {
        let (v, ds) = m.eval(file, a.expr, inst);
        if let Some(d) = ds.into_iter().find(Diagnostic::is_error) {
            return Err(d);
        }
        let (v, marks) = v.deep_unmark();
        out.sensitive |= !marks.is_empty();
        if v.is_null() {
            continue;
        }
        let want = match a.name.as_str() {
            "inline" | "scripts" => ferro_value::Type::list(ferro_value::Type::String),
            _ => ferro_value::Type::String,
        };
        let converted = ferro_value::convert::convert(&v, &want)
            .ok()
            .filter(Value::is_wholly_known)
            .ok_or_else(|| {
                let what = if matches!(a.name.as_str(), "inline" | "scripts") {
                    "list of string required"
                } else {
                    "string required"
                };
                Diagnostic::error(
                    "invalid-provisioner-argument",
                    "Incorrect attribute value type",
                )
                .with_detail(format!(
                    "Inappropriate value for attribute {:?}: {what}.",
                    a.name
                ))
                .with_span(m.hir(file).at(a.span))
            })?;
        out.values.push((a.name.clone(), converted));
    }
    Ok(out)
}

/// Run a `file` or `remote-exec` provisioner.
pub(super) fn run(
    m: &ModuleEval<'_>,
    file: SourceFile,
    decl: &ResourceDecl,
    p: &Provisioner,
    inst: &InstanceCtx,
    addr: &str,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<(), Diagnostic> {
    let failed = |detail: String| {
        Diagnostic::error(
            "provisioner-failed",
            format!("{} provisioner error", p.kind),
        )
        .with_detail(detail)
        .with_span(m.hir(file).at(p.span))
        .with_address(addr.to_string())
    };
    let config = evaluate(m, file, p, inst).map_err(|d| d.with_address(addr.to_string()))?;
    let values = connection::evaluate(m, file, decl, p, inst)
        .map_err(|d| d.with_address(addr.to_string()))?;
    let Some(values) = values else {
        return Err(failed(
            "Missing connection configuration for provisioner.".into(),
        ));
    };
    let settings = connection::settings(&values).map_err(failed)?;
    ferro_ssh::check(&settings.ssh).map_err(|e| failed(e.0))?;
    // One call of Terraform's output function: each non-empty line, trailing space trimmed.
    let output = |msg: &str| {
        let say = |line: String| {
            on_event(Event::Provision {
                addr: addr.to_string(),
                provisioner: p.kind.clone(),
                phase: ProvisionPhase::Output(line),
            })
        };
        if config.sensitive {
            say(SUPPRESSED.to_string());
            return;
        }
        for line in msg.lines() {
            let line = line.trim_end();
            if !line.is_empty() {
                say(line.to_string());
            }
        }
    };
    let base = Path::new(m.cwd());
    match p.kind.as_str() {
        "file" => copy(&config, &settings, base).map_err(failed),
        _ => {
            let scripts = scripts(&config, base).map_err(failed)?;
            run_scripts(&settings, &scripts, &output).map_err(failed)
        }
    }
}

/// The scripts to run: `inline`'s lines as one script, or the files of `script`/`scripts`.
fn scripts(config: &Config, base: &Path) -> Result<Vec<Vec<u8>>, String> {
    let strings = |v: &Value| -> Vec<Option<String>> {
        match &v.kind {
            ValueKind::List(_, es) | ValueKind::Tuple(es) => {
                es.iter().map(|e| e.as_str().map(str::to_string)).collect()
            }
            _ => Vec::new(),
        }
    };
    if let Some(inline) = config.get("inline") {
        let mut lines = Vec::new();
        for l in strings(inline) {
            match l {
                None => return Err("invalid null string in 'scripts'".into()),
                Some(s) if s.is_empty() => return Err("invalid empty string in 'scripts'".into()),
                Some(s) => lines.push(s),
            }
        }
        lines.push(String::new());
        return Ok(vec![lines.join("\n").into_bytes()]);
    }
    let mut paths = Vec::new();
    if let Some(s) = config.get("script").and_then(Value::as_str) {
        if s.is_empty() {
            return Err("invalid empty string in 'script'".into());
        }
        paths.push(s.to_string());
    }
    if let Some(list) = config.get("scripts") {
        for s in strings(list) {
            match s {
                None => return Err("invalid null string in 'script'".into()),
                Some(s) if s.is_empty() => return Err("invalid empty string in 'script'".into()),
                Some(s) => paths.push(s),
            }
        }
    }
    paths
        .iter()
        .map(|s| {
            std::fs::read(base.join(s))
                .map_err(|e| format!("Failed to open script '{s}': open {s}: {}", go_io_error(&e)))
        })
        .collect()
}

/// How Go words the common file errors.
fn go_io_error(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// A script path with `%RAND%` replaced by a random non-negative 31-bit number, as Terraform
/// names its uploaded scripts.
fn script_path(template: &str) -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
    );
    let n = h.finish() & 0x7fff_ffff;
    template.replace("%RAND%", &n.to_string())
}

fn connect(s: &Settings, before_attempt: &mut dyn FnMut()) -> Result<ferro_ssh::Client, String> {
    ferro_ssh::connect_with_retry(&s.ssh, s.timeout, before_attempt).map_err(|e| e.0)
}

fn run_scripts(s: &Settings, scripts: &[Vec<u8>], output: &dyn Fn(&str)) -> Result<(), String> {
    let client = connect(s, &mut || {
        for msg in connection::connecting_message(s) {
            output(&msg);
        }
    })?;
    output("Connected!");
    for script in scripts {
        let path = script_path(&s.script_path);
        if script.len() < 2 {
            return Err("Failed to upload script: Error reading script: EOF".into());
        }
        let (body, commands) = connection::script_steps(s.windows, &path, script);
        client
            .upload(&path, &body)
            .map_err(|e| format!("Failed to upload script: {e}"))?;
        if let [chmod, _] = commands.as_slice() {
            let mut text = Vec::new();
            let chmod = client
                .run(chmod, &mut |b| text.extend_from_slice(b))
                .map_err(|e| {
                    format!("Error chmodding script file to 0777 in remote machine: {e}")
                })?;
            if chmod != 0 {
                return Err(format!(
                    "Error chmodding script file to 0777 in remote machine error executing \"chmod 0777 {path}\": Process exited with status {chmod}: {} ",
                    String::from_utf8_lossy(&text)
                ));
            }
        }
        // Output is shown a line at a time, as it comes.
        let mut pending: Vec<u8> = Vec::new();
        let status = client.run(&path, &mut |bytes| {
            pending.extend_from_slice(bytes);
            while let Some(i) = pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = pending.drain(..=i).collect();
                output(&String::from_utf8_lossy(&line));
            }
        });
        if !pending.is_empty() {
            output(&String::from_utf8_lossy(&pending));
        }
        let status = status.map_err(|e| format!("error executing \"{path}\": {e}"))?;
        if status != 0 {
            return Err(format!(
                "error executing \"{path}\": Process exited with status {status}"
            ));
        }
        // The script is emptied (a failure here is only logged by Terraform).
        let _ = client.upload(&path, b"");
    }
    Ok(())
}

/// `~` or `~/…` expanded to the home directory, as Terraform expands `source`.
fn expand_home(path: &str) -> PathBuf {
    if path == "~" || path.starts_with("~/") {
        if let Some(home) = std::env::var_os("HOME") {
            return PathBuf::from(home).join(path.trim_start_matches('~').trim_start_matches('/'));
        }
    }
    PathBuf::from(path)
}

fn copy(config: &Config, s: &Settings, base: &Path) -> Result<(), String> {
    let destination = config
        .get("destination")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let client = connect(s, &mut || {})?;
    if let Some(content) = config.get("content").and_then(Value::as_str) {
        return client
            .upload(&destination, content.as_bytes())
            .map_err(|e| format!("Upload failed: {e}"));
    }
    let source = config
        .get("source")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let path = base.join(expand_home(&source));
    let meta =
        std::fs::metadata(&path).map_err(|e| format!("stat {source}: {}", go_io_error(&e)))?;
    if meta.is_dir() {
        client
            .upload_dir(&destination, &path, source.ends_with('/'))
            .map_err(|e| format!("Upload failed: {e}"))
    } else {
        let data =
            std::fs::read(&path).map_err(|e| format!("open {source}: {}", go_io_error(&e)))?;
        client
            .upload(&destination, &data)
            .map_err(|e| format!("Upload failed: {e}"))
    }
}
