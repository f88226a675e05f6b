//! The parser's error type: what chumsky reports (span, found token, expectations) or a custom
//! diagnostic, and its translation into ferro diagnostics with stable codes.

use crate::lexer::TSpan;
use crate::lexer::Token;
use chumsky::error::{EmptyErr, Error, LabelError};
use chumsky::extra;
use chumsky::input::Input;
use chumsky::recovery::via_parser;
use chumsky::util::MaybeRef;
use chumsky::DefaultExpected;
use chumsky::Parser;
use ferro_diag::{Diagnostic, FileId, Span};

/// Something the parser expected at an error position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Expect {
    Token(Token),
    Label(&'static str),
    End,
    Other,
}

impl<'a> From<DefaultExpected<'a, Token>> for Expect {
    fn from(e: DefaultExpected<'a, Token>) -> Self {
        match e {
            DefaultExpected::Token(t) => Expect::Token(*t),
            DefaultExpected::EndOfInput => Expect::End,
            _ => Expect::Other,
        }
    }
}

impl From<&'static str> for Expect {
    fn from(l: &'static str) -> Self {
        Expect::Label(l)
    }
}

/// Labels the grammar uses, by bit.
const LABELS: &[&str] = &[
    "identifier",
    "expression",
    "argument or block",
    "block label or '{'",
    "operator",
    // The parts of a `for` expression, for HCL's "Invalid 'for' expression" details.
    "for variable",
    "for value variable",
    "for in",
    "for colon",
    "for arrow",
    "for tuple end",
    "for object end",
    "attribute separator",
    "key/value separator",
];

/// HCL's detail for a `for` expression that stops at `found` where `label` was expected.
fn for_detail(label: &str, found: Option<Token>) -> &'static str {
    match (label, found) {
        ("for variable", _) => "For expression requires variable name after 'for'.",
        ("for value variable", _) => "For expression requires value variable name after comma.",
        ("for in", _) => "For expression requires the 'in' keyword after its name declarations.",
        ("for colon", _) => "For expression requires a colon after the collection expression.",
        ("for arrow", _) => "Key expression is required when building an object.",
        ("for tuple end", Some(Token::FatArrow)) => {
            "Key expression is not valid when building a tuple."
        }
        ("for tuple end", Some(Token::Ellipsis)) => {
            "Grouping ellipsis (...) cannot be used when building a tuple."
        }
        _ => "Extra characters after the end of the 'for' expression.",
    }
}

/// A set of expectations without allocation: one bit per token kind, label, end of input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ExpectSet {
    tokens: u64,
    labels: u16,
    end: bool,
}

impl ExpectSet {
    pub fn label(l: &'static str) -> Self {
        let mut s = ExpectSet::default();
        s.insert(Expect::Label(l));
        s
    }
    fn insert(&mut self, e: Expect) {
        match e {
            Expect::Token(t) => self.tokens |= 1u64 << (t as u8 as u32 % 64),
            Expect::Label(l) => {
                if let Some(i) = LABELS.iter().position(|x| *x == l) {
                    self.labels |= 1 << i;
                }
            }
            Expect::End => self.end = true,
            Expect::Other => {}
        }
    }
    fn union(&mut self, o: ExpectSet) {
        self.tokens |= o.tokens;
        self.labels |= o.labels;
        self.end |= o.end;
    }
    fn has_label(&self, l: &str) -> bool {
        LABELS
            .iter()
            .position(|x| *x == l)
            .is_some_and(|i| self.labels & (1 << i) != 0)
    }
    fn names(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        // After an operand, an index or attribute step ('[', '.') or a call can always follow too; when an
        // operator is expected they go without saying.
        let after_operand =
            self.labels & (1 << LABELS.iter().position(|l| *l == "operator").unwrap_or(0)) != 0;
        for t in ALL_TOKENS {
            if after_operand
                && matches!(
                    t,
                    Token::LBracket | Token::Dot | Token::LParen | Token::DoubleColon
                )
            {
                continue;
            }
            if self.tokens & (1u64 << (*t as u8 as u32 % 64)) != 0 {
                let n = t.describe().to_string();
                if !out.contains(&n) {
                    out.push(n);
                }
            }
        }
        for (i, l) in LABELS.iter().enumerate() {
            if self.labels & (1 << i) != 0 && !out.iter().any(|n| n == l) {
                out.push(l.to_string());
            }
        }
        if self.end {
            out.push("the end of the input".to_string());
        }
        out
    }
}

