//! Static validation of one file against the module index and the known schemas: undeclared
//! references, misplaced `count.index`/`each.*`, arguments and blocks the resource type does not
//! have, missing required arguments, and type mismatches of values that are known statically.

use crate::index::Name;
use crate::pending::{At, Pending, Place};
use crate::{
    file_hir, item_tree, module_index, resource_bodies, Db, Expansion, Module, ModuleIndex,
    SourceFile, Workspace,
};
use ferro_diag::{Diagnostic, FileId};
use ferro_eval::{eval_expr, eval_position_free, Scope};
use ferro_hir::{
    walk_exprs, walk_references, BlockBody, Expr, ExprId, FileHir, ItemKey, ItemTree, Origins,
    Reference, SpanId,
};
use ferro_value::convert::convert;
use ferro_value::schema::Block;
use ferro_value::{Type, Value};
use std::sync::Arc;

mod blocks;
mod modules;
mod provisioners;
mod references;
mod sensitive;
use modules::module_call_types;
use sensitive::sensitive_outputs;

/// Terraform's load-time check of a file's variable defaults against their type constraints
/// (part of [`crate::module_load_diagnostics`], so `init` reports it).
pub fn variable_default_diagnostics(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
) -> Vec<Diagnostic> {
    let hir = file_hir(db, file);
    let mut out = Vec::new();
    for var in &hir.variables {
        let (Some(d), Some(ty)) = (var.default, &var.ty) else {
            continue;
        };
        let Some(val) = static_value_in(&hir.tree, d, ws.base_dir(db), Some(db)) else {
            continue;
        };
        let val = match &var.defaults {
            Some(defs) => ferro_value::defaults::apply_defaults(&val, defs),
            None => val,
        };
        if let Err(e) = convert(&val, ty) {
            out.push(
                Diagnostic::error(
                    "invalid-default-value",
                    "Invalid default value for variable",
                )
                .with_detail(format!(
                    "This default value is not compatible with the variable's type constraint: {}.",
                    e.message
                ))
                .with_span_opt(hir.span(d)),
            );
        }
    }
    out
}

/// What validating one file found, before positions are looked up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// A diagnostic whose ranges are looked up when it is shown.
    Pending(Pending),
    /// The errors of evaluating the expression with every reference unknown (what fails then
    /// fails for every input): evaluated again with the file's positions to be shown.
    EvalErrors(ExprId),
    /// A diagnostic placed already (reading a JSON body against its schema is positional).
    Ready(Diagnostic),
}

impl Finding {
    /// The finding with the ids of an item's copy replaced by the file's (`origins`).
    fn relocated(&self, file: SourceFile, origins: &Origins) -> Finding {
        let place = |p: Place| Place {
            at: if p.file == file {
                p.at.relocated(origins)
            } else {
                p.at
            },
            ..p
        };
        match self {
            Finding::Pending(p) => Finding::Pending(Pending {
                diag: p.diag.clone(),
                at: p.at.map(place),
                label: p.label.clone().map(|(at, text)| (place(at), text)),
                previous: p.previous.map(place),
                values_of: p.values_of.map(|e| origins.expr(e)),
            }),
            Finding::EvalErrors(e) => Finding::EvalErrors(origins.expr(*e)),
            Finding::Ready(d) => Finding::Ready(d.clone()),
        }
    }

    fn is_error(&self) -> bool {
        match self {
            Finding::Pending(p) => p.diag.is_error(),
            Finding::EvalErrors(_) => true,
            Finding::Ready(d) => d.is_error(),
        }
    }
}

/// A diagnostic placed at an [`At`] of a file, as a [`Finding`].
trait Found {
    fn found(self, file: SourceFile, at: At) -> Finding;
}

impl Found for Diagnostic {
    fn found(self, file: SourceFile, at: At) -> Finding {
        Finding::Pending(Pending::new(self, Place::new(file, at)))
    }
}

/// The diagnostics of one file's validation, with their ranges: [`validate_file`]'s findings
/// resolved against the file's source map. This is the only part that runs again when an edit
/// only moves text (and only when there is something to show).
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(
    db: &dyn Db,
    ws: Workspace,
    module: Module,
    file: SourceFile,
) -> Vec<Diagnostic> {
    let findings = validate_file(db, ws, module, file);
    if findings.is_empty() {
        return Vec::new();
    }
    let hir = file_hir(db, file);
    let source = (file.id(db), file.path(db).as_str(), file.text(db).as_str());
    let unknowns = Unknowns {
        source: Some(source),
        base_dir: ws.base_dir(db),
        db: Some(db),
        modules: Some(module_call_types(db, ws, module)),
        functions: Some(StaticFunctions {
            db,
            module,
            schemas: ws.schemas(db),
        }),
    };
    let mut out = Vec::new();
    for f in findings {
        match f {
            Finding::Pending(p) => {
                let mut d = p.resolve(db);
                if let Some(e) = p.values_of {
                    d.values = ferro_eval::expression_values(hir, &unknowns, e);
                }
                out.push(d);
            }
            Finding::EvalErrors(e) => {
                let (_, diags) = eval_expr(hir, &unknowns, *e);
                out.extend(
                    diags
                        .into_iter()
                        .filter(|d| d.severity == ferro_diag::Severity::Error),
                );
            }
            Finding::Ready(d) => out.push(d.clone()),
        }
    }
    out
}

