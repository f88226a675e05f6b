//! Completion: block types at the top level, resource and data source types of known providers
//! in a header's first label, attribute names and nested blocks inside a block (required
//! first), references (`var.`, `local.`, `module.x.`, resource attributes) and functions (as
//! snippets) in expressions.

use super::context::{context_at, Context, Frame};
use super::import_identity::InIdentity;
use super::Doc;
use crate::functions;
use crate::server::RpcError;
use ferro_addrs::ResourceMode;
use ferro_value::schema::{Block, Schema};
use serde_json::{json, Value};

// CompletionItemKind values.
const K_FUNCTION: u8 = 3;
const K_FIELD: u8 = 5;
const K_VARIABLE: u8 = 6;
const K_CLASS: u8 = 7;
const K_MODULE: u8 = 9;
const K_PROPERTY: u8 = 10;
const K_VALUE: u8 = 12;
const K_KEYWORD: u8 = 14;
const K_STRUCT: u8 = 22;

fn item(label: &str, kind: u8, detail: &str, sort: &str) -> Value {
    json!({"label": label, "kind": kind, "detail": detail, "sortText": format!("{sort}{label}")})
}

fn snippet_item(label: &str, kind: u8, detail: &str, snippet: &str, sort: &str) -> Value {
    json!({
        "label": label, "kind": kind, "detail": detail, "sortText": format!("{sort}{label}"),
        "insertText": snippet, "insertTextFormat": 2,
    })
}

const BLOCKS: &[(&str, &str)] = &[
    (
        "resource",
        "resource \"${1:type}\" \"${2:name}\" {\n  $0\n}",
    ),
    ("data", "data \"${1:type}\" \"${2:name}\" {\n  $0\n}"),
    (
        "ephemeral",
        "ephemeral \"${1:type}\" \"${2:name}\" {\n  $0\n}",
    ),
    (
        "variable",
        "variable \"${1:name}\" {\n  type = ${2:string}\n}",
    ),
    ("output", "output \"${1:name}\" {\n  value = $0\n}"),
    ("locals", "locals {\n  $0\n}"),
    (
        "module",
        "module \"${1:name}\" {\n  source = \"${2:./modules/name}\"\n}",
    ),
    ("provider", "provider \"${1:name}\" {\n  $0\n}"),
    ("terraform", "terraform {\n  $0\n}"),
];

pub fn completion(doc: &Doc<'_>, offset: u32) -> Result<Value, RpcError> {
    let cx = context_at(doc.text, offset as usize);
    let in_identity = super::import_identity::identity_at(doc.text, offset as usize);
    let items = if let Some((ty, n)) = &cx.in_label {
        label_items(doc, ty, *n)
    } else if let Some(InIdentity {
        ty,
        at_key: true,
        present,
    }) = &in_identity
    {
        identity_items(doc, ty.as_deref(), present)
    } else if cx.in_expr {
        expr_items(doc, &cx, offset as usize)
    } else if cx.frames.is_empty() {
        BLOCKS
            .iter()
            .map(|(b, s)| snippet_item(b, K_KEYWORD, "block", s, "0"))
            .collect()
    } else {
        body_items(doc, &cx)
    };
    Ok(json!({"isIncomplete": false, "items": items}))
}

/// Inside an import block's `identity = { … }`, where a name goes: the identity attributes of
/// the target's resource type (those required for import first), when the catalog has its
/// identity schema.
fn identity_items(
    doc: &Doc<'_>,
    ty: Option<&str>,
    present: &std::collections::BTreeSet<String>,
) -> Vec<Value> {
    let Some(schema) = ty.and_then(|t| doc.w.catalog.identity(t)) else {
        return Vec::new();
    };
    super::import_identity::attributes(schema, present)
        .map(|(name, a)| {
            let sort = if a.required_for_import { "0" } else { "1" };
            let (what, _) = super::import_identity::describe(name, a);
            let mut it = snippet_item(
                name,
                K_PROPERTY,
                &format!("{what} {}", a.ty.type_expr()),
                &format!("{name} = $0"),
                sort,
            );
            if !a.description.is_empty() {
                it["documentation"] = json!(a.description);
            }
            it
        })
        .collect()
}

