//! ferro's built-in utility providers, written with ferro-sdk so that they match HashiCorp's
//! providers of the same names: [`random`], [`null`], [`local`], [`time`], and the built-in
//! [`terraform`] provider. ferro links them in process (see
//! [`install`]); the `terraform-provider-NAME` binaries serve the same code to any Terraform.

pub mod local;
pub mod null;
pub mod random;
mod rng;
pub mod terraform;
pub mod time;
mod time_functions;

use ferro_provider::Provider;
use std::sync::Arc;

/// The built-in providers by type name (namespace `hashicorp`).
pub fn builtins() -> Vec<(&'static str, fn() -> Arc<dyn Provider>)> {
    vec![
        ("random", || Arc::new(random::provider())),
        ("null", || Arc::new(null::provider())),
        ("local", || Arc::new(local::provider())),
        ("time", || Arc::new(time::provider())),
    ]
}

/// Make these providers the fallbacks for `registry.terraform.io/hashicorp/NAME`, and the
/// `terraform` provider the built-in `terraform.io/builtin/terraform`, in every
/// [`ferro_provider::ProviderRegistry`] of this process.
pub fn install() {
    ferro_provider::set_builtin_fallbacks(builtins());
    ferro_provider::set_builtin_providers(vec![("terraform", |dir| {
        Arc::new(terraform::provider(dir))
    })]);
}
