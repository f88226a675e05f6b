//! The PostgreSQL backend against a real server: init, apply, state commands, workspaces,
//! two concurrent applies, force-unlock, and `init -migrate-state` in both directions.
//! Needs a server: `FERRO_PG_CONN_STR`, else `tools/pg-test-server.sh` starts one; without one
//! these tests fail.

mod pg_support;
use pg_support::*;

fn config(conn: &str, input: &str) -> String {
    format!(
        "{}resource \"terraform_data\" \"a\" {{\n  input = \"{input}\"\n}}\noutput \"x\" {{\n  value = terraform_data.a.output\n}}\n",
        backend(conn)
    )
}

#[test]
fn pg_backend_commands_workspaces_and_concurrent_applies() {
    let db = Db::new("cmds");
    let d = TempDir::new("cmds");
    d.write("main.tf", &config(&db.conn, "one"));

    // Before init, commands ask for it.
    let o = run(FERRO, &d.0, &["-no-color", "plan"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("Backend initialization required"));

    let out = ok(FERRO, &d.0, &["-no-color", "init"]);
    assert!(
        out.contains("Successfully configured the backend \"pg\""),
        "{out}"
    );
    let meta = std::fs::read_to_string(d.0.join(".terraform/terraform.tfstate")).unwrap();
    assert!(meta.contains("\"type\": \"pg\""), "{meta}");

    // Two applies at once on a workspace that has no row yet: the creation lock (-1).
    let first = start(FERRO, &d.0, &["-no-color", "apply"]);
    db.wait_for_lock();
    let second = run(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(err.contains("Error acquiring the state lock"), "{err}");
    assert!(
        err.contains("Already locked for workspace creation: default"),
        "{err}"
    );
    assert!(err.contains("Operation: OperationTypeApply"), "{err}");
    assert!(err.contains("held by PostgreSQL backend process"), "{err}");
    assert!(!text(&second.stdout).contains("Creating..."));
    let done = approve(first);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert!(text(&done.stdout).contains("1 added"));
    let rows = db.rows();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].0, "default");
    assert!(rows[0].1.contains("\"terraform_data\""));

    // Again with the row there: the row's lock; the loser names the holder's lock ID.
    d.write("main.tf", &config(&db.conn, "two"));
    let first = start(FERRO, &d.0, &["-no-color", "apply"]);
    db.wait_for_lock();
    let second = run(
        FERRO,
        &d.0,
        &["-no-color", "apply", "-auto-approve", "-lock-timeout=1s"],
    );
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(
        err.contains("Workspace is already locked: default"),
        "{err}"
    );
    let id = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("ID:"))
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    assert_eq!(id.len(), 36, "{err}");
    let done = approve(first);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert!(text(&done.stdout).contains("1 changed"));
    // Nothing lost: the next run sees the winner's state.
    let again = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(again.contains("No changes."), "{again}");
    assert_eq!(ok(FERRO, &d.0, &["output", "-raw", "x"]), "two");

    // State commands read and write the row.
    assert!(ok(FERRO, &d.0, &["state", "list"]).contains("terraform_data.a"));
    let pulled = ok(FERRO, &d.0, &["state", "pull"]);
    assert_eq!(pulled.trim(), db.rows()[0].1.trim());
    ok(FERRO, &d.0, &["taint", "terraform_data.a"]);
    assert!(db.rows()[0].1.contains("\"status\": \"tainted\""));
    ok(FERRO, &d.0, &["untaint", "terraform_data.a"]);
    assert!(!db.rows()[0].1.contains("tainted"));

    // force-unlock ends the session holding a ferro lock.
    d.write("main.tf", &config(&db.conn, "three"));
    let holder = start(FERRO, &d.0, &["-no-color", "apply"]);
    db.wait_for_lock();
    let blocked = run(FERRO, &d.0, &["-no-color", "plan"]);
    let err = text(&blocked.stderr);
    let id = err
        .lines()
        .find_map(|l| l.trim().strip_prefix("ID:"))
        .map(|s| s.trim().to_string())
        .unwrap();
    let out = ok(FERRO, &d.0, &["force-unlock", "-force", &id]);
    assert!(out.contains("successfully unlocked"), "{out}");
    let bad = run(FERRO, &d.0, &["force-unlock", "-force", "no-such-lock"]);
    assert_eq!(bad.status.code(), Some(1));
    // The unlocked holder cannot write any more: it fails and keeps its state in errored.tfstate.
    let killed = approve(holder);
    assert_ne!(killed.status.code(), Some(0));
    let _ = std::fs::remove_file(d.0.join("errored.tfstate"));
    let conv = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(conv.contains("Apply complete!"), "{conv}");
    assert_eq!(ok(FERRO, &d.0, &["output", "-raw", "x"]), "three");

    // Workspaces are rows.
    let out = ok(FERRO, &d.0, &["workspace", "new", "dev"]);
    assert!(out.contains("Created and switched to workspace \"dev\""));
    assert_eq!(
        db.rows().iter().map(|r| r.0.as_str()).collect::<Vec<_>>(),
        ["default", "dev"]
    );
    assert_eq!(
        ok(FERRO, &d.0, &["workspace", "list"]),
        "  default\n* dev\n\n"
    );
    assert_eq!(ok(FERRO, &d.0, &["workspace", "show"]), "dev\n");
    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(out.contains("1 added"), "{out}");
    ok(FERRO, &d.0, &["workspace", "select", "default"]);
    let o = run(FERRO, &d.0, &["workspace", "delete", "dev"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("is not empty"));
    ok(FERRO, &d.0, &["workspace", "delete", "-force", "dev"]);
    assert_eq!(ok(FERRO, &d.0, &["workspace", "list"]), "* default\n\n");
    let o = run(FERRO, &d.0, &["workspace", "select", "dev"]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn pg_migrate_state_both_ways() {
    let db = Db::new("migrate");
    let d = TempDir::new("migrate");
    let body = "resource \"terraform_data\" \"a\" {\n  input = \"m\"\n}\n";
    d.write("main.tf", body);
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    ok(FERRO, &d.0, &["workspace", "new", "dev"]);
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    ok(FERRO, &d.0, &["workspace", "select", "default"]);
    let local = std::fs::read_to_string(d.0.join("terraform.tfstate")).unwrap();
    let lineage = ferro_state::read_state(local.as_bytes()).unwrap().lineage;

    // Local to pg: without -force-copy and without input, init refuses to guess.
    d.write("main.tf", &format!("{}{body}", backend(&db.conn)));
    let o = run(FERRO, &d.0, &["-no-color", "init", "-input=false"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
    assert!(text(&o.stderr).contains("-force-copy"));
    let out = ok(
        FERRO,
        &d.0,
        &["-no-color", "init", "-migrate-state", "-force-copy"],
    );
    assert!(
        out.contains("Successfully configured the backend \"pg\""),
        "{out}"
    );
    let rows = db.rows();
    assert_eq!(
        rows.iter().map(|r| r.0.as_str()).collect::<Vec<_>>(),
        ["default", "dev"]
    );
    let moved = ferro_state::read_state(rows[0].1.as_bytes()).unwrap();
    assert_eq!(moved.lineage, lineage);
    // The local file is emptied; its content stays in the backup.
    assert_eq!(std::fs::read(d.0.join("terraform.tfstate")).unwrap(), b"");
    assert_eq!(
        std::fs::read_to_string(d.0.join("terraform.tfstate.backup")).unwrap(),
        local
    );
    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(out.contains("No changes."), "{out}");
    ok(FERRO, &d.0, &["workspace", "select", "dev"]);
    assert!(ok(FERRO, &d.0, &["state", "list"]).contains("terraform_data.a"));
    ok(FERRO, &d.0, &["workspace", "select", "default"]);

    // pg to local.
    d.write("main.tf", body);
    let o = run(FERRO, &d.0, &["-no-color", "plan"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("Unsetting the previously set backend"));
    ok(
        FERRO,
        &d.0,
        &["-no-color", "init", "-migrate-state", "-force-copy"],
    );
    assert!(!d.0.join(".terraform/terraform.tfstate").exists());
    let back = std::fs::read_to_string(d.0.join("terraform.tfstate")).unwrap();
    assert_eq!(
        ferro_state::read_state(back.as_bytes()).unwrap().lineage,
        lineage
    );
    assert!(d
        .0
        .join("terraform.tfstate.d/dev/terraform.tfstate")
        .exists());
    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(out.contains("No changes."), "{out}");
}

#[test]
fn pg_apply_killed_mid_way_loses_nothing() {
    use std::io::BufRead;
    let db = Db::new("kill");
    let d = TempDir::new("kill");
    let count = 400;
    d.write(
        "main.tf",
        &format!(
            "{}resource \"terraform_data\" \"a\" {{\n  count = {count}\n  input = count.index\n}}\n",
            backend(&db.conn)
        ),
    );
    ok(FERRO, &d.0, &["-no-color", "init"]);
    let mut child = std::process::Command::new(FERRO)
        .args(["-no-color", "apply", "-auto-approve", "-parallelism=2"])
        .current_dir(&d.0)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut completed = std::collections::BTreeSet::new();
    let stdout = child.stdout.take().unwrap();
    for line in std::io::BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if let Some((addr, _)) = line.split_once(": Creation complete") {
            completed.insert(addr.to_string());
            if completed.len() == 120 {
                child.kill().unwrap();
                break;
            }
        }
    }
    let _ = child.wait();
    assert_eq!(
        completed.len(),
        120,
        "the apply finished before it was killed"
    );
    // The session's advisory lock went with the process; the journal holds what the last full
    // write of the row did not.
    let listed: std::collections::BTreeSet<String> = ok(FERRO, &d.0, &["state", "list"])
        .lines()
        .map(str::to_string)
        .collect();
    let lost: Vec<&String> = completed.difference(&listed).collect();
    assert!(lost.is_empty(), "lost: {lost:?}");
    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(
        out.contains(&format!("Resources: {} added", count - listed.len())),
        "{out}"
    );
    let again = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(again.contains("No changes."), "{again}");
    let state = ferro_state::read_state(db.rows()[0].1.as_bytes()).unwrap();
    assert_eq!(
        state
            .resources
            .values()
            .map(|r| r.instances.len())
            .sum::<usize>(),
        count
    );
}
