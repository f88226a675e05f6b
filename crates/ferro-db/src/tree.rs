//! The static module tree: every module call resolved to the directory it loads, from the root
//! down, with the diagnostics of calls that cannot be resolved (a missing directory, a source
//! that needs `init`, a call cycle) and of inputs the child does not declare or lacks.
//!
//! This is the tree of *calls*, known without evaluating anything; how many instances each call
//! has (`count`/`for_each`) is the planner's business.

use crate::pending::{Loc, Pending, LINE_MARK};
use crate::{item_signature, module_index, Db, ItemRef, Module, Workspace};
use ferro_diag::Diagnostic;
use std::collections::BTreeMap;

/// Index of a node in [`ModuleTree::nodes`]; the root is 0.
pub type TreeNodeId = usize;

/// One static module path (`module.a.module.b`, without instance keys).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeNode {
    /// Call names from the root: empty for the root module.
    pub path: Vec<String>,
    pub module: Module,
    pub parent: Option<TreeNodeId>,
    /// The `module` block in the parent that calls this one.
    pub call: Option<ItemRef>,
    /// Child calls by name.
    pub children: BTreeMap<String, TreeNodeId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ModuleTree {
    pub nodes: Vec<TreeNode>,
    /// Calls that cannot be resolved (reported with their ranges by
    /// [`module_tree_diagnostics`]).
    pub problems: Vec<Pending>,
    /// Inputs that do not match the child's variables (reported by
    /// [`module_input_diagnostics`]): Terraform's validate finds them, not its `init`.
    pub input_problems: Vec<Pending>,
}

impl ModuleTree {
    /// The node of a static module path.
    pub fn find(&self, path: &[String]) -> Option<TreeNodeId> {
        let mut cur = 0;
        for name in path {
            cur = *self.nodes.get(cur)?.children.get(name)?;
        }
        Some(cur)
    }

    /// The node below `node` at the static path `rel`, relative to it.
    pub fn descendant(&self, node: TreeNodeId, rel: &[String]) -> Option<TreeNodeId> {
        let mut cur = node;
        for name in rel {
            cur = *self.nodes.get(cur)?.children.get(name)?;
        }
        Some(cur)
    }
}

/// A module call's `source` and `version` evaluated early (they were not literal strings).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct StaticSource {
    pub source: String,
    pub version: Option<String>,
}

/// Whether a module source is a local path (`./x`, `../x`), which needs no installation.
pub fn is_local_source(source: &str) -> bool {
    source.starts_with("./") || source.starts_with("../") || source == "." || source == ".."
}

/// The directory a local source names, relative to the root module, normalised (`a/../b` is
/// `b`); None when it climbs above the root's parent directories in a way that cannot be named.
pub fn resolve_local_source(parent_dir: &str, source: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let joined = if parent_dir == "." || parent_dir.is_empty() {
        source.to_string()
    } else {
        format!("{parent_dir}/{source}")
    };
    for seg in joined.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| p != "..") {
                    parts.pop();
                } else {
                    parts.push("..".to_string());
                }
            }
            s => parts.push(s.to_string()),
        }
    }
    if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    }
}

/// How deep calls may nest before the tree is considered a cycle.
const MAX_DEPTH: usize = 64;

