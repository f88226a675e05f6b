//! `ferro providers`: the providers the configuration requires, module by module, with their
//! version constraints, and those the state requires, as Terraform 1.0 prints them; and
//! `ferro providers schema -json`: the schemas of those providers in Terraform's JSON format
//! (`format_version` "0.2"), which documentation generators and editors read.

use crate::cmd_init::module_requirements;
use crate::load::load_dir;
use crate::ui::{plain_error, print_diags};
use crate::{Global, Io};
use ferro_addrs::Provider as ProviderAddr;
use ferro_db::module_tree;
use ferro_provider::install::version::Constraints;
use ferro_provider::{ProviderRegistry, ProviderSource};
use ferro_value::schema::{Attribute, Block, NestingMode, Schema};
use serde_json::{json, Map, Value as J};
use std::collections::{BTreeMap, BTreeSet};

pub fn providers(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    match a.first().map(String::as_str) {
        Some("schema") => schema(g, &a[1..], io),
        Some("lock") => crate::cmd_providers_lock::lock(g, &a[1..], io),
        Some("mirror") => crate::cmd_providers_mirror::mirror(g, &a[1..], io),
        _ => tree(g, a, io),
    }
}

/// One module of the configuration: its providers and its child calls.
struct Node {
    name: String,
    providers: BTreeMap<ProviderAddr, Constraints>,
    children: Vec<Node>,
}

