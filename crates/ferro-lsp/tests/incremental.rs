//! Through the server's own database: an edit inside one file re-runs that file's queries only
//! (parse, lowering, navigation sites); the other files' results are reused.

use ferro_db::RootDb;
use ferro_lsp::World;
use std::path::PathBuf;

fn write(root: &std::path::Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// `Id(n)` of a salsa input's debug text, as the event log prints it in `query(Id(n))`.
fn salsa_id(debug: &str) -> String {
    let start = debug.find("Id(").expect("salsa id in debug output");
    let end = start + debug[start..].find(')').expect("closing paren");
    format!("({})", &debug[start..=end])
}

#[test]
fn an_edit_reruns_only_the_edited_files_queries() {
    let root: PathBuf =
        std::env::temp_dir().join(format!("ferro-lsp-incremental-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let mut main = String::new();
    for m in 0..3 {
        main.push_str(&format!(
            "module \"m{m}\" {{\n  source = \"./modules/m{m}\"\n  name   = \"n{m}\"\n}}\n"
        ));
        write(
            &root,
            &format!("modules/m{m}/main.tf"),
            "variable \"name\" {}\nresource \"random_id\" \"a\" {\n  byte_length = 4\n  prefix      = var.name\n}\n",
        );
        write(
            &root,
            &format!("modules/m{m}/outputs.tf"),
            "output \"hex\" {\n  value = random_id.a.hex\n}\n",
        );
    }
    write(&root, "main.tf", &main);
    // A sensitive variable of the root module: its outputs are checked for sensitive values.
    write(
        &root,
        "secrets.tf",
        "variable \"token\" {\n  sensitive = true\n  default   = \"t\"\n}\n\noutput \"token\" {\n  value     = var.token\n  sensitive = true\n}\n",
    );
    let mut w = World::with_database(root.clone(), RootDb::with_logging());
    let everything = |w: &World| {
        let d = w.diagnostics();
        for f in w.all_files() {
            let _ = ferro_db::file_sites(&w.db, f);
        }
        let _ = ferro_db::references_index(&w.db, w.ws);
        d
    };
    assert!(everything(&w).is_empty(), "{:?}", w.diagnostics());
    let first = w.db.take_log();
    assert_eq!(
        first.iter().filter(|l| l.contains("parse(")).count(),
        8,
        "{first:?}"
    );

    let path = root.join("modules/m1/main.tf");
    let edited = w.file(&path).unwrap();
    let text = edited.text(&w.db).replace("var.name", "var.nam");
    w.open(&path, text, 2);
    let diags = everything(&w);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let log = w.db.take_log();
    let id = salsa_id(&format!("{edited:?}"));
    for query in ["parse(", "file_hir(", "file_sites("] {
        let runs: Vec<&String> = log.iter().filter(|l| l.contains(query)).collect();
        assert_eq!(runs.len(), 1, "{query} ran for other files: {log:?}");
        assert!(
            runs[0].contains(&id),
            "{query} ran for another file: {log:?}"
        );
    }
    // Validation runs again for the edited file alone: `outputs.tf` of the same module refers
    // to the resource whose body changed, but what it reads of it (its declaration) is equal.
    assert_eq!(runs(&log, "validate_file"), 1, "{log:?}");

    // An edit in the root module's calls re-validates that file alone: what a file's
    // validation needs of its module (the calls' types, the sensitive variables and outputs)
    // comes from per-module queries whose values the edit leaves equal.
    let path = root.join("main.tf");
    let edited = w.file(&path).unwrap();
    let text = edited.text(&w.db).replace("\"n2\"", "\"n9\"");
    w.open(&path, text, 2);
    assert!(everything(&w).len() == 1);
    let log = w.db.take_log();
    assert_eq!(runs(&log, "validate_file"), 1, "{log:?}");
    // Its findings are the same (none), so nothing is resolved again.
    assert_eq!(runs(&log, "file_diagnostics"), 0, "{log:?}");
    let _ = std::fs::remove_dir_all(&root);
}

/// Executions of `query(` in the log, whatever its key.
fn runs(log: &[String], query: &str) -> usize {
    log.iter()
        .filter(|l| l.starts_with(&format!("{query}(")))
        .count()
}

#[test]
fn whitespace_above_a_block_keeps_diagnostics_right_and_reruns_nothing_semantic() {
    let root: PathBuf =
        std::env::temp_dir().join(format!("ferro-lsp-whitespace-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    write(
        &root,
        "main.tf",
        "module \"m\" {\n  source = \"./m\"\n  nam    = \"x\"\n}\n\noutput \"o\" {\n  value = var.missing\n}\n",
    );
    write(
        &root,
        "m/main.tf",
        "variable \"name\" {\n  default = \"d\"\n}\n",
    );
    let mut w = World::with_database(root.clone(), RootDb::with_logging());
    let path = root.join("main.tf");
    let file = w.file(&path).unwrap();
    let texts = |w: &World| -> Vec<(String, String)> {
        let text = file.text(&w.db).clone();
        w.diagnostics()
            .iter()
            .map(|d| (d.summary.clone(), text[d.span.unwrap().range()].to_string()))
            .collect()
    };
    // The editor opens the file (so it is validated item by item), then edits it.
    let text = file.text(&w.db).clone();
    w.open(&path, text.clone(), 1);
    let before = texts(&w);
    assert_eq!(before.len(), 2, "{before:?}");
    w.db.take_log();

    let moved = format!("\n\n# moved\n\n{text}");
    w.set_text(&path, moved, 2);
    let after = texts(&w);
    // The same problems, at the same text: the ranges moved with it.
    assert_eq!(after, before);
    assert!(after.iter().any(|(_, t)| t == "nam"), "{after:?}");
    assert!(after.iter().any(|(_, t)| t == "var.missing"), "{after:?}");
    let spans: Vec<u32> = w
        .diagnostics()
        .iter()
        .map(|d| d.span.unwrap().start)
        .collect();
    assert!(spans.iter().all(|s| *s >= 11), "{spans:?}");
    let log = w.db.take_log();
    assert_eq!(runs(&log, "parse"), 1, "{log:?}");
    for q in [
        "module_index",
        "module_tree",
        "item_graph",
        "resolve_file",
        "validate_file",
        "module_call_types",
        "sensitive_outputs",
    ] {
        assert_eq!(runs(&log, q), 0, "{q} ran again: {log:?}");
    }
    // Only the findings are placed again, at the moved text.
    assert_eq!(runs(&log, "file_diagnostics"), 1, "{log:?}");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_new_file_on_disk_keeps_the_other_files_ids() {
    let root: PathBuf =
        std::env::temp_dir().join(format!("ferro-lsp-file-ids-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    write(&root, "b.tf", "locals {\n  b = 1\n}\n");
    write(&root, "c.tf", "locals {\n  c = 1\n}\n");
    let mut w = World::new(root.clone());
    let id = |w: &World, name: &str| w.file(&root.join(name)).map(|f| f.id(&w.db));
    let (b, c) = (id(&w, "b.tf").unwrap(), id(&w, "c.tf").unwrap());

    // A file that sorts first appears: it gets a new id, the others keep theirs.
    write(&root, "a.tf", "locals {\n  a = 1\n}\n");
    w.disk_changed(&root.join("a.tf"));
    let a = id(&w, "a.tf").unwrap();
    assert_eq!((id(&w, "b.tf"), id(&w, "c.tf")), (Some(b), Some(c)));
    assert!(a != b && a != c);

    // Deleted and created again, a path keeps its identity.
    std::fs::remove_file(root.join("a.tf")).unwrap();
    w.disk_changed(&root.join("a.tf"));
    assert_eq!(id(&w, "a.tf"), None);
    write(&root, "a.tf", "locals {\n  a = 2\n}\n");
    w.disk_changed(&root.join("a.tf"));
    assert_eq!(id(&w, "a.tf"), Some(a));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_changed_file_read_by_file_reruns_its_checks() {
    let root: PathBuf =
        std::env::temp_dir().join(format!("ferro-lsp-file-fn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    write(
        &root,
        "main.tf",
        "output \"o\" {\n  value = file(\"data.txt\")\n}\n",
    );
    write(&root, "other.tf", "output \"p\" {\n  value = 1\n}\n");
    write(&root, "data.txt", "hello");
    let mut w = World::with_database(root.clone(), RootDb::with_logging());
    assert!(w.diagnostics().is_empty(), "{:?}", w.diagnostics());
    w.db.take_log();

    std::fs::remove_file(root.join("data.txt")).unwrap();
    w.disk_changed(&root.join("data.txt"));
    let diags = w.diagnostics();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(
        diags[0].detail.contains("no file exists at data.txt"),
        "{diags:?}"
    );
    let log = w.db.take_log();
    assert_eq!(runs(&log, "validate_file"), 1, "{log:?}");
    assert_eq!(runs(&log, "parse"), 0, "{log:?}");
    let _ = std::fs::remove_dir_all(&root);
}
