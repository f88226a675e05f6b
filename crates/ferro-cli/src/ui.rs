//! How commands report to the terminal: diagnostics (warnings on standard output,
//! consolidated; errors on standard error; the JSON stream under `-json`), a plain error, and
//! the `-var`/`-var-file` arguments every planning command reads. A leaf of the CLI: it imports
//! no command module.

use crate::Io;
use ferro_diag::Diagnostic;

/// Print diagnostics as Terraform does: warnings on standard output (those sharing a summary
/// consolidated into the first), errors on standard error.
pub(crate) fn print_diags(
    io: &mut Io<'_>,
    diags: &[Diagnostic],
    sources: &dyn ferro_diag::SourceLookup,
    color: bool,
) {
    if crate::json_ui::active() {
        crate::json_ui::diagnostics(io.stdout, diags, sources);
        return;
    }
    let (errors, warnings): (Vec<Diagnostic>, Vec<Diagnostic>) =
        diags.iter().cloned().partition(Diagnostic::is_error);
    print_warnings(io, &warnings, sources, color);
    if !errors.is_empty() {
        let text = ferro_diag::render(&errors, sources, color);
        let _ = io.stderr.write_all(text.as_bytes());
    }
}

/// Print warnings on standard output, consolidated.
pub(crate) fn print_warnings(
    io: &mut Io<'_>,
    warnings: &[Diagnostic],
    sources: &dyn ferro_diag::SourceLookup,
    color: bool,
) {
    write_warnings(io, warnings, sources, color, false);
}

/// [`print_warnings`] on standard error (in `-json` mode they stay in the JSON stream): for
/// warnings about the run itself, printed before any command output, which may be data that
/// must stay exactly that (`state pull`, `output -raw`, `show -json`).
pub(crate) fn print_warnings_stderr(
    io: &mut Io<'_>,
    warnings: &[Diagnostic],
    sources: &dyn ferro_diag::SourceLookup,
    color: bool,
) {
    write_warnings(io, warnings, sources, color, true);
}

fn write_warnings(
    io: &mut Io<'_>,
    warnings: &[Diagnostic],
    sources: &dyn ferro_diag::SourceLookup,
    color: bool,
    stderr: bool,
) {
    if crate::json_ui::active() {
        crate::json_ui::diagnostics(io.stdout, warnings, sources);
        return;
    }
    let warnings = ferro_diag::consolidate_warnings(warnings);
    if !warnings.is_empty() {
        let text = ferro_diag::render(&warnings, sources, color);
        let out: &mut (dyn std::io::Write + Send) = if stderr {
            &mut *io.stderr
        } else {
            &mut *io.stdout
        };
        let _ = out.write_all(text.as_bytes());
    }
}

pub(crate) fn plain_error(io: &mut Io<'_>, summary: &str, detail: &str) -> i32 {
    let d = Diagnostic::error("cli", summary).with_detail(detail);
    print_diags(io, &[d], &ferro_db::Sources::from_files(Vec::new()), false);
    1
}

/// `-var` and `-var-file` in command-line order (later ones win).
pub(crate) fn var_args(raw: &[String]) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < raw.len() {
        let a = raw[i].trim_start_matches('-');
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (a, None),
        };
        if raw[i].starts_with('-') && (name == "var" || name == "var-file") {
            let v = match inline {
                Some(v) => Some(v),
                None => {
                    i += 1;
                    raw.get(i).cloned()
                }
            };
            if let Some(v) = v {
                out.push((name == "var-file", v));
            }
        }
        i += 1;
    }
    out
}
