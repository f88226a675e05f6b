//! What a test file's expressions see: `var.NAME` and `run.NAME` in `variables` blocks, and in
//! assertions the module under test as the run left it (its resources, outputs as
//! `output.NAME`, locals, module calls, variables) beside `run.NAME`.

use ferro_diag::{Diagnostic, FileId};
use ferro_eval::Scope;
use ferro_hir::Reference;
use ferro_planner::scope::ModuleEval;
use ferro_value::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Files diagnostics of an evaluation may quote: the test file and the module's files.
pub struct TestSources<'a> {
    pub files: &'a [(FileId, String, String)],
}

impl TestSources<'_> {
    fn get(&self, file: FileId) -> Option<(&str, &str)> {
        self.files
            .iter()
            .find(|f| f.0 == file)
            .map(|(_, n, t)| (n.as_str(), t.as_str()))
    }
}

/// The scope of `variables` blocks: the variables given to the test (file-level `variables`,
/// `-var`, `-var-file`) and the outputs of the runs before.
pub struct VariablesScope<'a> {
    pub vars: &'a BTreeMap<String, Value>,
    pub runs: &'a BTreeMap<String, Value>,
    pub sources: TestSources<'a>,
    pub dir: &'a Path,
}

impl Scope for VariablesScope<'_> {
    /// Terraform 1.13 evaluates these with its testing functions, which have no namespaces.
    fn builtin_functions_only(&self) -> bool {
        true
    }
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        match r {
            Reference::Var(n) => self.vars.get(n).cloned().ok_or_else(|| {
                Diagnostic::error("test-unavailable-variable", "Reference to unavailable variable")
                    .with_detail(format!("The input variable {n:?} has no value here: a test file's expressions see the variables of its variables block and -var options."))
            }),
            Reference::Resource(res) if res.ty.as_ref() == "run" => run_value(self.runs, &res.name),
            other => Err(Diagnostic::error("test-invalid-reference", "Invalid reference")
                .with_detail(format!("You can only reference global variables and run block outputs here, not {other}."))),
        }
    }
    fn base_dir(&self) -> &Path {
        self.dir
    }
    fn source(&self, file: FileId) -> Option<(&str, &str)> {
        self.sources.get(file)
    }
}

fn run_value(runs: &BTreeMap<String, Value>, name: &str) -> Result<Value, Diagnostic> {
    runs.get(name).cloned().ok_or_else(|| {
        Diagnostic::error("test-invalid-reference", "Reference to unavailable run block")
            .with_detail(format!("The run block {name:?} has not executed yet. You can only reference run blocks that are in the same test file and will execute before this one."))
    })
}

/// The scope of assertions: the module under test as the run left it.
pub struct AssertScope<'a, 't> {
    pub module: &'a ModuleEval<'t>,
    /// Variables the module does not declare that the assertions refer to, as the test
    /// gives them.
    pub test_only: &'a BTreeMap<String, Value>,
    pub runs: &'a BTreeMap<String, Value>,
    pub sources: TestSources<'a>,
    pub dir: &'a Path,
    pub planning: bool,
}

impl Scope for AssertScope<'_, '_> {
    fn provider_functions(&self) -> Option<&dyn ferro_eval::ProviderFunctions> {
        self.module.provider_functions()
    }
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        match r {
            Reference::Var(n) if self.test_only.contains_key(n) => Ok(self.test_only[n].clone()),
            Reference::Resource(res) if res.ty.as_ref() == "run" => run_value(self.runs, &res.name),
            Reference::Resource(res) if res.ty.as_ref() == "output" => {
                if !self.module.index.outputs.contains_key(res.name.as_ref()) {
                    return Err(Diagnostic::error(
                        "undeclared-reference",
                        "Reference to undeclared output value",
                    )
                    .with_detail(format!(
                        "An output value with the name {:?} has not been declared.",
                        res.name.as_ref()
                    )));
                }
                self.module.output(&res.name)
            }
            Reference::Resource(res) if !self.module.index.resources.contains_key(res) => {
                let kind = match res.mode {
                    ferro_addrs::ResourceMode::Data => "A data resource",
                    ferro_addrs::ResourceMode::Managed => "A managed resource",
                    ferro_addrs::ResourceMode::Ephemeral => "An ephemeral resource",
                };
                Err(
                    Diagnostic::error("undeclared-reference", "Reference to undeclared resource")
                        .with_detail(format!(
                            "{kind} {:?} {:?} has not been declared in the root module.",
                            res.ty.as_ref(),
                            res.name.as_ref()
                        )),
                )
            }
            other => self.module.reference(other),
        }
    }
    fn reference_output(&self, r: &Reference, output: &str) -> Result<Value, Diagnostic> {
        match r {
            Reference::Module(n) => self.module.module_value_with(n, Some(output)),
            _ => self.reference(r),
        }
    }
    fn base_dir(&self) -> &Path {
        self.dir
    }
    fn source(&self, file: FileId) -> Option<(&str, &str)> {
        self.sources.get(file)
    }
    fn pure_only(&self) -> bool {
        self.planning
    }
}
