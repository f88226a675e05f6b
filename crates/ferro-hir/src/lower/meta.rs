//! Lowering of the meta blocks around resources: `precondition`/`postcondition`, `moved`,
//! `provisioner` (`local-exec`, `file`, `remote-exec`) and `connection`.

use super::*;

impl Lower {
    /// An argument the block being lowered does not take.
    pub(super) fn unsupported_argument(&mut self, a: &ast::Attribute) {
        self.error(
            "unsupported-argument",
            "Unsupported argument",
            format!("An argument named {:?} is not expected here.", a.name.name),
            a.name.span,
        )
    }

    /// A nested block the block being lowered does not take.
    pub(super) fn unsupported_block(&mut self, b: &ast::Block) {
        self.error(
            "unsupported-block-type",
            "Unsupported block type",
            format!("Blocks of type {:?} are not expected here.", b.ty.name),
            b.ty.span,
        )
    }

    /// A `precondition`/`postcondition` block: both arguments are required, nothing else is
    /// allowed.
    pub(super) fn condition(&mut self, b: &ast::Block) -> Option<Condition> {
        let (mut condition, mut error_message) = (None, None);
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "condition" => {
                    condition = Some(self.expr(&a.expr))
                }
                BodyItem::Attribute(a) if a.name.name == "error_message" => {
                    error_message = Some(self.expr(&a.expr))
                }
                BodyItem::Attribute(a) => self.unsupported_argument(a),
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        let span = Self::header_span(b);
        for (name, v) in [("condition", condition), ("error_message", error_message)] {
            if v.is_none() {
                self.error(
                    "missing-required-argument",
                    "Missing required argument",
                    format!("The argument {name:?} is required, but no definition was found."),
                    span,
                );
            }
        }
        Some(Condition {
            condition: condition?,
            error_message: error_message?,
            span: self.sp(span),
        })
    }

    pub(super) fn moved_block(&mut self, b: &ast::Block) {
        let span = Self::header_span(b);
        let (mut from, mut to) = (None, None);
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if matches!(a.name.name.as_str(), "from" | "to") => {
                    let parsed =
                        traversal_text(&a.expr).and_then(|t| ferro_addrs::parse_target(&t).ok());
                    match parsed {
                        Some(t) if a.name.name == "from" => from = Some((t, a.expr.span)),
                        Some(t) => to = Some((t, a.expr.span)),
                        None => self.error(
                            "invalid-moved-address",
                            "Invalid address",
                            "A moved block's from and to must each be the address of a resource, a resource instance, a module call or a module instance, written without quotes.",
                            a.expr.span,
                        ),
                    }
                }
                BodyItem::Attribute(a) => self.unsupported_argument(a),
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        let (Some((from, from_span)), Some((to, to_span))) = (from.clone(), to.clone()) else {
            for (name, missing) in [("from", from.is_none()), ("to", to.is_none())] {
                if missing {
                    self.error(
                        "missing-required-argument",
                        "Missing required argument",
                        format!("The argument {name:?} is required, but no definition was found."),
                        span,
                    );
                }
            }
            return;
        };
        use ferro_addrs::Target;
        let module_side = |t: &Target| matches!(t, Target::Module(_));
        if module_side(&from) != module_side(&to) {
            self.error(
                "invalid-moved-address",
                "Invalid \"moved\" addresses",
                "The \"from\" and \"to\" addresses must both refer to resources or both refer to modules.",
                span,
            );
            return;
        }
        let res = |t: &Target| match t {
            Target::Resource(r) => Some(r.resource.clone()),
            Target::Instance(i) => Some(i.resource.resource.clone()),
            Target::Module(_) => None,
        };
        // Managed resources of different types may move (the target's provider converts the
        // objects, `MoveResourceState`, checked when planning); a data resource never moves
        // to or from a managed one.
        if let (Some(f), Some(t)) = (res(&from), res(&to)) {
            if f.mode != t.mode || (f.ty != t.ty && f.mode != ferro_addrs::ResourceMode::Managed) {
                self.error(
                    "moved-type-mismatch",
                    "Resource type mismatch",
                    format!("This statement declares a move from {from} to {to}, which is a resource of a different type."),
                    span,
                );
                return;
            }
        }
        if from == to {
            self.error(
                "moved-cycle",
                "Redundant move statement",
                format!("This statement declares a move from {from} to the same address, which is the same as not declaring this move at all."),
                span,
            );
            return;
        }
        let (span, from_span, to_span) = (self.sp(span), self.sp(from_span), self.sp(to_span));
        self.hir.moved.push(Moved {
            from,
            to,
            span,
            from_span,
            to_span,
        });
    }

