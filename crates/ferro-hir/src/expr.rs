//! HIR expressions: the AST's expressions with references classified (`var.x`, `local.y`,
//! resource addresses, `count.index`, `each.*`, …) and literals turned into values.

use ferro_addrs::Resource;
use ferro_syntax::ast::{BinaryOp, UnaryOp};
use ferro_value::Value;
use la_arena::{Arena, Idx};

pub type ExprId = Idx<Expr>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expr {
    Literal(Value),
    /// A template with several parts; evaluates to a string.
    Template(Vec<TemplatePart>),
    /// A template that is exactly one interpolation (`"${x}"`): evaluates to `x` unchanged.
    TemplateWrap(ExprId),
    /// A reference root, e.g. `var.x` (further attribute/index steps are `GetAttr`/`Index`).
    Ref(Reference),
    GetAttr {
        target: ExprId,
        name: String,
    },
    Index {
        target: ExprId,
        key: ExprId,
    },
    /// `target[*]<body>`: `body` is evaluated once per element with `SplatElem` bound to it.
    Splat {
        target: ExprId,
        body: ExprId,
    },
    /// The current element inside a splat body.
    SplatElem,
    Call {
        name: String,
        args: Vec<ExprId>,
        expand_final: bool,
    },
    Tuple(Vec<ExprId>),
    /// Key/value pairs; identifier keys have become string literals.
    Object(Vec<(ExprId, ExprId)>),
    Unary {
        op: UnaryOp,
        operand: ExprId,
    },
    Binary {
        op: BinaryOp,
        lhs: ExprId,
        rhs: ExprId,
    },
    Conditional {
        cond: ExprId,
        then: ExprId,
        otherwise: ExprId,
    },
    /// `[for …]` (key None) or `{for …}` (key Some).
    For {
        key_var: Option<String>,
        value_var: String,
        collection: ExprId,
        key: Option<ExprId>,
        value: ExprId,
        cond: Option<ExprId>,
        group: bool,
    },
    /// A `for` iteration variable bound by an enclosing `for` expression or template directive.
    ForVar(String),
    /// A type constraint in argument position (`convert(v, list(string))`), lowered from
    /// type syntax rather than as an expression; only `convert` reads it.
    TypeConstraint {
        ty: ferro_value::Type,
        defaults: Option<ferro_value::defaults::TypeDefaults>,
    },
    /// Where lowering already reported an error.
    Missing,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TemplatePart {
    Literal(String),
    Interp(ExprId),
    If {
        cond: ExprId,
        then: Vec<TemplatePart>,
        otherwise: Vec<TemplatePart>,
    },
    For {
        key_var: Option<String>,
        value_var: String,
        collection: ExprId,
        body: Vec<TemplatePart>,
    },
}

/// What a reference root names.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reference {
    Var(String),
    Local(String),
    Resource(Resource),
    CountIndex,
    EachKey,
    EachValue,
    PathModule,
    PathRoot,
    PathCwd,
    TerraformWorkspace,
    /// `terraform.applying` (Terraform 1.10): true only while applying; ephemeral.
    TerraformApplying,
    SelfRef,
    /// `module.NAME`: the outputs of a module call's instances.
    Module(String),
}

impl std::fmt::Display for Reference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reference::Var(n) => write!(f, "var.{n}"),
            Reference::Local(n) => write!(f, "local.{n}"),
            Reference::Resource(r) => write!(f, "{r}"),
            Reference::CountIndex => f.write_str("count.index"),
            Reference::EachKey => f.write_str("each.key"),
            Reference::EachValue => f.write_str("each.value"),
            Reference::PathModule => f.write_str("path.module"),
            Reference::PathRoot => f.write_str("path.root"),
            Reference::PathCwd => f.write_str("path.cwd"),
            Reference::TerraformWorkspace => f.write_str("terraform.workspace"),
            Reference::TerraformApplying => f.write_str("terraform.applying"),
            Reference::SelfRef => f.write_str("self"),
            Reference::Module(n) => write!(f, "module.{n}"),
        }
    }
}

/// Call `f` for every reference root reachable from `root` (with the expression id where it is).
pub fn walk_references(exprs: &Arena<Expr>, root: ExprId, f: &mut dyn FnMut(ExprId, &Reference)) {
    walk_exprs(exprs, root, &mut |id, e| {
        if let Expr::Ref(r) = e {
            f(id, r);
        }
    });
}

