//! `ferro init` installs modules as Terraform does: local paths recorded in
//! `.terraform/modules/modules.json`, git sources (`git::file:///…?ref=…`) cloned with the system
//! git into `.terraform/modules/KEY` and re-fetched by `init -upgrade`, registry sources refused
//! with a clear error; plan and apply then use the installed modules.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) {
    let ok = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "ferro")
        .env("GIT_AUTHOR_EMAIL", "ferro@example.test")
        .env("GIT_COMMITTER_NAME", "ferro")
        .env("GIT_COMMITTER_EMAIL", "ferro@example.test")
        .status()
        .expect("run git")
        .success();
    assert!(ok, "git {args:?}");
}

fn ferro(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run ferro");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const MODULE: &str = r#"variable "v" {}
resource "terraform_data" "r" {
  input = "${var.v}-VERSION"
}
output "out" {
  value = terraform_data.r.output
}
"#;

#[test]
fn init_installs_git_and_local_modules() {
    let base = std::env::temp_dir().join(format!("ferro-init-modules-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let repo = base.join("repo");
    let work = base.join("work");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::create_dir_all(work.join("m")).unwrap();
    std::fs::write(repo.join("main.tf"), MODULE.replace("VERSION", "v1")).unwrap();
    git(&repo, &["init", "-q"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "one"]);
    git(&repo, &["tag", "v1"]);
    std::fs::write(repo.join("main.tf"), MODULE.replace("VERSION", "v2")).unwrap();
    git(&repo, &["commit", "-q", "-am", "two"]);
    git(&repo, &["tag", "v2"]);
    std::fs::write(work.join("m/main.tf"), MODULE.replace("VERSION", "local")).unwrap();
    let main = |tag: &str| {
        format!(
            r#"module "g" {{
  source = "git::file://{}?ref={tag}"
  v      = "git"
}}
module "local" {{
  source = "./m"
  v      = module.g.out
}}
output "o" {{
  value = module.local.out
}}
"#,
            repo.display()
        )
    };
    std::fs::write(work.join("main.tf"), main("v1")).unwrap();

    let (code, out, err) = ferro(&work, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Initializing modules...\n"), "{out}");
    assert!(out.contains("- g in .terraform/modules/g\n"), "{out}");
    assert!(out.contains("- local in m\n"), "{out}");
    let manifest = std::fs::read_to_string(work.join(".terraform/modules/modules.json")).unwrap();
    assert!(
        manifest.starts_with(r#"{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"g","#),
        "{manifest}"
    );
    assert!(
        manifest.contains(r#""Key":"local","Source":"./m","Dir":"m""#),
        "{manifest}"
    );

    let (code, out, err) = ferro(&work, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("o = \"git-v1-local\""), "{out}");

    // A changed source is fetched again by init.
    std::fs::write(work.join("main.tf"), main("v2")).unwrap();
    let (code, _, _) = ferro(&work, &["init", "-no-color"]);
    assert_eq!(code, 0);
    let (code, out, err) = ferro(&work, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("o = \"git-v2-local\""), "{out}");

    // The same source moved on (the tag now names a new commit): kept by init, fetched again
    // by init -upgrade.
    std::fs::write(repo.join("main.tf"), MODULE.replace("VERSION", "v3")).unwrap();
    git(&repo, &["commit", "-q", "-am", "three"]);
    git(&repo, &["tag", "-f", "v2"]);
    let (code, _, _) = ferro(&work, &["init", "-no-color"]);
    assert_eq!(code, 0);
    let (_, out, _) = ferro(&work, &["plan", "-no-color"]);
    assert!(
        out.contains("No changes."),
        "the checkout is kept without -upgrade: {out}"
    );
    let (code, out, err) = ferro(&work, &["init", "-upgrade", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = ferro(&work, &["apply", "-auto-approve", "-no-color"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("o = \"git-v3-local\""), "{out}");

    // A registry nothing answers for (port 1 on the loopback): a clear error, exit 1.
    std::fs::write(
        work.join("main.tf"),
        "module \"vpc\" {\n  source  = \"127.0.0.1:1/terraform-aws-modules/vpc/aws\"\n  version = \"3.0.0\"\n}\n",
    )
    .unwrap();
    let (code, _, err) = ferro(&work, &["init", "-no-color"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("Error accessing remote module registry"),
        "{err}"
    );
    assert!(
        err.contains("Failed to retrieve available versions for module \"vpc\" from 127.0.0.1:1: could not connect to 127.0.0.1:1"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&base);
}

/// `get` installs modules as `init` does; a call installed before is kept and not announced
/// again (by `get` or by `init`), unless `get -update` / `init -upgrade`, as in Terraform.
#[test]
fn get_installs_modules_and_reinstalls_only_on_update() {
    let dir = std::env::temp_dir().join(format!("ferro-get-modules-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("child/grand")).unwrap();
    std::fs::write(
        dir.join("main.tf"),
        "module \"child\" {\n  source = \"./child\"\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("child/main.tf"),
        "module \"grand\" {\n  source = \"./grand\"\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("child/grand/main.tf"),
        "resource \"terraform_data\" \"r\" {}\n",
    )
    .unwrap();
    let listed = "- child in child\n- child.grand in child/grand\n";
    let (code, out, err) = ferro(&dir, &["get", "-no-color"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, listed);
    let manifest = std::fs::read_to_string(dir.join(".terraform/modules/modules.json")).unwrap();
    assert!(manifest.contains("\"Key\":\"child.grand\""), "{manifest}");

    let (code, out, _) = ferro(&dir, &["get", "-no-color"]);
    assert_eq!((code, out.as_str()), (0, ""));
    let (code, out, _) = ferro(&dir, &["init", "-no-color"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("Initializing modules...\n\nInitializing the backend..."),
        "{out}"
    );
    let (code, out, _) = ferro(&dir, &["get", "-update", "-no-color"]);
    assert_eq!((code, out.as_str()), (0, listed));
    let (code, out, _) = ferro(&dir, &["init", "-upgrade", "-no-color"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with(&format!(
            "Upgrading modules...\n{listed}\nInitializing the backend..."
        )),
        "{out}"
    );
    let (code, out, _) = ferro(&dir, &["plan", "-no-color"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("module.child.module.grand.terraform_data.r will be created"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
