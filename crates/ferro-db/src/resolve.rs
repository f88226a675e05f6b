//! Name resolution: every reference of a file to the module-level symbol it names and where
//! that symbol is declared, computed per file from item trees only (no source positions), so
//! moving text leaves it unchanged. References are keyed by [`SiteKey`], the position-free
//! identity that navigation's sites carry.

use crate::pending::Loc;
use crate::{
    called_module, file_modules, item_tree, module_index, Db, ModuleSymbol, SourceFile, Symbol,
    Workspace,
};
use ferro_hir::{Expr, ExprId, Reference, SpanId};
use std::collections::HashMap;

/// A reference or declaration of a file without its position: the expression of a reference
/// (`var.x`, or the `.out` access of `module.a.out`), or the id of a range of the item tree (a
/// `depends_on` entry, a call argument, a declaration's header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SiteKey {
    Expr(ExprId),
    Span(SpanId),
}

/// What one reference resolves to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolution {
    pub symbol: ModuleSymbol,
    /// The declaration's header; None when the module declares no such symbol.
    pub declaration: Option<Loc>,
}

/// Every reference of a file, resolved.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Resolutions {
    pub by_key: HashMap<SiteKey, Resolution>,
}

/// The symbol a reference root names in its own module.
pub(crate) fn symbol_of(r: &Reference) -> Option<Symbol> {
    Some(match r {
        Reference::Var(n) => Symbol::Variable(n.clone()),
        Reference::Local(n) => Symbol::Local(n.clone()),
        Reference::Resource(r) => Symbol::Resource(r.clone()),
        Reference::Module(n) => Symbol::ModuleCall(n.clone()),
        _ => return None,
    })
}

/// Where a module's symbol is declared (the first declaration, as the module index keeps it).
pub fn declaration_loc(db: &dyn Db, sym: &ModuleSymbol) -> Option<Loc> {
    let index = module_index(db, sym.module);
    let (item, span) = match &sym.symbol {
        Symbol::Variable(n) => {
            let i = index.variables.get(n)?;
            (i, item_tree(db, i.file).variables[i.index].span)
        }
        Symbol::Local(n) => {
            let i = index.locals.get(n)?;
            (i, item_tree(db, i.file).locals[i.index].span)
        }
        Symbol::Output(n) => {
            let i = index.outputs.get(n)?;
            (i, item_tree(db, i.file).outputs[i.index].span)
        }
        Symbol::Resource(r) => {
            let i = index.resources.get(r)?;
            (i, item_tree(db, i.file).resources[i.index].span)
        }
        Symbol::ModuleCall(n) => {
            let i = index.module_calls.get(n)?;
            (i, item_tree(db, i.file).module_calls[i.index].span)
        }
    };
    Some(Loc::new(item.file, span))
}

/// Resolve every reference of `file` in its module (call arguments and `module.a.out` in the
/// called module). A file of no loaded module resolves nothing.
#[salsa::tracked(returns(ref))]
pub fn resolve_file(db: &dyn Db, ws: Workspace, file: SourceFile) -> Resolutions {
    let mut out = Resolutions::default();
    let Some(&module) = file_modules(db, ws).get(&file) else {
        return out;
    };
    let tree = item_tree(db, file);
    let mut put = |key: SiteKey, symbol: ModuleSymbol| {
        let declaration = declaration_loc(db, &symbol);
        out.by_key.insert(
            key,
            Resolution {
                symbol,
                declaration,
            },
        );
    };
    let own = |symbol: Symbol| ModuleSymbol { module, symbol };
    for (id, e) in tree.exprs.iter() {
        match e {
            Expr::Ref(r) => {
                if let Some(s) = symbol_of(r) {
                    put(SiteKey::Expr(id), own(s));
                }
            }
            Expr::GetAttr { target, name } => {
                if let Expr::Ref(Reference::Module(call)) = &tree.exprs[*target] {
                    if let Some(child) = called_module(db, ws, module, call) {
                        let symbol = Symbol::Output(name.clone());
                        put(
                            SiteKey::Expr(id),
                            ModuleSymbol {
                                module: child,
                                symbol,
                            },
                        );
                    }
                }
            }
            _ => {}
        }
    }
    let deps = tree
        .resources
        .iter()
        .flat_map(|r| r.depends_on.iter())
        .chain(tree.outputs.iter().flat_map(|o| o.depends_on.iter()))
        .chain(tree.module_calls.iter().flat_map(|c| c.depends_on.iter()));
    for (r, span) in deps {
        if let Some(s) = symbol_of(r) {
            put(SiteKey::Span(*span), own(s));
        }
    }
    for c in &tree.module_calls {
        let Some(child) = called_module(db, ws, module, &c.name) else {
            continue;
        };
        for a in &c.inputs {
            let symbol = Symbol::Variable(a.name.clone());
            put(
                SiteKey::Span(a.name_span),
                ModuleSymbol {
                    module: child,
                    symbol,
                },
            );
        }
    }
    out
}
