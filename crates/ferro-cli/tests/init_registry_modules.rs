//! `ferro init`'s module step against a local HTTPS module registry (see `registry_support`):
//! registry addresses with version constraints (`modules.v1`, `X-Terraform-Get` relative and
//! absolute), https archives (`.zip`, `.tar.gz`, `?archive=`) with `//subdir`, the manifest
//! Terraform writes, reuse and `-upgrade`, credentials, and the refusals that leave nothing.

mod cli_support;
mod registry_support;

use cli_support::scratch;
use registry_support::{ferro_env, files_under, Reply, Server};

fn module_tar_gz(files: &[(&str, &str)]) -> Vec<u8> {
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, t)| (*n, t.as_bytes())).collect();
    ferro_provider::install::tar::gzip(&ferro_provider::install::tar::write_tar(&files))
}

fn module_zip(files: &[(&str, &str)]) -> Vec<u8> {
    let files: Vec<(&str, &[u8], u32, bool)> = files
        .iter()
        .map(|(n, t)| (*n, t.as_bytes(), 0o644, true))
        .collect();
    ferro_provider::install::zip::write_zip(&files)
}

/// A CLI configuration sending `modules.example.test`'s module registry to `server`.
fn modules_host(server: &Server) -> String {
    format!(
        "host \"modules.example.test\" {{\n  services = {{\n    \"modules.v1\" = \"{}\"\n  }}\n}}\n",
        server.url("/v1/modules/")
    )
}

fn output(value: &str) -> String {
    format!("output \"v\" {{\n  value = \"{value}\"\n}}\n")
}

#[test]
fn registry_modules_and_remote_archives_are_installed_and_reused() {
    let server = Server::start("modules");
    // A registry module's hostname needs a dot (Terraform's rule): a host block leads this
    // one to the local server.
    let host = "modules.example.test";
    server.put(
        "/v1/modules/acme/net/aws/versions",
        Reply::ok(
            r#"{"modules":[{"source":"acme/net/aws","versions":[{"version":"1.0.0"},{"version":"1.1.0"},{"version":"2.0.0-beta1"}]}]}"#,
        ),
    );
    // 1.0.0 is a zip named relative to the download endpoint; 1.1.0 a tarball elsewhere.
    server.put(
        "/v1/modules/acme/net/aws/1.0.0/download",
        Reply {
            status: 204,
            headers: vec![("X-Terraform-Get".into(), "./net-1.0.0.zip".into())],
            body: Vec::new(),
        },
    );
    server.put(
        "/v1/modules/acme/net/aws/1.0.0/net-1.0.0.zip",
        Reply::ok(module_zip(&[("main.tf", &output("net 1.0.0"))])),
    );
    server.put(
        "/v1/modules/acme/net/aws/1.1.0/download",
        Reply {
            status: 204,
            headers: vec![(
                "X-Terraform-Get".into(),
                server.url("/archives/net-1.1.0.tar.gz"),
            )],
            body: Vec::new(),
        },
    );
    server.put(
        "/archives/net-1.1.0.tar.gz",
        Reply::ok(module_tar_gz(&[("main.tf", &output("net 1.1.0"))])),
    );
    server.put(
        "/archives/other.zip",
        Reply::ok(module_zip(&[
            ("README", "top"),
            ("sub/main.tf", &output("other sub")),
        ])),
    );
    server.put(
        "/dl",
        Reply::ok(module_tar_gz(&[("main.tf", &output("query"))])),
    );
    let mut env = server.env(&modules_host(&server));
    env.push(("TF_TOKEN_modules_example_test".into(), "mod-token".into()));
    let dir = scratch("init-registry-modules");
    let write = |constraint: &str| {
        std::fs::write(
            dir.join("main.tf"),
            format!(
                "module \"net\" {{\n  source  = \"{host}/acme/net/aws\"\n  version = \"{constraint}\"\n}}\n\nmodule \"other\" {{\n  source = \"{}\"\n}}\n\nmodule \"q\" {{\n  source = \"{}\"\n}}\n",
                server.url("/archives/other.zip//sub"),
                server.url("/dl?archive=tgz"),
            ),
        )
        .unwrap();
    };
    write("~> 1.0");
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    let url = |p: &str| server.url(p);
    assert!(
        out.contains(&format!(
            "Initializing modules...\nDownloading {host}/acme/net/aws 1.1.0 for net...\n- net in .terraform/modules/net\nDownloading {} for other...\n- other in .terraform/modules/other/sub\nDownloading {} for q...\n- q in .terraform/modules/q\n",
            url("/archives/other.zip"),
            url("/dl?archive=tgz")
        )),
        "{out}"
    );
    let manifest = std::fs::read_to_string(dir.join(".terraform/modules/modules.json")).unwrap();
    assert_eq!(
        manifest,
        format!(
            r#"{{"Modules":[{{"Key":"","Source":"","Dir":"."}},{{"Key":"net","Source":"{host}/acme/net/aws","Version":"1.1.0","Dir":".terraform/modules/net"}},{{"Key":"other","Source":"{}","Dir":".terraform/modules/other/sub"}},{{"Key":"q","Source":"{}","Dir":".terraform/modules/q"}}]}}"#,
            url("/archives/other.zip//sub"),
            url("/dl?archive=tgz")
        )
    );
    // The registry's API requests carry the host's token; archive downloads do not.
    let api = server.seen("/v1/modules/acme/net/aws/");
    assert!(api.iter().any(|r| r.path.ends_with("/versions")), "{api:?}");
    for r in &api {
        let want = (!r.path.ends_with(".zip")).then_some("Bearer mod-token");
        assert_eq!(r.authorization.as_deref(), want, "{r:?}");
    }
    assert!(server
        .seen("/archives/")
        .iter()
        .all(|r| r.authorization.is_none()));
    let read = |p: &str| std::fs::read_to_string(dir.join(".terraform/modules").join(p)).unwrap();
    assert!(read("net/main.tf").contains("net 1.1.0"));
    assert!(read("other/sub/main.tf").contains("other sub"));
    assert!(read("q/main.tf").contains("query"));

    // Installed modules are reused: nothing is downloaded again.
    let before = server.seen("/").len();
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("Downloading"), "{out}");
    assert_eq!(server.seen("/").len(), before);

    // A constraint the installed version no longer meets installs another.
    write("1.0.0");
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!("Downloading {host}/acme/net/aws 1.0.0 for net...")),
        "{out}"
    );
    assert!(!out.contains("for other..."), "{out}");
    assert!(read("net/main.tf").contains("net 1.0.0"));

    // -upgrade fetches everything again, at the newest allowed version.
    write("~> 1.0");
    let (code, out, err) = ferro_env(&dir, &["init", "-upgrade"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!("Downloading {host}/acme/net/aws 1.1.0 for net..."))
            && out.contains("for other...")
            && out.contains("for q..."),
        "{out}"
    );
    assert!(read("net/main.tf").contains("net 1.1.0"));
}

