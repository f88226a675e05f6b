//! `ferro console`: evaluate expressions against the configuration and state of the working
//! directory, printing results the way `terraform console` (1.0.3) does.
//!
//! Piped input (stdin not a terminal) follows Terraform's piped mode: every line is evaluated,
//! the first error stops the run (exit 1) and only the last result is printed. On a terminal
//! lines are edited with ferro's line editor (`console_terminal.rs`, `line_editor.rs`) after a
//! `> ` prompt, every result is printed after its line and errors do not end the session.

use crate::console_terminal::{LineRead, Terminal};
use crate::load::{collect_variables, config_diagnostics, read_config_files};
use crate::{args, Global, Io};
use ferro_addrs::Resource;
use ferro_db::{file_hir, module_index};
use ferro_diag::{Diagnostic, FileId};
use ferro_eval::{eval_expr, Scope};
use ferro_hir::{Expr, FileHir, Reference};
use ferro_planner::RawVariable;
use ferro_render::values::{format_type, format_value};
use ferro_state::State;
use ferro_value::Value;
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};

/// `ferro console` reading the process's standard input.
pub(crate) fn console(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    if let Some(input) = io.stdin.take() {
        return run_console(g, a, input, None, io);
    }
    let stdin = std::io::stdin();
    let mut lock = stdin.lock();
    if !stdin.is_terminal() {
        return run_console(g, a, &mut lock, None, io);
    }
    #[cfg(unix)]
    let terminal = {
        use std::os::fd::AsFd;
        Terminal::new(stdin.as_fd())
    };
    #[cfg(not(unix))]
    let terminal = Terminal::plain();
    run_console(g, a, &mut lock, Some(terminal), io)
}

/// `ferro console ARGS` in `dir` with `input` as standard input (tests drive it this way).
pub fn run_with_input(
    args: &[String],
    dir: &Path,
    input: &mut dyn BufRead,
    io: &mut Io<'_>,
) -> i32 {
    let color = !args.iter().any(|a| a == "-no-color" || a == "--no-color");
    let rest: Vec<String> = args
        .iter()
        .filter(|a| *a != "-no-color" && *a != "--no-color")
        .cloned()
        .collect();
    let g = Global {
        dir: dir.to_path_buf(),
        color,
    };
    run_console(&g, &rest, input, None, io)
}

/// The console: piped when `terminal` is None (every line is evaluated, the first error ends
/// the run with status 1, only the last result is printed), else interactive.
fn run_console(
    g: &Global,
    a: &[String],
    input: &mut dyn BufRead,
    terminal: Option<Terminal<'_>>,
    io: &mut Io<'_>,
) -> i32 {
    let p = match crate::spec::core::CONSOLE.parse(a) {
        Ok(p) => p,
        Err(e) => {
            let _ = write!(
                io.stderr,
                "{}",
                render_diag(
                    &Diagnostic::error("cli", "Invalid arguments").with_detail(e),
                    false,
                    false
                )
            );
            return 1;
        }
    };
    let session = match Session::load(g, &p, a) {
        Ok(s) => s,
        Err(text) => {
            let _ = write!(io.stderr, "{text}");
            return 1;
        }
    };
    match terminal {
        Some(t) => interactive(g, &session, input, t, io),
        None => piped(g, &session, input, io),
    }
}

/// What one line of input asks for.
enum Reply {
    Exit,
    Output(String),
    Failed(Vec<Diagnostic>),
}

fn reply(session: &Session, text: &str) -> Reply {
    match text {
        "exit" => Reply::Exit,
        "help" => Reply::Output(HELP.trim_end().to_string()),
        "" => Reply::Output(String::new()),
        _ => match session.eval_line(text) {
            Ok(out) => Reply::Output(out),
            Err(diags) => Reply::Failed(diags),
        },
    }
}

/// Piped mode, as `terraform console` with standard input not a terminal.
fn piped(g: &Global, session: &Session, input: &mut dyn BufRead, io: &mut Io<'_>) -> i32 {
    let mut last = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        match reply(session, text) {
            Reply::Exit => return 0,
            Reply::Output(out) => last = out,
            Reply::Failed(diags) => {
                for d in &diags {
                    let _ = write!(io.stderr, "{}", render_diag(d, g.color, true));
                }
                return 1;
            }
        }
    }
    if !last.is_empty() {
        let _ = writeln!(io.stdout, "{last}");
    }
    0
}

