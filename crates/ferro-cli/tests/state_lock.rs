//! State locking across processes: two `ferro apply` runs on one state (exactly one runs, the
//! other reports the holder), and ferro against Terraform 1.0.3 in both directions.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const FERRO: &str = env!("CARGO_BIN_EXE_ferro");

struct TempDir(PathBuf);
impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!(
            "ferro-lock-{tag}-{}-{}",
            std::process::id(),
            ferro_state::new_lineage()
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn terraform() -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/fetch-oracles.sh");
    let out = Command::new("bash").arg(&script).output().unwrap();
    assert!(out.status.success(), "tools/fetch-oracles.sh failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("export TERRAFORM=").map(str::to_string))
        .expect("TERRAFORM from fetch-oracles.sh")
}

/// Start `program args` in `dir` with a piped stdin (it will stop at the approval prompt).
fn start(program: &str, dir: &Path, args: &[&str]) -> Child {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn run(program: &str, dir: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// Wait until the holder has written its lock description; returns it.
fn wait_for_lock(dir: &Path) -> ferro_state::LockInfo {
    let state = dir.join("terraform.tfstate");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(info) = ferro_state::read_lock_info(&state) {
            if ferro_state::is_locked(&state) {
                return info;
            }
        }
        assert!(
            Instant::now() < deadline,
            "the first apply never took the lock"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn approve(mut child: Child) -> Output {
    child.stdin.take().unwrap().write_all(b"yes\n").unwrap();
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn two_ferro_applies_exactly_one_runs() {
    let d = TempDir::new("ferro2");
    std::fs::write(
        d.0.join("main.tf"),
        "resource \"terraform_data\" \"a\" {\n  input = \"x\"\n}\n",
    )
    .unwrap();
    let first = start(FERRO, &d.0, &["-no-color", "apply"]);
    let holder = wait_for_lock(&d.0);
    assert_eq!(holder.operation, "OperationTypeApply");
    assert_eq!(holder.path, "terraform.tfstate");

    let second = run(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    let err = text(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(err.contains("Error acquiring the state lock"), "{err}");
    assert!(err.contains(&format!("ID:        {}", holder.id)), "{err}");
    assert!(err.contains("Operation: OperationTypeApply"), "{err}");
    assert!(err.contains(&format!("Who:       {}", holder.who)), "{err}");
    assert!(!text(&second.stdout).contains("Creating..."));

    // A waiting writer gives up after its timeout with the same report.
    let started = Instant::now();
    let waited = run(
        FERRO,
        &d.0,
        &["-no-color", "apply", "-auto-approve", "-lock-timeout=1s"],
    );
    assert_eq!(waited.status.code(), Some(1));
    assert!(started.elapsed() >= Duration::from_millis(900));
    assert!(text(&waited.stderr).contains(&holder.id));

    let done = approve(first);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    assert!(text(&done.stdout).contains("1 added"));
    assert!(
        ferro_state::read_lock_info(&d.0.join("terraform.tfstate")).is_none(),
        "the lock description is removed on unlock"
    );
    let state = std::fs::read_to_string(d.0.join("terraform.tfstate")).unwrap();
    assert_eq!(state.matches("\"type\": \"terraform_data\"").count(), 1);

    // With the lock free the next apply runs and converges.
    let again = run(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(again.status.code(), Some(0));
    assert!(text(&again.stdout).contains("No changes."));
}

#[test]
fn ferro_and_terraform_respect_each_others_locks() {
    let tf = terraform();
    let d = TempDir::new("tf");
    // Outputs only: both tools apply it without any provider.
    std::fs::write(d.0.join("main.tf"), "output \"x\" {\n  value = 1\n}\n").unwrap();

    // Terraform holds the lock (waiting for approval); ferro must not run.
    let tf_run = start(&tf, &d.0, &["apply", "-no-color"]);
    let holder = wait_for_lock(&d.0);
    assert_eq!(holder.version, "1.0.3");
    let blocked = run(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(blocked.status.code(), Some(1));
    let err = text(&blocked.stderr);
    assert!(err.contains("Error acquiring the state lock"), "{err}");
    assert!(err.contains(&holder.id), "{err}");
    let done = approve(tf_run);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));

    // ferro holds the lock; Terraform must not run.
    std::fs::write(d.0.join("main.tf"), "output \"x\" {\n  value = 2\n}\n").unwrap();
    let ferro_run = start(FERRO, &d.0, &["-no-color", "apply"]);
    let holder = wait_for_lock(&d.0);
    let before = std::fs::read(d.0.join("terraform.tfstate")).unwrap();
    let blocked = run(&tf, &d.0, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(blocked.status.code(), Some(1));
    let err = text(&blocked.stderr);
    assert!(err.contains("Error acquiring the state lock"), "{err}");
    assert!(err.contains(&format!("ID:        {}", holder.id)), "{err}");
    assert_eq!(
        std::fs::read(d.0.join("terraform.tfstate")).unwrap(),
        before
    );
    let done = approve(ferro_run);
    assert_eq!(done.status.code(), Some(0), "{}", text(&done.stderr));
    let state = std::fs::read_to_string(d.0.join("terraform.tfstate")).unwrap();
    assert!(state.contains("\"value\": 2"), "{state}");
}
