//! Tests for the state v4 codec: byte-identical round trips, ordering, omissions, escaping, errors.

use super::*;
use ferro_addrs::Provider;
use serde_json::json;

const EXAMPLE: &str = include_str!("../../testdata/example.tfstate");
const RICH: &str = include_str!("../../testdata/rich.tfstate");

fn read(s: &str) -> State {
    read_state(s.as_bytes()).unwrap_or_else(|e| panic!("read failed: {e}"))
}

fn read_err(s: &str) -> String {
    match read_state(s.as_bytes()) {
        Ok(_) => panic!("expected an error reading {s}"),
        Err(e) => e.0,
    }
}

fn obj(attrs: Value) -> ObjectState {
    ObjectState {
        tainted: false,
        schema_version: 0,
        attributes: attrs.into(),
        sensitive_attributes: json!([]).into(),
        private: None,
        dependencies: Default::default(),
        create_before_destroy: false,
        skip_destroy: false,
        identity: None,
    }
}

fn null_provider() -> AbsProviderConfig {
    AbsProviderConfig::root(Provider::default_for("null"))
}

/// A minimal v4 document with one resource whose single instance is `inst`.
fn with_instances(instances: &str) -> String {
    format!(
        r#"{{"version":4,"serial":1,"lineage":"l","outputs":{{}},"resources":[{{"mode":"managed","type":"t","name":"n","provider":"provider[\"registry.terraform.io/hashicorp/null\"]","instances":[{instances}]}}]}}"#
    )
}

#[test]
fn example_round_trips_byte_identically() {
    let s = read(EXAMPLE);
    assert_eq!(write_state(&s), EXAMPLE);
    assert_eq!(s.serial, 3);
    assert_eq!(s.lineage, "f2968801-fa14-41ab-a044-224f3a4adf04");
    assert!(s.outputs["ids"].sensitive);
    let m = parse_module_instance("module.m[\"x\"]").unwrap();
    let b = AbsResource {
        module: m,
        resource: Resource::managed("null_resource", "b"),
    };
    let o = s
        .current_object(&b, &InstanceKey::Str("one".into()))
        .unwrap();
    assert!(o.tainted && o.create_before_destroy);
    assert_eq!(*o.dependencies, ["null_resource.a".to_string()]);
    assert_eq!(o.private.as_deref(), Some("bnVsbA=="));
}

#[test]
fn rich_state_round_trips_byte_identically() {
    let s = read(RICH);
    assert_eq!(write_state(&s), RICH);
    // Reading what we wrote gives the same model.
    assert_eq!(read(&write_state(&s)), s);
}

#[test]
fn empty_state_matches_terraform() {
    let mut s = State::new("3a8b0a61-6a2f-2c2e-1e6a-0f0e6a4b7c11".into());
    s.serial = 1;
    assert_eq!(
        write_state(&s),
        "{\n  \"version\": 4,\n  \"terraform_version\": \"1.0.3\",\n  \"serial\": 1,\n  \"lineage\": \"3a8b0a61-6a2f-2c2e-1e6a-0f0e6a4b7c11\",\n  \"outputs\": {},\n  \"resources\": []\n}\n"
    );
}

