//! Provider installation: the CLI configuration's installation methods, local mirrors
//! (unpacked and packed layouts), version selection, `.terraform/providers/` and the
//! dependency lock file (`.terraform.lock.hcl`, `h1:` hashes).

pub mod cliconfig;
pub mod hash;
mod hcl;
pub mod http;
mod installer;
pub mod lock;
pub mod registry;
pub mod signature;
pub mod source;
pub mod tar;
pub mod version;
pub mod zip;

pub use installer::{
    display_addr, download_authenticated, locate_dev_override, locate_installed, package_dir,
    providers_dir, InstallError, InstallEvent, Installer, Requirement,
};
