//! The checks of references: that each names something the module declares, with the
//! instance keys, attributes and scopes Terraform requires of it before planning.

use super::*;

impl Validator<'_> {
    pub(super) fn references(&mut self, e: ExprId, meta: Meta) {
        self.check_eval(e);
        // One walk: every reference root, and the instance keys applied to resources.
        let exprs = &self.tree.exprs;
        let resource = |id: ExprId| match &exprs[id] {
            Expr::Ref(Reference::Resource(r)) => Some(r),
            _ => None,
        };
        let (mut found, mut keys) = (Vec::new(), Vec::new());
        // `module.x.out`, `module.x[0].out`: Terraform's range for a reference to a module
        // call takes in the instance key and the output named after it.
        let mut parents: std::collections::HashMap<ExprId, (ExprId, bool)> =
            std::collections::HashMap::new();
        let mut resources = Vec::new();
        walk_exprs(exprs, e, &mut |id, x| match x {
            Expr::Ref(r) => {
                if let Reference::Resource(res) = r {
                    resources.push((id, res.clone()));
                }
                found.push((id, r.clone()))
            }
            Expr::Index { target, .. } => {
                if let Some(r) = resource(*target) {
                    keys.push((id, *target, r.clone(), true));
                }
                parents.insert(*target, (id, true));
            }
            Expr::GetAttr { target, .. } => {
                if let Some(r) = resource(*target) {
                    keys.push((*target, *target, r.clone(), false));
                }
                parents.insert(*target, (id, false));
            }
            _ => {}
        });
        // What the module declares for each resource named, asked once per reference.
        let declared: std::collections::HashMap<ExprId, Option<crate::Declared>> = resources
            .iter()
            .map(|(id, r)| (*id, self.declared(Name::Resource(r.clone()))))
            .collect();
        for (id, r) in found {
            let at = match r {
                Reference::Module(_) => {
                    let mut at = id;
                    if let Some(&(p, true)) = parents.get(&at) {
                        at = p;
                    }
                    if let Some(&(p, false)) = parents.get(&at) {
                        at = p;
                    }
                    at
                }
                _ => id,
            };
            if let Reference::Module(call) = &r {
                self.deprecated_output(call, at);
            }
            let resource = declared.get(&id).cloned();
            self.check_ref_declared(&r, At::Expr(at), meta, resource);
        }
        for (id, target, r, indexed) in keys {
            if let Some(Some(d)) = declared.get(&target) {
                self.instance_key(id, &r, indexed, d);
            }
        }
        for (id, r) in &resources {
            if let Some(Some(_)) = declared.get(id) {
                self.resource_traversal(*id, r, &parents);
            }
        }
    }

    /// OpenTofu's warning for a reference (`at`, `module.NAME.OUT`) to an output its module
    /// marks deprecated.
    pub(super) fn deprecated_output(&mut self, call: &str, at: ExprId) {
        let Expr::GetAttr { name, target } = &self.tree.exprs[at] else {
            return;
        };
        let Some(&child) = self.children.get(call) else {
            return;
        };
        if let Some(msg) = modules::deprecations(self.db, child).outputs.get(name) {
            // The module instance as OpenTofu names it, when the key is written literally.
            let key = match &self.tree.exprs[*target] {
                Expr::Index { key, .. } => match &self.tree.exprs[*key] {
                    Expr::Literal(v) => match (v.as_str(), v.as_number()) {
                        (Some(s), _) => format!("[{s:?}]"),
                        (_, Some(n)) => format!("[{n}]"),
                        _ => String::new(),
                    },
                    _ => String::new(),
                },
                _ => String::new(),
            };
            let d = Diagnostic::warning("deprecated-output", "Value derived from a deprecated source")
                .with_detail(format!("This value is derived from module.{call}{key}.{name}, which is deprecated with the following message:\n\n{msg}"));
            self.out.push(d.found(self.file, At::Expr(at)));
        }
    }

    /// The attributes a reference to a declared resource takes, checked against its schema as
    /// Terraform checks them before planning: after an optional instance key, each name must
    /// be an argument, an exported attribute or a nested block of the object (nested blocks of
    /// single or group nesting are followed). `r` is declared.
    pub(super) fn resource_traversal(
        &mut self,
        id: ExprId,
        r: &ferro_addrs::Resource,
        parents: &std::collections::HashMap<ExprId, (ExprId, bool)>,
    ) {
        let Some(schema) = self.schemas.resources.get(&(r.mode, r.ty.to_string())) else {
            return;
        };
        let mut at = id;
        if let Some(&(p, true)) = parents.get(&at) {
            at = p;
        }
        let mut block = &schema.block;
        while let Some(&(p, false)) = parents.get(&at) {
            let Expr::GetAttr { name, .. } = &self.tree.exprs[p] else {
                return;
            };
            if block.attributes.contains_key(name) {
                return;
            }
            match block.block_types.get(name) {
                Some(nb)
                    if matches!(
                        nb.nesting,
                        ferro_value::schema::NestingMode::Single
                            | ferro_value::schema::NestingMode::Group
                    ) =>
                {
                    block = &nb.block;
                    at = p;
                }
                Some(_) => return,
                None => {
                    let d = unsupported_attribute(name, block);
                    self.out.push(d.found(self.file, At::ExprStep(p)));
                    return;
                }
            }
        }
    }

    /// An instance key on a declared resource without `count`/`for_each` (`indexed`), or an
    /// attribute taken directly from one with them: wrong for every possible value, as Terraform
    /// reports statically. `id` is the expression the error points at; `declared` is what the
    /// module declares for `r`.
    pub(super) fn instance_key(
        &mut self,
        id: ExprId,
        r: &ferro_addrs::Resource,
        indexed: bool,
        declared: &crate::Declared,
    ) {
        let expansion = declared.expansion;
        let d = if indexed {
            if expansion.is_some() {
                return;
            }
            Diagnostic::error("unexpected-instance-key", "Unexpected resource instance key").with_detail(format!(
                "Because {r} does not have \"count\" or \"for_each\" set, references to it must not include an index key. Remove the bracketed index to refer to the single instance of this resource."
            ))
        } else {
            let (arg, key) = match &expansion {
                Some(Expansion::Count) => ("count", "count.index"),
                Some(Expansion::ForEach) => ("for_each", "each.key"),
                None => return,
            };
            Diagnostic::error("missing-instance-key", "Missing resource instance key").with_detail(format!(
                "Because {r} has \"{arg}\" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    {r}[{key}]"
            ))
        };
        self.out.push(d.found(self.file, At::Expr(id)));
    }

    pub(super) fn body_references(&mut self, body: &BlockBody, meta: Meta) {
        for a in &body.attrs {
            self.references(a.expr, meta);
        }
        for b in &body.blocks {
            if let Some(d) = &b.dynamic {
                self.references(d.for_each, meta);
                for l in &d.labels {
                    self.references(*l, meta);
                }
            }
            self.body_references(&b.body, meta);
        }
    }

    pub(super) fn check_ref(&mut self, r: &Reference, at: At, meta: Meta) {
        let resource = match r {
            Reference::Resource(res) => Some(self.declared(Name::Resource(res.clone()))),
            _ => None,
        };
        self.check_ref_declared(r, at, meta, resource)
    }

    /// [`Validator::check_ref`] with what the module declares for a resource reference given
    /// (`resource`: asked already).
    pub(super) fn check_ref_declared(
        &mut self,
        r: &Reference,
        at: At,
        meta: Meta,
        resource: Option<Option<crate::Declared>>,
    ) {
        let declared_resource = resource.flatten();
        let d = match r {
            Reference::Var(n) if self.declared(Name::Variable(n.clone())).is_none() => {
                Some(undeclared_variable(n, suggest(n, self.index().variables.keys())))
            }
            Reference::Local(n) if self.declared(Name::Local(n.clone())).is_none() => {
                Some(undeclared_local(n, suggest(n, self.index().locals.keys())))
            }
            Reference::Resource(res)
                if declared_resource.as_ref().and_then(|d| d.check.as_ref()).is_some_and(|c| self.check_scope.as_ref() != Some(c)) =>
            {
                Some(
                    Diagnostic::error("scoped-reference", "Reference to scoped resource")
                        .with_detail(format!(
                            "The referenced data resource {:?} {:?} is not available from this context.",
                            res.ty, res.name
                        )),
                )
            }
            Reference::Resource(res) if declared_resource.is_none() => {
                let what = match res.mode {
                    ferro_addrs::ResourceMode::Data => "A data resource",
                    ferro_addrs::ResourceMode::Managed => "A managed resource",
                    ferro_addrs::ResourceMode::Ephemeral => "An ephemeral resource",
                };
                Some(Diagnostic::error("undeclared-reference", "Reference to undeclared resource").with_detail(format!(
                    "{what} {:?} {:?} has not been declared in {}.",
                    res.ty, res.name, self.module_name
                )))
            }
            Reference::Module(n) if self.declared(Name::ModuleCall(n.clone())).is_none() => Some(
                Diagnostic::error("undeclared-module", "Reference to undeclared module").with_detail(
                    match suggest(n, self.index().module_calls.keys()) {
                        Some(close) => format!("No module call named {n:?} is declared in {}. Did you mean {close:?}?", self.module_name),
                        None => format!("No module call named {n:?} is declared in {}.", self.module_name),
                    },
                ),
            ),
            // The contexts where `self` means something (provisioners, connection blocks,
            // postconditions) are not checked here.
            Reference::SelfRef => Some(
                Diagnostic::error("invalid-self-reference", "Invalid \"self\" reference").with_detail(
                    "The \"self\" object is not available in this context. This object can be used only in resource provisioner and connection blocks.",
                ),
            ),
            Reference::CountIndex if meta != Meta::Count => Some(
                Diagnostic::error("invalid-count-reference", "Reference to \"count\" in non-counted context").with_detail(
                    "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.",
                ),
            ),
            Reference::EachKey | Reference::EachValue if meta != Meta::ForEach => Some(
                Diagnostic::error("invalid-each-reference", "Reference to \"each\" in context without for_each").with_detail(
                    "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.",
                ),
            ),
            _ => None,
        };
        if let Some(d) = d {
            self.out.push(d.found(self.file, at));
        }
    }
}
