//! The rewrites `terraform fmt` makes besides whitespace, applied to the token stream with the
//! help of the tree:
//!
//! * an attribute whose whole value is one interpolation, `"${expr}"`, becomes `expr`;
//! * in a top-level `variable` block, `type = list|map|set` becomes `list(any)` (etc.) and the
//!   0.11-style quoted types `"string"`, `"list"`, `"map"` become `string`, `list(string)`,
//!   `map(string)`;
//! * block labels are written as quoted strings (`resource aws_instance x` becomes
//!   `resource "aws_instance" "x"`), which also drops comments between the labels.

use super::scan::{Tok, K};
use crate::ast::{Body, BodyItem, Expr, ExprKind, ObjectKey, TemplatePart, TraversalStep};
use std::borrow::Cow;
use std::ops::Range;

struct Edit<'a> {
    range: Range<usize>,
    with: Vec<Tok<'a>>,
}

pub(crate) fn apply(body: &Body, toks: &mut Vec<Tok<'_>>) {
    // hclwrite loses the key of a `[true]`, `[false]` or `[null]` step of a variable traversal
    // when it builds its tree; Terraform's output shows the loss, so we reproduce it first.
    let mut drops = Vec::new();
    lost_keys_body(body, &mut drops);
    // Each drop is `target end..index end`: everything between its brackets goes.
    for d in drops.iter().rev() {
        let i = toks.partition_point(|t| t.start < d.start);
        let Some(open) = (i..toks.len()).find(|&k| toks[k].kind == K::OBrack) else {
            continue;
        };
        let close = toks.partition_point(|t| t.start < d.end.saturating_sub(1));
        if close > open && close < toks.len() && toks[close].kind == K::CBrack {
            toks.drain(open + 1..close);
        }
    }
    let mut edits = Vec::new();
    walk(body, &[], toks, &mut edits);
    edits.sort_by_key(|e| e.range.start);
    for e in edits.into_iter().rev() {
        toks.splice(e.range, e.with);
    }
}

/// Indices of the tokens lying within the source range `start..end`.
fn token_range(toks: &[Tok], start: usize, end: usize) -> Range<usize> {
    let i = toks.partition_point(|t| t.start < start);
    let j = toks.partition_point(|t| t.start < end);
    let mut j = j.max(i);
    while j > i && toks[j - 1].end() > end {
        j -= 1;
    }
    i..j
}

fn walk<'a>(body: &Body, in_blocks: &[&str], toks: &[Tok<'a>], edits: &mut Vec<Edit<'a>>) {
    for item in &body.items {
        match item {
            BodyItem::Attribute(a) => {
                let r = token_range(toks, a.expr.span.start as usize, a.expr.span.end as usize);
                let expr = &toks[r.clone()];
                let new = if in_blocks == ["variable"] && a.name.name == "type" {
                    type_expr(expr)
                } else {
                    value_expr(expr)
                };
                if let Some(with) = new {
                    edits.push(Edit { range: r, with });
                }
            }
            BodyItem::Block(b) => {
                if let Some(last) = b.labels.last() {
                    let r = token_range(toks, b.ty.span.end as usize, last.span.end as usize);
                    let mut with = Vec::new();
                    for l in &b.labels {
                        with.push(Tok::synth(K::OQuote, "\""));
                        with.push(Tok::synth(K::QuotedLit, escape_quoted(&l.value)));
                        with.push(Tok::synth(K::CQuote, "\""));
                    }
                    edits.push(Edit { range: r, with });
                }
                let mut inner: Vec<&str> = in_blocks.to_vec();
                inner.push(&b.ty.name);
                walk(&b.body, &inner, toks, edits);
            }
        }
    }
}

