//! `ferro graph`: the dependency graph of the configuration in DOT, as Terraform 1.0.3's
//! `terraform graph` draws its plan graph (and its validate and eval graphs).
//!
//! The graph is made from the analysis: the items of the static module tree and what they refer
//! to (`ferro_db::item_references`), the provider configuration each resource resolves to (the
//! planner's resolution), and Terraform's structural vertices (module expansion and closing,
//! provider closing, the count boundary and the root), then reduced transitively.

use crate::args::Spec;
use crate::commands::print_diags;
use crate::graph_dot::{DotGraph, Drawn};
use crate::load::{attach_providers, load_dir, load_files, Loaded};
use crate::{Global, Io};
use ferro_addrs::{AbsProviderConfig, ConfigResource};
use ferro_db::{item_references, module_tree, Item, ItemId, RefTarget, Referrer, TreeNodeId};
use ferro_diag::{has_errors, Diagnostic};
use ferro_provider::ProviderRegistry;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

const HELP: &str = "Usage: ferro [global options] graph [options]

  Prints, in the DOT language, the dependency graph of an operation: a
  node for each resource, provider, module call, variable, local value and
  output, with an edge to everything each one needs. Graphviz
  (\"dot -Tsvg\") and many online viewers turn it into a picture.

  Which graph is drawn is chosen with -type. The default is plan, or, with
  -plan, apply, which ferro cannot draw: give -type together with -plan.

Options:

  -draw-cycles     Accepted for compatibility; like Terraform 1.0.3,
                   ferro draws cycles without colour.

  -module-depth=n  Deprecated, and ignored: every module is drawn.

  -plan=tfplan     Draw from the configuration stored in the given plan
                   file rather than the working directory's (with
                   -type=plan or -type=validate).

  -type=plan       The graph to draw: plan, plan-refresh-only, validate
                   or eval. (Terraform's plan-destroy and apply graphs
                   are not available in ferro.)

  -verbose         Also draw the vertices that close each provider.";

/// graph's flags (Go's flag syntax, read by `parse_flags`) and its help.
pub(crate) const GRAPH: Spec = Spec {
    bools: &["draw-cycles", "verbose"],
    values: &["type", "plan", "module-depth"],
    help: HELP,
};

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

pub(crate) struct Flags {
    plan: Option<String>,
    graph_type: Option<String>,
    verbose: bool,
}

/// Parse the flags as Go's `flag` package does for Terraform's graph command: flags stop at the
/// first argument that is not one; errors are worded as Go words them.
pub(crate) fn parse_flags(args: &[String]) -> Result<(Flags, Vec<String>), String> {
    let mut flags = Flags {
        plan: None,
        graph_type: None,
        verbose: false,
    };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            i += 1;
            break;
        }
        let Some((name, inline)) = crate::args::go_flag(a) else {
            break;
        };
        let inline = inline.map(str::to_string);
        i += 1;
        if !GRAPH.has(name) {
            return Err(format!("flag provided but not defined: -{name}"));
        }
        match name {
            "draw-cycles" | "verbose" => {
                let v = match inline.as_deref() {
                    None => true,
                    Some(v) => crate::args::go_bool(v).ok_or_else(|| {
                        format!("invalid boolean value {v:?} for -{name}: parse error")
                    })?,
                };
                if name == "verbose" {
                    flags.verbose = v;
                }
            }
            "type" | "plan" | "module-depth" => {
                let v = match inline {
                    Some(v) => v,
                    None => {
                        let v = args
                            .get(i)
                            .cloned()
                            .ok_or_else(|| format!("flag needs an argument: -{name}"))?;
                        i += 1;
                        v
                    }
                };
                match name {
                    "type" => flags.graph_type = Some(v),
                    "plan" => flags.plan = Some(v),
                    _ => {
                        if parse_go_int(&v).is_none() {
                            return Err(format!(
                                "invalid value {v:?} for flag -module-depth: parse error"
                            ));
                        }
                    }
                }
            }
            _ => return Err(format!("flag provided but not defined: -{name}")),
        }
    }
    Ok((flags, args[i..].to_vec()))
}

/// Go's `strconv.ParseInt(v, 0, 64)` as the flag package reads an int: a sign, then decimal,
/// `0x` hexadecimal, `0o`/leading-zero octal or `0b` binary digits, `_` between digits.
fn parse_go_int(v: &str) -> Option<i64> {
    let digits = v.strip_prefix(['+', '-']).unwrap_or(v);
    let (radix, rest) = if let Some(r) = digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
        (16, r)
    } else if let Some(r) = digits.strip_prefix("0b").or(digits.strip_prefix("0B")) {
        (2, r)
    } else if let Some(r) = digits.strip_prefix("0o").or(digits.strip_prefix("0O")) {
        (8, r)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    if rest.is_empty() || rest.starts_with('_') || rest.ends_with('_') || rest.contains("__") {
        return None;
    }
    let n = i64::from_str_radix(&rest.replace('_', ""), radix).ok()?;
    Some(if v.starts_with('-') { -n } else { n })
}

pub fn graph(g: &Global, args: &[String], io: &mut Io<'_>) -> i32 {
    let (flags, rest) = match parse_flags(args) {
        Ok(p) => p,
        Err(e) => {
            ui_error(io, g.color, HELP);
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
            let why = if flags.type_given() {
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
            return crate::commands::plain_error(io, "Failed to read configuration", &e);
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

impl Flags {
    fn type_given(&self) -> bool {
        self.graph_type.is_some()
    }
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

#[cfg(test)]
mod tests {
    use super::{parse_flags, parse_go_int};

    #[test]
    fn module_depth_reads_go_integers() {
        assert_eq!(parse_go_int("-1"), Some(-1));
        assert_eq!(parse_go_int("0x10"), Some(16));
        assert_eq!(parse_go_int("010"), Some(8));
        assert_eq!(parse_go_int("1_000"), Some(1000));
        assert_eq!(parse_go_int("x"), None);
        assert_eq!(parse_go_int(""), None);
    }

    #[test]
    fn flags_stop_at_the_first_argument() {
        let args: Vec<String> = ["-type=validate", "dir", "-verbose"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (flags, rest) = parse_flags(&args).unwrap();
        assert_eq!(flags.graph_type.as_deref(), Some("validate"));
        assert!(!flags.verbose);
        assert_eq!(rest, vec!["dir".to_string(), "-verbose".to_string()]);
        let err = parse_flags(&["-type".to_string()]).err().unwrap();
        assert_eq!(err, "flag needs an argument: -type");
    }
}