/// What validation needs of a module's place in the module tree (its first call): how
/// Terraform names it in messages, "the root module" or "module.a.module.b", and the modules
/// its calls load. A query of its own, so that validation does not depend on the rest of the
/// tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModulePlace {
    pub name: String,
    pub children: std::collections::BTreeMap<String, Module>,
}

#[salsa::tracked(returns(ref))]
pub fn module_place(db: &dyn Db, ws: Workspace, module: Module) -> ModulePlace {
    let tree = crate::module_tree(db, ws);
    let node = tree.nodes.iter().find(|n| n.module == module);
    let name = if module == ws.root(db) {
        "the root module".to_string()
    } else {
        node.map(|n| {
            n.path
                .iter()
                .map(|c| format!("module.{c}"))
                .collect::<Vec<_>>()
                .join(".")
        })
        .unwrap_or_else(|| "this module".to_string())
    };
    let children = node
        .map(|n| {
            n.children
                .iter()
                .map(|(name, &c)| (name.clone(), tree.nodes[c].module))
                .collect()
        })
        .unwrap_or_default();
    ModulePlace { name, children }
}

/// Validate one file against its module and the providers' schemas: a file open in an editor
/// item by item ([`validate_item`], their findings given the file's ids), any other in one
/// pass. Reads item trees only (of this file, and through per-module and per-name queries what it needs of the rest of its
/// module): an edit that only moves text does not run it again.
#[salsa::tracked(returns(ref))]
pub fn validate_file(db: &dyn Db, ws: Workspace, module: Module, file: SourceFile) -> Vec<Finding> {
    let tree = item_tree(db, file);
    // JSON resource bodies are read against their schemas with their positions (see
    // `resource_bodies`): such a file is validated whole.
    if tree.resources.iter().any(|r| r.body.json) {
        return validate_tree(
            db,
            ws,
            module,
            file,
            tree,
            Some(resource_bodies(db, ws, file)),
        );
    }
    // A file no editor has open changes seldom: it is validated in one pass.
    if !file.edited(db) {
        return validate_tree(db, ws, module, file, tree, None);
    }
    let mut out = Vec::new();
    for key in tree.keys() {
        let found = validate_item(db, ws, module, file, key);
        if found.is_empty() {
            continue;
        }
        let Some(origins) = item_origins(db, file, key) else {
            continue;
        };
        out.extend(found.iter().map(|f| f.relocated(file, origins)));
    }
    out.extend(import_findings(db, ws, module, file, tree));
    out
}

/// Validate one item of a file, read from its own copy ([`item_body`]): an edit elsewhere in
/// the file, or in another file, leaves the copy equal, and the item is validated again only
/// when something it names changed. The findings have the copy's ids.
#[salsa::tracked(returns(ref))]
pub fn validate_item(
    db: &dyn Db,
    ws: Workspace,
    module: Module,
    file: SourceFile,
    key: ItemKey,
) -> Vec<Finding> {
    match item_body(db, file, key) {
        Some(body) => validate_tree(db, ws, module, file, body, None),
        None => Vec::new(),
    }
}

/// One item of a file on its own, with item-local ids (see [`ItemTree::extract`]).
#[salsa::tracked(returns(ref))]
pub fn item_body(db: &dyn Db, file: SourceFile, key: ItemKey) -> Option<Arc<ItemTree>> {
    item_tree(db, file)
        .extract(key)
        .map(|(body, _)| Arc::new(body))
}

/// The file's ids the ids of [`item_body`] stand for. Asked for only for items with
/// something to report.
#[salsa::tracked(returns(ref))]
pub fn item_origins(db: &dyn Db, file: SourceFile, key: ItemKey) -> Option<Origins> {
    item_tree(db, file).extract(key).map(|(_, origins)| origins)
}

