//! AST → HIR for one file: top-level blocks become items, expressions go into the arena with
//! their references classified. Problems found here (unknown block types, malformed meta
//! arguments, invalid references) are diagnostics in the file's `SourceMap`.

use crate::expr::{Expr, ExprId, Reference, TemplatePart};
use crate::items::*;
use crate::type_expr::lower_type_expr_with_defaults;
use ferro_addrs::{Resource, ResourceMode};
use ferro_diag::{Diagnostic, FileId, Span};
use ferro_syntax::ast::{self, BodyItem, ExprKind, ObjectKey, SplatKind, TraversalStep};
use ferro_value::{Number, Value};

#[path = "dynamic.rs"]
mod dynamic;
#[path = "legacy.rs"]
mod legacy;
#[path = "lower_expr.rs"]
mod lower_expr;
#[path = "module_call.rs"]
mod module_call;
#[path = "validation.rs"]
mod validation;

/// Lower one parsed file, in either syntax. Bodies parsed from JSON ([`ast::Body::json`])
/// lower to [`BlockBody::json`] bodies that keep repeated properties, for the schema to sort
/// resource and provider bodies into arguments and nested blocks.
pub fn lower_file(file: FileId, body: &ast::Body) -> FileHir {
    let mut cx = Lower {
        file,
        hir: ItemTree {
            file: Some(file),
            ..ItemTree::default()
        },
        map: SourceMap::default(),
        for_scope: Vec::new(),
        json: body.json,
    };
    for item in &body.items {
        match item {
            BodyItem::Attribute(a) => cx.unsupported_argument(a),
            BodyItem::Block(b) => {
                cx.json = b.body.json;
                cx.top_block(b)
            }
        }
    }
    cx.finish()
}

struct Lower {
    file: FileId,
    hir: ItemTree,
    map: SourceMap,
    for_scope: Vec<String>,
    /// The body being lowered is in the JSON syntax (or has JSON merged into it).
    json: bool,
}

/// HCL's words for a block with too few or too many labels.
fn label_count_detail(kind: &str, n: usize, missing: bool) -> String {
    let names = match (kind, n) {
        ("dynamic", _) => "type",
        (_, 2) => "type, name",
        _ => "name",
    };
    match missing {
        true => format!("All {kind} blocks must have {n} labels ({names})."),
        false => format!("Only {n} labels ({names}) are expected for {kind} blocks."),
    }
}

mod destroy_refs;
mod lifecycle;
mod meta;
mod state_blocks;

impl Lower {
    fn finish(self) -> FileHir {
        FileHir {
            tree: std::sync::Arc::new(self.hir),
            map: std::sync::Arc::new(self.map),
        }
    }

    /// Record a range in the source map; items keep the id.
    fn sp(&mut self, span: Span) -> SpanId {
        self.map.add(span)
    }

    fn error(&mut self, code: &str, summary: &str, detail: impl Into<String>, span: Span) {
        self.map.diagnostics.push(
            Diagnostic::error(code, summary)
                .with_detail(detail)
                .with_span(span),
        );
    }

    /// Where HCL reports an argument missing from a block: its opening brace (the closing one
    /// in JSON).
    pub(crate) fn missing_item_span(b: &ast::Block) -> Span {
        if b.body.json {
            b.close_brace
        } else {
            b.open_brace
        }
    }

    fn header_span(b: &ast::Block) -> Span {
        match b.labels.last() {
            Some(l) => b.ty.span.to(l.span),
            None => b.ty.span,
        }
    }

