//! Lowering of the blocks that act on state addresses or check the result of a run:
//! `removed`, `import` and `check`.

use super::meta::traversal_text;
use super::*;
use ferro_addrs::{InstanceKey, Target};

impl Lower {
    /// `removed { from = ADDR  lifecycle { destroy = BOOL }  provisioner "…" { when = destroy
    /// … } }`.
    pub(super) fn removed_block(&mut self, b: &ast::Block) {
        let span = Self::header_span(b);
        let mut from = None;
        let mut destroy = false;
        let mut destroy_set = false;
        let mut provisioners = Vec::new();
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "from" => {
                    match traversal_text(&a.expr).and_then(|t| ferro_addrs::parse_target(&t).ok()) {
                        Some(Target::Instance(_)) => self.error(
                            "invalid-removed-address",
                            "Resource instance keys not allowed",
                            "Resource address must be a resource (e.g. \"test_instance.foo\"), not a resource instance (e.g. \"test_instance.foo[1]\").",
                            a.expr.span,
                        ),
                        Some(Target::Module(m)) if m.0.iter().any(|s| s.key != InstanceKey::None) => self.error(
                            "invalid-removed-address",
                            "Module instance keys not allowed",
                            "The \"from\" address of a removed block must be a module call (e.g. \"module.foo\"), not a module instance.",
                            a.expr.span,
                        ),
                        Some(t) => from = Some((t, a.expr.span)),
                        None => self.error(
                            "invalid-removed-address",
                            "Invalid address",
                            "A removed block's from must be the address of a resource or a module call, written without quotes.",
                            a.expr.span,
                        ),
                    }
                }
                BodyItem::Attribute(a) => self.unsupported_argument(a),
                BodyItem::Block(inner) if inner.ty.name == "lifecycle" => {
                    for it in &inner.body.items {
                        match it {
                            BodyItem::Attribute(a) if a.name.name == "destroy" => {
                                destroy_set = true;
                                destroy = self.literal_bool_attr(a).unwrap_or(false)
                            }
                            BodyItem::Attribute(a) => self.unsupported_argument(a),
                            BodyItem::Block(x) => self.unsupported_block(x),
                        }
                    }
                }
                // OpenTofu 1.10: destroy-time provisioners, for resources only.
                BodyItem::Block(inner) if inner.ty.name == "provisioner" => {
                    let Some(p) = self.provisioner(inner) else {
                        continue;
                    };
                    if !p.when_destroy {
                        self.error(
                            "invalid-removed-provisioner",
                            "Invalid \"removed.provisioner\" block",
                            "\"removed\" blocks can only contain destroy provisioners. \"removed.provisioner.when = destroy\" expected",
                            Self::header_span(inner),
                        );
                        continue;
                    }
                    provisioners.push(p);
                }
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        if let Some((Target::Module(_), _)) = &from {
            for _ in provisioners.drain(..) {
                self.error(
                    "invalid-removed-provisioner",
                    "Invalid \"removed\" block",
                    "\"removed\" blocks containing \"provisioner\"s can only target resources. Found one block that is targeting a module",
                    span,
                );
            }
        }
        if destroy_set && !destroy && !provisioners.is_empty() {
            self.map.diagnostics.push(
                Diagnostic::warning("removed-provisioners-unused", "Removed block provisioners will not be executed")
                    .with_detail("The 'removed' block has marked the resource to be forgotten and not destroyed. Therefore, the provisioners configured for it will not be executed.")
                    .with_span(span),
            );
        }
        match from {
            Some((from, from_span)) => {
                let (span, from_span) = (self.sp(span), self.sp(from_span));
                self.hir.removed.push(Removed {
                    from,
                    destroy,
                    provisioners,
                    span,
                    from_span,
                })
            }
            None if !b
                .body
                .items
                .iter()
                .any(|i| matches!(i, BodyItem::Attribute(a) if a.name.name == "from")) =>
            {
                self.missing_argument("from", span)
            }
            None => {}
        }
    }

