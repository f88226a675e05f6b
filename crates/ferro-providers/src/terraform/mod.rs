//! The built-in `terraform` provider (`terraform.io/builtin/terraform`), written with ferro-sdk:
//! the managed resource type `terraform_data`, the data source `terraform_remote_state`, and
//! the functions `encode_tfvars`, `decode_tfvars` and `encode_expr`.

mod data;
mod functions;
mod remote_state;

pub use data::TerraformData;
pub use remote_state::RemoteState;

use ferro_sdk::SdkProvider;
use std::path::Path;

/// The provider for a configuration in `working_dir` (where relative state paths start).
pub fn provider(working_dir: &Path) -> SdkProvider {
    let p = SdkProvider::new("terraform");
    functions::with_functions(p)
        .resource("terraform_data", TerraformData)
        .data_source(
            "terraform_remote_state",
            RemoteState {
                working_dir: working_dir.to_path_buf(),
            },
        )
}
