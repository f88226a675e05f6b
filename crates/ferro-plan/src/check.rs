//! A plan's own consistency, checked before anything runs: every step refers to a change or
//! output that exists, no change is performed twice, and the graph has no cycle. A saved plan
//! that fails these checks was damaged or made by a broken ferro; applying it could do anything.

use crate::{Plan, Step};

/// Err names the first inconsistency found.
pub fn check_consistency(plan: &Plan) -> Result<(), String> {
    // Which changes (and outputs) have a step already: a flag each, not a set of indices.
    let mut applies = vec![false; plan.changes.len()];
    let mut destroys = vec![false; plan.changes.len()];
    let mut outputs = vec![false; plan.outputs.len()];
    for n in plan.graph.node_indices() {
        let (seen, i, len, what) = match plan.graph[n] {
            Step::Apply(i) => (
                &mut applies,
                i as usize,
                plan.changes.len(),
                "an apply step",
            ),
            Step::Destroy(i) => (
                &mut destroys,
                i as usize,
                plan.changes.len(),
                "a destroy step",
            ),
            Step::Output(i) => (
                &mut outputs,
                i as usize,
                plan.outputs.len(),
                "an output step",
            ),
            Step::Join => continue,
        };
        if i >= len {
            return Err(format!(
                "{what} refers to change {i}, but the plan has only {len}"
            ));
        }
        if std::mem::replace(&mut seen[i], true) {
            return Err(format!("{what} for change {i} appears more than once"));
        }
    }
    // Changes ordered by the object they change, as indices (four bytes a change, where a
    // set of borrowed addresses took about forty): a repeat is next to its twin. Plans list
    // a resource's changes in key order, so the sort mostly finds runs already in order.
    let key = |i: u32| {
        let c = &plan.changes[i as usize];
        (&c.addr, c.deposed())
    };
    let mut order: Vec<u32> = (0..plan.changes.len() as u32).collect();
    order.sort_by(|a, b| key(*a).cmp(&key(*b)));
    if let Some(w) = order.windows(2).find(|w| key(w[0]) == key(w[1])) {
        return Err(format!(
            "the plan changes {} more than once",
            plan.changes[w[0] as usize].addr
        ));
    }
    drop(order);
    if let Err(cycle) = petgraph::algo::toposort(&plan.graph, None) {
        let what = match plan.graph[cycle.node_id()] {
            Step::Apply(i) | Step::Destroy(i) => plan.changes[i as usize].addr.to_string(),
            Step::Output(i) => format!("output.{}", plan.outputs[i as usize].name),
            Step::Join => "a join step".to_string(),
        };
        return Err(format!("its steps form a cycle (through {what})"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        Action, ConfigSnapshot, EdgeKind, PlanMode, ResourceInstanceChange, PLAN_FORMAT_VERSION,
    };
    use ferro_addrs::{AbsProviderConfig, AbsResource, InstanceKey, Provider, Resource};
    use ferro_value::{Type, Value};
    use std::sync::Arc;

    fn change(name: &str, key: i64, deposed: Option<&str>) -> ResourceInstanceChange {
        let provider = Arc::new(AbsProviderConfig::root(Provider::default_for("null")));
        let addr = AbsResource::root(Resource::managed("null_resource", name))
            .instance(InstanceKey::Int(key));
        ResourceInstanceChange::new(
            addr,
            provider,
            Action::Delete,
            Value::null(Type::Dynamic),
            Value::null(Type::Dynamic),
            0,
        )
        .with_deposed(deposed.map(Box::from))
    }

    /// A plan of the given changes, each with an apply step, in a chain.
    fn plan(changes: Vec<ResourceInstanceChange>) -> Plan {
        let mut graph = petgraph::stable_graph::StableDiGraph::new();
        let mut last = None;
        for i in 0..changes.len() as u32 {
            let n = graph.add_node(Step::Apply(i));
            if let Some(prev) = last {
                graph.add_edge(prev, n, EdgeKind::Reference);
            }
            last = Some(n);
        }
        Plan {
            format_version: PLAN_FORMAT_VERSION,
            mode: PlanMode::Normal,
            config: ConfigSnapshot { files: Vec::new() },
            variables: Default::default(),
            prior_state: ferro_state::State::new("lineage".into()),
            state_identity: None,
            changes: changes.into_iter().map(Box::new).collect(),
            outputs: Vec::new(),
            graph,
            expansions: Default::default(),
            module_expansions: Default::default(),
            targets: Vec::new(),
            excludes: Vec::new(),
            drift: Vec::new(),
            moved: Vec::new(),
            imports: Vec::new(),
            import_identities: Vec::new(),
            generated_config: Vec::new(),
            forgotten: Vec::new(),
            schemas: Vec::new(),
            deferred: Vec::new(),
            ephemeral_variables: Vec::new(),
            ephemeral_values: Default::default(),
        }
    }

    #[test]
    fn a_consistent_plan_passes() {
        // The same instance may have a current object and a deposed one changed.
        let p = plan(vec![
            change("a", 0, None),
            change("a", 1, None),
            change("a", 0, Some("00000001")),
        ]);
        assert_eq!(check_consistency(&p), Ok(()));
    }

    #[test]
    fn an_object_changed_twice_is_refused() {
        let p = plan(vec![change("a", 0, None), change("a", 0, None)]);
        assert_eq!(
            check_consistency(&p),
            Err("the plan changes null_resource.a[0] more than once".to_string())
        );
    }

    #[test]
    fn steps_that_repeat_or_point_nowhere_are_refused() {
        let mut p = plan(vec![change("a", 0, None)]);
        p.graph.add_node(Step::Apply(0));
        assert_eq!(
            check_consistency(&p),
            Err("an apply step for change 0 appears more than once".to_string())
        );
        let mut p = plan(vec![change("a", 0, None)]);
        p.graph.add_node(Step::Destroy(3));
        assert_eq!(
            check_consistency(&p),
            Err("a destroy step refers to change 3, but the plan has only 1".to_string())
        );
    }

    #[test]
    fn a_cycle_is_refused() {
        let mut p = plan(vec![change("a", 0, None), change("b", 0, None)]);
        let nodes: Vec<_> = p.graph.node_indices().collect();
        p.graph.add_edge(nodes[1], nodes[0], EdgeKind::DependsOn);
        let err = check_consistency(&p).unwrap_err();
        assert!(
            err.starts_with("its steps form a cycle (through null_resource."),
            "{err}"
        );
    }
}