/// Interactive mode on a terminal, as `terraform console` 1.0.3: every result (an empty line for
/// an empty input) is printed after its line; errors are reported and the session goes on;
/// `exit`, Ctrl-D on an empty line and Ctrl-C on an empty line end it.
fn interactive(
    g: &Global,
    session: &Session,
    input: &mut dyn BufRead,
    mut terminal: Terminal<'_>,
    io: &mut Io<'_>,
) -> i32 {
    loop {
        let line = match terminal.read_line(input, io.stdout) {
            Ok(LineRead::Line(line)) => line,
            Ok(LineRead::Interrupted { had_text: true }) => continue,
            Ok(LineRead::Interrupted { had_text: false } | LineRead::End) => return 0,
            Err(e) => {
                let d = Diagnostic::error("cli", "Failed to read from the terminal")
                    .with_detail(e.to_string());
                let _ = write!(io.stderr, "{}", render_diag(&d, g.color, false));
                return 1;
            }
        };
        match reply(session, line.trim()) {
            Reply::Exit => return 0,
            Reply::Output(out) => {
                let _ = writeln!(io.stdout, "{out}");
            }
            Reply::Failed(diags) => {
                for d in &diags {
                    let _ = write!(io.stderr, "{}", render_diag(d, g.color, true));
                }
                let _ = writeln!(io.stdout);
            }
        }
        let _ = io.stdout.flush();
    }
}

const HELP: &str = "The Terraform console allows you to experiment with Terraform interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: \"aws_instance.foo.id\" would evaluate
to the ID of \"aws_instance.foo\" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type \"exit\" and hit <enter>, or use Control-C or
Control-D.
";

/// The configuration and state expressions are evaluated against.
struct Session {
    loaded: Option<crate::load::Loaded>,
    vars: BTreeMap<String, Value>,
    resources: HashMap<Resource, Value>,
    /// For `module.NAME`: the module tree is expanded and evaluated against it.
    state: Option<State>,
    /// The providers' schemas (their processes are closed), to decode state with.
    providers: Option<ferro_planner::Providers>,
    dir: PathBuf,
    /// The providers started for `provider::LOCAL::NAME(...)` calls, each when a line first
    /// calls one of its functions (closed when the console ends).
    function_providers: FunctionProviders,
}

/// Provider-defined functions in the console: the root module's `required_providers` name
/// them, and a provider is started the first time a line calls one of its functions (as
/// Terraform's console, which starts them all up front).
struct FunctionProviders {
    registry: std::cell::OnceCell<ferro_provider::ProviderRegistry>,
    /// Started providers (or why one could not start), by source address.
    started: RefCell<
        HashMap<
            ferro_addrs::Provider,
            Option<(
                std::sync::Arc<dyn ferro_provider::Provider>,
                BTreeMap<String, ferro_value::schema::FunctionDecl>,
            )>,
        >,
    >,
}

impl Drop for FunctionProviders {
    fn drop(&mut self) {
        if let Some(r) = self.registry.get() {
            r.close_all();
        }
    }
}

