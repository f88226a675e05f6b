//! Module-level evaluation shared by planning and apply: variable values, locals evaluated on
//! demand (memoised), and the current value of every resource as expressions see it.

use ferro_addrs::{InstanceKey, Resource};
use ferro_db::{
    file_hir, module_index, resource_bodies, Db, ItemRef, ModuleIndex, ResourceBodies, SourceFile,
    Workspace,
};
use ferro_diag::{Diagnostic, FileId};
use ferro_eval::{eval_expr, Scope};
use ferro_hir::{ExprId, FileHir, Reference, ResourceDecl};
use ferro_value::{Type, Value, ValueKind};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, RwLock};

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
}

impl InstanceCtx {
    pub fn for_key(key: &InstanceKey, each_value: Option<Value>) -> Self {
        match key {
            InstanceKey::None => InstanceCtx::default(),
            InstanceKey::Int(i) => InstanceCtx {
                count_index: Some(*i),
                each: None,
            },
            InstanceKey::Str(s) => InstanceCtx {
                count_index: None,
                each: Some((
                    Value::string(s.as_str()),
                    each_value.unwrap_or_else(Value::dynamic_unknown),
                )),
            },
        }
    }
}

/// Holds no database handle after construction (salsa databases are not `Sync`); every file's
/// HIR and the module index are fetched up front so workers on several threads can evaluate.
pub struct ModuleEval<'a> {
    hirs: HashMap<SourceFile, &'a FileHir>,
    /// JSON resource bodies read against their schemas, by file.
    bodies: HashMap<SourceFile, &'a ResourceBodies>,
    /// Id, name and text of every file, for messages that quote source ranges.
    sources: Vec<(FileId, &'a str, &'a str)>,
    pub ws: Workspace,
    pub index: &'a ModuleIndex,
    pub vars: BTreeMap<String, Value>,
    locals: Mutex<HashMap<String, Value>>,
    /// Cache locals that still contain unknowns (planning: values only grow more known later in
    /// apply, never during one plan walk).
    cache_partial: bool,
    resources: RwLock<HashMap<Resource, Value>>,
    cwd: String,
    in_progress: Mutex<Vec<String>>,
}

impl<'a> ModuleEval<'a> {
    pub fn new(
        db: &'a dyn Db,
        ws: Workspace,
        vars: BTreeMap<String, Value>,
        cache_partial: bool,
        cwd: String,
    ) -> Self {
        ModuleEval {
            hirs: ws
                .files(db)
                .iter()
                .map(|f| (*f, file_hir(db, *f)))
                .collect(),
            bodies: ws
                .files(db)
                .iter()
                .map(|f| (*f, resource_bodies(db, ws, *f)))
                .collect(),
            sources: ws
                .files(db)
                .iter()
                .map(|f| (f.id(db), f.path(db).as_str(), f.text(db).as_str()))
                .collect(),
            ws,
            index: module_index(db, ws),
            vars,
            locals: Mutex::new(HashMap::new()),
            cache_partial,
            resources: RwLock::new(HashMap::new()),
            cwd,
            in_progress: Mutex::new(Vec::new()),
        }
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

    pub fn set_resource(&self, r: Resource, v: Value) {
        self.resources
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(r, v);
    }

    /// Replace one instance's value inside a resource value in place (O(1) amortised for count,
    /// O(log n) for for_each), so applying n instances costs O(n) in total.
    pub fn set_instance(&self, r: &Resource, key: &InstanceKey, v: Value) {
        let mut map = self.resources.write().unwrap_or_else(|e| e.into_inner());
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
        self.resources
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(r)
            .cloned()
    }

    fn local(&self, name: &str) -> Result<Value, Diagnostic> {
        if let Some(v) = self
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
        {
            let mut stack = self.in_progress.lock().unwrap_or_else(|e| e.into_inner());
            if stack.iter().any(|n| n == name) {
                return Err(
                    Diagnostic::error("cycle", "Cycle in local values").with_detail(format!(
                        "The local value {name:?} refers to itself through other local values."
                    )),
                );
            }
            stack.push(name.to_string());
        }
        let hir = self.hir(item.file);
        let local = &hir.locals[item.index];
        let (v, diags) = self.eval(item.file, local.expr, &InstanceCtx::default());
        self.in_progress
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|n| n != name);
        if let Some(d) = diags.into_iter().find(Diagnostic::is_error) {
            return Err(d);
        }
        if self.cache_partial || v.is_wholly_known() {
            self.locals
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(name.to_string(), v.clone());
        }
        Ok(v)
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
}

struct InstanceScope<'m, 'a> {
    m: &'m ModuleEval<'a>,
    inst: &'m InstanceCtx,
}

impl Scope for InstanceScope<'_, '_> {
    /// `file()` and friends resolve relative paths against the working directory, which
    /// `-chdir` changes (as Terraform changes the process's directory).
    fn base_dir(&self) -> &std::path::Path {
        std::path::Path::new(self.m.cwd.as_str())
    }
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        match r {
            Reference::Var(n) => self.m.vars.get(n).cloned().ok_or_else(|| {
                ferro_db::undeclared_variable(n, ferro_db::suggest(n, self.m.vars.keys()))
            }),
            Reference::Local(n) => self.m.local(n),
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
            Reference::PathModule | Reference::PathRoot => Ok(Value::string(".")),
            Reference::PathCwd => Ok(Value::string(self.m.cwd.as_str())),
            Reference::TerraformWorkspace => Ok(Value::string("default")),
            Reference::SelfRef => Err(Diagnostic::error(
                "invalid-self",
                "Invalid \"self\" reference",
            )
            .with_detail(
                "The \"self\" object is only available in provisioner and connection blocks.",
            )),
        }
    }
    fn source(&self, file: FileId) -> Option<(&str, &str)> {
        self.m
            .sources
            .iter()
            .find(|s| s.0 == file)
            .map(|(_, name, text)| (*name, *text))
    }
}
