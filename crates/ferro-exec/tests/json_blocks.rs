//! Provider-defined nested blocks written in `.tf.json`: planning, provider configuration and
//! apply see the same values as for the native syntax, and a provider diagnostic about an
//! attribute inside a nested block points at that attribute in the JSON text.

use ferro_addrs::Provider as ProviderAddr;
use ferro_db::{diagnostics, RootDb, SchemaTable, Setter, SourceFile, Workspace};
use ferro_diag::{Diagnostic, FileId};
use ferro_exec::{apply, ApplyInput};
use ferro_planner::{load_providers, plan, PlanInput, PlanOptions};
use ferro_provider::*;
use ferro_state::{LocalBackend, State};
use ferro_value::json::value_from_json;
use ferro_value::schema::{Attribute, Block, NestedBlock, NestingMode, Schema};
use ferro_value::{PathStep, Type, Value};
use std::sync::{Arc, Mutex};

fn nested(
    nesting: NestingMode,
    attrs: &[(&str, Attribute)],
    blocks: Vec<(&str, NestedBlock)>,
) -> NestedBlock {
    NestedBlock {
        nesting,
        block: block(attrs, blocks),
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

fn bookcase() -> Schema {
    let divider = nested(
        NestingMode::Set,
        &[("at", Attribute::new(Type::Number).required())],
        Vec::new(),
    );
    let shelf = nested(
        NestingMode::List,
        &[
            ("label", Attribute::new(Type::String).required()),
            ("books", Attribute::new(Type::list(Type::String)).optional()),
        ],
        vec![("divider", divider)],
    );
    let trim = nested(
        NestingMode::Single,
        &[("color", Attribute::new(Type::String).required())],
        Vec::new(),
    );
    let slot = nested(
        NestingMode::Map,
        &[("size", Attribute::new(Type::Number).optional())],
        Vec::new(),
    );
    Schema::new(
        0,
        block(
            &[
                ("name", Attribute::new(Type::String).required()),
                (
                    "ingress",
                    Attribute::new(Type::set(Type::object([
                        ("from".to_string(), Type::Number),
                        ("to".to_string(), Type::Number),
                    ])))
                    .optional(),
                ),
            ],
            vec![("shelf", shelf), ("trim", trim), ("slot", slot)],
        ),
    )
}

/// A provider whose resource plans exactly its configuration, except that a shelf labelled
/// "bad" is refused with the attribute path of that label. It records its configuration.
#[derive(Default)]
struct Shelf {
    configured: Mutex<Vec<Value>>,
}

impl Provider for Shelf {
    fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>> {
        let defaults = nested(
            NestingMode::Single,
            &[("genre", Attribute::new(Type::String).optional())],
            Vec::new(),
        );
        Ok(ProviderSchema {
            provider: Schema::new(
                0,
                block(
                    &[("owner", Attribute::new(Type::String).optional())],
                    vec![("defaults", defaults)],
                ),
            ),
            resources: [("shelf_bookcase".to_string(), bookcase())]
                .into_iter()
                .collect(),
            data_sources: Default::default(),
            move_resource_state: false,
            functions: Default::default(),
            ephemeral_resources: Default::default(),
            identities: Default::default(),
        })
    }
    fn configure(&self, config: &Value) -> Vec<ProviderDiagnostic> {
        self.configured.lock().unwrap().push(config.clone());
        Vec::new()
    }
    fn validate_resource_config(
        &self,
        _type_name: &str,
        _config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        Vec::new()
    }
    fn upgrade_resource_state(&self, req: UpgradeRequest<'_>) -> UpgradeResponse {
        let ty = bookcase().block.implied_type();
        match value_from_json(req.raw_json, &ty) {
            Ok(v) => UpgradeResponse {
                upgraded_state: v,
                diagnostics: Vec::new(),
            },
            Err(e) => UpgradeResponse {
                upgraded_state: Value::null(ty),
                diagnostics: vec![ProviderDiagnostic::error("bad state", e)],
            },
        }
    }
    fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse {
        ReadResponse {
            new_state: req.current_state.clone(),
            private: Vec::new(),
            diagnostics: Vec::new(),
            deferred: None,
            new_identity: None,
        }
    }
    fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse {
        let shelves = req
            .config
            .get_attr("shelf")
            .and_then(Value::as_elements)
            .unwrap_or(&[]);
        let diagnostics = shelves
            .iter()
            .position(|s| s.get_attr("label").and_then(Value::as_str) == Some("bad"))
            .map(|i| ProviderDiagnostic {
                attribute: Some(vec![
                    PathStep::Attr("shelf".into()),
                    PathStep::Index(Value::int(i as i64)),
                    PathStep::Attr("label".into()),
                ]),
                ..ProviderDiagnostic::error(
                    "Bad shelf label",
                    "This shelf may not be labelled \"bad\".",
                )
            })
            .into_iter()
            .collect();
        PlanResponse {
            planned_state: req.proposed_new_state.clone(),
            requires_replace: Vec::new(),
            planned_private: Vec::new(),
            diagnostics,
            legacy_type_system: false,
            deferred: None,
            planned_identity: None,
        }
    }
    fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse {
        ApplyResponse {
            new_state: req.planned_state.clone(),
            private: Vec::new(),
            diagnostics: Vec::new(),
            legacy_type_system: false,
            new_identity: None,
        }
    }
}

struct Source(Arc<Shelf>);

impl ProviderSource for Source {
    fn get(&self, _addr: &ProviderAddr) -> Result<Arc<dyn Provider>, String> {
        Ok(self.0.clone())
    }
}

const NATIVE: &str = r#"
provider "shelf" {
  owner = "me"
  defaults {
    genre = "scifi"
  }
}

resource "shelf_bookcase" "c" {
  name = "hall"
  shelf {
    label = "top"
    books = ["a"]
    divider {
      at = 1
    }
    divider {
      at = 2
    }
  }
  shelf {
    label = "bottom"
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

const JSON: &str = r#"{
  "provider": {"shelf": {"owner": "me", "defaults": {"genre": "scifi"}}},
  "resource": {"shelf_bookcase": {"c": {
    "name": "hall",
    "shelf": [{"label": "top", "books": ["a"], "divider": [{"at": 1}, {"at": 2}]}, {"label": "bottom"}],
    "trim": {"color": "oak"},
    "slot": {"left": {"size": 3}, "right": {}}
  }}}
}
"#;

/// What one plan and apply of a single-file configuration produced.
struct Run {
    configured: Vec<Value>,
    planned: Vec<Value>,
    state: Option<State>,
    diags: Vec<Diagnostic>,
}

fn run(path: &str, text: &str) -> Run {
    // Tests run in parallel threads: each run gets its own directory.
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "ferro-json-blocks-{}-{}-{}",
        path.replace('.', "-"),
        std::process::id(),
        RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut db = RootDb::default();
    let file = SourceFile::new(&db, path.into(), text.into(), FileId(0));
    let ws = Workspace::single(&db, vec![file], Arc::new(SchemaTable::default()));
    let shelf = Arc::new(Shelf::default());
    let (providers, diags) = load_providers(&db, ws, &Source(shelf.clone()), None);
    assert!(diags.is_empty(), "{diags:?}");
    ws.set_schemas(&mut db)
        .to(Arc::new(providers.schema_table()));
    assert!(
        diagnostics(&db, ws).is_empty(),
        "{:?}",
        diagnostics(&db, ws)
    );
    let cwd = dir.display().to_string();
    let input = PlanInput {
        db: &db,
        ws,
        files: vec![(path.into(), text.into())],
        state: None,
        variables: Default::default(),
        providers: &providers,
        options: PlanOptions {
            refresh: true,
            ..Default::default()
        },
        cwd: cwd.clone(),
        on_refresh: None,
        on_ephemeral: None,
    };
    let (planned, diags) = plan(input);
    let Some(mut planned) = planned.filter(|_| !diags.iter().any(Diagnostic::is_error)) else {
        let _ = std::fs::remove_dir_all(&dir);
        let configured = shelf.configured.lock().unwrap().clone();
        return Run {
            configured,
            planned: Vec::new(),
            state: None,
            diags,
        };
    };
    // Apply takes the plan's changes: what was planned is read first.
    let planned_values = planned.changes.iter().map(|c| c.after.value()).collect();
    let mut backend = LocalBackend::new(dir.join("terraform.tfstate"));
    let apply_input = ApplyInput {
        db: &db,
        ws,
        plan: &mut planned,
        providers: &providers,
        parallelism: 2,
        cwd,
        interrupt: None,
    };
    let (state, apply_diags) = apply(apply_input, &mut backend, &|_| {});
    let _ = std::fs::remove_dir_all(&dir);
    let configured = shelf.configured.lock().unwrap().clone();
    Run {
        configured,
        planned: planned_values,
        state: Some(state),
        diags: diags.into_iter().chain(apply_diags).collect(),
    }
}

fn attributes(state: &State) -> Vec<String> {
    let objects = state
        .resources
        .values()
        .flat_map(|r| r.instances.values())
        .filter_map(|i| i.current.as_ref());
    objects.map(|o| o.attributes.json().to_string()).collect()
}

#[test]
fn json_nested_blocks_plan_and_apply_like_native_blocks() {
    let native = run("main.tf", NATIVE);
    let json = run("main.tf.json", JSON);
    assert!(native.diags.is_empty(), "{:?}", native.diags);
    assert!(json.diags.is_empty(), "{:?}", json.diags);

    // The provider configuration's block reached configure (once for plan, once for apply).
    assert_eq!(native.configured.len(), 2);
    let genre = native.configured[0]
        .get_attr("defaults")
        .and_then(|d| d.get_attr("genre"))
        .and_then(Value::as_str);
    assert_eq!(genre, Some("scifi"));
    assert_eq!(json.configured, native.configured);

    assert_eq!(native.planned.len(), 1);
    assert_eq!(
        native.planned[0]
            .get_attr("shelf")
            .and_then(Value::as_elements)
            .map(<[Value]>::len),
        Some(2)
    );
    assert_eq!(json.planned, native.planned);

    let (native_state, json_state) = (
        attributes(native.state.as_ref().unwrap()),
        attributes(json.state.as_ref().unwrap()),
    );
    assert_eq!(native_state.len(), 1);
    assert!(
        native_state[0].contains("\"divider\":[{\"at\":1},{\"at\":2}]"),
        "{native_state:?}"
    );
    assert_eq!(json_state, native_state);
}

#[test]
fn provider_diagnostics_point_into_json_nested_blocks() {
    let json = JSON.replace(r#"{"label": "bottom"}"#, r#"{"label": "bad"}"#);
    let r = run("main.tf.json", &json);
    let errors: Vec<&Diagnostic> = r.diags.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 1, "{:?}", r.diags);
    assert_eq!(errors[0].summary, "Bad shelf label");
    let span = errors[0].span.expect("a span");
    assert_eq!(&json[span.range()], r#""label": "bad""#);

    let native = NATIVE.replace("label = \"bottom\"", "label = \"bad\"");
    let r = run("main.tf", &native);
    let span = r
        .diags
        .iter()
        .find(|d| d.is_error())
        .and_then(|d| d.span)
        .expect("a span");
    assert_eq!(&native[span.range()], "label = \"bad\"");
}

const DYNAMIC: &str = r#"
provider "shelf" {
  owner = "me"
  dynamic "defaults" {
    for_each = ["scifi"]
    content {
      genre = defaults.value
    }
  }
}

locals {
  shelves = [
    { label = "top", books = ["a"], dividers = [1, 2] },
    { label = "bottom", books = null, dividers = [] },
  ]
  slots = { left = 3, right = null }
}

resource "shelf_bookcase" "c" {
  name = "hall"
  dynamic "shelf" {
    for_each = local.shelves
    content {
      label = shelf.value.label
      books = shelf.value.books
      dynamic "divider" {
        for_each = shelf.value.dividers
        iterator = d
        content {
          at = d.value
        }
      }
    }
  }
  dynamic "trim" {
    for_each = toset(["oak"])
    content {
      color = trim.key
    }
  }
  dynamic "slot" {
    for_each = local.slots
    labels   = [slot.key]
    content {
      size = slot.value
    }
  }
}
"#;

#[test]
fn dynamic_blocks_generate_the_same_blocks_as_written_ones() {
    let native = run("main.tf", NATIVE);
    let dynamic = run("main.tf", DYNAMIC);
    assert!(dynamic.diags.is_empty(), "{:?}", dynamic.diags);
    assert_eq!(dynamic.configured, native.configured);
    assert_eq!(dynamic.planned, native.planned);
    assert_eq!(
        attributes(dynamic.state.as_ref().unwrap()),
        attributes(native.state.as_ref().unwrap())
    );
}

/// `DYNAMIC` in the JSON syntax, with both forms of the `dynamic` property (an object of block
/// types, an array of them) and a list of generators for one type.
const DYNAMIC_JSON: &str = r#"{
  "provider": {"shelf": {"owner": "me", "dynamic": {"defaults": {"for_each": ["scifi"], "content": {"genre": "${defaults.value}"}}}}},
  "locals": {
    "shelves": [
      {"label": "top", "books": ["a"], "dividers": [1, 2]},
      {"label": "bottom", "books": null, "dividers": []}
    ],
    "slots": {"left": 3, "right": null}
  },
  "resource": {"shelf_bookcase": {"c": {
    "name": "hall",
    "dynamic": [
      {"shelf": [{
        "for_each": "${local.shelves}",
        "content": {
          "label": "${shelf.value.label}",
          "books": "${shelf.value.books}",
          "dynamic": {"divider": {"for_each": "${shelf.value.dividers}", "iterator": "d", "content": {"at": "${d.value}"}}}
        }
      }]},
      {"trim": {"for_each": "${toset([\"oak\"])}", "content": {"color": "${trim.key}"}},
       "slot": {"for_each": "${local.slots}", "labels": ["${slot.key}"], "content": {"size": "${slot.value}"}}}
    ]
  }}}
}"#;

#[test]
fn json_dynamic_blocks_generate_the_same_blocks_as_native_ones() {
    let native = run("main.tf", NATIVE);
    let dynamic = run("main.tf.json", DYNAMIC_JSON);
    assert!(dynamic.diags.is_empty(), "{:?}", dynamic.diags);
    assert_eq!(dynamic.configured, native.configured);
    assert_eq!(dynamic.planned, native.planned);
    assert_eq!(
        attributes(dynamic.state.as_ref().unwrap()),
        attributes(native.state.as_ref().unwrap())
    );
}

#[test]
fn dynamic_for_each_over_a_number_is_an_error_at_its_range() {
    let text = DYNAMIC.replace("for_each = local.shelves", "for_each = 3");
    let r = run("main.tf", &text);
    let d = r
        .diags
        .iter()
        .find(|d| d.summary == "Invalid dynamic for_each value")
        .unwrap_or_else(|| panic!("no for_each error in {:?}", r.diags));
    assert!(d.detail.contains("Cannot use a number value in for_each"));
    let span = d.span.expect("the error points at for_each");
    assert_eq!(&text[span.start as usize..span.end as usize], "3");
}

#[test]
fn a_set_of_objects_attribute_may_be_written_as_blocks() {
    let as_attr = NATIVE.replace(
        "  name = \"hall\"\n",
        "  name = \"hall\"\n  ingress = [{ from = 1, to = 2 }, { from = 3, to = 4 }]\n",
    );
    let as_blocks = NATIVE.replace(
        "  name = \"hall\"\n",
        "  name = \"hall\"\n  ingress {\n    from = 1\n    to = 2\n  }\n  dynamic \"ingress\" {\n    for_each = [3]\n    content {\n      from = ingress.value\n      to = ingress.value + 1\n    }\n  }\n",
    );
    let a = run("main.tf", &as_attr);
    let b = run("main.tf", &as_blocks);
    assert!(a.diags.is_empty(), "{:?}", a.diags);
    assert!(b.diags.is_empty(), "{:?}", b.diags);
    assert_eq!(a.planned, b.planned);
    assert!(attributes(a.state.as_ref().unwrap())[0]
        .contains("\"ingress\":[{\"from\":1,\"to\":2},{\"from\":3,\"to\":4}]"));
    assert_eq!(
        attributes(a.state.as_ref().unwrap()),
        attributes(b.state.as_ref().unwrap())
    );
}
