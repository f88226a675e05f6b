//! `cargo xtask bench scale`: ferro at 2 000 to 100 000 resource instances in four shapes
//! (`flat`, `chain`, `layers`, `modules`; `layers-join` on request, to 10 000), every
//! phase (a fresh plan, an apply, a no-op re-plan, a destroy), beside Terraform 1.0.3 (for the
//! sizes it finishes in reasonable time) and beside the RPC floor: the same provider calls made
//! by `ferro-bench rpc-floor` with no core work around them.
//!
//! For each run: wall time, CPU time (the tool and the provider processes it waited for), the
//! tool's peak resident memory, and ferro's provider calls (`FERRO_RPC_STATS`). For the first
//! size of each shape Terraform also runs once more with `TF_LOG=trace` (untimed), and a second
//! table sets the calls per instance of every method beside Terraform's (its trace log names
//! each call as `GRPCProvider: METHOD`).
//!
//! The phase `replan-min` is ferro's `plan -minimal-refresh` beside Terraform's nearest,
//! `plan -refresh=false` (which reads nothing at all).

use crate::interop::{Env, Tool};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::bench_providers::HEADER;

/// A generated configuration and how its instances fall into dependency waves (for the floor).
struct Shape {
    name: &'static str,
    files: Vec<(String, String)>,
    /// Waves of instances: every instance of a wave waits for the whole wave before it.
    layers: usize,
    width: usize,
    /// How long the string each instance carries in `triggers` is, about (the floor's calls
    /// carry strings as long: the provider's cost grows with them).
    value_bytes: usize,
}

fn resource(name: &str, count: usize, prev: Option<String>) -> String {
    let mut s = format!("\nresource \"null_resource\" \"{name}\" {{\n  count = {count}\n");
    match prev {
        Some(p) => s.push_str(&format!("  triggers = {{\n    prev = {p}\n  }}\n")),
        None => s.push_str("  triggers = {\n    i = count.index\n  }\n"),
    }
    s.push_str("}\n");
    s
}

/// One counted resource of `n` instances.
fn flat(n: usize) -> Shape {
    Shape {
        name: "flat",
        files: vec![(
            "main.tf".into(),
            format!("{HEADER}{}", resource("r", n, None)),
        )],
        layers: 1,
        width: n,
        value_bytes: 4,
    }
}

/// 100 links, each waiting for the one before (its instances refer to the previous link's
/// instance of the same index). Terraform records every transitive dependency of an object
/// in state, so state grows with the number of links times the instances: the number of
/// links is fixed and the links widen with the size.
fn chain(n: usize) -> Shape {
    let links = 100;
    let width = n / links;
    let mut s = HEADER.to_string();
    for i in 0..links {
        let prev = (i > 0).then(|| format!("null_resource.c{}[count.index].id", i - 1));
        s.push_str(&resource(&format!("c{i}"), width, prev));
    }
    Shape {
        name: "chain",
        files: vec![("main.tf".into(), s)],
        layers: links,
        width,
        value_bytes: 19,
    }
}

/// 10 layers, each instance waiting for the whole layer before it: it carries that layer's
/// instance count, a value read from the resource as a whole (every instance of it), so each
/// layer is applied after the one before. State stays linear in the instances.
fn layers(n: usize) -> Shape {
    layered(
        n,
        "layers",
        |prev| format!("length(null_resource.{prev})"),
        4,
    )
}

/// `layers`, each instance carrying the ids of the whole layer before it, joined: state grows
/// with the square of a layer's width (for any tool), so this shape stops at 10 000 instances.
fn layers_join(n: usize) -> Shape {
    // `n / 10` ids of 19 digits, joined with commas.
    layered(
        n,
        "layers-join",
        |prev| format!("join(\",\", null_resource.{prev}[*].id)"),
        n / 10 * 20,
    )
}

fn layered(
    n: usize,
    name: &'static str,
    prev_value: impl Fn(&str) -> String,
    value_bytes: usize,
) -> Shape {
    let width = n / 10;
    let mut s = HEADER.to_string();
    for i in 0..10 {
        let prev = (i > 0).then(|| prev_value(&format!("l{}", i - 1)));
        s.push_str(&resource(&format!("l{i}"), width, prev));
    }
    Shape {
        name,
        files: vec![("main.tf".into(), s)],
        layers: 10,
        width,
        value_bytes,
    }
}

