//! Evaluation scopes shared by planning and apply: one [`ModuleEval`] per module instance, all
//! held by an [`EvalTree`]. Values cross a module boundary only through input variables (the
//! call's argument evaluated in the parent's scope, on demand) and outputs (the child's output
//! expressions, on demand); locals are evaluated on demand and memoised, and every resource's
//! current value is set by the walk (plan) or the interpreter (apply).

use crate::reads::Reads;
pub use crate::variable_value::{convert_variable, variable_conversion_error};
use ferro_addrs::{InstanceKey, ModuleInstance, Resource};
use ferro_db::{
    file_hir, module_index, module_tree, resource_bodies, Db, ItemRef, ModuleIndex, ModuleTree,
    ResourceBodies, SourceFile, TreeNodeId, Workspace,
};
use ferro_diag::{Diagnostic, FileId};
use ferro_eval::{eval_expr, Scope};
use ferro_hir::{ExprId, FileHir, ModuleCall, Reference, ResourceDecl};
use ferro_plan::Expansion;
use ferro_value::ValueMap;
use ferro_value::{Type, Value, ValueKind};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, RwLock};

mod release;

/// How a resource's instances are keyed, which decides the shape of its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repetition {
    Single,
    Count,
    ForEach,
}

/// The instance a body is evaluated for.
#[derive(Debug, Clone, Default)]
pub struct InstanceCtx {
    pub count_index: Option<i64>,
    pub each: Option<(Value, Value)>,
    /// `self` in a postcondition: the instance's planned or applied object.
    pub self_value: Option<Value>,
}

impl InstanceCtx {
    pub fn for_key(key: &InstanceKey, each_value: Option<Value>) -> Self {
        match key {
            InstanceKey::None => InstanceCtx::default(),
            InstanceKey::Int(i) => InstanceCtx {
                count_index: Some(*i),
                ..InstanceCtx::default()
            },
            InstanceKey::Str(s) => InstanceCtx {
                count_index: None,
                each: Some((
                    Value::string(s.as_str()),
                    each_value.unwrap_or_else(Value::dynamic_unknown),
                )),
                self_value: None,
            },
        }
    }
}

/// `each.value` by key for a `for_each` value: a map's or object's entries, or a set's strings
/// (each its own key), as expansion made the instances.
pub fn each_values(v: &Value) -> BTreeMap<String, Value> {
    let mut map = BTreeMap::new();
    if let Some(es) = v.as_entries() {
        for (k, x) in es {
            map.insert(k.to_string(), x.clone());
        }
    } else if let Some(es) = v.as_elements() {
        for x in es {
            if let Some(s) = x.as_str() {
                map.insert(s.to_string(), x.clone());
            }
        }
    }
    map
}

/// A static module (a node of the module tree) with what evaluation needs of it.
pub struct StaticModule<'a> {
    pub path: Vec<String>,
    pub dir: &'a str,
    pub index: &'a ModuleIndex,
    /// The call in the parent module, with the file it is in.
    pub call: Option<(SourceFile, &'a ModuleCall)>,
    pub parent: Option<TreeNodeId>,
    pub children: &'a BTreeMap<String, TreeNodeId>,
    /// What the module's expressions read of each resource they refer to (see
    /// [`crate::reads`]); a resource not in it has no value anything reads: the walk and apply
    /// do not build one (at 100 000 instances it was a third of a no-op plan's memory).
    pub reads: HashMap<Resource, Reads>,
}

/// How one module call expanded in one module instance.
#[derive(Debug, Clone)]
pub struct CallExpansion {
    pub expansion: Expansion,
    pub keys: Vec<InstanceKey>,
}

/// The values of one module instance.
struct Instance {
    node: TreeNodeId,
    path: ModuleInstance,
    /// `count.index` / `each` of the call instance, for evaluating the call's arguments.
    call_ctx: InstanceCtx,
    vars: Mutex<HashMap<String, Value>>,
    locals: Mutex<HashMap<String, Value>>,
    outputs: Mutex<HashMap<String, Value>>,
    resources: RwLock<HashMap<Resource, Value>>,
    /// Resources whose values the walk gave back (see [`ModuleEval::release_resource`]).
    released: crate::released::Released,
}