#[test]
fn reordered_input_is_written_in_terraform_order() {
    // Resources, instances and keys all out of order; unknown keys sprinkled in.
    let input = r#"{
      "resources": [
        {"name": "b", "type": "t", "mode": "managed", "provider": "provider[\"registry.terraform.io/hashicorp/null\"]", "each": "list",
         "instances": [
           {"index_key": "s", "attributes": {"z": 1, "a": {"y": 2, "b": 3}}, "schema_version": 0},
           {"index_key": 1.0, "attributes": {}, "depends_on": ["x"]},
           {"index_key": 0, "deposed": "00000002", "attributes": {}},
           {"index_key": 0, "deposed": "00000001", "attributes": {}},
           {"index_key": 0, "attributes": {}}
         ]},
        {"mode": "managed", "type": "t", "name": "a", "provider": "provider[\"registry.terraform.io/hashicorp/null\"]", "instances": []},
        {"mode": "data", "type": "t", "name": "z", "provider": "provider[\"registry.terraform.io/hashicorp/null\"]", "instances": []},
        {"module": "module.x", "mode": "data", "type": "a", "name": "a", "provider": "provider[\"registry.terraform.io/hashicorp/null\"]", "instances": []}
      ],
      "outputs": {"b": {"type": "string", "value": "x"}, "a": {"sensitive": false, "type": "number", "value": 1}},
      "lineage": "l", "serial": 2, "terraform_version": "0.15.0", "version": 4, "check_results": null
    }"#;
    let s = read(input);
    let out = write_state(&s);
    let expected = r#"{
  "version": 4,
  "terraform_version": "0.15.0",
  "serial": 2,
  "lineage": "l",
  "outputs": {
    "a": {
      "value": 1,
      "type": "number"
    },
    "b": {
      "value": "x",
      "type": "string"
    }
  },
  "resources": [
    {
      "mode": "data",
      "type": "t",
      "name": "z",
      "provider": "provider[\"registry.terraform.io/hashicorp/null\"]",
      "instances": []
    },
    {
      "mode": "managed",
      "type": "t",
      "name": "a",
      "provider": "provider[\"registry.terraform.io/hashicorp/null\"]",
      "instances": []
    },
    {
      "mode": "managed",
      "type": "t",
      "name": "b",
      "provider": "provider[\"registry.terraform.io/hashicorp/null\"]",
      "instances": [
        {
          "index_key": 0,
          "schema_version": 0,
          "attributes": {},
          "sensitive_attributes": []
        },
        {
          "index_key": 0,
          "deposed": "00000001",
          "schema_version": 0,
          "attributes": {},
          "sensitive_attributes": []
        },
        {
          "index_key": 0,
          "deposed": "00000002",
          "schema_version": 0,
          "attributes": {},
          "sensitive_attributes": []
        },
        {
          "index_key": 1,
          "schema_version": 0,
          "attributes": {},
          "sensitive_attributes": []
        },
        {
          "index_key": "s",
          "schema_version": 0,
          "attributes": {
            "a": {
              "b": 3,
              "y": 2
            },
            "z": 1
          },
          "sensitive_attributes": []
        }
      ]
    },
    {
      "module": "module.x",
      "mode": "data",
      "type": "a",
      "name": "a",
      "provider": "provider[\"registry.terraform.io/hashicorp/null\"]",
      "instances": []
    }
  ]
}
"#;
    assert_eq!(out, expected);
}

#[test]
fn model_built_state_sorts_and_omits() {
    let mut s = State::new("lin".into());
    s.serial = 5;
    let p = null_provider();
    // Module whose string sorts before the root? No: "" sorts first. Insert in reverse order.
    let m = parse_module_instance("module.b").unwrap();
    let r1 = AbsResource {
        module: m,
        resource: Resource::managed("null_resource", "x"),
    };
    let r2 = AbsResource::root(Resource::managed("null_resource", "y"));
    let mut o = obj(json!({"id": "1", "a": null}));
    o.private = Some("".into());
    s.set_current(&r1, &p, &InstanceKey::None, Some(o));
    s.set_current(&r2, &p, &InstanceKey::Int(3), Some(obj(json!({}))));
    s.outputs.insert(
        "o".into(),
        OutputState {
            value: json!({"b": [1], "a": "<&>"}),
            ty: json!(["object", {"b": ["list", "number"], "a": "string"}]),
            sensitive: false,
        },
    );
    let out = write_state(&s);
    let expected = r#"{
  "version": 4,
  "terraform_version": "1.0.3",
  "serial": 5,
  "lineage": "lin",
  "outputs": {
    "o": {
      "value": {
        "a": "\u003c\u0026\u003e",
        "b": [
          1
        ]
      },
      "type": [
        "object",
        {
          "a": "string",
          "b": [
            "list",
            "number"
          ]
        }
      ]
    }
  },
  "resources": [
    {
      "mode": "managed",
      "type": "null_resource",
      "name": "y",
      "provider": "provider[\"registry.terraform.io/hashicorp/null\"]",
      "instances": [
        {
          "index_key": 3,
          "schema_version": 0,
          "attributes": {},
          "sensitive_attributes": []
        }
      ]
    },
    {
      "module": "module.b",
      "mode": "managed",
      "type": "null_resource",
      "name": "x",
      "provider": "provider[\"registry.terraform.io/hashicorp/null\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": {
            "a": null,
            "id": "1"
          },
          "sensitive_attributes": []
        }
      ]
    }
  ]
}
"#;
    assert_eq!(out, expected);
}

