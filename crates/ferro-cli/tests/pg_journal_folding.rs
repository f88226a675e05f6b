//! With the pg backend, a journal left by an interrupted apply (in `.terraform/`) is folded into
//! the workspace's row by the next command that takes the state lock, which says so in one
//! line: Terraform, reading the row, then sees the objects the killed apply created. Needs a
//! PostgreSQL server, as the other pg tests.

mod pg_support;
use ferro_addrs::InstanceKey;
use ferro_state::pg::{PgBackend, PgConfig, PgStore};
use ferro_state::{Backend, Change};
use pg_support::*;

fn config(conn: &str, count: usize) -> String {
    format!(
        "{}resource \"terraform_data\" \"a\" {{\n  count = {count}\n  input = \"same\"\n}}\n",
        backend(conn)
    )
}

fn instances(row: &str) -> usize {
    let state: serde_json::Value = serde_json::from_str(row).unwrap();
    state["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["instances"].as_array().unwrap().len())
        .sum()
}

#[test]
fn a_pg_journal_is_folded_into_the_row_by_the_next_locking_command() {
    let db = Db::new("journal");
    let d = TempDir::new("pg-journal");
    d.write("main.tf", &config(&db.conn, 1));
    ok(FERRO, &d.0, &["-no-color", "init"]);
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(instances(&db.rows()[0].1), 1);

    // A killed apply journaled one more object; the row never got it.
    let journal_path = d.0.join(".terraform").join(".pg-default.tfstate.journal");
    {
        let store = PgStore::connect(&PgConfig {
            conn_str: db.conn.clone(),
            schema_name: ferro_state::pg::DEFAULT_SCHEMA.to_string(),
            ..Default::default()
        })
        .unwrap();
        let backend = PgBackend::new(store, "default", journal_path.clone());
        let state = backend.load().unwrap().unwrap();
        let (res, rs) = state.resources.iter().next().unwrap();
        let mut obj = rs.instances[&InstanceKey::Int(0)]
            .current
            .as_deref()
            .unwrap()
            .clone();
        let mut attrs = obj.attributes.json();
        attrs["id"] = serde_json::json!("created-by-killed-apply");
        obj.attributes = attrs.into();
        backend
            .journal(&state.lineage)
            .record(&[Change::SetCurrent {
                res: res.clone(),
                provider: rs.provider.clone(),
                key: InstanceKey::Int(1),
                obj: Some(obj),
            }])
            .unwrap();
    }
    assert!(journal_path.exists());
    assert_eq!(instances(&db.rows()[0].1), 1);

    d.write("main.tf", &config(&db.conn, 2));
    let out = ok(FERRO, &d.0, &["-no-color", "plan"]);
    assert!(
        out.starts_with("Recovered 1 change recorded by an interrupted apply in .pg-default.tfstate.journal and saved it into the state.\n"),
        "{out}"
    );
    assert!(out.contains("No changes."), "{out}");
    let row = &db.rows()[0].1;
    assert_eq!(instances(row), 2, "the row holds the recovered object");
    assert!(row.contains("created-by-killed-apply"), "{row}");
    assert!(!journal_path.exists());
}
