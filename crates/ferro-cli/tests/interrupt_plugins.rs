//! Provider plugin processes never outlive ferro: a SIGINT while planning, a SIGTERM during
//! apply and two SIGINTs during apply all end ferro with exit 1 and leave no plugin running
//! (the real null provider 2.1.2 from the oracle cache, fetched by `tools/fetch-oracles.sh`).

mod cli_support;

use cli_support::oracle_env;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CONFIG: &str = r#"
terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "2.1.2"
    }
  }
}

resource "null_resource" "many" {
  count    = 1500
  triggers = { i = count.index }
}
"#;

/// Process ids of plugins started from `dir` (their executable lives under `dir/.terraform`).
fn plugins_in(dir: &Path) -> Vec<String> {
    let out = Command::new("pgrep")
        .args(["-f", &dir.join(".terraform").display().to_string()])
        .output()
        .expect("run pgrep");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

fn wait_until(what: &str, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !ok() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn ferro(dir: &Path, env: &[(String, String)], args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ferro")
}

fn signal(pid: u32, sig: &str) {
    let _ = Command::new("kill").args([sig, &pid.to_string()]).status();
}

/// Start `args`, wait until a plugin runs and (when `after` is set) ferro has printed a line
/// containing it, send `signals`, and check that ferro exits 1 leaving no plugin behind.
/// Returns ferro's stdout.
fn interrupt(
    dir: &Path,
    env: &[(String, String)],
    args: &[&str],
    after: Option<&str>,
    signals: &[&str],
) -> String {
    let mut child = ferro(dir, env, args);
    let pid = child.id();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let _ = tx.send(line.clone());
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    wait_until("a plugin process", || !plugins_in(dir).is_empty());
    if let Some(marker) = after {
        loop {
            let line = rx
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("{args:?}: no line with {marker:?}"));
            if line.contains(marker) {
                break;
            }
        }
    }
    for s in signals {
        signal(pid, s);
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = reader.join().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{args:?} {signals:?}: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The plugins are gone by the time ferro has exited.
    assert_eq!(
        plugins_in(dir),
        Vec::<String>::new(),
        "{args:?} {signals:?}"
    );
    stdout
}

#[test]
fn no_plugin_outlives_an_interrupted_ferro() {
    let env = oracle_env();
    let dir = std::env::temp_dir().join(format!("ferro-cli-int-plugins-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    let init = ferro(&dir, &env, &["init", "-no-color"])
        .wait_with_output()
        .unwrap();
    assert!(
        init.status.success(),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );

    // Ctrl-C while planning.
    let out = interrupt(&dir, &env, &["plan", "-no-color"], None, &["-INT"]);
    assert!(out.contains("Interrupt received."), "{out}");
    assert!(!dir.join("terraform.tfstate").exists());

    // SIGTERM during apply, once some objects exist: a graceful stop with the state saved.
    let state = dir.join("terraform.tfstate");
    let out = interrupt(
        &dir,
        &env,
        &["apply", "-auto-approve", "-no-color"],
        Some("Creation complete"),
        &["-TERM"],
    );
    assert!(out.contains("Gracefully shutting down..."), "{out}");
    let after_term = std::fs::read_to_string(&state).unwrap();

    // Two SIGINTs during apply: abort at once, still with the state saved.
    let serial = |s: &str| -> u64 {
        let v: serde_json::Value = serde_json::from_str(s).unwrap();
        v["serial"].as_u64().unwrap()
    };
    let before = serial(&after_term);
    let out = interrupt(
        &dir,
        &env,
        &["apply", "-auto-approve", "-no-color"],
        Some("Creation complete"),
        &["-INT", "-INT"],
    );
    let after_abort = std::fs::read_to_string(&state).unwrap();
    assert!(serial(&after_abort) > before, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
