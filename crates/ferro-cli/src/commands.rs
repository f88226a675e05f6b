//! The commands: validate, plan, apply/destroy (`show` and `import` have their own files).

use crate::load::{attach_providers, collect_variables, config_diagnostics, load_dir, Loaded};
use crate::ui::{plain_error, print_diags, print_warnings, var_args};
use crate::{args, render, spec, Global, Io};
use ferro_diag::{has_errors, Diagnostic};
use ferro_exec::{ApplyInput, Event};
use ferro_plan::{read_plan_file_from, write_plan_file_to, Action, Plan};
use ferro_planner::{PlanInput, PlanOptions, Providers};
use ferro_provider::ProviderRegistry;
use ferro_state::{Backend, State};
use std::io::BufRead;
use std::sync::Mutex;

pub fn validate(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match spec::core::VALIDATE.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    // As Terraform 1.0.3's, validate takes the directory to check as an optional argument
    // (providers still come from the working directory's .terraform).
    let dir = match p.positional.as_slice() {
        [] => g.dir.clone(),
        [d] if g.dir.join(d).is_dir() => g.dir.join(d),
        [d] => {
            return plain_error(
                io,
                "Failed to read module directory",
                &format!("Module directory {d} does not exist or cannot be read."),
            )
        }
        _ => {
            return plain_error(
                io,
                "Too many command line arguments",
                "Expected at most one positional argument.",
            )
        }
    };
    let mut l = match load_dir(&dir) {
        Ok(l) => l,
        Err(e) if p.flag("json") => {
            let d =
                ferro_diag::Diagnostic::error("cli", "Failed to read configuration").with_detail(e);
            let _ = io.stdout.write_all(
                crate::validate_json::render(&[d], &ferro_db::Sources::from_files(Vec::new()))
                    .as_bytes(),
            );
            return 1;
        }
        Err(e) => return plain_error(io, "Failed to read configuration", &e),
    };
    let registry = ProviderRegistry::for_working_dir(&g.dir);
    let (_, mut diags) = attach_providers(&mut l, &registry, None);
    config_diagnostics(&l, &mut diags);
    if p.flag("json") {
        let doc = crate::validate_json::render(&diags, &l.sources());
        let _ = io.stdout.write_all(doc.as_bytes());
        return i32::from(has_errors(&diags));
    }
    print_diags(io, &diags, &l.sources(), g.color);
    if has_errors(&diags) {
        return 1;
    }
    if diags.is_empty() {
        let _ = writeln!(io.stdout, "Success! The configuration is valid.");
    } else {
        let _ = writeln!(
            io.stdout,
            "\nSuccess! The configuration is valid, but there were some validation warnings\nas shown above."
        );
    }
    0
}

pub(crate) struct Planned {
    /// Warnings of loading and planning, shown when the command has done its work.
    pub warnings: Vec<Diagnostic>,
    pub loaded: Loaded,
    pub providers: Providers,
    pub plan: Plan,
    pub registry: ProviderRegistry,
    /// Where `plan -generate-config-out` wrote configuration, when it wrote any.
    pub generated_out: Option<String>,
}

/// `-parallelism` (Terraform's default, 10, when not given).
/// `-parallelism`, as Terraform reads it: 10 when absent or 0, an error when negative or not
/// a whole number.
fn parallelism_arg(p: &args::Parsed, io: &mut Io<'_>) -> Result<usize, i32> {
    let Some(text) = p.value("parallelism") else {
        return Ok(10);
    };
    match text.parse::<i64>() {
        Ok(0) => Ok(10),
        Ok(n) if n > 0 => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        Ok(n) => Err(plain_error(
            io,
            "Invalid parallelism value",
            &format!("The parallelism must be a positive value. Not {n}."),
        )),
        Err(_) => Err(plain_error(
            io,
            "Failed to parse command-line flags",
            &format!("invalid value {text:?} for flag -parallelism: parse error"),
        )),
    }
}

/// Plan for a command. `discard_noops`: the plan is only shown (see
/// [`PlanOptions::discard_noops`]).
pub(crate) fn make_plan(
    g: &Global,
    a: &[String],
    p: &args::Parsed,
    destroy: bool,
    discard_noops: bool,
    state: Option<State>,
    io: &mut Io<'_>,
) -> Result<Planned, i32> {
    let generate = p.value("generate-config-out").map(|out| g.dir.join(out));
    make_plan_generating(g, a, p, destroy, discard_noops, state, io, generate)
}

