//! Scheduling: indegree counting over the plan graph, a pool of worker threads, state writes on
//! the coordinating thread (throttled, and always after a failure and at the end).
//!
//! Each worker journals its step's changes (`ferro_state::Journal`) before reporting the step
//! complete, so whatever the user saw complete survives a kill; the coordinator acknowledges
//! them once they are in its in-memory state.

use crate::step::{run_step, Outcome, StepCtx};
use ferro_db::{Db, Workspace};
use ferro_diag::Diagnostic;
use ferro_plan::{Action, Expansion, Plan};
use ferro_planner::scope::ModuleEval;
use ferro_planner::Providers;
use ferro_state::{LocalBackend, State};
use ferro_value::Value;
use petgraph::stable_graph::NodeIndex;
use petgraph::Direction;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Progress reported while applying (rendered by the CLI).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    Started {
        addr: String,
        action: Action,
        id: Option<String>,
    },
    Completed {
        addr: String,
        action: Action,
        id: Option<String>,
        elapsed: Duration,
    },
    Failed {
        addr: String,
    },
}

pub struct ApplyInput<'a> {
    pub db: &'a dyn Db,
    pub ws: Workspace,
    pub plan: &'a Plan,
    pub providers: &'a Providers,
    pub parallelism: usize,
    pub cwd: String,
    /// Set (by a Ctrl-C handler) to stop gracefully: no new steps start, running ones finish,
    /// providers are asked to stop, and everything completed is in the persisted state.
    pub cancel: Option<&'a std::sync::atomic::AtomicBool>,
}

/// A step's journal sequence number (None: no changes), or its held-back events when the
/// journal could not be written.
type Journaled = Result<Option<u64>, Vec<Event>>;

const PERSIST_INTERVAL: Duration = Duration::from_millis(250);

/// Apply `plan`; returns the final state and diagnostics. The state is persisted through
/// `backend` as changes complete.
pub fn apply(
    input: &ApplyInput<'_>,
    backend: &mut LocalBackend,
    on_event: &(dyn Fn(Event) + Sync),
) -> (State, Vec<Diagnostic>) {
    let plan = input.plan;
    let mut state = plan.prior_state.clone();
    if state.lineage.is_empty() {
        state.lineage = ferro_state::new_lineage();
    }
    let m = ModuleEval::new(
        input.db,
        input.ws,
        plan.variables.clone(),
        false,
        input.cwd.clone(),
    );
    seed_resource_values(&m, plan, input.providers);
    let configured = ferro_planner::configure_providers(&m, input.providers);
    if configured.iter().any(Diagnostic::is_error) {
        return (state, configured);
    }
    // Completion events wait (per worker thread) until the step's changes are journaled.
    let held: Mutex<HashMap<std::thread::ThreadId, Vec<Event>>> = Mutex::new(HashMap::new());
    let hold_completed = |e: Event| match e {
        Event::Completed { .. } => held
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(std::thread::current().id())
            .or_default()
            .push(e),
        other => on_event(other),
    };
    let journal = backend.journal(&state.lineage);
    let ctx = StepCtx {
        plan,
        providers: input.providers,
        m: &m,
        on_event: &hold_completed,
        for_each_cache: Mutex::new(HashMap::new()),
    };

    let g = &plan.graph;
    let mut indegree: HashMap<NodeIndex, usize> = g
        .node_indices()
        .map(|n| (n, g.neighbors_directed(n, Direction::Incoming).count()))
        .collect();
    let mut ready: VecDeque<NodeIndex> = {
        let mut v: Vec<NodeIndex> = indegree
            .iter()
            .filter(|(_, d)| **d == 0)
            .map(|(n, _)| *n)
            .collect();
        v.sort();
        v.into()
    };
    let mut failed_nodes: HashMap<NodeIndex, bool> = HashMap::new();
    let mut diags = Vec::new();
    let mut last_persist = Instant::now();
    let mut persist_every = PERSIST_INTERVAL;
    let mut dirty = false;
    let parallelism = input.parallelism.max(1);

    let (work_tx, work_rx) = mpsc::channel::<NodeIndex>();
    let work_rx = Mutex::new(work_rx);
    std::thread::scope(|scope| {
        let (done_tx, done_rx) =
            mpsc::channel::<(NodeIndex, Vec<Outcome>, Vec<Diagnostic>, bool, Journaled)>();
        for _ in 0..parallelism {
            let done_tx = done_tx.clone();
            let work_rx = &work_rx;
            let ctx = &ctx;
            let held = &held;
            let journal = &journal;
            scope.spawn(move || loop {
                let next = work_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                let Ok(node) = next else { break };
                let (outcomes, ds, ok) = run_step(ctx, &g[node]);
                let events = held
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .remove(&std::thread::current().id())
                    .unwrap_or_default();
                // Journal, then report; without a journal the coordinator writes the state
                // first and reports after.
                let journaled = if outcomes.is_empty() {
                    Ok(None)
                } else {
                    journal.record(&outcomes).map(Some).map_err(|_| ())
                };
                let journaled = match journaled {
                    Ok(seq) => {
                        events.into_iter().for_each(on_event);
                        Ok(seq)
                    }
                    Err(()) => Err(events),
                };
                if done_tx.send((node, outcomes, ds, ok, journaled)).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        let mut in_flight = 0usize;
        let mut stopping = false;
        loop {
            let cancelled = input
                .cancel
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::SeqCst));
            if cancelled && !stopping {
                stopping = true;
                for p in input.providers.configs.values() {
                    p.stop();
                }
                diags.push(Diagnostic::error("interrupted", "Operation cancelled").with_detail("The apply was interrupted. Changes that completed before the interrupt are recorded in the state; the remaining changes were not started."));
            }
            while let Some(n) = ready.pop_front() {
                if stopping || failed_nodes.get(&n).copied().unwrap_or(false) {
                    // An upstream step failed: skip this one and everything after it.
                    for succ in g.neighbors_directed(n, Direction::Outgoing) {
                        failed_nodes.insert(succ, true);
                        let d = indegree.entry(succ).or_default();
                        *d -= 1;
                        if *d == 0 {
                            ready.push_back(succ);
                        }
                    }
                    continue;
                }
                if work_tx.send(n).is_ok() {
                    in_flight += 1;
                }
            }
            if in_flight == 0 {
                break;
            }
            let (node, outcomes, ds, ok, journaled) =
                match done_rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(x) => x,
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                };
            in_flight -= 1;
            let had_outcomes = !outcomes.is_empty();
            for o in outcomes {
                o.apply_to(&mut state);
            }
            match journaled {
                Ok(Some(seq)) => journal.applied(seq),
                Ok(None) => {}
                Err(events) => {
                    // No journal (disk trouble): write the whole state, then report (unless
                    // writing has already failed: then only the final write is retried).
                    if !diags.iter().any(|d| d.code == "state-write-failed") {
                        persist(backend, &mut state, &mut diags);
                    }
                    events.into_iter().for_each(on_event);
                }
            }
            dirty |= had_outcomes;
            diags.extend(ds);
            if !ok {
                failed_nodes.insert(node, true);
            }
            let mut succs: Vec<NodeIndex> =
                g.neighbors_directed(node, Direction::Outgoing).collect();
            succs.sort();
            succs.dedup();
            for succ in succs {
                if !ok {
                    failed_nodes.insert(succ, true);
                }
                let count = g.edges_connecting(node, succ).count();
                let d = indegree.entry(succ).or_default();
                *d -= count;
                if *d == 0 {
                    ready.push_back(succ);
                }
            }
            if dirty && (!ok || last_persist.elapsed() >= persist_every) {
                let started = Instant::now();
                persist(backend, &mut state, &mut diags);
                // Writing the whole state costs time proportional to its size; spacing the
                // writes at least ten times that apart keeps persistence under ~10% of the run
                // (and linear overall) however large the state grows.
                persist_every = PERSIST_INTERVAL.max(started.elapsed() * 10);
                last_persist = Instant::now();
                dirty = false;
            }
        }
        drop(work_tx);
    });
    persist(backend, &mut state, &mut diags);
    (state, diags)
}

