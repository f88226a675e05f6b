//! `cargo xtask interop`: ferro against real provider plugins, side by side with Terraform 1.0.3.
//!
//! Every scenario runs the same configuration steps with both tools in separate working
//! directories and compares what a user would compare: the actions of `show -json` plans and the
//! attributes recorded in state (ignoring values that are random by design). The state
//! scenarios hand a state written by one tool to the other and require "no changes".

use crate::oracles::Oracles;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The two tools under comparison.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Tool {
    Terraform,
    Ferro,
}

impl Tool {
    /// The tool's name in lower case, as results are keyed by.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Terraform => "terraform",
            Tool::Ferro => "ferro",
        }
    }
}

pub struct Env {
    pub oracles: Oracles,
    pub ferro: PathBuf,
    /// CLI configuration pointing provider installation at the mirror.
    pub cli_config: PathBuf,
    pub work: PathBuf,
}

pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Env {
    pub fn run(&self, tool: Tool, dir: &Path, args: &[&str]) -> Output {
        let bin = match tool {
            Tool::Terraform => &self.oracles.terraform,
            Tool::Ferro => &self.ferro,
        };
        let mut cmd = Command::new(bin);
        cmd.args(args)
            .current_dir(dir)
            .env("TF_CLI_CONFIG_FILE", &self.cli_config)
            .env("TF_IN_AUTOMATION", "1")
            .env("CHECKPOINT_DISABLE", "1")
            .env_remove("TF_LOG");
        match cmd.output() {
            Ok(o) => Output {
                code: o.status.code().unwrap_or(-1),
                stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
            },
            Err(e) => Output {
                code: -1,
                stdout: String::new(),
                stderr: format!("cannot run {}: {e}", bin.display()),
            },
        }
    }

    /// Run and require the exit code.
    pub fn expect(
        &self,
        tool: Tool,
        dir: &Path,
        args: &[&str],
        code: i32,
    ) -> Result<Output, String> {
        let o = self.run(tool, dir, args);
        if o.code != code {
            return Err(format!(
                "{tool:?} {} in {}: exit {} (wanted {code})\n--- stdout\n{}\n--- stderr\n{}",
                args.join(" "),
                dir.display(),
                o.code,
                o.stdout,
                o.stderr
            ));
        }
        Ok(o)
    }
}

/// The strings of a JSON array (an `actions` list); nothing when it is missing.
pub fn strings(v: Option<&serde_json::Value>) -> Vec<String> {
    v.and_then(|a| a.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// `(address, actions)` of every resource change in a `show -json` plan, sorted.
pub fn plan_actions(json_text: &str) -> Result<Vec<(String, Vec<String>)>, String> {
    let v: serde_json::Value = serde_json::from_str(json_text)
        .map_err(|e| format!("show -json is not JSON: {e}\n{json_text}"))?;
    let mut out = Vec::new();
    for rc in v
        .get("resource_changes")
        .and_then(|r| r.as_array())
        .into_iter()
        .flatten()
    {
        let addr = rc
            .get("address")
            .and_then(|a| a.as_str())
            .unwrap_or_default()
            .to_string();
        out.push((addr, strings(rc.pointer("/change/actions"))));
    }
    out.sort();
    Ok(out)
}

/// Attributes of every object in a state file, by address, with the named volatile
/// attributes removed.
pub fn state_attributes(
    path: &Path,
    volatile: &[&str],
) -> Result<BTreeMap<String, serde_json::Value>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
    let mut out = BTreeMap::new();
    for r in v
        .get("resources")
        .and_then(|r| r.as_array())
        .into_iter()
        .flatten()
    {
        let mode = r.get("mode").and_then(|x| x.as_str()).unwrap_or_default();
        let prefix = if mode == "data" { "data." } else { "" };
        let module = match r.get("module").and_then(|x| x.as_str()) {
            Some(m) => format!("{m}."),
            None => String::new(),
        };
        let base = format!(
            "{module}{prefix}{}.{}",
            r.get("type").and_then(|x| x.as_str()).unwrap_or_default(),
            r.get("name").and_then(|x| x.as_str()).unwrap_or_default()
        );
        for inst in r
            .get("instances")
            .and_then(|i| i.as_array())
            .into_iter()
            .flatten()
        {
            let key = match inst.get("index_key") {
                Some(serde_json::Value::Number(n)) => format!("[{n}]"),
                Some(serde_json::Value::String(s)) => format!("[{s:?}]"),
                _ => String::new(),
            };
            let mut attrs = inst
                .get("attributes")
                .cloned()
                .unwrap_or(serde_json::Value::Null);
            if let Some(m) = attrs.as_object_mut() {
                for k in volatile {
                    m.remove(*k);
                }
            }
            out.insert(format!("{base}{key}"), attrs);
        }
    }
    Ok(out)
}

/// A fresh working directory for one tool in one scenario, with `main.tf`.
pub fn workdir(env: &Env, scenario: &str, tool: Tool, main_tf: &str) -> Result<PathBuf, String> {
    let d = env
        .work
        .join(scenario)
        .join(format!("{tool:?}").to_lowercase());
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).map_err(|e| e.to_string())?;
    std::fs::write(d.join("main.tf"), main_tf).map_err(|e| e.to_string())?;
    Ok(d)
}

