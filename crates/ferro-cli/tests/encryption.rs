//! State and plan encryption end to end, through the `ferro` binary: apply with pbkdf2 and
//! aes_gcm, then no file (state, backup, journal, saved plan) holds an attribute value in
//! clear and everything reads back; a wrong passphrase is refused with every file unchanged;
//! `fallback` migrates a state in clear and back; an independent implementation of OpenTofu's
//! format (`encryption_support/tofu_crypt.py`, Python's `cryptography`) decrypts ferro's state
//! and writes one ferro reads; the pg backend stores the encrypted document.
//!
//! The key derivation uses OpenTofu's lowest accepted iterations (200000, sha256) to keep
//! debug runs short, and one test runs at OpenTofu's defaults (600000, sha512).

mod cli_support;
mod pg_support;

use cli_support::scratch;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const PASS: &str = "correct-horse-battery-staple";
const WRONG: &str = "incorrect-horse-battery-staple";

/// Run ferro in `dir` with `TF_VAR_passphrase` set to `pass` (and `env`).
fn run(dir: &Path, pass: &str, env: &[(&str, &str)], args: &[&str]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ferro"));
    cmd.args(args)
        .current_dir(dir)
        .env("TF_VAR_passphrase", pass)
        .env_remove("TF_ENCRYPTION")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run ferro");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn ok(dir: &Path, pass: &str, args: &[&str]) -> String {
    let (code, out, err) = run(dir, pass, &[], args);
    assert_eq!(code, 0, "ferro {args:?} failed:\n{out}\n{err}");
    out
}

const ENCRYPTION: &str = r#"
    key_provider "pbkdf2" "main" {
      passphrase    = var.passphrase
      iterations    = 200000
      hash_function = "sha256"
    }
    method "aes_gcm" "main" {
      keys = key_provider.pbkdf2.main
    }
"#;

/// A configuration: `encryption` is the body of the encryption block (None: no block), the
/// resource's input holds `secret`.
fn write_config(dir: &Path, encryption: Option<&str>, secret: &str) {
    let block = encryption
        .map(|e| format!("terraform {{\n  encryption {{\n{e}\n  }}\n}}\n"))
        .unwrap_or_default();
    std::fs::write(
        dir.join("main.tf"),
        format!(
            "variable \"passphrase\" {{\n  type      = string\n  sensitive = true\n  default   = \"\"\n}}\n\n{block}\nresource \"terraform_data\" \"secret\" {{\n  input = \"{secret}\"\n}}\n\noutput \"o\" {{\n  value = terraform_data.secret.output\n}}\n"
        ),
    )
    .unwrap();
}

fn targets(state: bool, plan: bool) -> String {
    let mut s = ENCRYPTION.to_string();
    if state {
        s.push_str("    state {\n      method = method.aes_gcm.main\n    }\n");
    }
    if plan {
        s.push_str("    plan {\n      method = method.aes_gcm.main\n    }\n");
    }
    s
}

/// Every file of `dir` (not directories), by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.file_type().unwrap().is_file() {
            out.insert(
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            );
        }
    }
    out
}

fn assert_no_clear(path: &Path, needle: &str) {
    let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    assert!(
        !text.contains(needle),
        "{} holds {needle:?} in clear:\n{text}",
        path.display()
    );
    assert!(
        text.contains("\"encryption_version\":\"v0\""),
        "{} is not an encrypted document:\n{text}",
        path.display()
    );
}

/// The Python of the moto virtual environment (`tools/moto-test-server.sh`), which has the
/// `cryptography` package, or None when it is not installed here.
fn python() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("FERRO_CRYPTO_PYTHON") {
        return Some(PathBuf::from(p));
    }
    let cache = std::env::var("FERRO_MOTO_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(std::env::var("HOME").unwrap_or_else(|_| "/tmp".into()))
                .join(".cache/ferro-moto")
        });
    let venv = std::fs::read_dir(&cache)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("venv-"))
        })?;
    let py = venv.join("bin/python");
    let has = Command::new(&py)
        .args(["-c", "import cryptography"])
        .status()
        .is_ok_and(|s| s.success());
    has.then_some(py)
}

