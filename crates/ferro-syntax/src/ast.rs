//! The HCL native-syntax tree: bodies, attributes, blocks and expressions, every node with its span.
//!
//! The tree is a faithful picture of the source: it keeps parenthesised expressions, legacy index
//! syntax, template parts and (beside the tree, in `Parsed::comments`) every comment. Where the
//! parser met an error it puts `ExprKind::Error` (or skips the broken item) and carries on, so later
//! stages always get a tree.

use ferro_diag::Span;
/// The text of a name: short names (nearly all) are stored inline, without an allocation.
pub use smol_str::SmolStr;

/// A whole file or the inside of a block's braces.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Body {
    pub items: Vec<BodyItem>,
    pub span: Span,
    /// Written in the JSON syntax, where a property of a body whose schema comes from a
    /// provider may be an argument or nested blocks (lowering keeps it an argument, for the
    /// schema to decide). A native body into which an override file's JSON body was merged is
    /// marked too.
    pub json: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BodyItem {
    Attribute(Attribute),
    Block(Block),
}

/// `name = expr`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Attribute {
    pub name: Ident,
    pub expr: Expr,
    /// From the start of the name to the end of the expression.
    pub span: Span,
}

/// `type "label" label2 { body }`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Block {
    pub ty: Ident,
    pub labels: Vec<BlockLabel>,
    pub body: Body,
    pub open_brace: Span,
    pub close_brace: Span,
    /// From the start of the type name to the closing brace.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BlockLabel {
    /// The label text (unescaped when it was quoted).
    pub value: SmolStr,
    pub quoted: bool,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: SmolStr,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ExprKind {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number literal exactly as written (`1`, `1.5`, `1e10`); ferro-value parses it.
    Number(SmolStr),
    /// A quoted string or heredoc, with or without interpolations.
    Template(Template),
    /// A bare name that starts a traversal: `var`, `local`, `count`, `each`, `aws_instance`, …
    Variable(Ident),
    /// `target.name`; `step_span` covers `.name`, from the dot.
    GetAttr {
        target: Box<Expr>,
        name: Ident,
        step_span: Span,
    },
    /// `target[key]`, or the legacy `target.0` form when `legacy` is set (key is a number literal);
    /// `step_span` covers `[key]` (or `.0`).
    Index {
        target: Box<Expr>,
        key: Box<Expr>,
        legacy: bool,
        step_span: Span,
    },
    /// `target[*].a.b[0]` (full splat) or `target.*.a.b` (attribute-only legacy splat):
    /// the steps are applied to every element of `target`.
    /// `marker_span` covers the `[*]` or `.*`.
    Splat {
        target: Box<Expr>,
        kind: SplatKind,
        steps: Vec<TraversalStep>,
        marker_span: Span,
    },
    /// `name(args...)` (boxed, which keeps every expression node small).
    FunctionCall(Box<FunctionCall>),
    /// `[a, b, c]`
    Tuple(Vec<Expr>),
    /// `{ k = v, "k2" : v2, (expr) = v3 }`
    Object(Vec<ObjectItem>),
    /// `!x`, `-x`
    Unary { op: UnaryOp, operand: Box<Expr> },
    /// `a + b`, `a == b`, `a && b`, …
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `cond ? a : b`
    Conditional {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// `[for k, v in coll : value if cond]` (boxed: rare, and large).
    ForTuple(Box<ForTuple>),
    /// `{for k, v in coll : key => value... if cond}`
    ForObject(Box<ForObject>),
    /// `( expr )`
    Parens(Box<Expr>),
    /// Placeholder where the parser could not make sense of the input (a diagnostic was emitted).
    Error,
}

/// `[for k, v in coll : value if cond]`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ForTuple {
    pub key_var: Option<Ident>,
    pub value_var: Ident,
    pub collection: Expr,
    pub value: Expr,
    pub cond: Option<Expr>,
}

/// `{for k, v in coll : key => value... if cond}`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ForObject {
    pub key_var: Option<Ident>,
    pub value_var: Ident,
    pub collection: Expr,
    pub key: Expr,
    pub value: Expr,
    /// `...` after the value: group values with the same key into a list.
    pub group: bool,
    pub cond: Option<Expr>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SplatKind {
    /// `[*]`
    Full,
    /// `.*`
    Attr,
}