/// [`make_plan`]; with `generate` (`plan -generate-config-out`), the targets of import blocks
/// the configuration does not declare are imported first, their configuration is written
/// there, and the plan is made with it.
#[allow(clippy::too_many_arguments)]
fn make_plan_generating(
    g: &Global,
    a: &[String],
    p: &args::Parsed,
    destroy: bool,
    discard_noops: bool,
    state: Option<State>,
    io: &mut Io<'_>,
    generate: Option<std::path::PathBuf>,
) -> Result<Planned, i32> {
    let parallelism = parallelism_arg(p, io)?;
    let mut l = match load_dir(&g.dir) {
        Ok(l) => l,
        Err(e) => return Err(plain_error(io, "Failed to read configuration", &e)),
    };
    let mut state = state;
    if let Some(s) = state.as_mut() {
        crate::load::adopt_default_registry(&l, s);
    }
    let registry = ProviderRegistry::for_working_dir(&g.dir);
    let (mut providers, mut diags) = attach_providers(&mut l, &registry, state.as_ref());
    config_diagnostics(&l, &mut diags);
    let mut vars = collect_variables(&mut l, &g.dir, &var_args(a), &mut diags);
    deprecated_root_variables(&l, &vars, &mut diags);
    // Required root variables without a value are asked for on a terminal (not with
    // -input=false or -json, and never when the caller supplies standard input).
    use std::io::IsTerminal;
    if !has_errors(&diags)
        && crate::env::input_enabled(p)
        && !crate::json_ui::active()
        && io.stdin.is_none()
        && std::io::stdin().is_terminal()
    {
        let mut input = std::io::stdin().lock();
        crate::load::prompt_for_variables(&mut l, &mut vars, io.stdout, &mut input, &mut diags);
    }
    // Provider configurations with for_each: their keys are known now, before planning.
    if !has_errors(&diags) {
        diags.extend(crate::provider_for_each::start_provider_instances(
            &l,
            &vars,
            &g.dir,
            &registry,
            &mut providers,
        ));
    }
    if has_errors(&diags) {
        print_diags(io, &diags, &l.sources(), g.color);
        return Err(1);
    }
    let mut replace = Vec::new();
    for r in p.all("replace") {
        match ferro_addrs::parse_resource_instance(r) {
            Ok(addr) => replace.push(addr),
            Err(e) => return Err(plain_error(io, "Invalid replace address", &e)),
        }
    }
    let refresh = p.bools.get("refresh").copied().unwrap_or(true);
    let refresh_only = p.flag("refresh-only");
    let destroy = destroy || p.flag("destroy");
    if refresh_only && destroy {
        return Err(plain_error(
            io,
            "Incompatible plan mode options",
            "The -destroy and -refresh-only options are mutually-exclusive.",
        ));
    }
    let minimal_refresh = p.flag("minimal-refresh");
    if refresh_only && minimal_refresh {
        return Err(plain_error(io, "Incompatible refresh options", "The -refresh-only and -minimal-refresh options are mutually-exclusive: a refresh-only plan reads every object."));
    }
    if refresh_only && !refresh {
        return Err(plain_error(io, "Incompatible refresh options", "It doesn't make sense to use -refresh-only at the same time as -refresh=false, because ferro would have nothing to do."));
    }
    if (refresh_only || destroy) && !replace.is_empty() {
        return Err(plain_error(io, "Unsupported plan mode", "Forcing resource instance replacement (with -replace=...) is allowed only in normal planning mode."));
    }
    let (mut targets, mut excludes) = match (
        parse_targets(p.all("target")),
        parse_targets(p.all("exclude")),
    ) {
        (Ok(t), Ok(e)) => (t, e),
        (Err((addr, e)), _) | (_, Err((addr, e))) => {
            return Err(plain_error(io, &format!("Invalid target {addr:?}"), &e));
        }
    };
    // OpenTofu's -target-file and -exclude-file add to -target and -exclude.
    let mut file_diags = Vec::new();
    let from_files = crate::target_file::read_target_files(
        &mut l,
        &g.dir,
        p.all("target-file"),
        &mut file_diags,
    );
    targets.extend(from_files);
    let from_files = crate::target_file::read_target_files(
        &mut l,
        &g.dir,
        p.all("exclude-file"),
        &mut file_diags,
    );
    excludes.extend(from_files);
    if has_errors(&file_diags) {
        print_diags(io, &file_diags, &l.sources(), g.color);
        return Err(1);
    }
    if !targets.is_empty() && !excludes.is_empty() {
        return Err(plain_error(
            io,
            "Invalid combination of arguments",
            "The -target and -exclude options cannot be used together: use one or the other.",
        ));
    }
    if !targets.is_empty() {
        diags.push(targeting_warning("target"));
    }
    if !excludes.is_empty() {
        diags.push(targeting_warning("exclude"));
    }
    let json = crate::json_ui::active();
    let out = Mutex::new(&mut *io.stdout);
    // Terraform's "Refreshing state..." lines (in the JSON UI, refresh_start and
    // refresh_complete messages).
    let on_refresh = |n: ferro_planner::RefreshNotice<'_>| {
        let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
        if json {
            crate::json_ui::refresh(&mut **o, n.addr, n.id);
        } else {
            let _ = writeln!(o, "{}: Refreshing state...{}", n.addr, id_suffix(n.id));
        }
    };
    // Terraform's lines for ephemeral resources (`ephemeral.T.N: Opening...`), in the JSON UI
    // its `ephemeral_op_*` messages.
    let on_ephemeral = |e: ferro_exec::EphemeralEvent| {
        let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
        if json {
            crate::json_ui::ephemeral(&mut **o, &e);
        } else if let Some(line) = e.human_line() {
            let _ = writeln!(o, "{line}");
        }
    };
    let sink = generate
        .is_some()
        .then(ferro_planner::GeneratedImports::default);
    let state_copy = if generate.is_some() {
        state.clone()
    } else {
        None
    };
    let input = PlanInput {
        db: &l.db,
        ws: l.ws,
        files: l.files.clone(),
        state,
        variables: vars,
        providers: &providers,
        options: PlanOptions {
            destroy,
            refresh,
            refresh_only,
            minimal_refresh,
            replace,
            targets,
            excludes,
            parallelism,
            discard_noops,
            generate_config: sink.clone(),
            allow_deferral: p.flag("allow-deferral") && !destroy,
        },
        cwd: g.dir.display().to_string(),
        on_refresh: Some(&on_refresh),
        on_ephemeral: Some(&on_ephemeral),
    };
    let (plan, pdiags) = ferro_planner::plan(input);
    diags.extend(pdiags);
    let generated = sink
        .map(|s| std::mem::take(&mut *s.lock().unwrap_or_else(|e| e.into_inner())))
        .unwrap_or_default();
    if let (Some(path), false) = (&generate, generated.is_empty()) {
        if has_errors(&diags) {
            print_diags(io, &diags, &l.sources(), g.color);
            return Err(1);
        }
        let blocks: Vec<_> = generated
            .into_iter()
            .map(|g| {
                let text = crate::genconfig::resource_block(&g);
                (g, text)
            })
            .collect();
        if let Err(e) = crate::genconfig::write_file(path, &blocks) {
            return Err(plain_error(
                io,
                "Failed to create target generated file",
                &format!(
                    "ferro could not create the generated file ({}) in the target directory: {e}.",
                    path.display()
                ),
            ));
        }
        // The plan, made with the configuration now written (which imports the objects again).
        let mut planned =
            make_plan_generating(g, a, p, destroy, discard_noops, state_copy, io, None)?;
        planned.plan.generated_config =
            blocks.into_iter().map(|(g, text)| (g.addr, text)).collect();
        planned.generated_out = p.value("generate-config-out").map(str::to_string);
        return Ok(planned);
    }
    if plan.is_none() || has_errors(&diags) {
        print_diags(io, &diags, &l.sources(), g.color);
    }
    match plan {
        Some(plan) if !has_errors(&diags) => Ok(Planned {
            warnings: diags,
            loaded: l,
            providers,
            plan,
            registry,
            generated_out: None,
        }),
        _ => Err(1),
    }
}

