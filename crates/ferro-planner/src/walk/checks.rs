//! Errors the walk reports about the configuration itself: a resource referring to itself, a
//! sensitive value in an output not marked sensitive, an instance protected by
//! `prevent_destroy` that the plan would destroy.

use super::*;
use ferro_addrs::InstanceKey;

/// Terraform's error for a plan that would destroy (or replace) an instance whose
/// `lifecycle` sets `prevent_destroy`.
pub(super) fn prevent_destroy_error(addr: &AbsResourceInstance) -> Diagnostic {
    Diagnostic::error("prevent-destroy", "Instance cannot be destroyed")
        .with_detail(format!("Resource {addr} has lifecycle.prevent_destroy set, but the plan calls for this resource to be destroyed. To avoid this error and continue with the plan, either disable lifecycle.prevent_destroy or reduce the scope of the plan using the -target flag."))
        .with_address(addr.to_string())
}

/// A resource whose configuration refers to the resource itself (Terraform's "Self-referential
/// block"), pointing at the first such reference.
pub(super) fn self_reference(hir: &ferro_hir::FileHir, decl: &ResourceDecl) -> Option<Diagnostic> {
    let mut all: Vec<ExprId> = decl
        .count
        .iter()
        .chain(decl.for_each.iter())
        .chain(decl.enabled.iter())
        .copied()
        .collect();
    decl.body.exprs(&mut all);
    let mut found = None;
    for e in all {
        ferro_hir::walk_references(&hir.exprs, e, &mut |id, r| {
            if found.is_none() && matches!(r, Reference::Resource(x) if *x == decl.addr) {
                found = Some(id);
            }
        });
        if found.is_some() {
            break;
        }
    }
    let id = found?;
    Some(
        Diagnostic::error("self-reference", "Self-referential block")
            .with_detail(format!(
                "Configuration for {} may not refer to itself.",
                decl.addr
            ))
            .with_span_opt(hir.span(id)),
    )
}

/// A sensitive value in an output not marked sensitive (any module's, as in Terraform 1.0).
pub(super) fn sensitive_output_error(span: Option<Span>) -> Diagnostic {
    Diagnostic::error("sensitive-output", "Output refers to sensitive values")
        .with_detail("To reduce the risk of accidentally exporting sensitive data that was intended to be only internal, ferro requires that any root module output containing sensitive data be explicitly marked as sensitive, to confirm your intent.\n\nIf you do intend to export this data, annotate the output value as sensitive by adding the following argument:\n    sensitive = true")
        .with_span_opt(span)
}

/// Terraform's warning for a `-replace` address without an instance key naming a resource whose
/// instances have keys (or that has none): it matches nothing, so list what would.
pub(super) fn incomplete_replace_warnings(
    replace: &[AbsResourceInstance],
    changes: &[Box<ResourceInstanceChange>],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for wanted in replace {
        if wanted.resource.key != InstanceKey::None {
            continue;
        }
        let res = wanted.containing_resource();
        let instances: Vec<&AbsResourceInstance> = changes
            .iter()
            .filter(|c| {
                c.deposed().is_none()
                    && c.action != Action::Delete
                    && c.addr.containing_resource() == res
            })
            .map(|c| &c.addr)
            .collect();
        let why = match instances.as_slice() {
            [only] if only.resource.key == InstanceKey::None => continue,
            [] => "because this resource doesn't have any instances.".to_string(),
            [only] => format!("because it lacks an instance key.\n\nTo force replacement of the single declared instance, use the following option instead:\n  -replace={}", quoted(only)),
            many => format!(
                "because it lacks an instance key.\n\nTo force replacement of particular instances, use one or more of the following options instead:{}",
                many.iter().map(|a| format!("\n  -replace={}", quoted(a))).collect::<String>()
            ),
        };
        if instances.is_empty() && !changes.iter().any(|c| c.addr.containing_resource() == res) {
            // Not a resource of this configuration at all: nothing to say (as Terraform).
            continue;
        }
        out.push(
            Diagnostic::warning(
                "replace",
                "Incompletely-matched force-replace resource instance",
            )
            .with_detail(format!(
                "Your force-replace request for {wanted} doesn't match any resource instances {why}"
            )),
        );
    }
    out
}

/// An address as Go's `%q` prints it.
fn quoted(addr: &AbsResourceInstance) -> String {
    format!("{:?}", addr.to_string())
}