fn tree(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match crate::spec::other::PROVIDERS.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    if !p.positional.is_empty() {
        return plain_error(
            io,
            "Invalid arguments",
            "The providers command takes no arguments (other than a subcommand).",
        );
    }
    let l = match load_dir(&g.dir) {
        Ok(l) => l,
        Err(e) => return plain_error(io, "Failed to read configuration", &e),
    };
    let mut diags = Vec::new();
    crate::load::load_config_diagnostics(&l, &mut diags);
    let t = module_tree(&l.db, l.ws);
    fn build(
        db: &dyn ferro_db::Db,
        t: &ferro_db::ModuleTree,
        id: usize,
        name: String,
        diags: &mut Vec<ferro_diag::Diagnostic>,
    ) -> Node {
        let n = &t.nodes[id];
        let (providers, errors) = module_requirements(db, n.module);
        diags.extend(errors);
        let children = n
            .children
            .iter()
            .map(|(call, child)| build(db, t, *child, format!("module.{call}"), diags))
            .collect();
        Node {
            name,
            providers,
            children,
        }
    }
    let root = build(&l.db, t, 0, ".".into(), &mut diags);
    if diags.iter().any(ferro_diag::Diagnostic::is_error) {
        print_diags(io, &diags, &l.sources(), g.color);
        return 1;
    }
    let state = match crate::backend::read(g, &p, io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let mut out = String::from("\nProviders required by configuration:\n");
    out.push_str(&root.name);
    out.push('\n');
    write_children(&root, "", &mut out);
    out.push('\n');
    let in_state: BTreeSet<String> = state
        .iter()
        .flat_map(|s| s.resources.values())
        .map(|r| r.provider.provider.to_string())
        .collect();
    if !in_state.is_empty() {
        out.push_str("Providers required by state:\n\n");
        for addr in in_state {
            out.push_str(&format!("    provider[{addr}]\n\n"));
        }
    }
    let _ = io.stdout.write_all(out.as_bytes());
    0
}

/// A module's entries under it: its providers, then its child modules, drawn as Terraform
/// draws the tree.
fn write_children(node: &Node, prefix: &str, out: &mut String) {
    let providers = node.providers.iter().map(|(addr, c)| {
        let label = if c.is_empty() {
            format!("provider[{addr}]")
        } else {
            format!("provider[{addr}] {c}")
        };
        (label, None)
    });
    let children = node.children.iter().map(|c| (c.name.clone(), Some(c)));
    let entries: Vec<(String, Option<&Node>)> = providers.chain(children).collect();
    let count = entries.len();
    for (i, (label, child)) in entries.into_iter().enumerate() {
        let last = i + 1 == count;
        out.push_str(prefix);
        out.push_str(if last { "└── " } else { "├── " });
        out.push_str(&label);
        out.push('\n');
        if let Some(child) = child {
            let deeper = format!("{prefix}{}", if last { "    " } else { "│   " });
            write_children(child, &deeper, out);
        }
    }
}

fn schema(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match crate::spec::other::PROVIDERS_SCHEMA.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    if !p.flag("json") {
        return plain_error(
            io,
            "The -json flag is required",
            "The \"providers schema\" command requires the -json flag.",
        );
    }
    let l = match load_dir(&g.dir) {
        Ok(l) => l,
        Err(e) => return plain_error(io, "Failed to read configuration", &e),
    };
    // As Terraform's, only a configuration that does not load stops it: the schemas are
    // printed for a configuration that validate would refuse.
    let mut diags = Vec::new();
    crate::load::load_config_diagnostics(&l, &mut diags);
    for module in l.ws.modules(&l.db) {
        diags.extend(module_requirements(&l.db, module).1);
    }
    if diags.iter().any(ferro_diag::Diagnostic::is_error) {
        print_diags(io, &diags, &l.sources(), g.color);
        return 1;
    }
    let state = match crate::backend::read(g, &p, io) {
        Ok(s) => s,
        Err(code) => return code,
    };
    // Every provider the configuration requires (in `required_providers`, by a provider
    // block or by a resource, in any module) and every provider of the state.
    let mut wanted: BTreeSet<ProviderAddr> = BTreeSet::new();
    for module in l.ws.modules(&l.db) {
        wanted.extend(module_requirements(&l.db, module).0.into_keys());
    }
    if let Some(st) = &state {
        wanted.extend(st.resources.values().map(|r| r.provider.provider.clone()));
    }
    let registry = ProviderRegistry::for_working_dir(&g.dir);
    let mut schemas = Map::new();
    let mut diags = Vec::new();
    for addr in &wanted {
        let schema = registry.get(addr).and_then(|p| {
            p.schema().map_err(|ds| {
                ds.iter()
                    .map(|d| format!("{} {}", d.summary, d.detail))
                    .collect::<Vec<_>>()
                    .join("; ")
            })
        });
        match schema {
            Ok(ps) => {
                schemas.insert(addr.to_string(), provider_json(&ps));
            }
            Err(msg) => diags.push(
                ferro_diag::Diagnostic::error("provider-schema", "Failed to load plugin schemas")
                    .with_detail(format!(
                        "Could not load the schema for provider {addr}: {msg}."
                    )),
            ),
        }
    }
    registry.close_all();
    if diags.iter().any(ferro_diag::Diagnostic::is_error) {
        print_diags(io, &diags, &l.sources(), g.color);
        return 1;
    }
    let doc = json!({
        "format_version": "0.2",
        "provider_schemas": J::Object(schemas),
    });
    let _ = writeln!(io.stdout, "{doc}");
    0
}

/// One provider's entry. A data source's `version` is that of the managed resource type of the
/// same name (0 when there is none), as Terraform 1.0.3 reports it: it looks data sources' versions
/// up among the resource types'.
pub(crate) fn provider_json(ps: &ferro_provider::ProviderSchema) -> J {
    let mut entry = Map::new();
    entry.insert("provider".into(), schema_json(&ps.provider));
    if !ps.resources.is_empty() {
        let all: Map<String, J> = ps
            .resources
            .iter()
            .map(|(name, s)| (name.clone(), schema_json(s)))
            .collect();
        entry.insert("resource_schemas".into(), J::Object(all));
    }
    if !ps.data_sources.is_empty() {
        let all: Map<String, J> = ps
            .data_sources
            .iter()
            .map(|(name, s)| {
                let version = ps.resources.get(name).map_or(0, |r| r.version);
                let doc = json!({ "version": version, "block": block_json(&s.block) });
                (name.clone(), doc)
            })
            .collect();
        entry.insert("data_source_schemas".into(), J::Object(all));
    }
    // Terraform 1.10 and later list ephemeral resource types after data sources.
    if !ps.ephemeral_resources.is_empty() {
        let all: Map<String, J> = ps
            .ephemeral_resources
            .iter()
            .map(|(name, s)| (name.clone(), schema_json(s)))
            .collect();
        entry.insert("ephemeral_resource_schemas".into(), J::Object(all));
    }
    // Terraform 1.12 and later: the resource types' identity schemas.
    if !ps.identities.is_empty() {
        let all: Map<String, J> = ps
            .identities
            .iter()
            .map(|(name, s)| {
                let attrs: Map<String, J> = s
                    .attributes
                    .iter()
                    .map(|(k, a)| {
                        let mut m = Map::new();
                        m.insert("type".into(), ferro_value::json::type_to_json(&a.ty));
                        if !a.description.is_empty() {
                            m.insert("description".into(), J::String(a.description.clone()));
                        }
                        if a.required_for_import {
                            m.insert("required_for_import".into(), J::Bool(true));
                        }
                        if a.optional_for_import {
                            m.insert("optional_for_import".into(), J::Bool(true));
                        }
                        (k.clone(), J::Object(m))
                    })
                    .collect();
                let mut doc = Map::new();
                doc.insert("version".into(), J::from(s.version));
                if !attrs.is_empty() {
                    doc.insert("attributes".into(), J::Object(attrs));
                }
                (name.clone(), J::Object(doc))
            })
            .collect();
        entry.insert("resource_identity_schemas".into(), J::Object(all));
    }
    J::Object(entry)
}

fn schema_json(s: &Schema) -> J {
    json!({ "version": s.version, "block": block_json(&s.block) })
}

fn kind(markdown: bool) -> &'static str {
    if markdown {
        "markdown"
    } else {
        "plain"
    }
}