fn label_items(doc: &Doc<'_>, ty: &str, n: usize) -> Vec<Value> {
    if let Some(items) = super::complete_encryption::label_items(ty, n, &item) {
        return items;
    }
    let mode = match (ty, n) {
        ("resource", 0) => ResourceMode::Managed,
        ("data", 0) => ResourceMode::Data,
        ("ephemeral", 0) => ResourceMode::Ephemeral,
        _ => return Vec::new(),
    };
    doc.w
        .catalog
        .types(mode)
        .into_iter()
        .map(|(t, provider)| item(t, K_CLASS, provider, "0"))
        .collect()
}

/// The schema block of the innermost block frames (resource, data or provider, then nested
/// block types).
fn frame_schema<'a>(doc: &'a Doc<'_>, frames: &[Frame]) -> Option<&'a Block> {
    let mut it = frames.iter();
    let Some(Frame::Block { ty, labels }) = it.next() else {
        return None;
    };
    let schema: &Schema = match ty.as_str() {
        "resource" => {
            doc.w
                .catalog
                .resource(ResourceMode::Managed, labels.first()?)?
                .1
        }
        "data" => {
            doc.w
                .catalog
                .resource(ResourceMode::Data, labels.first()?)?
                .1
        }
        "ephemeral" => {
            doc.w
                .catalog
                .resource(ResourceMode::Ephemeral, labels.first()?)?
                .1
        }
        "provider" => {
            let name = labels.first()?;
            &doc.w
                .catalog
                .providers
                .iter()
                .find(|(a, _)| a.rsplit('/').next() == Some(name.as_str()))?
                .1
                .provider
        }
        _ => return None,
    };
    let mut block = &schema.block;
    for f in it {
        match f {
            Frame::Block { ty, .. } => block = &block.block_types.get(ty)?.block,
            Frame::Expr => return None,
        }
    }
    Some(block)
}

fn schema_items(block: &Block, cx: &Context) -> Vec<Value> {
    let mut out = Vec::new();
    for (name, a) in &block.attributes {
        if cx.present.contains(name) || (a.computed && !a.optional && !a.required) {
            continue;
        }
        let (sort, what) = if a.required {
            ("0", "required")
        } else {
            ("1", "optional")
        };
        let wo = if a.write_only { ", write-only" } else { "" };
        let mut it = snippet_item(
            name,
            K_PROPERTY,
            &format!("{what} {}{wo}", a.ty.type_expr()),
            &format!("{name} = $0"),
            sort,
        );
        if !a.description.is_empty() {
            it["documentation"] = json!(a.description);
        }
        out.push(it);
    }
    for (name, b) in &block.block_types {
        let sort = if b.min_items > 0 { "0" } else { "2" };
        out.push(snippet_item(
            name,
            K_STRUCT,
            &format!("block ({:?})", b.nesting).to_lowercase(),
            &format!("{name} {{\n  $0\n}}"),
            sort,
        ));
    }
    out
}

