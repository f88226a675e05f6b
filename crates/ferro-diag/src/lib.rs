//! Diagnostics as data: severity, stable code, summary, detail, source span, labels and the
//! address of the object concerned, plus their terminal rendering through ariadne.
//!
//! Every stage of ferro returns `Vec<Diagnostic>` beside its result; nothing here does IO
//! beyond writing into a `String`.

mod hcl_range;
mod render;
mod span;
mod suggest;

pub use hcl_range::{hcl_range, name_ranges, range_mark};
pub use render::{consolidate_warnings, line_col, render, render_one, SourceLookup};
pub use span::{FileId, Span};
pub use suggest::{edit_distance, suggest};

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Severity {
    Error,
    Warning,
}

/// A secondary location with its own message ("previous declaration here").
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A value the expression in error refers to, as Terraform shows it under the source:
/// `null_resource.a` (the traversal) `is tuple with 2 elements` (the statement).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ExprValue {
    pub traversal: String,
    pub statement: String,
}

/// One problem found in the user's input, in a provider's answer, or while running.
///
/// `summary` is constant text for a given `code`; `detail` says what, why and how to fix.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// Stable kebab-case name, e.g. `undeclared-reference`.
    pub code: String,
    pub summary: String,
    pub detail: String,
    pub span: Option<Span>,
    pub labels: Vec<Label>,
    /// The object concerned, e.g. `terraform_data.a[0]`.
    pub address: Option<String>,
    /// For an error in evaluating an expression: the values it refers to, by traversal.
    pub values: Vec<ExprValue>,
}

impl Diagnostic {
    pub fn error(code: &str, summary: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, summary)
    }

    pub fn warning(code: &str, summary: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, summary)
    }

    fn new(severity: Severity, code: &str, summary: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code: code.to_string(),
            summary: summary.into(),
            detail: String::new(),
            span: None,
            labels: Vec::new(),
            address: None,
            values: Vec::new(),
        }
    }

    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = detail.into();
        self
    }

    pub fn with_span(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    pub fn with_span_opt(mut self, span: Option<Span>) -> Self {
        self.span = span;
        self
    }

    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    pub fn with_address(mut self, address: impl Into<String>) -> Self {
        self.address = Some(address.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// True when any diagnostic in the slice is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(Diagnostic::is_error)
}
