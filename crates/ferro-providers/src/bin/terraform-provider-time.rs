//! The `time` provider as a Terraform plugin (protocol 6).

fn main() {
    std::process::exit(ferro_sdk::serve(std::sync::Arc::new(
        ferro_providers::time::provider(),
    )));
}