thread_local! {
    /// The named values this thread is evaluating (instance identity, name): a value found
    /// here again refers to itself. Per thread, because workers evaluate the same module
    /// instance concurrently and one worker's evaluation is no cycle of another's.
    static IN_PROGRESS: std::cell::RefCell<Vec<(usize, String)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl Instance {
    fn new(node: TreeNodeId, path: ModuleInstance, call_ctx: InstanceCtx) -> Self {
        Instance {
            node,
            path,
            call_ctx,
            vars: Mutex::new(HashMap::new()),
            locals: Mutex::new(HashMap::new()),
            outputs: Mutex::new(HashMap::new()),
            resources: RwLock::new(HashMap::new()),
            released: Default::default(),
        }
    }
}

/// Holds no database handle after construction (salsa databases are not `Sync`); every file's
/// HIR and every module's index are fetched up front so workers on several threads can evaluate.
pub struct EvalTree<'a> {
    pub ws: Workspace,
    pub tree: &'a ModuleTree,
    pub statics: Vec<StaticModule<'a>>,
    hirs: HashMap<SourceFile, &'a FileHir>,
    /// JSON resource bodies read against their schemas, by file.
    bodies: HashMap<SourceFile, &'a ResourceBodies>,
    /// Id, name and text of every file, for messages that quote source ranges.
    sources: Vec<(FileId, &'a str, &'a str)>,
    /// Root module input variables.
    pub vars: BTreeMap<String, Value>,
    /// Cache values that still contain unknowns (planning: values only grow more known later
    /// in apply, never during one plan walk).
    cache_partial: bool,
    /// Resource values keep only the attributes the module's expressions read (plan and
    /// apply: see [`crate::reads`]); the console evaluates expressions the files do not hold,
    /// so it sees whole objects.
    pub project: bool,
    cwd: String,
    /// The selected workspace (`terraform.workspace`).
    workspace: String,
    /// `terraform.applying`: the tree evaluates for an apply.
    applying: bool,
    instances: RwLock<HashMap<ModuleInstance, Arc<Instance>>>,
    /// The instances of each static module, in order.
    by_node: RwLock<HashMap<TreeNodeId, Vec<ModuleInstance>>>,
    calls: RwLock<HashMap<(ModuleInstance, String), CallExpansion>>,
    /// The registry a provider `source` without a hostname names
    /// ([`ferro_db::default_registry`]).
    pub default_registry: &'a str,
    /// The providers whose functions the modules call (none: such calls are unknown).
    functions: Option<Arc<crate::provider_functions::FunctionProviders>>,
}

impl<'a> EvalTree<'a> {
    pub fn new(
        db: &'a dyn Db,
        ws: Workspace,
        vars: BTreeMap<String, Value>,
        cache_partial: bool,
        cwd: String,
    ) -> Self {
        let tree = module_tree(db, ws);
        let mut hirs = HashMap::new();
        let mut bodies = HashMap::new();
        let mut sources = Vec::new();
        for m in ws.modules(db) {
            for f in m.files(db) {
                hirs.insert(*f, file_hir(db, *f));
                bodies.insert(*f, resource_bodies(db, ws, *f));
                sources.push((f.id(db), f.path(db).as_str(), f.text(db).as_str()));
            }
        }
        let statics = tree
            .nodes
            .iter()
            .map(|n| StaticModule {
                path: n.path.clone(),
                dir: n.module.dir(db).as_str(),
                index: module_index(db, n.module),
                call: n
                    .call
                    .map(|item| (item.file, &file_hir(db, item.file).module_calls[item.index])),
                parent: n.parent,
                children: &n.children,
                reads: crate::reads::read_resources(
                    n.module
                        .files(db)
                        .iter()
                        .filter_map(|f| hirs.get(f).copied()),
                ),
            })
            .collect();
        let root = ModuleInstance::root();
        let t = EvalTree {
            ws,
            tree,
            statics,
            hirs,
            bodies,
            sources,
            vars,
            cache_partial,
            project: false,
            workspace: ferro_state::workspace::current_workspace(std::path::Path::new(&cwd)),
            applying: false,
            cwd,
            instances: RwLock::new(HashMap::new()),
            by_node: RwLock::new(HashMap::new()),
            calls: RwLock::new(HashMap::new()),
            default_registry: ferro_db::default_registry(db),
            functions: None,
        };
        t.add_instance(Instance::new(0, root, InstanceCtx::default()));
        t
    }

