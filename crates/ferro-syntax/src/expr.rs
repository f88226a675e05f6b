//! The chumsky grammar of HCL expressions and templates: operators by precedence, postfix
//! traversals and splats, collections, for-expressions, function calls, quoted and heredoc
//! templates.

use crate::ast::*;
use crate::error::{GErr, PErr};
use crate::layout::{opener, same, Open};
use crate::lexer::{urange, TSpan, Token};
use crate::template::{self, Flavor, Piece, Tag};
use chumsky::input::ValueInput;
use chumsky::prelude::*;
use ferro_diag::{FileId, Span};

pub(crate) type Ex<E> = extra::Err<E>;

/// What every grammar closure needs: the file id and the source text to slice.
#[derive(Clone, Copy)]
pub(crate) struct Cx<'a> {
    pub file: FileId,
    pub src: &'a str,
}

impl<'a> Cx<'a> {
    pub fn span(self, s: TSpan) -> Span {
        Span::new(self.file, urange(s))
    }
    pub fn text(self, s: TSpan) -> &'a str {
        &self.src[urange(s)]
    }
    pub fn ident(self, s: TSpan) -> Ident {
        Ident {
            name: SmolStr::new(self.text(s)),
            span: self.span(s),
        }
    }
}

/// A name: any identifier-like token, keywords included (attribute names, block types, `.name`).
/// After a missing separator or closing bracket: skip to the bracket `close` that ends the
/// construct (consuming it), as HashiCorp's parser recovers, but never past the end of the line
/// or a bracket that closes something enclosing it (those are left for what follows).
fn skip_to_close<'a, I, E>(close: Token) -> impl Parser<'a, I, (), Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    custom(move |inp| {
        let mut open: Vec<Open> = Vec::new();
        while let Some(tok) = inp.peek() {
            if open.is_empty() {
                if tok == close {
                    inp.skip();
                    break;
                }
                if tok == Token::Newline || crate::layout::closer(tok).is_some() {
                    break;
                }
            }
            if let Some(kind) = opener(tok) {
                open.push(kind);
            } else if let Some(kind) = crate::layout::closer(tok) {
                if let Some(pos) = open.iter().rposition(|k| same(*k, kind)) {
                    open.truncate(pos);
                }
            }
            inp.skip();
        }
        Ok(())
    })
}

pub(crate) fn name<'a, I, E>(cx: Cx<'a>) -> impl Parser<'a, I, Ident, Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    let name = select! {
        Token::Ident = e => cx.ident(e.span()),
        Token::For = e => cx.ident(e.span()),
        Token::In = e => cx.ident(e.span()),
        Token::If = e => cx.ident(e.span()),
        Token::Else = e => cx.ident(e.span()),
        Token::EndIf = e => cx.ident(e.span()),
        Token::EndFor = e => cx.ident(e.span()),
        Token::True = e => cx.ident(e.span()),
        Token::False = e => cx.ident(e.span()),
        Token::Null = e => cx.ident(e.span()),
    };
    E::label(name, "identifier")
}

/// A variable or iterator name: an identifier that is not `true`, `false` or `null`.
fn var_name<'a, I, E>(cx: Cx<'a>) -> impl Parser<'a, I, Ident, Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    let name = select! {
        Token::Ident = e => cx.ident(e.span()),
        Token::For = e => cx.ident(e.span()),
        Token::In = e => cx.ident(e.span()),
        Token::If = e => cx.ident(e.span()),
        Token::Else = e => cx.ident(e.span()),
        Token::EndIf = e => cx.ident(e.span()),
        Token::EndFor = e => cx.ident(e.span()),
    };
    E::label(name, "identifier")
}

#[derive(Clone)]
enum StepKind {
    Attr(Ident),
    Index(Expr, bool),
    FullSplat,
    AttrSplat,
}

/// A vector without spare capacity: trees are kept for the whole run.
pub(crate) fn shrunk<T>(mut v: Vec<T>) -> Vec<T> {
    v.shrink_to_fit();
    v
}

