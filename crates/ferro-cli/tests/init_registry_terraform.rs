//! Terraform 1.0.3 and ferro `init` from the same local HTTPS registry (see
//! `registry_support`): the same messages, `.terraform.lock.hcl`, `modules.json` and
//! `.terraform` layout, and the same refusals of a tampered package and a wrong signature;
//! and the real null provider 2.1.2, served by that registry, installed and applied.
//! Terraform and the provider come from the oracle cache (`tools/fetch-oracles.sh` fetches
//! them on first use).

mod cli_support;
mod registry_support;

use registry_support::{files_under, Key, Reply, Server};
use std::path::{Path, PathBuf};

fn terraform() -> PathBuf {
    oracle("TERRAFORM")
}

/// A path `tools/fetch-oracles.sh` exports.
fn oracle(name: &str) -> PathBuf {
    cli_support::oracle_env()
        .into_iter()
        .find_map(|(k, v)| (k == name).then(|| PathBuf::from(v)))
        .unwrap_or_else(|| panic!("{name} from fetch-oracles.sh"))
}

/// Run `bin init -no-color` in a fresh `dir` holding `config`: exit code, output, errors.
fn init(bin: &Path, dir: &Path, config: &str, env: &[(String, String)]) -> (i32, String, String) {
    run(bin, dir, config, &["init", "-no-color"], env)
}

/// Run `bin ARGS` in a fresh `dir` holding `config`: exit code, output, errors.
fn run(
    bin: &Path,
    dir: &Path,
    config: &str,
    args: &[&str],
    env: &[(String, String)],
) -> (i32, String, String) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("main.tf"), config).unwrap();
    let out = std::process::Command::new(bin)
        .args(args)
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (k.clone(), v.clone())))
        .env("TF_IN_AUTOMATION", "1")
        .env_remove("HTTPS_PROXY")
        .env_remove("https_proxy")
        .env_remove("TF_PLUGIN_CACHE_DIR")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// What both tools leave in a working directory: the lock file, the module manifest's
/// records (Terraform writes them in Go's map order, which varies from run to run: compared
/// sorted) and the files under `.terraform` (ferro's schema cache aside).
fn outcome(dir: &Path) -> (String, Vec<String>, Vec<String>) {
    let read = |p: &str| std::fs::read_to_string(dir.join(p)).unwrap_or_default();
    let files = files_under(&dir.join(".terraform"))
        .into_iter()
        .filter(|f| f != "ferro-schemas.json")
        .collect();
    let manifest: serde_json::Value =
        serde_json::from_str(&read(".terraform/modules/modules.json")).unwrap_or_default();
    let mut records: Vec<String> = manifest["Modules"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r.to_string())
        .collect();
    records.sort();
    (read(".terraform.lock.hcl"), records, files)
}

