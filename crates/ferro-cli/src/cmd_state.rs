//! `ferro state list|show|mv|rm|pull|push|replace-provider`: reading and editing the state
//! directly. Every command that writes takes the state lock; all keep Terraform's texts.

use crate::{args, spec, Global, Io};
use ferro_addrs::{parse_target, AbsResource, AbsResourceInstance, ModuleInstance, Target};
use ferro_diag::Diagnostic;
use ferro_provider::ProviderRegistry;
use ferro_state::{Backend, State};
use std::io::{BufRead, Read};

const NO_STATE: &str = "No state file was found!\n\nState management commands require a state file. Run this command\nin a directory where ferro has been run or use the -state flag\nto point the command to a specific state location.\n";

fn diag(io: &mut Io<'_>, summary: &str, detail: &str) -> i32 {
    let d = Diagnostic::error("state", summary).with_detail(detail);
    let text = ferro_diag::render(&[d], &ferro_db::Sources::from_files(Vec::new()), false);
    let _ = io.stderr.write_all(text.as_bytes());
    1
}

fn usage(io: &mut Io<'_>, text: &str, why: &str) -> i32 {
    let _ = write!(io.stderr, "{text}{why}\n\n");
    1
}

pub fn state(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let rest = a.get(1..).unwrap_or(&[]);
    let sub = a.first().map(String::as_str);
    let Some(sub_spec) = sub.and_then(spec::state::subcommand) else {
        return match sub {
            Some(other) => diag(
                io,
                "Unknown state subcommand",
                &format!("ferro state has no subcommand {other:?}; available: list, mv, pull, push, replace-provider, rm, show."),
            ),
            None => {
                let _ = io.stdout.write_all(spec::state::STATE.help.as_bytes());
                0
            }
        };
    };
    // Each subcommand accepts only its own flags, as in Terraform.
    let p = match sub_spec.parse(rest) {
        Ok(p) => p,
        Err(e) => return diag(io, "Invalid arguments", &e),
    };
    match sub {
        Some("list") => list(g, &p, io),
        Some("show") => show(g, &p, io),
        Some("mv") => mv(g, &p, io),
        Some("rm") => rm(g, &p, io),
        Some("pull") => pull(g, &p, io),
        Some("push") => push(g, &p, io),
        _ => replace_provider(g, &p, io),
    }
}

/// Read the state without locking (list, show, pull). None: no state file.
fn read_only(g: &Global, p: &args::Parsed, io: &mut Io<'_>) -> Result<Option<State>, i32> {
    crate::backend::read(g, p, io)
}

/// Lock and load the state for a command that writes it.
fn locked(
    g: &Global,
    p: &args::Parsed,
    operation: &str,
    io: &mut Io<'_>,
) -> Result<(Box<dyn Backend>, Option<State>), i32> {
    let (mut backend, display) = crate::backend::open(g, p, io)?;
    backend.set_errored_dir(g.dir.clone());
    crate::cmd_lock::take(backend.as_mut(), p, operation, &display, io)?;
    let state = backend
        .load()
        .map_err(|e| diag(io, "Failed to load state", &e.0))?;
    Ok((backend, state))
}

fn save(backend: &mut dyn Backend, state: &mut State, io: &mut Io<'_>) -> Result<(), i32> {
    state.prune();
    backend
        .persist(state)
        .map_err(|e| diag(io, "Failed to persist state", &e.0))
}

/// Every resource instance with a current or deposed object, in Terraform's listing order.
fn instances(state: &State) -> Vec<AbsResourceInstance> {
    let mut out: Vec<AbsResourceInstance> = state
        .resources
        .values()
        .flat_map(|rs| rs.instances.keys().map(|k| rs.addr.instance(k.clone())))
        .collect();
    out.sort();
    out
}

fn parse(io: &mut Io<'_>, text: &str) -> Result<Target, i32> {
    parse_target(text).map_err(|e| diag(io, "Invalid address", &e))
}

