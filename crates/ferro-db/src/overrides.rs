//! Override files (`override.tf`, `*_override.tf`), merged into the module's other files as
//! Terraform merges them: each top-level block of an override file changes the block of the
//! same kind and name declared in a primary file (arguments replace arguments, nested blocks of
//! a type replace every block of that type, `lifecycle` merges argument by argument, locals
//! replace the local of the same name); a block with nothing to override is an error.
//!
//! The merge works on syntax trees, before lowering: the primary file lowers its merged tree,
//! and the override file lowers to no items of its own. Merged parts keep the ranges of the
//! override file, so diagnostics about them point there. Either file may use either syntax.
//! In a body whose schema comes from a provider, a JSON property may stand for nested blocks,
//! so where JSON is involved an overriding argument also replaces base blocks of its name, and
//! overriding blocks replace a base argument of their type's name; the merged body is then
//! marked JSON, for the schema to read (`crate::read_json_body`).

use crate::{parse, Db, SourceFile};
use ferro_diag::Diagnostic;
use ferro_syntax::ast::{Block, Body, BodyItem, ExprKind};

/// Whether a configuration file is an override file, by its name as Terraform decides (and
/// OpenTofu, for `override.tofu` and `*_override.tofu[.json]`).
pub fn is_override_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let Some(stem) = [".tf.json", ".tf", ".tofu.json", ".tofu"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
    else {
        return false;
    };
    stem == "override" || stem.ends_with("_override")
}

/// Whether a configuration file is in the JSON syntax, by its name: `*.tf.json`, or OpenTofu's
/// `*.tofu.json`.
pub fn is_json_path(path: &str) -> bool {
    path.ends_with(".tf.json") || path.ends_with(".tofu.json")
}

/// The override files of `file`'s module, in name order (empty unless the module has any).
fn override_files(db: &dyn Db, file: SourceFile) -> Vec<SourceFile> {
    let mut out: Vec<SourceFile> = file
        .module_files(db)
        .iter()
        .copied()
        .filter(|f| is_override_path(f.path(db)))
        .collect();
    out.sort_by(|a, b| a.path(db).cmp(b.path(db)));
    out
}

/// What lowering reads for `file` when its module has override files: a primary file's tree with
/// the overrides merged in, or (for an override file) an empty tree and the diagnostics of
/// blocks that override nothing. `None` when nothing changes (the common case).
pub fn merged_body(db: &dyn Db, file: SourceFile) -> Option<(Body, Vec<Diagnostic>)> {
    if file.module_files(db).is_empty() {
        return None;
    }
    let overrides = override_files(db, file);
    if overrides.is_empty() {
        return None;
    }
    if is_override_path(file.path(db)) {
        let body = &parse(db, file).body;
        let primaries: Vec<&Body> = file
            .module_files(db)
            .iter()
            .filter(|f| !is_override_path(f.path(db)))
            .map(|f| &parse(db, *f).body)
            .collect();
        let diags = missing_bases(body, &primaries);
        let empty = Body {
            items: Vec::new(),
            span: body.span,
            json: body.json,
        };
        return Some((empty, diags));
    }
    let mut body = parse(db, file).body.clone();
    for o in overrides {
        for item in &parse(db, o).body.items {
            if let BodyItem::Block(b) = item {
                apply_override(&mut body, b);
            }
        }
    }
    Some((body, Vec::new()))
}

/// The name of a provider block's `alias` argument, when it is a literal string.
fn alias_of(b: &Block) -> Option<String> {
    b.body.items.iter().find_map(|it| match it {
        BodyItem::Attribute(a) if a.name.name == "alias" => match &a.expr.kind {
            ExprKind::Template(t) => t.literal_text(),
            _ => None,
        },
        _ => None,
    })
}

/// Whether `base` is the block `over` overrides: same type and labels (and, for providers, the
/// same alias).
fn same_block(base: &Block, over: &Block) -> bool {
    if base.ty.name != over.ty.name
        || base.labels.len() != over.labels.len()
        || base
            .labels
            .iter()
            .zip(&over.labels)
            .any(|(a, b)| a.value != b.value)
    {
        return false;
    }
    base.ty.name != "provider" || alias_of(base) == alias_of(over)
}

/// Block types an override file may not contain (Terraform: "Cannot override … blocks").
const NOT_OVERRIDABLE: &[&str] = &["moved", "import", "removed", "check"];

/// Block types merged by name (`locals`, `terraform` merge differently).
fn is_named_kind(ty: &str) -> bool {
    matches!(
        ty,
        "variable" | "output" | "resource" | "data" | "module" | "provider"
    )
}

