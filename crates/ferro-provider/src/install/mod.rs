//! Provider installation: the CLI configuration's installation methods, local mirrors
//! (unpacked and packed layouts), registries and network mirrors over HTTPS (with package
//! authentication), version selection, `.terraform/providers/`, the shared plugin cache and
//! the dependency lock file (`.terraform.lock.hcl`, `h1:` and `zh:` hashes); the archive
//! readers module installation shares (zip, gzip + tar).

pub mod cliconfig;
mod download;
pub mod gcs;
pub mod hash;
mod hcl;
pub mod http;
mod installer;
pub mod lock;
pub mod registry;
pub mod signature;
pub mod source;
pub mod tar;
pub use ferro_addrs::version;
pub mod zip;

pub use download::download_authenticated;
pub use installer::{
    display_addr, locate_dev_override, locate_installed, package_dir, providers_dir, InstallError,
    InstallEvent, Installer, Requirement,
};
