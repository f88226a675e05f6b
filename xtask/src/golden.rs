//! The golden-test runner: scripted `ferro` runs compared against recorded transcripts.
//!
//! A case is a directory `testdata/<area>/<case>/` holding configuration files, a script
//! `test.txt` and the expected transcript `expected.txt` (see `testdata/README.md`). The runner
//! copies the case into a fresh temporary directory, executes the script there, driving the CLI
//! in-process through a [`Cli`] function (normally `ferro_cli::run`), normalises the transcript
//! and compares it with `expected.txt`, producing a unified-style line diff on mismatch.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The CLI entry point the runner drives: `ferro_cli::run` or a test double.
pub type Cli = fn(&[String], &Path, &mut ferro_cli::Io<'_>) -> i32;

/// The script file and the transcript file in each case directory.
pub const SCRIPT: &str = "test.txt";
pub const EXPECTED: &str = "expected.txt";

// ---------------------------------------------------------------------------------------------
// Scripts
// ---------------------------------------------------------------------------------------------

/// One script command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `ferro ARGS...`; `line` is the command as written (echoed in the transcript). With a
    /// trailing `<<EOF`, the lines up to `EOF` are its standard input.
    Ferro {
        line: String,
        args: Vec<String>,
        stdin: Option<String>,
    },
    Cp {
        src: String,
        dst: String,
    },
    Rm {
        path: String,
    },
    /// `write PATH <<EOF` … `EOF`; content includes a final newline when non-empty.
    Write {
        path: String,
        content: String,
    },
    Cat {
        path: String,
    },
    /// `env NAME=VALUE`: later `ferro` steps of the case see NAME in their environment
    /// (`TF_VAR_x=…`); `env -u NAME` removes it again.
    Env {
        name: String,
        value: Option<String>,
    },
}

/// A step with the 1-based line number it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptLine {
    pub line: usize,
    pub step: Step,
}

/// Parse a `test.txt` script. Errors name the line: `line 3: unknown command "foo"`.
pub fn parse_script(text: &str) -> Result<Vec<ScriptLine>, String> {
    let text = text.replace("\r\n", "\n");
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let lineno = i + 1;
        let raw = lines[i].trim();
        i += 1;
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let fail = |msg: String| format!("line {lineno}: {msg}");
        let words = split_args(raw).map_err(fail)?;
        let (cmd, rest) = words
            .split_first()
            .ok_or_else(|| fail("empty command".into()))?;
        let step = match cmd.as_str() {
            "ferro" => {
                let mut args = rest.to_vec();
                let marker = match args.last() {
                    Some(m) if m.starts_with("<<") && m.len() > 2 => Some(m[2..].to_string()),
                    _ => None,
                };
                let stdin = match marker {
                    None => None,
                    Some(marker) => {
                        args.pop();
                        match here_document(&lines, &mut i, &marker) {
                            Some(content) => Some(content),
                            None => {
                                return Err(fail(format!(
                                    "ferro: no closing {marker:?} line for its standard input"
                                )))
                            }
                        }
                    }
                };
                Step::Ferro {
                    line: raw.to_string(),
                    args,
                    stdin,
                }
            }
            "cp" => match rest {
                [src, dst] => Step::Cp {
                    src: src.clone(),
                    dst: dst.clone(),
                },
                _ => return Err(fail("usage: cp SRC DST".into())),
            },
            "rm" => match rest {
                [path] => Step::Rm { path: path.clone() },
                _ => return Err(fail("usage: rm PATH".into())),
            },
            "cat" => match rest {
                [path] => Step::Cat { path: path.clone() },
                _ => return Err(fail("usage: cat PATH".into())),
            },
            "env" => match rest {
                [flag, name] if flag == "-u" => Step::Env {
                    name: name.clone(),
                    value: None,
                },
                [pair] if pair.contains('=') => {
                    let (name, value) = pair.split_once('=').unwrap_or_default();
                    Step::Env {
                        name: name.to_string(),
                        value: Some(value.to_string()),
                    }
                }
                _ => return Err(fail("usage: env NAME=VALUE, or env -u NAME".into())),
            },
            "write" => {
                let (path, marker) = match rest {
                    [path, marker] if marker.starts_with("<<") && marker.len() > 2 => {
                        (path, &marker[2..])
                    }
                    _ => {
                        return Err(fail(
                            "usage: write PATH <<EOF, then the content, then EOF".into(),
                        ))
                    }
                };
                let Some(content) = here_document(&lines, &mut i, marker) else {
                    return Err(fail(format!("write: no closing {marker:?} line")));
                };
                Step::Write {
                    path: path.clone(),
                    content,
                }
            }
            other => {
                return Err(fail(format!(
                    "unknown command {other:?} (expected ferro, cp, rm, write, cat or a # comment)"
                )))
            }
        };
        out.push(ScriptLine { line: lineno, step });
    }
    Ok(out)
}