pub(crate) use ferro_render::id_suffix;

/// The root variables for applying a saved plan that has ephemeral ones: the plan's values,
/// and the ephemeral variables' from the command line, the variable files and the
/// environment (or their defaults), converted and checked as a plan's are.
fn apply_time_variables(
    l: &mut crate::load::Loaded,
    dir: &std::path::Path,
    given: &[(bool, String)],
    plan: &Plan,
    diags: &mut Vec<Diagnostic>,
) -> std::collections::BTreeMap<String, ferro_value::Value> {
    let collected = crate::load::collect_variables(l, dir, given, diags);
    let mut raw: std::collections::BTreeMap<String, ferro_planner::RawVariable> = plan
        .variables
        .iter()
        .map(|(name, value)| {
            let rv = ferro_planner::RawVariable {
                value: value.deep_unmark().0,
                origin: "the saved plan".to_string(),
                source: ferro_planner::VariableSource::Internal,
                span: None,
            };
            (name.clone(), rv)
        })
        .collect();
    for (name, rv) in collected {
        if plan.ephemeral_variables.contains(&name) {
            raw.insert(name, rv);
        }
    }
    let (values, ds) = ferro_planner::prepare_variables(&l.db, l.ws, &raw);
    diags.extend(ds);
    values
}

/// OpenTofu's warning for each root variable marked `deprecated` that the user gave a value
/// (command line, variable files, environment), at its declaration.
fn deprecated_root_variables(
    l: &crate::load::Loaded,
    vars: &std::collections::BTreeMap<String, ferro_planner::RawVariable>,
    diags: &mut Vec<Diagnostic>,
) {
    let index = ferro_db::module_index(&l.db, l.ws.root(&l.db));
    for name in vars.keys() {
        let Some(item) = index.variables.get(name) else {
            continue;
        };
        let hir = ferro_db::file_hir(&l.db, item.file);
        let var = &hir.variables[item.index];
        if let Some(msg) = &var.deprecated {
            diags.push(
                Diagnostic::warning(
                    "deprecated-variable",
                    "Deprecated variable used from the root module",
                )
                .with_detail(format!(
                    "The root variable {name:?} is deprecated with the following message: {msg}"
                ))
                .with_span(hir.at(var.span)),
            );
        }
    }
}