/// The checks of validation on the items of `hir` (a file's item tree, or one item's copy).
/// `bodies` are the file's resource bodies as their schemas read them, for a JSON file.
fn validate_tree(
    db: &dyn Db,
    ws: Workspace,
    module: Module,
    file: SourceFile,
    hir: &ItemTree,
    bodies: Option<&crate::ResourceBodies>,
) -> Vec<Finding> {
    let schemas = ws.schemas(db);
    let mut v = Validator::new(db, ws, module, file, hir);
    let children = v.children;

    for var in &hir.variables {
        if let Some(d) = var.default {
            v.no_references(
                d,
                "Variables not allowed",
                "Variables may not be used here.",
            );
            v.check_eval(d);
        }
    }
    // Validation rules may refer to the rest of the module (Terraform 1.9+).
    for var in &hir.variables {
        for rule in &var.validations {
            v.references(rule.condition, Meta::None);
            v.references(rule.error_message, Meta::None);
        }
    }
    for l in &hir.locals {
        v.references(l.expr, Meta::None);
    }
    for o in &hir.outputs {
        if let Some(e) = o.value {
            v.references(e, Meta::None);
        }
        for (r, span) in &o.depends_on {
            v.check_ref(r, At::Id(*span), Meta::None);
        }
    }
    // A root output not marked sensitive whose value is (Terraform evaluates outputs in its
    // validate walk, with sensitive variables marked; a child module's outputs pass their
    // marks on to the parent).
    let root = module == ws.root(db);
    if root {
        let sensitive = sensitive_outputs(db, module);
        for o in hir.outputs.iter().filter(|o| sensitive.contains(&o.name)) {
            v.out.push(
                Diagnostic::error("sensitive-output", "Output refers to sensitive values")
                    .with_detail("To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, ferro requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true")
                    .found(file, At::Id(o.span)),
            );
        }
    }
    // Ephemeral values where they would persist (Terraform 1.10 reports these in validate):
    // an output not declared ephemeral, a root output declared so, a resource argument that
    // is not write-only.
    if *sensitive::has_ephemeral_sources(db, module) {
        for o in &hir.outputs {
            if root && o.ephemeral {
                v.out.push(
                    Diagnostic::error("ephemeral-root-output", "Ephemeral output not allowed")
                        .with_detail(
                            "Ephemeral outputs are not allowed in context of a root module",
                        )
                        .found(file, At::Id(o.span)),
                );
                continue;
            }
            if let (false, Some(e)) = (o.ephemeral, o.value) {
                if sensitive::ephemeral_value(db, module, hir, e) {
                    v.out.push(
                        Diagnostic::error("ephemeral-not-allowed", "Ephemeral value not allowed")
                            .with_detail("This output value is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value.")
                            .found(file, At::Expr(e)),
                    );
                }
            }
        }
        for r in &hir.resources {
            let write_only = |name: &str| {
                schemas
                    .resources
                    .get(&(r.addr.mode, r.addr.ty.to_string()))
                    .is_some_and(|s| {
                        s.block
                            .write_only_at(&[ferro_value::PathStep::Attr(name.to_string())])
                    })
            };
            for a in &r.body.attrs {
                if !write_only(&a.name) && sensitive::ephemeral_value(db, module, hir, a.expr) {
                    v.out.push(
                        Diagnostic::error("ephemeral-in-resource", "Invalid use of ephemeral value")
                            .with_detail(format!("Ephemeral values are not valid for {:?}, because it is not a write-only attribute and must be persisted to state.", a.name))
                            .found(file, At::Id(a.span)),
                    );
                }
            }
        }
    }
    for p in &hir.providers {
        match p.for_each {
            Some(f) => {
                v.references(f, Meta::None);
                v.check_for_each(f);
                v.body_references(&p.body, Meta::ForEach);
            }
            None => v.body_references(&p.body, Meta::None),
        }
    }
    for c in &hir.module_calls {
        let meta = if c.count.is_some() {
            Meta::Count
        } else if c.for_each.is_some() {
            Meta::ForEach
        } else {
            Meta::None
        };
        // A `source` or `version` evaluated early names what exists like any expression.
        let early = c
            .source_expr
            .map(|(e, _)| e)
            .into_iter()
            .chain(c.version_expr);
        for e in c
            .count
            .iter()
            .chain(c.for_each.iter())
            .chain(c.enabled.iter())
            .copied()
            .chain(early)
        {
            v.references(e, Meta::None);
        }
        if let Some(n) = c.count {
            v.check_count(n);
        }
        if let Some(f) = c.for_each {
            v.check_for_each(f);
        }
        for a in &c.inputs {
            v.references(a.expr, meta);
        }
        for p in &c.providers {
            if let Some(k) = p.parent_key {
                v.references(k, meta);
            }
        }
        if let Some(&child) = children.get(&c.name) {
            modules::check_input_values(db, ws, child, file, hir, c, &mut v.out);
            modules::deprecated_inputs(db, child, file, c, &mut v.out);
            // An ephemeral value for a variable not declared ephemeral (Terraform 1.10).
            if *sensitive::has_ephemeral_sources(db, module) {
                let accepting = sensitive::ephemeral_variables(db, child);
                for a in &c.inputs {
                    if !accepting.contains(&a.name)
                        && sensitive::ephemeral_value(db, module, hir, a.expr)
                    {
                        v.out.push(
                            Diagnostic::error("ephemeral-not-allowed", "Ephemeral value not allowed")
                                .with_detail("This input variable is not declared as accepting ephemeral values, so it cannot be set to a result derived from an ephemeral value.")
                                .found(file, At::Expr(a.expr)),
                        );
                    }
                }
            }
        }
        for (r, span) in &c.depends_on {
            v.check_ref(r, At::Id(*span), Meta::None);
        }
    }
    if let Some(bodies) = bodies {
        v.out
            .extend(bodies.diagnostics.iter().cloned().map(Finding::Ready));
    }
    for (i, r) in hir.resources.iter().enumerate() {
        let first_diagnostic = v.out.len();
        // JSON bodies as the schema reads them (nested blocks from properties).
        let body = bodies
            .and_then(|b| b.bodies.get(i))
            .and_then(Option::as_ref)
            .unwrap_or(&r.body);
        let meta = match (r.count, r.for_each) {
            (Some(_), _) => Meta::Count,
            (_, Some(_)) => Meta::ForEach,
            _ => Meta::None,
        };
        if let Some(c) = r.count {
            v.references(c, Meta::None);
            v.check_count(c);
        }
        if let Some(f) = r.for_each {
            v.references(f, Meta::None);
            v.check_for_each(f);
        }
        if let Some(e) = r.enabled {
            v.references(e, Meta::None);
        }
        for (dep, span) in &r.depends_on {
            v.check_ref(dep, At::Id(*span), Meta::None);
        }
        if let Some(k) = r.provider_key {
            v.references(k, meta);
        }
        v.check_scope = r.check.clone();
        v.body_references(body, meta);
        v.check_scope = None;
        if let Some(schema) = schemas.resources.get(&(r.addr.mode, r.addr.ty.to_string())) {
            v.body_schema(body, &schema.block, r.span);
            for (path, span) in r
                .lifecycle
                .ignore_changes
                .iter()
                .zip(&r.lifecycle.ignore_changes_spans)
            {
                if let Some(ferro_hir::IgnoreStep::Attr(name)) = path.first() {
                    let b = &schema.block;
                    // A name that is not an identifier (the legacy "*") has its own error.
                    let ident = name
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
                    if ident
                        && !b.attributes.contains_key(name)
                        && !b.block_types.contains_key(name)
                    {
                        v.out
                            .push(unsupported_attribute(name, b).found(file, At::Id(*span)));
                    }
                }
            }
        }
        let resource_errors = v.out[first_diagnostic..].iter().any(Finding::is_error);
        v.provisioners(r, resource_errors);
    }
    v.import_identities();
    for c in &hir.checks {
        v.check_scope = Some(c.name.clone());
        for a in &c.asserts {
            v.references(a.condition, Meta::None);
            v.references(a.error_message, Meta::None);
        }
        v.check_scope = None;
    }
    // Provider blocks against their provider's configuration schema (JSON bodies are read
    // against it by the planner).
    for pb in hir.providers.iter().filter(|pb| !pb.body.json) {
        let addr = crate::local_provider(db, module, pb.name.clone());
        if let Some(schema) = schemas.providers.get(addr) {
            v.body_schema(&pb.body, &schema.block, pb.span);
        }
    }
    v.out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Meta {
    None,
    Count,
    ForEach,
}

struct Validator<'a> {
    tree: &'a ItemTree,
    file: SourceFile,
    /// The module, whose names are looked up one by one ([`crate::declared`]).
    module: Module,
    /// The module's whole index, for a file validated in one pass (see [`Validator::declared`]).
    index: Option<&'a ModuleIndex>,
    /// Where `file` and friends read from.
    base_dir: &'a std::path::Path,
    db: &'a dyn Db,
    out: Vec<Finding>,
    /// The `check` block whose contents are being checked: only there may its scoped data
    /// source be referred to.
    check_scope: Option<String>,
    /// The module as messages name it ("the root module", "module.a").
    module_name: String,
    /// The providers' schemas, for the attributes references name.
    schemas: &'a crate::SchemaTable,
    /// What each module call's value is before planning (see [`module_call_types`]).
    module_types: &'a std::collections::BTreeMap<String, Type>,
    /// The modules the calls load, by call name (for their outputs' deprecations).
    children: &'a std::collections::BTreeMap<String, Module>,
}