pub(crate) fn write(dir: &Path, main_tf: &str) -> Result<(), String> {
    std::fs::write(dir.join("main.tf"), main_tf).map_err(|e| e.to_string())
}

/// Plan with `-out`, return the `show -json` actions, then apply the saved plan.
pub(crate) fn plan_apply(
    env: &Env,
    tool: Tool,
    dir: &Path,
) -> Result<Vec<(String, Vec<String>)>, String> {
    plan_actions(&plan_show_apply(env, tool, dir)?)
}

/// Plan with `-out`, apply the saved plan; the plan's `show -json` text.
fn plan_show_apply(env: &Env, tool: Tool, dir: &Path) -> Result<String, String> {
    env.expect(
        tool,
        dir,
        &["plan", "-no-color", "-input=false", "-out=tfplan"],
        0,
    )?;
    let shown = env.expect(tool, dir, &["show", "-json", "tfplan"], 0)?;
    env.expect(
        tool,
        dir,
        &["apply", "-no-color", "-input=false", "tfplan"],
        0,
    )?;
    Ok(shown.stdout)
}

pub(crate) fn same<T: PartialEq + std::fmt::Debug>(
    what: &str,
    tf: &T,
    ferro: &T,
) -> Result<(), String> {
    if tf != ferro {
        return Err(format!(
            "{what} differ\n  terraform: {tf:?}\n  ferro:     {ferro:?}"
        ));
    }
    Ok(())
}

pub(crate) const NULL_HEADER: &str = r#"terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "2.1.2"
    }
  }
}
"#;

fn null_config(trigger: &str, keys: &[&str]) -> String {
    let keys = keys
        .iter()
        .map(|k| format!("{k:?}"))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        r#"{NULL_HEADER}
data "null_data_source" "values" {{
  inputs = {{
    trigger = "{trigger}"
  }}
}}

resource "null_resource" "counted" {{
  count = 2
  triggers = {{
    index = count.index
    value = data.null_data_source.values.outputs["trigger"]
  }}
}}

resource "null_resource" "each" {{
  for_each = toset([{keys}])
  triggers = {{
    key = each.key
  }}
}}

# Unknown until null_resource.counted[0] exists (its id is), so the read waits for apply.
data "null_data_source" "late" {{
  inputs = {{
    first = length(null_resource.counted[0].id) > 0 ? "created" : "missing"
  }}
}}

output "late" {{
  value = data.null_data_source.late.outputs["first"]
}}
"#
    )
}

