//! The parser's error type: what chumsky reports (span, found token, expectations) or a custom
//! diagnostic, and its translation into ferro diagnostics with stable codes.

use crate::lexer::Token;
use chumsky::error::{Error, LabelError};
use chumsky::input::Input;
use chumsky::span::SimpleSpan;
use chumsky::util::MaybeRef;
use chumsky::DefaultExpected;
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

/// A finished diagnostic produced inside the grammar (by `validate`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Custom {
    pub code: &'static str,
    pub summary: &'static str,
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PErr {
    pub span: SimpleSpan,
    pub found: Option<Token>,
    pub expected: Vec<Expect>,
    pub custom: Option<Box<Custom>>,
}

impl PErr {
    pub fn custom(span: SimpleSpan, code: &'static str, summary: &'static str, detail: String) -> Self {
        PErr {
            span,
            found: None,
            expected: Vec::new(),
            custom: Some(Box::new(Custom { code, summary, detail })),
        }
    }
}

impl<'a, I> Error<'a, I> for PErr
where
    I: Input<'a, Token = Token, Span = SimpleSpan>,
{
    fn merge(mut self, other: Self) -> Self {
        if self.custom.is_none() && other.custom.is_none() {
            for e in other.expected {
                if !self.expected.contains(&e) {
                    self.expected.push(e);
                }
            }
        }
        self
    }
}

impl<'a, I, L> LabelError<'a, I, L> for PErr
where
    I: Input<'a, Token = Token, Span = SimpleSpan>,
    L: Into<Expect>,
{
    fn expected_found<E: IntoIterator<Item = L>>(
        expected: E,
        found: Option<MaybeRef<'a, Token>>,
        span: SimpleSpan,
    ) -> Self {
        PErr {
            span,
            found: found.map(|t| *t),
            expected: expected.into_iter().map(Into::into).collect(),
            custom: None,
        }
    }

    fn label_with(&mut self, label: L) {
        if self.custom.is_none() {
            self.expected = vec![label.into()];
        }
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
    let span = Span::new(file, start..err.span.end.max(start));
    if let Some(c) = err.custom {
        return Diagnostic::error(c.code, c.summary).with_detail(c.detail).with_span(span);
    }
    let found = found_text(err.found);
    let has = |l: &'static str| err.expected.contains(&Expect::Label(l));
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
        return Diagnostic::error("syntax-argument-or-block-expected", "Argument or block definition required")
            .with_detail(detail)
            .with_span(span);
    }
    if has("block label or '{'") {
        return Diagnostic::error("syntax-invalid-block-definition", "Invalid block definition")
            .with_detail(format!(
                "Expected a block label or the opening brace of the block body, but found {found}. \
                 A block definition must have block content delimited by \"{{\" and \"}}\", \
                 starting on the same line as the block header."
            ))
            .with_span(span);
    }
    if has("expression") {
        return Diagnostic::error("syntax-invalid-expression", "Invalid expression")
            .with_detail(format!("Expected the start of an expression, but found {found}."))
            .with_span(span);
    }
    let mut names: Vec<String> = Vec::new();
    for e in &err.expected {
        let n = match e {
            Expect::Token(t) => t.describe().to_string(),
            Expect::Label(l) => l.to_string(),
            Expect::End => "the end of the input".to_string(),
            Expect::Other => continue,
        };
        if !names.contains(&n) {
            names.push(n);
        }
    }
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
