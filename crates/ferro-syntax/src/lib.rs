//! HCL native syntax for ferro: a logos lexer, a chumsky parser and the AST in [`ast`].
//!
//! **Architecture invariant:** this crate knows nothing of salsa, providers, state or IO.
//! Parsing never fails and never panics: it returns a tree plus diagnostics.

pub mod ast;
pub mod debug;
mod error;
mod expr;
pub mod fmt;
mod json;
mod layout;
mod lexer;
mod parser;
mod template;

pub use fmt::format_source;
pub use lexer::{lex, Token};

use ferro_diag::{Diagnostic, FileId};

/// The result of parsing one file: the tree, every comment, and the syntax diagnostics.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Parsed {
    pub body: ast::Body,
    pub comments: Vec<ast::Comment>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parse a whole configuration file (`.tf`, `.tfvars`).
pub fn parse_file(file: FileId, text: &str) -> Parsed {
    parser::parse_file(file, text)
}

/// A string quoted as Go's `%q` quotes it (`strconv.Quote`), as Terraform prints block labels,
/// graph vertex names and the strings of a backend's configuration hash.
pub fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The header of the top-level block of a native-syntax file that contains byte `offset`, as
/// Terraform names the context of a diagnostic (`resource "null_resource" "a"`, `locals`);
/// None outside every block (a top-level argument, a `.tfvars` file).
pub fn context_string(text: &str, offset: usize) -> Option<String> {
    let parsed = parse_file(FileId(0), text);
    let block = parsed.body.items.iter().find_map(|item| match item {
        ast::BodyItem::Block(b)
            if (b.span.start as usize) <= offset && offset < b.span.end as usize =>
        {
            Some(b)
        }
        _ => None,
    })?;
    let mut out = block.ty.name.to_string();
    for l in &block.labels {
        out.push(' ');
        out.push_str(&go_quote(&l.value));
    }
    Some(out)
}

/// Parse a configuration file in the HCL JSON syntax (`.tf.json`): the same tree the native
/// syntax gives for the equivalent configuration, with spans into the JSON text.
pub fn parse_json_file(file: FileId, text: &str) -> Parsed {
    json::parse_json_file(file, text)
}

/// Parse a test file (`*.tftest.json`) or a shared mock file (`*.tfmock.json`) in the JSON
/// syntax: `run`, `provider`, `mock_provider` and the other blocks of test files.
pub fn parse_json_test_file(file: FileId, text: &str) -> Parsed {
    json::parse_json_test_file(file, text)
}

/// Parse the body of an `encryption` block in the JSON syntax (OpenTofu's `TF_ENCRYPTION`
/// environment variable holds one, in HCL or JSON).
pub fn parse_json_encryption(file: FileId, text: &str) -> Parsed {
    json::parse_json_encryption(file, text)
}

/// Parse a JSON variable-definitions file (`.tfvars.json`): one attribute per property, with
/// literal values (strings are not templates).
pub fn parse_json_values(file: FileId, text: &str) -> Parsed {
    json::parse_json_values(file, text)
}

/// Parse a bare template (HashiCorp's `ParseTemplate`): text with `${}` interpolations and `%{}`
/// directives, no quotes and no backslash escapes.
pub fn parse_template(file: FileId, text: &str) -> (ast::Expr, Vec<Diagnostic>) {
    parser::parse_template(file, text)
}

/// Parse a single expression (used by `ferro console`, `-var` values and tests).
/// Trailing input after the expression is an error.
pub fn parse_expr(file: FileId, text: &str) -> (ast::Expr, Vec<Diagnostic>) {
    parser::parse_expr(file, text)
}

/// Decode a file's bytes as UTF-8. Each invalid byte sequence becomes U+FFFD in the returned
/// text and is reported (with a span on the replacement character), so a file that is not UTF-8
/// gets diagnostics rather than a refusal to read it.
pub fn decode_source(file: FileId, bytes: &[u8]) -> (String, Vec<Diagnostic>) {
    let mut text = String::with_capacity(bytes.len());
    let mut diags = Vec::new();
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        if !chunk.invalid().is_empty() {
            let at = text.len();
            text.push('\u{FFFD}');
            if diags.len() < 10 {
                diags.push(
                    Diagnostic::error("syntax-invalid-utf8", "Invalid character encoding")
                        .with_detail(
                            "All input files must be UTF-8 encoded, but this byte sequence is not valid \
                             UTF-8. Ensure that UTF-8 encoding is selected in your editor.",
                        )
                        .with_span(ferro_diag::Span::new(file, at..text.len())),
                );
            }
        }
    }
    (text, diags)
}

#[cfg(test)]
mod context_tests {
    use super::context_string;

    #[test]
    fn the_top_level_block_around_an_offset_names_the_context() {
        let text = "locals {\n  a = 1\n}\nresource \"x\" \"y\" {\n  dynamic \"d\" {\n    content {}\n  }\n}\nz = 1\n";
        let at = |needle: &str| text.find(needle).unwrap();
        assert_eq!(context_string(text, at("a = 1")).as_deref(), Some("locals"));
        // Nested blocks are named by the top-level block around them.
        assert_eq!(
            context_string(text, at("content")).as_deref(),
            Some("resource \"x\" \"y\"")
        );
        assert_eq!(context_string(text, at("z = 1")), None);
        assert_eq!(context_string(text, text.len()), None);
    }
}
