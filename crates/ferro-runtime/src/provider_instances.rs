//! Which instance of a provider configuration with `for_each` (OpenTofu 1.9) a resource
//! instance uses: `provider = name.alias[KEY]`, KEY evaluated for the instance (`each.key`,
//! `count.index`, a literal), with OpenTofu's errors when the key is missing, unusable or
//! names no instance.

use crate::providers::Providers;
use crate::scope::{InstanceCtx, ModuleEval};
use ferro_addrs::{AbsProviderConfig, InstanceKey, ResourceMode};
use ferro_diag::Diagnostic;
use ferro_hir::ResourceDecl;
use ferro_value::{Type, ValueKind};
use std::sync::Arc;

/// The provider configuration instance the resource instance `addr` (declared by `decl` in
/// `file` of `m`, evaluated with `inst`) uses: `cfg` itself for a configuration without
/// `for_each`, else the instance its key names. Errors point at the reference or the key.
pub fn instance_provider(
    m: &ModuleEval<'_>,
    file: ferro_db::SourceFile,
    decl: &ResourceDecl,
    cfg: &Arc<AbsProviderConfig>,
    inst: &InstanceCtx,
    providers: &Providers,
    addr: &str,
) -> Result<Arc<AbsProviderConfig>, Vec<Diagnostic>> {
    let hir = m.hir(file);
    let summary = match decl.addr.mode {
        ResourceMode::Managed => "Invalid resource provider configuration",
        ResourceMode::Data => "Invalid data provider configuration",
        ResourceMode::Ephemeral => "Invalid ephemeral resource provider configuration",
    };
    let reference = hir.at(decl.provider.as_ref().map_or(decl.span, |p| p.2));
    let keyed = providers.instances.get(&cfg.config());
    if let (None, Some(each)) = (decl.provider_key, keyed) {
        // Passed in by the module call: `providers = { name = name.alias[KEY] }`.
        if let Some(found) = passed_instance(m, decl, cfg, each, addr) {
            return found;
        }
    }
    let (key_expr, each) = match (decl.provider_key, keyed) {
        (None, None) => return Ok(cfg.clone()),
        (None, Some(_)) => {
            return Err(vec![Diagnostic::error("provider-instance-key", summary)
                .with_detail("A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.")
                .with_span(reference)])
        }
        (Some(k), None) => {
            let at = hir.span(k).unwrap_or(reference);
            return Err(vec![Diagnostic::error("provider-instance-key", summary)
                .with_detail("An instance key can be specified only for a provider configuration that uses for_each.")
                .with_span(at)]);
        }
        (Some(k), Some(each)) => (k, each),
    };
    let at = hir.span(key_expr).unwrap_or(reference);
    select_instance(m, file, key_expr, at, cfg, each, inst, addr)
}

/// The instance `key_expr` (in `file` of `m`, evaluated with `inst`) names among `each`.
#[allow(clippy::too_many_arguments)]
fn select_instance(
    m: &ModuleEval<'_>,
    file: ferro_db::SourceFile,
    key_expr: ferro_hir::ExprId,
    at: ferro_diag::Span,
    cfg: &Arc<AbsProviderConfig>,
    each: &std::collections::BTreeMap<InstanceKey, ferro_value::Value>,
    inst: &InstanceCtx,
    addr: &str,
) -> Result<Arc<AbsProviderConfig>, Vec<Diagnostic>> {
    let bad = |detail: String| {
        vec![
            Diagnostic::error("provider-instance-key", "Invalid provider instance key")
                .with_detail(detail)
                .with_span(at),
        ]
    };
    let (v, ds) = m.eval(file, key_expr, inst);
    if ds.iter().any(Diagnostic::is_error) {
        return Err(ds);
    }
    if v.contains_sensitive() {
        return Err(bad(
            "A provider instance key must not be derived from a sensitive value.".into(),
        ));
    }
    let (v, _) = v.deep_unmark();
    if v.is_null() {
        return Err(bad("A provider instance key must not be null.".into()));
    }
    if !v.is_wholly_known() {
        return Err(bad(format!("The provider instance key for {addr} depends on values that cannot be determined until apply, and so ferro cannot select a provider instance to create a plan for this resource instance.")));
    }
    // Numbers and bools are converted to strings, as OpenTofu converts them.
    let key = match ferro_value::convert::convert(&v, &Type::String) {
        Ok(s) => match &s.kind {
            ValueKind::String(s) => InstanceKey::Str(s.to_string()),
            _ => {
                return Err(bad(
                    "The given instance key is unsuitable: string required.".into(),
                ))
            }
        },
        Err(e) => return Err(bad(format!("The given instance key is unsuitable: {e}."))),
    };
    if !each.contains_key(&key) {
        let known: Vec<String> = each
            .keys()
            .map(|k| match k {
                InstanceKey::Str(s) => ferro_addrs::quote(s),
                other => other.to_string(),
            })
            .collect();
        return Err(vec![Diagnostic::error(
            "provider-instance-key",
            "Provider instance not present",
        )
        .with_detail(format!(
            "The provider configuration {} has no instance with the key {}: its for_each gives {}.",
            cfg.config(),
            match &key {
                InstanceKey::Str(s) => ferro_addrs::quote(s),
                other => other.to_string(),
            },
            if known.is_empty() {
                "no instances".to_string()
            } else {
                known.join(", ")
            }
        ))
        .with_span(at)]);
    }
    Ok(Arc::new(cfg.with_key(key)))
}

