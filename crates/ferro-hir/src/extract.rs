//! One item of a file's item tree on its own, with item-local ids.
//!
//! A file's expressions share one arena and its ranges one numbering, so an edit in one item
//! renumbers what comes after it. [`ItemTree::extract`] copies one item into an item tree of
//! its own whose expression ids and range ids count from zero in the item's own order, and
//! says where each came from ([`Origins`]). The copy of an item that did not change is equal
//! whatever changed around it: analysis that reads only the copy (the validation of one item)
//! does not run again for an edit elsewhere in the file.

use crate::expr::{child_exprs_mut, Expr, ExprId, Reference};
use crate::items::*;
use la_arena::Arena;

/// Which item of a file's item tree: its kind and its position among the items of that kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemKey {
    Variable(u32),
    Local(u32),
    Output(u32),
    Resource(u32),
    Provider(u32),
    ModuleCall(u32),
    Check(u32),
}

/// The file's ids an extracted item's ids stand for: by local expression id, and by local
/// range id (`SpanId::Index(n)`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origins {
    pub exprs: Vec<ExprId>,
    pub spans: Vec<SpanId>,
}

impl Origins {
    /// The file's expression id of a local one.
    pub fn expr(&self, local: ExprId) -> ExprId {
        self.exprs
            .get(local.into_raw().into_u32() as usize)
            .copied()
            .unwrap_or(local)
    }

    /// The file's range id of a local one (fixed ranges stand for themselves).
    pub fn span(&self, local: SpanId) -> SpanId {
        match local {
            SpanId::Index(n) => self.spans.get(n as usize).copied().unwrap_or(local),
            SpanId::Fixed(_) => local,
        }
    }
}

/// Copies expressions into a new arena and ranges into a new numbering; or, to take the
/// signatures of items (`strip`), leaves expressions and ranges out.
struct Copier<'a> {
    from: &'a Arena<Expr>,
    exprs: Arena<Expr>,
    origins: Origins,
    strip: bool,
}

/// What a stripped item's expression ids all become: an id of no expression.
pub(crate) fn no_expr() -> ExprId {
    ExprId::from_raw(la_arena::RawIdx::from_u32(u32::MAX))
}

impl Copier<'_> {
    fn expr(&mut self, e: &mut ExprId) {
        if self.strip {
            *e = no_expr();
            return;
        }
        // Deeply nested expressions (long operator chains) move to a fresh stack segment, as
        // lowering and evaluation do.
        stacker::maybe_grow(64 * 1024, 2 << 20, || self.expr_here(e))
    }

    fn expr_here(&mut self, e: &mut ExprId) {
        let mut x = self.from[*e].clone();
        child_exprs_mut(&mut x, &mut |c| self.expr(c));
        let local = self.exprs.alloc(x);
        debug_assert_eq!(
            local.into_raw().into_u32() as usize,
            self.origins.exprs.len()
        );
        self.origins.exprs.push(*e);
        *e = local;
    }

    fn opt(&mut self, e: &mut Option<ExprId>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn span(&mut self, s: &mut SpanId) {
        if self.strip {
            return;
        }
        if let SpanId::Index(_) = s {
            self.origins.spans.push(*s);
            *s = SpanId::Index(self.origins.spans.len() as u32 - 1);
        }
    }

    fn condition(&mut self, c: &mut Condition) {
        self.expr(&mut c.condition);
        self.expr(&mut c.error_message);
        self.span(&mut c.span);
    }

    fn refs(&mut self, refs: &mut [(crate::Reference, SpanId)]) {
        for (_, s) in refs {
            self.span(s);
        }
    }

    fn attr(&mut self, a: &mut HirAttr) {
        self.span(&mut a.name_span);
        self.expr(&mut a.expr);
        self.span(&mut a.span);
    }

    fn body(&mut self, b: &mut BlockBody) {
        for a in &mut b.attrs {
            self.attr(a);
        }
        for blk in &mut b.blocks {
            self.span(&mut blk.ty_span);
            if let Some(d) = &mut blk.dynamic {
                self.expr(&mut d.for_each);
                d.labels.iter_mut().for_each(|l| self.expr(l));
                if let Some((n, v)) = &mut d.labels_at {
                    self.span(n);
                    self.span(v);
                }
                self.span(&mut d.missing_item);
            }
            self.body(&mut blk.body);
            self.span(&mut blk.span);
        }
        if let Some(s) = &mut b.span {
            self.span(s);
        }
    }

    fn variable(&mut self, v: &mut Variable) {
        self.span(&mut v.span);
        if let Some(s) = &mut v.type_span {
            self.span(s);
        }
        self.opt(&mut v.default);
        for r in &mut v.validations {
            self.expr(&mut r.condition);
            self.expr(&mut r.error_message);
            self.span(&mut r.span);
        }
    }

    fn local(&mut self, l: &mut Local) {
        self.span(&mut l.span);
        self.span(&mut l.decl_span);
        self.expr(&mut l.expr);
    }

    fn output(&mut self, o: &mut Output) {
        self.span(&mut o.span);
        self.opt(&mut o.value);
        self.refs(&mut o.depends_on);
        o.preconditions.iter_mut().for_each(|c| self.condition(c));
    }

    fn resource(&mut self, r: &mut ResourceDecl) {
        self.span(&mut r.span);
        self.opt(&mut r.count);
        self.opt(&mut r.for_each);
        self.opt(&mut r.enabled);
        self.opt(&mut r.provider_key);
        self.body(&mut r.body);
        self.refs(&mut r.depends_on);
        if let Some((_, _, s)) = &mut r.provider {
            self.span(s);
        }
        let l = &mut r.lifecycle;
        l.ignore_changes_spans.iter_mut().for_each(|s| self.span(s));
        l.replace_triggered_by.iter_mut().for_each(|e| self.expr(e));
        l.preconditions.iter_mut().for_each(|c| self.condition(c));
        l.postconditions.iter_mut().for_each(|c| self.condition(c));
        for p in &mut r.provisioners {
            self.body(&mut p.body);
            if let Some(c) = &mut p.connection {
                self.body(c);
            }
            self.span(&mut p.span);
        }
        if let Some(c) = &mut r.connection {
            self.body(c);
        }
    }

    fn provider(&mut self, p: &mut ProviderBlock) {
        self.span(&mut p.span);
        self.opt(&mut p.for_each);
        self.body(&mut p.body);
    }

    fn module_call(&mut self, c: &mut ModuleCall) {
        self.span(&mut c.span);
        self.span(&mut c.missing_span);
        if let Some((_, s)) = &mut c.source {
            self.span(s);
        }
        if let Some(s) = &mut c.version_span {
            self.span(s);
        }
        if let Some((e, s)) = &mut c.source_expr {
            self.expr(e);
            self.span(s);
        }
        self.opt(&mut c.version_expr);
        self.opt(&mut c.count);
        self.opt(&mut c.for_each);
        self.opt(&mut c.enabled);
        self.refs(&mut c.depends_on);
        for p in &mut c.providers {
            self.span(&mut p.span);
            self.opt(&mut p.parent_key);
        }
        c.inputs.iter_mut().for_each(|a| self.attr(a));
    }

    fn check(&mut self, c: &mut Check) {
        c.asserts.iter_mut().for_each(|a| self.condition(a));
        self.span(&mut c.span);
    }
}

