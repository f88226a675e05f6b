//! The execution graph of a plan: one step per action (two for replacements), join nodes per
//! resource so that resource-level dependencies cost edges linear in the number of instances.

use crate::resource_sets::ResourceSets;
use ferro_addrs::{parse_resource_instance, ConfigResource};
use ferro_plan::{Action, EdgeKind, OutputChange, ResourceInstanceChange, Step};
use ferro_state::State;
use petgraph::stable_graph::{NodeIndex, StableDiGraph};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

#[derive(Default)]
struct PerResource {
    applies: Vec<NodeIndex>,
    destroys: Vec<NodeIndex>,
    apply_start: Option<NodeIndex>,
    apply_done: Option<NodeIndex>,
    destroy_start: Option<NodeIndex>,
    destroy_done: Option<NodeIndex>,
    /// Some instance is replaced create-before-destroy: its old object outlives the update of
    /// everything that referred to it.
    create_before_destroy: bool,
}

/// Build the graph. `deps` holds each configured resource's dependencies; resources only in
/// state take theirs from the state's recorded `dependencies`.
/// `output_deps` holds the resources each root output refers to (through locals, variables and
/// module outputs): an output waits for those only, so a failure elsewhere leaves it evaluated
/// and recorded, as Terraform records it.
pub fn build_graph(
    changes: &[Box<ResourceInstanceChange>],
    outputs: &[OutputChange],
    deps: &ResourceSets,
    output_deps: &HashMap<String, BTreeSet<ConfigResource>>,
    prior: &State,
) -> StableDiGraph<Step, EdgeKind> {
    // Room for every instance's steps at once: grown by doubling, the graph's vectors held up
    // to twice what they needed, and both copies while they moved (the graph of a plan of
    // 100 000 creates peaked at 11 MB). The edges are reserved exactly below.
    let (steps, replaces) = changes.iter().fold((0, 0), |(s, r), c| match c.action {
        Action::NoOp => (s, r),
        Action::DeleteThenCreate | Action::CreateThenDelete => (s + 2, r + 1),
        _ => (s + 1, r),
    });
    let mut g: StableDiGraph<Step, EdgeKind> = StableDiGraph::with_capacity(steps, replaces);
    let mut per: BTreeMap<ConfigResource, PerResource> = BTreeMap::new();
    for (i, c) in changes.iter().enumerate() {
        let i = step_index(i);
        let r = c.addr.containing_resource().config();
        let e = per.entry(r).or_default();
        match c.action {
            Action::NoOp => {}
            // The old object of a forget-then-create leaves state before the apply starts.
            Action::Create | Action::Update | Action::Read | Action::ForgetThenCreate => {
                e.applies.push(g.add_node(Step::Apply(i)))
            }
            Action::Delete => e.destroys.push(g.add_node(Step::Destroy(i))),
            Action::DeleteThenCreate => {
                let d = g.add_node(Step::Destroy(i));
                let a = g.add_node(Step::Apply(i));
                g.add_edge(d, a, EdgeKind::Replace);
                e.destroys.push(d);
                e.applies.push(a);
            }
            Action::CreateThenDelete => {
                e.create_before_destroy = true;
                let a = g.add_node(Step::Apply(i));
                let d = g.add_node(Step::Destroy(i));
                g.add_edge(a, d, EdgeKind::Replace);
                e.destroys.push(d);
                e.applies.push(a);
            }
        }
    }
    // Join nodes.
    g.reserve_exact_nodes(4 * per.len() + outputs.len() + 1);
    for e in per.values_mut() {
        if !e.applies.is_empty() {
            e.apply_start = Some(g.add_node(Step::Join));
            e.apply_done = Some(g.add_node(Step::Join));
        }
        if !e.destroys.is_empty() {
            e.destroy_start = Some(g.add_node(Step::Join));
            e.destroy_done = Some(g.add_node(Step::Join));
        }
    }
    // Dependencies of every resource that has steps: configuration first, else state.
    // Read where they are, not copied: the dependencies are transitive, and in a long chain
    // of resources their sets are most of what a plan holds.
    // Resources the configuration no longer has: what state records for them.
    let unconfigured: HashSet<&ConfigResource> =
        per.keys().filter(|r| deps.get(r).is_none()).collect();
    let mut from_state = state_deps(prior, &unconfigured);
    let from_state_of: BTreeMap<&ConfigResource, BTreeSet<ConfigResource>> = unconfigured
        .iter()
        .map(|&r| (r, from_state.remove(r).unwrap_or_default()))
        .collect();
    // The edges between resources, listed first so the graph is given exactly their room.
    // The edges between resources are counted first, so the graph is given exactly their
    // room, then added (listing them instead held 12 bytes more per edge, and a chain of
    // resources has an edge for every pair).
    // Each resource's steps by number, so the pairs of a long chain are found by indexing.
    let ids = deps.ids();
    let mut per_by_id: Vec<Option<&PerResource>> = Vec::new();
    per_by_id.resize(ids.len(), None);
    for (r, e) in &per {
        if let Some(i) = ids.id(r) {
            per_by_id[i as usize] = Some(e);
        }
    }
    let each_edge = |f: &mut dyn FnMut(NodeIndex, NodeIndex, EdgeKind)| {
        for (r, rp) in &per {
            match ids.id(r).and_then(|i| Some((i, deps.members(i)?))) {
                Some((ri, members)) => {
                    for &d in members {
                        if let (true, Some(dp)) = (d != ri, per_by_id[d as usize]) {
                            edges_between(rp, dp, f);
                        }
                    }
                }
                None => {
                    for d in from_state_of.get(r).into_iter().flatten() {
                        if let (true, Some(dp)) = (d != r, per.get(d)) {
                            edges_between(rp, dp, f);
                        }
                    }
                }
            }
        }
    };
    // The joins something waits on or that wait on something: only those are joined to
    // the resource's steps. A resource nothing orders (nor an output waits for) has steps
    // with no edges at all; two edges an instance were a third of a large flat plan's graph.
    let mut between = 0;
    let mut used: HashSet<NodeIndex> = HashSet::new();
    each_edge(&mut |a, b, _| {
        between += 1;
        used.extend([a, b]);
    });
    // An output's removal waits for nothing (as in Terraform 1.0.3, whose destroy removes every
    // output even when a destroy fails): only the outputs evaluated wait for resources.
    let evaluated = |oc: &&OutputChange| oc.action != Action::Delete;
    let waiting = outputs.iter().filter(evaluated).count();
    if waiting > 0 {
        for e in per.values() {
            used.extend([e.apply_done, e.destroy_done].into_iter().flatten());
        }
    }
    let joined = |join: Option<NodeIndex>| join.filter(|j| used.contains(j));
    let join_edges: usize = per
        .values()
        .map(|e| {
            let n = |a: Option<NodeIndex>, b: Option<NodeIndex>| {
                usize::from(joined(a).is_some()) + usize::from(joined(b).is_some())
            };
            n(e.apply_start, e.apply_done) * e.applies.len()
                + n(e.destroy_start, e.destroy_done) * e.destroys.len()
        })
        .sum();
    let output_edges: usize = if waiting == 0 {
        0
    } else {
        2 * per.len()
            + outputs
                .iter()
                .filter(evaluated)
                .map(|oc| match output_deps.get(&oc.name) {
                    Some(ds) => 2 * ds.iter().filter(|d| per.contains_key(*d)).count(),
                    None => 1,
                })
                .sum::<usize>()
    };
    g.reserve_exact_edges(join_edges + between + output_edges);
    for e in per.values() {
        for (steps, start, done, kind) in [
            (&e.applies, e.apply_start, e.apply_done, EdgeKind::Reference),
            (
                &e.destroys,
                e.destroy_start,
                e.destroy_done,
                EdgeKind::DestroyOrder,
            ),
        ] {
            if let Some(start) = joined(start) {
                for &n in steps {
                    g.add_edge(start, n, kind);
                }
            }
            if let Some(done) = joined(done) {
                for &n in steps {
                    g.add_edge(n, done, kind);
                }
            }
        }
    }
    each_edge(&mut |a, b, kind| {
        g.add_edge(a, b, kind);
    });
    // Outputs are evaluated once the resources they refer to are done; an output whose
    // references are not known waits for every resource step. A removal waits for none.
    if !outputs.is_empty() {
        let all = (waiting > 0).then(|| {
            let all = g.add_node(Step::Join);
            for e in per.values() {
                for n in [e.apply_done, e.destroy_done].into_iter().flatten() {
                    g.add_edge(n, all, EdgeKind::Reference);
                }
            }
            all
        });
        for (j, oc) in outputs.iter().enumerate() {
            let o = g.add_node(Step::Output(step_index(j)));
            let Some(all) = all.filter(|_| evaluated(&oc)) else {
                continue;
            };
            match output_deps.get(&oc.name) {
                Some(ds) => {
                    for n in ds
                        .iter()
                        .filter_map(|d| per.get(d))
                        .flat_map(|e| [e.apply_done, e.destroy_done])
                        .flatten()
                    {
                        g.add_edge(n, o, EdgeKind::Reference);
                    }
                }
                None => {
                    g.add_edge(all, o, EdgeKind::Reference);
                }
            }
        }
    }
    // The plan holds the graph until apply ends: without the room its vectors doubled into.
    g.shrink_to_fit();
    g
}

