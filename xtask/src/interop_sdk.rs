//! Interop scenarios for ferro-sdk: Terraform 1.0.3 drives the ferro-built provider plugins
//! (`terraform-provider-random`, `terraform-provider-null`, `terraform-provider-local`) through `dev_overrides`, and ferro's
//! built-in `null` is compared with HashiCorp's null 2.1.2 plugin.

use crate::interop::{plan_actions, state_attributes, Env, Tool};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Run `tool` in `dir` with a specific CLI configuration; require exit code `code`.
fn run_with(
    env: &Env,
    tool: Tool,
    cli_config: &Path,
    dir: &Path,
    args: &[&str],
    code: i32,
) -> Result<String, String> {
    let bin = match tool {
        Tool::Terraform => &env.oracles.terraform,
        Tool::Ferro => &env.ferro,
    };
    let o = Command::new(bin)
        .args(args)
        .current_dir(dir)
        .env("TF_CLI_CONFIG_FILE", cli_config)
        .env("TF_IN_AUTOMATION", "1")
        .env("CHECKPOINT_DISABLE", "1")
        .env_remove("TF_LOG")
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bin.display()))?;
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    if o.status.code() != Some(code) {
        return Err(format!(
            "{tool:?} {} in {}: exit {:?} (wanted {code})\n--- stdout\n{stdout}\n--- stderr\n{}",
            args.join(" "),
            dir.display(),
            o.status.code(),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(stdout)
}

fn fresh_dir(env: &Env, name: &str) -> Result<PathBuf, String> {
    let d = env.work.join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).map_err(|e| e.to_string())?;
    Ok(d)
}

fn write(dir: &Path, file: &str, text: &str) -> Result<(), String> {
    std::fs::write(dir.join(file), text).map_err(|e| e.to_string())
}

const PLUGIN_CONFIG: &str = r#"
variable "k" {
  default = "one"
}

resource "random_id" "a" {
  byte_length = 4
  keepers = {
    k = var.k
  }
}

resource "random_password" "p" {
  length = 16
}

resource "null_resource" "n" {
  triggers = {
    hex = random_id.a.hex
  }
}

resource "local_file" "f" {
  filename = "${path.module}/out/id.txt"
  content  = random_id.a.b64_std
}

output "hex" {
  value = random_id.a.hex
}
"#;

/// Terraform 1.0.3 runs ferro's plugin binaries (AutoMTLS, protocol 6): init, plan, apply,
/// no-op replan, a deleted file detected as drift, a keepers change that replaces, destroy.
fn plugins_under_terraform(env: &Env) -> Result<(), String> {
    let bins = env
        .ferro
        .parent()
        .ok_or("no target directory")?
        .to_path_buf();
    for p in [
        "terraform-provider-random",
        "terraform-provider-null",
        "terraform-provider-local",
    ] {
        if !bins.join(p).is_file() {
            return Err(format!("{p} was not built in {}", bins.display()));
        }
    }
    let dir = fresh_dir(env, "sdk-plugins")?;
    let cli = dir.join("terraformrc");
    write(
        &dir,
        "terraformrc",
        &format!(
            "provider_installation {{\n  dev_overrides {{\n    \"hashicorp/random\" = \"{0}\"\n    \"hashicorp/null\" = \"{0}\"\n    \"hashicorp/local\" = \"{0}\"\n  }}\n  direct {{}}\n}}\n",
            bins.display()
        ),
    )?;
    let work = dir.join("w");
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    write(&work, "main.tf", PLUGIN_CONFIG)?;
    let tf = Tool::Terraform;
    let plan = |args: &[&str]| -> Result<Vec<(String, Vec<String>)>, String> {
        let mut a = vec!["plan", "-no-color", "-input=false", "-out=tfplan"];
        a.extend_from_slice(args);
        run_with(env, tf, &cli, &work, &a, 0)?;
        let shown = run_with(env, tf, &cli, &work, &["show", "-json", "tfplan"], 0)?;
        let actions = plan_actions(&shown)?;
        run_with(
            env,
            tf,
            &cli,
            &work,
            &["apply", "-no-color", "-input=false", "tfplan"],
            0,
        )?;
        Ok(actions)
    };
    let create = plan(&[])?;
    let want_create: Vec<(String, Vec<String>)> = [
        "local_file.f",
        "null_resource.n",
        "random_id.a",
        "random_password.p",
    ]
    .iter()
    .map(|a| (a.to_string(), vec!["create".to_string()]))
    .collect();
    if create != want_create {
        return Err(format!("first plan: {create:?}"));
    }
    let state = state_attributes(&work.join("terraform.tfstate"), &[])?;
    let hex = state
        .get("random_id.a")
        .and_then(|a| a.get("hex"))
        .and_then(|h| h.as_str())
        .unwrap_or("")
        .to_string();
    if hex.len() != 8 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(format!("random_id.a.hex is not 4 bytes of hex: {hex:?}"));
    }
    // The local plugin declares a resource identity for local_file (protocol 5.9/6.9):
    // Terraform 1.0.3 does not ask for it, and its state has none.
    let state_path = work.join("terraform.tfstate");
    if !instance_identities(&state_path)?.is_empty() {
        return Err("Terraform 1.0.3 recorded resource identities".into());
    }
    // ferro, with the same plugins, records local_file's identity; Terraform 1.0.3 then reads
    // that state, ignoring what it does not know, and carries on below.
    run_with(
        env,
        Tool::Ferro,
        &cli,
        &work,
        &[
            "apply",
            "-refresh-only",
            "-auto-approve",
            "-no-color",
            "-input=false",
        ],
        0,
    )?;
    let identities = instance_identities(&state_path)?;
    let want = serde_json::json!({"filename": "./out/id.txt"});
    if identities.get("local_file.f") != Some(&want) || identities.len() != 1 {
        return Err(format!(
            "ferro recorded the identities {identities:?}, not local_file.f's {want}"
        ));
    }
    // No changes on a second plan.
    run_with(
        env,
        tf,
        &cli,
        &work,
        &["plan", "-no-color", "-input=false", "-detailed-exitcode"],
        0,
    )?;
    // The file disappears outside Terraform: refresh notices, and the plan creates it again.
    let file = work.join("out/id.txt");
    std::fs::remove_file(&file).map_err(|e| format!("cannot remove {}: {e}", file.display()))?;
    let recreate: Vec<_> = plan(&[])?
        .into_iter()
        .filter(|(_, a)| a != &["no-op".to_string()])
        .collect();
    if recreate != [("local_file.f".to_string(), vec!["create".to_string()])] {
        return Err(format!("after deleting the file: {recreate:?}"));
    }
    if !file.is_file() {
        return Err("apply did not write the file again".into());
    }
    // A keepers change replaces random_id.a, and through its new values null_resource.n and
    // local_file.f.
    let replace = plan(&["-var", "k=two"])?;
    let replaced: Vec<&str> = replace
        .iter()
        .filter(|(_, a)| a == &["delete".to_string(), "create".to_string()])
        .map(|(n, _)| n.as_str())
        .collect();
    if replaced != ["local_file.f", "null_resource.n", "random_id.a"] {
        return Err(format!("keepers change: {replace:?}"));
    }
    let after = state_attributes(&work.join("terraform.tfstate"), &[])?;
    if after.get("random_password.p") != state.get("random_password.p") {
        return Err("random_password.p changed although nothing about it did".into());
    }
    run_with(
        env,
        tf,
        &cli,
        &work,
        &[
            "destroy",
            "-no-color",
            "-input=false",
            "-auto-approve",
            "-var",
            "k=two",
        ],
        0,
    )?;
    let left = state_attributes(&work.join("terraform.tfstate"), &[])?;
    if !left.is_empty() {
        return Err(format!("objects left after destroy: {:?}", left.keys()));
    }
    if file.exists() {
        return Err("destroy left the file behind".into());
    }
    Ok(())
}