/// `-target`/`-exclude` addresses; an invalid one is returned with the reason.
fn parse_targets(raw: &[String]) -> Result<Vec<ferro_addrs::Target>, (String, String)> {
    raw.iter()
        .map(|t| {
            ferro_addrs::parse_target(t).map_err(|_| {
                let detail = if t.contains('[') {
                    "Index brackets must contain either a literal number or a literal string."
                } else {
                    "Resource specification must include a resource type and name."
                };
                (t.clone(), detail.to_string())
            })
        })
        .collect()
}

/// The managed resources of a state as state JSON text (empty when there are none): what a
/// refresh-only plan compares before and after refreshing, as Terraform compares them.
fn managed_resources_text(s: Option<&State>) -> String {
    let Some(s) = s else {
        return String::new();
    };
    let mut only = State::new(String::new());
    only.resources = s
        .resources
        .iter()
        .filter(|(a, _)| a.resource.mode == ferro_addrs::ResourceMode::Managed)
        .map(|(a, r)| (a.clone(), r.clone()))
        .collect();
    if only.resources.is_empty() {
        return String::new();
    }
    ferro_state::write_state(&only)
}

/// Terraform's warning for a plan that covers only part of the configuration (`-target`, or
/// OpenTofu's `-exclude`). The tabs on its blank line are Terraform 1.0.3's too: clients of
/// the JSON UI see the same detail.
fn targeting_warning(flag: &str) -> Diagnostic {
    let summary = if flag == "target" {
        "Resource targeting is in effect"
    } else {
        "Resource exclusion is in effect"
    };
    Diagnostic::warning("resource-targeting", summary).with_detail(format!("You are creating a plan with the -{flag} option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\t\t\nThe -{flag} option is not for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when ferro specifically suggests to use it as part of an error message."))
}

/// Terraform's warning after applying a plan made with `-target` (or `-exclude`).
fn applied_targeting_warning(flag: &str) -> Diagnostic {
    Diagnostic::warning("resource-targeting", "Applied changes may be incomplete").with_detail(format!("The plan was created with the -{flag} option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    ferro plan\n\t\nNote that the -{flag} option is not suitable for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when ferro specifically suggests to use it as part of an error message."))
}

