//! Navigation queries for editors: every place a file names a module-level symbol (its
//! declarations and references, `module.NAME.OUTPUT` and a call's arguments, which name symbols
//! of the called module), which module a file belongs to, what a site resolves to, and the
//! references index of the whole workspace.
//!
//! `file_sites` is per file, so an edit re-runs it for the edited file only; the workspace-wide
//! `references_index` is built from the per-file results when someone asks for it.

use crate::resolve::{resolve_file, symbol_of, SiteKey};
use crate::{file_hir, module_tree, Db, Module, SourceFile, Workspace};
use ferro_addrs::Resource;
use ferro_diag::Span;
use ferro_hir::{Expr, Reference, SpanId};
use std::collections::HashMap;

/// A named item of one module.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Symbol {
    Variable(String),
    Local(String),
    Output(String),
    Resource(Resource),
    ModuleCall(String),
}

impl Symbol {
    /// The identifier a rename replaces (a resource's name, not its type).
    pub fn name(&self) -> &str {
        match self {
            Symbol::Variable(n) | Symbol::Local(n) | Symbol::Output(n) | Symbol::ModuleCall(n) => n,
            Symbol::Resource(r) => &r.name,
        }
    }
}

/// What a site names: a symbol of the file's own module, or one of a module it calls.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SiteTarget {
    Own(Symbol),
    /// `module.CALL.OUTPUT` (an output) or an argument of `module "CALL"` (a variable).
    Child {
        call: String,
        symbol: Symbol,
    },
    /// The `source` of `module "CALL"`: the called module's directory.
    ModuleSource(String),
}

/// One occurrence of a symbol in a file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Site {
    /// The whole reference (`var.x`, `aws_instance.web`) or the declaration's header.
    pub span: Span,
    /// The identifier itself: what a rename edits.
    pub name_span: Span,
    pub target: SiteTarget,
    pub declaration: bool,
    /// The site without its position, by which [`crate::resolve_file`] knows it.
    pub key: SiteKey,
}

/// Every site of a file, ordered by position.
#[salsa::tracked(returns(ref))]
pub fn file_sites(db: &dyn Db, file: SourceFile) -> Vec<Site> {
    let hir = file_hir(db, file);
    let text = file.text(db);
    let mut out = Vec::new();
    let own = |s: Symbol| SiteTarget::Own(s);
    let decl = |id: SpanId, name: &str, target: SiteTarget, out: &mut Vec<Site>| {
        let span = hir.at(id);
        out.push(Site {
            span,
            name_span: label_span(text, span, name),
            target,
            declaration: true,
            key: SiteKey::Span(id),
        });
    };
    for v in &hir.variables {
        decl(
            v.span,
            &v.name,
            own(Symbol::Variable(v.name.clone())),
            &mut out,
        );
    }
    for l in &hir.locals {
        decl(
            l.span,
            &l.name,
            own(Symbol::Local(l.name.clone())),
            &mut out,
        );
    }
    for o in &hir.outputs {
        decl(
            o.span,
            &o.name,
            own(Symbol::Output(o.name.clone())),
            &mut out,
        );
    }
    for r in &hir.resources {
        let target = own(Symbol::Resource(r.addr.clone()));
        decl(r.span, &r.addr.name, target, &mut out);
    }
    for c in &hir.module_calls {
        decl(
            c.span,
            &c.name,
            own(Symbol::ModuleCall(c.name.clone())),
            &mut out,
        );
        for a in &c.inputs {
            out.push(Site {
                span: hir.at(a.name_span),
                name_span: hir.at(a.name_span),
                target: SiteTarget::Child {
                    call: c.name.clone(),
                    symbol: Symbol::Variable(a.name.clone()),
                },
                declaration: false,
                key: SiteKey::Span(a.name_span),
            });
        }
        if let Some((_, span)) = &c.source {
            out.push(Site {
                span: hir.at(*span),
                name_span: hir.at(*span),
                target: SiteTarget::ModuleSource(c.name.clone()),
                declaration: false,
                key: SiteKey::Span(*span),
            });
        }
    }
    let reference = |r: &Reference, span: Span, key: SiteKey, out: &mut Vec<Site>| {
        let Some(symbol) = symbol_of(r) else {
            return;
        };
        out.push(Site {
            span,
            name_span: tail_span(text, span, symbol.name()),
            target: SiteTarget::Own(symbol),
            declaration: false,
            key,
        });
    };
    let deps = hir
        .resources
        .iter()
        .flat_map(|r| r.depends_on.iter())
        .chain(hir.outputs.iter().flat_map(|o| o.depends_on.iter()))
        .chain(hir.module_calls.iter().flat_map(|c| c.depends_on.iter()));
    for (r, span) in deps {
        reference(r, hir.at(*span), SiteKey::Span(*span), &mut out);
    }
    for (id, e) in hir.exprs.iter() {
        let Some(span) = hir.span(id) else { continue };
        match e {
            Expr::Ref(r) => reference(r, span, SiteKey::Expr(id), &mut out),
            Expr::GetAttr { target, name } => {
                if let Expr::Ref(Reference::Module(call)) = &hir.exprs[*target] {
                    let step = hir.step_span(id).unwrap_or(span);
                    out.push(Site {
                        span: step,
                        name_span: tail_span(text, step, name),
                        target: SiteTarget::Child {
                            call: call.clone(),
                            symbol: Symbol::Output(name.clone()),
                        },
                        declaration: false,
                        key: SiteKey::Expr(id),
                    });
                }
            }
            _ => {}
        }
    }
    out.sort_by_key(|s| (s.span.start, s.span.end));
    out
}

