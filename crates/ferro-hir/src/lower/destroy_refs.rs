//! Terraform's load-time rule for destroy-time provisioners: their arguments (and those of
//! their `connection` block) may refer only to `self`, `count.index`, `each.key`, `path.*` and
//! `terraform.*`. Each other reference is one "Invalid reference from destroy provisioner" at
//! the whole argument's expression, as Terraform 1.0.3 reports it (`onlySelfRefs`).

use ferro_diag::{Diagnostic, Span};
use ferro_syntax::ast::{self, ExprKind, TemplatePart};

const DETAIL: &str = "Destroy-time provisioners and their connection configurations may only reference attributes of the related resource, via 'self', 'count.index', or 'each.key'.\n\nReferences to other resources during the destroy phase can cause dependency cycles and interact poorly with create_before_destroy.";

/// The diagnostics for one argument of a destroy-time provisioner or its connection block.
pub(super) fn check_argument(a: &ast::Attribute) -> Vec<Diagnostic> {
    let mut bound = Vec::new();
    let mut invalid = 0;
    walk(&a.expr, &mut bound, &mut |root, steps| {
        let valid = match root {
            "self" | "path" | "terraform" => true,
            "count" => steps == ["index"],
            "each" => steps == ["key"],
            _ => false,
        };
        if !valid {
            invalid += 1;
        }
    });
    (0..invalid)
        .map(|_| {
            Diagnostic::error(
                "invalid-destroy-provisioner-reference",
                "Invalid reference from destroy provisioner",
            )
            .with_detail(DETAIL)
            .with_span(a.expr.span)
        })
        .collect()
}

/// A static traversal (a name followed by attribute steps and literal indexes): its root and
/// its steps, attribute names as themselves and indexes as `[]`.
fn static_traversal(e: &ast::Expr) -> Option<(&str, Vec<&str>)> {
    match &e.kind {
        ExprKind::Variable(id) => Some((id.name.as_str(), Vec::new())),
        ExprKind::GetAttr { target, name, .. } => {
            let (root, mut steps) = static_traversal(target)?;
            steps.push(name.name.as_str());
            Some((root, steps))
        }
        ExprKind::Index { target, key, .. } if is_literal(key) => {
            let (root, mut steps) = static_traversal(target)?;
            steps.push("[]");
            Some((root, steps))
        }
        _ => None,
    }
}

fn is_literal(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Number(_) | ExprKind::Bool(_) | ExprKind::Null => true,
        ExprKind::Template(t) => t.literal_text().is_some(),
        _ => false,
    }
}

/// Call `f` with every traversal of `e` (HCL's `Variables`), leaving out the names `for`
/// expressions bind.
fn walk<'e>(e: &'e ast::Expr, bound: &mut Vec<&'e str>, f: &mut dyn FnMut(&str, &[&str])) {
    if let Some((root, steps)) = static_traversal(e) {
        if !bound.contains(&root) {
            f(root, &steps);
        }
        return;
    }
    match &e.kind {
        ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Number(_)
        | ExprKind::Variable(_)
        | ExprKind::Error => {}
        ExprKind::Template(t) => parts(&t.parts, bound, f),
        ExprKind::GetAttr { target, .. } => walk(target, bound, f),
        ExprKind::Index { target, key, .. } => {
            walk(target, bound, f);
            walk(key, bound, f);
        }
        ExprKind::Splat { target, steps, .. } => {
            walk(target, bound, f);
            for s in steps {
                if let ast::TraversalStep::Index { key, .. } = s {
                    walk(key, bound, f);
                }
            }
        }
        ExprKind::FunctionCall(c) => c.args.iter().for_each(|a| walk(a, bound, f)),
        ExprKind::Tuple(items) => items.iter().for_each(|a| walk(a, bound, f)),
        ExprKind::Object(items) => {
            for it in items {
                if let ast::ObjectKey::Expr(k) = &it.key {
                    walk(k, bound, f);
                }
                walk(&it.value, bound, f);
            }
        }
        ExprKind::Unary { operand, .. } => walk(operand, bound, f),
        ExprKind::Binary { lhs, rhs, .. } => {
            walk(lhs, bound, f);
            walk(rhs, bound, f);
        }
        ExprKind::Conditional {
            cond,
            then,
            otherwise,
        } => {
            walk(cond, bound, f);
            walk(then, bound, f);
            walk(otherwise, bound, f);
        }
        ExprKind::ForTuple(x) => {
            walk(&x.collection, bound, f);
            let n = bind(bound, x.key_var.as_ref(), &x.value_var);
            walk(&x.value, bound, f);
            if let Some(c) = &x.cond {
                walk(c, bound, f);
            }
            bound.truncate(n);
        }
        ExprKind::ForObject(x) => {
            walk(&x.collection, bound, f);
            let n = bind(bound, x.key_var.as_ref(), &x.value_var);
            walk(&x.key, bound, f);
            walk(&x.value, bound, f);
            if let Some(c) = &x.cond {
                walk(c, bound, f);
            }
            bound.truncate(n);
        }
        ExprKind::Parens(inner) => walk(inner, bound, f),
    }
}

/// Bind a `for`'s names; returns the length to truncate `bound` back to.
fn bind<'e>(bound: &mut Vec<&'e str>, key: Option<&'e ast::Ident>, value: &'e ast::Ident) -> usize {
    let n = bound.len();
    bound.extend(key.map(|k| k.name.as_str()));
    bound.push(value.name.as_str());
    n
}

fn parts<'e>(ps: &'e [TemplatePart], bound: &mut Vec<&'e str>, f: &mut dyn FnMut(&str, &[&str])) {
    for p in ps {
        match p {
            TemplatePart::Literal { .. } => {}
            TemplatePart::Interpolation { expr, .. } => walk(expr, bound, f),
            TemplatePart::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                walk(cond, bound, f);
                parts(then, bound, f);
                if let Some(o) = otherwise {
                    parts(o, bound, f);
                }
            }
            TemplatePart::For(x) => {
                walk(&x.collection, bound, f);
                let n = bind(bound, x.key_var.as_ref(), &x.value_var);
                parts(&x.body, bound, f);
                bound.truncate(n);
            }
        }
    }
}

/// Terraform 1.0's warning for a keyword written as a string (`when = "destroy"`), on the whole
/// string, quotes included.
pub(super) fn quoted_keyword_warning(span: Span) -> Diagnostic {
    Diagnostic::warning("quoted-keyword", "Quoted keywords are deprecated")
        .with_detail("In this context, keywords are expected literally rather than in quotes. Terraform 0.11 and earlier required quotes, but quoted keywords are now deprecated and will be removed in a future version of Terraform. Remove the quotes surrounding this keyword to silence this warning.")
        .with_span(span)
}
