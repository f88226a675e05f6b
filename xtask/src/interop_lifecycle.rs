//! Interop scenarios for the planning behaviours of Terraform 1.0.3 with the null provider:
//! create_before_destroy and its propagation, the count boundary, ignore_changes paths,
//! `-replace`, taint and untaint, `-target`, `-refresh-only`, `-destroy` with a target,
//! prevent_destroy, `count` ⇄ `for_each` transitions, when data sources are read, and
//! sensitive elements inside collections.
//! Each step runs in both tools; the actions per address of every plan, the state addresses
//! after every apply and the summaries of expected errors must be the same.

use crate::interop::{plan_actions, same, state_attributes, workdir, Env, Tool, NULL_HEADER};
use std::path::Path;

/// One step: a configuration, commands run before planning, extra plan arguments, and either
/// an error summary the plan must fail with or nothing (the plan is then applied).
struct Step {
    config: String,
    pre: Vec<Vec<&'static str>>,
    plan_args: Vec<&'static str>,
    error: Option<&'static str>,
}

fn step(config: String) -> Step {
    Step {
        config,
        pre: Vec::new(),
        plan_args: Vec::new(),
        error: None,
    }
}

/// What one tool did in one step.
#[derive(Debug, PartialEq)]
struct Outcome {
    actions: Vec<(String, Vec<String>)>,
    /// Root outputs the plan changes: name, actions, and whether the new value is unknown.
    outputs: Vec<(String, Vec<String>, bool)>,
    addresses: Vec<String>,
    /// The root outputs in state after the step.
    state_outputs: Vec<String>,
    /// Each managed instance's recorded dependencies (sorted).
    dependencies: Vec<(String, Vec<String>)>,
}

fn run_steps(env: &Env, name: &str, steps: &[Step]) -> Result<(), String> {
    let mut all: Vec<Vec<Outcome>> = Vec::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, name, tool, &steps[0].config)?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut outcomes = Vec::new();
        for (i, s) in steps.iter().enumerate() {
            std::fs::write(dir.join("main.tf"), &s.config).map_err(|e| e.to_string())?;
            for cmd in &s.pre {
                env.expect(tool, &dir, cmd, 0)?;
            }
            let mut args = vec!["plan", "-no-color", "-input=false", "-out=tfplan"];
            args.extend(s.plan_args.iter().copied());
            if let Some(summary) = s.error {
                let o = env.expect(tool, &dir, &args, 1)?;
                if !o.stderr.contains(summary) && !o.stdout.contains(summary) {
                    return Err(format!(
                        "{tool:?} step {}: expected the error {summary:?}\n--- stderr\n{}",
                        i + 1,
                        o.stderr
                    ));
                }
                outcomes.push(Outcome {
                    actions: Vec::new(),
                    outputs: Vec::new(),
                    addresses: addresses(&dir)?,
                    state_outputs: state_outputs(&dir)?,
                    dependencies: dependencies(&dir)?,
                });
                continue;
            }
            env.expect(tool, &dir, &args, 0)?;
            let shown = env.expect(tool, &dir, &["show", "-json", "tfplan"], 0)?;
            let actions = plan_actions(&shown.stdout)?;
            let outputs = output_changes(&shown.stdout)?;
            env.expect(
                tool,
                &dir,
                &["apply", "-no-color", "-input=false", "tfplan"],
                0,
            )?;
            outcomes.push(Outcome {
                actions,
                outputs,
                addresses: addresses(&dir)?,
                state_outputs: state_outputs(&dir)?,
                dependencies: dependencies(&dir)?,
            });
        }
        all.push(outcomes);
    }
    for (i, (tf, fe)) in all[0].iter().zip(&all[1]).enumerate() {
        same(
            &format!("{name} step {} plan actions", i + 1),
            &tf.actions,
            &fe.actions,
        )?;
        same(
            &format!("{name} step {} state addresses", i + 1),
            &tf.addresses,
            &fe.addresses,
        )?;
        same(
            &format!("{name} step {} output changes", i + 1),
            &tf.outputs,
            &fe.outputs,
        )?;
        same(
            &format!("{name} step {} outputs in state", i + 1),
            &tf.state_outputs,
            &fe.state_outputs,
        )?;
        same(
            &format!("{name} step {} recorded dependencies", i + 1),
            &tf.dependencies,
            &fe.dependencies,
        )?;
    }
    Ok(())
}