/// `null_resource` with count, for_each and triggers, `null_data_source` read at plan time and
/// during apply; create, replace through a trigger, shrink for_each, destroy.
fn null_lifecycle(env: &Env) -> Result<(), String> {
    let steps: Vec<String> = vec![
        null_config("one", &["a", "b"]),
        null_config("two", &["a", "b"]),
        null_config("two", &["b"]),
    ];
    let mut results: BTreeMap<
        &str,
        Vec<(
            Vec<(String, Vec<String>)>,
            BTreeMap<String, serde_json::Value>,
        )>,
    > = BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "null-lifecycle", tool, &steps[0])?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut per_step = Vec::new();
        for step in &steps {
            write(&dir, step)?;
            let actions = plan_apply(env, tool, &dir)?;
            let attrs = state_attributes(&dir.join("terraform.tfstate"), &["id", "random"])?;
            per_step.push((actions, attrs));
        }
        env.expect(
            tool,
            &dir,
            &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
            0,
        )?;
        env.expect(
            tool,
            &dir,
            &["destroy", "-no-color", "-input=false", "-auto-approve"],
            0,
        )?;
        let left = state_attributes(&dir.join("terraform.tfstate"), &[])?;
        if !left.is_empty() {
            return Err(format!(
                "{tool:?}: objects left after destroy: {:?}",
                left.keys().collect::<Vec<_>>()
            ));
        }
        results.insert(tool.name(), per_step);
    }
    for (i, (tf, fe)) in results["terraform"]
        .iter()
        .zip(&results["ferro"])
        .enumerate()
    {
        same(&format!("step {} plan actions", i + 1), &tf.0, &fe.0)?;
        same(&format!("step {} state attributes", i + 1), &tf.1, &fe.1)?;
    }
    Ok(())
}

/// A state written by one tool is read by the other, which plans no changes.
fn state_exchange(env: &Env) -> Result<(), String> {
    let config = null_config("x", &["k1", "k2"]);
    for (writer, reader) in [
        (Tool::Terraform, Tool::Ferro),
        (Tool::Ferro, Tool::Terraform),
    ] {
        let name = format!("state-{writer:?}-to-{reader:?}").to_lowercase();
        let dir = workdir(env, &name, writer, &config)?;
        env.expect(writer, &dir, &["init", "-no-color", "-input=false"], 0)?;
        env.expect(
            writer,
            &dir,
            &["apply", "-no-color", "-input=false", "-auto-approve"],
            0,
        )?;
        let other = workdir(env, &name, reader, &config)?;
        std::fs::copy(
            dir.join("terraform.tfstate"),
            other.join("terraform.tfstate"),
        )
        .map_err(|e| e.to_string())?;
        env.expect(reader, &other, &["init", "-no-color", "-input=false"], 0)?;
        env.expect(
            reader,
            &other,
            &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
            0,
        )
        .map_err(|e| {
            format!("state written by {writer:?} does not plan clean in {reader:?}: {e}")
        })?;
    }
    Ok(())
}

const SHELF_HEADER: &str = r#"terraform {
  required_providers {
    shelf = {
      source  = "example.test/ferro/shelf"
      version = "1.0.0"
    }
  }
}

provider "shelf" {
  owner = "interop"
}
"#;

fn shelf_config(title: &str, isbn: &str, imported: bool) -> String {
    let mut s = format!(
        r#"{SHELF_HEADER}
resource "shelf_book" "b" {{
  title = "{title}"
  isbn  = "{isbn}"
}}

data "shelf_catalog" "c" {{
  shelf = [shelf_book.b.label, "other"]
}}

output "size" {{
  value = data.shelf_catalog.c.size
}}
"#
    );
    if imported {
        s.push_str(
            "\nresource \"shelf_book\" \"found\" {\n  title = \"imported\"\n  isbn  = \"999\"\n}\n",
        );
    }
    s
}

