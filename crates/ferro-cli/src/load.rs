//! Loading what a command works on: the configuration files of the working directory (or a plan's
//! snapshot) into the analysis database, providers and their schemas, variable values, and state.

use crate::static_sources::Installation;
use ferro_db::Setter;
use ferro_db::{diagnostics, RootDb, Sources, Workspace};
use ferro_diag::{Diagnostic, FileId};
use ferro_planner::{load_providers, Providers, RawVariable};
use ferro_provider::ProviderSource;
use ferro_state::State;
use ferro_value::Value;
use ferro_workspace::{Project, Reading};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

pub struct Loaded {
    pub db: RootDb,
    pub ws: Workspace,
    pub files: Vec<(String, String)>,
    /// Every file diagnostics may point into (configuration and variable files).
    pub sources: Vec<(FileId, String, String)>,
    /// Invalid character encodings found while reading the files.
    pub encoding: Vec<Diagnostic>,
    /// The problems of evaluating module sources early (reported with the root module's).
    pub early: Vec<Diagnostic>,
    /// The project the files were read by, for directories found later (a module source
    /// evaluated early); its database is `db` above, lent back while it reads.
    project: Option<Project>,
}

impl Loaded {
    pub fn sources(&self) -> Sources {
        Sources::from_files(self.sources.clone())
    }

    pub(crate) fn add_source(&mut self, name: String, text: String) -> FileId {
        let id = self.db.fresh_file_id(Path::new(&name));
        self.sources.push((id, name, text));
        id
    }
}

/// Read the configuration files of `dir` (`*.tf`, `*.tf.json`, `*.tofu`, `*.tofu.json`, a
/// `.tofu` file hiding the `.tf` file of its base name), in name order.
pub fn read_config_files(dir: &Path) -> Result<Vec<(String, String)>, String> {
    ferro_workspace::read_config_files(dir)
        .map(|files| files.into_iter().map(|(n, t, _)| (n, t)).collect())
}

/// Read and load the configuration of `dir` and of every module directory its calls reach
/// (installed by `init`, or local), as every front end does (`ferro_workspace::Project`);
/// invalid UTF-8 is reported with the other static diagnostics (`config_diagnostics`). A call
/// whose directory is missing stays unresolved, for the module tree to report.
pub fn load_dir(dir: &Path) -> Result<Loaded, String> {
    load_dir_for(dir, Installation::Installed)
}

/// [`load_dir`] for `init` and `get`, which install what the module sources say now (an
/// installed module whose source changed is not an error there).
pub fn load_dir_installing(dir: &Path) -> Result<Loaded, String> {
    load_dir_for(dir, Installation::Installing)
}

fn load_dir_for(dir: &Path, installation: Installation) -> Result<Loaded, String> {
    let project = Project::open(dir, RootDb::default(), Reading::Strict)?;
    let mut l = Loaded::from_project(project);
    early_evaluation(&mut l, dir, installation);
    Ok(l)
}

/// Module sources and versions that are not literal strings, evaluated with the run's
/// variables (`-var`, `-var-file`, `TF_VAR_*`, the tfvars files); their problems are kept in
/// [`Loaded::early`]. Nothing is read when every source is literal.
fn early_evaluation(l: &mut Loaded, dir: &Path, installation: Installation) {
    let any = l.ws.modules(&l.db).into_iter().any(|m| {
        m.files(&l.db).iter().any(|f| {
            ferro_db::file_hir(&l.db, *f)
                .module_calls
                .iter()
                .any(|c| c.source_expr.is_some() || c.version_expr.is_some())
        })
    });
    if !any {
        return;
    }
    // The command reports the variables' own problems when it reads them.
    let args = crate::encryption::run_args();
    let vars = collect_variables(l, dir, &crate::ui::var_args(&args), &mut Vec::new());
    let workspace = ferro_state::workspace::current_workspace(dir);
    let mut early = Vec::new();
    crate::static_sources::resolve(l, dir, &vars, &workspace, installation, &mut early);
    l.early = early;
}

