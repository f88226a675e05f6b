//! ferro-sdk through the real plugin protocol: this test binary is also the plugin. Run by
//! `cargo test`, it starts itself as a provider plugin (go-plugin handshake, AutoMTLS, gRPC)
//! with ferro's plugin client and drives it as core does, with core's own proposed-new-state
//! merge and plan checks: every plan modifier and helper with null and unknown values, nested
//! attributes in each nesting mode, state upgrades, and (with `FERRO_SDK_PROTOCOL=5`) the same
//! over protocol 5.

mod cases;
mod provider;

use ferro_provider::plugin::{GrpcProvider, PluginOptions};
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn start(protocol: &str) -> GrpcProvider {
    let addr = ferro_addrs::Provider {
        hostname: "registry.terraform.io".into(),
        namespace: "ferro".into(),
        ty: "test".into(),
    };
    let opts = PluginOptions {
        auto_mtls: true,
        start_timeout: Duration::from_secs(30),
        echo_logs: false,
    };
    // The plugin (a child process) reads its preferred protocol from the environment it
    // inherits; set before any thread of this process reads the environment.
    let exe = std::env::current_exe().expect("the test binary's path");
    let launcher = Path::new(&exe);
    std::env::set_var("FERRO_SDK_PROTOCOL", protocol);
    GrpcProvider::start(&addr, launcher, &opts).expect("the plugin starts")
}

fn main() {
    if std::env::var_os(ferro_sdk::server::MAGIC_COOKIE_KEY).is_some() {
        let nested = std::env::var("FERRO_SDK_PROTOCOL").as_deref() != Ok("5")
            || std::env::var_os("FERRO_SDK_TEST_NESTED").is_some();
        std::process::exit(ferro_sdk::serve(Arc::new(provider::provider(nested))));
    }
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let mut failed = Vec::new();
    let mut ran = 0;
    for protocol in ["6", "5"] {
        let p = start(protocol);
        assert_eq!(
            p.protocol_version().to_string(),
            protocol,
            "negotiated protocol"
        );
        for (name, test) in cases::cases(p.protocol_version()) {
            let full = format!("v{protocol}::{name}");
            if !filter.is_empty() && !filter.iter().any(|f| full.contains(f.as_str())) {
                continue;
            }
            ran += 1;
            match std::panic::catch_unwind(AssertUnwindSafe(|| test(&p))) {
                Ok(()) => println!("test {full} ... ok"),
                Err(_) => {
                    println!("test {full} ... FAILED");
                    failed.push(full);
                }
            }
        }
        ferro_provider::Provider::close(&p);
    }
    // Protocol 5 cannot describe nested attributes: GetSchema says which ones.
    std::env::set_var("FERRO_SDK_TEST_NESTED", "1");
    let p = start("5");
    ran += 1;
    let refused = match ferro_provider::Provider::schema(&p) {
        Err(d) => d[0].detail.contains("test_thing.list"),
        Ok(_) => false,
    };
    ferro_provider::Provider::close(&p);
    if refused {
        println!("test v5::nested_attributes_are_refused ... ok");
    } else {
        println!("test v5::nested_attributes_are_refused ... FAILED");
        failed.push("v5::nested_attributes_are_refused".into());
    }
    println!(
        "\ntest result: {}. {} passed; {} failed",
        if failed.is_empty() { "ok" } else { "FAILED" },
        ran - failed.len(),
        failed.len()
    );
    if !failed.is_empty() {
        std::process::exit(101);
    }
}