    fn labels(&mut self, b: &ast::Block, kind: &str, n: usize) -> Option<Vec<String>> {
        if b.labels.len() != n {
            let missing = b.labels.len() < n;
            // HCL points at the opening brace, or at the first label too many.
            let span = match b.labels.get(n) {
                Some(extra) => extra.span,
                None => b.open_brace,
            };
            let summary = match missing {
                true => format!("Missing name for {kind}"),
                false => format!("Extraneous label for {kind}"),
            };
            let detail = label_count_detail(kind, n, missing);
            self.error("block-labels", &summary, detail, span);
            return None;
        }
        for l in &b.labels {
            if !is_valid_name(&l.value) {
                self.error(
                    "invalid-name",
                    "Invalid name",
                    "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.",
                    l.span,
                );
                return None;
            }
        }
        Some(b.labels.iter().map(|l| l.value.to_string()).collect())
    }

    fn top_block(&mut self, b: &ast::Block) {
        match b.ty.name.as_str() {
            "terraform" => self.terraform_block(b),
            "variable" => self.variable_block(b),
            "locals" => self.locals_block(b),
            "output" => self.output_block(b),
            "resource" => self.resource_block(b, ResourceMode::Managed),
            "data" => self.resource_block(b, ResourceMode::Data),
            "ephemeral" => self.resource_block(b, ResourceMode::Ephemeral),
            "provider" => self.provider_block(b),
            "module" => self.module_block(b),
            "moved" => self.moved_block(b),
            "removed" => self.removed_block(b),
            "import" => self.import_block(b),
            "check" => self.check_block(b),
            _ => self.unsupported_block(b),
        }
    }

