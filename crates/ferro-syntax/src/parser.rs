//! The chumsky grammar of HCL bodies (attributes and blocks) with line-level error recovery, and
//! the entry points that run lexer, layout pass and parser and collect the diagnostics.

use crate::ast::{
    self, Attribute, Block, BlockLabel, Body, BodyItem, Expr, ExprKind, SmolStr, TemplatePart,
};
use crate::error::{to_diagnostic, FromPErr, GErr, PErr};
use crate::expr::{expr, name, shrunk, Cx, Ex};
use crate::layout::{closer, layout, opener, same, Open};
use crate::lexer::{lex_full, lex_template, tspan, LexOutput, TSpan, Token};
use crate::Parsed;
use chumsky::error::EmptyErr;
use chumsky::input::ValueInput;
use chumsky::prelude::*;
use ferro_diag::{Diagnostic, FileId, Span};

/// Skip the rest of a broken line: tokens up to and including the next newline outside
/// brackets, stopping before a closing brace of the enclosing block. Fails when it would skip
/// nothing. At the top level (`top`) a stray `}` is skipped too.
fn skip_line<'a, I, E>(top: bool) -> impl Parser<'a, I, (), Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    custom(move |inp| {
        let before = inp.cursor();
        let mut open: Vec<Open> = Vec::new();
        let mut skipped = 0usize;
        while let Some(tok) = inp.peek() {
            if open.is_empty() && tok == Token::Newline {
                inp.skip();
                skipped += 1;
                break;
            }
            if let Some(kind) = opener(tok) {
                open.push(kind);
            } else if let Some(kind) = closer(tok) {
                match open.iter().rposition(|k| same(*k, kind)) {
                    Some(pos) => open.truncate(pos),
                    // The `}` of the enclosing block: stop before it (a stray one at the top
                    // level is skipped). Other unmatched closers are just skipped.
                    None if tok == Token::RBrace && !top => break,
                    None => {}
                }
            }
            inp.skip();
            skipped += 1;
        }
        if skipped == 0 {
            let span = inp.span_since(&before);
            return Err(E::from_perr(PErr {
                span,
                found: inp.peek(),
                expected: Default::default(),
                custom: None,
            }));
        }
        Ok(())
    })
}

/// A block header that ends with a newline where a label or `{` belongs (`resource "a" "b"` with
/// its `{` on the next line): the newline's span. HCL keeps the block with the labels read so
/// far and an empty body, then skips what follows as its recovery does: the lines up to the
/// next item that starts with a name, or, when none does, the rest of the enclosing body, all
/// without further errors.
fn header_broken_at_newline<'a, I, E>() -> impl Parser<'a, I, TSpan, Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    custom(move |inp| {
        let start = inp.save();
        let before = inp.cursor();
        if inp.peek() != Some(Token::Newline) {
            let span = inp.span_since(&before);
            return Err(E::from_perr(PErr {
                span,
                found: inp.peek(),
                expected: Default::default(),
                custom: None,
            }));
        }
        inp.skip();
        let newline = inp.span_since(&before);
        while inp.peek() == Some(Token::Newline) {
            inp.skip();
        }
        if matches!(inp.peek(), Some(Token::Ident) | None) {
            // The next item is read as usual; the newline ends this block.
            inp.rewind(start);
            return Ok(newline);
        }
        let mut open: Vec<Open> = Vec::new();
        while let Some(tok) = inp.peek() {
            if let Some(kind) = opener(tok) {
                open.push(kind);
            } else if let Some(kind) = closer(tok) {
                match open.iter().rposition(|k| same(*k, kind)) {
                    Some(pos) => open.truncate(pos),
                    // The `}` of the enclosing block ends the skip.
                    None if tok == Token::RBrace => break,
                    None => {}
                }
            }
            inp.skip();
        }
        Ok(newline)
    })
}