/// [`load_dir`] with the root module's files (name, text) passed through `edit` first:
/// `ferro test` puts a test file's provider configurations in place of the module's own.
pub fn load_dir_with(
    dir: &Path,
    edit: impl FnOnce(Vec<(String, String)>) -> Vec<(String, String)>,
) -> Result<Loaded, String> {
    let project = Project::open_with(dir, RootDb::default(), edit)?;
    let mut l = Loaded::from_project(project);
    early_evaluation(&mut l, dir, Installation::Installed);
    Ok(l)
}

/// Put configuration files (named relative to the root module, `modules/a/main.tf` for a
/// child module's) into a fresh database, one module per directory.
pub fn load_files(files: Vec<(String, String)>) -> Loaded {
    Loaded::from_project(Project::from_files(files))
}

/// The configuration a saved plan was made from, its module sources evaluated early with the
/// plan's variables (as the plan saw them).
pub fn load_plan_config(plan: &ferro_plan::Plan, dir: &Path) -> Loaded {
    let mut l = load_files(plan.config.files.clone());
    let vars = crate::provider_for_each::plan_variables(&plan.variables);
    let workspace = ferro_state::workspace::current_workspace(dir);
    let mut early = Vec::new();
    crate::static_sources::resolve(
        &mut l,
        dir,
        &vars,
        &workspace,
        Installation::Installing,
        &mut early,
    );
    l.early = early;
    l
}

impl Loaded {
    fn from_project(mut project: Project) -> Loaded {
        let sources = project.files_in_order();
        let files = sources
            .iter()
            .map(|(_, n, t)| (n.clone(), t.clone()))
            .collect();
        let encoding = project.encoding_diagnostics();
        let db = std::mem::take(&mut project.db);
        Loaded {
            db,
            ws: project.ws,
            files,
            sources,
            encoding,
            early: Vec::new(),
            project: Some(project),
        }
    }

    /// Give the analysis the module sources evaluated early and read the local directories
    /// they name (with their files added to what diagnostics may point into).
    pub(crate) fn set_static_sources(
        &mut self,
        sources: BTreeMap<String, ferro_db::StaticSource>,
    ) -> Result<(), String> {
        let Some(p) = self.project.as_mut() else {
            self.ws.set_static_sources(&mut self.db).to(sources);
            return Ok(());
        };
        std::mem::swap(&mut self.db, &mut p.db);
        let r = p.set_static_sources(sources);
        let known: std::collections::BTreeSet<FileId> =
            self.sources.iter().map(|(id, _, _)| *id).collect();
        let added: Vec<(FileId, String, String)> = p
            .files_in_order()
            .into_iter()
            .filter(|(id, _, _)| !known.contains(id))
            .collect();
        for (id, name, text) in added {
            if let Some(f) = p.file_by_id(id) {
                if let Some(ds) = p.encoding.get(&p.path_of(f)) {
                    self.encoding.extend(ds.iter().cloned());
                }
            }
            self.files.push((name.clone(), text.clone()));
            self.sources.push((id, name, text));
        }
        std::mem::swap(&mut self.db, &mut p.db);
        r
    }
}

/// Start providers for the configuration (and state) and give the analysis their schemas.
pub fn attach_providers(
    l: &mut Loaded,
    registry: &dyn ProviderSource,
    state: Option<&State>,
) -> (Providers, Vec<Diagnostic>) {
    let (providers, diags) = load_providers(&l.db, l.ws, registry, state);
    l.ws.set_schemas(&mut l.db)
        .to(Arc::new(providers.schema_table()));
    (providers, diags)
}

/// Add the static diagnostics of the configuration to `diags` (which holds what loading the
/// providers reported). An unmet `required_version` stops everything else, as in Terraform;
/// a dependency cycle is looked for only when everything else is sound (an undeclared name or
/// a missing provider can look like one).
pub fn config_diagnostics(l: &Loaded, diags: &mut Vec<Diagnostic>) {
    // What loading the providers found counts only once the configuration has loaded.
    let providers = std::mem::take(diags);
    if !versions_met(l, diags) {
        return;
    }
    // Terraform validates only a configuration that loaded.
    let loaded = load_problems(l);
    if loaded.iter().any(Diagnostic::is_error) {
        diags.extend(loaded);
        return;
    }
    // Problems Terraform finds while building the graph stop it before any check: a resource's
    // provider configuration that is not there, inputs of a module call that do not match.
    let graph: Vec<Diagnostic> = providers
        .iter()
        .filter(|d| d.code == "provider-config-not-present")
        .chain(ferro_db::module_input_diagnostics(&l.db, l.ws))
        .filter(|d| d.is_error())
        .cloned()
        .collect();
    if !graph.is_empty() {
        diags.extend(loaded);
        diags.extend(graph);
        return;
    }
    diags.extend(providers);
    diags.extend(diagnostics(&l.db, l.ws).iter().cloned());
    crate::follow_on::drop_follow_on(l, &loaded, diags);
    if !diags.iter().any(Diagnostic::is_error) {
        if let Some(d) = ferro_db::item_graph_cycle(&l.db, l.ws) {
            diags.push(d.clone());
        }
    }
}