/// The lines from `lines[*i]` up to the line `marker` (which is consumed), each ending in a
/// newline; `None` when no such line follows.
fn here_document(lines: &[&str], i: &mut usize, marker: &str) -> Option<String> {
    let mut content = String::new();
    while *i < lines.len() {
        let l = lines[*i];
        *i += 1;
        if l.trim_end() == marker {
            return Some(content);
        }
        content.push_str(l);
        content.push('\n');
    }
    None
}

/// Split a command line on whitespace; double quotes group words (`"a b"`, `-var="x y"`) and
/// inside them `\"` and `\\` are escapes.
pub fn split_args(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '\\')) => cur.push(e),
                            Some(e) => {
                                cur.push('\\');
                                cur.push(e);
                            }
                            None => return Err("unterminated double quote".into()),
                        },
                        Some(ch) => cur.push(ch),
                        None => return Err("unterminated double quote".into()),
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Normalisation and diffs
// ---------------------------------------------------------------------------------------------

/// Normalise a transcript: the temporary directory → `<tmp>`, UUIDs → `<uuid>`, the JSON UI's
/// `@timestamp`s → `<timestamp>`, CRLF → LF,
/// trailing whitespace stripped from every line, and exactly one newline at the end (none for
/// an empty transcript).
pub fn normalize(text: &str, tmp: Option<&Path>) -> String {
    let mut s = text.replace("\r\n", "\n");
    if let Some(tmp) = tmp {
        let mut forms = vec![tmp.to_string_lossy().into_owned()];
        if let Ok(c) = tmp.canonicalize() {
            forms.push(c.to_string_lossy().into_owned());
        }
        forms.sort_by_key(|f| std::cmp::Reverse(f.len()));
        for f in forms.iter().filter(|f| !f.is_empty()) {
            s = s.replace(f.as_str(), "<tmp>");
        }
    }
    let s = replace_uuids(&s);
    let mut out = String::with_capacity(s.len());
    for line in s.lines() {
        out.push_str(&ui_timestamps(&zero_elapsed(line.trim_end())));
        out.push('\n');
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    if out == "\n" {
        out.clear();
    }
    out
}

/// Progress lines say how long a step took (`Creation complete after 2s`); on a loaded machine
/// that is not always 0s, so every duration is written as 0s.
fn zero_elapsed(line: &str) -> std::borrow::Cow<'_, str> {
    const MARK: &str = " complete after ";
    let Some(at) = line.find(MARK) else {
        return line.into();
    };
    let rest = &line[at + MARK.len()..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !rest[digits..].starts_with('s') {
        return line.into();
    }
    format!("{}{MARK}0{}", &line[..at], &rest[digits..]).into()
}

/// The `-json` UI stamps each message with the time (`"@timestamp":"…"`): written as
/// `<timestamp>`.
fn ui_timestamps(line: &str) -> std::borrow::Cow<'_, str> {
    const KEY: &str = "\"@timestamp\":\"";
    if !line.contains(KEY) {
        return line.into();
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find(KEY) {
        let value = &rest[at + KEY.len()..];
        let Some(end) = value.find('"') else { break };
        out.push_str(&rest[..at + KEY.len()]);
        out.push_str("<timestamp>");
        rest = &value[end..];
    }
    out.push_str(rest);
    out.into()
}

/// Replace every 8-4-4-4-12 hex-digit group (not part of a longer hex/word run) with `<uuid>`.
pub fn replace_uuids(s: &str) -> String {
    const GROUPS: [usize; 5] = [8, 4, 4, 4, 12];
    let b = s.as_bytes();
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let matches_at = |i: usize| -> bool {
        if i > 0 && is_word(b[i - 1]) {
            return false;
        }
        let mut p = i;
        for (g, len) in GROUPS.iter().enumerate() {
            if g > 0 {
                if b.get(p) != Some(&b'-') {
                    return false;
                }
                p += 1;
            }
            for _ in 0..*len {
                match b.get(p) {
                    Some(c) if c.is_ascii_hexdigit() => p += 1,
                    _ => return false,
                }
            }
        }
        !b.get(p).is_some_and(|c| is_word(*c))
    };
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut copied = 0;
    while i + 36 <= b.len() {
        if b[i].is_ascii_hexdigit() && matches_at(i) {
            out.push_str(&s[copied..i]);
            out.push_str("<uuid>");
            i += 36;
            copied = i;
        } else {
            i += 1;
        }
    }
    out.push_str(&s[copied..]);
    out
}

/// One line-level edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Keep,
    Del,
    Add,
}