/// After an attribute or block: a newline, the end of the file, or (without consuming it) the
/// closing brace of the enclosing block. Otherwise report a missing newline and skip the line.
fn line_end<'a, I, E>(what: &'static str) -> impl Parser<'a, I, (), Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    let ok = choice((
        just(Token::Newline).ignored(),
        end(),
        just(Token::RBrace).rewind().ignored(),
    ));
    let missing = any()
        .map_with(|t, e| (t, e.span()))
        .rewind()
        .then_ignore(skip_line(false).or_not())
        .validate(move |(tok, span): (Token, TSpan), _, emitter| {
            if tok == Token::Comma && what == "argument" {
                emitter.emit(E::from_perr(PErr::custom(
                    span,
                    "syntax-unexpected-comma",
                    "Unexpected comma after argument",
                    "Argument definitions must be separated by newlines, not commas. An argument definition \
                     must end with a newline."
                        .to_string(),
                )));
                return;
            }
            emitter.emit(E::from_perr(PErr::custom(
                span,
                "syntax-missing-newline",
                if what == "argument" {
                    "Missing newline after argument"
                } else {
                    "Missing newline after block definition"
                },
                format!(
                    "{} {what} definition must end with a newline, but more input follows on the same \
                     line here. Put the next item on its own line.",
                    if what == "argument" { "An" } else { "A" }
                ),
            )));
        });
    ok.or(missing)
}

fn body<'a, I, E>(cx: Cx<'a>, top: bool) -> impl Parser<'a, I, Body, Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    let block = recursive(move |block| {
        let inner_items = items(cx, block, false);
        let label = choice((
            just(Token::Ident).map_with(move |_, e| BlockLabel {
                value: SmolStr::new(cx.text(e.span())),
                quoted: false,
                span: cx.span(e.span()),
            }),
            just(Token::QuoteOpen)
                .rewind()
                .ignore_then(expr(cx))
                .validate(move |ex: Expr, _, emitter| label_of(cx, ex, emitter)),
        ));
        let block_body = choice((
            just(Token::LBrace)
                .map_with(|_, e| e.span())
                .then(inner_items)
                .then(just(Token::RBrace).map_with(|_, e| e.span()))
                .map(move |((open, items), close)| (items, Ok((cx.span(open), cx.span(close))))),
            just(Token::TooDeep).map_with(move |_, e| {
                let s = cx.span(e.span());
                (
                    Vec::new(),
                    Ok((s.start_point(), Span { start: s.end, ..s })),
                )
            }),
            header_broken_at_newline().map(|nl: TSpan| (Vec::new(), Err(nl))),
        ));
        name(cx)
            .then(label.repeated().collect::<Labels>().map(|l| shrunk(l.0)))
            .then(E::label(block_body, "block label or '{'"))
            .validate(move |((ty, labels), (items, braces)), _, emitter| {
                // A header cut by a newline: HCL's one error (an item of a name alone when no
                // label came first), with the block kept, its placeholder braces the type's name.
                if let Err(nl) = &braces {
                    let err = match labels.is_empty() {
                        true => PErr::custom(
                            tspan(ty.span.range()),
                            "syntax-argument-or-block-expected",
                            "Argument or block definition required",
                            "An argument or block definition is required here. To set an \
                             argument, use the equals sign \"=\" to introduce the argument value."
                                .to_string(),
                        ),
                        false => PErr::custom(
                            *nl,
                            "syntax-invalid-block-definition",
                            "Invalid block definition",
                            "A block definition must have block content delimited by \"{\" and \
                             \"}\", starting on the same line as the block header."
                                .to_string(),
                        ),
                    };
                    emitter.emit(E::from_perr(err));
                }
                ((ty, labels), (items, braces))
            })
            .then_ignore(line_end("block"))
            .map(move |((ty, labels), (items, braces))| {
                // A name alone on its line is no block at all.
                if braces.is_err() && labels.is_empty() {
                    return None;
                }
                let (open_brace, close_brace) = braces.unwrap_or((ty.span, ty.span));
                let span = ty.span.to(close_brace);
                // Between the braces; empty where the name starts for placeholder braces.
                let body_start = open_brace.end.min(close_brace.start);
                let body = Body {
                    items,
                    span: Span {
                        start: body_start,
                        end: close_brace.start.max(body_start),
                        ..span
                    },
                    json: false,
                };
                Some(BodyItem::Block(Block {
                    ty,
                    labels,
                    body,
                    open_brace,
                    close_brace,
                    span,
                }))
            })
            .boxed()
    });
    items(cx, block, top).map_with(move |items, e| Body {
        items,
        span: cx.span(e.span()),
        json: false,
    })
}

