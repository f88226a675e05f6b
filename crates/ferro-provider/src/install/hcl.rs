//! Reading the small HCL files installation uses (the lock file, the CLI configuration) from
//! ferro-syntax's AST: literal strings, lists of strings, nested blocks.

use ferro_syntax::ast::{Body, BodyItem, Expr, ExprKind};

/// Parse `text`; syntax errors become one message naming `what`.
pub fn parse(text: &str, what: &str) -> Result<Body, String> {
    let parsed = ferro_syntax::parse_file(ferro_diag::FileId(0), text);
    if let Some(d) = parsed
        .diagnostics
        .iter()
        .find(|d| d.severity == ferro_diag::Severity::Error)
    {
        let line = d.span.map(|s| {
            text.get(..s.start as usize)
                .unwrap_or(text)
                .matches('\n')
                .count()
                + 1
        });
        let at = line.map(|l| format!(" on line {l}")).unwrap_or_default();
        return Err(
            format!("{what} is invalid{at}: {}. {}", d.summary, d.detail)
                .trim_end()
                .to_string(),
        );
    }
    Ok(parsed.body)
}

/// A string literal (a quoted string without interpolations).
pub fn literal_string(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Template(t) => t.literal_text(),
        ExprKind::Parens(inner) => literal_string(inner),
        _ => None,
    }
}

/// A list of string literals.
pub fn string_list(e: &Expr) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Tuple(items) => items.iter().map(literal_string).collect(),
        _ => None,
    }
}

/// An object of string literals (`{ "a" = "x", b = "y" }`).
pub fn string_map(e: &Expr) -> Option<Vec<(String, String)>> {
    use ferro_syntax::ast::ObjectKey;
    match &e.kind {
        ExprKind::Object(items) => items
            .iter()
            .map(|i| {
                let key = match &i.key {
                    ObjectKey::Ident(id) => id.name.to_string(),
                    ObjectKey::Expr(k) => literal_string(k)?,
                };
                Some((key, literal_string(&i.value)?))
            })
            .collect(),
        ExprKind::Parens(inner) => string_map(inner),
        _ => None,
    }
}

pub fn attributes(body: &Body) -> impl Iterator<Item = &ferro_syntax::ast::Attribute> {
    body.items.iter().filter_map(|i| match i {
        BodyItem::Attribute(a) => Some(a),
        BodyItem::Block(_) => None,
    })
}

pub fn blocks(body: &Body) -> impl Iterator<Item = &ferro_syntax::ast::Block> {
    body.items.iter().filter_map(|i| match i {
        BodyItem::Block(b) => Some(b),
        BodyItem::Attribute(_) => None,
    })
}

/// Quote a string as HCL (and Go's `%q` for the characters lock files contain).
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '$' => out.push('$'),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
