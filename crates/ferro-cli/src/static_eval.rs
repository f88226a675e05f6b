//! Static evaluation, as OpenTofu evaluates some values before any state exists: the
//! encryption block's values and the keys of a provider block's `for_each`. Root variables
//! (their given values or defaults), locals (recursively, each once), `path.*` and
//! `terraform.workspace`; a reference to anything else is OpenTofu's "Dynamic value in static
//! context", and a value that is not known is an error too. The encryption block's values are
//! used unmarked (a sensitive passphrase is what the block is for) and never printed.

use crate::load::Loaded;
use ferro_diag::{has_errors, Diagnostic};
use ferro_eval::{eval_expr, Scope};
use ferro_hir::{FileHir, Reference};
use ferro_planner::RawVariable;
use ferro_syntax::ast;
use ferro_value::Value;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub(crate) struct Statics<'a> {
    l: &'a Loaded,
    vars: &'a BTreeMap<String, RawVariable>,
    dir: PathBuf,
    workspace: String,
    /// The locals being evaluated (a cycle is an error, not a hang); the subject the value
    /// is for, for messages.
    stack: RefCell<Vec<String>>,
    subject: RefCell<String>,
    /// The diagnostics' code, and what needs the values (for messages).
    code: &'static str,
    purpose: &'static str,
    /// The module evaluated in: the root (`vars` are its variables' values), or a child whose
    /// variables are what its call passes, evaluated statically in the caller (an error,
    /// kept until a reference needs the variable, when that value is not static).
    module: ferro_db::Module,
    inputs: Option<BTreeMap<String, Result<Value, Diagnostic>>>,
}

