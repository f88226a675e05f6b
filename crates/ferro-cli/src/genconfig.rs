//! `plan -generate-config-out=FILE` (Terraform 1.5): configuration for the targets of `import`
//! blocks that the configuration does not declare, written from the objects as imported and
//! laid out as `ferro fmt` lays them out. What is written follows Terraform's rules for a
//! provider that generates nothing itself: the arguments a configuration may set (not
//! computed-only ones, not deprecated ones, not the legacy SDK's optional `id`), an empty
//! optional string as null, a sensitive value as `null # sensitive`, a string holding a JSON
//! object or array as `jsonencode(...)`, nested blocks one per element.

use ferro_planner::GeneratedImport;
use ferro_value::hcl_text::{expr_text, quoted, valid_identifier};
use ferro_value::schema::{Attribute, Block, NestedAttributes, NestingMode};
use ferro_value::{Type, Value, ValueKind};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The first lines of a generated file.
const FILE_HEADER: &str = "# __generated__ by ferro\n# Please review these resources and move them into your main configuration files.\n";

/// The `resource` block for one imported object, laid out.
pub fn resource_block(g: &GeneratedImport) -> String {
    let r = &g.addr.resource.resource;
    let mut text = format!("resource {} {} {{\n", quoted(&r.ty), quoted(&r.name));
    attributes(&mut text, &g.value, &g.schema.block.attributes, 2, true);
    blocks(&mut text, &g.value, &g.schema.block, 2);
    text.push_str("}\n");
    let laid_out = ferro_syntax::fmt::format_source(&text).unwrap_or(text);
    laid_out.trim_end().to_string()
}

/// Write the file: the header, then each block with the ID it was imported by. The file
/// must not exist yet (checked before planning; `create_new` keeps a file that appeared since).
pub fn write_file(path: &Path, generated: &[(GeneratedImport, String)]) -> Result<(), String> {
    let mut text = String::from(FILE_HEADER);
    for (g, block) in generated {
        // An object imported by identity has no ID to name.
        let from = match g.id.as_str() {
            "" => String::new(),
            id => format!(" from {}", ferro_value::json::go_quote(id)),
        };
        let _ = write!(text, "\n# __generated__ by ferro{from}\n{block}\n");
    }
    use std::io::Write;
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| e.to_string())
}

fn attr_of(v: &Value, name: &str, ty: &Type) -> Value {
    v.get_attr(name)
        .cloned()
        .unwrap_or_else(|| Value::null(ty.clone()))
}

fn pad(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

/// `name = value` lines for the attributes a configuration may set.
fn attributes(
    out: &mut String,
    obj: &Value,
    attrs: &BTreeMap<String, Attribute>,
    indent: usize,
    top: bool,
) {
    for (name, a) in attrs {
        if a.deprecated || (a.computed && !a.optional) {
            continue;
        }
        // The legacy SDK's optional `id`: generated, it may not be in the real schema.
        if top && name == "id" && a.computed && a.optional {
            continue;
        }
        let mut v = attr_of(obj, name, &a.ty);
        // The legacy SDK stores "" for an optional string that is not set.
        if a.ty == Type::String && a.optional && v.as_str() == Some("") {
            v = Value::null(Type::String);
        }
        if a.computed && v.is_null() {
            continue;
        }
        if let Some(n) = &a.nested {
            nested_attribute(out, name, a, n, &v, indent);
            continue;
        }
        pad(out, indent);
        let _ = write!(out, "{name} = ");
        if a.sensitive {
            out.push_str("null # sensitive");
        } else {
            value(out, &v);
        }
        out.push('\n');
    }
}

/// A value; a string that holds a JSON object or array as `jsonencode(...)` of it.
fn value(out: &mut String, v: &Value) {
    if let ValueKind::String(s) = &v.kind {
        if let Ok(j) = serde_json::from_str::<serde_json::Value>(s) {
            if j.is_object() || j.is_array() {
                out.push_str("jsonencode(");
                expr_text(&ferro_value::json::value_from_plain_json(&j), out);
                out.push(')');
                return;
            }
        }
    }
    expr_text(v, out);
}

fn nested_attribute(
    out: &mut String,
    name: &str,
    a: &Attribute,
    n: &NestedAttributes,
    v: &Value,
    indent: usize,
) {
    pad(out, indent);
    if a.sensitive {
        let empty = match n.nesting {
            NestingMode::List | NestingMode::Set => "[]",
            _ => "{}",
        };
        let _ = writeln!(out, "{name} = {empty} # sensitive");
        return;
    }
    if v.is_null() {
        let _ = writeln!(out, "{name} = null");
        return;
    }
    match (&v.kind, n.nesting) {
        (ValueKind::Object(_), NestingMode::Single | NestingMode::Group) => {
            let _ = writeln!(out, "{name} = {{");
            attributes(out, v, &n.attributes, indent + 2, false);
            pad(out, indent);
            out.push_str("}\n");
        }
        (ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es), _) => {
            let _ = writeln!(out, "{name} = [");
            for e in es.iter() {
                pad(out, indent + 2);
                out.push_str("{\n");
                attributes(out, e, &n.attributes, indent + 4, false);
                pad(out, indent + 2);
                out.push_str("},\n");
            }
            pad(out, indent);
            out.push_str("]\n");
        }
        (ValueKind::Map(_, m) | ValueKind::Object(m), _) => {
            let _ = writeln!(out, "{name} = {{");
            for (k, e) in m.iter() {
                pad(out, indent + 2);
                if valid_identifier(k) {
                    let _ = writeln!(out, "{k} = {{");
                } else {
                    let _ = writeln!(out, "{} = {{", quoted(k));
                }
                attributes(out, e, &n.attributes, indent + 4, false);
                pad(out, indent + 2);
                out.push_str("}\n");
            }
            pad(out, indent);
            out.push_str("}\n");
        }
        _ => {
            let _ = writeln!(out, "{name} = null");
        }
    }
}