/// The `output_changes` of `show -json PLAN`: name, actions, and whether `after` is unknown.
fn output_changes(json_text: &str) -> Result<Vec<(String, Vec<String>, bool)>, String> {
    let v: serde_json::Value = serde_json::from_str(json_text)
        .map_err(|e| format!("show -json is not JSON: {e}\n{json_text}"))?;
    let mut out = Vec::new();
    if let Some(changes) = v.get("output_changes").and_then(|c| c.as_object()) {
        for (name, c) in changes {
            let actions = crate::interop::strings(c.get("actions"));
            let unknown = c.get("after_unknown").and_then(|u| u.as_bool()) == Some(true);
            out.push((name.clone(), actions, unknown));
        }
    }
    out.sort();
    Ok(out)
}

/// The names of the root outputs in the state file after a step.
fn state_outputs(dir: &Path) -> Result<Vec<String>, String> {
    let path = dir.join("terraform.tfstate");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut names: Vec<String> = v
        .get("outputs")
        .and_then(|o| o.as_object())
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    names.sort();
    Ok(names)
}

/// Each managed instance in state (by type, name and key, with its module) and the
/// dependencies recorded for its current object, sorted.
fn dependencies(dir: &Path) -> Result<Vec<(String, Vec<String>)>, String> {
    let path = dir.join("terraform.tfstate");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for r in v["resources"].as_array().into_iter().flatten() {
        if r["mode"] != "managed" {
            continue;
        }
        for i in r["instances"].as_array().into_iter().flatten() {
            if i.get("deposed").is_some() {
                continue;
            }
            let mut deps: Vec<String> = i["dependencies"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|d| d.as_str().map(str::to_string))
                .collect();
            deps.sort();
            let addr = format!(
                "{}{}.{}{}",
                r["module"]
                    .as_str()
                    .map(|m| format!("{m}."))
                    .unwrap_or_default(),
                r["type"].as_str().unwrap_or(""),
                r["name"].as_str().unwrap_or(""),
                match &i["index_key"] {
                    serde_json::Value::Null => String::new(),
                    k => format!("[{k}]"),
                }
            );
            out.push((addr, deps));
        }
    }
    out.sort();
    Ok(out)
}

fn addresses(dir: &Path) -> Result<Vec<String>, String> {
    let path = dir.join("terraform.tfstate");
    if !path.exists() {
        return Ok(Vec::new());
    }
    Ok(state_attributes(&path, &[])?.into_keys().collect())
}

/// a ← b (create_before_destroy) and a ← c; `counted` picks up count later.
fn cbd_config(x: &str, counted: bool, ignore: bool, prevent: bool) -> String {
    let count = if counted { "\n  count = 1" } else { "" };
    let a_ref = if counted {
        "null_resource.a[0].id"
    } else {
        "null_resource.a.id"
    };
    let mut lifecycle = String::new();
    if ignore {
        lifecycle.push_str("\n    ignore_changes = [triggers[\"x\"]]");
    }
    if prevent {
        lifecycle.push_str("\n    prevent_destroy = true");
    }
    let lifecycle = if lifecycle.is_empty() {
        String::new()
    } else {
        format!("\n  lifecycle {{{lifecycle}\n  }}")
    };
    format!(
        r#"{NULL_HEADER}
resource "null_resource" "a" {{{count}
  triggers = {{ x = "{x}", y = "fixed" }}{lifecycle}
}}

resource "null_resource" "b" {{
  triggers = {{ a = {a_ref} }}
  lifecycle {{
    create_before_destroy = true
  }}
}}

resource "null_resource" "c" {{
  triggers = {{ a = {a_ref} }}
}}

output "c" {{
  value = null_resource.c.id != ""
}}
"#
    )
}