pub fn plan(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match spec::core::PLAN.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    let _json = p.flag("json").then(|| {
        let ui = crate::json_ui::enable();
        crate::json_ui::version(io.stdout);
        ui
    });
    if !p.positional.is_empty() {
        return plain_error(io, "Too many command line arguments", "The plan command expects no positional arguments; to use a different configuration directory, use -chdir.");
    }
    let (mut backend, display) = match crate::backend::open(g, &p, io) {
        Ok(b) => b,
        Err(code) => return code,
    };
    if let Err(code) =
        crate::cmd_lock::take(backend.as_mut(), &p, "OperationTypePlan", &display, io)
    {
        return code;
    }
    let state = match backend.load() {
        Ok(s) => s,
        Err(e) => return plain_error(io, "Failed to load state", &e.to_string()),
    };
    // A refresh-only plan can be applied when refreshing changed a managed object (drift, or
    // only its private data): what Terraform compares to decide whether to close the plan
    // with what to do next.
    let before_refresh = p
        .flag("refresh-only")
        .then(|| managed_resources_text(state.as_ref()));
    // A plan that is not saved is only shown: it need not hold its no-ops.
    let discard_noops = p.value("out").is_none();
    let mut planned = match make_plan(g, a, &p, false, discard_noops, state, io) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if crate::json_ui::active() {
        crate::json_ui::planned_changes(io.stdout, &planned.plan);
        crate::json_ui::deferred_changes(io.stdout, &planned.plan);
        crate::json_ui::change_summary(io.stdout, "plan", planned.plan.counts());
    } else {
        let _ = render::write_human_plan(&planned.plan, &planned.providers, g.color, io.stdout);
    }
    if !planned.warnings.is_empty() {
        if !crate::json_ui::active() {
            let _ = writeln!(io.stdout);
        }
        let sources = planned.loaded.sources();
        print_warnings(io, &planned.warnings, &sources, g.color);
    }
    if let Some(out) = p.value("out") {
        let path = g.dir.join(out);
        // The schemas the plan's objects need, so that showing it needs no provider.
        planned.plan.schemas = crate::stored_schemas::for_plan(&planned.plan, &planned.providers);
        let encryption = match crate::encryption::for_plan(g, io) {
            Ok(e) => e,
            Err(code) => return code,
        };
        let written = match encryption {
            // Encrypted whole, then written: nothing of the plan reaches the disk in clear.
            Some(enc) => ferro_plan::write_encrypted_plan_file(&planned.plan, &enc)
                .map_err(|e| e.to_string())
                .and_then(|bytes| std::fs::write(&path, bytes).map_err(|e| e.to_string())),
            None => std::fs::File::create(&path)
                .map_err(|e| e.to_string())
                .and_then(|f| {
                    let mut w = std::io::BufWriter::with_capacity(1 << 16, f);
                    write_plan_file_to(&planned.plan, &mut w).map_err(|e| e.to_string())
                }),
        };
        if let Err(e) = written {
            return plain_error(
                io,
                "Failed to write plan file",
                &format!("The plan file {out} could not be written: {e}."),
            );
        }
    }
    // As Terraform's, the closing lines say what was saved, or that nothing was, when there
    // is something to apply (a refresh-only plan always has); not in automation.
    let refreshed_changes = before_refresh
        .is_some_and(|b| b != managed_resources_text(Some(&planned.plan.prior_state)));
    let closing = !crate::json_ui::active()
        && !crate::env::in_automation()
        && (!planned.plan.is_empty() || !planned.plan.is_complete() || refreshed_changes);
    if closing {
        let _ = write!(
            io.stdout,
            "\n─────────────────────────────────────────────────────────────────────────────\n\n"
        );
        if let Some(path) = &planned.generated_out {
            let text = format!("ferro has generated configuration and written it to {path}. Please review the configuration and edit it as necessary before adding it to version control.");
            let _ = write!(io.stdout, "{}\n\n", ferro_render::word_wrap(&text, 78));
        }
        match p.value("out") {
            Some(out) => {
                let _ = write!(io.stdout, "Saved the plan to: {out}\n\nTo perform exactly these actions, run the following command to apply:\n    ferro apply \"{out}\"\n");
            }
            None => {
                let _ = write!(
                    io.stdout,
                    "Note: You didn't use the -out option to save this plan, so ferro can't\nguarantee to take exactly these actions if you run \"ferro apply\" now.\n"
                );
            }
        }
    }
    planned.registry.close_all();
    // A partial plan has more to do (a later plan and apply): 2, as for changes.
    if p.flag("detailed-exitcode") && (!planned.plan.is_empty() || !planned.plan.is_complete()) {
        2
    } else {
        0
    }
}

fn confirm(io: &mut Io<'_>, destroy: bool) -> bool {
    let text = if destroy {
        "\nDo you really want to destroy all resources?\n  ferro will destroy all your managed infrastructure, as shown above.\n  There is no undo. Only 'yes' will be accepted to confirm.\n\n  Enter a value: "
    } else {
        "\nDo you want to perform these actions?\n  ferro will perform the actions described above.\n  Only 'yes' will be accepted to approve.\n\n  Enter a value: "
    };
    let _ = io.stdout.write_all(text.as_bytes());
    let _ = io.stdout.flush();
    let mut line = String::new();
    match io.stdin.as_mut() {
        Some(input) => {
            let _ = input.read_line(&mut line);
        }
        None => {
            let _ = std::io::stdin().lock().read_line(&mut line);
        }
    }
    let _ = writeln!(io.stdout);
    line.trim() == "yes"
}

