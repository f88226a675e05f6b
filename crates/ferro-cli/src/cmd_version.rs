//! `ferro version [-json]`: the version, the platform, and the provider versions the lock file
//! selected, in Terraform 1.0's text and JSON forms. Tools that drive Terraform (and read
//! `terraform_version` to decide what the binary can do) see the Terraform release ferro is
//! compatible with: 1.0.3, the version ferro records in state.

use crate::ui::plain_error;
use crate::{Global, Io};
use std::collections::BTreeMap;

pub fn version(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match crate::spec::other::VERSION.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    // As Terraform: the selections are the lock file's; one that cannot be read selects none.
    let selections: BTreeMap<String, String> =
        ferro_provider::install::lock::LockFile::load(&g.dir)
            .map(|l| {
                l.providers
                    .into_iter()
                    .map(|(addr, locked)| (addr.to_string(), locked.version.to_string()))
                    .collect()
            })
            .unwrap_or_default();
    let platform = ferro_provider::install::source::current_platform();
    if p.flag("json") {
        // Terraform's members in its order (`terraform_outdated` needs a network check
        // Terraform makes and ferro does not), then ferro's own version, which readers of
        // Terraform's document ignore.
        let doc = serde_json::json!({
            "terraform_version": ferro_state::WRITER_VERSION,
            "platform": platform,
            "provider_selections": selections,
            "terraform_outdated": false,
            "ferro_version": env!("CARGO_PKG_VERSION"),
        });
        let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
        let _ = writeln!(io.stdout, "{text}");
        return 0;
    }
    let _ = writeln!(
        io.stdout,
        "ferro v{} (compatible with Terraform v{})\non {platform}",
        env!("CARGO_PKG_VERSION"),
        ferro_state::WRITER_VERSION
    );
    for (addr, v) in &selections {
        let _ = writeln!(io.stdout, "+ provider {addr} v{v}");
    }
    0
}
