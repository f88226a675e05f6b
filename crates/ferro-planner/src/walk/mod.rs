//! The plan walk: variables, then every item in dependency order; resources are expanded into
//! instances, refreshed, planned by their provider and given an action.

use crate::conditions::{check_conditions, with_self, CheckKind};
use crate::config_value::{eval_body, mark_schema_sensitive};
use crate::providers::Providers;
use crate::resource_sets::{ResourceIds, ResourceSets};
use crate::scope::EvalTree;

mod checks;
mod data;
mod deferral;
mod ephemeral;
mod expansion;
pub(crate) use expansion::expand_in;
use expansion::{expand_keys_in, Keys, Wanted};
mod instance_values;
use instance_values::InstanceValues;
mod imports;
mod instance;
use instance::{InstanceInput, ResourceRef};
mod managed;
mod orphans;
mod parallel;
mod priors;
mod relations;
mod release;
pub use ferro_runtime::diagnostics::path_span;
pub(crate) use ferro_runtime::diagnostics::{provider_diag, resource_diag};
mod targeting;
mod triggers;
mod validate_once;
mod variables;

use crate::scope::{InstanceCtx, ModuleEval};
use crate::statecodec::{apply_sensitive_paths, base64_decode};
use checks::prevent_destroy_error;
use checks::{self_reference, sensitive_output_error};
use ferro_addrs::{
    AbsProviderConfig, AbsResource, AbsResourceInstance, ConfigResource, InstanceKey,
    ModuleInstance, Resource, ResourceMode,
};
use ferro_db::{file_hir, module_index, Db, Workspace};
use ferro_db::{item_graph, ItemId};
use ferro_diag::{Diagnostic, Span};
use ferro_hir::{ExprId, Reference, ResourceDecl};
use ferro_plan::{
    Action, ActionReason, ConfigSnapshot, Expansion, OutputChange, Plan, PlanMode,
    ResourceInstanceChange, StateIdentity, PLAN_FORMAT_VERSION,
};
use ferro_provider::{ReadRequest, Severity, UpgradeRequest};
use ferro_state::State;
use ferro_value::convert::convert;
use ferro_value::schema::Schema;
use ferro_value::{json, PathStep, Type, Value, ValueKind};
use instance::{Acc, InstancePlanner, Refreshed};
use parallel::{parallel_map, PLAN_CHUNK, PLAN_PARALLELISM, PREFETCH_CHUNK};
use relations::{forced_create_before_destroy, lifecycle_set, static_dependencies};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;
pub use variables::{prepare_variables, RawVariable, VariableSource};

#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    pub destroy: bool,
    pub refresh: bool,
    /// `-refresh-only`: refresh every object, plan no resource actions.
    pub refresh_only: bool,
    /// `-minimal-refresh`: read from its provider only an object whose configuration would
    /// change it; the others are planned from state as it is.
    pub minimal_refresh: bool,
    pub replace: Vec<AbsResourceInstance>,
    /// `-target`: only these objects and what they depend on.
    pub targets: Vec<ferro_addrs::Target>,
    /// `-exclude`: everything but these objects and what depends on them.
    pub excludes: Vec<ferro_addrs::Target>,
    /// `-parallelism`: how many instances' provider calls run at once (0: Terraform's
    /// default, 10).
    pub parallelism: usize,
    /// Leave out of the plan the changes that do nothing (no-ops of current objects not
    /// moved or imported): for a plan that is only shown, whose rendering skips them, they
    /// would be most of what a large unchanged configuration's plan holds. A plan that is
    /// saved or applied needs them (apply, `show -json`). Such a plan has no step graph
    /// either: nothing follows it.
    pub discard_noops: bool,
    /// `-allow-deferral`: leave for a later plan what cannot be planned yet (an unknown
    /// `count`/`for_each` or provider configuration, and what depends on it) instead of
    /// failing (see `walk/deferral.rs`).
    pub allow_deferral: bool,
    /// `plan -generate-config-out`: the targets of `import` blocks that the configuration
    /// does not declare are imported and collected here (and nothing else is planned when
    /// there is any), for their configuration to be written.
    pub generate_config: Option<GeneratedImports>,
}

/// Where [`PlanOptions::generate_config`] collects what it imported.
pub type GeneratedImports = Arc<std::sync::Mutex<Vec<GeneratedImport>>>;

/// An object an `import` block imported for a resource the configuration does not declare:
/// what its configuration is written from.
#[derive(Debug, Clone)]
pub struct GeneratedImport {
    pub addr: AbsResourceInstance,
    /// The import ID (empty for an import by identity).
    pub id: String,
    /// The object as imported and read.
    pub value: Value,
    pub schema: Schema,
}

pub struct PlanInput<'a> {
    pub db: &'a dyn Db,
    pub ws: Workspace,
    pub files: Vec<(String, String)>,
    pub state: Option<State>,
    pub variables: BTreeMap<String, RawVariable>,
    pub providers: &'a Providers,
    pub options: PlanOptions,
    pub cwd: String,
    /// Told of every object refreshed, in the walk's order (each resource's instances in key
    /// order), as Terraform's "Refreshing state..." lines tell of them.
    pub on_refresh: Option<&'a (dyn Fn(RefreshNotice<'_>) + Sync)>,
    /// Told each line of Terraform's UI about ephemeral resources (`ephemeral.T.N: Opening...`).
    pub on_ephemeral: Option<ferro_runtime::ephemeral::Report<'a>>,
}