/// The protocol-6 provider: create, update in place, replace, import, destroy.
fn shelf_lifecycle(env: &Env) -> Result<(), String> {
    let steps = [
        shelf_config("Dune", "1", false),
        shelf_config("Dune Messiah", "1", false),
        shelf_config("Dune Messiah", "2", false),
    ];
    let mut results: BTreeMap<
        &str,
        Vec<(
            Vec<(String, Vec<String>)>,
            BTreeMap<String, serde_json::Value>,
        )>,
    > = BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "shelf-lifecycle", tool, &steps[0])?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut per_step = Vec::new();
        for step in &steps {
            write(&dir, step)?;
            let actions = plan_apply(env, tool, &dir)?;
            per_step.push((
                actions,
                state_attributes(&dir.join("terraform.tfstate"), &[])?,
            ));
        }
        write(&dir, &shelf_config("Dune Messiah", "2", true))?;
        env.expect(
            tool,
            &dir,
            &[
                "import",
                "-no-color",
                "-input=false",
                "shelf_book.found",
                "isbn-999",
            ],
            0,
        )?;
        env.expect(
            tool,
            &dir,
            &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
            0,
        )?;
        per_step.push((
            Vec::new(),
            state_attributes(&dir.join("terraform.tfstate"), &[])?,
        ));
        env.expect(
            tool,
            &dir,
            &["destroy", "-no-color", "-input=false", "-auto-approve"],
            0,
        )?;
        let left = state_attributes(&dir.join("terraform.tfstate"), &[])?;
        if !left.is_empty() {
            return Err(format!(
                "{tool:?}: objects left after destroy: {:?}",
                left.keys().collect::<Vec<_>>()
            ));
        }
        results.insert(tool.name(), per_step);
    }
    let expected_actions = [
        vec![("shelf_book.b".to_string(), vec!["create".to_string()])],
        vec![("shelf_book.b".to_string(), vec!["update".to_string()])],
        vec![(
            "shelf_book.b".to_string(),
            vec!["delete".to_string(), "create".to_string()],
        )],
    ];
    for (i, want) in expected_actions.iter().enumerate() {
        let got: Vec<_> = results["ferro"][i]
            .0
            .iter()
            .filter(|(a, _)| !a.starts_with("data."))
            .cloned()
            .collect();
        same(&format!("step {} expected actions", i + 1), want, &got)?;
    }
    for (i, (tf, fe)) in results["terraform"]
        .iter()
        .zip(&results["ferro"])
        .enumerate()
    {
        same(&format!("step {} plan actions", i + 1), &tf.0, &fe.0)?;
        same(&format!("step {} state attributes", i + 1), &tf.1, &fe.1)?;
    }
    Ok(())
}

/// The bookcase configuration in the JSON syntax: provider-defined nested blocks of every
/// nesting mode (a list holding a set, a single block, a map block) and a provider
/// configuration block. Step 2 changes blocks in place, adds and removes some, and adds counted
/// bookcases whose blocks use `count.index`.
fn bookcase_json(step: u32) -> serde_json::Value {
    use serde_json::json;
    let mut hall = json!({
        "name": "hall",
        "shelf": [
            {"label": "top", "books": ["a"], "divider": [{"at": 1}, {"at": 2}]},
            {"label": "bottom"}
        ],
        "trim": {"color": "oak"},
        "slot": {"left": {"size": 3}, "right": {}}
    });
    if step >= 2 {
        hall = json!({
            "name": "hall",
            "shelf": [
                {"label": "top", "books": ["a", "b"], "divider": [{"at": 2}, {"at": 5}]},
                {"//": "one block from an object", "label": "middle", "divider": {"at": 4}},
                {"label": "bottom", "books": []}
            ],
            "trim": {"color": "${upper(\"walnut\")}"},
            "slot": {"left": {"size": 4}, "centre": [{"size": 1}]}
        });
    }
    let mut bookcases = json!({"hall": hall});
    if step >= 2 {
        bookcases["attic"] = json!({
            "count": 2,
            "name": "attic-${count.index}",
            "shelf": {"label": "s${count.index}", "divider": []},
            "trim": null,
            "slot": [{"a": {"size": "${count.index}"}}]
        });
    }
    json!({
        "//": format!("step {step}"),
        "terraform": {"required_providers": {"shelf": {"source": "example.test/ferro/shelf", "version": "1.0.0"}}},
        "provider": {"shelf": {"owner": "interop", "defaults": {"genre": "scifi"}}},
        "resource": {"shelf_bookcase": bookcases},
        "output": {"labels": {"value": "${shelf_bookcase.hall.shelf[*].label}"}}
    })
}