/// create_before_destroy propagated to a dependency, the count boundary, ignore_changes on a
/// map key, prevent_destroy, -replace and taint.
pub fn lifecycle_replacements(env: &Env) -> Result<(), String> {
    let mut steps = vec![
        step(cbd_config("1", false, false, false)),
        step(cbd_config("2", false, false, false)),
        step(cbd_config("2", true, false, false)),
        step(cbd_config("3", true, true, false)),
        step(cbd_config("4", true, false, true)),
    ];
    steps[4].error = Some("Instance cannot be destroyed");
    let mut replace = step(cbd_config("2", true, false, false));
    replace.plan_args = vec!["-replace=null_resource.c"];
    steps.push(replace);
    let mut taint = step(cbd_config("2", true, false, false));
    taint.pre = vec![vec!["taint", "null_resource.b"]];
    steps.push(taint);
    run_steps(env, "lifecycle-replacements", &steps)
}

/// -target with its dependencies, -refresh-only, a destroy plan with a target.
pub fn lifecycle_single_run_options(env: &Env) -> Result<(), String> {
    let config = cbd_config("1", false, false, false);
    let mut steps = Vec::new();
    let mut targeted = step(config.clone());
    targeted.plan_args = vec!["-target=null_resource.b"];
    steps.push(targeted);
    steps.push(step(config.clone()));
    let mut refresh = step(config.clone());
    refresh.plan_args = vec!["-refresh-only"];
    steps.push(refresh);
    let mut destroy = step(config.clone());
    destroy.plan_args = vec!["-destroy", "-target=null_resource.c"];
    steps.push(destroy);
    let mut instance = step(config);
    instance.plan_args = vec!["-target=null_resource.c"];
    steps.push(instance);
    run_steps(env, "lifecycle-single-run-options", &steps)
}

/// `count` → `for_each` → `count` on one resource, and taint undone by untaint.
pub fn lifecycle_repetition(env: &Env) -> Result<(), String> {
    let counted = |n: u32| {
        format!(
            "{NULL_HEADER}\nresource \"null_resource\" \"r\" {{\n  count    = {n}\n  triggers = {{ i = count.index }}\n}}\n"
        )
    };
    let keyed = format!(
        "{NULL_HEADER}\nresource \"null_resource\" \"r\" {{\n  for_each = toset([\"a\", \"b\"])\n  triggers = {{ k = each.key }}\n}}\n"
    );
    let mut steps = vec![
        step(counted(2)),
        step(keyed.clone()),
        step(counted(1)),
        step(counted(3)),
    ];
    let mut untaint = step(counted(3));
    untaint.pre = vec![
        vec!["taint", "null_resource.r[1]"],
        vec!["untaint", "null_resource.r[1]"],
    ];
    steps.push(untaint);
    let mut taint = step(counted(3));
    taint.pre = vec![vec!["taint", "null_resource.r[2]"]];
    steps.push(taint);
    run_steps(env, "lifecycle-repetition", &steps)
}

/// Data sources read while planning or during apply: a data source whose configuration is
/// known is still read during apply when a managed resource it refers to directly (or names in
/// `depends_on`, or depends on through another resource) has a change planned; one that refers
/// to the resource only through a local is read while planning.
pub fn lifecycle_data_waits(env: &Env) -> Result<(), String> {
    let config = |n: u32| {
        format!(
            r#"{NULL_HEADER}
resource "null_resource" "a" {{
  count = {n}
}}

locals {{
  first = null_resource.a[0].id
}}

resource "null_resource" "b" {{
  triggers = {{ x = local.first }}
}}

data "null_data_source" "direct" {{
  inputs = {{ x = null_resource.a[0].id }}
}}

data "null_data_source" "through_local" {{
  inputs = {{ x = local.first }}
}}

data "null_data_source" "through_b" {{
  inputs = {{ x = null_resource.b.id }}
}}

data "null_data_source" "after_b" {{
  inputs     = {{ x = "constant" }}
  depends_on = [null_resource.b]
}}

resource "null_resource" "uses" {{
  triggers = {{ x = data.null_data_source.direct.outputs["x"] }}
}}
"#
        )
    };
    let steps = vec![
        step(config(1)),
        step(config(2)),
        step(config(2)),
        step(config(1)),
    ];
    run_steps(env, "lifecycle-data-waits", &steps)
}