    /// `import { to = ADDR  id = EXPR  for_each = EXPR }` (or `identity = EXPR` for `id`).
    pub(super) fn import_block(&mut self, b: &ast::Block) {
        let span = Self::header_span(b);
        let (mut to, mut id, mut identity, mut for_each) = (None, None, None, None);
        let mut to_seen = false;
        let mut provider = None;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "to" => {
                    to_seen = true;
                    to = self.import_target(&a.expr);
                }
                BodyItem::Attribute(a) if a.name.name == "id" => id = Some(self.expr(&a.expr)),
                BodyItem::Attribute(a) if a.name.name == "identity" => {
                    identity = Some(self.expr(&a.expr))
                }
                BodyItem::Attribute(a) if a.name.name == "for_each" => {
                    for_each = Some(self.expr(&a.expr))
                }
                BodyItem::Attribute(a) if a.name.name == "provider" => provider = Some(a),
                BodyItem::Attribute(a) => self.unsupported_argument(a),
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        if let Some(a) = provider {
            // Terraform allows `provider` only where it may generate configuration: never for
            // a target in a module below the block's.
            if to.as_ref().is_some_and(|(to, _, _)| !to.module.is_root()) {
                self.error(
                    "invalid-import-provider",
                    "Invalid import provider argument",
                    "The provider argument can only be specified in import blocks that will generate configuration.\n\nUse the providers argument within the module block to configure providers for all resources within a module, including imported resources.",
                    a.span,
                );
            } else {
                self.error(
                    "unsupported-argument",
                    "Unsupported argument",
                    "ferro imports with the provider configuration of the target resource; the \"provider\" argument of import blocks is not supported. See docs/compatibility.md.",
                    a.name.span,
                );
            }
        }
        if !to_seen {
            self.missing_argument("to", span);
        }
        // Terraform 1.12's words (internal/configs/import.go).
        let by = match (id, identity) {
            (Some(id), None) => Some(ImportBy::Id(id)),
            (None, Some(identity)) => Some(ImportBy::Identity(identity)),
            (None, None) => {
                self.error(
                    "invalid-import-block",
                    "Invalid import block",
                    "At least one of 'id' or 'identity' must be specified.",
                    span,
                );
                None
            }
            (Some(_), Some(_)) => {
                self.error(
                    "invalid-import-block",
                    "Invalid import block",
                    "Only one of 'id' or 'identity' can be specified.",
                    span,
                );
                None
            }
        };
        let (Some((to, key, to_span)), Some(by)) = (to, by) else {
            return;
        };
        if matches!(key, ImportKey::Expr(_)) && for_each.is_none() {
            self.error(
                "invalid-import-address",
                "Invalid import address expression",
                "An instance key that is not a literal may only be used together with for_each.",
                to_span,
            );
            return;
        }
        let (span, to_span) = (self.sp(span), self.sp(to_span));
        self.hir.imports.push(Import {
            to,
            key,
            by,
            for_each,
            span,
            to_span,
        });
    }

    /// The `to` of an import block: a static resource address, optionally ending in an index
    /// whose key is an expression (`a.b[each.key]`).
    fn import_target(
        &mut self,
        e: &ast::Expr,
    ) -> Option<(ferro_addrs::AbsResource, ImportKey, Span)> {
        let bad = |this: &mut Self| {
            this.error(
                "invalid-import-address",
                "Invalid import address",
                "The import block's \"to\" must be the address of a managed resource or one of its instances, written without quotes.",
                e.span,
            );
            None
        };
        let whole = traversal_text(e).and_then(|t| ferro_addrs::parse_target(&t).ok());
        let (resource, key) = match (whole, &e.kind) {
            (Some(Target::Resource(r)), _) => (r, ImportKey::None),
            (Some(Target::Instance(i)), _) => {
                (i.containing_resource(), ImportKey::Static(i.resource.key))
            }
            (Some(Target::Module(_)), _) => return bad(self),
            (None, ExprKind::Index { target, key, .. }) => {
                match traversal_text(target).and_then(|t| ferro_addrs::parse_target(&t).ok()) {
                    Some(Target::Resource(r)) => (r, ImportKey::Expr(self.expr(key))),
                    _ => return bad(self),
                }
            }
            (None, _) => return bad(self),
        };
        if resource.resource.mode != ResourceMode::Managed {
            self.error(
                "invalid-import-address",
                "Invalid import address",
                "Only managed resources can be imported; data resources cannot.",
                e.span,
            );
            return None;
        }
        Some((resource, key, e.span))
    }

    /// `check "name" { data "t" "n" { … }  assert { condition  error_message } }`.
    pub(super) fn check_block(&mut self, b: &ast::Block) {
        let Some(labels) = self.labels(b, "check", 1) else {
            return;
        };
        let name = labels[0].clone();
        let span = Self::header_span(b);
        let mut asserts = Vec::new();
        let mut data_sources = 0;
        for item in &b.body.items {
            match item {
                BodyItem::Block(inner) if inner.ty.name == "assert" => {
                    if let Some(c) = self.condition(inner) {
                        asserts.push(c);
                    }
                }
                BodyItem::Block(inner) if inner.ty.name == "data" => {
                    data_sources += 1;
                    if data_sources > 1 {
                        self.error(
                            "check-data-sources",
                            "Multiple data resource blocks",
                            "This check block already has a data resource defined. Only one nested data resource is allowed per check block.",
                            Self::header_span(inner),
                        );
                        continue;
                    }
                    let before = self.hir.resources.len();
                    self.resource_block(inner, ResourceMode::Data);
                    if let Some(decl) = self.hir.resources.get_mut(before) {
                        decl.check = Some(name.clone());
                    }
                }
                BodyItem::Attribute(a) => self.unsupported_argument(a),
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        if asserts.is_empty() {
            self.error(
                "check-no-asserts",
                "Missing assert block",
                "Check blocks must have at least one assert block.",
                span,
            );
            return;
        }
        let span = self.sp(span);
        self.hir.checks.push(Check {
            name,
            asserts,
            span,
        });
    }

    fn missing_argument(&mut self, name: &str, span: Span) {
        self.error(
            "missing-required-argument",
            "Missing required argument",
            format!("The argument {name:?} is required, but no definition was found."),
            span,
        );
    }
}