/// Run the independent implementation with `input` on its standard input.
fn tofu_crypt(py: &Path, args: &[&str], input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let script =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/encryption_support/tofu_crypt.py");
    let mut child = Command::new(py)
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "tofu_crypt.py {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn state_backup_journal_and_plan_are_encrypted_and_read_back() {
    let d = scratch("enc-e2e");
    write_config(&d, Some(&targets(true, true)), "SECRET-VALUE-1");
    ok(&d, PASS, &["apply", "-auto-approve", "-no-color"]);
    // A second apply: the backup keeps the first (encrypted) state.
    write_config(&d, Some(&targets(true, true)), "SECRET-VALUE-2");
    ok(&d, PASS, &["apply", "-auto-approve", "-no-color"]);
    for f in ["terraform.tfstate", "terraform.tfstate.backup"] {
        assert_no_clear(&d.join(f), "SECRET-VALUE");
    }

    // A journal of this state (what an apply killed between two full writes leaves) is
    // encrypted record by record, and the next command folds it.
    let journal = ferro_state::journal_path(&d.join("terraform.tfstate"));
    {
        use ferro_state::encryption::*;
        use ferro_state::Backend;
        let config = Config {
            key_providers: vec![KeyProviderConfig {
                ty: "pbkdf2".into(),
                name: "main".into(),
                metadata_alias: None,
                kind: KeyProviderKind::Pbkdf2(Pbkdf2Config {
                    passphrase: Some(PASS.to_string().into()),
                    chain: None,
                    key_length: 32,
                    iterations: 200_000,
                    salt_length: 32,
                    hash_function: HashFunction::Sha256,
                }),
            }],
            methods: vec![MethodConfig {
                ty: "aes_gcm".into(),
                name: "main".into(),
                kind: MethodKind::AesGcm {
                    keys: ("pbkdf2".into(), "main".into()),
                    aad: Vec::new(),
                },
            }],
        };
        let enc = TargetEncryption::new("state", std::sync::Arc::new(config), vec![0]);
        let mut b = ferro_state::LocalBackend::new(d.join("terraform.tfstate"));
        b.set_encryption(Some(std::sync::Arc::new(enc)));
        let state = b.load().unwrap().unwrap();
        let (res, rs) = state.resources.iter().next().unwrap();
        let inst = &rs.instances[&ferro_addrs::InstanceKey::None];
        let mut obj = inst.current.as_deref().unwrap().clone();
        let mut attrs = obj.attributes.json();
        attrs["input"] = serde_json::json!("JOURNAL-SECRET");
        obj.attributes = attrs.into();
        let mut other = res.clone();
        other.resource.name = "journaled".into();
        b.journal(&state.lineage)
            .record(&[ferro_state::Change::SetCurrent {
                res: other,
                provider: rs.provider.clone(),
                key: ferro_addrs::InstanceKey::None,
                obj: Some(obj),
            }])
            .unwrap();
    }
    let text = String::from_utf8_lossy(&std::fs::read(&journal).unwrap()).into_owned();
    assert!(
        !text.contains("JOURNAL-SECRET") && !text.contains("SECRET-VALUE"),
        "{text}"
    );
    assert!(text.contains("encrypted_data"), "{text}");

    // A wrong passphrase: refused, every file byte-identical (the journal too).
    let before = files(&d);
    for args in [
        &["plan", "-no-color"][..],
        &["apply", "-auto-approve", "-no-color"],
        &["state", "list"],
    ] {
        let (code, out, err) = run(&d, WRONG, &[], args);
        assert_eq!(code, 1, "{args:?} with the wrong passphrase:\n{out}\n{err}");
        assert!(err.contains("decryption failed"), "{args:?}:\n{err}");
        assert!(
            !err.contains(WRONG) && !out.contains(WRONG),
            "the passphrase is never printed"
        );
        assert_eq!(before, files(&d), "{args:?} changed a file");
    }

    // The right one: the journal is folded, the state listed.
    let listed = ok(&d, PASS, &["state", "list"]);
    assert!(listed.contains("terraform_data.journaled"), "{listed}");
    assert!(
        !journal.exists()
            || !String::from_utf8_lossy(&std::fs::read(&journal).unwrap())
                .contains("JOURNAL-SECRET")
    );
    ok(&d, PASS, &["state", "rm", "terraform_data.journaled"]);
    assert_no_clear(&d.join("terraform.tfstate"), "SECRET-VALUE");
    assert_no_clear(&d.join("terraform.tfstate.backup"), "SECRET-VALUE");

    // A saved plan is encrypted whole; the wrong passphrase cannot apply it.
    write_config(&d, Some(&targets(true, true)), "SECRET-VALUE-3");
    let out = ok(&d, PASS, &["plan", "-no-color", "-out=next.tfplan"]);
    assert!(
        out.contains("SECRET-VALUE-3"),
        "the plan shows its values:\n{out}"
    );
    assert_no_clear(&d.join("next.tfplan"), "SECRET-VALUE");
    let before = files(&d);
    let (code, _, err) = run(&d, WRONG, &[], &["apply", "-no-color", "next.tfplan"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("decryption failed"), "{err}");
    assert_eq!(before, files(&d));

    // The saved plan applies; then nothing is left to do.
    let out = ok(&d, PASS, &["apply", "-no-color", "next.tfplan"]);
    assert!(out.contains("Apply complete!"), "{out}");
    assert_no_clear(&d.join("terraform.tfstate"), "SECRET-VALUE");
    let out = ok(&d, PASS, &["plan", "-no-color"]);
    assert!(out.contains("No changes."), "{out}");
    // The console evaluates against the decrypted state.
    let console = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(["console"])
        .current_dir(&*d)
        .env("TF_VAR_passphrase", PASS)
        .env_remove("TF_ENCRYPTION")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut console = console;
        console
            .stdin
            .take()
            .unwrap()
            .write_all(b"terraform_data.secret.input\n")
            .unwrap();
        let out = console.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("SECRET-VALUE-3"),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // state pull prints the state decrypted; push encrypts what it stores.
    let pulled = ok(&d, PASS, &["state", "pull"]);
    assert!(pulled.contains("SECRET-VALUE-3"), "{pulled}");
    std::fs::write(d.join("pulled.tfstate"), &pulled).unwrap();
    let (code, _, err) = run(
        &d,
        PASS,
        &[],
        &["state", "push", "-force", "pulled.tfstate"],
    );
    // A state in clear is refused without the unencrypted method, as OpenTofu's push does.
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("unencrypted payload"), "{err}");
    std::fs::remove_file(d.join("pulled.tfstate")).unwrap();

    // The independent implementation decrypts ferro's state, and ferro reads what it
    // encrypts.
    let Some(py) = python() else {
        eprintln!("note: no Python with `cryptography` (run tools/moto-test-server.sh once, or set FERRO_CRYPTO_PYTHON): the independent decryptor was not run");
        return;
    };
    let sealed = std::fs::read(d.join("terraform.tfstate")).unwrap();
    let plain = tofu_crypt(&py, &["decrypt", PASS], &sealed);
    let mut state: serde_json::Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(state["outputs"]["o"]["value"], "SECRET-VALUE-3");
    state["outputs"]["o"]["value"] = serde_json::json!("FROM-PYTHON");
    let resealed = tofu_crypt(
        &py,
        &["encrypt", PASS, "200000", "sha512"],
        serde_json::to_string_pretty(&state).unwrap().as_bytes(),
    );
    std::fs::write(d.join("terraform.tfstate"), resealed).unwrap();
    let out = ok(&d, PASS, &["output", "-raw", "o"]);
    assert_eq!(out, "FROM-PYTHON");
    let plan_bytes = std::fs::read(d.join("next.tfplan")).unwrap();
    let plan_clear = tofu_crypt(&py, &["decrypt", PASS], &plan_bytes);
    assert!(
        plan_clear.starts_with(b"ferro-plan "),
        "the plan decrypts to a ferro plan file"
    );
}

