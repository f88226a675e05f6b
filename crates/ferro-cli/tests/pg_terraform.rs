//! ferro and Terraform 1.0.3 sharing one PostgreSQL database (and one working directory):
//! each reads the state the other wrote, each sees the other's workspaces, and each is locked
//! out while the other applies. Needs a server (see `pg_support`) and Terraform from
//! `tools/fetch-oracles.sh`.

mod pg_support;
use pg_support::*;

fn config(conn: &str, value: u32) -> String {
    // Outputs only: both tools apply it without any provider plugin.
    format!("{}output \"x\" {{\n  value = {value}\n}}\n", backend(conn))
}

#[test]
fn ferro_and_terraform_share_a_pg_backend() {
    let tf = terraform();
    let db = Db::new("tf");
    let d = TempDir::new("tf");
    d.write("main.tf", &config(&db.conn, 1));

    // Terraform initialises and writes; ferro (with Terraform's .terraform) reads it.
    ok(&tf, &d.0, &["init", "-input=false", "-no-color"]);
    ok(
        &tf,
        &d.0,
        &["apply", "-auto-approve", "-input=false", "-no-color"],
    );
    assert_eq!(ok(FERRO, &d.0, &["output", "-raw", "x"]), "1");
    let by_tf = ferro_state::read_state(db.rows()[0].1.as_bytes()).unwrap();

    // ferro writes; Terraform reads, same lineage, next serial.
    d.write("main.tf", &config(&db.conn, 2));
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    let by_ferro = ferro_state::read_state(db.rows()[0].1.as_bytes()).unwrap();
    assert_eq!(by_ferro.lineage, by_tf.lineage);
    assert_eq!(by_ferro.serial, by_tf.serial + 1);
    assert_eq!(ok(&tf, &d.0, &["output", "-raw", "x"]), "2");
    // ferro's `init` records the backend with Terraform's hash: Terraform accepts it.
    let by_tf_init = std::fs::read_to_string(d.0.join(".terraform/terraform.tfstate")).unwrap();
    std::fs::remove_file(d.0.join(".terraform/terraform.tfstate")).unwrap();
    ok(FERRO, &d.0, &["-no-color", "init"]);
    let by_ferro_init = std::fs::read_to_string(d.0.join(".terraform/terraform.tfstate")).unwrap();
    let hash = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap()["backend"].clone();
    assert_eq!(hash(&by_ferro_init), hash(&by_tf_init));
    ok(&tf, &d.0, &["plan", "-input=false", "-no-color"]);

    // Terraform holds the lock (waiting for approval): ferro must not run.
    d.write("main.tf", &config(&db.conn, 3));
    let tf_run = start(&tf, &d.0, &["apply", "-input=true", "-no-color"]);
    db.wait_for_lock();
    let blocked = run(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    let err = text(&blocked.stderr);
    assert_eq!(blocked.status.code(), Some(1), "{err}");
    assert!(
        err.contains("Workspace is already locked: default"),
        "{err}"
    );
    assert!(err.contains("held by PostgreSQL backend process"), "{err}");
    let done = approve(tf_run);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert_eq!(ok(FERRO, &d.0, &["output", "-raw", "x"]), "3");

    // ferro holds the lock: Terraform must not run, and the row is untouched.
    d.write("main.tf", &config(&db.conn, 4));
    let ferro_run = start(FERRO, &d.0, &["-no-color", "apply"]);
    db.wait_for_lock();
    let before = db.rows();
    let blocked = run(
        &tf,
        &d.0,
        &["apply", "-auto-approve", "-input=false", "-no-color"],
    );
    let err = text(&blocked.stderr);
    assert_eq!(blocked.status.code(), Some(1), "{err}");
    assert!(
        err.contains("Workspace is already locked: default"),
        "{err}"
    );
    assert_eq!(db.rows(), before);
    let done = approve(ferro_run);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert_eq!(ok(&tf, &d.0, &["output", "-raw", "x"]), "4");

    // Workspaces made by one tool are seen by the other.
    ok(&tf, &d.0, &["workspace", "new", "-no-color", "tfws"]);
    ok(FERRO, &d.0, &["workspace", "new", "fws"]);
    let tf_list = ok(&tf, &d.0, &["workspace", "list", "-no-color"]);
    assert!(
        tf_list.contains("tfws") && tf_list.contains("* fws"),
        "{tf_list}"
    );
    let ferro_list = ok(FERRO, &d.0, &["workspace", "list"]);
    assert_eq!(ferro_list, "  default\n* fws\n  tfws\n\n");
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(ok(&tf, &d.0, &["output", "-raw", "x"]), "4");
    ok(&tf, &d.0, &["workspace", "select", "-no-color", "default"]);
    ok(&tf, &d.0, &["workspace", "delete", "-no-color", "fws"]);
    assert_eq!(
        ok(FERRO, &d.0, &["workspace", "list"]),
        "* default\n  tfws\n\n"
    );
}