/// One step of a traversal after a splat.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TraversalStep {
    /// `.name`; `span` covers it from the dot.
    GetAttr { name: Ident, span: Span },
    /// `[expr]` (or legacy `.0` when `legacy`).
    Index { key: Expr, legacy: bool, span: Span },
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ObjectItem {
    pub key: ObjectKey,
    pub value: Expr,
    /// `=` or `:` between key and value.
    pub colon: bool,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ObjectKey {
    /// A bare identifier key, which means the literal string (`{ a = 1 }` has key "a").
    Ident(Ident),
    /// Any other key expression: a quoted template, a parenthesised expression, a number, ….
    Expr(Expr),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Not,
    Neg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    NotEq,
    Lt,
    LtEq,
    Gt,
    GtEq,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "||",
            BinaryOp::And => "&&",
            BinaryOp::Eq => "==",
            BinaryOp::NotEq => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::LtEq => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::GtEq => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Mod => "%",
        }
    }
}

/// A quoted string or heredoc. A template without interpolations or directives has a single
/// `Literal` part (or none, for `""`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
    /// Boxed: heredocs are rare, and the box keeps every expression node small.
    pub heredoc: Option<Box<Heredoc>>,
}

impl Template {
    /// The text of a template made only of literal parts (no interpolations or directives);
    /// None otherwise.
    pub fn literal_text(&self) -> Option<String> {
        let mut out = String::new();
        for p in &self.parts {
            match p {
                TemplatePart::Literal { text, .. } => out.push_str(text),
                _ => return None,
            }
        }
        Some(out)
    }
}