impl<'a> Statics<'a> {
    pub(crate) fn new(
        l: &'a Loaded,
        vars: &'a BTreeMap<String, RawVariable>,
        dir: &Path,
        workspace: &str,
    ) -> Statics<'a> {
        Statics {
            l,
            vars,
            dir: dir.to_path_buf(),
            workspace: workspace.to_string(),
            stack: RefCell::new(Vec::new()),
            subject: RefCell::new(String::new()),
            code: "encryption-not-static",
            purpose: "the encryption configuration",
            module: l.ws.root(&l.db),
            inputs: None,
        }
    }

    /// The evaluator of a child module `module`, called by `call` (a call of this evaluator's
    /// module, in `call_hir`): its variables are the call's arguments evaluated here.
    pub(crate) fn for_child(
        &self,
        module: ferro_db::Module,
        call_hir: &FileHir,
        call: &ferro_hir::ModuleCall,
    ) -> Statics<'a> {
        let inputs = call
            .inputs
            .iter()
            .map(|a| {
                *self.subject.borrow_mut() = format!("module.{}.{}", call.name, a.name);
                (a.name.clone(), self.eval_in(call_hir, a.expr))
            })
            .collect();
        Statics {
            l: self.l,
            vars: self.vars,
            dir: self.dir.clone(),
            workspace: self.workspace.clone(),
            stack: RefCell::new(Vec::new()),
            subject: RefCell::new(String::new()),
            code: self.code,
            purpose: self.purpose,
            module,
            inputs: Some(inputs),
        }
    }

    /// The same evaluator for another block evaluated before planning: its diagnostics'
    /// `code`, and `purpose`, what needs the values (`the provider configuration`).
    pub(crate) fn for_purpose(self, code: &'static str, purpose: &'static str) -> Statics<'a> {
        Statics {
            code,
            purpose,
            ..self
        }
    }

    /// The value of `e` (from the encryption block), for `subject` (`encryption.key_provider.
    /// pbkdf2.k`), or None with the diagnostics said.
    pub(crate) fn value(
        &self,
        e: &ast::Expr,
        subject: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Value> {
        *self.subject.borrow_mut() = subject.to_string();
        let (hir, id) = ferro_hir::lower_standalone_expr(e.span.file, e);
        let (v, ds) = eval_expr(&hir, self, id);
        let failed = has_errors(&ds);
        diags.extend(ds);
        if failed {
            return None;
        }
        let (v, _) = v.deep_unmark();
        if !v.is_wholly_known() {
            diags.push(
                Diagnostic::error("encryption-not-static", "Unable to compute static value")
                    .with_detail(format!("The value for {subject} is not known before the state is read; the encryption block may use only variables, locals and literal values."))
                    .with_span(e.span),
            );
            return None;
        }
        Some(v)
    }

    /// The value of a configuration expression `e` read straight from the syntax tree (a
    /// backend block's argument), for `subject`, marks kept; None with the diagnostics said.
    pub(crate) fn ast_value(
        &self,
        e: &ast::Expr,
        subject: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Value> {
        let (hir, id) = ferro_hir::lower_standalone_expr(e.span.file, e);
        self.hir_value(&hir, id, subject, diags)
    }

    /// The value of expression `id` of the root module's `hir` (an argument OpenTofu
    /// evaluates before planning, such as a provider block's `for_each`), for `subject`
    /// (`provider.aws.by_region.for_each`), marks kept; None with the diagnostics said.
    pub(crate) fn hir_value(
        &self,
        hir: &FileHir,
        id: ferro_hir::ExprId,
        subject: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Value> {
        *self.subject.borrow_mut() = subject.to_string();
        let (v, ds) = eval_expr(hir, self, id);
        let failed = has_errors(&ds);
        diags.extend(ds);
        if failed {
            return None;
        }
        if !v.is_wholly_known() {
            diags.push(
                Diagnostic::error(self.code, "Unable to compute static value")
                    .with_detail(format!("The value for {subject} is not known before planning; it may use only variables, locals and literal values."))
                    .with_span_opt(hir.span(id)),
            );
            return None;
        }
        Some(v)
    }

    fn typed<T>(
        &self,
        e: &ast::Expr,
        subject: &str,
        want: &str,
        diags: &mut Vec<Diagnostic>,
        pick: impl Fn(&Value) -> Option<T>,
    ) -> Option<T> {
        let v = self.value(e, subject, diags)?;
        let got = pick(&v);
        if got.is_none() {
            diags.push(
                Diagnostic::error("encryption-invalid-value", "Incorrect attribute value type")
                    .with_detail(format!(
                        "Inappropriate value for {subject}: {want} required."
                    ))
                    .with_span(e.span),
            );
        }
        got
    }

    pub(crate) fn string(
        &self,
        e: &ast::Expr,
        subject: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<String> {
        self.typed(e, subject, "string", diags, |v| {
            ferro_value::convert::convert(v, &ferro_value::Type::String)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
        })
    }

    pub(crate) fn integer(
        &self,
        e: &ast::Expr,
        subject: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<i64> {
        self.typed(e, subject, "a whole number", diags, |v| {
            ferro_value::convert::convert(v, &ferro_value::Type::Number)
                .ok()
                .and_then(|v| v.as_number().and_then(|n| n.to_i64()))
        })
    }

    pub(crate) fn boolean(
        &self,
        e: &ast::Expr,
        subject: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<bool> {
        self.typed(e, subject, "bool", diags, |v| {
            ferro_value::convert::convert(v, &ferro_value::Type::Bool)
                .ok()
                .and_then(|v| v.as_bool())
        })
    }

    pub(crate) fn strings(
        &self,
        e: &ast::Expr,
        subject: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Vec<String>> {
        self.typed(e, subject, "list of string", diags, |v| {
            v.as_elements()?
                .iter()
                .map(|x| {
                    ferro_value::convert::convert(x, &ferro_value::Type::String)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                })
                .collect()
        })
    }

    /// A list of numbers 0–255 (aes_gcm's `aad`, as OpenTofu decodes it into bytes).
    pub(crate) fn bytes(
        &self,
        e: &ast::Expr,
        subject: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> Option<Vec<u8>> {
        self.typed(e, subject, "list of number", diags, |v| {
            v.as_elements()?
                .iter()
                .map(|x| {
                    x.as_number()
                        .and_then(|n| n.to_i64())
                        .and_then(|n| u8::try_from(n).ok())
                })
                .collect()
        })
    }

    /// A variable's value, marked sensitive when its declaration says so (as OpenTofu marks
    /// it on the way in).
    fn variable(&self, name: &str) -> Result<Value, Diagnostic> {
        let v = self.variable_unmarked(name)?;
        let index = ferro_db::module_index(&self.l.db, self.module);
        let sensitive = index.variables.get(name).is_some_and(|item| {
            ferro_db::file_hir(&self.l.db, item.file).variables[item.index].sensitive
        });
        Ok(if sensitive { v.mark_sensitive() } else { v })
    }

    fn variable_unmarked(&self, name: &str) -> Result<Value, Diagnostic> {
        match &self.inputs {
            None => {
                if let Some(raw) = self.vars.get(name) {
                    return Ok(raw.value.clone());
                }
            }
            Some(inputs) => {
                if let Some(v) = inputs.get(name) {
                    return v.clone();
                }
            }
        }
        let index = ferro_db::module_index(&self.l.db, self.module);
        let Some(item) = index.variables.get(name) else {
            return Err(Diagnostic::error(self.code, "Undefined variable")
                .with_detail(format!("Undefined variable var.{name}")));
        };
        let hir = ferro_db::file_hir(&self.l.db, item.file);
        let var = &hir.variables[item.index];
        let Some(default) = var.default else {
            if self.inputs.is_some() {
                return Err(Diagnostic::error(
                    self.code,
                    "Missing required variable in module call",
                )
                .with_detail(format!("The module's variable {name:?} has no default value and the call does not set it; {} needs it before anything else is read.", self.purpose)));
            }
            return Err(Diagnostic::error(self.code, "No value for required variable")
                .with_detail(format!("The root module input variable {name:?} is not set, and has no default value; {} needs it before anything else is read. Use a -var or -var-file command line argument or an environment variable to provide a value.", self.purpose)));
        };
        self.eval_in(hir, default)
    }

    fn local(&self, name: &str) -> Result<Value, Diagnostic> {
        let index = ferro_db::module_index(&self.l.db, self.module);
        let Some(item) = index.locals.get(name) else {
            return Err(
                Diagnostic::error(self.code, "Reference to undeclared local value").with_detail(
                    format!("A local value with the name {name:?} has not been declared."),
                ),
            );
        };
        if self.stack.borrow().iter().any(|n| n == name) {
            return Err(
                Diagnostic::error(self.code, "Unable to compute static value")
                    .with_detail(format!("local.{name} refers to itself")),
            );
        }
        self.stack.borrow_mut().push(name.to_string());
        let hir = ferro_db::file_hir(&self.l.db, item.file);
        let expr = hir.locals[item.index].expr;
        let v = self.eval_in(hir, expr);
        self.stack.borrow_mut().pop();
        v
    }

    /// Evaluate an expression of the configuration (a default, a local): its own errors keep
    /// their spans; the first stands for the whole.
    fn eval_in(&self, hir: &FileHir, e: ferro_hir::ExprId) -> Result<Value, Diagnostic> {
        let (v, ds) = eval_expr(hir, self, e);
        match ds.into_iter().find(Diagnostic::is_error) {
            Some(d) => Err(d),
            None => Ok(v),
        }
    }
}

impl Scope for Statics<'_> {
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        match r {
            Reference::Var(name) => self.variable(name),
            Reference::Local(name) => self.local(name),
            Reference::PathRoot => Ok(Value::string(".")),
            Reference::PathModule => Ok(Value::string(self.module.dir(&self.l.db).clone())),
            Reference::PathCwd => Ok(Value::string(self.dir.to_string_lossy().into_owned())),
            Reference::TerraformWorkspace => Ok(Value::string(self.workspace.clone())),
            Reference::Module(_) => Err(Diagnostic::error(
                self.code,
                "Module output not supported in static context",
            )
            .with_detail(format!(
                "Unable to use {r} in static context, which is required by {}",
                self.requirer()
            ))),
            _ => Err(
                Diagnostic::error(self.code, "Dynamic value in static context").with_detail(
                    format!(
                        "Unable to use {r} in static context, which is required by {}",
                        self.requirer()
                    ),
                ),
            ),
        }
    }

    fn base_dir(&self) -> &Path {
        &self.dir
    }
}

impl Statics<'_> {
    /// What needs the value being computed: the innermost local, else the block's subject.
    fn requirer(&self) -> String {
        match self.stack.borrow().last() {
            Some(l) => format!("local.{l}"),
            None => self.subject.borrow().clone(),
        }
    }
}