#[test]
fn fallback_migrates_in_and_out_of_encryption() {
    let d = scratch("enc-migrate");
    write_config(&d, None, "MIGRATED-SECRET");
    ok(&d, PASS, &["apply", "-auto-approve", "-no-color"]);
    let clear = std::fs::read(d.join("terraform.tfstate")).unwrap();
    assert!(String::from_utf8_lossy(&clear).contains("MIGRATED-SECRET"));

    // Encryption without a way to read the state in clear: OpenTofu's error, nothing written.
    write_config(&d, Some(&targets(true, false)), "MIGRATED-SECRET");
    let before = files(&d);
    let (code, _, err) = run(&d, PASS, &[], &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("encountered unencrypted payload without unencrypted method configured"),
        "{err}"
    );
    assert_eq!(before, files(&d));

    // With the unencrypted method as fallback, an apply (even with no changes) migrates.
    let migrate_in = format!(
        "{ENCRYPTION}    method \"unencrypted\" \"migrate\" {{}}\n    state {{\n      method = method.aes_gcm.main\n      fallback {{\n        method = method.unencrypted.migrate\n      }}\n    }}\n"
    );
    write_config(&d, Some(&migrate_in), "MIGRATED-SECRET");
    // OpenTofu's warning, on standard error: `state pull` prints exactly the state.
    let (code, pulled, err) = run(&d, PASS, &[], &["state", "pull"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("Unencrypted method configured"), "{err}");
    assert!(!pulled.contains("Unencrypted"), "{pulled}");
    let doc: serde_json::Value = serde_json::from_str(&pulled).expect("state pull prints JSON");
    assert_eq!(doc["version"], 4, "{pulled}");
    assert!(
        pulled.starts_with('{') && pulled.ends_with("}\n"),
        "{pulled}"
    );
    let (code, out, err) = run(&d, PASS, &[], &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("Unencrypted method configured") && !out.contains("Unencrypted"),
        "OpenTofu's warning:\n{out}\n{err}"
    );
    assert_no_clear(&d.join("terraform.tfstate"), "MIGRATED-SECRET");
    assert_no_clear(&d.join("terraform.tfstate.backup"), "MIGRATED-SECRET");

    // Without the fallback now: read with the passphrase.
    write_config(&d, Some(&targets(true, false)), "MIGRATED-SECRET");
    let out = ok(&d, PASS, &["plan", "-no-color"]);
    assert!(out.contains("No changes."), "{out}");

    // Removing encryption needs unencrypted first and the old method as fallback.
    write_config(&d, None, "MIGRATED-SECRET");
    let before = files(&d);
    let (code, _, _) = run(&d, PASS, &[], &["plan", "-no-color"]);
    assert_eq!(
        code, 1,
        "an encrypted state without encryption configured is not read"
    );
    assert_eq!(before, files(&d));
    let migrate_out = format!(
        "{ENCRYPTION}    method \"unencrypted\" \"migrate\" {{}}\n    state {{\n      method = method.unencrypted.migrate\n      fallback {{\n        method = method.aes_gcm.main\n      }}\n    }}\n"
    );
    write_config(&d, Some(&migrate_out), "MIGRATED-SECRET");
    ok(&d, PASS, &["apply", "-auto-approve", "-no-color"]);
    let text = std::fs::read_to_string(d.join("terraform.tfstate")).unwrap();
    assert!(
        text.contains("MIGRATED-SECRET") && !text.contains("encryption_version"),
        "{text}"
    );
    write_config(&d, None, "MIGRATED-SECRET");
    let out = ok(&d, PASS, &["plan", "-no-color"]);
    assert!(out.contains("No changes."), "{out}");
}

#[test]
fn defaults_and_environment_configuration() {
    // OpenTofu's defaults (600000 iterations of sha512), configured from TF_ENCRYPTION alone,
    // with the file saying only `enforced = true`.
    let d = scratch("enc-defaults");
    write_config(
        &d,
        Some("    state {\n      enforced = true\n    }\n"),
        "DEFAULTS-SECRET",
    );
    // Enforced with no method at all: refused, nothing written in clear.
    let (code, _, err) = run(&d, PASS, &[], &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 1, "{err}");
    assert!(!d.join("terraform.tfstate").exists());
    let env = format!(
        "key_provider \"pbkdf2\" \"env\" {{\n  passphrase = \"{PASS}\"\n}}\nmethod \"aes_gcm\" \"env\" {{\n  keys = key_provider.pbkdf2.env\n}}\nstate {{\n  method = method.aes_gcm.env\n}}\n"
    );
    let (code, out, err) = run(
        &d,
        PASS,
        &[("TF_ENCRYPTION", &env)],
        &["apply", "-auto-approve", "-no-color"],
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert_no_clear(&d.join("terraform.tfstate"), "DEFAULTS-SECRET");
    let text = std::fs::read_to_string(d.join("terraform.tfstate")).unwrap();
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    use base64::Engine as _;
    let meta = base64::engine::general_purpose::STANDARD
        .decode(doc["meta"]["key_provider.pbkdf2.env"].as_str().unwrap())
        .unwrap();
    let meta: serde_json::Value = serde_json::from_slice(&meta).unwrap();
    assert_eq!(meta["iterations"], 600000);
    assert_eq!(meta["hash_function"], "sha512");
    assert_eq!(meta["key_length"], 32);
    let (code, out, err) = run(&d, PASS, &[("TF_ENCRYPTION", &env)], &["plan", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("No changes."), "{out}");
}

#[test]
fn pg_backend_stores_the_encrypted_document() {
    if std::env::var("FERRO_PG_CONN_STR").is_err() {
        eprintln!("note: FERRO_PG_CONN_STR is not set: the pg backend's encryption was not tested (export FERRO_PG_CONN_STR=\"$(tools/pg-test-server.sh)\")");
        return;
    }
    let db = pg_support::Db::new("enc");
    let d = scratch("enc-pg");
    write_config(&d, Some(&targets(true, false)), "PG-SECRET");
    let main = std::fs::read_to_string(d.join("main.tf")).unwrap();
    std::fs::write(
        d.join("main.tf"),
        main.replacen(
            "terraform {\n",
            &format!(
                "terraform {{\n  backend \"pg\" {{\n    conn_str = \"{}\"\n  }}\n",
                db.conn
            ),
            1,
        ),
    )
    .unwrap();
    ok(&d, PASS, &["init", "-no-color"]);
    ok(&d, PASS, &["apply", "-auto-approve", "-no-color"]);
    let rows = db.rows();
    assert_eq!(rows.len(), 1);
    assert!(
        !rows[0].1.contains("PG-SECRET") && rows[0].1.contains("encryption_version"),
        "{}",
        rows[0].1
    );
    let out = ok(&d, PASS, &["plan", "-no-color"]);
    assert!(out.contains("No changes."), "{out}");
    let before = db.rows();
    let (code, _, err) = run(&d, WRONG, &[], &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(before, db.rows());
}

/// An external key provider speaking OpenTofu's protocol (as its documentation's POSIX shell
/// example): `key` is the base64 key it gives.
fn external_program(dir: &Path, name: &str, key: &str) {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nset -e\necho '{{\"magic\":\"OpenTofu-External-Key-Provider\",\"version\":1}}'\nINPUT=\"$(cat)\"\nif [ \"$INPUT\" = \"null\" ]; then\n  echo '{{\"keys\":{{\"encryption_key\":\"{key}\"}},\"meta\":{{\"external_data\":{{\"seen\":1}}}}}}'\nelse\n  echo \"$INPUT\" > last-input.json\n  echo '{{\"keys\":{{\"encryption_key\":\"{key}\",\"decryption_key\":\"{key}\"}},\"meta\":{{\"external_data\":{{\"seen\":2}}}}}}'\nfi\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn external_key_provider_and_chain() {
    let d = scratch("enc-external");
    // 16 and 24 bytes.
    external_program(&d, "kp.sh", "AQIDBAUGBwgJCgsMDQ4PEA==");
    external_program(&d, "other.sh", "EBESExQVFhcYGRobHB0eHyAhIiMkJSYn");
    let config = |program: &str| {
        format!(
            "    key_provider \"external\" \"ext\" {{\n      command = [\"./{program}\"]\n    }}\n    key_provider \"pbkdf2\" \"chained\" {{\n      chain         = key_provider.external.ext\n      iterations    = 200000\n      hash_function = \"sha256\"\n    }}\n    method \"aes_gcm\" \"direct\" {{\n      keys = key_provider.external.ext\n    }}\n    method \"aes_gcm\" \"chained\" {{\n      keys = key_provider.pbkdf2.chained\n    }}\n    state {{\n      method = method.aes_gcm.chained\n    }}\n    plan {{\n      method = method.aes_gcm.direct\n    }}\n"
        )
    };
    write_config(&d, Some(&config("kp.sh")), "EXTERNAL-SECRET");
    ok(&d, PASS, &["apply", "-auto-approve", "-no-color"]);
    assert_no_clear(&d.join("terraform.tfstate"), "EXTERNAL-SECRET");
    let doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(d.join("terraform.tfstate")).unwrap()).unwrap();
    let meta: Vec<&String> = doc["meta"].as_object().unwrap().keys().collect();
    assert_eq!(
        meta,
        ["key_provider.external.ext", "key_provider.pbkdf2.chained"]
    );
    let out = ok(&d, PASS, &["plan", "-no-color"]);
    assert!(out.contains("No changes."), "{out}");
    // On reading, the program got the metadata it stored.
    let input = std::fs::read_to_string(d.join("last-input.json")).unwrap();
    assert_eq!(input.trim(), "{\"external_data\":{\"seen\":1}}");
    // The plan's method takes the program's 16-byte key directly (AES-128).
    write_config(&d, Some(&config("kp.sh")), "EXTERNAL-SECRET-2");
    ok(&d, PASS, &["plan", "-no-color", "-out=p.tfplan"]);
    assert_no_clear(&d.join("p.tfplan"), "EXTERNAL-SECRET");
    ok(&d, PASS, &["apply", "-no-color", "p.tfplan"]);

    // Another program's key does not open it.
    write_config(&d, Some(&config("other.sh")), "EXTERNAL-SECRET-2");
    let before = files(&d);
    let (code, _, err) = run(&d, PASS, &[], &["plan", "-no-color"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("decryption failed"), "{err}");
    assert_eq!(before, files(&d));

    // A program that never finishes is stopped (after OpenTofu's minute, or the time
    // FERRO_EXTERNAL_KEY_PROVIDER_TIMEOUT gives), with every file unchanged.
    {
        use std::os::unix::fs::PermissionsExt;
        let hang = d.join("hang.sh");
        std::fs::write(
            &hang,
            "#!/bin/sh\necho '{\"magic\":\"OpenTofu-External-Key-Provider\",\"version\":1}'\nexec sleep 600\n",
        )
        .unwrap();
        std::fs::set_permissions(&hang, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    write_config(&d, Some(&config("hang.sh")), "EXTERNAL-SECRET-2");
    let before = files(&d);
    let timeout = [("FERRO_EXTERNAL_KEY_PROVIDER_TIMEOUT", "1s")];
    let (code, _, err) = run(&d, PASS, &timeout, &["plan", "-no-color"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("key_provider.external.ext failed with error: external key provider failure: the external command did not finish within 1s and was stopped"),
        "{err}"
    );
    assert_eq!(before, files(&d));
    let bad = [("FERRO_EXTERNAL_KEY_PROVIDER_TIMEOUT", "soon")];
    let (code, _, err) = run(&d, PASS, &bad, &["plan", "-no-color"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("must be a positive duration"), "{err}");
    assert_eq!(before, files(&d));
}

#[test]
fn remote_state_data_source_reads_an_encrypted_state() {
    let producer = scratch("enc-producer");
    write_config(&producer, Some(&targets(true, false)), "REMOTE-OUTPUT");
    ok(&producer, PASS, &["apply", "-auto-approve", "-no-color"]);
    assert_no_clear(&producer.join("terraform.tfstate"), "REMOTE-OUTPUT");

    let consumer = scratch("enc-consumer");
    let data = format!(
        "data \"terraform_remote_state\" \"p\" {{\n  backend = \"local\"\n  config = {{\n    path = \"{}\"\n  }}\n}}\n\noutput \"got\" {{\n  value = data.terraform_remote_state.p.outputs.o\n}}\n",
        producer.join("terraform.tfstate").display()
    );
    let encryption = |remote: bool| {
        let mut e = ENCRYPTION.to_string();
        if remote {
            e.push_str("    remote_state_data_sources {\n      default {\n        method = method.aes_gcm.main\n      }\n    }\n");
        }
        format!("variable \"passphrase\" {{\n  type = string\n}}\n\nterraform {{\n  encryption {{\n{e}\n  }}\n}}\n\n{data}")
    };
    // Without a remote_state_data_sources target the encrypted state is not a state.
    std::fs::write(consumer.join("main.tf"), encryption(false)).unwrap();
    let (code, _, err) = run(&consumer, PASS, &[], &["plan", "-no-color"]);
    assert_eq!(code, 1, "{err}");
    std::fs::write(consumer.join("main.tf"), encryption(true)).unwrap();
    let out = ok(&consumer, PASS, &["apply", "-auto-approve", "-no-color"]);
    assert!(out.contains("got = \"REMOTE-OUTPUT\""), "{out}");
    let (code, _, err) = run(&consumer, WRONG, &[], &["plan", "-no-color"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("could not be decrypted"), "{err}");
}

#[test]
fn remote_state_data_source_targets_apply_by_name() {
    // Two states, one encrypted and one in clear.
    let secret = scratch("enc-named-secret");
    write_config(&secret, Some(&targets(true, false)), "NAMED-SECRET");
    ok(&secret, PASS, &["apply", "-auto-approve", "-no-color"]);
    assert_no_clear(&secret.join("terraform.tfstate"), "NAMED-SECRET");
    let clear = scratch("enc-named-clear");
    write_config(&clear, None, "NAMED-CLEAR");
    ok(&clear, PASS, &["apply", "-auto-approve", "-no-color"]);

    // The consumer reads the state in clear by default, and the encrypted one through targets
    // named as OpenTofu names them: `s` for data.terraform_remote_state.s, `m.s` for the one
    // in module.m.
    let consumer = scratch("enc-named-consumer");
    let data = |name: &str, path: &Path| {
        format!(
            "data \"terraform_remote_state\" \"{name}\" {{\n  backend = \"local\"\n  config = {{\n    path = \"{}\"\n  }}\n}}\n",
            path.display()
        )
    };
    let secret_state = secret.join("terraform.tfstate");
    let clear_state = clear.join("terraform.tfstate");
    std::fs::create_dir_all(consumer.join("m")).unwrap();
    std::fs::write(
        consumer.join("m/main.tf"),
        format!(
            "{}\noutput \"got\" {{\n  value = data.terraform_remote_state.s.outputs.o\n}}\n",
            data("s", &secret_state)
        ),
    )
    .unwrap();
    let config = |named: &str| {
        format!(
            "variable \"passphrase\" {{\n  type = string\n}}\n\nterraform {{\n  encryption {{\n{ENCRYPTION}\n    method \"unencrypted\" \"none\" {{}}\n    remote_state_data_sources {{\n      default {{\n        method = method.unencrypted.none\n      }}\n{named}    }}\n  }}\n}}\n\n{}{}\nmodule \"m\" {{\n  source = \"./m\"\n}}\n\noutput \"secret\" {{\n  value = data.terraform_remote_state.s.outputs.o\n}}\n\noutput \"clear\" {{\n  value = data.terraform_remote_state.c.outputs.o\n}}\n\noutput \"module\" {{\n  value = module.m.got\n}}\n",
            data("s", &secret_state),
            data("c", &clear_state),
        )
    };
    let target = |label: &str| {
        format!("      remote_state_data_source \"{label}\" {{\n        method = method.aes_gcm.main\n      }}\n")
    };
    // Only the default target: the encrypted state cannot be read.
    std::fs::write(consumer.join("main.tf"), config("")).unwrap();
    let (code, _, err) = run(&consumer, PASS, &[], &["plan", "-no-color"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("could not be decrypted"), "{err}");
    // A target for the root's data source only: the module's still fails.
    std::fs::write(consumer.join("main.tf"), config(&target("s"))).unwrap();
    let (code, _, err) = run(&consumer, PASS, &[], &["plan", "-no-color"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("module.m.data.terraform_remote_state.s"),
        "{err}"
    );
    assert!(!err.contains("on main.tf"), "{err}");
    // Both named: everything reads.
    std::fs::write(
        consumer.join("main.tf"),
        config(&format!("{}{}", target("s"), target("m.s"))),
    )
    .unwrap();
    let out = ok(&consumer, PASS, &["apply", "-auto-approve", "-no-color"]);
    assert!(out.contains("secret = \"NAMED-SECRET\""), "{out}");
    assert!(out.contains("module = \"NAMED-SECRET\""), "{out}");
    assert!(out.contains("clear = \"NAMED-CLEAR\""), "{out}");
}

#[test]
fn an_apply_killed_midway_leaves_nothing_in_clear() {
    use std::io::BufRead;
    let d = scratch("enc-killed");
    write_config(&d, Some(&targets(true, false)), "KILLED-SECRET");
    let main = std::fs::read_to_string(d.join("main.tf")).unwrap();
    // A second resource that takes a minute, started after the first one is complete.
    std::fs::write(
        d.join("main.tf"),
        format!("{main}\nresource \"time_sleep\" \"wait\" {{\n  create_duration = \"600s\"\n  depends_on      = [terraform_data.secret]\n}}\n"),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(["apply", "-auto-approve", "-no-color"])
        .current_dir(&*d)
        .env("TF_VAR_passphrase", PASS)
        .env_remove("TF_ENCRYPTION")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    for line in stdout.lines() {
        let line = line.unwrap();
        if line.starts_with("time_sleep.wait: Creating...") {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Whatever the killed run left (the state, the journal with its header and records), no
    // attribute value is in clear.
    for (name, bytes) in files(&d) {
        if name == "main.tf" {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        assert!(
            !text.contains("KILLED-SECRET"),
            "{name} holds the value in clear:\n{text}"
        );
    }
    // Killed before its first full write, the run's changes are in the journal alone: its
    // records are encrypted documents.
    let journal = ferro_state::journal_path(&d.join("terraform.tfstate"));
    let state = std::fs::read(d.join("terraform.tfstate")).unwrap_or_default();
    if state.iter().all(u8::is_ascii_whitespace) {
        let text = String::from_utf8_lossy(&std::fs::read(&journal).unwrap()).into_owned();
        assert!(text.contains("\"encrypted_data\""), "{text}");
    } else {
        assert_no_clear(&d.join("terraform.tfstate"), "KILLED-SECRET");
    }
    // The next command that takes the lock folds the journal into the state, encrypted.
    let out = ok(&d, PASS, &["plan", "-no-color"]);
    assert!(out.contains("time_sleep.wait will be created"), "{out}");
    assert!(
        !out.contains("terraform_data.secret will be created"),
        "{out}"
    );
    assert_no_clear(&d.join("terraform.tfstate"), "KILLED-SECRET");
}
