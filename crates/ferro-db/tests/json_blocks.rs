//! JSON resource bodies read against their schemas: properties that name nested block types are
//! blocks (every nesting mode, blocks inside blocks), wrong JSON value types are diagnostics
//! pointing into the JSON text, and bodies in the native syntax are left as they were.

use ferro_addrs::{Resource, ResourceMode};
use ferro_db::{
    diagnostics, module_index, resource_bodies, resource_body, static_value, RootDb, SchemaTable,
    Setter, SourceFile, Workspace,
};
use ferro_diag::FileId;
use ferro_hir::BlockBody;
use ferro_value::schema::{Attribute, Block, NestedBlock, NestingMode, Schema};
use ferro_value::Type;
use std::sync::Arc;

fn nested(nesting: NestingMode, block: Block) -> NestedBlock {
    NestedBlock {
        nesting,
        block,
        min_items: 0,
        max_items: 0,
    }
}

fn block(attrs: &[(&str, Attribute)], blocks: Vec<(&str, NestedBlock)>) -> Block {
    Block {
        attributes: attrs
            .iter()
            .map(|(n, a)| (n.to_string(), a.clone()))
            .collect(),
        block_types: blocks
            .into_iter()
            .map(|(n, b)| (n.to_string(), b))
            .collect(),
        description: String::new(),
        description_markdown: false,
        deprecated: false,
    }
}

/// `shelf_bookcase`: a list block holding a set block, a single block and a map block.
fn bookcase() -> Schema {
    let divider = block(
        &[("at", Attribute::new(Type::Number).required())],
        Vec::new(),
    );
    let shelf = block(
        &[
            ("label", Attribute::new(Type::String).required()),
            ("books", Attribute::new(Type::list(Type::String)).optional()),
        ],
        vec![("divider", nested(NestingMode::Set, divider))],
    );
    let trim = block(
        &[("color", Attribute::new(Type::String).required())],
        Vec::new(),
    );
    let slot = block(
        &[("size", Attribute::new(Type::Number).optional())],
        Vec::new(),
    );
    let top = block(
        &[
            ("name", Attribute::new(Type::String).required()),
            ("id", Attribute::new(Type::String).computed()),
        ],
        vec![
            ("shelf", nested(NestingMode::List, shelf)),
            ("trim", nested(NestingMode::Single, trim)),
            ("slot", nested(NestingMode::Map, slot)),
        ],
    );
    Schema::new(0, top)
}

fn schemas() -> Arc<SchemaTable> {
    let mut t = SchemaTable::default();
    t.resources
        .insert((ResourceMode::Managed, "shelf_bookcase".into()), bookcase());
    t.resources
        .insert((ResourceMode::Data, "shelf_bookcase".into()), bookcase());
    Arc::new(t)
}

fn load(path: &str, text: &str) -> (RootDb, Workspace, SourceFile) {
    let db = RootDb::default();
    let file = SourceFile::new(&db, path.into(), text.into(), FileId(0));
    let ws = Workspace::single(&db, vec![file], schemas());
    (db, ws, file)
}

/// The body of `resource`, written as native syntax (values as JSON, or the source text of
/// expressions that are not constant), then every diagnostic as `[code] <source text>: detail`.
fn dump(path: &str, text: &str, resource: &Resource) -> String {
    let (db, ws, file) = load(path, text);
    let mut out = String::new();
    if let Some(item) = module_index(&db, ws.root(&db)).resources.get(resource) {
        write_body(&mut out, &db, file, text, resource_body(&db, ws, *item), 0);
    }
    for d in diagnostics(&db, ws) {
        let at = d.span.map(|s| &text[s.range()]).unwrap_or("");
        out.push_str(&format!("[{}] {at}: {}\n", d.code, d.detail));
    }
    out
}