#[test]
fn module_strings_sort_as_strings() {
    // Module instance ordering by structure would put module.a[10] after module.a[9]; Terraform
    // sorts by the module string, so "module.a[10]" < "module.a[9]".
    let mut s = State::new("l".into());
    for m in ["module.a[9]", "module.a[10]", "module.a"] {
        let addr = AbsResource {
            module: parse_module_instance(m).unwrap(),
            resource: Resource::managed("t", "n"),
        };
        s.set_current(
            &addr,
            &null_provider(),
            &InstanceKey::None,
            Some(obj(json!({}))),
        );
    }
    let out = write_state(&s);
    let a = out.find("\"module.a\"").unwrap();
    let a10 = out.find("\"module.a[10]\"").unwrap();
    let a9 = out.find("\"module.a[9]\"").unwrap();
    assert!(a < a10 && a10 < a9, "{out}");
}

#[test]
fn dynamic_wrapper_keeps_value_first() {
    let v: Value = serde_json::from_str(r#"{"z": {"value": "x", "type": "string"}, "a": {"value": 1, "type": "number", "extra": 1}, "m": {"type": "t", "value": "v"}}"#).unwrap();
    let mut out = String::new();
    crate::json::write_compact(&mut out, &canonical(&v));
    assert_eq!(
        out,
        r#"{"a":{"extra":1,"type":"number","value":1},"m":{"type":"t","value":"v"},"z":{"value":"x","type":"string"}}"#
    );
}

#[test]
fn parses_module_instances() {
    let m = parse_module_instance("module.a[\"k\\\"x\"].module.b[-1].module.c_d-e").unwrap();
    assert_eq!(m.0.len(), 3);
    assert_eq!(m.0[0].name, "a");
    assert_eq!(m.0[0].key, InstanceKey::Str("k\"x".into()));
    assert_eq!(m.0[1].key, InstanceKey::Int(-1));
    assert_eq!(m.0[2].name, "c_d-e");
    assert_eq!(m.0[2].key, InstanceKey::None);
    assert_eq!(
        m.to_string(),
        "module.a[\"k\\\"x\"].module.b[-1].module.c_d-e"
    );
    assert!(parse_module_instance("").unwrap().is_root());
    for bad in [
        "module",
        "module.",
        "mod.a",
        "module.a[",
        "module.a[x]",
        "module.a[\"x]",
        "module.a.b",
        "module.a[0]x",
        "module.1a",
    ] {
        assert!(
            parse_module_instance(bad).is_err(),
            "{bad} should not parse"
        );
    }
}

#[test]
fn escapes_strings_like_go() {
    let mut s = State::new("l".into());
    s.outputs.insert(
        "x".into(),
        OutputState {
            value: json!("<a href=\"x\">&\u{2028}\u{2029}\u{1}\u{7f}\n\t\r\\é"),
            ty: json!("string"),
            sensitive: false,
        },
    );
    let out = write_state(&s);
    assert!(
        out.contains(r#""value": "\u003ca href=\"x\"\u003e\u0026\u2028\u2029\u0001"#),
        "{out}"
    );
    assert!(out.contains("\u{7f}\\n\\t\\r\\\\é\""), "{out}");
    assert_eq!(read(&out), s);
}

#[test]
fn index_keys_from_floats_become_ints() {
    let s = read(&with_instances(
        r#"{"index_key": 2.0, "attributes": {}}, {"index_key": 1e1, "attributes": {}}"#,
    ));
    let r = s.resources.values().next().unwrap();
    let keys: Vec<&InstanceKey> = r.instances.keys().collect();
    assert_eq!(keys, vec![&InstanceKey::Int(2), &InstanceKey::Int(10)]);
    assert!(write_state(&s).contains("\"index_key\": 10,"));
}

#[test]
fn attributes_flat_and_missing_attributes() {
    let s = read(&with_instances(
        r#"{"index_key": 0, "attributes_flat": {"id": "x", "tags.%": "0"}}, {"index_key": 1}"#,
    ));
    let r = s.resources.values().next().unwrap();
    assert_eq!(
        r.instances[&InstanceKey::Int(0)]
            .current
            .as_ref()
            .unwrap()
            .attributes,
        json!({"id": "x", "tags.%": "0"}).into()
    );
    assert_eq!(
        r.instances[&InstanceKey::Int(1)]
            .current
            .as_ref()
            .unwrap()
            .attributes,
        json!({}).into()
    );
}

#[test]
fn version_errors() {
    assert!(read_err(r#"{"serial": 1}"#).contains("no \"version\""));
    assert!(read_err(r#"{"version": "4"}"#).contains("non-negative integer"));
    assert!(read_err(r#"{"version": 4.5}"#).contains("non-negative integer"));
    assert!(read_err(r#"{"version": -1}"#).contains("non-negative integer"));
    for v in 0..=3 {
        assert_eq!(
            read_err(&format!(r#"{{"version": {v}}}"#)),
            format!("state format version {v} is too old for ferro; upgrade it with Terraform 0.13+ first")
        );
    }
    assert!(read_err(r#"{"version": 5, "whatever": true}"#)
        .contains("uses format version 5, which is not supported"));
    assert!(read_err("").contains("empty"));
    assert!(read_err("{").contains("not valid JSON"));
    assert!(read_err("[]").contains("JSON object"));
}

#[test]
fn instance_errors_name_the_place() {
    let e = read_err(&with_instances(
        r#"{"attributes": {}}, {"deposed": "abc", "attributes": {}}"#,
    ));
    assert_eq!(
        e,
        "resources[0].instances[1]: invalid deposed key \"abc\" (must be eight hexadecimal digits)"
    );
    let e = read_err(&with_instances(r#"{"deposed": "0000000g"}"#));
    assert!(e.contains("invalid deposed key \"0000000g\""), "{e}");
    let e = read_err(&with_instances(r#"{"index_key": 1}, {"index_key": 1}"#));
    assert_eq!(
        e,
        "resources[0].instances[1]: duplicate current object for t.n[1]"
    );
    let e = read_err(&with_instances(
        r#"{"deposed": "00000001"}, {"deposed": "00000001"}"#,
    ));
    assert_eq!(
        e,
        "resources[0].instances[1]: duplicate deposed object \"00000001\" for t.n"
    );
    let e = read_err(&with_instances(r#"{"status": "deposed"}"#));
    assert!(
        e.starts_with("resources[0].instances[0]: invalid instance status \"deposed\""),
        "{e}"
    );
    let e = read_err(&with_instances(r#"{"index_key": true}"#));
    assert!(
        e.contains("\"index_key\" must be a number or a string"),
        "{e}"
    );
    let e = read_err(&with_instances(r#"{"attributes": [1]}"#));
    assert!(e.contains("\"attributes\" must be an object"), "{e}");
    let e = read_err(&with_instances(r#"{"schema_version": -1}"#));
    assert!(
        e.contains("\"schema_version\" must be a non-negative integer"),
        "{e}"
    );
    let e = read_err(&with_instances(r#"{"dependencies": [1]}"#));
    assert!(e.contains("dependencies[0]"), "{e}");
}

#[test]
fn resource_errors_name_the_place() {
    let base = r#"{"version":4,"resources":[RES]}"#;
    let cases = [
        (
            r#"{"mode":"weird","type":"t","name":"n","provider":"provider.null"}"#,
            "resources[0]: invalid resource mode \"weird\"",
        ),
        (
            r#"{"mode":"managed","type":"t","name":"n","provider":"nope"}"#,
            "resources[0]: invalid provider configuration address",
        ),
        (
            r#"{"mode":"managed","type":"t","name":"n"}"#,
            "resources[0]: missing \"provider\"",
        ),
        (
            r#"{"mode":"managed","name":"n","provider":"provider.null"}"#,
            "resources[0]: missing resource \"type\"",
        ),
        (
            r#"{"module":"module.a[","mode":"managed","type":"t","name":"n","provider":"provider.null"}"#,
            "resources[0]: invalid module address \"module.a[\"",
        ),
        (r#"7"#, "resources[0]: must be an object"),
    ];
    for (res, want) in cases {
        let e = read_err(&base.replace("RES", res));
        assert!(e.starts_with(want), "got {e:?}, want prefix {want:?}");
    }
    assert!(read_err(r#"{"version":4,"terraform_version":"banana"}"#).contains("terraform_version"));
    assert!(read_err(r#"{"version":4,"outputs":{"o":{"value":1}}}"#)
        .contains("outputs[\"o\"]: missing \"type\""));
    assert!(read_err(r#"{"version":4,"serial":"1"}"#).contains("\"serial\" must be"));
}

#[test]
fn legacy_provider_strings_are_accepted() {
    let s = read(
        r#"{"version":4,"resources":[{"mode":"managed","type":"aws_x","name":"n","provider":"provider.aws.west","instances":[{"attributes":{}}]}]}"#,
    );
    let r = s.resources.values().next().unwrap();
    assert_eq!(
        r.provider.to_string(),
        "provider[\"registry.terraform.io/hashicorp/aws\"].west"
    );
    assert_eq!(s.terraform_version, "");
    assert_eq!(s.serial, 0);
}

#[test]
fn version_strings() {
    for ok in ["1.0.3", "0.15.0-beta1", "v1.2.3", "1.0", "1.3.0+ent"] {
        assert!(is_version(ok), "{ok}");
    }
    for bad in ["x", "1..2", "1.0.", "", "1.0-", "1 .0"] {
        assert!(!is_version(bad), "{bad}");
    }
}

#[test]
fn a_state_terraform_wrote_is_written_back_byte_for_byte() {
    // Written by Terraform 1.0.3 with hashicorp/null 2.1.2: counted and for_each instances, a
    // module, an output, HTML characters Go escapes.
    let text = include_str!("../../testdata/terraform-1.0.3.tfstate");
    let state = read(text);
    assert_eq!(write_state(&state), text);
    // The streamed pieces make up the same document, one instance object per piece.
    let mut pieces = Vec::new();
    write_state_to(&state, &mut |p| pieces.push(p.to_string()));
    assert_eq!(pieces.concat(), text);
    assert_eq!(pieces.len(), 5);
    // Read as a stream (never held whole, the document taken apart): the same state.
    let streamed = super::read_state_from(text.as_bytes()).unwrap().unwrap();
    assert_eq!(streamed, state);
    assert_eq!(write_state(&streamed), text);
}

#[test]
fn reading_a_stream_reports_the_same_errors() {
    // Blank input is no state at all, for the caller to decide about.
    for blank in ["", " \n\t "] {
        assert!(super::read_state_from(blank.as_bytes()).unwrap().is_none());
    }
    for text in [
        "[]",
        "  {\"version\": 4,",
        "{\"version\": 4, \"resources\": {}}",
        "{\"version\": 4, \"resources\": [{\"mode\": \"managed\", \"type\": \"t\", \"name\": \"n\", \"provider\": \"provider[\\\"registry.terraform.io/hashicorp/null\\\"]\", \"instances\": [{\"attributes\": 3}]}]}",
    ] {
        let borrowed = read_state(text.as_bytes()).unwrap_err();
        let streamed = super::read_state_from(text.as_bytes()).unwrap_err();
        assert_eq!(streamed.0, borrowed.0);
        assert!(!streamed.0.is_empty());
    }
}

#[test]
fn resources_without_instances_and_deposed_objects_keep_their_layout() {
    let text = r#"{
  "version": 4,
  "terraform_version": "1.0.3",
  "serial": 3,
  "lineage": "l",
  "outputs": {},
  "resources": [
    {
      "mode": "managed",
      "type": "null_resource",
      "name": "a",
      "provider": "provider[\"registry.terraform.io/hashicorp/null\"]",
      "instances": []
    },
    {
      "mode": "managed",
      "type": "null_resource",
      "name": "b",
      "provider": "provider[\"registry.terraform.io/hashicorp/null\"]",
      "instances": [
        {
          "schema_version": 0,
          "attributes": {
            "id": "1"
          },
          "sensitive_attributes": []
        },
        {
          "deposed": "00000001",
          "schema_version": 0,
          "attributes": {
            "id": "2"
          },
          "sensitive_attributes": []
        }
      ]
    }
  ]
}
"#;
    assert_eq!(write_state(&read(text)), text);
    let empty = "{\n  \"version\": 4,\n  \"terraform_version\": \"1.0.3\",\n  \"serial\": 1,\n  \"lineage\": \"l\",\n  \"outputs\": {},\n  \"resources\": []\n}\n";
    assert_eq!(write_state(&read(empty)), empty);
}

#[test]
fn resources_read_while_parsing_keep_the_errors_of_a_whole_read() {
    // Not an object at the top level, in every JSON kind.
    for doc in ["42", "1.5e3", "[1, 2]", "\"s\"", "true", "null"] {
        assert!(
            read_err(doc).contains("must contain a JSON object at the top level"),
            "{doc}: {}",
            read_err(doc)
        );
    }
    let bad_resource = r#"[{"mode": "managed"}]"#;
    // The version is checked before the resources, wherever it is in the document.
    let e = read_err(&format!(r#"{{"version": 3, "resources": {bad_resource}}}"#));
    assert!(e.contains("too old"), "{e}");
    let e = read_err(&format!(r#"{{"resources": {bad_resource}, "version": 5}}"#));
    assert!(e.contains("format version 5"), "{e}");
    // So are the members Terraform writes before the resources.
    let e = read_err(&format!(
        r#"{{"version": 4, "terraform_version": "99.0.0", "resources": {bad_resource}}}"#
    ));
    assert!(e.contains("newer than current v1.12"), "{e}");
    // A syntax error after a bad resource is still what is reported.
    let e = read_err(&format!(
        r#"{{"version": 4, "resources": {bad_resource}, }}"#
    ));
    assert!(e.contains("not valid JSON"), "{e}");
    // A bad resource is reported with its place, read first or last.
    let e = read_err(&format!(r#"{{"version": 4, "resources": {bad_resource}}}"#));
    assert!(e.starts_with("resources[0]"), "{e}");
    let e = read_err(&format!(r#"{{"resources": {bad_resource}, "version": 4}}"#));
    assert!(e.starts_with("resources[0]"), "{e}");
    // "resources" that is not an array, and a second "resources" member (the last one wins).
    let e = read_err(r#"{"version": 4, "resources": {"a": 1}}"#);
    assert!(e.contains("\"resources\" must be an array"), "{e}");
    let s = read(&format!(
        r#"{{"version": 4, "resources": {bad_resource}, "resources": []}}"#
    ));
    assert!(s.resources.is_empty());
}

#[test]
fn instances_of_a_resource_share_their_dependency_list() {
    let deps = r#""dependencies": ["null_resource.a", "null_resource.b"]"#;
    let s = read(&with_instances(&format!(
        r#"{{"index_key": 0, "schema_version": 0, "attributes": {{}}, {deps}}},
           {{"index_key": 1, "schema_version": 0, "attributes": {{}}, {deps}}},
           {{"index_key": 2, "schema_version": 0, "attributes": {{}}, "dependencies": ["null_resource.c"]}}"#
    )));
    let r = s.resources.values().next().unwrap();
    let dep = |i: i64| {
        r.instances[&InstanceKey::Int(i)]
            .current
            .as_ref()
            .unwrap()
            .dependencies
            .clone()
    };
    assert!(dep(0).shares(&dep(1)));
    assert_eq!(*dep(2), ["null_resource.c".to_string()]);
    // Written back as they were.
    assert!(write_state(&s).contains("\"null_resource.b\""));
}

/// Providers often give every object of a resource the same private data: consecutive
/// objects with the same text hold one copy, and each is written back as it was.
#[test]
fn instances_of_a_resource_share_equal_private_data() {
    let s = read(&with_instances(
        r#"{"index_key": 0, "schema_version": 0, "attributes": {}, "private": "bnVsbA=="},
           {"index_key": 1, "schema_version": 0, "attributes": {}, "private": "bnVsbA=="},
           {"index_key": 2, "schema_version": 0, "attributes": {}, "private": "e30="}"#,
    ));
    let r = s.resources.values().next().unwrap();
    let private = |i: i64| {
        r.instances[&InstanceKey::Int(i)]
            .current
            .as_ref()
            .unwrap()
            .private
            .clone()
            .unwrap()
    };
    assert!(std::sync::Arc::ptr_eq(&private(0), &private(1)));
    assert_eq!(&*private(2), "e30=");
    let written = write_state(&s);
    assert_eq!(
        written.matches("\"private\": \"bnVsbA==\"").count(),
        2,
        "{written}"
    );
    assert!(written.contains("\"private\": \"e30=\""), "{written}");
}

#[test]
fn instances_read_while_parsed_keep_the_checks_of_a_whole_parse() {
    let doc = |resources: &str| {
        format!(r#"{{"version": 4, "serial": 1, "lineage": "l", "resources": [{resources}]}}"#)
    };
    // `instances` before the resource's own members: read all the same.
    let s = read(&doc(
        r#"{"instances": [{"index_key": 0, "attributes": {"id": "a"}}, {"index_key": 1, "attributes": {"id": "b"}}],
            "mode": "managed", "type": "t", "name": "n", "provider": "provider[\"registry.terraform.io/hashicorp/t\"]"}"#,
    ));
    let r = s.resources.values().next().unwrap();
    assert_eq!(r.instances.len(), 2);
    assert_eq!(r.addr.to_string(), "t.n");
    // The resource's own members are checked before its instances, wherever they stand.
    let e = read_err(&doc(
        r#"{"instances": [{"status": "deposed"}], "mode": "managed", "type": "t", "name": "n"}"#,
    ));
    assert_eq!(e, "resources[0]: missing \"provider\"");
    // An `instances` that is not an array, and a number where a resource should be.
    let e = read_err(&doc(
        r#"{"mode": "managed", "type": "t", "name": "n", "provider": "provider[\"registry.terraform.io/hashicorp/t\"]", "instances": 7}"#,
    ));
    assert!(e.contains("\"instances\" must be an array"), "{e}");
    assert!(read_err(&doc("12.5")).starts_with("resources[0]"));
    // A resource listed twice: its instances join, and a second object in one place is refused.
    let one = |i: u32| {
        format!(
            r#"{{"mode": "managed", "type": "t", "name": "n", "provider": "provider[\"registry.terraform.io/hashicorp/t\"]", "instances": [{{"index_key": {i}, "attributes": {{}}}}]}}"#
        )
    };
    let s = read(&doc(&format!("{}, {}", one(0), one(1))));
    assert_eq!(s.resources.values().next().unwrap().instances.len(), 2);
    let e = read_err(&doc(&format!("{}, {}", one(0), one(0))));
    assert_eq!(
        e,
        "resources[1].instances: duplicate current object for t.n[0]"
    );
}

#[test]
fn instances_of_for_each_provider_configurations_carry_the_provider() {
    // OpenTofu 1.9: the resource has no "provider"; each instance names its configuration
    // instance with the key.
    let doc = r#"{"version": 4, "serial": 1, "lineage": "l", "resources": [
        {"mode": "managed", "type": "t", "name": "n", "instances": [
            {"index_key": "a", "provider": "provider[\"registry.opentofu.org/hashicorp/null\"].each[\"a\"]", "attributes": {"id": "1"}},
            {"index_key": "b", "provider": "provider[\"registry.opentofu.org/hashicorp/null\"].each[\"b\"]", "attributes": {"id": "2"}}]}]}"#;
    let s = read(doc);
    let r = s.resources.values().next().unwrap();
    assert_eq!(
        r.provider.to_string(),
        "provider[\"registry.opentofu.org/hashicorp/null\"].each"
    );
    let b = r.instance_provider(&InstanceKey::Str("b".into()));
    assert_eq!(b.key, InstanceKey::Str("b".into()));
    assert_eq!(
        b.to_string(),
        "provider[\"registry.opentofu.org/hashicorp/null\"].each[\"b\"]"
    );
    // Written the same way, and read back the same.
    let w = write_state(&s);
    assert!(
        w.contains("\"name\": \"n\",\n      \"instances\""),
        "the resource has no provider: {w}"
    );
    assert!(
        w.contains("\"index_key\": \"a\",\n          \"provider\": \"provider[\\\"registry.opentofu.org/hashicorp/null\\\"].each[\\\"a\\\"]\","),
        "{w}"
    );
    assert_eq!(read(&w), s);
    // Both on the resource and on an instance, or instances of two configurations: refused.
    let e = read_err(&doc.replace(
        r#""name": "n","#,
        r#""name": "n", "provider": "provider[\"registry.opentofu.org/hashicorp/null\"]","#,
    ));
    assert!(e.contains("as well as instances"), "{e}");
    let e = read_err(&doc.replace(".each[\\\"b\\\"]", ".other[\\\"b\\\"]"));
    assert!(e.contains("different provider configurations"), "{e}");
    // A state without provider keys is written as before (on the resource).
    let plain = read(&with_instances(r#"{"attributes": {"id": "x"}}"#));
    assert!(write_state(&plain).contains("\"provider\": \"provider[\\\"registry.terraform.io/hashicorp/null\\\"]\",\n      \"instances\""));
}

#[test]
fn states_of_releases_up_to_1_12_are_read() {
    for v in [
        "1.5.7",
        "1.9.5",
        "v1.10.0",
        "1.12.2",
        "1.12.0-beta1",
        "1.8.0+build",
    ] {
        let s = read(&format!(
            r#"{{"version": 4, "terraform_version": "{v}", "serial": 1, "lineage": "l", "outputs": {{}}, "resources": [], "check_results": null}}"#
        ));
        assert_eq!(s.terraform_version, v);
    }
    for v in ["1.13.0", "1.13.0-alpha1", "2.0.0", "v1.20"] {
        let e = read_err(&format!(r#"{{"version": 4, "terraform_version": "{v}"}}"#));
        let shown = v.trim_start_matches('v');
        assert_eq!(
            e,
            format!("state snapshot was created by Terraform v{shown}, which is newer than current v1.12; upgrade to Terraform v{shown} or greater to work with this state")
        );
    }
}

#[test]
fn check_results_are_read_past_and_not_written() {
    let doc = r#"{"version": 4, "terraform_version": "1.9.5", "serial": 2, "lineage": "l", "outputs": {}, "resources": [], "check_results": [{"object_kind": "resource", "config_addr": "null_resource.a", "status": "pass", "objects": [{"object_addr": "null_resource.a", "status": "pass"}]}]}"#;
    let written = write_state(&read(doc));
    assert!(!written.contains("check_results"), "{written}");
}

#[test]
fn members_ferro_cannot_keep_are_refused_by_name() {
    // Terraform 1.12's resource identity is kept as it is, and written back.
    let text = with_instances(
        r#"{"schema_version":0,"attributes":{"id":"x"},"sensitive_attributes":[],"identity_schema_version":2,"identity":{"name":"n","id":"x"}}"#,
    );
    let s = read(&text);
    let written = super::write_state(&s);
    assert!(
        written.contains("\"identity_schema_version\": 2,\n          \"identity\": {\n            \"id\": \"x\",\n            \"name\": \"n\"\n          }"),
        "{written}"
    );
    let e = read_err(&with_instances(
        r#"{"schema_version":0,"attributes":{"id":"x"},"identity":["x"]}"#,
    ));
    assert!(e.contains("\"identity\" must be an object"), "{e}");
    // What Terraform 1.12 writes for a resource without an identity is read.
    let s = read(&with_instances(
        r#"{"schema_version":0,"attributes":{"id":"x"},"sensitive_attributes":[],"identity_schema_version":0,"identity":null}"#,
    ));
    assert_eq!(s.resources.len(), 1);
    // Terraform 0.12's leftovers are read past, as Terraform reads past them.
    read(&with_instances(
        r#"{"schema_version":0,"attributes":{"id":"x"},"depends_on":["null_resource.b"]}"#,
    ));
    // Unknown members of a resource or of the document.
    let e = read_err(
        r#"{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","provider":"provider[\"registry.terraform.io/hashicorp/null\"]","skip_destroy":true,"instances":[]}]}"#,
    );
    assert!(
        e.starts_with("resources[0]: the state has the member \"skip_destroy\""),
        "{e}"
    );
    let e = read_err(r#"{"version":4,"terraform_version":"1.12.0","novel":{}}"#);
    assert!(e.starts_with("the state has the member \"novel\""), "{e}");
    // A null is what an absent member reads as.
    read(r#"{"version":4,"novel":null}"#);
}
