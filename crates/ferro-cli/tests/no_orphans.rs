//! No process ferro starts outlives it: `ferro apply` is ended while the real `hashicorp/null`
//! 2.1.2 plugin and a long `local-exec` command (a shell with two `sleep` children) run, by
//! SIGKILL, by SIGTERM (a graceful stop, which cancels the command as Terraform cancels
//! local-exec), and by a panic injected into a debug build's coordinator
//! (`FERRO_TEST_PANIC=apply`). Two seconds after ferro is gone, none of the processes it
//! started (plugin, shell, sleeps) is alive.

mod cli_support;

use cli_support::{oracle_env, scratch};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn config(marker: u32) -> String {
    format!(
        r#"
terraform {{
  required_providers {{
    null = {{
      source  = "hashicorp/null"
      version = "2.1.2"
    }}
  }}
}}

resource "null_resource" "slow" {{
  provisioner "local-exec" {{
    command = "sleep {marker} & sleep {next}; wait"
  }}
}}

# Completes while the slow one runs (the injected panic waits for that).
resource "null_resource" "quick" {{
  provisioner "local-exec" {{
    command = "sleep 1"
  }}
}}
"#,
        next = marker + 1
    )
}

/// The process ids whose command line contains `needle`.
fn pids_matching(needle: &str) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let text = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if text.contains(needle) && alive(pid) {
            out.push(pid);
        }
    }
    out
}

/// Running (a zombie waiting for its parent to reap it counts as gone).
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit_once(") ")
                .and_then(|(_, rest)| rest.chars().next());
            !matches!(state, Some('Z') | Some('X') | None)
        }
        Err(_) => false,
    }
}

fn wait_until(what: &str, mut ok: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while !ok() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn start(dir: &Path, env: &[(String, String)], extra: &[(&str, &str)]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(["apply", "-auto-approve", "-no-color", "-parallelism=4"])
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .envs(extra.iter().copied())
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ferro")
}

/// One run ended by `how` ("KILL", "TERM" or "panic").
fn one_run(env: &[(String, String)], how: &str, marker: u32) {
    let dir = scratch(&format!("no-orphans-{how}"));
    std::fs::write(dir.join("main.tf"), config(marker)).unwrap();
    let init = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(["init", "-no-color"])
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        init.status.success(),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );

    let panic_env = [("FERRO_TEST_PANIC", "apply")];
    let mut ferro = start(&dir, env, if how == "panic" { &panic_env } else { &[] });
    let plugin_dir = dir.join(".terraform").display().to_string();
    let sleeps = [format!("sleep {marker}"), format!("sleep {}", marker + 1)];
    wait_until("the plugin and both sleeps", || {
        !pids_matching(&plugin_dir).is_empty()
            && sleeps.iter().all(|s| !pids_matching(s).is_empty())
    });
    let mut started: Vec<u32> = pids_matching(&plugin_dir);
    for s in &sleeps {
        started.extend(pids_matching(s));
    }
    started.extend(pids_matching(&format!("sleep {marker} & sleep")));
    match how {
        "panic" => {}
        sig => {
            let _ = Command::new("kill")
                .args([&format!("-{sig}"), &ferro.id().to_string()])
                .status();
        }
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = ferro.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "{how}: ferro did not end");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    if let Some(mut e) = ferro.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut stderr);
    }
    match how {
        "KILL" => assert_eq!(status.code(), None, "{stderr}"),
        "TERM" => assert_eq!(status.code(), Some(1), "{stderr}"),
        _ => {
            assert_eq!(status.code(), Some(101), "{stderr}");
            assert!(stderr.contains("injected panic"), "{stderr}");
        }
    }
    std::thread::sleep(Duration::from_secs(2));
    let left: Vec<u32> = started.iter().copied().filter(|p| alive(*p)).collect();
    assert!(
        left.is_empty(),
        "{how}: processes of the run still alive: {:?}",
        left.iter()
            .map(|p| std::fs::read_to_string(format!("/proc/{p}/cmdline"))
                .unwrap_or_default()
                .replace('\0', " "))
            .collect::<Vec<_>>()
    );
}

#[test]
fn nothing_ferro_started_outlives_it() {
    let env = oracle_env();
    // Sleep durations no other process on the machine uses, to find this run's processes.
    let base = 7000 + (std::process::id() % 1000) * 10;
    one_run(&env, "KILL", base);
    one_run(&env, "TERM", base + 3);
    one_run(&env, "panic", base + 6);
}