/// A scope in which every reference is an unknown value of any type, in the file `source`
/// (id, name and text) when it is known.
struct Unknowns<'a> {
    source: Option<(FileId, &'a str, &'a str)>,
    base_dir: &'a std::path::Path,
    /// The database whose query evaluates: the files read become its dependencies.
    db: Option<&'a dyn Db>,
    /// The types of module calls' values (the rest is of any type).
    modules: Option<&'a std::collections::BTreeMap<String, Type>>,
    /// The module's provider-defined functions, as their declarations say (called when the
    /// schema table has a caller and the arguments are known; else their results are unknown).
    functions: Option<StaticFunctions<'a>>,
}

/// Provider-defined functions for validation: the module's `required_providers` and the
/// declarations the CLI put in the schema table.
struct StaticFunctions<'a> {
    db: &'a dyn Db,
    module: Module,
    schemas: &'a crate::SchemaTable,
}

impl ferro_eval::ProviderFunctions for StaticFunctions<'_> {
    fn lookup(&self, local: &str, name: &str) -> ferro_eval::ProviderFunctionLookup {
        use ferro_eval::ProviderFunctionLookup as L;
        if !module_index(self.db, self.module)
            .required_providers
            .contains_key(local)
        {
            return L::NotRequired;
        }
        let Ok(addr) = crate::provider_source(self.db, self.module, local) else {
            return L::Unavailable;
        };
        match self.schemas.functions.get(&addr) {
            Some(fs) => L::in_declarations(fs, name),
            None => L::Unavailable,
        }
    }
    fn call(
        &self,
        local: &str,
        name: &str,
        args: &[Value],
    ) -> Result<Value, ferro_eval::ProviderCallError> {
        let addr = crate::provider_source(self.db, self.module, local).ok();
        match (&self.schemas.caller, addr) {
            (Some(caller), Some(addr)) => caller.0.call_function(&addr, name, args),
            _ => Ok(Value::dynamic_unknown()),
        }
    }
}

