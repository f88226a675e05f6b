//! Lowering of a resource's `lifecycle` block: `create_before_destroy`, `prevent_destroy`,
//! `ignore_changes` (attribute paths, with the range of each path's first name),
//! `replace_triggered_by`, the pre- and postconditions, and OpenTofu's `enabled`; and the
//! check that at most one of `count`, `for_each` and `enabled` is given.

use super::*;

impl Lower {
    /// An ephemeral resource's `lifecycle` takes conditions only (and OpenTofu's `enabled`):
    /// every other argument is Terraform's error.
    pub(super) fn ephemeral_lifecycle_arguments(&mut self, b: &ast::Block) {
        for item in &b.body.items {
            if let BodyItem::Attribute(a) = item {
                if a.name.name != "enabled" {
                    self.error(
                        "invalid-ephemeral-lifecycle",
                        "Invalid ephemeral resource lifecycle argument",
                        format!("The lifecycle argument {:?} is defined only for managed resources (\"resource\" blocks), and is not valid for ephemeral resources.", a.name.name),
                        a.name.span,
                    );
                }
            }
        }
    }

    /// The `lifecycle` block of a resource or data source; its `enabled` expression and the
    /// range of the argument's name go to `enabled`.
    pub(super) fn lifecycle(
        &mut self,
        b: &ast::Block,
        enabled: &mut Option<(ExprId, Span)>,
    ) -> Lifecycle {
        let mut lc = Lifecycle::default();
        for item in &b.body.items {
            if let BodyItem::Attribute(a) = item {
                if a.name.name == "ignore_changes" {
                    self.ignore_changes_legacy(&a.expr);
                }
            }
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "create_before_destroy" => {
                        lc.create_before_destroy = self.literal_bool_attr(a).unwrap_or(false)
                    }
                    "prevent_destroy" => {
                        lc.prevent_destroy = self.literal_bool_attr(a).unwrap_or(false)
                    }
                    "enabled" => *enabled = Some((self.expr(&a.expr), a.name.span)),
                    // OpenTofu takes only a constant bool (no variables, no quoted "false").
                    "destroy" => match &a.expr.kind {
                        ExprKind::Bool(b) => lc.skip_destroy = !b,
                        _ => self.error(
                            "invalid-lifecycle-destroy",
                            "Invalid lifecycle destroy expression",
                            "The lifecycle destroy expression must be a boolean constant.",
                            a.expr.span,
                        ),
                    },
                    "ignore_changes" => match &a.expr.kind {
                        ExprKind::Variable(id) if id.name == "all" => lc.ignore_all_changes = true,
                        ExprKind::Tuple(items) => {
                            for it in items {
                                let path = ignore_path(it).or_else(|| {
                                    literal_string(it).map(|s| vec![IgnoreStep::Attr(s)])
                                });
                                match path {
                                    Some(p) => {
                                        lc.ignore_changes.push(p);
                                        let at = self.sp(ignore_root_span(it));
                                        lc.ignore_changes_spans.push(at);
                                    }
                                    None => self.error(
                                        "invalid-ignore-changes",
                                        "Invalid ignore_changes reference",
                                        "Only attribute names of this resource may be listed in ignore_changes.",
                                        it.span,
                                    ),
                                }
                            }
                        }
                        // Terraform takes anything but the keyword `all` for a list
                        // (`hcl.ExprList`), so a quoted "all" fails there too.
                        _ => self.error(
                            "invalid-ignore-changes",
                            "Invalid expression",
                            "A static list expression is required.",
                            start_span(&a.expr),
                        ),
                    },
                    "replace_triggered_by" => match &a.expr.kind {
                        ExprKind::Tuple(items) => {
                            for it in items {
                                if trigger_root(it).is_some() {
                                    let id = self.expr(it);
                                    lc.replace_triggered_by.push(id);
                                } else {
                                    self.error(
                                        "invalid-replace-triggered-by",
                                        "Invalid replace_triggered_by expression",
                                        "Only resources, count.index, and each.key may be used in replace_triggered_by.",
                                        it.span,
                                    );
                                }
                            }
                        }
                        _ => self.error(
                            "invalid-replace-triggered-by",
                            "Invalid replace_triggered_by expression",
                            "replace_triggered_by must be a list of references to managed resources or their attributes.",
                            a.expr.span,
                        ),
                    },
                    _ => self.unsupported_argument(a),
                },
                BodyItem::Block(inner) if inner.ty.name == "precondition" => {
                    if let Some(c) = self.condition(inner) {
                        lc.preconditions.push(c);
                    }
                }
                BodyItem::Block(inner) if inner.ty.name == "postcondition" => {
                    if let Some(c) = self.condition(inner) {
                        lc.postconditions.push(c);
                    }
                }
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        lc
    }
}

