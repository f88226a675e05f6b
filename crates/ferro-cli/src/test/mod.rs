//! `ferro test`: the test framework of Terraform 1.6+ and OpenTofu 1.6+. Test files
//! (`*.tftest.hcl`, `*.tftest.json`, `*.tofutest.hcl`) in the working directory and its test
//! directory are read (`file.rs`); each file's `run` blocks plan or apply the module under
//! test (or a setup module) against states kept per module for the file (`run.rs`), their
//! assertions and expected failures are judged (`expect.rs`), providers may be mocked
//! (`mock.rs`), and everything a file applied is destroyed when it ends, in reverse order.
//! Results are printed as Terraform prints them, or as its JSON stream (`report.rs`), and
//! optionally written as JUnit XML.

mod config;
mod expect;
mod external;
use ferro_test as file;
mod mock;
mod report;
mod run;
mod scope;
mod variables;

pub use file::{parse_test_file, TestFile};

use crate::{spec, Global, Io};
use ferro_diag::{Diagnostic, FileId};
use ferro_value::Value;
use report::Reporter;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::time::Instant;

/// How a run, a file or the suite ended, in Terraform's order (the worst wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    Pending,
    Skip,
    Pass,
    Fail,
    Error,
}

impl Status {
    pub fn word(self) -> &'static str {
        match self {
            Status::Pending => "pending",
            Status::Skip => "skip",
            Status::Pass => "pass",
            Status::Fail | Status::Error => "fail",
        }
    }
}

pub struct RunResult {
    pub name: String,
    pub status: Status,
    pub diags: Vec<Diagnostic>,
    pub elapsed_ms: u128,
}

pub struct FileResult {
    pub name: String,
    pub status: Status,
    pub runs: Vec<RunResult>,
}

/// The test file suffixes, OpenTofu's first: a `.tofutest.hcl` file hides the `.tftest.hcl`
/// file of the same name.
const SUFFIXES: &[&str] = &[
    ".tofutest.hcl",
    ".tofutest.json",
    ".tftest.hcl",
    ".tftest.json",
];

fn test_stem(name: &str) -> Option<(&str, bool)> {
    SUFFIXES.iter().find_map(|s| {
        name.strip_suffix(s)
            .map(|stem| (stem, s.starts_with(".tofu")))
    })
}

/// The test files `ferro test` reads: those of the working directory `root`, then those of
/// its test directory (`tests` by default), in name order.
pub(crate) fn test_file_names(root: &Path, test_dir: &str) -> Vec<String> {
    let mut names = files_in(root, "");
    names.extend(files_in(root, test_dir));
    names.sort();
    names.dedup();
    names
}

/// The test files of `dir` (names relative to the working directory, `prefix` in front).
fn files_in(root: &Path, rel: &str) -> Vec<String> {
    let dir = if rel.is_empty() {
        root.to_path_buf()
    } else {
        root.join(rel)
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().map(|t| !t.is_dir()).unwrap_or(false))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| test_stem(n).is_some())
        .collect();
    names.sort();
    let tofu: Vec<String> = names
        .iter()
        .filter_map(|n| test_stem(n).filter(|(_, t)| *t).map(|(s, _)| s.to_string()))
        .collect();
    names
        .into_iter()
        .filter(|n| match test_stem(n) {
            Some((stem, false)) => !tofu.iter().any(|t| t == stem),
            _ => true,
        })
        .map(|n| {
            if rel.is_empty() {
                n
            } else {
                format!("{rel}/{n}")
            }
        })
        .collect()
}