pub fn apply(g: &Global, a: &[String], io: &mut Io<'_>, destroy: bool) -> i32 {
    let spec = if destroy {
        &spec::core::DESTROY
    } else {
        &spec::core::APPLY
    };
    let p = match spec.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    let _json = p.flag("json").then(|| {
        let ui = crate::json_ui::enable();
        crate::json_ui::version(io.stdout);
        ui
    });
    if p.flag("json") && p.positional.is_empty() && !p.flag("auto-approve") {
        return plain_error(
            io,
            "Plan file or auto-approve required",
            "ferro cannot ask for interactive approval when -json is set. You can either apply a saved plan file, or enable the -auto-approve option.",
        );
    }
    let parallelism = match parallelism_arg(&p, io) {
        Ok(n) => n,
        Err(code) => return code,
    };
    let (mut backend, display) = match crate::backend::open(g, &p, io) {
        Ok(b) => b,
        Err(code) => return code,
    };
    backend.set_errored_dir(g.dir.clone());
    if let Err(code) =
        crate::cmd_lock::take(backend.as_mut(), &p, "OperationTypeApply", &display, io)
    {
        return code;
    }
    let current = match backend.load() {
        Ok(s) => s,
        Err(e) => return plain_error(io, "Failed to load state", &e.to_string()),
    };
    let mut planned = if let Some(file) = p.positional.first() {
        if p.flag("converge") || p.flag("allow-deferral") {
            return plain_error(io, "Invalid arguments", "The -allow-deferral and -converge options plan: a saved plan is applied as it is (its deferred changes wait for the next plan).");
        }
        if destroy {
            return plain_error(io, "Invalid arguments", "The destroy command does not take a plan file; use ferro plan -destroy -out=FILE and ferro apply FILE.");
        }
        if p.positional.len() > 1 {
            return plain_error(
                io,
                "Too many command line arguments",
                "Expected at most one positional argument: the plan file.",
            );
        }
        // Terraform 1.0.3's summary names the file.
        let failed = format!("Failed to load {file:?} as a plan file");
        let encryption = match crate::encryption::for_plan(g, io) {
            Ok(e) => e,
            Err(code) => return code,
        };
        let plan = match read_plan_path(&g.dir.join(file), encryption.as_deref()) {
            Ok(p) => p,
            Err(e) => return plain_error(io, &failed, &format!("Could not read {file}: {e}.")),
        };
        if plan_is_stale(&plan, current.as_ref()) {
            return stale_plan_error(io);
        }
        // Only its identity was needed: the plan holds the state it was made against (the same
        // one, as it is not stale), and two copies of a big state would double what this holds.
        drop(current);
        let mut plan = plan;
        let mut l = crate::load::load_plan_config(&plan, &g.dir);
        // -var and -var-file set only the ephemeral variables, which the plan does not keep.
        let given = var_args(a);
        if let Some((_, text)) = given.iter().find(|(file, text)| {
            !*file
                && !plan.ephemeral_variables.iter().any(|n| {
                    text.split_once('=')
                        .is_some_and(|(name, _)| name.trim() == n)
                })
        }) {
            let name = text
                .split_once('=')
                .map_or(text.as_str(), |(n, _)| n.trim());
            return plain_error(
                io,
                "Can't set variables when applying a saved plan",
                &format!("The variable {name:?} cannot be set with the -var option when applying a saved plan file, because a saved plan includes the variable values that were set when it was created. Only ephemeral variables, whose values a plan does not keep, can be set again."),
            );
        }
        let registry = ProviderRegistry::for_working_dir(&g.dir);
        let (mut providers, mut diags) =
            attach_providers(&mut l, &registry, Some(&plan.prior_state));
        config_diagnostics(&l, &mut diags);
        if !has_errors(&diags) && !plan.ephemeral_variables.is_empty() {
            plan.variables = apply_time_variables(&mut l, &g.dir, &given, &plan, &mut diags);
        }
        if !has_errors(&diags) {
            diags.extend(crate::provider_for_each::start_provider_instances(
                &l,
                &crate::provider_for_each::plan_variables(&plan.variables),
                &g.dir,
                &registry,
                &mut providers,
            ));
        }
        if has_errors(&diags) {
            print_diags(io, &diags, &l.sources(), g.color);
            return 1;
        }
        Planned {
            warnings: diags,
            loaded: l,
            providers,
            plan,
            registry,
            generated_out: None,
        }
    } else if p.flag("converge") {
        if !p.flag("allow-deferral") {
            return plain_error(io, "Invalid arguments", "The -converge option repeats plan and apply while changes are deferred: it needs -allow-deferral.");
        }
        return crate::converge::rounds(g, a, &p, backend.as_mut(), current, parallelism, io);
    } else {
        match plan_for_apply(g, a, &p, destroy, current, io) {
            Ok(planned) => planned,
            Err(code) => return code,
        }
    };
    let code = execute(g, io, &mut planned, backend.as_mut(), parallelism, destroy);
    planned.registry.close_all();
    code
}

