//! A compact S-expression dump of the tree (for tests and `--dump ast`): one line per
//! attribute, nested blocks indented, every expression followed by `@start..end`.

use crate::ast::*;
use std::fmt::Write as _;

/// Dump a body: one attribute or block header per line.
pub fn dump_body(body: &Body) -> String {
    let mut out = String::new();
    body_into(&mut out, body, 0);
    out
}

/// Dump one expression on a single line.
pub fn dump_expr(e: &Expr) -> String {
    let mut out = String::new();
    expr_into(&mut out, e);
    out
}

fn sp(out: &mut String, s: ferro_diag::Span) {
    let _ = write!(out, "@{}..{}", s.start, s.end);
}

fn body_into(out: &mut String, body: &Body, indent: usize) {
    for item in &body.items {
        out.push_str(&"  ".repeat(indent));
        match item {
            BodyItem::Attribute(a) => {
                let _ = write!(out, "(attr {} ", a.name.name);
                expr_into(out, &a.expr);
                out.push(')');
                sp(out, a.span);
                out.push('\n');
            }
            BodyItem::Block(b) => {
                let _ = write!(out, "(block {}", b.ty.name);
                for l in &b.labels {
                    if l.quoted {
                        let _ = write!(out, " {:?}", l.value);
                    } else {
                        let _ = write!(out, " {}", l.value);
                    }
                }
                out.push(')');
                sp(out, b.span);
                out.push('\n');
                body_into(out, &b.body, indent + 1);
            }
        }
    }
}

fn list(out: &mut String, items: &[Expr]) {
    for e in items {
        out.push(' ');
        expr_into(out, e);
    }
}

fn ident_opt(out: &mut String, id: &Option<Ident>) {
    match id {
        Some(i) => {
            let _ = write!(out, " {}", i.name);
        }
        None => out.push_str(" _"),
    }
}

fn parts_into(out: &mut String, parts: &[TemplatePart]) {
    for p in parts {
        out.push(' ');
        match p {
            TemplatePart::Literal { text, .. } => {
                let _ = write!(out, "{text:?}");
            }
            TemplatePart::Interpolation {
                expr,
                strip_left,
                strip_right,
                ..
            } => {
                out.push_str("(${");
                if *strip_left {
                    out.push('~');
                }
                out.push(' ');
                expr_into(out, expr);
                if *strip_right {
                    out.push_str(" ~");
                }
                out.push(')');
            }
            TemplatePart::If {
                cond,
                then,
                otherwise,
                ..
            } => {
                out.push_str("(%if ");
                expr_into(out, cond);
                out.push_str(" (then");
                parts_into(out, then);
                out.push(')');
                if let Some(o) = otherwise {
                    out.push_str(" (else");
                    parts_into(out, o);
                    out.push(')');
                }
                out.push(')');
            }
            TemplatePart::For(f) => {
                let TemplateFor {
                    key_var,
                    value_var,
                    collection,
                    body,
                    ..
                } = &**f;
                out.push_str("(%for");
                ident_opt(out, key_var);
                let _ = write!(out, " {} ", value_var.name);
                expr_into(out, collection);
                parts_into(out, body);
                out.push(')');
            }
        }
    }
}