fn nesting(n: NestingMode) -> &'static str {
    match n {
        NestingMode::Single => "single",
        NestingMode::Group => "group",
        NestingMode::List => "list",
        NestingMode::Set => "set",
        NestingMode::Map => "map",
    }
}

/// Terraform's `block`: empty members left out, `description_kind` always there.
fn block_json(b: &Block) -> J {
    let mut m = Map::new();
    if !b.attributes.is_empty() {
        let attrs: Map<String, J> = b
            .attributes
            .iter()
            .map(|(n, a)| (n.clone(), attribute_json(a)))
            .collect();
        m.insert("attributes".into(), J::Object(attrs));
    }
    if !b.block_types.is_empty() {
        let types: Map<String, J> = b
            .block_types
            .iter()
            .map(|(n, nb)| {
                let mut t = Map::new();
                t.insert("nesting_mode".into(), nesting(nb.nesting).into());
                t.insert("block".into(), block_json(&nb.block));
                if nb.min_items > 0 {
                    t.insert("min_items".into(), nb.min_items.into());
                }
                if nb.max_items > 0 {
                    t.insert("max_items".into(), nb.max_items.into());
                }
                (n.clone(), J::Object(t))
            })
            .collect();
        m.insert("block_types".into(), J::Object(types));
    }
    if !b.description.is_empty() {
        m.insert("description".into(), b.description.clone().into());
    }
    m.insert(
        "description_kind".into(),
        kind(b.description_markdown).into(),
    );
    if b.deprecated {
        m.insert("deprecated".into(), true.into());
    }
    J::Object(m)
}

fn attribute_json(a: &Attribute) -> J {
    let mut m = Map::new();
    match &a.nested {
        Some(n) => {
            let mut t = Map::new();
            let attrs: Map<String, J> = n
                .attributes
                .iter()
                .map(|(k, x)| (k.clone(), attribute_json(x)))
                .collect();
            t.insert("attributes".into(), J::Object(attrs));
            t.insert("nesting_mode".into(), nesting(n.nesting).into());
            if n.min_items > 0 {
                t.insert("min_items".into(), n.min_items.into());
            }
            if n.max_items > 0 {
                t.insert("max_items".into(), n.max_items.into());
            }
            m.insert("nested_type".into(), J::Object(t));
        }
        None => {
            m.insert("type".into(), ferro_value::json::type_to_json(&a.ty));
        }
    }
    if !a.description.is_empty() {
        m.insert("description".into(), a.description.clone().into());
    }
    m.insert(
        "description_kind".into(),
        kind(a.description_markdown).into(),
    );
    for (flag, on) in [
        ("deprecated", a.deprecated),
        ("required", a.required),
        ("optional", a.optional),
        ("computed", a.computed),
        ("sensitive", a.sensitive),
        ("write_only", a.write_only),
    ] {
        if on {
            m.insert(flag.into(), true.into());
        }
    }
    J::Object(m)
}
