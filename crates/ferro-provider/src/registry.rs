//! Starting providers by source address: built-ins in process; installed plugins come later
//! through the same trait.

use crate::builtin::TerraformProvider;
use crate::Provider;
use ferro_addrs::Provider as ProviderAddr;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Something that can start a provider given its source address.
pub trait ProviderSource: Send + Sync {
    /// Start (or return the running instance of) the provider; Err says why it is unavailable.
    fn get(&self, addr: &ProviderAddr) -> Result<Arc<dyn Provider>, String>;
}

/// The provider source ferro uses: built-in providers, started lazily, one instance each.
#[derive(Default)]
pub struct ProviderRegistry {
    running: Mutex<BTreeMap<ProviderAddr, Arc<dyn Provider>>>,
}

impl ProviderRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Close every provider that was started.
    pub fn close_all(&self) {
        let running = std::mem::take(&mut *self.running.lock().unwrap_or_else(|e| e.into_inner()));
        for p in running.values() {
            p.close();
        }
    }
}

impl ProviderSource for ProviderRegistry {
    fn get(&self, addr: &ProviderAddr) -> Result<Arc<dyn Provider>, String> {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = running.get(addr) {
            return Ok(p.clone());
        }
        let p: Arc<dyn Provider> = if addr.is_builtin() && addr.ty == "terraform" {
            Arc::new(TerraformProvider)
        } else {
            return Err(format!(
                "provider {addr} is not available: ferro currently runs only its built-in providers (terraform.io/builtin/terraform)"
            ));
        };
        running.insert(addr.clone(), p.clone());
        Ok(p)
    }
}