impl Scope for Unknowns<'_> {
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        if let (Reference::Module(name), Some(types)) = (r, self.modules) {
            if let Some(ty) = types.get(name) {
                return Ok(Value::unknown(ty.clone()));
            }
        }
        Ok(Value::dynamic_unknown())
    }
    fn free_variable(&self, _name: &str) -> Option<Value> {
        Some(Value::dynamic_unknown())
    }
    fn base_dir(&self) -> &std::path::Path {
        self.base_dir
    }
    fn file_read(&self, path: &std::path::Path) {
        if let Some(db) = self.db {
            crate::read_disk(db, path);
        }
    }
    fn source(&self, file: FileId) -> Option<(&str, &str)> {
        self.source
            .filter(|s| s.0 == file)
            .map(|(_, name, text)| (name, text))
    }
    fn provider_functions(&self) -> Option<&dyn ferro_eval::ProviderFunctions> {
        self.functions
            .as_ref()
            .map(|f| f as &dyn ferro_eval::ProviderFunctions)
    }
}

/// The value of an expression that references nothing, when it evaluates without errors.
pub fn static_value(hir: &FileHir, e: ExprId) -> Option<Value> {
    static_value_in(&hir.tree, e, std::path::Path::new("."), None)
}

/// [`static_value`] with file functions reading from `base_dir`, their reads recorded as
/// dependencies of the running query when `db` is given.
fn static_value_in(
    hir: &ItemTree,
    e: ExprId,
    base_dir: &std::path::Path,
    db: Option<&dyn Db>,
) -> Option<Value> {
    let mut has_refs = false;
    walk_references(&hir.exprs, e, &mut |_, _| has_refs = true);
    if has_refs {
        return None;
    }
    let unknowns = Unknowns {
        source: None,
        base_dir,
        db,
        modules: None,
        functions: None,
    };
    let (v, diags) = eval_position_free(hir, &unknowns, e);
    if diags.is_empty() && v.is_wholly_known() {
        Some(v)
    } else {
        None
    }
}

/// The import blocks of a file open in an editor (not among the items it validates one by
/// one), checked on the file's whole tree: their findings have the file's ids.
fn import_findings(
    db: &dyn Db,
    ws: Workspace,
    module: Module,
    file: SourceFile,
    hir: &ItemTree,
) -> Vec<Finding> {
    let schemas = ws.schemas(db);
    if hir.imports.is_empty() || schemas.identities.is_empty() && schemas.no_identity.is_empty() {
        return Vec::new();
    }
    let mut v = Validator::new(db, ws, module, file, hir);
    v.import_identities();
    v.out
}