/// `name(args...)`, with `expand_final` when the last argument is followed by `...`;
/// `open_paren` is the `(`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FunctionCall {
    pub name: Ident,
    pub args: Vec<Expr>,
    pub expand_final: bool,
    pub open_paren: Span,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Heredoc {
    /// The delimiter word, e.g. `EOT`.
    pub marker: SmolStr,
    /// `<<-` (leading indentation removed) rather than `<<`.
    pub indented: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TemplatePart {
    /// Literal text, with escapes already processed (`\n`, `$${` → `${`, …) and strip markers applied.
    Literal { text: SmolStr, span: Span },
    /// `${ expr }`
    Interpolation {
        expr: Box<Expr>,
        strip_left: bool,
        strip_right: bool,
        span: Span,
    },
    /// `%{ if cond }…%{ else }…%{ endif }`
    If {
        cond: Box<Expr>,
        then: Vec<TemplatePart>,
        otherwise: Option<Vec<TemplatePart>>,
        span: Span,
    },
    /// `%{ for k, v in coll }…%{ endfor }` (boxed: rare, and large).
    For(Box<TemplateFor>),
}

/// `%{ for k, v in coll }…%{ endfor }`
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TemplateFor {
    pub key_var: Option<Ident>,
    pub value_var: Ident,
    pub collection: Expr,
    pub body: Vec<TemplatePart>,
    pub span: Span,
    /// The opening `%{ for … }` directive.
    pub open_span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommentKind {
    /// `# ...`
    Hash,
    /// `// ...`
    DoubleSlash,
    /// `/* ... */`
    Block,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Comment {
    pub kind: CommentKind,
    /// The comment's full text including its markers (and no trailing newline).
    pub text: String,
    pub span: Span,
}

/// Rewriting every span of a tree: moving a tree parsed from a substring to its place in the
/// file (JSON strings), or blanking spans to compare trees modulo positions (tests).
impl Body {
    pub fn map_spans(&mut self, f: &mut dyn FnMut(Span) -> Span) {
        self.span = f(self.span);
        for item in &mut self.items {
            match item {
                BodyItem::Attribute(a) => {
                    a.name.span = f(a.name.span);
                    a.expr.map_spans(f);
                    a.span = f(a.span);
                }
                BodyItem::Block(b) => {
                    b.ty.span = f(b.ty.span);
                    for l in &mut b.labels {
                        l.span = f(l.span);
                    }
                    b.body.map_spans(f);
                    b.open_brace = f(b.open_brace);
                    b.close_brace = f(b.close_brace);
                    b.span = f(b.span);
                }
            }
        }
    }
}

impl Expr {
    pub fn map_spans(&mut self, f: &mut dyn FnMut(Span) -> Span) {
        self.span = f(self.span);
        match &mut self.kind {
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Number(_) | ExprKind::Error => {}
            ExprKind::Template(t) => map_parts(&mut t.parts, f),
            ExprKind::Variable(id) => id.span = f(id.span),
            ExprKind::GetAttr {
                target,
                name,
                step_span,
            } => {
                target.map_spans(f);
                name.span = f(name.span);
                *step_span = f(*step_span);
            }
            ExprKind::Index {
                target,
                key,
                step_span,
                ..
            } => {
                target.map_spans(f);
                key.map_spans(f);
                *step_span = f(*step_span);
            }
            ExprKind::Splat {
                target,
                steps,
                marker_span,
                ..
            } => {
                target.map_spans(f);
                *marker_span = f(*marker_span);
                for s in steps {
                    match s {
                        TraversalStep::GetAttr { name, span } => {
                            name.span = f(name.span);
                            *span = f(*span);
                        }
                        TraversalStep::Index { key, span, .. } => {
                            key.map_spans(f);
                            *span = f(*span);
                        }
                    }
                }
            }
            ExprKind::FunctionCall(call) => {
                call.name.span = f(call.name.span);
                call.open_paren = f(call.open_paren);
                call.args.iter_mut().for_each(|a| a.map_spans(f));
            }
            ExprKind::Tuple(items) => items.iter_mut().for_each(|a| a.map_spans(f)),
            ExprKind::Object(items) => {
                for it in items {
                    match &mut it.key {
                        ObjectKey::Ident(id) => id.span = f(id.span),
                        ObjectKey::Expr(e) => e.map_spans(f),
                    }
                    it.value.map_spans(f);
                    it.span = f(it.span);
                }
            }
            ExprKind::Unary { operand, .. } => operand.map_spans(f),
            ExprKind::Binary { lhs, rhs, .. } => {
                lhs.map_spans(f);
                rhs.map_spans(f);
            }
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => {
                cond.map_spans(f);
                then.map_spans(f);
                otherwise.map_spans(f);
            }
            ExprKind::ForTuple(fx) => {
                let ForTuple {
                    key_var,
                    value_var,
                    collection,
                    value,
                    cond,
                } = &mut **fx;
                if let Some(k) = key_var {
                    k.span = f(k.span);
                }
                value_var.span = f(value_var.span);
                collection.map_spans(f);
                value.map_spans(f);
                if let Some(c) = cond {
                    c.map_spans(f);
                }
            }
            ExprKind::ForObject(fx) => {
                let ForObject {
                    key_var,
                    value_var,
                    collection,
                    key,
                    value,
                    cond,
                    ..
                } = &mut **fx;
                if let Some(k) = key_var {
                    k.span = f(k.span);
                }
                value_var.span = f(value_var.span);
                collection.map_spans(f);
                key.map_spans(f);
                value.map_spans(f);
                if let Some(c) = cond {
                    c.map_spans(f);
                }
            }
            ExprKind::Parens(inner) => inner.map_spans(f),
        }
    }
}

fn map_parts(parts: &mut [TemplatePart], f: &mut dyn FnMut(Span) -> Span) {
    for p in parts {
        match p {
            TemplatePart::Literal { span, .. } => *span = f(*span),
            TemplatePart::Interpolation { expr, span, .. } => {
                expr.map_spans(f);
                *span = f(*span);
            }
            TemplatePart::If {
                cond,
                then,
                otherwise,
                span,
            } => {
                cond.map_spans(f);
                map_parts(then, f);
                if let Some(o) = otherwise {
                    map_parts(o, f);
                }
                *span = f(*span);
            }
            TemplatePart::For(fx) => {
                let TemplateFor {
                    key_var,
                    value_var,
                    collection,
                    body,
                    span,
                    open_span,
                } = &mut **fx;
                *open_span = f(*open_span);
                if let Some(k) = key_var {
                    k.span = f(k.span);
                }
                value_var.span = f(value_var.span);
                collection.map_spans(f);
                map_parts(body, f);
                *span = f(*span);
            }
        }
    }
}