/// Problems ferro finds while lowering a file that Terraform finds only when it validates (the
/// `dynamic` blocks it expands then, and references it reads then): neither `init` nor the
/// loader's stop before validation counts them.
const VALIDATE_TIME: &[&str] = &[
    "invalid-dynamic-iterator",
    "dynamic-unsupported-argument",
    "dynamic-unsupported-block",
    "json-dynamic-value-type",
    "json-dynamic-missing-label",
    "duplicate-content",
    "invalid-dynamic-labels",
    "dynamic-missing-argument",
    "missing-content",
    "invalid-reference",
];

/// What `init` checks: what Terraform's configuration loader reports (syntax, declarations,
/// the module tree, provider configurations across modules, `required_version`), not the
/// references, schemas and types `validate` checks, nor the dependency graph.
pub fn load_config_diagnostics(l: &Loaded, diags: &mut Vec<Diagnostic>) {
    if versions_met(l, diags) {
        diags.extend(load_problems(l));
    }
}

/// What Terraform's loader reports: the root module's own problems alone when it has errors
/// (the modules it calls are not loaded then), else those of the whole tree.
fn load_problems(l: &Loaded) -> Vec<Diagnostic> {
    let root = root_problems(l);
    if root.iter().any(Diagnostic::is_error) {
        return root;
    }
    let mut out = ferro_db::load_diagnostics(&l.db, l.ws).clone();
    for m in l.ws.modules(&l.db) {
        out.extend(module_version_diagnostics(&l.db, m));
    }
    out.retain(loader_reports);
    out
}

fn loader_reports(d: &Diagnostic) -> bool {
    !VALIDATE_TIME.contains(&d.code.as_str())
}

/// What `init` checks before it installs anything: what Terraform's loader reports for the root
/// module alone (its syntax, declarations and arguments; not its references, nor anything of
/// the modules it calls).
pub fn root_load_diagnostics(l: &Loaded, diags: &mut Vec<Diagnostic>) {
    if versions_met(l, diags) {
        diags.extend(root_problems(l));
    }
}

fn root_problems(l: &Loaded) -> Vec<Diagnostic> {
    let root = l.ws.root(&l.db);
    let mut out = ferro_db::module_load_diagnostics(&l.db, l.ws, root).clone();
    out.extend(module_version_diagnostics(&l.db, root));
    out.extend(l.early.iter().cloned());
    out.retain(loader_reports);
    out.sort_by_key(|d| d.span.map(|s| (s.file, s.start)));
    out
}

/// A module call's `version` that is no version constraint, with Terraform's words.
fn module_version_diagnostics(db: &dyn ferro_db::Db, m: ferro_db::Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for f in m.files(db) {
        let hir = ferro_db::file_hir(db, *f);
        for call in &hir.module_calls {
            let (Some(v), Some(span)) = (&call.version, call.version_span) else {
                continue;
            };
            if ferro_provider::install::version::Constraints::parse(v).is_err() {
                out.push(
                    Diagnostic::error("invalid-version-constraint", "Invalid version constraint")
                        .with_detail("This string does not use correct version constraint syntax.")
                        .with_span(hir.at(span)),
                );
            }
        }
    }
    out
}

/// An unmet `required_version` replaces `diags` with its errors (false); otherwise the files'
/// encoding problems are added (true).
fn versions_met(l: &Loaded, diags: &mut Vec<Diagnostic>) -> bool {
    let versions = ferro_db::required_version_diagnostics(&l.db, l.ws).clone();
    if !versions.is_empty() {
        *diags = versions;
        return false;
    }
    diags.extend(l.encoding.iter().cloned());
    true
}

