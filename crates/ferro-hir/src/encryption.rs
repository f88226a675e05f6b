//! The `terraform { encryption { … } }` block of OpenTofu 1.7+ as written: key providers,
//! methods, and the targets (`state`, `plan`, `remote_state_data_sources`) with their
//! fallbacks, read from the syntax with the checks that need nothing but the block itself
//! (block and argument names, labels, references of the right shape, literal values within
//! OpenTofu's limits, references that are not static). Lowering reports these diagnostics for
//! every front end; the CLI reads the same structure from the configuration and from
//! `TF_ENCRYPTION`, merges the two as OpenTofu does ([`EncryptionSyntax::merge`]), and
//! evaluates it.
//!
//! Values stay expressions here: a passphrase usually comes from a variable, which only the
//! CLI knows.

use ferro_diag::{Diagnostic, Span};
use ferro_syntax::ast::{self, BodyItem, ExprKind};

/// The key provider types ferro implements.
pub const KEY_PROVIDER_TYPES: [&str; 2] = ["pbkdf2", "external"];
/// OpenTofu's key provider types ferro does not implement (a clear error, not "unknown").
pub const UNSUPPORTED_KEY_PROVIDER_TYPES: [&str; 5] =
    ["aws_kms", "gcp_kms", "azure_vault", "openbao", "static"];
/// Why a key provider of one of [`UNSUPPORTED_KEY_PROVIDER_TYPES`] cannot be used.
pub fn unsupported_key_provider_detail(ty: &str) -> String {
    format!("The {ty:?} key provider of OpenTofu is not supported by ferro; ferro supports \"pbkdf2\" and \"external\".")
}

/// The method types ferro implements.
pub const METHOD_TYPES: [&str; 2] = ["aes_gcm", "unencrypted"];

/// The arguments of each key provider type (besides `encrypted_metadata_alias`).
pub fn key_provider_arguments(ty: &str) -> &'static [&'static str] {
    match ty {
        "pbkdf2" => &[
            "passphrase",
            "chain",
            "key_length",
            "iterations",
            "salt_length",
            "hash_function",
        ],
        "external" => &["command"],
        _ => &[],
    }
}

/// The arguments of each method type.
pub fn method_arguments(ty: &str) -> &'static [&'static str] {
    match ty {
        "aes_gcm" => &["keys", "aad"],
        _ => &[],
    }
}

#[derive(Debug, Clone)]
pub struct EncryptionSyntax {
    /// The `encryption` block's header (or the start of `TF_ENCRYPTION`).
    pub span: Span,
    pub key_providers: Vec<Labelled>,
    pub methods: Vec<Labelled>,
    pub state: Option<Target>,
    pub plan: Option<Target>,
    pub remote_default: Option<Target>,
    /// `remote_state_data_source "ADDRESS" { … }`.
    pub remotes: Vec<(String, Target)>,
}

/// A `key_provider` or `method` block: its two labels and its arguments.
#[derive(Debug, Clone)]
pub struct Labelled {
    pub ty: String,
    pub name: String,
    /// The block's header.
    pub span: Span,
    pub attrs: Vec<ast::Attribute>,
}

impl Labelled {
    pub fn attr(&self, name: &str) -> Option<&ast::Attribute> {
        self.attrs.iter().find(|a| a.name.name == name)
    }
}

/// A target (`state`, `plan`, a remote state reader) or a `fallback` block.
#[derive(Debug, Clone)]
pub struct Target {
    pub span: Span,
    pub method: Option<ast::Expr>,
    pub enforced: Option<ast::Expr>,
    pub fallback: Option<Box<Target>>,
}

