//! `ferro fmt [options] [PATH...]`: rewrite configuration files to the canonical format, with the
//! flags, output and exit codes of `terraform fmt` (Terraform 1.0.3):
//!
//! * no path: the working directory; `-`: read standard input, write the result to standard
//!   output; a directory: its `.tf` and `.tfvars` files (subdirectories too with `-recursive`);
//! * `-list` (default true) prints the name of each file whose formatting changed, `-write`
//!   (default true) rewrites it, `-diff` prints a unified diff;
//! * `-check` writes nothing and exits 3 when any file is not formatted (listing them unless
//!   `-list=false`);
//! * syntax errors are reported as diagnostics and the exit status is 2.
//!
//! Beyond Terraform 1.0.3 (which takes at most one path), several paths may be given.

use crate::args::Spec;
use crate::{Global, Io};
use ferro_diag::{has_errors, Diagnostic, FileId};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

const HELP: &str = "Usage: ferro [global options] fmt [options] [DIR]

  Lays out configuration files the one canonical way: indentation,
  spacing and the alignment of arguments. Native-syntax files are handled,
  both .tf and .tfvars; JSON files (.tf.json, .tfvars.json) are skipped.

  Without DIR, the working directory is formatted; several paths may be
  given. DIR \"-\" formats standard input, which must be native syntax, and
  prints the result on standard output.

  A syntax error is reported as a diagnostic and makes the exit status 2.

Options:

  -check         Change no file; exit with status 3 when some file is not
                 in canonical form, 0 when all are. The files that are not
                 are listed unless -list=false.

  -diff          Print each change as a unified diff.

  -list=false    Do not print the names of the files that changed (they
                 never are for standard input).

  -no-color      Print without terminal colours.

  -recursive     Format the subdirectories too; without it only the
                 directory's own files are.

  -write=false   Leave the files unchanged (implied by -check and by
                 standard input).
";

/// fmt's flags (Go's flag syntax, read by `parse_flags`; all are booleans) and its help.
pub(crate) const FMT: Spec = Spec {
    bools: &["list", "write", "diff", "check", "recursive"],
    values: &[],
    help: HELP,
};

#[derive(Debug, Clone, Copy)]
pub(crate) struct Opts {
    list: bool,
    write: bool,
    diff: bool,
    check: bool,
    recursive: bool,
}

/// What one run collects: the listing/diff/result output, and diagnostics with their sources.
struct Run {
    opts: Opts,
    out: Vec<u8>,
    diags: Vec<Diagnostic>,
    sources: Vec<(FileId, String, String)>,
}

/// `ferro fmt`, reading `-` from the process's standard input.
pub fn fmt(g: &Global, args: &[String], io: &mut Io<'_>) -> i32 {
    if let Some(mut input) = io.stdin.take() {
        return fmt_with_stdin(g, args, &mut input, io);
    }
    fmt_with_stdin(g, args, &mut std::io::stdin(), io)
}

/// Parse the flags the way Go's `flag` package does: flags first, then positional arguments.
pub(crate) fn parse_flags(args: &[String]) -> Result<(Opts, Vec<String>), String> {
    let mut o = Opts {
        list: true,
        write: true,
        diff: false,
        check: false,
        recursive: false,
    };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            i += 1;
            break;
        }
        let Some((name, value)) = crate::args::go_flag(a) else {
            break;
        };
        if !FMT.has(name) {
            return Err(format!("flag provided but not defined: -{name}"));
        }
        let slot = match name {
            "list" => &mut o.list,
            "write" => &mut o.write,
            "diff" => &mut o.diff,
            "check" => &mut o.check,
            "recursive" => &mut o.recursive,
            _ => return Err(format!("flag provided but not defined: -{name}")),
        };
        *slot = match value {
            None => true,
            Some(v) => crate::args::go_bool(v)
                .ok_or_else(|| format!("invalid boolean value {v:?} for -{name}: parse error"))?,
        };
        i += 1;
    }
    Ok((o, args[i..].to_vec()))
}