/// A unified-style diff (`@@ -a,b +c,d @@` hunks with three lines of context) from `expected`
/// to `actual`, headed by `--- {from}` / `+++ {to}`. Empty when the texts are equal.
pub fn diff(expected: &str, actual: &str, from: &str, to: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = actual.lines().collect();
    if a == b {
        return String::new();
    }
    let edits = edit_script(&a, &b);
    const CONTEXT: usize = 3;
    // Positions (in the edit list) of changes, grouped into hunks.
    let changed: Vec<usize> = edits
        .iter()
        .enumerate()
        .filter(|(_, e)| **e != Edit::Keep)
        .map(|(i, _)| i)
        .collect();
    let mut out = format!("--- {from}\n+++ {to}\n");
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = changed[k];
        while k < changed.len() && changed[k] <= end + 2 * CONTEXT + 1 {
            end = changed[k];
            k += 1;
        }
        let end = (end + CONTEXT + 1).min(edits.len());
        // Line numbers at `start`.
        let (mut ai, mut bi) = (0, 0);
        for e in &edits[..start] {
            match e {
                Edit::Keep => {
                    ai += 1;
                    bi += 1;
                }
                Edit::Del => ai += 1,
                Edit::Add => bi += 1,
            }
        }
        let acount = edits[start..end]
            .iter()
            .filter(|e| **e != Edit::Add)
            .count();
        let bcount = edits[start..end]
            .iter()
            .filter(|e| **e != Edit::Del)
            .count();
        let _ = writeln!(
            out,
            "@@ -{},{} +{},{} @@",
            if acount == 0 { ai } else { ai + 1 },
            acount,
            if bcount == 0 { bi } else { bi + 1 },
            bcount
        );
        for e in &edits[start..end] {
            match e {
                Edit::Keep => {
                    let _ = writeln!(out, " {}", a[ai]);
                    ai += 1;
                    bi += 1;
                }
                Edit::Del => {
                    let _ = writeln!(out, "-{}", a[ai]);
                    ai += 1;
                }
                Edit::Add => {
                    let _ = writeln!(out, "+{}", b[bi]);
                    bi += 1;
                }
            }
        }
    }
    out
}

