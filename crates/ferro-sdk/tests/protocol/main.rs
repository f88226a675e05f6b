//! ferro-sdk through the real plugin protocol: this test binary is also the plugin. Run by
//! `cargo test`, it starts itself as a provider plugin (go-plugin handshake, AutoMTLS, gRPC)
//! with ferro's plugin client and drives it as core does, with core's own proposed-new-state
//! merge and plan checks: every plan modifier and helper with null and unknown values, nested
//! attributes in each nesting mode, state upgrades, validators, and (with
//! `FERRO_SDK_PROTOCOL=5`) the same over protocol 5; and the provider's output reaching the
//! host through go-plugin's stdio stream.

mod cases;
mod provider;

use ferro_provider::plugin::proto::tfplugin6 as v6;
use ferro_provider::plugin::{GrpcProvider, PluginClient, PluginOptions};
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

fn start(protocol: &str) -> GrpcProvider {
    GrpcProvider::new(start_client(protocol))
}

fn start_client(protocol: &str) -> PluginClient {
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
    PluginClient::start(&addr, launcher, &opts).expect("the plugin starts")
}

/// What `test_echo` writes through `ferro_sdk::stdio` while validating reaches ferro's plugin
/// client over `plugin.GRPCStdio/StreamStdio` (the client keeps it with the plugin's log lines;
/// the SDK never writes it to the process's real stdout or stderr).
fn stdio_reaches_the_host() -> bool {
    let client = start_client("6");
    let ty = ferro_sdk::Type::object([("text".to_string(), ferro_sdk::Type::String)]);
    let config = ferro_provider::plugin::encode_value(&ferro_sdk::Value::null(ty.clone()), &ty)
        .expect("a null config encodes");
    let answer: Result<v6::validate_resource_config::Response, _> = client.unary(
        "/tfplugin6.Provider/ValidateResourceConfig",
        v6::validate_resource_config::Request {
            type_name: "test_echo".into(),
            config: Some(config),
            ..Default::default()
        },
    );
    let mut seen = false;
    if answer.is_ok_and(|r| r.diagnostics.is_empty()) {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !seen && std::time::Instant::now() < deadline {
            let logs = client.recent_logs();
            seen = logs.contains("echo-out: validating") && logs.contains("echo-err: validating");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    client.close();
    seen
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
    ran += 1;
    if stdio_reaches_the_host() {
        println!("test stdio_reaches_the_host ... ok");
    } else {
        println!("test stdio_reaches_the_host ... FAILED");
        failed.push("stdio_reaches_the_host".into());
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