    fn terraform_block(&mut self, b: &ast::Block) {
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "required_version" => {
                        if let Some(c) = self.literal_string_attr(a) {
                            let at = self.sp(a.expr.span);
                            let whole = self.sp(a.span);
                            self.hir.required_versions.push((c, at, whole));
                        }
                    }
                    "experiments" => self.experiments(a),
                    _ => self.unsupported_argument(a),
                },
                BodyItem::Block(inner) => match inner.ty.name.as_str() {
                    "required_providers" => self.required_providers(inner),
                    "backend" | "provider_meta" => {}
                    // OpenTofu's state and plan encryption: checked here for every front end,
                    // evaluated by the CLI (with `TF_ENCRYPTION` merged in).
                    "encryption" => {
                        let (_, diags) =
                            crate::encryption::read_encryption(&inner.body, inner.ty.span);
                        self.map.diagnostics.extend(diags);
                    }
                    _ => self.unsupported_block(inner),
                },
            }
        }
    }

    fn required_providers(&mut self, b: &ast::Block) {
        for item in &b.body.items {
            let BodyItem::Attribute(a) = item else {
                if let BodyItem::Block(inner) = item {
                    self.error(
                        "unsupported-block-type",
                        "Unsupported block type",
                        "required_providers takes only arguments.",
                        inner.ty.span,
                    );
                }
                continue;
            };
            let mut source_span = None;
            let span = self.sp(a.span);
            let mut rp = RequiredProvider {
                local_name: a.name.name.to_string(),
                source: None,
                version: None,
                span,
                aliases: Vec::new(),
            };
            match &a.expr.kind {
                ExprKind::Object(items) => {
                    for it in items {
                        let key = object_key_text(&it.key);
                        let val = literal_string(&it.value);
                        match (key.as_deref(), val) {
                            (Some("source"), Some(s)) => {
                                rp.source = Some(s);
                                source_span = Some(it.value.span);
                            }
                            (Some("version"), Some(s)) => rp.version = Some(s),
                            (Some("configuration_aliases"), _) => {
                                if let ExprKind::Tuple(refs) = &it.value.kind {
                                    rp.aliases.extend(refs.iter().filter_map(|r| {
                                        match module_call::provider_name(r)? {
                                            (name, Some(alias)) => Some((name, alias)),
                                            _ => None,
                                        }
                                    }));
                                }
                            }
                            _ => self.error(
                                "invalid-required-providers",
                                "Invalid required_providers object",
                                "required_providers objects can only contain \"version\", \"source\" and \"configuration_aliases\" attributes, given as literal strings.",
                                it.span,
                            ),
                        }
                    }
                }
                _ => match literal_string(&a.expr) {
                    Some(v) => rp.version = Some(v),
                    None => self.error(
                        "invalid-required-providers",
                        "Invalid required_providers object",
                        "A required_providers entry must be an object with \"source\" and \"version\".",
                        a.expr.span,
                    ),
                },
            }
            let source = rp.source.as_deref().zip(source_span);
            self.required_provider_checks(a, source);
            self.hir.required_providers.push(rp);
        }
    }

    fn variable_block(&mut self, b: &ast::Block) {
        let Some(labels) = self.labels(b, "variable", 1) else {
            return;
        };
        let span = self.sp(Self::header_span(b));
        let mut v = Variable {
            name: labels[0].clone(),
            span,
            ty: None,
            type_span: None,
            defaults: None,
            default: None,
            description: None,
            sensitive: false,
            ephemeral: false,
            nullable: true,
            validations: Vec::new(),
            deprecated: None,
        };
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "type" => match lower_type_expr_with_defaults(self.file, &a.expr) {
                        Ok((t, defaults)) => {
                            v.ty = Some(t);
                            v.defaults = defaults;
                            v.type_span = Some(self.sp(a.expr.span));
                        }
                        Err(d) => self.map.diagnostics.push(d),
                    },
                    "default" => v.default = Some(self.expr(&a.expr)),
                    "description" => v.description = self.literal_string_attr(a),
                    "sensitive" => v.sensitive = self.literal_bool_attr(a).unwrap_or(false),
                    "ephemeral" => v.ephemeral = self.literal_bool_attr(a).unwrap_or(false),
                    "nullable" => v.nullable = self.literal_bool_attr(a).unwrap_or(true),
                    "deprecated" => {
                        v.deprecated = self.deprecated_attr(a, "variable", b.labels[0].span)
                    }
                    _ => self.unsupported_argument(a),
                },
                BodyItem::Block(inner) if inner.ty.name == "validation" => {
                    if let Some(rule) = self.validation_rule(inner, &v.name) {
                        v.validations.push(rule);
                    }
                }
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        self.hir.variables.push(v);
    }

    fn locals_block(&mut self, b: &ast::Block) {
        if !b.labels.is_empty() {
            self.error(
                "block-labels",
                "Extraneous label for locals",
                "No labels are expected for locals blocks.",
                b.labels[0].span,
            );
        }
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => {
                    let span = self.sp(a.name.span);
                    let decl_span = self.sp(a.span);
                    let expr = self.expr(&a.expr);
                    self.hir.locals.push(Local {
                        name: a.name.name.to_string(),
                        span,
                        decl_span,
                        expr,
                    });
                }
                BodyItem::Block(inner) => self.error(
                    "unsupported-block-type",
                    "Unsupported block type",
                    "A locals block contains only local value definitions, written as arguments.",
                    inner.ty.span,
                ),
            }
        }
    }

    fn output_block(&mut self, b: &ast::Block) {
        let Some(labels) = self.labels(b, "output", 1) else {
            return;
        };
        let span = self.sp(Self::header_span(b));
        let mut o = Output {
            name: labels[0].clone(),
            span,
            value: None,
            description: None,
            sensitive: false,
            ephemeral: false,
            depends_on: Vec::new(),
            preconditions: Vec::new(),
            deprecated: None,
        };
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "value" => o.value = Some(self.expr(&a.expr)),
                    "description" => o.description = self.literal_string_attr(a),
                    "sensitive" => o.sensitive = self.literal_bool_attr(a).unwrap_or(false),
                    "ephemeral" => o.ephemeral = self.literal_bool_attr(a).unwrap_or(false),
                    "depends_on" => o.depends_on = self.depends_on(&a.expr),
                    "deprecated" => o.deprecated = self.deprecated_attr(a, "output", a.expr.span),
                    _ => self.unsupported_argument(a),
                },
                BodyItem::Block(inner) if inner.ty.name == "precondition" => {
                    if let Some(c) = self.condition(inner) {
                        o.preconditions.push(c);
                    }
                }
                BodyItem::Block(inner) => self.unsupported_block(inner),
            }
        }
        if o.value.is_none() {
            self.error(
                "missing-required-argument",
                "Missing required argument",
                "The argument \"value\" is required, but no definition was found.",
                Self::missing_item_span(b),
            );
        }
        self.hir.outputs.push(o);
    }

    fn provider_block(&mut self, b: &ast::Block) {
        let Some(labels) = self.labels(b, "provider", 1) else {
            return;
        };
        self.provider_block_checks(b, &labels[0]);
        let mut alias = None;
        let mut version = false;
        let mut for_each = None;
        let mut rest = ast::Body {
            items: Vec::new(),
            span: b.body.span,
            json: b.body.json,
        };
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "alias" => {
                    alias = self.literal_string_attr(a)
                }
                BodyItem::Attribute(a) if a.name.name == "version" => version = true,
                BodyItem::Attribute(a) if a.name.name == "for_each" => {
                    for_each = Some((self.expr(&a.expr), a.expr.span))
                }
                BodyItem::Attribute(a)
                    if legacy::RESERVED_PROVIDER_ARGUMENTS.contains(&a.name.name.as_str()) => {}
                BodyItem::Block(inner)
                    if legacy::RESERVED_PROVIDER_BLOCKS.contains(&inner.ty.name.as_str()) => {}
                other => rest.items.push(other.clone()),
            }
        }
        if let (Some((_, at)), None) = (for_each, &alias) {
            self.error(
                "provider-for-each-alias",
                "Alias required when using \"for_each\"",
                "The for_each argument is allowed only for provider configurations with an alias.",
                at,
            );
        }
        let span = self.sp(Self::header_span(b));
        let body = self.body(&rest);
        self.hir.providers.push(ProviderBlock {
            name: labels[0].clone(),
            alias,
            span,
            body,
            version,
            for_each: for_each.map(|(id, _)| id),
        });
    }

    pub(super) fn resource_block(&mut self, b: &ast::Block, mode: ResourceMode) {
        let kind = match mode {
            ResourceMode::Managed => "resource",
            ResourceMode::Data => "data",
            ResourceMode::Ephemeral => "ephemeral",
        };
        let Some(labels) = self.labels(b, kind, 2) else {
            return;
        };
        let span = self.sp(Self::header_span(b));
        let mut decl = ResourceDecl {
            addr: Resource {
                mode,
                ty: labels[0].as_str().into(),
                name: labels[1].as_str().into(),
            },
            span,
            body: BlockBody::default(),
            count: None,
            for_each: None,
            enabled: None,
            depends_on: Vec::new(),
            provisioners: Vec::new(),
            connection: None,
            check: None,
            provider: None,
            provider_key: None,
            lifecycle: Lifecycle::default(),
        };
        let mut rest = ast::Body {
            items: Vec::new(),
            span: b.body.span,
            json: b.body.json,
        };
        let mut for_each_name = None;
        let mut count_name = None;
        let mut enabled = None;
        let mut first_connection: Option<&ast::Block> = None;
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "count" => {
                        count_name = Some(a.name.span);
                        decl.count = Some(self.expr(&a.expr));
                    }
                    "for_each" => {
                        for_each_name = Some(a.name.span);
                        decl.for_each = Some(self.expr(&a.expr));
                    }
                    "depends_on" => decl.depends_on = self.depends_on(&a.expr),
                    "provider" => {
                        let (provider, key) = self.keyed_provider_ref(&a.expr);
                        decl.provider = provider;
                        decl.provider_key = key;
                    }
                    _ => rest.items.push(item.clone()),
                },
                BodyItem::Block(inner) => match inner.ty.name.as_str() {
                    "lifecycle" => {
                        if mode == ResourceMode::Ephemeral {
                            self.ephemeral_lifecycle_arguments(inner);
                        }
                        decl.lifecycle = self.lifecycle(inner, &mut enabled)
                    }
                    "provisioner" if mode == ResourceMode::Managed => {
                        if let Some(p) = self.provisioner(inner) {
                            decl.provisioners.push(p);
                        }
                    }
                    "connection" if mode == ResourceMode::Managed => {
                        if let Some(first) = first_connection {
                            self.duplicate_connection(inner, first, "resource");
                        } else {
                            first_connection = Some(inner);
                            decl.connection = Some(self.connection_block(inner));
                        }
                    }
                    _ => rest.items.push(item.clone()),
                },
            }
        }
        decl.enabled = enabled.map(|(e, _)| e);
        let instances = match mode {
            ResourceMode::Managed => "resources",
            ResourceMode::Data => "data sources",
            ResourceMode::Ephemeral => "ephemeral resources",
        };
        self.repetition_conflict(
            count_name,
            enabled.map(|(_, s)| s),
            for_each_name,
            instances,
        );
        // A resource with a destroy-time provisioner: its connection block, too, may refer
        // only to the object (Terraform checks it after the whole body).
        if let Some(c) = first_connection {
            if decl.provisioners.iter().any(|p| p.when_destroy) {
                for item in &c.body.items {
                    if let BodyItem::Attribute(a) = item {
                        let ds = destroy_refs::check_argument(a);
                        self.map.diagnostics.extend(ds);
                    }
                }
            }
        }
        decl.body = self.body(&rest);
        self.hir.resources.push(decl);
    }

    /// `provider = name`, `name.alias` or `name.alias[KEY]` (an instance of a `for_each`
    /// configuration, OpenTofu 1.9): the reference and the key's expression.
    #[allow(clippy::type_complexity)]
    pub(super) fn keyed_provider_ref(
        &mut self,
        e: &ast::Expr,
    ) -> (Option<(String, Option<String>, SpanId)>, Option<ExprId>) {
        let ExprKind::Index { target, key, .. } = &e.kind else {
            return (self.provider_ref(e), None);
        };
        let Some((name, alias)) =
            module_call::provider_name(target).filter(|_| literal_string(target).is_none())
        else {
            self.error(
                "invalid-provider-reference",
                "Invalid provider configuration reference",
                "The provider argument requires a provider type name, optionally followed by a period and then a configuration alias and optional instance key.",
                e.span,
            );
            return (None, None);
        };
        if alias.is_none() {
            self.error(
                "invalid-provider-reference",
                "Invalid provider configuration reference",
                "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]",
                e.span,
            );
            return (None, None);
        }
        let key = self.expr(key);
        (Some((name, alias, self.sp(e.span))), Some(key))
    }

    fn provider_ref(&mut self, e: &ast::Expr) -> Option<(String, Option<String>, SpanId)> {
        let bare = match &e.kind {
            ExprKind::Variable(_)
            | ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::GetAttr { .. } => module_call::provider_name(e),
            ExprKind::Template(_) => {
                let parsed = self.quoted_traversal(e)?;
                module_call::provider_name(&parsed)
            }
            _ => None,
        };
        match bare {
            Some((n, a)) => Some((n, a, self.sp(e.span))),
            None => {
                self.error(
                "invalid-provider-reference",
                "Invalid provider configuration reference",
                "The provider argument requires a provider type name, optionally followed by a period and then a configuration alias.",
                e.span,
            );
                None
            }
        }
    }

    fn depends_on(&mut self, e: &ast::Expr) -> Vec<(Reference, SpanId)> {
        let ExprKind::Tuple(items) = &e.kind else {
            self.error(
                "invalid-depends-on",
                "Invalid expression",
                "A static list expression is required.",
                start_span(e),
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for it in items {
            let quoted = literal_string(it).is_some();
            // Where the reference is: inside the quotes of a quoted one.
            let mut at_span = it.span;
            let id = match quoted {
                true => match self.quoted_traversal(it) {
                    Some(parsed) => {
                        at_span = parsed.span;
                        self.expr(&parsed)
                    }
                    None => continue,
                },
                false => {
                    if !matches!(
                        it.kind,
                        ExprKind::Variable(_) | ExprKind::GetAttr { .. } | ExprKind::Index { .. }
                    ) {
                        self.error(
                            "invalid-depends-on",
                            "Invalid expression",
                            "A single static variable reference is required: only attribute access and indexing with constant keys. No calculations, function calls, template expressions, etc are allowed here.",
                            it.span,
                        );
                        continue;
                    }
                    self.expr(it)
                }
            };
            match self.depends_on_target(id, quoted) {
                Some(r) => {
                    let at = self.sp(at_span);
                    out.push((r, at))
                }
                None => self.error(
                    "invalid-depends-on",
                    "Invalid depends_on reference",
                    "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.",
                    it.span,
                ),
            }
        }
        out
    }

    /// The object a `depends_on` entry names: a whole object, or one instance of a resource
    /// or module call (which depends on the whole). Terraform accepts attribute accesses after
    /// a quoted reference's object, too.
    fn depends_on_target(&self, id: ExprId, quoted: bool) -> Option<Reference> {
        match &self.hir.exprs[id] {
            Expr::Ref(
                r @ (Reference::Resource(_)
                | Reference::Var(_)
                | Reference::Local(_)
                | Reference::Module(_)),
            ) => Some(r.clone()),
            Expr::Index { target, .. } => match &self.hir.exprs[*target] {
                Expr::Ref(r @ (Reference::Resource(_) | Reference::Module(_))) => Some(r.clone()),
                _ if quoted => self.depends_on_target(*target, quoted),
                _ => None,
            },
            Expr::GetAttr { target, .. } if quoted => self.depends_on_target(*target, quoted),
            _ => None,
        }
    }

    fn body(&mut self, body: &ast::Body) -> BlockBody {
        let outer = std::mem::replace(&mut self.json, body.json);
        let out = self.body_items(body);
        self.json = outer;
        out
    }

    fn body_items(&mut self, body: &ast::Body) -> BlockBody {
        let span = Some(self.sp(body.span));
        let mut out = BlockBody {
            attrs: Vec::new(),
            blocks: Vec::new(),
            span,
            json: self.json,
        };
        for item in &body.items {
            match item {
                BodyItem::Attribute(a) => {
                    // In JSON a repeated property may be several blocks; the schema step decides.
                    let first = if self.json {
                        None
                    } else {
                        out.attrs.iter().find(|p| p.name == a.name.name)
                    };
                    if let Some(prev) = first {
                        let prev_span = self.map.at(prev.name_span);
                        self.map.diagnostics.push(
                            Diagnostic::error("attribute-redefined", "Attribute redefined")
                                .with_detail(format!("The argument {:?} was already set. Each argument may be set only once.", a.name.name))
                                .with_span(a.name.span)
                                .with_label(prev_span, "first set here"),
                        );
                        continue;
                    }
                    let name_span = self.sp(a.name.span);
                    let span = self.sp(a.span);
                    let expr = self.expr(&a.expr);
                    out.attrs.push(HirAttr {
                        name: a.name.name.to_string(),
                        name_span,
                        expr,
                        span,
                    });
                }
                BodyItem::Block(b) if b.ty.name.as_str() == "dynamic" => {
                    if let Some(block) = self.dynamic_block(b) {
                        out.blocks.push(block);
                    }
                }
                BodyItem::Block(b) => {
                    let ty_span = self.sp(b.ty.span);
                    let span = self.sp(b.span);
                    let inner = self.body(&b.body);
                    out.blocks.push(HirBlock {
                        ty: b.ty.name.to_string(),
                        ty_span,
                        labels: b.labels.iter().map(|l| l.value.to_string()).collect(),
                        body: inner,
                        span,
                        dynamic: None,
                    });
                }
            }
        }
        out
    }

    /// OpenTofu's `deprecated = "message"` of a variable or an output: a literal string that
    /// says something (an empty one is OpenTofu's error, at `blank_at`).
    fn deprecated_attr(
        &mut self,
        a: &ast::Attribute,
        kind: &str,
        blank_at: Span,
    ) -> Option<String> {
        let message = self.literal_string_attr(a)?;
        if message.trim().is_empty() {
            let (summary, what) = match kind {
                "variable" => ("Invalid `deprecated` value", "variable"),
                _ => ("Invalid `deprecated` attribute", "output value"),
            };
            self.error(
                "invalid-deprecated",
                summary,
                format!("The \"deprecated\" argument must not be empty, and should provide instructions on how to migrate away from usage of this deprecated {what}."),
                blank_at,
            );
            return None;
        }
        Some(message)
    }

    fn literal_string_attr(&mut self, a: &ast::Attribute) -> Option<String> {
        let s = literal_string(&a.expr);
        if s.is_none() {
            self.error(
                "expected-literal",
                "Invalid value",
                format!("The {:?} argument must be a literal string.", a.name.name),
                a.expr.span,
            );
        }
        s
    }

    fn literal_bool_attr(&mut self, a: &ast::Attribute) -> Option<bool> {
        // A quoted "true" or "false" converts to a bool, as Terraform decodes these arguments.
        match (&a.expr.kind, literal_string(&a.expr).as_deref()) {
            (ExprKind::Bool(b), _) => Some(*b),
            (_, Some("true")) => Some(true),
            (_, Some("false")) => Some(false),
            _ => {
                self.error(
                    "expected-literal",
                    "Invalid value",
                    format!("The {:?} argument must be true or false.", a.name.name),
                    a.expr.span,
                );
                None
            }
        }
    }
}

fn is_valid_name(s: &str) -> bool {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) if c.is_alphabetic() || c == '_' => {
            chars.all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        }
        _ => false,
    }
}

