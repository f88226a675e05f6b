//! What the plan walk gives up as it goes (`walk::release` decides when): a resource's value
//! in a module instance, and the cached outputs of a module call's instances. Apply gives up
//! the same once a module instance is settled (`ModuleEval::settle`).

use super::{EvalTree, ModuleEval};
use ferro_addrs::{InstanceKey, ModuleInstance, Resource};
use ferro_value::{Value, ValueKind};
use std::collections::HashMap;

impl EvalTree<'_> {
    /// The instance keys of `call` in the module instance `path` (none until it is expanded).
    fn call_keys(&self, path: &ModuleInstance, call: &str) -> Vec<InstanceKey> {
        let calls = self.calls.read().unwrap_or_else(|e| e.into_inner());
        calls
            .get(&(path.clone(), call.to_string()))
            .map(|e| e.keys.clone())
            .unwrap_or_default()
    }
}

impl ModuleEval<'_> {
    /// Drop the value of `r`: nothing left to evaluate in this module instance reads it (the
    /// walk's last reader of it is planned, see `walk::release`).
    /// Returns how many instances the value had.
    pub fn release_resource(&self, r: &Resource) -> usize {
        let released = self
            .inst
            .resources
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(r);
        self.inst.released.insert(r);
        released.map_or(0, |v| elements(&v))
    }

    /// Drop the values of the outputs of `call`'s instances in this module instance: nothing
    /// left to evaluate here reads `module.CALL` (see `walk::release`). Returns how many
    /// elements they had.
    pub fn release_call_outputs(&self, call: &str) -> usize {
        let keys = self.tree.call_keys(&self.inst.path, call);
        let children = keys.into_iter().filter_map(|k| {
            let child = self.tree.scope(&self.inst.path.child(call, k))?;
            child.inst.released.insert_outputs();
            let mut outputs = child.inst.outputs.lock().unwrap_or_else(|e| e.into_inner());
            Some(std::mem::take(&mut *outputs))
        });
        children
            .flat_map(HashMap::into_values)
            .map(|v| elements(&v))
            .sum()
    }
}

impl ModuleEval<'_> {
    /// Apply: every step of this module instance and of the instances it calls is over, so
    /// what its outputs read has its final value. Each output is evaluated (and kept); when all
    /// of them are wholly known, nothing reads this instance's resource values or its calls'
    /// outputs again (its own items are applied, and its parent reads the kept outputs), and
    /// they are released. Returns whether they were: not while an output is unknown (it reads
    /// something outside this instance not yet applied) or fails, nor in a module with `check`
    /// blocks (evaluated after apply).
    pub fn settle(&self) -> bool {
        if !self.index.checks.is_empty() {
            return false;
        }
        for name in self.index.outputs.keys() {
            match self.output(name) {
                Ok(v) if self.cacheable(&v) => {}
                _ => return false,
            }
        }
        let resources: Vec<Resource> = self
            .inst
            .resources
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .cloned()
            .collect();
        for r in &resources {
            self.release_resource(r);
        }
        for call in self.index.module_calls.keys() {
            self.release_call_outputs(call);
        }
        true
    }
}

/// How many elements a released value had (1 when not a collection).
fn elements(v: &Value) -> usize {
    match &v.kind {
        ValueKind::Tuple(es) | ValueKind::List(_, es) => es.len(),
        ValueKind::Object(m) | ValueKind::Map(_, m) => m.len(),
        _ => 1,
    }
}