impl Session {
    fn load(g: &Global, p: &args::Parsed, raw: &[String]) -> Result<Session, String> {
        let files = read_config_files(&g.dir).map_err(|e| {
            render_diag(
                &Diagnostic::error("cli", "Failed to read configuration").with_detail(e),
                g.color,
                false,
            )
        })?;
        // The selected workspace's state in the configured backend, or the -state file, read
        // with the state's encryption.
        let encryption = crate::encryption::for_state_quiet(g)?;
        let state = match p.value("state") {
            Some(file) => {
                let mut b = ferro_state::LocalBackend::new(g.dir.join(file));
                ferro_state::Backend::set_encryption(&mut b, encryption);
                b.load().map_err(|e| e.0)
            }
            None => crate::backend::location(&g.dir)
                .map_err(crate::backend::ConfigError::text)
                .and_then(|loc| {
                    let ws = ferro_state::workspace::current_workspace(&g.dir);
                    crate::backend::open_workspace(&g.dir, &loc, &ws)
                })
                .and_then(|mut b| {
                    b.set_encryption(encryption);
                    b.load().map_err(|e| e.0)
                }),
        };
        let state = state.map_err(|e| {
            render_diag(
                &Diagnostic::error("cli", "Failed to load state").with_detail(e),
                g.color,
                false,
            )
        })?;
        let mut session = Session {
            loaded: None,
            vars: BTreeMap::new(),
            resources: HashMap::new(),
            state: None,
            providers: None,
            dir: g.dir.clone(),
            function_providers: FunctionProviders {
                registry: std::cell::OnceCell::new(),
                started: RefCell::new(HashMap::new()),
            },
        };
        session.state = state;
        if files.is_empty() {
            return Ok(session);
        }
        // The whole module tree, as plan loads it (`module.NAME.OUT` evaluates the child).
        let mut l = crate::load::load_dir(&g.dir).map_err(|e| {
            render_diag(
                &Diagnostic::error("cli", "Failed to read configuration").with_detail(e),
                g.color,
                false,
            )
        })?;
        // Schemas, so state decodes as plan reads it (as Terraform's console, which starts
        // the providers for theirs); with no resources in state there is nothing to decode and
        // no provider is started.
        if let Some(st) = session.state.as_ref().filter(|st| !st.resources.is_empty()) {
            let registry = ferro_provider::ProviderRegistry::for_working_dir(&g.dir);
            let (providers, _) = crate::load::attach_providers(&mut l, &registry, Some(st));
            registry.close_all();
            session.resources = state_resources(st, Some(&providers));
            session.providers = Some(providers);
        }
        let mut diags = Vec::new();
        config_diagnostics(&l, &mut diags);
        let mut raw_vars = collect_variables(&mut l, &g.dir, &crate::ui::var_args(raw), &mut diags);
        // Unset variables are unknown in the console (Terraform allows them there).
        let index = module_index(&l.db, l.ws.root(&l.db));
        for (name, item) in &index.variables {
            let hir = file_hir(&l.db, item.file);
            if !raw_vars.contains_key(name) && hir.variables[item.index].default.is_none() {
                raw_vars.insert(
                    name.clone(),
                    RawVariable {
                        value: Value::dynamic_unknown(),
                        origin: "the console".into(),
                        source: ferro_planner::VariableSource::Internal,
                        span: None,
                    },
                );
            }
        }
        let (vars, vdiags) = ferro_planner::prepare_variables(&l.db, l.ws, &raw_vars);
        diags.extend(vdiags);
        if let Some(d) = diags.iter().find(|d| d.is_error()) {
            return Err(render_diag(d, g.color, false));
        }
        session.vars = vars;
        session.loaded = Some(l);
        Ok(session)
    }

    fn eval_line(&self, text: &str) -> Result<String, Vec<Diagnostic>> {
        let file = CONSOLE_INPUT;
        let (ast, mut ds) = ferro_syntax::parse_expr(file, text);
        if !ds.is_empty() {
            for d in &mut ds {
                ferro_diag::name_ranges(d, "<console-input>", text);
            }
            return Err(ds);
        }
        let (hir, id) = ferro_hir::lower_standalone_expr(file, &ast);
        if !hir.diagnostics().is_empty() {
            return Err(hir.diagnostics().to_vec());
        }
        let scope = ConsoleScope {
            s: self,
            modules: std::cell::OnceCell::new(),
            input: text,
            locals: RefCell::new(HashMap::new()),
            in_progress: RefCell::new(Vec::new()),
        };
        // `type(x)` is a console-only function: it shows the type of its argument.
        if let Expr::Call { name, args, .. } = &hir.exprs[id] {
            if name == "type" && args.len() == 1 {
                let (v, diags) = eval_expr(&hir, &scope, args[0]);
                if diags.iter().any(Diagnostic::is_error) {
                    return Err(diags);
                }
                return Ok(format_type(&v.ty(), 0));
            }
        }
        let (v, diags) = eval_expr(&hir, &scope, id);
        if diags.iter().any(Diagnostic::is_error) {
            return Err(diags);
        }
        Ok(format_value(&v, 0))
    }
}

