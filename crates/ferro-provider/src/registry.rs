//! Starting providers by source address: built-ins in process; other providers as plugin
//! processes from the working directory's `.terraform/providers/` (as selected and verified by
//! `.terraform.lock.hcl`) or from the CLI configuration's `dev_overrides`.
//!
//! Each provider configuration (default or alias, per module) gets its own process, started
//! lazily on first use; [`ProviderRegistry::close_all`] shuts them all down.

use crate::install::cliconfig::CliConfig;
use crate::install::lock::LockFile;
use crate::install::{locate_dev_override, locate_installed_hashed};
use crate::plugin::{GrpcProvider, PluginOptions};
use crate::Provider;
use ferro_addrs::{AbsProviderConfig, Provider as ProviderAddr};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// A constructor of an in-process provider.
pub type BuiltinFactory = fn() -> Arc<dyn Provider>;

static FALLBACKS: OnceLock<BTreeMap<String, BuiltinFactory>> = OnceLock::new();

/// A constructor of a built-in `terraform.io/builtin/NAME` provider for the configuration in a
/// working directory (where it resolves relative paths).
pub type BuiltinProviderFactory = fn(&Path) -> Arc<dyn Provider>;

static BUILTINS: OnceLock<BTreeMap<String, BuiltinProviderFactory>> = OnceLock::new();

/// Register the built-in providers `terraform.io/builtin/NAME` (the `terraform` provider lives
/// in ferro-providers, which depends on this crate). The first call wins; ferro's CLI calls it
/// once at start-up.
pub fn set_builtin_providers(list: Vec<(&'static str, BuiltinProviderFactory)>) {
    let _ = BUILTINS.set(list.into_iter().map(|(n, f)| (n.to_string(), f)).collect());
}

/// Register in-process providers (by type name) that stand in for
/// `registry.terraform.io/hashicorp/NAME` when no plugin for it is installed (not in the
/// dependency lock file) or named by a `dev_overrides` entry: an installed plugin always wins.
/// The first call wins; ferro's CLI calls it once at start-up.
pub fn set_builtin_fallbacks(list: Vec<(&'static str, BuiltinFactory)>) {
    let _ = FALLBACKS.set(list.into_iter().map(|(n, f)| (n.to_string(), f)).collect());
}

/// The in-process stand-in for `addr`, if there is one.
pub fn builtin_fallback(addr: &ProviderAddr) -> Option<BuiltinFactory> {
    if !addr.is_public_registry() || addr.namespace != "hashicorp" {
        return None;
    }
    FALLBACKS.get()?.get(&addr.ty).copied()
}

/// Something that can start a provider given its source address.
pub trait ProviderSource: Send + Sync {
    /// Start (or return the running instance of) the provider; Err says why it is unavailable.
    fn get(&self, addr: &ProviderAddr) -> Result<Arc<dyn Provider>, String>;

    /// Start (or return) the instance for one provider configuration. Sources that do not
    /// distinguish configurations share one instance per provider.
    fn get_config(&self, cfg: &AbsProviderConfig) -> Result<Arc<dyn Provider>, String> {
        self.get(&cfg.provider)
    }
}

/// Where plugin providers come from.
struct PluginSettings {
    working_dir: PathBuf,
    cli: Result<CliConfig, String>,
    lock: Result<LockFile, String>,
    options: PluginOptions,
}

/// The provider source ferro uses: built-in providers, plus (with a working directory)
/// installed plugins, each configuration started lazily, once.
#[derive(Default)]
pub struct ProviderRegistry {
    running: Mutex<BTreeMap<AbsProviderConfig, Arc<dyn Provider>>>,
    plugins: Option<PluginSettings>,
}

impl ProviderRegistry {
    /// Built-in providers only.
    pub fn new() -> Self {
        Self::default()
    }

    /// Built-in providers, and plugins installed by `init` in `working_dir` (or dev_overrides
    /// from the CLI configuration).
    pub fn for_working_dir(working_dir: &Path) -> Self {
        Self::with_settings(working_dir, CliConfig::load(), PluginOptions::default())
    }

    /// As [`ProviderRegistry::for_working_dir`] with an explicit CLI configuration and plugin
    /// options (tests, embedding).
    pub fn with_settings(
        working_dir: &Path,
        cli: Result<CliConfig, String>,
        options: PluginOptions,
    ) -> Self {
        ProviderRegistry {
            running: Mutex::new(BTreeMap::new()),
            plugins: Some(PluginSettings {
                working_dir: working_dir.to_path_buf(),
                cli,
                lock: LockFile::load(working_dir),
                options,
            }),
        }
    }

    /// Close every provider that was started.
    pub fn close_all(&self) {
        let running = std::mem::take(&mut *self.running.lock().unwrap_or_else(|e| e.into_inner()));
        for p in running.values() {
            p.close();
        }
    }

    fn start(&self, addr: &ProviderAddr) -> Result<Arc<dyn Provider>, String> {
        if addr.is_builtin() {
            let builtin = BUILTINS.get().and_then(|b| b.get(&addr.ty));
            return if let Some(f) = builtin {
                let dir = self.plugins.as_ref().map(|s| s.working_dir.as_path());
                Ok(f(dir.unwrap_or(Path::new("."))))
            } else if addr.ty == "ferrotest" && crate::builtin::testing::enabled() {
                Ok(Arc::new(crate::builtin::testing::TestProvider::default()))
            } else {
                Err(format!("there is no built-in provider named {:?}", addr.ty))
            };
        }
        let fallback = builtin_fallback(addr);
        let Some(s) = &self.plugins else {
            if let Some(f) = fallback {
                return Ok(f());
            }
            return Err(format!(
                "provider {addr} is not available: this ferro session runs only its built-in providers (terraform.io/builtin/terraform)"
            ));
        };
        let cli = s.cli.as_ref().map_err(Clone::clone)?;
        let (exe, h1) = match cli.dev_overrides.get(addr) {
            // A development build changes without its hash being recorded: never cached.
            Some(dir) => (locate_dev_override(dir, addr)?, None),
            None => {
                let locked = s
                    .lock
                    .as_ref()
                    .ok()
                    .filter(|l| l.providers.contains_key(addr));
                match (locked, fallback) {
                    (None, Some(f)) => return Ok(f()),
                    _ => {
                        let lock = s.lock.as_ref().map_err(Clone::clone)?;
                        let (exe, h1) = locate_installed_hashed(&s.working_dir, addr, lock)?;
                        (exe, Some(h1))
                    }
                }
            }
        };
        let mut p = GrpcProvider::start(addr, &exe, &s.options)?;
        if let Some(h1) = h1 {
            p = p.with_schema_cache(crate::plugin::schema_cache_path(&s.working_dir, &h1));
        }
        Ok(Arc::new(p))
    }
}

impl ProviderSource for ProviderRegistry {
    fn get(&self, addr: &ProviderAddr) -> Result<Arc<dyn Provider>, String> {
        self.get_config(&AbsProviderConfig::root(addr.clone()))
    }

    fn get_config(&self, cfg: &AbsProviderConfig) -> Result<Arc<dyn Provider>, String> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = running.get(cfg) {
            return Ok(p.clone());
        }
        let p = self.start(&cfg.provider)?;
        running.insert(cfg.clone(), p.clone());
        Ok(p)
    }
}

impl Drop for ProviderRegistry {
    fn drop(&mut self) {
        self.close_all();
    }
}
