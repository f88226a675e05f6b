//! Override files merged into the primary files before lowering: arguments replace arguments,
//! nested blocks of a type (plain or `dynamic`) replace all base blocks of that type,
//! `lifecycle` merges argument by argument, and the override file lowers to no items.

use ferro_db::{
    diagnostics, file_hir, link_overrides, module_index, RootDb, SchemaTable, SourceFile, Workspace,
};
use ferro_diag::FileId;
use std::sync::Arc;

const MAIN: &str = r#"
resource "t" "a" {
  x = 1
  y = 2
  rule {
    n = 1
  }
  rule {
    n = 2
  }
  other {
    k = 1
  }
  lifecycle {
    create_before_destroy = true
    prevent_destroy       = false
  }
}
"#;

const OVERRIDE: &str = r#"
resource "t" "a" {
  y = 20
  z = 30
  dynamic "rule" {
    for_each = [1]
    content {
      n = rule.value
    }
  }
  lifecycle {
    prevent_destroy = true
  }
}
"#;

fn setup(db: &mut RootDb) -> (Workspace, SourceFile, SourceFile) {
    let main = SourceFile::new(&*db, "main.tf".into(), MAIN.into(), FileId(0));
    let over = SourceFile::new(&*db, "main_override.tf".into(), OVERRIDE.into(), FileId(1));
    link_overrides(db, &[main, over]);
    let ws = Workspace::single(&*db, vec![main, over], Arc::new(SchemaTable::default()));
    (ws, main, over)
}

#[test]
fn override_merges_arguments_nested_blocks_and_lifecycle() {
    let mut db = RootDb::default();
    let (ws, main, over) = setup(&mut db);
    let hir = file_hir(&db, main);
    let r = &hir.resources[0];
    let attrs: Vec<&str> = r.body.attrs.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(attrs, ["x", "y", "z"]);
    let y = r.body.attrs.iter().find(|a| a.name == "y").unwrap();
    // The overriding argument keeps the override file's range.
    assert_eq!(hir.span(y.expr).map(|s| s.file), Some(FileId(1)));
    let blocks: Vec<(&str, bool)> = r
        .body
        .blocks
        .iter()
        .map(|b| (b.ty.as_str(), b.dynamic.is_some()))
        .collect();
    assert_eq!(blocks, [("other", false), ("rule", true)]);
    assert!(r.lifecycle.create_before_destroy, "kept from the base");
    assert!(r.lifecycle.prevent_destroy, "set by the override");
    assert!(file_hir(&db, over).resources.is_empty());
    let m = ws.root(&db);
    assert_eq!(module_index(&db, m).resources.len(), 1);
    assert!(
        diagnostics(&db, ws).is_empty(),
        "{:?}",
        diagnostics(&db, ws)
    );
}

#[test]
fn files_without_overrides_are_not_linked() {
    let mut db = RootDb::default();
    let a = SourceFile::new(&db, "a.tf".into(), MAIN.into(), FileId(0));
    let b = SourceFile::new(&db, "b.tf".into(), "locals {}\n".into(), FileId(1));
    link_overrides(&mut db, &[a, b]);
    assert!(a.module_files(&db).is_empty() && b.module_files(&db).is_empty());
    assert!(ferro_db::is_override_path("override.tf"));
    assert!(ferro_db::is_override_path("dir/x_override.tf.json"));
    assert!(!ferro_db::is_override_path("overrides.tf"));
    assert!(!ferro_db::is_override_path("x_override.tfvars"));
}
