//! A provider error in the middle of an apply: what completed before it is in the state file,
//! the failing instance is reported with its address, and what depends on it is not attempted.

use ferro_addrs::Provider as ProviderAddr;
use ferro_db::{diagnostics, RootDb, SchemaTable, Setter, SourceFile, Workspace};
use ferro_diag::FileId;
use ferro_exec::{apply, ApplyInput};
use ferro_planner::{load_providers, plan, PlanInput, PlanOptions};
use ferro_provider::*;
use ferro_sdk::SdkProvider;
use ferro_state::LocalBackend;
use ferro_value::Value;
use std::sync::Arc;

/// The built-in provider, except that applying an object whose input is "boom" fails.
struct Exploding(SdkProvider);

impl Provider for Exploding {
    fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>> {
        self.0.schema()
    }
    fn configure(&self, config: &Value) -> Vec<ProviderDiagnostic> {
        self.0.configure(config)
    }
    fn validate_resource_config(&self, type_name: &str, config: &Value) -> Vec<ProviderDiagnostic> {
        self.0.validate_resource_config(type_name, config)
    }
    fn upgrade_resource_state(&self, req: UpgradeRequest<'_>) -> UpgradeResponse {
        self.0.upgrade_resource_state(req)
    }
    fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse {
        self.0.read_resource(req)
    }
    fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse {
        self.0.plan_resource_change(req)
    }
    fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse {
        if req.config.get_attr("input").and_then(Value::as_str) == Some("boom") {
            return ApplyResponse {
                new_state: Value::null(req.planned_state.ty()),
                private: Vec::new(),
                diagnostics: vec![ProviderDiagnostic::error(
                    "the remote API said no",
                    "quota exceeded",
                )],
                legacy_type_system: false,
                new_identity: None,
            };
        }
        self.0.apply_resource_change(req)
    }
}

struct Source(Arc<dyn Provider>);

impl ProviderSource for Source {
    fn get(&self, _addr: &ProviderAddr) -> Result<Arc<dyn Provider>, String> {
        Ok(self.0.clone())
    }
}

const CONFIG: &str = r#"
resource "terraform_data" "ok" {
  input = "fine"
}

resource "terraform_data" "bad" {
  input      = "boom"
  depends_on = [terraform_data.ok]
}

resource "terraform_data" "after" {
  input = terraform_data.bad.output
}
"#;

#[test]
fn completed_changes_survive_a_failure() {
    run_case("partial", None);
}

#[test]
fn an_interrupt_before_start_changes_nothing() {
    let int = ferro_exec::Interrupt::new();
    int.request_stop();
    run_case("interrupted", Some(&int));
}

fn run_case(name: &str, interrupt: Option<&ferro_exec::Interrupt>) {
    let dir = std::env::temp_dir().join(format!("ferro-exec-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    let mut db = RootDb::default();
    let file = SourceFile::new(&db, "main.tf".into(), CONFIG.into(), FileId(0));
    let ws = Workspace::single(&db, vec![file], Arc::new(SchemaTable::default()));
    let source = Source(Arc::new(Exploding(ferro_providers::terraform::provider(
        std::path::Path::new("."),
    ))));
    let (providers, diags) = load_providers(&db, ws, &source, None);
    assert!(diags.is_empty(), "{diags:?}");
    ws.set_schemas(&mut db)
        .to(Arc::new(providers.schema_table()));
    assert!(diagnostics(&db, ws).is_empty());

    let input = PlanInput {
        db: &db,
        ws,
        files: vec![("main.tf".into(), CONFIG.into())],
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
    let (planned, diags) = plan(input);
    assert!(diags.is_empty(), "{diags:?}");
    let mut planned = planned.expect("a plan");
    assert_eq!(planned.counts(), (3, 0, 0));

    let mut backend = LocalBackend::new(dir.join("terraform.tfstate"));
    let apply_input = ApplyInput {
        db: &db,
        ws,
        plan: &mut planned,
        providers: &providers,
        parallelism: 4,
        cwd: dir.display().to_string(),
        interrupt,
    };
    let (state, diags) = apply(apply_input, &mut backend, &|_| {});

    let errors: Vec<_> = diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{diags:?}");
    if interrupt.is_some() {
        assert_eq!(errors[0].summary, "execution halted");
        assert!(state.resources.is_empty(), "nothing was applied");
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    assert!(
        errors[0].summary.contains("the remote API said no")
            || errors[0].detail.contains("the remote API said no"),
        "{:?}",
        errors[0]
    );
    assert_eq!(errors[0].address.as_deref(), Some("terraform_data.bad"));

    let names: Vec<String> = state.resources.keys().map(|r| r.to_string()).collect();
    assert_eq!(names, vec!["terraform_data.ok".to_string()]);

    // And the file on disk says the same.
    let on_disk = LocalBackend::new(dir.join("terraform.tfstate"))
        .load()
        .unwrap()
        .expect("state written");
    let names: Vec<String> = on_disk.resources.keys().map(|r| r.to_string()).collect();
    assert_eq!(names, vec!["terraform_data.ok".to_string()]);
    let _ = std::fs::remove_dir_all(&dir);
}
