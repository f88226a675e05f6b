//! Diagnostics of the semantic queries (`module_index`, `module_tree`, `item_graph`), kept free
//! of source positions: they name item ranges by [`Loc`] (a file and a [`SpanId`] of its item
//! tree) and get their ranges from the files' source maps only when they are reported. So an
//! edit that only moves text leaves these queries' values unchanged.

use crate::{source_map, Db, SourceFile};
use ferro_diag::{Diagnostic, Span};
use ferro_hir::SpanId;

/// Where in which file: a position-free reference to an item's range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Loc {
    pub file: SourceFile,
    pub span: SpanId,
}

impl Loc {
    pub fn new(file: SourceFile, span: SpanId) -> Loc {
        Loc { file, span }
    }

    /// The range, read from the file's source map.
    pub fn span(self, db: &dyn Db) -> Span {
        source_map(db, self.file).at(self.span)
    }
}

/// Replaced in a pending diagnostic's detail by the label's range as HCL writes it
/// (`main.tf:1,1-29`).
pub const RANGE_MARK: &str = "\u{1}range\u{1}";
/// Replaced in a pending diagnostic's detail by the line of its primary range.
pub const LINE_MARK: &str = "\u{1}line\u{1}";

/// A diagnostic whose ranges are still [`Loc`]s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// The diagnostic without span or labels.
    pub diag: Diagnostic,
    pub at: Option<Loc>,
    pub label: Option<(Loc, String)>,
}

impl Pending {
    pub fn new(diag: Diagnostic, at: Loc) -> Pending {
        Pending {
            diag,
            at: Some(at),
            label: None,
        }
    }

    pub fn with_label(mut self, at: Loc, text: &str) -> Pending {
        self.label = Some((at, text.to_string()));
        self
    }

    /// The diagnostic with its ranges.
    pub fn resolve(&self, db: &dyn Db) -> Diagnostic {
        let mut d = self.diag.clone();
        if let Some(at) = self.at {
            let span = at.span(db);
            if d.detail.contains(LINE_MARK) {
                let line = ferro_diag::line_col(at.file.text(db), span.start as usize).0;
                d.detail = d.detail.replace(LINE_MARK, &line.to_string());
            }
            d = d.with_span(span);
        }
        if let Some((at, text)) = &self.label {
            let span = at.span(db);
            if d.detail.contains(RANGE_MARK) {
                let range = ferro_diag::hcl_range(at.file.path(db), at.file.text(db), span);
                d.detail = d.detail.replace(RANGE_MARK, &range);
            }
            d = d.with_label(span, text.as_str());
        }
        d
    }
}
