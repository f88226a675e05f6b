//! The s3 backend against a real S3 and DynamoDB API (moto): init, apply, state commands,
//! workspaces, locks held and refused (DynamoDB and lock files), force-unlock, the md5 digest
//! item, errored.tfstate, credentials from files and roles, bad input, and
//! `init -migrate-state` between local, s3 and pg. The http backend against a small server the
//! test starts. Needs moto: `FERRO_MOTO_ENDPOINT`, else `tools/moto-test-server.sh` starts one;
//! without one these tests fail.

mod s3_support;
use s3_support::*;

const KEY: &str = "app/terraform.tfstate";

fn resource(input: &str) -> String {
    format!("resource \"terraform_data\" \"a\" {{\n  input = \"{input}\"\n}}\noutput \"x\" {{\n  value = terraform_data.a.output\n}}\n")
}

fn md5_hex(bytes: &[u8]) -> String {
    use md5::Digest;
    md5::Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn s3_backend_commands_workspaces_locks_and_digests() {
    let b = Bucket::new("cmds");
    let d = TempDir::new("cmds");
    d.write(
        "main.tf",
        &format!("{}{}", b.backend(KEY, ""), resource("one")),
    );

    let o = run(FERRO, &d.0, &["-no-color", "plan"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("Backend initialization required"));
    let out = ok(
        FERRO,
        &d.0,
        &[
            "-no-color",
            "init",
            "-backend-config=workspace_key_prefix=ws",
        ],
    );
    assert!(
        out.contains("Successfully configured the backend \"s3\""),
        "{out}"
    );
    // Recorded as Terraform records it: every argument of its schema, the credentials from
    // the environment nowhere.
    let meta = std::fs::read_to_string(d.0.join(".terraform/terraform.tfstate")).unwrap();
    assert!(meta.contains("\"type\": \"s3\""), "{meta}");
    assert!(meta.contains("\"workspace_key_prefix\": \"ws\""), "{meta}");
    assert!(meta.contains("\"sse_customer_key\": null"), "{meta}");
    assert!(!meta.contains("\"test\""), "{meta}");

    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(out.contains("1 added"), "{out}");
    let stored = b.object(KEY).expect("the state object");
    assert!(stored.contains("\"terraform_data\""));
    // The digest item is kept in step with the object; no lock is left behind.
    let items = b.items();
    let digest_id = format!("{}/{KEY}-md5", b.name);
    assert_eq!(items[&digest_id]["Digest"], md5_hex(stored.as_bytes()));
    assert_eq!(items.len(), 1, "{items:?}");

    // A second apply while the first holds the lock is refused, naming the holder.
    d.write(
        "main.tf",
        &format!("{}{}", b.backend(KEY, ""), resource("two")),
    );
    let first = start(FERRO, &d.0, &["-no-color", "apply"]);
    b.wait_for_lock(KEY);
    let info: serde_json::Value =
        serde_json::from_str(&b.items()[&format!("{}/{KEY}", b.name)]["Info"]).unwrap();
    assert_eq!(info["Operation"], "OperationTypeApply");
    assert_eq!(info["Path"], format!("{}/{KEY}", b.name));
    let second = run(
        FERRO,
        &d.0,
        &["-no-color", "apply", "-auto-approve", "-lock-timeout=1s"],
    );
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(err.contains("Error acquiring the state lock"), "{err}");
    assert!(err.contains("ConditionalCheckFailedException"), "{err}");
    assert_eq!(lock_id(&err), info["ID"].as_str().unwrap(), "{err}");
    let done = approve(first);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert!(text(&done.stdout).contains("1 changed"));
    assert_eq!(ok(FERRO, &d.0, &["output", "-raw", "x"]), "two");
    assert_eq!(b.items().len(), 1, "a lock was left behind");

    // force-unlock removes a lock item left by a holder (here: one written by hand, as a
    // killed process leaves it).
    let stale = r#"{"ID":"11111111-2222-3333-4444-555555555555","Operation":"OperationTypeApply","Info":"","Who":"x@y","Version":"1.0.3","Created":"2026-01-01T00:00:00Z","Path":""}"#;
    let lock_item = format!("{}/{KEY}", b.name);
    b.ddb
        .put_item(
            &b.table,
            &std::collections::BTreeMap::from([("LockID", lock_item.as_str()), ("Info", stale)]),
            false,
        )
        .unwrap();
    let blocked = run(FERRO, &d.0, &["-no-color", "plan"]);
    assert_eq!(blocked.status.code(), Some(1));
    assert!(text(&blocked.stderr).contains("11111111-2222-3333-4444-555555555555"));
    let bad = run(FERRO, &d.0, &["force-unlock", "-force", "no-such-lock"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad.stderr).contains("does not match existing lock"));
    let out = ok(
        FERRO,
        &d.0,
        &[
            "force-unlock",
            "-force",
            "11111111-2222-3333-4444-555555555555",
        ],
    );
    assert!(out.contains("successfully unlocked"), "{out}");
    ok(FERRO, &d.0, &["-no-color", "plan"]);

    // State commands read and write the object, and keep the digest in step.
    assert!(ok(FERRO, &d.0, &["state", "list"]).contains("terraform_data.a"));
    let pulled = ok(FERRO, &d.0, &["state", "pull"]);
    assert_eq!(pulled.trim(), b.object(KEY).unwrap().trim());
    ok(FERRO, &d.0, &["taint", "terraform_data.a"]);
    let tainted = b.object(KEY).unwrap();
    assert!(tainted.contains("\"status\": \"tainted\""));
    assert_eq!(b.items()[&digest_id]["Digest"], md5_hex(tainted.as_bytes()));
    ok(FERRO, &d.0, &["untaint", "terraform_data.a"]);

    // A state that does not match its digest (a write that did not update it) is refused, as
    // Terraform refuses it.
    let good = b.object(KEY).unwrap();
    b.s3.put_object(&b.name, KEY, b"{\"version\": 4}", Vec::new())
        .unwrap();
    let o = run(FERRO, &d.0, &["-no-color", "state", "list"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("does not have the expected content"),
        "{}",
        text(&o.stderr)
    );
    b.s3.put_object(&b.name, KEY, good.as_bytes(), Vec::new())
        .unwrap();

    // Workspaces live under the prefix, as Terraform lays them out.
    let out = ok(FERRO, &d.0, &["workspace", "new", "dev"]);
    assert!(out.contains("Created and switched to workspace \"dev\""));
    let dev_key = format!("ws/dev/{KEY}");
    assert!(b.object(&dev_key).is_some(), "{:?}", b.keys());
    assert_eq!(
        ok(FERRO, &d.0, &["workspace", "list"]),
        "  default\n* dev\n\n"
    );
    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(out.contains("1 added"), "{out}");
    ok(FERRO, &d.0, &["workspace", "select", "default"]);
    let o = run(FERRO, &d.0, &["workspace", "delete", "dev"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("is not empty"));
    ok(FERRO, &d.0, &["workspace", "delete", "-force", "dev"]);
    assert_eq!(ok(FERRO, &d.0, &["workspace", "list"]), "* default\n\n");
    assert!(b.object(&dev_key).is_none());
    assert!(!b.items().contains_key(&format!("{}/{dev_key}-md5", b.name)));
}

#[test]
fn s3_lockfile_locks_and_errored_state() {
    let b = Bucket::new("lockfile");
    let d = TempDir::new("lockfile");
    let backend = b.backend_lockfile(KEY);
    d.write("main.tf", &format!("{backend}{}", resource("one")));
    ok(FERRO, &d.0, &["-no-color", "init"]);
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    let lock_key = format!("{KEY}.tflock");

    d.write("main.tf", &format!("{backend}{}", resource("two")));
    let first = start(FERRO, &d.0, &["-no-color", "apply"]);
    b.wait_for_object(&lock_key);
    let info: serde_json::Value = serde_json::from_str(&b.object(&lock_key).unwrap()).unwrap();
    assert_eq!(info["Operation"], "OperationTypeApply");
    let second = run(FERRO, &d.0, &["-no-color", "plan"]);
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(err.contains("PreconditionFailed"), "{err}");
    assert_eq!(lock_id(&err), info["ID"].as_str().unwrap(), "{err}");
    let done = approve(first);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert!(
        b.object(&lock_key).is_none(),
        "the lock file was left behind"
    );
    assert_eq!(ok(FERRO, &d.0, &["output", "-raw", "x"]), "two");

    // The bucket disappears while an apply waits: the new state cannot be written and is
    // kept in errored.tfstate.
    d.write("main.tf", &format!("{backend}{}", resource("three")));
    let holder = start(FERRO, &d.0, &["-no-color", "apply"]);
    b.wait_for_object(&lock_key);
    for key in b.keys() {
        b.s3.delete_object(&b.name, &key).unwrap();
    }
    b.s3.delete_bucket(&b.name).unwrap();
    let failed = approve(holder);
    let err = text(&failed.stderr);
    assert_eq!(failed.status.code(), Some(1), "{err}");
    assert!(err.contains("NoSuchBucket"), "{err}");
    let errored = std::fs::read_to_string(d.0.join("errored.tfstate")).unwrap();
    assert!(errored.contains("\"three\""), "{errored}");
}

#[test]
fn s3_credentials_roles_and_bad_input() {
    let b = Bucket::new("creds");
    let d = TempDir::new("creds");

    // Unknown arguments and missing ones are named.
    d.write(
        "main.tf",
        "terraform {\n  backend \"s3\" {\n    bukket = \"x\"\n  }\n}\n",
    );
    let o = run(FERRO, &d.0, &["-no-color", "init"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("\"bukket\" is not expected here"));
    d.write(
        "main.tf",
        "terraform {\n  backend \"s3\" {\n    key = \"k\"\n    region = \"us-east-1\"\n  }\n}\n",
    );
    let o = run(FERRO, &d.0, &["-no-color", "init"]);
    assert!(text(&o.stderr).contains("\"bucket\" is required"));

    // A bucket that does not exist: the operation and the AWS error code are named.
    let missing = format!("{}-gone", b.name);
    let cfg = b
        .backend(KEY, "")
        .replace(&format!("\"{}\"", b.name), &format!("\"{missing}\""));
    d.write("main.tf", &format!("{cfg}{}", resource("one")));
    let o = run(FERRO, &d.0, &["-no-color", "init"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err.contains("ListObjectsV2") && err.contains("NoSuchBucket"),
        "{err}"
    );
    assert!(err.contains("HTTP status 404"), "{err}");

    // No credentials anywhere.
    d.write(
        "main.tf",
        &format!("{}{}", b.backend(KEY, ""), resource("one")),
    );
    let o = command(FERRO, &d.0, &["-no-color", "init"])
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env("HOME", &d.0)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("No valid credential sources found"));

    // A profile of a shared credentials file, and a role assumed through STS.
    d.write(
        "aws/credentials",
        "[ci]\naws_access_key_id = AKIDCI\naws_secret_access_key = from-the-file\n",
    );
    let creds = d.0.join("aws/credentials");
    let with_role = b.backend(
        KEY,
        &format!(
            "    profile = \"ci\"\n    shared_credentials_file = \"{}\"\n    role_arn = \"arn:aws:iam::123456789012:role/ferro\"\n    session_name = \"ferro-test\"\n",
            creds.display()
        ),
    );
    d.write("main.tf", &format!("{with_role}{}", resource("one")));
    let o = command(FERRO, &d.0, &["-no-color", "init"])
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env("HOME", &d.0)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = command(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"])
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env("HOME", &d.0)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(b.object(KEY).is_some());
    let meta = std::fs::read_to_string(d.0.join(".terraform/terraform.tfstate")).unwrap();
    assert!(!meta.contains("from-the-file"), "{meta}");

    // A web identity token (AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN).
    d.write("token", "eyJhbGciOiJub25lIn0.e30.");
    d.write(
        "main.tf",
        &format!("{}{}", b.backend(KEY, ""), resource("one")),
    );
    ok(FERRO, &d.0, &["-no-color", "init", "-reconfigure"]);
    let o = command(FERRO, &d.0, &["-no-color", "plan"])
        .env_remove("AWS_ACCESS_KEY_ID")
        .env_remove("AWS_SECRET_ACCESS_KEY")
        .env("HOME", &d.0)
        .env("AWS_WEB_IDENTITY_TOKEN_FILE", d.0.join("token"))
        .env("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/web")
        .env("AWS_ENDPOINT_URL_STS", &b.endpoint)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("No changes."));
}

#[test]
fn s3_migrate_state_between_local_s3_and_pg() {
    let b = Bucket::new("migrate");
    let d = TempDir::new("migrate");
    let body = resource("m");
    d.write("main.tf", &body);
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    ok(FERRO, &d.0, &["workspace", "new", "dev"]);
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    ok(FERRO, &d.0, &["workspace", "select", "default"]);
    let local = std::fs::read_to_string(d.0.join("terraform.tfstate")).unwrap();
    let lineage = ferro_state::read_state(local.as_bytes()).unwrap().lineage;

    // Local to s3, through a backend configuration file.
    d.write(
        "main.tf",
        &format!("terraform {{\n  backend \"s3\" {{\n    key = \"{KEY}\"\n  }}\n}}\n{body}"),
    );
    d.write(
        "s3.hcl",
        &format!(
            "bucket = \"{}\"\nregion = \"{REGION}\"\nendpoint = \"{e}\"\ndynamodb_endpoint = \"{e}\"\nforce_path_style = true\nskip_credentials_validation = true\ndynamodb_table = \"{}\"\n",
            b.name,
            b.table,
            e = b.endpoint
        ),
    );
    let out = ok(
        FERRO,
        &d.0,
        &[
            "-no-color",
            "init",
            "-migrate-state",
            "-force-copy",
            "-backend-config=s3.hcl",
        ],
    );
    assert!(
        out.contains("Successfully configured the backend \"s3\""),
        "{out}"
    );
    let moved = ferro_state::read_state(b.object(KEY).unwrap().as_bytes()).unwrap();
    assert_eq!(moved.lineage, lineage);
    assert!(b.object(&format!("env:/dev/{KEY}")).is_some());
    assert_eq!(std::fs::read(d.0.join("terraform.tfstate")).unwrap(), b"");
    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(out.contains("No changes."), "{out}");

    // s3 to pg.
    let pg = pg_server();
    let db = format!(
        "ferro_s3mig_{}",
        &ferro_state::new_lineage().replace('-', "")[..10]
    );
    let mut admin = postgres::Client::connect(&pg, postgres::NoTls).unwrap();
    admin
        .batch_execute(&format!("CREATE DATABASE {db}"))
        .unwrap();
    let conn = with_database(&pg, &db);
    d.write(
        "main.tf",
        &format!("terraform {{\n  backend \"pg\" {{\n    conn_str = \"{conn}\"\n  }}\n}}\n{body}"),
    );
    ok(
        FERRO,
        &d.0,
        &["-no-color", "init", "-migrate-state", "-force-copy"],
    );
    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(out.contains("No changes."), "{out}");
    ok(FERRO, &d.0, &["workspace", "select", "dev"]);
    assert!(ok(FERRO, &d.0, &["state", "list"]).contains("terraform_data.a"));
    ok(FERRO, &d.0, &["workspace", "select", "default"]);

    // pg back to s3, under another key.
    d.write(
        "main.tf",
        &format!("{}{body}", b.backend("moved/terraform.tfstate", "")),
    );
    ok(
        FERRO,
        &d.0,
        &["-no-color", "init", "-migrate-state", "-force-copy"],
    );
    let back =
        ferro_state::read_state(b.object("moved/terraform.tfstate").unwrap().as_bytes()).unwrap();
    assert_eq!(back.lineage, lineage);
    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(out.contains("No changes."), "{out}");
    drop(admin);
    if let Ok(mut c) = postgres::Client::connect(&pg, postgres::NoTls) {
        let _ = c.batch_execute(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"));
    }
}

/// The PostgreSQL test server (as the pg tests find it).
fn pg_server() -> String {
    if let Ok(c) = std::env::var("FERRO_PG_CONN_STR") {
        if !c.is_empty() {
            return c;
        }
    }
    let script =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/pg-test-server.sh");
    let o = std::process::Command::new("bash")
        .arg(&script)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "tools/pg-test-server.sh failed: {}",
        text(&o.stderr)
    );
    text(&o.stdout).trim().to_string()
}

fn with_database(url: &str, db: &str) -> String {
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let path_start = base[scheme_end..]
        .find('/')
        .map_or(base.len(), |i| scheme_end + i);
    let q = if query.is_empty() {
        String::new()
    } else {
        format!("?{query}")
    };
    format!("{}/{db}{q}", &base[..path_start])
}

#[test]
fn http_backend_state_locks_and_retries() {
    let server = HttpServer::start();
    let d = TempDir::new("http");
    let backend = format!(
        "terraform {{\n  backend \"http\" {{\n    address = \"{u}/state\"\n    lock_address = \"{u}/lock\"\n    unlock_address = \"{u}/lock\"\n    username = \"user\"\n    retry_wait_min = 0\n  }}\n}}\n",
        u = server.url
    );
    d.write("main.tf", &format!("{backend}{}", resource("one")));
    // Without the password: the server's 401 is named.
    let o = run(FERRO, &d.0, &["-no-color", "init"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("requires auth"),
        "{}",
        text(&o.stderr)
    );
    ok(
        FERRO,
        &d.0,
        &["-no-color", "init", "-backend-config=password=pw"],
    );
    // The password given on the command line is recorded as Terraform records it.
    let meta = std::fs::read_to_string(d.0.join(".terraform/terraform.tfstate")).unwrap();
    assert!(meta.contains("\"type\": \"http\""), "{meta}");

    // Two 503s are retried away.
    server.shared.lock().unwrap().fail_next = 2;
    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(out.contains("1 added"), "{out}");
    {
        let s = server.shared.lock().unwrap();
        assert!(s.lock.is_none(), "the lock was left behind");
        let st = String::from_utf8_lossy(s.state.as_ref().unwrap()).into_owned();
        assert!(st.contains("\"terraform_data\""));
        // Writes name the lock they hold.
        assert!(
            s.write_ids.iter().all(|id| id.len() == 36),
            "{:?}",
            s.write_ids
        );
    }

    d.write("main.tf", &format!("{backend}{}", resource("two")));
    let first = start(FERRO, &d.0, &["-no-color", "apply"]);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while server.shared.lock().unwrap().lock.is_none() {
        assert!(std::time::Instant::now() < deadline, "nobody took the lock");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let second = run(FERRO, &d.0, &["-no-color", "plan"]);
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(
        err.contains("HTTP remote state already locked: ID="),
        "{err}"
    );
    let done = approve(first);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert_eq!(ok(FERRO, &d.0, &["output", "-raw", "x"]), "two");
    assert!(server.shared.lock().unwrap().lock.is_none());

    // Only the default workspace.
    let o = run(FERRO, &d.0, &["workspace", "new", "dev"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("workspaces not supported"));
}

#[test]
fn terraform_remote_state_reads_s3_and_http_states() {
    let b = Bucket::new("remote");
    let server = HttpServer::start();
    let producer = TempDir::new("producer");
    producer.write(
        "main.tf",
        &format!(
            "{}output \"greeting\" {{\n  value = \"from s3\"\n}}\n",
            b.backend(KEY, "")
        ),
    );
    ok(FERRO, &producer.0, &["-no-color", "init"]);
    ok(FERRO, &producer.0, &["-no-color", "apply", "-auto-approve"]);
    ok(FERRO, &producer.0, &["workspace", "new", "dev"]);
    producer.write(
        "main.tf",
        &format!(
            "{}output \"greeting\" {{\n  value = \"from dev\"\n}}\n",
            b.backend(KEY, "")
        ),
    );
    ok(FERRO, &producer.0, &["-no-color", "apply", "-auto-approve"]);
    let http_producer = TempDir::new("http-producer");
    http_producer.write(
        "main.tf",
        &format!(
            "terraform {{\n  backend \"http\" {{\n    address = \"{}/state\"\n    username = \"user\"\n    password = \"pw\"\n  }}\n}}\noutput \"greeting\" {{\n  value = \"from http\"\n}}\n",
            server.url
        ),
    );
    ok(FERRO, &http_producer.0, &["-no-color", "init"]);
    ok(
        FERRO,
        &http_producer.0,
        &["-no-color", "apply", "-auto-approve"],
    );

    let consumer = TempDir::new("consumer");
    consumer.write(
        "main.tf",
        &format!(
            r#"data "terraform_remote_state" "s3" {{
  backend = "s3"
  config = {{
    bucket = "{b}"
    key = "{KEY}"
    region = "{REGION}"
    endpoints = {{ s3 = "{e}" }}
    use_path_style = true
    skip_credentials_validation = true
  }}
}}
data "terraform_remote_state" "dev" {{
  backend = "s3"
  workspace = "dev"
  config = {{
    bucket = "{b}"
    key = "{KEY}"
    region = "{REGION}"
    endpoint = "{e}"
    force_path_style = true
    skip_credentials_validation = true
  }}
}}
data "terraform_remote_state" "http" {{
  backend = "http"
  config = {{
    address = "{u}/state"
    username = "user"
    password = "pw"
  }}
}}
output "all" {{
  value = join(", ", [data.terraform_remote_state.s3.outputs.greeting, data.terraform_remote_state.dev.outputs.greeting, data.terraform_remote_state.http.outputs.greeting])
}}
"#,
            b = b.name,
            e = b.endpoint,
            u = server.url
        ),
    );
    ok(FERRO, &consumer.0, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(
        ok(FERRO, &consumer.0, &["output", "-raw", "all"]),
        "from s3, from dev, from http"
    );
    // A bucket that does not exist is named with the operation and the AWS error.
    consumer.write(
        "main.tf",
        &format!(
            "data \"terraform_remote_state\" \"s3\" {{\n  backend = \"s3\"\n  config = {{\n    bucket = \"{b}-gone\"\n    key = \"{KEY}\"\n    region = \"{REGION}\"\n    endpoint = \"{e}\"\n    force_path_style = true\n    skip_credentials_validation = true\n  }}\n}}\n",
            b = b.name,
            e = b.endpoint
        ),
    );
    let o = run(FERRO, &consumer.0, &["-no-color", "plan"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("NoSuchBucket"), "{err}");
}

#[test]
fn s3_module_sources_archives_and_prefixes() {
    let b = Bucket::new("modules");
    let module = b"variable \"n\" {}\noutput \"doubled\" {\n  value = var.n * 2\n}\n";
    let zip = ferro_provider::install::zip::write_zip(&[("vpc/main.tf", module, 0o644, false)]);
    b.s3.put_object(&b.name, "modules/vpc.zip", &zip, Vec::new())
        .unwrap();
    b.s3.put_object(&b.name, "plain/net/main.tf", module, Vec::new())
        .unwrap();
    let d = TempDir::new("modules");
    d.write(
        "main.tf",
        &format!(
            "module \"zipped\" {{\n  source = \"s3::{e}/{b}/modules/vpc.zip//vpc\"\n  n = 2\n}}\nmodule \"plain\" {{\n  source = \"s3::{e}/{b}/plain/net\"\n  n = 5\n}}\noutput \"sum\" {{\n  value = module.zipped.doubled + module.plain.doubled\n}}\n",
            e = b.endpoint,
            b = b.name
        ),
    );
    let out = ok(FERRO, &d.0, &["-no-color", "init"]);
    assert!(out.contains("Downloading s3::"), "{out}");
    assert!(d.0.join(".terraform/modules/zipped/vpc/main.tf").exists());
    assert!(d.0.join(".terraform/modules/plain/main.tf").exists());
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(ok(FERRO, &d.0, &["output", "-raw", "sum"]), "14");

    // A key that is not there: the operation and the AWS error code are named.
    d.write(
        "main.tf",
        &format!(
            "module \"gone\" {{\n  source = \"s3::{e}/{b}/modules/gone.zip\"\n}}\n",
            e = b.endpoint,
            b = b.name
        ),
    );
    let o = run(FERRO, &d.0, &["-no-color", "init"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("GetObject") && err.contains("NoSuchKey"),
        "{err}"
    );
}

#[test]
fn s3_apply_killed_mid_way_loses_nothing() {
    use std::io::BufRead;
    let b = Bucket::new("kill");
    let d = TempDir::new("kill");
    let count = 200;
    d.write(
        "main.tf",
        &format!(
            "{}resource \"terraform_data\" \"a\" {{\n  count = {count}\n  input = count.index\n}}\n",
            b.backend(KEY, "")
        ),
    );
    ok(FERRO, &d.0, &["-no-color", "init"]);
    let mut child = command(
        FERRO,
        &d.0,
        &["-no-color", "apply", "-auto-approve", "-parallelism=2"],
    )
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let mut completed = std::collections::BTreeSet::new();
    let stdout = child.stdout.take().unwrap();
    for line in std::io::BufReader::new(stdout).lines() {
        let line = line.unwrap();
        if let Some((addr, _)) = line.split_once(": Creation complete") {
            completed.insert(addr.to_string());
            if completed.len() == 60 {
                child.kill().unwrap();
                break;
            }
        }
    }
    let _ = child.wait();
    assert_eq!(
        completed.len(),
        60,
        "the apply finished before it was killed"
    );
    // The killed process left its lock item; the journal holds what the last full write of
    // the object did not.
    let held = b.items()[&format!("{}/{KEY}", b.name)]["Info"].clone();
    let id = serde_json::from_str::<serde_json::Value>(&held).unwrap()["ID"]
        .as_str()
        .unwrap()
        .to_string();
    ok(FERRO, &d.0, &["force-unlock", "-force", &id]);
    let listed: std::collections::BTreeSet<String> = ok(FERRO, &d.0, &["state", "list"])
        .lines()
        .map(str::to_string)
        .collect();
    let lost: Vec<&String> = completed.difference(&listed).collect();
    assert!(lost.is_empty(), "lost: {lost:?}");
    let out = ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert!(
        out.contains(&format!("Resources: {} added", count - listed.len())),
        "{out}"
    );
    let state = ferro_state::read_state(b.object(KEY).unwrap().as_bytes()).unwrap();
    assert_eq!(
        state
            .resources
            .values()
            .map(|r| r.instances.len())
            .sum::<usize>(),
        count
    );
    // The object and its digest agree after the folds.
    let stored = b.object(KEY).unwrap();
    assert_eq!(
        b.items()[&format!("{}/{KEY}-md5", b.name)]["Digest"],
        md5_hex(stored.as_bytes())
    );
}

#[test]
fn s3_init_warns_of_deprecated_arguments_and_honours_current_ones() {
    let b = Bucket::new("newargs");
    let d = TempDir::new("newargs");
    // Terraform 1.0.3's spelling works, with current Terraform's deprecation warnings.
    d.write(
        "main.tf",
        &format!("{}{}", b.backend(KEY, ""), resource("one")),
    );
    let out = ok(FERRO, &d.0, &["-no-color", "init"]);
    assert!(out.contains("Warning: Deprecated Parameter"), "{out}");
    // At the argument, as Terraform shows it.
    assert!(out.contains("main.tf:6:5"), "{out}");
    assert!(
        out.contains(
            "The parameter \"endpoint\" is deprecated. Use parameter \"endpoints.s3\" instead."
        ),
        "{out}"
    );
    assert!(
        out.contains("The parameter \"dynamodb_table\" is deprecated. Use parameter \"use_lockfile\" instead."),
        "{out}"
    );
    // Current arguments: the account of the credentials (moto's) is checked through STS even
    // with skip_credentials_validation; retries and the retry mode are accepted.
    let current = |ids: &str| {
        format!(
            "    max_retries = 2\n    retry_mode = \"standard\"\n    sts_region = \"{REGION}\"\n    use_fips_endpoint = false\n    skip_requesting_account_id = false\n    {ids}\n"
        )
    };
    d.write(
        "main.tf",
        &format!(
            "{}{}",
            b.backend(KEY, &current("allowed_account_ids = [\"123456789012\"]")),
            resource("one")
        ),
    );
    let out = ok(FERRO, &d.0, &["-no-color", "init", "-reconfigure"]);
    assert!(
        out.contains("Successfully configured the backend \"s3\""),
        "{out}"
    );
    d.write(
        "main.tf",
        &format!(
            "{}{}",
            b.backend(KEY, &current("forbidden_account_ids = [\"123456789012\"]")),
            resource("one")
        ),
    );
    let o = run(FERRO, &d.0, &["-no-color", "init", "-reconfigure"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("AWS account ID not allowed: 123456789012"),
        "{}",
        text(&o.stderr)
    );
    // A bad value is shown at its argument.
    d.write(
        "main.tf",
        &format!(
            "{}{}",
            b.backend(KEY, "    retry_mode = \"legacy\"\n"),
            resource("one")
        ),
    );
    let o = run(FERRO, &d.0, &["-no-color", "init", "-reconfigure"]);
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("Invalid retry_mode \"legacy\""), "{err}");
    assert!(
        err.contains("main.tf:13:5")
            && err.contains("retry_mode = \"legacy\"")
            && err.contains("^^^"),
        "{err}"
    );
}