fn body_items(doc: &Doc<'_>, cx: &Context) -> Vec<Value> {
    if let Some(items) = super::complete_encryption::body_items(cx, &snippet_item) {
        return items;
    }
    let Some(Frame::Block { ty, labels }) = cx.frames.first() else {
        return Vec::new();
    };
    let nested = cx.frames.len() > 1;
    let mut out = Vec::new();
    let words: &[(&str, &str)] = match (ty.as_str(), nested) {
        ("resource" | "data" | "ephemeral", false) => &[
            ("count", "meta-argument"),
            ("for_each", "meta-argument"),
            ("depends_on", "meta-argument"),
            ("provider", "meta-argument"),
        ],
        ("variable", false) => &[
            ("type", "type constraint"),
            ("default", "default value"),
            ("description", "string"),
            ("sensitive", "bool"),
            ("ephemeral", "bool (Terraform 1.10)"),
            ("nullable", "bool"),
            ("deprecated", "string (OpenTofu)"),
        ],
        ("output", false) => &[
            ("value", "required"),
            ("description", "string"),
            ("sensitive", "bool"),
            ("ephemeral", "bool (Terraform 1.10)"),
            ("depends_on", "list of references"),
            ("deprecated", "string (OpenTofu)"),
        ],
        ("module", false) => &[
            ("source", "required"),
            ("version", "string"),
            ("count", "meta-argument"),
            ("for_each", "meta-argument"),
            ("providers", "map of providers"),
            ("depends_on", "meta-argument"),
        ],
        ("terraform", false) => &[("required_version", "version constraint")],
        ("removed", false) => &[("from", "required")],
        ("import", false) => &[
            ("to", "required"),
            ("id", "string (or identity)"),
            ("for_each", "meta-argument"),
            ("provider", "meta-argument"),
        ],
        // `for_each` with an alias: one configuration instance per key (OpenTofu 1.9).
        ("provider", false) => &[
            ("alias", "meta-argument"),
            ("for_each", "meta-argument (with alias)"),
        ],
        _ => &[],
    };
    if let Some(block) = frame_schema(doc, &cx.frames) {
        out.extend(schema_items(block, cx));
    }
    for (w, detail) in words {
        if !cx.present.contains(*w) {
            let sort = if *detail == "required" { "0" } else { "3" };
            out.push(snippet_item(
                w,
                K_KEYWORD,
                detail,
                &format!("{w} = $0"),
                sort,
            ));
        }
    }
    match (ty.as_str(), nested) {
        ("resource" | "data" | "ephemeral", false) => out.push(snippet_item(
            "lifecycle",
            K_STRUCT,
            "block",
            "lifecycle {\n  $0\n}",
            "3",
        )),
        ("variable", false) => out.push(snippet_item(
            "validation",
            K_STRUCT,
            "block",
            "validation {\n  condition     = $1\n  error_message = \"$2\"\n}",
            "3",
        )),
        ("terraform", false) => {
            out.push(snippet_item(
                "required_providers",
                K_STRUCT,
                "block",
                "required_providers {\n  $0\n}",
                "3",
            ));
            // OpenTofu's state and plan encryption.
            out.push(snippet_item(
                "encryption",
                K_STRUCT,
                "block",
                "encryption {\n  $0\n}",
                "3",
            ));
        }
        // `lifecycle { destroy }` and (OpenTofu 1.10) destroy-time provisioners.
        ("removed", false) => {
            out.push(snippet_item(
                "lifecycle",
                K_STRUCT,
                "block",
                "lifecycle {\n  destroy = $0\n}",
                "3",
            ));
            out.push(snippet_item(
                "provisioner",
                K_STRUCT,
                "block (OpenTofu)",
                "provisioner \"local-exec\" {\n  when    = destroy\n  command = $0\n}",
                "3",
            ));
        }
        // Terraform 1.12: the object by its resource identity, instead of `id`.
        ("import", false) if !cx.present.contains("identity") => {
            let mut it = snippet_item(
                "identity",
                K_PROPERTY,
                "object (or id; Terraform 1.12)",
                "identity = {\n  $0\n}",
                "3",
            );
            it["documentation"] = json!(super::import_identity::ARGUMENT_DOC);
            out.push(it);
        }
        ("module", false) => {
            // `lifecycle { enabled }` (OpenTofu 1.11).
            out.push(snippet_item(
                "lifecycle",
                K_STRUCT,
                "block",
                "lifecycle {\n  $0\n}",
                "3",
            ));
            // The called module's variables: required (no default) first.
            if let (Some(name), Some(module)) = (labels.first(), doc.module()) {
                let db = &doc.w.db;
                if let Some(child) = ferro_db::called_module(db, doc.w.ws, module, name) {
                    for (v, at) in &ferro_db::module_index(db, child).variables {
                        if cx.present.contains(v) {
                            continue;
                        }
                        let var = &ferro_db::file_hir(db, at.file).variables[at.index];
                        let sort = if var.default.is_none() { "0" } else { "1" };
                        let ty = var
                            .ty
                            .as_ref()
                            .map(|t| t.type_expr())
                            .unwrap_or("any".into());
                        let mut it = snippet_item(
                            v,
                            K_PROPERTY,
                            &format!("input {ty}"),
                            &format!("{v} = $0"),
                            sort,
                        );
                        if let Some(d) = &var.description {
                            it["documentation"] = json!(d);
                        }
                        out.push(it);
                    }
                }
            }
        }
        _ => {}
    }
    if cx.frames.len() == 2 {
        if let Some(Frame::Block { ty: inner, .. }) = cx.frames.get(1) {
            // `enabled` (OpenTofu 1.11) everywhere; `destroy` (OpenTofu 1.12) in resources
            // and `removed` blocks.
            let words: &[&str] = match (ty.as_str(), inner.as_str()) {
                ("resource", "lifecycle") => &[
                    "create_before_destroy",
                    "prevent_destroy",
                    "ignore_changes",
                    "enabled",
                    "destroy",
                ],
                ("data" | "module", "lifecycle") => &["enabled"],
                ("removed", "lifecycle") => &["destroy"],
                _ => &[],
            };
            if !words.is_empty() {
                for &w in words {
                    out.push(snippet_item(
                        w,
                        K_KEYWORD,
                        "lifecycle",
                        &format!("{w} = $0"),
                        "0",
                    ));
                }
            }
        }
    }
    out
}

