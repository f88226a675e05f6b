//! The root module's variable values: raw values from the command line, variable files and
//! the environment, converted to their declared types, with Terraform's messages for values it
//! does not declare or cannot convert, then checked by their `validation` rules.

use super::*;

/// Where a root variable's value came from; Terraform 1.0 treats a value for an undeclared
/// variable differently by source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VariableSource {
    /// `-var NAME=VALUE`: an undeclared name is an error.
    CommandLine,
    /// A variable file (`terraform.tfvars`, `*.auto.tfvars`, `-var-file`), by its name: an
    /// undeclared name is a warning.
    File(String),
    /// `TF_VAR_NAME`: an undeclared name is ignored.
    Environment,
    /// Supplied by a tool (the console's unknowns).
    Internal,
}

/// A variable value given on the command line or in a file, before type conversion.
#[derive(Debug, Clone)]
pub struct RawVariable {
    pub value: Value,
    /// Where it came from, for messages (`-var`, a file name, an environment variable).
    pub origin: String,
    pub source: VariableSource,
    pub span: Option<Span>,
}

/// Convert raw variable values to their declared types; report missing and undeclared ones.
pub fn prepare_variables(
    db: &dyn Db,
    ws: Workspace,
    raw: &BTreeMap<String, RawVariable>,
) -> (BTreeMap<String, Value>, Vec<Diagnostic>) {
    let index = module_index(db, ws.root(db));
    let mut out = BTreeMap::new();
    let mut diags = Vec::new();
    for (name, rv) in raw {
        if index.variables.contains_key(name) {
            continue;
        }
        match &rv.source {
            VariableSource::CommandLine => diags.push(
                Diagnostic::error("undeclared-variable", "Value for undeclared variable")
                    .with_detail(format!("A variable named {name:?} was assigned on the command line, but the root module does not declare a variable of that name. To use this value, add a \"variable\" block to the configuration."))
                    .with_span_opt(rv.span),
            ),
            VariableSource::File(file) => diags.push(
                Diagnostic::warning("undeclared-variable", "Value for undeclared variable")
                    .with_detail(format!("The root module does not declare a variable named {name:?} but a value was found in file {file:?}. If you meant to use this value, add a \"variable\" block to the configuration.\n\nTo silence these warnings, use TF_VAR_... environment variables to provide certain \"global\" settings to all configurations in your organization. To reduce the verbosity of these warnings, use the -compact-warnings option."))
                    .with_span_opt(rv.span),
            ),
            VariableSource::Environment | VariableSource::Internal => {}
        }
    }
    for (name, item) in &index.variables {
        let hir = file_hir(db, item.file);
        let var = &hir.variables[item.index];
        // A null value for a non-nullable variable with a default takes the default
        // (Terraform 1.1+).
        let given = raw
            .get(name)
            .filter(|rv| !(rv.value.is_null() && !var.nullable && var.default.is_some()));
        let (value, span) = match given {
            Some(rv) => (rv.value.clone(), rv.span.or(Some(hir.at(var.span)))),
            None => match var.default {
                Some(d) => {
                    let tree = EvalTree::new(db, ws, BTreeMap::new(), true, String::new());
                    let (v, ds) = tree.root().eval(item.file, d, &InstanceCtx::default());
                    diags.extend(ds);
                    (v, hir.span(d))
                }
                None => {
                    diags.push(
                        Diagnostic::error("missing-variable", "No value for required variable")
                            .with_detail(format!("The root module input variable {name:?} is not set, and has no default value. Use a -var or -var-file command line argument to provide a value for this variable."))
                            .with_span(hir.at(var.span)),
                    );
                    continue;
                }
            },
        };
        let v = match crate::scope::convert_variable(var, value, span, &ModuleInstance::root()) {
            Ok(v) => v,
            Err(mut d) => {
                // Terraform words a value that does not convert after where it came from.
                if let (Some(rv), Some(why)) = (
                    given,
                    given.and_then(|rv| crate::scope::variable_conversion_error(var, &rv.value)),
                ) {
                    match &rv.source {
                        VariableSource::CommandLine => {
                            d.detail = format!("The argument -var=\"{name}=...\" does not contain a valid value for variable {name:?}: {why}.");
                            d.span = None;
                        }
                        VariableSource::Environment => {
                            d.detail = format!("The environment variable TF_VAR_{name} does not contain a valid value for variable {name:?}: {why}.");
                            d.span = None;
                        }
                        VariableSource::File(_) => {
                            d.detail = format!(
                                "The given value is not valid for variable {name:?}: {why}."
                            );
                        }
                        VariableSource::Internal => {}
                    }
                }
                diags.push(d);
                continue;
            }
        };
        out.insert(name.clone(), v);
    }
    // Validation rules, once every value is known: a rule may refer to the other variables
    // (Terraform 1.9+); what else it refers to is not known yet here, and such a rule is
    // skipped.
    let others = RootVars(&out);
    let mut failed = Vec::new();
    for (name, v) in &out {
        let Some(item) = index.variables.get(name) else {
            continue;
        };
        let hir = file_hir(db, item.file);
        let var = &hir.variables[item.index];
        let source = (item.file.path(db).as_str(), item.file.text(db).as_str());
        if let Err(d) = crate::validation::check_validations(hir, source, var, v, &others) {
            diags.push(d);
            failed.push(name.clone());
        }
    }
    for name in failed {
        out.remove(&name);
    }
    (out, diags)
}

/// The root module's variables, for validation rules that refer to other variables.
struct RootVars<'a>(&'a BTreeMap<String, Value>);

impl ferro_eval::Scope for RootVars<'_> {
    fn reference(&self, r: &ferro_hir::Reference) -> Result<Value, Diagnostic> {
        Ok(match r {
            ferro_hir::Reference::Var(n) => self.0.get(n).cloned(),
            _ => None,
        }
        .unwrap_or_else(Value::dynamic_unknown))
    }
}
