//! One `run` block: load the module under test with the test file's providers, work out its
//! variables, plan (and apply) against the state the file keeps for it, then check the
//! expected failures and the assertions.

use super::config::{provider_values, start_providers, with_test_providers, ProviderValues};
use super::expect::{match_expected, missing_expected, planning_failure_warning};
use super::file::{Command, Run, TestExpr, TestFile};
use super::scope::{AssertScope, TestSources, VariablesScope};
use super::variables::{
    eval_file_variables, run_var_refs, undefined_references, undefined_run_references, var_refs,
};
use super::Status;
use crate::load::{load_dir_with, Loaded};
use ferro_addrs::{InstanceKey, ModuleInstance, Resource};
use ferro_diag::{has_errors, Diagnostic, FileId};
use ferro_exec::ApplyInput;
use ferro_plan::{Action, Plan};
use ferro_planner::{PlanInput, PlanOptions, Providers, RawVariable, VariableSource};
use ferro_provider::ProviderRegistry;
use ferro_state::State;
use ferro_value::{Value, ValueMap};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a test file keeps between its runs for one state: the state, and what destroying it
/// at the end needs (the module and the variables of the last run that used it).
pub struct StateSlot {
    pub key: String,
    pub dir: PathBuf,
    /// `Some(source)` for a state of a module other than the one under test.
    pub source: Option<String>,
    pub state: Option<State>,
    pub vars: BTreeMap<String, RawVariable>,
    pub run: String,
    /// The provider mapping and the provider blocks' values of the last run that changed it.
    pub providers: (Option<Vec<(String, String)>>, Arc<ProviderValues>),
    /// Where the interpreter's backend writes it while applying.
    pub backend_path: PathBuf,
}

/// A file name for a state key (keys are free text).
fn key_file_name(key: &str) -> String {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    format!("state-{:016x}", h.finish())
}

/// The state a run works on: its `state_key`, else its module's source ("" for the module
/// under test).
pub fn state_key_of(run: &Run) -> String {
    run.state_key
        .clone()
        .or_else(|| run.module.as_ref().map(|(s, _)| s.clone()))
        .unwrap_or_default()
}

/// Everything a run needs from the file and the command.
pub struct RunCtx<'a> {
    pub root: &'a Path,
    pub file: &'a TestFile,
    /// `-var`/`-var-file` arguments, in order.
    pub cli_vars: &'a [(bool, String)],
    /// The values given from outside, as the file sees them.
    pub external: &'a super::external::External,
    /// Global variables: the test file's `variables` block over `-var` (unparsed ones stay out).
    pub globals: &'a BTreeMap<String, Value>,
    /// The test file's `variable` blocks that have no value (already reported).
    pub failed_globals: &'a std::collections::BTreeSet<String>,
    pub runs: &'a BTreeMap<String, Value>,
    pub parallelism: usize,
    pub scratch: &'a Path,
    pub mocks: &'a [super::file::MockProvider],
    pub verbose: bool,
    /// The overrides in force for this run.
    pub overrides: &'a [ActiveOverride],
    /// Every override configuration of the file: (provider local name, alias).
    pub aliases: &'a [(String, String)],
}

/// An `override_resource` or `override_data` in force for a run: the resource is given a
/// mocked provider configuration of its own (an alias of its provider), whose answers for its
/// type take the override's values.
#[derive(Clone)]
pub struct ActiveOverride {
    /// The target as written (a later override of the same target replaces an earlier one).
    pub text: String,
    /// An `override_module`: `name` is the module call's, `values` its outputs.
    pub module: bool,
    pub data: bool,
    pub ty: String,
    pub name: String,
    /// The provider's local name (the type's prefix).
    pub provider: String,
    pub alias: String,
    pub values: Option<Value>,
    pub at_plan: bool,
    /// A target inside a child module or naming one instance: answered by a provider of its
    /// own for that resource or instance (`Providers::overrides`), not through an alias.
    pub instance: Option<ferro_addrs::Target>,
}

/// The alias of the configuration the `index`th override target of a file is given.
pub fn override_alias(index: usize) -> String {
    format!("ferro_test_override_{index}")
}