/// An object the plan refreshed: its address, and the attribute that names it in progress
/// lines (`id`, else `name`; see [`ferro_plan::object_value_id`]) with its value.
#[derive(Debug, Clone, Copy)]
pub struct RefreshNotice<'a> {
    pub addr: &'a AbsResourceInstance,
    pub id: Option<(&'static str, &'a str)>,
}

/// A prior object refreshed ahead of its turn, and what else its refresh produced. Boxed in
/// the walk's map, whose table then holds a pointer per instance: a table keeps its size as
/// the walk takes entries out (into changes), and each entry's memory is freed as it is taken.
type Prefetched = Box<(Option<PriorObject>, Option<Box<Acc>>)>;

struct PriorObject {
    value: Value,
    private: Vec<u8>,
    tainted: bool,
    /// The object's resource identity (upgraded to the current identity schema, refreshed).
    identity: Option<Value>,
}

/// The state of one plan walk: what it reads, what it has produced, what it knows of the
/// relations between resources, the work it did ahead of time, and the prior state it
/// refreshes in place.
struct Walk<'a> {
    ctx: WalkContext<'a>,
    out: Outcome,
    rel: Relations,
    ahead: Ahead,
    /// The prior state, refreshed in place (the plan's prior state at the end).
    refreshed: State,
    /// What `-allow-deferral` left for a later plan.
    deferral: deferral::Deferral,
}

/// What the walk reads and never changes: its input, the evaluation tree, the options as the
/// walk applies them.
struct WalkContext<'a> {
    input: &'a PlanInput<'a>,
    tree: &'a EvalTree<'a>,
    targeting: targeting::Targeting,
    /// A targeted destroy refreshes first what a refresh of the same targets would (the
    /// targets and what they depend on), as Terraform 1.0.3 runs a refresh-only plan before
    /// its destroy plan; those objects are refreshed, not destroyed.
    destroy_refresh: Option<targeting::Targeting>,
    /// Whether no-op changes are left out of the plan (see [`PlanOptions::discard_noops`]).
    discard_noops: bool,
    /// The addresses `moved` blocks moved objects to (their no-op changes are shown).
    moved_to: HashSet<AbsResourceInstance>,
    /// What providers said of each distinct configuration they validated.
    validated: validate_once::Validated,
    /// How many objects `-minimal-refresh` left unread.
    not_refreshed: std::sync::atomic::AtomicUsize,
    /// The ephemeral resource instances opened so far, closed when the walk ends.
    ephemeral: ferro_runtime::ephemeral::EphemeralSet<'a>,
}

/// What the walk has produced so far: the plan's parts and its diagnostics.
struct Outcome {
    diags: Vec<Diagnostic>,
    /// Boxed, as `Plan::changes`.
    #[allow(clippy::vec_box)]
    changes: Vec<Box<ResourceInstanceChange>>,
    outputs: Vec<OutputChange>,
    drift: Vec<ferro_plan::ResourceDrift>,
    /// Instances `import` blocks imported into `refreshed`, with their ids.
    imports: Vec<(AbsResourceInstance, String)>,
    /// The identities of the imports made by identity (their id in `imports` is empty).
    import_identities: Vec<(AbsResourceInstance, serde_json::Value)>,
    /// The `to` range of each import's block, in the order of `imports`.
    import_spans: Vec<Span>,
    /// Every import target met so far (a second block for one is an error).
    imported: HashSet<AbsResourceInstance>,
    /// Objects `removed` blocks or `lifecycle { destroy = false }` forget (left in place,
    /// dropped from state at apply).
    #[allow(clippy::vec_box)]
    forgotten: Vec<Box<ResourceInstanceChange>>,
    /// While the orphans of a resource a `removed` block covers are planned: whether that
    /// block destroys them (it overrides `skip_destroy` in state, as in OpenTofu).
    removed_rule: Option<bool>,
}

/// What the walk knows of resources and their relations: expansions, dependencies as they
/// are recorded, which resources change, and the lifecycle rules that reach across resources.
struct Relations {
    expansions: BTreeMap<AbsResource, Expansion>,
    transitive: ResourceSets,
    /// What an object this plan creates, updates or replaces records as its `dependencies`,
    /// by resource, as Terraform 1.0.3's apply graph gives them: the resources it refers to,
    /// and, through each of those that has a change planned itself, what that one records.
    recorded: ResourceSets,
    /// Resources with an instance to create, update, replace or read during apply.
    changing: HashSet<ConfigResource>,
    /// Resources with any change planned but a no-op (deletes included).
    pending: HashSet<ConfigResource>,
    /// The resource noted last, and whether it is in `changing`.
    last_noted: Option<(ConfigResource, bool)>,
    output_deps: HashMap<String, BTreeSet<ConfigResource>>,
    /// Resources replaced create-before-destroy because something that depends on them is
    /// (Terraform propagates `create_before_destroy` to every dependency).
    forced_cbd: HashSet<ConfigResource>,
    prevent_destroy: HashSet<ConfigResource>,
    /// The changes `replace_triggered_by` looks at, indexed on first use.
    trigger_index: std::cell::RefCell<triggers::TriggerIndex>,
}

