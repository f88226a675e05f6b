//! Core's check that one object is a valid completion of another (Terraform's
//! `AssertObjectCompatible`): every known value planned must be kept, an unknown may become
//! any value of its type. Apply uses it twice: the final plan against the plan the user
//! approved (for every provider, legacy SDK ones too), and the applied object against the
//! final plan (relaxed for legacy providers).
//!
//! The errors are written as Terraform writes them (`.triggers["body"]: was
//! cty.StringVal("one\n"), but now cty.StringVal("two\n")`), since users hand them to the
//! provider's developers; sensitive attributes only say that they differ.

use ferro_value::schema::{Block, NestedBlock, NestingMode};
use ferro_value::{value_go_string, PathStep, Value, ValueKind};

/// One problem: where (empty: the object itself) and what.
struct Problem {
    path: Vec<PathStep>,
    message: String,
}

/// The ways `actual` is not a valid completion of `planned` (objects of `block`'s type; either
/// may carry marks), each written as Terraform's `tfdiags.FormatError` writes a path error.
pub fn assert_compatible(block: &Block, planned: &Value, actual: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let mut path = Vec::new();
    object_compatible(block, planned, actual, &mut path, &mut problems);
    problems
        .into_iter()
        .map(|p| {
            if p.path.is_empty() {
                p.message
            } else {
                format!("{}: {}", format_path(&p.path), p.message)
            }
        })
        .collect()
}

/// A path as Terraform's `FormatCtyPath` writes it: `.name`, `["key"]`, `[0]`.
fn format_path(path: &[PathStep]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            PathStep::Attr(name) => {
                out.push('.');
                out.push_str(name);
            }
            PathStep::Index(key) => {
                out.push('[');
                match &key.kind {
                    _ if key.is_null() => out.push_str("null"),
                    _ if !key.is_known() => out.push_str("(not yet known)"),
                    ValueKind::Number(n) => out.push_str(&n.to_string()),
                    ValueKind::String(s) => out.push_str(&ferro_value::json::go_quote(s)),
                    _ => out.push_str("..."),
                }
                out.push(']');
            }
        }
    }
    out
}

fn problem(path: &[PathStep], message: String, out: &mut Vec<Problem>) {
    out.push(Problem {
        path: path.to_vec(),
        message,
    });
}

fn attr(v: &Value, name: &str) -> Value {
    if v.is_unknown() {
        return Value::dynamic_unknown();
    }
    v.get_attr(name)
        .cloned()
        .unwrap_or_else(|| Value::null(ferro_value::Type::Dynamic))
}

fn object_compatible(
    block: &Block,
    planned: &Value,
    actual: &Value,
    path: &mut Vec<PathStep>,
    out: &mut Vec<Problem>,
) {
    let at_root = if path.is_empty() { "root object " } else { "" };
    match (planned.is_null(), actual.is_null()) {
        (true, false) => {
            return problem(path, format!("{at_root}was absent, but now present"), out);
        }
        (false, true) => {
            return problem(path, format!("{at_root}was present, but now absent"), out);
        }
        (true, true) => return,
        (false, false) => {}
    }
    // An object planned wholly unknown (only legacy providers plan one) may become anything.
    if planned.is_unknown() {
        return;
    }
    for (name, schema) in &block.attributes {
        path.push(PathStep::Attr(name.clone()));
        let (p, pmarks) = attr(planned, name).deep_unmark();
        let (a, amarks) = attr(actual, name).deep_unmark();
        let mut found = Vec::new();
        value_compatible(&p, &a, path, &mut found);
        if schema.sensitive || pmarks.is_sensitive() || amarks.is_sensitive() {
            if !found.is_empty() {
                problem(
                    path,
                    "inconsistent values for sensitive attribute".into(),
                    out,
                );
            }
        } else {
            out.extend(found);
        }
        path.pop();
    }
    for (name, nested) in &block.block_types {
        path.push(PathStep::Attr(name.clone()));
        let (p, _) = attr(planned, name).deep_unmark();
        let (a, _) = attr(actual, name).deep_unmark();
        nested_block_compatible(nested, &p, &a, path, out);
        path.pop();
    }
}

