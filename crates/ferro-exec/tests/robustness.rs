//! The interpreter never hangs and never loses completed work: a panicking step becomes an error
//! naming its address (and the state of what completed is saved), a crashed provider is
//! reported once rather than once per remaining instance, and a plan that fails its own
//! consistency checks is refused before anything runs.

use ferro_addrs::Provider as ProviderAddr;
use ferro_db::{RootDb, SchemaTable, Setter, SourceFile, Workspace};
use ferro_diag::{Diagnostic, FileId};
use ferro_exec::{apply, ApplyInput};
use ferro_plan::{EdgeKind, Plan, Step};
use ferro_planner::{load_providers, plan, PlanInput, PlanOptions, Providers};
use ferro_provider::*;
use ferro_sdk::SdkProvider;
use ferro_state::{LocalBackend, State};
use ferro_value::Value;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// The built-in provider, except that applying an object whose input is "panic" panics, and one
/// whose input is "crash" ends the "process": every later call fails as a dead plugin does.
struct Fragile {
    inner: SdkProvider,
    dead: AtomicBool,
    applies: AtomicUsize,
}

impl Fragile {
    fn gone() -> ProviderDiagnostic {
        ProviderDiagnostic::error(
            "Plugin did not respond",
            "The plugin encountered an error, and failed to respond to the plugin.(*GRPCProvider).ApplyResourceChange call. The plugin process for provider test exited unexpectedly.",
        )
    }
}

impl Provider for Fragile {
    fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>> {
        self.inner.schema()
    }
    fn configure(&self, config: &Value) -> Vec<ProviderDiagnostic> {
        self.inner.configure(config)
    }
    fn validate_resource_config(&self, type_name: &str, config: &Value) -> Vec<ProviderDiagnostic> {
        self.inner.validate_resource_config(type_name, config)
    }
    fn upgrade_resource_state(&self, req: UpgradeRequest<'_>) -> UpgradeResponse {
        self.inner.upgrade_resource_state(req)
    }
    fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse {
        self.inner.read_resource(req)
    }
    fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse {
        if self.dead.load(Ordering::SeqCst) {
            let mut r = self.inner.plan_resource_change(req);
            r.diagnostics.push(Self::gone());
            return r;
        }
        self.inner.plan_resource_change(req)
    }
    fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse {
        self.applies.fetch_add(1, Ordering::SeqCst);
        let input = req.config.get_attr("input").and_then(Value::as_str);
        if input == Some("panic") {
            panic!("the provider stub was told to panic");
        }
        if input == Some("crash") {
            self.dead.store(true, Ordering::SeqCst);
        }
        if self.dead.load(Ordering::SeqCst) {
            return ApplyResponse {
                new_state: Value::null(req.planned_state.ty()),
                private: Vec::new(),
                diagnostics: vec![Self::gone()],
                legacy_type_system: false,
                new_identity: None,
            };
        }
        self.inner.apply_resource_change(req)
    }
    fn crashed(&self) -> bool {
        self.dead.load(Ordering::SeqCst)
    }
}

struct Source(Arc<Fragile>);

impl ProviderSource for Source {
    fn get(&self, _addr: &ProviderAddr) -> Result<Arc<dyn Provider>, String> {
        Ok(self.0.clone())
    }
}

struct Case {
    db: RootDb,
    ws: Workspace,
    providers: Providers,
    provider: Arc<Fragile>,
    plan: Plan,
    dir: PathBuf,
}

