//! What module calls' values are before planning, for the static checks.

use crate::{file_hir, module_index, Db, Module, Workspace};
use ferro_diag::Diagnostic;
use ferro_value::convert::convert;
use ferro_value::Type;
use std::collections::BTreeMap;

/// The type of the value of each module call whose child module is known (`children`), as
/// Terraform's validate walk has it: an object of the child's outputs (each of any type),
/// or a list of them (`count`) or a map of them (`for_each`). So a reference to an output the
/// child does not declare, or to an output of a counted call without an index, fails then.
///
/// One query per module (its first place in the module tree names its children), read from
/// item trees only: what validates one file of the module reads no other file for it.
#[salsa::tracked(returns(ref))]
pub fn module_call_types(db: &dyn Db, ws: Workspace, module: Module) -> BTreeMap<String, Type> {
    let tree = crate::module_tree(db, ws);
    let Some(node) = tree.nodes.iter().find(|n| n.module == module) else {
        return BTreeMap::new();
    };
    let index = module_index(db, module);
    let mut out = BTreeMap::new();
    for (name, item) in &index.module_calls {
        let Some(&child) = node.children.get(name) else {
            continue;
        };
        let child = tree.nodes[child].module;
        let outputs = module_index(db, child)
            .outputs
            .keys()
            .map(|k| (k.clone(), Type::Dynamic));
        let object = Type::object(outputs);
        let call = &crate::item_tree(db, item.file).module_calls[item.index];
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

/// Inputs of the module call `call` (loading `child`) whose values are known without planning
/// and do not convert to the type of the child's variable: Terraform 1.0.3's validate reports
/// each as "Invalid value for module argument", naming where the variable is declared.
pub(super) fn check_input_values(
    db: &dyn Db,
    ws: Workspace,
    child: Module,
    hir: &ferro_hir::FileHir,
    call: &ferro_hir::ModuleCall,
    out: &mut Vec<Diagnostic>,
) {
    let index = module_index(db, child);
    for a in &call.inputs {
        let Some(item) = index.variables.get(&a.name) else {
            continue;
        };
        let var = &file_hir(db, item.file).variables[item.index];
        let Some(ty) = &var.ty else {
            continue;
        };
        let Some(value) = super::static_value_in(hir, a.expr, ws.base_dir(db), Some(db)) else {
            continue;
        };
        let value = match &var.defaults {
            Some(d) => ferro_value::defaults::apply_defaults(&value, d),
            None => value,
        };
        if let Err(e) = convert(&value, ty) {
            let at = crate::source_map(db, item.file).at(var.span);
            let range = ferro_diag::hcl_range(item.file.path(db), item.file.text(db), at);
            out.push(
                Diagnostic::error("invalid-variable-value", "Invalid value for module argument")
                    .with_detail(format!(
                        "The given value is not suitable for child module variable {:?} defined at {range}: {}.",
                        a.name, e.message
                    ))
                    .with_span_opt(hir.span(a.expr)),
            );
        }
    }
}