/// Merge one override block into the primary file's body (when the base is declared there).
fn apply_override(body: &mut Body, over: &Block) {
    let ty = over.ty.name.as_str();
    if ty == "locals" {
        for it in &over.body.items {
            let BodyItem::Attribute(a) = it else { continue };
            for item in &mut body.items {
                let BodyItem::Block(b) = item else { continue };
                if b.ty.name != "locals" {
                    continue;
                }
                for slot in &mut b.body.items {
                    if matches!(slot, BodyItem::Attribute(x) if x.name.name == a.name.name) {
                        *slot = BodyItem::Attribute(a.clone());
                    }
                }
            }
        }
        return;
    }
    if ty == "terraform" {
        // Merged into the first `terraform` block of the file, if it has one.
        if let Some(b) = body.items.iter_mut().find_map(|it| match it {
            BodyItem::Block(b) if b.ty.name == "terraform" => Some(b),
            _ => None,
        }) {
            merge_terraform(&mut b.body, &over.body);
        }
        return;
    }
    if !is_named_kind(ty) {
        return;
    }
    for item in &mut body.items {
        if let BodyItem::Block(b) = item {
            if same_block(b, over) {
                let open = matches!(ty, "resource" | "data" | "provider");
                merge_body(&mut b.body, &over.body, ty == "variable", open);
            }
        }
    }
}

/// Arguments replace arguments; nested blocks of a type (written plainly or as `dynamic "type"`)
/// replace every base block of that type; `lifecycle` merges argument by argument. A variable's
/// `validation` blocks are kept (Terraform does not override them).
///
/// In a body whose schema comes from a provider (`open`), when either side is JSON a name is
/// an argument or a nested block type, not both (the schema decides which): an overriding
/// argument replaces the base's blocks of its name, overriding blocks the base's argument.
fn merge_body(base: &mut Body, over: &Body, variable: bool, open: bool) {
    let json = open && (base.json || over.json);
    if json {
        let names: Vec<&str> = over
            .items
            .iter()
            .filter_map(|it| match it {
                BodyItem::Attribute(a) => Some(a.name.name.as_str()),
                _ => None,
            })
            .collect();
        base.items.retain(
            |it| !matches!(it, BodyItem::Block(b) if names.contains(&nested_kind(b).as_str())),
        );
        let kinds: Vec<String> = over
            .items
            .iter()
            .filter_map(|it| match it {
                BodyItem::Block(b) if !is_meta_block(&b.ty.name) => Some(nested_kind(b)),
                _ => None,
            })
            .collect();
        base.items.retain(
            |it| !matches!(it, BodyItem::Attribute(a) if kinds.iter().any(|k| k == a.name.name.as_str())),
        );
        base.json = true;
    }
    for it in &over.items {
        match it {
            BodyItem::Attribute(a) => put_attribute(base, &a.name.name, it),
            BodyItem::Block(b) if b.ty.name == "lifecycle" => merge_into_block(base, b, it),
            BodyItem::Block(b) if variable && b.ty.name == "validation" => {}
            BodyItem::Block(_) => {}
        }
    }
    // Nested block types the override sets replace the base's blocks of those types.
    let kinds: Vec<String> = over
        .items
        .iter()
        .filter_map(|it| match it {
            BodyItem::Block(b)
                if b.ty.name != "lifecycle" && !(variable && b.ty.name == "validation") =>
            {
                Some(nested_kind(b))
            }
            _ => None,
        })
        .collect();
    if kinds.is_empty() {
        return;
    }
    base.items
        .retain(|it| !matches!(it, BodyItem::Block(b) if kinds.contains(&nested_kind(b))));
    for it in &over.items {
        if let BodyItem::Block(b) = it {
            if kinds.contains(&nested_kind(b)) {
                base.items.push(it.clone());
            }
        }
    }
}

/// An overriding argument replaces the base's argument of that name, or is added.
fn put_attribute(base: &mut Body, name: &str, it: &BodyItem) {
    match base
        .items
        .iter_mut()
        .find(|x| matches!(x, BodyItem::Attribute(y) if y.name.name == name))
    {
        Some(slot) => *slot = it.clone(),
        None => base.items.push(it.clone()),
    }
}

/// An overriding block merged argument by argument into the base's block of its type (the
/// first), or added when the base has none.
fn merge_into_block(base: &mut Body, b: &Block, it: &BodyItem) {
    match base.items.iter_mut().find_map(|x| match x {
        BodyItem::Block(y) if y.ty.name == b.ty.name => Some(y),
        _ => None,
    }) {
        Some(y) => merge_body(&mut y.body, &b.body, false, false),
        None => base.items.push(it.clone()),
    }
}

/// Blocks of a resource body that Terraform itself defines (never a provider's block type).
fn is_meta_block(ty: &str) -> bool {
    matches!(ty, "lifecycle" | "provisioner" | "connection")
}

