//! The disk filling up during an apply loses nothing: the apply runs in a working directory on
//! a small tmpfs (mounted in a private mount namespace, `unshare -rm`), so state and journal
//! writes fail for want of space part-way through 3 000 creations. The journal's space was
//! reserved before the first change and ferro starts no new change once a write fails, so
//! after space is freed (the tmpfs remounted larger) every instance whose "Creation complete"
//! was printed is known to the next command, which folds the journal into the state file,
//! and the next apply creates exactly the rest.

mod cli_support;

use cli_support::scratch;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

const COUNT: usize = 3000;

const SCRIPT: &str = r#"
set -u
work=$1 out=$2 ferro=$3 count=$4
mount -t tmpfs -o size=1m tmpfs "$work" || exit 90
cd "$work"
printf 'resource "terraform_data" "a" {\n  count = %s\n  input = count.index\n}\n' "$count" > main.tf
"$ferro" apply -no-color -auto-approve > "$out/apply.out" 2> "$out/apply.err"
echo $? > "$out/apply.code"
# Space is freed.
mount -o remount,size=256m "$work" || exit 91
"$ferro" state list > "$out/list.out" 2> "$out/list.err"
"$ferro" plan -no-color > "$out/plan.out" 2> "$out/plan.err"
echo $? > "$out/plan.code"
cp terraform.tfstate "$out/folded.tfstate"
"$ferro" apply -no-color -auto-approve > "$out/again.out" 2> "$out/again.err"
echo $? > "$out/again.code"
"$ferro" state list > "$out/final.out" 2> "$out/final.err"
"#;

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_default()
}

/// Addresses on lines of `text` that contain `marker`, before it.
fn addrs(text: &str, marker: &str) -> BTreeSet<String> {
    text.lines()
        .filter_map(|l| l.split_once(marker).map(|(a, _)| a.to_string()))
        .collect()
}

#[test]
fn every_object_reported_created_is_known_after_the_disk_fills_up() {
    let dir = scratch("disk-full-journal");
    let work = dir.join("work");
    let out = dir.join("out");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&out).unwrap();
    let status = Command::new("unshare")
        .args(["-rm", "bash", "-c", SCRIPT, "disk-full"])
        .arg(&work)
        .arg(&out)
        .arg(env!("CARGO_BIN_EXE_ferro"))
        .arg(COUNT.to_string())
        .status()
        .expect("run unshare (util-linux)");
    assert_eq!(status.code(), Some(0), "the namespace script failed");

    // The apply failed for want of space, part-way.
    let apply_out = read(&out, "apply.out");
    let apply_err = read(&out, "apply.err");
    assert_eq!(read(&out, "apply.code").trim(), "1", "{apply_err}");
    assert!(apply_err.contains("No space left on device"), "{apply_err}");
    let created = addrs(&apply_out, ": Creation complete");
    assert!(
        !created.is_empty() && created.len() < COUNT,
        "the disk filled up part-way: {} created",
        created.len()
    );

    // The state was handed over as Terraform hands it over when it cannot be written:
    // errored.tfstate, or (no room for that either) printed in the error, with every object
    // reported created.
    let rescued = {
        let start = apply_err
            .find("\n    {\n")
            .unwrap_or_else(|| panic!("the state is not printed:\n{apply_err}"));
        let end = apply_err[start..]
            .find("\n    }\n")
            .expect("the printed state's end")
            + start;
        apply_err[start..end + 7].to_string()
    };
    let rescued = ferro_state::read_state(rescued.as_bytes()).expect("the printed state parses");
    let held: BTreeSet<String> = rescued
        .resources
        .values()
        .flat_map(|rs| {
            rs.instances
                .keys()
                .map(|k| rs.addr.instance(k.clone()).to_string())
        })
        .collect();
    assert_eq!(
        held, created,
        "the printed state holds exactly what was created"
    );

    // Every object reported created is known once there is space again.
    let known: BTreeSet<String> = read(&out, "list.out").lines().map(str::to_string).collect();
    let lost: Vec<_> = created.difference(&known).collect();
    assert!(
        lost.is_empty(),
        "{} created objects unknown, e.g. {:?}",
        lost.len(),
        lost.first()
    );
    let started = addrs(&apply_out, ": Creating...");
    let phantom: Vec<_> = known.difference(&started).collect();
    assert!(
        phantom.is_empty(),
        "objects never started are in state: {phantom:?}"
    );

    // The next locking command folded the journal into the state file itself.
    let plan = read(&out, "plan.out");
    assert_eq!(
        read(&out, "plan.code").trim(),
        "0",
        "{}",
        read(&out, "plan.err")
    );
    assert!(plan.starts_with("Recovered "), "{plan}");
    let folded: serde_json::Value =
        serde_json::from_str(&read(&out, "folded.tfstate")).expect("the state file parses");
    let on_disk = folded["resources"][0]["instances"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(
        on_disk,
        known.len(),
        "the state file holds every known object"
    );
    assert!(
        plan.contains(&format!(
            "Plan: {} to add, 0 to change, 0 to destroy.",
            COUNT - known.len()
        )),
        "{plan}"
    );

    // And the next apply creates exactly the rest.
    let again = read(&out, "again.out");
    assert_eq!(
        read(&out, "again.code").trim(),
        "0",
        "{}",
        read(&out, "again.err")
    );
    assert!(
        again.contains(&format!(
            "Apply complete! Resources: {} added, 0 changed, 0 destroyed.",
            COUNT - known.len()
        )),
        "{again}"
    );
    assert_eq!(read(&out, "final.out").lines().count(), COUNT);
}
