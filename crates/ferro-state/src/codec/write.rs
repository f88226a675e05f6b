//! Writing state format version 4, byte-for-byte as Terraform 1.0.x writes it: a `Value` tree in
//! Terraform's key order rendered by [`crate::json::write_indented`], with embedded cty JSON in
//! [`canonical`] order.

use super::STATE_FORMAT_VERSION;
use crate::json::{write_indented, write_indented_at};
use crate::{ObjectState, ResourceState, State};
use ferro_addrs::{AbsResource, InstanceKey};
use serde_json::{Map, Number, Value};
/// Render a state as Terraform 1.0.3 writes it (`json.MarshalIndent` with two spaces, plus `\n`).
pub fn write_state(state: &State) -> String {
    let mut out = String::new();
    write_state_to(state, &mut |piece| out.push_str(piece));
    out
}

/// [`write_state`] in pieces handed to `sink` in order (one resource instance object at a
/// time), so a caller streaming to a file or a digest never holds the whole document.
pub fn write_state_to(state: &State, sink: &mut dyn FnMut(&str)) {
    render_state(state, state.serial, &state.terraform_version, sink)
}

/// The state's rendering with the given serial and writer version.
pub(crate) fn render_state(state: &State, serial: u64, version: &str, sink: &mut dyn FnMut(&str)) {
    let mut top = Map::new();
    top.insert(
        "version".into(),
        Value::Number(Number::from(STATE_FORMAT_VERSION)),
    );
    top.insert("terraform_version".into(), Value::String(version.into()));
    top.insert("serial".into(), Value::Number(Number::from(serial)));
    top.insert("lineage".into(), Value::String(state.lineage.clone()));

    let mut outputs = Map::new();
    for (name, out) in &state.outputs {
        let mut o = Map::new();
        o.insert("value".into(), canonical(&out.value));
        o.insert("type".into(), canonical(&out.ty));
        if out.sensitive {
            o.insert("sensitive".into(), Value::Bool(true));
        }
        outputs.insert(name.clone(), Value::Object(o));
    }
    top.insert("outputs".into(), Value::Object(outputs));

    let mut rs: Vec<(&AbsResource, &ResourceState)> = state.resources.iter().collect();
    rs.sort_by_cached_key(|(a, _)| {
        (
            a.module.to_string(),
            a.resource.mode.as_str(),
            a.resource.ty.clone(),
            a.resource.name.clone(),
        )
    });
    // The members before "resources" rendered as one object, reopened after its last member;
    // then each resource with its "instances" member written one object at a time. The
    // layout is write_indented's: members one level deeper than their brackets.
    let mut buf = String::new();
    write_indented(&mut buf, &Value::Object(top));
    buf.truncate(buf.len() - "\n}".len());
    buf.push_str(",\n  \"resources\": ");
    if rs.is_empty() {
        buf.push_str("[]");
    } else {
        buf.push('[');
        for (i, (addr, r)) in rs.into_iter().enumerate() {
            if i > 0 {
                buf.push(',');
            }
            buf.push_str("\n    ");
            // OpenTofu 1.9: when an instance belongs to an instance of a `for_each` provider
            // configuration, the provider is written on every instance (with its key) and
            // not on the resource.
            let keyed = r.instances.keys().any(|k| r.provider_keys.contains_key(k));
            write_indented_at(&mut buf, &Value::Object(resource_head(addr, r, keyed)), 2);
            buf.truncate(buf.len() - "\n    }".len());
            buf.push_str(",\n      \"instances\": ");
            let mut first = true;
            for (key, inst) in &r.instances {
                let objects = inst
                    .current
                    .iter()
                    .map(|cur| write_object(key, None, cur, keyed.then_some(r)))
                    .chain(
                        inst.deposed
                            .iter()
                            .map(|(dk, obj)| write_object(key, Some(dk), obj, keyed.then_some(r))),
                    );
                for o in objects {
                    buf.push_str(if first { "[" } else { "," });
                    first = false;
                    buf.push_str("\n        ");
                    write_indented_at(&mut buf, &o, 4);
                    sink(&buf);
                    buf.clear();
                }
            }
            buf.push_str(if first { "[]" } else { "\n      ]" });
            buf.push_str("\n    }");
        }
        buf.push_str("\n  ]");
    }
    buf.push_str("\n}\n");
    sink(&buf);
}