impl<'a> Validator<'a> {
    fn new(
        db: &'a dyn Db,
        ws: Workspace,
        module: Module,
        file: SourceFile,
        hir: &'a ItemTree,
    ) -> Self {
        let place = module_place(db, ws, module);
        Validator {
            tree: hir,
            file,
            module,
            index: (!file.edited(db)).then(|| module_index(db, module)),
            base_dir: ws.base_dir(db),
            db,
            out: Vec::new(),
            check_scope: None,
            module_name: place.name.clone(),
            schemas: ws.schemas(db),
            module_types: module_call_types(db, ws, module),
            children: &place.children,
        }
    }

    /// Each import block's `identity` against its target type's identity schema, as plan
    /// checks it (Terraform 1.12 does in validate too); what is unknown before planning passes.
    fn import_identities(&mut self) {
        let schemas = self.schemas;
        for imp in &self.tree.imports {
            let ferro_hir::ImportBy::Identity(e) = imp.by else {
                continue;
            };
            if imp.to.resource.mode != ferro_addrs::ResourceMode::Managed {
                continue;
            }
            let ty = &*imp.to.resource.ty;
            if let Some(schema) = schemas.identities.get(ty) {
                self.import_identity(e, schema);
            } else if schemas.no_identity.contains(ty) {
                // Plan's error (what Terraform's plugin client answers for such a type).
                self.out.push(
                    Diagnostic::error(
                        "import-no-identity-schema",
                        format!("unknown identity type {ty:?}"),
                    )
                    .with_detail(format!(
                        "The provider of {} declares no resource identity for {ty:?}, so it cannot be imported by identity; import it by \"id\".",
                        imp.to.resource
                    ))
                    .found(self.file, At::Expr(e)),
                );
            }
        }
    }
}