/// Evaluate a constant expression from a variable file or `-var`.
fn constant(
    l: &mut Loaded,
    name: &str,
    text: &str,
    origin: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<(Value, ferro_diag::Span)> {
    let file = l.add_source(origin.to_string(), text.to_string());
    let (expr, mut ds) = ferro_syntax::parse_expr(file, text);
    if !ds.is_empty() {
        for d in &mut ds {
            ferro_diag::name_ranges(d, origin, text);
        }
        diags.extend(ds);
        return None;
    }
    let mut refused = Vec::new();
    not_constant(&expr, &mut refused);
    if !refused.is_empty() {
        for d in &mut refused {
            ferro_diag::name_ranges(d, origin, text);
        }
        diags.extend(refused);
        return None;
    }
    let (hir, id) = ferro_hir::lower_standalone_expr(file, &expr);
    if !hir.diagnostics().is_empty() {
        diags.extend(hir.diagnostics().iter().cloned());
        return None;
    }
    let span = hir
        .span(id)
        .unwrap_or(ferro_diag::Span::new(file, 0..text.len()));
    match ferro_db::static_value(&hir, id) {
        Some(v) => Some((v, span)),
        None => {
            diags.push(
                Diagnostic::error("invalid-variable-value", "Invalid value for variable")
                    .with_detail(format!("The value for {name:?} must be a constant: variables, functions of references and unknown values are not allowed here."))
                    .with_span(span),
            );
            None
        }
    }
}

/// Whether the declared type of a root variable takes `-var`/environment values literally.
fn takes_literal(l: &Loaded, name: &str) -> bool {
    let index = ferro_db::module_index(&l.db, l.ws.root(&l.db));
    match index.variables.get(name) {
        Some(item) => {
            let var = &ferro_db::file_hir(&l.db, item.file).variables[item.index];
            matches!(
                var.ty,
                None | Some(ferro_value::Type::String)
                    | Some(ferro_value::Type::Number)
                    | Some(ferro_value::Type::Bool)
            )
        }
        None => true,
    }
}

fn load_var_file(
    l: &mut Loaded,
    path: &Path,
    display: &str,
    out: &mut BTreeMap<String, RawVariable>,
    diags: &mut Vec<Diagnostic>,
) {
    read_var_file(&mut |n, t| l.add_source(n, t), path, display, out, diags);
}

/// Read a variable definitions file (`NAME = constant` lines, or a JSON object) into `out`;
/// `add_source` registers its text for diagnostics and names its file id.
pub(crate) fn read_var_file(
    add_source: &mut dyn FnMut(String, String) -> FileId,
    path: &Path,
    display: &str,
    out: &mut BTreeMap<String, RawVariable>,
    diags: &mut Vec<Diagnostic>,
) {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            diags.push(
                Diagnostic::error("var-file", "Failed to read variables file").with_detail(
                    format!(
                        "Given variables file {display} does not exist or cannot be read: {e}."
                    ),
                ),
            );
            return;
        }
    };
    let file = add_source(display.to_string(), text.clone());
    let parsed = if path.extension().is_some_and(|e| e == "json") {
        ferro_syntax::parse_json_values(file, &text)
    } else {
        ferro_syntax::parse_file(file, &text)
    };
    diags.extend(parsed.diagnostics.iter().cloned().map(|mut d| {
        ferro_diag::name_ranges(&mut d, display, &text);
        d
    }));
    // A file that does not parse gives its syntax errors only (what recovery kept of a broken
    // value would be reported again as not a constant).
    if parsed.diagnostics.iter().any(Diagnostic::is_error) {
        return;
    }
    for item in &parsed.body.items {
        match item {
            ferro_syntax::ast::BodyItem::Attribute(a) => {
                let mut refused = Vec::new();
                not_constant(&a.expr, &mut refused);
                if !refused.is_empty() {
                    diags.extend(refused);
                    continue;
                }
                let (hir, id) = ferro_hir::lower_standalone_expr(file, &a.expr);
                diags.extend(hir.diagnostics().iter().cloned());
                match ferro_db::static_value(&hir, id) {
                    Some(v) => {
                        out.insert(a.name.name.to_string(), RawVariable { value: v, origin: format!("a variable file ({display})"), source: ferro_planner::VariableSource::File(display.to_string()), span: Some(a.expr.span) });
                    }
                    None => diags.push(
                        Diagnostic::error("invalid-variable-value", "Variables not allowed")
                            .with_detail("Variables may not be used here: values in a variable definitions file must be constants.")
                            .with_span(a.expr.span),
                    ),
                }
            }
            ferro_syntax::ast::BodyItem::Block(b) => diags.push(
                Diagnostic::error("unexpected-block", "Unexpected block")
                    .with_detail("Blocks are not allowed here: a variable definitions file contains only name = value assignments.")
                    .with_span(b.ty.span),
            ),
        }
    }
}