/// The block type a nested block stands for: `dynamic "x"` stands for `x`.
fn nested_kind(b: &Block) -> String {
    match (b.ty.name.as_str(), b.labels.first()) {
        ("dynamic", Some(l)) => l.value.to_string(),
        (ty, _) => ty.to_string(),
    }
}

/// `terraform` blocks: `required_providers` entries replace entries of the same name, a
/// `backend` or `cloud` block replaces the base's, other arguments replace arguments.
fn merge_terraform(base: &mut Body, over: &Body) {
    for it in &over.items {
        match it {
            BodyItem::Attribute(a) => put_attribute(base, &a.name.name, it),
            BodyItem::Block(b) if b.ty.name == "required_providers" => {
                merge_into_block(base, b, it)
            }
            BodyItem::Block(b) if b.ty.name == "backend" || b.ty.name == "cloud" => {
                base.items.retain(|x| {
                    !matches!(x, BodyItem::Block(y) if y.ty.name == "backend" || y.ty.name == "cloud")
                });
                base.items.push(it.clone());
            }
            BodyItem::Block(_) => base.items.push(it.clone()),
        }
    }
}

/// Where Terraform points at a block: its type and labels, or in JSON the opening brace of
/// its body.
fn def_range(b: &Block) -> ferro_diag::Span {
    if b.body.json {
        return b.open_brace;
    }
    let mut span = b.ty.span;
    if let Some(l) = b.labels.last() {
        span.end = l.span.end;
    }
    span
}

/// Terraform's errors for override blocks with no base in any primary file.
fn missing_bases(body: &Body, primaries: &[&Body]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let blocks = || {
        primaries.iter().flat_map(|p| {
            p.items.iter().filter_map(|it| match it {
                BodyItem::Block(b) => Some(b),
                _ => None,
            })
        })
    };
    for it in &body.items {
        let BodyItem::Block(over) = it else { continue };
        let ty = over.ty.name.as_str();
        if NOT_OVERRIDABLE.contains(&ty) {
            let what = match ty {
                "moved" => "Records of moved objects",
                "import" => "Import blocks",
                "removed" => "Removed blocks",
                _ => "Check blocks",
            };
            out.push(
                Diagnostic::error("invalid-override", format!("Cannot override '{ty}' blocks"))
                    .with_detail(format!(
                        "{what} can appear only in normal files, not in override files."
                    ))
                    .with_span(def_range(over)),
            );
            continue;
        }
        if ty == "locals" {
            for a in over.body.items.iter().filter_map(|x| match x {
                BodyItem::Attribute(a) => Some(a),
                _ => None,
            }) {
                let found = blocks().filter(|b| b.ty.name == "locals").any(|b| {
                    b.body
                        .items
                        .iter()
                        .any(|x| matches!(x, BodyItem::Attribute(y) if y.name.name == a.name.name))
                });
                if !found {
                    out.push(
                        Diagnostic::error(
                            "missing-override-base",
                            "Missing base local value definition to override",
                        )
                        .with_detail(format!("There is no local value named {:?}. An override file can only override a local value that was already defined in a primary configuration file.", a.name.name.as_str()))
                        .with_span(a.span),
                    );
                }
            }
            continue;
        }
        if !is_named_kind(ty) {
            continue;
        }
        if blocks().any(|b| same_block(b, over)) {
            continue;
        }
        let name = over
            .labels
            .iter()
            .map(|l| l.value.as_str())
            .collect::<Vec<_>>();
        let (summary, detail) = match ty {
            "variable" => ("Missing base variable declaration to override".to_string(), format!("There is no variable named {:?}. An override file can only override a variable that was already declared in a primary configuration file.", name.join("."))),
            "output" => ("Missing base output definition to override".to_string(), format!("There is no output named {:?}. An override file can only override an output that was already defined in a primary configuration file.", name.join("."))),
            "module" => ("Missing module call to override".to_string(), format!("There is no module call named {:?}. An override file can only override a module call that was defined in a primary configuration file.", name.join("."))),
            "provider" => ("Missing base provider configuration for override".to_string(), format!("There is no {} provider configuration with the alias {:?}. An override file can only override an aliased provider configuration that was already defined in a primary configuration file.", name.join("."), alias_of(over).unwrap_or_default())),
            "data" => ("Missing data resource to override".to_string(), format!("There is no {} data resource named {:?}. An override file can only override a data block defined in a primary configuration file.", name.first().copied().unwrap_or(""), name.get(1).copied().unwrap_or(""))),
            _ => ("Missing resource to override".to_string(), format!("There is no {} resource named {:?}. An override file can only override a resource block defined in a primary configuration file.", name.first().copied().unwrap_or(""), name.get(1).copied().unwrap_or(""))),
        };
        out.push(
            Diagnostic::error("missing-override-base", summary)
                .with_detail(detail)
                .with_span(def_range(over)),
        );
    }
    out
}
