//! Module calls whose `source` or `version` is not a literal string, evaluated early as
//! OpenTofu 1.8 does: from the command's variables, locals, `path.*` and
//! `terraform.workspace` ([`Statics`]). A call in a child module evaluates with the variables
//! its own call passes, when those are static themselves. The results go to the analysis
//! ([`ferro_db::Workspace::static_sources`]), which builds the module tree from them; the local
//! directories they name are read. Plan-like commands also check an installed module against
//! the evaluated source ("Module source has changed": run `init` again).

use crate::load::Loaded;
use crate::static_eval::Statics;
use ferro_db::StaticSource;
use ferro_diag::Diagnostic;
use ferro_hir::{ExprId, FileHir};
use ferro_planner::RawVariable;
use ferro_value::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The diagnostics' code.
const CODE: &str = "module-source-not-static";

/// How the evaluated sources are checked against `.terraform/modules/modules.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Installation {
    /// `init` and `get`: they install what the sources say.
    Installing,
    /// Every other command: an installed module whose recorded source differs is an error.
    Installed,
}

/// Evaluate every non-literal module `source` and `version` of the configuration (from the
/// root down, each module's calls once its call is resolved), give them to the analysis and
/// read the local directories they name. Problems go to `diags`, with their ranges.
pub(crate) fn resolve(
    l: &mut Loaded,
    dir: &Path,
    vars: &BTreeMap<String, RawVariable>,
    workspace: &str,
    installation: Installation,
    diags: &mut Vec<Diagnostic>,
) {
    let mut done: BTreeMap<String, StaticSource> = BTreeMap::new();
    let mut failed: BTreeSet<String> = BTreeSet::new();
    // Each round resolves the calls of the modules the last one reached.
    loop {
        let found = evaluate_round(l, dir, vars, workspace, &done, &mut failed, diags);
        if found.is_empty() {
            break;
        }
        done.extend(found);
        if let Err(e) = l.set_static_sources(done.clone()) {
            diags.push(Diagnostic::error("cli", "Failed to read module directory").with_detail(e));
            return;
        }
    }
    if installation == Installation::Installed {
        changed_sources(l, dir, &done, diags);
    }
}

/// The calls not evaluated yet of the modules in the tree as it stands.
fn evaluate_round(
    l: &Loaded,
    dir: &Path,
    vars: &BTreeMap<String, RawVariable>,
    workspace: &str,
    done: &BTreeMap<String, StaticSource>,
    failed: &mut BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, StaticSource> {
    let db = &l.db;
    let tree = ferro_db::module_tree(db, l.ws).clone();
    let mut found = BTreeMap::new();
    // The evaluator of each tree node (parents come before their children).
    let mut scopes: Vec<Statics<'_>> = Vec::with_capacity(tree.nodes.len());
    for node in &tree.nodes {
        let scope = match (node.parent, node.call) {
            (Some(parent), Some(call)) => {
                let hir = ferro_db::file_hir(db, call.file);
                scopes[parent].for_child(node.module, hir, &hir.module_calls[call.index])
            }
            _ => Statics::new(l, vars, dir, workspace).for_purpose(CODE, "the module source"),
        };
        let index = ferro_db::module_index(db, node.module);
        for (name, item) in &index.module_calls {
            let hir = ferro_db::file_hir(db, item.file);
            let call = &hir.module_calls[item.index];
            if call.source_expr.is_none() && call.version_expr.is_none() {
                continue;
            }
            let mut path = node.path.clone();
            path.push(name.clone());
            let key = path.join(".");
            if done.contains_key(&key) || failed.contains(&key) {
                continue;
            }
            let source = match (&call.source, call.source_expr) {
                (Some((s, _)), _) => Some(s.clone()),
                (None, Some((e, _))) => string_value(
                    &scope,
                    hir,
                    e,
                    &format!("module.{name}.source"),
                    false,
                    diags,
                )
                .flatten(),
                (None, None) => None,
            };
            let version = match call.version_expr {
                Some(e) => string_value(
                    &scope,
                    hir,
                    e,
                    &format!("module.{name}.version"),
                    true,
                    diags,
                ),
                None => Some(call.version.clone()),
            };
            match (source, version) {
                (Some(source), Some(version)) => {
                    found.insert(key, StaticSource { source, version });
                }
                _ => {
                    failed.insert(key);
                }
            }
        }
        scopes.push(scope);
    }
    found
}

/// A string evaluated early: Some(None) for null when `nullable` (a `version` that is null is
/// no constraint, as in OpenTofu); None once the problem is said.
fn string_value(
    scope: &Statics<'_>,
    hir: &FileHir,
    e: ExprId,
    subject: &str,
    nullable: bool,
    diags: &mut Vec<Diagnostic>,
) -> Option<Option<String>> {
    let v = scope.hir_value(hir, e, subject, diags)?;
    let span = hir.span(e);
    if v.is_sensitive() || v.contains_sensitive() {
        diags.push(
            Diagnostic::error(CODE, "Sensitive value not allowed")
                .with_detail(format!("Sensitive values, or values derived from sensitive values, cannot be used as {subject}."))
                .with_span_opt(span),
        );
        return None;
    }
    if v.is_null() && nullable {
        return Some(None);
    }
    let converted = ferro_value::convert::convert(&v, &ferro_value::Type::String)
        .ok()
        .filter(|v| !v.is_null())
        .and_then(|v: Value| v.as_str().map(str::to_string));
    match converted {
        Some(s) => Some(Some(s)),
        None => {
            diags.push(
                Diagnostic::error(CODE, "Unsuitable value type")
                    .with_detail(format!(
                        "Unsuitable value for {subject}: a string is required."
                    ))
                    .with_span_opt(span),
            );
            None
        }
    }
}

/// An installed module whose recorded source is not what the call's evaluated source is now
/// needs `init` again (OpenTofu's "Module source has changed").
fn changed_sources(
    l: &Loaded,
    dir: &Path,
    done: &BTreeMap<String, StaticSource>,
    diags: &mut Vec<Diagnostic>,
) {
    let records: BTreeMap<String, ferro_workspace::manifest::Installed> =
        ferro_workspace::manifest::read_manifest(dir)
            .into_iter()
            .map(|m| (m.key.clone(), m))
            .collect();
    let tree = ferro_db::module_tree(&l.db, l.ws);
    for node in &tree.nodes {
        let index = ferro_db::module_index(&l.db, node.module);
        for (name, item) in &index.module_calls {
            let hir = ferro_db::file_hir(&l.db, item.file);
            let call = &hir.module_calls[item.index];
            let Some((_, span)) = call.source_expr else {
                continue;
            };
            let mut path = node.path.clone();
            path.push(name.clone());
            let key = path.join(".");
            let (Some(now), Some(record)) = (done.get(&key), records.get(&key)) else {
                continue;
            };
            if ferro_db::is_local_source(&now.source) || record.source == now.source {
                continue;
            }
            diags.push(
                Diagnostic::error("module-source-changed", "Module source has changed")
                    .with_detail(format!("The source address was changed from {:?} to {:?} since this module was installed. Run \"ferro init\" to install all modules required by this configuration.", record.source, now.source))
                    .with_span(hir.at(span)),
            );
        }
    }
}