fn items<'a, I, E, B>(
    cx: Cx<'a>,
    block: B,
    top: bool,
) -> impl Parser<'a, I, Vec<BodyItem>, Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
    B: Parser<'a, I, Option<BodyItem>, Ex<E>> + Clone + 'a,
{
    let value = E::recover(
        expr(cx).then_ignore(line_end("argument")),
        skip_line(false).map_with(move |_, e| Expr {
            kind: ExprKind::Error,
            span: cx.span(e.span()),
        }),
    );
    let attribute = name(cx)
        .then_ignore(just(Token::Assign))
        .then(value)
        .map(|(name, expr)| {
            let span = name.span.to(expr.span);
            BodyItem::Attribute(Attribute { name, expr, span })
        });
    let item = E::recover(
        E::label(choice((attribute.map(Some), block)), "argument or block"),
        skip_line(top).to(None),
    );
    choice((just(Token::Newline).to(None), item))
        .repeated()
        .collect::<Items>()
        .map(|items| shrunk(items.0))
}

/// Block labels: room for two at the first (resources and data sources have two).
#[derive(Default)]
struct Labels(Vec<BlockLabel>);

impl chumsky::container::Container<BlockLabel> for Labels {
    fn push(&mut self, label: BlockLabel) {
        if self.0.capacity() == 0 {
            self.0.reserve_exact(2);
        }
        self.0.push(label);
    }
}

/// The items of a body, collected without the `None`s of blank lines and skipped lines.
#[derive(Default)]
struct Items(Vec<BodyItem>);

impl chumsky::container::Container<Option<BodyItem>> for Items {
    fn push(&mut self, item: Option<BodyItem>) {
        if let Some(item) = item {
            self.0.push(item);
        }
    }
}

/// A block label written as an expression: must be a plain quoted string.
fn label_of<E: FromPErr>(cx: Cx, ex: Expr, emitter: &mut chumsky::input::Emitter<E>) -> BlockLabel {
    if let ExprKind::Template(t) = &ex.kind {
        if t.heredoc.is_none()
            && t.parts
                .iter()
                .all(|p| matches!(p, TemplatePart::Literal { .. }))
        {
            let value = t
                .parts
                .iter()
                .map(|p| match p {
                    TemplatePart::Literal { text, .. } => text.as_str(),
                    _ => "",
                })
                .collect();
            return BlockLabel {
                value,
                quoted: true,
                span: ex.span,
            };
        }
    }
    let range = ex.span.range();
    emitter.emit(E::from_perr(PErr::custom(
        tspan(range.clone()),
        "syntax-invalid-block-label",
        "Invalid block label",
        "Block labels must be identifiers or plain quoted strings, without interpolations or \
         other expressions."
            .to_string(),
    )));
    BlockLabel {
        value: SmolStr::new(&cx.src[range]),
        quoted: false,
        span: ex.span,
    }
}

type Tokens = Vec<(Token, TSpan)>;

fn prepare(file: FileId, text: &str) -> (Tokens, Vec<ast::Comment>, Vec<Diagnostic>) {
    prepare_lexed(file, text, lex_full(file, text))
}

fn prepare_lexed(
    file: FileId,
    text: &str,
    lexed: LexOutput,
) -> (Tokens, Vec<ast::Comment>, Vec<Diagnostic>) {
    let LexOutput {
        mut tokens,
        comments,
        diagnostics: mut diags,
    } = lexed;
    layout(file, text.len(), &mut tokens, &mut diags);
    (tokens, comments, diags)
}

