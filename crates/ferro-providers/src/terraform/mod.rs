//! The built-in `terraform` provider (`terraform.io/builtin/terraform`), written with ferro-sdk:
//! the managed resource type `terraform_data` and the data source `terraform_remote_state`.

mod data;
mod remote_state;

pub use data::TerraformData;
pub use remote_state::RemoteState;

use ferro_sdk::SdkProvider;
use std::path::Path;

/// The provider for a configuration in `working_dir` (where relative state paths start).
pub fn provider(working_dir: &Path) -> SdkProvider {
    SdkProvider::new("terraform")
        .resource("terraform_data", TerraformData)
        .data_source(
            "terraform_remote_state",
            RemoteState {
                working_dir: working_dir.to_path_buf(),
            },
        )
}