/// The edges that order the steps of `rp`, a resource, after those of `dp`, one it depends on.
fn edges_between(
    rp: &PerResource,
    dp: &PerResource,
    f: &mut dyn FnMut(NodeIndex, NodeIndex, EdgeKind),
) {
    // Creates/updates wait for what they refer to.
    if let (Some(done), Some(start)) = (dp.apply_done, rp.apply_start) {
        f(done, start, EdgeKind::Reference);
    }
    // Dependents are destroyed first.
    if let (Some(done), Some(start)) = (rp.destroy_done, dp.destroy_start) {
        f(done, start, EdgeKind::DestroyOrder);
    }
    // A create_before_destroy replacement destroys its old object only once what depends on
    // it has moved to the new one.
    if dp.create_before_destroy {
        if let (Some(done), Some(start)) = (rp.apply_done, dp.destroy_start) {
            f(done, start, EdgeKind::DestroyOrder);
        }
    }
    // A dependent that stays is updated before the object it used to need goes away.
    if dp.apply_start.is_none() {
        if let (Some(done), Some(start)) = (rp.apply_done, dp.destroy_start) {
            if rp.destroy_start.is_none() {
                f(done, start, EdgeKind::DestroyOrder);
            }
        }
    }
}

/// The dependencies state records for each resource of `wanted` (in one pass over the state;
/// the others' recorded dependencies are not read).
fn state_deps(
    prior: &State,
    wanted: &HashSet<&ConfigResource>,
) -> HashMap<ConfigResource, BTreeSet<ConfigResource>> {
    let mut out: HashMap<ConfigResource, BTreeSet<ConfigResource>> = HashMap::new();
    if wanted.is_empty() {
        return out;
    }
    for rs in prior.resources.values() {
        let config = rs.addr.config();
        if !wanted.contains(&config) {
            continue;
        }
        let set = out.entry(config).or_default();
        for inst in rs.instances.values() {
            for obj in inst
                .current
                .as_deref()
                .into_iter()
                .chain(inst.deposed.values())
            {
                for d in obj.dependencies.iter() {
                    // Dependencies are static addresses (`module.a.x.y`): no instance keys.
                    if let Ok(a) = parse_resource_instance(d) {
                        set.insert(a.containing_resource().config());
                    }
                }
            }
        }
    }
    out
}

/// A change's or an output's index as a step holds it.
fn step_index(i: usize) -> u32 {
    u32::try_from(i).expect("a plan has fewer than 2^32 changes and outputs")
}