pub(crate) fn test(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match spec::core::TEST.parse(a) {
        Ok(p) => p,
        Err(e) => return crate::ui::plain_error(io, "Invalid arguments", &e),
    };
    if !p.positional.is_empty() {
        return crate::ui::plain_error(
            io,
            "Too many command line arguments",
            "The test command expects no positional arguments; to use a different configuration directory, use -chdir.",
        );
    }
    let parallelism = match p.value("parallelism") {
        None => 10,
        Some(t) => match t.parse::<usize>() {
            Ok(0) => 10,
            Ok(n) => n,
            Err(_) => {
                return crate::ui::plain_error(
                    io,
                    "Failed to parse command-line flags",
                    &format!("invalid value {t:?} for flag -parallelism: parse error"),
                )
            }
        },
    };
    let json = p.flag("json");
    let _ui = json.then(crate::json_ui::enable);
    let test_dir = p
        .value("test-directory")
        .unwrap_or("tests")
        .trim_end_matches('/')
        .to_string();
    // Terraform runs the files in the order of their names.
    let mut names = test_file_names(&g.dir, &test_dir);
    let filters = p.all("filter");
    if !filters.is_empty() {
        names.retain(|n| filters.iter().any(|f| f == n));
    }
    let cli_vars = crate::ui::var_args(a);
    let external = external::External::collect(&g.dir, &cli_vars);
    let test_dir_external = external.with_test_dir(&g.dir, &test_dir);
    let mut reporter = Reporter::new(g.color, json, p.flag("verbose"));
    if json {
        crate::json_ui::version(io.stdout);
    }
    let scratch = std::env::temp_dir().join(format!(
        "ferro-test-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    if let Err(e) = std::fs::create_dir_all(&scratch) {
        return crate::ui::plain_error(
            io,
            "Failed to prepare test run",
            &format!(
                "The scratch directory {} could not be created: {e}.",
                scratch.display()
            ),
        );
    }
    // Read every file first: the JSON stream begins with an abstract of the suite.
    let mut files = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let id = FileId(0x4000_0000 + i as u32);
        let parsed = match std::fs::read(g.dir.join(name)) {
            Ok(bytes) => {
                let (text, ds) = ferro_syntax::decode_source(id, &bytes);
                let mut f = parse_test_file(name, id, &text, name.ends_with(".json"));
                f.diags.splice(0..0, ds);
                f
            }
            Err(e) => {
                let mut f = parse_test_file(name, id, "", false);
                f.diags.push(
                    Diagnostic::error("cli", "Failed to read test file")
                        .with_detail(format!("The file {name} could not be read: {e}.")),
                );
                f
            }
        };
        files.push(parsed);
    }
    // As Terraform loads test files with the configuration, a file that does not read is an
    // error of the whole command: nothing runs.
    if files
        .iter()
        .any(|f| f.diags.iter().any(Diagnostic::is_error))
    {
        let mut all = Vec::new();
        let mut sources = Vec::new();
        for f in &files {
            all.extend(f.diags.iter().cloned());
            sources.push((f.file, f.name.clone(), f.text.clone()));
        }
        let _ = std::fs::remove_dir_all(&scratch);
        let lookup = ferro_db::Sources::from_files(sources);
        crate::ui::print_diags(io, &all, &lookup, g.color);
        return 1;
    }
    reporter.abstract_(io, &files);
    // Ctrl-C from here on stops the current run gracefully; the files still clean up.
    let applying = crate::interrupt::applying();
    let mut results = Vec::new();
    for f in &mut files {
        let interrupted = crate::interrupt::interrupt().stop_requested();
        // A file of the test directory also sees that directory's variable files.
        let in_test_dir = Path::new(&f.name).parent() == Some(Path::new(&test_dir));
        let r = run_file(
            g,
            f,
            &cli_vars,
            if in_test_dir {
                &test_dir_external
            } else {
                &external
            },
            parallelism,
            &scratch,
            interrupted,
            &mut reporter,
            io,
        );
        results.push(r);
    }
    drop(applying);
    let _ = std::fs::remove_dir_all(&scratch);
    let suite = results
        .iter()
        .map(|f| f.status)
        .max()
        .unwrap_or(Status::Pending);
    reporter.conclusion(io, &results, suite);
    if let Some(path) = p.value("junit-xml") {
        let xml = report::junit_xml(&results);
        if let Err(e) = std::fs::write(g.dir.join(path), xml) {
            let d = Diagnostic::error("cli", "Failed to write JUnit XML report")
                .with_detail(format!("The report {path} could not be written: {e}."));
            crate::ui::print_diags(
                io,
                &[d],
                &ferro_db::Sources::from_files(Vec::new()),
                g.color,
            );
            return 1;
        }
    }
    i32::from(suite > Status::Pass)
}

