//! The logos lexer (to be implemented).
use logos::Logos;

#[derive(Logos, Debug, Clone, PartialEq)]
#[logos(skip r"[ \t\r]+")]
pub enum Token {
    #[regex(r"[A-Za-z_][A-Za-z0-9_-]*")]
    Ident,
}

pub fn lex(_text: &str) -> Vec<(Token, std::ops::Range<usize>)> {
    unimplemented!()
}
