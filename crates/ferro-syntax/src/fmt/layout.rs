//! Line layout, following hclwrite's algorithm so the output matches `terraform fmt` exactly:
//!
//! * a *line* ends after a newline token or a `#`/`//` comment (which owns its line ending);
//!   a heredoc is part of the line that opens it;
//! * each line has up to three cells: the *lead*, the *assign* cell (from the first `=` after the
//!   first token, when the brackets after it balance) and the *comment* cell (a trailing line
//!   comment after other tokens);
//! * indentation is two spaces per level; a line whose brackets open more than they close opens
//!   one level (however many brackets), and closing brackets close levels in the same units;
//! * the spaces between tokens within a cell follow [`space_after`];
//! * the assign cells of consecutive lines are aligned one column after the longest lead, then
//!   the comment cells of consecutive lines one column after the longest lead + assign.

use super::scan::{Tok, K};
use std::ops::Range;
use unicode_segmentation::UnicodeSegmentation;

#[derive(Debug, Clone)]
struct Line {
    lead: Range<usize>,
    assign: Option<Range<usize>>,
    comment: Option<usize>,
}

fn is_newline(t: &Tok) -> bool {
    t.kind == K::Newline || (t.kind == K::Comment && t.text.ends_with('\n'))
}

fn bracket_change(k: K) -> i32 {
    match k {
        K::OBrace | K::OBrack | K::OParen | K::TemplateControl | K::TemplateInterp => 1,
        K::CBrace | K::CBrack | K::CParen | K::TemplateSeqEnd => -1,
        _ => 0,
    }
}

fn columns(toks: &[Tok], r: Range<usize>) -> usize {
    toks[r]
        .iter()
        .map(|t| t.spaces + t.text.graphemes(true).count())
        .sum()
}

fn lines_for_format(toks: &[Tok]) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut start = 0;
    for (i, t) in toks.iter().enumerate() {
        if is_newline(t) {
            lines.push(Line {
                lead: start..i + 1,
                assign: None,
                comment: None,
            });
            start = i + 1;
        }
    }
    if start < toks.len() {
        lines.push(Line {
            lead: start..toks.len(),
            assign: None,
            comment: None,
        });
    }
    for line in &mut lines {
        let r = line.lead.clone();
        if r.len() > 1 && toks[r.end - 1].kind == K::Comment {
            line.comment = Some(r.end - 1);
            line.lead = r.start..r.end - 1;
        }
        let r = line.lead.clone();
        for i in r.start + 1..r.end {
            if toks[i].kind == K::Equal {
                let net: i32 = toks[i..r.end].iter().map(|t| bracket_change(t.kind)).sum();
                if net == 0 {
                    line.assign = Some(i..r.end);
                    line.lead = r.start..i;
                }
                break;
            }
        }
    }
    lines
}

fn format_indent(lines: &[Line], toks: &mut [Tok]) {
    let mut indents: Vec<i32> = Vec::new();
    for line in lines {
        if line.lead.is_empty() {
            continue;
        }
        let first = line.lead.start;
        if toks[first].kind == K::Newline {
            toks[first].spaces = 0;
            continue;
        }
        let mut net = 0;
        for t in &toks[line.lead.clone()] {
            net += bracket_change(t.kind);
            if t.kind == K::OHeredoc {
                break;
            }
        }
        if let Some(a) = &line.assign {
            net += toks[a.clone()]
                .iter()
                .map(|t| bracket_change(t.kind))
                .sum::<i32>();
        }
        if net > 0 {
            toks[first].spaces = 2 * indents.len();
            indents.push(net);
        } else {
            if net < 0 {
                let mut closed = -net;
                while closed > 0 {
                    let Some(top) = indents.last_mut() else { break };
                    if closed > *top {
                        closed -= *top;
                        indents.pop();
                    } else if closed < *top {
                        *top -= closed;
                        closed = 0;
                    } else {
                        indents.pop();
                        closed = 0;
                    }
                }
            }
            toks[first].spaces = 2 * indents.len();
        }
    }
}

fn format_spaces(lines: &[Line], toks: &mut [Tok]) {
    for line in lines {
        space_cell(toks, line.lead.clone());
        if let Some(a) = &line.assign {
            toks[a.start].spaces = 1;
            space_cell(toks, a.clone());
        }
    }
}

fn space_cell(toks: &mut [Tok], r: Range<usize>) {
    for i in r.start..r.end {
        if i + 1 >= r.end {
            break;
        }
        let before = if i > r.start {
            Some(toks[i - 1].kind)
        } else {
            None
        };
        let space = space_after(&toks[i], before, toks[i + 1].kind);
        toks[i + 1].spaces = usize::from(space);
    }
}

