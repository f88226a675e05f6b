//! `plan -out` then `apply PLANFILE` with locals that refer to each other, many times: workers
//! evaluating the same local at once must never see a false "Cycle in local values".

use std::path::{Path, PathBuf};

fn ferro(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let code = ferro_cli::run(
        &args,
        dir,
        &mut ferro_cli::Io {
            stdout: &mut out,
            stderr: &mut err,
            stdin: None,
        },
    );
    (
        code,
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
    )
}

const CONFIG: &str = r#"
locals {
  base   = { a = "1", b = "2" }
  extra  = { c = "3" }
  merged = merge(local.base, local.extra)
  pick_a = lookup(local.merged, "a", "none")
  pick_c = lookup(local.merged, "c", "none")
}

resource "terraform_data" "x" {
  count = 8
  input = "${local.pick_a}-${local.pick_c}-${count.index}"
}

output "a" { value = local.pick_a }
output "c" { value = local.pick_c }
output "b" { value = lookup(local.merged, "b", "") }
"#;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ferro-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn saved_plan_with_interdependent_locals_applies_every_time() {
    let dir = scratch("saved-plan-locals");
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();
    for round in 0..60 {
        let _ = std::fs::remove_file(dir.join("terraform.tfstate"));
        let _ = std::fs::remove_file(dir.join("terraform.tfstate.backup"));
        let (code, _, err) = ferro(&dir, &["plan", "-no-color", "-out=p.plan"]);
        assert_eq!(code, 0, "round {round}: plan failed: {err}");
        let (code, out, err) = ferro(&dir, &["apply", "-no-color", "p.plan"]);
        assert_eq!(code, 0, "round {round}: apply failed:\n{out}\n{err}");
        assert!(!err.contains("Cycle"), "round {round}: {err}");
        assert!(
            out.contains("Apply complete! Resources: 8 added, 0 changed, 0 destroyed."),
            "round {round}: {out}"
        );
        let state = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
        assert!(state.contains("\"value\": \"1\""), "round {round}: {state}");
        assert!(state.contains("\"value\": \"3\""), "round {round}: {state}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
