//! `terraform { required_version = "…" }`: each constraint must allow some Terraform release
//! whose language ferro implements, from the one ferro records in state to the newest it
//! follows, or the configuration is "Unsupported Terraform Core version", as Terraform
//! refuses a configuration its own version does not meet. Shared by the CLI's loading and
//! the language server's diagnostics.

use crate::{file_hir, Db, Workspace};
use ferro_addrs::version::{Constraints, Version};
use ferro_diag::Diagnostic;

/// The release ferro records as the writer of state (`terraform_version`), and so the oldest
/// whose language it reads (ferro-state's `WRITER_VERSION`; a test keeps the two equal).
pub const OLDEST_LANGUAGE_VERSION: &str = "1.0.3";

/// The newest Terraform release whose language ferro implements.
pub const NEWEST_LANGUAGE_VERSION: &str = "1.9.8";

/// The `required_version` constraints of every module that allow no release from
/// [`OLDEST_LANGUAGE_VERSION`] to [`NEWEST_LANGUAGE_VERSION`], or do not parse.
#[salsa::tracked(returns(ref))]
pub fn required_version_diagnostics(db: &dyn Db, ws: Workspace) -> Vec<Diagnostic> {
    let (Ok(oldest), Ok(newest)) = (
        Version::parse(OLDEST_LANGUAGE_VERSION),
        Version::parse(NEWEST_LANGUAGE_VERSION),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in ws.modules(db) {
        for f in m.files(db) {
            let hir = file_hir(db, *f);
            for (constraint, span, whole) in &hir.required_versions {
                match Constraints::parse(constraint) {
                    Ok(c) if c.allows_some_in(&oldest, &newest) => {}
                    Ok(_) => out.push(
                        Diagnostic::error("unsupported-core-version", "Unsupported Terraform Core version")
                            .with_detail(format!("This configuration does not support any Terraform version ferro is compatible with ({oldest} to {newest}). To proceed, either choose another supported Terraform version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior."))
                            // Terraform points at the whole argument.
                            .with_span(hir.at(*whole)),
                    ),
                    Err(e) => out.push(
                        Diagnostic::error("invalid-version-constraint", "Invalid version constraint")
                            .with_detail(format!("This string does not use correct version constraint syntax: {e}."))
                            .with_span(hir.at(*span)),
                    ),
                }
            }
        }
    }
    out
}
