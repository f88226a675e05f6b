//! The chumsky parser (to be implemented).
use crate::{ast, Parsed};
use ferro_diag::{Diagnostic, FileId};

pub fn parse_file(_file: FileId, _text: &str) -> Parsed {
    unimplemented!()
}

pub fn parse_expr(_file: FileId, _text: &str) -> (ast::Expr, Vec<Diagnostic>) {
    unimplemented!()
}
