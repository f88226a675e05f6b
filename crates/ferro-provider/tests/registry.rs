//! The provider registry starting real plugins: from `.terraform/providers` after installation
//! (verified against the lock file), from dev_overrides, one process per provider configuration.

mod common;

use common::{null_binary, oracle_mirror, temp_dir};
use ferro_addrs::{AbsProviderConfig, Provider as ProviderAddr};
use ferro_provider::install::cliconfig::CliConfig;
use ferro_provider::install::lock::LockFile;
use ferro_provider::install::version::Constraints;
use ferro_provider::install::{Installer, Requirement};
use ferro_provider::plugin::PluginOptions;
use ferro_provider::{ProviderRegistry, ProviderSource};
use std::sync::Arc;

fn cli(text: &str) -> CliConfig {
    CliConfig::parse(text, "test").unwrap()
}

#[test]
fn starts_installed_providers_lazily_per_configuration() {
    let wd = temp_dir("registry-installed");
    let null = ProviderAddr::default_for("null");

    // Before init: a clear error that says what to do.
    let reg =
        ProviderRegistry::with_settings(&wd, Ok(CliConfig::default()), PluginOptions::default());
    let err = reg.get(&null).err().expect("not installed yet");
    assert!(err.contains("ferro init"), "{err}");

    let mirror = format!(
        "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
        oracle_mirror().display()
    );
    let installer = Installer::new(&wd, &cli(&mirror));
    let req = Requirement {
        addr: null.clone(),
        constraints: Constraints::parse("2.1.2").unwrap(),
    };
    let lock = installer
        .install(&[req], &LockFile::default(), &mut |_| {})
        .unwrap();
    lock.save(&wd).unwrap();

    let reg =
        ProviderRegistry::with_settings(&wd, Ok(CliConfig::default()), PluginOptions::default());
    let a = reg.get(&null).unwrap();
    let a_again = reg
        .get_config(&AbsProviderConfig::root(null.clone()))
        .unwrap();
    assert!(Arc::ptr_eq(&a, &a_again), "one process per configuration");
    let aliased = reg
        .get_config(&AbsProviderConfig {
            module: Vec::new(),
            provider: null.clone(),
            alias: Some("west".into()),
            key: ferro_addrs::InstanceKey::None,
        })
        .unwrap();
    assert!(
        !Arc::ptr_eq(&a, &aliased),
        "an aliased configuration gets its own process"
    );
    assert!(a.schema().unwrap().resources.contains_key("null_resource"));
    assert!(aliased
        .schema()
        .unwrap()
        .resources
        .contains_key("null_resource"));
    reg.close_all();
    // Closed providers answer with errors rather than hanging.
    assert!(a.schema().is_ok(), "the schema stays cached");
    let diags = a.configure(&ferro_value::Value::empty_object());
    assert!(ferro_provider::has_errors(&diags));

    // A tampered lock file stops the provider from starting.
    let text = std::fs::read_to_string(wd.join(".terraform.lock.hcl")).unwrap();
    std::fs::write(
        wd.join(".terraform.lock.hcl"),
        text.replace("h1:CFn", "h1:XFn"),
    )
    .unwrap();
    let reg =
        ProviderRegistry::with_settings(&wd, Ok(CliConfig::default()), PluginOptions::default());
    let err = reg.get(&null).err().expect("checksum mismatch");
    assert!(err.contains("does not match any of the checksums"), "{err}");
    std::fs::remove_dir_all(&wd).unwrap();
}

#[test]
fn dev_overrides_run_the_provider_from_its_directory_without_init() {
    let wd = temp_dir("registry-dev");
    let dev = wd.join("dev");
    std::fs::create_dir_all(&dev).unwrap();
    std::os::unix::fs::symlink(null_binary(), dev.join("terraform-provider-null")).unwrap();
    let c = cli(&format!(
        "provider_installation {{\n  dev_overrides {{\n    \"hashicorp/null\" = \"{}\"\n  }}\n}}\n",
        dev.display()
    ));
    let reg = ProviderRegistry::with_settings(&wd, Ok(c), PluginOptions::default());
    let p = reg.get(&ProviderAddr::default_for("null")).unwrap();
    assert!(p
        .schema()
        .unwrap()
        .data_sources
        .contains_key("null_data_source"));
    reg.close_all();
    std::fs::remove_dir_all(&wd).unwrap();
}
