//! Reading a data source, the same for planning (configuration known) and apply (read deferred
//! to apply): one `ReadDataSource` call with core's checks of the answer.

use crate::diagnostics::resource_diag;
use crate::lifecycle::{carry_marks, InstanceRef};
use ferro_diag::Diagnostic;
use ferro_provider::{Provider, ReadDataRequest, Severity};
use ferro_value::convert::convert;
use ferro_value::Value;

/// Read the data source `at` with `config` (which may carry marks). The object read, with the
/// configuration's sensitivity carried to it, or None when the read failed or the provider's
/// answer is invalid (null, not wholly known, or not of the schema's type), as Terraform
/// checks it; the diagnostics say why (with the provider's warnings).
pub fn read_data(
    provider: &dyn Provider,
    at: &InstanceRef<'_>,
    config: &Value,
) -> (Option<Value>, Vec<Diagnostic>) {
    let (read, mut diags) = read_data_or_defer(provider, at, config);
    match read {
        DataRead::Read(v) => (Some(v), diags),
        DataRead::Failed => (None, diags),
        DataRead::Deferred(_) => {
            diags.push(deferred_here(at.provider_name, at.addr, "read"));
            (None, diags)
        }
    }
}

/// What reading a data source gave.
pub enum DataRead {
    /// The object read, with the configuration's sensitivity.
    Read(Value),
    /// The provider cannot read it yet (its `deferred` answer, to a client that allows it).
    Deferred(ferro_provider::DeferralReason),
    /// The read failed or its answer is invalid (the diagnostics say why).
    Failed,
}

/// The error for a `deferred` answer where it cannot be honoured (during apply, where
/// everything planned must be done).
pub fn deferred_here(provider_name: &str, addr: &str, what: &str) -> Diagnostic {
    Diagnostic::error("provider-deferred", "Provider deferred changes when ferro could not")
        .with_detail(format!("Provider {provider_name:?} deferred the {what} of {addr}, but a deferred answer can only be honoured while planning with -allow-deferral.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker."))
        .with_address(addr)
}

/// [`read_data`], where the provider's `deferred` answer is honoured: the read is left for a
/// later plan.
pub fn read_data_or_defer(
    provider: &dyn Provider,
    at: &InstanceRef<'_>,
    config: &Value,
) -> (DataRead, Vec<Diagnostic>) {
    let (plain_cfg, _) = config.deep_unmark();
    let resp = provider.read_data_source(ReadDataRequest {
        type_name: &at.decl.addr.ty,
        config: &plain_cfg,
        address: at.addr,
    });
    let mut diags = Vec::new();
    let mut errored = false;
    for d in &resp.diagnostics {
        errored |= d.severity == Severity::Error;
        diags.push(resource_diag(at.hir, d, at.addr, at.decl));
    }
    if errored {
        return (DataRead::Failed, diags);
    }
    if let Some(reason) = resp.deferred {
        return (DataRead::Deferred(reason), diags);
    }
    let invalid = |summary: &str, what: String| {
        Diagnostic::error("provider-invalid-data", summary)
            .with_detail(format!("Provider {:?} {what}.\n\nThis is a bug in the provider, which should be reported in the provider's own issue tracker.", at.provider_name))
            .with_address(at.addr)
    };
    let addr = at.addr;
    let problem = if resp.state.is_null() {
        Some(invalid(
            "Provider produced null object",
            format!("produced a null value for {addr}"),
        ))
    } else {
        match convert(&resp.state, &at.schema.implied_type()) {
            Err(e) => Some(invalid(
                "Provider produced invalid object",
                format!("produced an invalid value for {addr}: {e}"),
            )),
            Ok(v) if !v.is_wholly_known() => Some(invalid(
                "Provider produced invalid object",
                format!("produced a value for {addr} that is not wholly known"),
            )),
            Ok(v) => return (DataRead::Read(carry_marks(&v, config)), diags),
        }
    };
    diags.extend(problem);
    (DataRead::Failed, diags)
}