impl ItemTree {
    /// The declarations of the tree without their expressions: names, kinds, labels, declared
    /// types, the arguments set and the references written as addresses (`depends_on`,
    /// `provider`), with the file's range ids; of each resource only its header
    /// ([`ResourceHeader`]). Every expression id in it names no expression (the arena is
    /// empty): what reads a signature asks only whether an expression is there. An edit that
    /// changes values, and adds no argument or block outside resource bodies, leaves it equal.
    pub fn signature(&self) -> Signature {
        let mut c = Copier {
            from: &self.exprs,
            exprs: Arena::new(),
            origins: Origins::default(),
            strip: true,
        };
        // Every field but the expressions (which a signature leaves out, and which are most of
        // the tree).
        let ItemTree {
            file,
            exprs: _,
            variables,
            locals,
            outputs,
            resources,
            providers,
            required_providers,
            module_calls,
            moved,
            removed,
            imports,
            checks,
            required_versions,
        } = self;
        let mut out = ItemTree {
            file: *file,
            exprs: Arena::new(),
            variables: variables.clone(),
            locals: locals.clone(),
            outputs: outputs.clone(),
            // Resources are most of a module's declarations: a header each, beside the tree.
            resources: Vec::new(),
            providers: providers.clone(),
            required_providers: required_providers.clone(),
            module_calls: module_calls.clone(),
            moved: moved.clone(),
            removed: removed.clone(),
            imports: imports.clone(),
            checks: checks.clone(),
            required_versions: required_versions.clone(),
        };
        out.variables.iter_mut().for_each(|v| c.variable(v));
        out.locals.iter_mut().for_each(|l| c.local(l));
        out.outputs.iter_mut().for_each(|o| c.output(o));
        out.providers.iter_mut().for_each(|p| c.provider(p));
        out.module_calls.iter_mut().for_each(|m| c.module_call(m));
        out.checks.iter_mut().for_each(|k| c.check(k));
        for p in out.removed.iter_mut().flat_map(|r| &mut r.provisioners) {
            c.body(&mut p.body);
            if let Some(cn) = &mut p.connection {
                c.body(cn);
            }
            c.span(&mut p.span);
        }
        for i in &mut out.imports {
            c.expr(i.by.expr_mut());
            c.opt(&mut i.for_each);
            if let ImportKey::Expr(e) = &mut i.key {
                c.expr(e);
            }
        }
        Signature {
            tree: out,
            resources: resources.iter().map(ResourceHeader::of).collect(),
        }
    }

