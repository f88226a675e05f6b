//! The RPC floor: the provider calls a phase of `cargo xtask bench scale` must make, made with
//! no core work around them (values built once, no evaluation, no state, no graph). Each phase
//! is one or two passes over `layers` waves of `width` instances; a wave's calls overlap up to
//! the parallelism and a wave waits for the one before it, as dependent resources do.
//!
//! `ferro-bench rpc-floor EXE SOURCE TYPE LAYERS WIDTH PHASE [BYTES]` prints `floor <seconds>`;
//! PHASE is one of plan, apply, replan, destroy; each instance's `triggers` (when the type has
//! that map attribute) carries a string of BYTES characters (default: a short name).

use ferro_addrs::Provider as ProviderAddr;
use ferro_provider::plugin::{GrpcProvider, PluginOptions};
use ferro_provider::{ApplyRequest, PlanRequest, Provider, ReadRequest, UpgradeRequest};
use ferro_value::schema::Schema;
use ferro_value::ValueMap;
use ferro_value::{json, Type, Value};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Terraform's (and ferro's) default `-parallelism`.
const PARALLELISM: usize = 10;

#[derive(Clone, Copy)]
enum Call {
    Validate,
    Upgrade,
    Read,
    PlanCreate,
    PlanNoop,
    ApplyCreate,
    ApplyDelete,
}

/// The per-instance calls of each pass of a phase, as ferro and Terraform 1.0 make them:
/// a plan validates and plans every instance (after refreshing it when it exists); an apply
/// plans again and applies; a destroy refreshes, then deletes.
fn passes(phase: &str) -> Option<Vec<Vec<Call>>> {
    use Call::*;
    Some(match phase {
        "plan" => vec![vec![Validate, PlanCreate]],
        "apply" => vec![vec![Validate, PlanCreate], vec![PlanCreate, ApplyCreate]],
        "replan" => vec![vec![Upgrade, Read, Validate, PlanNoop]],
        // `-minimal-refresh` of an unchanged configuration: no read, and no upgrade of an
        // object stored at the provider's current schema version.
        "replan-min" => vec![vec![Validate, PlanNoop]],
        // Terraform 1.0 plans a deletion without the provider.
        "destroy" => vec![vec![Upgrade, Read], vec![ApplyDelete]],
        _ => return None,
    })
}

/// The values one instance's calls carry, built before the clock starts.
struct Instance {
    config: Value,
    proposed: Value,
    planned: Value,
    state: Value,
    state_json: serde_json::Value,
}

fn instance(
    schema: &Schema,
    ty: &Type,
    i: usize,
    bytes: usize,
    applied: Option<&Value>,
) -> Instance {
    let mut attrs: ValueMap = schema
        .block
        .attributes
        .iter()
        .map(|(name, a)| (name.clone(), Value::null(a.ty.clone())))
        .collect();
    if let Some(a) = schema.block.attributes.get("triggers") {
        if a.ty == Type::Map(Box::new(Type::String)) {
            let mut text = format!("i-{i}");
            while text.len() < bytes {
                text.push_str(",0123456789012345678");
            }
            text.truncate(bytes.max(text.len().min(8)));
            let entries = ValueMap::from([("name".to_string(), Value::string(text))]);
            attrs.insert("triggers", Value::map(Type::String, entries));
        }
    }
    let config = Value::object(attrs.clone());
    let mut proposed = attrs;
    for (name, a) in &schema.block.attributes {
        if a.computed && proposed[name].is_null() {
            proposed.insert(name.clone(), Value::unknown(a.ty.clone()));
        }
    }
    let proposed = Value::object(proposed);
    let state = applied.cloned().unwrap_or_else(|| Value::null(ty.clone()));
    let state_json = json::value_to_json(&state, ty).unwrap_or(serde_json::Value::Null);
    Instance {
        config,
        planned: proposed.clone(),
        proposed,
        state,
        state_json,
    }
}

