//! Provider installation end to end: from the oracle's filesystem mirror (the real null
//! provider, whose `h1:` hash must equal what `terraform init` records), from packed zip
//! mirrors, version selection, lock file verification and the errors users see.

mod common;

use common::{oracle_mirror, temp_dir};
use ferro_addrs::Provider as ProviderAddr;
use ferro_provider::install::cliconfig::CliConfig;
use ferro_provider::install::lock::LockFile;
use ferro_provider::install::signature::Authentication;
use ferro_provider::install::source::current_platform;
use ferro_provider::install::version::{Constraints, Version};
use ferro_provider::install::zip::write_zip;
use ferro_provider::install::{
    locate_installed, package_dir, InstallEvent, Installer, Requirement,
};
use std::path::Path;

/// What `terraform init` 1.0.3 writes for `hashicorp/null` = "2.1.2" from the oracle mirror.
const TERRAFORM_LOCK: &str = r#"# This file is maintained automatically by "terraform init".
# Manual edits may be lost in future updates.

provider "registry.terraform.io/hashicorp/null" {
  version     = "2.1.2"
  constraints = "2.1.2"
  hashes = [
    "h1:CFnENdqQu4g3LJNevA32aDxcUz2qGkRGQpFfkI8TCdE=",
  ]
}
"#;

fn cli_for_mirror(mirror: &Path) -> CliConfig {
    let text = format!(
        "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
        mirror.display()
    );
    CliConfig::parse(&text, "test").unwrap()
}

fn req(source: &str, constraints: &str) -> Requirement {
    Requirement {
        addr: ProviderAddr::parse_source(source).unwrap(),
        constraints: Constraints::parse(constraints).unwrap(),
    }
}

#[test]
fn installs_the_real_null_provider_like_terraform() {
    let wd = temp_dir("install-null");
    let installer = Installer::new(&wd, &cli_for_mirror(&oracle_mirror()));
    let mut events = Vec::new();
    let lock = installer
        .install(
            &[req("hashicorp/null", "2.1.2")],
            &LockFile::default(),
            &mut |e| events.push(e),
        )
        .unwrap();
    assert_eq!(lock.render(), TERRAFORM_LOCK);
    let null = ProviderAddr::default_for("null");
    assert_eq!(
        events,
        vec![
            InstallEvent::Finding {
                addr: null.clone(),
                constraints: Constraints::parse("2.1.2").unwrap()
            },
            InstallEvent::Installing {
                addr: null.clone(),
                version: Version::new(2, 1, 2)
            },
            InstallEvent::Installed {
                addr: null.clone(),
                version: Version::new(2, 1, 2),
                auth: Authentication::Unauthenticated,
            },
        ]
    );
    let dir = package_dir(&wd, &null, &Version::new(2, 1, 2), &current_platform());
    assert!(
        std::fs::symlink_metadata(&dir)
            .unwrap()
            .file_type()
            .is_symlink(),
        "unpacked mirrors are linked, as Terraform does"
    );
    let exe = locate_installed(&wd, &null, &lock).unwrap();
    assert!(exe.ends_with("terraform-provider-null_v2.1.2_x4"));

    // A second init reuses the lock file's selection and the installed package.
    lock.save(&wd).unwrap();
    let lock2 = LockFile::load(&wd).unwrap();
    let mut events = Vec::new();
    let again = installer
        .install(&[req("hashicorp/null", "2.1.2")], &lock2, &mut |e| {
            events.push(e)
        })
        .unwrap();
    assert_eq!(again.render(), TERRAFORM_LOCK);
    assert_eq!(
        events,
        vec![
            InstallEvent::ReusingLocked { addr: null.clone() },
            InstallEvent::UsingInstalled {
                addr: null,
                version: Version::new(2, 1, 2)
            }
        ]
    );
    std::fs::remove_dir_all(&wd).unwrap();
}

#[test]
fn a_checksum_mismatch_with_the_lock_file_is_an_error() {
    let wd = temp_dir("install-mismatch");
    let tampered = TERRAFORM_LOCK.replace(
        "CFnENdqQu4g3LJNevA32aDxcUz2qGkRGQpFfkI8TCdE=",
        "AAAAdqQu4g3LJNevA32aDxcUz2qGkRGQpFfkI8TCdE=",
    );
    let lock = LockFile::parse(&tampered).unwrap();
    let installer = Installer::new(&wd, &cli_for_mirror(&oracle_mirror()));
    let errs = installer
        .install(&[req("hashicorp/null", "2.1.2")], &lock, &mut |_| {})
        .unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].summary, "Failed to install provider");
    assert!(
        errs[0]
            .detail
            .contains("doesn't match any of the checksums previously recorded"),
        "{}",
        errs[0].detail
    );
    std::fs::remove_dir_all(&wd).unwrap();
}

/// A fake provider package: a shell script named like a provider executable.
fn fake_exe(ty: &str, version: &str) -> (String, Vec<u8>) {
    (
        format!("terraform-provider-{ty}_v{version}"),
        format!("#!/bin/sh\necho {ty} {version}\n").into_bytes(),
    )
}

