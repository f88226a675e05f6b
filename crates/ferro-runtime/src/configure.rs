//! Configuring providers: each provider configuration's block (or an empty configuration when
//! there is none) is evaluated against the provider's own schema, validated and passed to
//! `configure` before any resource of that configuration is planned or applied. A block that
//! refers to resources waits for them: the plan walk configures it at its place in the item
//! graph, apply before the first step that uses it.

use crate::config_value::eval_body;
use crate::providers::Providers;
use crate::scope::{EvalTree, InstanceCtx, ModuleEval};
use ferro_addrs::{AbsProviderConfig, Provider as ProviderAddr};
use ferro_db::{read_json_body, ItemGraph};
use ferro_diag::Diagnostic;
use ferro_provider::Severity;
use std::collections::HashSet;

/// The provider source address a local provider name stands for in this module.
fn fqn_of(m: &ModuleEval<'_>, local: &str) -> ProviderAddr {
    let source = m.index.required_providers.get(local).and_then(|item| {
        m.hir(item.file).required_providers[item.index]
            .source
            .as_deref()
    });
    ProviderAddr::for_local_name(source, local, m.tree.default_registry)
}

/// Configure every provider configuration in `providers`; diagnostics name the configuration.
pub fn configure_providers(tree: &EvalTree<'_>, providers: &Providers) -> Vec<Diagnostic> {
    configure_providers_except(tree, providers, &HashSet::new())
}

/// Configure every provider configuration in `providers` but those in `later` (configured
/// with [`configure_provider`] once what their blocks refer to is known).
pub fn configure_providers_except(
    tree: &EvalTree<'_>,
    providers: &Providers,
    later: &HashSet<AbsProviderConfig>,
) -> Vec<Diagnostic> {
    configure_each(tree, providers, later, false)
}

/// The provider configurations whose blocks refer to resources (through any items): they are
/// configured once those resources are planned (or applied), as Terraform configures them.
pub fn deferred_configs(graph: &ItemGraph, providers: &Providers) -> HashSet<AbsProviderConfig> {
    graph
        .provider_deps
        .iter()
        .filter(|(cfg, deps)| !deps.is_empty() && providers.configs.contains_key(*cfg))
        .map(|(cfg, _)| cfg.clone())
        .collect()
}

/// Configure one provider configuration: its block (or an empty configuration when there is
/// none) evaluated in its module's (first) instance, validated, then passed to `configure`.
/// Nothing is done for a configuration whose module has no instance.
pub fn configure_provider(
    tree: &EvalTree<'_>,
    providers: &Providers,
    cfg: &AbsProviderConfig,
) -> Vec<Diagnostic> {
    configure(tree, providers, cfg, false)
}

/// Whether a provider configuration's block evaluates wholly known now (while planning, a
/// block that refers to resources may not be). A configuration without a block, in a module
/// without an instance, or whose block has errors (reported when it is configured) counts
/// as known. What `-allow-deferral` asks before configuring one.
pub fn provider_config_known(
    tree: &EvalTree<'_>,
    providers: &Providers,
    cfg: &AbsProviderConfig,
) -> bool {
    let Some(schema) = providers.schemas.get(&cfg.provider) else {
        return true;
    };
    let Some(m) = tree
        .tree
        .find(&cfg.module)
        .and_then(|node| tree.instances_of(node).first().and_then(|p| tree.scope(p)))
    else {
        return true;
    };
    let Some((_, item)) = m
        .index
        .providers
        .iter()
        .find(|((local, alias), _)| alias == &cfg.alias && fqn_of(&m, local) == cfg.provider)
    else {
        return true;
    };
    let inst = match providers.instances.get(&cfg.config()) {
        Some(each) => match each.get(&cfg.key) {
            Some(v) => InstanceCtx::for_key(&cfg.key, Some(v.clone())),
            None => return true,
        },
        None => InstanceCtx::default(),
    };
    let hir = m.hir(item.file);
    let pb = &hir.providers[item.index];
    let (body, read) = read_json_body(hir, &pb.body, &schema.provider.block);
    let (v, ds) = eval_body(&m, item.file, &body, &schema.provider.block, &inst);
    read.iter().chain(&ds).any(Diagnostic::is_error) || v.is_wholly_known()
}