/// `"${expr}"` → `expr`, when the template is provably a single interpolation.
fn value_expr<'a>(toks: &[Tok<'a>]) -> Option<Vec<Tok<'a>>> {
    let n = toks.len();
    if n < 5 {
        return None;
    }
    if toks[0].kind != K::OQuote
        || toks[1].kind != K::TemplateInterp
        || toks[n - 2].kind != K::TemplateSeqEnd
        || toks[n - 1].kind != K::CQuote
    {
        return None;
    }
    let inside = &toks[2..n - 2];
    let mut quotes = 0i32;
    for t in inside {
        match t.kind {
            K::OQuote => quotes += 1,
            K::CQuote => quotes -= 1,
            _ if quotes > 0 => {}
            K::TemplateInterp | K::TemplateSeqEnd | K::QuotedLit => return None,
            _ => {}
        }
    }
    let s = inside
        .iter()
        .position(|t| t.kind != K::Newline)
        .unwrap_or(inside.len());
    let e = inside
        .iter()
        .rposition(|t| t.kind != K::Newline)
        .map_or(s, |i| i + 1);
    let trimmed = &inside[s..e.max(s)];
    // A value left on several lines is parenthesised so it still parses (e.g. a multi-line
    // conditional), unless it already starts and ends with parentheses.
    let last = trimmed.len().saturating_sub(1);
    let mut multi_line = false;
    let (mut lead_paren, mut trail_paren) = (false, false);
    for (i, t) in trimmed.iter().enumerate() {
        if i == 0 && t.kind == K::OParen {
            lead_paren = true;
        } else if t.kind == K::Newline {
            multi_line = true;
        } else if i == last && t.kind == K::CParen {
            trail_paren = true;
        }
    }
    if multi_line && !(lead_paren && trail_paren) {
        let mut wrapped = Vec::with_capacity(trimmed.len() + 2);
        wrapped.push(Tok::synth(K::OParen, "("));
        wrapped.extend_from_slice(trimmed);
        wrapped.push(Tok::synth(K::CParen, ")"));
        return Some(wrapped);
    }
    Some(trimmed.to_vec())
}

