//! Protocol 6 nested attributes end to end: a ferro-sdk provider whose resource has nested
//! attributes in every nesting mode, configured, planned, applied and planned again through the
//! CLI (configuration objects may leave out optional attributes; computed ones inside objects
//! are planned unknown and then kept; a change inside one object updates in place; a missing
//! required attribute inside an object is a type error).

use ferro_sdk::modifiers::use_state_for_unknown;
use ferro_sdk::schema::Object;
use ferro_sdk::{Attr, Diags, Resource, ResourceSchema, SdkProvider, Type, Value};
use ferro_value::schema::NestingMode;
use ferro_value::ValueKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;

struct Thing;

impl Resource for Thing {
    fn schema(&self) -> ResourceSchema {
        let rule = Object::new()
            .attr("port", Attr::number().required())
            .attr("proto", Attr::string().default(Value::string("tcp")))
            .attr(
                "id",
                Attr::string().computed().modifier(use_state_for_unknown()),
            );
        let named = Object::new()
            .attr("name", Attr::string().required())
            .attr("id", Attr::string().computed());
        ResourceSchema::new()
            .attr(
                "id",
                Attr::string().computed().modifier(use_state_for_unknown()),
            )
            .attr(
                "rules",
                Attr::nested(NestingMode::List, rule.clone()).optional(),
            )
            .attr("ports", Attr::nested(NestingMode::Set, rule).optional())
            .attr(
                "owner",
                Attr::nested(NestingMode::Single, named.clone()).required(),
            )
            .attr("tags", Attr::nested(NestingMode::Map, named).optional())
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(resolve(planned))
    }

    fn update(&self, _prior: &Value, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(resolve(planned))
    }
}

/// Unknown strings become "id-N", numbered in the order they are met.
fn resolve(v: &Value) -> Value {
    fn go(v: &Value, n: &mut usize) -> Value {
        match &v.kind {
            ValueKind::Unknown(Type::String) => {
                *n += 1;
                Value::string(format!("id-{n}"))
            }
            ValueKind::Object(m) => {
                Value::object(m.iter().map(|(k, x)| (k.clone(), go(x, n))).collect())
            }
            ValueKind::List(t, es) => Value::list(t.clone(), es.iter().map(|e| go(e, n)).collect()),
            ValueKind::Set(t, es) => Value::set(t.clone(), es.iter().map(|e| go(e, n)).collect()),
            ValueKind::Map(t, es) => Value::map(
                t.clone(),
                es.iter().map(|(k, e)| (k.clone(), go(e, n))).collect(),
            ),
            _ => v.clone(),
        }
    }
    go(v, &mut 0)
}

fn register() {
    let mut list = ferro_providers::builtins();
    list.push(("nested", || {
        Arc::new(SdkProvider::new("nested").resource("nested_thing", Thing))
    }));
    ferro_provider::set_builtin_fallbacks(list);
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ferro-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn ferro(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let code = ferro_cli::run(
        &args,
        dir,
        &mut ferro_cli::Io {
            stdout: &mut out,
            stderr: &mut err,
            stdin: None,
        },
    );
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

const CONFIG: &str = r#"
resource "nested_thing" "a" {
  rules = [{ port = 80 }, { port = 443, proto = "udp" }]
  ports = [{ port = 1 }]
  owner = { name = "me" }
  tags  = { a = { name = "x" } }
}
"#;

#[test]
fn nested_attributes_plan_apply_and_replan() {
    register();
    let dir = scratch("nested-attributes");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    let (code, out, err) = ferro(&dir, &["plan", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Plan: 1 to add"), "{out}");
    assert!(
        out.contains("proto = \"tcp\""),
        "the default inside an object: {out}"
    );
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = ferro(&dir, &["plan", "-no-color", "-detailed-exitcode"]);
    assert_eq!(code, 0, "no changes after apply: {out}{err}");

    // One object changes: an in-place update; the other objects keep their ids.
    std::fs::write(dir.join("main.tf"), CONFIG.replace("443", "444")).unwrap();
    let (code, out, err) = ferro(&dir, &["plan", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("Plan: 0 to add, 1 to change, 0 to destroy."),
        "{out}"
    );
    assert!(
        !out.contains("known after apply"),
        "use_state_for_unknown keeps ids: {out}"
    );
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{out}{err}");
    let state = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    assert!(state.contains("\"port\": 444"), "{state}");

    // A required attribute inside an object is required.
    std::fs::write(
        dir.join("main.tf"),
        CONFIG.replace("owner = { name = \"me\" }", "owner = { id = \"me\" }"),
    )
    .unwrap();
    let (code, out, err) = ferro(&dir, &["plan", "-no-color"]);
    assert_eq!(code, 1, "{out}");
    assert!(err.contains("Incorrect attribute value type"), "{err}");
    assert!(err.contains("attribute \"name\" is required"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