/// The root module's resource values from state (one object, a tuple for `count`, an object
/// for `for_each`), decoded with the providers' schemas where known.
fn state_resources(
    st: &State,
    providers: Option<&ferro_planner::Providers>,
) -> HashMap<Resource, Value> {
    st.resources
        .iter()
        .filter(|(addr, _)| addr.module.is_root())
        .map(|(addr, rs)| {
            (
                addr.resource.clone(),
                ferro_planner::state_scope::resource_value(rs, providers),
            )
        })
        .collect()
}

/// The file id of the line being evaluated.
const CONSOLE_INPUT: FileId = FileId(u32::MAX - 1);

struct ConsoleScope<'s> {
    s: &'s Session,
    /// The module tree expanded against the state, built when a line first names a module.
    modules: std::cell::OnceCell<Option<ferro_planner::scope::EvalTree<'s>>>,
    /// The line being evaluated.
    input: &'s str,
    locals: RefCell<HashMap<String, Value>>,
    in_progress: RefCell<Vec<String>>,
}

impl ConsoleScope<'_> {
    #[allow(clippy::result_large_err)]
    fn local(&self, name: &str) -> Result<Value, Diagnostic> {
        if let Some(v) = self.locals.borrow().get(name) {
            return Ok(v.clone());
        }
        let Some(l) = &self.s.loaded else {
            return Err(ferro_db::undeclared_local(name, None));
        };
        let index = module_index(&l.db, l.ws.root(&l.db));
        let Some(item) = index.locals.get(name) else {
            return Err(ferro_db::undeclared_local(
                name,
                ferro_db::suggest(name, index.locals.keys()),
            ));
        };
        if self.in_progress.borrow().iter().any(|n| n == name) {
            return Err(Diagnostic::error("cycle", "Cycle in local values")
                .with_detail(format!("The local value {name:?} refers to itself.")));
        }
        self.in_progress.borrow_mut().push(name.to_string());
        let hir: &FileHir = file_hir(&l.db, item.file);
        let (v, diags) = eval_expr(hir, self, hir.locals[item.index].expr);
        self.in_progress.borrow_mut().retain(|n| n != name);
        if let Some(d) = diags.into_iter().find(Diagnostic::is_error) {
            return Err(d);
        }
        self.locals.borrow_mut().insert(name.to_string(), v.clone());
        Ok(v)
    }

    /// `module.NAME`, its outputs evaluated against the state (the module tree expanded as its
    /// calls' `count` and `for_each` say).
    #[allow(clippy::result_large_err)]
    fn module_value(&self, name: &str) -> Result<Value, Diagnostic> {
        let tree = self.modules.get_or_init(|| {
            let l = self.s.loaded.as_ref()?;
            let tree = ferro_planner::scope::EvalTree::new(
                &l.db,
                l.ws,
                self.s.vars.clone(),
                false,
                self.s.dir.display().to_string(),
            );
            let empty = State::new(String::new());
            let state = self.s.state.as_ref().unwrap_or(&empty);
            ferro_planner::state_scope::expand_from_state(&tree, state, self.s.providers.as_ref());
            Some(tree)
        });
        match tree {
            Some(t) => t.root().module_value(name),
            None => Ok(Value::dynamic_unknown()),
        }
    }

    fn declared(&self, r: &Resource) -> bool {
        match &self.s.loaded {
            Some(l) => module_index(&l.db, l.ws.root(&l.db))
                .resources
                .contains_key(r),
            None => false,
        }
    }
}

impl Session {
    /// The provider the root module calls `local`, started (once) with its function
    /// declarations; None when it is not required or cannot start.
    #[allow(clippy::type_complexity)]
    fn function_provider(
        &self,
        local: &str,
    ) -> Option<(
        std::sync::Arc<dyn ferro_provider::Provider>,
        BTreeMap<String, ferro_value::schema::FunctionDecl>,
    )> {
        let l = self.loaded.as_ref()?;
        let root = l.ws.root(&l.db);
        if !module_index(&l.db, root)
            .required_providers
            .contains_key(local)
        {
            return None;
        }
        let addr = ferro_db::provider_source(&l.db, root, local).ok()?;
        let fp = &self.function_providers;
        if let Some(known) = fp.started.borrow().get(&addr) {
            return known.clone();
        }
        let registry = fp
            .registry
            .get_or_init(|| ferro_provider::ProviderRegistry::for_working_dir(&self.dir));
        let started = ferro_provider::ProviderSource::get(registry, &addr)
            .ok()
            .and_then(|p| {
                let functions = p.schema().ok()?.functions;
                Some((p, functions))
            });
        fp.started.borrow_mut().insert(addr, started.clone());
        started
    }
}

