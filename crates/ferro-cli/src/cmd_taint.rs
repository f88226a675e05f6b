//! `ferro taint ADDR` and `ferro untaint ADDR`: mark a resource instance's current object in the
//! state as tainted (the next plan replaces it) or clear the mark, with Terraform 1.0's messages,
//! exit codes and `-allow-missing`.

use crate::spec::{self, usage_line};
use crate::ui::{plain_error, print_diags};
use crate::{Global, Io};
use ferro_diag::Diagnostic;

pub fn taint(g: &Global, a: &[String], io: &mut Io<'_>, on: bool) -> i32 {
    let name = if on { "taint" } else { "untaint" };
    let spec = if on {
        &spec::other::TAINT
    } else {
        &spec::other::UNTAINT
    };
    let p = match spec.parse(a) {
        Ok(p) => p,
        Err(e) => return plain_error(io, "Invalid arguments", &e),
    };
    let [addr_text] = p.positional.as_slice() else {
        let _ = writeln!(
            io.stderr,
            "The {name} command expects exactly one argument.\n{}",
            usage_line(spec.help)
        );
        return 1;
    };
    let addr = match ferro_addrs::parse_resource_instance(addr_text) {
        Ok(a) => a,
        Err(e) => return plain_error(io, "Invalid address", &e),
    };
    if addr.resource.resource.mode != ferro_addrs::ResourceMode::Managed {
        return plain_error(
            io,
            "Invalid resource address",
            &format!("Resource instance {addr} is a data resource: only managed resources can be {name}ed."),
        );
    }
    let (mut backend, _) = match crate::backend::open(g, &p, io) {
        Ok(b) => b,
        Err(code) => return code,
    };
    let mut state = match backend.load() {
        Ok(s) => s,
        Err(e) => return plain_error(io, "Failed to load state", &e.to_string()),
    };
    let missing = |io: &mut Io<'_>, detail: String| {
        if p.flag("allow-missing") {
            let d = Diagnostic::warning("cli", "No such resource instance").with_detail(format!(
                "Resource instance {addr} was not found, but this is not an error because -allow-missing was set."
            ));
            print_diags(
                io,
                &[d],
                &ferro_db::Sources::from_files(Vec::new()),
                g.color,
            );
            0
        } else {
            plain_error(io, "No such resource instance", &detail)
        }
    };
    let Some(st) = state.as_mut().filter(|s| {
        s.resources
            .values()
            .any(|r| r.instances.values().any(|i| i.current.is_some()))
    }) else {
        return missing(io, "The state currently contains no resource instances whatsoever. This may occur if the configuration has never been applied or if it has recently been destroyed.".to_string());
    };
    let obj = st
        .resources
        .get_mut(&addr.containing_resource())
        .and_then(|r| r.instances.get_mut(&addr.resource.key))
        .and_then(|i| i.current.as_mut());
    let Some(obj) = obj else {
        // Terraform's wording, "tainted" for untaint too.
        return missing(io, format!("There is no resource instance in the state with the address {addr}. If the resource configuration has just been added, you must run \"ferro apply\" once to create the corresponding instance(s) before they can be tainted."));
    };
    if !on && !obj.tainted {
        return plain_error(
            io,
            "Resource instance is not tainted",
            &format!(
                "Resource instance {addr} is not currently tainted, and so it cannot be untainted."
            ),
        );
    }
    std::sync::Arc::make_mut(obj).tainted = on;
    // `-state-out`: the changed state is written there, the state read left as it was.
    if let Some(out) = p.value("state-out").filter(|s| !s.is_empty()) {
        backend = Box::new(ferro_state::LocalBackend::new(g.dir.join(out)));
    }
    if let Err(e) = backend.persist(st) {
        return plain_error(io, "Failed to write state", &e.to_string());
    }
    let done = if on {
        "has been marked as tainted"
    } else {
        "has been successfully untainted"
    };
    let _ = writeln!(io.stdout, "Resource instance {addr} {done}.");
    0
}