fn list(g: &Global, p: &args::Parsed, io: &mut Io<'_>) -> i32 {
    let state = match read_only(g, p, io) {
        Ok(Some(s)) => s,
        Ok(None) => {
            let _ = io.stderr.write_all(NO_STATE.as_bytes());
            return 1;
        }
        Err(code) => return code,
    };
    let mut filters = Vec::new();
    for f in &p.positional {
        match parse(io, f) {
            Ok(t) => filters.push(t),
            Err(code) => return code,
        }
    }
    let all = instances(&state);
    // `-id=ID`: only the instances whose object has an `id` attribute of that value are
    // printed (an address naming a resource in state is no error when none of its match).
    let shown = |a: &AbsResourceInstance| match p.value("id") {
        None => true,
        Some(id) => state
            .resources
            .get(&a.containing_resource())
            .and_then(|rs| rs.instances.get(&a.resource.key))
            .and_then(|i| i.current.as_ref())
            .is_some_and(|o| o.attributes.json().get("id").and_then(|v| v.as_str()) == Some(id)),
    };
    let mut out = String::new();
    if filters.is_empty() {
        for a in all.iter().filter(|a| shown(a)) {
            out.push_str(&format!("{a}\n"));
        }
    }
    for f in &filters {
        let hits: Vec<&AbsResourceInstance> = all.iter().filter(|a| f.contains(a)).collect();
        if hits.is_empty() {
            let _ = io.stdout.write_all(out.as_bytes());
            // Terraform's three errors, by what the address names.
            return match f {
                Target::Module(_) => diag(io, "Unknown module", &format!("The current state contains no module at {f}. If you've just added this module to the configuration, you must run \"ferro apply\" first to create the module's entry in the state.")),
                Target::Resource(_) => diag(io, "Unknown resource", &format!("The current state contains no resource {f}. If you've just added this resource to the configuration, you must run \"ferro apply\" first to create the resource's entry in the state.")),
                Target::Instance(_) => diag(io, "Unknown resource instance", &format!("The current state contains no resource instance {f}. If you've just added its resource to the configuration or have changed the count or for_each arguments, you must run \"ferro apply\" first to update the resource's entry in the state.")),
            };
        }
        for a in hits.into_iter().filter(|a| shown(a)) {
            out.push_str(&format!("{a}\n"));
        }
    }
    let _ = io.stdout.write_all(out.as_bytes());
    0
}

fn show(g: &Global, p: &args::Parsed, io: &mut Io<'_>) -> i32 {
    let [addr] = p.positional.as_slice() else {
        let _ = write!(
            io.stderr,
            "Exactly one argument expected.\n\n{}",
            spec::state::SHOW.help
        );
        return 1;
    };
    let target = match parse(io, addr) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let state = match read_only(g, p, io) {
        Ok(Some(s)) => s,
        Ok(None) => {
            let _ = io.stderr.write_all(NO_STATE.as_bytes());
            return 1;
        }
        Err(code) => return code,
    };
    let found = match &target {
        Target::Instance(i) => state
            .resources
            .get(&i.containing_resource())
            .and_then(|rs| Some((rs, rs.instances.get(&i.resource.key)?))),
        Target::Resource(r) => state.resources.get(r).and_then(|rs| {
            rs.instances
                .get(&ferro_addrs::InstanceKey::None)
                .map(|i| (rs, i))
        }),
        Target::Module(_) => None,
    };
    let Some((rs, inst)) = found.filter(|(_, i)| i.current.is_some()) else {
        let _ = write!(io.stderr, "No instance found for the given address!\n\nThis command requires that the address references one specific instance.\nTo view the available instances, use \"ferro state list\". Please modify \nthe address to reference a specific instance.\n");
        return 1;
    };
    let key = match &target {
        Target::Instance(i) => i.resource.key.clone(),
        _ => ferro_addrs::InstanceKey::None,
    };
    let mut one = State::new(state.lineage.clone());
    let mut single = rs.clone();
    single.instances = [(key, inst.clone())].into_iter().collect();
    one.resources.insert(rs.addr.clone(), single);
    let files = crate::load::read_config_files(&g.dir).unwrap_or_default();
    let mut l = crate::load::load_files(files);
    let registry = ProviderRegistry::for_working_dir(&g.dir);
    let (providers, _) = crate::load::attach_providers(&mut l, &registry, Some(&one));
    let text = crate::render::human_state(&one, &providers, g.color);
    registry.close_all();
    let _ = writeln!(io.stdout, "{}", text.trim_end());
    0
}

/// Replace the leading `from` steps of `m` with `to`.
fn rebase(m: &ModuleInstance, from: &ModuleInstance, to: &ModuleInstance) -> ModuleInstance {
    let mut steps = to.0.to_vec();
    steps.extend(m.0[from.0.len()..].iter().cloned());
    ModuleInstance(steps.into())
}