fn finish(
    file: FileId,
    mut diags: Vec<Diagnostic>,
    errs: Vec<PErr>,
    eof: usize,
) -> Vec<Diagnostic> {
    // Each directive left open is reported, though all of them at the template's end.
    let key = |d: &Diagnostic| {
        let detail = (d.code == "syntax-unclosed-template-directive").then(|| d.detail.clone());
        (d.span, d.code.clone(), detail)
    };
    let mut seen: std::collections::HashSet<(Option<Span>, String, Option<String>)> =
        diags.iter().map(key).collect();
    let mut closed_at_eof = false;
    for e in errs {
        let d = to_diagnostic(file, e);
        // A bracket left open at the end of the input, reported by the grammar as HashiCorp
        // reports it (at the end); the layout pass's own reports of open brackets and braces
        // then say the same thing again.
        closed_at_eof |= d.span.is_some_and(|s| s.start as usize == eof)
            && matches!(
                d.code.as_str(),
                "syntax-unbalanced-parentheses"
                    | "syntax-missing-index-bracket"
                    | "syntax-missing-item-separator"
                    | "syntax-missing-argument-separator"
                    | "syntax-invalid-expression"
                    | "syntax-invalid-for"
            );
        if seen.insert(key(&d)) {
            diags.push(d);
        }
    }
    if closed_at_eof {
        diags.retain(|d| d.code != "syntax-unclosed-bracket" && d.code != "syntax-unclosed-brace");
    }
    diags.sort_by_key(|d| d.span.map(|s| (s.start, s.end)));
    diags
}

/// Stack for the recursive-descent parser: nesting is capped by the layout pass, so this bounds
/// the whole parse (debug builds need tens of KiB per nesting level). Only touched pages are used.
const PARSER_STACK: usize = 64 << 20;

pub fn parse_file(file: FileId, text: &str) -> Parsed {
    stacker::grow(PARSER_STACK, || parse_file_inner(file, text))
}

pub fn parse_expr(file: FileId, text: &str) -> (ast::Expr, Vec<Diagnostic>) {
    stacker::grow(PARSER_STACK, || parse_expr_inner(file, text))
}

fn parse_file_inner(file: FileId, text: &str) -> Parsed {
    let (tokens, comments, diags) = prepare(file, text);
    let cx = Cx { file, src: text };
    // A first pass without error tracking; only a file with syntax errors is parsed again to
    // describe them (the grammar is the same, so a clean parse gives the same tree).
    let (out, errs) = match file_pass::<_, EmptyErr>(cx, token_input(&tokens, text.len())) {
        (Some(body), errs) if errs.is_empty() => (Some(body), Vec::new()),
        _ => file_pass::<_, PErr>(cx, token_input(&tokens, text.len())),
    };
    let body = out.unwrap_or_else(|| Body {
        items: Vec::new(),
        span: Span::new(file, 0..text.len()),
        json: false,
    });
    let mut diagnostics = finish(file, diags, errs, text.len());
    let before = diagnostics.len();
    // Blocks that already have syntax errors are left alone: their spans come from recovery.
    let broken: Vec<(u32, u32)> = diagnostics
        .iter()
        .filter_map(|d| d.span.map(|s| (s.start, s.end)))
        .collect();
    check_block_lines(text, &body, &broken, &mut diagnostics);
    // Both only rewrite or drop diagnostics: nothing to do for a clean file.
    if !diagnostics.is_empty() {
        single_line_block_errors(text, &body, &mut diagnostics);
        drop_symptoms(text, &mut diagnostics);
    }
    if diagnostics.len() > before {
        diagnostics.sort_by_key(|d| d.span.map(|s| (s.start, s.end)));
    }
    Parsed {
        body,
        comments,
        diagnostics,
    }
}

/// Parse a bare template (literal text with `${}` and `%{}`, no quotes and no backslash escapes),
/// as HashiCorp's `ParseTemplate` does for the strings of JSON configuration files. The result is
/// a `Template` expression without heredoc information; spans are offsets into `text`.
pub fn parse_template(file: FileId, text: &str) -> (ast::Expr, Vec<Diagnostic>) {
    stacker::grow(PARSER_STACK, || {
        let (tokens, _, diags) = prepare_lexed(file, text, lex_template(file, text));
        let (mut ex, diags) = parse_tokens(file, text, tokens, diags);
        if let ExprKind::Template(t) = &mut ex.kind {
            t.heredoc = None;
        }
        (ex, diags)
    })
}