/// 20 instances of a group module, each calling a leaf module for 10 keys; each leaf holds
/// `n / 200` instances (220 module instances).
fn modules(n: usize) -> Shape {
    let per_leaf = n / 200;
    let root = format!(
        "{HEADER}\nmodule \"group\" {{\n  source = \"./modules/group\"\n  count  = 20\n  name   = \"g${{count.index}}\"\n}}\n\noutput \"leaves\" {{\n  value = length(flatten(module.group[*].ids))\n}}\n"
    );
    let group = "variable \"name\" {\n  type = string\n}\n\nmodule \"leaf\" {\n  source   = \"../leaf\"\n  for_each = toset([\"k0\", \"k1\", \"k2\", \"k3\", \"k4\", \"k5\", \"k6\", \"k7\", \"k8\", \"k9\"])\n  prefix   = \"${var.name}-${each.key}\"\n}\n\noutput \"ids\" {\n  value = flatten([for k, l in module.leaf : l.ids])\n}\n".to_string();
    let leaf = format!(
        "variable \"prefix\" {{\n  type = string\n}}\n\nresource \"null_resource\" \"r\" {{\n  count = {per_leaf}\n  triggers = {{\n    name = \"${{var.prefix}}-${{count.index}}\"\n  }}\n}}\n\noutput \"ids\" {{\n  value = null_resource.r[*].id\n}}\n"
    );
    Shape {
        name: "modules",
        files: vec![
            ("main.tf".into(), root),
            ("modules/group/main.tf".into(), group),
            ("modules/leaf/main.tf".into(), leaf),
        ],
        layers: 1,
        width: n,
        value_bytes: 12,
    }
}

fn shape(name: &str, n: usize) -> Option<Shape> {
    match name {
        "flat" => Some(flat(n)),
        "chain" => Some(chain(n)),
        "layers" => Some(layers(n)),
        "layers-join" if n <= 10_000 => Some(layers_join(n)),
        "modules" => Some(modules(n)),
        _ => None,
    }
}

/// One measured command.
#[derive(Default, Clone)]
struct Run {
    wall: Duration,
    cpu: Duration,
    rss_kb: u64,
    rpcs: u64,
    /// Provider calls by method (protocol-6 names).
    calls: BTreeMap<String, u64>,
}

/// Clock ticks per second of /proc's CPU figures (Linux's USER_HZ, 100 on every platform ferro
/// builds for).
const TICKS: f64 = 100.0;

/// CPU time of this process's waited-for children so far (fields 16 and 17 of /proc/self/stat).
fn children_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let fields: Vec<&str> = after.split_whitespace().collect();
    // After the command name, field 3 (state) is index 0: cutime is field 16, cstime 17.
    let get = |i: usize| {
        fields
            .get(i - 3)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    Duration::from_secs_f64((get(16) + get(17)) / TICKS)
}

/// Run one phase. With `trace`, Terraform writes its trace log and the run's calls are counted
/// from it (the log slows Terraform down: such a run is for counting, not timing).
fn measure(env: &Env, tool: Tool, dir: &Path, args: &[&str], trace: bool) -> Result<Run, String> {
    let bin = match tool {
        Tool::Terraform => &env.oracles.terraform,
        Tool::Ferro => &env.ferro,
    };
    let stats = dir.join(".rpc-stats");
    let _ = std::fs::remove_file(&stats);
    let log = dir.join(".trace-log");
    let _ = std::fs::remove_file(&log);
    let cpu0 = children_cpu();
    let start = Instant::now();
    let mut cmd = Command::new(bin);
    if trace {
        cmd.env("TF_LOG", "trace").env("TF_LOG_PATH", &log);
    } else {
        cmd.env_remove("TF_LOG");
    }
    let mut child = cmd
        .args(args)
        .current_dir(dir)
        .env("TF_CLI_CONFIG_FILE", &env.cli_config)
        .env("TF_IN_AUTOMATION", "1")
        .env("CHECKPOINT_DISABLE", "1")
        .env("FERRO_RPC_STATS", &stats)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let mut stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(e) = stderr.as_mut() {
            let _ = std::io::Read::read_to_string(e, &mut s);
        }
        s
    });
    let mut rss = 0;
    let status = loop {
        if let Some(bytes) = crate::bench_lsp::peak_rss(child.id()) {
            rss = rss.max(bytes / 1024);
        }
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(e.to_string()),
        }
    };
    let wall = start.elapsed();
    let cpu = children_cpu().saturating_sub(cpu0);
    let err = reader.join().unwrap_or_default();
    if !status.success() {
        return Err(format!(
            "{tool:?} {} in {}: {status}\n{err}",
            args.join(" "),
            dir.display()
        ));
    }
    let calls = match tool {
        Tool::Ferro => ferro_calls(&std::fs::read_to_string(&stats).unwrap_or_default()),
        Tool::Terraform => terraform_calls(&std::fs::read_to_string(&log).unwrap_or_default()),
    };
    let _ = std::fs::remove_file(&log);
    Ok(Run {
        wall,
        cpu,
        rss_kb: rss,
        rpcs: calls.values().sum(),
        calls,
    })
}