/// The variable files Terraform reads from a directory, in its order: `terraform.tfvars`,
/// `terraform.tfvars.json`, then `*.auto.tfvars` and `*.auto.tfvars.json` by name.
pub fn var_files(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = ["terraform.tfvars", "terraform.tfvars.json"]
        .into_iter()
        .filter(|n| dir.join(n).is_file())
        .map(str::to_string)
        .collect();
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut autos: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".auto.tfvars") || n.ends_with(".auto.tfvars.json"))
            .collect();
        autos.sort();
        out.extend(autos);
    }
    out
}

/// Collect variable values in Terraform's precedence order (later wins): environment
/// (`TF_VAR_name`), `terraform.tfvars`, `terraform.tfvars.json`, `*.auto.tfvars` and
/// `*.auto.tfvars.json` (in name order), then `-var` and `-var-file` in command-line order.
pub fn collect_variables(
    l: &mut Loaded,
    dir: &Path,
    cli: &[(bool, String)],
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<String, RawVariable> {
    let mut out = BTreeMap::new();
    let mut env: Vec<(String, String)> = crate::env::vars()
        .into_iter()
        .filter_map(|(k, v)| k.strip_prefix("TF_VAR_").map(|n| (n.to_string(), v)))
        .collect();
    env.sort();
    for (name, v) in env {
        let index = ferro_db::module_index(&l.db, l.ws.root(&l.db));
        if !index.variables.contains_key(&name) {
            continue;
        }
        if takes_literal(l, &name) {
            out.insert(
                name.clone(),
                RawVariable {
                    value: Value::string(v),
                    origin: format!("environment variable TF_VAR_{name}"),
                    source: ferro_planner::VariableSource::Environment,
                    span: None,
                },
            );
        } else if let Some((val, span)) = constant(l, &name, &v, &format!("TF_VAR_{name}"), diags) {
            out.insert(
                name.clone(),
                RawVariable {
                    value: val,
                    origin: format!("environment variable TF_VAR_{name}"),
                    source: ferro_planner::VariableSource::Environment,
                    span: Some(span),
                },
            );
        }
    }
    for name in var_files(dir) {
        load_var_file(l, &dir.join(&name), &name, &mut out, diags);
    }
    for (is_file, arg) in cli {
        if *is_file {
            load_var_file(l, &dir.join(arg), arg, &mut out, diags);
            continue;
        }
        let Some((name, v)) = arg.split_once('=') else {
            diags.push(Diagnostic::error("invalid-var", "Invalid -var option").with_detail(format!("The given -var option {arg:?} is not correctly specified. Must be a variable name and value separated by an equals sign, like -var=\"key=value\".")));
            continue;
        };
        let name = name.trim().to_string();
        if takes_literal(l, &name) {
            out.insert(
                name.clone(),
                RawVariable {
                    value: Value::string(v),
                    origin: "a -var command line option".into(),
                    source: ferro_planner::VariableSource::CommandLine,
                    span: None,
                },
            );
        } else if let Some((val, span)) =
            constant(l, &name, v, &format!("<value for var.{name}>"), diags)
        {
            out.insert(
                name.clone(),
                RawVariable {
                    value: val,
                    origin: "a -var command line option".into(),
                    source: ferro_planner::VariableSource::CommandLine,
                    span: Some(span),
                },
            );
        }
    }
    out
}

/// Read the state file, if there is one.
pub fn read_state(path: &Path) -> Result<Option<State>, String> {
    ferro_state::LocalBackend::new(path.to_path_buf())
        .load()
        .map_err(|e| e.to_string())
}

/// Ask on the terminal for every root variable that has neither a value nor a default, as
/// Terraform does when its standard input is a terminal (`var.NAME`, the description, `Enter a
/// value:`). A value is taken literally for string, number and bool (and untyped) variables,
/// else read as an expression. End of input stops asking; what is still missing is reported by
/// planning as usual.
pub fn prompt_for_variables(
    l: &mut Loaded,
    vars: &mut BTreeMap<String, RawVariable>,
    out: &mut dyn std::io::Write,
    input: &mut dyn std::io::BufRead,
    diags: &mut Vec<Diagnostic>,
) {
    let index = ferro_db::module_index(&l.db, l.ws.root(&l.db));
    let missing: Vec<(String, Option<String>)> = index
        .variables
        .iter()
        .filter(|(name, _)| !vars.contains_key(*name))
        .filter_map(|(name, item)| {
            let var = &ferro_db::file_hir(&l.db, item.file).variables[item.index];
            var.default
                .is_none()
                .then(|| (name.clone(), var.description.clone()))
        })
        .collect();
    for (name, description) in missing {
        let mut text = format!("var.{name}\n");
        if let Some(d) = description.filter(|d| !d.is_empty()) {
            text.push_str(&format!("  {d}\n\n"));
        }
        text.push_str("  Enter a value: ");
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let _ = out.write_all(b"\n");
        let value = line.trim_end_matches(['\n', '\r']).to_string();
        let raw = if takes_literal(l, &name) {
            Some(Value::string(value))
        } else {
            constant(l, &name, &value, &format!("<value for var.{name}>"), diags).map(|(v, _)| v)
        };
        if let Some(value) = raw {
            vars.insert(
                name.clone(),
                RawVariable {
                    value,
                    origin: "the interactive prompt".into(),
                    source: ferro_planner::VariableSource::CommandLine,
                    span: None,
                },
            );
        }
    }
}

/// Terraform's errors for a variable value that is not a constant: a value is evaluated with
/// no variables and no functions, so each reference (whole traversal) is "Variables not
/// allowed" and each call "Function calls not allowed" (its arguments are not looked at).
fn not_constant(e: &ferro_syntax::ast::Expr, out: &mut Vec<Diagnostic>) {
    use ferro_syntax::ast::{ExprKind, ObjectKey, TemplatePart, TraversalStep};
    fn parts(ps: &[TemplatePart], out: &mut Vec<Diagnostic>) {
        for p in ps {
            match p {
                TemplatePart::Literal { .. } => {}
                TemplatePart::Interpolation { expr, .. } => not_constant(expr, out),
                TemplatePart::If {
                    cond,
                    then,
                    otherwise,
                    ..
                } => {
                    not_constant(cond, out);
                    parts(then, out);
                    parts(otherwise.as_deref().unwrap_or(&[]), out);
                }
                TemplatePart::For(f) => {
                    not_constant(&f.collection, out);
                    parts(&f.body, out);
                }
            }
        }
    }
    // A traversal (`a.b[0]`) is reported once, at its whole range.
    fn rooted(e: &ferro_syntax::ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Variable(_) => true,
            ExprKind::GetAttr { target, .. } | ExprKind::Index { target, .. } => rooted(target),
            _ => false,
        }
    }
    if rooted(e) {
        out.push(
            Diagnostic::error("invalid-variable-value", "Variables not allowed")
                .with_detail("Variables may not be used here.")
                .with_span(e.span),
        );
        return;
    }
    match &e.kind {
        ExprKind::FunctionCall(_) => out.push(
            Diagnostic::error("invalid-variable-value", "Function calls not allowed")
                .with_detail("Functions may not be called here.")
                .with_span(e.span),
        ),
        ExprKind::GetAttr { target, .. } => not_constant(target, out),
        ExprKind::Index { target, key, .. } => {
            not_constant(target, out);
            not_constant(key, out);
        }
        ExprKind::Splat { target, steps, .. } => {
            not_constant(target, out);
            for s in steps {
                if let TraversalStep::Index { key, .. } = s {
                    not_constant(key, out);
                }
            }
        }
        ExprKind::Template(t) => parts(&t.parts, out),
        ExprKind::Tuple(items) => items.iter().for_each(|x| not_constant(x, out)),
        ExprKind::Object(items) => {
            for item in items {
                if let ObjectKey::Expr(k) = &item.key {
                    not_constant(k, out);
                }
                not_constant(&item.value, out);
            }
        }
        ExprKind::Unary { operand, .. } => not_constant(operand, out),
        ExprKind::Binary { lhs, rhs, .. } => {
            not_constant(lhs, out);
            not_constant(rhs, out);
        }
        ExprKind::Conditional {
            cond,
            then,
            otherwise,
        } => {
            not_constant(cond, out);
            not_constant(then, out);
            not_constant(otherwise, out);
        }
        ExprKind::ForTuple(f) => {
            not_constant(&f.collection, out);
            not_constant(&f.value, out);
        }
        ExprKind::ForObject(f) => {
            not_constant(&f.collection, out);
            not_constant(&f.key, out);
            not_constant(&f.value, out);
        }
        ExprKind::Parens(x) => not_constant(x, out),
        // (A variable is a traversal's root: reported above.)
        ExprKind::Variable(_)
        | ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Number(_)
        | ExprKind::Error => {}
    }
}

