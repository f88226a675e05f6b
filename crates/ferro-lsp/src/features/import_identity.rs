//! Import blocks' `identity` (Terraform 1.12): the argument itself, and inside its object the
//! identity attributes of the target's resource type, from the schema catalog (completion and
//! hover). Read from the lexer's tokens, so that a half-typed object works too.

use ferro_syntax::Token;
use ferro_workspace::schemas::{IdentityAttribute, IdentitySchema};
use std::collections::BTreeSet;

/// What `identity` is, for the argument's completion and hover.
pub const ARGUMENT_DOC: &str = "The resource identity of the object to import (Terraform 1.12): an object of the target resource type's identity attributes, those the provider requires for import set. Exactly one of `id` and `identity`.";

/// A position inside an import block's `identity = { … }`.
#[derive(Debug, PartialEq, Eq)]
pub struct InIdentity {
    /// The resource type `to` names, when it names one.
    pub ty: Option<String>,
    /// The position is where an attribute name goes (not in a value).
    pub at_key: bool,
    /// The attribute names the object already sets.
    pub present: BTreeSet<String>,
}

/// Where `offset` is, when it is directly inside a top-level `import` block's `identity`
/// object.
pub fn identity_at(text: &str, offset: usize) -> Option<InIdentity> {
    let tokens: Vec<(Token, std::ops::Range<usize>)> = ferro_syntax::lex(text)
        .into_iter()
        .filter(|(t, _)| {
            !matches!(
                t,
                Token::HashComment | Token::SlashComment | Token::BlockCommentStart
            )
        })
        .collect();
    // The braces open at the position, innermost last (indices into `tokens`).
    let mut open: Vec<usize> = Vec::new();
    for (i, (t, r)) in tokens.iter().enumerate() {
        if r.start >= offset {
            break;
        }
        match t {
            Token::LBrace | Token::InterpOpen | Token::InterpOpenStrip => open.push(i),
            Token::RBrace | Token::TemplClose => {
                open.pop();
            }
            _ => {}
        }
    }
    let [block, object] = open.as_slice() else {
        return None;
    };
    let (block, object) = (*block, *object);
    let word = |i: usize| text.get(tokens[i].1.clone()).unwrap_or("");
    // `import {` at the start of a line (or of the file).
    if block == 0 || tokens[block - 1].0 != Token::Ident || word(block - 1) != "import" {
        return None;
    }
    if block >= 2 && tokens[block - 2].0 != Token::Newline {
        return None;
    }
    // `identity = {`.
    if object < 2
        || tokens[object - 1].0 != Token::Assign
        || tokens[object - 2].0 != Token::Ident
        || word(object - 2) != "identity"
    {
        return None;
    }
    let mut present = BTreeSet::new();
    let mut at_key = true;
    let mut depth = 0usize;
    // At the object's level: whether the next identifier starts an item.
    let mut item_start = true;
    for (i, (t, r)) in tokens.iter().enumerate().skip(object + 1) {
        let before = r.start < offset;
        match t {
            Token::LBrace
            | Token::LBracket
            | Token::LParen
            | Token::InterpOpen
            | Token::InterpOpenStrip => depth += 1,
            Token::RBrace | Token::RBracket | Token::RParen | Token::TemplClose => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            Token::Newline | Token::Comma if depth == 0 => {
                item_start = true;
                if before {
                    at_key = true;
                }
                continue;
            }
            Token::Ident if depth == 0 && item_start => {
                if matches!(
                    tokens.get(i + 1).map(|t| t.0),
                    Some(Token::Assign | Token::Colon)
                ) {
                    present.insert(word(i).to_string());
                }
            }
            Token::Assign | Token::Colon if depth == 0 && before => at_key = false,
            _ => {}
        }
        if depth == 0 {
            item_start = false;
        }
    }
    // The name being typed is not yet set.
    if at_key {
        let typed = typed_word(text, offset);
        present.remove(typed);
    }
    Some(InIdentity {
        ty: target_type(text, &tokens, block),
        at_key,
        present,
    })
}

/// The identifier that ends at `offset`.
fn typed_word(text: &str, offset: usize) -> &str {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '-'))
        .last()
        .map_or(before.len(), |(i, _)| i);
    &before[start..]
}

/// The managed resource type of the block's `to = [module.NAME[KEY].]TYPE.NAME[KEY]`.
fn target_type(
    text: &str,
    tokens: &[(Token, std::ops::Range<usize>)],
    block: usize,
) -> Option<String> {
    let mut depth = 0usize;
    let mut line_start = true;
    let mut i = block + 1;
    while i < tokens.len() {
        let t = tokens[i].0;
        match t {
            Token::LBrace | Token::LBracket | Token::LParen => depth += 1,
            Token::RBrace if depth == 0 => return None,
            Token::RBrace | Token::RBracket | Token::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        let word = text.get(tokens[i].1.clone()).unwrap_or("");
        if depth == 0
            && line_start
            && t == Token::Ident
            && word == "to"
            && tokens.get(i + 1).map(|t| t.0) == Some(Token::Assign)
        {
            // The identifiers of the address, outside its index brackets.
            let mut parts = Vec::new();
            let mut nest = 0usize;
            for (t, r) in &tokens[i + 2..] {
                match t {
                    Token::Newline if nest == 0 => break,
                    Token::LBracket => nest += 1,
                    Token::RBracket => nest = nest.saturating_sub(1),
                    Token::Ident if nest == 0 => parts.push(text.get(r.clone()).unwrap_or("")),
                    _ => {}
                }
            }
            let mut rest = parts.as_slice();
            while let ["module", _, tail @ ..] = rest {
                rest = tail;
            }
            return match rest {
                [ty, _, ..] if !matches!(*ty, "data" | "ephemeral") => Some(ty.to_string()),
                _ => None,
            };
        }
        line_start = depth == 0 && t == Token::Newline || (line_start && t == Token::LBrace);
        i += 1;
    }
    None
}

/// What an identity attribute is: whether import needs it, and its name with its type.
pub fn describe(name: &str, a: &IdentityAttribute) -> (&'static str, String) {
    let what = if a.required_for_import {
        "required for import"
    } else {
        "optional for import"
    };
    (what, format!("{name}: {}", a.ty.type_expr()))
}

/// The attributes to offer: those not set yet, the ones required for import first.
pub fn attributes<'a>(
    schema: &'a IdentitySchema,
    present: &'a BTreeSet<String>,
) -> impl Iterator<Item = (&'a String, &'a IdentityAttribute)> {
    schema
        .attributes
        .iter()
        .filter(move |(n, _)| !present.contains(*n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identity_object_and_its_target_are_found() {
        let text = "import {\n  to = module.a[\"x\"].example_thing.web[0]\n  identity = {\n    name = \"n\"\n    zo\n  }\n}\n";
        let at = |s: &str| text.find(s).unwrap() + s.len();
        let got = identity_at(text, at("    zo")).unwrap();
        assert_eq!(got.ty.as_deref(), Some("example_thing"));
        assert!(got.at_key);
        assert_eq!(got.present.iter().collect::<Vec<_>>(), ["name"]);
        let got = identity_at(text, at("name = \"")).unwrap();
        assert!(!got.at_key);
        assert_eq!(identity_at(text, at("  to = ")), None);
        // Not an import block.
        let other = "resource \"x\" \"y\" {\n  identity = {\n    a\n  }\n}\n";
        assert_eq!(identity_at(other, other.find("    a").unwrap() + 5), None);
    }
}