/// Work done ahead of its turn, and what is kept from one change to the next.
struct Ahead {
    /// Prior objects decoded and refreshed ahead of their turn, their provider calls overlapped
    /// (see [`Walk::prefetch_priors`]); taken by [`Walk::prior_object`]. Per resource, then
    /// per instance; what else an instance's refresh produced (diagnostics, drift) only when
    /// there is some: a destroy plan holds an entry for every instance in state.
    prefetched: HashMap<AbsResource, HashMap<InstanceKey, Prefetched>>,
    /// Provider configurations whose blocks refer to resources, not configured yet: each is
    /// configured at its place in the item graph, after those resources (see
    /// [`Walk::configure_deferred`]).
    deferred_providers: HashSet<AbsProviderConfig>,
    /// The import blocks of child modules, by the resource they import into, each with the
    /// static module that holds it: imported at that resource's turn (see
    /// [`Walk::module_imports`]).
    module_imports: HashMap<ConfigResource, Vec<(ferro_db::TreeNodeId, ferro_db::ItemRef)>>,
    /// The planned private data of the last change merged, which the next shares when it is
    /// the same (see [`ferro_plan::PrivateData`]).
    last_private: ferro_plan::PrivateData,
}

/// The root module's variables declared `ephemeral` (Terraform 1.10), by name.
pub fn ephemeral_root_variables(db: &dyn Db, ws: Workspace) -> Vec<String> {
    module_index(db, ws.root(db))
        .variables
        .iter()
        .filter(|(_, item)| file_hir(db, item.file).variables[item.index].ephemeral)
        .map(|(name, _)| name.to_string())
        .collect()
}

/// What a plan with `-minimal-refresh` says of the objects it did not read.
fn not_refreshed_warning(n: usize) -> Diagnostic {
    let (objects, their) = if n == 1 {
        ("1 object".to_string(), "its")
    } else {
        (format!("{n} objects"), "their")
    };
    Diagnostic::warning("minimal-refresh", "Objects not refreshed")
        .with_detail(format!("With -minimal-refresh, {objects} whose configuration did not change {} not read from {their} provider: changes made to {} outside ferro are not in this plan. Plan without -minimal-refresh to look for them.", if n == 1 { "was" } else { "were" }, if n == 1 { "it" } else { "them" }))
}

