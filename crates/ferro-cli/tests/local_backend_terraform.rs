//! A `backend "local"` block with `path` and `workspace_dir`, shared with Terraform 1.0.3: each
//! tool finds the states where the other put them, and each accepts the other's `init` (the
//! recorded configuration and its hash are Terraform's). Needs Terraform from
//! `tools/fetch-oracles.sh`.

mod pg_support;
use pg_support::{ok, terraform, TempDir, FERRO};

const BACKEND: &str = "terraform {\n  backend \"local\" {\n    path          = \"states/main.tfstate\"\n    workspace_dir = \"states/ws\"\n  }\n}\n";

fn config(value: u32) -> String {
    // Outputs only: both tools apply it without any provider plugin.
    format!("{BACKEND}output \"x\" {{\n  value = {value}\n}}\n")
}

#[test]
fn ferro_and_terraform_agree_on_a_local_backend_layout() {
    let tf = terraform();
    let d = TempDir::new("local-layout");
    d.write("main.tf", &config(1));

    ok(&tf, &d.0, &["init", "-input=false", "-no-color"]);
    ok(
        &tf,
        &d.0,
        &["apply", "-auto-approve", "-input=false", "-no-color"],
    );
    assert!(d.0.join("states/main.tfstate").exists());
    assert!(!d.0.join("terraform.tfstate").exists());
    // ferro reads the state where the block puts it, without an init of its own.
    assert_eq!(ok(FERRO, &d.0, &["output", "-raw", "x"]), "1");

    // A workspace: under workspace_dir, for both.
    ok(FERRO, &d.0, &["-no-color", "workspace", "new", "dev"]);
    d.write("main.tf", &config(2));
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(d.0.join("states/ws/dev/terraform.tfstate").exists());
    assert_eq!(ok(&tf, &d.0, &["output", "-raw", "x"]), "2");
    ok(&tf, &d.0, &["workspace", "select", "default"]);
    assert_eq!(ok(&tf, &d.0, &["output", "-raw", "x"]), "1");

    // ferro's init records the block as Terraform does: Terraform runs without asking for one.
    let by_tf = std::fs::read_to_string(d.0.join(".terraform/terraform.tfstate")).unwrap();
    std::fs::remove_file(d.0.join(".terraform/terraform.tfstate")).unwrap();
    ok(FERRO, &d.0, &["-no-color", "init", "-input=false"]);
    let by_ferro = std::fs::read_to_string(d.0.join(".terraform/terraform.tfstate")).unwrap();
    let backend =
        |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap()["backend"].clone();
    assert_eq!(backend(&by_ferro), backend(&by_tf));
    assert_eq!(ok(&tf, &d.0, &["output", "-raw", "x"]), "1");
}
