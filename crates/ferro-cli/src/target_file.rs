//! `-target-file=FILE` and `-exclude-file=FILE` (OpenTofu 1.10): one address a line, read as
//! OpenTofu reads them. A line whose first non-blank character is `#` is a comment; every
//! other line, a blank one included, must hold one address (a trailing `#` or `//` comment
//! allowed, as HCL's traversal parser skips comments). A bad line is an error at its range in
//! the file, and the file joins the sources diagnostics are drawn from.

use crate::load::Loaded;
use ferro_addrs::Target;
use ferro_diag::{Diagnostic, Span};
use std::path::Path;

/// The addresses of every file in `paths` (relative to `dir`), in order; what is wrong with a
/// file or a line goes to `diags`.
pub(crate) fn read_target_files(
    l: &mut Loaded,
    dir: &Path,
    paths: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Target> {
    let mut out = Vec::new();
    for path in paths {
        let text = match std::fs::read(dir.join(path)) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => {
                diags.push(
                    Diagnostic::error("target-file", "Failed to read target file")
                        .with_detail(format!("open {path}: {}", go_io_error(&e))),
                );
                continue;
            }
        };
        let file = l.add_source(path.clone(), text.clone());
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            let start = at;
            at += line.len();
            let body = line.trim_end_matches('\n').trim_end_matches('\r');
            if body.trim_start().starts_with('#') {
                continue;
            }
            // The last line ends the file: an empty one after a final newline is no line.
            if body.is_empty() && start == text.len() {
                continue;
            }
            let address = strip_comment(body).trim();
            let lead = body.len() - body.trim_start().len();
            let span = Span::new(file, start + lead..start + lead + address.len());
            if address.is_empty() {
                diags.push(
                    Diagnostic::error("target-file", "Variable name required")
                        .with_detail("Must begin with a variable name.")
                        .with_span(span),
                );
                continue;
            }
            match ferro_addrs::parse_target(address) {
                Ok(t) => out.push(t),
                Err(_) => {
                    let detail = if address.contains('[') {
                        "Index brackets must contain either a literal number or a literal string."
                    } else {
                        "Resource specification must include a resource type and name."
                    };
                    diags.push(
                        Diagnostic::error("target-file", "Invalid address")
                            .with_detail(detail)
                            .with_span(span),
                    );
                }
            }
        }
    }
    out
}

/// A line without the comment that ends it (`#` or `//` outside a quoted key).
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut quoted = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quoted => i += 1,
            b'"' => quoted = !quoted,
            b'#' if !quoted => return &line[..i],
            b'/' if !quoted && bytes.get(i + 1) == Some(&b'/') => return &line[..i],
            _ => {}
        }
        i += 1;
    }
    line
}

/// An I/O error in the words of Go's `os` package, as OpenTofu prints it.
fn go_io_error(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::strip_comment;

    #[test]
    fn comments_end_a_line_outside_quoted_keys() {
        assert_eq!(strip_comment("a.b # note"), "a.b ");
        assert_eq!(strip_comment("a.b // note"), "a.b ");
        assert_eq!(strip_comment(r#"a.b["x#y"]"#), r#"a.b["x#y"]"#);
        assert_eq!(strip_comment(r##"a.b["x\"#"] # c"##), r##"a.b["x\"#"] "##);
    }
}