fn parse_expr_inner(file: FileId, text: &str) -> (ast::Expr, Vec<Diagnostic>) {
    let (tokens, _, diags) = prepare(file, text);
    let (ex, mut diags) = parse_tokens(file, text, tokens, diags);
    // A bare expression (the console, `-var` values) has no newline to end it: where HCL wants
    // an expression and finds the end of the input, it reports the end as an invalid token,
    // and nothing more at that point.
    let eof = text.trim_end().len() as u32;
    let mut at_end = false;
    diags.retain_mut(|d| {
        let end = d.span.is_some_and(|s| s.start >= eof);
        if end && at_end {
            return false;
        }
        if d.code == "syntax-missing-expression" {
            d.code = "syntax-invalid-expression".into();
            d.summary = "Invalid expression".into();
            d.detail =
                "Expected the start of an expression, but found an invalid expression token."
                    .into();
        }
        at_end |= end;
        true
    });
    (ex, diags)
}

fn parse_tokens(
    file: FileId,
    text: &str,
    tokens: Tokens,
    diags: Vec<Diagnostic>,
) -> (ast::Expr, Vec<Diagnostic>) {
    let cx = Cx { file, src: text };
    let fast = expr_only::<_, EmptyErr>(cx)
        .parse(token_input(&tokens, text.len()))
        .into_output_errors();
    if diags.is_empty() && (fast.0.is_none() || !fast.1.is_empty()) {
        // A whole expression followed by more tokens: HCL says so rather than naming the
        // token it did not expect.
        if let (Some((ex, Some(extra))), errs) = expr_then_extra::<_, EmptyErr>(cx)
            .parse(token_input(&tokens, text.len()))
            .into_output_errors()
        {
            if errs.is_empty() {
                let mut diags = finish(file, diags, Vec::new(), text.len());
                diags.push(
                    Diagnostic::error("syntax-extra-characters", "Extra characters after expression")
                        .with_detail("An expression was successfully parsed, but extra characters were found after it.")
                        .with_span(Span::new(file, extra.start as usize..extra.end as usize)),
                );
                return (ex, diags);
            }
        }
    }
    let (out, errs) = match fast {
        (Some(ex), errs) if errs.is_empty() => (Some(ex), Vec::new()),
        _ => expr_only::<_, PErr>(cx)
            .parse(token_input(&tokens, text.len()))
            .into_output_errors(),
    };
    let ex = out.unwrap_or_else(|| Expr {
        kind: ExprKind::Error,
        span: Span::new(file, 0..text.len()),
    });
    (ex, finish(file, diags, errs, text.len()))
}

/// The parser's input: the token slice, read as (token, span) pairs.
fn token_input<'a>(
    tokens: &'a [(Token, TSpan)],
    len: usize,
) -> impl ValueInput<'a, Token = Token, Span = TSpan> {
    tokens.map(tspan(len..len), |(t, s)| (t, s))
}

/// One pass of the file grammar over `input`, with the error type `E`.
fn file_pass<'a, I, E>(cx: Cx<'a>, input: I) -> (Option<Body>, Vec<E>)
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    body::<I, E>(cx, true)
        .then_ignore(end())
        .parse(input)
        .into_output_errors()
}

/// A whole input that is one expression, with blank lines around it.
fn expr_only<'a, I, E>(cx: Cx<'a>) -> impl Parser<'a, I, Expr, Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    let nl = just(Token::Newline).repeated();
    nl.ignore_then(expr(cx)).then_ignore(nl).then_ignore(end())
}

/// An expression with blank lines around it, then the span of the first token after it, if
/// any (the rest is skipped).
fn expr_then_extra<'a, I, E>(cx: Cx<'a>) -> impl Parser<'a, I, (Expr, Option<TSpan>), Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    let nl = just(Token::Newline).repeated();
    nl.ignore_then(expr(cx))
        .then_ignore(nl)
        .then(any().map_with(|_, e| e.span()).or_not())
        .then_ignore(any().repeated())
        .then_ignore(end())
}

/// Whether only spaces, tabs and `/* */` comments separate `from` from the end of its line.
fn rest_of_line_blank(text: &str, from: usize) -> bool {
    let mut rest = &text[from.min(text.len())..];
    loop {
        rest = rest.trim_start_matches([' ', '\t']);
        if let Some(after) = rest.strip_prefix("/*") {
            match after.find("*/") {
                Some(i) if !after[..i].contains('\n') => rest = &after[i + 2..],
                _ => return true,
            }
            continue;
        }
        return rest.is_empty() || rest.starts_with(['\n', '\r', '#']) || rest.starts_with("//");
    }
}