/// Make a plan. Returns None (with diagnostics) when planning failed. The input's state
/// becomes the plan's prior state (refreshed in place, never copied).
pub fn plan(mut input: PlanInput<'_>) -> (Option<Plan>, Vec<Diagnostic>) {
    let state = input.state.take();
    let state_identity = state.as_ref().map(|s| StateIdentity {
        lineage: s.lineage.clone(),
        serial: s.serial,
    });
    let input = &input;
    let db = input.db;
    let ws = input.ws;
    let (vars, mut diags) = prepare_variables(db, ws, &input.variables);
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    let graph = match item_graph(db, ws) {
        Ok(g) => g,
        Err(d) => {
            diags.push(d.resolve(db));
            return (None, diags);
        }
    };
    let mut prior = state.unwrap_or_else(|| State::new(String::new()));
    let tree = EvalTree::new(db, ws, vars.clone(), true, input.cwd.clone())
        .project_reads()
        .with_provider_functions(input.providers.functions.clone());
    let (moved, move_diags) = crate::moves::apply_moves(&tree, &mut prior, input.providers);
    if move_diags.iter().any(Diagnostic::is_error) {
        diags.extend(move_diags);
        return (None, diags);
    }
    let static_deps = static_dependencies(&graph.resource_deps, &prior);
    let targeting = targeting::Targeting::new(
        input.options.targets.clone(),
        input.options.excludes.clone(),
        input.options.destroy,
        &static_deps,
    );
    let destroy_refresh = (input.options.destroy && input.options.refresh && targeting.is_active())
        .then(|| {
            targeting::Targeting::new(
                input.options.targets.clone(),
                input.options.excludes.clone(),
                false,
                &static_deps,
            )
        });
    // Every resource the walk keeps sets of: those of the configuration and what they
    // depend on.
    let resource_ids = Arc::new(ResourceIds::new(
        graph
            .resource_deps
            .iter()
            .flat_map(|(r, ds)| std::iter::once(r).chain(ds))
            .cloned(),
    ));
    let mut w = Walk {
        ctx: WalkContext {
            input,
            tree: &tree,
            // `-replace` of a resource without an instance key is answered by listing the
            // instances planned, no-ops included.
            discard_noops: input.options.discard_noops
                && input
                    .options
                    .replace
                    .iter()
                    .all(|a| a.resource.key != InstanceKey::None),
            moved_to: moved.keys().cloned().collect(),
            targeting,
            destroy_refresh,
            validated: validate_once::Validated::default(),
            not_refreshed: Default::default(),
            ephemeral: ferro_runtime::ephemeral::EphemeralSet::new(input.on_ephemeral),
        },
        out: Outcome {
            diags,
            changes: Vec::new(),
            outputs: Vec::new(),
            drift: Vec::new(),
            imports: Vec::new(),
            import_identities: Vec::new(),
            import_spans: Vec::new(),
            imported: HashSet::new(),
            forgotten: Vec::new(),
            removed_rule: None,
        },
        rel: Relations {
            expansions: BTreeMap::new(),
            transitive: ResourceSets::new(resource_ids.clone()),
            recorded: ResourceSets::new(resource_ids),
            changing: HashSet::new(),
            pending: HashSet::new(),
            last_noted: None,
            trigger_index: Default::default(),
            output_deps: graph.output_deps.clone(),
            forced_cbd: forced_create_before_destroy(&tree, db, graph),
            prevent_destroy: lifecycle_set(&tree, db, graph, |lc| lc.prevent_destroy),
        },
        ahead: Ahead {
            prefetched: HashMap::new(),
            last_private: Default::default(),
            module_imports: HashMap::new(),
            deferred_providers: crate::configure::deferred_configs(graph, input.providers),
        },
        // The walk refreshes objects in place: prior is not kept beside it.
        refreshed: prior,
        deferral: deferral::Deferral::new(input.options.allow_deferral),
    };
    if input.options.allow_deferral {
        for provider in input.providers.configs.values() {
            provider.allow_deferral();
        }
    }
    let configured = crate::configure::configure_providers_except(
        &tree,
        input.providers,
        &w.ahead.deferred_providers,
    );
    let failed = configured.iter().any(Diagnostic::is_error);
    w.out.diags.extend(configured);
    if failed {
        return (None, std::mem::take(&mut w.out.diags));
    }
    w.import_blocks();
    if w.out.diags.iter().any(Diagnostic::is_error) {
        return (None, std::mem::take(&mut w.out.diags));
    }
    // Configuration to generate: the plan is made once it is written.
    if let Some(sink) = &input.options.generate_config {
        if !sink.lock().unwrap_or_else(|e| e.into_inner()).is_empty() {
            return (None, std::mem::take(&mut w.out.diags));
        }
    }
    let releases = release::Releases::new(db, ws, &graph.order, &tree);
    for (position, item) in graph.order.iter().enumerate() {
        let tree = w.ctx.tree;
        if let Some(before) = position.checked_sub(1) {
            releases.after(before, tree);
        }
        if let ItemId::Provider { name, alias } = &item.id {
            // A provider block that refers to resources: configured now that they are planned.
            let cfg = ferro_db::block_config(db, tree.tree, item.node, name, alias.clone());
            if w.defer_provider(&cfg) {
                continue;
            }
            if !w.configure_deferred(&cfg) {
                return (None, std::mem::take(&mut w.out.diags));
            }
            continue;
        }
        // A resource that depends on something deferred is planned, and its changes deferred.
        let mut defer_mark = None;
        if let ItemId::Resource(r) = &item.id {
            let cr = ConfigResource {
                module: tree.statics[item.node].path.clone(),
                resource: r.clone(),
            };
            w.note_dependencies(&cr, graph.resource_deps.get(&cr));
            if r.mode == ResourceMode::Managed {
                w.module_imports(item.node, r);
            }
            defer_mark = Some(w.defer_mark(&cr, graph.resource_deps.get(&cr)));
        }
        if let ItemId::Resource(r) = &item.id {
            // Every module instance's copy of a resource at once: their provider calls overlap.
            let scopes: Vec<ModuleEval<'_>> = tree
                .instances_of(item.node)
                .iter()
                .filter_map(|path| tree.scope(path))
                .collect();
            if r.mode == ResourceMode::Managed {
                w.resources(&scopes, r);
                if let Some(mark) = defer_mark {
                    w.defer_take(mark);
                }
                continue;
            }
        }
        let mut released = 0;
        for path in tree.instances_of(item.node) {
            let Some(m) = tree.scope(&path) else {
                continue;
            };
            match &item.id {
                ItemId::Var(n) => {
                    if !path.is_root() {
                        if let Err(d) = m.var(n) {
                            w.out.diags.push(d);
                        }
                    }
                }
                ItemId::Local(n) => {
                    let li = &m.index.locals[n];
                    let hir = file_hir(db, li.file);
                    let (v, ds) =
                        m.eval(li.file, hir.locals[li.index].expr, &InstanceCtx::default());
                    // Kept, as a reference would keep it: what it reads may be released
                    // before anything refers to it (see `release`).
                    if !ds.iter().any(Diagnostic::is_error) {
                        m.cache_local(n, v);
                    }
                    w.out.diags.extend(ds);
                }
                ItemId::Resource(r) if scoped_to_check(&m, r) => {
                    // A data source scoped to a check block: its failures are warnings.
                    let before = w.out.diags.len();
                    w.resource(&m, r);
                    for d in &mut w.out.diags[before..] {
                        d.severity = ferro_diag::Severity::Warning;
                    }
                }
                ItemId::Resource(r) => w.resource(&m, r),
                ItemId::Output(n) => w.output(&m, n),
                ItemId::ModuleCall(n) => w.module_call(&m, n),
                ItemId::Provider { .. } => {}
            }
            released += releases.in_instance(position, &m);
        }
        if let Some(mark) = defer_mark {
            w.defer_take(mark);
        }
        if released >= release::GIVE_BACK_FROM {
            crate::memory::give_back();
        }
        let renewed = w.ctx.ephemeral.renew_due();
        w.out.diags.extend(renewed);
    }
    w.orphans();
    w.check_imported();
    if !input.options.destroy {
        w.out
            .diags
            .extend(crate::check_blocks::evaluate_checks(&tree));
    }
    // Every ephemeral resource instance is closed once the walk no longer needs it.
    let closed = w.ctx.ephemeral.close_all();
    w.out.diags.extend(closed);
    let mut diags = std::mem::take(&mut w.out.diags);
    let not_refreshed = w
        .ctx
        .not_refreshed
        .load(std::sync::atomic::Ordering::Relaxed);
    if not_refreshed > 0 {
        diags.push(not_refreshed_warning(not_refreshed));
    }
    diags.extend(checks::incomplete_replace_warnings(
        &input.options.replace,
        &w.out.changes,
    ));
    dedup(&mut diags);
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    // No two changes have one address and deposed key: an unstable sort gives the same order,
    // without the buffer of half the list a stable one takes.
    w.out
        .changes
        .sort_unstable_by(|a, b| (&a.addr, a.deposed()).cmp(&(&b.addr, b.deposed())));
    w.out.drift.sort_by(|a, b| a.addr.cmp(&b.addr));
    // A plan that is only shown has no use for its steps (64 bytes an instance of a fresh
    // plan, the most of anything beside the changes themselves).
    let graph_ir = if input.options.discard_noops {
        Default::default()
    } else {
        crate::graph::build_graph(
            &w.out.changes,
            &w.out.outputs,
            &w.rel.transitive,
            &w.rel.output_deps,
            &w.refreshed,
        )
    };
    let module_expansions = tree
        .call_expansions()
        .into_iter()
        .map(|((path, name), e)| ((path, name), (e.expansion, e.keys)))
        .collect();
    let ephemeral_variables = ephemeral_root_variables(db, ws);
    let deferred = w.deferred_changes();
    let plan = Plan {
        format_version: PLAN_FORMAT_VERSION,
        mode: if input.options.destroy {
            PlanMode::Destroy
        } else if input.options.refresh_only {
            PlanMode::RefreshOnly
        } else {
            PlanMode::Normal
        },
        config: ConfigSnapshot {
            files: input.files.clone(),
        },
        // Values of ephemeral variables never reach a plan file: applying one takes them
        // again.
        ephemeral_values: vars
            .iter()
            .filter(|(n, _)| ephemeral_variables.contains(n))
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect(),
        variables: vars
            .into_iter()
            .filter(|(n, _)| !ephemeral_variables.contains(n))
            .collect(),
        ephemeral_variables,
        prior_state: w.refreshed,
        state_identity,
        changes: w.out.changes,
        outputs: w.out.outputs,
        graph: graph_ir,
        expansions: w.rel.expansions,
        module_expansions,
        targets: input
            .options
            .targets
            .iter()
            .map(ToString::to_string)
            .collect(),
        excludes: input
            .options
            .excludes
            .iter()
            .map(ToString::to_string)
            .collect(),
        drift: w.out.drift,
        moved: moved.into_iter().collect(),
        imports: w.out.imports,
        import_identities: w.out.import_identities,
        generated_config: Vec::new(),
        schemas: Vec::new(),
        forgotten: w.out.forgotten,
        deferred,
    };
    (Some(plan), diags)
}