fn nested_block_compatible(
    nested: &NestedBlock,
    planned: &Value,
    actual: &Value,
    path: &mut Vec<PathStep>,
    out: &mut Vec<Problem>,
) {
    let block = &nested.block;
    match nested.nesting {
        NestingMode::Single | NestingMode::Group => {
            // An unknown block placeholder may have expanded into no block at all.
            if !planned.is_known() && actual.is_null() {
                return;
            }
            object_compatible(block, planned, actual, path, out);
        }
        NestingMode::List => {
            if !planned.is_known() || !actual.is_known() || planned.is_null() || actual.is_null() {
                return;
            }
            let (pe, ae) = (elements(planned), elements(actual));
            if pe.len() != ae.len() {
                let msg = format!("block count changed from {} to {}", pe.len(), ae.len());
                return problem(path, msg, out);
            }
            for (i, (p, a)) in pe.iter().zip(ae).enumerate() {
                path.push(PathStep::Index(Value::number((i as i64).into())));
                object_compatible(block, p, a, path, out);
                path.pop();
            }
        }
        NestingMode::Map => {
            if !planned.is_known() || planned.is_null() || actual.is_null() {
                return;
            }
            match (&planned.kind, &actual.kind) {
                // A map of blocks whose type has a dynamic attribute is an object.
                (ValueKind::Object(pm), ValueKind::Object(am)) => {
                    for (k, p) in pm.iter() {
                        let Some(a) = am.get(k) else {
                            problem(path, format!("block key {} has vanished", quote(k)), out);
                            continue;
                        };
                        path.push(PathStep::Attr(k.to_string()));
                        object_compatible(block, p, a, path, out);
                        path.pop();
                    }
                    for k in am.keys() {
                        if !pm.contains_key(k) {
                            problem(
                                path,
                                format!("new block key {} has appeared", quote(k)),
                                out,
                            );
                        }
                    }
                }
                (ValueKind::Map(_, pm), ValueKind::Map(_, am)) => {
                    if pm.len() != am.len() {
                        let msg = format!("block count changed from {} to {}", pm.len(), am.len());
                        return problem(path, msg, out);
                    }
                    for (k, p) in pm.iter() {
                        if let Some(a) = am.get(k) {
                            path.push(PathStep::Index(Value::string(&**k)));
                            object_compatible(block, p, a, path, out);
                            path.pop();
                        }
                    }
                }
                _ => {}
            }
        }
        NestingMode::Set => {
            if !planned.is_known() || !actual.is_known() || planned.is_null() || actual.is_null() {
                return;
            }
            let (pe, ae) = (elements(planned), elements(actual));
            sets_compatible(pe, ae, path, out, &mut |p, a, path| {
                let mut found = Vec::new();
                path.push(PathStep::Index(a.clone()));
                object_compatible(block, p, a, path, &mut found);
                path.pop();
                found.is_empty()
            });
            if pe.len() < ae.len() {
                let msg = format!("block set length changed from {} to {}", pe.len(), ae.len());
                problem(path, msg, out);
            }
        }
    }
}

fn elements(v: &Value) -> &[Value] {
    v.as_elements().unwrap_or(&[])
}

fn quote(k: &str) -> String {
    ferro_value::json::go_quote(k)
}

/// An attribute's value (unmarked): Terraform's `assertValueCompatible`.
fn value_compatible(
    planned: &Value,
    actual: &Value,
    path: &mut Vec<PathStep>,
    out: &mut Vec<Problem>,
) {
    // Unknown when planned (of any type, the dynamic one included): anything goes.
    if !planned.is_known() || matches!(planned.kind, ValueKind::Null(ferro_value::Type::Dynamic)) {
        return;
    }
    match (planned.is_null(), actual.is_null()) {
        (true, true) => return,
        (false, true) => {
            let msg = format!("was {}, but now null", value_go_string(planned));
            return problem(path, msg, out);
        }
        (true, false) => {
            let msg = format!("was null, but now {}", value_go_string(actual));
            return problem(path, msg, out);
        }
        (false, false) => {}
    }
    if !actual.is_known() {
        return problem(path, "was known, but now unknown".into(), out);
    }
    match (&planned.kind, &actual.kind) {
        (ValueKind::Object(pm), ValueKind::Object(am)) => {
            for (k, p) in pm.iter() {
                let a = am
                    .get(k)
                    .cloned()
                    .unwrap_or_else(|| Value::null(ferro_value::Type::Dynamic));
                path.push(PathStep::Attr(k.to_string()));
                value_compatible(p, &a, path, out);
                path.pop();
            }
        }
        (ValueKind::Map(_, pm), ValueKind::Map(_, am)) => {
            for (k, p) in pm.iter() {
                let Some(a) = am.get(k) else {
                    problem(path, format!("element {} has vanished", quote(k)), out);
                    continue;
                };
                path.push(PathStep::Index(Value::string(&**k)));
                value_compatible(p, a, path, out);
                path.pop();
            }
            for k in am.keys() {
                if !pm.contains_key(k) {
                    problem(path, format!("new element {} has appeared", quote(k)), out);
                }
            }
        }
        (
            ValueKind::List(_, pe) | ValueKind::Tuple(pe),
            ValueKind::List(_, ae) | ValueKind::Tuple(ae),
        ) => {
            for (i, p) in pe.iter().enumerate() {
                let Some(a) = ae.get(i) else {
                    problem(path, format!("element {i} has vanished"), out);
                    continue;
                };
                path.push(PathStep::Index(Value::number((i as i64).into())));
                value_compatible(p, a, path, out);
                path.pop();
            }
            for i in pe.len()..ae.len() {
                problem(path, format!("new element {i} has appeared"), out);
            }
        }
        (ValueKind::Set(_, pe), ValueKind::Set(_, ae)) => {
            sets_compatible(pe, ae, path, out, &mut |p, a, path| {
                let mut found = Vec::new();
                path.push(PathStep::Index(a.clone()));
                value_compatible(p, a, path, &mut found);
                path.pop();
                found.is_empty()
            });
            if pe.len() < ae.len() {
                let msg = format!("length changed from {} to {}", pe.len(), ae.len());
                problem(path, msg, out);
            }
        }
        _ => {
            if planned != actual {
                let msg = format!(
                    "was {}, but now {}",
                    value_go_string(planned),
                    value_go_string(actual)
                );
                problem(path, msg, out);
            }
        }
    }
}