/// Configure every provider configuration for `import`, whose configurations must be wholly
/// known (evaluated against the state: `state_scope::expand_from_state`), as Terraform's
/// import requires.
pub fn configure_providers_known(tree: &EvalTree<'_>, providers: &Providers) -> Vec<Diagnostic> {
    configure_each(tree, providers, &HashSet::new(), true)
}

/// Configure every configuration but those in `later`; `known`: each must be wholly known.
fn configure_each(
    tree: &EvalTree<'_>,
    providers: &Providers,
    later: &HashSet<AbsProviderConfig>,
    known: bool,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for cfg in providers.configs.keys() {
        if !later.contains(cfg) {
            diags.extend(configure(tree, providers, cfg, known));
        }
    }
    diags
}

fn configure(
    tree: &EvalTree<'_>,
    providers: &Providers,
    cfg: &AbsProviderConfig,
    known: bool,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let (Some(provider), Some(schema)) = (
        providers.configs.get(cfg),
        providers.schemas.get(&cfg.provider),
    ) else {
        return diags;
    };
    let scope = match tree.tree.find(&cfg.module) {
        Some(node) => tree.instances_of(node).first().and_then(|p| tree.scope(p)),
        None => None,
    };
    let Some(m) = scope else {
        return diags;
    };
    let m = &m;
    let block = m
        .index
        .providers
        .iter()
        .find(|((local, alias), _)| alias == &cfg.alias && fqn_of(m, local) == cfg.provider);
    let addr = display(cfg);
    // An instance of a `for_each` configuration: its `each.key` and `each.value`.
    let inst = match providers.instances.get(&cfg.config()) {
        Some(each) => match each.get(&cfg.key) {
            Some(v) => InstanceCtx::for_key(&cfg.key, Some(v.clone())),
            None => return diags,
        },
        None => InstanceCtx::default(),
    };
    let config = match block {
        Some((_, item)) => {
            let hir = m.hir(item.file);
            let pb = &hir.providers[item.index];
            // A JSON body's nested blocks are known only now, with the provider's schema.
            let (body, read) = read_json_body(hir, &pb.body, &schema.provider.block);
            let (v, ds) = eval_body(m, item.file, &body, &schema.provider.block, &inst);
            let failed = read.iter().chain(&ds).any(Diagnostic::is_error);
            diags.extend(read);
            diags.extend(ds);
            if failed {
                return diags;
            }
            if known && !v.is_wholly_known() {
                diags.push(
                    Diagnostic::error("provider-config-unknown", "Invalid provider configuration")
                        .with_detail(format!(
                            "The configuration for {addr} depends on values that cannot be determined until apply."
                        ))
                        .with_span(hir.at(pb.span)),
                );
                return diags;
            }
            (v, Some(hir.at(pb.span)))
        }
        None => {
            // No block: Terraform reads an empty body against the schema, so a required
            // argument is missing before the provider is asked, and no range can be named.
            let missing: Vec<Diagnostic> = schema
                .provider
                .block
                .attributes
                .iter()
                .filter(|(_, a)| a.required)
                .map(|(name, _)| {
                    Diagnostic::error("provider-config", "Missing required argument")
                        .with_detail(format!(
                            "The argument {name:?} is required, but was not set."
                        ))
                        .with_address(addr.clone())
                })
                .collect();
            if !missing.is_empty() {
                return missing;
            }
            (schema.provider.block.empty_value(), None)
        }
    };
    let (plain, _) = config.0.deep_unmark();
    let mut failed = false;
    for d in provider.validate_provider_config(&plain) {
        failed |= d.severity == Severity::Error;
        diags.push(to_diag(&d, &addr, config.1));
    }
    if failed {
        return diags;
    }
    for d in provider.configure(&plain) {
        diags.push(to_diag(&d, &addr, config.1));
    }
    diags
}

fn display(cfg: &AbsProviderConfig) -> String {
    cfg.to_string()
}

fn to_diag(
    d: &ferro_provider::ProviderDiagnostic,
    addr: &str,
    span: Option<ferro_diag::Span>,
) -> Diagnostic {
    let base = if d.severity == Severity::Error {
        Diagnostic::error("provider-config", d.summary.clone())
    } else {
        Diagnostic::warning("provider-config", d.summary.clone())
    };
    base.with_detail(d.detail.clone())
        .with_span_opt(span)
        .with_address(addr.to_string())
}