const ALL_TOKENS: &[Token] = {
    use Token::*;
    &[
        Newline,
        Ident,
        Number,
        LBrace,
        RBrace,
        LBracket,
        RBracket,
        LParen,
        RParen,
        Assign,
        Colon,
        DoubleColon,
        Comma,
        Dot,
        Ellipsis,
        Question,
        FatArrow,
        Plus,
        Minus,
        Star,
        Slash,
        Percent,
        Bang,
        EqEq,
        NotEq,
        Lt,
        LtEq,
        Gt,
        GtEq,
        AndAnd,
        OrOr,
        StripClose,
        QuoteOpen,
        HeredocOpen,
        QuoteClose,
        HeredocClose,
        TemplText,
        InterpOpen,
        DirOpen,
        TemplClose,
        For,
        In,
        If,
        Else,
        EndIf,
        EndFor,
        True,
        False,
        Null,
    ]
};

/// A finished diagnostic produced inside the grammar (by `validate`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Custom {
    pub code: &'static str,
    pub summary: &'static str,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PErr {
    pub span: TSpan,
    pub found: Option<Token>,
    pub expected: ExpectSet,
    pub custom: Option<Box<Custom>>,
}

impl PErr {
    pub fn custom(span: TSpan, code: &'static str, summary: &'static str, detail: String) -> Self {
        PErr {
            span,
            found: None,
            expected: ExpectSet::default(),
            custom: Some(Box::new(Custom {
                code,
                summary,
                detail,
            })),
        }
    }
}

impl<'a, I> Error<'a, I> for PErr
where
    I: Input<'a, Token = Token, Span = TSpan>,
{
    fn merge(mut self, other: Self) -> Self {
        if self.custom.is_none() && other.custom.is_none() {
            self.expected.union(other.expected);
        }
        self
    }
}

impl<'a, I, L> LabelError<'a, I, L> for PErr
where
    I: Input<'a, Token = Token, Span = TSpan>,
    L: Into<Expect>,
{
    fn expected_found<E: IntoIterator<Item = L>>(
        expected: E,
        found: Option<MaybeRef<'a, Token>>,
        span: TSpan,
    ) -> Self {
        PErr {
            span,
            found: found.map(|t| *t),
            expected: {
                let mut set = ExpectSet::default();
                expected.into_iter().for_each(|e| set.insert(e.into()));
                set
            },
            custom: None,
        }
    }

    fn label_with(&mut self, label: L) {
        if self.custom.is_none() {
            self.expected = ExpectSet::default();
            self.expected.insert(label.into());
        }
    }
}

/// The error types the grammar runs with: [`PErr`] for diagnostics, and chumsky's zero-sized
/// `EmptyErr` for the fast first pass (chumsky skips all error bookkeeping for a zero-sized
/// error). Errors the grammar builds itself are written as `PErr` and converted.
pub(crate) trait GErr<'a, I>:
    Error<'a, I>
    + LabelError<'a, I, DefaultExpected<'a, Token>>
    + LabelError<'a, I, &'static str>
    + FromPErr
    + Recover<'a, I>
    + 'a
where
    I: Input<'a, Token = Token, Span = TSpan>,
{
}

impl<'a, I, T> GErr<'a, I> for T
where
    I: Input<'a, Token = Token, Span = TSpan>,
    T: Error<'a, I>
        + LabelError<'a, I, DefaultExpected<'a, Token>>
        + LabelError<'a, I, &'static str>
        + FromPErr
        + Recover<'a, I>
        + 'a,
{
}

/// What only the diagnosing pass does: error recovery (the fast pass gives up at the first
/// error, and chumsky's recovery needs the error it recovers from, which a zero-sized error type
/// does not record) and labels for messages.
pub(crate) trait Recover<'a, I: Input<'a>>: Error<'a, I> + Sized + 'a {
    fn recover<O, P, R>(parser: P, recovery: R) -> impl Parser<'a, I, O, extra::Err<Self>> + Clone
    where
        P: Parser<'a, I, O, extra::Err<Self>> + Clone,
        R: Parser<'a, I, O, extra::Err<Self>> + Clone;

    fn label<O, P>(
        parser: P,
        label: &'static str,
    ) -> impl Parser<'a, I, O, extra::Err<Self>> + Clone
    where
        P: Parser<'a, I, O, extra::Err<Self>> + Clone;
}

impl<'a, I> Recover<'a, I> for PErr
where
    I: Input<'a, Token = Token, Span = TSpan>,
{
    fn recover<O, P, R>(parser: P, recovery: R) -> impl Parser<'a, I, O, extra::Err<Self>> + Clone
    where
        P: Parser<'a, I, O, extra::Err<Self>> + Clone,
        R: Parser<'a, I, O, extra::Err<Self>> + Clone,
    {
        parser.recover_with(via_parser(recovery))
    }

    fn label<O, P>(
        parser: P,
        label: &'static str,
    ) -> impl Parser<'a, I, O, extra::Err<Self>> + Clone
    where
        P: Parser<'a, I, O, extra::Err<Self>> + Clone,
    {
        parser.labelled(label)
    }
}