/// Sensitive values inside collections: a map attribute holding one sensitive element, an
/// output reading another element of it (through a `for` expression over the resource's
/// instances), the resource planned with the map unknown; then the sensitive value changes.
pub fn lifecycle_sensitive_elements(env: &Env) -> Result<(), String> {
    let config = |keys: &str, secret: &str| {
        format!(
            r#"{NULL_HEADER}
variable "secret" {{
  default   = "{secret}"
  sensitive = true
}}

resource "null_resource" "base" {{
  for_each = toset([{keys}])
}}

resource "null_resource" "chained" {{
  for_each = null_resource.base
  triggers = {{ parent = each.value.id, s = var.secret }}
}}

output "parents" {{
  value = {{ for k, v in null_resource.chained : k => v.triggers.parent }}
}}

output "first" {{
  value = values(null_resource.chained)[0].triggers.parent
}}
"#
        )
    };
    let steps = vec![
        step(config(r#""a", "b""#, "one")),
        step(config(r#""a", "c""#, "one")),
        step(config(r#""a", "c""#, "two")),
    ];
    run_steps(env, "lifecycle-sensitive-elements", &steps)
}

/// Root outputs: a set of ids known only after apply (its length unknown until then, as each
/// id may coincide with another), then a targeted destroy, which leaves every root output as
/// it is, then a whole destroy plan, which removes them.
pub fn lifecycle_outputs(env: &Env) -> Result<(), String> {
    let config = format!(
        r#"{NULL_HEADER}
resource "null_resource" "a" {{
  count = 2
}}

resource "null_resource" "b" {{
  triggers = {{ first = null_resource.a[0].id }}
}}

output "distinct" {{
  value = length(toset(null_resource.a[*].id))
}}

output "one" {{
  value = length(toset([null_resource.a[0].id]))
}}

output "b" {{
  value = null_resource.b.id
}}

output "fixed" {{
  value = "x"
}}
"#
    );
    let mut targeted = step(config.clone());
    targeted.plan_args = vec!["-destroy", "-target=null_resource.b"];
    let mut whole = step(config.clone());
    whole.plan_args = vec!["-destroy"];
    let steps = vec![step(config), targeted, whole];
    run_steps(env, "lifecycle-outputs", &steps)
}

/// A targeted destroy keeps a data resource that reads what it destroys (it removes one only
/// when a target names it); `state mv` makes the objects that depended on what moved forget
/// their dependencies, which a refresh-only plan or a no-op plan records again.
pub fn lifecycle_state_edits(env: &Env) -> Result<(), String> {
    let config = |u: &str| {
        format!(
            r#"{NULL_HEADER}
resource "null_resource" "c" {{}}

resource "null_resource" "{u}" {{}}

resource "null_resource" "after" {{
  depends_on = [null_resource.{u}]
  triggers   = {{ c = null_resource.c.id }}
}}

data "null_data_source" "reads_c" {{
  inputs = {{ c = null_resource.c.id }}
}}

data "null_data_source" "free" {{
  inputs = {{ x = "y" }}
}}
"#
        )
    };
    let mut steps = vec![step(config("u"))];
    // A refresh records the configured dependencies beside the stored ones.
    let mut refreshed = step(config("u2"));
    refreshed.pre = vec![vec!["state", "mv", "null_resource.u", "null_resource.u2"]];
    refreshed.plan_args = vec!["-refresh-only"];
    steps.push(refreshed);
    // A no-op plan gives the object the configured ones.
    let mut moved = step(config("u3"));
    moved.pre = vec![vec!["state", "mv", "null_resource.u2", "null_resource.u3"]];
    steps.push(moved);
    let mut target_data = step(config("u3"));
    target_data.plan_args = vec!["-destroy", "-target=data.null_data_source.free"];
    steps.push(target_data);
    let mut target_c = step(config("u3"));
    target_c.plan_args = vec!["-destroy", "-target=null_resource.c"];
    steps.push(target_c);
    run_steps(env, "lifecycle-state-edits", &steps)
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[
    ("lifecycle-outputs", lifecycle_outputs),
    ("lifecycle-data-waits", lifecycle_data_waits),
    ("lifecycle-sensitive-elements", lifecycle_sensitive_elements),
    ("lifecycle-replacements", lifecycle_replacements),
    ("lifecycle-single-run-options", lifecycle_single_run_options),
    ("lifecycle-repetition", lifecycle_repetition),
    ("lifecycle-state-edits", lifecycle_state_edits),
];
