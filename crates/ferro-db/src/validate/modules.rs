//! What module calls' values are before planning, for the static checks.

use crate::{file_hir, module_index, Db, Module, ModuleIndex, Workspace};
use ferro_value::Type;

/// The type of the value of each module call of `module` whose child module is known, as
/// Terraform's validate walk has it: an object of the child's outputs (each of any type),
/// or a list of them (`count`) or a map of them (`for_each`). So a reference to an output the
/// child does not declare, or to an output of a counted call without an index, fails then.
pub(super) fn module_call_types(
    db: &dyn Db,
    ws: Workspace,
    module: Module,
    index: &ModuleIndex,
) -> std::collections::BTreeMap<String, Type> {
    let tree = crate::module_tree(db, ws);
    let Some(node) = tree.nodes.iter().find(|n| n.module == module) else {
        return Default::default();
    };
    let mut out = std::collections::BTreeMap::new();
    for (name, item) in &index.module_calls {
        let Some(child) = node.children.get(name).map(|&c| &tree.nodes[c]) else {
            continue;
        };
        let outputs = module_index(db, child.module)
            .outputs
            .keys()
            .map(|k| (k.clone(), Type::Dynamic));
        let object = Type::object(outputs);
        let call = &file_hir(db, item.file).module_calls[item.index];
        let ty = if call.count.is_some() {
            Type::List(Box::new(object))
        } else if call.for_each.is_some() {
            Type::Map(Box::new(object))
        } else {
            object
        };
        out.insert(name.clone(), ty);
    }
    out
}