fn mv(g: &Global, p: &args::Parsed, io: &mut Io<'_>) -> i32 {
    let [src_text, dst_text] = p.positional.as_slice() else {
        return usage(io, spec::state::MV.help, "Exactly two arguments expected.");
    };
    let (src, dst) = match (parse(io, src_text), parse(io, dst_text)) {
        (Ok(s), Ok(d)) => (s, d),
        (Err(c), _) | (_, Err(c)) => return c,
    };
    let (mut backend, state) = match locked(g, p, "state-mv", io) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut state = state.unwrap_or_else(|| State::new(ferro_state::new_lineage()));
    let all = instances(&state);
    // `-state-out`: the objects go to another local state file (created when missing), as in
    // Terraform; without it, or naming the state read, they stay in the same state.
    let mut out = match state_out(g, p, io) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let target_all = match &out {
        Some((_, dest)) => instances(dest),
        None => all.clone(),
    };
    // A resource without count or for_each moved to an instance address is that one instance.
    let src = match (src, &dst) {
        (Target::Resource(r), Target::Instance(_))
            if state
                .resources
                .get(&r)
                .is_some_and(|rs| rs.instances.keys().all(|k| k.is_none())) =>
        {
            Target::Instance(r.instance(ferro_addrs::InstanceKey::None))
        }
        (src, _) => src,
    };
    // A module source names one module instance exactly, as in Terraform: `module.a` is not
    // `module.a[0]` here (unlike `state list` or `-target`, where it covers every instance).
    let moved = |a: &AbsResourceInstance| match &src {
        Target::Module(m) => {
            a.module.0.len() >= m.0.len() && m.0.iter().zip(a.module.0.iter()).all(|(x, y)| x == y)
        }
        _ => src.contains(a),
    };
    if !all.iter().any(&moved) {
        if p.flag("dry-run") {
            let _ = writeln!(io.stdout, "Would have moved nothing.");
            return 0;
        }
        let _ = writeln!(io.stdout, "No matching objects found.");
        return diag(
            io,
            "Invalid source address",
            &format!("Cannot move {src}: does not match anything in the current state."),
        );
    }
    let occupied = |t: &Target| target_all.iter().any(|a| t.contains(a));
    // Work out the resources to move and where each goes.
    let mut moves: Vec<(
        AbsResource,
        Option<ferro_addrs::InstanceKey>,
        AbsResourceInstance,
    )> = Vec::new();
    match (&src, &dst) {
        (Target::Module(from), Target::Module(to)) => {
            if occupied(&dst) {
                return diag(io, "Invalid target address", &format!("Cannot move to {dst}: there is already a module instance at that address\nin the current state."));
            }
            for a in all.iter().filter(|a| moved(a)) {
                let mut to_addr = a.clone();
                to_addr.module = rebase(&a.module, from, to);
                moves.push((
                    a.containing_resource(),
                    Some(a.resource.key.clone()),
                    to_addr,
                ));
            }
        }
        (Target::Resource(from), Target::Resource(_) | Target::Module(_)) => {
            let to = match &dst {
                Target::Resource(r) => r.clone(),
                _ => AbsResource {
                    module: dst.module().clone(),
                    resource: from.resource.clone(),
                },
            };
            if to.resource.ty != from.resource.ty || to.resource.mode != from.resource.mode {
                return diag(io, "Invalid state move request", &format!("Cannot move {from} to {to}: resource types don't match."));
            }
            if target_all.iter().any(|a| a.containing_resource() == to) {
                return diag(io, "Invalid target address", &format!("Cannot move to {to}: there is already a resource at that address\nin the current state."));
            }
            for a in all.iter().filter(|a| src.contains(a)) {
                moves.push((
                    from.clone(),
                    Some(a.resource.key.clone()),
                    to.instance(a.resource.key.clone()),
                ));
            }
        }
        (Target::Instance(from), Target::Instance(_) | Target::Resource(_)) => {
            let to = match &dst {
                Target::Instance(i) => i.clone(),
                // An instance moved to a resource address becomes its single instance.
                _ => AbsResource {
                    module: dst.module().clone(),
                    resource: match &dst {
                        Target::Resource(r) => r.resource.clone(),
                        _ => from.resource.resource.clone(),
                    },
                }
                .instance(ferro_addrs::InstanceKey::None),
            };
            if to.resource.resource.ty != from.resource.resource.ty
                || to.resource.resource.mode != from.resource.resource.mode
            {
                return diag(io, "Invalid state move request", &format!("Cannot move {from} to {to}: resource types don't match."));
            }
            if target_all.contains(&to) {
                return diag(io, "Invalid target address", &format!("Cannot move to {to}: there is already a resource instance at that address\nin the current state."));
            }
            moves.push((
                from.containing_resource(),
                Some(from.resource.key.clone()),
                to,
            ));
        }
        _ => {
            return diag(
                io,
                "Invalid state move request",
                &format!("Cannot move {src} to {dst}: the source and destination must both be modules, both resources, or both resource instances."),
            )
        }
    }
    let verb = if p.flag("dry-run") {
        "Would move"
    } else {
        "Move"
    };
    // A module moves with the module instances inside it: Terraform names each one it moves
    // (ferro the named one first, then the others in address order) and counts them.
    let lines: Vec<(String, String)> = match (&src, &dst) {
        (Target::Module(from), Target::Module(to)) => {
            let mut inner: Vec<&ferro_addrs::ModuleInstance> = all
                .iter()
                .filter(|a| moved(a) && a.module != *from)
                .map(|a| &a.module)
                .collect();
            inner.sort();
            inner.dedup();
            std::iter::once((src.to_string(), dst.to_string()))
                .chain(
                    inner
                        .into_iter()
                        .map(|m| (m.to_string(), rebase(m, from, to).to_string())),
                )
                .collect()
        }
        _ => vec![(src.to_string(), dst.to_string())],
    };
    for (a, b) in &lines {
        let _ = writeln!(io.stdout, "{verb} {a:?} to {b:?}");
    }
    if p.flag("dry-run") {
        return 0;
    }
    for (res, key, to) in moves {
        let Some(rs) = state.resources.get_mut(&res) else {
            continue;
        };
        let provider = rs.provider.clone();
        let provider_key = key.as_ref().and_then(|k| rs.provider_keys.remove(k));
        let Some(inst) = key.and_then(|k| rs.instances.remove(&k)) else {
            continue;
        };
        let dest = match &mut out {
            Some((_, dest)) => dest,
            None => &mut state,
        };
        let entry = dest
            .resources
            .entry(to.containing_resource())
            .or_insert_with(|| ferro_state::ResourceState {
                addr: to.containing_resource(),
                provider,
                instances: Default::default(),
                provider_keys: Default::default(),
            });
        entry.instances.insert(to.resource.key.clone(), inst);
        if let Some(k) = provider_key {
            entry.provider_keys.insert(to.resource.key.clone(), k);
        }
    }
    // Objects that recorded a dependency on what moved forget all their dependencies (the next
    // apply records them again), as Terraform 1.0.3's `state mv` does in the state moved into.
    forget_dependencies_on(
        match &mut out {
            Some((_, dest)) => dest,
            None => &mut state,
        },
        &src,
    );
    // The destination is written first: an interruption then leaves the objects in both
    // states rather than in neither.
    if let Some((dest_backend, dest)) = &mut out {
        if let Err(code) = save(dest_backend.as_mut(), dest, io) {
            return code;
        }
    }
    if let Err(code) = save(backend.as_mut(), &mut state, io) {
        return code;
    }
    let _ = writeln!(io.stdout, "Successfully moved {} object(s).", lines.len());
    0
}