fn planned(name: &str, config: &str) -> Case {
    let dir = std::env::temp_dir().join(format!("ferro-exec-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut db = RootDb::default();
    let file = SourceFile::new(&db, "main.tf".into(), config.into(), FileId(0));
    let ws = Workspace::single(&db, vec![file], Arc::new(SchemaTable::default()));
    let provider = Arc::new(Fragile {
        inner: ferro_providers::terraform::provider(std::path::Path::new(".")),
        dead: AtomicBool::new(false),
        applies: AtomicUsize::new(0),
    });
    let (providers, diags) = load_providers(&db, ws, &Source(provider.clone()), None);
    assert!(diags.is_empty(), "{diags:?}");
    ws.set_schemas(&mut db)
        .to(Arc::new(providers.schema_table()));
    let input = PlanInput {
        db: &db,
        ws,
        files: vec![("main.tf".into(), config.into())],
        state: None,
        variables: Default::default(),
        providers: &providers,
        options: PlanOptions {
            refresh: true,
            ..Default::default()
        },
        cwd: dir.display().to_string(),
        on_refresh: None,
        on_ephemeral: None,
    };
    let (plan, diags) = plan(input);
    assert!(diags.is_empty(), "{diags:?}");
    let plan = plan.expect("a plan");
    Case {
        db,
        ws,
        providers,
        provider,
        plan,
        dir,
    }
}

impl Case {
    /// The state returned, the diagnostics, and the state file's resources (none without one).
    fn apply(&self, parallelism: usize) -> (State, Vec<Diagnostic>, Vec<String>) {
        let mut backend = LocalBackend::new(self.dir.join("terraform.tfstate"));
        // Apply takes the plan's changes; each run applies a copy, so a case can run again.
        let mut plan = self.plan.clone();
        let input = ApplyInput {
            db: &self.db,
            ws: self.ws,
            plan: &mut plan,
            providers: &self.providers,
            parallelism,
            cwd: self.dir.display().to_string(),
            interrupt: None,
        };
        let (state, diags) = apply(input, &mut backend, &|_| {});
        let on_disk = LocalBackend::new(self.dir.join("terraform.tfstate"))
            .load()
            .unwrap()
            .map(|s| names(&s))
            .unwrap_or_default();
        let _ = std::fs::remove_dir_all(&self.dir);
        (state, diags, on_disk)
    }
}

fn names(s: &State) -> Vec<String> {
    let mut out = Vec::new();
    for (r, rs) in &s.resources {
        for k in rs.instances.keys() {
            out.push(format!("{r}{k}"));
        }
    }
    out
}

#[test]
fn a_panicking_step_is_an_error_with_its_address_and_completed_work_is_saved() {
    let case = planned(
        "panic",
        r#"
resource "terraform_data" "ok" {
  input = "fine"
}

resource "terraform_data" "bad" {
  input      = "panic"
  depends_on = [terraform_data.ok]
}

resource "terraform_data" "after" {
  input = terraform_data.bad.output
}
"#,
    );
    let (state, diags, on_disk) = case.apply(2);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{diags:?}");
    assert_eq!(errors[0].summary, "Internal error");
    assert_eq!(errors[0].address.as_deref(), Some("terraform_data.bad"));
    assert!(
        errors[0]
            .detail
            .contains("the provider stub was told to panic"),
        "{:?}",
        errors[0]
    );
    assert_eq!(names(&state), vec!["terraform_data.ok"]);
    assert_eq!(on_disk, vec!["terraform_data.ok"]);
}

#[test]
fn a_crashed_provider_is_reported_once() {
    let mut config =
        String::from("resource \"terraform_data\" \"first\" {\n  input = \"crash\"\n}\n");
    for i in 0..30 {
        config.push_str(&format!(
            "resource \"terraform_data\" \"r{i}\" {{\n  input      = \"x\"\n  depends_on = [terraform_data.first]\n}}\n"
        ));
    }
    let case = planned("crash", &config);
    let (state, diags, _) = case.apply(4);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].summary, "Plugin did not respond");
    assert_eq!(errors[0].address.as_deref(), Some("terraform_data.first"));
    assert!(state.resources.is_empty());
    assert_eq!(case.provider.applies.load(Ordering::SeqCst), 1);

    // Instances already running when the provider died fail too, but the crash is still
    // reported once.
    let mut config =
        String::from("resource \"terraform_data\" \"boom\" {\n  input = \"crash\"\n}\n");
    for i in 0..30 {
        config.push_str(&format!(
            "resource \"terraform_data\" \"r{i}\" {{\n  input = \"x\"\n}}\n"
        ));
    }
    let case = planned("crash-parallel", &config);
    let (_, diags, _) = case.apply(8);
    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].summary, "Plugin did not respond");
}

const TWO: &str = r#"
resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "b" {
  input = terraform_data.a.output
}
"#;

fn refused(mut damage: impl FnMut(&mut Plan), expect: &str) {
    let mut case = planned("invalid", TWO);
    damage(&mut case.plan);
    // A damaged saved plan file is refused when it is read.
    let bytes = ferro_plan::write_plan_file(&case.plan).unwrap();
    let err = ferro_plan::read_plan_file(&bytes).unwrap_err().to_string();
    assert!(err.contains(expect), "{err}");
    // And apply refuses it before calling the provider.
    let (state, diags, on_disk) = case.apply(2);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0].summary, "Invalid plan");
    assert!(diags[0].detail.contains(expect), "{:?}", diags[0]);
    assert!(state.resources.is_empty());
    assert!(on_disk.is_empty());
    assert_eq!(case.provider.applies.load(Ordering::SeqCst), 0);
}

#[test]
fn a_plan_with_an_unknown_step_index_is_refused() {
    refused(
        |p| {
            p.graph.add_node(Step::Apply(7));
        },
        "an apply step refers to change 7, but the plan has only 2",
    );
    refused(
        |p| {
            p.graph.add_node(Step::Output(3));
        },
        "an output step refers to change 3, but the plan has only 0",
    );
}

#[test]
fn a_plan_whose_steps_form_a_cycle_is_refused() {
    refused(
        |p| {
            let find = |p: &Plan, i: u32| {
                p.graph
                    .node_indices()
                    .find(|n| p.graph[*n] == Step::Apply(i))
                    .unwrap()
            };
            let (a, b) = (find(p, 0), find(p, 1));
            p.graph.add_edge(a, b, EdgeKind::Reference);
            p.graph.add_edge(b, a, EdgeKind::Reference);
        },
        "its steps form a cycle",
    );
}