/// The parts of a `show -json` plan both tools must agree on: everything but `prior_state`
/// (Terraform 1.0.3 records the planned output values there).
fn plan_document(json_text: &str) -> Result<serde_json::Value, String> {
    let mut v: serde_json::Value = serde_json::from_str(json_text)
        .map_err(|e| format!("show -json is not JSON: {e}\n{json_text}"))?;
    if let Some(m) = v.as_object_mut() {
        m.remove("prior_state");
    }
    Ok(v)
}

/// Which top-level parts of two plan documents differ, with both versions of each.
fn same_document(
    what: &str,
    tf: &serde_json::Value,
    ferro: &serde_json::Value,
) -> Result<(), String> {
    if tf == ferro {
        return Ok(());
    }
    let keys: std::collections::BTreeSet<&String> = tf
        .as_object()
        .into_iter()
        .chain(ferro.as_object())
        .flat_map(|m| m.keys())
        .collect();
    let mut out = format!("{what} differ");
    for k in keys {
        if tf.get(k) != ferro.get(k) {
            let pretty = |v: Option<&serde_json::Value>| {
                v.map(|v| serde_json::to_string_pretty(v).unwrap_or_default())
                    .unwrap_or_else(|| "(absent)".into())
            };
            out.push_str(&format!(
                "\n--- {k}\n  terraform: {}\n  ferro:     {}",
                pretty(tf.get(k)),
                pretty(ferro.get(k))
            ));
        }
    }
    Err(out)
}

/// What one tool produced in one step: the plan document and the state attributes by address.
type DocumentStep = (serde_json::Value, BTreeMap<String, serde_json::Value>);

/// Nested blocks in `.tf.json` (read against the provider's schema): both tools plan the same
/// `show -json` document and record the same state through create, update, no-op and destroy,
/// and both refuse a block given as a string.
fn json_nested_blocks(env: &Env) -> Result<(), String> {
    let mut results: BTreeMap<&str, Vec<DocumentStep>> = BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "json-nested-blocks", tool, "")?;
        std::fs::remove_file(dir.join("main.tf")).map_err(|e| e.to_string())?;
        let write_json = |config: &serde_json::Value| {
            let text = serde_json::to_string_pretty(config).map_err(|e| e.to_string())?;
            std::fs::write(dir.join("main.tf.json"), text).map_err(|e| e.to_string())
        };
        write_json(&bookcase_json(1))?;
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let mut per_step = Vec::new();
        for step in [1, 2] {
            write_json(&bookcase_json(step))?;
            let shown = plan_show_apply(env, tool, &dir)?;
            per_step.push((
                plan_document(&shown)?,
                state_attributes(&dir.join("terraform.tfstate"), &[])?,
            ));
        }
        env.expect(
            tool,
            &dir,
            &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
            0,
        )?;
        // A block type given a string: refused, with HashiCorp's summary.
        let mut bad = bookcase_json(2);
        bad["resource"]["shelf_bookcase"]["hall"]["trim"] = serde_json::Value::from("oak");
        write_json(&bad)?;
        let refused = env.expect(tool, &dir, &["plan", "-no-color", "-input=false"], 1)?;
        if !refused.stderr.contains("Incorrect JSON value type")
            && !refused.stdout.contains("Incorrect JSON value type")
        {
            return Err(format!("{tool:?}: a string for a block is not reported as an incorrect JSON value type:\n{}{}", refused.stdout, refused.stderr));
        }
        write_json(&bookcase_json(2))?;
        env.expect(
            tool,
            &dir,
            &["destroy", "-no-color", "-input=false", "-auto-approve"],
            0,
        )?;
        let left = state_attributes(&dir.join("terraform.tfstate"), &[])?;
        if !left.is_empty() {
            return Err(format!(
                "{tool:?}: objects left after destroy: {:?}",
                left.keys().collect::<Vec<_>>()
            ));
        }
        results.insert(tool.name(), per_step);
    }
    let hall_shelves = results["ferro"][0]
        .1
        .get("shelf_bookcase.hall")
        .and_then(|a| a.get("shelf"))
        .and_then(|s| s.as_array())
        .map(Vec::len);
    same(
        "step 1 shelves of shelf_bookcase.hall in ferro's state",
        &Some(2),
        &hall_shelves,
    )?;
    for (i, (tf, fe)) in results["terraform"]
        .iter()
        .zip(&results["ferro"])
        .enumerate()
    {
        same_document(&format!("step {} show -json", i + 1), &tf.0, &fe.0)?;
        same(&format!("step {} state attributes", i + 1), &tf.1, &fe.1)?;
    }
    Ok(())
}

