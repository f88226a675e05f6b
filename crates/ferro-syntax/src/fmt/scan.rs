//! The formatter's scanner: splits valid HCL source into the token classes of the HashiCorp
//! `hclsyntax` scanner (which `terraform fmt` formats), keeping every byte of every token so the
//! formatter can re-emit them with new spacing.
//!
//! Differences from the parser's lexer: comments are tokens (a `#`/`//` comment includes its
//! line ending), a heredoc opener includes its line ending, heredoc and quoted literal text are
//! separate token kinds, and a heredoc's closing marker keeps the whitespace around it.

use crate::lexer::Token;
use logos::Logos;
use std::borrow::Cow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum K {
    OBrace,
    CBrace,
    OBrack,
    CBrack,
    OParen,
    CParen,
    OQuote,
    CQuote,
    OHeredoc,
    CHeredoc,
    TemplateInterp,
    TemplateControl,
    TemplateSeqEnd,
    /// Literal text in a quoted template.
    QuotedLit,
    /// Literal text in a heredoc template.
    StringLit,
    Number,
    Ident,
    Comment,
    Newline,
    Dot,
    Comma,
    Ellipsis,
    Minus,
    Plus,
    Star,
    Slash,
    Percent,
    Equal,
    EqualOp,
    NotEqual,
    Lt,
    LtEq,
    Gt,
    GtEq,
    And,
    Or,
    Bang,
    Question,
    Colon,
    DoubleColon,
    FatArrow,
    Invalid,
}

/// One token: its kind, its exact text, and where it started in the source (`usize::MAX` for
/// tokens the formatter synthesised).
#[derive(Debug, Clone)]
pub(crate) struct Tok<'a> {
    pub kind: K,
    pub text: Cow<'a, str>,
    pub start: usize,
    /// Spaces to write before the token (computed by the formatter).
    pub spaces: usize,
}

impl<'a> Tok<'a> {
    pub fn new(kind: K, text: &'a str, start: usize) -> Self {
        Tok {
            kind,
            text: Cow::Borrowed(text),
            start,
            spaces: 0,
        }
    }
    pub fn synth(kind: K, text: impl Into<Cow<'a, str>>) -> Self {
        Tok {
            kind,
            text: text.into(),
            start: usize::MAX,
            spaces: 0,
        }
    }
    pub fn end(&self) -> usize {
        self.start.saturating_add(self.text.len())
    }
}

enum Mode {
    Main,
    Quoted,
    Heredoc { marker: String, line_start: bool },
}

