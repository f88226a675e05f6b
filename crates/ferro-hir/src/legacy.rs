//! Forms Terraform 1.0.3 still reads with a deprecation warning (quoted references, version
//! constraints in provider blocks, active experiments) and the ones it rejects while loading
//! (the `["*"]` ignore_changes wildcard, reserved names in provider blocks, provider local
//! names and source strings that are not normalised).

use super::{literal_string, Lower};
use ferro_diag::{Diagnostic, Span};
use ferro_syntax::ast::{self, BodyItem, ExprKind};

const QUOTED_REFERENCE_DETAIL: &str = "In this context, references are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted references are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this reference to silence this warning.";

/// Arguments Terraform reserves in provider blocks for future use.
/// (`for_each` is OpenTofu 1.9's: one configuration instance per element.)
pub(super) const RESERVED_PROVIDER_ARGUMENTS: &[&str] = &["count", "depends_on", "source"];
/// Block types Terraform reserves in provider blocks for future use.
pub(super) const RESERVED_PROVIDER_BLOCKS: &[&str] = &["lifecycle", "locals"];

/// Experiments Terraform 1.0.3 knows and that are still active.
const ACTIVE_EXPERIMENTS: &[&str] = &["module_variable_optional_attrs"];
/// Experiments that have concluded (their feature is always on).
const CONCLUDED_EXPERIMENTS: &[(&str, &str)] = &[
    ("variable_validation", "Custom variable validation can now be used by default, without enabling an experiment."),
    ("provider_sensitive_attrs", "Provider-defined sensitive attributes are now redacted by default, without enabling an experiment."),
];

pub(super) fn quoted_reference_warning(span: Span) -> Diagnostic {
    Diagnostic::warning("quoted-reference", "Quoted references are deprecated")
        .with_detail(QUOTED_REFERENCE_DETAIL)
        .with_span(span)
}

impl Lower {
    fn warn(&mut self, d: Diagnostic) {
        self.map.diagnostics.push(d);
    }

    /// A reference written as a quoted string (`"null_resource.a"`): warns as Terraform does and
    /// returns the reference parsed from the string's text, positioned where the text is in
    /// the file. None for anything that is not a literal string.
    pub(super) fn quoted_traversal(&mut self, e: &ast::Expr) -> Option<ast::Expr> {
        let text = literal_string(e)?;
        self.warn(quoted_reference_warning(e.span));
        // Move the parsed tree to where the text is in the file (exact when the string has no
        // escapes, which references never need).
        let start = e.span.start + 1;
        let exact = e.span.end as usize == start as usize + text.len() + 1;
        let (mut parsed, diags) = ferro_syntax::parse_expr(self.file, &text);
        let mut shift = |s: Span| match exact {
            true => Span {
                file: s.file,
                start: s.start + start,
                end: s.end + start,
            },
            false => e.span,
        };
        if diags.iter().any(Diagnostic::is_error) {
            for d in diags.into_iter().filter(Diagnostic::is_error) {
                let span = d.span.map(&mut shift);
                self.map.diagnostics.push(Diagnostic { span, ..d });
            }
            return None;
        }
        parsed.map_spans(&mut shift);
        Some(parsed)
    }

    /// `ignore_changes = ["*"]` (an error since Terraform 0.12) and quoted attribute names
    /// (a deprecation warning); the list itself is lowered by `lifecycle`.
    pub(super) fn ignore_changes_legacy(&mut self, e: &ast::Expr) {
        let ExprKind::Tuple(items) = &e.kind else {
            return;
        };
        let mut wildcard = false;
        for it in items {
            match literal_string(it).as_deref() {
                Some("*") => {
                    wildcard = true;
                    self.error(
                        "invalid-ignore-changes",
                        "Invalid ignore_changes wildcard",
                        "The [\"*\"] form of ignore_changes wildcard is was deprecated and is now invalid. Use \"ignore_changes = all\" to ignore changes to all attributes.",
                        e.span,
                    );
                }
                Some(_) => self.warn(quoted_reference_warning(it.span)),
                None => {}
            }
        }
        if wildcard && items.len() > 1 {
            self.error(
                "invalid-ignore-changes",
                "Invalid ignore_changes ruleset",
                "Cannot mix wildcard string \"*\" with non-wildcard references.",
                e.span,
            );
        }
    }

