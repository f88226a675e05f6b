//! `ferro init` then `ferro apply` / `ferro plan` with the real null provider 2.1.2 from the
//! oracle cache's filesystem mirror (`tools/fetch-oracles.sh` downloads it on first use).

mod cli_support;

use cli_support::oracle_env;
use std::path::Path;

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
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

const CONFIG: &str = r#"
terraform {
  required_providers {
    null = {
      source  = "hashicorp/null"
      version = "2.1.2"
    }
  }
}

resource "null_resource" "a" {
  triggers = { k = "v" }
}

output "id" {
  value = null_resource.a.id
}
"#;

#[test]
fn init_then_apply_with_the_real_null_provider() {
    let env = oracle_env();
    let cli_config = &env
        .iter()
        .find(|(k, _)| k == "TF_CLI_CONFIG_FILE")
        .expect("TF_CLI_CONFIG_FILE")
        .1;
    // This test binary has only this test, so setting the variable cannot race with another.
    std::env::set_var("TF_CLI_CONFIG_FILE", cli_config);
    let dir = std::env::temp_dir().join(format!("ferro-cli-init-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("main.tf"), CONFIG).unwrap();

    // Without init no plugin is installed, so ferro's built-in null stands in.
    let (code, out, err) = ferro(&dir, &["plan", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("null_resource.a will be created"), "{out}");

    // `-lockfile=readonly` refuses to record the selection, and writes no lock file.
    let (code, _, err) = ferro(&dir, &["init", "-no-color", "-lockfile=readonly"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("Provider dependency changes detected"),
        "{err}"
    );
    assert!(!dir.join(".terraform.lock.hcl").exists());

    let (code, out, err) = ferro(&dir, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(
        "Initializing provider plugins...\n- Finding hashicorp/null versions matching \"2.1.2\"...\n- Installing hashicorp/null v2.1.2...\n- Installed hashicorp/null v2.1.2 (unauthenticated)\n"
    ), "{out}");
    assert!(
        out.contains("ferro has been successfully initialized!"),
        "{out}"
    );
    let lock = std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap();
    assert!(
        lock.contains("\"h1:CFnENdqQu4g3LJNevA32aDxcUz2qGkRGQpFfkI8TCdE=\","),
        "{lock}"
    );

    let (code, out, err) = ferro(&dir, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("null_resource.a: Creation complete"), "{out}");
    assert!(
        out.contains("Apply complete! Resources: 1 added, 0 changed, 0 destroyed."),
        "{out}"
    );
    let state = std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap();
    assert!(
        state.contains("\"provider\": \"provider[\\\"registry.terraform.io/hashicorp/null\\\"]\""),
        "{state}"
    );

    // Upgrade + refresh against the running provider find nothing to do.
    let (code, out, err) = ferro(&dir, &["plan", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("No changes."), "{out}");

    // `init -upgrade` selecting the version already unpacked keeps it, as Terraform does.
    let (code, out, err) = ferro(&dir, &["init", "-upgrade", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(
        "- Finding hashicorp/null versions matching \"2.1.2\"...\n- Using previously-installed hashicorp/null v2.1.2\n"
    ), "{out}");

    // A changed constraint that the lock file's selection does not satisfy needs -upgrade.
    std::fs::write(
        dir.join("main.tf"),
        CONFIG.replace("version = \"2.1.2\"", "version = \">= 3.0\""),
    )
    .unwrap();
    let (code, _, err) = ferro(&dir, &["init", "-no-color"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("does not match configured version constraint"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