    pub(super) fn provisioner(&mut self, b: &ast::Block) -> Option<Provisioner> {
        let span = Self::header_span(b);
        let kind = b.labels.first().map(|l| l.value.to_string())?;
        match kind.as_str() {
            "local-exec" | "file" | "remote-exec" => {}
            "chef" | "habitat" | "puppet" | "salt-masterless" => {
                self.error(
                    "removed-provisioner",
                    &format!("The \"{kind}\" provisioner has been removed"),
                    format!("The \"{kind}\" provisioner was deprecated in Terraform 0.13.4 has been removed from Terraform. Visit https://learn.hashicorp.com/collections/terraform/provision for alternatives to using provisioners that are a better fit for the Terraform workflow."),
                    b.labels[0].span,
                );
                return None;
            }
            _ => {
                self.error(
                    "unsupported-provisioner",
                    "Unsupported provisioner type",
                    format!("ferro runs the \"local-exec\", \"file\" and \"remote-exec\" provisioners; {kind:?} is none of them. See docs/compatibility.md."),
                    span,
                );
                return None;
            }
        }
        let mut rest = ast::Body {
            items: Vec::new(),
            ..b.body.clone()
        };
        let (mut when_destroy, mut on_failure_continue) = (false, false);
        let mut connection = None;
        let mut connection_attrs = Vec::new();
        let mut first_connection: Option<&ast::Block> = None;
        let mut checked = Vec::new();
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "when" => {
                    match self.keyword(&a.expr).as_deref() {
                        Some("destroy") => when_destroy = true,
                        Some("create") => {}
                        _ => self.error(
                            "invalid-provisioner-when",
                            "Invalid \"when\" keyword",
                            "The \"when\" argument requires one of the following keywords: create or destroy.",
                            a.expr.span,
                        ),
                    }
                }
                BodyItem::Attribute(a) if a.name.name == "on_failure" => {
                    match self.keyword(&a.expr).as_deref() {
                        Some("continue") => on_failure_continue = true,
                        Some("fail") => {}
                        _ => self.error(
                            "invalid-provisioner-on-failure",
                            "Invalid \"on_failure\" keyword",
                            "The \"on_failure\" argument requires one of the following keywords: continue or fail.",
                            a.expr.span,
                        ),
                    }
                }
                // Every other argument is kept: validation checks them against the
                // provisioner's schema (`ferro_db`'s `validate/provisioners.rs`), as Terraform
                // checks them when validating, not when loading.
                BodyItem::Attribute(a) => {
                    checked.push(a);
                    rest.items.push(item.clone())
                }
                BodyItem::Block(inner) if inner.ty.name == "connection" => {
                    if let Some(first) = first_connection {
                        self.duplicate_connection(inner, first, "provisioner");
                        continue;
                    }
                    first_connection = Some(inner);
                    connection_attrs.extend(inner.body.items.iter().filter_map(|i| match i {
                        BodyItem::Attribute(a) => Some(a),
                        BodyItem::Block(_) => None,
                    }));
                    connection = Some(self.connection_block(inner));
                }
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        // Terraform checks the provisioner's arguments, then its connection block's.
        if when_destroy {
            for a in checked.into_iter().chain(connection_attrs) {
                self.map.diagnostics.extend(destroy_refs::check_argument(a));
            }
        }
        let span = self.sp(span);
        Some(Provisioner {
            kind,
            body: self.body(&rest),
            connection,
            when_destroy,
            on_failure_continue,
            span,
        })
    }

    /// A `connection` block: every argument and block kept, for validation to check against
    /// Terraform's superset of the communicators' arguments (`ferro_db`).
    pub(super) fn connection_block(&mut self, b: &ast::Block) -> BlockBody {
        self.body(&b.body)
    }

    /// A second `connection` block in a resource or provisioner.
    pub(super) fn duplicate_connection(&mut self, b: &ast::Block, first: &ast::Block, what: &str) {
        // ferro-db writes the first block's range into the detail ("… block at main.tf:3,3-13."),
        // where the file's name is known.
        self.map.diagnostics.push(
            Diagnostic::error("duplicate-connection-block", "Duplicate connection block")
                .with_detail(format!("This {what} already has a connection block."))
                .with_span(b.ty.span)
                .with_label(first.ty.span, "first connection block"),
        );
    }
}

impl Lower {
    /// The keyword an argument such as `when` is written as: a bare name, or (deprecated since
    /// Terraform 0.12, with Terraform 1.0's warning) a string holding one.
    fn keyword(&mut self, e: &ast::Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Variable(id) => Some(id.name.to_string()),
            _ => {
                let text = literal_string(e)?;
                self.map
                    .diagnostics
                    .push(destroy_refs::quoted_keyword_warning(e.span));
                Some(text)
            }
        }
    }
}

/// A static traversal (`module.a["k"].x.y[0]`) written back as address text; None for any other
/// expression.
pub(super) fn traversal_text(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Variable(id) => Some(id.name.to_string()),
        ExprKind::GetAttr { target, name, .. } => {
            Some(format!("{}.{}", traversal_text(target)?, name.name))
        }
        ExprKind::Index { target, key, .. } => {
            let k = match &key.kind {
                ExprKind::Number(n) => n.to_string(),
                _ => ferro_addrs::quote(&literal_string(key)?),
            };
            Some(format!("{}[{k}]", traversal_text(target)?))
        }
        _ => None,
    }
}