/// Override files in both syntaxes over primary files in both syntaxes, with the test
/// provider's nested blocks: a JSON override's property replaces the native blocks of its name,
/// a native override's blocks replace a JSON primary's property; locals, variables and outputs
/// are overridden too. Both tools must plan the same document and write the same state, and
/// plan nothing afterwards.
fn json_override(env: &Env) -> Result<(), String> {
    const MAIN: &str = r#"
variable "colour" {
  default = "oak"
}

locals {
  suffix = "native"
}

resource "shelf_bookcase" "hall" {
  name = "hall-${local.suffix}"
  shelf {
    label = "top"
  }
  shelf {
    label = "bottom"
  }
  trim {
    color = var.colour
  }
}

output "hall_labels" {
  value = shelf_bookcase.hall.shelf[*].label
}
"#;
    const DESK: &str = r#"{
  "resource": {
    "shelf_bookcase": {
      "desk": {
        "name": "desk",
        "shelf": [{"label": "one", "books": ["a"]}],
        "trim": {"color": "pine"},
        "slot": {"left": {"size": 1}}
      }
    }
  },
  "output": {
    "desk_name": {"value": "${shelf_bookcase.desk.name}"}
  }
}
"#;
    const HALL_OVERRIDE: &str = r#"{
  "locals": {"suffix": "json"},
  "variable": {"colour": {"default": "walnut"}},
  "resource": {
    "shelf_bookcase": {
      "hall": {
        "shelf": {"label": "only", "books": ["x", "y"], "divider": [{"at": 3}]}
      }
    }
  }
}
"#;
    const DESK_OVERRIDE: &str = r#"resource "shelf_bookcase" "desk" {
  name = "desk-native"
  shelf {
    label = "first"
  }
  shelf {
    label = "second"
  }
}

output "desk_name" {
  value = upper(shelf_bookcase.desk.name)
}
"#;
    let mut results: BTreeMap<&str, (serde_json::Value, BTreeMap<String, serde_json::Value>)> =
        BTreeMap::new();
    for tool in [Tool::Terraform, Tool::Ferro] {
        let dir = workdir(env, "json-override", tool, &format!("{SHELF_HEADER}{MAIN}"))?;
        for (name, text) in [
            ("desk.tf.json", DESK),
            ("hall_override.tf.json", HALL_OVERRIDE),
            ("desk_override.tf", DESK_OVERRIDE),
        ] {
            std::fs::write(dir.join(name), text).map_err(|e| e.to_string())?;
        }
        env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
        let shown = plan_show_apply(env, tool, &dir)?;
        env.expect(
            tool,
            &dir,
            &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
            0,
        )?;
        results.insert(
            tool.name(),
            (
                plan_document(&shown)?,
                state_attributes(&dir.join("terraform.tfstate"), &[])?,
            ),
        );
    }
    let (tf, fe) = (&results["terraform"], &results["ferro"]);
    let hall_labels =
        fe.1.get("shelf_bookcase.hall")
            .and_then(|a| a.get("shelf"))
            .and_then(|s| s.as_array())
            .map(|s| s.iter().map(|x| x["label"].clone()).collect::<Vec<_>>());
    same(
        "shelves of shelf_bookcase.hall in ferro's state",
        &Some(vec![serde_json::Value::from("only")]),
        &hall_labels,
    )?;
    same_document("show -json", &tf.0, &fe.0)?;
    same("state attributes", &tf.1, &fe.1)
}