/// Run one test file: its runs in order, then the destruction of what they applied.
#[allow(clippy::too_many_arguments)]
fn run_file(
    g: &Global,
    f: &mut TestFile,
    cli_vars: &[(bool, String)],
    external: &external::External,
    parallelism: usize,
    scratch: &Path,
    skip_all: bool,
    reporter: &mut Reporter,
    io: &mut Io<'_>,
) -> FileResult {
    let mut result = FileResult {
        name: f.name.clone(),
        status: Status::Pending,
        runs: Vec::new(),
    };
    reporter.file_starting(io, &f.name);
    let own_source = vec![(f.file, f.name.clone(), f.text.clone())];
    // Shared mock files named by `source`.
    let mut file_diags = std::mem::take(&mut f.diags);
    file_diags.extend(external.test_dir_diags.iter().cloned());
    // What the file's expressions see of a value given from outside that it does not
    // declare.
    let globals = &external.undeclared_values();
    let mut mock_files: Vec<(FileId, String, String)> = Vec::new();
    for (mi, m) in f.mocks.iter_mut().enumerate() {
        let Some((dir, span)) = m.source.clone() else {
            continue;
        };
        let base = g.dir.join(&dir);
        let Ok(entries) = std::fs::read_dir(&base) else {
            file_diags.push(
                Diagnostic::error("test-mock-source", "Failed to load mock data")
                    .with_detail(format!("The directory {dir} could not be read."))
                    .with_span(span),
            );
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tfmock.hcl") || n.ends_with(".tfmock.json"))
            .collect();
        names.sort();
        for (k, n) in names.into_iter().enumerate() {
            let id =
                FileId(0x5000_0000 + (f.file.0 & 0xffff) * 0x1000 + (mi as u32) * 0x40 + k as u32);
            let text = std::fs::read_to_string(base.join(&n)).unwrap_or_default();
            let shown = format!("{}/{n}", dir.trim_start_matches("./").trim_end_matches('/'));
            file_diags.extend(file::parse_mock_file(id, &text, n.ends_with(".json"), m));
            mock_files.push((id, shown, text));
        }
    }
    // `variable` blocks give the globals their defaults (Terraform 1.9+) and their types
    // (1.13): a value given as text (`-var`, `TF_VAR_`) is read as the type says (literally
    // when it is primitive or not given), and every value is converted to it.
    // One that fails is reported with the file, which fails; the runs that need it are skipped.
    let mut globals_with_defaults = globals.clone();
    let mut declared_diags = Vec::new();
    let mut failed_globals = std::collections::BTreeSet::new();
    for d in &f.declared {
        match variables::declared_value(d, &external.values, globals, &own_source, &g.dir) {
            Ok(v) => {
                globals_with_defaults.insert(d.name.clone(), v);
            }
            Err(ds) => {
                declared_diags.extend(ds);
                failed_globals.insert(d.name.clone());
            }
        }
    }
    let globals = &globals_with_defaults;
    // The mocks' defaults and overrides' values are constants (or refer to -var values).
    let mut mock_values: BTreeMap<String, Value> = BTreeMap::new();
    let mut sources = own_source.clone();
    sources.extend(mock_files.iter().cloned());
    sources.extend(external.sources.iter().cloned());
    for m in &f.mocks {
        for t in &m.types {
            if let Some(d) = &t.defaults {
                let mut ds = Vec::new();
                let v = run::eval_variables(
                    &[(String::new(), d.clone())],
                    globals,
                    &BTreeMap::new(),
                    &sources,
                    &g.dir,
                    &mut ds,
                );
                file_diags.extend(ds);
                if let Some((v, _)) = v.into_values().next() {
                    mock_values.insert(config::mock_key(m, t), v);
                }
            }
        }
    }
    // Overrides: each target gets a mocked configuration of its provider, by alias.
    let mut targets: Vec<String> = Vec::new();
    let all_overrides = f
        .overrides
        .iter()
        .chain(f.mocks.iter().flat_map(|m| m.overrides.iter()))
        .chain(f.runs.iter().flat_map(|r| r.overrides.iter()));
    for o in all_overrides {
        // Module calls are overridden by a module of fixed outputs, and targets in child
        // modules or naming one instance by a provider of their own, not an alias.
        if o.kind != file::OverrideKind::Module
            && nested_target(&o.target.text).is_none()
            && !targets.contains(&o.target.text)
        {
            targets.push(o.target.text.clone());
        }
    }
    let aliases: Vec<(String, String)> = targets
        .iter()
        .enumerate()
        .map(|(i, t)| (override_provider(t), run::override_alias(i)))
        .collect();
    let mut active_file: Vec<run::ActiveOverride> = Vec::new();
    let mock_overrides = f
        .mocks
        .iter()
        .flat_map(|m| m.overrides.iter().map(move |o| (o, o.during.or(m.during))));
    let file_overrides = f.overrides.iter().map(|o| (o, o.during));
    for (o, during) in mock_overrides.chain(file_overrides) {
        let a = active_override(
            o,
            during,
            &targets,
            globals,
            &sources,
            &g.dir,
            &mut file_diags,
        );
        active_file.retain(|x| x.text != a.text);
        active_file.push(a);
    }
    file_diags.extend(variables::undefined_references(
        f.variables.iter().map(|(_, e)| e),
        f,
        globals,
    ));
    // As Terraform 1.13 configures the file's providers, their references warn too.
    file_diags.extend(variables::undefined_references(
        f.providers.iter().flat_map(|p| p.body.exprs()),
        f,
        globals,
    ));
    let file_errors = file_diags.iter().any(Diagnostic::is_error);
    file_diags.extend(declared_diags);
    if !file_diags.is_empty() {
        reporter.diagnostics(io, &f.name, None, &file_diags, &sources);
    }
    let mut slots: Vec<run::StateSlot> = Vec::new();
    let mut outputs: BTreeMap<String, Value> = BTreeMap::new();
    let mut stop = skip_all || file_errors;
    let mut variable_errors = !failed_globals.is_empty();
    let file_scratch = scratch.join(format!("{}", f.file.0));
    let _ = std::fs::create_dir_all(&file_scratch);
    let mut next = 0;
    while next < f.runs.len() {
        // Runs marked `parallel` that follow each other, work on different states and do not
        // refer to each other run at the same time (Terraform 1.9+); the others one by one.
        let batch = parallel_batch(f, next, parallelism);
        next += batch.len();
        if !stop && crate::interrupt::interrupt().stop_requested() {
            stop = true;
        }
        if stop {
            for &i in &batch {
                let rr = RunResult {
                    name: f.runs[i].name.clone(),
                    status: Status::Skip,
                    diags: Vec::new(),
                    elapsed_ms: 0,
                };
                reporter.run_done(io, &f.name, &rr, None, &sources);
                result.runs.push(rr);
            }
            continue;
        }
        let mut prepared = Vec::new();
        for &i in &batch {
            let r = &f.runs[i];
            reporter.run_starting(io, &f.name, &r.name);
            let mut active = active_file.clone();
            let mut run_diags = Vec::new();
            for o in &r.overrides {
                let a = active_override(
                    o,
                    o.during,
                    &targets,
                    globals,
                    &sources,
                    &g.dir,
                    &mut run_diags,
                );
                active.retain(|x| x.text != a.text);
                active.push(a);
            }
            // The run's state, taken out while it runs.
            let key = run::state_key_of(r);
            let own: Vec<run::StateSlot> = match slots.iter().position(|s| s.key == key) {
                Some(p) => vec![slots.remove(p)],
                None => Vec::new(),
            };
            prepared.push((r, active, run_diags, own));
        }
        let file_ref: &TestFile = f;
        let outputs_ref = &outputs;
        let mock_values_ref = &mock_values;
        let aliases_ref = &aliases;
        let sources_ref = &sources;
        let scratch_ref = &file_scratch;
        let verbose = reporter.verbose;
        let one = |(r, active, run_diags, mut own): (
            &file::Run,
            Vec<run::ActiveOverride>,
            Vec<Diagnostic>,
            Vec<run::StateSlot>,
        )| {
            let t0 = Instant::now();
            let ctx = run::RunCtx {
                root: &g.dir,
                file: file_ref,
                cli_vars,
                external,
                globals,
                failed_globals: &failed_globals,
                runs: outputs_ref,
                parallelism,
                scratch: scratch_ref,
                mocks: &file_ref.mocks,
                verbose,
                overrides: &active,
                aliases: aliases_ref,
            };
            let outcome = if run_diags.iter().any(Diagnostic::is_error) {
                run::RunOutcome {
                    status: Status::Error,
                    diags: run_diags,
                    outputs: None,
                    sources: sources_ref.clone(),
                    verbose: None,
                }
            } else {
                run::execute(&ctx, r, &mut own, mock_values_ref)
            };
            (outcome, own, t0.elapsed().as_millis())
        };
        let finished: Vec<(run::RunOutcome, Vec<run::StateSlot>, u128)> = if prepared.len() == 1 {
            prepared.into_iter().map(one).collect()
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = prepared
                    .into_iter()
                    .map(|p| scope.spawn(|| one(p)))
                    .collect();
                handles
                    .into_iter()
                    .map(|h| {
                        h.join().unwrap_or_else(|_| {
                            let d = Diagnostic::error(
                                "test-run-panicked",
                                "Run block failed unexpectedly",
                            )
                            .with_detail("The run stopped with an internal error (a ferro bug).");
                            (
                                run::RunOutcome {
                                    status: Status::Error,
                                    diags: vec![d],
                                    outputs: None,
                                    sources: Vec::new(),
                                    verbose: None,
                                },
                                Vec::new(),
                                0,
                            )
                        })
                    })
                    .collect()
            })
        };
        for (&i, (mut outcome, own, elapsed_ms)) in batch.iter().zip(finished) {
            let r = &f.runs[i];
            slots.extend(own);
            outcome.sources.extend(mock_files.iter().cloned());
            if let Some(o) = outcome.outputs.take() {
                outputs.insert(r.name.clone(), o);
            }
            let rr = RunResult {
                name: r.name.clone(),
                status: outcome.status,
                diags: outcome.diags,
                elapsed_ms,
            };
            reporter.run_done(io, &f.name, &rr, outcome.verbose.as_ref(), &outcome.sources);
            if rr.status == Status::Error {
                // As Terraform 1.6–1.10: an error stops the file; the rest is skipped.
                stop = true;
            }
            if rr.status == Status::Skip {
                // Skipped for a variable that failed (Terraform 1.13): the file fails, and the
                // runs after it, which come after a run that did not complete, are skipped.
                stop = true;
                variable_errors = true;
            }
            result.runs.push(rr);
        }
    }
    // Terraform 1.13 evaluates every file-level variable, needed or not: a failure no run
    // reported is reported with the file, which fails.
    if !skip_all && !file_errors {
        let reported: HashSet<&Diagnostic> =
            result.runs.iter().flat_map(|r| r.diags.iter()).collect();
        let unreported: Vec<Diagnostic> = variables::final_failures(
            &f.variables,
            (globals, &failed_globals),
            &outputs,
            &f.runs,
            &sources,
            &g.dir,
        )
        .into_iter()
        .filter(|d| !reported.contains(d))
        .collect();
        if !unreported.is_empty() {
            variable_errors |= unreported.iter().any(Diagnostic::is_error);
            reporter.diagnostics(io, &f.name, None, &unreported, &sources);
        }
    }
    reporter.file_teardown(io, &f.name);
    let mut teardown_failed = false;
    for slot in slots.iter().rev() {
        let (left, diags, src) = run::destroy(
            &g.dir,
            f,
            slot,
            &f.mocks,
            &mock_values,
            &aliases,
            parallelism,
        );
        let mut all_sources = sources.clone();
        all_sources.extend(src);
        let leftover = left.as_ref().map(leftover_objects).unwrap_or_default();
        if diags.iter().any(Diagnostic::is_error) || !leftover.is_empty() {
            teardown_failed = true;
        }
        let identifier = match &slot.source {
            Some(_) => format!("{}/{}", f.name, slot.run),
            None => f.name.clone(),
        };
        reporter.destroy_summary(io, &f.name, &identifier, &diags, &leftover, &all_sources);
    }
    let _ = std::fs::remove_dir_all(&file_scratch);
    result.status = result
        .runs
        .iter()
        .map(|r| r.status)
        .max()
        .unwrap_or(Status::Pending);
    // A file a Ctrl-C cut short has not passed, whatever its runs say.
    let interrupted = crate::interrupt::interrupt().stop_requested()
        && result.runs.iter().any(|r| r.status == Status::Skip);
    if file_errors || teardown_failed || interrupted || variable_errors {
        result.status = Status::Error;
    }
    reporter.file_done(io, &f.name, result.status);
    result
}

