//! Scheduling: indegree counting over the plan graph, a pool of worker threads, state writes on
//! the coordinating thread (throttled, and always after a failure and at the end).
//!
//! Each worker journals its step's changes (`ferro_state::Journal`) before handing the step
//! back, and completion is announced only once the change is in the state, so whatever the
//! user saw complete survives a kill; the coordinator acknowledges journal entries once they
//! are in its in-memory state.

use crate::interrupt::Interrupt;
use crate::step::{run_step, Outcome, StepCtx};
use ferro_addrs::AbsProviderConfig;
use ferro_db::{Db, Workspace};
use ferro_diag::Diagnostic;
use ferro_plan::{Action, Expansion, Plan, ResourceInstanceChange, Step};
use ferro_runtime::scope::{EvalTree, InstanceCtx};
use ferro_runtime::Providers;
use ferro_state::{Backend, State};
use ferro_value::{Type, Value};
use petgraph::stable_graph::NodeIndex;
use petgraph::Direction;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::sync::{Mutex, OnceLock};
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
    /// What is done to an ephemeral resource instance (opened, renewed, closed).
    Ephemeral(ferro_runtime::ephemeral::EphemeralEvent),
    /// A provisioner of `addr` (its kind, `local-exec`) starts, prints a line, completes or
    /// fails.
    Provision {
        addr: String,
        provisioner: String,
        phase: ProvisionPhase,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProvisionPhase {
    Start,
    Output(String),
    Complete,
    Errored,
}

impl Event {
    /// The line the human UI shows for this event, if any (completion and failure lines of
    /// steps are the caller's: they need its counts).
    pub fn provision_line(&self) -> Option<String> {
        match self {
            Event::Provision {
                addr,
                provisioner,
                phase,
            } => match phase {
                ProvisionPhase::Start => {
                    Some(format!("{addr}: Provisioning with '{provisioner}'..."))
                }
                ProvisionPhase::Output(line) => Some(format!("{addr} ({provisioner}): {line}")),
                ProvisionPhase::Complete | ProvisionPhase::Errored => None,
            },
            _ => None,
        }
    }
}

pub struct ApplyInput<'a> {
    pub db: &'a dyn Db,
    pub ws: Workspace,
    /// The plan to apply. Apply takes its changes (`plan.changes` is empty afterwards) and
    /// drops each once its last step is done, so what a change holds (its planned and prior
    /// values) is freed as the apply goes instead of living until it ends.
    pub plan: &'a mut Plan,
    pub providers: &'a Providers,
    pub parallelism: usize,
    pub cwd: String,
    /// Set by a Ctrl-C handler. A stop: no new steps start, running ones finish, providers are
    /// asked to stop, and everything completed is in the persisted state. An abort: the state
    /// is persisted with what has completed so far and the apply returns without waiting.
    pub interrupt: Option<&'a Interrupt>,
}

const PERSIST_INTERVAL: Duration = Duration::from_millis(250);

/// What a worker hands back for one step.
struct Done {
    node: NodeIndex,
    /// The change the step worked on, handed back.
    change: Option<Box<ResourceInstanceChange>>,
    outcomes: Vec<Outcome>,
    diags: Vec<Diagnostic>,
    ok: bool,
    /// The journal entry of the step's changes (None: no changes); Err when the journal could
    /// not be written, so the state must be written before completion is announced.
    journaled: Result<Option<u64>, ()>,
}

/// The steps ready to run, in the order they became ready: first the steps nothing precedes,
/// in node order, found as they are taken rather than listed up front (in a flat plan that is
/// every step), then the steps their predecessors freed, in the order they were freed.
struct Ready<'g> {
    graph: &'g petgraph::stable_graph::StableDiGraph<Step, ferro_plan::EdgeKind>,
    /// The node index the search for the next step without predecessors resumes at.
    next_root: usize,
    freed: VecDeque<NodeIndex>,
}