/// Nested blocks: one per element, a map's with its key as label.
fn blocks(out: &mut String, obj: &Value, block: &Block, indent: usize) {
    for (name, nb) in &block.block_types {
        if nb.block.deprecated {
            continue;
        }
        let v = attr_of(obj, name, &Type::Dynamic);
        let one = |out: &mut String, e: &Value, label: Option<&str>| {
            if e.is_null() {
                return;
            }
            pad(out, indent);
            match label {
                Some(k) => {
                    let _ = writeln!(out, "{name} {} {{", quoted(k));
                }
                None => {
                    let _ = writeln!(out, "{name} {{");
                }
            }
            attributes(out, e, &nb.block.attributes, indent + 2, false);
            blocks(out, e, &nb.block, indent + 2);
            pad(out, indent);
            out.push_str("}\n");
        };
        match &v.kind {
            ValueKind::Object(_)
                if matches!(nb.nesting, NestingMode::Single | NestingMode::Group) =>
            {
                one(out, &v, None)
            }
            ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => {
                for e in es.iter() {
                    one(out, e, None);
                }
            }
            ValueKind::Map(_, m) | ValueKind::Object(m) => {
                for (k, e) in m.iter() {
                    one(out, e, Some(k));
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_value::schema::{NestedBlock, Schema};

    fn obj(pairs: Vec<(&str, Value)>) -> Value {
        Value::object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
    }

    /// Terraform's rules: computed-only and deprecated arguments and the legacy `id` are left
    /// out, "" of an optional string is null, a sensitive value is `null # sensitive`, JSON
    /// text is `jsonencode(...)`, a list block is one block per element, a map block is
    /// labelled with its key.
    #[test]
    fn generated_configuration_follows_terraforms_rules() {
        let mut rule = Block::default();
        rule.attributes
            .insert("port".into(), Attribute::new(Type::Number).required());
        let mut b = Block::default();
        let a = &mut b.attributes;
        a.insert(
            "id".into(),
            Attribute::new(Type::String).optional().computed(),
        );
        a.insert("arn".into(), Attribute::new(Type::String).computed());
        a.insert("name".into(), Attribute::new(Type::String).required());
        a.insert("note".into(), Attribute::new(Type::String).optional());
        a.insert("policy".into(), Attribute::new(Type::String).optional());
        a.insert(
            "token".into(),
            Attribute::new(Type::String).optional().sensitive(),
        );
        let mut old = Attribute::new(Type::String).optional();
        old.deprecated = true;
        a.insert("old".into(), old);
        b.block_types.insert(
            "rule".into(),
            NestedBlock {
                nesting: NestingMode::List,
                block: rule.clone(),
                min_items: 0,
                max_items: 0,
            },
        );
        b.block_types.insert(
            "slot".into(),
            NestedBlock {
                nesting: NestingMode::Map,
                block: rule.clone(),
                min_items: 0,
                max_items: 0,
            },
        );
        let port = |n: i64| obj(vec![("port", Value::int(n))]);
        let rule_ty = port(1).ty();
        let value = obj(vec![
            ("id", Value::string("i-1")),
            ("arn", Value::string("arn:x")),
            ("name", Value::string("web")),
            ("note", Value::string("")),
            ("policy", Value::string(r#"{"a":[1,"b"]}"#)),
            ("token", Value::string("secret")),
            ("old", Value::string("was")),
            (
                "rule",
                Value::list(rule_ty.clone(), vec![port(80), port(443)]),
            ),
            (
                "slot",
                Value::map(
                    rule_ty,
                    [("x y".to_string(), port(1))].into_iter().collect(),
                ),
            ),
        ]);
        let g = GeneratedImport {
            addr: ferro_addrs::parse_resource_instance("t_thing.a").unwrap(),
            id: "i-1".into(),
            value,
            schema: Schema::new(0, b),
        };
        let want = r#"resource "t_thing" "a" {
  name = "web"
  note = null
  policy = jsonencode({
    a = [1, "b"]
  })
  token = null # sensitive
  rule {
    port = 80
  }
  rule {
    port = 443
  }
  slot "x y" {
    port = 1
  }
}"#;
        assert_eq!(resource_block(&g), want);
    }
}