/// Call `f` for `root` and every expression inside it (depth first, each expression before
/// those inside it).
pub fn walk_exprs(exprs: &Arena<Expr>, root: ExprId, f: &mut dyn FnMut(ExprId, &Expr)) {
    let mut stack = vec![root];
    let mut kids = Vec::new();
    while let Some(id) = stack.pop() {
        let e = &exprs[id];
        f(id, e);
        kids.clear();
        child_exprs(e, &mut kids);
        stack.extend(kids.iter().rev());
    }
}

/// The expressions directly inside `e`, in source order (a template's interpolations and the
/// conditions and collections of its directives included), appended to `out`.
pub fn child_exprs(e: &Expr, out: &mut Vec<ExprId>) {
    match e {
        Expr::Ref(_)
        | Expr::Literal(_)
        | Expr::SplatElem
        | Expr::ForVar(_)
        | Expr::TypeConstraint { .. }
        | Expr::Missing => {}
        Expr::Template(parts) => template_children(parts, out),
        Expr::TemplateWrap(e) => out.push(*e),
        Expr::GetAttr { target, .. } => out.push(*target),
        Expr::Index { target, key } => out.extend([*target, *key]),
        Expr::Splat { target, body } => out.extend([*target, *body]),
        Expr::Call { args, .. } | Expr::Tuple(args) => out.extend(args.iter().copied()),
        Expr::Object(items) => {
            for (k, v) in items {
                out.extend([*k, *v]);
            }
        }
        Expr::Unary { operand, .. } => out.push(*operand),
        Expr::Binary { lhs, rhs, .. } => out.extend([*lhs, *rhs]),
        Expr::Conditional {
            cond,
            then,
            otherwise,
        } => out.extend([*cond, *then, *otherwise]),
        Expr::For {
            collection,
            key,
            value,
            cond,
            ..
        } => {
            out.push(*collection);
            out.extend(key.iter().copied());
            out.push(*value);
            out.extend(cond.iter().copied());
        }
    }
}

fn template_children(parts: &[TemplatePart], out: &mut Vec<ExprId>) {
    for p in parts {
        match p {
            TemplatePart::Literal(_) => {}
            TemplatePart::Interp(e) => out.push(*e),
            TemplatePart::If {
                cond,
                then,
                otherwise,
            } => {
                out.push(*cond);
                template_children(then, out);
                template_children(otherwise, out);
            }
            TemplatePart::For {
                collection, body, ..
            } => {
                out.push(*collection);
                template_children(body, out);
            }
        }
    }
}

/// Call `f` on every expression id directly inside `e` (as [`child_exprs`] lists them), to
/// change it.
pub fn child_exprs_mut(e: &mut Expr, f: &mut dyn FnMut(&mut ExprId)) {
    match e {
        Expr::Ref(_)
        | Expr::Literal(_)
        | Expr::SplatElem
        | Expr::ForVar(_)
        | Expr::TypeConstraint { .. }
        | Expr::Missing => {}
        Expr::Template(parts) => template_children_mut(parts, f),
        Expr::TemplateWrap(e) | Expr::GetAttr { target: e, .. } => f(e),
        Expr::Index { target, key } => {
            f(target);
            f(key);
        }
        Expr::Splat { target, body } => {
            f(target);
            f(body);
        }
        Expr::Call { args, .. } | Expr::Tuple(args) => args.iter_mut().for_each(f),
        Expr::Object(items) => {
            for (k, v) in items {
                f(k);
                f(v);
            }
        }
        Expr::Unary { operand, .. } => f(operand),
        Expr::Binary { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        Expr::Conditional {
            cond,
            then,
            otherwise,
        } => {
            f(cond);
            f(then);
            f(otherwise);
        }
        Expr::For {
            collection,
            key,
            value,
            cond,
            ..
        } => {
            f(collection);
            key.iter_mut().for_each(&mut *f);
            f(value);
            cond.iter_mut().for_each(f);
        }
    }
}

fn template_children_mut(parts: &mut [TemplatePart], f: &mut dyn FnMut(&mut ExprId)) {
    for p in parts {
        match p {
            TemplatePart::Literal(_) => {}
            TemplatePart::Interp(e) => f(e),
            TemplatePart::If {
                cond,
                then,
                otherwise,
            } => {
                f(cond);
                template_children_mut(then, f);
                template_children_mut(otherwise, f);
            }
            TemplatePart::For {
                collection, body, ..
            } => {
                f(collection);
                template_children_mut(body, f);
            }
        }
    }
}
