//! What module calls' values are before planning, for the static checks.

use super::Finding;
use crate::pending::{At, Pending, Place, PREVIOUS_MARK};
use crate::{item_signature, module_index, Db, Module, SourceFile, Workspace};
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
        let call = &crate::item_signature(db, item.file).module_calls[item.index];
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

/// What a module call's input is checked against: a variable's type constraint and the
/// defaults of its optional attributes, and where it is declared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariableType {
    pub ty: Type,
    pub defaults: Option<ferro_value::defaults::TypeDefaults>,
    pub at: Place,
}

/// The module's variables that declare a type, by name. One query per module, read from item
/// trees: an edit in the module that changes no variable declaration leaves it equal, so the
/// calls of the module are not checked again.
#[salsa::tracked(returns(ref))]
pub fn variable_types(db: &dyn Db, module: Module) -> BTreeMap<String, VariableType> {
    let mut out = BTreeMap::new();
    for (name, item) in &module_index(db, module).variables {
        let Some(var) = item_signature(db, item.file).variables.get(item.index) else {
            continue;
        };
        if let Some(ty) = &var.ty {
            out.insert(
                name.clone(),
                VariableType {
                    ty: ty.clone(),
                    defaults: var.defaults.clone(),
                    at: Place::new(item.file, At::Id(var.span)),
                },
            );
        }
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
    file: SourceFile,
    tree: &ferro_hir::ItemTree,
    call: &ferro_hir::ModuleCall,
    out: &mut Vec<Finding>,
) {
    let types = variable_types(db, child);
    for a in &call.inputs {
        let Some(var) = types.get(&a.name) else {
            continue;
        };
        let ty = &var.ty;
        let Some(value) = super::static_value_in(tree, a.expr, ws.base_dir(db), Some(db)) else {
            continue;
        };
        let value = match &var.defaults {
            Some(d) => ferro_value::defaults::apply_defaults(&value, d),
            None => value,
        };
        if let Err(e) = convert(&value, ty) {
            let d = Diagnostic::error("invalid-variable-value", "Invalid value for module argument")
                .with_detail(format!(
                    "The given value is not suitable for child module variable {:?} defined at {PREVIOUS_MARK}: {}.",
                    a.name, e.message
                ));
            let p = Pending::new(d, Place::new(file, At::Expr(a.expr))).with_previous(var.at);
            out.push(Finding::Pending(p));
        }
    }
}

/// The deprecation messages of a module's variables and outputs (OpenTofu 1.10's
/// `deprecated = "…"`), by name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Deprecations {
    pub variables: BTreeMap<String, String>,
    pub outputs: BTreeMap<String, String>,
}

/// See [`Deprecations`]. One query per module, read from item signatures.
#[salsa::tracked(returns(ref))]
pub fn deprecations(db: &dyn Db, module: Module) -> Deprecations {
    let index = module_index(db, module);
    let mut out = Deprecations::default();
    for (name, item) in &index.variables {
        let var = item_signature(db, item.file).variables.get(item.index);
        if let Some(msg) = var.and_then(|v| v.deprecated.clone()) {
            out.variables.insert(name.clone(), msg);
        }
    }
    for (name, item) in &index.outputs {
        let o = item_signature(db, item.file).outputs.get(item.index);
        if let Some(msg) = o.and_then(|o| o.deprecated.clone()) {
            out.outputs.insert(name.clone(), msg);
        }
    }
    out
}

/// OpenTofu's warning for each input of the call `call` that sets a deprecated variable of
/// `child`, at the value.
pub(super) fn deprecated_inputs(
    db: &dyn Db,
    child: Module,
    file: SourceFile,
    call: &ferro_hir::ModuleCall,
    out: &mut Vec<Finding>,
) {
    let deprecated = &deprecations(db, child).variables;
    for a in &call.inputs {
        if let Some(msg) = deprecated.get(&a.name) {
            let d = Diagnostic::warning(
                "deprecated-variable",
                "Variable marked as deprecated by the module author",
            )
            .with_detail(format!(
                "Variable {:?} is marked as deprecated with the following message:\n{msg}",
                a.name
            ));
            out.push(Finding::Pending(Pending::new(
                d,
                Place::new(file, At::Expr(a.expr)),
            )));
        }
    }
}