fn expr_into(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Null => out.push_str("null"),
        ExprKind::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        ExprKind::Number(n) => {
            let _ = write!(out, "{n}");
        }
        ExprKind::Template(t) => {
            match &t.heredoc {
                Some(h) => {
                    let _ = write!(
                        out,
                        "(heredoc{} {}",
                        if h.indented { "-" } else { "" },
                        h.marker
                    );
                }
                None => out.push_str("(str"),
            }
            parts_into(out, &t.parts);
            out.push(')');
        }
        ExprKind::Variable(i) => out.push_str(&i.name),
        ExprKind::GetAttr { target, name, .. } => {
            out.push_str("(. ");
            expr_into(out, target);
            let _ = write!(out, " {})", name.name);
        }
        ExprKind::Index {
            target,
            key,
            legacy,
            ..
        } => {
            out.push_str(if *legacy { "(index-legacy " } else { "(index " });
            expr_into(out, target);
            out.push(' ');
            expr_into(out, key);
            out.push(')');
        }
        ExprKind::Splat {
            target,
            kind,
            steps,
            ..
        } => {
            out.push_str(match kind {
                SplatKind::Full => "([*] ",
                SplatKind::Attr => "(.* ",
            });
            expr_into(out, target);
            for s in steps {
                match s {
                    TraversalStep::GetAttr { name: i, .. } => {
                        let _ = write!(out, " .{}", i.name);
                    }
                    TraversalStep::Index { key, legacy, .. } => {
                        out.push_str(if *legacy { " .[" } else { " [" });
                        expr_into(out, key);
                        out.push(']');
                    }
                }
            }
            out.push(')');
        }
        ExprKind::FunctionCall(call) => {
            let FunctionCall {
                name,
                args,
                expand_final,
                ..
            } = &**call;
            let _ = write!(out, "(call {}", name.name);
            list(out, args);
            if *expand_final {
                out.push_str(" ...");
            }
            out.push(')');
        }
        ExprKind::Tuple(items) => {
            out.push_str("(tuple");
            list(out, items);
            out.push(')');
        }
        ExprKind::Object(items) => {
            out.push_str("(object");
            for it in items {
                out.push_str(" (");
                match &it.key {
                    ObjectKey::Ident(i) => out.push_str(&i.name),
                    ObjectKey::Expr(k) => expr_into(out, k),
                }
                out.push_str(if it.colon { " : " } else { " = " });
                expr_into(out, &it.value);
                out.push(')');
            }
            out.push(')');
        }
        ExprKind::Unary { op, operand } => {
            out.push_str(match op {
                UnaryOp::Not => "(! ",
                UnaryOp::Neg => "(neg ",
            });
            expr_into(out, operand);
            out.push(')');
        }
        ExprKind::Binary { op, lhs, rhs } => {
            let _ = write!(out, "({} ", op.symbol());
            expr_into(out, lhs);
            out.push(' ');
            expr_into(out, rhs);
            out.push(')');
        }
        ExprKind::Conditional {
            cond,
            then,
            otherwise,
        } => {
            out.push_str("(? ");
            expr_into(out, cond);
            out.push(' ');
            expr_into(out, then);
            out.push(' ');
            expr_into(out, otherwise);
            out.push(')');
        }
        ExprKind::ForTuple(f) => {
            let ForTuple {
                key_var,
                value_var,
                collection,
                value,
                cond,
            } = &**f;
            out.push_str("(for-tuple");
            ident_opt(out, key_var);
            let _ = write!(out, " {} ", value_var.name);
            expr_into(out, collection);
            out.push(' ');
            expr_into(out, value);
            if let Some(c) = cond {
                out.push_str(" if ");
                expr_into(out, c);
            }
            out.push(')');
        }
        ExprKind::ForObject(f) => {
            let ForObject {
                key_var,
                value_var,
                collection,
                key,
                value,
                group,
                cond,
            } = &**f;
            out.push_str("(for-object");
            ident_opt(out, key_var);
            let _ = write!(out, " {} ", value_var.name);
            expr_into(out, collection);
            out.push(' ');
            expr_into(out, key);
            out.push_str(" => ");
            expr_into(out, value);
            if *group {
                out.push_str(" ...");
            }
            if let Some(c) = cond {
                out.push_str(" if ");
                expr_into(out, c);
            }
            out.push(')');
        }
        ExprKind::Parens(inner) => {
            out.push_str("(parens ");
            expr_into(out, inner);
            out.push(')');
        }
        ExprKind::Error => out.push_str("<error>"),
    }
    sp(out, e.span);
}
