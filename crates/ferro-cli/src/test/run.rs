//! One `run` block: load the module under test with the test file's providers, work out its
//! variables, plan (and apply) against the state the file keeps for it, then check the
//! expected failures and the assertions.

use super::expect::{match_expected, missing_expected, planning_failure_warning};
use super::file::{Command, Run, TestExpr, TestFile};
use super::mock::{synthesized_schema, MockProvider, TestProviders, TypeMock};
use super::scope::{AssertScope, TestSources, VariablesScope};
use super::Status;
use crate::load::{load_dir_with, Loaded};
use ferro_addrs::{InstanceKey, ModuleInstance, Resource};
use ferro_db::Setter;
use ferro_diag::{has_errors, Diagnostic, FileId};
use ferro_exec::ApplyInput;
use ferro_plan::{Action, Plan};
use ferro_planner::{PlanInput, PlanOptions, Providers, RawVariable, VariableSource};
use ferro_provider::{ProviderRegistry, ProviderSource};
use ferro_state::State;
use ferro_value::{Value, ValueMap};
use std::collections::{BTreeMap, BTreeSet, HashMap};
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
    /// Global variables: the test file's `variables` block over `-var` (unparsed ones stay out).
    pub globals: &'a BTreeMap<String, Value>,
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
    pub data: bool,
    pub ty: String,
    pub name: String,
    /// The provider's local name (the type's prefix).
    pub provider: String,
    pub alias: String,
    pub values: Option<Value>,
    pub at_plan: bool,
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
    pub verbose: Option<String>,
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

/// The file's provider blocks put into the module's root files: a copy of the test file in
/// which everything but those blocks is blank (so positions stay those of the test file), and
/// the module's own blocks for the same configurations blanked out. With a `providers`
/// mapping only the mapped configurations are given, under the module's names.
fn with_test_providers(
    file: &TestFile,
    mapping: Option<&[(String, String)]>,
    aliases: &[(String, String)],
    overrides: &[ActiveOverride],
    mut files: Vec<(String, String)>,
) -> Vec<(String, String)> {
    // The configurations overrides use, and the override file giving each overridden
    // resource its own (kept in every run, so objects in state keep their configuration).
    let alias_blocks: String = aliases
        .iter()
        .map(|(p, a)| format!("\nprovider \"{p}\" {{\n  alias = \"{a}\"\n}}\n"))
        .collect();
    if !overrides.is_empty() {
        let text: String = overrides
            .iter()
            .map(|o| {
                format!(
                    "{} \"{}\" \"{}\" {{\n  provider = {}.{}\n}}\n",
                    if o.data { "data" } else { "resource" },
                    o.ty,
                    o.name,
                    o.provider,
                    o.alias
                )
            })
            .collect();
        files.push(("ferro_test_override.tf".to_string(), text));
    }
    // A name in the root module's directory (the test file may be in tests/).
    let shown = file
        .name
        .rsplit('/')
        .next()
        .unwrap_or(&file.name)
        .to_string();
    if file.providers.is_empty() || file.name.ends_with(".json") {
        if !alias_blocks.is_empty() {
            files.push((format!("{shown}.providers.tf"), alias_blocks));
        }
        return files;
    }
    let mut keep: Vec<(u32, u32, Option<String>)> = Vec::new();
    for p in &file.providers {
        let name = match &p.alias {
            Some(a) => format!("{}.{a}", p.name),
            None => p.name.clone(),
        };
        match mapping {
            None => keep.push((p.range.0, p.range.1, None)),
            Some(map) => {
                if let Some((inner, _)) = map.iter().find(|(_, outer)| *outer == name) {
                    keep.push((p.range.0, p.range.1, Some(inner.clone())));
                }
            }
        }
    }
    let bytes = file.text.as_bytes();
    let mut text: Vec<u8> = bytes
        .iter()
        .map(|b| if *b == b'\n' { b'\n' } else { b' ' })
        .collect();
    let mut given: BTreeSet<(String, Option<String>)> = BTreeSet::new();
    for (start, end, rename) in &keep {
        let (s, e) = (*start as usize, (*end as usize).min(bytes.len()));
        text[s..e].copy_from_slice(&bytes[s..e]);
        let block = &file.providers.iter().find(|p| p.range.0 == *start);
        let Some(block) = block else { continue };
        match rename {
            None => {
                given.insert((block.name.clone(), block.alias.clone()));
            }
            Some(inner) => {
                let (name, alias) = match inner.split_once('.') {
                    Some((n, a)) => (n.to_string(), Some(a.to_string())),
                    None => (inner.clone(), None),
                };
                given.insert((name, alias.clone()));
                // The configuration's alias becomes the module's name for it.
                if let Some(a) = &block.alias {
                    let region = String::from_utf8_lossy(&text[s..e]).into_owned();
                    if let Some(pos) = alias_argument(&region, a) {
                        let (from, to) = (s + pos.0, s + pos.1);
                        let replacement = match &alias {
                            Some(new) => format!("alias = {new:?}"),
                            None => String::new(),
                        };
                        let mut padded = replacement.into_bytes();
                        padded.resize(to - from, b' ');
                        if padded.len() == to - from {
                            text[from..to].copy_from_slice(&padded);
                        }
                    }
                }
            }
        }
    }
    for (name, body) in files.iter_mut() {
        if name.ends_with(".json") {
            continue;
        }
        *body = blank_provider_blocks(body, &given);
    }
    let mut text = String::from_utf8_lossy(&text).into_owned();
    text.push_str(&alias_blocks);
    files.push((shown, text));
    files
}