impl<'a, I: Input<'a>> Recover<'a, I> for EmptyErr {
    fn recover<O, P, R>(parser: P, _: R) -> impl Parser<'a, I, O, extra::Err<Self>> + Clone
    where
        P: Parser<'a, I, O, extra::Err<Self>> + Clone,
        R: Parser<'a, I, O, extra::Err<Self>> + Clone,
    {
        parser
    }

    fn label<O, P>(parser: P, _: &'static str) -> impl Parser<'a, I, O, extra::Err<Self>> + Clone
    where
        P: Parser<'a, I, O, extra::Err<Self>> + Clone,
    {
        parser
    }
}

/// Conversion from the grammar's own errors into the error type of the pass.
pub(crate) trait FromPErr {
    fn from_perr(e: PErr) -> Self;
}

impl FromPErr for PErr {
    fn from_perr(e: PErr) -> Self {
        e
    }
}

impl FromPErr for EmptyErr {
    fn from_perr(_: PErr) -> Self {
        Self::default()
    }
}

fn found_text(found: Option<Token>) -> String {
    match found {
        None => "the end of the file".to_string(),
        Some(Token::Newline) => "a newline".to_string(),
        Some(Token::QuoteClose) => "the end of the string".to_string(),
        Some(Token::HeredocClose) => "the end of the heredoc".to_string(),
        Some(t) => t.describe().to_string(),
    }
}

/// Turn a parser error into a diagnostic.
pub(crate) fn to_diagnostic(file: FileId, err: PErr) -> Diagnostic {
    let start = err.span.start.min(err.span.end);
    let span = Span::new(file, start as usize..err.span.end.max(start) as usize);
    if let Some(c) = err.custom {
        return Diagnostic::error(c.code, c.summary)
            .with_detail(c.detail)
            .with_span(span);
    }
    let found = found_text(err.found);
    let has = |l: &str| err.expected.has_label(l);
    // Inside a `for` expression the end of the input is an error of the brackets, reported
    // by the layout pass.
    if err.found.is_some() {
        if let Some(l) = LABELS
            .iter()
            .filter(|l| l.starts_with("for "))
            .find(|l| has(l))
        {
            return Diagnostic::error("syntax-invalid-for", "Invalid 'for' expression")
                .with_detail(for_detail(l, err.found))
                .with_span(span);
        }
        if has("key/value separator") {
            return Diagnostic::error(
                "syntax-missing-key-value-separator",
                "Missing key/value separator",
            )
            .with_detail(
                "Expected an equals sign (\"=\") to mark the beginning of the attribute value.",
            )
            .with_span(span);
        }
        if has("attribute separator") {
            return Diagnostic::error(
                "syntax-missing-attribute-separator",
                "Missing attribute separator",
            )
            .with_detail("Expected a newline or comma to mark the beginning of the next attribute.")
            .with_span(span);
        }
    }
    if has("argument or block") {
        let detail = if err.found == Some(Token::RBrace) {
            "This closing brace has no matching opening brace. Remove it, or check the brace \
             nesting above it."
                .to_string()
        } else {
            format!(
                "An argument or block definition is required here, but found {found}. To set an \
                 argument, use the equals sign \"=\" to introduce the argument value."
            )
        };
        return Diagnostic::error(
            "syntax-argument-or-block-expected",
            "Argument or block definition required",
        )
        .with_detail(detail)
        .with_span(span);
    }
    if has("block label or '{'") {
        return Diagnostic::error(
            "syntax-invalid-block-definition",
            "Invalid block definition",
        )
        .with_detail(format!(
            "Expected a block label or the opening brace of the block body, but found {found}. \
                 A block definition must have block content delimited by \"{{\" and \"}}\", \
                 starting on the same line as the block header."
        ))
        .with_span(span);
    }
    if has("expression") {
        // HCL names no token here: the end of the file, or "an invalid expression token".
        if err.found.is_none() {
            return Diagnostic::error("syntax-missing-expression", "Missing expression")
                .with_detail("Expected the start of an expression, but found the end of the file.")
                .with_span(span);
        }
        return Diagnostic::error("syntax-invalid-expression", "Invalid expression")
            .with_detail(
                "Expected the start of an expression, but found an invalid expression token.",
            )
            .with_span(span);
    }
    let mut names = err.expected.names();
    let expected = match names.len() {
        0 => "something else".to_string(),
        1 => names.remove(0),
        _ => {
            let last = names.pop().unwrap_or_default();
            format!("{} or {}", names.join(", "), last)
        }
    };
    Diagnostic::error("syntax-unexpected-token", "Unexpected token")
        .with_detail(format!("Expected {expected}, but found {found}."))
        .with_span(span)
}
