//! Editing one file re-runs the queries of that file only; the other files' parse and lowering
//! results are reused, and module-wide queries re-run because their input changed. Moving text
//! re-runs no semantic query; a file read by `file()` re-runs only the checks that read it.

use ferro_db::{
    diagnostics, file_hir, item_graph, module_index, module_tree, parse, resolve_file, RootDb,
    SchemaTable, Setter, SourceFile, Workspace,
};
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
        description_markdown: false,
        deprecated: false,
    };
    schemas.resources.insert(
        (ferro_addrs::ResourceMode::Managed, "terraform_data".into()),
        ferro_value::schema::Schema::new(0, block),
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

/// How many times `query(` executed in the log (whatever its key).
fn runs(log: &[String], query: &str) -> usize {
    log.iter()
        .filter(|l| l.starts_with(&format!("{query}(")))
        .count()
}

const VARS: &str = "variable \"x\" {\n  default = 1\n}\n\nlocals {\n  twice = var.x * 2\n}\n";
const OUTS: &str = "output \"y\" {\n  value = local.twice + var.nope\n}\n\nresource \"terraform_data\" \"r\" {\n  input = local.twice\n}\n";

fn two_files(db: &RootDb) -> (SourceFile, SourceFile, Workspace) {
    let a = SourceFile::new(db, "a.tf".into(), VARS.into(), FileId(0));
    let b = SourceFile::new(db, "b.tf".into(), OUTS.into(), FileId(1));
    let ws = Workspace::single(db, vec![a, b], Arc::new(SchemaTable::default()));
    (a, b, ws)
}

/// Everything the semantic queries compute, asked for so that each runs once.
fn semantic(db: &RootDb, ws: Workspace) {
    let _ = module_index(db, ws.root(db));
    let _ = module_tree(db, ws);
    let _ = item_graph(db, ws);
    for f in ws.files(db) {
        let _ = resolve_file(db, ws, *f);
    }
}

#[test]
fn moving_text_reruns_no_semantic_query_and_diagnostics_follow() {
    let mut db = RootDb::with_logging();
    let (_a, b, ws) = two_files(&db);
    let before = diagnostics(&db, ws).clone();
    assert_eq!(before.len(), 1, "{before:?}");
    semantic(&db, ws);
    assert!(item_graph(&db, ws).is_ok());
    db.take_log();

    // Blank lines and a comment above the first block of b.tf: every position in it moves.
    let pad = "\n\n# a comment that moves everything below it\n\n";
    b.set_text(&mut db).to(format!("{pad}{OUTS}"));
    let after = diagnostics(&db, ws).clone();
    semantic(&db, ws);
    let log = db.take_log();

    let b_id = salsa_id(&format!("{b:?}"));
    assert_eq!(
        count(&log, "parse(", &b_id),
        1,
        "b.tf is parsed again: {log:?}"
    );
    assert_eq!(
        count(&log, "file_hir(", &b_id),
        1,
        "b.tf is lowered again: {log:?}"
    );
    for q in [
        "module_index",
        "module_tree",
        "item_graph",
        "resolve_file",
        "module_index_diagnostics",
        "module_tree_diagnostics",
    ] {
        assert_eq!(runs(&log, q), 0, "{q} must not run again: {log:?}");
    }
    // The undeclared `var.nope` is reported where it now is.
    assert_eq!(after.len(), 1, "{after:?}");
    let (old, new) = (before[0].span.unwrap(), after[0].span.unwrap());
    assert_eq!(new.start, old.start + pad.len() as u32);
    assert_eq!(new.end, old.end + pad.len() as u32);
    assert_eq!(&b.text(&db)[new.range()], "var.nope");
}

#[test]
fn renaming_a_variable_reruns_the_semantic_queries() {
    let mut db = RootDb::with_logging();
    let (a, _b, ws) = two_files(&db);
    assert_eq!(diagnostics(&db, ws).len(), 1);
    semantic(&db, ws);
    db.take_log();

    a.set_text(&mut db).to(VARS.replace("\"x\"", "\"z\""));
    let diags = diagnostics(&db, ws).clone();
    semantic(&db, ws);
    let log = db.take_log();
    for q in ["module_index", "item_graph", "resolve_file"] {
        assert!(runs(&log, q) >= 1, "{q} must run again: {log:?}");
    }
    // `var.x` in the local is undeclared now, as well as `var.nope`.
    assert_eq!(diags.len(), 2, "{diags:?}");
}

#[test]
fn adding_a_file_keeps_the_ids_of_the_others() {
    let db = RootDb::default();
    let b = db.file_id(std::path::Path::new("/w/b.tf"));
    let c = db.file_id(std::path::Path::new("/w/c.tf"));
    // A file that sorts before both, added later, gets a new id and changes none.
    let a = db.file_id(std::path::Path::new("/w/a.tf"));
    assert_eq!(db.file_id(std::path::Path::new("/w/b.tf")), b);
    assert_eq!(db.file_id(std::path::Path::new("/w/c.tf")), c);
    assert!(a != b && a != c && b != c);
    // Ids are never reused: a text that is not a file gets one of its own.
    let value = db.fresh_file_id(std::path::Path::new("<value for var.x>"));
    assert!(![a, b, c].contains(&value));
    assert_eq!(
        db.file_path(b).as_deref(),
        Some(std::path::Path::new("/w/b.tf"))
    );
}

#[test]
fn a_file_read_by_file_reruns_only_what_read_it() {
    let dir = std::env::temp_dir().join(format!("ferro-db-disk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let data = dir.join("data.txt");
    std::fs::write(&data, "hello").unwrap();

    let mut db = RootDb::with_logging();
    let a = SourceFile::new(
        &db,
        "a.tf".into(),
        "output \"o\" {\n  value = file(\"data.txt\")\n}\n".into(),
        FileId(0),
    );
    let b = SourceFile::new(
        &db,
        "b.tf".into(),
        "output \"p\" {\n  value = upper(\"x\")\n}\n".into(),
        FileId(1),
    );
    let ws = Workspace::single(&db, vec![a, b], Arc::new(SchemaTable::default()));
    ws.set_base_dir(&mut db).to(dir.clone());
    assert!(diagnostics(&db, ws).is_empty());
    db.take_log();

    // Nothing changed on disk that anything read: only the one-line check of the file that
    // was read runs (it gives the same answer), nothing that depends on it.
    db.disk_changed(&dir.join("other.txt"));
    assert!(diagnostics(&db, ws).is_empty());
    let log = db.take_log();
    assert_eq!(runs(&log, "disk_version"), 1, "{log:?}");
    assert_eq!(log.len(), 1, "{log:?}");

    std::fs::remove_file(&data).unwrap();
    db.disk_changed(&data);
    let diags = diagnostics(&db, ws).clone();
    let log = db.take_log();
    std::fs::remove_dir_all(&dir).ok();

    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(
        diags[0].detail.contains("no file exists at data.txt"),
        "{diags:?}"
    );
    assert_eq!(
        runs(&log, "validate_file"),
        1,
        "only a.tf's checks: {log:?}"
    );
    for q in ["parse", "file_hir", "module_index", "module_tree"] {
        assert_eq!(runs(&log, q), 0, "{q} must not run again: {log:?}");
    }
}

/// A module of several files for the validation tests: declarations, a file whose resource
/// body is edited, what refers to that resource, and files that refer to neither. Every file
/// is open in an editor, so each is validated item by item.
fn module_of(db: &mut RootDb, files: &[(&str, &str)]) -> (Vec<SourceFile>, Workspace) {
    let files: Vec<SourceFile> = files
        .iter()
        .enumerate()
        .map(|(i, (name, text))| {
            let f = SourceFile::new(db, (*name).into(), (*text).into(), FileId(i as u32));
            f.set_edited(db).to(true);
            f
        })
        .collect();
    let ws = Workspace::single(db, files.clone(), Arc::new(SchemaTable::default()));
    (files, ws)
}

/// Each diagnostic's summary and the text its range covers.
fn placed(db: &RootDb, ws: Workspace, files: &[SourceFile]) -> Vec<(String, String)> {
    diagnostics(db, ws)
        .iter()
        .map(|d| {
            let span = d.span.expect("a range");
            let file = files.iter().find(|f| f.id(db) == span.file).unwrap();
            (d.summary.clone(), file.text(db)[span.range()].to_string())
        })
        .collect()
}

#[test]
fn a_whitespace_or_comment_edit_runs_no_validation_at_all() {
    let mut db = RootDb::with_logging();
    let body = "resource \"terraform_data\" \"a\" {\n  input = [var.x, var.nope, upper(1, 2)]\n}\n";
    let (files, ws) = module_of(
        &mut db,
        &[
            ("vars.tf", "variable \"x\" {\n  default = 1\n}\n"),
            ("main.tf", body),
        ],
    );
    let before = placed(&db, ws, &files);
    assert_eq!(before.len(), 2, "{before:?}");
    db.take_log();

    // Comments and blank lines between and inside blocks, spaces inside the expression.
    let edited = format!(
        "# header comment\n\n{}",
        body.replace("  input = [", "  # what it gets\n\n  input = [ ")
            .replace(", var.nope", ",   var.nope /* moved */")
    );
    files[1].set_text(&mut db).to(edited);
    let after = placed(&db, ws, &files);
    let log = db.take_log();
    // The same problems at the same text, found without validating anything again.
    assert_eq!(after, before);
    for q in [
        "validate_file",
        "validate_item",
        "module_index",
        "module_tree",
        "module_call_types",
        "declared",
        "item_graph",
    ] {
        assert_eq!(runs(&log, q), 0, "{q} ran again: {log:?}");
    }
    assert_eq!(runs(&log, "file_diagnostics"), 1, "{log:?}");
}

#[test]
fn an_edit_in_one_resource_body_revalidates_it_and_what_refers_to_it() {
    let mut db = RootDb::with_logging();
    // Two resources in one file: the body of the first is edited.
    let a = concat!(
        "resource \"terraform_data\" \"a\" {\n  input = \"one\"\n}\n\n",
        "resource \"terraform_data\" \"b\" {\n  input = [1, 2]\n}\n",
    );
    let (files, ws) = module_of(
        &mut db,
        &[
            ("a.tf", a),
            (
                "uses_a.tf",
                "output \"a\" {\n  value = terraform_data.a.output\n}\n",
            ),
            (
                "uses_b.tf",
                "output \"b\" {\n  value = terraform_data.b.output\n}\n",
            ),
            ("vars.tf", "variable \"v\" {\n  default = 1\n}\n"),
        ],
    );
    assert!(diagnostics(&db, ws).is_empty());
    let whole_tree = |db: &RootDb| {
        assert!(item_graph(db, ws).is_ok());
        let _ = ferro_db::item_references(db, ws);
    };
    whole_tree(&db);
    db.take_log();

    // A new value inside the body, with more expressions than before (so every expression
    // after it in the file is numbered anew): only that resource is validated again, not the
    // other resource of its file; what refers to it sees the same declaration.
    files[0]
        .set_text(&mut db)
        .to(a.replace("\"one\"", "upper(\"two\")"));
    assert!(diagnostics(&db, ws).is_empty());
    whole_tree(&db);
    let log = db.take_log();
    assert_eq!(runs(&log, "validate_item"), 1, "{log:?}");
    // The module's structure and the references between items are read from the files'
    // signatures and references, which a new value leaves equal: none of the queries over the
    // whole tree runs again.
    for q in [
        "module_index",
        "module_tree",
        "provider_config_problems",
        "module_call_types",
        "item_references",
        "item_graph",
    ] {
        assert_eq!(runs(&log, q), 0, "{q} ran again: {log:?}");
    }

    // `count` changes what a reference must say: the resource and the output that refers to
    // it are validated again, and the output now has an error. Nothing else is.
    files[0]
        .set_text(&mut db)
        .to(a.replacen("  input", "  count = 2\n  input", 1));
    let after = placed(&db, ws, &files);
    let log = db.take_log();
    assert_eq!(
        after,
        vec![(
            "Missing resource instance key".to_string(),
            "terraform_data.a".to_string()
        )]
    );
    assert_eq!(runs(&log, "validate_item"), 2, "{log:?}");
}

#[test]
fn adding_a_variable_reruns_only_what_names_it() {
    let mut db = RootDb::with_logging();
    let vars = "variable \"a\" {\n  default = 1\n}\n";
    let (files, ws) = module_of(
        &mut db,
        &[
            ("vars.tf", vars),
            ("names_x.tf", "output \"x\" {\n  value = var.x\n}\n"),
            ("names_a.tf", "output \"a\" {\n  value = var.a\n}\n"),
            (
                "other.tf",
                "locals {\n  l = 1\n}\n\noutput \"l\" {\n  value = local.l\n}\n",
            ),
        ],
    );
    let before = placed(&db, ws, &files);
    assert_eq!(
        before,
        vec![(
            "Reference to undeclared input variable".to_string(),
            "var.x".to_string()
        )]
    );
    db.take_log();

    files[0]
        .set_text(&mut db)
        .to(format!("{vars}\nvariable \"x\" {{}}\n"));
    assert!(diagnostics(&db, ws).is_empty());
    let log = db.take_log();
    // The new variable and the output that names it; not the variable beside it, nor what
    // names that one, nor anything else.
    assert_eq!(runs(&log, "validate_item"), 2, "{log:?}");
    assert_eq!(runs(&log, "module_index"), 1, "{log:?}");
}

#[test]
fn a_file_no_editor_has_open_is_validated_in_one_pass() {
    let mut db = RootDb::with_logging();
    let a = concat!(
        "resource \"terraform_data\" \"a\" {\n  input = \"one\"\n}\n\n",
        "resource \"terraform_data\" \"b\" {\n  input = var.nope\n}\n",
    );
    let f = SourceFile::new(&db, "a.tf".into(), a.into(), FileId(0));
    let ws = Workspace::single(&db, vec![f], Arc::new(SchemaTable::default()));
    let undeclared = |db: &RootDb| {
        let d = diagnostics(db, ws);
        assert_eq!(d.len(), 1, "{d:?}");
        assert!(d[0].summary.contains("undeclared input variable"));
    };
    undeclared(&db);
    let log = db.take_log();
    assert_eq!(runs(&log, "validate_file"), 1, "{log:?}");
    assert_eq!(runs(&log, "validate_item"), 0, "{log:?}");

    // A change on disk validates the file again, in one pass.
    f.set_text(&mut db).to(a.replace("\"one\"", "\"two\""));
    undeclared(&db);
    let log = db.take_log();
    assert_eq!(runs(&log, "validate_file"), 1, "{log:?}");
    assert_eq!(runs(&log, "validate_item"), 0, "{log:?}");

    // Opened in an editor, it is validated item by item; an edit then re-validates one item.
    f.set_edited(&mut db).to(true);
    undeclared(&db);
    assert_eq!(runs(&db.take_log(), "validate_item"), 2);
    f.set_text(&mut db).to(a.replace("\"one\"", "\"three\""));
    undeclared(&db);
    assert_eq!(runs(&db.take_log(), "validate_item"), 1);
}