/// Every planned element must correlate with some actual element and every actual element with
/// some planned one (set elements have no identity but their value, and an unknown element
/// may become any value). Equal sets, the usual case, are compared once.
fn sets_compatible(
    planned: &[Value],
    actual: &[Value],
    path: &mut Vec<PathStep>,
    out: &mut Vec<Problem>,
    correlates: &mut dyn FnMut(&Value, &Value, &mut Vec<PathStep>) -> bool,
) {
    if planned == actual {
        return;
    }
    let mut planned_found = vec![false; planned.len()];
    let mut actual_found = vec![false; actual.len()];
    for (pi, p) in planned.iter().enumerate() {
        for (ai, a) in actual.iter().enumerate() {
            if correlates(p, a, path) {
                planned_found[pi] = true;
                actual_found[ai] = true;
            }
        }
    }
    let before = out.len();
    for (p, found) in planned.iter().zip(&planned_found) {
        if !found {
            let msg = format!(
                "planned set element {} does not correlate with any element in actual",
                value_go_string(p)
            );
            problem(path, msg, out);
        }
    }
    if out.len() > before {
        // Reported from the plan's side; the other side would repeat it.
        return;
    }
    for (a, found) in actual.iter().zip(&actual_found) {
        if !found {
            let msg = format!(
                "actual set element {} does not correlate with any element in plan",
                value_go_string(a)
            );
            problem(path, msg, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_value::schema::Attribute;
    use ferro_value::{Type, ValueMap};

    fn null_resource_block() -> Block {
        let mut block = Block::default();
        block
            .attributes
            .insert("id".into(), Attribute::new(Type::String).computed());
        block.attributes.insert(
            "triggers".into(),
            Attribute::new(Type::Map(Box::new(Type::String))).optional(),
        );
        block
    }

    fn resource(id: Value, body: &str) -> Value {
        let mut triggers = ValueMap::default();
        triggers.insert("body", Value::string(body));
        let mut m = ValueMap::default();
        m.insert("id", id);
        m.insert("triggers", Value::map(Type::String, triggers));
        Value::object(m)
    }

    #[test]
    fn a_changed_map_element_is_named_as_terraform_names_it() {
        let block = null_resource_block();
        let planned = resource(Value::unknown(Type::String), "one\n");
        let actual = resource(Value::unknown(Type::String), "two\n");
        assert_eq!(
            assert_compatible(&block, &planned, &actual),
            vec![".triggers[\"body\"]: was cty.StringVal(\"one\\n\"), but now cty.StringVal(\"two\\n\")"]
        );
        // Unknowns may become anything; the same value is compatible.
        let known = resource(Value::string("123"), "one\n");
        assert!(assert_compatible(&block, &planned, &known).is_empty());
        assert_eq!(
            assert_compatible(&block, &known, &planned),
            vec![".id: was known, but now unknown"]
        );
    }

    #[test]
    fn sensitive_values_are_not_shown() {
        let mut block = null_resource_block();
        block.attributes.get_mut("triggers").unwrap().sensitive = true;
        let planned = resource(Value::unknown(Type::String), "one");
        let actual = resource(Value::unknown(Type::String), "two");
        assert_eq!(
            assert_compatible(&block, &planned, &actual),
            vec![".triggers: inconsistent values for sensitive attribute"]
        );
    }

    #[test]
    fn the_object_itself_appearing_is_the_root_object() {
        let block = null_resource_block();
        let planned = Value::null(Type::Dynamic);
        let actual = resource(Value::string("1"), "x");
        assert_eq!(
            assert_compatible(&block, &planned, &actual),
            vec!["root object was absent, but now present"]
        );
    }
}