/// The quoted label `name` inside a declaration's header (the last occurrence: the header ends
/// with the name label), or the header itself.
fn label_span(text: &str, header: Span, name: &str) -> Span {
    let (s, e) = (header.start as usize, header.end as usize);
    let Some(slice) = text.get(s..e) else {
        return header;
    };
    if slice == name {
        return header;
    }
    match slice.rfind(&format!("\"{name}\"")) {
        Some(i) => Span {
            file: header.file,
            start: (s + i + 1) as u32,
            end: (s + i + 1 + name.len()) as u32,
        },
        None => header,
    }
}

/// The identifier `name` ending a reference (`x` of `var.x`), or the whole span.
fn tail_span(text: &str, span: Span, name: &str) -> Span {
    let (s, e) = (span.start as usize, span.end as usize);
    match text.get(s..e) {
        Some(slice) if slice.ends_with(name) && slice.len() >= name.len() => Span {
            file: span.file,
            start: (e - name.len()) as u32,
            end: e as u32,
        },
        _ => span,
    }
}

/// The innermost site of `file` containing byte `offset` (an identifier's end counts too, so a
/// cursor just after a name finds it).
pub fn site_at(db: &dyn Db, file: SourceFile, offset: u32) -> Option<&Site> {
    file_sites(db, file)
        .iter()
        .filter(|s| s.span.start <= offset && offset <= s.span.end)
        .min_by_key(|s| s.span.end - s.span.start)
}

/// The module each loaded file belongs to.
#[salsa::tracked(returns(ref))]
pub fn file_modules(db: &dyn Db, ws: Workspace) -> HashMap<SourceFile, Module> {
    let mut out = HashMap::new();
    for m in ws.modules(db) {
        for f in m.files(db) {
            out.insert(*f, m);
        }
    }
    out
}

/// The module a call of `module` named `call` loads, from the static module tree.
pub fn called_module(db: &dyn Db, ws: Workspace, module: Module, call: &str) -> Option<Module> {
    let tree = module_tree(db, ws);
    tree.nodes
        .iter()
        .filter(|n| n.module == module)
        .find_map(|n| n.children.get(call).map(|&c| tree.nodes[c].module))
}

/// A symbol of a particular module.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ModuleSymbol {
    pub module: Module,
    pub symbol: Symbol,
}

/// The symbol a site names: the called module's for `module.x.out` and call arguments. None for
/// a `source` and for calls that do not resolve to a loaded module. References are looked up in
/// the file's name resolution ([`resolve_file`]); a declaration names its own symbol.
pub fn resolve(db: &dyn Db, ws: Workspace, file: SourceFile, site: &Site) -> Option<ModuleSymbol> {
    match &site.target {
        SiteTarget::ModuleSource(_) => None,
        SiteTarget::Own(symbol) if site.declaration => Some(ModuleSymbol {
            module: *file_modules(db, ws).get(&file)?,
            symbol: symbol.clone(),
        }),
        _ => resolve_file(db, ws, file)
            .by_key
            .get(&site.key)
            .map(|r| r.symbol.clone()),
    }
}

/// Where a module's symbol is declared: the file and the declaration's site.
pub fn declaration(db: &dyn Db, sym: &ModuleSymbol) -> Option<(SourceFile, Site)> {
    sym.module.files(db).iter().find_map(|&f| {
        file_sites(db, f)
            .iter()
            .find(|s| s.declaration && s.target == SiteTarget::Own(sym.symbol.clone()))
            .map(|s| (f, s.clone()))
    })
}

/// Every non-declaration site of the workspace by the symbol it resolves to.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ReferencesIndex {
    pub by_symbol: HashMap<ModuleSymbol, Vec<(SourceFile, Site)>>,
}

/// The references index over every loaded module (call arguments and `module.x.out` count as
/// references of the called module's variables and outputs).
#[salsa::tracked(returns(ref))]
pub fn references_index(db: &dyn Db, ws: Workspace) -> ReferencesIndex {
    let mut idx = ReferencesIndex::default();
    for m in ws.modules(db) {
        for &f in m.files(db) {
            for site in file_sites(db, f) {
                if site.declaration {
                    continue;
                }
                if let Some(sym) = resolve(db, ws, f, site) {
                    idx.by_symbol
                        .entry(sym)
                        .or_default()
                        .push((f, site.clone()));
                }
            }
        }
    }
    idx
}
