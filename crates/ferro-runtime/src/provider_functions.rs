//! Provider-defined functions (`provider::LOCAL::NAME(...)`): which providers the modules call
//! functions of, started once each (one instance per provider, shared by every call and every
//! module, as Terraform keeps one function provider per address), their declarations from the
//! schema, and the scope side of calling them.

use ferro_addrs::Provider as ProviderAddr;
use ferro_db::{file_hir, module_index, module_tree, Db, Workspace};
use ferro_eval::{ProviderCallError, ProviderFunctionLookup};
use ferro_hir::Expr;
use ferro_provider::{Provider, ProviderSource};
use ferro_value::schema::FunctionDecl;
use ferro_value::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// A provider whose functions a module calls: started, with its declarations (Err: why it
/// could not be started or asked, already reported).
type Started = Result<(Arc<dyn Provider>, BTreeMap<String, FunctionDecl>), ()>;

/// The function providers of a configuration.
#[derive(Default)]
pub struct FunctionProviders {
    /// By static module (tree node): the local names its `required_providers` declares, with
    /// the provider each stands for.
    required: Vec<BTreeMap<String, ProviderAddr>>,
    started: BTreeMap<ProviderAddr, Started>,
}

impl FunctionProviders {
    /// Start the providers whose functions the configuration calls, and those the root
    /// module requires that `root_calls` (expressions evaluated in the root module's scope
    /// from outside the configuration: a test file's assertions) call. Only providers a
    /// function is called of are started (Terraform asks every required provider's schema).
    pub fn load(
        db: &dyn Db,
        ws: Workspace,
        source: &dyn ProviderSource,
        root_calls: &[&ferro_hir::FileHir],
    ) -> (FunctionProviders, Vec<ferro_diag::Diagnostic>) {
        let tree = module_tree(db, ws);
        let mut out = FunctionProviders::default();
        let mut diags = Vec::new();
        let mut wanted = BTreeSet::new();
        for (node, tn) in tree.nodes.iter().enumerate() {
            let index = module_index(db, tn.module);
            let mut required = BTreeMap::new();
            for local in index.required_providers.keys() {
                if let Ok(addr) = ferro_db::provider_source(db, tn.module, local) {
                    required.insert(local.to_string(), addr);
                }
            }
            let files = tn.module.files(db).iter().map(|f| file_hir(db, *f));
            let mut called = BTreeSet::new();
            for hir in files {
                called.extend(called_locals(hir));
            }
            if node == 0 {
                for hir in root_calls {
                    called.extend(called_locals(hir));
                }
            }
            wanted.extend(called.iter().filter_map(|l| required.get(l)).cloned());
            out.required.push(required);
        }
        for addr in wanted {
            let started = match source.get(&addr) {
                Ok(p) => match p.schema() {
                    Ok(s) => Ok((p, s.functions)),
                    Err(ds) => {
                        for d in ds {
                            diags.push(
                                ferro_diag::Diagnostic::error(
                                    "provider-schema",
                                    "Failed to load provider schema",
                                )
                                .with_detail(format!("{addr}: {} {}", d.summary, d.detail)),
                            );
                        }
                        Err(())
                    }
                },
                Err(msg) => {
                    diags.push(
                        ferro_diag::Diagnostic::error(
                            "provider-unavailable",
                            "Failed to query available provider packages",
                        )
                        .with_detail(format!(
                            "Could not start provider {addr} (needed by its functions): {msg}."
                        )),
                    );
                    Err(())
                }
            };
            out.started.insert(addr, started);
        }
        (out, diags)
    }

    /// The declarations of every function each started provider offers, by provider.
    pub fn declarations(&self) -> BTreeMap<ProviderAddr, BTreeMap<String, FunctionDecl>> {
        self.started
            .iter()
            .filter_map(|(a, s)| s.as_ref().ok().map(|(_, f)| (a.clone(), f.clone())))
            .collect()
    }

    /// See [`ferro_eval::ProviderFunctions::lookup`], for static module `node`.
    pub fn lookup(&self, node: usize, local: &str, name: &str) -> ProviderFunctionLookup {
        let Some(addr) = self.required.get(node).and_then(|r| r.get(local)) else {
            return ProviderFunctionLookup::NotRequired;
        };
        match self.started.get(addr) {
            Some(Ok((_, decls))) => ProviderFunctionLookup::in_declarations(decls, name),
            _ => ProviderFunctionLookup::Unavailable,
        }
    }

    /// See [`ferro_eval::ProviderFunctions::call`], for static module `node`.
    pub fn call(
        &self,
        node: usize,
        local: &str,
        name: &str,
        args: &[Value],
    ) -> Result<Value, ProviderCallError> {
        let provider = self
            .required
            .get(node)
            .and_then(|r| r.get(local))
            .and_then(|a| self.started.get(a))
            .and_then(|s| s.as_ref().ok());
        let Some((provider, _)) = provider else {
            return Err(ProviderCallError {
                text: format!("the provider {local:?} is not available"),
                argument: None,
            });
        };
        provider
            .call_function(name, args)
            .map_err(|e| ProviderCallError {
                text: e.text,
                argument: e.argument,
            })
    }
}

/// The local provider names of the `provider::LOCAL::NAME(...)` calls of a file.
fn called_locals(hir: &ferro_hir::FileHir) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for e in hir.exprs.values() {
        let Expr::Call { name, .. } = e else { continue };
        let mut parts = name.split("::");
        if let (Some("provider"), Some(local), Some(_), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        {
            out.insert(local.to_string());
        }
    }
    out
}

impl ferro_db::CallFunction for FunctionProviders {
    fn call_function(
        &self,
        provider: &ProviderAddr,
        name: &str,
        args: &[Value],
    ) -> Result<Value, ProviderCallError> {
        let Some(Ok((p, _))) = self.started.get(provider) else {
            return Ok(Value::dynamic_unknown());
        };
        p.call_function(name, args).map_err(|e| ProviderCallError {
            text: e.text,
            argument: e.argument,
        })
    }
}