#[salsa::tracked(returns(ref))]
pub fn module_tree(db: &dyn Db, ws: Workspace) -> ModuleTree {
    let by_dir: BTreeMap<String, Module> = ws
        .modules(db)
        .into_iter()
        .map(|m| (m.dir(db).clone(), m))
        .collect();
    let installed = ws.installed(db);
    let statics = ws.static_sources(db);
    let mut tree = ModuleTree {
        nodes: vec![TreeNode {
            path: Vec::new(),
            module: ws.root(db),
            parent: None,
            call: None,
            children: BTreeMap::new(),
        }],
        problems: Vec::new(),
        input_problems: Vec::new(),
    };
    let mut next = 0;
    while next < tree.nodes.len() {
        let id = next;
        next += 1;
        let module = tree.nodes[id].module;
        let dir = module.dir(db).clone();
        let index = module_index(db, module);
        for (name, item) in &index.module_calls {
            let call = &item_signature(db, item.file).module_calls[item.index];
            let call_at = Loc::new(item.file, call.span);
            let mut path = tree.nodes[id].path.clone();
            path.push(name.clone());
            let key = path.join(".");
            let (source, source_span, version) = match (&call.source, call.source_expr) {
                (Some((s, span)), _) => (s, *span, call.version.as_ref()),
                (None, Some((_, span))) => match statics.get(&key) {
                    Some(st) => (&st.source, span, st.version.as_ref()),
                    None => continue,
                },
                (None, None) => continue,
            };
            // A literal source with an evaluated version.
            let version = version.or(statics.get(&key).and_then(|s| s.version.as_ref()));
            if is_local_source(source) && version.is_some() {
                tree.problems.push(Pending::new(
                    Diagnostic::error("module-version-local", "Invalid version constraint")
                        .with_detail(format!("Cannot apply a version constraint to module {name:?} (at {}:{LINE_MARK}) because it has a relative local path.", item.file.path(db))),
                    call_at,
                ));
                continue;
            }
            let child_dir = if is_local_source(source) {
                resolve_local_source(&dir, source)
            } else {
                match installed.get(&key) {
                    Some(d) => d.clone(),
                    None => {
                        tree.problems.push(Pending::new(
                            Diagnostic::error("module-not-installed", "Module not installed")
                                .with_detail("This module is not yet installed. Run \"ferro init\" to install all modules required by this configuration."),
                            call_at,
                        ));
                        continue;
                    }
                }
            };
            // A call whose directory is already on the path from the root calls itself.
            let mut ancestor = Some(id);
            let mut cycle = false;
            while let Some(a) = ancestor {
                if tree.nodes[a].module.dir(db) == &child_dir {
                    cycle = true;
                    break;
                }
                ancestor = tree.nodes[a].parent;
            }
            if cycle || path.len() > MAX_DEPTH {
                tree.problems.push(Pending::new(
                    Diagnostic::error("module-cycle", "Module call cycle")
                        .with_detail(format!("The module call {name:?} loads {child_dir:?}, which is already being loaded by a module above it: a module cannot call itself, directly or through other modules.")),
                    Loc::new(item.file, source_span),
                ));
                continue;
            }
            let Some(&child) = by_dir.get(&child_dir) else {
                tree.problems.push(Pending::new(
                    Diagnostic::error("module-unreadable", "Unreadable module directory")
                        .with_detail(format!(
                            "The directory {child_dir} does not exist or cannot be read."
                        )),
                    Loc::new(item.file, source_span),
                ));
                continue;
            };
            check_inputs(db, call, item.file, child, &mut tree.input_problems);
            let child_id = tree.nodes.len();
            tree.nodes.push(TreeNode {
                path,
                module: child,
                parent: Some(id),
                call: Some(*item),
                children: BTreeMap::new(),
            });
            tree.nodes[id].children.insert(name.clone(), child_id);
        }
    }
    tree
}

/// Inputs the child module does not declare, and required variables the call does not set.
fn check_inputs(
    db: &dyn Db,
    call: &ferro_hir::ModuleCall,
    file: crate::SourceFile,
    child: Module,
    out: &mut Vec<Pending>,
) {
    let index = module_index(db, child);
    for a in &call.inputs {
        if !index.variables.contains_key(&a.name) {
            // HCL suggests the closest variable name.
            let mut detail = format!("An argument named {:?} is not expected here.", a.name);
            if let Some(close) = ferro_diag::suggest(&a.name, index.variables.keys()) {
                detail.push_str(&format!(" Did you mean {close:?}?"));
            }
            out.push(Pending::new(
                Diagnostic::error("unsupported-argument", "Unsupported argument")
                    .with_detail(detail),
                Loc::new(file, a.name_span),
            ));
        }
    }
    for (name, item) in &index.variables {
        let var = &item_signature(db, item.file).variables[item.index];
        if var.default.is_none() && !call.inputs.iter().any(|a| &a.name == name) {
            out.push(Pending::new(
                Diagnostic::error("missing-argument", "Missing required argument").with_detail(
                    format!("The argument {name:?} is required, but no definition was found."),
                ),
                Loc::new(file, call.missing_span),
            ));
        }
    }
}

/// The module calls' inputs that do not match the child's variables, with their ranges.
#[salsa::tracked(returns(ref))]
pub fn module_input_diagnostics(db: &dyn Db, ws: Workspace) -> Vec<Diagnostic> {
    module_tree(db, ws)
        .input_problems
        .iter()
        .map(|p| p.resolve(db))
        .collect()
}

/// The module tree's diagnostics, with their ranges.
#[salsa::tracked(returns(ref))]
pub fn module_tree_diagnostics(db: &dyn Db, ws: Workspace) -> Vec<Diagnostic> {
    module_tree(db, ws)
        .problems
        .iter()
        .map(|p| p.resolve(db))
        .collect()
}
