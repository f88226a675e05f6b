//! `ferro graph`: the dependency graph of the configuration in DOT, as Terraform 1.0.3's
//! `terraform graph` draws its plan graph (and its validate and eval graphs).
//!
//! The graph is made from the analysis: the items of the static module tree and what they refer
//! to (`ferro_db::item_references`), the provider configuration each resource resolves to (the
//! planner's resolution), and Terraform's structural vertices (module expansion and closing,
//! provider closing, the count boundary and the root), then reduced transitively.

use crate::graph_dot::{DotGraph, Drawn};
use crate::load::{attach_providers, load_dir, load_files, Loaded};
use crate::spec::graph::{parse_flags, GRAPH};
use crate::ui::print_diags;
use crate::{Global, Io};
use ferro_addrs::{AbsProviderConfig, ConfigResource};
use ferro_db::{item_references, module_tree, Item, ItemId, RefTarget, Referrer, TreeNodeId};
use ferro_diag::{has_errors, Diagnostic};
use ferro_provider::ProviderRegistry;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// Which of Terraform's graphs to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GraphType {
    /// `plan` and `plan-refresh-only`: resources are `ADDR (expand)`.
    Plan,
    /// `validate`: resources by their address alone.
    Validate,
    /// `eval`: the validate graph without the count boundary.
    Eval,
}

/// A Terraform-style error line (`Ui.Error`): red when colour is on.
fn ui_error(io: &mut Io<'_>, color: bool, text: &str) -> i32 {
    let line = if color {
        format!("\x1b[31m{text}\x1b[0m\x1b[0m\n")
    } else {
        format!("{text}\n")
    };
    let _ = io.stderr.write_all(line.as_bytes());
    1
}

pub fn graph(g: &Global, args: &[String], io: &mut Io<'_>) -> i32 {
    let (flags, rest) = match parse_flags(args) {
        Ok(p) => p,
        Err(e) => {
            ui_error(io, g.color, GRAPH.help);
            return ui_error(
                io,
                g.color,
                &format!("Error parsing command-line flags: {e}\n"),
            );
        }
    };
    if !rest.is_empty() {
        return ui_error(
            io,
            g.color,
            "Too many command line arguments. Did you mean to use -chdir?",
        );
    }
    let requested = flags
        .graph_type
        .as_deref()
        .unwrap_or(if flags.plan.is_some() {
            "apply"
        } else {
            "plan"
        });
    let graph_type = match requested {
        "plan" | "plan-refresh-only" => GraphType::Plan,
        "validate" => GraphType::Validate,
        "eval" => GraphType::Eval,
        "apply" | "plan-destroy" => {
            let why = if flags.graph_type.is_some() {
                String::new()
            } else {
                " (the default type for a saved plan)".to_string()
            };
            return ui_error(
                io,
                g.color,
                &format!(
                    "ferro graph cannot draw the {requested} graph{why}: Terraform builds it from the planned changes and the state, which ferro does not model as graph vertices. Use -type=plan or -type=validate."
                ),
            );
        }
        other => {
            return ui_error(
                io,
                g.color,
                &format!("Invalid graph type requested: {other}"),
            )
        }
    };
    let loaded = match &flags.plan {
        Some(file) => {
            let plan = std::fs::read(g.dir.join(file))
                .map_err(|e| e.to_string())
                .and_then(|b| ferro_plan::read_plan_file(&b).map_err(|e| e.to_string()));
            match plan {
                Ok(plan) => Ok(load_files(plan.config.files)),
                Err(e) => {
                    return ui_error(
                        io,
                        g.color,
                        &format!("Failed to load {file:?} as a plan file: {e}"),
                    )
                }
            }
        }
        None => load_dir(&g.dir),
    };
    let mut l = match loaded {
        Ok(l) => l,
        Err(e) => {
            return crate::ui::plain_error(io, "Failed to read configuration", &e);
        }
    };
    let registry = ProviderRegistry::for_working_dir(&g.dir);
    let (providers, provider_diags) = attach_providers(&mut l, &registry, None);
    let diags = load_errors(&l, provider_diags);
    if has_errors(&diags) {
        // Only errors are shown: warnings would upset a program reading the graph.
        let errors: Vec<Diagnostic> = diags.into_iter().filter(Diagnostic::is_error).collect();
        print_diags(io, &errors, &l.sources(), g.color);
        return 1;
    }
    let mut dot = build(&l, &providers.by_resource, graph_type, flags.verbose);
    // Terraform validates the eval graph (and only it): a cycle there is an error.
    if graph_type == GraphType::Eval {
        if let Some(members) = dot.cycle() {
            let d = Diagnostic::error("dependency-cycle", format!("Cycle: {}", members.join(", ")));
            print_diags(io, &[d], &l.sources(), g.color);
            return 1;
        }
    }
    dot.reduce();
    let _ = io.stdout.write_all(dot.render().as_bytes());
    let _ = io.stdout.write_all(b"\n");
    0
}