fn call(p: &GrpcProvider, type_name: &str, version: u64, c: Call, inst: &Instance) -> bool {
    let null = Value::null(inst.config.ty());
    let ok = |ds: &[ferro_provider::ProviderDiagnostic]| !ferro_provider::has_errors(ds);
    match c {
        Call::Validate => ok(&p.validate_resource_config(type_name, &inst.config)),
        Call::Upgrade => ok(&p
            .upgrade_resource_state(UpgradeRequest {
                type_name,
                version,
                raw_json: &inst.state_json,
            })
            .diagnostics),
        Call::Read => ok(&p
            .read_resource(ReadRequest {
                type_name,
                current_state: &inst.state,
                private: &[],
                current_identity: None,
            })
            .diagnostics),
        Call::PlanCreate | Call::PlanNoop => {
            let (prior, proposed) = match c {
                Call::PlanCreate => (&null, &inst.proposed),
                _ => (&inst.state, &inst.state),
            };
            let config = &inst.config;
            ok(&p
                .plan_resource_change(PlanRequest {
                    type_name,
                    prior_state: prior,
                    proposed_new_state: proposed,
                    config,
                    prior_private: &[],
                    prior_identity: None,
                })
                .diagnostics)
        }
        Call::ApplyCreate | Call::ApplyDelete => {
            let (prior, planned, config) = match c {
                Call::ApplyCreate => (&null, &inst.planned, &inst.config),
                _ => (&inst.state, &null, &null),
            };
            ok(&p
                .apply_resource_change(ApplyRequest {
                    type_name,
                    prior_state: prior,
                    planned_state: planned,
                    config,
                    planned_private: &[],
                    planned_identity: None,
                })
                .diagnostics)
        }
    }
}

/// Run `calls` for every instance of one wave, `PARALLELISM` at a time.
fn wave(p: &GrpcProvider, type_name: &str, version: u64, calls: &[Call], insts: &[Instance]) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..PARALLELISM.min(insts.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(inst) = insts.get(i) else { break };
                for c in calls {
                    if !call(p, type_name, version, *c, inst) {
                        eprintln!("rpc-floor: a provider call failed");
                        std::process::exit(1);
                    }
                }
            });
        }
    });
}

pub fn run(args: &[String]) -> Result<(), String> {
    let (args, bytes) = match args {
        [rest @ .., b] if args.len() == 7 => (rest, b.parse().map_err(|_| "BYTES is a number")?),
        _ => (args, 0),
    };
    let [exe, source, type_name, layers, width, phase] = args else {
        return Err("usage: rpc-floor EXE SOURCE TYPE LAYERS WIDTH PHASE [BYTES]".into());
    };
    let layers: usize = layers.parse().map_err(|_| "LAYERS is a number")?;
    let width: usize = width.parse().map_err(|_| "WIDTH is a number")?;
    let passes = passes(phase).ok_or_else(|| format!("unknown phase {phase:?}"))?;
    let addr = ProviderAddr::parse_source(source)?;
    let p = GrpcProvider::start(&addr, Path::new(exe), &PluginOptions::default())?;
    let schema = p
        .schema()
        .map_err(|d| format!("GetProviderSchema failed: {d:?}"))?;
    let rs = schema
        .resources
        .get(type_name.as_str())
        .ok_or_else(|| format!("the provider has no resource type {type_name:?}"))?
        .clone();
    let ty = rs.block.implied_type();
    let provider_cfg = Value::object(
        schema
            .provider
            .block
            .attributes
            .iter()
            .map(|(n, a)| (n.clone(), Value::null(a.ty.clone())))
            .collect(),
    );
    if ferro_provider::has_errors(&p.configure(&provider_cfg)) {
        return Err("ConfigureProvider failed".into());
    }
    // Existing objects for the phases that start from state: created (untimed) first.
    let needs_state = matches!(phase.as_str(), "replan" | "replan-min" | "destroy");
    let mut insts: Vec<Vec<Instance>> = Vec::with_capacity(layers);
    for l in 0..layers {
        let mut row = Vec::with_capacity(width);
        for w in 0..width {
            let fresh = instance(&rs, &ty, l * width + w, bytes, None);
            if needs_state {
                let resp = p.apply_resource_change(ApplyRequest {
                    type_name,
                    prior_state: &Value::null(ty.clone()),
                    planned_state: &fresh.proposed,
                    config: &fresh.config,
                    planned_private: &[],
                    planned_identity: None,
                });
                if ferro_provider::has_errors(&resp.diagnostics) {
                    return Err("creating the starting objects failed".into());
                }
                row.push(instance(
                    &rs,
                    &ty,
                    l * width + w,
                    bytes,
                    Some(&resp.new_state),
                ));
            } else {
                row.push(fresh);
            }
        }
        insts.push(row);
    }
    let start = Instant::now();
    for calls in &passes {
        for row in &insts {
            wave(&p, type_name, rs.version, calls, row);
        }
    }
    let took = start.elapsed();
    p.close();
    println!("floor {:.3}", took.as_secs_f64());
    Ok(())
}