/// `ferro fmt` with an explicit standard input (tests pass a buffer).
pub fn fmt_with_stdin(g: &Global, args: &[String], stdin: &mut dyn Read, io: &mut Io<'_>) -> i32 {
    let (mut opts, paths) = match parse_flags(args) {
        Ok(p) => p,
        Err(e) => {
            let _ = write!(
                io.stderr,
                "{HELP}\nError parsing command-line flags: {e}\n\n"
            );
            return 1;
        }
    };
    if let Some(flag) = paths.iter().find(|p| p.len() > 1 && p.starts_with('-')) {
        // Go's flag parsing stops at the first path; a flag after it is a mistake, not a path.
        let _ = write!(
            io.stderr,
            "The option {flag} must come before the paths to format.\n\n{HELP}"
        );
        return 1;
    }
    let from_stdin = paths.len() == 1 && paths[0] == "-";
    if paths.len() > 1 && paths.iter().any(|p| p == "-") {
        let _ = write!(io.stderr, "The fmt command cannot read standard input (\"-\") together with other paths.\n\n{HELP}");
        return 1;
    }
    if from_stdin {
        opts.list = false;
        opts.write = false;
    }
    let list = opts.list;
    if opts.check {
        opts.list = true;
        opts.write = false;
    }
    let mut run = Run {
        opts,
        out: Vec::new(),
        diags: Vec::new(),
        sources: Vec::new(),
    };
    if from_stdin {
        let mut src = Vec::new();
        if stdin.read_to_end(&mut src).is_err() {
            run.diags
                .push(Diagnostic::error("fmt-read", "Failed to read <stdin>"));
        } else {
            process_file(&mut run, "<stdin>", None, src);
        }
    } else {
        let paths = if paths.is_empty() {
            vec![".".to_string()]
        } else {
            paths
        };
        for p in &paths {
            if !process_path(&mut run, g, p) {
                break;
            }
        }
    }

    // In -check mode the listing is only shown with -list; otherwise output goes straight out.
    if !opts.check || list {
        let _ = io.stdout.write_all(&run.out);
    }
    if !run.diags.is_empty() {
        let sources = ferro_db::Sources::from_files(run.sources.clone());
        let _ = io
            .stderr
            .write_all(ferro_diag::render(&run.diags, &sources, g.color).as_bytes());
    }
    if has_errors(&run.diags) {
        return 2;
    }
    if opts.check && !run.out.is_empty() {
        return 3;
    }
    0
}