/// A shortest-ish edit script via LCS, after trimming the common prefix and suffix. Very large
/// middles fall back to "delete all, add all" to bound memory.
fn edit_script(a: &[&str], b: &[&str]) -> Vec<Edit> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let am = &a[prefix..a.len() - suffix];
    let bm = &b[prefix..b.len() - suffix];
    let mut edits = vec![Edit::Keep; prefix];
    if am.len().saturating_mul(bm.len()) > 16_000_000 {
        edits.extend(std::iter::repeat_n(Edit::Del, am.len()));
        edits.extend(std::iter::repeat_n(Edit::Add, bm.len()));
    } else {
        // lcs[i][j] = LCS length of am[i..] and bm[j..].
        let w = bm.len() + 1;
        let mut lcs = vec![0u32; (am.len() + 1) * w];
        for i in (0..am.len()).rev() {
            for j in (0..bm.len()).rev() {
                lcs[i * w + j] = if am[i] == bm[j] {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < am.len() || j < bm.len() {
            if i < am.len() && j < bm.len() && am[i] == bm[j] {
                edits.push(Edit::Keep);
                i += 1;
                j += 1;
            } else if j == bm.len() || (i < am.len() && lcs[(i + 1) * w + j] >= lcs[i * w + j + 1])
            {
                // Deletions first when tied, so "-old" lines precede "+new" ones.
                edits.push(Edit::Del);
                i += 1;
            } else {
                edits.push(Edit::Add);
                j += 1;
            }
        }
    }
    edits.extend(std::iter::repeat_n(Edit::Keep, suffix));
    edits
}

// ---------------------------------------------------------------------------------------------
// Running cases
// ---------------------------------------------------------------------------------------------

/// One golden case: its name `<area>/<case>` and its directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    pub name: String,
    pub dir: PathBuf,
}

/// All case directories (those containing `test.txt`) under `root`, sorted by name, whose name
/// contains `filter`.
pub fn discover(root: &Path, filter: Option<&str>) -> io::Result<Vec<Case>> {
    let mut cases = Vec::new();
    if root.is_dir() {
        walk(root, root, &mut cases)?;
    }
    cases.retain(|c| filter.is_none_or(|f| c.name.contains(f)));
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(cases)
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<Case>) -> io::Result<()> {
    if dir.join(SCRIPT).is_file() {
        let rel = dir.strip_prefix(root).unwrap_or(dir);
        let name = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        out.push(Case {
            name,
            dir: dir.to_path_buf(),
        });
        return Ok(());
    }
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            walk(root, &entry.path(), out)?;
        }
    }
    Ok(())
}

/// A fresh, uniquely named directory under the system temp directory; removed on drop.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(tag: &str) -> io::Result<TempDir> {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let safe: String = tag
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let path = std::env::temp_dir().join(format!(
            "ferro-golden-{}-{n}-{nanos}-{safe}",
            std::process::id()
        ));
        fs::create_dir_all(&path)?;
        Ok(TempDir { path })
    }
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.path);
    }
}

fn copy_dir(src: &Path, dst: &Path, top: bool) -> io::Result<()> {
    for entry in fs::read_dir(src)? {
        let entry = entry?;
        let name = entry.file_name();
        if top && (name == SCRIPT || name == EXPECTED) {
            continue;
        }
        let to = dst.join(&name);
        if entry.file_type()?.is_dir() {
            fs::create_dir_all(&to)?;
            copy_dir(&entry.path(), &to, false)?;
        } else {
            fs::copy(entry.path(), &to)?;
        }
    }
    Ok(())
}

/// Resolve a script path inside the work directory, refusing absolute paths and `..`.
fn resolve(work: &Path, p: &str) -> Result<PathBuf, String> {
    let rel = Path::new(p);
    if rel.is_absolute()
        || rel
            .components()
            .any(|c| matches!(c, std::path::Component::ParentDir))
    {
        return Err(format!(
            "path {p:?} must be relative and stay inside the case directory"
        ));
    }
    Ok(work.join(rel))
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".into()
    }
}

fn ensure_newline(out: &mut String) {
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
}