/// A reference of the form `ROOT.TYPE.NAME` (`key_provider.pbkdf2.k`, `method.aes_gcm.m`),
/// written as a traversal or, as JSON allows, as a string.
pub fn three_part_reference(e: &ast::Expr) -> Option<(String, String, String)> {
    fn steps(e: &ast::Expr, out: &mut Vec<String>) -> bool {
        match &e.kind {
            ExprKind::Variable(id) => {
                out.push(id.name.to_string());
                true
            }
            ExprKind::GetAttr { target, name, .. } => {
                let ok = steps(target, out);
                out.push(name.name.to_string());
                ok
            }
            _ => false,
        }
    }
    let mut parts = Vec::new();
    if !steps(e, &mut parts) {
        let ExprKind::Template(t) = &e.kind else {
            return None;
        };
        parts = t.literal_text()?.split('.').map(str::to_string).collect();
    }
    match <[String; 3]>::try_from(parts) {
        Ok([a, b, c]) => Some((a, b, c)),
        Err(_) => None,
    }
}

/// The references of an expression a static evaluation may not see (anything but `var`,
/// `local`, `key_provider`, `path` and `terraform`), with their spans.
pub fn dynamic_references(e: &ast::Expr) -> Vec<(String, Span)> {
    let mut out = Vec::new();
    walk(e, &mut Vec::new(), &mut out);
    out
}

fn reference_text(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Variable(id) => Some(id.name.to_string()),
        ExprKind::GetAttr { target, name, .. } => {
            Some(format!("{}.{}", reference_text(target)?, name.name))
        }
        ExprKind::Index { target, .. } => reference_text(target),
        _ => None,
    }
}

/// `bound`: the names a `for` expression around `e` binds (not references).
fn walk(e: &ast::Expr, bound: &mut Vec<String>, out: &mut Vec<(String, Span)>) {
    let root = |e: &ast::Expr| -> Option<String> {
        let mut cur = e;
        loop {
            match &cur.kind {
                ExprKind::Variable(id) => return Some(id.name.to_string()),
                ExprKind::GetAttr { target, .. } | ExprKind::Index { target, .. } => cur = target,
                _ => return None,
            }
        }
    };
    match &e.kind {
        ExprKind::Variable(_) | ExprKind::GetAttr { .. } | ExprKind::Index { .. }
            if root(e).is_some() =>
        {
            let r = root(e).unwrap_or_default();
            if !matches!(
                r.as_str(),
                "var" | "local" | "key_provider" | "path" | "terraform"
            ) && !bound.contains(&r)
            {
                // `a.b.c`: name the resource-like prefix, as OpenTofu does (`aws_s3_bucket.b`).
                let text = reference_text(e).unwrap_or(r);
                let short: Vec<&str> = text.splitn(3, '.').take(2).collect();
                out.push((short.join("."), e.span));
            }
            if let ExprKind::Index { key, .. } = &e.kind {
                walk(key, bound, out);
            }
        }
        ExprKind::ForTuple(f) => {
            walk(&f.collection, bound, out);
            let n = bound.len();
            bound.extend(
                f.key_var
                    .iter()
                    .chain([&f.value_var])
                    .map(|v| v.name.to_string()),
            );
            walk(&f.value, bound, out);
            if let Some(c) = &f.cond {
                walk(c, bound, out);
            }
            bound.truncate(n);
        }
        ExprKind::ForObject(f) => {
            walk(&f.collection, bound, out);
            let n = bound.len();
            bound.extend(
                f.key_var
                    .iter()
                    .chain([&f.value_var])
                    .map(|v| v.name.to_string()),
            );
            walk(&f.key, bound, out);
            walk(&f.value, bound, out);
            if let Some(c) = &f.cond {
                walk(c, bound, out);
            }
            bound.truncate(n);
        }
        _ => ast_children(e, &mut |c| walk(c, bound, out)),
    }
}