    /// Call provider-defined functions through these providers.
    pub fn with_provider_functions(
        mut self,
        functions: Arc<crate::provider_functions::FunctionProviders>,
    ) -> Self {
        self.functions = Some(functions);
        self
    }

    /// Give resources only the attributes the expressions of their module read (see
    /// [`crate::reads`]): for trees that evaluate the configuration's own expressions only.
    /// The tree evaluates the configuration for an apply (`terraform.applying` is true).
    pub fn for_apply(mut self) -> Self {
        self.applying = true;
        self
    }

    pub fn project_reads(mut self) -> Self {
        self.project = true;
        self
    }

    fn add_instance(&self, inst: Instance) {
        let path = inst.path.clone();
        let node = inst.node;
        let new = self
            .instances
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(path.clone(), Arc::new(inst))
            .is_none();
        if new {
            self.by_node
                .write()
                .unwrap_or_else(|e| e.into_inner())
                .entry(node)
                .or_default()
                .push(path);
        }
    }

    /// The root module's scope.
    pub fn root(&self) -> ModuleEval<'_> {
        self.scope(&ModuleInstance::root())
            .expect("the root module instance always exists")
    }

    /// The scope of a module instance, if the walk has expanded it.
    pub fn scope(&self, path: &ModuleInstance) -> Option<ModuleEval<'_>> {
        let inst = self
            .instances
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(path)
            .cloned()?;
        Some(ModuleEval {
            tree: self,
            index: self.statics[inst.node].index,
            inst,
        })
    }

    /// Every instance of a static module, in the order they were expanded.
    pub fn instances_of(&self, node: TreeNodeId) -> Vec<ModuleInstance> {
        self.by_node
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&node)
            .cloned()
            .unwrap_or_default()
    }

    /// Record how the call `name` in `parent` expanded and create its instances; each key comes
    /// with its `each.value` for `for_each`.
    pub fn expand_call(
        &self,
        parent: &ModuleInstance,
        name: &str,
        expansion: Expansion,
        keys: Vec<(InstanceKey, Option<Value>)>,
    ) {
        let Some(pnode) = self.scope(parent).map(|s| s.inst.node) else {
            return;
        };
        let Some(&child) = self.statics[pnode].children.get(name) else {
            return;
        };
        for (k, each) in &keys {
            let ctx = InstanceCtx::for_key(k, each.clone());
            self.add_instance(Instance::new(child, parent.child(name, k.clone()), ctx));
        }
        self.calls
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(
                (parent.clone(), name.to_string()),
                CallExpansion {
                    expansion,
                    keys: keys.into_iter().map(|(k, _)| k).collect(),
                },
            );
    }

    /// Every call expansion recorded, for the plan.
    pub fn call_expansions(&self) -> BTreeMap<(ModuleInstance, String), CallExpansion> {
        self.calls
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// The HIR of one of the workspace's files.
    pub fn hir(&self, file: SourceFile) -> &'a FileHir {
        self.hirs[&file]
    }

    /// A resource's declaration with its body as the schema reads it (for JSON files, nested
    /// blocks given as properties are blocks: `ferro_db::read_json_body`).
    pub fn resource(&self, item: ItemRef) -> Cow<'a, ResourceDecl> {
        let decl = &self.hirs[&item.file].resources[item.index];
        match self
            .bodies
            .get(&item.file)
            .and_then(|b| b.bodies.get(item.index))
        {
            Some(Some(body)) => Cow::Owned(ResourceDecl {
                body: body.clone(),
                ..decl.clone()
            }),
            _ => Cow::Borrowed(decl),
        }
    }
}