/// `FERRO_RPC_STATS` of one ferro run: calls by method.
fn rpc_stats(
    env: &Env,
    cli: &Path,
    dir: &Path,
    args: &[&str],
) -> Result<(String, std::collections::BTreeMap<String, u64>), String> {
    let stats = dir.join(".rpc-stats");
    let _ = std::fs::remove_file(&stats);
    let o = Command::new(&env.ferro)
        .args(args)
        .current_dir(dir)
        .env("TF_CLI_CONFIG_FILE", cli)
        .env("TF_IN_AUTOMATION", "1")
        .env("FERRO_RPC_STATS", &stats)
        .env_remove("TF_LOG")
        .output()
        .map_err(|e| format!("cannot run ferro: {e}"))?;
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    if !o.status.success() {
        return Err(format!(
            "ferro {}: {}\n{stdout}\n{}",
            args.join(" "),
            o.status,
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    let text = std::fs::read_to_string(&stats).unwrap_or_default();
    Ok((stdout, crate::bench_scale::ferro_calls(&text)))
}

/// ferro keeps a provider package's schema in `.terraform/` across runs when the provider says
/// the call is optional (ferro-sdk plugins do): installed from a filesystem mirror, the first
/// plan asks for the schema and the second does not, with the same plan; a damaged cache file
/// is asked again; Terraform 1.0.3 works in the same directory.
fn schema_cache(env: &Env) -> Result<(), String> {
    let bins = env.ferro.parent().ok_or("no target directory")?;
    let dir = fresh_dir(env, "sdk-schema-cache")?;
    let platform = ferro_testkit::registry::platform();
    let pkg = dir.join(format!(
        "mirror/registry.terraform.io/hashicorp/random/3.7.2/{platform}"
    ));
    std::fs::create_dir_all(&pkg).map_err(|e| e.to_string())?;
    std::fs::copy(
        bins.join("terraform-provider-random"),
        pkg.join("terraform-provider-random_v3.7.2"),
    )
    .map_err(|e| format!("cannot copy the random plugin: {e}"))?;
    let cli = dir.join("terraformrc");
    write(
        &dir,
        "terraformrc",
        &format!(
            "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
            dir.join("mirror").display()
        ),
    )?;
    let work = dir.join("w");
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    write(
        &work,
        "main.tf",
        "terraform {\n  required_providers {\n    random = {\n      source  = \"hashicorp/random\"\n      version = \"3.7.2\"\n    }\n  }\n}\n\nresource \"random_id\" \"a\" {\n  byte_length = 4\n}\n\nprovider \"random\" {\n  alias = \"second\"\n}\n\nresource \"random_id\" \"b\" {\n  provider    = random.second\n  byte_length = 2\n}\n",
    )?;
    run_with(env, Tool::Ferro, &cli, &work, &["init", "-no-color"], 0)?;
    let cache = work.join(".terraform/ferro-schema-cache");
    // `init` may have kept the schema already (it writes the editor's catalog): start without.
    let _ = std::fs::remove_dir_all(&cache);
    let plan = ["plan", "-no-color", "-input=false"];
    let (first, calls) = rpc_stats(env, &cli, &work, &plan)?;
    let asked = calls.get("GetProviderSchema").copied().unwrap_or(0);
    if asked == 0 {
        return Err(format!(
            "the first plan did not ask for the schema: {calls:?}"
        ));
    }
    let files: Vec<PathBuf> = std::fs::read_dir(&cache)
        .map_err(|e| format!("no schema cache in {}: {e}", cache.display()))?
        .flatten()
        .map(|e| e.path())
        .collect();
    if files.len() != 1 || !files[0].to_string_lossy().ends_with(".pb") {
        return Err(format!("schema cache holds {files:?}"));
    }
    // Both provider configurations (two processes) take the cached schema.
    let (second, calls) = rpc_stats(env, &cli, &work, &plan)?;
    if calls.contains_key("GetProviderSchema") || calls.contains_key("GetResourceIdentitySchemas") {
        return Err(format!(
            "the second plan asked for the schema again: {calls:?}"
        ));
    }
    if first != second {
        return Err(format!(
            "the plan differs with the cached schema:\n{first}\n---\n{second}"
        ));
    }
    std::fs::write(&files[0], b"not a schema").map_err(|e| e.to_string())?;
    let (third, calls) = rpc_stats(env, &cli, &work, &plan)?;
    if calls.get("GetProviderSchema").copied().unwrap_or(0) == 0 || third != first {
        return Err(format!(
            "a damaged cache was not asked again: {calls:?}\n{third}"
        ));
    }
    // Terraform 1.0.3 reads the same `.terraform/` and lock file.
    run_with(env, Tool::Terraform, &cli, &work, &["init", "-no-color"], 0)?;
    run_with(
        env,
        Tool::Terraform,
        &cli,
        &work,
        &["plan", "-no-color", "-input=false"],
        0,
    )?;
    Ok(())
}

/// The resource identities a state file records, by resource address (root module, no keys).
fn instance_identities(
    path: &Path,
) -> Result<std::collections::BTreeMap<String, serde_json::Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let state: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = std::collections::BTreeMap::new();
    for r in state["resources"].as_array().into_iter().flatten() {
        for i in r["instances"].as_array().into_iter().flatten() {
            if let Some(id) = i.get("identity").filter(|v| !v.is_null()) {
                let addr = format!(
                    "{}.{}",
                    r["type"].as_str().unwrap_or_default(),
                    r["name"].as_str().unwrap_or_default()
                );
                out.insert(addr, id.clone());
            }
        }
    }
    Ok(out)
}

const NULL_DIFF_CONFIG: &str = r#"
variable "t" {
  default = "one"
}

data "null_data_source" "d" {
  inputs = {
    a = var.t
  }
}

resource "null_resource" "r" {
  count = 2
  triggers = {
    v = data.null_data_source.d.outputs["a"]
    i = count.index
  }
}

resource "null_resource" "plain" {}
"#;

/// ferro with its built-in null against Terraform with HashiCorp's null 2.1.2: the same plan
/// actions and state attributes (ids and random values aside) at every step.
fn builtin_null_differential(env: &Env) -> Result<(), String> {
    let dir = fresh_dir(env, "sdk-null-diff")?;
    let empty = dir.join("empty-mirror");
    std::fs::create_dir_all(&empty).map_err(|e| e.to_string())?;
    let builtin_cli = dir.join("builtin.tfrc");
    write(
        &dir,
        "builtin.tfrc",
        &format!(
            "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
            empty.display()
        ),
    )?;
    let mut results = Vec::new();
    for (tool, cli) in [
        (Tool::Terraform, env.cli_config.clone()),
        (Tool::Ferro, builtin_cli.clone()),
    ] {
        let work = dir.join(format!("{tool:?}").to_lowercase());
        std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
        write(&work, "main.tf", NULL_DIFF_CONFIG)?;
        let init = run_with(
            env,
            tool,
            &cli,
            &work,
            &["init", "-no-color", "-input=false"],
            0,
        )?;
        if tool == Tool::Ferro && !init.contains("built-in hashicorp/null") {
            return Err(format!("ferro did not choose its built-in null:\n{init}"));
        }
        let mut steps = Vec::new();
        for var in ["t=one", "t=two"] {
            run_with(
                env,
                tool,
                &cli,
                &work,
                &[
                    "plan",
                    "-no-color",
                    "-input=false",
                    "-out=tfplan",
                    "-var",
                    var,
                ],
                0,
            )?;
            let shown = run_with(env, tool, &cli, &work, &["show", "-json", "tfplan"], 0)?;
            let actions = plan_actions(&shown)?;
            run_with(
                env,
                tool,
                &cli,
                &work,
                &["apply", "-no-color", "-input=false", "tfplan"],
                0,
            )?;
            let attrs = state_attributes(&work.join("terraform.tfstate"), &["id", "random"])?;
            steps.push((actions, attrs));
        }
        run_with(
            env,
            tool,
            &cli,
            &work,
            &[
                "destroy",
                "-no-color",
                "-input=false",
                "-auto-approve",
                "-var",
                "t=two",
            ],
            0,
        )?;
        results.push(steps);
    }
    for (i, (tf, fe)) in results[0].iter().zip(&results[1]).enumerate() {
        if tf.0 != fe.0 {
            return Err(format!(
                "step {} plan actions differ\n  terraform: {:?}\n  ferro:     {:?}",
                i + 1,
                tf.0,
                fe.0
            ));
        }
        if tf.1 != fe.1 {
            return Err(format!(
                "step {} state attributes differ\n  terraform: {:?}\n  ferro:     {:?}",
                i + 1,
                tf.1,
                fe.1
            ));
        }
    }
    Ok(())
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[
    ("sdk-plugins-under-terraform", plugins_under_terraform),
    ("sdk-schema-cache", schema_cache),
    ("sdk-builtin-null-differential", builtin_null_differential),
];