/// The direct sub-expressions of `e`.
fn ast_children(e: &ast::Expr, f: &mut dyn FnMut(&ast::Expr)) {
    match &e.kind {
        ExprKind::GetAttr { target, .. } => f(target),
        ExprKind::Index { target, key, .. } => {
            f(target);
            f(key);
        }
        ExprKind::Splat { target, steps, .. } => {
            f(target);
            for s in steps {
                if let ast::TraversalStep::Index { key, .. } = s {
                    f(key);
                }
            }
        }
        ExprKind::FunctionCall(call) => call.args.iter().for_each(f),
        ExprKind::Tuple(items) => items.iter().for_each(f),
        ExprKind::Object(items) => {
            for i in items {
                if let ast::ObjectKey::Expr(k) = &i.key {
                    f(k);
                }
                f(&i.value);
            }
        }
        ExprKind::Unary { operand, .. } => f(operand),
        ExprKind::Binary { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        ExprKind::Conditional {
            cond,
            then,
            otherwise,
        } => {
            f(cond);
            f(then);
            f(otherwise);
        }
        ExprKind::ForTuple(ft) => {
            f(&ft.collection);
            f(&ft.value);
            if let Some(c) = &ft.cond {
                f(c);
            }
        }
        ExprKind::ForObject(fo) => {
            f(&fo.collection);
            f(&fo.key);
            f(&fo.value);
            if let Some(c) = &fo.cond {
                f(c);
            }
        }
        ExprKind::Parens(inner) => f(inner),
        ExprKind::Template(t) => {
            for p in &t.parts {
                template_part(p, f);
            }
        }
        _ => {}
    }
}

fn template_part(p: &ast::TemplatePart, f: &mut dyn FnMut(&ast::Expr)) {
    match p {
        ast::TemplatePart::Interpolation { expr, .. } => f(expr),
        ast::TemplatePart::If {
            cond,
            then,
            otherwise,
            ..
        } => {
            f(cond);
            then.iter().for_each(|p| template_part(p, f));
            otherwise.iter().flatten().for_each(|p| template_part(p, f));
        }
        ast::TemplatePart::For(tf) => {
            f(&tf.collection);
            tf.body.iter().for_each(|p| template_part(p, f));
        }
        _ => {}
    }
}

fn error(code: &str, summary: &str, detail: impl Into<String>, span: Span) -> Diagnostic {
    Diagnostic::error(code, summary)
        .with_detail(detail)
        .with_span(span)
}

/// Read an `encryption` block's body (`span`: its header).
pub fn read_encryption(body: &ast::Body, span: Span) -> (EncryptionSyntax, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let mut enc = EncryptionSyntax {
        span,
        key_providers: Vec::new(),
        methods: Vec::new(),
        state: None,
        plan: None,
        remote_default: None,
        remotes: Vec::new(),
    };
    for item in &body.items {
        let b = match item {
            BodyItem::Attribute(a) => {
                diags.push(unsupported_argument(a, "the encryption block"));
                continue;
            }
            BodyItem::Block(b) => b,
        };
        match b.ty.name.as_str() {
            "key_provider" | "method" => {
                let is_kp = b.ty.name == "key_provider";
                let Some(l) = labelled(b, &mut diags) else {
                    continue;
                };
                let list = if is_kp {
                    &mut enc.key_providers
                } else {
                    &mut enc.methods
                };
                if list.iter().any(|o| o.ty == l.ty && o.name == l.name) {
                    let what = if is_kp { "key_provider" } else { "method" };
                    diags.push(error(
                        "encryption-duplicate",
                        &format!("Duplicate {what}"),
                        format!("Found multiple instances of {what}.{}.{}", l.ty, l.name),
                        l.span,
                    ));
                    continue;
                }
                if is_kp {
                    check_key_provider(&l, &mut diags);
                } else {
                    check_method(&l, &mut diags);
                }
                list.push(l);
            }
            "state" | "plan" => {
                let t = target(b, true, &mut diags);
                if b.ty.name == "state" {
                    enc.state = Some(t);
                } else {
                    enc.plan = Some(t);
                }
            }
            "remote_state_data_sources" => {
                for inner in &b.body.items {
                    match inner {
                        BodyItem::Block(r) if r.ty.name == "default" => {
                            enc.remote_default = Some(target(r, false, &mut diags));
                        }
                        BodyItem::Block(r) if r.ty.name == "remote_state_data_source" => {
                            let [label] = r.labels.as_slice() else {
                                diags.push(error(
                                    "block-labels",
                                    "Missing name for remote_state_data_source",
                                    "A remote_state_data_source block takes one label: the address of the terraform_remote_state data source (NAME, module.M.NAME, …).",
                                    r.ty.span,
                                ));
                                continue;
                            };
                            let t = target(r, false, &mut diags);
                            enc.remotes.push((label.value.to_string(), t));
                        }
                        BodyItem::Block(r) => diags.push(unsupported_block(r)),
                        BodyItem::Attribute(a) => {
                            diags.push(unsupported_argument(a, "remote_state_data_sources"))
                        }
                    }
                }
            }
            _ => diags.push(unsupported_block(b)),
        }
    }
    (enc, diags)
}

fn unsupported_block(b: &ast::Block) -> Diagnostic {
    error(
        "unsupported-block-type",
        "Unsupported block type",
        format!("Blocks of type {:?} are not expected here.", b.ty.name),
        b.ty.span,
    )
}

fn unsupported_argument(a: &ast::Attribute, what: &str) -> Diagnostic {
    error(
        "unsupported-argument",
        "Unsupported argument",
        format!(
            "An argument named {:?} is not expected in {what}.",
            a.name.name
        ),
        a.name.span,
    )
}

fn header(b: &ast::Block) -> Span {
    let end = b.labels.last().map_or(b.ty.span, |l| l.span);
    b.ty.span.to(end)
}

fn labelled(b: &ast::Block, diags: &mut Vec<Diagnostic>) -> Option<Labelled> {
    let [ty, name] = b.labels.as_slice() else {
        diags.push(error(
            "block-labels",
            &format!("Invalid {} block", b.ty.name),
            format!(
                "A {} block takes two labels: its type and its name.",
                b.ty.name
            ),
            header(b),
        ));
        return None;
    };
    let valid = |s: &str| {
        let mut c = s.chars();
        c.next()
            .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
            && c.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    for l in [ty, name] {
        if !valid(&l.value) {
            diags.push(error(
                "invalid-name",
                "Invalid name",
                format!(
                    "The name {:?} does not match the required form of ^[a-zA-Z_][a-zA-Z0-9_-]*$.",
                    l.value.as_str()
                ),
                l.span,
            ));
            return None;
        }
    }
    let mut attrs = Vec::new();
    for item in &b.body.items {
        match item {
            BodyItem::Attribute(a) => attrs.push(a.clone()),
            BodyItem::Block(inner) => diags.push(unsupported_block(inner)),
        }
    }
    Some(Labelled {
        ty: ty.value.to_string(),
        name: name.value.to_string(),
        span: header(b),
        attrs,
    })
}

/// A literal number, if the expression is one.
fn literal_number(e: &ast::Expr) -> Option<f64> {
    match &e.kind {
        ExprKind::Number(n) => n.parse().ok(),
        ExprKind::Parens(inner) => literal_number(inner),
        _ => None,
    }
}

fn literal_text(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Template(t) => t.literal_text(),
        ExprKind::Parens(inner) => literal_text(inner),
        _ => None,
    }
}

/// Check a value of a pbkdf2 argument against OpenTofu's limits; the message is OpenTofu's.
pub fn pbkdf2_value_problem(arg: &str, text: Option<&str>, number: Option<f64>) -> Option<String> {
    match (arg, text, number) {
        ("passphrase", Some(p), _) if p.len() < 16 => {
            Some("passphrase is too short (minimum 16 characters)".into())
        }
        ("iterations", _, Some(n)) if n <= 0.0 => {
            Some("the number of iterations must be larger than zero".into())
        }
        ("iterations", _, Some(n)) if n < 200_000.0 => Some(
            "the number of iterations is dangerously low (<200000), refusing to generate key"
                .into(),
        ),
        ("key_length", _, Some(n)) if n <= 0.0 => {
            Some("the key length must be larger than zero".into())
        }
        ("salt_length", _, Some(n)) if n <= 0.0 => {
            Some("the salt length must be larger than zero".into())
        }
        ("hash_function", Some(h), _) if h != "sha256" && h != "sha512" => {
            Some(format!("invalid hash function name: {h}"))
        }
        _ => None,
    }
}

fn check_key_provider(l: &Labelled, diags: &mut Vec<Diagnostic>) {
    if UNSUPPORTED_KEY_PROVIDER_TYPES.contains(&l.ty.as_str()) {
        // OpenTofu sets a key provider up only when a target's method uses it; the CLI
        // refuses one ferro does not implement then ([`unsupported_key_provider_detail`]).
        return;
    }
    if !KEY_PROVIDER_TYPES.contains(&l.ty.as_str()) {
        diags.push(error(
            "encryption-key-provider-type",
            "Unknown key_provider type",
            format!("Can not find {:?}", l.ty),
            l.span,
        ));
        return;
    }
    let allowed = key_provider_arguments(&l.ty);
    for a in &l.attrs {
        let name = a.name.name.as_str();
        if name != "encrypted_metadata_alias" && !allowed.contains(&name) {
            diags.push(unsupported_argument(
                a,
                &format!("a {:?} key provider", l.ty),
            ));
            continue;
        }
        if matches!(name, "chain") {
            check_key_provider_reference(&a.expr, diags);
            continue;
        }
        static_refs(
            &a.expr,
            &format!("encryption.key_provider.{}.{}", l.ty, l.name),
            diags,
        );
        if l.ty == "pbkdf2" {
            let text = literal_text(&a.expr);
            if let Some(p) = pbkdf2_value_problem(name, text.as_deref(), literal_number(&a.expr)) {
                diags.push(error(
                    "encryption-invalid-key-provider",
                    "Unable to build encryption key data",
                    format!("key_provider.{}.{} failed with error: {p}", l.ty, l.name),
                    a.expr.span,
                ));
            }
        }
    }
    if l.ty == "pbkdf2" && l.attr("passphrase").is_some() && l.attr("chain").is_some() {
        diags.push(error(
            "encryption-invalid-key-provider",
            "Unable to build encryption key data",
            format!(
                "key_provider.{}.{} failed with error: passphrase and chain are mutually exclusive",
                l.ty, l.name
            ),
            l.span,
        ));
    }
    if l.ty == "pbkdf2" && l.attr("passphrase").is_none() && l.attr("chain").is_none() {
        diags.push(error(
            "encryption-invalid-key-provider",
            "Unable to build encryption key data",
            format!("key_provider.{}.{} failed with error: no passphrase provided and no chained provider defined", l.ty, l.name),
            l.span,
        ));
    }
    if l.ty == "external" && l.attr("command").is_none() {
        diags.push(error(
            "encryption-invalid-key-provider",
            "Missing required argument",
            "The argument \"command\" is required, but no definition was found.",
            l.span,
        ));
    }
}

fn check_key_provider_reference(e: &ast::Expr, diags: &mut Vec<Diagnostic>) {
    match three_part_reference(e) {
        Some((root, _, _)) if root == "key_provider" => {}
        _ => diags.push(error(
            "encryption-reference",
            "Invalid Key Provider expression format",
            "The key_provider symbol must be followed by two more attribute names specifying the type and name of the selected key provider.",
            e.span,
        )),
    }
}

fn static_refs(e: &ast::Expr, subject: &str, diags: &mut Vec<Diagnostic>) {
    for (name, span) in dynamic_references(e) {
        diags.push(error(
            "encryption-not-static",
            "Dynamic value in static context",
            format!("Unable to use {name} in static context, which is required by {subject}"),
            span,
        ));
    }
}

fn check_method(l: &Labelled, diags: &mut Vec<Diagnostic>) {
    if !METHOD_TYPES.contains(&l.ty.as_str()) {
        diags.push(error(
            "encryption-method-type",
            "Unknown encryption method type",
            format!("Can not find {:?}", l.ty),
            l.span,
        ));
        return;
    }
    let allowed = method_arguments(&l.ty);
    for a in &l.attrs {
        let name = a.name.name.as_str();
        if !allowed.contains(&name) {
            diags.push(unsupported_argument(a, &format!("a {:?} method", l.ty)));
            continue;
        }
        if name == "keys" {
            check_key_provider_reference(&a.expr, diags);
        } else {
            static_refs(
                &a.expr,
                &format!("encryption.method.{}.{}", l.ty, l.name),
                diags,
            );
        }
    }
    if l.ty == "aes_gcm" && l.attr("keys").is_none() {
        diags.push(error(
            "encryption-invalid-method",
            "Missing required argument",
            "The argument \"keys\" is required, but no definition was found.",
            l.span,
        ));
    }
}

fn target(b: &ast::Block, enforceable: bool, diags: &mut Vec<Diagnostic>) -> Target {
    let mut t = Target {
        span: b.ty.span,
        method: None,
        enforced: None,
        fallback: None,
    };
    if let Some(l) = b
        .labels
        .first()
        .filter(|_| b.ty.name != "remote_state_data_source")
    {
        diags.push(error(
            "block-labels",
            "Extraneous label",
            format!("A {} block takes no labels.", b.ty.name),
            l.span,
        ));
    }
    for item in &b.body.items {
        match item {
            BodyItem::Attribute(a) if a.name.name == "method" => {
                if !matches!(three_part_reference(&a.expr), Some((r, _, _)) if r == "method") {
                    diags.push(error(
                        "encryption-reference",
                        "Invalid encryption method identifier",
                        "Expected method of form method.<type>.<name>",
                        a.expr.span,
                    ));
                }
                t.method = Some(a.expr.clone());
            }
            BodyItem::Attribute(a) if a.name.name == "enforced" && enforceable => {
                static_refs(&a.expr, &format!("encryption.{}", b.ty.name), diags);
                t.enforced = Some(a.expr.clone());
            }
            BodyItem::Attribute(a) => {
                diags.push(unsupported_argument(a, &format!("a {} block", b.ty.name)))
            }
            BodyItem::Block(f) if f.ty.name == "fallback" => {
                t.fallback = Some(Box::new(target(f, false, diags)));
            }
            BodyItem::Block(f) => diags.push(unsupported_block(f)),
        }
    }
    t
}

impl EncryptionSyntax {
    /// Merge `over` (from `TF_ENCRYPTION`) into `self` (from the configuration) as OpenTofu
    /// does: key providers and methods of the same type and name merge argument by argument
    /// (`over`'s win), others are added; a target takes `over`'s method and fallback where it
    /// gives them, and is enforced when either says so.
    pub fn merge(mut self, over: EncryptionSyntax) -> EncryptionSyntax {
        fn merge_labelled(base: &mut Vec<Labelled>, over: Vec<Labelled>) {
            for o in over {
                match base.iter_mut().find(|b| b.ty == o.ty && b.name == o.name) {
                    Some(b) => {
                        for a in o.attrs {
                            b.attrs.retain(|x| x.name.name != a.name.name);
                            b.attrs.push(a);
                        }
                    }
                    None => base.push(o),
                }
            }
        }
        fn merge_target(base: Option<Target>, over: Option<Target>) -> Option<Target> {
            match (base, over) {
                (Some(b), Some(o)) => Some(Target {
                    span: b.span,
                    method: o.method.or(b.method),
                    // Enforced when either is: kept as whichever says so (evaluated later).
                    enforced: match (b.enforced, o.enforced) {
                        (Some(x), Some(y)) => Some(if enforced_literal(&y) { y } else { x }),
                        (x, y) => y.or(x),
                    },
                    fallback: o.fallback.or(b.fallback),
                }),
                (b, o) => o.or(b),
            }
        }
        merge_labelled(&mut self.key_providers, over.key_providers);
        merge_labelled(&mut self.methods, over.methods);
        self.state = merge_target(self.state, over.state);
        self.plan = merge_target(self.plan, over.plan);
        self.remote_default = merge_target(self.remote_default, over.remote_default);
        for (name, t) in over.remotes {
            match self.remotes.iter_mut().find(|(n, _)| *n == name) {
                Some((_, b)) => *b = merge_target(Some(b.clone()), Some(t)).unwrap_or(b.clone()),
                None => self.remotes.push((name, t)),
            }
        }
        self
    }
}

fn enforced_literal(e: &ast::Expr) -> bool {
    matches!(e.kind, ExprKind::Bool(true))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (EncryptionSyntax, Vec<Diagnostic>) {
        let parsed = ferro_syntax::parse_file(ferro_diag::FileId(0), text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        read_encryption(&parsed.body, Span::new(ferro_diag::FileId(0), 0..0))
    }

    fn summaries(d: &[Diagnostic]) -> Vec<String> {
        d.iter().map(|d| d.summary.clone()).collect()
    }

    #[test]
    fn static_references_and_for_expressions() {
        let (_, d) = read(
            "key_provider \"pbkdf2\" \"k\" {\n  passphrase = join(\"\", [for c in var.parts : upper(c)])\n}\n",
        );
        assert!(d.is_empty(), "{d:?}");
        let (_, d) = read(
            "key_provider \"pbkdf2\" \"k\" {\n  passphrase = \"${aws_secret.s.value}-x\"\n  iterations = count.index\n}\n",
        );
        assert_eq!(
            summaries(&d),
            [
                "Dynamic value in static context",
                "Dynamic value in static context"
            ]
        );
        assert!(d[0].detail.contains("aws_secret.s"));
    }

    #[test]
    fn merge_follows_opentofu() {
        let (file, _) = read(
            "key_provider \"pbkdf2\" \"k\" {\n  passphrase = \"aaaaaaaaaaaaaaaaaaaa\"\n  iterations = 300000\n}\nmethod \"aes_gcm\" \"m\" {\n  keys = key_provider.pbkdf2.k\n}\nstate {\n  method = method.aes_gcm.m\n  enforced = true\n}\n",
        );
        let (env, _) = read(
            "key_provider \"pbkdf2\" \"k\" {\n  passphrase = \"bbbbbbbbbbbbbbbbbbbb\"\n}\nmethod \"unencrypted\" \"u\" {}\nstate {\n  fallback {\n    method = method.unencrypted.u\n  }\n}\n",
        );
        let merged = file.merge(env);
        assert_eq!(merged.key_providers.len(), 1);
        let kp = &merged.key_providers[0];
        let text = |n: &str| match &kp.attr(n).unwrap().expr.kind {
            ExprKind::Template(t) => t.literal_text().unwrap(),
            ExprKind::Number(n) => n.to_string(),
            _ => String::new(),
        };
        assert_eq!(
            text("passphrase"),
            "bbbbbbbbbbbbbbbbbbbb",
            "the environment wins"
        );
        assert_eq!(
            text("iterations"),
            "300000",
            "the file's other arguments stay"
        );
        assert_eq!(merged.methods.len(), 2);
        let state = merged.state.unwrap();
        assert!(state.method.is_some(), "the file's method stays");
        assert!(
            state.fallback.is_some(),
            "the environment's fallback is added"
        );
        assert!(state.enforced.is_some());
    }
}