/// Where `alias = "NAME"` is in a provider block's text.
fn alias_argument(block: &str, alias: &str) -> Option<(usize, usize)> {
    let quoted = format!("{alias:?}");
    let start = block.find("alias")?;
    let rest = &block[start..];
    let end = rest.find(&quoted)? + quoted.len();
    Some((start, start + end))
}

/// `text` with the provider blocks for the configurations in `given` replaced by spaces.
fn blank_provider_blocks(text: &str, given: &BTreeSet<(String, Option<String>)>) -> String {
    let parsed = ferro_syntax::parse_file(FileId(u32::MAX), text);
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    for item in &parsed.body.items {
        let ferro_syntax::ast::BodyItem::Block(b) = item else {
            continue;
        };
        if b.ty.name != "provider" || b.labels.len() != 1 {
            continue;
        }
        let alias = b.body.items.iter().find_map(|i| match i {
            ferro_syntax::ast::BodyItem::Attribute(a) if a.name.name == "alias" => text
                .get(a.expr.span.start as usize..a.expr.span.end as usize)
                .map(|t| t.trim().trim_matches('"').to_string()),
            _ => None,
        });
        if given.contains(&(b.labels[0].value.to_string(), alias)) {
            for byte in &mut out[b.span.start as usize..(b.span.end as usize).min(text.len())] {
                if *byte != b'\n' {
                    *byte = b' ';
                }
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
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

/// The providers of the loaded module: the registry's, with the file's mocks in their place,
/// and a mocked configuration for each override.
#[allow(clippy::too_many_arguments)]
fn start_providers(
    l: &mut Loaded,
    registry: &ProviderRegistry,
    mocks: &[super::file::MockProvider],
    mock_values: &BTreeMap<String, Value>,
    extra_hirs: &[&ferro_hir::FileHir],
    aliases: &[(String, String)],
    overrides: &[ActiveOverride],
    state: Option<&State>,
) -> (Providers, Vec<Diagnostic>) {
    let mut by_config = BTreeMap::new();
    if !mocks.is_empty() || !aliases.is_empty() {
        let (resources, data, read) = used_attributes(l, extra_hirs);
        // The schema of a mocked provider: its own when it is installed (or built in), else
        // one made from what the configuration uses of it.
        let schema_for = |local: &str,
                          addr: &ferro_addrs::Provider,
                          named: &[(bool, String, Option<&Value>)]| {
            if let Some(s) = registry.get(addr).ok().and_then(|p| p.schema().ok()) {
                return s;
            }
            let prefix = format!("{local}_");
            let own = |t: &String| t == local || t.starts_with(&prefix);
            let mut res: BTreeMap<String, BTreeSet<String>> = resources
                .iter()
                .filter(|(t, _)| own(t))
                .map(|(t, s)| (t.clone(), s.clone()))
                .collect();
            let mut dat: BTreeMap<String, BTreeSet<String>> = data
                .iter()
                .filter(|(t, _)| own(t))
                .map(|(t, s)| (t.clone(), s.clone()))
                .collect();
            // Attributes a mock's defaults or an override's values name are part of the type.
            let mut read = read.clone();
            for (is_data, ty, values) in named {
                let key = if *is_data {
                    format!("data.{ty}")
                } else {
                    ty.clone()
                };
                if let Some(ValueLike::Object(names)) = values.map(value_like) {
                    read.entry(key).or_default().extend(names);
                }
                if *is_data {
                    dat.entry(ty.clone()).or_default();
                } else {
                    res.entry(ty.clone()).or_default();
                }
            }
            synthesized_schema(&res, &dat, &read)
        };
        for m in mocks {
            let addr = mock_provider_addr(l, &m.name);
            let named: Vec<(bool, String, Option<&Value>)> = m
                .types
                .iter()
                .map(|t| (t.data, t.ty.clone(), mock_values.get(&mock_key(m, t))))
                .collect();
            let schema = schema_for(&m.name, &addr, &named);
            let mut rs = BTreeMap::new();
            let mut ds = BTreeMap::new();
            for t in &m.types {
                let mock = TypeMock {
                    defaults: mock_values.get(&mock_key(m, t)).cloned(),
                    at_plan: t.during == Some(super::file::OverrideDuring::Plan),
                    force: false,
                };
                if t.data {
                    ds.insert(t.ty.clone(), mock);
                } else {
                    rs.insert(t.ty.clone(), mock);
                }
            }
            let at_plan = m.during == Some(super::file::OverrideDuring::Plan);
            by_config.insert(
                (addr.ty.clone(), m.alias.clone()),
                Arc::new(MockProvider::new(schema, rs, ds, at_plan)),
            );
        }
        for (local, alias) in aliases {
            let addr = mock_provider_addr(l, local);
            let mine: Vec<&ActiveOverride> =
                overrides.iter().filter(|o| &o.alias == alias).collect();
            let named: Vec<(bool, String, Option<&Value>)> = mine
                .iter()
                .map(|o| (o.data, o.ty.clone(), o.values.as_ref()))
                .collect();
            let schema = schema_for(local, &addr, &named);
            let mut rs = BTreeMap::new();
            let mut ds = BTreeMap::new();
            for o in mine {
                let mock = TypeMock {
                    defaults: o.values.clone(),
                    at_plan: o.at_plan,
                    force: true,
                };
                if o.data {
                    ds.insert(o.ty.clone(), mock);
                } else {
                    rs.insert(o.ty.clone(), mock);
                }
            }
            by_config.insert(
                (addr.ty.clone(), Some(alias.clone())),
                Arc::new(MockProvider::new(schema, rs, ds, false)),
            );
        }
    }
    let source = TestProviders {
        registry,
        mocks: by_config,
    };
    let (providers, diags) = ferro_planner::load_providers(&l.db, l.ws, &source, state);
    l.ws.set_schemas(&mut l.db)
        .to(Arc::new(providers.schema_table()));
    (providers, diags)
}

enum ValueLike {
    Object(Vec<String>),
    Other,
}

fn value_like(v: &Value) -> ValueLike {
    match &v.kind {
        ferro_value::ValueKind::Object(m) => {
            ValueLike::Object(m.keys().map(|k| k.to_string()).collect())
        }
        _ => ValueLike::Other,
    }
}

/// The key a mock type's evaluated defaults are kept under.
pub fn mock_key(m: &super::file::MockProvider, t: &super::file::MockType) -> String {
    format!(
        "{}.{}|{}|{}",
        m.name,
        m.alias.as_deref().unwrap_or(""),
        if t.data { "data" } else { "resource" },
        t.ty
    )
}

/// The provider a local name means in the root module (`required_providers`, else
/// `hashicorp/NAME`).
fn mock_provider_addr(l: &Loaded, name: &str) -> ferro_addrs::Provider {
    if name == "terraform" {
        return ferro_addrs::Provider::builtin("terraform");
    }
    ferro_db::provider_source(&l.db, l.ws.root(&l.db), name)
        .unwrap_or_else(|_| ferro_addrs::Provider::default_for(name))
}

/// What the configuration (and the test file's expressions) use of each resource type: the
/// arguments its blocks set, and the attributes expressions read (keyed `TYPE` or `data.TYPE`).
#[allow(clippy::type_complexity)]
fn used_attributes(
    l: &Loaded,
    extra: &[&ferro_hir::FileHir],
) -> (
    BTreeMap<String, BTreeSet<String>>,
    BTreeMap<String, BTreeSet<String>>,
    BTreeMap<String, BTreeSet<String>>,
) {
    let mut resources: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut data: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut hirs: Vec<&ferro_hir::FileHir> = Vec::new();
    for m in l.ws.modules(&l.db) {
        for f in m.files(&l.db) {
            let hir = ferro_db::file_hir(&l.db, *f);
            for r in &hir.resources {
                let set: BTreeSet<String> = r.body.attrs.iter().map(|a| a.name.clone()).collect();
                let target = if r.addr.mode == ferro_addrs::ResourceMode::Data {
                    &mut data
                } else {
                    &mut resources
                };
                target.entry(r.addr.ty.to_string()).or_default().extend(set);
            }
            hirs.push(hir);
        }
    }
    hirs.extend(extra.iter().copied());
    let reads = ferro_planner::reads::read_resources(hirs.into_iter());
    let mut read: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (r, what) in reads {
        if let ferro_planner::reads::Reads::Attrs(attrs) = what {
            let key = if r.mode == ferro_addrs::ResourceMode::Data {
                format!("data.{}", r.ty)
            } else {
                r.ty.to_string()
            };
            read.entry(key).or_default().extend(attrs);
        }
    }
    (resources, data, read)
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
    vars.retain(|n, _| index.variables.contains_key(n));
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
    let (dir, source) = match &run.module {
        Some((src, _)) => (ctx.root.join(src), Some(src.clone())),
        None => (ctx.root.to_path_buf(), None),
    };
    let key = state_key_of(run);
    let mut diags = Vec::new();
    // Variables: the file's, then the run's (which may use the file's and earlier runs').
    let mut given = eval_variables(
        &ctx.file.variables,
        ctx.globals,
        ctx.runs,
        &sources,
        ctx.root,
        &mut diags,
    );
    let mut globals = ctx.globals.clone();
    for (n, (v, _)) in &given {
        globals.insert(n.clone(), v.clone());
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
    let mut l = match load_dir_with(&dir, |files| {
        with_test_providers(
            ctx.file,
            run.providers.as_deref(),
            ctx.aliases,
            ctx.overrides,
            files,
        )
    }) {
        Ok(l) => l,
        Err(e) => {
            diags.push(Diagnostic::error("cli", "Failed to read configuration").with_detail(e));
            return RunOutcome::failed(Status::Error, diags, sources);
        }
    };
    sources.extend(l.sources.iter().cloned());
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
                backend_path: ctx.scratch.join(format!("{}.tfstate", key_file_name(&key))),
            });
            slots.len() - 1
        }
    };
    let prior = slots[slot_index].state.clone();
    let registry = ProviderRegistry::for_working_dir(ctx.root);
    let assert_hirs: Vec<&ferro_hir::FileHir> =
        run.asserts.iter().map(|a| &*a.condition.hir).collect();
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
            replace,
            targets,
            excludes: Vec::new(),
            parallelism: ctx.parallelism,
            discard_noops: false,
        },
        cwd: cwd.clone(),
        on_refresh: None,
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
        if failed {
            return RunOutcome::failed(Status::Error, diags, sources);
        }
        if ctx.verbose {
            verbose = Some(crate::render::human_state(&state, &providers, false));
        }
        Some((state, providers))
    } else {
        if ctx.verbose {
            let mut text = Vec::new();
            let _ = crate::render::write_human_plan(&plan, &providers, false, &mut text);
            verbose = Some(String::from_utf8_lossy(&text).into_owned());
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
    let tree = ferro_planner::scope::EvalTree::new(&l.db, l.ws, converted, planning, cwd.clone());
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
    let mut l = match load_dir_with(&slot.dir, |files| {
        with_test_providers(file, None, aliases, &[], files)
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
            replace: Vec::new(),
            targets: Vec::new(),
            excludes: Vec::new(),
            parallelism,
            discard_noops: false,
        },
        cwd: cwd.clone(),
        on_refresh: None,
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