impl Validator<'_> {
    /// What the module declares under `name`. A file open in an editor asks per name, so that
    /// a new declaration re-validates only what names it; any other file, validated in one
    /// pass, reads the module's index.
    fn declared(&self, name: Name) -> Option<crate::Declared> {
        match self.index {
            Some(index) => crate::index::declared_in(index, &name),
            None => crate::declared(self.db, self.module, name).clone(),
        }
    }

    /// The module's whole index: read only to suggest a name for one that is not declared, so
    /// that the file's validation depends on it only while it has such an error.
    fn index(&self) -> &ModuleIndex {
        module_index(self.db, self.module)
    }

    /// Evaluate with every reference unknown: what fails then (operand types, unknown functions,
    /// wrong argument counts, conversions of literals) fails for every possible input.
    fn check_eval(&mut self, e: ExprId) {
        let (_, diags) = eval_position_free(self.tree, &self.unknowns(), e);
        if diags.iter().any(Diagnostic::is_error) {
            self.out.push(Finding::EvalErrors(e));
        }
    }

    /// The scope of the checks that evaluate: every reference unknown.
    fn unknowns(&self) -> Unknowns<'_> {
        Unknowns {
            source: None,
            base_dir: self.base_dir,
            db: Some(self.db),
            modules: Some(self.module_types),
            functions: Some(StaticFunctions {
                db: self.db,
                module: self.module,
                schemas: self.schemas,
            }),
        }
    }

    /// An import block's `identity = EXPR` against the identity schema: not null, an object
    /// of its attributes (those required for import set), with Terraform's errors at the
    /// expression.
    fn import_identity(&mut self, e: ExprId, schema: &crate::IdentitySchema) {
        let (v, diags) = eval_position_free(self.tree, &self.unknowns(), e);
        if diags.iter().any(Diagnostic::is_error) {
            self.out.push(Finding::EvalErrors(e));
            return;
        }
        if v.is_null() {
            self.out.push(
                Diagnostic::error(
                    "invalid-import-identity",
                    "Invalid import identity argument",
                )
                .with_detail("The import identity cannot be null.")
                .found(self.file, At::Expr(e)),
            );
            return;
        }
        if let Err(err) = convert(&v, &schema.import_type()) {
            self.out.push(
                Diagnostic::error("incorrect-value-type", "Incorrect value type")
                    .with_detail(format!("Invalid expression value: {err}."))
                    .found(self.file, At::Expr(e)),
            );
        }
    }

    fn no_references(&mut self, e: ExprId, summary: &str, detail: &str) {
        let mut found = Vec::new();
        // HCL points at the reference's root name (`var` of `var.x`).
        walk_references(&self.tree.exprs, e, &mut |id, r| {
            let root = r.to_string().split('.').next().map_or(0, str::len);
            found.push((id, root as u32));
        });
        for (id, root) in found {
            self.out.push(
                Diagnostic::error("references-not-allowed", summary)
                    .with_detail(detail)
                    .found(self.file, At::ExprHead(id, root)),
            );
        }
    }

    /// A `count` known without planning: a number (Terraform 1.0.3 decodes it as one while
    /// loading the configuration), and not a negative one.
    fn check_count(&mut self, e: ExprId) {
        let Some(v) = static_value_in(self.tree, e, self.base_dir, Some(self.db)) else {
            return;
        };
        let n = match convert(&v, &Type::Number) {
            Ok(n) => n,
            Err(err) => {
                self.out.push(
                    Diagnostic::error("incorrect-value-type", "Incorrect value type")
                        .with_detail(format!("Invalid expression value: {}.", err.message))
                        .found(self.file, At::Expr(e)),
                );
                return;
            }
        };
        if n.is_null() {
            self.out.push(
                Diagnostic::error("invalid-count", "Invalid count argument")
                    .with_detail(
                        "The given \"count\" argument value is null. An integer is required.",
                    )
                    .found(self.file, At::Expr(e)),
            );
            return;
        }
        let Some(n) = n.as_number() else {
            return;
        };
        let problem = match n.to_i64().filter(|_| n.is_integer()) {
            None => {
                "value must be a whole number, between -9223372036854775808 and 9223372036854775807"
            }
            Some(i) if i < 0 => "negative numbers are not supported",
            Some(_) => return,
        };
        self.out.push(
            Diagnostic::error("invalid-count", "Invalid count argument")
                .with_detail(format!(
                    "The given \"count\" argument value is unsuitable: {problem}."
                ))
                .found(self.file, At::Expr(e)),
        );
    }

    /// A `for_each` (of a resource or a module call) whose value is known without planning
    /// must be a map, an object or a set of strings (Terraform's validate evaluates it).
    fn check_for_each(&mut self, e: ExprId) {
        use ferro_value::ValueKind;
        // With every reference unknown, as Terraform's validate has them: a value whose kind
        // is known already (a tuple of unknown elements, say) can be refused.
        let (v, diags) = eval_position_free(self.tree, &self.unknowns(), e);
        if !diags.is_empty() || v.is_unknown() || v.is_sensitive() {
            return;
        }
        let argument = "Invalid for_each argument";
        let problem = match &v.kind {
            ValueKind::Map(..) | ValueKind::Object(_) => None,
            ValueKind::Null(_) => Some((argument, "the given \"for_each\" argument value is null. A map, or set of strings is allowed.".to_string())),
            ValueKind::Set(..) if !v.is_wholly_known() => None,
            ValueKind::Set(_, es) => es.iter().find(|e| e.as_str().is_none()).map(|e| {
                ("Invalid for_each set argument", format!("\"for_each\" supports maps and sets of strings, but you have provided a set containing type {}.", e.ty().friendly_name()))
            }),
            _ => Some((argument, format!("the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.", v.ty().friendly_name()))),
        };
        if let Some((summary, p)) = problem {
            let d = Diagnostic::error("invalid-for-each", summary).with_detail(format!(
                "The given \"for_each\" argument value is unsuitable: {p}"
            ));
            let mut p = Pending::new(d, Place::new(self.file, At::Expr(e)));
            p.values_of = Some(e);
            self.out.push(Finding::Pending(p));
        }
    }

    fn body_schema(&mut self, body: &BlockBody, schema: &Block, block_span: SpanId) {
        for a in &body.attrs {
            match schema.attributes.get(&a.name) {
                // HCL's JSON bodies name the property, and suggest any name of the block.
                None if body.json => {
                    let names = schema.attributes.keys().chain(schema.block_types.keys());
                    let hint = suggest(&a.name, names)
                        .map(|s| format!(" Did you mean {s:?}?"))
                        .unwrap_or_default();
                    self.out.push(
                        Diagnostic::error(
                            "unsupported-argument",
                            "Extraneous JSON object property",
                        )
                        .with_detail(format!(
                            "No argument or block type is named {:?}.{hint}",
                            a.name
                        ))
                        .found(self.file, At::Id(a.name_span)),
                    );
                }
                None => {
                    let mut detail =
                        format!("An argument named {:?} is not expected here.", a.name);
                    if schema.block_types.contains_key(&a.name) {
                        detail.push_str(&format!(
                            " Did you mean to define a block of type {:?}?",
                            a.name
                        ));
                    } else if let Some(s) = suggest(&a.name, schema.attributes.keys()) {
                        detail.push_str(&format!(" Did you mean {s:?}?"));
                    }
                    self.out.push(
                        Diagnostic::error("unsupported-argument", "Unsupported argument")
                            .with_detail(detail)
                            .found(self.file, At::Id(a.name_span)),
                    );
                }
                Some(attr) if attr.computed && !attr.optional && !attr.required => {
                    self.out.push(
                        Diagnostic::error("unconfigurable-attribute", "Value for unconfigurable attribute")
                            .with_detail(format!("Can't configure a value for {:?}: its value will be decided automatically based on the result of applying this configuration.", a.name))
                            .found(self.file, At::Id(a.name_span)),
                    );
                }
                Some(attr) => {
                    if let Some(v) =
                        static_value_in(self.tree, a.expr, self.base_dir, Some(self.db))
                    {
                        if let Err(err) = convert(&v, &attr.constraint_type()) {
                            self.out.push(
                                Diagnostic::error(
                                    "incorrect-attribute-type",
                                    "Incorrect attribute value type",
                                )
                                .with_detail(format!(
                                    "Inappropriate value for attribute {:?}: {}.",
                                    a.name, err.message
                                ))
                                .found(self.file, At::Expr(a.expr)),
                            );
                        }
                    }
                }
            }
        }
        let missing_item = self.missing_item_range(body, block_span);
        for (name, attr) in &schema.attributes {
            if attr.required && !body.attrs.iter().any(|a| &a.name == name) {
                self.out.push(
                    Diagnostic::error("missing-required-argument", "Missing required argument")
                        .with_detail(format!(
                            "The argument {name:?} is required, but no definition was found."
                        ))
                        .found(self.file, missing_item),
                );
            }
        }
        self.nested_blocks(body, schema, block_span);
    }

    /// The blocks of type `name` in `body` as far as they are known statically: written ones,
    /// and those of `dynamic` blocks whose `for_each` is a literal (blocks with the wrong labels
    /// generate none). None when a `dynamic` block's `for_each` is not known before planning.
    fn static_blocks(
        &mut self,
        body: &BlockBody,
        name: &str,
        nb: &ferro_value::schema::NestedBlock,
    ) -> Option<Vec<crate::Counted<At>>> {
        let mut out = Vec::new();
        for b in body.blocks.iter().filter(|b| b.ty == name) {
            if crate::check_labels(b, nb).is_some() {
                continue;
            }
            let n = match &b.dynamic {
                None => 1,
                Some(d) => {
                    match static_value_in(self.tree, d.for_each, self.base_dir, None)?.kind {
                        ferro_value::ValueKind::List(_, es)
                        | ferro_value::ValueKind::Tuple(es)
                        | ferro_value::ValueKind::Set(_, es) => es.len(),
                        ferro_value::ValueKind::Map(_, es) | ferro_value::ValueKind::Object(es) => {
                            es.len()
                        }
                        _ => 0,
                    }
                }
            };
            out.extend(std::iter::repeat_n(crate::Counted::place(b), n));
        }
        Some(out)
    }
}