/// `FERRO_RPC_STATS` lines: `METHOD COUNT`.
pub fn ferro_calls(text: &str) -> BTreeMap<String, u64> {
    text.lines()
        .filter_map(|l| {
            let (m, n) = l.split_once(' ')?;
            Some((m.to_string(), n.trim().parse().ok()?))
        })
        .collect()
}

/// Terraform's trace log: one `GRPCProvider: METHOD` line per call. Its protocol-5 names are
/// given as ferro counts them (protocol 6), and `Close`/`Stop` (process handling, not calls
/// on objects) are left out.
fn terraform_calls(log: &str) -> BTreeMap<String, u64> {
    let mut calls = BTreeMap::new();
    for line in log.lines() {
        let Some((_, rest)) = line.split_once("GRPCProvider: ") else {
            continue;
        };
        let method = rest.split_whitespace().next().unwrap_or("");
        let method = match method {
            "GetSchema" => "GetProviderSchema",
            "PrepareProviderConfig" => "ValidateProviderConfig",
            "ValidateResourceTypeConfig" => "ValidateResourceConfig",
            "ValidateDataSourceConfig" => "ValidateDataResourceConfig",
            "Configure" => "ConfigureProvider",
            "Close" | "Stop" | "" => continue,
            m => m,
        };
        *calls.entry(method.to_string()).or_insert(0) += 1;
    }
    calls
}

const PHASES: [&str; 5] = ["plan", "apply", "replan", "replan-min", "destroy"];

fn phase_args(tool: Tool, phase: &str) -> &'static [&'static str] {
    match phase {
        "plan" => &["plan", "-no-color", "-input=false", "-out=tfplan"],
        "apply" => &["apply", "-no-color", "-input=false", "-auto-approve"],
        "replan" => &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
        "replan-min" => match tool {
            Tool::Ferro => &[
                "plan",
                "-no-color",
                "-input=false",
                "-detailed-exitcode",
                "-minimal-refresh",
            ],
            Tool::Terraform => &[
                "plan",
                "-no-color",
                "-input=false",
                "-detailed-exitcode",
                "-refresh=false",
            ],
        },
        _ => &["destroy", "-no-color", "-input=false", "-auto-approve"],
    }
}

/// Every phase for one tool on one shape, and the size of the state the apply wrote.
fn phases(
    env: &Env,
    tool: Tool,
    s: &Shape,
    n: usize,
    trace: bool,
) -> Result<(Vec<Run>, u64), String> {
    let dir = crate::interop::workdir(env, &format!("scale-{}-{n}", s.name), tool, "")?;
    for (path, text) in &s.files {
        let p = dir.join(path);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
        }
        std::fs::write(p, text).map_err(|e| e.to_string())?;
    }
    env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
    let mut runs = Vec::new();
    let mut state_size = 0;
    for phase in PHASES {
        runs.push(measure(env, tool, &dir, phase_args(tool, phase), trace)?);
        if phase == "apply" {
            state_size = std::fs::metadata(dir.join("terraform.tfstate"))
                .map(|m| m.len())
                .unwrap_or(0);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Ok((runs, state_size))
}

/// The provider executable `init` installed for the shape's directory.
fn provider_exe(env: &Env) -> Result<PathBuf, String> {
    let dir = crate::interop::workdir(env, "scale-provider", Tool::Ferro, HEADER)?;
    env.expect(Tool::Ferro, &dir, &["init", "-no-color", "-input=false"], 0)?;
    let mut stack = vec![dir.join(".terraform/providers")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).map_err(|e| e.to_string())?.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("terraform-provider-null"))
            {
                return Ok(p);
            }
        }
    }
    Err("init installed no null provider".into())
}

/// The floor of each phase: `ferro-bench rpc-floor`, built in release beside ferro.
fn floors(bench: &Path, exe: &Path, s: &Shape) -> Result<Vec<Duration>, String> {
    let mut out = Vec::new();
    for phase in PHASES {
        let o = Command::new(bench)
            .args([
                "rpc-floor".to_string(),
                exe.display().to_string(),
                "registry.terraform.io/hashicorp/null".into(),
                "null_resource".into(),
                s.layers.to_string(),
                s.width.to_string(),
                phase.into(),
                s.value_bytes.to_string(),
            ])
            .output()
            .map_err(|e| format!("cannot run {}: {e}", bench.display()))?;
        let text = String::from_utf8_lossy(&o.stdout);
        let secs = text
            .lines()
            .find_map(|l| l.strip_prefix("floor "))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .ok_or_else(|| {
                format!(
                    "rpc-floor {phase} failed: {}",
                    String::from_utf8_lossy(&o.stderr)
                )
            })?;
        out.push(Duration::from_secs_f64(secs));
    }
    Ok(out)
}