/// Whether a resource is a data source declared inside a `check` block.
fn scoped_to_check(m: &ModuleEval<'_>, r: &Resource) -> bool {
    let item = m.index.resources[r];
    m.hir(item.file).resources[item.index].check.is_some()
}

/// Drop repeated diagnostics. A variable's value error is about the variable, whichever
/// resource's evaluation met it first, so it is reported once.
fn dedup(diags: &mut Vec<Diagnostic>) {
    let mut seen = BTreeSet::new();
    diags.retain(|d| {
        let address = if d.code == "invalid-variable-value" {
            None
        } else {
            d.address.clone()
        };
        seen.insert((d.span, d.summary.clone(), d.detail.clone(), address))
    });
}

fn value_at<'v>(v: &'v Value, path: &[PathStep]) -> Option<&'v Value> {
    let mut cur = v;
    for s in path {
        cur = match (s, &cur.kind) {
            (PathStep::Attr(a), ValueKind::Object(m)) => m.get(a)?,
            (PathStep::Index(k), ValueKind::Map(_, m) | ValueKind::Object(m)) => {
                m.get(k.as_str()?)?
            }
            (PathStep::Index(k), ValueKind::List(_, es) | ValueKind::Tuple(es)) => {
                es.get(k.as_number()?.to_i64()? as usize)?
            }
            _ => return None,
        };
    }
    Some(cur)
}