pub struct RunOutcome {
    pub status: Status,
    pub diags: Vec<Diagnostic>,
    /// The run's outputs as `run.NAME` (None when it did not get that far).
    pub outputs: Option<Value>,
    /// Every file diagnostics may point into.
    pub sources: Vec<(FileId, String, String)>,
    /// The plan or state shown with `-verbose`.
    pub verbose: Option<Verbose>,
}

/// A run's plan or state for `-verbose`: ferro's rendering, and for `-json` Terraform's
/// `test_plan`/`test_state` document (the renderer's form of `show -json`'s).
pub struct Verbose {
    pub text: String,
    /// True for a state (an apply run), false for a plan.
    pub state: bool,
    pub json: serde_json::Value,
}

/// Terraform's `test_plan`/`test_state` document made from the `show -json` document `doc`:
/// its changes or values beside the schemas of the providers used.
fn verbose_json(doc: &str, state: bool, providers: &Providers) -> serde_json::Value {
    use serde_json::{json, Map, Value as J};
    let doc: J = serde_json::from_str(doc).unwrap_or(J::Null);
    let mut out = Map::new();
    let version = doc.get("format_version").cloned().unwrap_or(J::Null);
    let mut put = |key: &str, v: Option<&J>| {
        if let Some(v) = v {
            let empty = v.is_null()
                || v.as_array().is_some_and(Vec::is_empty)
                || v.as_object().is_some_and(Map::is_empty);
            if !empty {
                out.insert(key.to_string(), v.clone());
            }
        }
    };
    if state {
        put("state_format_version", Some(&version));
        let values = doc.get("values");
        put("root_module", values.and_then(|v| v.get("root_module")));
        put("outputs", values.and_then(|v| v.get("outputs")));
    } else {
        put("plan_format_version", Some(&version));
        put("output_changes", doc.get("output_changes"));
        put("resource_changes", doc.get("resource_changes"));
        put("resource_drift", doc.get("resource_drift"));
        put("relevant_attributes", doc.get("relevant_attributes"));
    }
    out.insert("provider_format_version".into(), json!("1.0"));
    let schemas: Map<String, J> = providers
        .schemas
        .iter()
        .map(|(addr, ps)| (addr.to_string(), crate::cmd_providers::provider_json(ps)))
        .collect();
    if !schemas.is_empty() {
        out.insert("provider_schemas".into(), J::Object(schemas));
    }
    J::Object(out)
}

impl RunOutcome {
    fn failed(
        status: Status,
        diags: Vec<Diagnostic>,
        sources: Vec<(FileId, String, String)>,
    ) -> Self {
        RunOutcome {
            status,
            diags,
            outputs: None,
            sources,
            verbose: None,
        }
    }
}

