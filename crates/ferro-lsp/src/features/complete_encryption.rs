//! Completion inside `terraform { encryption { … } }` (OpenTofu's state and plan encryption):
//! its blocks, the labels of key providers and methods, and each block's arguments, from the
//! same lists the lowering checks against (`ferro_hir::encryption`), and references to the key
//! providers and methods the block declares.

use super::context::{Context, Frame};
use ferro_hir::encryption::{
    key_provider_arguments, method_arguments, read_encryption, KEY_PROVIDER_TYPES, METHOD_TYPES,
};
use ferro_syntax::ast;
use serde_json::Value;

/// Items for the body the cursor is in, when it is inside an `encryption` block (None: it is
/// not).
pub(super) fn body_items(
    cx: &Context,
    snippet: &dyn Fn(&str, u8, &str, &str, &str) -> Value,
) -> Option<Vec<Value>> {
    let tys: Vec<(&str, &[String])> = cx
        .frames
        .iter()
        .map(|f| match f {
            Frame::Block { ty, labels } => (ty.as_str(), labels.as_slice()),
            Frame::Expr => ("", &[][..]),
        })
        .collect();
    let (first, rest) = tys.split_first()?;
    if first.0 != "terraform" || rest.first()?.0 != "encryption" {
        return None;
    }
    const K_KEYWORD: u8 = 14;
    const K_STRUCT: u8 = 22;
    let block = |name: &str, text: &str| snippet(name, K_STRUCT, "block", text, "2");
    let arg =
        |name: &str, detail: &str| snippet(name, K_KEYWORD, detail, &format!("{name} = $0"), "1");
    let present = |name: &str| cx.present.contains(name);
    let mut out = Vec::new();
    match &rest[1..] {
        [] => {
            out.push(block(
                "key_provider",
                "key_provider \"${1:pbkdf2}\" \"${2:name}\" {\n  $0\n}",
            ));
            out.push(block(
                "method",
                "method \"${1:aes_gcm}\" \"${2:name}\" {\n  keys = $0\n}",
            ));
            for t in ["state", "plan"] {
                if !present(t) {
                    out.push(block(t, &format!("{t} {{\n  method = $0\n}}")));
                }
            }
            out.push(block(
                "remote_state_data_sources",
                "remote_state_data_sources {\n  $0\n}",
            ));
        }
        [("key_provider", labels)] => {
            let ty = labels.first().map(String::as_str).unwrap_or_default();
            for a in key_provider_arguments(ty)
                .iter()
                .chain(&["encrypted_metadata_alias"])
            {
                if !present(a) {
                    out.push(arg(a, &format!("{ty} key provider")));
                }
            }
        }
        [("method", labels)] => {
            let ty = labels.first().map(String::as_str).unwrap_or_default();
            for a in method_arguments(ty) {
                if !present(a) {
                    out.push(arg(a, &format!("{ty} method")));
                }
            }
        }
        [(t, _), ..] if matches!(*t, "state" | "plan" | "remote_state_data_sources") => {
            let inner = rest[1..]
                .iter()
                .skip(1)
                .all(|(t, _)| matches!(*t, "fallback" | "default" | "remote_state_data_source"));
            if !inner {
                return Some(out);
            }
            if *t == "remote_state_data_sources" && rest.len() == 2 {
                out.push(block("default", "default {\n  method = $0\n}"));
                out.push(block(
                    "remote_state_data_source",
                    "remote_state_data_source \"${1:name}\" {\n  method = $0\n}",
                ));
                return Some(out);
            }
            if !present("method") {
                out.push(arg("method", "method.TYPE.NAME"));
            }
            if rest.len() == 2 && *t != "remote_state_data_sources" && !present("enforced") {
                out.push(arg("enforced", "bool"));
            }
            out.push(block("fallback", "fallback {\n  method = $0\n}"));
        }
        _ => {}
    }
    Some(out)
}

/// Items for a label of a `key_provider` or `method` block (its type).
pub(super) fn label_items(
    ty: &str,
    n: usize,
    item: &dyn Fn(&str, u8, &str, &str) -> Value,
) -> Option<Vec<Value>> {
    const K_CLASS: u8 = 7;
    let names: &[&str] = match (ty, n) {
        ("key_provider", 0) => &KEY_PROVIDER_TYPES,
        ("method", 0) => &METHOD_TYPES,
        _ => return None,
    };
    Some(names.iter().map(|t| item(t, K_CLASS, ty, "0")).collect())
}

/// Items for `key_provider.` and `method.` references inside an `encryption` block: the types,
/// then the names, declared in the file's encryption blocks (None: not such a place).
pub(super) fn reference_items(
    body: &ast::Body,
    cx: &Context,
    parts: &[&str],
    item: &dyn Fn(&str, u8, &str, &str) -> Value,
) -> Option<Vec<Value>> {
    let inside = matches!(
        cx.frames.as_slice(),
        [Frame::Block { ty: a, .. }, Frame::Block { ty: b, .. }, ..] if a == "terraform" && b == "encryption"
    );
    if !inside {
        return None;
    }
    const K_VALUE: u8 = 12;
    const K_KEYWORD: u8 = 14;
    let mut declared: Vec<(bool, String, String)> = Vec::new();
    for i in &body.items {
        let ast::BodyItem::Block(tf) = i else {
            continue;
        };
        if tf.ty.name != "terraform" {
            continue;
        }
        for j in &tf.body.items {
            if let ast::BodyItem::Block(e) = j {
                if e.ty.name == "encryption" {
                    let (syntax, _) = read_encryption(&e.body, e.ty.span);
                    declared.extend(
                        syntax
                            .key_providers
                            .iter()
                            .map(|k| (true, k.ty.clone(), k.name.clone())),
                    );
                    declared.extend(
                        syntax
                            .methods
                            .iter()
                            .map(|m| (false, m.ty.clone(), m.name.clone())),
                    );
                }
            }
        }
    }
    let mut out: Vec<Value> = Vec::new();
    let mut push = |label: &str, detail: &str| {
        if !out.iter().any(|v| v["label"] == label) {
            out.push(item(label, K_VALUE, detail, "0"));
        }
    };
    match parts {
        [root, _] if *root == "key_provider" || *root == "method" => {
            let kp = *root == "key_provider";
            for (k, ty, _) in &declared {
                if *k == kp {
                    push(ty, root);
                }
            }
        }
        [root, ty, _] if *root == "key_provider" || *root == "method" => {
            let kp = *root == "key_provider";
            for (k, t, name) in &declared {
                if *k == kp && t == ty {
                    push(name, &format!("{root}.{ty}"));
                }
            }
        }
        [_] => {
            out.push(item("key_provider", K_KEYWORD, "reference", "0"));
            out.push(item("method", K_KEYWORD, "reference", "0"));
            out.push(item("var", K_KEYWORD, "reference", "1"));
            out.push(item("local", K_KEYWORD, "reference", "1"));
        }
        _ => return None,
    }
    Some(out)
}
