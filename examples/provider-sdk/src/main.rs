//! The example provider as a Terraform plugin: `terraform-provider-example`.

fn main() {
    std::process::exit(ferro_sdk::serve(std::sync::Arc::new(
        ferro_example_provider::provider(),
    )));
}
