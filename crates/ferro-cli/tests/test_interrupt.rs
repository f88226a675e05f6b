//! Ctrl-C during `ferro test`: SIGINT sent to a real process while a run block is applying.
//! The run stops gracefully (running changes finish), the remaining runs are skipped, and the
//! file still tears down everything it created: nothing is left behind.

use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ferro-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn sigint_during_a_run_skips_the_rest_and_still_cleans_up() {
    let dir = scratch("test-interrupt");
    std::fs::write(
        dir.join("main.tf"),
        r#"
resource "local_file" "marker" {
  filename = "${path.module}/marker.txt"
  content  = "created by the test"
}

resource "time_sleep" "wait" {
  create_duration = "2s"
  depends_on      = [local_file.marker]
}
"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("main.tftest.hcl"),
        r#"
run "slow" {
}

run "never" {
  command = plan
}
"#,
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(["test", "-no-color"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ferro");
    let pid = child.id();
    let mut stderr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let stdout = child.stdout.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        for line in BufReader::new(stdout).lines() {
            s.push_str(&line.unwrap_or_default());
            s.push('\n');
        }
        s
    });
    // The marker exists once the run's apply has created it: the apply is under way (the
    // sleep depends on it), so the signal lands in the middle of a run.
    let marker = dir.join("marker.txt");
    while !marker.exists() {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        std::thread::yield_now();
    }
    let sent = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(sent, "could not signal ferro");
    let status = child.wait().unwrap();
    let stdout = out_reader.join().unwrap();
    let stderr = err_reader.join().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert!(stdout.contains("Interrupt received."), "stdout:\n{stdout}");
    assert!(
        stdout.contains("  run \"never\"... skip"),
        "stdout:\n{stdout}"
    );
    assert!(
        stdout.contains("main.tftest.hcl... tearing down"),
        "stdout:\n{stdout}"
    );
    assert!(
        stdout.contains("main.tftest.hcl... fail"),
        "stdout:\n{stdout}"
    );
    assert!(
        !stderr.contains("left the following resources"),
        "stderr:\n{stderr}"
    );
    // The teardown destroyed what the interrupted run created.
    assert!(
        !marker.exists(),
        "the marker file was left behind\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
