//! `for_each` in provider blocks (OpenTofu 1.9): each configuration's keys and `each.value`s,
//! evaluated before planning as OpenTofu evaluates them (variables, locals and literals
//! only: the static evaluator the encryption block uses), then one provider started per key.

use crate::load::Loaded;
use crate::static_eval::Statics;
use ferro_addrs::{AbsProviderConfig, InstanceKey};
use ferro_db::{file_hir, module_index, module_tree};
use ferro_diag::Diagnostic;
use ferro_planner::{Providers, RawVariable, VariableSource};
use ferro_provider::ProviderSource;
use ferro_value::{Value, ValueKind};
use std::collections::BTreeMap;
use std::path::Path;

/// Evaluate every `for_each` of a provider block and start the instances of the
/// configurations the configuration or state uses (`Providers::start_instances`).
pub(crate) fn start_provider_instances(
    l: &Loaded,
    vars: &BTreeMap<String, RawVariable>,
    dir: &Path,
    source: &dyn ProviderSource,
    providers: &mut Providers,
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let tree = module_tree(&l.db, l.ws);
    let mut blocks = Vec::new();
    for (node, tn) in tree.nodes.iter().enumerate() {
        let index = module_index(&l.db, tn.module);
        for ((local, alias), item) in &index.providers {
            let hir = file_hir(&l.db, item.file);
            if let (Some(f), Some(alias)) = (hir.providers[item.index].for_each, alias) {
                blocks.push((node, tn, local, alias, hir, f));
            }
        }
    }
    if blocks.is_empty() {
        return diags;
    }
    // The variables as declared (converted to their types, defaults filled in), as
    // OpenTofu's static evaluator reads them; what is wrong with them is said now.
    let (converted, vdiags) = ferro_planner::prepare_variables(&l.db, l.ws, vars);
    if ferro_diag::has_errors(&vdiags) {
        return vdiags.into_iter().filter(Diagnostic::is_error).collect();
    }
    let vars = plan_variables(&converted);
    let workspace = ferro_state::workspace::current_workspace(dir);
    let statics = Statics::new(l, &vars, dir, &workspace)
        .for_purpose("not-static", "the provider configuration");
    let mut keys: BTreeMap<AbsProviderConfig, BTreeMap<InstanceKey, Value>> = BTreeMap::new();
    for (node, tn, local, alias, hir, f) in blocks {
        let at = hir.span(f);
        if node != 0 {
            // The static evaluator reads the root module's variables and locals only.
            let detail = format!("ferro evaluates for_each in provider blocks of the root module only; move the provider \"{local}\" block with alias = \"{alias}\" to the root module and pass its instances to module.{} with the providers argument.", tn.path.join(".module."));
            diags.push(
                Diagnostic::error("provider-for-each-module", "Unsupported provider for_each")
                    .with_detail(detail)
                    .with_span_opt(at),
            );
            continue;
        }
        let subject = format!("provider.{local}.{alias}.for_each");
        let Some(v) = statics.hir_value(hir, f, &subject, &mut diags) else {
            continue;
        };
        let Some(each) = each_values(&v, at, &mut diags) else {
            continue;
        };
        match ferro_planner::provider_config(&l.db, l.ws, node, local, Some(alias.clone())) {
            Ok(cfg) => {
                keys.insert(cfg, each);
            }
            Err(msg) => diags.push(
                Diagnostic::error("invalid-provider-source", "Invalid provider source address")
                    .with_detail(msg)
                    .with_span_opt(at),
            ),
        }
    }
    if ferro_diag::has_errors(&diags) {
        return diags;
    }
    diags.extend(providers.start_instances(source, keys));
    diags
}

/// Variable values already converted (a saved plan's, or the command's), as the static
/// evaluator reads them.
pub(crate) fn plan_variables(vars: &BTreeMap<String, Value>) -> BTreeMap<String, RawVariable> {
    vars.iter()
        .map(|(name, value)| {
            (
                name.clone(),
                RawVariable {
                    value: value.clone(),
                    origin: "the configuration".into(),
                    source: VariableSource::Internal,
                    span: None,
                },
            )
        })
        .collect()
}

/// The instances a provider `for_each` value gives: a map's or object's entries, or a set's
/// strings, as OpenTofu checks them.
fn each_values(
    v: &Value,
    at: Option<ferro_diag::Span>,
    diags: &mut Vec<Diagnostic>,
) -> Option<BTreeMap<InstanceKey, Value>> {
    let bad = |summary: &str, detail: String| {
        Diagnostic::error("invalid-for-each", summary.to_string())
            .with_detail(detail)
            .with_span_opt(at)
    };
    if v.is_sensitive() || (v.contains_sensitive() && v.as_entries().is_none()) {
        diags.push(bad("Invalid for_each argument", "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.".into()));
        return None;
    }
    let mut out = BTreeMap::new();
    match &v.kind {
        ValueKind::Null(_) => {
            diags.push(bad("Invalid for_each argument", "The given \"for_each\" argument value is unsuitable: the given \"for_each\" argument value is null. A map, or set of strings is allowed.".into()));
            return None;
        }
        ValueKind::Map(_, m) | ValueKind::Object(m) => {
            for (k, x) in m.iter() {
                out.insert(InstanceKey::Str(k.to_string()), x.clone());
            }
        }
        ValueKind::Set(_, es) => {
            for e in es.iter() {
                match e.as_str() {
                    Some(s) => {
                        out.insert(InstanceKey::Str(s.to_string()), e.clone());
                    }
                    None => {
                        diags.push(bad("Invalid for_each set argument", format!("The given \"for_each\" argument value is unsuitable: \"for_each\" supports maps and sets of strings, but you have provided a set containing type {}.", e.ty().friendly_name())));
                        return None;
                    }
                }
            }
        }
        _ => {
            diags.push(bad("Invalid for_each argument", format!("The given \"for_each\" argument value is unsuitable: the \"for_each\" argument must be a map, or set of strings, and you have provided a value of type {}.", v.ty().friendly_name())));
            return None;
        }
    }
    Some(out)
}
