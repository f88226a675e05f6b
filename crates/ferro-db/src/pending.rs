//! Diagnostics kept free of source positions until they are shown.
//!
//! The semantic queries (`module_index`, `module_tree`, `item_graph`) and validation read item
//! trees only. What they report names its ranges by [`Place`]: a file and an [`At`], an id of
//! the item tree (an item's [`SpanId`], an expression's [`ExprId`]) with the rule HCL uses to
//! point at it. The ranges are read from the file's source map (and, for the few rules that
//! look at the text, from the file's text) only when the diagnostic is resolved for showing.
//! So an edit that only moves text leaves these queries' values unchanged, and nothing
//! computed from them runs again.

use crate::{source_map, Db, SourceFile};
use ferro_diag::{Diagnostic, Span};
use ferro_hir::{ExprId, SourceMap, SpanId};

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

/// What a diagnostic points at within one file, as ids of its item tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum At {
    /// A range lowering recorded (an item, an argument's name, a block's type).
    Id(SpanId),
    /// An expression's whole range.
    Expr(ExprId),
    /// HCL's start range of an expression ([`SourceMap::start_span`]).
    ExprStart(ExprId),
    /// The step of an attribute access or index ([`SourceMap::step_span`]).
    ExprStep(ExprId),
    /// The first `len` bytes of an expression's range (the root name of a reference).
    ExprHead(ExprId, u32),
    /// An expression's range, or `or` when the expression has none.
    ExprOr(ExprId, SpanId),
    /// What HCL's decoder reports missing from the native body whose inside is `body`: its
    /// `{`, or the first character of a one-line body's first argument; `or` when the body
    /// is not native text of this file.
    MissingItem { body: SpanId, or: SpanId },
    /// The `{` of the native body whose inside is `body`, or `or`.
    OpenBrace { body: SpanId, or: SpanId },
    /// HCL's `MissingItemRange` of a body as the planner has it: the `{` before a native body,
    /// the character after a JSON one.
    BodyEdge { body: SpanId, json: bool },
    /// The label number `n` written after the block type at `ty` (a quoted string or a bare
    /// name), or the type itself when there is no such label.
    Label { ty: SpanId, n: u32 },
}

/// A position-free range in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    pub file: SourceFile,
    pub at: At,
}

impl Place {
    pub fn new(file: SourceFile, at: At) -> Place {
        Place { file, at }
    }

    /// The range, read from the file's source map (and text, for the rules that need it).
    pub fn span(self, db: &dyn Db) -> Option<Span> {
        let map = source_map(db, self.file);
        resolve_at(map, self.file.id(db), self.file.text(db), self.at)
    }
}

impl From<Loc> for Place {
    fn from(l: Loc) -> Place {
        Place::new(l.file, At::Id(l.span))
    }
}

/// The range `at` names in the file `file` whose source map and text are given.
pub fn resolve_at(map: &SourceMap, file: ferro_diag::FileId, text: &str, at: At) -> Option<Span> {
    match at {
        At::Id(id) => Some(map.at(id)),
        At::Expr(e) => map.span(e),
        At::ExprStart(e) => map.start_span(e),
        At::ExprStep(e) => map.step_span(e),
        At::ExprHead(e, len) => map.span(e).map(|s| Span {
            end: (s.start + len).min(s.end),
            ..s
        }),
        At::ExprOr(e, or) => map.span(e).or(Some(map.at(or))),
        At::MissingItem { body, or } => missing_item(text, file, map.at(body)).or(Some(map.at(or))),
        At::OpenBrace { body, or } => open_brace(text, file, map.at(body)).or(Some(map.at(or))),
        At::BodyEdge { body, json } => {
            let s = map.at(body);
            Some(if json {
                Span {
                    start: s.end,
                    end: s.end + 1,
                    ..s
                }
            } else {
                Span {
                    start: s.start.saturating_sub(1),
                    end: s.start,
                    ..s
                }
            })
        }
        At::Label { ty, n } => {
            let ty = map.at(ty);
            Some(
                label_spans(text, file, ty)
                    .get(n as usize)
                    .copied()
                    .unwrap_or(ty),
            )
        }
    }
}

/// The `{` opening a native-syntax body whose inside is `s`, when `s` is text of `file`.
fn open_brace(text: &str, file: ferro_diag::FileId, s: Span) -> Option<Span> {
    if s.file != file {
        return None;
    }
    let brace = s.start.checked_sub(1)?;
    (text.as_bytes().get(brace as usize) == Some(&b'{')).then_some(Span {
        start: brace,
        end: s.start,
        ..s
    })
}

/// Where HCL reports something missing from a body (`MissingItemRange`): its `{`, except that
/// a one-line body such as `{ label = "x" }` starts at its argument.
fn missing_item(text: &str, file: ferro_diag::FileId, s: Span) -> Option<Span> {
    let brace = open_brace(text, file, s)?;
    let after = text.get(brace.end as usize..)?;
    let rest = after.trim_start_matches([' ', '\t']);
    let one_line = rest
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_');
    if !one_line {
        return Some(brace);
    }
    let start = brace.end + (after.len() - rest.len()) as u32;
    let width = rest.chars().next().map_or(1, char::len_utf8) as u32;
    Some(Span {
        start,
        end: start + width,
        ..brace
    })
}