/// The scope of one module instance.
pub struct ModuleEval<'t> {
    pub tree: &'t EvalTree<'t>,
    pub index: &'t ModuleIndex,
    inst: Arc<Instance>,
}

impl<'t> ModuleEval<'t> {
    /// The provider-defined functions this module instance may call (its `required_providers`),
    /// for scopes built around the module (a test's assertions); None when the tree has none.
    pub fn provider_functions(&self) -> Option<&dyn ferro_eval::ProviderFunctions> {
        self.tree.functions.as_ref()?;
        Some(self)
    }
    pub fn path(&self) -> &ModuleInstance {
        &self.inst.path
    }

    pub fn node(&self) -> TreeNodeId {
        self.inst.node
    }

    /// `count.index` / `each` of the module call instance this module instance is.
    pub fn call_ctx(&self) -> &InstanceCtx {
        &self.inst.call_ctx
    }

    /// The working directory commands run in (`-chdir`), as evaluation sees it.
    pub fn cwd(&self) -> &str {
        self.tree.cwd.as_str()
    }

    pub fn statics(&self) -> &'t StaticModule<'t> {
        &self.tree.statics[self.inst.node]
    }

    /// The HIR of one of the workspace's files.
    pub fn hir(&self, file: SourceFile) -> &'t FileHir {
        self.tree.hir(file)
    }

    /// A source range written as HCL writes it in messages (`main.tf:6,3-7`).
    pub fn range_text(&self, span: ferro_diag::Span) -> String {
        match self.tree.sources.iter().find(|s| s.0 == span.file) {
            Some((_, name, text)) => ferro_diag::hcl_range(name, text, span),
            None => String::from("(unknown)"),
        }
    }

    pub fn resource(&self, item: ItemRef) -> Cow<'t, ResourceDecl> {
        self.tree.resource(item)
    }

    /// Whether some expression of this module refers to `r`: when none does, the walk and
    /// apply build no value for it (see [`crate::reads`]).
    pub fn reads(&self, r: &Resource) -> bool {
        self.statics().reads.contains_key(r)
    }

    pub fn set_resource(&self, r: Resource, v: Value) {
        let v = self.projected_resource(&r, v);
        self.inst
            .resources
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(r, v);
    }

    /// Replace one instance's value inside a resource value in place (O(1) amortised for count,
    /// O(log n) for for_each), so applying n instances costs O(n) in total.
    pub fn set_instance(&self, r: &Resource, key: &InstanceKey, v: Value) {
        let v = self.projected(r, v);
        let mut map = self
            .inst
            .resources
            .write()
            .unwrap_or_else(|e| e.into_inner());
        let Some(cur) = map.get_mut(r) else {
            return;
        };
        match (&mut cur.kind, key) {
            (ValueKind::Tuple(es), InstanceKey::Int(i)) => {
                let es = Arc::make_mut(es);
                if let Some(slot) = es.get_mut(*i as usize) {
                    *slot = v;
                }
            }
            (ValueKind::Object(m), InstanceKey::Str(k)) => {
                Arc::make_mut(m).insert(k.clone(), v);
            }
            (_, InstanceKey::None) => *cur = v,
            _ => {}
        }
    }

    pub fn resource_value(&self, r: &Resource) -> Option<Value> {
        self.inst.released.check(r, &self.inst.path);
        self.inst
            .resources
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(r)
            .cloned()
    }

    fn cacheable(&self, v: &Value) -> bool {
        self.tree.cache_partial || v.is_wholly_known()
    }

    /// Whether this tree evaluates for a plan (values may stay unknown until apply, and the
    /// impure functions give unknowns, as Terraform's plan walk has them).
    pub fn planning(&self) -> bool {
        self.tree.cache_partial
    }

    /// Whether `what` is being evaluated (see [`ModuleEval::enter`]).
    fn in_progress(&self, what: &str) -> bool {
        let id = Arc::as_ptr(&self.inst) as usize;
        IN_PROGRESS.with(|stack| stack.borrow().iter().any(|(i, n)| *i == id && n == what))
    }

    /// Guard against evaluating a named value while it is being evaluated.
    fn enter(&self, what: &str) -> Result<(), Diagnostic> {
        let id = Arc::as_ptr(&self.inst) as usize;
        IN_PROGRESS.with(|stack| {
            let mut stack = stack.borrow_mut();
            if stack.iter().any(|(i, n)| *i == id && n == what) {
                return Err(
                    Diagnostic::error("cycle", "Cycle in local values").with_detail(format!(
                        "The value {what} refers to itself through other values."
                    )),
                );
            }
            stack.push((id, what.to_string()));
            Ok(())
        })
    }

    fn leave(&self, what: &str) {
        let id = Arc::as_ptr(&self.inst) as usize;
        IN_PROGRESS.with(|stack| {
            let mut stack = stack.borrow_mut();
            if let Some(pos) = stack.iter().rposition(|(i, n)| *i == id && n == what) {
                stack.remove(pos);
            }
        });
    }

    fn local(&self, name: &str) -> Result<Value, Diagnostic> {
        if let Some(v) = self
            .inst
            .locals
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
        {
            return Ok(v.clone());
        }
        let Some(item) = self.index.locals.get(name) else {
            return Err(ferro_db::undeclared_local(
                name,
                ferro_db::suggest(name, self.index.locals.keys()),
            ));
        };
        let key = format!("local.{name}");
        self.enter(&key)?;
        let local = &self.hir(item.file).locals[item.index];
        let (v, diags) = self.eval(item.file, local.expr, &InstanceCtx::default());
        self.leave(&key);
        if let Some(d) = diags.into_iter().find(Diagnostic::is_error) {
            return Err(d);
        }
        if self.cacheable(&v) {
            self.inst
                .locals
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(name.to_string(), v.clone());
        }
        Ok(v)
    }

    /// Keep `v` as the value of local `name`, evaluated where the walk plans it (unless a
    /// reference evaluated and kept it first).
    pub fn cache_local(&self, name: &str, v: Value) {
        if self.cacheable(&v) {
            self.inst
                .locals
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .entry(name.to_string())
                .or_insert(v);
        }
    }

    /// An input variable: the root's given values, or a child's argument evaluated in the
    /// parent's scope, converted to the declared type.
    pub fn var(&self, name: &str) -> Result<Value, Diagnostic> {
        if self.inst.path.is_root() {
            return self.tree.vars.get(name).cloned().ok_or_else(|| {
                ferro_db::undeclared_variable(name, ferro_db::suggest(name, self.tree.vars.keys()))
            });
        }
        if let Some(v) = self
            .inst
            .vars
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
        {
            return Ok(v.clone());
        }
        let Some(item) = self.index.variables.get(name) else {
            return Err(ferro_db::undeclared_variable(
                name,
                ferro_db::suggest(name, self.index.variables.keys()),
            ));
        };
        let v = self.var_unvalidated(name)?;
        let var = &self.hir(item.file).variables[item.index];
        let hir = self.hir(item.file);
        let key = format!("validation of var.{name}");
        if self.in_progress(&key) {
            // Reached from the variable's own rule (through a local value, say): its value,
            // which the rule is checking.
            return Ok(v);
        }
        if !var.validations.is_empty() {
            if let Some((_, fname, text)) = self.tree.sources.iter().find(|s| Some(s.0) == hir.file)
            {
                // A rule may refer to the rest of the module (Terraform 1.9+): other variables
                // by their converted values, anything else as expressions do.
                self.enter(&key)?;
                let ctx = InstanceCtx::default();
                let others = ValidationScope {
                    inner: InstanceScope {
                        m: self,
                        inst: &ctx,
                    },
                };
                let checked =
                    crate::validation::check_validations(hir, (fname, text), var, &v, &others);
                self.leave(&key);
                checked?;
            }
        }
        if self.cacheable(&v) {
            self.inst
                .vars
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(name.to_string(), v.clone());
        }
        Ok(v)
    }

    /// A child module's input variable converted to its type, before its validation rules.
    fn var_unvalidated(&self, name: &str) -> Result<Value, Diagnostic> {
        let Some(item) = self.index.variables.get(name) else {
            return Err(ferro_db::undeclared_variable(
                name,
                ferro_db::suggest(name, self.index.variables.keys()),
            ));
        };
        let var = &self.hir(item.file).variables[item.index];
        let key = format!("var.{name}");
        self.enter(&key)?;
        let given = self.call_argument(name);
        self.leave(&key);
        // A null argument for a non-nullable variable with a default takes the default
        // (Terraform 1.1+).
        let given =
            given?.filter(|(v, _)| !(v.is_null() && !var.nullable && var.default.is_some()));
        let (raw, span) = match given {
            Some(x) => x,
            None => match var.default {
                Some(d) => {
                    let (v, ds) = self.eval(item.file, d, &InstanceCtx::default());
                    if let Some(d) = ds.into_iter().find(Diagnostic::is_error) {
                        return Err(d);
                    }
                    (v, self.hir(item.file).span(d))
                }
                None => (Value::null(Type::Dynamic), None),
            },
        };
        convert_variable(var, raw, span, &self.inst.path)
    }

    /// The value the call of this module instance gives for `name`, evaluated in the parent.
    fn call_argument(
        &self,
        name: &str,
    ) -> Result<Option<(Value, Option<ferro_diag::Span>)>, Diagnostic> {
        let Some((file, call)) = self.statics().call else {
            return Ok(None);
        };
        let Some(arg) = call.inputs.iter().find(|a| a.name == name) else {
            return Ok(None);
        };
        let Some((parent_path, _)) = self.inst.path.split_last() else {
            return Ok(None);
        };
        let Some(parent) = self.tree.scope(&parent_path) else {
            return Ok(Some((Value::dynamic_unknown(), None)));
        };
        let (v, ds) = parent.eval(file, arg.expr, &self.inst.call_ctx);
        if let Some(d) = ds.into_iter().find(Diagnostic::is_error) {
            return Err(d);
        }
        Ok(Some((v, self.hir(file).span(arg.expr))))
    }

    /// An output of this module instance.
    pub fn output(&self, name: &str) -> Result<Value, Diagnostic> {
        if let Some(v) = self
            .inst
            .outputs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
        {
            return Ok(v.clone());
        }
        self.inst.released.check_outputs(&self.inst.path);
        let Some(item) = self.index.outputs.get(name) else {
            return Ok(Value::dynamic_unknown());
        };
        let o = &self.hir(item.file).outputs[item.index];
        let Some(e) = o.value else {
            return Ok(Value::null(Type::Dynamic));
        };
        let key = format!("output.{name}");
        self.enter(&key)?;
        let (v, ds) = self.eval(item.file, e, &InstanceCtx::default());
        self.leave(&key);
        if let Some(d) = ds.into_iter().find(Diagnostic::is_error) {
            return Err(d);
        }
        let v = if o.ephemeral {
            v.with_marks(ferro_value::Marks::EPHEMERAL)
        } else if v.contains_ephemeral() {
            return Err(crate::variable_value::ephemeral_not_allowed(
                "This output value is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value.",
                self.hir(item.file).span(e),
            ));
        } else {
            v
        };
        let v = if o.sensitive { v.mark_sensitive() } else { v };
        if self.cacheable(&v) {
            self.inst
                .outputs
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(name.to_string(), v.clone());
        }
        Ok(v)
    }

    /// `module.NAME` in this scope: an object of outputs per child instance, shaped by the
    /// call's `count` (a tuple) or `for_each` (an object keyed like it); unknown while the call
    /// is not expanded.
    pub fn module_value(&self, name: &str) -> Result<Value, Diagnostic> {
        self.module_value_with(name, None)
    }

    /// [`ModuleEval::module_value`] with only the output `only` in each instance's object when
    /// the module declares it (an expression that takes one output: the others may wait for
    /// things not planned yet, as the item graph orders only that output before it).
    pub fn module_value_with(&self, name: &str, only: Option<&str>) -> Result<Value, Diagnostic> {
        let Some(exp) = self
            .tree
            .calls
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(self.inst.path.clone(), name.to_string()))
            .cloned()
        else {
            return Ok(Value::dynamic_unknown());
        };
        let mut values = Vec::with_capacity(exp.keys.len());
        for k in &exp.keys {
            let path = self.inst.path.child(name, k.clone());
            let Some(child) = self.tree.scope(&path) else {
                values.push((k.clone(), Value::dynamic_unknown()));
                continue;
            };
            let mut obj = ValueMap::new();
            match only.filter(|o| child.index.outputs.contains_key(*o)) {
                Some(o) => {
                    obj.insert(o.to_string(), child.output(o)?);
                }
                None => {
                    for out in child.index.outputs.keys() {
                        obj.insert(out.clone(), child.output(out)?);
                    }
                }
            }
            values.push((k.clone(), Value::object(obj)));
        }
        Ok(match exp.expansion {
            Expansion::Single => values
                .pop()
                .map(|(_, v)| v)
                .unwrap_or_else(Value::dynamic_unknown),
            // A disabled call is null, as in OpenTofu.
            Expansion::Enabled => values
                .pop()
                .map(|(_, v)| v)
                .unwrap_or_else(|| Value::null(Type::Dynamic)),
            Expansion::Count => Value::tuple(values.into_iter().map(|(_, v)| v).collect()),
            Expansion::ForEach => Value::object(
                values
                    .into_iter()
                    .map(|(k, v)| {
                        (
                            match k {
                                InstanceKey::Str(s) => s,
                                other => other.to_string(),
                            },
                            v,
                        )
                    })
                    .collect(),
            ),
        })
    }

    /// What `r` means in this module instance outside any resource (count, each and self
    /// unset): for expressions the module's files do not hold, such as a test file's
    /// assertions.
    pub fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        let inst = InstanceCtx::default();
        InstanceScope {
            m: self,
            inst: &inst,
        }
        .reference(r)
    }

    /// Evaluate an expression of `file` for one instance.
    pub fn eval(
        &self,
        file: SourceFile,
        e: ExprId,
        inst: &InstanceCtx,
    ) -> (Value, Vec<Diagnostic>) {
        let hir = self.hir(file);
        let scope = InstanceScope { m: self, inst };
        eval_expr(hir, &scope, e)
    }

    /// The values an expression of `file` refers to for one instance, as a diagnostic about
    /// it shows them.
    pub fn values(
        &self,
        file: SourceFile,
        e: ExprId,
        inst: &InstanceCtx,
    ) -> Vec<ferro_diag::ExprValue> {
        let scope = InstanceScope { m: self, inst };
        ferro_eval::expression_values(self.hir(file), &scope, e)
    }

    /// [`ModuleEval::eval`] with `dynamic` block iterators bound.
    pub fn eval_bound(
        &self,
        file: SourceFile,
        e: ExprId,
        inst: &InstanceCtx,
        bindings: &[(String, Value)],
    ) -> (Value, Vec<Diagnostic>) {
        if bindings.is_empty() {
            return self.eval(file, e, inst);
        }
        let hir = self.hir(file);
        let scope = InstanceScope { m: self, inst };
        ferro_eval::eval_expr_bound(hir, &scope, e, bindings.to_vec())
    }
}

