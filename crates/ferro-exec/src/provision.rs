//! Provisioners, run after an object is created (or, with `when = destroy`, before it is
//! destroyed), their output shown line by line as Terraform shows it: `local-exec` here, a
//! command run on this machine; `file` and `remote-exec` in `provision/remote.rs`, over SSH with
//! the settings of the `connection` blocks (`provision/connection.rs`).

use crate::{Event, ProvisionPhase};
use ferro_addrs::{AbsResource, ModuleInstance, Target};
use ferro_db::SourceFile;
use ferro_diag::Diagnostic;
use ferro_hir::{Provisioner, ResourceDecl};
use ferro_runtime::scope::{EvalTree, InstanceCtx, ModuleEval};
use ferro_value::{Value, ValueKind};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

mod connection;
mod remote;

/// What Terraform shows instead of each piece of a provisioner's output when its
/// configuration holds a sensitive value.
pub(crate) const SUPPRESSED: &str = "(output suppressed due to sensitive value in config)";

/// Which provisioners to run.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum When {
    Create,
    Destroy,
}

/// Run the provisioners of `decl` for `when`, in order (`inst` binds `self` to the object).
/// Returns the diagnostics; an error means a provisioner failed with `on_failure = fail`.
pub(crate) fn run_provisioners(
    m: &ModuleEval<'_>,
    file: SourceFile,
    decl: &ResourceDecl,
    inst: &InstanceCtx,
    when: When,
    addr: &str,
    on_event: &(dyn Fn(Event) + Sync),
) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for p in decl
        .provisioners
        .iter()
        .filter(|p| p.when_destroy == (when == When::Destroy))
    {
        let phase = |phase| Event::Provision {
            addr: addr.to_string(),
            provisioner: p.kind.to_string(),
            phase,
        };
        on_event(phase(ProvisionPhase::Start));
        let result = match p.kind.as_str() {
            "local-exec" => run_local_exec(m, file, p, inst, addr, on_event),
            _ => remote::run(m, file, decl, p, inst, addr, on_event),
        };
        if let Err(d) = result {
            on_event(phase(ProvisionPhase::Errored));
            if p.on_failure_continue {
                continue;
            }
            diags.push(d);
            break;
        }
        on_event(phase(ProvisionPhase::Complete));
    }
    diags
}

/// The destroy-time provisioners of the `removed` block (OpenTofu 1.10) that destroys the
/// objects of `res`, a resource the configuration no longer declares: the module instance
/// that declares the block (the resource's own, or one around it that still exists), the
/// block's file, and the provisioners as a resource declaration of their own.
pub(crate) fn removed_provisioners<'a>(
    tree: &'a EvalTree<'a>,
    res: &AbsResource,
) -> Option<(ModuleEval<'a>, SourceFile, ResourceDecl)> {
    let steps = &res.module.0;
    for depth in (0..=steps.len()).rev() {
        let here = ModuleInstance(steps[..depth].to_vec().into());
        let Some(m) = tree.scope(&here) else {
            continue;
        };
        let below: Vec<&str> = steps[depth..].iter().map(|s| s.name.as_str()).collect();
        let found = m.index.removed.iter().find_map(|item| {
            let block = &m.hir(item.file).removed[item.index];
            let Target::Resource(r) = &block.from else {
                return None;
            };
            let names: Vec<&str> = r.module.0.iter().map(|s| s.name.as_str()).collect();
            (block.destroy && names == below && r.resource == res.resource)
                .then_some((item.file, block))
        });
        if let Some((file, block)) = found {
            let decl = ResourceDecl {
                addr: res.resource.clone(),
                span: block.span,
                body: Default::default(),
                count: None,
                for_each: None,
                enabled: None,
                depends_on: Vec::new(),
                provider: None,
                provider_key: None,
                lifecycle: Default::default(),
                provisioners: block.provisioners.clone(),
                connection: None,
                check: None,
            };
            return Some((m, file, decl));
        }
    }
    None
}

/// The provisioner's arguments, evaluated.
struct LocalExec {
    command: String,
    interpreter: Vec<String>,
    environment: Vec<(String, String)>,
    working_dir: Option<String>,
    quiet: bool,
    /// The configuration holds a sensitive value: its output is not shown.
    sensitive: bool,
}

