//! Loading what a command works on: the configuration files of the working directory (or a plan's
//! snapshot) into the analysis database, providers and their schemas, variable values, and state.

use ferro_db::Setter;
use ferro_db::{diagnostics, RootDb, SchemaTable, SourceFile, Sources, Workspace};
use ferro_diag::{Diagnostic, FileId};
use ferro_planner::{load_providers, Providers, RawVariable};
use ferro_provider::ProviderRegistry;
use ferro_state::State;
use ferro_value::Value;
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
}

impl Loaded {
    pub fn sources(&self) -> Sources {
        Sources::from_files(self.sources.clone())
    }

    fn add_source(&mut self, name: String, text: String) -> FileId {
        let id = self.db.fresh_file_id(Path::new(&name));
        self.sources.push((id, name, text));
        id
    }
}

/// Read the configuration files of `dir` (`*.tf` and `*.tf.json`), in name order.
pub fn read_config_files(dir: &Path) -> Result<Vec<(String, String)>, String> {
    read_config_files_checked(dir).map(|files| files.into_iter().map(|(n, t, _)| (n, t)).collect())
}

/// Diagnostics of a file read before it had an id, pointed at the file's id.
fn retarget(diags: Vec<Diagnostic>, id: FileId) -> Vec<Diagnostic> {
    diags
        .into_iter()
        .map(|mut d| {
            if let Some(s) = d.span.as_mut() {
                s.file = id;
            }
            for l in &mut d.labels {
                l.span.file = id;
            }
            d
        })
        .collect()
}

/// Read and load the configuration of `dir` and of every module directory its local module
/// calls reach (transitively); invalid UTF-8 is reported with the other static diagnostics
/// (`config_diagnostics`). A call whose directory is missing stays unresolved, for the module
/// tree to report.
pub fn load_dir(dir: &Path) -> Result<Loaded, String> {
    load_dir_with(dir, |files| files)
}

/// [`load_dir`] with the root module's files (name, text) passed through `edit` first:
/// `ferro test` puts a test file's provider configurations in place of the module's own.
pub fn load_dir_with(
    dir: &Path,
    edit: impl FnOnce(Vec<(String, String)>) -> Vec<(String, String)>,
) -> Result<Loaded, String> {
    let read = read_config_files_checked(dir)?;
    let files = edit(
        read.iter()
            .map(|(n, t, _)| (n.clone(), t.clone()))
            .collect(),
    );
    let mut l = load_files(files);
    for (name, _, ds) in read {
        let id = l.db.file_id(Path::new(&name));
        l.encoding.extend(retarget(ds, id));
    }
    l.ws.set_base_dir(&mut l.db).to(dir.to_path_buf());
    let mut tried: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    tried.insert(".".to_string());
    // Directories `ferro init` installed for non-local sources, by module key.
    let installed = crate::init_modules::read_installed(dir);
    let mut wanted_first = Vec::new();
    for (_, d) in &installed {
        if tried.insert(d.clone()) {
            wanted_first.push(d.clone());
        }
    }
    l.load_module_dirs(dir, wanted_first)?;
    if !installed.is_empty() {
        l.ws.set_installed(&mut l.db)
            .to(installed.into_iter().collect());
    }
    loop {
        let mut wanted = Vec::new();
        for m in l.ws.modules(&l.db) {
            let index = ferro_db::module_index(&l.db, m);
            for item in index.module_calls.values() {
                let call = &ferro_db::file_hir(&l.db, item.file).module_calls[item.index];
                let Some((source, _)) = &call.source else {
                    continue;
                };
                if !ferro_db::is_local_source(source) {
                    continue;
                }
                let child = ferro_db::resolve_local_source(m.dir(&l.db), source);
                if tried.insert(child.clone()) {
                    wanted.push(child);
                }
            }
        }
        if wanted.is_empty() {
            break;
        }
        l.load_module_dirs(dir, wanted)?;
    }
    Ok(l)
}