#[test]
fn module_download_failures_are_reported_and_leave_nothing() {
    let server = Server::start("module-errors");
    let host = "modules.example.test";
    server.put(
        "/v1/modules/acme/net/aws/versions",
        Reply::ok(r#"{"modules":[{"versions":[{"version":"1.0.0"}]}]}"#),
    );
    server.put("/broken.tar.gz", Reply::ok(b"not a tarball".to_vec()));
    let cases = [
        (
            format!("source = \"{host}/acme/net/aws\"\n  version = \">= 2.0\""),
            "There is no available version of module \"",
        ),
        (
            format!("source = \"{host}/acme/none/aws\""),
            "Module not found",
        ),
        (
            format!("source = \"{}\"", server.url("/broken.tar.gz")),
            "not a valid gzip stream",
        ),
        (
            format!("source = \"{}\"", server.url("/missing.zip")),
            "bad response code: 404",
        ),
        (
            "source = \"127.0.0.1:1/acme/net/aws\"".to_string(),
            "could not connect to 127.0.0.1:1",
        ),
        (
            format!(
                "source  = \"{}\"\n  version = \"1.0.0\"",
                server.url("/m.zip")
            ),
            "Cannot apply a version constraint to module \"m\" because it has a non Registry URL.",
        ),
    ];
    // Each refusal names the call.
    for (i, (call, message)) in cases.iter().enumerate() {
        let dir = scratch(&format!("init-registry-module-error-{i}"));
        std::fs::write(
            dir.join("main.tf"),
            format!("module \"m\" {{\n  {call}\n}}\n"),
        )
        .unwrap();
        let (code, out, err) = ferro_env(&dir, &["init"], &server.env(&modules_host(&server)));
        assert_eq!(code, 1, "{call}: {out}\n{err}");
        assert!(
            err.contains(message),
            "{call}: expected {message:?} in\n{err}"
        );
        assert_eq!(
            files_under(&dir.join(".terraform/modules")),
            Vec::<String>::new(),
            "{call}"
        );
    }
}

#[test]
fn a_module_installed_again_takes_its_descendants_with_it() {
    let server = Server::start("module-tree");
    let child_url = server.url("/child.zip");
    server.put(
        "/parent.zip",
        Reply::ok(module_zip(&[(
            "main.tf",
            &format!("module \"child\" {{\n  source = \"{child_url}\"\n}}\n"),
        )])),
    );
    server.put(
        "/child.zip",
        Reply::ok(module_zip(&[("main.tf", &output("child"))])),
    );
    let env = server.env("");
    let dir = scratch("init-registry-module-tree");
    let write = |query: &str| {
        std::fs::write(
            dir.join("main.tf"),
            format!(
                "module \"parent\" {{\n  source = \"{}{query}\"\n}}\n",
                server.url("/parent.zip")
            ),
        )
        .unwrap()
    };
    write("");
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("for parent.child..."), "{out}");
    // Unchanged: nothing is fetched.
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("Downloading"), "{out}");
    // The parent's source changes: it is fetched again, and so is the child it calls.
    write("?archive=zip");
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("for parent...") && out.contains("for parent.child..."),
        "{out}"
    );
}