/// Clear the dependencies of every current object in `state` that depends on what `src` names:
/// its resource (whatever the instance keys of either), or any resource under a module given
/// with no instance key at any step. Terraform 1.0.3 matches a module with a key (`module.a[0]`)
/// against no dependency, since dependencies carry no keys.
fn forget_dependencies_on(state: &mut State, src: &Target) {
    let path = |m: &ModuleInstance| -> String {
        m.0.iter().map(|s| format!("module.{}.", s.name)).collect()
    };
    let (text, prefix) = match src {
        Target::Resource(r) => (format!("{}{}", path(&r.module), r.resource), false),
        Target::Instance(i) => (format!("{}{}", path(&i.module), i.resource.resource), false),
        Target::Module(m) if m.0.iter().all(|s| s.key.is_none()) => (path(m), true),
        Target::Module(_) => return,
    };
    let hit = |d: &String| {
        if prefix {
            d.starts_with(&text)
        } else {
            *d == text
        }
    };
    for rs in state.resources.values_mut() {
        for inst in rs.instances.values_mut() {
            if let Some(cur) = &mut inst.current {
                if cur.dependencies.iter().any(hit) {
                    std::sync::Arc::make_mut(cur).dependencies = Default::default();
                }
            }
        }
    }
}

/// The destination of `state mv -state-out=FILE`, locked and loaded (a new state when the file
/// does not exist yet): None without the flag, or when it names the state being read.
#[allow(clippy::type_complexity)]
fn state_out(
    g: &Global,
    p: &args::Parsed,
    io: &mut Io<'_>,
) -> Result<Option<(Box<dyn Backend>, State)>, i32> {
    let Some(out) = p.value("state-out").filter(|s| !s.is_empty()) else {
        return Ok(None);
    };
    let source = match p.value("state") {
        Some(s) => g.dir.join(s),
        None => match crate::backend::location_or_report(g, io)? {
            crate::backend::Location::Local(layout) => g
                .dir
                .join(layout.state_rel(&ferro_state::workspace::current_workspace(&g.dir))),
            _ => std::path::PathBuf::new(),
        },
    };
    let path = g.dir.join(out);
    let same = path == source
        || matches!((path.canonicalize(), source.canonicalize()), (Ok(a), Ok(b)) if a == b);
    if same {
        return Ok(None);
    }
    let mut backend: Box<dyn Backend> = Box::new(ferro_state::LocalBackend::new(path));
    backend.set_errored_dir(g.dir.clone());
    crate::cmd_lock::take(backend.as_mut(), p, "state-mv", out, io)?;
    let state = backend
        .load()
        .map_err(|e| diag(io, "Failed to load state", &e.0))?
        .unwrap_or_else(|| State::new(ferro_state::new_lineage()));
    Ok(Some((backend, state)))
}