impl Ready<'_> {
    fn pop_front(&mut self) -> Option<NodeIndex> {
        let bound = petgraph::visit::NodeIndexable::node_bound(self.graph);
        while self.next_root < bound {
            let n = NodeIndex::new(self.next_root);
            self.next_root += 1;
            if self.graph.contains_node(n)
                && self
                    .graph
                    .neighbors_directed(n, Direction::Incoming)
                    .next()
                    .is_none()
            {
                return Some(n);
            }
        }
        self.freed.pop_front()
    }

    fn push_back(&mut self, n: NodeIndex) {
        self.freed.push_back(n);
    }
}

/// Apply `plan`; returns the final state and diagnostics. The state is persisted through
/// `backend` as changes complete.
pub fn apply(
    input: ApplyInput<'_>,
    backend: &mut dyn Backend,
    on_event: &(dyn Fn(Event) + Sync),
) -> (State, Vec<Diagnostic>) {
    let ApplyInput {
        db,
        ws,
        plan,
        providers,
        parallelism,
        cwd,
        interrupt,
    } = input;
    // What planning freed (its values, its evaluation tree) goes back before apply builds its
    // own: a plan made in this process left its pages with the allocator.
    ferro_runtime::memory::give_back();
    // The working state is the plan's prior state, moved: steps read what they need of the
    // prior objects from `priors`, taken before anything changes.
    let mut state = std::mem::replace(
        &mut plan.prior_state,
        ferro_state::State::new(String::new()),
    );
    let priors = crate::priors::Priors::take(&state, &plan.changes);
    // Objects `removed` blocks forget leave state before anything runs.
    for c in &plan.forgotten {
        state.forget_instance(&c.addr.containing_resource(), &c.addr.resource.key);
    }
    // So do the old objects of forget-then-create replacements (`lifecycle { destroy =
    // false }`); their deposed objects, if any, stay.
    for c in plan
        .changes
        .iter()
        .filter(|c| c.action == Action::ForgetThenCreate)
    {
        state.set_current(
            &c.addr.containing_resource(),
            &c.provider,
            &c.addr.resource.key,
            None,
        );
    }
    if state.lineage.is_empty() {
        state.lineage = ferro_state::new_lineage();
    }
    if let Err(e) = ferro_plan::check_consistency(plan) {
        return (
            state,
            vec![Diagnostic::error("invalid-plan", "Invalid plan").with_detail(format!(
                "The plan cannot be applied because {e}. Nothing was changed; create the plan again."
            ))],
        );
    }
    // The journal's disk space is reserved before any provider is called: when the disk fills
    // up later, the changes already running still fit, and every object reported created is
    // recorded (the coordinator starts nothing more once the disk says no).
    let journal = backend.journal(&state.lineage);
    if plan.graph.node_count() > 0 {
        let estimate = (plan.changes.len() as u64 * JOURNAL_BYTES_PER_CHANGE)
            .clamp(JOURNAL_RESERVE_MIN, JOURNAL_RESERVE_MAX);
        if let Err(e) = journal.reserve(estimate) {
            return (
                state,
                vec![Diagnostic::error("state-journal", "Failed to reserve space for the state journal")
                    .with_detail(format!("{e}.\n\nferro records every change of an apply in the journal as it completes, so that nothing created is forgotten; without room for it the apply does not start. Nothing was changed; free some disk space and run again."))],
            );
        }
    }
    // The plan's variables, and its ephemeral ones when it still holds them (the plan was
    // made by this command; a plan read from a file was given them again).
    let mut variables = plan.variables.clone();
    variables.extend(
        plan.ephemeral_values
            .iter()
            .map(|(n, v)| (n.clone(), v.clone())),
    );
    let tree = EvalTree::new(db, ws, variables, false, cwd)
        .for_apply()
        .project_reads()
        .with_provider_functions(providers.functions.clone());
    restore_module_instances(&tree, plan);
    seed_resource_values(&tree, plan, &state, providers);
    // A provider block that refers to resources is configured by the first step that uses it,
    // once those resources are applied (its steps wait for them).
    let deferred = match ferro_db::item_graph(db, ws) {
        Ok(graph) => ferro_runtime::deferred_configs(graph, providers),
        Err(_) => Default::default(),
    };
    let configured = ferro_runtime::configure_providers_except(&tree, providers, &deferred);
    if configured.iter().any(Diagnostic::is_error) {
        return (state, configured);
    }
    // Ephemeral resources are opened again (the plan kept nothing of them), before any step
    // needs them; they are closed when apply ends (when `ephemeral` is dropped, at the latest).
    let report = |e| on_event(Event::Ephemeral(e));
    let ephemeral = ferro_runtime::ephemeral::EphemeralSet::new(Some(&report));
    let (mut opened, pending) = crate::ephemeral::open_all(db, ws, &tree, providers, &ephemeral);
    opened.extend(ephemeral.renew_due());
    if opened.iter().any(Diagnostic::is_error) {
        let mut diags = opened;
        diags.extend(ephemeral.close_all());
        return (state, diags);
    }
    let mut diags = opened;
    // From here on the coordinator owns the changes: it hands each to the worker running its
    // step, takes it back with the step's result, and drops it once its last step (a
    // replacement has two) is done or skipped.
    let mut changes: Vec<Option<Box<ResourceInstanceChange>>> = std::mem::take(&mut plan.changes)
        .into_iter()
        .map(Some)
        .collect();
    let plan: &Plan = plan;
    let mut steps_left: Vec<u8> = vec![0; changes.len()];
    for n in plan.graph.node_indices() {
        if let Step::Apply(i) | Step::Destroy(i) = plan.graph[n] {
            let i = i as usize;
            steps_left[i] = steps_left[i].saturating_add(1);
        }
    }
    // Module instances without steps are settled now, the others as their last step ends.
    let mut settle = crate::settle::Settle::new(plan, &changes, &steps_left);
    settle.idle(&tree);
    let ctx = StepCtx {
        plan,
        providers,
        tree: &tree,
        on_event,
        priors,
        for_each_cache: Mutex::new(HashMap::new()),
        config_cache: Mutex::new(HashMap::new()),
        deferred: deferred
            .into_iter()
            .map(|cfg| (cfg, OnceLock::new()))
            .collect(),
        ephemeral: &ephemeral,
        pending_ephemeral: Mutex::new(pending),
    };

    let g = &plan.graph;
    // Unfinished predecessors per step, indexed by node (a word per step, not a hash entry).
    let mut indegree: Vec<u32> = vec![0; petgraph::visit::NodeIndexable::node_bound(g)];
    for n in g.node_indices() {
        indegree[n.index()] = g.neighbors_directed(n, Direction::Incoming).count() as u32;
    }
    let mut ready = Ready {
        graph: g,
        next_root: 0,
        freed: VecDeque::new(),
    };
    let mut failed_nodes: HashSet<NodeIndex> = HashSet::new();
    // Providers whose crash has been reported: their remaining steps fail without repeating it.
    let mut crashed: HashSet<AbsProviderConfig> = HashSet::new();
    let mut last_persist = Instant::now();
    let mut persist_every = PERSIST_INTERVAL;
    let mut dirty = false;
    let mut halted = false;
    let mut aborted = false;
    let parallelism = parallelism.max(1);
    let change_of = |n: NodeIndex| match g[n] {
        Step::Apply(i) | Step::Destroy(i) => Some(i as usize),
        _ => None,
    };
    let provider_of = |changes: &[Option<Box<ResourceInstanceChange>>], n: NodeIndex| {
        let c = changes.get(change_of(n)?)?.as_ref()?;
        Some(c.provider.clone())
    };
    // A step is over (done or skipped): its change goes once no other step needs it.
    let release = |changes: &mut [Option<Box<ResourceInstanceChange>>],
                   steps_left: &mut [u8],
                   settle: &mut crate::settle::Settle,
                   n: NodeIndex| {
        if let Some(i) = change_of(n) {
            if let Some(c) = &changes[i] {
                settle.step_over(&c.addr.module, &tree);
            }
            steps_left[i] = steps_left[i].saturating_sub(1);
            if steps_left[i] == 0 {
                changes[i] = None;
            }
        }
    };

    let (work_tx, work_rx) = mpsc::channel::<(NodeIndex, Option<Box<ResourceInstanceChange>>)>();
    let work_rx = Mutex::new(work_rx);
    std::thread::scope(|scope| {
        let (done_tx, done_rx) = mpsc::channel::<Done>();
        for _ in 0..parallelism {
            let done_tx = done_tx.clone();
            let work_rx = &work_rx;
            let ctx = &ctx;
            let journal = &journal;
            scope.spawn(move || loop {
                let next = work_rx.lock().unwrap_or_else(|e| e.into_inner()).recv();
                let Ok((node, change)) = next else { break };
                let step = &g[node];
                let (outcomes, diags, ok) = ferro_pool::catching(|| {
                    std::panic::catch_unwind(AssertUnwindSafe(|| {
                        run_step(ctx, step, change.as_deref())
                    }))
                })
                .unwrap_or_else(|payload| panicked(ctx, step, change.as_deref(), payload.as_ref()));
                let changes: Vec<ferro_state::Change> = outcomes
                    .iter()
                    .filter_map(|o| match o {
                        Outcome::Change(c) => Some(c.clone()),
                        Outcome::Report(_) => None,
                    })
                    .collect();
                let journaled = if changes.is_empty() {
                    Ok(None)
                } else {
                    journal.record(&changes).map(Some).map_err(|_| ())
                };
                let done = Done {
                    node,
                    change,
                    outcomes,
                    diags,
                    ok,
                    journaled,
                };
                if done_tx.send(done).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        let mut in_flight = 0usize;
        let mut stopping = false;
        // A state or journal write failed (a full disk): no new change starts.
        let mut write_failed = false;
        loop {
            // Ephemeral resources whose renewal time has come are renewed while steps run.
            diags.extend(ephemeral.renew_due());
            if let Some(int) = interrupt {
                if int.abort_requested() {
                    // Running steps are abandoned: what they do is not recorded.
                    persist(backend, &mut state, &mut diags);
                    int.mark_saved();
                    aborted = true;
                    break;
                }
                if int.stop_requested() && !stopping {
                    stopping = true;
                    for p in providers.configs.values() {
                        p.stop();
                    }
                    // Running provisioner commands are cancelled, as Terraform cancels
                    // local-exec on a stop.
                    ferro_provider::process::stop_commands();
                    // ... and so are file and remote-exec connections and their retries.
                    ferro_ssh::stop_all();
                }
            }
            // At most `parallelism` steps are handed out; the rest wait here, so a stop
            // leaves them unstarted.
            while in_flight < parallelism {
                let Some(n) = ready.pop_front() else { break };
                // An output planned wholly known is written as planned even when something
                // it refers to failed, as Terraform 1.0.3 writes it (it evaluates only
                // outputs whose planned value is not wholly known).
                let upstream_failed = failed_nodes.contains(&n)
                    && !matches!(g[n], Step::Output(j) if output_planned_known(&plan.outputs[j as usize]));
                let provider_gone = provider_of(&changes, n).is_some_and(|p| crashed.contains(&*p));
                if stopping || write_failed || upstream_failed || provider_gone {
                    halted |= (stopping || write_failed) && !matches!(g[n], Step::Join);
                    // Skip this step and everything after it.
                    release(&mut changes, &mut steps_left, &mut settle, n);
                    for succ in g.neighbors_directed(n, Direction::Outgoing) {
                        failed_nodes.insert(succ);
                        let d = &mut indegree[succ.index()];
                        *d = d.saturating_sub(1);
                        if *d == 0 {
                            ready.push_back(succ);
                        }
                    }
                    continue;
                }
                let change = change_of(n).and_then(|i| changes[i].take());
                if work_tx.send((n, change)).is_ok() {
                    in_flight += 1;
                }
            }
            if in_flight == 0 {
                break;
            }
            let Done {
                node,
                change,
                outcomes,
                diags: ds,
                ok,
                journaled,
            } = match done_rx.recv_timeout(Duration::from_millis(100)) {
                Ok(d) => d,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            // Tests of what a crash leaves behind (debug builds only): the coordinator panics
            // once a step has completed while others still run.
            #[cfg(debug_assertions)]
            if in_flight > 1 && std::env::var_os("FERRO_TEST_PANIC").is_some_and(|v| v == "apply") {
                panic!("injected panic (FERRO_TEST_PANIC=apply)");
            }
            in_flight -= 1;
            if let (Some(i), Some(c)) = (change_of(node), change) {
                changes[i] = Some(c);
            }
            // A state write since the step journaled its changes has folded them into the
            // state already.
            let folded_in = matches!(journaled, Ok(Some(seq)) if journal.applied(seq));
            let mut reports = Vec::new();
            for o in outcomes {
                match o {
                    Outcome::Report(e) => reports.push(e),
                    Outcome::Change(_) if folded_in => {}
                    Outcome::Change(c) => {
                        c.apply_to(&mut state);
                        dirty = true;
                    }
                }
            }
            match journaled {
                Ok(_) => {}
                // No journal (disk trouble): the whole state is written before completion
                // is announced (unless writing has already failed: then only the final write
                // is retried, instead of a full rewrite per change).
                Err(()) => {
                    if !diags.iter().any(|d| d.code == "state-write-failed") {
                        persist(backend, &mut state, &mut diags);
                    }
                }
            }
            // Completion is announced only once the change is in the state.
            for e in reports {
                on_event(e);
            }
            write_failed |= journaled.is_err()
                || journal.out_of_space()
                || diags.iter().any(|d| d.code == "state-write-failed");
            let provider_crashed = !ok
                && provider_of(&changes, node)
                    .and_then(|p| providers.get(&p).map(|x| (p, x)))
                    .is_some_and(|(p, x)| x.crashed() && !crashed.insert((*p).clone()));
            release(&mut changes, &mut steps_left, &mut settle, node);
            if provider_crashed {
                // Already reported for another instance of this provider.
                diags.extend(ds.into_iter().filter(|d| !d.is_error()));
            } else {
                diags.extend(ds);
            }
            if !ok {
                failed_nodes.insert(node);
            }
            // One entry per edge; sorted, so each successor's edges are counted in one run
            // (a join node has thousands of successors: no per-successor edge search).
            let mut succs: Vec<NodeIndex> =
                g.neighbors_directed(node, Direction::Outgoing).collect();
            succs.sort_unstable();
            let mut i = 0;
            while i < succs.len() {
                let succ = succs[i];
                let count = succs[i..].iter().take_while(|n| **n == succ).count();
                i += count;
                if !ok {
                    failed_nodes.insert(succ);
                }
                let d = &mut indegree[succ.index()];
                *d = d.saturating_sub(count as u32);
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
                write_failed |= diags.iter().any(|d| d.code == "state-write-failed");
            }
        }
        drop(work_tx);
    });
    if !aborted {
        persist(backend, &mut state, &mut diags);
        if !diags.iter().any(|d| d.code == "state-write-failed") {
            journal.finish();
        }
    }
    if !halted && !aborted && plan.mode != ferro_plan::PlanMode::Destroy {
        // `check` blocks are evaluated again with the applied values.
        diags.extend(ferro_runtime::check_blocks::evaluate_checks(&tree));
    }
    diags.extend(ephemeral.close_all());
    if halted || aborted {
        diags.push(Diagnostic::error("interrupted", "execution halted"));
    }
    (state, diags)
}

/// A step whose code panicked: an error naming what it was doing (the coordinator carries on
/// and saves the state of everything that completed).
fn panicked(
    ctx: &StepCtx<'_>,
    step: &Step,
    change: Option<&ResourceInstanceChange>,
    payload: &(dyn std::any::Any + Send),
) -> (Vec<Outcome>, Vec<Diagnostic>, bool) {
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown cause".to_string());
    let addr_of = |i: &u32| change.map_or_else(|| format!("change {i}"), |c| c.addr.to_string());
    let (what, addr) = match step {
        Step::Apply(i) => ("applying", addr_of(i)),
        Step::Destroy(i) => ("destroying", addr_of(i)),
        Step::Output(i) => (
            "evaluating",
            format!("output.{}", ctx.plan.outputs[*i as usize].name),
        ),
        Step::Join => ("scheduling", "a join step".to_string()),
    };
    (ctx.on_event)(Event::Failed { addr: addr.clone() });
    let d = Diagnostic::error("internal-error", "Internal error")
        .with_detail(format!(
            "ferro failed unexpectedly while {what} {addr}: {msg}\n\nThis is a bug in ferro. Changes that completed before it are recorded in the state."
        ))
        .with_address(addr);
    (Vec::new(), vec![d], false)
}

/// The journal's first reservation: a generous guess of a change's line, within bounds (it
/// grows ahead of need as lines fill it).
const JOURNAL_BYTES_PER_CHANGE: u64 = 256;
const JOURNAL_RESERVE_MIN: u64 = 64 << 10;
const JOURNAL_RESERVE_MAX: u64 = 16 << 20;

fn persist(backend: &mut dyn Backend, state: &mut State, diags: &mut Vec<Diagnostic>) {
    state.prune();
    if let Err(e) = backend.persist(state) {
        // One report per run: later failures are the same trouble.
        diags.retain(|d| d.code != "state-write-failed");
        diags.push(
            Diagnostic::error("state-write-failed", "Failed to save state")
                .with_detail(format!("Error saving state: {e}. ferro starts no further changes; those completed are recorded in the state journal beside the state, which the next ferro command folds into the state once it can be written. Fix the problem and run again.")),
        );
    }
}

/// Resource values as expressions see them at the start of apply: planned values (unknowns
/// included) for changed instances, prior values for unchanged ones.
///
/// One resource at a time: its instances are gathered (borrowing the plan's values), sorted,
/// and made into its value before the next resource's, so what this holds beside the values
/// it builds is one resource's list of references.
fn seed_resource_values(
    tree: &EvalTree<'_>,
    plan: &Plan,
    prior: &ferro_state::State,
    providers: &Providers,
) {
    use ferro_addrs::{AbsResource, InstanceKey};
    // The plan's changes per resource (indices). A resource's changes are mostly next to each
    // other: its address is made once per run of them, not once per change.
    let mut changes_of: HashMap<AbsResource, Vec<u32>> = HashMap::new();
    let mut current: Option<(AbsResource, usize)> = None;
    let mut runs: Vec<(AbsResource, std::ops::Range<usize>)> = Vec::new();
    for (i, c) in plan.changes.iter().enumerate() {
        let same = current.as_ref().is_some_and(|(r, _)| {
            r.module == c.addr.module && r.resource == c.addr.resource.resource
        });
        if !same {
            if let Some((r, start)) = current.take() {
                runs.push((r, start..i));
            }
            current = Some((c.addr.containing_resource(), i));
        }
    }
    if let Some((r, start)) = current {
        runs.push((r, start..plan.changes.len()));
    }
    for (r, range) in runs {
        changes_of
            .entry(r)
            .or_default()
            .extend(range.map(|i| i as u32));
    }
    for (abs, exp) in &plan.expansions {
        let Some(m) = tree.scope(&abs.module) else {
            continue;
        };
        // Nothing in the module refers to it: no value is built (apply keeps none either).
        if !m.reads(&abs.resource) {
            continue;
        }
        let changes = changes_of.get(abs).map(Vec::as_slice).unwrap_or_default();
        // Keys and values apart: the values become the resource's value as they are (a
        // vector of pairs, then one of values, held both at apply's peak).
        let mut keys: Vec<&InstanceKey> = Vec::with_capacity(changes.len());
        let mut values: Vec<Value> = Vec::with_capacity(changes.len());
        // The value before, shared by the next one that equals it: a resource's instances
        // planned to be created mostly project to the same value (`{ id = (known after
        // apply) }`), and each had a copy until its step replaced it.
        let mut last: Option<Value> = None;
        // Instances the plan has a change for take their value from it (none when deleted:
        // an orphaned data source instance is removed as one). The others keep the value of the
        // plan's (refreshed) prior state: data sources read while planning, and managed
        // instances the plan leaves alone (outside -target, -refresh-only).
        let prior = prior
            .resources
            .get(abs)
            .filter(|rs| !rs.instances.is_empty());
        if let Some(rs) = prior {
            if let Some(schema) = providers.resource_schema(&rs.provider, &abs.resource) {
                let planned: HashSet<&InstanceKey> = changes
                    .iter()
                    .map(|&i| &*plan.changes[i as usize])
                    .filter(|c| c.deposed().is_none())
                    .map(|c| &c.addr.resource.key)
                    .collect();
                for (key, inst) in &rs.instances {
                    if planned.contains(key) {
                        continue;
                    }
                    let Some(obj) = &inst.current else { continue };
                    if let Ok(v) = obj.attributes.to_value(&schema.implied_type()) {
                        let v = ferro_runtime::statecodec::apply_sensitive_paths(
                            v,
                            &obj.sensitive_attributes,
                        );
                        let v =
                            ferro_runtime::config_value::mark_schema_sensitive(&schema.block, &v);
                        keys.push(key);
                        values.push(shared(&mut last, m.projected(&abs.resource, v)));
                    }
                }
            }
        }
        for &i in changes {
            let c = &plan.changes[i as usize];
            if c.deposed().is_some() || c.action == Action::Delete {
                continue;
            }
            let v = if c.action == Action::NoOp {
                &c.before
            } else {
                &c.after
            };
            keys.push(&c.addr.resource.key);
            // Only what the module reads of it, as each is decoded (not the whole resource's
            // objects first).
            values.push(shared(&mut last, m.projected(&abs.resource, v.value())));
        }
        // In key order already unless the prior state's instances came first.
        if !keys.windows(2).all(|w| w[0] <= w[1]) {
            let mut order: Vec<usize> = (0..keys.len()).collect();
            order.sort_by(|&a, &b| keys[a].cmp(keys[b]));
            keys = order.iter().map(|&i| keys[i]).collect();
            let mut taken: Vec<Option<Value>> = values.into_iter().map(Some).collect();
            values = order.iter().filter_map(|&i| taken[i].take()).collect();
        }
        let v = match exp {
            Expansion::Single => values.pop().unwrap_or_else(Value::dynamic_unknown),
            Expansion::Enabled => values.pop().unwrap_or_else(|| Value::null(Type::Dynamic)),
            Expansion::Count => Value::tuple(values),
            Expansion::ForEach => Value::object(
                keys.into_iter()
                    .zip(values)
                    .map(|(k, v)| {
                        let name = match k {
                            InstanceKey::Str(s) => s.clone(),
                            _ => String::new(),
                        };
                        (name, v)
                    })
                    .collect(),
            ),
        };
        m.set_resource(abs.resource.clone(), v);
    }
}

/// `v`, or the value before it when they are equal (a clone of it shares its parts); it becomes
/// the value before the next.
fn shared(last: &mut Option<Value>, v: Value) -> Value {
    match last {
        Some(prev) if *prev == v => prev.clone(),
        _ => {
            *last = Some(v.clone());
            v
        }
    }
}

/// Recreate the module instances the plan expanded, parents first; `for_each` calls get their
/// `each.value` by evaluating the call's `for_each` again (it was wholly known when planned).
fn restore_module_instances(tree: &EvalTree<'_>, plan: &Plan) {
    let mut calls: Vec<_> = plan.module_expansions.iter().collect();
    calls.sort_by_key(|((path, name), _)| (path.0.len(), path.clone(), name.clone()));
    for ((path, name), (expansion, keys)) in calls {
        let Some(m) = tree.scope(path) else {
            continue;
        };
        let each: BTreeMap<String, Value> = match m.index.module_calls.get(name) {
            Some(item) if *expansion == Expansion::ForEach => {
                let call = &m.hir(item.file).module_calls[item.index];
                match call.for_each {
                    Some(fe) => {
                        let (v, _) = m.eval(item.file, fe, &InstanceCtx::default());
                        ferro_runtime::scope::each_values(&v)
                    }
                    None => BTreeMap::new(),
                }
            }
            _ => BTreeMap::new(),
        };
        let keyed = keys
            .iter()
            .map(|k| {
                let v = match k {
                    ferro_addrs::InstanceKey::Str(s) => each.get(s).cloned(),
                    _ => None,
                };
                (k.clone(), v)
            })
            .collect();
        tree.expand_call(path, name, *expansion, keyed);
    }
}

/// Whether an output's planned value is wholly known, so apply writes it as planned instead of
/// evaluating it again.
pub(crate) fn output_planned_known(oc: &ferro_plan::OutputChange) -> bool {
    oc.action != ferro_plan::Action::Delete && oc.after.is_wholly_known()
}