    /// What Terraform checks in a provider block before its schema is known: the local name,
    /// names reserved for future use, and the deprecated `version` argument.
    pub(super) fn provider_block_checks(&mut self, b: &ast::Block, name: &str) {
        if let Err(detail) = local_name_problem(name) {
            self.error(
                "invalid-provider-local-name",
                "Invalid provider local name",
                detail,
                Self::header_span(b),
            );
        }
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "version" => self.warn(
                    Diagnostic::warning(
                        "provider-version-deprecated",
                        "Version constraints inside provider configuration blocks are deprecated",
                    )
                    .with_detail("Terraform 0.13 and earlier allowed provider version constraints inside the provider configuration block, but that is now deprecated and will be removed in a future version of Terraform. To silence this warning, move the provider version constraint into the required_providers block.")
                    .with_span(a.expr.span),
                ),
                BodyItem::Attribute(a)
                    if RESERVED_PROVIDER_ARGUMENTS.contains(&a.name.name.as_str()) =>
                {
                    self.error(
                        "reserved-provider-argument",
                        "Reserved argument name in provider block",
                        format!("The provider argument name {:?} is reserved for use by Terraform in a future version.", a.name.name),
                        a.name.span,
                    )
                }
                BodyItem::Block(inner)
                    if RESERVED_PROVIDER_BLOCKS.contains(&inner.ty.name.as_str()) =>
                {
                    self.error(
                        "reserved-provider-block",
                        "Reserved block type name in provider block",
                        format!("The block type name {:?} is reserved for use by Terraform in a future version.", inner.ty.name),
                        inner.ty.span,
                    )
                }
                _ => {}
            }
        }
    }

    /// A `required_providers` entry: its local name must be normalised and its source valid.
    pub(super) fn required_provider_checks(
        &mut self,
        a: &ast::Attribute,
        source: Option<(&str, Span)>,
    ) {
        if let Err(detail) = local_name_problem(&a.name.name) {
            self.error(
                "invalid-provider-local-name",
                "Invalid provider local name",
                detail,
                a.expr.span,
            );
        }
        if let Some((src, span)) = source {
            if let Err((summary, detail)) = source_problem(src) {
                self.error("invalid-provider-source", summary, detail, span);
            }
        }
    }

    /// `experiments = [...]` in a `terraform` block.
    pub(super) fn experiments(&mut self, a: &ast::Attribute) {
        let ExprKind::Tuple(items) = &a.expr.kind else {
            self.error(
                "invalid-experiments",
                "Invalid expression",
                "A static list expression is required.",
                super::start_span(&a.expr),
            );
            return;
        };
        for it in items {
            let ExprKind::Variable(id) = &it.kind else {
                self.error(
                    "invalid-experiments",
                    "Invalid experiment keyword",
                    "Elements of \"experiments\" must all be keywords representing active experiments.",
                    it.span,
                );
                continue;
            };
            let name = id.name.as_str();
            if ACTIVE_EXPERIMENTS.contains(&name) {
                self.warn(
                    Diagnostic::warning("experiment-active", format!("Experimental feature {name:?} is active"))
                        .with_detail("Experimental features are subject to breaking changes in future minor or patch releases, based on feedback.\n\nIf you have feedback on the design of this feature, please open a GitHub issue to discuss it.")
                        .with_span(it.span),
                );
            } else if let Some((_, msg)) = CONCLUDED_EXPERIMENTS.iter().find(|(n, _)| *n == name) {
                self.error(
                    "invalid-experiments",
                    "Experiment has concluded",
                    format!("Experiment {name:?} is no longer available. {msg}"),
                    it.span,
                );
            } else {
                self.error(
                    "invalid-experiments",
                    "Unknown experiment keyword",
                    format!("There is no current experiment with the keyword {name:?}."),
                    it.span,
                );
            }
        }
    }
}

