//! Editing one file re-runs the queries of that file only; the other files' parse and lowering
//! results are reused, and module-wide queries re-run because their input changed.

use ferro_db::{diagnostics, file_hir, parse, RootDb, SchemaTable, Setter, SourceFile, Workspace};
use ferro_diag::FileId;
use std::sync::Arc;

fn count(log: &[String], query: &str, file_marker: &str) -> usize {
    log.iter()
        .filter(|l| l.contains(query) && l.contains(file_marker))
        .count()
}

/// `Id(n)` out of an input's debug text, as the event log prints it in `query(Id(n))`.
fn salsa_id(debug: &str) -> String {
    let start = debug.find("Id(").expect("salsa id in debug output");
    let end = start + debug[start..].find(')').expect("closing paren");
    format!("({})", &debug[start..=end])
}

#[test]
fn editing_one_file_reparses_only_that_file() {
    let mut db = RootDb::with_logging();
    let a = SourceFile::new(
        &db,
        "a.tf".into(),
        "variable \"x\" {\n  default = 1\n}\n".into(),
        FileId(0),
    );
    let b = SourceFile::new(
        &db,
        "b.tf".into(),
        "output \"y\" {\n  value = var.x + 1\n}\n".into(),
        FileId(1),
    );
    let ws = Workspace::single(&db, vec![a, b], Arc::new(SchemaTable::default()));

    assert!(diagnostics(&db, ws).is_empty());
    let first = db.take_log();
    assert!(
        first.iter().any(|l| l.contains("parse")),
        "first run parses: {first:?}"
    );

    // Nothing changed: nothing re-executes.
    assert!(diagnostics(&db, ws).is_empty());
    assert!(db.take_log().is_empty());

    // Edit b.tf so that it now references an undeclared variable.
    b.set_text(&mut db)
        .to("output \"y\" {\n  value = var.z + 1\n}\n".into());
    let diags = diagnostics(&db, ws).clone();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0].summary.contains("undeclared input variable"));
    let log = db.take_log();

    // Salsa's debug form of a key names the query and the input's id; a.tf is the first input.
    let a_id = salsa_id(&format!("{a:?}"));
    let b_id = salsa_id(&format!("{b:?}"));
    assert_ne!(a_id, b_id);
    assert_eq!(
        count(&log, "parse(", &b_id),
        1,
        "b.tf is parsed again: {log:?}"
    );
    assert_eq!(
        count(&log, "parse(", &a_id),
        0,
        "a.tf is not parsed again: {log:?}"
    );
    assert_eq!(
        count(&log, "file_hir(", &a_id),
        0,
        "a.tf is not lowered again: {log:?}"
    );

    // The lowered HIR of a.tf is still the same value.
    assert_eq!(file_hir(&db, a).variables.len(), 1);
    let _ = parse(&db, a);
}

#[test]
fn editing_one_json_file_rereads_only_its_resource_bodies() {
    let mut db = RootDb::with_logging();
    let a = SourceFile::new(
        &db,
        "a.tf.json".into(),
        r#"{"resource": {"terraform_data": {"a": {"input": {"x": 1}}}}}"#.into(),
        FileId(0),
    );
    let b = SourceFile::new(
        &db,
        "b.tf.json".into(),
        r#"{"resource": {"terraform_data": {"b": {"input": 1}}}}"#.into(),
        FileId(1),
    );
    let mut schemas = SchemaTable::default();
    let input = ferro_value::schema::Attribute::new(ferro_value::Type::Dynamic).optional();
    let block = ferro_value::schema::Block {
        attributes: [("input".to_string(), input)].into_iter().collect(),
        block_types: Default::default(),
        description: String::new(),
    };
    schemas.resources.insert(
        (ferro_addrs::ResourceMode::Managed, "terraform_data".into()),
        ferro_value::schema::Schema { version: 0, block },
    );
    let ws = Workspace::single(&db, vec![a, b], Arc::new(schemas));
    assert!(diagnostics(&db, ws).is_empty());
    let first = db.take_log();
    assert_eq!(
        first
            .iter()
            .filter(|l| l.contains("resource_bodies("))
            .count(),
        2,
        "{first:?}"
    );

    b.set_text(&mut db)
        .to(r#"{"resource": {"terraform_data": {"b": {"input": 2}}}}"#.into());
    assert!(diagnostics(&db, ws).is_empty());
    let log = db.take_log();
    // The query takes (workspace, file), so its log key is an interned id rather than the file's:
    // count the executions instead. Only b.tf.json's bodies are read again.
    assert_eq!(
        log.iter()
            .filter(|l| l.contains("resource_bodies("))
            .count(),
        1,
        "{log:?}"
    );
    assert_eq!(
        count(&log, "parse(", &salsa_id(&format!("{a:?}"))),
        0,
        "{log:?}"
    );
}