fn object_key_text(k: &ObjectKey) -> Option<String> {
    match k {
        ObjectKey::Ident(id) => Some(id.name.to_string()),
        ObjectKey::Expr(e) => literal_string(e),
    }
}

/// The text of a template with no interpolations.
/// Where HCL's `StartRange` puts an expression's diagnostics when a static list was required:
/// a quoted string's first part (inside the quotes), an object's opening brace, a call's name.
pub(crate) fn start_span(e: &ast::Expr) -> Span {
    match &e.kind {
        ExprKind::Template(t) => match t.parts.first() {
            Some(
                ast::TemplatePart::Literal { span, .. }
                | ast::TemplatePart::Interpolation { span, .. }
                | ast::TemplatePart::If { span, .. },
            ) => *span,
            _ => e.span,
        },
        ExprKind::Object(_) => Span {
            end: e.span.start + 1,
            ..e.span
        },
        ExprKind::FunctionCall(call) => call.name.span,
        _ => e.span,
    }
}

pub(crate) fn literal_string(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Template(t) => t.literal_text(),
        _ => None,
    }
}

/// Lower one expression on its own (variable files, `-var` values, `ferro console`).
pub fn lower_standalone_expr(file: FileId, e: &ast::Expr) -> (FileHir, ExprId) {
    lower_expr_with_vars(file, e, &[])
}

/// Lower an expression in which the bare names `vars` are bound (the template of
/// `templatefile`, whose variables are plain names): they lower to [`Expr::ForVar`].
pub fn lower_expr_with_vars(file: FileId, e: &ast::Expr, vars: &[String]) -> (FileHir, ExprId) {
    let mut cx = Lower {
        file,
        hir: ItemTree {
            file: Some(file),
            ..ItemTree::default()
        },
        map: SourceMap::default(),
        for_scope: vars.to_vec(),
        json: false,
    };
    let id = cx.expr(e);
    (cx.finish(), id)
}