/// Plan for `apply` without a plan file, show the plan and ask for approval (unless
/// `-auto-approve`); the plan comes with the provider instances apply uses, configured
/// afresh. Err: the exit code (an error, or cancelled).
pub(crate) fn plan_for_apply(
    g: &Global,
    a: &[String],
    p: &args::Parsed,
    destroy: bool,
    current: Option<State>,
    io: &mut Io<'_>,
) -> Result<Planned, i32> {
    let planned = make_plan(g, a, p, destroy, false, current, io)?;
    if crate::json_ui::active() {
        crate::json_ui::planned_changes(io.stdout, &planned.plan);
        crate::json_ui::deferred_changes(io.stdout, &planned.plan);
        crate::json_ui::change_summary(io.stdout, "plan", planned.plan.counts());
    } else {
        let _ = render::write_human_plan(&planned.plan, &planned.providers, g.color, io.stdout);
    }
    if !planned.plan.is_empty() && !p.flag("auto-approve") && !confirm(io, destroy) {
        let _ = writeln!(
            io.stdout,
            "{} cancelled.",
            if destroy { "Destroy" } else { "Apply" }
        );
        planned.registry.close_all();
        return Err(1);
    }
    // Apply runs with its own provider instances, configured afresh, as Terraform does.
    planned.registry.close_all();
    let Planned {
        mut loaded,
        plan,
        warnings,
        ..
    } = planned;
    let registry = ProviderRegistry::for_working_dir(&g.dir);
    let (mut providers, mut diags) =
        attach_providers(&mut loaded, &registry, Some(&plan.prior_state));
    if !has_errors(&diags) {
        let mut variables = plan.variables.clone();
        variables.extend(plan.ephemeral_values.clone());
        diags.extend(crate::provider_for_each::start_provider_instances(
            &loaded,
            &crate::provider_for_each::plan_variables(&variables),
            &g.dir,
            &registry,
            &mut providers,
        ));
    }
    if has_errors(&diags) {
        print_diags(io, &diags, &loaded.sources(), g.color);
        registry.close_all();
        return Err(1);
    }
    Ok(Planned {
        warnings,
        loaded,
        providers,
        plan,
        registry,
        generated_out: None,
    })
}