/// Execute a script in `work`, returning the raw (unnormalised) transcript. Errors are runner
/// failures (bad file operations, a panicking CLI) and name the script line.
pub fn execute(steps: &[ScriptLine], work: &Path, cli: Cli) -> Result<String, String> {
    let mut t = String::new();
    // Cases run alike whatever the runner's own environment says of automation (which
    // changes some closing text); a case may set it with an `env` line.
    let mut env: Vec<(String, String)> = vec![("TF_IN_AUTOMATION".into(), String::new())];
    for sl in steps {
        let at = |msg: String| format!("{SCRIPT} line {}: {msg}", sl.line);
        match &sl.step {
            Step::Ferro { line, args, stdin } => {
                let mut stdout = Vec::new();
                let mut stderr = Vec::new();
                // Without a heredoc the command reads an empty standard input.
                let mut input =
                    std::io::Cursor::new(stdin.clone().unwrap_or_default().into_bytes());
                let result = catch_unwind(AssertUnwindSafe(|| {
                    let mut io = ferro_cli::Io {
                        stdout: &mut stdout,
                        stderr: &mut stderr,
                        stdin: Some(&mut input),
                    };
                    ferro_cli::with_env(&env, || cli(args, work, &mut io))
                }));
                let code = result
                    .map_err(|p| at(format!("ferro panicked: {}", panic_message(p.as_ref()))))?;
                let _ = writeln!(t, "$ {line}");
                t.push_str(&String::from_utf8_lossy(&stdout));
                ensure_newline(&mut t);
                if !stderr.is_empty() {
                    t.push_str("--- stderr\n");
                    t.push_str(&String::from_utf8_lossy(&stderr));
                    ensure_newline(&mut t);
                }
                let _ = writeln!(t, "[exit {code}]\n");
            }
            Step::Cp { src, dst } => {
                let _ = writeln!(t, "$ cp {src} {dst}");
                let from = resolve(work, src).map_err(at)?;
                let to = resolve(work, dst).map_err(at)?;
                if let Some(parent) = to.parent() {
                    fs::create_dir_all(parent).map_err(|e| at(format!("cp: {e}")))?;
                }
                fs::copy(&from, &to).map_err(|e| at(format!("cp {src} {dst}: {e}")))?;
            }
            Step::Rm { path } => {
                let _ = writeln!(t, "$ rm {path}");
                let p = resolve(work, path).map_err(at)?;
                let r = if p.is_dir() {
                    fs::remove_dir_all(&p)
                } else {
                    fs::remove_file(&p)
                };
                r.map_err(|e| at(format!("rm {path}: {e}")))?;
            }
            Step::Write { path, content } => {
                let _ = writeln!(t, "$ write {path}");
                let p = resolve(work, path).map_err(at)?;
                if let Some(parent) = p.parent() {
                    fs::create_dir_all(parent).map_err(|e| at(format!("write: {e}")))?;
                }
                fs::write(&p, content).map_err(|e| at(format!("write {path}: {e}")))?;
            }
            Step::Env { name, value } => {
                env.retain(|(n, _)| n != name);
                match value {
                    Some(v) => {
                        let _ = writeln!(t, "$ env {name}={v}");
                        env.push((name.clone(), v.clone()));
                    }
                    None => {
                        let _ = writeln!(t, "$ env -u {name}");
                    }
                }
            }
            Step::Cat { path } => {
                let _ = writeln!(t, "$ cat {path}");
                let p = resolve(work, path).map_err(at)?;
                match fs::read(&p) {
                    Ok(bytes) => {
                        t.push_str(&String::from_utf8_lossy(&bytes));
                        ensure_newline(&mut t);
                    }
                    Err(e) if e.kind() == io::ErrorKind::NotFound => {
                        let _ = writeln!(t, "cat: {path}: No such file or directory");
                    }
                    Err(e) => return Err(at(format!("cat {path}: {e}"))),
                }
                t.push('\n');
            }
        }
    }
    Ok(t)
}

/// The result of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    /// `expected.txt` was (re)written.
    Blessed,
    /// A readable explanation: the diff, or what went wrong.
    Failed(String),
}

/// Run one case and compare (or, with `bless`, record) its transcript.
pub fn run_case(case: &Case, cli: Cli, bless: bool) -> Outcome {
    match run_case_inner(case, cli, bless) {
        Ok(o) => o,
        Err(msg) => Outcome::Failed(format!("{}: {msg}", case.name)),
    }
}