/// Whether the token `subject` (preceded by `before` within its cell, if any) is followed by a
/// space when the next token is `after`.
fn space_after(subject: &Tok, before: Option<K>, after: K) -> bool {
    let s = subject.kind;
    let is_lit = |k: K| matches!(k, K::QuotedLit | K::StringLit);
    match () {
        _ if after == K::Newline => false,
        _ if s == K::Ident && after == K::OParen => false,
        _ if s == K::Dot || after == K::Dot => false,
        _ if after == K::Comma || after == K::Ellipsis => false,
        _ if s == K::Comma => true,
        _ if is_lit(s)
            || s == K::OQuote
            || s == K::OHeredoc
            || is_lit(after)
            || after == K::CQuote
            || after == K::CHeredoc =>
        {
            false
        }
        _ if s == K::Ident && subject.text == "in" && before == Some(K::Ident) => true,
        _ if after == K::OBrack && (s == K::Ident || s == K::Number || bracket_change(s) < 0) => {
            false
        }
        _ if s == K::Bang => false,
        _ if s == K::Minus => !matches!(
            before,
            None | Some(
                K::OParen
                    | K::OBrace
                    | K::OBrack
                    | K::Equal
                    | K::Colon
                    | K::Comma
                    | K::Question
                    | K::Plus
                    | K::Star
                    | K::Slash
                    | K::Percent
                    | K::Minus
                    | K::EqualOp
                    | K::NotEqual
                    | K::Gt
                    | K::GtEq
                    | K::Lt
                    | K::LtEq
                    | K::And
                    | K::Or
                    | K::Bang
            )
        ),
        _ if s == K::OBrace || after == K::CBrace => !(s == K::OBrace && after == K::CBrace),
        _ if matches!(s, K::TemplateInterp | K::TemplateControl) && after == K::OBrace => true,
        _ if s == K::CBrace && after == K::TemplateSeqEnd => true,
        _ if s == K::TemplateSeqEnd && matches!(after, K::TemplateInterp | K::TemplateControl) => {
            false
        }
        _ if bracket_change(s) > 0 => false,
        _ if bracket_change(after) < 0 => false,
        _ => true,
    }
}

fn format_cells(lines: &[Line], toks: &mut [Tok]) {
    // Assign cells.
    let mut chain: Vec<usize> = Vec::new();
    let mut max = 0;
    let close_assign = |chain: &mut Vec<usize>, max: &mut usize, toks: &mut [Tok]| {
        for &li in chain.iter() {
            let line = &lines[li];
            let cols = columns(toks, line.lead.clone());
            if let Some(a) = &line.assign {
                toks[a.start].spaces = *max - cols + 1;
            }
        }
        chain.clear();
        *max = 0;
    };
    for (i, line) in lines.iter().enumerate() {
        if line.assign.is_none() {
            close_assign(&mut chain, &mut max, toks);
        } else {
            chain.push(i);
            max = max.max(columns(toks, line.lead.clone()));
        }
    }
    close_assign(&mut chain, &mut max, toks);

    // Comment cells.
    let width = |toks: &[Tok], line: &Line| {
        columns(toks, line.lead.clone()) + line.assign.clone().map_or(0, |a| columns(toks, a))
    };
    let close_comment = |chain: &mut Vec<usize>, max: &mut usize, toks: &mut [Tok]| {
        for &li in chain.iter() {
            let line = &lines[li];
            let cols = width(toks, line);
            if let Some(c) = line.comment {
                toks[c].spaces = *max - cols + 1;
            }
        }
        chain.clear();
        *max = 0;
    };
    for (i, line) in lines.iter().enumerate() {
        if line.comment.is_none() {
            close_comment(&mut chain, &mut max, toks);
        } else {
            chain.push(i);
            max = max.max(width(toks, line));
        }
    }
    close_comment(&mut chain, &mut max, toks);
}

/// Compute the spacing of every token and write them out.
pub(crate) fn format_tokens(toks: &mut [Tok]) -> String {
    let lines = lines_for_format(toks);
    format_indent(&lines, toks);
    format_spaces(&lines, toks);
    format_cells(&lines, toks);
    let mut out = String::with_capacity(toks.iter().map(|t| t.text.len() + 2).sum());
    for t in toks.iter() {
        out.extend(std::iter::repeat_n(' ', t.spaces));
        out.push_str(&t.text);
    }
    out
}