fn write_body(
    out: &mut String,
    db: &RootDb,
    file: SourceFile,
    text: &str,
    body: &BlockBody,
    depth: usize,
) {
    let hir = ferro_db::file_hir(db, file);
    let pad = "  ".repeat(depth);
    for a in &body.attrs {
        let v = match static_value(hir, a.expr) {
            Some(v) => ferro_value::json::value_to_plain_json(&v).to_string(),
            None => hir
                .span(a.expr)
                .map(|s| text[s.range()].to_string())
                .unwrap_or_default(),
        };
        out.push_str(&format!("{pad}{} = {v}\n", a.name));
    }
    for b in &body.blocks {
        let labels: String = b.labels.iter().map(|l| format!(" {l:?}")).collect();
        out.push_str(&format!("{pad}{}{labels} {{\n", b.ty));
        write_body(out, db, file, text, &b.body, depth + 1);
        out.push_str(&format!("{pad}}}\n"));
    }
}

fn bookcase_c() -> Resource {
    Resource::managed("shelf_bookcase", "c")
}

/// A JSON resource body (the inside of `"c": {…}`) read against the schema.
fn check(json_body: &str, expect: &str) {
    let text = format!("{{\"resource\": {{\"shelf_bookcase\": {{\"c\": {json_body}}}}}}}\n");
    let got = dump("main.tf.json", &text, &bookcase_c());
    assert_eq!(got, expect, "\n--- got\n{got}--- for\n{text}");
}

#[test]
fn every_nesting_mode_reads_like_the_native_syntax() {
    let json = r#"{
  "resource": {"shelf_bookcase": {"c": {
    "name": "hall",
    "shelf": [
      {"label": "top", "books": ["a", "b"], "divider": [{"at": 1}, {"at": 2}]},
      {"label": "bottom", "divider": {"at": 3}}
    ],
    "trim": {"color": "oak"},
    "slot": {"left": {"size": 3}, "right": {}}
  }}}
}
"#;
    let native = r#"
resource "shelf_bookcase" "c" {
  name = "hall"
  shelf {
    label = "top"
    books = ["a", "b"]
    divider {
      at = 1
    }
    divider {
      at = 2
    }
  }
  shelf {
    label = "bottom"
    divider {
      at = 3
    }
  }
  trim {
    color = "oak"
  }
  slot "left" {
    size = 3
  }
  slot "right" {}
}
"#;
    let expect = r#"name = "hall"
shelf {
  label = "top"
  books = ["a","b"]
  divider {
    at = 1
  }
  divider {
    at = 2
  }
}
shelf {
  label = "bottom"
  divider {
    at = 3
  }
}
trim {
  color = "oak"
}
slot "left" {
  size = 3
}
slot "right" {
}
"#;
    assert_eq!(dump("main.tf.json", json, &bookcase_c()), expect);
    assert_eq!(dump("main.tf", native, &bookcase_c()), expect);
}

#[test]
fn data_sources_are_read_the_same_way() {
    let json = r#"{"data": {"shelf_bookcase": {"c": {"name": "x", "trim": {"color": "red"}}}}}"#;
    let data = Resource {
        mode: ResourceMode::Data,
        ty: "shelf_bookcase".into(),
        name: "c".into(),
    };
    assert_eq!(
        dump("main.tf.json", json, &data),
        "name = \"x\"\ntrim {\n  color = \"red\"\n}\n"
    );
}