/// Go's `filepath.Clean`, for the names printed in listings and diffs.
fn clean(path: &str) -> String {
    let rooted = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !rooted {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    match (rooted, joined.is_empty()) {
        (true, _) => format!("/{joined}"),
        (false, true) => ".".to_string(),
        (false, false) => joined,
    }
}

fn cli_error(run: &mut Run, summary: String) {
    run.diags.push(Diagnostic::error("fmt", summary));
}

/// Process one command-line path. Returns false when processing must stop.
fn process_path(run: &mut Run, g: &Global, path: &str) -> bool {
    let display = clean(path);
    let full = g.dir.join(path);
    let Ok(meta) = std::fs::metadata(&full) else {
        cli_error(run, format!("No file or directory at {display}"));
        return false;
    };
    if meta.is_dir() {
        process_dir(run, &full, &display);
        return true;
    }
    if is_config_name(path) {
        match std::fs::read(&full) {
            Ok(src) => process_file(run, &display, Some(&full), src),
            Err(_) => cli_error(run, format!("Failed to read file {display}")),
        }
    } else {
        cli_error(
            run,
            "Only .tf, .tofu and .tfvars files can be processed with ferro fmt".to_string(),
        );
    }
    true
}

/// What `fmt` formats: `.tf`, `.tfvars` and OpenTofu's `.tofu` files.
fn is_config_name(name: &str) -> bool {
    name.ends_with(".tf") || name.ends_with(".tfvars") || name.ends_with(".tofu")
}

/// Terraform's `configs.IsIgnoredFile`: hidden files and editor backups.
fn is_ignored(name: &str) -> bool {
    name.starts_with('.') || name.ends_with('~') || (name.starts_with('#') && name.ends_with('#'))
}

fn process_dir(run: &mut Run, dir: &Path, display: &str) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(_) => {
            cli_error(run, format!("Cannot read directory {display}"));
            return;
        }
    };
    let mut names: Vec<(String, bool)> = entries
        .filter_map(|e| e.ok())
        .map(|e| {
            let is_dir = std::fs::metadata(e.path())
                .map(|m| m.is_dir())
                .unwrap_or(false);
            (e.file_name().to_string_lossy().into_owned(), is_dir)
        })
        .collect();
    names.sort();
    for (name, is_dir) in names {
        if is_ignored(&name) {
            continue;
        }
        let sub: PathBuf = dir.join(&name);
        let sub_display = clean(&format!("{display}/{name}"));
        if is_dir {
            if run.opts.recursive {
                process_dir(run, &sub, &sub_display);
            }
            continue;
        }
        if is_config_name(&name) {
            match std::fs::read(&sub) {
                Ok(src) => process_file(run, &sub_display, Some(&sub), src),
                Err(_) => cli_error(run, format!("Failed to read file {sub_display}")),
            }
        }
    }
}

fn process_file(run: &mut Run, name: &str, path: Option<&Path>, src: Vec<u8>) {
    let file = FileId(run.sources.len() as u32);
    let (text, mut diags) = ferro_syntax::decode_source(file, &src);
    run.sources.push((file, name.to_string(), text.clone()));
    let result = if has_errors(&diags) {
        Err(Vec::new())
    } else {
        ferro_syntax::fmt::format_file(file, &text)
    };
    let result = match result {
        Ok(r) => r,
        Err(more) => {
            diags.extend(more);
            run.diags.extend(diags);
            return;
        }
    };
    let o = run.opts;
    if src != result.as_bytes() {
        if o.list {
            let _ = writeln!(run.out, "{name}");
        }
        if o.write {
            if let Some(p) = path {
                if std::fs::write(p, result.as_bytes()).is_err() {
                    cli_error(run, format!("Failed to write {name}"));
                    return;
                }
            }
        }
        if o.diff {
            let old = String::from_utf8_lossy(&src);
            run.out
                .extend_from_slice(unified_diff(&old, &result, name).as_bytes());
        }
    }
    if !o.list && !o.write && !o.diff {
        run.out.extend_from_slice(result.as_bytes());
        // Terraform prints formatted standard input as a line of output.
        if path.is_none() && !result.ends_with('\n') {
            run.out.push(b'\n');
        }
    }
}