/// Lay out the protocol-6 test provider as a filesystem-mirror package (a wrapper script that
/// runs it with the oracle virtualenv's Python).
fn install_shelf(env_dir: &Path, oracles: &Oracles, repo: &Path) -> Result<PathBuf, String> {
    let mirror = env_dir.join("mirror");
    let pkg = mirror.join("example.test/ferro/shelf/1.0.0/linux_amd64");
    std::fs::create_dir_all(&pkg).map_err(|e| e.to_string())?;
    let script = repo.join("testdata/interop/providers/terraform-provider-shelf.py");
    let wrapper = pkg.join("terraform-provider-shelf_v1.0.0");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\nexec \"{}\" \"{}\" \"$@\"\n",
            oracles.python.display(),
            script.display()
        ),
    )
    .map_err(|e| e.to_string())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| e.to_string())?;
    }
    Ok(mirror)
}

/// Everything the scenarios need: the oracles, a ferro binary, a CLI configuration.
pub fn setup(repo: &Path, ferro: PathBuf) -> Result<Env, String> {
    let oracles = crate::oracles::ensure()?;
    let work = std::env::temp_dir().join(format!("ferro-interop-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let shelf_mirror = install_shelf(&work, &oracles, repo)?;
    let cli_config = work.join("terraformrc");
    std::fs::write(
        &cli_config,
        format!(
            "provider_installation {{\n  filesystem_mirror {{\n    path    = \"{}\"\n    include = [\"registry.terraform.io/hashicorp/null\"]\n  }}\n  filesystem_mirror {{\n    path    = \"{}\"\n    include = [\"example.test/*/*\"]\n  }}\n}}\n",
            oracles.mirror.display(),
            shelf_mirror.display()
        ),
    )
    .map_err(|e| e.to_string())?;
    Ok(Env {
        oracles,
        ferro,
        cli_config,
        work,
    })
}

pub type Scenario = (&'static str, fn(&Env) -> Result<(), String>);

pub const SCENARIOS: &[Scenario] = &[
    ("null-lifecycle", null_lifecycle),
    ("state-exchange", state_exchange),
    ("shelf-lifecycle", shelf_lifecycle),
    ("json-nested-blocks", json_nested_blocks),
    ("json-override", json_override),
    ("module-tree", crate::interop_modules::module_tree),
    ("module-graph", crate::interop_modules::module_graph),
    (
        "module-state-exchange",
        crate::interop_modules::module_state_exchange,
    ),
];

/// Run the scenarios whose names contain `filter`; returns the failures.
pub fn run_all(env: &Env, filter: Option<&str>) -> Vec<(String, String)> {
    let mut failures = Vec::new();
    for (name, f) in SCENARIOS
        .iter()
        .chain(crate::interop_lifecycle::SCENARIOS)
        .chain(crate::interop_deferral::SCENARIOS)
        .chain(crate::interop_render::SCENARIOS)
        .chain(crate::interop_sensitive::SCENARIOS)
        .chain(crate::interop_sdk::SCENARIOS)
        .chain(crate::interop_providers::SCENARIOS)
        .chain(crate::interop_trust::SCENARIOS)
        .chain(crate::interop_orphans::SCENARIOS)
        .chain(crate::interop_ssh::SCENARIOS)
        .chain(crate::interop_diag::SCENARIOS)
        .chain(crate::interop_registry::SCENARIOS)
        .chain(crate::interop_s3::SCENARIOS)
    {
        if filter.is_some_and(|x| !name.contains(x)) {
            continue;
        }
        match f(env) {
            Ok(()) => println!("ok      {name}"),
            Err(e) => {
                println!("FAIL    {name}");
                failures.push((name.to_string(), e));
            }
        }
    }
    failures
}
