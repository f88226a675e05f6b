//! Crash safety: `ferro apply` of 2 000 instances killed at random moments (SIGKILL, and
//! SIGTERM for a graceful stop). After each kill the state must parse, hold every instance whose
//! "Creation complete" line was printed and nothing that was never started, and the next apply
//! must create exactly the rest and converge.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const FERRO: &str = env!("CARGO_BIN_EXE_ferro");
const COUNT: usize = 2000;

struct TempDir(PathBuf);
impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!(
            "ferro-crash-{tag}-{}-{}",
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

/// A small xorshift generator seeded from the clock; the seed is printed for reproduction.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn config(dir: &Path) {
    std::fs::write(
        dir.join("main.tf"),
        format!(
            "resource \"terraform_data\" \"a\" {{\n  count = {COUNT}\n  input = count.index\n}}\n"
        ),
    )
    .unwrap();
}

/// Addresses on lines ending with `suffix`-prefixed text, e.g. ": Creation complete".
fn addrs(out: &str, marker: &str) -> BTreeSet<String> {
    out.lines()
        .filter_map(|l| l.split_once(marker).map(|(a, _)| a.to_string()))
        .collect()
}

fn state_addrs(dir: &Path) -> BTreeSet<String> {
    let state = ferro_state::LocalBackend::new(dir.join("terraform.tfstate"))
        .load()
        .expect("the state parses after a kill")
        .unwrap_or_else(|| ferro_state::State::new(String::new()));
    state
        .resources
        .values()
        .flat_map(|rs| {
            rs.instances
                .iter()
                .filter(|(_, i)| i.current.is_some())
                .map(|(k, _)| rs.addr.instance(k.clone()).to_string())
        })
        .collect()
}

/// Kill an apply after `delay` with `signal`; check the state; converge.
fn one_run(delay: Duration, signal: &str) {
    let d = TempDir::new(signal);
    config(&d.0);
    let out_path = d.0.join("out.txt");
    let mut child = Command::new(FERRO)
        .args(["-no-color", "apply", "-auto-approve"])
        .current_dir(&d.0)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    let _ = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status();
    child.wait().unwrap();
    let out = std::fs::read_to_string(&out_path).unwrap();
    let completed = addrs(&out, ": Creation complete");
    let started = addrs(&out, ": Creating...");
    let in_state = state_addrs(&d.0);
    let lost: Vec<_> = completed.difference(&in_state).collect();
    assert!(
        lost.is_empty(),
        "{signal} after {delay:?}: {} completed instances missing from state, e.g. {:?}",
        lost.len(),
        lost.first()
    );
    let phantom: Vec<_> = in_state.difference(&started).collect();
    assert!(
        phantom.is_empty(),
        "{signal} after {delay:?}: state holds instances never started: {phantom:?}"
    );

    let next = Command::new(FERRO)
        .args(["-no-color", "apply", "-auto-approve"])
        .current_dir(&d.0)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&next.stdout);
    assert_eq!(next.status.code(), Some(0), "{text}");
    let rest = COUNT - in_state.len();
    if rest == 0 {
        assert!(text.contains("No changes."), "{text}");
    } else {
        assert!(
            text.contains(&format!(
                "Apply complete! Resources: {rest} added, 0 changed, 0 destroyed."
            )),
            "{signal} after {delay:?} ({} in state): {}",
            in_state.len(),
            text.lines().last().unwrap_or("")
        );
    }
    assert_eq!(state_addrs(&d.0).len(), COUNT);
    assert!(!ferro_state::journal_path(&d.0.join("terraform.tfstate")).exists());
    let plan = Command::new(FERRO)
        .args(["-no-color", "plan", "-detailed-exitcode"])
        .current_dir(&d.0)
        .output()
        .unwrap();
    assert_eq!(plan.status.code(), Some(0), "the second apply converged");
}

/// How long an uninterrupted apply takes here, to spread the kills over its whole run.
fn full_apply_time() -> Duration {
    let d = TempDir::new("calibrate");
    config(&d.0);
    let started = std::time::Instant::now();
    let out = Command::new(FERRO)
        .args(["-no-color", "apply", "-auto-approve"])
        .current_dir(&d.0)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    started.elapsed()
}

#[test]
fn killed_applies_lose_nothing_and_converge() {
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    eprintln!("crash_safety seed {seed}");
    let mut rng = Rng(seed);
    let span = full_apply_time().as_millis().max(50) as u64;
    for _ in 0..20 {
        one_run(Duration::from_millis(rng.next() % span), "KILL");
    }
    for _ in 0..5 {
        one_run(Duration::from_millis(rng.next() % span), "TERM");
    }
}