/// The runs starting at `first` that run together: `first` alone unless it is marked
/// `parallel`, then the `parallel` runs after it, up to `limit`, as long as each works on a
/// state of its own and refers to none of the others.
fn parallel_batch(f: &TestFile, first: usize, limit: usize) -> Vec<usize> {
    let mut batch = vec![first];
    if !f.runs[first].parallel {
        return batch;
    }
    let mut keys = vec![run::state_key_of(&f.runs[first])];
    for (i, r) in f.runs.iter().enumerate().skip(first + 1) {
        if !r.parallel || batch.len() >= limit.max(1) {
            break;
        }
        let key = run::state_key_of(r);
        let refers = batch.iter().any(|&b| refers_to(f, r, &f.runs[b].name));
        if keys.contains(&key) || refers {
            break;
        }
        keys.push(key);
        batch.push(i);
    }
    batch
}

/// Whether a run's expressions mention `run.NAME`.
fn refers_to(f: &TestFile, r: &file::Run, name: &str) -> bool {
    let needle = format!("run.{name}");
    let text_of = |span: ferro_diag::Span| {
        f.text
            .get(span.start as usize..span.end as usize)
            .unwrap_or_default()
    };
    r.variables
        .iter()
        .any(|(_, e)| text_of(e.span).contains(&needle))
        || r.asserts.iter().any(|a| {
            text_of(a.condition.span).contains(&needle)
                || a.error_message
                    .as_ref()
                    .is_some_and(|m| text_of(m.span).contains(&needle))
        })
}