struct InstanceScope<'m, 't> {
    m: &'m ModuleEval<'t>,
    inst: &'m InstanceCtx,
}

/// What a child module's variable validation rule sees of the module: the other variables
/// before their own rules (so that rules may refer to each other), the rest as usual.
struct ValidationScope<'m, 't> {
    inner: InstanceScope<'m, 't>,
}

impl Scope for ValidationScope<'_, '_> {
    fn provider_functions(&self) -> Option<&dyn ferro_eval::ProviderFunctions> {
        self.inner.provider_functions()
    }
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        match r {
            Reference::Var(n) => self.inner.m.var_unvalidated(n),
            _ => self.inner.reference(r),
        }
    }
    fn reference_output(&self, r: &Reference, output: &str) -> Result<Value, Diagnostic> {
        self.inner.reference_output(r, output)
    }
    fn pure_only(&self) -> bool {
        self.inner.pure_only()
    }
}

impl ferro_eval::ProviderFunctions for ModuleEval<'_> {
    fn lookup(&self, local: &str, name: &str) -> ferro_eval::ProviderFunctionLookup {
        match &self.tree.functions {
            Some(f) => f.lookup(self.node(), local, name),
            None => ferro_eval::ProviderFunctionLookup::Unavailable,
        }
    }
    fn call(
        &self,
        local: &str,
        name: &str,
        args: &[Value],
    ) -> Result<Value, ferro_eval::ProviderCallError> {
        match &self.tree.functions {
            Some(f) => f.call(self.node(), local, name, args),
            None => Err(ferro_eval::ProviderCallError {
                text: "provider functions are not available here".to_string(),
                argument: None,
            }),
        }
    }
}

