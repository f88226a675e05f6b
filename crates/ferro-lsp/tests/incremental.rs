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
        7,
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
    // Per-file validation of every other file is reused too.
    let validated = log
        .iter()
        .filter(|l| l.contains("file_diagnostics("))
        .count();
    assert!(
        validated <= 2,
        "file_diagnostics re-ran {validated} times: {log:?}"
    );
    let _ = std::fs::remove_dir_all(&root);
}