fn make_mirror(root: &Path, ty: &str, unpacked: &[&str], packed: &[&str]) {
    let platform = current_platform();
    let tdir = root.join("registry.terraform.io/acme").join(ty);
    for v in unpacked {
        let d = tdir.join(v).join(&platform);
        std::fs::create_dir_all(&d).unwrap();
        let (name, data) = fake_exe(ty, v);
        std::fs::write(d.join(name), data).unwrap();
    }
    std::fs::create_dir_all(&tdir).unwrap();
    for v in packed {
        let (name, data) = fake_exe(ty, v);
        let z = write_zip(&[(name.as_str(), data.as_slice(), 0o755, true)]);
        std::fs::write(
            tdir.join(format!("terraform-provider-{ty}_{v}_{platform}.zip")),
            z,
        )
        .unwrap();
    }
}

#[test]
fn newest_matching_version_from_packed_and_unpacked_layouts() {
    let root = temp_dir("install-layouts");
    let mirror = root.join("mirror");
    make_mirror(
        &mirror,
        "thing",
        &["1.0.0", "2.0.0"],
        &["1.2.0", "1.3.0-beta1"],
    );
    let wd = root.join("wd");
    std::fs::create_dir_all(&wd).unwrap();
    let installer = Installer::new(&wd, &cli_for_mirror(&mirror));
    let lock = installer
        .install(
            &[req("acme/thing", "~> 1.0")],
            &LockFile::default(),
            &mut |_| {},
        )
        .unwrap();
    let addr = ProviderAddr::parse_source("acme/thing").unwrap();
    let locked = &lock.providers[&addr];
    assert_eq!(locked.version, Version::new(1, 2, 0));
    assert_eq!(locked.constraints.as_deref(), Some("~> 1.0"));
    // The zip was extracted (a real directory, executable kept executable), and its h1 hash is
    // the hash of the extracted contents.
    let dir = package_dir(&wd, &addr, &Version::new(1, 2, 0), &current_platform());
    assert!(std::fs::symlink_metadata(&dir).unwrap().is_dir());
    let exe = locate_installed(&wd, &addr, &lock).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&exe).unwrap().permissions().mode() & 0o111,
            0o111
        );
    }
    assert_eq!(
        locked.hashes,
        vec![ferro_provider::install::hash::hash_dir(&dir).unwrap()]
    );

    // Without constraints the newest release wins (pre-releases only when named).
    let lock = installer
        .install(&[req("acme/thing", "")], &LockFile::default(), &mut |_| {})
        .unwrap();
    assert_eq!(lock.providers[&addr].version, Version::new(2, 0, 0));
    assert_eq!(lock.providers[&addr].constraints, None);

    // Tampering with an installed package is caught before it runs.
    let dir2 = package_dir(&wd, &addr, &Version::new(2, 0, 0), &current_platform());
    let lock_v2 = lock.clone();
    std::fs::write(dir2.join("extra-file"), "x").unwrap();
    let err = locate_installed(&wd, &addr, &lock_v2).unwrap_err();
    assert!(err.contains("does not match any of the checksums"), "{err}");
    std::fs::remove_file(dir2.join("extra-file")).unwrap();
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn errors_for_missing_providers_and_unsatisfiable_constraints() {
    let root = temp_dir("install-errors");
    let mirror = root.join("mirror");
    make_mirror(&mirror, "thing", &["1.0.0"], &[]);
    let wd = root.join("wd");
    std::fs::create_dir_all(&wd).unwrap();

    let installer = Installer::new(&wd, &cli_for_mirror(&mirror));
    let errs = installer
        .install(
            &[req("acme/thing", ">= 2.0")],
            &LockFile::default(),
            &mut |_| {},
        )
        .unwrap_err();
    assert!(
        errs[0].detail.contains(
            "no available releases match the given constraints >= 2.0.0 (available: 1.0.0)"
        ),
        "{}",
        errs[0].detail
    );

    let errs = installer
        .install(
            &[req("acme/nothing", "")],
            &LockFile::default(),
            &mut |_| {},
        )
        .unwrap_err();
    assert_eq!(
        errs[0].summary,
        "Failed to query available provider packages"
    );
    assert!(
        errs[0]
            .detail
            .contains("was not found in any of the search locations"),
        "{}",
        errs[0].detail
    );
    assert!(
        errs[0].detail.contains(&mirror.display().to_string()),
        "lists where it looked: {}",
        errs[0].detail
    );

    // With `direct` in the list, a registry that cannot be reached is named (port 1 on the
    // loopback refuses connections at once).
    let text = format!("provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n  direct {{}}\n}}\n", mirror.display());
    let installer = Installer::new(&wd, &CliConfig::parse(&text, "t").unwrap());
    let errs = installer
        .install(
            &[req("127.0.0.1:1/acme/nothing", "")],
            &LockFile::default(),
            &mut |_| {},
        )
        .unwrap_err();
    assert!(
        errs[0]
            .detail
            .contains("could not connect to 127.0.0.1:1: failed to request discovery document"),
        "{}",
        errs[0].detail
    );

    // A lock file selection outside the constraints needs -upgrade.
    let lock = installer
        .install(
            &[req("acme/thing", "1.0.0")],
            &LockFile::default(),
            &mut |_| {},
        )
        .unwrap();
    let errs = installer
        .install(&[req("acme/thing", ">= 1.1")], &lock, &mut |_| {})
        .unwrap_err();
    assert!(
        errs[0]
            .detail
            .contains("does not match configured version constraint"),
        "{}",
        errs[0].detail
    );
    std::fs::remove_dir_all(&root).unwrap();
}