/// A unified diff in the format of `diff -u --label=old/NAME --label=new/NAME` (three lines of
/// context, changed lines as deletions followed by insertions).
fn unified_diff(old: &str, new: &str, name: &str) -> String {
    let a: Vec<&str> = old.split_inclusive('\n').collect();
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = diff_ops(&a, &b);
    if ops.iter().all(|o| matches!(o, Op::Same(..))) {
        return String::new();
    }
    const CTX: usize = 3;
    let mut out = format!("--- old/{name}\n+++ new/{name}\n");
    // Group the edit script into hunks: runs of changes with up to 2*CTX common lines between.
    let change_idx: Vec<usize> = ops
        .iter()
        .enumerate()
        .filter(|(_, o)| !matches!(o, Op::Same(..)))
        .map(|(i, _)| i)
        .collect();
    let mut groups: Vec<(usize, usize)> = Vec::new();
    for &i in &change_idx {
        match groups.last_mut() {
            Some((_, end)) if i - *end <= 2 * CTX + 1 => *end = i,
            _ => groups.push((i, i)),
        }
    }
    for (first, last) in groups {
        let start = first.saturating_sub(CTX);
        let end = (last + CTX + 1).min(ops.len());
        let slice = &ops[start..end];
        let (mut a0, mut b0) = position(&ops[..start]);
        let na = slice.iter().filter(|o| !matches!(o, Op::Ins(_))).count();
        let nb = slice.iter().filter(|o| !matches!(o, Op::Del(_))).count();
        if na > 0 {
            a0 += 1;
        }
        if nb > 0 {
            b0 += 1;
        }
        out.push_str(&format!("@@ -{} +{} @@\n", range(a0, na), range(b0, nb)));
        // Within a hunk, each run of changes lists its deletions before its insertions.
        let mut k = 0;
        while k < slice.len() {
            if let Op::Same(i, _) = slice[k] {
                line(&mut out, ' ', a[i]);
                k += 1;
                continue;
            }
            let run_end = slice[k..]
                .iter()
                .position(|o| matches!(o, Op::Same(..)))
                .map_or(slice.len(), |p| k + p);
            for o in &slice[k..run_end] {
                if let Op::Del(i) = o {
                    line(&mut out, '-', a[*i]);
                }
            }
            for o in &slice[k..run_end] {
                if let Op::Ins(j) = o {
                    line(&mut out, '+', b[*j]);
                }
            }
            k = run_end;
        }
    }
    out
}

fn range(start: usize, len: usize) -> String {
    if len == 1 {
        format!("{start}")
    } else {
        format!("{start},{len}")
    }
}