fn rm(g: &Global, p: &args::Parsed, io: &mut Io<'_>) -> i32 {
    if p.positional.is_empty() {
        return usage(
            io,
            spec::state::RM.help,
            "At least one address is required.",
        );
    }
    let mut targets = Vec::new();
    for t in &p.positional {
        match parse(io, t) {
            Ok(t) => targets.push(t),
            Err(code) => return code,
        }
    }
    let (mut backend, state) = match locked(g, p, "state-rm", io) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let Some(mut state) = state else {
        let _ = io.stderr.write_all(NO_STATE.as_bytes());
        return 1;
    };
    let all = instances(&state);
    let mut doomed: Vec<AbsResourceInstance> = Vec::new();
    for t in &targets {
        let hits: Vec<&AbsResourceInstance> = all.iter().filter(|a| t.contains(a)).collect();
        // A dry run that matches nothing says so (below) and succeeds, as Terraform's does.
        if hits.is_empty() && !p.flag("dry-run") {
            return diag(io, "Invalid target address", "No matching objects found. To view the available instances, use \"ferro\nstate list\". Please modify the address to reference a specific instance.");
        }
        for h in hits {
            if !doomed.contains(h) {
                doomed.push(h.clone());
            }
        }
    }
    let dry = p.flag("dry-run");
    for d in &doomed {
        let verb = if dry { "Would remove" } else { "Removed" };
        let _ = writeln!(io.stdout, "{verb} {d}");
        if let Some(rs) = state.resources.get_mut(&d.containing_resource()) {
            rs.instances.remove(&d.resource.key);
        }
    }
    if dry {
        if doomed.is_empty() {
            let _ = writeln!(io.stdout, "Would have removed nothing.");
        }
        return 0;
    }
    if let Err(code) = save(backend.as_mut(), &mut state, io) {
        return code;
    }
    let _ = writeln!(
        io.stdout,
        "Successfully removed {} resource instance(s).",
        doomed.len()
    );
    0
}

fn pull(g: &Global, p: &args::Parsed, io: &mut Io<'_>) -> i32 {
    match read_only(g, p, io) {
        Ok(Some(s)) => {
            let _ = io.stdout.write_all(ferro_state::write_state(&s).as_bytes());
            0
        }
        Ok(None) => 0,
        Err(code) => code,
    }
}