impl Scope for InstanceScope<'_, '_> {
    fn provider_functions(&self) -> Option<&dyn ferro_eval::ProviderFunctions> {
        // The module's: an instance calls its module's providers.
        self.m.tree.functions.as_ref()?;
        Some(self.m)
    }
    fn reference_output(&self, r: &Reference, output: &str) -> Result<Value, Diagnostic> {
        match r {
            Reference::Module(n) => self.m.module_value_with(n, Some(output)),
            _ => self.reference(r),
        }
    }
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        match r {
            Reference::Var(n) => self.m.var(n),
            Reference::Local(n) => self.m.local(n),
            Reference::Module(n) => self.m.module_value(n),
            Reference::Resource(res) => Ok(self
                .m
                .resource_value(res)
                .unwrap_or_else(Value::dynamic_unknown)),
            Reference::CountIndex => Ok(self
                .inst
                .count_index
                .map(Value::int)
                .unwrap_or_else(|| Value::unknown(Type::Number))),
            Reference::EachKey => Ok(self
                .inst
                .each
                .as_ref()
                .map(|e| e.0.clone())
                .unwrap_or_else(|| Value::unknown(Type::String))),
            Reference::EachValue => Ok(self
                .inst
                .each
                .as_ref()
                .map(|e| e.1.clone())
                .unwrap_or_else(Value::dynamic_unknown)),
            Reference::PathModule => Ok(Value::string(self.m.statics().dir)),
            Reference::PathRoot => Ok(Value::string(".")),
            Reference::PathCwd => Ok(Value::string(self.m.tree.cwd.as_str())),
            Reference::TerraformWorkspace => Ok(Value::string(self.m.tree.workspace.as_str())),
            Reference::TerraformApplying => {
                Ok(Value::bool(self.m.tree.applying).with_marks(ferro_value::Marks::EPHEMERAL))
            }
            Reference::SelfRef if self.inst.self_value.is_some() => Ok(self
                .inst
                .self_value
                .clone()
                .unwrap_or_else(Value::dynamic_unknown)),
            Reference::SelfRef => Err(Diagnostic::error(
                "invalid-self",
                "Invalid \"self\" reference",
            )
            .with_detail(
                "The \"self\" object is only available in provisioner and connection blocks.",
            )),
        }
    }
    /// File functions read relative to the working directory (not the process's: `-chdir`).
    fn base_dir(&self) -> &std::path::Path {
        std::path::Path::new(self.m.tree.cwd.as_str())
    }
    fn source(&self, file: FileId) -> Option<(&str, &str)> {
        self.m
            .tree
            .sources
            .iter()
            .find(|s| s.0 == file)
            .map(|(_, name, text)| (*name, *text))
    }
    fn pure_only(&self) -> bool {
        self.m.planning()
    }
}
