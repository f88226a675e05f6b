//! Interop scenario `s3-shared-state`: ferro and Terraform 1.0.3 share one s3 backend (a
//! bucket and a DynamoDB lock table on the moto server `FERRO_MOTO_ENDPOINT` names, else the
//! one `tools/moto-test-server.sh` starts): each reads what the other wrote (Terraform checks
//! the digest item ferro keeps), each accepts the other's `init`, their locks exclude each
//! other, workspaces land under the same keys, and no lock is left behind.

use crate::interop::{same, Env, Output, Tool};
use ferro_state::aws::dynamodb::DynamoDbClient;
use ferro_state::aws::s3::S3Client;
use ferro_state::aws::{http_agent, AwsCredentials, Session};
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const KEY: &str = "shared/terraform.tfstate";
const REGION: &str = "us-east-1";

/// The moto endpoint (started when none is named).
pub fn moto_endpoint() -> Result<String, String> {
    if let Ok(e) = std::env::var("FERRO_MOTO_ENDPOINT") {
        if !e.is_empty() {
            return Ok(e);
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/moto-test-server.sh");
    let o = Command::new("bash")
        .arg(&script)
        .output()
        .map_err(|e| format!("cannot run tools/moto-test-server.sh: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "tools/moto-test-server.sh failed: {}",
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).trim().to_string())
}

/// A fresh bucket and lock table on `endpoint`.
pub struct Bucket {
    pub name: String,
    pub table: String,
    pub endpoint: String,
    pub s3: S3Client,
    pub ddb: DynamoDbClient,
}

impl Bucket {
    pub fn new(endpoint: &str, tag: &str) -> Result<Bucket, String> {
        let session = Arc::new(Session {
            agent: http_agent(false),
            creds: AwsCredentials {
                access_key_id: "test".into(),
                secret_access_key: "test".into(),
                session_token: None,
            },
            region: REGION.into(),
        });
        let id = &ferro_state::new_lineage().replace('-', "")[..10];
        let b = Bucket {
            name: format!("{tag}-{id}"),
            table: format!("{tag}-locks-{id}"),
            endpoint: endpoint.to_string(),
            s3: S3Client {
                session: session.clone(),
                endpoint: endpoint.to_string(),
                path_style: true,
            },
            ddb: DynamoDbClient {
                session,
                endpoint: endpoint.to_string(),
            },
        };
        b.s3.create_bucket(&b.name).map_err(|e| e.to_string())?;
        b.ddb
            .create_lock_table(&b.table)
            .map_err(|e| e.to_string())?;
        Ok(b)
    }

    /// A backend block in Terraform 1.0.3's spelling, with what it needs to talk to moto.
    pub fn backend(&self) -> String {
        format!(
            "terraform {{\n  backend \"s3\" {{\n    bucket = \"{b}\"\n    key = \"{KEY}\"\n    region = \"{REGION}\"\n    endpoint = \"{e}\"\n    dynamodb_endpoint = \"{e}\"\n    sts_endpoint = \"{e}\"\n    force_path_style = true\n    skip_credentials_validation = true\n    skip_metadata_api_check = true\n    dynamodb_table = \"{t}\"\n  }}\n}}\n",
            b = self.name,
            e = self.endpoint,
            t = self.table
        )
    }

    pub fn object(&self, key: &str) -> Result<Option<String>, String> {
        self.s3
            .get_object(&self.name, key)
            .map(|o| o.map(|b| String::from_utf8_lossy(&b).into_owned()))
            .map_err(|e| e.to_string())
    }

    /// The LockIDs of the lock table's items.
    pub fn lock_ids(&self) -> Result<Vec<String>, String> {
        let mut ids: Vec<String> = self
            .ddb
            .scan(&self.table)
            .map_err(|e| e.to_string())?
            .into_iter()
            .filter_map(|mut i| i.remove("LockID"))
            .collect();
        ids.sort();
        Ok(ids)
    }

    /// Wait until someone holds the lock of `key`.
    pub fn wait_for_lock(&self, key: &str) -> Result<(), String> {
        let id = format!("{}/{key}", self.name);
        let deadline = Instant::now() + Duration::from_secs(120);
        while !self.lock_ids()?.contains(&id) {
            if Instant::now() > deadline {
                return Err(format!("nobody took the lock {id}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }
}

/// A command of `tool` in `dir` with the test credentials.
pub fn command(env: &Env, tool: Tool, dir: &Path, args: &[&str]) -> Command {
    let bin = match tool {
        Tool::Terraform => &env.oracles.terraform,
        Tool::Ferro => &env.ferro,
    };
    let mut c = Command::new(bin);
    c.args(args)
        .current_dir(dir)
        .env("TF_CLI_CONFIG_FILE", &env.cli_config)
        .env("TF_IN_AUTOMATION", "1")
        .env("CHECKPOINT_DISABLE", "1")
        .env("AWS_ACCESS_KEY_ID", "test")
        .env("AWS_SECRET_ACCESS_KEY", "test")
        .env_remove("AWS_PROFILE")
        .env_remove("TF_LOG");
    c
}

/// Run and require exit code `code`.
pub fn expect(
    env: &Env,
    tool: Tool,
    dir: &Path,
    args: &[&str],
    code: i32,
) -> Result<Output, String> {
    let o = command(env, tool, dir, args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {tool:?}: {e}"))?;
    let out = Output {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    if out.code != code {
        return Err(format!(
            "{tool:?} {}: exit {} (wanted {code})\n--- stdout\n{}\n--- stderr\n{}",
            args.join(" "),
            out.code,
            out.stdout,
            out.stderr
        ));
    }
    Ok(out)
}

/// Start an apply that waits for approval (holding the lock).
fn start_apply(env: &Env, tool: Tool, dir: &Path) -> Result<Child, String> {
    command(env, tool, dir, &["apply", "-no-color", "-input=true"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {tool:?}: {e}"))
}

fn approve(tool: Tool, mut child: Child) -> Result<(), String> {
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"yes\n");
    }
    let o = child.wait_with_output().map_err(|e| e.to_string())?;
    if !o.status.success() {
        return Err(format!(
            "{tool:?} apply failed after approval:\n{}\n{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ));
    }
    Ok(())
}

fn config(b: &Bucket, value: u32) -> String {
    format!("{}output \"x\" {{\n  value = {value}\n}}\n", b.backend())
}

fn state_of(text: Option<String>) -> Result<ferro_state::State, String> {
    let text = text.ok_or("no state object")?;
    ferro_state::read_state(text.as_bytes()).map_err(|e| e.0)
}

fn shared_state(env: &Env) -> Result<(), String> {
    let endpoint = moto_endpoint()?;
    let b = Bucket::new(&endpoint, "interop")?;
    let dir = crate::interop::workdir(env, "s3-shared-state", Tool::Ferro, &config(&b, 1))?;
    let (tf, fe) = (Tool::Terraform, Tool::Ferro);

    // Terraform initialises and writes; ferro, with Terraform's .terraform, reads it.
    expect(env, tf, &dir, &["init", "-input=false", "-no-color"], 0)?;
    expect(
        env,
        tf,
        &dir,
        &["apply", "-auto-approve", "-input=false", "-no-color"],
        0,
    )?;
    same(
        "x read by ferro",
        &"1".to_string(),
        &expect(env, fe, &dir, &["output", "-raw", "x"], 0)?.stdout,
    )?;
    let by_tf = state_of(b.object(KEY)?)?;

    // ferro writes; Terraform reads it (its digest check passes): same lineage, next serial.
    crate::interop::write(&dir, &config(&b, 2))?;
    expect(env, fe, &dir, &["apply", "-auto-approve", "-no-color"], 0)?;
    let by_ferro = state_of(b.object(KEY)?)?;
    same("lineage", &by_tf.lineage, &by_ferro.lineage)?;
    same("serial", &(by_tf.serial + 1), &by_ferro.serial)?;
    same(
        "x read by Terraform",
        &"2".to_string(),
        &expect(env, tf, &dir, &["output", "-raw", "x"], 0)?.stdout,
    )?;

    // ferro's init records the backend as Terraform does; Terraform accepts it.
    let meta = dir.join(".terraform/terraform.tfstate");
    let backend_of = |p: &Path| -> Result<serde_json::Value, String> {
        let t = std::fs::read_to_string(p).map_err(|e| e.to_string())?;
        let v: serde_json::Value = serde_json::from_str(&t).map_err(|e| e.to_string())?;
        Ok(v["backend"].clone())
    };
    let by_tf_init = backend_of(&meta)?;
    std::fs::remove_file(&meta).map_err(|e| e.to_string())?;
    expect(env, fe, &dir, &["init", "-no-color"], 0)?;
    same(
        ".terraform/terraform.tfstate backend",
        &by_tf_init,
        &backend_of(&meta)?,
    )?;
    expect(env, tf, &dir, &["plan", "-input=false", "-no-color"], 0)?;

    // Terraform holds the lock: ferro is refused and names Terraform's lock.
    crate::interop::write(&dir, &config(&b, 3))?;
    let holder = start_apply(env, tf, &dir)?;
    b.wait_for_lock(KEY)?;
    let blocked = expect(env, fe, &dir, &["apply", "-auto-approve", "-no-color"], 1)?;
    if !blocked.stderr.contains("ConditionalCheckFailedException")
        || !blocked.stderr.contains("Operation: OperationTypeApply")
    {
        return Err(format!(
            "ferro's lock error does not name Terraform's lock:\n{}",
            blocked.stderr
        ));
    }
    approve(tf, holder)?;
    same(
        "x read by ferro",
        &"3".to_string(),
        &expect(env, fe, &dir, &["output", "-raw", "x"], 0)?.stdout,
    )?;

    // ferro holds the lock: Terraform is refused, the object untouched.
    crate::interop::write(&dir, &config(&b, 4))?;
    let holder = start_apply(env, fe, &dir)?;
    b.wait_for_lock(KEY)?;
    let before = b.object(KEY)?;
    let blocked = expect(
        env,
        tf,
        &dir,
        &["apply", "-auto-approve", "-input=false", "-no-color"],
        1,
    )?;
    if !blocked.stderr.contains("Error acquiring the state lock") {
        return Err(format!("Terraform was not locked out:\n{}", blocked.stderr));
    }
    same("state while ferro holds the lock", &before, &b.object(KEY)?)?;
    approve(fe, holder)?;
    same(
        "x read by Terraform",
        &"4".to_string(),
        &expect(env, tf, &dir, &["output", "-raw", "x"], 0)?.stdout,
    )?;

    // Workspaces made by one tool are seen by the other, under the same keys.
    expect(env, tf, &dir, &["workspace", "new", "-no-color", "tfws"], 0)?;
    expect(env, fe, &dir, &["workspace", "new", "fws"], 0)?;
    expect(env, fe, &dir, &["apply", "-auto-approve", "-no-color"], 0)?;
    for ws in ["tfws", "fws"] {
        if b.object(&format!("env:/{ws}/{KEY}"))?.is_none() {
            return Err(format!(
                "no state object for workspace {ws} under env:/{ws}/{KEY}"
            ));
        }
    }
    let tf_list = expect(env, tf, &dir, &["workspace", "list", "-no-color"], 0)?.stdout;
    same(
        "workspaces listed by Terraform",
        &"  default\n* fws\n  tfws\n\n".to_string(),
        &tf_list,
    )?;
    let ferro_list = expect(env, fe, &dir, &["workspace", "list"], 0)?.stdout;
    same("workspaces listed by ferro", &tf_list, &ferro_list)?;
    same(
        "x in fws read by Terraform",
        &"4".to_string(),
        &expect(env, tf, &dir, &["output", "-raw", "x"], 0)?.stdout,
    )?;
    expect(
        env,
        tf,
        &dir,
        &["workspace", "select", "-no-color", "default"],
        0,
    )?;
    expect(
        env,
        tf,
        &dir,
        &["workspace", "delete", "-no-color", "fws"],
        0,
    )?;
    same(
        "workspaces listed by ferro",
        &"* default\n  tfws\n\n".to_string(),
        &expect(env, fe, &dir, &["workspace", "list"], 0)?.stdout,
    )?;

    // No lock is left behind: only the digest items remain.
    let ids = b.lock_ids()?;
    if let Some(lock) = ids.iter().find(|i| !i.ends_with("-md5")) {
        return Err(format!("a lock was left behind: {lock} (items: {ids:?})"));
    }
    Ok(())
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[("s3-shared-state", shared_state)];