/// The ranges of a native-syntax block's labels (quoted strings or bare names after its type
/// at `ty`).
fn label_spans(text: &str, file: ferro_diag::FileId, ty: Span) -> Vec<Span> {
    let mut out = Vec::new();
    if ty.file != file {
        return out;
    }
    let bytes = text.as_bytes();
    let mut i = ty.end as usize;
    loop {
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        let start = i;
        match bytes.get(i) {
            Some(b'"') => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(bytes.len());
            }
            Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
                while bytes
                    .get(i)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-'))
                {
                    i += 1;
                }
            }
            _ => return out,
        }
        out.push(Span {
            start: start as u32,
            end: i as u32,
            ..ty
        });
    }
}

/// Replaced in a pending diagnostic's detail by the label's range as HCL writes it
/// (`main.tf:1,1-29`).
pub const RANGE_MARK: &str = "\u{1}range\u{1}";
/// Replaced in a pending diagnostic's detail by the line of its primary range.
pub const LINE_MARK: &str = "\u{1}line\u{1}";
/// Replaced in a pending diagnostic's detail by the range of its `previous` place as HCL
/// writes it.
pub const PREVIOUS_MARK: &str = "\u{1}previous\u{1}";

/// A diagnostic whose ranges are still [`Place`]s.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pending {
    /// The diagnostic without span or labels.
    pub diag: Diagnostic,
    pub at: Option<Place>,
    pub label: Option<(Place, String)>,
    /// A second range the detail names in words (where something was first defined).
    pub previous: Option<Place>,
    /// The expression whose referenced values the diagnostic shows (read with positions, as
    /// [`ferro_eval::expression_values`] finds them, when it is resolved).
    pub values_of: Option<ExprId>,
}

impl Pending {
    pub fn new(diag: Diagnostic, at: impl Into<Place>) -> Pending {
        Pending::at(diag, Some(at.into()))
    }

    /// A diagnostic at `at`, if any.
    pub fn at(diag: Diagnostic, at: Option<Place>) -> Pending {
        Pending {
            diag,
            at,
            label: None,
            previous: None,
            values_of: None,
        }
    }

    pub fn with_label(mut self, at: impl Into<Place>, text: &str) -> Pending {
        self.label = Some((at.into(), text.to_string()));
        self
    }

    pub fn with_previous(mut self, at: Place) -> Pending {
        self.previous = Some(at);
        self
    }

    /// The diagnostic with its ranges.
    pub fn resolve(&self, db: &dyn Db) -> Diagnostic {
        let mut d = self.diag.clone();
        let range_text =
            |p: Place, span: Span| ferro_diag::hcl_range(p.file.path(db), p.file.text(db), span);
        if let Some(at) = self.at {
            if let Some(span) = at.span(db) {
                if d.detail.contains(LINE_MARK) {
                    let line = ferro_diag::line_col(at.file.text(db), span.start as usize).0;
                    d.detail = d.detail.replace(LINE_MARK, &line.to_string());
                }
                d = d.with_span(span);
            }
        }
        if let Some((at, text)) = &self.label {
            if let Some(span) = at.span(db) {
                if d.detail.contains(RANGE_MARK) {
                    d.detail = d.detail.replace(RANGE_MARK, &range_text(*at, span));
                }
                d = d.with_label(span, text.as_str());
            }
        }
        if let Some(p) = self.previous {
            if let Some(span) = p.span(db) {
                d.detail = d.detail.replace(PREVIOUS_MARK, &range_text(p, span));
            }
        }
        d
    }
}

impl At {
    /// The same place with the ids of an item's copy replaced by the file's (see
    /// [`ferro_hir::ItemTree::extract`]).
    pub fn relocated(self, o: &ferro_hir::Origins) -> At {
        match self {
            At::Id(s) => At::Id(o.span(s)),
            At::Expr(e) => At::Expr(o.expr(e)),
            At::ExprStart(e) => At::ExprStart(o.expr(e)),
            At::ExprStep(e) => At::ExprStep(o.expr(e)),
            At::ExprHead(e, n) => At::ExprHead(o.expr(e), n),
            At::ExprOr(e, s) => At::ExprOr(o.expr(e), o.span(s)),
            At::MissingItem { body, or } => At::MissingItem {
                body: o.span(body),
                or: o.span(or),
            },
            At::OpenBrace { body, or } => At::OpenBrace {
                body: o.span(body),
                or: o.span(or),
            },
            At::BodyEdge { body, json } => At::BodyEdge {
                body: o.span(body),
                json,
            },
            At::Label { ty, n } => At::Label { ty: o.span(ty), n },
        }
    }
}
