//! AST → HIR for one file: top-level blocks become items, expressions go into the arena with
//! their references classified. Problems found here (unknown block types, malformed meta
//! arguments, invalid references) are diagnostics in `FileHir::diagnostics`.

use crate::expr::{Expr, ExprId, Reference, TemplatePart};
use crate::items::*;
use crate::type_expr::lower_type_expr_with_defaults;
use ferro_addrs::{Resource, ResourceMode};
use ferro_diag::{Diagnostic, FileId, Span};
use ferro_syntax::ast::{self, BodyItem, ExprKind, ObjectKey, SplatKind, TraversalStep};
use ferro_value::{Number, Value};

#[path = "dynamic.rs"]
mod dynamic;
#[path = "module_call.rs"]
mod module_call;
#[path = "validation.rs"]
mod validation;

/// Lower one parsed file in the native syntax.
pub fn lower_file(file: FileId, body: &ast::Body) -> FileHir {
    lower_top(file, body, false)
}

/// Lower one file parsed from the JSON syntax (`ferro_syntax::parse_json_file`): the same as
/// [`lower_file`], except that resource and provider bodies are marked [`BlockBody::json`] and
/// keep repeated properties, for the schema to sort into arguments and nested blocks.
pub fn lower_json_file(file: FileId, body: &ast::Body) -> FileHir {
    lower_top(file, body, true)
}

fn lower_top(file: FileId, body: &ast::Body, json: bool) -> FileHir {
    let mut cx = Lower {
        file,
        hir: FileHir {
            file: Some(file),
            ..FileHir::default()
        },
        for_scope: Vec::new(),
        json,
    };
    for item in &body.items {
        match item {
            BodyItem::Attribute(a) => cx.error(
                "unsupported-argument",
                "Unsupported argument",
                format!("An argument named {:?} is not expected here.", a.name.name),
                a.name.span,
            ),
            BodyItem::Block(b) => cx.top_block(b),
        }
    }
    cx.hir
}

struct Lower {
    file: FileId,
    hir: FileHir,
    for_scope: Vec<String>,
    /// The file is in the JSON syntax.
    json: bool,
}

fn label_count_detail(kind: &str, n: usize) -> String {
    match n {
        1 => format!("A {kind} block must have exactly one label: the name."),
        _ => format!("A {kind} block must have exactly {n} labels."),
    }
}

impl Lower {
    fn error(&mut self, code: &str, summary: &str, detail: impl Into<String>, span: Span) {
        self.hir.diagnostics.push(
            Diagnostic::error(code, summary)
                .with_detail(detail)
                .with_span(span),
        );
    }

    fn header_span(b: &ast::Block) -> Span {
        match b.labels.last() {
            Some(l) => b.ty.span.to(l.span),
            None => b.ty.span,
        }
    }

    fn labels(&mut self, b: &ast::Block, kind: &str, n: usize) -> Option<Vec<String>> {
        if b.labels.len() != n {
            let span = if b.labels.is_empty() {
                b.ty.span
            } else {
                b.labels[0].span.to(b.labels[b.labels.len() - 1].span)
            };
            let summary = if b.labels.len() < n {
                "Missing name for block"
            } else {
                "Extraneous label for block"
            };
            self.error("block-labels", summary, label_count_detail(kind, n), span);
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
            "provider" => self.provider_block(b),
            "module" => self.module_block(b),
            other => self.error(
                "unsupported-block-type",
                "Unsupported block type",
                format!("Blocks of type {other:?} are not expected here."),
                b.ty.span,
            ),
        }
    }

