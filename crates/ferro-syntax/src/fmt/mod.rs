//! `ferro fmt`: the canonical formatting of HCL native syntax, byte-identical to `terraform fmt`
//! of Terraform 1.0.3.
//!
//! Like Terraform's formatter (hclwrite) this works on tokens, not on the tree:
//!
//! 1. the source must parse without errors (otherwise the diagnostics are returned and nothing
//!    is formatted);
//! 2. the source is split into tokens of the classes the HashiCorp scanner uses ([`scan`]);
//! 3. Terraform's own rewrites are applied, using the tree to find the tokens of each attribute
//!    value and block header ([`rewrite`]): `"${expr}"` becomes `expr`, legacy type names in
//!    `variable` blocks are modernised, block labels are re-quoted;
//! 4. the tokens are grouped into lines, every line is indented by its bracket nesting, the
//!    spaces between tokens are recomputed, and the `=` signs and line-end comments of
//!    consecutive lines are aligned ([`layout`]).
//!
//! Only whitespace between tokens changes in step 4: literal text, heredoc bodies, comments and
//! line endings (LF or CRLF) are copied unchanged.

mod layout;
mod rewrite;
mod scan;

use ferro_diag::{has_errors, Diagnostic, FileId};

/// Format one configuration file (`.tf` or `.tfvars`). Returns the syntax errors instead when
/// the source does not parse.
pub fn format_source(src: &str) -> Result<String, Vec<Diagnostic>> {
    format_file(FileId(0), src)
}

/// [`format_source`] with diagnostics attributed to `file`.
pub fn format_file(file: FileId, src: &str) -> Result<String, Vec<Diagnostic>> {
    // The passes over the tree recurse with the nesting of expressions; a stack of its own
    // keeps 10 000-term chains and deeply nested conditionals from overflowing.
    stacker::grow(64 << 20, || format_file_here(file, src))
}

fn format_file_here(file: FileId, src: &str) -> Result<String, Vec<Diagnostic>> {
    let parsed = crate::parse_file(file, src);
    if has_errors(&parsed.diagnostics) {
        return Err(parsed.diagnostics);
    }
    // HashiCorp's parser rejects a body that sets an argument twice, so terraform fmt does too.
    let mut dups = Vec::new();
    redefined(&parsed.body, &mut dups);
    if !dups.is_empty() {
        return Err(dups);
    }
    let bom = if src.starts_with('\u{FEFF}') {
        '\u{FEFF}'.len_utf8()
    } else {
        0
    };
    let (mut toks, trailing) = scan::scan(&src[bom..], bom);
    rewrite::apply(&parsed.body, &mut toks);
    let mut out = layout::format_tokens(&mut toks);
    out.extend(std::iter::repeat_n(' ', trailing));
    // Like terraform fmt, no final newline is added: an empty file stays empty.
    Ok(out)
}

fn redefined(body: &crate::ast::Body, out: &mut Vec<Diagnostic>) {
    use crate::ast::BodyItem;
    let mut seen: Vec<&crate::ast::Ident> = Vec::new();
    for item in &body.items {
        match item {
            BodyItem::Attribute(a) => {
                if let Some(prev) = seen.iter().find(|p| p.name == a.name.name) {
                    out.push(
                        Diagnostic::error("attribute-redefined", "Attribute redefined")
                            .with_detail(format!(
                                "The argument {:?} was already set. Each argument may be set only once.",
                                a.name.name
                            ))
                            .with_span(a.name.span)
                            .with_label(prev.span, "first set here"),
                    );
                } else {
                    seen.push(&a.name);
                }
            }
            BodyItem::Block(b) => redefined(&b.body, out),
        }
    }
}
