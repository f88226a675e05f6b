//! `terraform { required_version = "…" }` for both lineages. A constraint in a `.tf` or
//! `.tf.json` file must allow some Terraform release whose language ferro implements (from
//! the one ferro records in state to the newest it follows) or some OpenTofu release whose
//! language it implements (OpenTofu up to 1.11 checks these constraints against its own
//! version, so modules written for it ask for `>= 1.10` there); otherwise the configuration
//! is "Unsupported Terraform Core version", as Terraform refuses a configuration its own
//! version does not meet. A constraint in a `.tofu` or `.tofu.json` file is OpenTofu's alone
//! (OpenTofu 1.12 honours `required_version` only there): it must allow some OpenTofu release
//! ferro follows, or the module is OpenTofu's "Incompatible module". Shared by the CLI's
//! loading and the language server's diagnostics.

use crate::{file_hir, Db, Workspace};
use ferro_addrs::version::{Constraints, Version};
use ferro_diag::Diagnostic;

/// The release ferro records as the writer of state (`terraform_version`), and so the oldest
/// whose language it reads (ferro-state's `WRITER_VERSION`; a test keeps the two equal).
pub const OLDEST_LANGUAGE_VERSION: &str = "1.0.3";

/// The newest Terraform release whose language ferro implements (ephemeral values and
/// resources, `terraform.applying` of 1.10; write-only attributes of 1.11; the short circuit
/// of `&&` and `||` of 1.12; in `terraform test`, 1.12's `parallel` runs, `-parallelism` and
/// runs going on after an apply's missing expected failure, 1.13's `variable` blocks typing
/// external variables and file-level `variables` referring to each other and to runs).
pub const NEWEST_LANGUAGE_VERSION: &str = "1.13.5";

/// The first OpenTofu release (its language is Terraform 1.6's).
pub const OLDEST_OPENTOFU_VERSION: &str = "1.6.0";

/// The newest OpenTofu release whose language ferro follows (`lifecycle { destroy }` is
/// 1.12's).
pub const NEWEST_OPENTOFU_VERSION: &str = "1.12.6";

/// The `required_version` constraints of every module that allow no release from
/// [`OLDEST_LANGUAGE_VERSION`] to [`NEWEST_LANGUAGE_VERSION`], or do not parse.
#[salsa::tracked(returns(ref))]
pub fn required_version_diagnostics(db: &dyn Db, ws: Workspace) -> Vec<Diagnostic> {
    let (Ok(oldest), Ok(newest), Ok(tofu_oldest), Ok(tofu_newest)) = (
        Version::parse(OLDEST_LANGUAGE_VERSION),
        Version::parse(NEWEST_LANGUAGE_VERSION),
        Version::parse(OLDEST_OPENTOFU_VERSION),
        Version::parse(NEWEST_OPENTOFU_VERSION),
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in ws.modules(db) {
        for f in m.files(db) {
            let hir = file_hir(db, *f);
            let path = f.path(db);
            let tofu_only = path.ends_with(".tofu") || path.ends_with(".tofu.json");
            for (constraint, span, whole) in &hir.required_versions {
                match Constraints::parse(constraint) {
                    Ok(c) if c.allows_some_in(&tofu_oldest, &tofu_newest) => {}
                    Ok(c) if !tofu_only && c.allows_some_in(&oldest, &newest) => {}
                    Ok(_) if tofu_only => out.push(
                        Diagnostic::error("unsupported-core-version", "Incompatible module")
                            .with_detail(format!("This module is not compatible with any OpenTofu version ferro is compatible with ({tofu_oldest} to {tofu_newest}).\n\nTo proceed, either choose another supported OpenTofu version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior."))
                            // OpenTofu points at the whole argument too.
                            .with_span(hir.at(*whole)),
                    ),
                    Ok(_) => out.push(
                        Diagnostic::error("unsupported-core-version", "Unsupported Terraform Core version")
                            .with_detail(format!("This configuration does not support any Terraform version ferro is compatible with ({oldest} to {newest}, or OpenTofu {tofu_oldest} to {tofu_newest}). To proceed, either choose another supported Terraform version or update this version constraint. Version constraints are normally set for good reason, so updating the constraint may lead to other errors or unexpected behavior."))
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
