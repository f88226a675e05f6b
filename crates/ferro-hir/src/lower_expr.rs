//! Lowering expressions: literals, templates, operators, function calls, `for` expressions,
//! splats, and traversals whose roots are classified into references (`var.x`, `local.y`,
//! resources, `module.NAME`, `count.index`, `each.*`, `path.*`, …).

use super::*;

impl Lower {
    pub(super) fn alloc(&mut self, e: Expr, span: Span) -> ExprId {
        let id = self.hir.exprs.alloc(e);
        self.map.expr_spans.insert(id, span);
        id
    }

    /// Record where `id` starts for diagnostics (see [`FileHir::start_span`]).
    pub(super) fn set_start(&mut self, id: ExprId, start: Span) {
        if self.map.expr_spans.get(id) != Some(&start) {
            self.map.start_spans.insert(id, start);
        }
    }

    pub(super) fn start_of(&self, id: ExprId) -> Span {
        self.map
            .start_span(id)
            .unwrap_or(Span::new(self.file, 0..0))
    }

    /// The first character of `span` (an opening bracket or an operator symbol).
    pub(super) fn first_char(span: Span) -> Span {
        Span {
            end: (span.start + 1).min(span.end),
            ..span
        }
    }

    /// A type constraint written as a function argument (`convert`'s `type`).
    fn type_constraint_arg(&mut self, e: &ast::Expr) -> ExprId {
        match crate::type_expr::lower_type_constraint(self.file, e) {
            Ok((ty, defaults)) => {
                let id = self.alloc(Expr::TypeConstraint { ty, defaults }, e.span);
                self.set_start(id, e.span);
                id
            }
            Err(d) => {
                self.map.diagnostics.push(d);
                self.missing(e.span)
            }
        }
    }

    pub(super) fn missing(&mut self, span: Span) -> ExprId {
        self.alloc(Expr::Missing, span)
    }

    /// Lower one expression; deep nesting continues on a fresh stack segment.
    pub(super) fn expr(&mut self, e: &ast::Expr) -> ExprId {
        stacker::maybe_grow(128 * 1024, 4 << 20, || self.expr_here(e))
    }