/// Read a state written against the other public registry as OpenTofu reads a state written
/// by Terraform: an object whose provider is `hashicorp/null` on the registry that is not the
/// working directory's default now belongs to the default registry's `hashicorp/null`, unless
/// the configuration names the other registry's address in full. Applying writes the new
/// addresses back, so a working directory can move between Terraform's and OpenTofu's
/// registries without `state replace-provider`.
pub fn adopt_default_registry(l: &Loaded, state: &mut State) {
    let host = ferro_db::default_registry(&l.db);
    let mut explicit = std::collections::BTreeSet::new();
    for m in l.ws.modules(&l.db) {
        let index = ferro_db::module_index(&l.db, m);
        for item in index.required_providers.values() {
            let rp = &ferro_db::item_tree(&l.db, item.file).required_providers[item.index];
            let full = rp.source.as_deref().filter(|s| s.split('/').count() == 3);
            if let Some(addr) = full.and_then(|s| ferro_addrs::Provider::parse_source(s).ok()) {
                explicit.insert(addr);
            }
        }
    }
    for r in state.resources.values_mut() {
        let p = &mut r.provider.provider;
        if p.is_public_registry() && p.hostname != host && !explicit.contains(p) {
            p.hostname = host.to_string();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::load_dir;

    /// `required_version` is checked from the release ferro records as the writer of state.
    #[test]
    fn the_oldest_language_version_is_the_state_writer_version() {
        assert_eq!(
            ferro_db::OLDEST_LANGUAGE_VERSION,
            ferro_state::WRITER_VERSION
        );
    }

    #[test]
    fn symlinked_files_are_configuration_and_bad_links_are_errors() {
        let dir = std::env::temp_dir().join(format!("ferro-load-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("real")).unwrap();
        std::fs::write(dir.join("real/a.tf"), "output \"a\" {\n  value = 1\n}\n").unwrap();
        std::os::unix::fs::symlink("real/a.tf", dir.join("link.tf")).unwrap();
        let l = load_dir(&dir).unwrap();
        assert_eq!(l.files.len(), 1);
        assert_eq!(l.files[0].0, "link.tf");
        assert!(l.files[0].1.contains("output \"a\""));

        std::os::unix::fs::symlink("missing.tf", dir.join("dangling.tf")).unwrap();
        let err = load_dir(&dir).err().unwrap();
        assert!(err.contains("\"dangling.tf\" could not be read"), "{err}");
        std::fs::remove_file(dir.join("dangling.tf")).unwrap();

        std::os::unix::fs::symlink("loop.tf", dir.join("loop.tf")).unwrap();
        let err = load_dir(&dir).err().unwrap();
        assert!(err.contains("\"loop.tf\" could not be read"), "{err}");
        std::fs::remove_file(dir.join("loop.tf")).unwrap();

        std::fs::create_dir(dir.join("sub.tf")).unwrap();
        std::os::unix::fs::symlink("sub.tf", dir.join("dirlink.tf")).unwrap();
        let err = load_dir(&dir).err().unwrap();
        assert!(
            err.contains("\"dirlink.tf\" is not a regular file"),
            "{err}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