/// What stops the graph: an unmet `required_version`, what Terraform's configuration loader
/// rejects (syntax, structure, duplicates, module calls that cannot be resolved) and providers
/// that cannot be started. Undeclared references and schema or type errors do not: Terraform
/// draws such a configuration without validating it.
fn load_errors(l: &Loaded, provider_diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let versions = ferro_db::required_version_diagnostics(&l.db, l.ws).clone();
    if !versions.is_empty() {
        return versions;
    }
    let mut diags: Vec<Diagnostic> = l.encoding.clone();
    diags.extend(ferro_db::load_diagnostics(&l.db, l.ws).iter().cloned());
    diags.extend(provider_diags.into_iter().filter(|d| {
        !matches!(
            d.code.as_str(),
            "invalid-resource-type" | "provider-config-not-present"
        )
    }));
    diags
}

/// `module.a.module.b.` for a static module path (empty for the root).
fn prefix(path: &[String]) -> String {
    path.iter().map(|m| format!("module.{m}.")).collect()
}

/// Terraform's plan graph of the loaded configuration, before reduction.
fn build(
    l: &Loaded,
    by_resource: &std::collections::BTreeMap<ConfigResource, Arc<AbsProviderConfig>>,
    graph_type: GraphType,
    verbose: bool,
) -> DotGraph {
    let db = &l.db;
    let tree = module_tree(db, l.ws);
    let refs = item_references(db, l.ws);
    let mut dot = DotGraph::default();
    // The static module each vertex runs in (Terraform's `ModulePath`); None for the vertices
    // that run in none (provider closers, the count boundary, the root).
    let mut scope: Vec<Option<TreeNodeId>> = Vec::new();
    let mut add =
        |dot: &mut DotGraph, name: String, drawn: Option<Drawn>, s: Option<TreeNodeId>| {
            let i = dot.vertex(name, drawn);
            if i == scope.len() {
                scope.push(s);
            }
            i
        };
    let call_path = |node: TreeNodeId| prefix(&tree.nodes[node].path);
    let module_vertex = |child: TreeNodeId, what: &str| {
        let p = call_path(child);
        format!("{} ({what})", p.trim_end_matches('.'))
    };
    // Module expansion and closing vertices, run in the calling module.
    for (child, tn) in tree.nodes.iter().enumerate().skip(1) {
        add(&mut dot, module_vertex(child, "expand"), None, tn.parent);
        add(&mut dot, module_vertex(child, "close"), None, tn.parent);
    }
    let item_vertex = |item: &Item| -> (String, Option<Drawn>) {
        let root = item.node == 0;
        let p = call_path(item.node);
        match &item.id {
            ItemId::Var(n) if root => {
                let name = format!("var.{n}");
                let drawn = Drawn {
                    label: name.clone(),
                    shape: "note",
                };
                (name, Some(drawn))
            }
            ItemId::Var(n) => (format!("{p}var.{n} (expand)"), None),
            ItemId::Local(n) => (format!("{p}local.{n} (expand)"), None),
            ItemId::Output(n) if root => {
                let name = format!("output.{n}");
                let drawn = Drawn {
                    label: name.clone(),
                    shape: "note",
                };
                (name, Some(drawn))
            }
            ItemId::Output(n) => (format!("{p}output.{n} (expand)"), None),
            ItemId::Resource(r) => {
                let label = format!("{p}{r}");
                let name = match graph_type {
                    GraphType::Plan => format!("{label} (expand)"),
                    GraphType::Validate | GraphType::Eval => label.clone(),
                };
                (
                    name,
                    Some(Drawn {
                        label,
                        shape: "box",
                    }),
                )
            }
            ItemId::ModuleCall(n) => (format!("{p}module.{n} (expand)"), None),
            // Provider vertices are drawn from the provider configurations, not from items
            // (the references list none).
            ItemId::Provider { .. } => (format!("{p}{}", item.id), None),
        }
    };
    let mut items: HashMap<&Item, usize> = HashMap::new();
    for (item, _) in &refs.items {
        if let ItemId::ModuleCall(n) = &item.id {
            // A call whose module is not loaded has no vertices (loading reports it).
            if let Some(&child) = tree.nodes[item.node].children.get(n) {
                if let Some(i) = dot.find(&module_vertex(child, "expand")) {
                    items.insert(item, i);
                }
            }
            continue;
        }
        let (name, drawn) = item_vertex(item);
        let i = add(&mut dot, name, drawn, Some(item.node));
        items.insert(item, i);
    }
    // Provider configurations: only those some resource uses (Terraform prunes the rest), each
    // with its closer.
    let mut providers: HashMap<AbsProviderConfig, (usize, usize)> = HashMap::new();
    let used: BTreeSet<&AbsProviderConfig> = by_resource.values().map(|c| &**c).collect();
    for cfg in used {
        let name = cfg.to_string();
        let drawn = Drawn {
            label: name.clone(),
            shape: "diamond",
        };
        let v = add(&mut dot, name.clone(), Some(drawn), tree.find(&cfg.module));
        let close_name = format!("{name} (close)");
        let close_drawn = verbose.then(|| Drawn {
            label: close_name.clone(),
            shape: "diamond",
        });
        let c = add(&mut dot, close_name, close_drawn, None);
        dot.edge(c, v);
        providers.insert(cfg.clone(), (v, c));
    }
    // References.
    for (who, target) in &refs.refs {
        let from = match who {
            Referrer::Item(item) => items.get(item).copied(),
            Referrer::Provider { node, name, alias } => {
                ferro_planner::provider_config(db, l.ws, *node, name, alias.clone())
                    .ok()
                    .and_then(|cfg| providers.get(&cfg).map(|(v, _)| *v))
            }
        };
        let to = match target {
            RefTarget::Item(item) => items.get(item).copied(),
            RefTarget::ModuleContents { node, call } => tree.nodes[*node]
                .children
                .get(call)
                .and_then(|&child| dot.find(&module_vertex(child, "close"))),
            RefTarget::Module { node, call, output } => tree.nodes[*node]
                .children
                .get(call)
                .and_then(|&child| match output {
                    Some(o) => items
                        .get(&Item {
                            node: child,
                            id: ItemId::Output(o.clone()),
                        })
                        .copied(),
                    None => dot.find(&module_vertex(child, "close")),
                }),
        };
        if let (Some(from), Some(to)) = (from, to) {
            dot.edge(from, to);
        }
    }
    // Resources use their provider configurations, which close after them.
    for (item, &i) in &items {
        let ItemId::Resource(r) = &item.id else {
            continue;
        };
        let cr = ConfigResource {
            module: tree.nodes[item.node].path.clone(),
            resource: r.clone(),
        };
        if let Some((v, c)) = by_resource.get(&cr).and_then(|cfg| providers.get(&**cfg)) {
            dot.edge(i, *v);
            dot.edge(*c, i);
        }
    }
    // Everything run in a module waits for its expansion; its closer waits for everything.
    for child in 1..tree.nodes.len() {
        let (Some(expand), Some(close)) = (
            dot.find(&module_vertex(child, "expand")),
            dot.find(&module_vertex(child, "close")),
        ) else {
            continue;
        };
        dot.edge(close, expand);
        for (v, s) in scope.iter().enumerate() {
            if *s == Some(child) {
                dot.edge(v, expand);
                dot.edge(close, v);
            }
        }
    }
    if graph_type != GraphType::Eval {
        let boundary = dot.vertex("meta.count-boundary (EachMode fixup)".to_string(), None);
        for (v, s) in scope.iter().enumerate() {
            if s.is_some() {
                dot.edge(boundary, v);
            }
        }
    }
    let root = dot.vertex("root".to_string(), None);
    for v in dot.without_dependents() {
        dot.edge(root, v);
    }
    dot
}