/// Type constraints of `variable` blocks: bare collection kinds and 0.11-style quoted types.
fn type_expr<'a>(toks: &[Tok<'a>]) -> Option<Vec<Tok<'a>>> {
    let call = |kind: &'static str, elem: &'static str| {
        vec![
            Tok::synth(K::Ident, kind),
            Tok::synth(K::OParen, "("),
            Tok::synth(K::Ident, elem),
            Tok::synth(K::CParen, ")"),
        ]
    };
    match toks {
        [t] if t.kind == K::Ident => match &*t.text {
            "list" => Some(call("list", "any")),
            "map" => Some(call("map", "any")),
            "set" => Some(call("set", "any")),
            _ => None,
        },
        [o, s, c] if o.kind == K::OQuote && s.kind == K::QuotedLit && c.kind == K::CQuote => {
            match &*s.text {
                "string" => Some(vec![Tok::synth(K::Ident, "string")]),
                "list" => Some(call("list", "string")),
                "map" => Some(call("map", "string")),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Write a string as the inside of a quoted HCL string (hclwrite's `escapeQuotedStringLit`).
pub(crate) fn escape_quoted(s: &str) -> Cow<'static, str> {
    let mut out = String::with_capacity(s.len());
    for (i, c) in s.char_indices() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '$' | '%' => {
                out.push(c);
                if s[i + 1..].starts_with('{') {
                    out.push(c);
                }
            }
            c if !is_print(c) => {
                let v = c as u32;
                if v < 0x10000 {
                    out.push_str(&format!("\\u{v:04x}"));
                } else {
                    out.push_str(&format!("\\U{v:08x}"));
                }
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// An approximation of Go's `unicode.IsPrint`: graphic characters and the ASCII space.
fn is_print(c: char) -> bool {
    if c == ' ' {
        return true;
    }
    if c.is_control() || c.is_whitespace() {
        return false;
    }
    let v = c as u32;
    !matches!(v,
        0x00AD | 0x061C | 0x180E | 0x200B..=0x200F | 0x2028..=0x202E | 0x2060..=0x206F
        | 0xFEFF | 0xFFF9..=0xFFFB | 0xE000..=0xF8FF | 0xF0000..=0x10FFFF)
}

fn lost_keys_body(body: &Body, out: &mut Vec<Range<usize>>) {
    for item in &body.items {
        match item {
            BodyItem::Attribute(a) => lost_keys(&a.expr, &mut Vec::new(), out),
            BodyItem::Block(b) => lost_keys_body(&b.body, out),
        }
    }
    out.sort_by_key(|r| r.start);
}

/// Whether an index key is a literal, which makes the index a static traversal step.
fn literal_key(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Number(_) | ExprKind::Bool(_) | ExprKind::Null => true,
        // hclsyntax scans `$` and `%` as literal tokens of their own, and a template is a string
        // literal only when it has exactly one literal part.
        ExprKind::Template(t) => {
            t.heredoc.is_none()
                && matches!(&t.parts[..], [TemplatePart::Literal { text, .. }]
                    if !text.is_empty() && !text.contains(['$', '%']))
        }
        _ => false,
    }
}

/// If `e` is a variable traversal (a name followed by attribute and literal index steps), the
/// root name; `keys` gets the `target end..index end` ranges of its bool/null index steps.
fn traversal<'e>(e: &'e Expr, keys: &mut Vec<Range<usize>>) -> Option<&'e str> {
    match &e.kind {
        ExprKind::Variable(id) => Some(&id.name),
        ExprKind::GetAttr { target, .. } => traversal(target, keys),
        ExprKind::Index {
            target,
            key,
            legacy,
            ..
        } if literal_key(key) => {
            if !legacy && matches!(key.kind, ExprKind::Bool(_) | ExprKind::Null) {
                keys.push(target.span.end as usize..e.span.end as usize);
            }
            traversal(target, keys)
        }
        _ => None,
    }
}

fn lost_keys(e: &Expr, bound: &mut Vec<String>, out: &mut Vec<Range<usize>>) {
    let mut keys = Vec::new();
    if let Some(root) = traversal(e, &mut keys) {
        if !bound.iter().any(|b| b == root) {
            out.extend(keys);
        }
        return;
    }
    let mut go = |e: &Expr, bound: &mut Vec<String>| lost_keys(e, bound, out);
    match &e.kind {
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Number(_)
        | ExprKind::Variable(_)
        | ExprKind::Error => {}
        ExprKind::Template(t) => parts_keys(&t.parts, bound, &mut go),
        ExprKind::GetAttr { target, .. } => go(target, bound),
        ExprKind::Index { target, key, .. } => {
            go(target, bound);
            go(key, bound);
        }
        ExprKind::Splat { target, steps, .. } => {
            go(target, bound);
            for s in steps {
                if let TraversalStep::Index { key, .. } = s {
                    go(key, bound);
                }
            }
        }
        ExprKind::FunctionCall(call) => call.args.iter().for_each(|a| go(a, bound)),
        ExprKind::Tuple(args) => args.iter().for_each(|a| go(a, bound)),
        ExprKind::Object(items) => {
            for it in items {
                if let ObjectKey::Expr(k) = &it.key {
                    go(k, bound);
                }
                go(&it.value, bound);
            }
        }
        ExprKind::Unary { operand, .. } => go(operand, bound),
        ExprKind::Binary { lhs, rhs, .. } => {
            go(lhs, bound);
            go(rhs, bound);
        }
        ExprKind::Conditional {
            cond,
            then,
            otherwise,
        } => {
            go(cond, bound);
            go(then, bound);
            go(otherwise, bound);
        }
        ExprKind::ForTuple(f) => {
            let crate::ast::ForTuple {
                key_var,
                value_var,
                collection,
                value,
                cond,
            } = &**f;
            go(collection, bound);
            let n = bound.len();
            bound.extend(key_var.iter().map(|k| k.name.to_string()));
            bound.push(value_var.name.to_string());
            go(value, bound);
            if let Some(c) = cond {
                go(c, bound);
            }
            bound.truncate(n);
        }
        ExprKind::ForObject(f) => {
            let crate::ast::ForObject {
                key_var,
                value_var,
                collection,
                key,
                value,
                cond,
                ..
            } = &**f;
            go(collection, bound);
            let n = bound.len();
            bound.extend(key_var.iter().map(|k| k.name.to_string()));
            bound.push(value_var.name.to_string());
            go(key, bound);
            go(value, bound);
            if let Some(c) = cond {
                go(c, bound);
            }
            bound.truncate(n);
        }
        ExprKind::Parens(inner) => go(inner, bound),
    }
}

fn parts_keys(
    parts: &[TemplatePart],
    bound: &mut Vec<String>,
    go: &mut dyn FnMut(&Expr, &mut Vec<String>),
) {
    for p in parts {
        match p {
            TemplatePart::Literal { .. } => {}
            TemplatePart::Interpolation { expr, .. } => go(expr, bound),
            TemplatePart::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                go(cond, bound);
                parts_keys(then, bound, go);
                if let Some(o) = otherwise {
                    parts_keys(o, bound, go);
                }
            }
            TemplatePart::For(f) => {
                let crate::ast::TemplateFor {
                    key_var,
                    value_var,
                    collection,
                    body,
                    ..
                } = &**f;
                go(collection, bound);
                let n = bound.len();
                bound.extend(key_var.iter().map(|k| k.name.to_string()));
                bound.push(value_var.name.to_string());
                parts_keys(body, bound, go);
                bound.truncate(n);
            }
        }
    }
}