pub struct Options {
    pub sizes: Vec<usize>,
    pub shapes: Vec<String>,
    /// Terraform runs for sizes up to this many instances.
    pub terraform_max: usize,
    /// The release `ferro-bench` binary (for the floor).
    pub bench: PathBuf,
}

fn secs(d: Duration) -> String {
    format!("{:.2}s", d.as_secs_f64())
}

fn mb(kb: u64) -> String {
    format!("{:.0} MB", kb as f64 / 1024.0)
}

pub fn run(env: &Env, opts: &Options, out: &mut dyn std::io::Write) -> Result<(), String> {
    let exe = provider_exe(env)?;
    let w =
        |out: &mut dyn std::io::Write, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    // The shapes whose calls per instance have been counted (at their first size).
    let mut counted: Vec<&str> = Vec::new();
    for &n in &opts.sizes {
        for name in &opts.shapes {
            let Some(s) = shape(name, n) else {
                w(
                    out,
                    format!("\n{name} at {n}: skipped (not generated at this size)"),
                )?;
                continue;
            };
            let floor = floors(&opts.bench, &exe, &s)?;
            let (f, state) = phases(env, Tool::Ferro, &s, n, false)?;
            let tf = if n <= opts.terraform_max {
                Some(phases(env, Tool::Terraform, &s, n, false)?.0)
            } else {
                None
            };
            let tf_calls = if n <= opts.terraform_max && !counted.contains(&name.as_str()) {
                counted.push(name);
                Some(phases(env, Tool::Terraform, &s, n, true)?.0)
            } else {
                None
            };
            w(
                out,
                format!(
                    "\n### {} · {n} instances ({} waves of {}) · state {:.1} MB\n",
                    s.name,
                    s.layers,
                    s.width,
                    state as f64 / 1e6
                ),
            )?;
            w(out, "| phase | ferro wall | ferro CPU | ferro RSS | RSS/state | RPCs | floor | × floor | terraform wall | terraform RSS | terraform ÷ ferro |".into())?;
            w(out, "|---|---|---|---|---|---|---|---|---|---|---|".into())?;
            for (i, phase) in PHASES.iter().enumerate() {
                let r = &f[i];
                let (tw, trss, ratio) = match &tf {
                    Some(t) => (
                        secs(t[i].wall),
                        mb(t[i].rss_kb),
                        format!(
                            "{:.1}×",
                            t[i].wall.as_secs_f64() / r.wall.as_secs_f64().max(1e-9)
                        ),
                    ),
                    None => ("-".into(), "-".into(), "-".into()),
                };
                w(
                    out,
                    format!(
                        "| {phase} | {} | {} | {} | {:.2} | {} | {} | {:.2} | {tw} | {trss} | {ratio} |",
                        secs(r.wall),
                        secs(r.cpu),
                        mb(r.rss_kb),
                        (r.rss_kb * 1024) as f64 / (state.max(1)) as f64,
                        r.rpcs,
                        secs(floor[i]),
                        r.wall.as_secs_f64() / floor[i].as_secs_f64().max(1e-9),
                    ),
                )?;
            }
            if let Some(t) = &tf_calls {
                calls_table(out, n, &f, t)?;
            }
            out.flush().map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

/// Calls per instance of every method and phase, ferro's beside Terraform's.
fn calls_table(
    out: &mut dyn std::io::Write,
    n: usize,
    ferro: &[Run],
    terraform: &[Run],
) -> Result<(), String> {
    let w =
        |out: &mut dyn std::io::Write, s: String| writeln!(out, "{s}").map_err(|e| e.to_string());
    w(
        out,
        "\nProvider calls per instance (Terraform's counted from its trace log; replan-min is `-refresh=false` there):\n".into(),
    )?;
    w(out, "| phase | method | ferro | terraform 1.0.3 |".into())?;
    w(out, "|---|---|---|---|".into())?;
    let per = |c: u64| format!("{:.3}", c as f64 / n.max(1) as f64);
    for (i, phase) in PHASES.iter().enumerate() {
        let (f, t) = (&ferro[i].calls, &terraform[i].calls);
        let methods: std::collections::BTreeSet<&String> = f.keys().chain(t.keys()).collect();
        for m in methods {
            let fc = f.get(m).copied().unwrap_or(0);
            let tc = t.get(m).copied().unwrap_or(0);
            w(
                out,
                format!("| {phase} | {m} | {} | {} |", per(fc), per(tc)),
            )?;
        }
        w(
            out,
            format!(
                "| {phase} | all | {} | {} |",
                per(ferro[i].rpcs),
                per(terraform[i].rpcs)
            ),
        )?;
    }
    Ok(())
}
