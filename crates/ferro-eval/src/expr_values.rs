//! The values an expression in error refers to, shown under its source as Terraform shows them
//! (`var.m is empty map of string`) and given in the JSON diagnostic's `snippet.values`.
//!
//! For each error of an evaluation, the expression concerned is the smallest one whose range
//! holds the error's, widened to the whole static traversal it is part of (`a.b[0].c`). Each
//! reference in it is followed along its static steps as far as they resolve (a step that
//! fails, the one in error say, is left off), and described by its value: "is …", "has a
//! sensitive value", or "…known only after apply". Sorted by traversal, each given once.

use super::{Evaluator, Scope};
use ferro_diag::{Diagnostic, ExprValue, Span};
use ferro_hir::{walk_exprs, Expr, ExprId, FileHir};
use ferro_value::{json::go_quote, Number, Type, Value, ValueKind};
use std::collections::HashMap;

/// The values `e` refers to, described as a diagnostic about `e` as a whole shows them (for
/// errors found outside the evaluator, about a value it gave: an unsuitable `for_each`, say).
pub fn expression_values(hir: &FileHir, scope: &dyn Scope, e: ExprId) -> Vec<ExprValue> {
    let ev = Evaluator {
        tree: &hir.tree,
        map: Some(&hir.map),
        scope,
        bindings: Vec::new(),
        splat: Vec::new(),
        diags: Vec::new(),
        depth: 0,
    };
    let (_, parent) = ev.tree(e);
    ev.values_in(e, &parent)
}

impl Evaluator<'_> {
    /// The expressions under `root` that have a range, and the parent of each traversal step's
    /// target.
    #[allow(clippy::type_complexity)]
    fn tree(&self, root: ExprId) -> (Vec<(ExprId, Span)>, HashMap<ExprId, ExprId>) {
        let mut nodes: Vec<(ExprId, Span)> = Vec::new();
        let mut parent: HashMap<ExprId, ExprId> = HashMap::new();
        walk_exprs(&self.tree.exprs, root, &mut |id, e| {
            if let Some(span) = self.span(id) {
                nodes.push((id, span));
            }
            if let Expr::GetAttr { target, .. } | Expr::Index { target, .. } = e {
                parent.insert(*target, id);
            }
        });
        (nodes, parent)
    }

    /// Give each diagnostic of `diags` (found evaluating `root`) the values its expression
    /// refers to.
    pub(super) fn describe_values(&self, root: ExprId, diags: &mut [Diagnostic]) {
        let (nodes, parent) = self.tree(root);
        for d in diags.iter_mut() {
            let Some(at) = d.span.filter(|_| d.values.is_empty() && d.is_error()) else {
                continue;
            };
            let smallest = nodes
                .iter()
                .filter(|(_, s)| s.file == at.file && s.start <= at.start && at.end <= s.end)
                .min_by_key(|(_, s)| s.end - s.start);
            let Some(&(mut expr, _)) = smallest else {
                continue;
            };
            while let Some(&p) = parent.get(&expr) {
                if !self.static_step(p) {
                    break;
                }
                expr = p;
            }
            d.values = self.values_in(expr, &parent);
        }
    }

    /// Whether `e` is a step of a static traversal: an attribute, or an index by a literal.
    fn static_step(&self, e: ExprId) -> bool {
        match &self.tree.exprs[e] {
            Expr::GetAttr { .. } => true,
            Expr::Index { key, .. } => matches!(
                &self.tree.exprs[*key],
                Expr::Literal(k) if matches!(k.kind, ValueKind::String(_) | ValueKind::Number(_))
            ),
            _ => false,
        }
    }

    /// The values of the references in `expr`, each as far along its traversal as resolves.
    fn values_in(&self, expr: ExprId, parent: &HashMap<ExprId, ExprId>) -> Vec<ExprValue> {
        let hir = self.tree;
        let mut roots = Vec::new();
        walk_exprs(&hir.exprs, expr, &mut |id, e| {
            if matches!(e, Expr::Ref(_)) {
                roots.push(id);
            }
        });
        let mut out: Vec<ExprValue> = Vec::new();
        for root in roots {
            // The traversal from the reference up, within `expr`.
            let mut chain = vec![root];
            let mut at = root;
            while at != expr {
                match parent.get(&at) {
                    Some(&p) if self.static_step(p) => {
                        chain.push(p);
                        at = p;
                    }
                    _ => break,
                }
            }
            // The longest part of it that resolves.
            let found = chain.iter().rev().find_map(|&node| {
                let mut scratch = Evaluator {
                    tree: hir,
                    map: self.map,
                    scope: self.scope,
                    bindings: self.bindings.clone(),
                    splat: Vec::new(),
                    diags: Vec::new(),
                    depth: self.depth,
                };
                let v = scratch.eval(node);
                scratch.diags.is_empty().then_some((node, v))
            });
            let Some((node, value)) = found else {
                continue;
            };
            let traversal = self.traversal_text(node);
            if out.iter().any(|v| v.traversal == traversal) {
                continue;
            }
            out.push(ExprValue {
                traversal,
                statement: statement(&value),
            });
        }
        out.sort_by(|a, b| a.traversal.cmp(&b.traversal));
        out
    }

    /// `var.a.b["k"][0]`: a reference and its static steps as written.
    fn traversal_text(&self, node: ExprId) -> String {
        match &self.tree.exprs[node] {
            Expr::Ref(r) => r.to_string(),
            Expr::GetAttr { target, name } => format!("{}.{name}", self.traversal_text(*target)),
            Expr::Index { target, key } => {
                let key = match &self.tree.exprs[*key] {
                    Expr::Literal(k) => match &k.kind {
                        ValueKind::String(s) => go_quote(s),
                        ValueKind::Number(n) => n.to_string(),
                        _ => String::new(),
                    },
                    _ => String::new(),
                };
                format!("{}[{key}]", self.traversal_text(*target))
            }
            _ => String::new(),
        }
    }
}

