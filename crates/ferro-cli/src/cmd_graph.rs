//! `ferro graph`: the dependency graph of the configuration in DOT, as Terraform 1.0.3's
//! `terraform graph` draws its plan graph (and its validate and eval graphs). The command reads
//! its flags, loads the configuration (or a plan file's) and reports what stops the graph; the
//! graph itself is made by `ferro_render::graph`.

use crate::load::{attach_providers, load_dir, Loaded};
use crate::spec::graph::{parse_flags, GRAPH};
use crate::ui::print_diags;
use crate::{Global, Io};
use ferro_diag::{has_errors, Diagnostic};
use ferro_provider::ProviderRegistry;
use ferro_render::graph::{build, GraphType};

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
            let encryption = match crate::encryption::for_plan(g, io) {
                Ok(e) => e,
                Err(code) => return code,
            };
            let plan = crate::commands::read_plan_path(&g.dir.join(file), encryption.as_deref())
                .map_err(|e| e.to_string());
            match plan {
                Ok(plan) => Ok(crate::load::load_plan_config(&plan, &g.dir)),
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
    let mut dot = build(
        &l.db,
        l.ws,
        &providers.by_resource,
        graph_type,
        flags.verbose,
    );
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