/// The provider local name of an override target (`aws_instance.a` → `aws`).
fn override_provider(target: &str) -> String {
    let ty = target.strip_prefix("data.").unwrap_or(target);
    let ty = ty.split('.').next().unwrap_or(ty);
    ty.split('_').next().unwrap_or(ty).to_string()
}

/// A resource or data source target inside a child module or naming one instance
/// (`module.a.x.y`, `x.y[0]`), parsed; None for a whole resource of the module under test.
fn nested_target(text: &str) -> Option<(ferro_addrs::Target, ferro_addrs::Resource)> {
    match ferro_addrs::parse_target(text).ok()? {
        ferro_addrs::Target::Instance(i) => {
            let r = i.resource.resource.clone();
            Some((ferro_addrs::Target::Instance(i), r))
        }
        ferro_addrs::Target::Resource(r) if !r.module.0.is_empty() => {
            let res = r.resource.clone();
            Some((ferro_addrs::Target::Resource(r), res))
        }
        _ => None,
    }
}

/// An override block as it applies to a run: its target's configuration and its values.
fn active_override(
    o: &file::Override,
    during: Option<file::OverrideDuring>,
    targets: &[String],
    globals: &BTreeMap<String, Value>,
    sources: &[(FileId, String, String)],
    dir: &Path,
    diags: &mut Vec<Diagnostic>,
) -> run::ActiveOverride {
    let text = o.target.text.as_str();
    let module = o.kind == file::OverrideKind::Module;
    if let Some((target, r)) = nested_target(text).filter(|_| !module) {
        let values = override_values(o, globals, sources, dir, diags);
        return run::ActiveOverride {
            text: text.to_string(),
            module: false,
            data: r.mode == ferro_addrs::ResourceMode::Data,
            ty: r.ty.to_string(),
            name: r.name.to_string(),
            provider: override_provider(&r.ty),
            alias: String::new(),
            values,
            at_plan: during == Some(file::OverrideDuring::Plan),
            instance: Some(target),
        };
    }
    let data = text.starts_with("data.");
    let rest = text
        .strip_prefix("data.")
        .or_else(|| text.strip_prefix("module."))
        .unwrap_or(text);
    let (ty, name) = if module {
        ("", rest)
    } else {
        rest.split_once('.').unwrap_or((rest, ""))
    };
    let values = override_values(o, globals, sources, dir, diags);
    let index = targets.iter().position(|t| t == text).unwrap_or(0);
    run::ActiveOverride {
        text: text.to_string(),
        module,
        data,
        ty: ty.to_string(),
        name: name.to_string(),
        provider: override_provider(text),
        alias: run::override_alias(index),
        values,
        at_plan: during == Some(file::OverrideDuring::Plan),
        instance: None,
    }
}

