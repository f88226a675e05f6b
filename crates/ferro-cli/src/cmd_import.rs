//! `ferro import`: start tracking an object that already exists.

use crate::load::{attach_providers, collect_variables, config_diagnostics, load_dir};
use crate::ui::{plain_error, print_diags, var_args};
use crate::{spec, Global, Io};
use ferro_diag::has_errors;
use ferro_provider::ProviderRegistry;
use ferro_state::State;

pub fn import(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match spec::core::IMPORT.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    let [addr_text, id] = p.positional.as_slice() else {
        return plain_error(io, "Wrong number of arguments", "The import command expects two arguments: the resource address to import into and the provider-specific id of the object, e.g. ferro import aws_instance.web i-abcd1234.");
    };
    let addr = match ferro_addrs::parse_resource_instance(addr_text) {
        Ok(a) => a,
        Err(e) => return plain_error(io, "Invalid address", &e),
    };
    // The whole module tree, as plan loads it: the address may be in a module.
    let mut l = match load_dir(&g.dir) {
        Ok(l) => l,
        Err(e) => return plain_error(io, "Failed to read configuration", &e),
    };
    // The module must be in the configuration, as Terraform checks before anything else.
    let path: Vec<String> = addr.module.0.iter().map(|s| s.name.clone()).collect();
    if ferro_db::module_tree(&l.db, l.ws).find(&path).is_none() {
        return plain_error(
            io,
            "Import to non-existent module",
            &format!("{} is not defined in the configuration. Please add configuration for this module before importing into it.", addr.module),
        );
    }
    let (mut backend, display) = match crate::backend::open(g, &p, io) {
        Ok(b) => b,
        Err(code) => return code,
    };
    backend.set_errored_dir(g.dir.clone());
    if let Err(code) =
        crate::cmd_lock::take(backend.as_mut(), &p, "OperationTypeInvalid", &display, io)
    {
        return code;
    }
    let mut state = match backend.load() {
        Ok(s) => s.unwrap_or_else(|| State::new(ferro_state::new_lineage())),
        Err(e) => return plain_error(io, "Failed to load state", &e.to_string()),
    };
    let registry = ProviderRegistry::for_working_dir(&g.dir);
    let (mut providers, mut diags) = attach_providers(&mut l, &registry, Some(&state));
    config_diagnostics(&l, &mut diags);
    let raw = collect_variables(&mut l, &g.dir, &var_args(a), &mut diags);
    if !has_errors(&diags) {
        diags.extend(crate::provider_for_each::start_provider_instances(
            &l,
            &raw,
            &g.dir,
            &registry,
            &mut providers,
        ));
    }
    if has_errors(&diags) {
        print_diags(io, &diags, &l.sources(), g.color);
        registry.close_all();
        return 1;
    }
    let (vars, vdiags) = ferro_planner::prepare_variables(&l.db, l.ws, &raw);
    diags.extend(vdiags);
    if !has_errors(&diags) {
        let tree = ferro_planner::scope::EvalTree::new(
            &l.db,
            l.ws,
            vars,
            true,
            g.dir.display().to_string(),
        );
        // Provider configurations see the resources in state, as Terraform's import does,
        // and must be wholly known.
        diags.extend(ferro_planner::state_scope::expand_from_state(
            &tree,
            &state,
            Some(&providers),
        ));
        if !has_errors(&diags) {
            diags.extend(ferro_planner::configure_providers_known(&tree, &providers));
        }
    }
    if has_errors(&diags) {
        print_diags(io, &diags, &l.sources(), g.color);
        registry.close_all();
        return 1;
    }
    let out = &mut *io.stdout;
    let mut on_event = |e: ferro_planner::ImportEvent<'_>| {
        let line = match e {
            ferro_planner::ImportEvent::Importing { addr, id } => {
                format!("{addr}: Importing from ID {id:?}...")
            }
            ferro_planner::ImportEvent::Prepared { addr, type_name } => {
                format!("{addr}: Import prepared!\n  Prepared {type_name} for import")
            }
            ferro_planner::ImportEvent::Refreshing { addr, id } => {
                format!("{addr}: Refreshing state... [id={id}]")
            }
        };
        let _ = writeln!(out, "{line}");
    };
    diags.extend(ferro_planner::import_resource(
        &providers,
        &mut state,
        &addr,
        id,
        &mut on_event,
    ));
    registry.close_all();
    print_diags(io, &diags, &l.sources(), g.color);
    if has_errors(&diags) {
        return 1;
    }
    if let Err(e) = backend.persist(&mut state) {
        return plain_error(io, "Failed to persist state", &e.to_string());
    }
    let _ = write!(
        io.stdout,
        "\nImport successful!\n\nThe resources that were imported are shown above. These resources are now in\nyour ferro state and will henceforth be managed by ferro.\n\n"
    );
    0
}