fn line(out: &mut String, mark: char, text: &str) {
    out.push(mark);
    out.push_str(text);
    if !text.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

/// Lines of the old and new text consumed by `ops`.
fn position(ops: &[Op]) -> (usize, usize) {
    let a = ops.iter().filter(|o| !matches!(o, Op::Ins(_))).count();
    let b = ops.iter().filter(|o| !matches!(o, Op::Del(_))).count();
    (a, b)
}

#[derive(Debug, Clone, Copy)]
enum Op {
    Same(usize, usize),
    Del(usize),
    Ins(usize),
}

/// A shortest edit script (Myers' algorithm), common prefix and suffix trimmed first.
fn diff_ops(a: &[&str], b: &[&str]) -> Vec<Op> {
    let pre = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suf = a[pre..]
        .iter()
        .rev()
        .zip(b[pre..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (am, bm) = (&a[pre..a.len() - suf], &b[pre..b.len() - suf]);
    let mut ops: Vec<Op> = (0..pre).map(|i| Op::Same(i, i)).collect();
    for o in myers(am, bm) {
        ops.push(match o {
            Op::Same(i, j) => Op::Same(i + pre, j + pre),
            Op::Del(i) => Op::Del(i + pre),
            Op::Ins(j) => Op::Ins(j + pre),
        });
    }
    ops.extend((0..suf).map(|k| Op::Same(a.len() - suf + k, b.len() - suf + k)));
    ops
}

fn myers(a: &[&str], b: &[&str]) -> Vec<Op> {
    let (n, m) = (a.len() as isize, b.len() as isize);
    let max = (n + m) as usize;
    let off = max as isize + 1;
    let mut v = vec![0isize; 2 * max + 3];
    let mut trace: Vec<Vec<isize>> = Vec::new();
    'outer: for d in 0..=max as isize {
        trace.push(v.clone());
        let mut k = -d;
        while k <= d {
            let mut x =
                if k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize]) {
                    v[(off + k + 1) as usize]
                } else {
                    v[(off + k - 1) as usize] + 1
                };
            let mut y = x - k;
            while x < n && y < m && a[x as usize] == b[y as usize] {
                x += 1;
                y += 1;
            }
            v[(off + k) as usize] = x;
            if x >= n && y >= m {
                break 'outer;
            }
            k += 2;
        }
    }
    // Walk back through the trace.
    let mut ops = Vec::new();
    let (mut x, mut y) = (n, m);
    for d in (0..trace.len() as isize).rev() {
        let v = &trace[d as usize];
        let k = x - y;
        let prev_k = if k == -d || (k != d && v[(off + k - 1) as usize] < v[(off + k + 1) as usize])
        {
            k + 1
        } else {
            k - 1
        };
        let prev_x = if d == 0 {
            0
        } else {
            v[(off + prev_k) as usize]
        };
        let prev_y = prev_x - prev_k;
        while x > prev_x.max(0)
            && y > prev_y.max(0)
            && x > 0
            && y > 0
            && a[(x - 1) as usize] == b[(y - 1) as usize]
        {
            x -= 1;
            y -= 1;
            ops.push(Op::Same(x as usize, y as usize));
        }
        if d > 0 {
            if x == prev_x {
                y -= 1;
                ops.push(Op::Ins(y as usize));
            } else {
                x -= 1;
                ops.push(Op::Del(x as usize));
            }
        }
    }
    ops.reverse();
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_in(dir: &Path, args: &[&str], stdin: &str) -> (i32, String, String) {
        let g = Global {
            dir: dir.to_path_buf(),
            color: false,
        };
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = fmt_with_stdin(
            &g,
            &args,
            &mut std::io::Cursor::new(stdin.as_bytes().to_vec()),
            &mut Io {
                stdout: &mut out,
                stderr: &mut err,
                stdin: None,
            },
        );
        (
            code,
            String::from_utf8_lossy(&out).into_owned(),
            String::from_utf8_lossy(&err).into_owned(),
        )
    }

    #[test]
    fn stdin_is_formatted_to_stdout() {
        let dir = std::env::temp_dir();
        assert_eq!(
            run_in(&dir, &["-"], "a=1\nbbb = 2\n"),
            (0, "a   = 1\nbbb = 2\n".to_string(), String::new())
        );
        let (code, out, _) = run_in(&dir, &["-check", "-"], "a=1\n");
        assert_eq!((code, out.as_str()), (3, ""));
        let (code, out, _) = run_in(&dir, &["-check", "-"], "a = 1\n");
        assert_eq!((code, out.as_str()), (0, ""));
        let (code, out, _) = run_in(&dir, &["-diff", "-"], "a=1\n");
        assert_eq!(
            (code, out.as_str()),
            (
                0,
                "--- old/<stdin>\n+++ new/<stdin>\n@@ -1 +1 @@\n-a=1\n+a = 1\n"
            )
        );
    }

    #[test]
    fn syntax_errors_exit_2_and_bad_flags_exit_1() {
        let dir = std::env::temp_dir();
        let (code, out, err) = run_in(&dir, &["-"], "a = \n");
        assert_eq!((code, out.as_str()), (2, ""));
        assert!(err.contains("Invalid expression"), "{err}");
        let (code, _, err) = run_in(&dir, &["-bogus"], "");
        assert_eq!(code, 1);
        assert!(
            err.contains("flag provided but not defined: -bogus"),
            "{err}"
        );
        let (code, _, _) = run_in(&dir, &["-list=maybe"], "");
        assert_eq!(code, 1);
    }

    #[test]
    fn diff_hunks_have_context_and_counts() {
        let old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n";
        let new = "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nL\nm\n";
        assert_eq!(
            unified_diff(old, new, "x"),
            "--- old/x\n+++ new/x\n@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n@@ -9,5 +9,5 @@\n i\n j\n k\n-l\n+L\n m\n"
        );
        assert_eq!(
            unified_diff("a\n", "a\nb\n", "x"),
            "--- old/x\n+++ new/x\n@@ -1 +1,2 @@\n a\n+b\n"
        );
        assert_eq!(
            unified_diff("x", "x\n", "f"),
            "--- old/f\n+++ new/f\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n"
        );
        assert_eq!(clean("./a/../b//c.tf"), "b/c.tf");
        assert_eq!(clean("."), ".");
    }
}