fn persist(backend: &mut LocalBackend, state: &mut State, diags: &mut Vec<Diagnostic>) {
    state.prune();
    if let Err(e) = backend.persist(state) {
        // One report per run: later failures are the same trouble.
        diags.retain(|d| d.code != "state-write-failed");
        diags.push(
            Diagnostic::error("state-write-failed", "Failed to save state")
                .with_detail(format!("Error saving state: {e}. The state is kept in memory only; fix the problem and run again to record it.")),
        );
    }
}

/// Resource values as expressions see them at the start of apply: planned values (unknowns
/// included) for changed instances, prior values for unchanged ones.
fn seed_resource_values(m: &ModuleEval<'_>, plan: &Plan, providers: &Providers) {
    let mut per: BTreeMap<ferro_addrs::Resource, Vec<(ferro_addrs::InstanceKey, Value)>> =
        BTreeMap::new();
    // Data sources read while planning are in the plan's (refreshed) prior state.
    let changed: std::collections::HashSet<&ferro_addrs::Resource> = plan
        .changes
        .iter()
        .map(|c| &c.addr.resource.resource)
        .collect();
    for (abs, rs) in &plan.prior_state.resources {
        if abs.resource.mode != ferro_addrs::ResourceMode::Data || changed.contains(&abs.resource) {
            continue;
        }
        let Some(schema) = providers.resource_schema(&rs.provider, &abs.resource) else {
            continue;
        };
        for (key, inst) in &rs.instances {
            if let Some(obj) = &inst.current {
                if let Ok(v) = ferro_value::json::value_from_json(
                    &obj.attributes,
                    &schema.block.implied_type(),
                ) {
                    let v = ferro_planner::statecodec::apply_sensitive_paths(
                        v,
                        &obj.sensitive_attributes,
                    );
                    per.entry(abs.resource.clone()).or_default().push((
                        key.clone(),
                        ferro_planner::config_value::mark_schema_sensitive(&schema.block, &v),
                    ));
                }
            }
        }
    }
    for c in &plan.changes {
        if c.deposed.is_some() || c.action == Action::Delete {
            continue;
        }
        let v = if c.action == Action::NoOp {
            c.before.clone()
        } else {
            c.after.clone()
        };
        per.entry(c.addr.resource.resource.clone())
            .or_default()
            .push((c.addr.resource.key.clone(), v));
    }
    for (abs, exp) in &plan.expansions {
        let r = &abs.resource;
        let mut insts = per.remove(r).unwrap_or_default();
        insts.sort_by(|a, b| a.0.cmp(&b.0));
        let v = match exp {
            Expansion::Single => insts
                .pop()
                .map(|(_, v)| v)
                .unwrap_or_else(Value::dynamic_unknown),
            Expansion::Count => Value::tuple(insts.into_iter().map(|(_, v)| v).collect()),
            Expansion::ForEach => Value::object(
                insts
                    .into_iter()
                    .map(|(k, v)| {
                        (
                            if let ferro_addrs::InstanceKey::Str(s) = k {
                                s
                            } else {
                                String::new()
                            },
                            v,
                        )
                    })
                    .collect(),
            ),
        };
        m.set_resource(r.clone(), v);
    }
}