fn expr_items(doc: &Doc<'_>, cx: &Context, offset: usize) -> Vec<Value> {
    let db = &doc.w.db;
    let parts: Vec<&str> = cx.prefix.split('.').collect();
    let parsed = ferro_db::parse(db, doc.file);
    if let Some(items) =
        super::complete_encryption::reference_items(&parsed.body, cx, &parts, &item)
    {
        return items;
    }
    let module = doc.module();
    let index = module.map(|m| ferro_db::module_index(db, m));
    let mut out = Vec::new();
    let Some(index) = index else {
        return out;
    };
    // `provider::LOCAL::` completes the functions of that provider; `provider::` the local
    // names of the module's required providers.
    let mut end = offset.min(doc.text.len());
    while !doc.text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &doc.text[..end];
    let word: String = {
        let start = before
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '-' | ':'))
            .last()
            .map_or(before.len(), |(i, _)| i);
        before[start..].to_string()
    };
    if let Some(rest) = word.strip_prefix("provider::") {
        match rest.split_once("::") {
            Some((local, _)) => {
                for (name, decl) in doc.provider_functions(local).into_iter().flatten() {
                    let label = decl.signature_label(&format!("provider::{local}::{name}"));
                    let mut it = item(name, K_FUNCTION, &label, "0");
                    it["documentation"] = json!(if decl.description.is_empty() {
                        &decl.summary
                    } else {
                        &decl.description
                    });
                    out.push(it);
                }
            }
            None => {
                for local in index.required_providers.keys() {
                    if doc.provider_functions(local).is_some_and(|f| !f.is_empty()) {
                        out.push(item(local, K_MODULE, "provider functions", "0"));
                    }
                }
            }
        }
        return out;
    }
    match parts.as_slice() {
        [_] => {
            for f in ferro_eval::function_names() {
                let (label, _) = functions::signature_label(f);
                let mut it = snippet_item(f, K_FUNCTION, &label, &functions::snippet(f), "2");
                it["documentation"] = json!(functions::description(f));
                out.push(it);
            }
            for w in [
                "var",
                "local",
                "module",
                "data",
                "ephemeral",
                "path",
                "count",
                "each",
                "terraform",
                "self",
            ] {
                out.push(item(w, K_KEYWORD, "reference", "0"));
            }
            for w in ["true", "false", "null"] {
                out.push(item(w, K_VALUE, "literal", "3"));
            }
            let mut types: Vec<&str> = index
                .resources
                .keys()
                .filter(|r| r.mode == ResourceMode::Managed)
                .map(|r| &*r.ty)
                .collect();
            types.dedup();
            for t in types {
                out.push(item(t, K_CLASS, "resource type", "1"));
            }
        }
        ["var", _] => {
            for (n, at) in &index.variables {
                let v = &ferro_db::file_hir(db, at.file).variables[at.index];
                let ty = v.ty.as_ref().map(|t| t.type_expr()).unwrap_or("any".into());
                out.push(item(n, K_VARIABLE, &format!("variable: {ty}"), "0"));
            }
        }
        ["local", _] => {
            for n in index.locals.keys() {
                out.push(item(n, K_VARIABLE, "local value", "0"));
            }
        }
        ["module", _] => {
            for n in index.module_calls.keys() {
                out.push(item(n, K_MODULE, "module call", "0"));
            }
        }
        ["module", call, _] => {
            if let Some(child) = module.and_then(|m| ferro_db::called_module(db, doc.w.ws, m, call))
            {
                for n in ferro_db::module_index(db, child).outputs.keys() {
                    out.push(item(n, K_FIELD, "module output", "0"));
                }
            }
        }
        ["path", _] => {
            for n in ["module", "root", "cwd"] {
                out.push(item(n, K_FIELD, "path", "0"));
            }
        }
        ["each", _] => {
            for n in ["key", "value"] {
                out.push(item(n, K_FIELD, "for_each", "0"));
            }
        }
        ["count", _] => out.push(item("index", K_FIELD, "count", "0")),
        ["terraform", _] => {
            out.push(item("workspace", K_FIELD, "workspace name", "0"));
            out.push(item(
                "applying",
                K_FIELD,
                "bool, ephemeral: true only during apply",
                "0",
            ));
        }
        ["data", _] => {
            let mut types: Vec<&str> = index
                .resources
                .keys()
                .filter(|r| r.mode == ResourceMode::Data)
                .map(|r| &*r.ty)
                .collect();
            types.dedup();
            for t in types {
                out.push(item(t, K_CLASS, "data source type", "0"));
            }
        }
        ["ephemeral", _] => {
            let mut types: Vec<&str> = index
                .resources
                .keys()
                .filter(|r| r.mode == ResourceMode::Ephemeral)
                .map(|r| &*r.ty)
                .collect();
            types.dedup();
            for t in types {
                out.push(item(t, K_CLASS, "ephemeral resource type", "0"));
            }
        }
        ["ephemeral", ty, _] => out.extend(names(index, ResourceMode::Ephemeral, ty)),
        ["ephemeral", ty, _, _] => out.extend(attributes(doc, ResourceMode::Ephemeral, ty)),
        ["data", ty, _] => out.extend(names(index, ResourceMode::Data, ty)),
        ["data", ty, _, _] => out.extend(attributes(doc, ResourceMode::Data, ty)),
        [ty, _] => out.extend(names(index, ResourceMode::Managed, ty)),
        [ty, _, _] => out.extend(attributes(doc, ResourceMode::Managed, ty)),
        _ => {}
    }
    out
}

fn names(index: &ferro_db::ModuleIndex, mode: ResourceMode, ty: &str) -> Vec<Value> {
    index
        .resources
        .keys()
        .filter(|r| r.mode == mode && *r.ty == *ty)
        .map(|r| item(&r.name, K_VARIABLE, &r.to_string(), "0"))
        .collect()
}

fn attributes(doc: &Doc<'_>, mode: ResourceMode, ty: &str) -> Vec<Value> {
    let Some((_, schema)) = doc.w.catalog.resource(mode, ty) else {
        return Vec::new();
    };
    let mut out: Vec<Value> = schema
        .block
        .attributes
        .iter()
        .map(|(n, a)| item(n, K_FIELD, &a.ty.type_expr(), "0"))
        .collect();
    out.extend(
        schema
            .block
            .block_types
            .keys()
            .map(|n| item(n, K_FIELD, "block", "1")),
    );
    out
}
