//! Lowering `module` blocks: the call's meta-arguments (`source`, `version`, `count`,
//! `for_each`, `depends_on`, `providers`, OpenTofu's `lifecycle { enabled }`) and the input
//! values for the child's variables.

use super::{literal_string, Lower};
use crate::items::{HirAttr, ModuleCall, ProviderPassing};
use ferro_syntax::ast::{self, BodyItem, ExprKind, ObjectKey};

impl Lower {
    pub(super) fn module_block(&mut self, b: &ast::Block) {
        let Some(labels) = self.labels(b, "module", 1) else {
            return;
        };
        let span = self.sp(Self::header_span(b));
        let missing_span = self.sp(Self::missing_item_span(b));
        let mut call = ModuleCall {
            name: labels[0].clone(),
            span,
            missing_span,
            source: None,
            source_expr: None,
            version: None,
            version_expr: None,
            version_span: None,
            count: None,
            for_each: None,
            enabled: None,
            depends_on: Vec::new(),
            providers: Vec::new(),
            inputs: Vec::new(),
        };
        let mut for_each_name = None;
        let mut count_name = None;
        let mut enabled = None;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    // Anything but a literal string is evaluated early, from variables and
                    // locals (OpenTofu 1.8), by the front end that knows their values.
                    "source" => match literal_string(&a.expr) {
                        Some(s) => call.source = Some((s, self.sp(a.expr.span))),
                        None => call.source_expr = Some((self.expr(&a.expr), self.sp(a.expr.span))),
                    },
                    "version" => {
                        match literal_string(&a.expr) {
                            Some(v) => call.version = Some(v),
                            None => call.version_expr = Some(self.expr(&a.expr)),
                        }
                        call.version_span = Some(self.sp(a.expr.span));
                    }
                    "count" => {
                        count_name = Some(a.name.span);
                        call.count = Some(self.expr(&a.expr));
                    }
                    "for_each" => {
                        for_each_name = Some(a.name.span);
                        call.for_each = Some(self.expr(&a.expr));
                    }
                    "depends_on" => call.depends_on = self.depends_on(&a.expr),
                    "providers" => call.providers = self.provider_passing(&a.expr),
                    _ => {
                        let name_span = self.sp(a.name.span);
                        let span = self.sp(a.span);
                        let expr = self.expr(&a.expr);
                        call.inputs.push(HirAttr {
                            name: a.name.name.to_string(),
                            name_span,
                            expr,
                            span,
                        });
                    }
                },
                BodyItem::Block(inner) if inner.ty.name == "lifecycle" => {
                    enabled = self.module_lifecycle(inner);
                }
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        if call.source.is_none() && call.source_expr.is_none() {
            self.error(
                "missing-argument",
                "Missing required argument",
                "The argument \"source\" is required, but no definition was found.",
                Self::missing_item_span(b),
            );
        }
        call.enabled = enabled.map(|(e, _)| e);
        let enabled_name = enabled.map(|(_, s)| s);
        self.repetition_conflict(count_name, enabled_name, for_each_name, "module instances");
        self.hir.module_calls.push(call);
    }

    /// `providers = { aws = aws.west, aws.east = aws }`.
    fn provider_passing(&mut self, e: &ast::Expr) -> Vec<ProviderPassing> {
        let ExprKind::Object(items) = &e.kind else {
            self.error(
                "invalid-providers",
                "Invalid providers argument",
                "The providers argument must be a map from provider configuration names in the child module to provider configurations in this module.",
                e.span,
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for it in items {
            let child = match &it.key {
                ObjectKey::Expr(k) => provider_name(k),
                ObjectKey::Ident(id) => Some((id.name.to_string(), None)),
            };
            // `parent.alias[KEY]`: an instance of a `for_each` configuration.
            let (parent, parent_key) = match &it.value.kind {
                ExprKind::Index { target, key, .. } if literal_string(target).is_none() => {
                    match provider_name(target) {
                        Some((n, Some(a))) => (Some((n, Some(a))), Some(self.expr(key))),
                        _ => (None, None),
                    }
                }
                _ => (provider_name(&it.value), None),
            };
            // Quoted names are read as Terraform 1.0.3 reads them, with its deprecation warning.
            let key_expr = match &it.key {
                ObjectKey::Expr(k) => Some(k),
                ObjectKey::Ident(_) => None,
            };
            for q in key_expr.into_iter().chain([&it.value]) {
                if literal_string(q).is_some() {
                    let w = super::legacy::quoted_reference_warning(q.span);
                    self.map.diagnostics.push(w);
                }
            }
            match (child, parent) {
                (Some(child), Some(parent)) => {
                    let span = self.sp(it.span);
                    out.push(ProviderPassing {
                        child,
                        parent,
                        parent_key,
                        span,
                    })
                }
                _ => self.error(
                    "invalid-providers",
                    "Invalid provider configuration reference",
                    "A provider configuration reference must not be given in quotes: use a provider type name, optionally followed by a period and then a configuration alias.",
                    it.span,
                ),
            }
        }
        out
    }
}

/// `name` or `name.alias` written as a bare traversal (or, for keys, a quoted string).
pub(super) fn provider_name(e: &ast::Expr) -> Option<(String, Option<String>)> {
    // `null`, `true` and `false` are keywords in expressions but plain names here (the
    // hashicorp/null provider's local name is `null`).
    let root = |k: &ExprKind| match k {
        ExprKind::Variable(id) => Some(id.name.to_string()),
        ExprKind::Null => Some("null".to_string()),
        ExprKind::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    match &e.kind {
        ExprKind::GetAttr { target, name, .. } => {
            root(&target.kind).map(|r| (r, Some(name.name.to_string())))
        }
        k if root(k).is_some() => root(k).map(|r| (r, None)),
        _ => literal_string(e).and_then(|s| {
            let mut parts = s.splitn(2, '.');
            let n = parts.next()?.to_string();
            Some((n, parts.next().map(str::to_string)))
        }),
    }
}