/// What Terraform says of a value in a diagnostic.
fn statement(v: &Value) -> String {
    if v.is_sensitive() || v.contains_sensitive() {
        return "has a sensitive value".into();
    }
    if v.is_unknown() {
        return match v.ty() {
            Type::Dynamic => "will be known only after apply".into(),
            ty => format!("is a {}, known only after apply", ty.friendly_name()),
        };
    }
    format!("is {}", compact(v))
}

/// A short description of a known value: its text when it is a primitive, else its kind and
/// size.
fn compact(v: &Value) -> String {
    if v.is_null() {
        return "null".into();
    }
    match &v.kind {
        ValueKind::Bool(b) => b.to_string(),
        ValueKind::Number(n) => number_text(n),
        ValueKind::String(s) => go_quote(s),
        ValueKind::List(..) | ValueKind::Set(..) | ValueKind::Map(..) | ValueKind::Tuple(_) => {
            let n = v.children().count();
            let ty = v.ty().friendly_name();
            match n {
                0 => format!("empty {ty}"),
                1 => format!("{ty} with 1 element"),
                n => format!("{ty} with {n} elements"),
            }
        }
        ValueKind::Object(attrs) => match attrs.len() {
            0 => "object with no attributes".into(),
            1 => format!(
                "object with 1 attribute {}",
                go_quote(attrs.keys().next().map(|k| &**k).unwrap_or(""))
            ),
            n => format!("object with {n} attributes"),
        },
        _ => v.ty().friendly_name(),
    }
}

/// A number with at most 10 significant digits, in exponent form when it is that large or
/// small (Go's `%.10g`, which Terraform uses here).
fn number_text(n: &Number) -> String {
    if let Some(i) = n.to_i64().filter(|i| i.unsigned_abs() < 10_000_000_000) {
        return i.to_string();
    }
    let f = n.to_f64();
    if f == 0.0 || !f.is_finite() {
        return n.to_string();
    }
    let exp = f.abs().log10().floor() as i32;
    let trim = |s: String| -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    if !(-4..10).contains(&exp) {
        let text = format!("{f:.9e}");
        let (mantissa, e) = text.split_once('e').unwrap_or((&text, "0"));
        let e: i32 = e.parse().unwrap_or(0);
        let sign = if e < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim(mantissa.to_string()), e.abs())
    } else {
        let decimals = (9 - exp).max(0) as usize;
        trim(format!("{f:.decimals$}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_ten_significant_digits_as_in_go() {
        let n = |s: &str| number_text(&Number::parse(s).unwrap());
        assert_eq!(n("5"), "5");
        assert_eq!(n("-42"), "-42");
        assert_eq!(n("1.5"), "1.5");
        assert_eq!(n("12345678901.5"), "1.23456789e+10");
        assert_eq!(n("0.00001"), "1e-05");
        assert_eq!(n("0.25"), "0.25");
        assert_eq!(n("3.14159265358979"), "3.141592654");
    }

    #[test]
    fn statements_follow_terraform() {
        assert_eq!(statement(&Value::string("zz")), "is \"zz\"");
        assert_eq!(statement(&Value::null(Type::String)), "is null");
        assert_eq!(
            statement(&Value::unknown(Type::String)),
            "is a string, known only after apply"
        );
        assert_eq!(
            statement(&Value::dynamic_unknown()),
            "will be known only after apply"
        );
        assert_eq!(
            statement(&Value::string("s").mark_sensitive()),
            "has a sensitive value"
        );
        assert_eq!(
            statement(&Value::map(Type::String, Default::default())),
            "is empty map of string"
        );
        assert_eq!(
            statement(&Value::tuple(vec![Value::int(1), Value::int(2)])),
            "is tuple with 2 elements"
        );
    }
}