impl ferro_eval::ProviderFunctions for ConsoleScope<'_> {
    fn lookup(&self, local: &str, name: &str) -> ferro_eval::ProviderFunctionLookup {
        use ferro_eval::ProviderFunctionLookup as L;
        let required = self.s.loaded.as_ref().is_some_and(|l| {
            module_index(&l.db, l.ws.root(&l.db))
                .required_providers
                .contains_key(local)
        });
        if !required {
            return L::NotRequired;
        }
        match self.s.function_provider(local) {
            Some((_, fs)) => L::in_declarations(&fs, name),
            None => L::Unavailable,
        }
    }
    fn call(
        &self,
        local: &str,
        name: &str,
        args: &[Value],
    ) -> Result<Value, ferro_eval::ProviderCallError> {
        let Some((p, _)) = self.s.function_provider(local) else {
            return Ok(Value::dynamic_unknown());
        };
        p.call_function(name, args)
            .map_err(|e| ferro_eval::ProviderCallError {
                text: e.text,
                argument: e.argument,
            })
    }
}

impl Scope for ConsoleScope<'_> {
    fn provider_functions(&self) -> Option<&dyn ferro_eval::ProviderFunctions> {
        Some(self)
    }
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        match r {
            Reference::Var(n) => self
                .s
                .vars
                .get(n)
                .cloned()
                .ok_or_else(|| ferro_db::undeclared_variable(n, ferro_db::suggest(n, self.s.vars.keys()))),
            Reference::Local(n) => self.local(n),
            Reference::Resource(res) => {
                if !self.declared(res) {
                    let kind = match res.mode {
                        ferro_addrs::ResourceMode::Data => "A data resource",
                        ferro_addrs::ResourceMode::Managed => "A managed resource",
                        ferro_addrs::ResourceMode::Ephemeral => "An ephemeral resource",
                    };
                    return Err(Diagnostic::error("undeclared-reference", "Reference to undeclared resource").with_detail(format!(
                        "{kind} {:?} {:?} has not been declared in the root module.",
                        res.ty, res.name
                    )));
                }
                Ok(self.s.resources.get(res).cloned().unwrap_or_else(Value::dynamic_unknown))
            }
            Reference::CountIndex => Err(Diagnostic::error("invalid-reference", "Reference to \"count\" in non-counted context").with_detail(
                "The \"count\" object can only be used in \"module\", \"resource\", and \"data\" blocks, and only when the \"count\" argument is set.",
            )),
            Reference::EachKey | Reference::EachValue => Err(Diagnostic::error("invalid-reference", "Reference to \"each\" in context without for_each").with_detail(
                "The \"each\" object can be used only in \"module\" or \"resource\" blocks, and only when the \"for_each\" argument is set.",
            )),
            Reference::PathModule | Reference::PathRoot => Ok(Value::string(".")),
            Reference::PathCwd => Ok(Value::string(self.s.dir.display().to_string())),
            Reference::TerraformWorkspace => Ok(Value::string(
                ferro_state::workspace::current_workspace(&self.s.dir),
            )),
            // The console never applies.
            Reference::TerraformApplying => {
                Ok(Value::bool(false).with_marks(ferro_value::Marks::EPHEMERAL))
            }
            Reference::SelfRef => Err(Diagnostic::error("invalid-self", "Invalid \"self\" reference")
                .with_detail("The \"self\" object is only available in provisioner and connection blocks.")),
            // Module outputs are not kept in state (only the root's are), so the console knows
            // only that the module exists.
            Reference::Module(n) => {
                let calls = self
                    .s
                    .loaded
                    .as_ref()
                    .map(|l| module_index(&l.db, l.ws.root(&l.db)).module_calls.keys().cloned().collect::<Vec<_>>())
                    .unwrap_or_default();
                if calls.contains(n) {
                    return self.module_value(n);
                }
                let detail = match ferro_db::suggest(n, calls.iter()) {
                    Some(close) => format!("No module call named {n:?} is declared in the root module. Did you mean {close:?}?"),
                    None => format!("No module call named {n:?} is declared in the root module."),
                };
                Err(Diagnostic::error("undeclared-module", "Reference to undeclared module").with_detail(detail))
            }
        }
    }
    fn base_dir(&self) -> &Path {
        &self.s.dir
    }
    fn source(&self, file: FileId) -> Option<(&str, &str)> {
        if file == CONSOLE_INPUT {
            return Some(("<console-input>", self.input));
        }
        let l = self.s.loaded.as_ref()?;
        l.sources
            .iter()
            .find(|s| s.0 == file)
            .map(|(_, name, text)| (name.as_str(), text.as_str()))
    }
}