    fn terraform_block(&mut self, b: &ast::Block) {
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "required_version" => {
                        if let Some(c) = self.literal_string_attr(a) {
                            self.hir.required_versions.push((c, a.expr.span));
                        }
                    }
                    "experiments" => {}
                    other => self.error(
                        "unsupported-argument",
                        "Unsupported argument",
                        format!("An argument named {other:?} is not expected here."),
                        a.name.span,
                    ),
                },
                BodyItem::Block(inner) => match inner.ty.name.as_str() {
                    "required_providers" => self.required_providers(inner),
                    "backend" | "cloud" | "provider_meta" => {}
                    other => self.error(
                        "unsupported-block-type",
                        "Unsupported block type",
                        format!("Blocks of type {other:?} are not expected here."),
                        inner.ty.span,
                    ),
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
            let mut rp = RequiredProvider {
                local_name: a.name.name.to_string(),
                source: None,
                version: None,
                span: a.span,
            };
            match &a.expr.kind {
                ExprKind::Object(items) => {
                    for it in items {
                        let key = object_key_text(&it.key);
                        let val = literal_string(&it.value);
                        match (key.as_deref(), val) {
                            (Some("source"), Some(s)) => rp.source = Some(s),
                            (Some("version"), Some(s)) => rp.version = Some(s),
                            (Some("configuration_aliases"), _) => {}
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
            self.hir.required_providers.push(rp);
        }
    }

    fn variable_block(&mut self, b: &ast::Block) {
        let Some(labels) = self.labels(b, "variable", 1) else {
            return;
        };
        let mut v = Variable {
            name: labels[0].clone(),
            span: Self::header_span(b),
            ty: None,
            type_span: None,
            defaults: None,
            default: None,
            description: None,
            sensitive: false,
            nullable: true,
            validations: Vec::new(),
        };
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "type" => match lower_type_expr_with_defaults(self.file, &a.expr) {
                        Ok((t, defaults)) => {
                            v.ty = Some(t);
                            v.defaults = defaults;
                            v.type_span = Some(a.expr.span);
                        }
                        Err(d) => self.hir.diagnostics.push(d),
                    },
                    "default" => v.default = Some(self.expr(&a.expr)),
                    "description" => v.description = self.literal_string_attr(a),
                    "sensitive" => v.sensitive = self.literal_bool_attr(a).unwrap_or(false),
                    "nullable" => v.nullable = self.literal_bool_attr(a).unwrap_or(true),
                    other => self.error(
                        "unsupported-argument",
                        "Unsupported argument",
                        format!("An argument named {other:?} is not expected here."),
                        a.name.span,
                    ),
                },
                BodyItem::Block(inner) if inner.ty.name == "validation" => {
                    if let Some(rule) = self.validation_rule(inner, &v.name) {
                        v.validations.push(rule);
                    }
                }
                BodyItem::Block(inner) => self.error(
                    "unsupported-block-type",
                    "Unsupported block type",
                    format!("Blocks of type {:?} are not expected here.", inner.ty.name),
                    inner.ty.span,
                ),
            }
        }
        self.hir.variables.push(v);
    }

    fn locals_block(&mut self, b: &ast::Block) {
        if !b.labels.is_empty() {
            self.error(
                "block-labels",
                "Extraneous label for block",
                "A locals block has no labels.",
                b.labels[0].span,
            );
        }
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => {
                    let expr = self.expr(&a.expr);
                    self.hir.locals.push(Local {
                        name: a.name.name.to_string(),
                        span: a.name.span,
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
        let mut o = Output {
            name: labels[0].clone(),
            span: Self::header_span(b),
            value: None,
            description: None,
            sensitive: false,
            depends_on: Vec::new(),
        };
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "value" => o.value = Some(self.expr(&a.expr)),
                    "description" => o.description = self.literal_string_attr(a),
                    "sensitive" => o.sensitive = self.literal_bool_attr(a).unwrap_or(false),
                    "depends_on" => o.depends_on = self.depends_on(&a.expr),
                    other => self.error(
                        "unsupported-argument",
                        "Unsupported argument",
                        format!("An argument named {other:?} is not expected here."),
                        a.name.span,
                    ),
                },
                BodyItem::Block(inner) if inner.ty.name == "precondition" => {}
                BodyItem::Block(inner) => self.error(
                    "unsupported-block-type",
                    "Unsupported block type",
                    format!("Blocks of type {:?} are not expected here.", inner.ty.name),
                    inner.ty.span,
                ),
            }
        }
        if o.value.is_none() {
            self.error(
                "missing-required-argument",
                "Missing required argument",
                "The argument \"value\" is required, but no definition was found.",
                o.span,
            );
        }
        self.hir.outputs.push(o);
    }