impl Walk<'_> {
    /// Configure a provider configuration left for later, if it still is; false when that
    /// failed (the walk stops: its resources cannot be planned).
    fn configure_deferred(&mut self, cfg: &AbsProviderConfig) -> bool {
        if !self.ahead.deferred_providers.remove(cfg) {
            return true;
        }
        let ds = crate::configure::configure_provider(self.ctx.tree, self.ctx.input.providers, cfg);
        let failed = ds.iter().any(Diagnostic::is_error);
        self.out.diags.extend(ds);
        !failed
    }

    /// How many instances' provider calls run at once (`-parallelism`).
    fn parallelism(&self) -> usize {
        match self.ctx.input.options.parallelism {
            0 => PLAN_PARALLELISM,
            n => n,
        }
    }

    /// A resource's declaration, its body read against the schema (see `ModuleEval::resource`).
    fn decl<'m>(
        m: &ModuleEval<'m>,
        r: &Resource,
    ) -> (ferro_db::SourceFile, std::borrow::Cow<'m, ResourceDecl>) {
        let item = m.index.resources[r];
        (item.file, m.resource(item))
    }

    /// A module call in one module instance: evaluate its `count`/`for_each` and create the
    /// child instances.
    fn module_call(&mut self, m: &ModuleEval<'_>, name: &str) {
        let item = m.index.module_calls[name];
        let call = &m.hir(item.file).module_calls[item.index];
        if m.statics().children.get(name).is_none() {
            return;
        }
        let (expansion, keys) = if self.ctx.input.options.destroy {
            (Expansion::Single, Vec::new())
        } else if self.defer_call(m, name) {
            return;
        } else {
            match self.expand(m, item.file, call.count, call.for_each, call.enabled) {
                Some(x) => x,
                None => return,
            }
        };
        self.ctx.tree.expand_call(m.path(), name, expansion, keys);
    }

    fn planner(&self) -> InstancePlanner<'_> {
        InstancePlanner {
            providers: self.ctx.input.providers,
            options: &self.ctx.input.options,
            refreshed: &self.refreshed,
            forced_cbd: &self.rel.forced_cbd,
            prevent_destroy: &self.rel.prevent_destroy,
            refresh: self.ctx.input.options.refresh,
            validated: &self.ctx.validated,
            minimal_refresh: (self.ctx.input.options.minimal_refresh
                && !self.ctx.input.options.refresh_only)
                .then_some(&self.ctx.not_refreshed),
        }
    }

    /// The planner for the prior object of `abs[key]`: in a targeted destroy, only what a
    /// refresh of the targets covers is refreshed (Terraform 1.0.3 refreshes with a
    /// refresh-only plan of the targets, then plans the destroy from that state).
    fn prior_planner(&self, abs: &AbsResource, key: &InstanceKey) -> InstancePlanner<'_> {
        let mut planner = self.planner();
        if let Some(t) = &self.ctx.destroy_refresh {
            planner.refresh &= t.includes(&abs.instance(key.clone()));
        }
        planner
    }

    /// Merge what planning the instance `key` of `abs` produced, its refreshed object into
    /// state.
    fn merge_instance(
        &mut self,
        abs: &AbsResource,
        cfg: &AbsProviderConfig,
        key: &InstanceKey,
        mut acc: Acc,
    ) {
        self.notice_refresh(abs, key, &mut acc);
        self.store_refreshed(abs, cfg, key, &mut acc);
        if let Some(reason) = self.deferral.import_deferred(abs, key) {
            acc.deferred = acc.deferred.or(Some(reason));
        }
        self.merge(acc);
    }

    /// Put what the refresh of an instance changed (if anything) into the refreshed state.
    fn store_refreshed(
        &mut self,
        abs: &AbsResource,
        cfg: &AbsProviderConfig,
        key: &InstanceKey,
        acc: &mut Acc,
    ) {
        match acc.refreshed.take() {
            None => {}
            Some(Refreshed::Gone) => self.refreshed.set_current(abs, cfg, key, None),
            Some(Refreshed::Object(obj)) => self.refreshed.set_current(abs, cfg, key, Some(obj)),
            Some(Refreshed::Private(p)) => self.refreshed.set_current_private(abs, key, p),
        }
    }

    /// Tell of the refresh an accumulator records, if any.
    fn notice_refresh(&self, abs: &AbsResource, key: &InstanceKey, acc: &mut Acc) {
        let Some(id) = acc.refreshing.take() else {
            return;
        };
        if let Some(tell) = self.ctx.input.on_refresh {
            tell(RefreshNotice {
                addr: &abs.instance(key.clone()),
                id: id.as_ref().map(|(k, v)| (*k, v.as_str())),
            });
        }
    }

    /// Merge an accumulator that holds no refreshed object (see [`Walk::merge_instance`]).
    fn merge(&mut self, acc: Acc) {
        let Acc {
            diags,
            changes,
            drift,
            refreshed,
            refreshing,
            deferred,
        } = acc;
        debug_assert!(
            refreshed.is_none(),
            "a refreshed object merged without its instance"
        );
        debug_assert!(
            refreshing.is_none(),
            "a refresh merged without its instance"
        );
        self.out.diags.extend(diags);
        // A change its provider deferred waits for a later plan, with what depends on it.
        let changes = match deferred {
            Some(reason) => {
                self.defer_provider_answer(reason, changes);
                Vec::new()
            }
            None => changes,
        };
        let mut changes = changes;
        for c in &mut changes {
            // The object in state records the resource's `lifecycle { destroy }` as it is now
            // (what a later plan without the configuration goes by).
            if c.deposed().is_none() && c.action != Action::Delete {
                self.refreshed.set_skip_destroy(
                    &c.addr.containing_resource(),
                    &c.addr.resource.key,
                    c.skip_destroy,
                );
            }
            self.note_change(c);
            c.planned_private.share_from(&self.ahead.last_private);
            self.ahead.last_private = c.planned_private.clone();
        }
        if self.ctx.discard_noops {
            self.out.changes.extend(changes.into_iter().filter(|c| {
                c.action != Action::NoOp
                    || c.deposed().is_some()
                    || self.ctx.moved_to.contains(&c.addr)
                    || self.out.imported.contains(&c.addr)
            }));
        } else {
            self.out.changes.extend(changes);
        }
        self.out.drift.extend(drift);
    }

    /// Note the resource of a planned change: any but a no-op makes it `pending` (what data
    /// sources wait for), and one that writes an object during apply (not a delete) makes it
    /// `changing` (what [`Walk::recorded`] follows).
    fn note_change(&mut self, c: &ResourceInstanceChange) {
        if c.action == Action::NoOp {
            return;
        }
        let writes = c.action != Action::Delete && c.deposed().is_none();
        let same = |r: &ConfigResource| {
            r.resource == c.addr.resource.resource
                && r.module.len() == c.addr.module.0.len()
                && r.module
                    .iter()
                    .zip(c.addr.module.0.iter())
                    .all(|(a, b)| *a == b.name)
        };
        // Most changes are of the resource noted last: no address is built for them.
        if let Some((last, wrote)) = &self.rel.last_noted {
            if same(last) && (*wrote || !writes) {
                return;
            }
        }
        let cr = c.addr.containing_resource().config();
        self.rel.pending.insert(cr.clone());
        if writes {
            self.rel.changing.insert(cr.clone());
        }
        self.rel.last_noted = Some((cr, writes));
    }

    /// A resource gaining `count` keeps its single object as index 0, and one losing it keeps
    /// index 0 as its single object (Terraform renames the instance in state, silently).
    fn fix_count_boundary(&mut self, abs: &AbsResource, count_set: bool) {
        let Some(rs) = self.refreshed.resources.get_mut(abs) else {
            return;
        };
        let (from, to) = if count_set {
            (InstanceKey::None, InstanceKey::Int(0))
        } else {
            (InstanceKey::Int(0), InstanceKey::None)
        };
        if rs.instances.contains_key(&to) {
            return;
        }
        if let Some(inst) = rs.instances.remove(&from) {
            rs.instances.insert(to, inst);
        }
    }

    /// The current object of an instance as state holds it (not refreshed), with its sensitive
    /// paths marked.
    fn state_value(&self, abs: &AbsResource, key: &InstanceKey, schema: &Schema) -> Option<Value> {
        let obj = self.refreshed.current_object(abs, key)?;
        let v = obj.attributes.to_value(&schema.implied_type()).ok()?;
        Some(apply_sensitive_paths(v, &obj.sensitive_attributes))
    }

    fn push_change(&mut self, change: ResourceInstanceChange) {
        let mut acc = Acc::default();
        self.planner().push_change(change, &mut acc);
        self.merge(acc);
    }

    fn push_delete(
        &mut self,
        addr: AbsResourceInstance,
        cfg: &Arc<AbsProviderConfig>,
        schema: &Schema,
        before: Value,
        deposed: Option<String>,
        lc: &ferro_hir::Lifecycle,
    ) {
        let current = deposed.is_none();
        let managed = addr.resource.resource.mode == ferro_addrs::ResourceMode::Managed;
        // Forgotten instead: a `removed` block without `destroy = true`, else (OpenTofu 1.12)
        // `lifecycle { destroy = false }` in the configuration or recorded on the object.
        let forget = managed
            && match self.out.removed_rule {
                Some(destroy) => !destroy,
                None => {
                    current
                        && (lc.skip_destroy
                            || self
                                .refreshed
                                .skip_destroy(&addr.containing_resource(), &addr.resource.key))
                }
            };
        if lc.prevent_destroy && !forget {
            self.out.diags.push(prevent_destroy_error(&addr));
        }
        // A delete's private data is its object's, as Terraform plans a destroy: apply sends it
        // back to the provider with the destroy.
        let private = (addr.resource.resource.mode == ferro_addrs::ResourceMode::Managed)
            .then(|| self.refreshed.object_private(&addr, deposed.as_deref()))
            .flatten();
        let mut change = Box::new(
            ResourceInstanceChange::new(
                addr,
                cfg.clone(),
                Action::Delete,
                before.clone(),
                Value::null(schema.implied_type()),
                schema.version,
            )
            .with_deposed(deposed.map(String::into_boxed_str)),
        );
        if let Some(text) = private {
            change.planned_private = crate::statecodec::base64_decode(&text).into();
            change.planned_private.share_from(&self.ahead.last_private);
            self.ahead.last_private = change.planned_private.clone();
        }
        if current {
            // The object is held once: the refreshed state takes the change's packed prior
            // in place of its text (or decoded value) when the two are the same object.
            self.refreshed.share_current_attributes(
                &change.addr.containing_resource(),
                &change.addr.resource.key,
                &change.before,
                &before.deep_unmark().0,
                &schema.implied_type(),
            );
        }
        self.note_change(&change);
        if forget {
            if self.out.removed_rule.is_none() {
                let reason = if lc.skip_destroy {
                    ActionReason::ForgotBecauseLifecycleDestroyInConfig
                } else {
                    ActionReason::ForgotBecauseLifecycleDestroyInState
                };
                change = Box::new((*change).with_reason(Some(reason)));
            }
            if current {
                self.out.diags.push(
                    Diagnostic::warning("forget-resource", "Resource will be removed from the state")
                        .with_detail(format!("After this plan is applied, the resource {} will not be managed anymore by ferro.\n\nIn case you want to manage the resource again, you will have to import it.", change.addr)),
                );
            }
            self.out.forgotten.push(change);
        } else {
            self.out.changes.push(change);
        }
    }

    fn output(&mut self, m: &ModuleEval<'_>, name: &str) {
        if !self.ctx.input.options.destroy {
            let item = m.index.outputs[name];
            let o = &m.hir(item.file).outputs[item.index];
            let ds = check_conditions(
                m,
                item.file,
                &o.preconditions,
                &InstanceCtx::default(),
                CheckKind::OutputPrecondition,
                None,
            );
            if ds.iter().any(Diagnostic::is_error) {
                self.out.diags.extend(ds);
                return;
            }
        }
        if !m.path().is_root() {
            // A child module's output: evaluated for its errors; its value reaches the parent
            // through `module.NAME` (Terraform keeps only root outputs in state).
            // Terraform 1.0.3 requires `sensitive = true` on root outputs only; a child's
            // output passes its marks on to the parent.
            if let Err(d) = m.output(name) {
                self.out.diags.push(d);
            }
            return;
        }
        // A targeted destroy leaves every root output as it is, as in Terraform 1.0.3 (its
        // targeting drops the outputs' destroy nodes): only a whole destroy removes them.
        if self.ctx.input.options.destroy && self.ctx.targeting.is_active() {
            return;
        }
        if !self
            .ctx
            .targeting
            .includes_output(self.rel.output_deps.get(name))
        {
            return;
        }
        // An output that depends on something deferred is left as it is, for a later plan.
        if self.deferral.output_waits(self.rel.output_deps.get(name)) {
            return;
        }
        let item = m.index.outputs[name];
        let hir = file_hir(self.ctx.input.db, item.file);
        let o = &hir.outputs[item.index];
        let before = self.refreshed.outputs.get(name).and_then(|os| {
            let ty = json::type_from_json(&os.ty).ok()?;
            json::value_from_json(&os.value, &ty).ok()
        });
        if self.ctx.input.options.destroy {
            if let Some(b) = before {
                self.out.outputs.push(OutputChange {
                    name: name.to_string(),
                    action: Action::Delete,
                    after: Value::null(b.ty()),
                    before: b,
                    sensitive: o.sensitive,
                });
            }
            return;
        }
        let Some(e) = o.value else { return };
        // Root outputs persist in state: none may be ephemeral (Terraform 1.10).
        if o.ephemeral {
            self.out.diags.push(
                Diagnostic::error("ephemeral-root-output", "Ephemeral output not allowed")
                    .with_detail("Ephemeral outputs are not allowed in context of a root module")
                    .with_span(hir.at(o.span)),
            );
            return;
        }
        let (v, ds) = m.eval(item.file, e, &InstanceCtx::default());
        let failed = ds.iter().any(Diagnostic::is_error);
        self.out.diags.extend(ds);
        if failed {
            return;
        }
        if v.contains_sensitive() && !o.sensitive {
            self.out.diags.push(sensitive_output_error(hir.span(e)));
            return;
        }
        if v.contains_ephemeral() {
            self.out.diags.push(ferro_runtime::variable_value::ephemeral_not_allowed(
                "This output value is not declared as returning an ephemeral value, so it cannot be set to a result derived from an ephemeral value.",
                hir.span(e),
            ));
            return;
        }
        // A null output is not kept in state: the old value goes, or (as Terraform plans it)
        // nothing changes, which the plan still lists.
        if v.is_known() && v.is_null() {
            let (action, before) = match before {
                Some(b) => (Action::Delete, b),
                None => (Action::NoOp, Value::null(Type::Dynamic)),
            };
            self.out.outputs.push(OutputChange {
                name: name.to_string(),
                action,
                after: Value::null(before.ty()),
                before,
                sensitive: o.sensitive,
            });
            return;
        }
        let action = match &before {
            None => Action::Create,
            Some(b) if v.is_wholly_known() && b.deep_unmark().0 == v.deep_unmark().0 => {
                Action::NoOp
            }
            Some(_) => Action::Update,
        };
        self.out.outputs.push(OutputChange {
            name: name.to_string(),
            action,
            before: before.unwrap_or_else(|| Value::null(Type::Dynamic)),
            after: v,
            sensitive: o.sensitive,
        });
    }
}

/// How an object is replaced: OpenTofu forgets the old object of a resource with
/// `lifecycle { destroy = false }` instead of destroying it.
fn replace_action(cbd: bool, skip_destroy: bool) -> Action {
    if skip_destroy {
        Action::ForgetThenCreate
    } else if cbd {
        Action::CreateThenDelete
    } else {
        Action::DeleteThenCreate
    }
}