#[test]
fn null_empty_and_nested_arrays() {
    // null and [] are no blocks; a null element is an empty block (so "label" is missing, and
    // the diagnostic points at that element).
    check(
        r#"{"name": "n", "shelf": null, "trim": null, "slot": {"a": null}}"#,
        "name = \"n\"\n",
    );
    check(r#"{"name": "n", "shelf": []}"#, "name = \"n\"\n");
    check(
        r#"{"name": "n", "shelf": [null]}"#,
        "name = \"n\"\nshelf {\n}\n[missing-required-argument] n: The argument \"label\" is required, but no definition was found.\n",
    );
    // An element that is an array of objects is one block with their properties merged.
    check(
        r#"{"name": "n", "shelf": [[{"label": "a"}, {"books": ["x"]}]]}"#,
        "name = \"n\"\nshelf {\n  label = \"a\"\n  books = [\"x\"]\n}\n",
    );
}

#[test]
fn map_blocks_take_their_label_from_property_names() {
    check(
        r#"{"name": "n", "slot": [{"a": {"size": 1}}, {"b": [{"size": 2}]}]}"#,
        "name = \"n\"\nslot \"a\" {\n  size = 1\n}\nslot \"b\" {\n  size = 2\n}\n",
    );
    check(
        r#"{"name": "n", "slot": {}}"#,
        "name = \"n\"\n[missing-block-label] {}: At least one object property is required, whose name represents the slot block's key.\n",
    );
    check(
        r#"{"name": "n", "slot": null}"#,
        "name = \"n\"\n[missing-block-label] null: At least one object property is required, whose name represents the slot block's key.\n",
    );
    check(
        r#"{"name": "n", "slot": "a"}"#,
        "name = \"n\"\n[json-value-type] \"a\": Either a JSON object or a JSON array of objects is required here, whose property names are the key labels of \"slot\" blocks.\n",
    );
    check(
        r#"{"name": "n", "slot": [{"a": {}}, 7]}"#,
        "name = \"n\"\nslot \"a\" {\n}\n[json-value-type] 7: A JSON object is required here, to specify the key labels of these blocks.\n",
    );
}

#[test]
fn wrong_json_types_point_at_the_value() {
    check(
        r#"{"name": "n", "trim": "oak"}"#,
        "name = \"n\"\n[json-value-type] \"oak\": Either a JSON object or a JSON array is required here, representing the contents of one or more \"trim\" blocks.\n",
    );
    // A template is a string, not blocks: JSON has no block expressions.
    check(
        r#"{"name": "n", "shelf": "${[]}"}"#,
        "name = \"n\"\n[json-value-type] \"${[]}\": Either a JSON object or a JSON array is required here, representing the contents of one or more \"shelf\" blocks.\n",
    );
    check(
        r#"{"name": "n", "shelf": [{"label": "a"}, true]}"#,
        "name = \"n\"\nshelf {\n  label = \"a\"\n}\n[json-value-type] true: Either a JSON object or a JSON array of objects is required here, to define arguments and child blocks.\n",
    );
    check(
        r#"{"name": "n", "shelf": [[{"label": "a"}, -1]]}"#,
        "name = \"n\"\nshelf {\n  label = \"a\"\n}\n[json-value-type] -1: A JSON object is required here, to define arguments and child blocks.\n",
    );
    // Inside a nested block too.
    check(
        r#"{"name": "n", "shelf": {"label": "a", "divider": 5}}"#,
        "name = \"n\"\nshelf {\n  label = \"a\"\n}\n[json-value-type] 5: Either a JSON object or a JSON array is required here, representing the contents of one or more \"divider\" blocks.\n",
    );
}

#[test]
fn block_bodies_are_checked_against_the_nested_schema() {
    check(
        r#"{"name": "n", "shelf": {"labl": "a", "//": "a comment", "divider": {"at": "x"}}}"#,
        concat!(
            "name = \"n\"\nshelf {\n  labl = \"a\"\n  divider {\n    at = \"x\"\n  }\n}\n",
            "[missing-required-argument] \"shelf\": The argument \"label\" is required, but no definition was found.\n",
            "[unsupported-argument] \"labl\": No argument or block type is named \"labl\". Did you mean \"label\"?\n",
            "[incorrect-attribute-type] \"x\": Inappropriate value for attribute \"at\": a number is required.\n",
        ),
    );
    check(
        r#"{"name": "n", "trim": [{"color": "a"}, {"color": "b"}]}"#,
        "name = \"n\"\ntrim {\n  color = \"a\"\n}\ntrim {\n  color = \"b\"\n}\n[duplicate-block] {: Only one block of type \"trim\" is allowed. Previous definition was at main.tf.json:1,62-63.\n",
    );
    check(
        r#"{"name": "n", "shelf": {"label": "a", "x${1}": 1}}"#,
        "name = \"n\"\nshelf {\n  label = \"a\"\n}\n[unsupported-argument] \"x${1}\": In a block body, a JSON property name is the name of an argument or of a nested block type, used as written; it cannot contain a template sequence.\n",
    );
}

#[test]
fn repeated_properties_are_more_blocks_or_an_error() {
    check(
        r#"{"name": "n", "shelf": {"label": "a"}, "shelf": {"label": "b"}}"#,
        "name = \"n\"\nshelf {\n  label = \"a\"\n}\nshelf {\n  label = \"b\"\n}\n",
    );
    check(
        r#"{"name": "n", "name": "m"}"#,
        "name = \"n\"\n[attribute-redefined] \"name\": The argument \"name\" was already set. Each argument may be set only once.\n",
    );
    check(
        r#"{"name": "n", "shelf": {"label": "a", "label": "b"}}"#,
        "name = \"n\"\nshelf {\n  label = \"a\"\n}\n[attribute-redefined] \"label\": The argument \"label\" was already set. Each argument may be set only once.\n",
    );
}

#[test]
fn dynamic_inside_a_nested_block_is_a_dynamic_block() {
    // Its content is read against the nested block type's schema (`divider` of `shelf`).
    check(
        r#"{"name": "n", "shelf": {"label": "a", "dynamic": {"divider": {"for_each": [1], "content": {"at": 1}}}}}"#,
        "name = \"n\"\nshelf {\n  label = \"a\"\n  divider {\n    at = 1\n  }\n}\n",
    );
    // As Terraform reports it: at the generator's closing brace, and it generates nothing.
    check(
        r#"{"name": "n", "shelf": {"label": "a", "dynamic": {"divider": {"content": {"at": 1}}}}}"#,
        "name = \"n\"\nshelf {\n  label = \"a\"\n}\n[missing-argument] }: The argument \"for_each\" is required, but no definition was found.\n",
    );
}

#[test]
fn native_bodies_are_untouched() {
    // In the native syntax a list of objects is an argument, which this resource type has not.
    let native =
        "resource \"shelf_bookcase\" \"c\" {\n  name  = \"n\"\n  shelf = [{ label = \"a\" }]\n}\n";
    assert_eq!(
        dump("main.tf", native, &bookcase_c()),
        "name = \"n\"\nshelf = [{\"label\":\"a\"}]\n[unsupported-argument] shelf: An argument named \"shelf\" is not expected here. Did you mean to define a block of type \"shelf\"?\n",
    );
    let (db, ws, file) = load("main.tf", native);
    assert_eq!(resource_bodies(&db, ws, file).bodies, vec![None]);
}

#[test]
fn without_a_schema_the_body_stays_as_lowered() {
    let json =
        r#"{"resource": {"other_thing": {"c": {"shelf": [{"label": "a"}], "x": 1, "x": 2}}}}"#;
    let (db, ws, file) = load("main.tf.json", json);
    assert_eq!(resource_bodies(&db, ws, file).bodies, vec![None]);
    let got = dump("main.tf.json", json, &Resource::managed("other_thing", "c"));
    assert_eq!(got, "shelf = [{\"label\":\"a\"}]\nx = 1\nx = 2\n");
}

#[test]
fn new_schemas_reread_the_bodies() {
    let json =
        r#"{"resource": {"shelf_bookcase": {"c": {"name": "n", "trim": {"color": "red"}}}}}"#;
    let (mut db, ws, file) = load("main.tf.json", json);
    assert_eq!(
        resource_bodies(&db, ws, file).bodies[0]
            .as_ref()
            .map(|b| b.blocks.len()),
        Some(1)
    );
    ws.set_schemas(&mut db).to(Arc::new(SchemaTable::default()));
    assert_eq!(resource_bodies(&db, ws, file).bodies, vec![None]);
}