fn evaluate(
    m: &ModuleEval<'_>,
    file: SourceFile,
    p: &Provisioner,
    inst: &InstanceCtx,
) -> Result<LocalExec, Diagnostic> {
    let mut out = LocalExec {
        command: String::new(),
        interpreter: vec!["/bin/sh".into(), "-c".into()],
        environment: Vec::new(),
        working_dir: None,
        quiet: false,
        sensitive: false,
    };
    for a in &p.body.attrs {
        let (v, ds) = m.eval(file, a.expr, inst);
        if let Some(d) = ds.into_iter().find(Diagnostic::is_error) {
            return Err(d);
        }
        let (v, marks) = v.deep_unmark();
        out.sensitive |= !marks.is_empty();
        let invalid = || {
            Diagnostic::error("invalid-provisioner-argument", "Invalid provisioner argument")
                .with_detail(format!(
                    "The value of {:?} for the local-exec provisioner has the wrong type or is not known.",
                    a.name
                ))
                .with_span(m.hir(file).at(a.span))
        };
        match a.name.as_str() {
            "command" => out.command = string_of(&v).ok_or_else(invalid)?,
            "working_dir" => out.working_dir = Some(string_of(&v).ok_or_else(invalid)?),
            "quiet" => out.quiet = v.as_bool().ok_or_else(invalid)?,
            "interpreter" => {
                let items = match &v.kind {
                    ValueKind::List(_, es) | ValueKind::Tuple(es) => es.iter().collect::<Vec<_>>(),
                    _ => return Err(invalid()),
                };
                out.interpreter = items
                    .into_iter()
                    .map(string_of)
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(invalid)?;
            }
            "environment" => {
                let entries = v.as_entries().ok_or_else(invalid)?;
                for (k, ev) in entries.iter() {
                    out.environment
                        .push((k.to_string(), string_of(ev).ok_or_else(invalid)?));
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// A string, or a number or bool written as a string (Terraform converts them).
fn string_of(v: &Value) -> Option<String> {
    let s = ferro_value::convert::convert(v, &ferro_value::Type::String).ok()?;
    s.as_str().map(str::to_string)
}

fn run_local_exec(
    m: &ModuleEval<'_>,
    file: SourceFile,
    p: &Provisioner,
    inst: &InstanceCtx,
    addr: &str,
    on_event: &(dyn Fn(Event) + Sync),
) -> Result<(), Diagnostic> {
    let failed = |detail: String| {
        Diagnostic::error("provisioner-failed", "local-exec provisioner error")
            .with_detail(detail)
            .with_span(m.hir(file).at(p.span))
            .with_address(addr.to_string())
    };
    let le = evaluate(m, file, p, inst).map_err(|d| d.with_address(addr.to_string()))?;
    let Some((program, args)) = le.interpreter.split_first() else {
        return Err(failed("The interpreter must name a program.".into()));
    };
    let shown: Vec<String> = le
        .interpreter
        .iter()
        .chain(std::iter::once(&le.command))
        .map(|s| format!("{s:?}"))
        .collect();
    let say = |line: String| {
        let line = if le.sensitive {
            SUPPRESSED.to_string()
        } else {
            line
        };
        on_event(Event::Provision {
            addr: addr.to_string(),
            provisioner: "local-exec".to_string(),
            phase: ProvisionPhase::Output(line),
        })
    };
    if le.quiet {
        say("(output suppressed)".to_string());
    } else {
        say(format!("Executing: [{}]", shown.join(" ")));
    }
    let mut cmd = Command::new(program);
    cmd.args(args)
        .arg(&le.command)
        .envs(le.environment.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(dir) = &le.working_dir {
        let base = std::path::Path::new(m.cwd());
        cmd.current_dir(base.join(dir));
    } else if !m.cwd().is_empty() {
        cmd.current_dir(m.cwd());
    }
    // In a process group of its own, watched by a guardian: neither the command nor anything
    // it starts outlives ferro, and a stop ends it (ferro_provider::process).
    let mut child = ferro_provider::process::own_group(&mut cmd)
        .spawn()
        .map_err(|e| {
            failed(format!(
                "Error running command '{}': {e}. Output: ",
                le.command
            ))
        })?;
    let guard = match ferro_provider::process::Guard::watch(
        child.id(),
        ferro_provider::process::Kind::Command,
    ) {
        Ok(g) => g,
        Err(e) => {
            let _ = child.kill();
            let _ = child.wait();
            return Err(failed(format!(
                "Error running command '{}': cannot watch it: {e}.",
                le.command
            )));
        }
    };
    // Both streams are shown as they come, interleaved line by line.
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let mut readers = Vec::new();
    for stream in [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn std::io::Read + Send>),
    ]
    .into_iter()
    .flatten()
    {
        let tx = tx.clone();
        readers.push(std::thread::spawn(move || {
            for line in BufReader::new(stream).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let mut output = String::new();
    for line in rx {
        output.push_str(&line);
        output.push('\n');
        if !le.quiet {
            say(line.clone());
        }
    }
    for r in readers {
        let _ = r.join();
    }
    let status = child
        .wait()
        .map_err(|e| failed(format!("Error waiting for command '{}': {e}.", le.command)))?;
    guard.release();
    if !status.success() {
        let code = status
            .code()
            .map(|c| format!("exit status {c}"))
            .unwrap_or_else(|| "terminated by a signal".into());
        return Err(failed(format!(
            "Error running command '{}': {code}. Output: {output}",
            le.command
        )));
    }
    Ok(())
}