    pub(super) fn expr_here(&mut self, e: &ast::Expr) -> ExprId {
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
                let args = call
                    .args
                    .iter()
                    .enumerate()
                    .map(|(i, a)| {
                        // `convert`'s second argument is type syntax (HCL's custom decoder).
                        if call.name.name.as_str() == "convert" && i == 1 && !call.expand_final {
                            self.type_constraint_arg(a)
                        } else {
                            self.expr(a)
                        }
                    })
                    .collect();
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
                    let v = if self.json && object_key(&it.key).as_deref() == Some("dynamic") {
                        self.json_dynamic_generators(&it.value)
                    } else {
                        self.expr(&it.value)
                    };
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

    pub(super) fn push_for_vars(&mut self, key: Option<&ast::Ident>, value: &ast::Ident) -> usize {
        let mut n = 1;
        if let Some(k) = key {
            self.for_scope.push(k.name.to_string());
            n += 1;
        }
        self.for_scope.push(value.name.to_string());
        n
    }

    pub(super) fn template(&mut self, t: &ast::Template, span: Span) -> ExprId {
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

    pub(super) fn template_parts(&mut self, parts: &[ast::TemplatePart]) -> Vec<TemplatePart> {
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
    pub(super) fn traversal(&mut self, e: &ast::Expr) -> ExprId {
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
                    self.map.step_spans.insert(id, *step_span);
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
                    self.map.step_spans.insert(id, *step_span);
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
    pub(super) fn root_reference(
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
                    self.bad_object_attribute(root, steps, None);
                    None
                }
            },
            "count" => match attr(0) {
                Some(("index", span)) => one(self, Reference::CountIndex, span),
                _ => {
                    self.bad_object_attribute(root, steps, Some(" The only supported attribute is count.index, which is the index of each instance of a resource block that has the \"count\" argument set."));
                    None
                }
            },
            "each" => match attr(0) {
                Some(("key", span)) => one(self, Reference::EachKey, span),
                Some(("value", span)) => one(self, Reference::EachValue, span),
                _ => {
                    self.bad_object_attribute(root, steps, Some(" The supported attributes are each.key and each.value, the current key and value pair of the \"for_each\" attribute set."));
                    None
                }
            },
            "path" => match attr(0) {
                Some(("module", span)) => one(self, Reference::PathModule, span),
                Some(("root", span)) => one(self, Reference::PathRoot, span),
                Some(("cwd", span)) => one(self, Reference::PathCwd, span),
                _ => {
                    self.bad_object_attribute(root, steps, Some(""));
                    None
                }
            },
            "terraform" => match attr(0) {
                Some(("workspace", span)) => one(self, Reference::TerraformWorkspace, span),
                Some(("applying", span)) => one(self, Reference::TerraformApplying, span),
                _ => {
                    self.bad_object_attribute(root, steps, Some(" The only supported attributes are terraform.workspace, the name of the currently-selected workspace, and terraform.applying, a boolean which is true only during apply."));
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
                    let r = Reference::Resource(Resource { mode: ResourceMode::Data, ty: (*ty).into(), name: (*n).into() });
                    Some((self.alloc(Expr::Ref(r), span), 2))
                }
                _ => {
                    // Terraform points at what there is of the reference.
                    let span = match attr(0) {
                        Some((_, span)) => root.span.to(span),
                        None => root.span,
                    };
                    self.error("invalid-reference", "Invalid reference", "The \"data\" object must be followed by two attribute names: the data source type and the resource name.", span);
                    None
                }
            },
            "ephemeral" => match (attr(0), attr(1)) {
                (Some((ty, _)), Some((n, span))) => {
                    let r = Reference::Resource(Resource { mode: ResourceMode::Ephemeral, ty: (*ty).into(), name: (*n).into() });
                    Some((self.alloc(Expr::Ref(r), span), 2))
                }
                _ => {
                    let span = match attr(0) {
                        Some((_, span)) => root.span.to(span),
                        None => root.span,
                    };
                    self.error("invalid-reference", "Invalid reference", "The \"ephemeral\" object must be followed by two attribute names: the ephemeral resource type and its name.", span);
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
            let end = self.map.expr_spans.get(id).copied().unwrap_or(root.span);
            self.map.expr_spans.insert(id, root.span.to(end));
            (id, n)
        })
    }
}

impl Lower {
    /// A reference to one of the objects with fixed attributes (`count`, `each`, `path`,
    /// `terraform`; `var` and `local` when not followed by a name) that names none of them,
    /// reported as Terraform's reference parser does: `tail` follows "does not have an
    /// attribute named …" (None: the object has no such message, only a name is missing).
    fn bad_object_attribute(
        &mut self,
        root: &ast::Ident,
        steps: &[&ast::Expr],
        tail: Option<&str>,
    ) {
        let obj = root.name.as_str();
        match steps.first().map(|s| &s.kind) {
            Some(ExprKind::GetAttr { name, .. }) if tail.is_some() => self.error(
                "invalid-reference",
                &format!("Invalid {obj:?} attribute"),
                format!(
                    "The {obj:?} object does not have an attribute named {:?}.{}",
                    name.name.as_str(),
                    tail.unwrap_or_default()
                ),
                steps[0].span,
            ),
            Some(ExprKind::Index { step_span, .. }) => self.error(
                "invalid-reference",
                "Invalid reference",
                format!("The {obj:?} object does not support this operation."),
                *step_span,
            ),
            _ => self.error(
                "invalid-reference",
                "Invalid reference",
                format!("The {obj:?} object cannot be accessed directly. Instead, access one of its attributes."),
                root.span,
            ),
        }
    }
}

/// The text of an object key written as an identifier or a literal string.
fn object_key(k: &ObjectKey) -> Option<String> {
    match k {
        ObjectKey::Ident(id) => Some(id.name.to_string()),
        ObjectKey::Expr(e) => super::literal_string(e),
    }
}

impl Lower {
    /// In a JSON body, a `"dynamic"` property inside an object that the schema may read as a
    /// nested block: `{"type": {"for_each": …, "iterator": "x", "labels": […], "content": {…}}}`
    /// (or arrays of such generators). Lowered as an object, with the iterator in scope in
    /// `labels` and `content` as a `dynamic` block has it; ferro-db's JSON body reader makes the
    /// generators of it.
    fn json_dynamic_generators(&mut self, e: &ast::Expr) -> ExprId {
        if let ExprKind::Tuple(elems) = &e.kind {
            let items = elems
                .iter()
                .map(|x| self.json_dynamic_generators(x))
                .collect();
            return self.alloc(Expr::Tuple(items), e.span);
        }
        let ExprKind::Object(types) = &e.kind else {
            return self.expr(e);
        };
        let mut out = Vec::new();
        for t in types {
            let k = match &t.key {
                ObjectKey::Ident(id) => {
                    self.alloc(Expr::Literal(Value::string(id.name.as_str())), id.span)
                }
                ObjectKey::Expr(k) => self.expr(k),
            };
            let ty = object_key(&t.key).unwrap_or_default();
            let v = match &t.value.kind {
                ExprKind::Tuple(gens) => {
                    let items = gens.iter().map(|g| self.json_generator(&ty, g)).collect();
                    self.alloc(Expr::Tuple(items), t.value.span)
                }
                _ => self.json_generator(&ty, &t.value),
            };
            out.push((k, v));
        }
        let id = self.alloc(Expr::Object(out), e.span);
        self.set_start(id, Self::first_char(e.span));
        id
    }

    /// One generator object of [`Self::json_dynamic_generators`].
    fn json_generator(&mut self, ty: &str, e: &ast::Expr) -> ExprId {
        let ExprKind::Object(props) = &e.kind else {
            return self.expr(e);
        };
        if !props
            .iter()
            .any(|p| object_key(&p.key).as_deref() == Some("content"))
        {
            return self.expr(e);
        }
        let iterator = props
            .iter()
            .find(|p| object_key(&p.key).as_deref() == Some("iterator"))
            .and_then(|p| super::literal_string(&p.value))
            .unwrap_or_else(|| ty.to_string());
        let mut out = Vec::new();
        for p in props {
            let k = match &p.key {
                ObjectKey::Ident(id) => {
                    self.alloc(Expr::Literal(Value::string(id.name.as_str())), id.span)
                }
                ObjectKey::Expr(k) => self.expr(k),
            };
            let scoped = matches!(object_key(&p.key).as_deref(), Some("content" | "labels"));
            if scoped {
                self.for_scope.push(iterator.clone());
            }
            let v = self.expr(&p.value);
            if scoped {
                self.for_scope.pop();
            }
            out.push((k, v));
        }
        let id = self.alloc(Expr::Object(out), e.span);
        self.set_start(id, Self::first_char(e.span));
        id
    }
}