/// The instance of `cfg` a module call passes to the module instance `m` the resource is in,
/// for the provider the resource refers to (`providers = { name = name.alias[KEY] }`, KEY
/// evaluated in the calling module with the call instance's `each`/`count`); None when the
/// call passes no instance for it. One level: the configuration belongs to the calling module.
fn passed_instance(
    m: &ModuleEval<'_>,
    decl: &ResourceDecl,
    cfg: &Arc<AbsProviderConfig>,
    each: &std::collections::BTreeMap<InstanceKey, ferro_value::Value>,
    addr: &str,
) -> Option<Result<Arc<AbsProviderConfig>, Vec<Diagnostic>>> {
    let (parent, step) = m.path().split_last()?;
    if parent.static_path() != cfg.module {
        return None;
    }
    let pm = m.tree.scope(&parent)?;
    let call = pm.index.module_calls.get(&step.name)?;
    let hir = pm.hir(call.file);
    let (local, alias) = decl.provider_ref();
    let passing = hir.module_calls[call.index]
        .providers
        .iter()
        .find(|p| p.child.0 == local && p.child.1.as_deref() == alias)?;
    let key_expr = passing.parent_key?;
    let at = hir.span(key_expr).unwrap_or(hir.at(passing.span));
    Some(select_instance(
        &pm,
        call.file,
        key_expr,
        at,
        cfg,
        each,
        m.call_ctx(),
        addr,
    ))
}

/// Whether the provider configuration instance an object in state belongs to is still there
/// to destroy or refresh it; otherwise OpenTofu's "Provider instance not present" for the
/// object (`deposed`: its deposed key), naming the instance. A configuration that is gone
/// altogether has its own error ("Provider configuration not present") elsewhere.
pub fn instance_present(
    providers: &Providers,
    addr: &ferro_addrs::AbsResourceInstance,
    cfg: &AbsProviderConfig,
    deposed: Option<&str>,
) -> Result<(), Diagnostic> {
    let base = cfg.config();
    let keyed = providers.instances.contains_key(&base);
    if providers.configs.contains_key(cfg) || (!keyed && cfg.key.is_none()) {
        return Ok(());
    }
    let detail = match (deposed, cfg.key.is_none()) {
        (None, false) => format!("To work with {addr} its original provider instance at {cfg} is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by that the associated provider instance still exist in the state. Re-add the for_each element to destroy {addr}, after which you can remove the provider configuration again.\n\nThis is commonly caused by using the same for_each collection both for a resource (or its containing module) and its associated provider configuration. To successfully remove an instance of a resource it must be possible to remove the corresponding element from the resource's for_each collection while retaining the corresponding element in the provider's for_each collection."),
        (None, true) => format!("To work with {addr} its original provider instance at {cfg} is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing instances of {} that need to be destroyed by the original single-instance provider configuration.\n\nTo proceed, return to your previous single-instance configuration for {} and ensure that {addr} has been destroyed or forgotten before using for_each with this provider, or change the resource configuration to still declare an instance with the key {}.", addr.containing_resource(), cfg, addr.resource.key),
        (Some(dk), false) => format!("To work with {addr}'s deposed object {dk} its original provider instance at {cfg} is required, but it has been removed. This occurs when an element is removed from the provider configuration's for_each collection while objects created by that the associated provider instance still exist in the state. Re-add the for_each element to destroy this deposed object for {addr}, after which you can remove the provider configuration again."),
        (Some(dk), true) => format!("To work with {addr}'s deposed object {dk} its original provider instance at {cfg} is required, but it has been removed. This suggests that you've added for_each to this provider configuration while there are existing deposed objects of {addr} that need to be destroyed by the original single-instance provider configuration.\n\nTo proceed, return to your previous single-instance configuration for {cfg} and ensure that all deposed instances of {addr} have been destroyed before using for_each with this provider."),
    };
    Err(Diagnostic::error(
        "provider-instance-not-present",
        "Provider instance not present",
    )
    .with_detail(detail)
    .with_address(addr.to_string()))
}