    fn provider_block(&mut self, b: &ast::Block) {
        let Some(labels) = self.labels(b, "provider", 1) else {
            return;
        };
        let mut alias = None;
        let mut rest = ast::Body {
            items: Vec::new(),
            span: b.body.span,
        };
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) if a.name.name == "alias" => {
                    alias = self.literal_string_attr(a)
                }
                BodyItem::Attribute(a) if a.name.name == "version" => {}
                other => rest.items.push(other.clone()),
            }
        }
        let body = self.body(&rest);
        self.hir.providers.push(ProviderBlock {
            name: labels[0].clone(),
            alias,
            span: Self::header_span(b),
            body,
        });
    }

    fn resource_block(&mut self, b: &ast::Block, mode: ResourceMode) {
        let kind = if mode == ResourceMode::Managed {
            "resource"
        } else {
            "data"
        };
        let Some(labels) = self.labels(b, kind, 2) else {
            return;
        };
        let mut decl = ResourceDecl {
            addr: Resource {
                mode,
                ty: labels[0].clone(),
                name: labels[1].clone(),
            },
            span: Self::header_span(b),
            body: BlockBody::default(),
            count: None,
            for_each: None,
            depends_on: Vec::new(),
            provider: None,
            lifecycle: Lifecycle::default(),
        };
        let mut rest = ast::Body {
            items: Vec::new(),
            span: b.body.span,
        };
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "count" => decl.count = Some(self.expr(&a.expr)),
                    "for_each" => decl.for_each = Some(self.expr(&a.expr)),
                    "depends_on" => decl.depends_on = self.depends_on(&a.expr),
                    "provider" => decl.provider = self.provider_ref(&a.expr),
                    _ => rest.items.push(item.clone()),
                },
                BodyItem::Block(inner) => match inner.ty.name.as_str() {
                    "lifecycle" if mode == ResourceMode::Managed => {
                        decl.lifecycle = self.lifecycle(inner)
                    }
                    "provisioner" | "connection" => self.error(
                        "unsupported-provisioner",
                        "Provisioners are not supported",
                        "ferro does not run provisioners; see docs/compatibility.md.",
                        inner.ty.span,
                    ),
                    _ => rest.items.push(item.clone()),
                },
            }
        }
        if let (Some(c), Some(_)) = (decl.count, decl.for_each) {
            let span = self.hir.span(c).unwrap_or(decl.span);
            self.error(
                "count-and-for-each",
                "Invalid combination of \"count\" and \"for_each\"",
                "The \"count\" and \"for_each\" meta-arguments are mutually-exclusive, only one should be used to be explicit about the number of resources to be created.",
                span,
            );
        }
        decl.body = self.body(&rest);
        self.hir.resources.push(decl);
    }

    fn lifecycle(&mut self, b: &ast::Block) -> Lifecycle {
        let mut lc = Lifecycle::default();
        for item in &b.body.items {
            match item {
                BodyItem::Attribute(a) => match a.name.name.as_str() {
                    "create_before_destroy" => {
                        lc.create_before_destroy = self.literal_bool_attr(a).unwrap_or(false)
                    }
                    "prevent_destroy" => {
                        lc.prevent_destroy = self.literal_bool_attr(a).unwrap_or(false)
                    }
                    "ignore_changes" => match &a.expr.kind {
                        ExprKind::Variable(id) if id.name == "all" => lc.ignore_all_changes = true,
                        ExprKind::Tuple(items) => {
                            for it in items {
                                match &it.kind {
                                    ExprKind::Variable(id) => lc.ignore_changes.push(id.name.to_string()),
                                    _ => match literal_string(it) {
                                        Some(s) => lc.ignore_changes.push(s),
                                        None => self.error(
                                            "invalid-ignore-changes",
                                            "Invalid ignore_changes reference",
                                            "Only attribute names of this resource may be listed in ignore_changes.",
                                            it.span,
                                        ),
                                    },
                                }
                            }
                        }
                        _ => self.error(
                            "invalid-ignore-changes",
                            "Invalid ignore_changes value",
                            "ignore_changes must be a list of attribute names, or the keyword all.",
                            a.expr.span,
                        ),
                    },
                    "replace_triggered_by" => {}
                    other => self.error(
                        "unsupported-argument",
                        "Unsupported argument",
                        format!("An argument named {other:?} is not expected here."),
                        a.name.span,
                    ),
                },
                BodyItem::Block(inner)
                    if matches!(inner.ty.name.as_str(), "precondition" | "postcondition") => {}
                BodyItem::Block(inner) => self.error(
                    "unsupported-block-type",
                    "Unsupported block type",
                    format!("Blocks of type {:?} are not expected here.", inner.ty.name),
                    inner.ty.span,
                ),
            }
        }
        lc
    }

    fn provider_ref(&mut self, e: &ast::Expr) -> Option<(String, Option<String>, Span)> {
        match &e.kind {
            ExprKind::Variable(id) => Some((id.name.to_string(), None, e.span)),
            ExprKind::GetAttr { target, name, .. } => match &target.kind {
                ExprKind::Variable(id) => Some((id.name.to_string(), Some(name.name.to_string()), e.span)),
                _ => None,
            },
            _ => None,
        }
        .or_else(|| {
            self.error(
                "invalid-provider-reference",
                "Invalid provider configuration reference",
                "The provider argument requires a provider type name, optionally followed by a period and then a configuration alias.",
                e.span,
            );
            None
        })
    }

    fn depends_on(&mut self, e: &ast::Expr) -> Vec<(Reference, Span)> {
        let ExprKind::Tuple(items) = &e.kind else {
            self.error(
                "invalid-depends-on",
                "Invalid depends_on value",
                "depends_on must be a list of references to resources or other objects, like [terraform_data.a].",
                e.span,
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for it in items {
            let id = self.expr(it);
            match &self.hir.exprs[id] {
                Expr::Ref(r @ (Reference::Resource(_) | Reference::Var(_) | Reference::Local(_) | Reference::Module(_))) => out.push((r.clone(), it.span)),
                _ => self.error(
                    "invalid-depends-on",
                    "Invalid depends_on reference",
                    "References in depends_on must be to a whole object (resource, etc), not to an attribute of an object.",
                    it.span,
                ),
            }
        }
        out
    }

    fn body(&mut self, body: &ast::Body) -> BlockBody {
        let mut out = BlockBody {
            attrs: Vec::new(),
            blocks: Vec::new(),
            span: Some(body.span),
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
                        let prev_span = prev.name_span;
                        self.hir.diagnostics.push(
                            Diagnostic::error("attribute-redefined", "Attribute redefined")
                                .with_detail(format!("The argument {:?} was already set. Each argument may be set only once.", a.name.name))
                                .with_span(a.name.span)
                                .with_label(prev_span, "first set here"),
                        );
                        continue;
                    }
                    let expr = self.expr(&a.expr);
                    out.attrs.push(HirAttr {
                        name: a.name.name.to_string(),
                        name_span: a.name.span,
                        expr,
                        span: a.span,
                    });
                }
                BodyItem::Block(b) if b.ty.name.as_str() == "dynamic" && !self.json => {
                    if let Some(block) = self.dynamic_block(b) {
                        out.blocks.push(block);
                    }
                }
                BodyItem::Block(b) => {
                    let inner = self.body(&b.body);
                    out.blocks.push(HirBlock {
                        ty: b.ty.name.to_string(),
                        ty_span: b.ty.span,
                        labels: b.labels.iter().map(|l| l.value.to_string()).collect(),
                        body: inner,
                        span: b.span,
                        dynamic: None,
                    });
                }
            }
        }
        out
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
        match &a.expr.kind {
            ExprKind::Bool(b) => Some(*b),
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

    // ---- expressions ----

    fn alloc(&mut self, e: Expr, span: Span) -> ExprId {
        let id = self.hir.exprs.alloc(e);
        self.hir.spans.insert(id, span);
        id
    }

    /// Record where `id` starts for diagnostics (see [`FileHir::start_span`]).
    fn set_start(&mut self, id: ExprId, start: Span) {
        if self.hir.spans.get(id) != Some(&start) {
            self.hir.start_spans.insert(id, start);
        }
    }

    fn start_of(&self, id: ExprId) -> Span {
        self.hir
            .start_span(id)
            .unwrap_or(Span::new(self.file, 0..0))
    }

    /// The first character of `span` (an opening bracket or an operator symbol).
    fn first_char(span: Span) -> Span {
        Span {
            end: (span.start + 1).min(span.end),
            ..span
        }
    }

    fn missing(&mut self, span: Span) -> ExprId {
        self.alloc(Expr::Missing, span)
    }

    /// Lower one expression; deep nesting continues on a fresh stack segment.
    fn expr(&mut self, e: &ast::Expr) -> ExprId {
        stacker::maybe_grow(128 * 1024, 4 << 20, || self.expr_here(e))
    }

    fn expr_here(&mut self, e: &ast::Expr) -> ExprId {
        let span = e.span;
        match &e.kind {
            ExprKind::Null => {
                self.alloc(Expr::Literal(Value::null(ferro_value::Type::Dynamic)), span)
            }
            ExprKind::Bool(b) => self.alloc(Expr::Literal(Value::bool(*b)), span),
            ExprKind::Number(text) => match Number::parse(text) {
                Some(n) => self.alloc(Expr::Literal(Value::number(n)), span),
                None => {
                    self.error(
                        "invalid-number",
                        "Invalid number literal",
                        format!("{text:?} is not a valid number."),
                        span,
                    );
                    self.missing(span)
                }
            },
            ExprKind::Template(t) => self.template(t, span),
            ExprKind::Variable(_) | ExprKind::GetAttr { .. } | ExprKind::Index { .. } => {
                self.traversal(e)
            }
            ExprKind::Splat {
                target,
                kind,
                steps,
                marker_span,
            } => {
                let target = self.expr(target);
                let mut body = self.alloc(Expr::SplatElem, span);
                for step in steps {
                    body = match step {
                        TraversalStep::GetAttr { name, span: s } => self.alloc(
                            Expr::GetAttr {
                                target: body,
                                name: name.name.to_string(),
                            },
                            *s,
                        ),
                        TraversalStep::Index { key, span: s, .. } => {
                            if *kind == SplatKind::Attr {
                                // Attribute-only splats cannot carry index steps; the parser does not
                                // produce them, but stay safe.
                            }
                            let k = self.expr(key);
                            self.alloc(
                                Expr::Index {
                                    target: body,
                                    key: k,
                                },
                                *s,
                            )
                        }
                    };
                }
                let id = self.alloc(Expr::Splat { target, body }, span);
                self.set_start(id, *marker_span);
                id
            }
            ExprKind::FunctionCall(call) => {
                let args = call.args.iter().map(|a| self.expr(a)).collect();
                let id = self.alloc(
                    Expr::Call {
                        name: call.name.name.to_string(),
                        args,
                        expand_final: call.expand_final,
                    },
                    span,
                );
                self.set_start(id, call.name.span.to(call.open_paren));
                id
            }
            ExprKind::Tuple(items) => {
                let items = items.iter().map(|a| self.expr(a)).collect();
                let id = self.alloc(Expr::Tuple(items), span);
                self.set_start(id, Self::first_char(span));
                id
            }
            ExprKind::Object(items) => {
                let mut out = Vec::new();
                for it in items {
                    let k = match &it.key {
                        ObjectKey::Ident(id) => {
                            self.alloc(Expr::Literal(Value::string(id.name.as_str())), id.span)
                        }
                        ObjectKey::Expr(k) => self.expr(k),
                    };
                    let v = self.expr(&it.value);
                    out.push((k, v));
                }
                let id = self.alloc(Expr::Object(out), span);
                self.set_start(id, Self::first_char(span));
                id
            }
            ExprKind::Unary { op, operand } => {
                let operand = self.expr(operand);
                let id = self.alloc(Expr::Unary { op: *op, operand }, span);
                self.set_start(id, Self::first_char(span));
                id
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let lhs = self.expr(lhs);
                let rhs = self.expr(rhs);
                let id = self.alloc(Expr::Binary { op: *op, lhs, rhs }, span);
                self.set_start(id, self.start_of(lhs));
                id
            }
            ExprKind::Conditional {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.expr(cond);
                let then = self.expr(then);
                let otherwise = self.expr(otherwise);
                let id = self.alloc(
                    Expr::Conditional {
                        cond,
                        then,
                        otherwise,
                    },
                    span,
                );
                self.set_start(id, self.start_of(cond));
                id
            }
            ExprKind::ForTuple(f) => {
                let ast::ForTuple {
                    key_var,
                    value_var,
                    collection,
                    value,
                    cond,
                } = &**f;
                let collection = self.expr(collection);
                let pushed = self.push_for_vars(key_var.as_ref(), value_var);
                let value = self.expr(value);
                let cond = cond.as_ref().map(|c| self.expr(c));
                self.for_scope.truncate(self.for_scope.len() - pushed);
                let e = Expr::For {
                    key_var: key_var.as_ref().map(|k| k.name.to_string()),
                    value_var: value_var.name.to_string(),
                    collection,
                    key: None,
                    value,
                    cond,
                    group: false,
                };
                let id = self.alloc(e, span);
                self.set_start(id, Self::first_char(span));
                id
            }
            ExprKind::ForObject(f) => {
                let ast::ForObject {
                    key_var,
                    value_var,
                    collection,
                    key,
                    value,
                    group,
                    cond,
                } = &**f;
                let collection = self.expr(collection);
                let pushed = self.push_for_vars(key_var.as_ref(), value_var);
                let key = self.expr(key);
                let value = self.expr(value);
                let cond = cond.as_ref().map(|c| self.expr(c));
                self.for_scope.truncate(self.for_scope.len() - pushed);
                let e = Expr::For {
                    key_var: key_var.as_ref().map(|k| k.name.to_string()),
                    value_var: value_var.name.to_string(),
                    collection,
                    key: Some(key),
                    value,
                    cond,
                    group: *group,
                };
                let id = self.alloc(e, span);
                self.set_start(id, Self::first_char(span));
                id
            }
            ExprKind::Parens(inner) => self.expr(inner),
            ExprKind::Error => self.missing(span),
        }
    }

    fn push_for_vars(&mut self, key: Option<&ast::Ident>, value: &ast::Ident) -> usize {
        let mut n = 1;
        if let Some(k) = key {
            self.for_scope.push(k.name.to_string());
            n += 1;
        }
        self.for_scope.push(value.name.to_string());
        n
    }

    fn template(&mut self, t: &ast::Template, span: Span) -> ExprId {
        if let [ast::TemplatePart::Interpolation { expr, .. }] = t.parts.as_slice() {
            let inner = self.expr(expr);
            return self.alloc(Expr::TemplateWrap(inner), span);
        }
        let parts = self.template_parts(&t.parts);
        // A template starts where its first part does; an empty one at its end (as in HCL).
        let start = match (t.parts.first(), parts.first()) {
            (Some(ast::TemplatePart::Literal { span, .. }), _) => *span,
            (Some(_), Some(TemplatePart::Interp(e))) => self.start_of(*e),
            (Some(_), Some(TemplatePart::If { cond, .. })) => self.start_of(*cond),
            (Some(ast::TemplatePart::For(f)), _) => f.open_span,
            _ => Span {
                start: span.end,
                ..span
            },
        };
        let id = if parts.iter().all(|p| matches!(p, TemplatePart::Literal(_))) {
            let text: String = parts
                .iter()
                .map(|p| match p {
                    TemplatePart::Literal(s) => s.as_str(),
                    _ => "",
                })
                .collect();
            self.alloc(Expr::Literal(Value::string(text)), span)
        } else {
            self.alloc(Expr::Template(parts), span)
        };
        self.set_start(id, start);
        id
    }

    fn template_parts(&mut self, parts: &[ast::TemplatePart]) -> Vec<TemplatePart> {
        let mut out = Vec::new();
        for p in parts {
            match p {
                ast::TemplatePart::Literal { text, .. } => {
                    out.push(TemplatePart::Literal(text.to_string()))
                }
                ast::TemplatePart::Interpolation { expr, .. } => {
                    let e = self.expr(expr);
                    out.push(TemplatePart::Interp(e));
                }
                ast::TemplatePart::If {
                    cond,
                    then,
                    otherwise,
                    ..
                } => {
                    let cond = self.expr(cond);
                    let then = self.template_parts(then);
                    let otherwise = otherwise
                        .as_ref()
                        .map(|o| self.template_parts(o))
                        .unwrap_or_default();
                    out.push(TemplatePart::If {
                        cond,
                        then,
                        otherwise,
                    });
                }
                ast::TemplatePart::For(f) => {
                    let ast::TemplateFor {
                        key_var,
                        value_var,
                        collection,
                        body,
                        ..
                    } = &**f;
                    let collection = self.expr(collection);
                    let pushed = self.push_for_vars(key_var.as_ref(), value_var);
                    let body = self.template_parts(body);
                    self.for_scope.truncate(self.for_scope.len() - pushed);
                    out.push(TemplatePart::For {
                        key_var: key_var.as_ref().map(|k| k.name.to_string()),
                        value_var: value_var.name.to_string(),
                        collection,
                        body,
                    });
                }
            }
        }
        out
    }

    /// A traversal `root.a.b[c]`: classify the root reference, then lower the remaining steps.
    fn traversal(&mut self, e: &ast::Expr) -> ExprId {
        // Flatten from the outside in.
        let mut steps: Vec<&ast::Expr> = Vec::new();
        let mut cur = e;
        while let ExprKind::GetAttr { target, .. } | ExprKind::Index { target, .. } = &cur.kind {
            steps.push(cur);
            cur = target;
        }
        steps.reverse();
        let (mut acc, consumed) = match &cur.kind {
            ExprKind::Variable(root) => match self.root_reference(root, &steps) {
                Some(x) => x,
                None => return self.missing(e.span),
            },
            _ => (self.expr(cur), 0),
        };
        for step in &steps[consumed..] {
            acc = match &step.kind {
                ExprKind::GetAttr {
                    name, step_span, ..
                } => {
                    let id = self.alloc(
                        Expr::GetAttr {
                            target: acc,
                            name: name.name.to_string(),
                        },
                        step.span,
                    );
                    self.hir.step_spans.insert(id, *step_span);
                    id
                }
                ExprKind::Index { key, step_span, .. } => {
                    let k = self.expr(key);
                    let id = self.alloc(
                        Expr::Index {
                            target: acc,
                            key: k,
                        },
                        step.span,
                    );
                    self.hir.step_spans.insert(id, *step_span);
                    // HCL makes an index with a literal key a traversal step (starting where the
                    // whole expression does) and any other index an expression starting at `[`.
                    if !matches!(self.hir.exprs[k], Expr::Literal(_)) {
                        self.set_start(id, Self::first_char(*step_span));
                    }
                    id
                }
                _ => acc,
            };
        }
        acc
    }

    /// Classify `root` followed by `steps`; returns the reference expression and how many steps it used.
    fn root_reference(
        &mut self,
        root: &ast::Ident,
        steps: &[&ast::Expr],
    ) -> Option<(ExprId, usize)> {
        let name = root.name.as_str();
        if self.for_scope.iter().any(|v| v == name) {
            return Some((self.alloc(Expr::ForVar(name.to_string()), root.span), 0));
        }
        let attr = |i: usize| -> Option<(&str, Span)> {
            match steps.get(i).map(|s| &s.kind) {
                Some(ExprKind::GetAttr { name, .. }) => Some((name.name.as_str(), steps[i].span)),
                _ => None,
            }
        };
        let one =
            |this: &mut Self, r: Reference, span: Span| Some((this.alloc(Expr::Ref(r), span), 1));
        match name {
            "var" | "local" => match attr(0) {
                Some((n, span)) => {
                    let r = if name == "var" { Reference::Var(n.to_string()) } else { Reference::Local(n.to_string()) };
                    one(self, r, span)
                }
                None => {
                    let what = if name == "var" { "input variable" } else { "local value" };
                    self.error(
                        "invalid-reference",
                        "Invalid reference",
                        format!("The {name:?} object cannot be accessed directly. Instead, access one of its attributes, naming the {what}."),
                        root.span,
                    );
                    None
                }
            },
            "count" => match attr(0) {
                Some(("index", span)) => one(self, Reference::CountIndex, span),
                _ => {
                    self.error("invalid-reference", "Invalid \"count\" attribute", "The \"count\" object does not have an attribute named as given. The only supported attribute is count.index, which is the index of each instance of a resource block that has the \"count\" argument set.", root.span);
                    None
                }
            },
            "each" => match attr(0) {
                Some(("key", span)) => one(self, Reference::EachKey, span),
                Some(("value", span)) => one(self, Reference::EachValue, span),
                _ => {
                    self.error("invalid-reference", "Invalid \"each\" attribute", "The \"each\" object has two attributes: each.key and each.value.", root.span);
                    None
                }
            },
            "path" => match attr(0) {
                Some(("module", span)) => one(self, Reference::PathModule, span),
                Some(("root", span)) => one(self, Reference::PathRoot, span),
                Some(("cwd", span)) => one(self, Reference::PathCwd, span),
                _ => {
                    self.error("invalid-reference", "Invalid \"path\" attribute", "The \"path\" object has the attributes module, root and cwd.", root.span);
                    None
                }
            },
            "terraform" => match attr(0) {
                Some(("workspace", span)) => one(self, Reference::TerraformWorkspace, span),
                _ => {
                    self.error("invalid-reference", "Invalid \"terraform\" attribute", "The only supported attribute of the \"terraform\" object is terraform.workspace.", root.span);
                    None
                }
            },
            "self" => Some((self.alloc(Expr::Ref(Reference::SelfRef), root.span), 0)),
            "module" => match attr(0) {
                Some((n, span)) => one(self, Reference::Module(n.to_string()), span),
                None => {
                    self.error("invalid-reference", "Invalid reference", "The \"module\" object cannot be accessed directly. Instead, access one of its attributes.", root.span);
                    None
                }
            },
            "data" => match (attr(0), attr(1)) {
                (Some((ty, _)), Some((n, span))) => {
                    let r = Reference::Resource(Resource { mode: ResourceMode::Data, ty: ty.to_string(), name: n.to_string() });
                    Some((self.alloc(Expr::Ref(r), span), 2))
                }
                _ => {
                    self.error("invalid-reference", "Invalid data resource reference", "A reference to a data source must be followed by at least two attribute accesses, specifying the data source type and name.", root.span);
                    None
                }
            },
            ty => match attr(0) {
                Some((n, span)) => one(self, Reference::Resource(Resource::managed(ty, n)), span),
                None => {
                    self.error(
                        "invalid-reference",
                        "Invalid reference",
                        "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.".to_string(),
                        root.span,
                    );
                    None
                }
            },
        }
        .map(|(id, n)| {
            // Make the reference's span start at the root name.
            let end = self.hir.spans.get(id).copied().unwrap_or(root.span);
            self.hir.spans.insert(id, root.span.to(end));
            (id, n)
        })
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
pub(crate) fn literal_string(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Template(t) => {
            let mut s = String::new();
            for p in &t.parts {
                match p {
                    ast::TemplatePart::Literal { text, .. } => s.push_str(text),
                    _ => return None,
                }
            }
            Some(s)
        }
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
        hir: FileHir {
            file: Some(file),
            ..FileHir::default()
        },
        for_scope: vars.to_vec(),
        json: false,
    };
    let id = cx.expr(e);
    (cx.hir, id)
}