#[test]
fn terraform_and_ferro_install_the_same_from_one_registry() {
    let terraform = terraform();
    let ferro = PathBuf::from(env!("CARGO_BIN_EXE_ferro"));
    let server = Server::start("terraform");
    // Terraform 1.0.3's OpenPGP library reads RSA keys only.
    let key = Key::generate_rsa(11);
    server.publish_provider("acme", "thing", &["1.0.0", "1.2.0"], &key);
    server.put(
        "/v1/modules/acme/net/aws/versions",
        Reply::ok(r#"{"modules":[{"versions":[{"version":"1.0.0"},{"version":"2.0.0"}]}]}"#),
    );
    server.put(
        "/v1/modules/acme/net/aws/1.0.0/download",
        Reply {
            status: 204,
            headers: vec![("X-Terraform-Get".into(), "./net.tar.gz".into())],
            body: Vec::new(),
        },
    );
    let tar = ferro_provider::install::tar::write_tar(&[
        ("main.tf", b"output \"v\" {\n  value = 1\n}\n"),
        ("sub/main.tf", b"output \"w\" {\n  value = 2\n}\n"),
    ]);
    server.put(
        "/v1/modules/acme/net/aws/1.0.0/net.tar.gz",
        Reply::ok(ferro_provider::install::tar::gzip(&tar)),
    );
    let env = server.env(&format!(
        "host \"modules.example.test\" {{\n  services = {{\n    \"modules.v1\" = \"{}\"\n  }}\n}}\n",
        server.url("/v1/modules/")
    ));
    let host = &server.host;
    let config = |ns: &str| {
        format!(
            "terraform {{\n  required_providers {{\n    thing = {{\n      source  = \"{host}/{ns}/thing\"\n      version = \"~> 1.0\"\n    }}\n  }}\n}}\n\nmodule \"net\" {{\n  source  = \"modules.example.test/acme/net/aws//sub\"\n  version = \"< 2.0\"\n}}\n"
        )
    };
    let base = std::env::temp_dir().join(format!(
        "ferro-registry-vs-terraform-{}",
        std::process::id()
    ));
    let (tdir, fdir) = (base.join("terraform"), base.join("ferro"));

    let (tcode, tout, terr) = init(&terraform, &tdir, &config("acme"), &env);
    assert_eq!(tcode, 0, "terraform: {tout}\n{terr}");
    let (fcode, fout, ferr) = init(&ferro, &fdir, &config("acme"), &env);
    assert_eq!(fcode, 0, "ferro: {fout}\n{ferr}");
    let installs = |out: &str| {
        out.lines()
            .filter(|l| l.starts_with('-') || l.starts_with("Downloading"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(installs(&fout), installs(&tout));
    assert!(
        fout.contains(&format!("(self-signed, key ID {})", key.id)),
        "{fout}"
    );
    assert_eq!(outcome(&fdir), outcome(&tdir));

    // A tampered package and a signature over something else: both refuse, both leave nothing.
    let pkgs = server.publish_provider("tampered", "thing", &["1.0.0"], &key);
    let mut zip = pkgs["1.0.0"].zip.clone();
    let n = zip.len();
    zip[n - 1] ^= 1;
    server.put(
        &format!("/files/tampered/thing/1.0.0/{}", pkgs["1.0.0"].filename),
        Reply::ok(zip),
    );
    server.publish_provider("badsig", "thing", &["1.0.0"], &key);
    server.put(
        "/files/badsig/thing/1.0.0/SHA256SUMS.sig",
        Reply::ok(key.sign(b"something else")),
    );
    for (ns, words) in [
        ("tampered", "archive has incorrect checksum"),
        ("badsig", "error checking signature"),
    ] {
        let (tcode, tout, terr) = init(&terraform, &tdir, &config(ns), &env);
        let (fcode, fout, ferr) = init(&ferro, &fdir, &config(ns), &env);
        assert_eq!((tcode, fcode), (1, 1), "{ns}: {tout}{terr}\n{fout}{ferr}");
        let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat(&terr).contains(words), "terraform {ns}: {terr}");
        assert!(flat(&ferr).contains(words), "ferro {ns}: {ferr}");
        for dir in [&tdir, &fdir] {
            assert_eq!(
                files_under(&dir.join(".terraform/providers")),
                Vec::<String>::new(),
                "{ns} in {}",
                dir.display()
            );
            assert!(!dir.join(".terraform.lock.hcl").exists(), "{ns}");
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}

#[test]
fn terraform_and_ferro_lock_and_mirror_alike() {
    let terraform = terraform();
    let ferro = PathBuf::from(env!("CARGO_BIN_EXE_ferro"));
    let server = Server::start("terraform-lock");
    let key = Key::generate_rsa(12);
    let pkgs = server.publish_provider("acme", "multi", &["0.1.0", "0.2.0"], &key);
    let env = server.env("");
    let other = pkgs["0.2.0"].other_platform.clone();
    let config = format!(
        "terraform {{\n  required_providers {{\n    multi = {{\n      source  = \"{}/acme/multi\"\n      version = \">= 0.1\"\n    }}\n  }}\n}}\n",
        server.host
    );
    let here = registry_support::platform();
    let platforms = [format!("-platform={here}"), format!("-platform={other}")];
    let base = std::env::temp_dir().join(format!("ferro-lock-vs-terraform-{}", std::process::id()));
    let (tdir, fdir) = (base.join("terraform"), base.join("ferro"));
    for (args, compare) in [
        (vec!["providers", "lock"], ".terraform.lock.hcl"),
        (vec!["providers", "mirror"], "out"),
    ] {
        let mut args: Vec<&str> = args;
        args.extend(platforms.iter().map(String::as_str));
        if compare == "out" {
            args.push("out");
        }
        let (tcode, tout, terr) = run(&terraform, &tdir, &config, &args, &env);
        assert_eq!(tcode, 0, "terraform {args:?}: {tout}\n{terr}");
        let (fcode, fout, ferr) = run(&ferro, &fdir, &config, &args, &env);
        assert_eq!(fcode, 0, "ferro {args:?}: {fout}\n{ferr}");
        // Terraform colours the key ID here whatever the terminal: compare the words.
        let steps = |out: &str| {
            out.lines()
                .filter(|l| l.trim_start().starts_with('-'))
                .map(without_colour)
                .collect::<Vec<_>>()
        };
        assert_eq!(steps(&fout), steps(&tout), "{args:?}");
        let files = files_under(&tdir.join(compare));
        assert_eq!(files_under(&fdir.join(compare)), files, "{args:?}");
        for f in files.iter().filter(|f| !f.ends_with(".zip")) {
            let read = |d: &Path| std::fs::read_to_string(d.join(compare).join(f)).unwrap();
            assert_eq!(read(&fdir), read(&tdir), "{args:?}: {f}");
        }
        if compare != "out" {
            assert_eq!(
                std::fs::read_to_string(fdir.join(compare)).unwrap(),
                std::fs::read_to_string(tdir.join(compare)).unwrap()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&base);
}

/// `text` without ANSI SGR sequences (`ESC [ … m`).
fn without_colour(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn the_real_null_provider_installs_from_a_registry_and_applies() {
    let binary = oracle("FERRO_NULL_MIRROR").join(
        "registry.terraform.io/hashicorp/null/2.1.2/linux_amd64/terraform-provider-null_v2.1.2_x4",
    );
    if registry_support::platform() != "linux_amd64" {
        // The oracle cache holds the linux_amd64 build only; elsewhere there is nothing to serve.
        return;
    }
    let exe = std::fs::read(&binary).unwrap();
    let server = Server::start("real-null");
    let key = Key::generate_rsa(13);
    let zip = ferro_provider::install::zip::write_zip(&[(
        "terraform-provider-null_v2.1.2_x4",
        &exe,
        0o755,
        false,
    )]);
    let pkg = registry_support::Package::from_zip("null", "2.1.2", "linux_amd64", zip);
    server.publish_package("hashicorp", "null", &pkg, &key);
    let env = server.env("");
    let dir = std::env::temp_dir().join(format!("ferro-real-null-{}", std::process::id()));
    let config = format!(
        "terraform {{\n  required_providers {{\n    null = {{\n      source  = \"{}/hashicorp/null\"\n      version = \"2.1.2\"\n    }}\n  }}\n}}\n\nresource \"null_resource\" \"a\" {{\n  triggers = {{ k = \"v\" }}\n}}\n",
        server.host
    );
    let ferro = PathBuf::from(env!("CARGO_BIN_EXE_ferro"));
    let (code, out, err) = init(&ferro, &dir, &config, &env);
    assert_eq!(code, 0, "{out}\n{err}");
    let lock = std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap();
    // The package's h1 is the one `terraform init` records for null 2.1.2 on linux_amd64.
    assert!(
        lock.contains("\"h1:CFnENdqQu4g3LJNevA32aDxcUz2qGkRGQpFfkI8TCdE=\""),
        "{lock}"
    );
    let out = std::process::Command::new(&ferro)
        .args(["apply", "-auto-approve", "-no-color"])
        .current_dir(&dir)
        .envs(env.iter().map(|(k, v)| (k.clone(), v.clone())))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success()
            && stdout.contains("Apply complete! Resources: 1 added, 0 changed, 0 destroyed."),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