/// An override's `values` (or `outputs`), evaluated in the test file's scope.
fn override_values(
    o: &file::Override,
    globals: &BTreeMap<String, Value>,
    sources: &[(FileId, String, String)],
    dir: &Path,
    diags: &mut Vec<Diagnostic>,
) -> Option<Value> {
    o.values.as_ref().and_then(|e| {
        run::eval_variables(
            &[(String::new(), e.clone())],
            globals,
            &BTreeMap::new(),
            sources,
            dir,
            diags,
        )
        .into_values()
        .next()
        .map(|(v, _)| v)
    })
}

/// The managed objects left in a state (each current object, and deposed ones with their key).
fn leftover_objects(state: &ferro_state::State) -> Vec<String> {
    let mut out = Vec::new();
    for rs in state.resources.values() {
        if rs.addr.resource.mode != ferro_addrs::ResourceMode::Managed {
            continue;
        }
        for (key, inst) in &rs.instances {
            let addr = ferro_addrs::AbsResourceInstance {
                module: rs.addr.module.clone(),
                resource: ferro_addrs::ResourceInstance {
                    resource: rs.addr.resource.clone(),
                    key: key.clone(),
                },
            };
            if inst.current.is_some() {
                out.push(addr.to_string());
            }
            for (dk, _) in &inst.deposed {
                out.push(format!("{addr} ({dk})"));
            }
        }
    }
    out
}