fn run_case_inner(case: &Case, cli: Cli, bless: bool) -> Result<Outcome, String> {
    let script = fs::read_to_string(case.dir.join(SCRIPT))
        .map_err(|e| format!("cannot read {SCRIPT}: {e}"))?;
    let steps = parse_script(&script).map_err(|e| format!("{SCRIPT} {e}"))?;
    let tmp = TempDir::new(&case.name)
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    copy_dir(&case.dir, tmp.path(), true)
        .map_err(|e| format!("cannot copy the case directory: {e}"))?;
    let raw = execute(&steps, tmp.path(), cli)?;
    let actual = normalize(&raw, Some(tmp.path()));
    let expected_path = case.dir.join(EXPECTED);
    if bless {
        let current = fs::read_to_string(&expected_path).ok();
        if current.as_deref() == Some(actual.as_str()) {
            return Ok(Outcome::Passed);
        }
        fs::write(&expected_path, &actual).map_err(|e| format!("cannot write {EXPECTED}: {e}"))?;
        return Ok(Outcome::Blessed);
    }
    let expected = match fs::read_to_string(&expected_path) {
        Ok(s) => normalize(&s, None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(format!(
                "no {EXPECTED}; run `cargo xtask golden {} --bless` to record it. The transcript was:\n{actual}",
                case.name
            ))
        }
        Err(e) => return Err(format!("cannot read {EXPECTED}: {e}")),
    };
    if expected == actual {
        Ok(Outcome::Passed)
    } else {
        let d = diff(
            &expected,
            &actual,
            &format!("{}/{EXPECTED}", case.name),
            "actual",
        );
        Err(format!(
            "transcript differs (rerun with --bless to accept):\n{d}"
        ))
    }
}

/// What a run of many cases produced.
#[derive(Debug, Default)]
pub struct Summary {
    pub passed: usize,
    pub blessed: usize,
    /// `(case name, explanation)` in case order.
    pub failures: Vec<(String, String)>,
    /// Every case with its outcome, in case order.
    pub results: Vec<(String, Outcome)>,
}

impl Summary {
    pub fn ok(&self) -> bool {
        self.failures.is_empty()
    }
    /// The failures followed by `N passed, M failed` (and blessed count when any).
    pub fn report(&self) -> String {
        let mut s = String::new();
        for (name, msg) in &self.failures {
            let _ = writeln!(s, "FAIL {name}\n{msg}");
        }
        let _ = write!(s, "{} passed, {} failed", self.passed, self.failures.len());
        if self.blessed > 0 {
            let _ = write!(s, ", {} blessed", self.blessed);
        }
        s.push('\n');
        s
    }
}

/// Run `cases` on `jobs` threads.
pub fn run_cases(cases: &[Case], cli: Cli, bless: bool, jobs: usize) -> Summary {
    // Cases may use the built-in test provider (`terraform.io/builtin/ferrotest`).
    std::env::set_var("FERRO_TEST_PROVIDER", "1");
    // Nor whatever CLI configuration the runner's user has: a filesystem mirror there would
    // change what `init` installs (the file named does not exist: no configuration).
    std::env::set_var(
        "TF_CLI_CONFIG_FILE",
        std::env::temp_dir().join("ferro-golden-no-cli-config.tfrc"),
    );
    // Nor the provider packages in its home's implied local mirrors (~/.terraform.d/plugins,
    // ~/.local/share/terraform/plugins): an empty home of the runner's own.
    let home = std::env::temp_dir().join("ferro-golden-home");
    let _ = std::fs::create_dir_all(&home);
    std::env::set_var("HOME", &home);
    std::env::remove_var("XDG_DATA_HOME");
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new(vec![None; cases.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(cases.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(case) = cases.get(i) else { break };
                let outcome = run_case(case, cli, bless);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(outcome);
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut summary = Summary::default();
    for (case, outcome) in cases.iter().zip(results) {
        let outcome = outcome
            .unwrap_or_else(|| Outcome::Failed(format!("{}: the case did not run", case.name)));
        match &outcome {
            Outcome::Passed => summary.passed += 1,
            Outcome::Blessed => {
                summary.passed += 1;
                summary.blessed += 1;
            }
            Outcome::Failed(msg) => summary.failures.push((case.name.clone(), msg.clone())),
        }
        summary.results.push((case.name.clone(), outcome));
    }
    summary
}

/// Discover and run the cases under `root` matching `filter`.
pub fn run_all(
    root: &Path,
    filter: Option<&str>,
    cli: Cli,
    bless: bool,
    jobs: usize,
) -> io::Result<Summary> {
    let cases = discover(root, filter)?;
    Ok(run_cases(&cases, cli, bless, jobs))
}

/// The workspace's `testdata/` directory.
pub fn testdata_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap_or(Path::new("."))
        .join("testdata")
}

#[cfg(test)]
mod tests;