    /// The keys of the items [`ItemTree::extract`] takes apart, in the tree's order of kinds.
    pub fn keys(&self) -> Vec<ItemKey> {
        let n = |len: usize| 0..len as u32;
        n(self.variables.len())
            .map(ItemKey::Variable)
            .chain(n(self.locals.len()).map(ItemKey::Local))
            .chain(n(self.outputs.len()).map(ItemKey::Output))
            .chain(n(self.providers.len()).map(ItemKey::Provider))
            .chain(n(self.module_calls.len()).map(ItemKey::ModuleCall))
            .chain(n(self.resources.len()).map(ItemKey::Resource))
            .chain(n(self.checks.len()).map(ItemKey::Check))
            .collect()
    }

    /// The item `key` alone in an item tree of its own (the file's other declarations left
    /// out), with item-local ids, and where those ids came from.
    pub fn extract(&self, key: ItemKey) -> Option<(ItemTree, Origins)> {
        let mut c = Copier {
            from: &self.exprs,
            exprs: Arena::new(),
            origins: Origins::default(),
            strip: false,
        };
        let mut out = ItemTree {
            file: self.file,
            ..ItemTree::default()
        };
        let at = |i: u32| i as usize;
        match key {
            ItemKey::Variable(i) => {
                let mut v = self.variables.get(at(i))?.clone();
                c.variable(&mut v);
                out.variables.push(v);
            }
            ItemKey::Local(i) => {
                let mut l = self.locals.get(at(i))?.clone();
                c.local(&mut l);
                out.locals.push(l);
            }
            ItemKey::Output(i) => {
                let mut o = self.outputs.get(at(i))?.clone();
                c.output(&mut o);
                out.outputs.push(o);
            }
            ItemKey::Resource(i) => {
                let mut r = self.resources.get(at(i))?.clone();
                c.resource(&mut r);
                out.resources.push(r);
            }
            ItemKey::Provider(i) => {
                let mut p = self.providers.get(at(i))?.clone();
                c.provider(&mut p);
                out.providers.push(p);
            }
            ItemKey::ModuleCall(i) => {
                let mut m = self.module_calls.get(at(i))?.clone();
                c.module_call(&mut m);
                out.module_calls.push(m);
            }
            ItemKey::Check(i) => {
                let mut k = self.checks.get(at(i))?.clone();
                c.check(&mut k);
                out.checks.push(k);
            }
        }
        out.exprs = c.exprs;
        Some((out, c.origins))
    }
}

/// A file's declarations without their expressions ([`ItemTree::signature`]): every kind of
/// item but resources as the tree has them (read through `Deref`), and each resource's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature {
    tree: ItemTree,
    /// The resources' headers, in the tree's order of resources.
    pub resources: Vec<ResourceHeader>,
}

impl std::ops::Deref for Signature {
    type Target = ItemTree;
    fn deref(&self) -> &ItemTree {
        &self.tree
    }
}

/// What the structure of a module needs of a resource: its address and header's range, which
/// of `count`, `for_each` and `enabled` it sets, and what few resources have (`depends_on`, a
/// `provider` argument, the `check` a scoped data source is declared in), kept aside so that
/// a header is small.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceHeader {
    pub addr: ferro_addrs::Resource,
    pub span: SpanId,
    pub count: bool,
    pub for_each: bool,
    pub enabled: bool,
    /// `provider = name.alias[KEY]` (OpenTofu 1.9).
    pub provider_key: bool,
    rare: Option<Box<RareHeader>>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct RareHeader {
    depends_on: Vec<(Reference, SpanId)>,
    provider: Option<(String, Option<String>, SpanId)>,
    check: Option<String>,
}

impl ResourceHeader {
    pub fn of(r: &ResourceDecl) -> ResourceHeader {
        let rare =
            (!r.depends_on.is_empty() || r.provider.is_some() || r.check.is_some()).then(|| {
                Box::new(RareHeader {
                    depends_on: r.depends_on.clone(),
                    provider: r.provider.clone(),
                    check: r.check.clone(),
                })
            });
        ResourceHeader {
            addr: r.addr.clone(),
            span: r.span,
            count: r.count.is_some(),
            for_each: r.for_each.is_some(),
            enabled: r.enabled.is_some(),
            provider_key: r.provider_key.is_some(),
            rare,
        }
    }

    /// `depends_on`, with each entry's range.
    pub fn depends_on(&self) -> &[(Reference, SpanId)] {
        self.rare.as_deref().map_or(&[], |r| &r.depends_on)
    }

    /// `provider = name` or `name.alias`, with its range.
    pub fn provider(&self) -> Option<&(String, Option<String>, SpanId)> {
        self.rare.as_deref().and_then(|r| r.provider.as_ref())
    }

    /// The `check` block a scoped data source is declared in.
    pub fn check(&self) -> Option<&String> {
        self.rare.as_deref().and_then(|r| r.check.as_ref())
    }

    /// The provider configuration it names (see [`ResourceDecl::provider_ref`]).
    pub fn provider_ref(&self) -> (&str, Option<&str>) {
        match self.provider() {
            Some((local, alias, _)) => (local, alias.as_deref()),
            None => (self.addr.implied_provider(), None),
        }
    }
}