/// Scan `src` (without a byte-order mark). Returns the tokens and the number of bytes after the
/// last token (trailing whitespace before the end of the file).
pub(crate) fn scan<'a>(src: &'a str, base: usize) -> (Vec<Tok<'a>>, usize) {
    let mut toks: Vec<Tok> = Vec::new();
    let mut modes = vec![Mode::Main];
    let mut braces: i64 = 0;
    let mut ret_braces: Vec<i64> = Vec::new();
    let mut pos = 0usize;
    let bytes = src.as_bytes();
    let push = |toks: &mut Vec<Tok<'a>>, kind: K, r: std::ops::Range<usize>| {
        toks.push(Tok::new(kind, &src[r.clone()], base + r.start));
    };
    while pos < src.len() {
        match modes.last_mut() {
            None | Some(Mode::Main) => {
                // Only spaces and tabs separate tokens; `\r` belongs to a following `\n`.
                match bytes[pos] {
                    b' ' | b'\t' => {
                        pos += 1;
                        continue;
                    }
                    b'\r' if bytes.get(pos + 1) == Some(&b'\n') => {
                        push(&mut toks, K::Newline, pos..pos + 2);
                        pos += 2;
                        continue;
                    }
                    b'\r' => {
                        push(&mut toks, K::Invalid, pos..pos + 1);
                        pos += 1;
                        continue;
                    }
                    _ => {}
                }
                // Legacy index `a.0.1` and numbers: handled by the logos lexer like the parser does.
                let mut lx = Token::lexer(&src[pos..]);
                let Some(res) = lx.next() else { break };
                let r = pos + lx.span().start..pos + lx.span().end;
                pos = r.end;
                let kind = match res {
                    Err(()) => K::Invalid,
                    Ok(t) => match t {
                        Token::Newline => K::Newline,
                        Token::Ident
                        | Token::For
                        | Token::In
                        | Token::If
                        | Token::Else
                        | Token::EndIf
                        | Token::EndFor
                        | Token::True
                        | Token::False
                        | Token::Null => K::Ident,
                        Token::Number => K::Number,
                        Token::LBrace => {
                            braces += 1;
                            K::OBrace
                        }
                        Token::RBrace | Token::StripClose => {
                            let seq_end = ret_braces.last() == Some(&braces);
                            braces -= 1;
                            if seq_end {
                                ret_braces.pop();
                                modes.pop();
                                K::TemplateSeqEnd
                            } else if t == Token::StripClose {
                                K::TemplateSeqEnd
                            } else {
                                K::CBrace
                            }
                        }
                        Token::LBracket => K::OBrack,
                        Token::RBracket => K::CBrack,
                        Token::LParen => K::OParen,
                        Token::RParen => K::CParen,
                        Token::Assign => K::Equal,
                        Token::Colon => K::Colon,
                        Token::DoubleColon => K::DoubleColon,
                        Token::Comma => K::Comma,
                        Token::Dot => K::Dot,
                        Token::Ellipsis => K::Ellipsis,
                        Token::Question => K::Question,
                        Token::FatArrow => K::FatArrow,
                        Token::Plus => K::Plus,
                        Token::Minus => K::Minus,
                        Token::Star => K::Star,
                        Token::Slash => K::Slash,
                        Token::Percent => K::Percent,
                        Token::Bang => K::Bang,
                        Token::EqEq => K::EqualOp,
                        Token::NotEq => K::NotEqual,
                        Token::Lt => K::Lt,
                        Token::LtEq => K::LtEq,
                        Token::Gt => K::Gt,
                        Token::GtEq => K::GtEq,
                        Token::AndAnd => K::And,
                        Token::OrOr => K::Or,
                        Token::QuoteOpen => {
                            modes.push(Mode::Quoted);
                            K::OQuote
                        }
                        Token::HeredocOpen => {
                            let text = &src[r.clone()];
                            let word = text.trim_start_matches("<<").trim_start_matches('-');
                            let marker = word.trim_end_matches(['\n', '\r', ' ', '\t']).to_string();
                            modes.push(Mode::Heredoc {
                                marker,
                                line_start: true,
                            });
                            K::OHeredoc
                        }
                        Token::HashComment | Token::SlashComment => {
                            // The comment token owns its line ending.
                            let mut end = r.end;
                            if bytes.get(end) == Some(&b'\n') {
                                end += 1;
                            }
                            pos = end;
                            push(&mut toks, K::Comment, r.start..end);
                            continue;
                        }
                        Token::BlockCommentStart => {
                            let end = src[r.end..].find("*/").map_or(src.len(), |i| r.end + i + 2);
                            pos = end;
                            push(&mut toks, K::Comment, r.start..end);
                            continue;
                        }
                        Token::QuoteClose
                        | Token::HeredocClose
                        | Token::TemplText
                        | Token::InterpOpen
                        | Token::InterpOpenStrip
                        | Token::DirOpen
                        | Token::DirOpenStrip
                        | Token::TemplClose
                        | Token::TooDeep => K::Invalid,
                    },
                };
                push(&mut toks, kind, r);
            }
            Some(Mode::Quoted) => {
                let rest = &src[pos..];
                if rest.starts_with('"') {
                    push(&mut toks, K::CQuote, pos..pos + 1);
                    modes.pop();
                    pos += 1;
                } else if let Some(n) = template_open(rest) {
                    let kind = if rest.starts_with('$') {
                        K::TemplateInterp
                    } else {
                        K::TemplateControl
                    };
                    push(&mut toks, kind, pos..pos + n);
                    braces += 1;
                    ret_braces.push(braces);
                    modes.push(Mode::Main);
                    pos += n;
                } else if rest.starts_with(['\n', '\r']) {
                    // A newline inside a quoted string: invalid (the parser has reported it).
                    let n = rest.len() - rest.trim_start_matches(['\n', '\r']).len();
                    push(&mut toks, K::Invalid, pos..pos + n);
                    modes.pop();
                    pos += n;
                } else {
                    let n = quoted_literal_len(rest);
                    push_lit(&mut toks, K::QuotedLit, src, base, pos..pos + n);
                    pos += n;
                }
            }
            Some(Mode::Heredoc { marker, line_start }) => {
                let rest = &src[pos..];
                if *line_start {
                    let line_len = rest.find('\n').map(|i| i + 1);
                    if let Some(ll) = line_len {
                        let line = &rest[..ll];
                        if !line.contains(['$', '%']) || !has_template_open(line) {
                            let content = line.trim_end_matches('\n').trim_end_matches('\r');
                            if content.trim_matches(|c: char| c.is_ascii_whitespace()) == marker {
                                push(&mut toks, K::CHeredoc, pos..pos + content.len());
                                push(&mut toks, K::Newline, pos + content.len()..pos + ll);
                                modes.pop();
                                pos += ll;
                                continue;
                            }
                        }
                    }
                }
                if let Some(n) = template_open(rest) {
                    let kind = if rest.starts_with('$') {
                        K::TemplateInterp
                    } else {
                        K::TemplateControl
                    };
                    push(&mut toks, kind, pos..pos + n);
                    braces += 1;
                    ret_braces.push(braces);
                    *line_start = false;
                    modes.push(Mode::Main);
                    pos += n;
                    continue;
                }
                // Literal text up to the end of the line (inclusive) or the next template opener.
                let mut n = 0;
                let b = rest.as_bytes();
                while n < b.len() {
                    if b[n] == b'\n' {
                        n += 1;
                        break;
                    }
                    if (b[n] == b'$' || b[n] == b'%')
                        && n > 0
                        && template_open(&rest[n..]).is_some()
                    {
                        // `$${` is an escape, not an opener.
                        break;
                    }
                    if (b[n] == b'$' || b[n] == b'%')
                        && b.get(n + 1) == Some(&b[n])
                        && b.get(n + 2) == Some(&b'{')
                    {
                        n += 3;
                        continue;
                    }
                    n += 1;
                }
                let n = n.max(1);
                *line_start = rest[..n].ends_with('\n');
                push_lit(&mut toks, K::StringLit, src, base, pos..pos + n);
                pos += n;
            }
        }
    }
    let last_end = toks.last().map_or(0, |t| t.end() - base);
    (toks, src.len() - last_end)
}