#[test]
fn init_installs_the_registry_modules_test_files_run_and_ferro_test_uses_them() {
    let server = Server::start("test-modules");
    let host = "modules.example.test";
    server.put(
        "/v1/modules/acme/setup/test/versions",
        Reply::ok(
            r#"{"modules":[{"source":"acme/setup/test","versions":[{"version":"1.0.0"},{"version":"1.2.0"},{"version":"2.0.0"}]}]}"#,
        ),
    );
    for v in ["1.0.0", "1.2.0", "2.0.0"] {
        server.put(
            &format!("/v1/modules/acme/setup/test/{v}/download"),
            Reply {
                status: 204,
                headers: vec![("X-Terraform-Get".into(), format!("./setup-{v}.tar.gz"))],
                body: Vec::new(),
            },
        );
        server.put(
            &format!("/v1/modules/acme/setup/test/{v}/setup-{v}.tar.gz"),
            Reply::ok(module_tar_gz(&[(
                "main.tf",
                &format!(
                    "resource \"terraform_data\" \"made\" {{\n  input = \"setup {v}\"\n}}\n\noutput \"name\" {{\n  value = terraform_data.made.output\n}}\n"
                ),
            )])),
        );
    }
    let env = server.env(&modules_host(&server));
    let dir = scratch("init-test-modules");
    std::fs::write(
        dir.join("main.tf"),
        "variable \"name\" {\n  type = string\n}\n\noutput \"name\" {\n  value = var.name\n}\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(
        dir.join("tests/main.tftest.hcl"),
        format!(
            "run \"setup\" {{\n  module {{\n    source  = \"{host}/acme/setup/test\"\n    version = \"~> 1.0\"\n  }}\n}}\n\nrun \"main\" {{\n  variables {{\n    name = run.setup.name\n  }}\n  assert {{\n    condition     = output.name == \"setup 1.2.0\"\n    error_message = \"got ${{output.name}}\"\n  }}\n}}\n"
        ),
    )
    .unwrap();

    // Before init the module is not there: the run says so.
    let (code, out, err) = ferro_env(&dir, &["test", "-no-color"], &env);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.contains("Module not installed"), "{err}");
    assert!(out.contains("  run \"setup\"... fail"), "{out}");

    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!(
            "Downloading {host}/acme/setup/test 1.2.0 for test.tests.main.setup...\n- test.tests.main.setup in .terraform/modules/test.tests.main.setup\n"
        )),
        "{out}"
    );
    let manifest = std::fs::read_to_string(dir.join(".terraform/modules/modules.json")).unwrap();
    assert!(
        manifest.contains(&format!(
            r#"{{"Key":"test.tests.main.setup","Source":"{host}/acme/setup/test","Version":"1.2.0","Dir":".terraform/modules/test.tests.main.setup"}}"#
        )),
        "{manifest}"
    );

    let (code, out, err) = ferro_env(&dir, &["test", "-no-color"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("  run \"setup\"... pass\n  run \"main\"... pass\n"),
        "{out}"
    );
    // The installed module itself is left as it was downloaded.
    assert!(!dir
        .join(".terraform/modules/test.tests.main.setup/terraform.tfstate")
        .exists());

    // Test files in another directory: `init -test-directory` installs their modules under
    // that directory's keys, and `test -test-directory` finds them there.
    std::fs::create_dir_all(dir.join("checks")).unwrap();
    std::fs::rename(
        dir.join("tests/main.tftest.hcl"),
        dir.join("checks/main.tftest.hcl"),
    )
    .unwrap();
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("test.checks.main.setup"), "{out}");
    let args = ["test", "-no-color", "-test-directory=checks"];
    let (code, _, err) = ferro_env(&dir, &args, &env);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("Module not installed"), "{err}");
    let (code, out, err) = ferro_env(&dir, &["init", "-test-directory=checks"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!(
            "Downloading {host}/acme/setup/test 1.2.0 for test.checks.main.setup...\n- test.checks.main.setup in .terraform/modules/test.checks.main.setup\n"
        )),
        "{out}"
    );
    let (code, out, err) = ferro_env(&dir, &args, &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("checks/main.tftest.hcl... pass"), "{out}");
}