// ---- diagnostics (terraform's format.Diagnostic without source) ----

/// Wrap a diagnostic's detail as Terraform does: each line on its own, except that lines
/// starting with a space are taken as preformatted and left alone.
fn wrap(text: &str, width: usize) -> String {
    let lines: Vec<String> = text
        .split('\n')
        .map(|l| {
            if l.starts_with(' ') {
                l.to_string()
            } else {
                wrap_line(l, width)
            }
        })
        .collect();
    lines.join("\n")
}

/// Word wrap of one line at `width` columns as go-wordwrap's `WrapString` (1.0.1) does it: a
/// word that would pass the limit goes to a new line (dropping the spaces before it) unless it
/// is itself that long; other spaces are kept. Widths are counted in UTF-8 bytes, as that
/// version counts them (`é` takes two columns).
fn wrap_line(text: &str, width: usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut current = 0;
    let (mut word, mut spaces) = (String::new(), String::new());
    let (mut word_len, mut spaces_len) = (0, 0);
    for c in text.chars() {
        if c.is_whitespace() && c != '\u{a0}' {
            if spaces.is_empty() || !word.is_empty() {
                current += spaces_len + word_len;
                out.push_str(&spaces);
                spaces.clear();
                spaces_len = 0;
                out.push_str(&word);
                word.clear();
                word_len = 0;
            }
            spaces.push(c);
            spaces_len += c.len_utf8();
        } else {
            word.push(c);
            word_len += c.len_utf8();
            if current + spaces_len + word_len > width && word_len < width {
                out.push('\n');
                current = 0;
                spaces.clear();
                spaces_len = 0;
            }
        }
    }
    if word.is_empty() {
        if current + spaces_len <= width {
            out.push_str(&spaces);
        }
    } else {
        out.push_str(&spaces);
        out.push_str(&word);
    }
    out
}

fn render_diag(d: &Diagnostic, color: bool, console_input: bool) -> String {
    let sev = if d.is_error() { "Error" } else { "Warning" };
    let mut body = Vec::new();
    body.push(format!("{sev}: {}", d.summary));
    body.push(String::new());
    if console_input {
        body.push("  on <console-input> line 1:".into());
        body.push("  (source code not available)".into());
        body.push(String::new());
    }
    if !d.detail.is_empty() {
        for l in wrap(&d.detail, 77).split('\n') {
            body.push(l.to_string());
        }
    }
    if color {
        let mut out = String::from("╷\n");
        for l in body {
            out.push_str(format!("│ {l}").trim_end());
            out.push('\n');
        }
        out.push_str("╵\n");
        return out;
    }
    let mut out = String::from("\n");
    for l in body {
        out.push_str(&l);
        out.push('\n');
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn details_wrap_like_terraform() {
        let long = "The given key does not identify an element in this collection value: a negative number is not a valid index for a sequence.";
        assert_eq!(
            wrap(long, 77),
            "The given key does not identify an element in this collection value: a\nnegative number is not a valid index for a sequence."
        );
        // Lines starting with a space are preformatted (try's list of diagnostics).
        let listed = format!(
            "no expression succeeded:\n- Invalid index (at x.tf:1,2-3)\n  {long}\n\nAt least one."
        );
        assert_eq!(wrap(&listed, 77), listed);
        // Runs of spaces are kept; a word longer than the width stays whole.
        assert_eq!(wrap("a  b", 77), "a  b");
        let word = "x".repeat(90);
        assert_eq!(
            wrap(&format!("see {word} here"), 77),
            format!("see\n{word}\nhere")
        );
    }
}