/// Evaluate `variables` expressions against the globals and earlier runs.
pub fn eval_variables(
    exprs: &[(String, TestExpr)],
    globals: &BTreeMap<String, Value>,
    runs: &BTreeMap<String, Value>,
    sources: &[(FileId, String, String)],
    dir: &Path,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, (Value, ferro_diag::Span)> {
    let scope = VariablesScope {
        vars: globals,
        runs,
        sources: TestSources { files: sources },
        dir,
    };
    let mut out = BTreeMap::new();
    for (name, e) in exprs {
        let (v, ds) = ferro_eval::eval_expr(&e.hir, &scope, e.id);
        if ds.iter().any(Diagnostic::is_error) {
            diags.extend(ds);
            continue;
        }
        out.insert(name.clone(), (v, e.span));
    }
    out
}

/// The values variables take for this module: declared ones only, from `-var`/`-var-file`
/// and the variable files of the directory, then the file's and the run's `variables`.
fn module_variables(
    l: &mut Loaded,
    ctx: &RunCtx<'_>,
    given: &BTreeMap<String, (Value, ferro_diag::Span)>,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, RawVariable> {
    let index = ferro_db::module_index(&l.db, l.ws.root(&l.db)).clone();
    let cli: Vec<(bool, String)> = ctx
        .cli_vars
        .iter()
        .filter(|(file, arg)| {
            *file
                || arg
                    .split_once('=')
                    .is_some_and(|(n, _)| index.variables.contains_key(n.trim()))
        })
        .cloned()
        .collect();
    let mut found = Vec::new();
    let mut vars = crate::load::collect_variables(l, ctx.root, &cli, &mut found);
    // Values for variables this module does not declare are for other modules of the suite.
    diags.extend(found.into_iter().filter(|d| d.is_error()));
    // The test directory's variable files, for its files (Terraform 1.13).
    for (name, raw) in &ctx.external.test_dir {
        vars.insert(name.clone(), raw.clone());
    }
    vars.retain(|n, _| index.variables.contains_key(n));
    // The file's `variable` blocks give their values (their types read what came from
    // outside), under the file's and the run's `variables`.
    for d in &ctx.file.declared {
        let Some(v) = ctx.globals.get(&d.name) else {
            continue;
        };
        if ctx.failed_globals.contains(&d.name) || !index.variables.contains_key(&d.name) {
            continue;
        }
        vars.insert(
            d.name.clone(),
            RawVariable {
                value: v.clone(),
                origin: ctx.file.name.clone(),
                source: VariableSource::File(ctx.file.name.clone()),
                span: Some(d.span),
            },
        );
    }
    for (name, (v, span)) in given {
        if !index.variables.contains_key(name) {
            continue;
        }
        vars.insert(
            name.clone(),
            RawVariable {
                value: v.clone(),
                origin: ctx.file.name.clone(),
                source: VariableSource::File(ctx.file.name.clone()),
                span: Some(*span),
            },
        );
    }
    vars
}

/// Execute one run block.
pub fn execute(
    ctx: &RunCtx<'_>,
    run: &Run,
    slots: &mut Vec<StateSlot>,
    mock_values: &BTreeMap<String, Value>,
) -> RunOutcome {
    let mut sources: Vec<(FileId, String, String)> =
        vec![(ctx.file.file, ctx.file.name.clone(), ctx.file.text.clone())];
    sources.extend(ctx.external.sources.iter().cloned());
    let (dir, source) = match &run.module {
        Some((src, _)) if ferro_db::is_local_source(src) => (ctx.root.join(src), Some(src.clone())),
        // A registry or remote module: where `ferro init` installed it.
        Some((src, span)) => {
            let key = ferro_test::test_module_key(&ctx.file.name, &run.name);
            let installed = ferro_workspace::manifest::read_manifest(ctx.root)
                .into_iter()
                .find(|m| m.key == key && m.source == *src);
            match installed {
                Some(m) if ctx.root.join(&m.dir).is_dir() => {
                    (ctx.root.join(&m.dir), Some(src.clone()))
                }
                _ => {
                    let d = Diagnostic::error("module-not-installed", "Module not installed")
                        .with_detail("This module is not yet installed. Run \"ferro init\" to install all modules required by this configuration.")
                        .with_span(*span);
                    return RunOutcome::failed(Status::Error, vec![d], sources);
                }
            }
        }
        None => (ctx.root.to_path_buf(), None),
    };
    let key = state_key_of(run);
    let mut diags = Vec::new();
    // Variables: the file's (which may use each other and earlier runs'), then the run's
    // (which may use the file's and earlier runs'). A file-level variable that failed is an
    // error of the runs that need it only.
    let file_values = eval_file_variables(
        &ctx.file.variables,
        (ctx.globals, ctx.failed_globals),
        ctx.runs,
        &sources,
        ctx.root,
    );
    // As Terraform 1.13, a run needing a variable that failed is skipped, and the file fails.
    if let Some(failures) = file_values.failures_for(run_var_refs(run).iter().map(String::as_str)) {
        diags.extend(failures);
        return RunOutcome::failed(Status::Skip, diags, sources);
    }
    diags.extend(undefined_references(
        run.variables.iter().map(|(_, e)| e),
        ctx.file,
        ctx.globals,
    ));
    let mut given = file_values.values.clone();
    let mut globals = ctx.globals.clone();
    for (n, (v, _)) in &given {
        globals.insert(n.clone(), v.clone());
    }
    // A failed one is reported once, where it failed, not again where it is used.
    for n in file_values.failed_names() {
        globals.insert(n.clone(), Value::dynamic_unknown());
    }
    given.extend(eval_variables(
        &run.variables,
        &globals,
        ctx.runs,
        &sources,
        ctx.root,
        &mut diags,
    ));
    if has_errors(&diags) {
        return RunOutcome::failed(Status::Error, diags, sources);
    }
    // Provider blocks see the file's variables and the outputs of the runs before
    // (Terraform 1.7+); the module is given the ones it names.
    let mut values = Arc::default();
    let mut provider_diags = Vec::new();
    let loaded = load_dir_with(&dir, |files| {
        let named = |cfg: &str| files.iter().any(|(_, text)| text.contains(cfg));
        values = Arc::new(provider_values(
            ctx.file,
            run.providers.as_deref(),
            &named,
            (&globals, ctx.runs),
            &sources,
            ctx.root,
            &mut provider_diags,
        ));
        with_test_providers(
            ctx.file,
            run.providers.as_deref(),
            ctx.aliases,
            ctx.overrides,
            &values,
            (&dir, ctx.scratch),
            files,
        )
    });
    if has_errors(&provider_diags) {
        diags.extend(provider_diags);
        return RunOutcome::failed(Status::Error, diags, sources);
    }
    let mut l = match loaded {
        Ok(l) => l,
        Err(e) => {
            diags.push(Diagnostic::error("cli", "Failed to read configuration").with_detail(e));
            return RunOutcome::failed(Status::Error, diags, sources);
        }
    };
    sources.extend(l.sources.iter().cloned());
    // The module's variables the run does not set come from the file's.
    let declared = ferro_db::module_index(&l.db, l.ws.root(&l.db))
        .variables
        .keys()
        .cloned()
        .collect::<Vec<_>>();
    let failures = file_values.failures_for(
        declared
            .iter()
            .map(String::as_str)
            .filter(|n| !run.variables.iter().any(|(r, _)| r == n)),
    );
    if let Some(failures) = failures {
        diags.extend(failures);
        return RunOutcome::failed(Status::Skip, diags, sources);
    }
    diags.extend(undefined_run_references(
        run,
        ctx.file,
        ctx.globals,
        &declared,
    ));
    // The assertions see the variables the module does not declare as the test gives them
    // (the run's `variables`, the file's, then what came from outside), as Terraform 1.13's
    // test-only variables.
    let mut test_only: BTreeMap<String, Value> = BTreeMap::new();
    for a in &run.asserts {
        let refs = std::iter::once(&a.condition)
            .chain(&a.error_message)
            .flat_map(var_refs);
        for n in refs {
            if declared.contains(&n) {
                continue;
            }
            let v = given
                .get(&n)
                .map(|(v, _)| v.clone())
                .or_else(|| globals.get(&n).cloned());
            if let Some(v) = v {
                test_only.insert(n, v);
            }
        }
    }
    let slot_index = match slots.iter().position(|s| s.key == key) {
        Some(i) => i,
        None => {
            slots.push(StateSlot {
                key: key.clone(),
                dir: dir.clone(),
                source: source.clone(),
                state: None,
                vars: BTreeMap::new(),
                run: run.name.clone(),
                providers: (None, Arc::default()),
                backend_path: ctx.scratch.join(format!("{}.tfstate", key_file_name(&key))),
            });
            slots.len() - 1
        }
    };
    let prior = slots[slot_index].state.clone();
    let registry = ProviderRegistry::for_working_dir(ctx.root);
    let assert_hirs: Vec<&ferro_hir::FileHir> = run
        .asserts
        .iter()
        .flat_map(|a| std::iter::once(&a.condition).chain(&a.error_message))
        .map(|e| &*e.hir)
        .collect();
    let (providers, pdiags) = start_providers(
        &mut l,
        &registry,
        ctx.mocks,
        mock_values,
        &assert_hirs,
        ctx.aliases,
        ctx.overrides,
        prior.as_ref(),
    );
    diags.extend(pdiags);
    crate::load::config_diagnostics(&l, &mut diags);
    let vars = module_variables(&mut l, ctx, &given, &mut diags);
    if has_errors(&diags) {
        registry.close_all();
        return RunOutcome::failed(Status::Error, diags, sources);
    }
    let mut replace = Vec::new();
    for t in &run.plan_options.replace {
        match ferro_addrs::parse_resource_instance(&t.text) {
            Ok(a) => replace.push(a),
            Err(e) => diags.push(
                Diagnostic::error("test-invalid-reference", "Invalid replace address")
                    .with_detail(e)
                    .with_span(t.span),
            ),
        }
    }
    let mut targets = Vec::new();
    for t in &run.plan_options.target {
        match ferro_addrs::parse_target(&t.text) {
            Ok(a) => targets.push(a),
            Err(e) => diags.push(
                Diagnostic::error("test-invalid-reference", "Invalid target address")
                    .with_detail(e)
                    .with_span(t.span),
            ),
        }
    }
    if has_errors(&diags) {
        registry.close_all();
        return RunOutcome::failed(Status::Error, diags, sources);
    }
    let cwd = dir.display().to_string();
    let input = PlanInput {
        db: &l.db,
        ws: l.ws,
        files: l.files.clone(),
        state: prior.clone(),
        variables: vars.clone(),
        providers: &providers,
        options: PlanOptions {
            destroy: false,
            refresh: run.plan_options.refresh.unwrap_or(true),
            refresh_only: run.plan_options.refresh_only,
            minimal_refresh: false,
            replace,
            targets,
            excludes: Vec::new(),
            parallelism: ctx.parallelism,
            discard_noops: false,
            ..Default::default()
        },
        cwd: cwd.clone(),
        on_refresh: None,
        on_ephemeral: None,
    };
    let (plan, plan_diags) = ferro_planner::plan(input);
    registry.close_all();
    let mut expected = run
        .expect_failures
        .iter()
        .map(|t| (t, false))
        .collect::<Vec<_>>();
    let (plan_diags, matched) = match_expected(&l, plan_diags, &mut expected);
    let plan_errors = has_errors(&plan_diags);
    diags.extend(plan_diags);
    let plan_failed_as_expected = matched.iter().any(|(_, d)| d.is_error());
    if run.command == Command::Apply && plan_failed_as_expected {
        // The apply the run asks for could not happen: the run fails, with the expected
        // failures shown after Terraform's warning.
        for (i, d) in matched {
            if d.is_error() {
                diags.push(planning_failure_warning(expected[i].0));
                diags.push(d);
            }
        }
        return RunOutcome::failed(Status::Error, diags, sources);
    }
    let mut plan = match plan {
        Some(p) if !plan_errors && !plan_failed_as_expected => p,
        _ => {
            if !plan_errors {
                diags.extend(missing_expected(&expected));
            }
            let status = if has_errors(&diags) {
                Status::Error
            } else {
                Status::Pass
            };
            return RunOutcome::failed(status, diags, sources);
        }
    };
    let mut verbose = None;
    let applied_state = if run.command == Command::Apply {
        let registry = ProviderRegistry::for_working_dir(ctx.root);
        let (providers, pd) = start_providers(
            &mut l,
            &registry,
            ctx.mocks,
            mock_values,
            &assert_hirs,
            ctx.aliases,
            ctx.overrides,
            Some(&plan.prior_state),
        );
        if has_errors(&pd) {
            diags.extend(pd);
            registry.close_all();
            return RunOutcome::failed(Status::Error, diags, sources);
        }
        // The state is destroyed at the end with the variables of the last run that changed it.
        slots[slot_index].vars = vars.clone();
        slots[slot_index].run = run.name.clone();
        slots[slot_index].providers = (run.providers.clone(), values.clone());
        let mut backend = ferro_state::LocalBackend::new(slots[slot_index].backend_path.clone());
        let input = ApplyInput {
            db: &l.db,
            ws: l.ws,
            plan: &mut plan,
            providers: &providers,
            parallelism: ctx.parallelism,
            cwd: cwd.clone(),
            interrupt: Some(crate::interrupt::interrupt()),
        };
        let (state, apply_diags) = ferro_exec::apply(input, &mut backend, &|_| {});
        backend.unlock();
        registry.close_all();
        let (apply_diags, _) = match_expected(&l, apply_diags, &mut expected);
        let failed = has_errors(&apply_diags);
        diags.extend(apply_diags);
        slots[slot_index].state = Some(state.clone());
        let missing = missing_expected(&expected);
        if failed {
            diags.extend(missing);
            return RunOutcome::failed(Status::Error, diags, sources);
        }
        if !missing.is_empty() {
            // As Terraform 1.12: a failure expected of the apply that did not happen fails the
            // run without erroring it, so the runs after it go on; its assertions are not
            // checked.
            diags.extend(missing);
            return RunOutcome::failed(Status::Fail, diags, sources);
        }
        if ctx.verbose {
            verbose = Some(Verbose {
                text: crate::render::human_state(&state, &providers, false),
                state: true,
                json: verbose_json(
                    &crate::render::state_json(&state, &providers),
                    true,
                    &providers,
                ),
            });
        }
        Some((state, providers))
    } else {
        if ctx.verbose {
            let mut text = Vec::new();
            let _ = crate::render::write_human_plan(&plan, &providers, false, &mut text);
            let doc = crate::render::plan_json(&plan, &providers, &l.db, l.ws);
            verbose = Some(Verbose {
                text: String::from_utf8_lossy(&text).into_owned(),
                state: false,
                json: verbose_json(&doc, false, &providers),
            });
        }
        None
    };
    diags.extend(missing_expected(&expected));
    if has_errors(&diags) {
        return RunOutcome {
            status: Status::Error,
            diags,
            outputs: None,
            sources,
            verbose,
        };
    }
    // The assertions, against what the run left.
    let converted = ferro_planner::prepare_variables(&l.db, l.ws, &vars).0;
    let planning = run.command == Command::Plan;
    let tree = ferro_planner::scope::EvalTree::new(&l.db, l.ws, converted, planning, cwd.clone())
        .with_provider_functions(providers.functions.clone());
    match &applied_state {
        Some((state, providers)) => {
            ferro_planner::state_scope::expand_from_state(&tree, state, Some(providers));
        }
        None => {
            ferro_planner::state_scope::expand_with_values(
                &tree,
                planned_values(&plan, &providers),
            );
        }
    }
    let root = tree.root();
    let scope = AssertScope {
        module: &root,
        test_only: &test_only,
        runs: ctx.runs,
        sources: TestSources { files: &sources },
        dir: ctx.root,
        planning,
    };
    let mut status = Status::Pass;
    for a in &run.asserts {
        let (st, ds) = super::expect::check_assert(a, &scope);
        status = status.max(st);
        diags.extend(ds);
    }
    let mut outputs = ValueMap::new();
    for name in root.index.outputs.keys() {
        let v = root
            .output(name)
            .unwrap_or_else(|_| Value::null(ferro_value::Type::Dynamic));
        outputs.insert(name.clone(), v);
    }
    RunOutcome {
        status,
        diags,
        outputs: Some(Value::object(outputs)),
        sources,
        verbose,
    }
}

/// The resource values a plan leaves: the refreshed state, with every planned change's new
/// value in place of the old (unknown where it is known only after apply).
fn planned_values(
    plan: &Plan,
    providers: &Providers,
) -> HashMap<ModuleInstance, Vec<(Resource, Value)>> {
    let mut by_resource: BTreeMap<(ModuleInstance, Resource), BTreeMap<InstanceKey, Value>> =
        BTreeMap::new();
    for rs in plan.prior_state.resources.values() {
        let ty = providers
            .resource_schema(&rs.provider, &rs.addr.resource)
            .map(|s| s.implied_type());
        let entry = by_resource
            .entry((rs.addr.module.clone(), rs.addr.resource.clone()))
            .or_default();
        for (k, inst) in &rs.instances {
            let Some(cur) = &inst.current else { continue };
            let v = ty
                .as_ref()
                .and_then(|t| cur.attributes.to_value(t).ok())
                .unwrap_or_else(|| {
                    ferro_value::json::value_from_plain_json(&cur.attributes.json())
                });
            entry.insert(k.clone(), v);
        }
    }
    for c in &plan.changes {
        if c.deposed().is_some() {
            continue;
        }
        let entry = by_resource
            .entry((c.addr.module.clone(), c.addr.resource.resource.clone()))
            .or_default();
        if c.action == Action::Delete {
            entry.remove(&c.addr.resource.key);
        } else {
            entry.insert(c.addr.resource.key.clone(), c.after.value());
        }
    }
    let mut out: HashMap<ModuleInstance, Vec<(Resource, Value)>> = HashMap::new();
    for ((module, resource), instances) in by_resource {
        out.entry(module)
            .or_default()
            .push((resource, instances_value(instances)));
    }
    out
}

/// A resource's value from its instances: the object itself, a tuple by index (`count`), or
/// an object by key (`for_each`).
fn instances_value(instances: BTreeMap<InstanceKey, Value>) -> Value {
    let mut ints = Vec::new();
    let mut strs = ValueMap::new();
    for (k, v) in instances {
        match k {
            InstanceKey::None => return v,
            InstanceKey::Int(_) => ints.push(v),
            InstanceKey::Str(s) => {
                strs.insert(s, v);
            }
        }
    }
    if !strs.is_empty() {
        Value::object(strs)
    } else {
        Value::tuple(ints)
    }
}

/// Destroy what a state holds (at the end of a file). Returns what is left and the
/// diagnostics of the attempt.
#[allow(clippy::too_many_arguments)]
pub fn destroy(
    root: &Path,
    file: &TestFile,
    slot: &StateSlot,
    mocks: &[super::file::MockProvider],
    mock_values: &BTreeMap<String, Value>,
    aliases: &[(String, String)],
    parallelism: usize,
) -> (
    Option<State>,
    Vec<Diagnostic>,
    Vec<(FileId, String, String)>,
) {
    let Some(state) = slot.state.clone() else {
        return (None, Vec::new(), Vec::new());
    };
    if state.resources.is_empty() {
        return (Some(state), Vec::new(), Vec::new());
    }
    let mut diags = Vec::new();
    let (mapping, values) = &slot.providers;
    let mut l = match load_dir_with(&slot.dir, |files| {
        with_test_providers(
            file,
            mapping.as_deref(),
            aliases,
            &[],
            values,
            (&slot.dir, root),
            files,
        )
    }) {
        Ok(l) => l,
        Err(e) => {
            diags.push(Diagnostic::error("cli", "Failed to read configuration").with_detail(e));
            return (Some(state), diags, Vec::new());
        }
    };
    let sources = l.sources.clone();
    let registry = ProviderRegistry::for_working_dir(root);
    let (providers, pd) = start_providers(
        &mut l,
        &registry,
        mocks,
        mock_values,
        &[],
        aliases,
        &[],
        Some(&state),
    );
    diags.extend(pd);
    if has_errors(&diags) {
        registry.close_all();
        return (Some(state), diags, sources);
    }
    let cwd = slot.dir.display().to_string();
    let input = PlanInput {
        db: &l.db,
        ws: l.ws,
        files: l.files.clone(),
        state: Some(state.clone()),
        variables: slot.vars.clone(),
        providers: &providers,
        options: PlanOptions {
            destroy: true,
            refresh: true,
            refresh_only: false,
            minimal_refresh: false,
            replace: Vec::new(),
            targets: Vec::new(),
            excludes: Vec::new(),
            parallelism,
            discard_noops: false,
            ..Default::default()
        },
        cwd: cwd.clone(),
        on_refresh: None,
        on_ephemeral: None,
    };
    let (plan, pd) = ferro_planner::plan(input);
    registry.close_all();
    diags.extend(pd);
    let Some(mut plan) = plan.filter(|_| !has_errors(&diags)) else {
        return (Some(state), diags, sources);
    };
    let registry = ProviderRegistry::for_working_dir(root);
    let (providers, pd) = start_providers(
        &mut l,
        &registry,
        mocks,
        mock_values,
        &[],
        aliases,
        &[],
        Some(&plan.prior_state),
    );
    diags.extend(pd);
    if has_errors(&diags) {
        registry.close_all();
        return (Some(state), diags, sources);
    }
    let mut backend = ferro_state::LocalBackend::new(slot.backend_path.clone());
    let input = ApplyInput {
        db: &l.db,
        ws: l.ws,
        plan: &mut plan,
        providers: &providers,
        parallelism,
        cwd,
        // Cleaning up goes on after a Ctrl-C (a second one ends the process).
        interrupt: None,
    };
    let (left, ad) = ferro_exec::apply(input, &mut backend, &|_| {});
    backend.unlock();
    registry.close_all();
    diags.extend(ad);
    (Some(left), diags, sources)
}
