//! Attribute validators in process: top-level attributes, the objects of nested attributes in
//! every nesting mode and nested blocks, each diagnostic on the attribute's full path; nested
//! conflicts-with and at-least-one-of.

use ferro_provider::Provider;
use ferro_sdk::schema::Object;
use ferro_sdk::validators::{at_least, conflicts_with, length_between, matches_class, one_of};
use ferro_sdk::values::path_name;
use ferro_sdk::{Attr, Diags, Resource, ResourceSchema, SdkProvider, Type, Value};
use ferro_value::schema::NestingMode;
use ferro_value::ValueMap;

struct Rules;

fn rule() -> Object {
    Object::new()
        .attr(
            "name",
            Attr::string()
                .optional()
                .validate(matches_class("^[a-z0-9-]+$", "must be lowercase")),
        )
        .attr(
            "port",
            Attr::number()
                .optional()
                .validate(at_least(1))
                .validate(conflicts_with(&["cidr"])),
        )
        .attr(
            "cidr",
            Attr::string().optional().validate(length_between(9, 18)),
        )
        .at_least_one_of(&["port", "cidr"])
}

impl Resource for Rules {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr(
                "mode",
                Attr::string().optional().validate(one_of(&["a", "b"])),
            )
            .attr(
                "single",
                Attr::nested(NestingMode::Single, rule()).optional(),
            )
            .attr("rules", Attr::nested(NestingMode::List, rule()).optional())
            .attr("set", Attr::nested(NestingMode::Set, rule()).optional())
            .attr("map", Attr::nested(NestingMode::Map, rule()).optional())
            .block(
                "extra",
                NestingMode::List,
                ResourceSchema::new().attr(
                    "label",
                    Attr::string().optional().validate(length_between(1, 3)),
                ),
            )
    }
    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(planned.clone())
    }
}

fn provider() -> SdkProvider {
    SdkProvider::new("t").resource("t_rules", Rules)
}

fn rule_type() -> Type {
    Type::object(["name", "port", "cidr"].into_iter().map(|n| {
        (
            n.to_string(),
            if n == "port" {
                Type::Number
            } else {
                Type::String
            },
        )
    }))
}

fn rule_value(name: &str, port: Option<i64>, cidr: Option<&str>) -> Value {
    Value::object(ValueMap::from([
        ("name".to_string(), Value::string(name)),
        (
            "port".to_string(),
            port.map_or_else(|| Value::null(Type::Number), Value::int),
        ),
        (
            "cidr".to_string(),
            cidr.map_or_else(|| Value::null(Type::String), Value::string),
        ),
    ]))
}

fn config(p: &SdkProvider, attrs: &[(&str, Value)]) -> Value {
    let ty = p.schema().unwrap().resources["t_rules"].block.clone();
    let mut v = ty.empty_value();
    for (n, x) in attrs {
        v = ferro_sdk::values::with(&v, n, x.clone());
    }
    v
}

/// (path, detail) of every diagnostic, sorted.
fn check(attrs: &[(&str, Value)]) -> Vec<(String, String)> {
    let p = provider();
    let cfg = config(&p, attrs);
    let mut out: Vec<(String, String)> = p
        .validate_resource_config("t_rules", &cfg)
        .iter()
        .map(|d| {
            (
                path_name(d.attribute.as_deref().unwrap_or(&[])),
                d.detail.clone(),
            )
        })
        .collect();
    out.sort();
    out
}

fn pairs(want: &[(&str, &str)]) -> Vec<(String, String)> {
    want.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[test]
fn valid_nested_objects_pass() {
    let ok = rule_value("web", Some(80), None);
    let got = check(&[
        ("mode", Value::string("a")),
        ("single", ok.clone()),
        ("rules", Value::list(rule_type(), vec![ok.clone()])),
        ("set", Value::set(rule_type(), vec![ok.clone()])),
        (
            "map",
            Value::map(rule_type(), ValueMap::from([("k".to_string(), ok)])),
        ),
    ]);
    assert_eq!(got, Vec::<(String, String)>::new());
}

#[test]
fn list_elements_are_reported_by_index() {
    let got = check(&[(
        "rules",
        Value::list(
            rule_type(),
            vec![
                rule_value("ok", Some(1), None),
                rule_value("Bad", Some(0), None),
            ],
        ),
    )]);
    assert_eq!(
        got,
        pairs(&[
            (
                "rules[1].name",
                "Attribute rules[1].name must be lowercase, got: \"Bad\""
            ),
            (
                "rules[1].port",
                "Attribute rules[1].port value must be at least 1, got: 0"
            ),
        ])
    );
}

#[test]
fn map_set_and_single_objects_and_blocks_are_validated() {
    let label = |s: &str| Value::object(ValueMap::from([("label".to_string(), Value::string(s))]));
    let label_ty = Type::object([("label".to_string(), Type::String)]);
    let got = check(&[
        ("mode", Value::string("c")),
        ("single", rule_value("x", None, Some("short"))),
        (
            "map",
            Value::map(
                rule_type(),
                ValueMap::from([(
                    "k1".to_string(),
                    rule_value("y", Some(5), Some("10.0.0.0/8")),
                )]),
            ),
        ),
        (
            "set",
            Value::set(rule_type(), vec![rule_value("z", None, None)]),
        ),
        (
            "extra",
            Value::list(label_ty, vec![label("ok"), label("long")]),
        ),
    ]);
    assert_eq!(
        got,
        pairs(&[
            (
                "extra[1].label",
                "Attribute extra[1].label string length must be between 1 and 3, got: 4"
            ),
            (
                "map[\"k1\"].port",
                "Attribute \"map[\\\"k1\\\"].cidr\" cannot be specified when \"map[\\\"k1\\\"].port\" is specified"
            ),
            ("mode", "Attribute mode value must be one of: [\"a\", \"b\"], got: \"c\""),
            (
                "set.port",
                "At least one attribute out of [set.port,set.cidr] must be specified"
            ),
            (
                "single.cidr",
                "Attribute single.cidr string length must be between 9 and 18, got: 5"
            ),
        ])
    );
}

#[test]
fn unknown_and_null_nested_values_are_not_checked() {
    let got = check(&[
        ("rules", Value::unknown(Type::list(rule_type()))),
        ("single", rule_value("x", None, None)),
        (
            "set",
            Value::set(
                rule_type(),
                vec![Value::object(ValueMap::from([
                    ("name".to_string(), Value::unknown(Type::String)),
                    ("port".to_string(), Value::int(0)),
                    ("cidr".to_string(), Value::null(Type::String)),
                ]))],
            ),
        ),
    ]);
    assert_eq!(
        got,
        pairs(&[
            (
                "set.port",
                "Attribute set.port value must be at least 1, got: 0"
            ),
            (
                "single.port",
                "At least one attribute out of [single.port,single.cidr] must be specified"
            ),
        ])
    );
}
