//! HCL native syntax for ferro: a logos lexer, a chumsky parser and the AST in [`ast`].
//!
//! **Architecture invariant:** this crate knows nothing of salsa, providers, state or IO.
//! Parsing never fails and never panics: it returns a tree plus diagnostics.

pub mod ast;
pub mod debug;
mod error;
mod expr;
mod layout;
mod lexer;
mod parser;
mod template;

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

/// Parse a single expression (used by `ferro console`, `-var` values and tests).
/// Trailing input after the expression is an error.
pub fn parse_expr(file: FileId, text: &str) -> (ast::Expr, Vec<Diagnostic>) {
    parser::parse_expr(file, text)
}