/// The configuration files of `dir` in name order: name, text, and the diagnostics of invalid
/// character encodings (pointed at a placeholder id: see [`retarget`]).
#[allow(clippy::type_complexity)]
fn read_config_files_checked(dir: &Path) -> Result<Vec<(String, String, Vec<Diagnostic>)>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read the directory {}: {e}", dir.display()))?;
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        // Symbolic links are configuration too, as Terraform reads them; anything else that
        // is not a directory is checked below.
        .filter(|e| e.file_type().map(|t| !t.is_dir()).unwrap_or(false))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| (n.ends_with(".tf") || n.ends_with(".tf.json")) && !n.starts_with('.'))
        .collect();
    names.sort();
    let mut out = Vec::new();
    for n in names {
        // A dangling link or a link loop cannot be read; a link to a FIFO or a device would
        // block or never end, so only regular files are read.
        match std::fs::metadata(dir.join(&n)) {
            Ok(m) if m.is_file() => {}
            Ok(_) => return Err(format!("The file {n:?} is not a regular file.")),
            Err(e) => return Err(format!("The file {n:?} could not be read: {e}.")),
        }
        let bytes = std::fs::read(dir.join(&n)).map_err(|e| format!("cannot read {n}: {e}"))?;
        let (text, ds) = ferro_syntax::decode_source(FileId(u32::MAX), &bytes);
        out.push((n, text, ds));
    }
    Ok(out)
}

/// The module directory of a configuration file named relative to the root module.
fn module_dir_of(name: &str) -> String {
    match name.rfind('/') {
        Some(i) => name[..i].to_string(),
        None => ".".to_string(),
    }
}

/// Put configuration files (named relative to the root module, `modules/a/main.tf` for a
/// child module's) into a fresh database, one module per directory.
pub fn load_files(files: Vec<(String, String)>) -> Loaded {
    let mut db = RootDb::default();
    let mut sources = Vec::new();
    let mut by_dir: BTreeMap<String, Vec<SourceFile>> = BTreeMap::new();
    by_dir.insert(".".to_string(), Vec::new());
    for (name, text) in &files {
        let id = db.file_id(Path::new(name));
        sources.push((id, name.clone(), text.clone()));
        by_dir
            .entry(module_dir_of(name))
            .or_default()
            .push(SourceFile::new(&db, name.clone(), text.clone(), id));
    }
    for fs in by_dir.values() {
        ferro_db::link_overrides(&mut db, fs);
    }
    let root_files = by_dir.remove(".").unwrap_or_default();
    let ws = Workspace::single(&db, root_files, Arc::new(SchemaTable::default()));
    let children: Vec<ferro_db::Module> = by_dir
        .into_iter()
        .map(|(dir, fs)| ferro_db::Module::new(&db, dir, fs))
        .collect();
    ws.set_children(&mut db).to(children);
    Loaded {
        db,
        ws,
        files,
        sources,
        encoding: Vec::new(),
    }
}

impl Loaded {
    /// Read module directories (relative to `root`) that exist and add them.
    fn load_module_dirs(&mut self, root: &Path, dirs: Vec<String>) -> Result<(), String> {
        for child in dirs {
            let path = root.join(&child);
            if !path.is_dir() {
                continue;
            }
            let read = read_config_files_checked(&path)?;
            let mut files = Vec::new();
            for (n, t, ds) in read {
                let name = format!("{child}/{n}");
                let id = self.db.file_id(Path::new(&name));
                self.encoding.extend(retarget(ds, id));
                files.push((name, t));
            }
            self.add_module(child, files);
        }
        Ok(())
    }

    /// Add a module directory's files (already named relative to the root module).
    fn add_module(&mut self, dir: String, files: Vec<(String, String)>) {
        let mut inputs = Vec::new();
        for (name, text) in &files {
            let id = self.db.file_id(Path::new(name));
            self.sources.push((id, name.clone(), text.clone()));
            inputs.push(SourceFile::new(&self.db, name.clone(), text.clone(), id));
        }
        self.files.extend(files);
        ferro_db::link_overrides(&mut self.db, &inputs);
        let module = ferro_db::Module::new(&self.db, dir, inputs);
        let mut children = self.ws.children(&self.db).clone();
        children.push(module);
        self.ws.set_children(&mut self.db).to(children);
    }
}

/// Start providers for the configuration (and state) and give the analysis their schemas.
pub fn attach_providers(
    l: &mut Loaded,
    registry: &ProviderRegistry,
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
    let mut out = ferro_db::module_load_diagnostics(&l.db, l.ws, root);
    out.extend(module_version_diagnostics(&l.db, root));
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
    let file = l.add_source(display.to_string(), text.clone());
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
    for name in ["terraform.tfvars", "terraform.tfvars.json"] {
        let tfvars = dir.join(name);
        if tfvars.is_file() {
            load_var_file(l, &tfvars, name, &mut out, diags);
        }
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut autos: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".auto.tfvars") || n.ends_with(".auto.tfvars.json"))
            .collect();
        autos.sort();
        for n in autos {
            load_var_file(l, &dir.join(&n), &n, &mut out, diags);
        }
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