/// The line rules of block bodies, which the grammar leaves to this pass: a block whose first
/// item is on the line of its `{` is a single-line block (at most one argument, closed on the
/// same line); in a multi-line block every item ends its line, the last one included.
fn check_block_lines(text: &str, body: &Body, broken: &[(u32, u32)], diags: &mut Vec<Diagnostic>) {
    for item in &body.items {
        let BodyItem::Block(b) = item else { continue };
        if broken
            .iter()
            .any(|&(s, e)| s < b.span.end && e >= b.span.start)
        {
            continue;
        }
        let (open, close) = (b.open_brace.end as usize, b.close_brace.start as usize);
        if b.close_brace.start == b.close_brace.end || close > text.len() || open > close {
            // A block cut short by an earlier error.
            continue;
        }
        let items = &b.body.items;
        if !rest_of_line_blank(text, open) && !items.is_empty() {
            let first = &items[0];
            let single = |detail: &str, span: Span| {
                Diagnostic::error(
                    "syntax-invalid-single-line-block",
                    "Invalid single-argument block definition",
                )
                .with_detail(detail)
                .with_span(span)
            };
            match first {
                BodyItem::Block(inner) => diags.push(
                    Diagnostic::error("syntax-argument-expected", "Argument definition required")
                        .with_detail(format!(
                            "A single-line block definition can contain only a single argument. If you meant \
                             to define argument \"{}\", use an equals sign to assign it a value. To define a \
                             nested block, place it on a line of its own within its parent block.",
                            inner.ty.name
                        ))
                        .with_span(inner.ty.span),
                ),
                BodyItem::Attribute(a) if items.len() > 1 => {
                    let sp = match &items[1] {
                        BodyItem::Attribute(x) => x.span,
                        BodyItem::Block(x) => x.span,
                    };
                    // The next item on a later line: the block was left open after its
                    // argument (HCL points at the end of that line).
                    let between = &text[a.span.end as usize..(sp.start as usize).max(a.span.end as usize)];
                    if let Some(nl) = between.find('\n') {
                        let at = a.span.end + nl as u32;
                        // A line comment ends the line with it: HCL points at the comment.
                        let comment = between[..nl].find('#').or_else(|| between[..nl].find("//"));
                        let from = comment.map_or(at, |c| a.span.end + c as u32);
                        diags.push(single(
                            "An argument definition on the same line as its containing block creates a single-line \
                             block definition, which must also be closed on the same line. Place the block's closing \
                             brace immediately after the argument definition.",
                            Span { start: from, end: at + 1, ..sp },
                        ));
                        check_block_lines(text, &b.body, broken, diags);
                        continue;
                    }
                    diags.push(single(
                        "Single-line block syntax can include only one argument definition. To define \
                         multiple arguments, use the multi-line block syntax with one argument definition \
                         per line.",
                        Span { start: a.span.end, ..sp },
                    ));
                }
                BodyItem::Attribute(a) if text[a.span.end as usize..close].contains('\n') => diags.push(single(
                    "An argument definition on the same line as its containing block creates a single-line \
                     block definition, which must also be closed on the same line. Place the block's closing \
                     brace immediately after the argument definition.",
                    Span { start: a.span.start, end: a.span.end, ..b.span },
                )),
                BodyItem::Attribute(_) => {}
            }
        } else if let Some(last) = items.last() {
            let (end, what) = match last {
                BodyItem::Attribute(a) => (a.span.end as usize, "argument"),
                BodyItem::Block(x) => (x.span.end as usize, "block"),
            };
            if end <= close && !text[end..close].contains('\n') {
                let (summary, detail) = if what == "argument" {
                    (
                        "Missing newline after argument",
                        "An argument definition must end with a newline.",
                    )
                } else {
                    (
                        "Missing newline after block definition",
                        "A block definition must end with a newline.",
                    )
                };
                diags.push(
                    Diagnostic::error("syntax-missing-newline", summary)
                        .with_detail(detail)
                        .with_span(Span {
                            start: b.close_brace.start,
                            end: b.close_brace.end,
                            ..b.span
                        }),
                );
            }
        }
        check_block_lines(text, &b.body, broken, diags);
    }
}