fn push(g: &Global, p: &args::Parsed, io: &mut Io<'_>) -> i32 {
    let [file] = p.positional.as_slice() else {
        return usage(
            io,
            spec::state::PUSH.help,
            "Exactly one argument expected: path to state to push",
        );
    };
    let bytes = if file == "-" {
        let mut buf = Vec::new();
        let read = match io.stdin.as_mut() {
            Some(input) => input.read_to_end(&mut buf),
            None => std::io::stdin().lock().read_to_end(&mut buf),
        };
        if let Err(e) = read {
            let _ = writeln!(io.stderr, "Error reading standard input: {e}");
            return 1;
        }
        buf
    } else {
        match std::fs::read(g.dir.join(file)) {
            Ok(b) => b,
            Err(e) => {
                let _ = writeln!(io.stderr, "open {file}: {e}");
                return 1;
            }
        }
    };
    // An encrypted state file is read with the state's encryption (and a file in clear only
    // when the unencrypted method is configured, as OpenTofu's push).
    let bytes = match crate::encryption::configured(g, io) {
        Err(code) => return code,
        Ok(enc) => match enc.and_then(|e| e.state.clone()) {
            None => bytes,
            Some(enc) => match enc.decrypt_state(&bytes) {
                Ok((plain, _)) => plain,
                Err(e) => {
                    let _ = writeln!(io.stderr, "Error reading source state {file:?}: {e}");
                    return 1;
                }
            },
        },
    };
    let mut incoming = match ferro_state::read_state(&bytes) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(io.stderr, "Error reading source state {file:?}: {e}");
            return 1;
        }
    };
    let (mut backend, current) = match locked(g, p, "state-push", io) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if let Some(cur) = current.as_ref().filter(|c| !c.is_empty()) {
        if !p.flag("force") {
            if incoming.lineage != cur.lineage {
                let _ = writeln!(io.stderr, "Failed to write state: cannot import state with lineage {:?} over unrelated state with lineage {:?}", incoming.lineage, cur.lineage);
                return 1;
            }
            if incoming.serial < cur.serial {
                let _ = writeln!(io.stderr, "Failed to write state: cannot import state with serial {} over newer state with serial {}", incoming.serial, cur.serial);
                return 1;
            }
        }
    }
    if let Err(e) = backend.persist(&mut incoming) {
        let _ = writeln!(io.stderr, "Failed to write state: {e}");
        return 1;
    }
    0
}

fn replace_provider(g: &Global, p: &args::Parsed, io: &mut Io<'_>) -> i32 {
    let [from_text, to_text] = p.positional.as_slice() else {
        return usage(
            io,
            spec::state::REPLACE_PROVIDER.help,
            "Exactly two arguments expected.",
        );
    };
    let host = match ferro_provider::install::lock::default_registry(&g.dir) {
        Ok(h) => h,
        Err(e) => return diag(io, "Invalid environment", &e),
    };
    let from = match ferro_addrs::Provider::parse_source_in(from_text, host) {
        Ok(p) => p,
        Err(e) => return diag(io, &format!("Invalid \"from\" provider {from_text:?}"), &e),
    };
    let to = match ferro_addrs::Provider::parse_source_in(to_text, host) {
        Ok(p) => p,
        Err(e) => return diag(io, &format!("Invalid \"to\" provider {to_text:?}"), &e),
    };
    let (mut backend, state) = match locked(g, p, "state-replace-provider", io) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let Some(mut state) = state else {
        let _ = io.stderr.write_all(NO_STATE.as_bytes());
        return 1;
    };
    let hits: Vec<AbsResource> = state
        .resources
        .values()
        .filter(|rs| rs.provider.provider == from)
        .map(|rs| rs.addr.clone())
        .collect();
    if hits.is_empty() {
        let _ = writeln!(io.stdout, "No matching resources found.");
        return 0;
    }
    let mut text = format!(
        "ferro will perform the following actions:\n\n  ~ Updating provider:\n    - {from}\n    + {to}\n\nChanging {} resources:\n\n",
        hits.len()
    );
    for h in &hits {
        text.push_str(&format!("  {h}\n"));
    }
    let _ = writeln!(io.stdout, "{text}");
    if !p.flag("auto-approve") {
        let _ = write!(io.stdout, "Do you want to make these changes?\nOnly 'yes' will be accepted to continue.\n\nEnter a value: ");
        let _ = io.stdout.flush();
        let mut line = String::new();
        match io.stdin.as_mut() {
            Some(input) => {
                let _ = input.read_line(&mut line);
            }
            None => {
                let _ = std::io::stdin().lock().read_line(&mut line);
            }
        }
        let _ = writeln!(io.stdout);
        if line.trim() != "yes" {
            let _ = writeln!(io.stdout, "Cancelled replacing providers.");
            return 1;
        }
    }
    for h in &hits {
        if let Some(rs) = state.resources.get_mut(h) {
            rs.provider.provider = to.clone();
        }
    }
    if let Err(code) = save(backend.as_mut(), &mut state, io) {
        return code;
    }
    let _ = writeln!(
        io.stdout,
        "Successfully replaced provider for {} resources.",
        hits.len()
    );
    0
}
