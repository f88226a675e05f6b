//! Where `import` blocks import into, checked without evaluating anything: two blocks of one
//! module whose targets are written alike, a target in a module that is not called, or a
//! resource a module other than the root does not declare (its configuration cannot be
//! generated), as Terraform's loader and validate report them. A block in a module overrides
//! one in a module below it that imports into the same resource (Terraform 1.16): the
//! overridden block is not checked further.

use crate::pending::{Loc, Pending, Place, PREVIOUS_MARK};
use crate::{item_signature, module_index, module_tree, Db, Workspace};
use ferro_addrs::{AbsResource, ConfigResource, InstanceKey};
use ferro_diag::Diagnostic;
use ferro_hir::ImportKey;
use std::collections::HashMap;

/// The problems of every import block's target, module by module from the root down.
#[salsa::tracked(returns(ref))]
pub fn import_target_problems(db: &dyn Db, ws: Workspace) -> Vec<Pending> {
    let tree = module_tree(db, ws);
    let mut nodes: Vec<usize> = (0..tree.nodes.len()).collect();
    nodes.sort_by_key(|&n| tree.nodes[n].path.len());
    let mut claimed: HashMap<ConfigResource, usize> = HashMap::new();
    let mut out = Vec::new();
    for node in nodes {
        let tn = &tree.nodes[node];
        // The first block of the module for each target written without an expression.
        let mut written: HashMap<(&AbsResource, &InstanceKey), Loc> = HashMap::new();
        for item in &module_index(db, tn.module).imports {
            let block = &item_signature(db, item.file).imports[item.index];
            let rel = block.to.module.static_path();
            let key = match &block.key {
                ImportKey::None => Some(&InstanceKey::None),
                ImportKey::Static(k) => Some(k),
                ImportKey::Expr(_) => None,
            };
            if let Some(key) = key {
                let here = Loc::new(item.file, block.span);
                if let Some(first) = written.get(&(&block.to, key)) {
                    let to = ConfigResource {
                        module: rel.clone(),
                        resource: block.to.resource.clone(),
                    };
                    out.push(
                        Pending::new(
                            Diagnostic::error(
                                "import-duplicate",
                                format!("Duplicate import configuration for \"{to}\""),
                            )
                            .with_detail(format!("An import block for the resource \"{to}\" was already declared at {PREVIOUS_MARK}. A resource can have only one import block.")),
                            Loc::new(item.file, block.to_span),
                        )
                        .with_previous(Place::from(*first)),
                    );
                    continue;
                }
                written.insert((&block.to, key), here);
            }
            let target = ConfigResource {
                module: tn.path.iter().chain(&rel).cloned().collect(),
                resource: block.to.resource.clone(),
            };
            if *claimed.entry(target.clone()).or_insert(node) != node {
                continue;
            }
            let at = Loc::new(item.file, block.to_span);
            let problem = match tree.descendant(node, &rel) {
                None => format!(
                    "The configuration for the given import target {} does not exist. All target instances must have an associated configuration to be imported.",
                    ConfigResource { module: rel, resource: target.resource }
                ),
                Some(holder)
                    if !target.module.is_empty()
                        && !module_index(db, tree.nodes[holder].module)
                            .resources
                            .contains_key(&target.resource) =>
                {
                    format!("Resource {target} not found. Only resources within the root module are eligible for config generation.")
                }
                Some(_) => continue,
            };
            out.push(Pending::new(
                Diagnostic::error(
                    "import-no-config",
                    "Configuration for import target does not exist",
                )
                .with_detail(problem),
                at,
            ));
        }
    }
    out
}