/// Errors after an argument that sits on the line of its block's `{` (`b { a = 1, b = 2 }`,
/// `b { a = 1 b = 2 }`) are about the single-line block syntax, as HashiCorp's parser says.
fn single_line_block_errors(text: &str, body: &Body, diags: &mut [Diagnostic]) {
    for item in &body.items {
        let BodyItem::Block(b) = item else { continue };
        let (open, close) = (b.open_brace.end as usize, b.close_brace.start as usize);
        if open <= close && close <= text.len() && !text[open..close].contains('\n') {
            for d in diags.iter_mut() {
                let Some(sp) = d.span else { continue };
                if (sp.start as usize) < open || (sp.start as usize) >= close {
                    continue;
                }
                let detail = match d.code.as_str() {
                    "syntax-unexpected-comma" => {
                        "Single-line block syntax can include only one argument definition. To define multiple \
                         arguments, use the multi-line block syntax with one argument definition per line."
                    }
                    "syntax-missing-newline" => {
                        "A single-line block definition must end with a closing brace immediately after its \
                         single argument definition."
                    }
                    _ => continue,
                };
                d.code = "syntax-invalid-single-line-block".to_string();
                d.summary = "Invalid single-argument block definition".to_string();
                d.detail = detail.to_string();
            }
        }
        single_line_block_errors(text, &b.body, diags);
    }
}

/// A "missing newline" reported where an expression stopped is only a symptom when a later
/// error on the same line says what is wrong inside it (an unterminated string, say): drop it.
fn drop_symptoms(text: &str, diags: &mut Vec<Diagnostic>) {
    let line_end = |at: usize| {
        text[at.min(text.len())..]
            .find('\n')
            .map_or(text.len(), |i| at + i)
    };
    let starts: Vec<(usize, bool)> = diags
        .iter()
        .filter_map(|d| {
            d.span
                .map(|s| (s.start as usize, d.code == "syntax-missing-newline"))
        })
        .collect();
    diags.retain(|d| {
        let Some(sp) = d.span else { return true };
        if d.code != "syntax-missing-newline" {
            return true;
        }
        let (at, end) = (sp.start as usize, line_end(sp.start as usize));
        !starts
            .iter()
            .any(|&(s, symptom)| !symptom && s >= at && s < end.max(at + 1))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both passes over one file: the fast pass's outcome (`None` when it gave up) and the
    /// diagnosing pass's tree and error count.
    fn both(text: &str) -> (Option<Body>, Option<Body>, usize) {
        let file = FileId(0);
        let (tokens, _, _) = prepare(file, text);
        let cx = Cx { file, src: text };
        let (fast, fast_errs) = file_pass::<_, EmptyErr>(cx, token_input(&tokens, text.len()));
        let (slow, slow_errs) = file_pass::<_, PErr>(cx, token_input(&tokens, text.len()));
        (fast.filter(|_| fast_errs.is_empty()), slow, slow_errs.len())
    }

    /// The fast pass is only trusted because it builds the same tree as the diagnosing pass on
    /// every file without syntax errors, and gives up on every file with them.
    #[test]
    fn fast_pass_agrees_with_the_diagnosing_pass() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
        let mut files = Vec::new();
        for sub in ["fmt/corpus", "parse"] {
            let mut stack = vec![dir.join(sub)];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                    let p = e.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == "tf") {
                        files.push(p);
                    }
                }
            }
        }
        assert!(
            files.len() > 250,
            "corpus not found under {}",
            dir.display()
        );
        let (mut clean, mut broken) = (0, 0);
        for p in &files {
            let (text, _) =
                crate::decode_source(FileId(0), &std::fs::read(p).expect("read corpus file"));
            let (fast, slow, errors) = both(&text);
            if errors == 0 {
                clean += 1;
                assert_eq!(
                    fast,
                    slow,
                    "{}: the passes build different trees",
                    p.display()
                );
            } else {
                broken += 1;
                assert!(
                    fast.is_none(),
                    "{}: the fast pass accepted a file with syntax errors",
                    p.display()
                );
            }
        }
        assert!(clean > 200 && broken > 30, "clean {clean}, broken {broken}");
    }
}