/// A resource's members before its "instances".
fn resource_head(addr: &AbsResource, r: &ResourceState, keyed: bool) -> Map<String, Value> {
    let mut o = Map::new();
    if !addr.module.is_root() {
        o.insert("module".into(), Value::String(addr.module.to_string()));
    }
    o.insert(
        "mode".into(),
        Value::String(addr.resource.mode.as_str().into()),
    );
    o.insert("type".into(), Value::String(addr.resource.ty.to_string()));
    o.insert("name".into(), Value::String(addr.resource.name.to_string()));
    if !keyed {
        o.insert("provider".into(), Value::String(r.provider.to_string()));
    }
    o
}

/// One object; `keyed`: its resource, when the provider is written per instance.
fn write_object(
    key: &InstanceKey,
    deposed: Option<&str>,
    obj: &ObjectState,
    keyed: Option<&ResourceState>,
) -> Value {
    let mut o = Map::new();
    match key {
        InstanceKey::None => {}
        InstanceKey::Int(i) => {
            o.insert("index_key".into(), Value::Number(Number::from(*i)));
        }
        InstanceKey::Str(s) => {
            o.insert("index_key".into(), Value::String(s.clone()));
        }
    }
    if obj.tainted {
        o.insert("status".into(), Value::String("tainted".into()));
    }
    if let Some(d) = deposed {
        o.insert("deposed".into(), Value::String(d.into()));
    }
    if let Some(r) = keyed {
        let provider = r.instance_provider(key);
        o.insert("provider".into(), Value::String(provider.to_string()));
    }
    o.insert(
        "schema_version".into(),
        Value::Number(Number::from(obj.schema_version)),
    );
    // Either form gives its members in name order (the JSON was made canonical when read;
    // a value encodes its object keys in order, wrappers as written).
    o.insert("attributes".into(), obj.attributes.json());
    let sens = match &*obj.sensitive_attributes {
        Value::Null => Value::Array(Vec::new()),
        v => canonical(v),
    };
    o.insert("sensitive_attributes".into(), sens);
    // Where Terraform 1.12 writes them; absent when there is no identity (Terraform 1.0.3
    // has neither member).
    if let Some(id) = &obj.identity {
        o.insert(
            "identity_schema_version".into(),
            Value::Number(Number::from(id.schema_version)),
        );
        let v: Value = serde_json::from_str(&id.json).unwrap_or(Value::Null);
        o.insert("identity".into(), v);
    }
    if let Some(p) = obj.private.as_deref().filter(|p| !p.is_empty()) {
        o.insert("private".into(), Value::String(p.into()));
    }
    if !obj.dependencies.is_empty() {
        o.insert(
            "dependencies".into(),
            Value::Array(
                obj.dependencies
                    .iter()
                    .map(|d| Value::String(d.clone()))
                    .collect(),
            ),
        );
    }
    if obj.create_before_destroy {
        o.insert("create_before_destroy".into(), Value::Bool(true));
    }
    if obj.skip_destroy {
        o.insert("skip_destroy".into(), Value::Bool(true));
    }
    Value::Object(o)
}

/// A copy of `v` with object keys sorted recursively, except that a dynamic-value wrapper
/// (an object with exactly the keys `value` and `type`) keeps its stored order.
pub fn canonical(v: &Value) -> Value {
    match v {
        Value::Array(a) => Value::Array(a.iter().map(canonical).collect()),
        Value::Object(m) => {
            let is_wrapper = m.len() == 2 && m.contains_key("value") && m.contains_key("type");
            let mut entries: Vec<(&String, &Value)> = m.iter().collect();
            if !is_wrapper {
                entries.sort_by(|a, b| a.0.cmp(b.0));
            }
            Value::Object(
                entries
                    .into_iter()
                    .map(|(k, v)| (k.clone(), canonical(v)))
                    .collect(),
            )
        }
        other => other.clone(),
    }
}
