//! Module sources and versions evaluated early (OpenTofu 1.8) against a local HTTPS module
//! registry (see `registry_support`): `init -var` chooses the registry version and the archive,
//! a child module's call uses the variable its caller passes, `plan` with another source is
//! "Module source has changed" until `init` runs again.

mod cli_support;
mod registry_support;

use cli_support::scratch;
use registry_support::{ferro_env, Reply, Server};

fn module_tar_gz(files: &[(&str, &str)]) -> Vec<u8> {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, t)| (*n, t.as_bytes())).collect();
    ferro_provider::install::tar::gzip(&ferro_provider::install::tar::write_tar(&files))
}

fn output(value: &str) -> String {
    format!("output \"v\" {{\n  value = \"{value}\"\n}}\n")
}

const ROOT: &str = r#"variable "net_version" {
  default = "1.0.0"
}

variable "archive" {
  type = string
}

locals {
  host = "modules.example.test"
}

module "net" {
  source  = "${local.host}/acme/net/aws"
  version = var.net_version
}

module "pkg" {
  source    = var.archive
  child_dir = "./inner"
}

output "net" {
  value = module.net.v
}

output "pkg" {
  value = module.pkg.v
}
"#;

#[test]
fn module_sources_and_versions_from_variables() {
    let server = Server::start("early-modules");
    server.put(
        "/v1/modules/acme/net/aws/versions",
        Reply::ok(
            r#"{"modules":[{"source":"acme/net/aws","versions":[{"version":"1.0.0"},{"version":"1.1.0"}]}]}"#,
        ),
    );
    for v in ["1.0.0", "1.1.0"] {
        server.put(
            &format!("/v1/modules/acme/net/aws/{v}/download"),
            Reply {
                status: 204,
                headers: vec![(
                    "X-Terraform-Get".into(),
                    server.url(&format!("/archives/net-{v}.tar.gz")),
                )],
                body: Vec::new(),
            },
        );
        server.put(
            &format!("/archives/net-{v}.tar.gz"),
            Reply::ok(module_tar_gz(&[("main.tf", &output(&format!("net {v}")))])),
        );
    }
    // Archive a declares the variable and ignores it; archive b calls a module of its own
    // from the directory its caller names.
    let declare = "variable \"child_dir\" {\n  type = string\n}\n\n";
    server.put(
        "/archives/a.tar.gz",
        Reply::ok(module_tar_gz(&[(
            "main.tf",
            &format!("{declare}{}", output("pkg a")),
        )])),
    );
    server.put(
        "/archives/b.tar.gz",
        Reply::ok(module_tar_gz(&[
            (
                "main.tf",
                &format!("{declare}module \"in\" {{\n  source = var.child_dir\n}}\n\noutput \"v\" {{\n  value = \"pkg b with ${{module.in.v}}\"\n}}\n"),
            ),
            ("inner/main.tf", &output("inner b")),
        ])),
    );
    let env = server.env(&format!(
        "host \"modules.example.test\" {{\n  services = {{\n    \"modules.v1\" = \"{}\"\n  }}\n}}\n",
        server.url("/v1/modules/")
    ));
    let dir = scratch("init-early-modules");
    std::fs::write(dir.join("main.tf"), ROOT).unwrap();
    let a = server.url("/archives/a.tar.gz");
    let b = server.url("/archives/b.tar.gz");

    // init needs the variable without a default.
    let (code, out, err) = ferro_env(&dir, &["init", "-no-color"], &env);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.contains("No value for required variable"), "{err}");
    assert!(err.contains("source    = var.archive"), "{err}");

    let (code, out, err) = ferro_env(
        &dir,
        &["init", "-no-color", &format!("-var=archive={a}")],
        &env,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!("Downloading modules.example.test/acme/net/aws 1.0.0 for net...\n- net in .terraform/modules/net\nDownloading {a} for pkg...\n- pkg in .terraform/modules/pkg\n")),
        "{out}"
    );
    let manifest = std::fs::read_to_string(dir.join(".terraform/modules/modules.json")).unwrap();
    assert!(
        manifest.contains(r#"{"Key":"net","Source":"modules.example.test/acme/net/aws","Version":"1.0.0","Dir":".terraform/modules/net"}"#),
        "{manifest}"
    );
    assert!(
        manifest.contains(&format!(
            r#"{{"Key":"pkg","Source":"{a}","Dir":".terraform/modules/pkg"}}"#
        )),
        "{manifest}"
    );

    // The variable from the environment works as well as -var.
    let mut with_a = env.clone();
    with_a.push(("TF_VAR_archive".into(), a.clone()));
    let (code, out, err) = ferro_env(&dir, &["plan", "-no-color"], &with_a);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("+ net = \"net 1.0.0\""), "{out}");
    assert!(out.contains("+ pkg = \"pkg a\""), "{out}");

    // Another source than the one installed: init first.
    let (code, out, err) = ferro_env(
        &dir,
        &["plan", "-no-color", &format!("-var=archive={b}")],
        &env,
    );
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.contains("Error: Module source has changed"), "{err}");
    assert!(
        err.contains(&format!(
            "The source address was changed from {a:?} to {b:?} since this module was installed. Run \"ferro init\""
        )),
        "{err}"
    );

    // init with the new values installs the new archive, the other version, and the call
    // inside the new archive, whose source is the variable its caller passes.
    let (code, out, err) = ferro_env(
        &dir,
        &[
            "init",
            "-no-color",
            &format!("-var=archive={b}"),
            "-var",
            "net_version=1.1.0",
        ],
        &env,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("Downloading modules.example.test/acme/net/aws 1.1.0 for net..."),
        "{out}"
    );
    assert!(
        out.contains(&format!("Downloading {b} for pkg...")),
        "{out}"
    );
    assert!(
        out.contains("- pkg.in in .terraform/modules/pkg/inner\n"),
        "{out}"
    );
    let (code, out, err) = ferro_env(
        &dir,
        &[
            "apply",
            "-no-color",
            "-auto-approve",
            &format!("-var=archive={b}"),
            "-var=net_version=1.1.0",
        ],
        &env,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("net = \"net 1.1.0\""), "{out}");
    assert!(out.contains("pkg = \"pkg b with inner b\""), "{out}");
}