impl Lower {
    /// A `module` block's `lifecycle`: only `enabled` (OpenTofu 1.11).
    pub(super) fn module_lifecycle(&mut self, b: &ast::Block) -> Option<(ExprId, Span)> {
        let mut enabled = None;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "enabled" => {
                    enabled = Some((self.expr(&a.expr), a.name.span));
                }
                BodyItem::Attribute(a) => self.unsupported_argument(a),
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        enabled
    }

    /// OpenTofu's error when more than one of `count`, `enabled` and `for_each` is given
    /// (each the range of the argument's name), spanning from the first to the last;
    /// `instances` names what they create ("resources", "data sources", "module
    /// instances"). Without `enabled`, Terraform's own message for `count` with `for_each`.
    pub(super) fn repetition_conflict(
        &mut self,
        count: Option<Span>,
        enabled: Option<Span>,
        for_each: Option<Span>,
        instances: &str,
    ) {
        let given: Vec<(&str, Span)> = [
            ("count", count),
            ("enabled", enabled),
            ("for_each", for_each),
        ]
        .into_iter()
        .filter_map(|(n, s)| s.map(|s| (n, s)))
        .collect();
        if given.len() < 2 {
            return;
        }
        if enabled.is_none() {
            // Terraform points at the name of the `for_each` argument.
            if let Some(name) = for_each {
                self.error(
                    "count-and-for-each",
                    "Invalid combination of \"count\" and \"for_each\"",
                    "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.",
                    name,
                );
            }
            return;
        }
        let names: Vec<String> = given.iter().map(|(n, _)| format!("\"{n}\"")).collect();
        let listed = match names.as_slice() {
            [a, b] => format!("{a} and {b}"),
            [a, b, c] => format!("{a}, {b}, and {c}"),
            _ => names.join(", "),
        };
        let start = given.iter().map(|(_, s)| s.start).min().unwrap_or(0);
        let end = given.iter().map(|(_, s)| s.end).max().unwrap_or(0);
        let first = given[0].1;
        let verb = if instances == "module instances" {
            "should"
        } else {
            "may"
        };
        self.error(
            "invalid-repetition",
            &format!("Invalid combination of {listed}"),
            format!("The {listed} meta-arguments are mutually-exclusive. Only one {verb} be used to be explicit about the number of {instances} to be created."),
            Span { start, end, ..first },
        );
    }
}

/// The resource a `replace_triggered_by` entry starts at: a managed resource reference followed
/// only by attribute and index steps.
fn trigger_root(e: &ast::Expr) -> Option<&ast::Ident> {
    match &e.kind {
        ExprKind::GetAttr { target, .. } | ExprKind::Index { target, .. } => match &target.kind {
            ExprKind::Variable(id)
                if !matches!(
                    id.name.as_str(),
                    "var"
                        | "local"
                        | "module"
                        | "data"
                        | "ephemeral"
                        | "count"
                        | "each"
                        | "path"
                        | "terraform"
                        | "self"
                ) =>
            {
                Some(id)
            }
            _ => trigger_root(target),
        },
        _ => None,
    }
}

/// The range of an `ignore_changes` entry's first name (inside the quotes of a quoted one).
fn ignore_root_span(e: &ast::Expr) -> Span {
    match &e.kind {
        ExprKind::GetAttr { target, .. } | ExprKind::Index { target, .. } => {
            ignore_root_span(target)
        }
        ExprKind::Variable(id) => id.span,
        _ if e.span.end > e.span.start + 1 => Span {
            start: e.span.start + 1,
            end: e.span.end - 1,
            ..e.span
        },
        _ => e.span,
    }
}

/// An `ignore_changes` entry as a path relative to the resource: `tags`, `tags["Name"]`,
/// `tags.Name`, `rule[0].action`.
fn ignore_path(e: &ast::Expr) -> Option<Vec<IgnoreStep>> {
    match &e.kind {
        ExprKind::Variable(id) => Some(vec![IgnoreStep::Attr(id.name.to_string())]),
        ExprKind::GetAttr { target, name, .. } => {
            let mut p = ignore_path(target)?;
            p.push(IgnoreStep::Attr(name.name.to_string()));
            Some(p)
        }
        ExprKind::Index { target, key, .. } => {
            let mut p = ignore_path(target)?;
            let step = match &key.kind {
                ExprKind::Number(n) => IgnoreStep::Index(n.parse().ok()?),
                _ => IgnoreStep::Key(literal_string(key)?),
            };
            p.push(step);
            Some(p)
        }
        _ => None,
    }
}