/// Append literal text, merging it with a directly preceding literal of the same kind.
fn push_lit<'a>(
    toks: &mut Vec<Tok<'a>>,
    kind: K,
    src: &'a str,
    base: usize,
    r: std::ops::Range<usize>,
) {
    if let Some(prev) = toks.last_mut() {
        if prev.kind == kind && prev.end() == base + r.start && !prev.text.ends_with('\n') {
            let s = prev.start - base;
            prev.text = Cow::Borrowed(&src[s..r.end]);
            return;
        }
    }
    toks.push(Tok::new(kind, &src[r.clone()], base + r.start));
}

/// The length of a template opener (`${`, `${~`, `%{`, `%{~`) at the start of `s`.
fn template_open(s: &str) -> Option<usize> {
    if s.starts_with("${") || s.starts_with("%{") {
        Some(if s[2..].starts_with('~') { 3 } else { 2 })
    } else {
        None
    }
}

/// Whether a template opener that is not an escape (`$${`, `%%{`) occurs in `line`.
fn has_template_open(line: &str) -> bool {
    let b = line.as_bytes();
    let mut i = 0;
    while i + 1 < b.len() {
        if (b[i] == b'$' || b[i] == b'%') && b[i + 1] == b[i] && b.get(i + 2) == Some(&b'{') {
            i += 3;
            continue;
        }
        if (b[i] == b'$' || b[i] == b'%') && b[i + 1] == b'{' {
            return true;
        }
        i += 1;
    }
    false
}

/// The length of quoted-template literal text at the start of `s` (at least one character).
fn quoted_literal_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut n = 0;
    while n < b.len() {
        match b[n] {
            b'"' | b'\n' | b'\r' => break,
            b'\\' => {
                n += 1;
                // Skip the escaped character (whole UTF-8 sequence).
                if let Some(c) = s[n..].chars().next() {
                    if c == '\n' || c == '\r' {
                        break;
                    }
                    n += c.len_utf8();
                }
            }
            b'$' | b'%' => {
                if b.get(n + 1) == Some(&b[n]) && b.get(n + 2) == Some(&b'{') {
                    n += 3;
                } else if b.get(n + 1) == Some(&b'{') {
                    break;
                } else {
                    n += 1;
                }
            }
            _ => n += 1,
        }
    }
    // Stay on a character boundary (multi-byte characters are consumed byte by byte above).
    while n < s.len() && !s.is_char_boundary(n) {
        n += 1;
    }
    n.max(1).min(s.len())
}
