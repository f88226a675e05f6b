//! The high-level IR of a configuration: what each file declares (variables, locals, outputs,
//! resources, provider and terraform settings) with expressions lowered into an arena.
//!
//! **Architecture invariant:** HIR knows nothing of state, providers or salsa. It is built per
//! file (`lower_file`) so an edit in one file re-lowers only that file; module-wide questions
//! (duplicate names, reference resolution) are answered in ferro-db on top of it. A lowered
//! file is an [`ItemTree`] without source positions plus a [`SourceMap`] holding them, so an
//! edit that only moves text lowers to an equal item tree.

pub mod encryption;
mod expr;
mod extract;
mod items;
mod lower;
mod type_expr;

pub use expr::{
    child_exprs, child_exprs_mut, walk_exprs, walk_references, Expr, ExprId, Reference,
    TemplatePart,
};
pub use extract::{ItemKey, Origins, ResourceHeader, Signature};
pub use items::{
    BlockBody, Check, Condition, DynamicBlock, FileHir, HirAttr, HirBlock, IgnoreStep, Import,
    ImportBy, ImportKey, ItemTree, Lifecycle, Local, ModuleCall, Moved, Output, ProviderBlock,
    ProviderPassing, Provisioner, Removed, RequiredProvider, ResourceDecl, SourceMap, SpanId,
    Variable, VariableValidation,
};
pub use lower::{lower_expr_with_vars, lower_file, lower_standalone_expr};
pub use type_expr::{lower_type_constraint, lower_type_expr, lower_type_expr_with_defaults};
