//! Which values validation sees as sensitive: variables declared so, outputs marked so, and
//! what evaluates from them whatever the module's inputs.

use super::*;

/// Whether `e` evaluates to a value holding a sensitive mark whatever the module's inputs:
/// its variables unknown (marked when declared sensitive), its local values evaluated the same
/// way, everything else unknown.
fn sensitive_value(db: &dyn Db, module: Module, tree: &ItemTree, e: ExprId) -> bool {
    let scope = SensitiveInputs {
        db,
        index: module_index(db, module),
        variables: sensitive_variables(db, module),
        mark: ferro_value::Marks::SENSITIVE,
        evaluating: std::cell::RefCell::new(Vec::new()),
    };
    let (v, _) = eval_position_free(tree, &scope, e);
    v.contains_sensitive()
}

/// Whether `e` evaluates to an ephemeral value whatever the module's inputs: its variables
/// declared ephemeral, `terraform.applying`, what local values make of them.
pub(super) fn ephemeral_value(db: &dyn Db, module: Module, tree: &ItemTree, e: ExprId) -> bool {
    let scope = SensitiveInputs {
        db,
        index: module_index(db, module),
        variables: ephemeral_variables(db, module),
        mark: ferro_value::Marks::EPHEMERAL,
        evaluating: std::cell::RefCell::new(Vec::new()),
    };
    let (v, _) = eval_position_free(tree, &scope, e);
    v.contains_ephemeral()
}

/// The module's variables declared ephemeral (Terraform 1.10), from item trees only.
#[salsa::tracked(returns(ref))]
pub fn ephemeral_variables(db: &dyn Db, module: Module) -> std::collections::BTreeSet<String> {
    module_index(db, module)
        .variables
        .iter()
        .filter(|(_, it)| {
            crate::item_signature(db, it.file)
                .variables
                .get(it.index)
                .is_some_and(|v| v.ephemeral)
        })
        .map(|(n, _)| n.clone())
        .collect()
}

/// Whether anything in the module can be ephemeral: a variable declared so, a reference to
/// `terraform.applying` or to an ephemeral resource. Most modules have neither, and validation then evaluates nothing
/// for ephemerality.
#[salsa::tracked]
pub fn has_ephemeral_sources(db: &dyn Db, module: Module) -> bool {
    !ephemeral_variables(db, module).is_empty()
        || module.files(db).iter().any(|f| {
            item_tree(db, *f).exprs.iter().any(|(_, e)| {
                matches!(
                    e,
                    ferro_hir::Expr::Ref(ferro_hir::Reference::TerraformApplying)
                ) || matches!(
                    e,
                    ferro_hir::Expr::Ref(ferro_hir::Reference::Resource(r))
                        if r.mode == ferro_addrs::ResourceMode::Ephemeral
                )
            })
        })
}

/// The module's variables declared sensitive. Read from item trees only, so an edit that
/// changes no declaration leaves it equal and what depends on it does not run again.
#[salsa::tracked(returns(ref))]
pub fn sensitive_variables(db: &dyn Db, module: Module) -> std::collections::BTreeSet<String> {
    module_index(db, module)
        .variables
        .iter()
        .filter(|(_, it)| {
            crate::item_signature(db, it.file)
                .variables
                .get(it.index)
                .is_some_and(|v| v.sensitive)
        })
        .map(|(n, _)| n.clone())
        .collect()
}

/// The module's outputs not marked sensitive whose values hold sensitive values as validation
/// sees them (Terraform evaluates outputs in its validate walk, with sensitive variables
/// marked): an error in a root module. One query per module, so that validating one file
/// reads no other file.
#[salsa::tracked(returns(ref))]
pub fn sensitive_outputs(db: &dyn Db, module: Module) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    if sensitive_variables(db, module).is_empty() {
        return out;
    }
    for it in module_index(db, module).outputs.values() {
        let tree = item_tree(db, it.file);
        let Some(o) = tree.outputs.get(it.index) else {
            continue;
        };
        if let (false, Some(e)) = (o.sensitive, o.value) {
            if sensitive_value(db, module, tree, e) {
                out.insert(o.name.clone());
            }
        }
    }
    out
}

/// The scope of [`sensitive_value`].
struct SensitiveInputs<'a> {
    db: &'a dyn Db,
    index: &'a ModuleIndex,
    variables: &'a std::collections::BTreeSet<String>,
    /// The mark those variables carry (sensitive or ephemeral).
    mark: ferro_value::Marks,
    /// Local values being evaluated (a cycle gives an unknown).
    evaluating: std::cell::RefCell<Vec<String>>,
}

impl Scope for SensitiveInputs<'_> {
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        let unknown = Value::dynamic_unknown();
        match r {
            Reference::Var(n) => Ok(if self.variables.contains(n) {
                unknown.with_marks(self.mark)
            } else {
                unknown
            }),
            Reference::TerraformApplying if self.mark == ferro_value::Marks::EPHEMERAL => {
                Ok(Value::unknown(ferro_value::Type::Bool).with_marks(self.mark))
            }
            Reference::Resource(r)
                if self.mark == ferro_value::Marks::EPHEMERAL
                    && r.mode == ferro_addrs::ResourceMode::Ephemeral =>
            {
                Ok(unknown.with_marks(self.mark))
            }
            Reference::Local(n) => {
                let Some(it) = self.index.locals.get(n) else {
                    return Ok(unknown);
                };
                if self.evaluating.borrow().contains(n) {
                    return Ok(unknown);
                }
                let tree = item_tree(self.db, it.file);
                let Some(l) = tree.locals.get(it.index) else {
                    return Ok(unknown);
                };
                self.evaluating.borrow_mut().push(n.clone());
                let (v, _) = eval_position_free(tree, self, l.expr);
                self.evaluating.borrow_mut().pop();
                Ok(v)
            }
            _ => Ok(unknown),
        }
    }
    fn free_variable(&self, _name: &str) -> Option<Value> {
        Some(Value::dynamic_unknown())
    }
    fn base_dir(&self) -> &std::path::Path {
        std::path::Path::new(".")
    }
    fn source(&self, _file: FileId) -> Option<(&str, &str)> {
        None
    }
}
