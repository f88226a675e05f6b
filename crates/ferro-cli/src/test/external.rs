//! The values a test is given from outside its files, collected as Terraform 1.13 collects
//! them before a declaration says how to read them: `TF_VAR_NAME`, the working directory's
//! `terraform.tfvars`, `terraform.tfvars.json` and `*.auto.tfvars(.json)`, then `-var` and
//! `-var-file` in command-line order, a later one replacing an earlier one; the test files of
//! the test directory also see that directory's own variable files, over all of these.

use super::scope::{TestSources, VariablesScope};
use crate::load::var_files;
use ferro_diag::{Diagnostic, FileId};
use ferro_planner::RawVariable;
use ferro_value::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Where a value given as text came from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum TextOrigin {
    Cli,
    Env,
}

impl TextOrigin {
    /// How Terraform's messages say where the value of `name` was set.
    pub fn phrase(self, name: &str) -> String {
        match self {
            TextOrigin::Cli => format!("set using -var=\"{name}=...\""),
            TextOrigin::Env => format!("set using the TF_VAR_{name} environment variable"),
        }
    }
}

/// One value given from outside, not yet read as a type.
#[derive(Clone)]
pub enum Unparsed {
    /// From `-var` or `TF_VAR_NAME`: text, read literally or as an expression as the type of
    /// its declaration says.
    Text(String, TextOrigin),
    /// From a variable file: a constant, with the range of its expression.
    Constant(RawVariable),
}

/// The values given from outside, by name, with the files they were read from.
#[derive(Clone, Default)]
pub struct External {
    pub values: BTreeMap<String, Unparsed>,
    /// The variable files read (for diagnostics pointing into them).
    pub sources: Vec<(FileId, String, String)>,
    /// The constants of the test directory's own variable files (empty for a file of the
    /// working directory): these reach the module's variables too, over everything else.
    pub test_dir: BTreeMap<String, RawVariable>,
    /// What reading the test directory's variable files reported.
    pub test_dir_diags: Vec<Diagnostic>,
}

impl External {
    /// Read a variable file, each of its constants replacing what came before; returns them.
    fn read_file(
        &mut self,
        path: &Path,
        display: &str,
        diags: &mut Vec<Diagnostic>,
    ) -> BTreeMap<String, RawVariable> {
        let mut found = BTreeMap::new();
        let mut sources = std::mem::take(&mut self.sources);
        {
            let mut add = |n: String, t: String| {
                let id = FileId(0x6000_0000 + sources.len() as u32);
                sources.push((id, n, t));
                id
            };
            crate::load::read_var_file(&mut add, path, display, &mut found, diags);
        }
        self.sources = sources;
        for (n, raw) in &found {
            self.values
                .insert(n.clone(), Unparsed::Constant(raw.clone()));
        }
        found
    }

    /// The values given to the test files of the working directory. What reading the files
    /// reports is left to the runs, which read them again for the module's variables.
    pub fn collect(root: &Path, cli: &[(bool, String)]) -> External {
        let mut out = External::default();
        let mut ignored = Vec::new();
        let mut env: Vec<(String, String)> = crate::env::vars()
            .into_iter()
            .filter_map(|(k, v)| k.strip_prefix("TF_VAR_").map(|n| (n.to_string(), v)))
            .collect();
        env.sort();
        for (name, text) in env {
            out.values
                .insert(name, Unparsed::Text(text, TextOrigin::Env));
        }
        for name in var_files(root) {
            out.read_file(&root.join(&name), &name, &mut ignored);
        }
        for (is_file, arg) in cli {
            if *is_file {
                out.read_file(&root.join(arg), arg, &mut ignored);
            } else if let Some((name, text)) = arg.split_once('=') {
                out.values.insert(
                    name.trim().to_string(),
                    Unparsed::Text(text.to_string(), TextOrigin::Cli),
                );
            }
        }
        out
    }

    /// The values given to the test files of the test directory `dir`: these, with the
    /// directory's own variable files over them.
    pub fn with_test_dir(&self, root: &Path, dir: &str) -> External {
        let mut out = self.clone();
        let mut diags = Vec::new();
        for name in var_files(&root.join(dir)) {
            let display = format!("{dir}/{name}");
            let found = out.read_file(&root.join(dir).join(&name), &display, &mut diags);
            out.test_dir.extend(found);
        }
        out.test_dir_diags = diags;
        out
    }

    /// The values as a test file's expressions see one it does not declare (deprecated, with
    /// a warning): a constant as it is; text as an expression when it reads as one, else the
    /// text itself, as Terraform tries both ways.
    pub fn undeclared_values(&self) -> BTreeMap<String, Value> {
        self.values
            .iter()
            .map(|(n, u)| {
                let v = match u {
                    Unparsed::Constant(raw) => raw.value.clone(),
                    Unparsed::Text(text, _) => {
                        expression_value(text).unwrap_or_else(|| Value::string(text))
                    }
                };
                (n.clone(), v)
            })
            .collect()
    }
}

/// `text` as a constant expression; None when it does not read or evaluate as one.
pub fn expression_value(text: &str) -> Option<Value> {
    let id = FileId(u32::MAX);
    let (ast, ds) = ferro_syntax::parse_expr(id, text);
    if !ds.is_empty() {
        return None;
    }
    let (hir, e) = ferro_hir::lower_standalone_expr(id, &ast);
    if !hir.diagnostics().is_empty() {
        return None;
    }
    let scope = VariablesScope {
        vars: &BTreeMap::new(),
        runs: &BTreeMap::new(),
        sources: TestSources { files: &[] },
        dir: Path::new("."),
    };
    let (v, ds) = ferro_eval::eval_expr(&hir, &scope, e);
    ds.is_empty().then_some(v)
}
