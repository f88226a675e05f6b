//! A plan's own consistency, checked before anything runs: every step refers to a change or
//! output that exists, no change is performed twice, and the graph has no cycle. A saved plan
//! that fails these checks was damaged or made by a broken ferro; applying it could do anything.

use crate::{Plan, Step};
use std::collections::HashSet;

/// Err names the first inconsistency found.
pub fn check_consistency(plan: &Plan) -> Result<(), String> {
    let mut applies = HashSet::new();
    let mut destroys = HashSet::new();
    let mut outputs = HashSet::new();
    for n in plan.graph.node_indices() {
        let (seen, i, len, what) = match plan.graph[n] {
            Step::Apply(i) => (&mut applies, i, plan.changes.len(), "an apply step"),
            Step::Destroy(i) => (&mut destroys, i, plan.changes.len(), "a destroy step"),
            Step::Output(i) => (&mut outputs, i, plan.outputs.len(), "an output step"),
            Step::Join => continue,
        };
        if i >= len {
            return Err(format!(
                "{what} refers to change {i}, but the plan has only {len}"
            ));
        }
        if !seen.insert(i) {
            return Err(format!("{what} for change {i} appears more than once"));
        }
    }
    let mut addrs = HashSet::new();
    for c in &plan.changes {
        if !addrs.insert((c.addr.to_string(), c.deposed.clone())) {
            return Err(format!("the plan changes {} more than once", c.addr));
        }
    }
    if let Err(cycle) = petgraph::algo::toposort(&plan.graph, None) {
        let what = match plan.graph[cycle.node_id()] {
            Step::Apply(i) | Step::Destroy(i) => plan.changes[i].addr.to_string(),
            Step::Output(i) => format!("output.{}", plan.outputs[i].name),
            Step::Join => "a join step".to_string(),
        };
        return Err(format!("its steps form a cycle (through {what})"));
    }
    Ok(())
}