/// "Reference to undeclared input variable", suggesting a declared name close to it as
/// Terraform does.
/// A name that is neither an argument, an exported attribute nor a nested block of `block`.
fn unsupported_attribute(name: &str, block: &ferro_value::schema::Block) -> Diagnostic {
    let names: Vec<String> = block
        .attributes
        .keys()
        .chain(block.block_types.keys())
        .cloned()
        .collect();
    let hint = suggest(name, names.iter())
        .map(|s| format!(" Did you mean {s:?}?"))
        .unwrap_or_default();
    Diagnostic::error("unsupported-attribute", "Unsupported attribute").with_detail(format!(
        "This object has no argument, nested block, or exported attribute named {name:?}.{hint}"
    ))
}

pub fn undeclared_variable(name: &str, close: Option<&String>) -> Diagnostic {
    let detail = match close {
        Some(s) => format!("An input variable with the name {name:?} has not been declared. Did you mean {s:?}?"),
        None => format!(
            "An input variable with the name {name:?} has not been declared. This variable can be declared with a variable {name:?} {{}} block."
        ),
    };
    Diagnostic::error(
        "undeclared-reference",
        "Reference to undeclared input variable",
    )
    .with_detail(detail)
}

/// "Reference to undeclared local value", suggesting a declared name close to it.
pub fn undeclared_local(name: &str, close: Option<&String>) -> Diagnostic {
    let detail = match close {
        Some(s) => format!(
            "A local value with the name {name:?} has not been declared. Did you mean {s:?}?"
        ),
        None => format!("A local value with the name {name:?} has not been declared."),
    };
    Diagnostic::error(
        "undeclared-reference",
        "Reference to undeclared local value",
    )
    .with_detail(detail)
}

pub use ferro_diag::suggest;