/// Terraform's rules for one part of a provider address (a local name, namespace or type):
/// letters, digits and dashes, no leading, trailing or doubled dashes.
fn provider_part_problem(s: &str) -> Option<&'static str> {
    if s.is_empty() {
        return Some("must have at least one character");
    }
    if !s.chars().all(|c| c.is_alphanumeric() || c == '-') || s.starts_with('-') || s.ends_with('-')
    {
        return Some("must contain only letters, digits, and dashes, and may not use leading or trailing dashes");
    }
    if s.contains("--") {
        return Some("cannot use multiple consecutive dashes");
    }
    None
}

fn local_name_problem(name: &str) -> Result<(), String> {
    if let Some(why) = provider_part_problem(name) {
        return Err(format!("{name} is an invalid provider local name: {why}"));
    }
    let normal = name.to_lowercase();
    if normal != name {
        return Err(format!("Provider names must be normalized. Replace {name:?} with {normal:?} to fix this error."));
    }
    Ok(())
}

fn source_problem(src: &str) -> Result<(), (&'static str, String)> {
    let format_err = || {
        (
            "Invalid provider source string",
            "The \"source\" attribute must be in the format \"[hostname/][namespace/]name\""
                .to_string(),
        )
    };
    let parts: Vec<&str> = src.split('/').collect();
    if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
        return Err(format_err());
    }
    let ty = parts[parts.len() - 1];
    if let Some(why) = provider_part_problem(ty) {
        return Err((
            "Invalid provider type",
            format!("Invalid provider type {ty:?} in source {src:?}: {why}\""),
        ));
    }
    let mut namespace = "hashicorp".to_string();
    if parts.len() >= 2 {
        let ns = parts[parts.len() - 2];
        if ns != "-" {
            if let Some(why) = provider_part_problem(ns) {
                return Err((
                    "Invalid provider namespace",
                    format!("Invalid provider namespace {ns:?} in source {src:?}: {why}\""),
                ));
            }
        }
        namespace = ns.to_lowercase();
    }
    let ty = ty.to_lowercase();
    if let Some(rest) = ty.strip_prefix("terraform-provider-") {
        let host = match parts.len() {
            3 => format!("{}/", parts[0].to_lowercase()),
            _ => String::new(),
        };
        return Err((
            "Invalid provider type",
            format!("Provider source {:?} has a type with the prefix \"terraform-provider-\", which isn't valid. Although that prefix is often used in the names of version control repositories for Terraform providers, provider source strings should not include it.\n\nDid you mean {:?}?", format!("{host}{namespace}/{ty}"), format!("{namespace}/{rest}")),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_names_as_terraform_checks_them() {
        assert!(local_name_problem("null").is_ok());
        assert!(local_name_problem("my-cloud2").is_ok());
        assert_eq!(
            local_name_problem("Null").unwrap_err(),
            "Provider names must be normalized. Replace \"Null\" with \"null\" to fix this error."
        );
        assert_eq!(
            local_name_problem("a_b").unwrap_err(),
            "a_b is an invalid provider local name: must contain only letters, digits, and dashes, and may not use leading or trailing dashes"
        );
    }

    #[test]
    fn sources_as_terraform_checks_them() {
        assert!(source_problem("hashicorp/null").is_ok());
        assert!(source_problem("example.com/Acme/Thing").is_ok());
        let (s, d) = source_problem("hashicorp/terraform-provider-null").unwrap_err();
        assert_eq!(s, "Invalid provider type");
        assert!(d.starts_with("Provider source \"hashicorp/terraform-provider-null\" has a type"));
        assert!(d.ends_with("Did you mean \"hashicorp/null\"?"));
        let (_, d) = source_problem("hashicorp/Null_x").unwrap_err();
        assert_eq!(d, "Invalid provider type \"Null_x\" in source \"hashicorp/Null_x\": must contain only letters, digits, and dashes, and may not use leading or trailing dashes\"");
        assert_eq!(
            source_problem("a//b").unwrap_err().0,
            "Invalid provider source string"
        );
    }
}