fn boxed(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// Apply one postfix step; traversal steps after a splat become part of the splat.
fn apply_step(lhs: Expr, step: StepKind, cx: Cx, s: TSpan) -> Expr {
    let span = lhs.span.to(cx.span(s));
    let kind = match (lhs.kind, step) {
        (
            ExprKind::Splat {
                target,
                kind,
                mut steps,
                marker_span,
            },
            StepKind::Attr(name),
        ) => {
            steps.push(TraversalStep::GetAttr {
                name,
                span: cx.span(s),
            });
            ExprKind::Splat {
                target,
                kind,
                steps,
                marker_span,
            }
        }
        (
            ExprKind::Splat {
                target,
                kind,
                mut steps,
                marker_span,
            },
            StepKind::Index(key, legacy),
        ) if legacy || kind == SplatKind::Full => {
            steps.push(TraversalStep::Index {
                key,
                legacy,
                span: cx.span(s),
            });
            ExprKind::Splat {
                target,
                kind,
                steps,
                marker_span,
            }
        }
        (lk, step) => {
            let target = boxed(Expr {
                kind: lk,
                span: lhs.span,
            });
            let step_span = cx.span(s);
            match step {
                StepKind::Attr(name) => ExprKind::GetAttr {
                    target,
                    name,
                    step_span,
                },
                StepKind::Index(key, legacy) => ExprKind::Index {
                    target,
                    key: boxed(key),
                    legacy,
                    step_span,
                },
                StepKind::FullSplat => ExprKind::Splat {
                    target,
                    kind: SplatKind::Full,
                    steps: Vec::new(),
                    marker_span: step_span,
                },
                StepKind::AttrSplat => ExprKind::Splat {
                    target,
                    kind: SplatKind::Attr,
                    steps: Vec::new(),
                    marker_span: step_span,
                },
            }
        }
    };
    Expr { kind, span }
}

fn binary(l: Expr, op: BinaryOp, r: Expr) -> Expr {
    let span = l.span.to(r.span);
    Expr {
        kind: ExprKind::Binary {
            op,
            lhs: boxed(l),
            rhs: boxed(r),
        },
        span,
    }
}

/// Binding strength of a binary operator (higher binds tighter), as in HCL.
fn precedence(op: BinaryOp) -> u8 {
    use BinaryOp::*;
    match op {
        Or => 1,
        And => 2,
        Eq | NotEq => 3,
        Lt | LtEq | Gt | GtEq => 4,
        Add | Sub => 5,
        Mul | Div | Mod => 6,
    }
}

/// Fold `first (op operand)*` into a tree: left-associative, tighter operators first.
fn fold_binary(first: Expr, mut rest: Vec<(BinaryOp, Expr)>) -> Expr {
    if rest.len() == 1 {
        if let Some((op, r)) = rest.pop() {
            return binary(first, op, r);
        }
    }
    let mut operands = vec![first];
    let mut ops: Vec<BinaryOp> = Vec::new();
    let reduce = |operands: &mut Vec<Expr>, ops: &mut Vec<BinaryOp>| {
        if let (Some(op), Some(r), Some(l)) = (ops.pop(), operands.pop(), operands.pop()) {
            operands.push(binary(l, op, r));
        }
    };
    for (op, operand) in rest {
        while ops
            .last()
            .is_some_and(|top| precedence(*top) >= precedence(op))
        {
            reduce(&mut operands, &mut ops);
        }
        ops.push(op);
        operands.push(operand);
    }
    while !ops.is_empty() {
        reduce(&mut operands, &mut ops);
    }
    operands.pop().unwrap_or(Expr {
        kind: ExprKind::Error,
        span: Span {
            file: FileId(0),
            start: 0,
            end: 0,
        },
    })
}

type ForHead = ((Ident, Option<Ident>), Expr);

fn split_vars(((first, second), coll): ForHead) -> (Option<Ident>, Ident, Expr) {
    match second {
        Some(v) => (Some(first), v, coll),
        None => (None, first, coll),
    }
}

/// The expression grammar.
pub(crate) fn expr<'a, I, E>(cx: Cx<'a>) -> impl Parser<'a, I, Expr, Ex<E>> + Clone
where
    I: ValueInput<'a, Token = Token, Span = TSpan>,
    E: GErr<'a, I>,
{
    recursive(move |expr| {
        let mk = move |kind: ExprKind, s: TSpan| Expr {
            kind,
            span: cx.span(s),
        };
        let nl = just(Token::Newline).repeated();
        // The next token's span, without consuming it (at the end of the input, where it runs
        // backwards, the point where the input ends).
        let next_span = any()
            .or_not()
            .map_with(|_: Option<Token>, e| {
                let s: TSpan = e.span();
                if s.start > s.end {
                    TSpan::from(s.end..s.end)
                } else {
                    s
                }
            })
            .rewind();
        // A closing token, or (reported at the token found instead, which is left for what
        // follows) HashiCorp's error for its absence: `Ok` when it was there.
        let closer = move |tok: Token| {
            // The layout pass closes what is open at the end of the input with tokens of no
            // width: such a closer is missing all the same.
            just(tok)
                .map_with(|_, e| {
                    let s: TSpan = e.span();
                    (s.start == s.end).then_some(s)
                })
                .or(next_span.then_ignore(skip_to_close::<I, E>(tok)).map(Some))
                .map(|missing: Option<TSpan>| missing.map_or(Ok(()), Err))
        };
        let report = |emitter: &mut chumsky::input::Emitter<E>,
                      at: TSpan,
                      code: &'static str,
                      summary: &'static str,
                      detail: &'static str| {
            emitter.emit(E::from_perr(PErr::custom(
                at,
                code,
                summary,
                detail.to_string(),
            )));
        };

        let literal = select! {
            Token::Number = e => ExprKind::Number(SmolStr::new(cx.text(e.span()))),
            Token::True => ExprKind::Bool(true),
            Token::False => ExprKind::Bool(false),
            Token::Null => ExprKind::Null,
            Token::TooDeep => ExprKind::Error,
        }
        .map_with(move |k, e| mk(k, e.span()));

        // Templates.
        let close = select! { Token::TemplClose => false, Token::StripClose => true };
        let interp_open = select! { Token::InterpOpen => false, Token::InterpOpenStrip => true };
        let dir_open = select! { Token::DirOpen => false, Token::DirOpenStrip => true };
        let for_head = just(Token::For)
            .ignore_then(E::label(var_name(cx), "for variable"))
            .then(
                just(Token::Comma)
                    .ignore_then(E::label(var_name(cx), "for value variable"))
                    .or_not(),
            )
            .then_ignore(E::label(just(Token::In), "for in"))
            .then(expr.clone());
        let tag = choice((
            just(Token::If).ignore_then(expr.clone()).map(Tag::If),
            just(Token::Else).to(Tag::Else),
            just(Token::EndIf).to(Tag::EndIf),
            for_head.clone().map(|h| {
                let (key_var, value_var, collection) = split_vars(h);
                Tag::For {
                    key_var,
                    value_var,
                    collection,
                }
            }),
            just(Token::EndFor).to(Tag::EndFor),
        ));
        let piece = choice((
            just(Token::TemplText).map_with(|_, e| Piece::Text(e.span())),
            interp_open.then(expr.clone()).then(close).map_with(
                |((strip_left, expr), strip_right), e| Piece::Interp {
                    expr,
                    strip_left,
                    strip_right,
                    span: e.span(),
                },
            ),
            dir_open
                .then(tag)
                .then(close)
                .map_with(|((strip_left, tag), strip_right), e| Piece::Tag {
                    tag,
                    strip_left,
                    strip_right,
                    span: e.span(),
                }),
            // A directive whose keyword is none of HCL's: reported, and read as an error
            // interpolation up to its closing brace.
            dir_open
                .then(select! { Token::Ident = e => e.span() })
                .validate(move |(strip_left, at): (bool, TSpan), _, emitter| {
                    emitter.emit(E::from_perr(PErr::custom(
                        at,
                        "syntax-invalid-template-keyword",
                        "Invalid template control keyword",
                        template_keyword_detail(cx.text(at)),
                    )));
                    (strip_left, at)
                })
                .then_ignore(any().and_is(close.not()).repeated())
                .then(close)
                .map_with(move |((strip_left, at), strip_right), e| Piece::Interp {
                    expr: mk(ExprKind::Error, at),
                    strip_left,
                    strip_right,
                    span: e.span(),
                }),
            just(Token::TooDeep).map_with(move |_, e| Piece::Interp {
                expr: mk(ExprKind::Error, e.span()),
                strip_left: false,
                strip_right: false,
                span: e.span(),
            }),
        ));
        let pieces = piece.repeated().collect::<template::Pieces>();
        let quoted = just(Token::QuoteOpen)
            .ignore_then(pieces.clone())
            .then(just(Token::QuoteClose).map_with(|_, e| e.span()))
            .validate(move |(pieces, close): (_, TSpan), e, emitter| {
                let mut errs = Vec::new();
                let parts =
                    template::build(cx.file, cx.src, pieces, (Flavor::Quoted, close), &mut errs);
                errs.into_iter()
                    .for_each(|er| emitter.emit(E::from_perr(er)));
                mk(
                    ExprKind::Template(Template {
                        parts,
                        heredoc: None,
                    }),
                    e.span(),
                )
            });
        let heredoc = just(Token::HeredocOpen)
            .map_with(|_, e| e.span())
            .then(pieces)
            .then(just(Token::HeredocClose).map_with(|_, e| e.span()))
            .validate(
                move |((open, pieces), close): ((TSpan, _), TSpan), e, emitter| {
                    let head = cx.text(open).trim_end();
                    let indented = head.starts_with("<<-");
                    let marker = head
                        .trim_start_matches("<<")
                        .trim_start_matches('-')
                        .to_string();
                    let mut errs = Vec::new();
                    let parts = template::build(
                        cx.file,
                        cx.src,
                        pieces,
                        (Flavor::Heredoc { indented }, close),
                        &mut errs,
                    );
                    errs.into_iter()
                        .for_each(|er| emitter.emit(E::from_perr(er)));
                    let heredoc = Some(Box::new(Heredoc {
                        marker: marker.into(),
                        indented,
                    }));
                    mk(ExprKind::Template(Template { parts, heredoc }), e.span())
                },
            );

        // Collections and for-expressions.
        let for_intro = for_head.then_ignore(E::label(just(Token::Colon), "for colon"));
        let cond = just(Token::If).ignore_then(expr.clone()).or_not();
        let for_tuple =
            for_intro
                .clone()
                .then(expr.clone())
                .then(cond.clone())
                .map(|((h, value), cond)| {
                    let (key_var, value_var, collection) = split_vars(h);
                    ExprKind::ForTuple(Box::new(ForTuple {
                        key_var,
                        value_var,
                        collection,
                        value,
                        cond,
                    }))
                });
        // The items, and whether a comma follows the last (an item is then expected, or `]`).
        let tuple_items = expr
            .clone()
            .separated_by(just(Token::Comma))
            .collect::<Vec<_>>()
            .map(shrunk)
            .then(just(Token::Comma).or_not().map(|c| c.is_some()));
        let tuple = just(Token::LBracket)
            // `[for` always starts a for expression (as in HashiCorp's parser).
            .ignore_then(choice((
                for_tuple.then_ignore(E::label(just(Token::RBracket), "for tuple end")),
                none_of([Token::For])
                    .rewind()
                    .ignore_then(tuple_items.then(closer(Token::RBracket)))
                    .validate(move |((items, trailing), closed), _, emitter| {
                        if let Err(at) = closed {
                            if items.is_empty() || trailing {
                                report(emitter, at, "syntax-invalid-expression", "Invalid expression", "Expected the start of an expression, but found an invalid expression token.");
                            } else {
                                report(emitter, at, "syntax-missing-item-separator", "Missing item separator", "Expected a comma to mark the beginning of the next item.");
                            }
                        }
                        ExprKind::Tuple(items)
                    }),
            )))
            .map_with(move |k, e| mk(k, e.span()));

        let key = choice((
            name(cx)
                .then_ignore(one_of([Token::Assign, Token::Colon]).rewind())
                .map(ObjectKey::Ident),
            expr.clone().map(ObjectKey::Expr),
        ));
        let item = key
            .then(E::label(
                select! { Token::Assign => false, Token::Colon => true },
                "key/value separator",
            ))
            .then(expr.clone())
            .map_with(move |((key, colon), value), e| ObjectItem {
                key,
                value,
                colon,
                span: cx.span(e.span()),
            });
        let sep = E::label(
            choice((
                just(Token::Comma).then_ignore(nl).ignored(),
                just(Token::Newline).repeated().at_least(1).ignored(),
            )),
            "attribute separator",
        );
        let object_items = nl
            .ignore_then(
                item.separated_by(sep)
                    .allow_trailing()
                    .collect::<Vec<_>>()
                    .map(shrunk),
            )
            .then_ignore(nl)
            .map(ExprKind::Object);
        let for_object = for_intro
            .then(expr.clone())
            .then_ignore(E::label(just(Token::FatArrow), "for arrow"))
            .then(expr.clone())
            .then(just(Token::Ellipsis).or_not())
            .then(cond)
            .map(|((((h, key), value), group), cond)| {
                let (key_var, value_var, collection) = split_vars(h);
                ExprKind::ForObject(Box::new(ForObject {
                    key_var,
                    value_var,
                    collection,
                    key,
                    value,
                    group: group.is_some(),
                    cond,
                }))
            });
        let object = just(Token::LBrace)
            .ignore_then(choice((
                for_object.then_ignore(E::label(just(Token::RBrace), "for object end")),
                object_items.then_ignore(just(Token::RBrace)),
            )))
            .map_with(move |k, e| mk(k, e.span()));

        let parens = just(Token::LParen)
            .ignore_then(expr.clone())
            .then(closer(Token::RParen))
            .validate(move |(inner, closed), _, emitter| {
                if let Err(at) = closed {
                    report(
                        emitter,
                        at,
                        "syntax-unbalanced-parentheses",
                        "Unbalanced parentheses",
                        "Expected a closing parenthesis to terminate the expression.",
                    );
                }
                inner
            })
            .map_with(move |inner, e| mk(ExprKind::Parens(boxed(inner)), e.span()));

        // A name, then a call when `(` (or a `::` namespace) follows: the name is read once
        // whether it turns out to be a variable or a function.
        let call_tail = just(Token::DoubleColon)
            .ignore_then(name(cx))
            .repeated()
            .collect::<Vec<_>>()
            .then(just(Token::LParen).map_with(move |_, e| cx.span(e.span())))
            .then(
                expr.clone()
                    .separated_by(just(Token::Comma))
                    .collect::<Vec<_>>()
                    .map(shrunk),
            )
            // A comma after the last argument: another is expected, or `)`.
            .then(just(Token::Comma).or_not().map(|c| c.is_some()))
            .then(
                just(Token::Ellipsis)
                    .then_ignore(just(Token::Comma).or_not())
                    .or_not(),
            )
            .then(closer(Token::RParen))
            // Once `(` follows the name it is a call: a missing `)` is reported, not backed out of.
            .validate(move |((((head, args), trailing), ell), closed), _, emitter| {
                if let Err(at) = closed {
                    if ell.is_none() && (args.is_empty() || trailing) {
                        report(emitter, at, "syntax-invalid-expression", "Invalid expression", "Expected the start of an expression, but found an invalid expression token.");
                    } else {
                        report(emitter, at, "syntax-missing-argument-separator", "Missing argument separator", "A comma is required to separate each function argument from the next.");
                    }
                }
                ((head, args), ell)
            });
        let call_or_variable =
            var_name(cx)
                .then(call_tail.or_not())
                .map_with(move |(first, tail), e| match tail {
                    None => {
                        let span = first.span;
                        Expr {
                            kind: ExprKind::Variable(first),
                            span,
                        }
                    }
                    Some((((rest, open_paren), args), ell)) => {
                        let mut name = first;
                        if !rest.is_empty() {
                            let mut text = name.name.to_string();
                            for part in rest {
                                text.push_str("::");
                                text.push_str(&part.name);
                                name.span = name.span.to(part.span);
                            }
                            name.name = text.into();
                        }
                        mk(
                            ExprKind::FunctionCall(Box::new(FunctionCall {
                                name,
                                args,
                                expand_final: ell.is_some(),
                                open_paren,
                            })),
                            e.span(),
                        )
                    }
                });

        // Every alternative starts with its own tokens, so the order only matters for speed:
        // the most frequent first.
        let atom = E::label(
            choice((
                call_or_variable,
                quoted,
                literal,
                tuple,
                object,
                heredoc,
                parens,
            )),
            "expression",
        )
        .boxed();

        let step = choice((
            just(Token::Dot).ignore_then(choice((
                just(Token::Star).to(StepKind::AttrSplat),
                just(Token::Number)
                    .map_with(move |_, e| {
                        mk(ExprKind::Number(SmolStr::new(cx.text(e.span()))), e.span())
                    })
                    .map(|k| StepKind::Index(k, true)),
                name(cx).map(StepKind::Attr),
                // Anything else after the dot is HashiCorp's error at that token (left for
                // what follows); the step stands for nothing.
                next_span.validate(move |at, _, emitter| {
                    report(
                        emitter,
                        at,
                        "syntax-invalid-attribute-name",
                        "Invalid attribute name",
                        "An attribute name is required after a dot.",
                    );
                    StepKind::Index(mk(ExprKind::Error, at), false)
                }),
            ))),
            just(Token::LBracket).ignore_then(choice((
                just(Token::Star)
                    .then(just(Token::RBracket))
                    .to(StepKind::FullSplat),
                expr.clone().then(closer(Token::RBracket)).validate(
                    move |(k, closed), _, emitter| {
                        if let Err(at) = closed {
                            report(
                                emitter,
                                at,
                                "syntax-missing-index-bracket",
                                "Missing close bracket on index",
                                "The index operator must end with a closing bracket (\"]\").",
                            );
                        }
                        StepKind::Index(k, false)
                    },
                ),
            ))),
        ))
        .map_with(|k, e| (k, e.span()));
        let postfixed = atom.foldl(step.repeated(), move |lhs, (k, s)| {
            apply_step(lhs, k, cx, s)
        });

        let unary_op = select! { Token::Bang => UnaryOp::Not, Token::Minus => UnaryOp::Neg }
            .map_with(|op, e| (op, e.span()));
        let unary = unary_op
            .repeated()
            .foldr(postfixed, move |(op, s), operand: Expr| {
                let span = cx.span(s).to(operand.span);
                Expr {
                    kind: ExprKind::Unary {
                        op,
                        operand: boxed(operand),
                    },
                    span,
                }
            })
            .boxed();

        // After an operator, `?` or `:` an operand is required: when the next token cannot
        // start one, report the missing expression there (instead of backtracking and calling
        // the operator unexpected). Tokens that can start an expression still go to the grammar,
        // so its deeper errors are kept.
        let missing = any()
            .or_not()
            .map_with(|t: Option<Token>, e| (t, e.span()))
            .rewind()
            .try_map(|(found, s): (Option<Token>, TSpan), span| {
                if found.is_some_and(starts_expr) {
                    Err(E::from_perr(PErr {
                        span,
                        found,
                        expected: crate::error::ExpectSet::label("expression"),
                        custom: None,
                    }))
                } else {
                    Ok((found, s))
                }
            })
            .validate(move |(found, s): (Option<Token>, TSpan), _, emitter| {
                // At the end of the input the span of "nothing" runs backwards: use its start.
                let s = if s.start > s.end {
                    TSpan::from(s.end..s.end)
                } else {
                    s
                };
                emitter.emit(E::from_perr(PErr {
                    span: s,
                    found,
                    expected: crate::error::ExpectSet::label("expression"),
                    custom: None,
                }));
                mk(ExprKind::Error, TSpan::from(s.start..s.start))
            })
            .boxed();
        // All binary operators in one loop (one failed look-ahead per operand instead of one
        // per precedence level), then folded by precedence.
        let binop = select! {
            Token::Star => BinaryOp::Mul,
            Token::Slash => BinaryOp::Div,
            Token::Percent => BinaryOp::Mod,
            Token::Plus => BinaryOp::Add,
            Token::Minus => BinaryOp::Sub,
            Token::Lt => BinaryOp::Lt,
            Token::LtEq => BinaryOp::LtEq,
            Token::Gt => BinaryOp::Gt,
            Token::GtEq => BinaryOp::GtEq,
            Token::EqEq => BinaryOp::Eq,
            Token::NotEq => BinaryOp::NotEq,
            Token::AndAnd => BinaryOp::And,
            Token::OrOr => BinaryOp::Or,
        };
        let binop = E::label(binop, "operator");
        let or = unary
            .clone()
            .then(
                binop
                    .then(unary.or(missing.clone()))
                    .repeated()
                    .collect::<Vec<_>>(),
            )
            .map(|(first, rest)| {
                if rest.is_empty() {
                    first
                } else {
                    fold_binary(first, rest)
                }
            })
            .boxed();

        // The span of an empty match runs from the next token back to the end of the previous
        // one: the point where the false expression is missing is its end.
        let missing_false = empty().map_with(|_, e| e.span()).validate(move |s: TSpan, _, emitter| {
            let s = TSpan::from(s.end.min(s.start)..s.end.min(s.start));
            emitter.emit(E::from_perr(PErr::custom(
                s,
                "syntax-missing-false-expression",
                "Missing false expression in conditional",
                "The conditional operator (...?...:...) requires a false expression, delimited by a colon."
                    .to_string(),
            )));
            mk(ExprKind::Error, s)
        });
        or.then(
            just(Token::Question)
                .ignore_then(expr.clone().or(missing.clone()))
                .then(
                    just(Token::Colon)
                        .ignore_then(expr.or(missing))
                        .or(missing_false),
                )
                .or_not(),
        )
        .map(|(cond, rest)| match rest {
            None => cond,
            Some((then, otherwise)) => {
                let span = cond.span.to(otherwise.span);
                Expr {
                    kind: ExprKind::Conditional {
                        cond: boxed(cond),
                        then: boxed(then),
                        otherwise: boxed(otherwise),
                    },
                    span,
                }
            }
        })
    })
}

/// Whether an expression can start with this token.
fn starts_expr(t: Token) -> bool {
    use Token::*;
    matches!(
        t,
        Number
            | True
            | False
            | Null
            | Ident
            | For
            | In
            | If
            | Else
            | EndIf
            | EndFor
            | QuoteOpen
            | HeredocOpen
            | LBracket
            | LBrace
            | LParen
            | Minus
            | Bang
            | TooDeep
    )
}

/// HCL's detail for a template directive keyword it does not know, with the closest keyword.
fn template_keyword_detail(word: &str) -> String {
    match ferro_diag::suggest(word, ["if", "else", "endif", "for", "endfor"]) {
        Some(k) => {
            format!("{word:?} is not a valid template control keyword. Did you mean {k:?}?")
        }
        None => format!("{word:?} is not a valid template control keyword."),
    }
}