pub(crate) fn execute(
    g: &Global,
    io: &mut Io<'_>,
    planned: &mut Planned,
    backend: &mut dyn Backend,
    parallelism: usize,
    destroy_command: bool,
) -> i32 {
    let input = ApplyInput {
        db: &planned.loaded.db,
        ws: planned.loaded.ws,
        plan: &mut planned.plan,
        providers: &planned.providers,
        parallelism,
        cwd: g.dir.display().to_string(),
        interrupt: Some(crate::interrupt::interrupt()),
    };
    let counts = Mutex::new((0usize, 0usize, 0usize));
    let json = crate::json_ui::active();
    // When each step started and what it does (the JSON UI says how long a failed one ran).
    let started = crate::json_ui::Started::default();
    let out = Mutex::new(&mut *io.stdout);
    let on_event = |e: Event| {
        let line = match &e {
            Event::Started { addr, action, id } => {
                let verb = match action {
                    Action::Create => "Creating...".to_string(),
                    Action::Read => format!(
                        "Reading...{}",
                        id.as_ref()
                            .map(|i| format!(" [id={i}]"))
                            .unwrap_or_default()
                    ),
                    Action::Delete => format!(
                        "Destroying...{}",
                        id.as_ref()
                            .map(|i| format!(" [id={i}]"))
                            .unwrap_or_default()
                    ),
                    _ => format!(
                        "Modifying...{}",
                        id.as_ref()
                            .map(|i| format!(" [id={i}]"))
                            .unwrap_or_default()
                    ),
                };
                format!("{addr}: {verb}")
            }
            Event::Completed {
                addr,
                action,
                id,
                elapsed,
            } => {
                let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
                let secs = elapsed.as_secs();
                let idtxt = id
                    .as_ref()
                    .map(|i| format!(" [id={i}]"))
                    .unwrap_or_default();
                match action {
                    Action::Read => format!("{addr}: Read complete after {secs}s{idtxt}"),
                    Action::Create => {
                        c.0 += 1;
                        format!("{addr}: Creation complete after {secs}s{idtxt}")
                    }
                    Action::Delete => {
                        c.2 += 1;
                        format!("{addr}: Destruction complete after {secs}s")
                    }
                    _ => {
                        c.1 += 1;
                        format!("{addr}: Modifications complete after {secs}s{idtxt}")
                    }
                }
            }
            Event::Failed { .. } => String::new(),
            Event::Ephemeral(e) => e.human_line().unwrap_or_default(),
            Event::Provision { .. } => e.provision_line().unwrap_or_default(),
        };
        let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
        if json {
            crate::json_ui::event(&mut **o, &e, &line, &started);
        } else if !line.is_empty() {
            let _ = writeln!(o, "{line}");
        }
    };
    let applying = crate::interrupt::applying();
    let (state, diags) = ferro_exec::apply(input, backend, &on_event);
    let plan = &planned.plan;
    drop(applying);
    let (added, changed, destroyed) = *counts.lock().unwrap_or_else(|e| e.into_inner());
    let mut all = planned.warnings.clone();
    // A check block's warning found while planning and again after apply is shown once.
    for d in &diags {
        if !all.contains(d) {
            all.push(d.clone());
        }
    }
    if all.iter().any(|d| !d.is_error()) && !json {
        let _ = writeln!(io.stdout);
    }
    print_diags(io, &all, &planned.loaded.sources(), g.color);
    if diags.iter().any(|d| d.code == "state-write-failed") {
        let msg = backend.save_errored(&state);
        return plain_error(io, "Failed to persist state to backend", &msg);
    }
    if has_errors(&diags) {
        return 1;
    }
    for (flag, list) in [("target", &plan.targets), ("exclude", &plan.excludes)] {
        if !list.is_empty() {
            print_diags(
                io,
                &[applied_targeting_warning(flag)],
                &planned.loaded.sources(),
                g.color,
            );
        }
    }
    if json {
        if destroy_command {
            crate::json_ui::change_summary(io.stdout, "destroy", (added, changed, destroyed));
        } else {
            crate::json_ui::change_summary(io.stdout, "apply", (added, changed, destroyed));
            crate::json_ui::outputs(io.stdout, &state);
        }
    } else if destroy_command {
        // Only the destroy command says so; applying a saved destroy plan is an apply.
        let _ = write!(
            io.stdout,
            "\nDestroy complete! Resources: {destroyed} destroyed.\n"
        );
    } else {
        let imported = if plan.imports.is_empty() {
            String::new()
        } else {
            format!("{} imported, ", plan.imports.len())
        };
        // OpenTofu's count of objects left in place (`removed` blocks, `destroy = false`).
        let forgotten = match plan.forget_count() {
            0 => String::new(),
            n => format!(", {n} forgotten"),
        };
        let _ = write!(io.stdout, "\nApply complete! Resources: {imported}{added} added, {changed} changed, {destroyed} destroyed{forgotten}.\n");
        crate::converge::remaining_note(io, plan);
        crate::cmd_output::print_outputs(io, &state);
    }
    0
}

/// The plan file at `path`, streamed from the file (a large plan file is never held whole),
/// or read whole and decrypted when plans are encrypted.
pub(crate) fn read_plan_path(
    path: &std::path::Path,
    encryption: Option<&ferro_state::encryption::TargetEncryption>,
) -> Result<Plan, ferro_plan::PlanFileError> {
    let unreadable = |e: std::io::Error| ferro_plan::PlanFileError(e.to_string());
    match encryption {
        Some(enc) => {
            let bytes = std::fs::read(path).map_err(unreadable)?;
            ferro_plan::read_plan_file_with(&bytes, Some(enc))
        }
        None => read_plan_file_from(std::fs::File::open(path).map_err(unreadable)?),
    }
}

/// Whether the state changed since `plan` was made against it: its lineage or serial differ,
/// or one of the two has no state (an empty state counts as none).
pub(crate) fn plan_is_stale(plan: &Plan, current: Option<&ferro_state::State>) -> bool {
    let now = current.map(|s| (s.lineage.as_str(), s.serial));
    let then = plan
        .state_identity
        .as_ref()
        .map(|s| (s.lineage.as_str(), s.serial));
    match (now, then) {
        (None, None) => false,
        (Some(n), Some(t)) => n != t,
        (Some(_), None) => current.is_some_and(|s| !s.is_empty()),
        (None, Some(_)) => true,
    }
}

pub(crate) fn stale_plan_error(io: &mut Io<'_>) -> i32 {
    plain_error(
        io,
        "Saved plan is stale",
        "The given plan file can no longer be applied because the state was changed by another operation after the plan was created.",
    )
}
