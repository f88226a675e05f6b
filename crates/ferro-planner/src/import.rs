//! `import ADDR ID`: ask the provider for the object with the given id, read it, and record it
//! in state as the current object of ADDR (which must be declared in the configuration).

use crate::providers::Providers;
use crate::statecodec::{encode_object, Hold};
use ferro_addrs::{AbsResourceInstance, ResourceMode};
use ferro_diag::Diagnostic;
use ferro_provider::{DeferralReason, ImportRequest, ReadRequest};
use ferro_state::State;

/// Progress of an import, for the CLI to print as it happens.
pub enum ImportEvent<'a> {
    Importing { addr: &'a str, id: &'a str },
    Prepared { addr: &'a str, type_name: &'a str },
    Refreshing { addr: &'a str, id: &'a str },
}

/// Import `id` into `addr`, updating `state`. The configuration must declare the resource and
/// its providers must be configured already.
pub fn import_resource(
    providers: &Providers,
    state: &mut State,
    addr: &AbsResourceInstance,
    id: &str,
    on_event: &mut dyn FnMut(ImportEvent<'_>),
) -> Vec<Diagnostic> {
    let (mut diags, deferred) = import_or_defer(providers, state, addr, id, None, on_event);
    if deferred.is_some() {
        let name = providers
            .by_resource
            .get(&addr.containing_resource().config())
            .map(|c| c.provider.to_string())
            .unwrap_or_default();
        diags.push(ferro_runtime::data::deferred_here(
            &name,
            &addr.to_string(),
            "import",
        ));
    }
    diags
}

/// [`import_resource`], where the provider's `deferred` answer (to `ImportResourceState` or
/// to the `ReadResource` that follows) is honoured: nothing is imported, and the reason is
/// returned.
pub(crate) fn import_or_defer(
    providers: &Providers,
    state: &mut State,
    addr: &AbsResourceInstance,
    id: &str,
    identity: Option<&ferro_value::Value>,
    on_event: &mut dyn FnMut(ImportEvent<'_>),
) -> (Vec<Diagnostic>, Option<DeferralReason>) {
    let mut deferred = None;
    let diags = import_inner(
        providers,
        state,
        addr,
        id,
        identity,
        on_event,
        &mut deferred,
    );
    (diags, deferred)
}

fn import_inner(
    providers: &Providers,
    state: &mut State,
    addr: &AbsResourceInstance,
    id: &str,
    identity: Option<&ferro_value::Value>,
    on_event: &mut dyn FnMut(ImportEvent<'_>),
    deferred: &mut Option<DeferralReason>,
) -> Vec<Diagnostic> {
    let a = addr.to_string();
    let res = &addr.resource.resource;
    if res.mode != ResourceMode::Managed {
        return vec![
            Diagnostic::error("import-data", "Invalid address").with_detail(format!(
                "{a} is a data resource; only managed resources can be imported."
            )),
        ];
    }
    let Some(cfg) = providers
        .by_resource
        .get(&addr.containing_resource().config())
        .cloned()
    else {
        // Terraform 1.0.3's words, the module named as in the address.
        let module = match addr.module.0.is_empty() {
            true => "the root module".to_string(),
            false => addr.module.to_string(),
        };
        return vec![Diagnostic::error("import-no-config", format!("resource address {a:?} does not exist in the configuration."))
            .with_detail(format!("Before importing this resource, please create its configuration in {module}. For example:\n\nresource {:?} {:?} {{\n  # (resource arguments)\n}}", res.ty, res.name))];
    };
    if providers.has_instances(&cfg) {
        return vec![Diagnostic::error("import-provider-for-each", "Unsupported import").with_detail(format!(
            "The provider configuration {cfg} of {a} has for_each; ferro does not import through an instance of a provider configuration with for_each yet. Import with a configuration without for_each, then move the resource to it."
        ))];
    }
    if state
        .current_object(&addr.containing_resource(), &addr.resource.key)
        .is_some()
    {
        return vec![Diagnostic::error("import-exists", "Resource already managed by ferro").with_detail(format!(
            "ferro is already managing a remote object for {a}. To import to this address you must first remove the existing object from the state."
        ))];
    }
    let (Some(provider), Some(schema)) =
        (providers.get(&cfg), providers.resource_schema(&cfg, res))
    else {
        return vec![
            Diagnostic::error("provider-unavailable", "Provider not available").with_detail(
                format!("The provider {} for {a} is not available.", cfg.provider),
            ),
        ];
    };
    on_event(ImportEvent::Importing { addr: &a, id });
    let resp = provider.import_resource_state(ImportRequest {
        type_name: &res.ty,
        id,
        identity,
    });
    let mut diags: Vec<Diagnostic> = resp
        .diagnostics
        .iter()
        .map(|d| ferro_runtime::diagnostics::provider_diag(d, &a, None))
        .collect();
    if diags.iter().any(Diagnostic::is_error) {
        return diags;
    }
    if resp.deferred.is_some() {
        *deferred = resp.deferred;
        return diags;
    }
    let Some(obj) = resp.imported.iter().find(|o| *o.type_name == *res.ty) else {
        diags.push(
            Diagnostic::error("import-nothing", "Import returned no resources")
                .with_detail(format!(
                    "The provider returned no object of type {} for the id {id:?}.",
                    res.ty
                ))
                .with_address(a.clone()),
        );
        return diags;
    };
    if identity.is_some() && obj.identity.is_none() {
        diags.push(
            Diagnostic::error("import-no-identity", "Import returned no identity")
                .with_detail(format!("import of {a} didn't return an identity"))
                .with_address(a.clone()),
        );
        return diags;
    }
    let identity_schema = provider.identity_schema(&res.ty);
    let provider_name = cfg.provider.to_string();
    let id_at = ferro_runtime::identity::IdentityAt {
        addr: &a,
        provider_name: &provider_name,
        provider_type: res.implied_provider(),
    };
    if let Some(v) = &obj.identity {
        diags.extend(ferro_runtime::identity::check_identity(
            v,
            identity_schema.as_ref(),
            true,
            &id_at,
        ));
        if diags.iter().any(Diagnostic::is_error) {
            return diags;
        }
    }
    on_event(ImportEvent::Prepared {
        addr: &a,
        type_name: &obj.type_name,
    });
    on_event(ImportEvent::Refreshing { addr: &a, id });
    let read = provider.read_resource(ReadRequest {
        type_name: &res.ty,
        current_state: &obj.state,
        private: &obj.private,
        current_identity: obj.identity.as_ref(),
    });
    diags.extend(
        read.diagnostics
            .iter()
            .map(|d| ferro_runtime::diagnostics::provider_diag(d, &a, None)),
    );
    if diags.iter().any(Diagnostic::is_error) {
        return diags;
    }
    if read.deferred.is_some() {
        *deferred = read.deferred;
        return diags;
    }
    if let Some(v) = &read.new_identity {
        diags.extend(ferro_runtime::identity::check_identity(
            v,
            identity_schema.as_ref(),
            true,
            &id_at,
        ));
        if diags.iter().any(Diagnostic::is_error) {
            return diags;
        }
    }
    let new_identity = read.new_identity.as_ref().or(obj.identity.as_ref());
    for v in [&obj.state, &read.new_state] {
        diags.extend(ferro_runtime::diagnostics::write_only_returned(
            &schema.block,
            v,
            &provider_name,
            &a,
            "during import",
        ));
    }
    if diags.iter().any(Diagnostic::is_error) {
        return diags;
    }
    if read.new_state.is_null() {
        diags.push(Diagnostic::error("import-missing", "Cannot import non-existent remote object").with_detail(format!(
            "While attempting to import an existing object to {a}, the provider detected that no object exists with the given id. Only pre-existing objects can be imported; check that the id is correct and that it is associated with the provider's configured region or endpoint, or use \"ferro apply\" to create a new remote object for this resource."
        )));
        return diags;
    }
    match encode_object(
        schema,
        &read.new_state,
        &read.private,
        Default::default(),
        false,
        false,
        Hold::Text,
    ) {
        Ok(mut o) => {
            o.identity = match (new_identity, &identity_schema) {
                (Some(v), Some(s)) => ferro_runtime::identity::identity_for_state(v, s),
                _ => None,
            };
            state.set_current(
                &addr.containing_resource(),
                &cfg,
                &addr.resource.key,
                Some(o),
            )
        }
        Err(e) => diags.push(
            Diagnostic::error(
                "provider-invalid-result",
                "Provider produced invalid object",
            )
            .with_detail(format!(
                "The imported object for {a} cannot be stored: {e}."
            ))
            .with_address(a.clone()),
        ),
    }
    diags
}
