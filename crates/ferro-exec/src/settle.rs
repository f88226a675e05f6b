//! Module instances whose steps are all over. Expressions read a resource's value only in its
//! own module instance, and the outputs of a called instance only in its parent; once every
//! step of a module instance and of the instances it calls is done (or skipped), its outputs
//! have their final values. The coordinator then evaluates them (`ModuleEval::settle`), and
//! when all are known they are kept and what they were built from is released: the instance's
//! resource values and the outputs of the instances it calls. Without it apply held, to its
//! end, a projected value of every instance that a module output reads (in a tree of modules
//! collecting their resources' ids, a quarter of apply's peak at 100 000 instances), beside
//! the state it was writing.

use ferro_addrs::ModuleInstance;
use ferro_plan::{Plan, ResourceInstanceChange};
use ferro_runtime::scope::EvalTree;
use std::collections::HashMap;

pub(crate) struct Settle {
    ids: HashMap<ModuleInstance, u32>,
    paths: Vec<ModuleInstance>,
    parent: Vec<Option<u32>>,
    children: Vec<Vec<u32>>,
    /// Steps not yet over in each instance and the instances below it.
    pending: Vec<u32>,
    settled: Vec<bool>,
    /// The instance last looked up (a module instance's changes mostly come one after another,
    /// sharing its path).
    last: Option<(ModuleInstance, u32)>,
}

impl Settle {
    /// Every module instance the plan expanded (the root is not one: its outputs are steps of
    /// their own), with the steps each has below it: `steps_left` per change.
    pub(crate) fn new(
        plan: &Plan,
        changes: &[Option<Box<ResourceInstanceChange>>],
        steps_left: &[u8],
    ) -> Settle {
        let mut s = Settle {
            ids: HashMap::new(),
            paths: Vec::new(),
            parent: Vec::new(),
            children: Vec::new(),
            pending: Vec::new(),
            settled: Vec::new(),
            last: None,
        };
        // Destroying: nothing evaluates module outputs.
        if plan.mode == ferro_plan::PlanMode::Destroy {
            return s;
        }
        // Parents before children: the expansions are ordered by path (shorter first).
        let mut calls: Vec<_> = plan.module_expansions.iter().collect();
        calls.sort_by(|a, b| a.0 .0.cmp(&b.0 .0));
        for ((path, name), (_, keys)) in calls {
            let parent = s.ids.get(path).copied();
            if parent.is_none() && !path.is_root() {
                continue;
            }
            for k in keys {
                let id = s.paths.len() as u32;
                let child = path.child(name, k.clone());
                s.ids.insert(child.clone(), id);
                s.paths.push(child);
                s.parent.push(parent);
                s.children.push(Vec::new());
                if let Some(p) = parent {
                    s.children[p as usize].push(id);
                }
            }
        }
        s.pending = vec![0; s.paths.len()];
        s.settled = vec![false; s.paths.len()];
        for (c, &n) in changes.iter().zip(steps_left) {
            if let (Some(c), true) = (c, n > 0) {
                let mut at = s.id_of(&c.addr.module);
                while let Some(i) = at {
                    s.pending[i as usize] += u32::from(n);
                    at = s.parent[i as usize];
                }
            }
        }
        s
    }

    fn id_of(&mut self, path: &ModuleInstance) -> Option<u32> {
        if path.is_root() {
            return None;
        }
        if let Some((p, id)) = &self.last {
            if std::sync::Arc::ptr_eq(&p.0, &path.0) {
                return Some(*id);
            }
        }
        let id = *self.ids.get(path)?;
        self.last = Some((path.clone(), id));
        Some(id)
    }

    /// Before anything runs: settle the instances that have no steps at all.
    pub(crate) fn idle(&mut self, tree: &EvalTree<'_>) {
        let tops: Vec<u32> = (0..self.paths.len() as u32)
            .filter(|&i| {
                self.pending[i as usize] == 0
                    && self.parent[i as usize].is_none_or(|p| self.pending[p as usize] > 0)
            })
            .collect();
        for i in tops {
            self.settle(i, tree);
        }
    }

    /// A step of a change in `module` is over (done, failed or skipped).
    pub(crate) fn step_over(&mut self, module: &ModuleInstance, tree: &EvalTree<'_>) {
        let mut at = self.id_of(module);
        let mut top = None;
        while let Some(i) = at {
            let p = &mut self.pending[i as usize];
            *p = p.saturating_sub(1);
            if *p == 0 {
                top = Some(i);
            }
            at = self.parent[i as usize];
        }
        if let Some(i) = top {
            self.settle(i, tree);
        }
    }

    /// Settle `i` once the instances it calls are (those that were not yet, for an output
    /// unknown until now, are tried again first).
    fn settle(&mut self, i: u32, tree: &EvalTree<'_>) {
        for k in 0..self.children[i as usize].len() {
            let c = self.children[i as usize][k];
            if !self.settled[c as usize] {
                self.settle(c, tree);
            }
        }
        if let Some(m) = tree.scope(&self.paths[i as usize]) {
            // Evaluated on the coordinator, which must go on to save the state: a bug in an
            // evaluation leaves the instance unsettled (debug builds, the tests, stop on it).
            let settled = ferro_pool::catching(|| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| m.settle()))
            });
            self.settled[i as usize] = match settled {
                Ok(s) => s,
                Err(p) if cfg!(debug_assertions) => std::panic::resume_unwind(p),
                Err(_) => false,
            };
        }
    }
}
