//! Interop scenarios for installing from the network (issue 42): Terraform 1.0.3 and ferro
//! `init` from one local HTTPS registry (`ferro_testkit::registry`: a throwaway CA trusted
//! through `SSL_CERT_FILE`, packages signed with a throwaway OpenPGP key).
//!
//! * `registry-install`: a provider and a registry module (with `//subdir` and a version
//!   constraint): the same progress lines, `.terraform.lock.hcl`, module manifest and
//!   `.terraform` layout; then a tampered package, a checksum list that disagrees with the
//!   registry and a signature over something else: both refuse, with the same words, and
//!   leave neither a package nor a lock file.
//! * `registry-lock-mirror`: `providers lock` and `providers mirror` for two platforms write
//!   the same lock file and the same mirror.
//! * `registry-real-null`: the real `hashicorp/null` 2.1.2 binary served by the registry:
//!   both tools install it with the same lock file (the `h1:` Terraform records for that
//!   package) and apply with it.

use crate::interop::Env;
use ferro_testkit::registry::{files_under, platform, Key, Package, Reply, Server};
use std::path::{Path, PathBuf};

/// Run `bin ARGS` in `dir` with `env` added: exit code, output, errors.
fn run(bin: &Path, dir: &Path, args: &[&str], env: &[(String, String)]) -> (i32, String, String) {
    let out = std::process::Command::new(bin)
        .args(args)
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (k.clone(), v.clone())))
        .env("TF_IN_AUTOMATION", "1")
        .env("CHECKPOINT_DISABLE", "1")
        .env_remove("HTTPS_PROXY")
        .env_remove("https_proxy")
        .env_remove("TF_PLUGIN_CACHE_DIR")
        .env_remove("FERRO_DEFAULT_REGISTRY")
        .output();
    match out {
        Ok(o) => (
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        ),
        Err(e) => (
            -1,
            String::new(),
            format!("cannot run {}: {e}", bin.display()),
        ),
    }
}

/// A fresh `dir` holding `config` as `main.tf`.
fn fresh(dir: &Path, config: &str) -> Result<(), String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("main.tf"), config).map_err(|e| e.to_string())
}

/// `Err(what())` unless `ok`.
fn ensure(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(what())
    }
}

/// Both tools' working directories for one scenario.
fn dirs(env: &Env, scenario: &str) -> (PathBuf, PathBuf) {
    let base = env.work.join(scenario);
    (base.join("terraform"), base.join("ferro"))
}

/// Run `args` with both tools in fresh directories holding `config`; both must exit `code`.
#[allow(clippy::type_complexity)]
fn both(
    env: &Env,
    scenario: &str,
    config: &str,
    args: &[&str],
    vars: &[(String, String)],
    code: i32,
) -> Result<((String, String), (String, String)), String> {
    let (tdir, fdir) = dirs(env, scenario);
    let mut outs = Vec::new();
    for (bin, dir) in [(&env.oracles.terraform, &tdir), (&env.ferro, &fdir)] {
        fresh(dir, config)?;
        let (c, out, err) = run(bin, dir, args, vars);
        ensure(c == code, || {
            format!(
                "{} {args:?}: exit {c} (wanted {code})\n{out}\n{err}",
                bin.display()
            )
        })?;
        outs.push((out, err));
    }
    let f = outs.pop().unwrap_or_default();
    let t = outs.pop().unwrap_or_default();
    Ok((t, f))
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

/// Whitespace collapsed: Terraform wraps diagnostic text at the terminal's width.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
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

fn install(env: &Env) -> Result<(), String> {
    let server = Server::start("interop-install");
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
    let vars = server.env(&format!(
        "host \"modules.example.test\" {{\n  services = {{\n    \"modules.v1\" = \"{}\"\n  }}\n}}\n",
        server.url("/v1/modules/")
    ));
    let host = &server.host;
    let config = |ns: &str| {
        format!(
            "terraform {{\n  required_providers {{\n    thing = {{\n      source  = \"{host}/{ns}/thing\"\n      version = \"~> 1.0\"\n    }}\n  }}\n}}\n\nmodule \"net\" {{\n  source  = \"modules.example.test/acme/net/aws//sub\"\n  version = \"< 2.0\"\n}}\n"
        )
    };
    let scenario = "registry-install";
    let init = ["init", "-no-color", "-input=false"];
    let ((tout, _), (fout, _)) = both(env, scenario, &config("acme"), &init, &vars, 0)?;
    let installs = |out: &str| {
        out.lines()
            .filter(|l| l.starts_with('-') || l.starts_with("Downloading"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    crate::interop::same("init progress lines", &installs(&tout), &installs(&fout))?;
    ensure(
        fout.contains(&format!("(self-signed, key ID {})", key.id)),
        || format!("ferro does not name the signing key:\n{fout}"),
    )?;
    let (tdir, fdir) = dirs(env, scenario);
    crate::interop::same(
        "lock file, modules, layout",
        &outcome(&tdir),
        &outcome(&fdir),
    )?;

    // A tampered package, a checksum list that disagrees with the registry's checksum, and a
    // signature over something else.
    let pkgs = server.publish_provider("tampered", "thing", &["1.0.0"], &key);
    let mut zip = pkgs["1.0.0"].zip.clone();
    let n = zip.len();
    zip[n - 1] ^= 1;
    server.put(
        &format!("/files/tampered/thing/1.0.0/{}", pkgs["1.0.0"].filename),
        Reply::ok(zip),
    );
    let pkgs = server.publish_provider("badsum", "thing", &["1.0.0"], &key);
    let sums = pkgs["1.0.0"]
        .sums
        .replace(&pkgs["1.0.0"].sha256, &"0".repeat(64));
    server.put(
        "/files/badsum/thing/1.0.0/SHA256SUMS",
        Reply::ok(sums.clone()),
    );
    server.put(
        "/files/badsum/thing/1.0.0/SHA256SUMS.sig",
        Reply::ok(key.sign(sums.as_bytes())),
    );
    server.publish_provider("badsig", "thing", &["1.0.0"], &key);
    server.put(
        "/files/badsig/thing/1.0.0/SHA256SUMS.sig",
        Reply::ok(key.sign(b"something else")),
    );
    for (ns, words) in [
        ("tampered", "archive has incorrect checksum"),
        ("badsum", "checksum list has unexpected SHA-256 hash"),
        ("badsig", "error checking signature"),
    ] {
        let ((tout, terr), (fout, ferr)) = both(env, scenario, &config(ns), &init, &vars, 1)?;
        ensure(flat(&terr).contains(words), || {
            format!("terraform {ns}: {tout}{terr}")
        })?;
        ensure(flat(&ferr).contains(words), || {
            format!("ferro {ns}: {fout}{ferr}")
        })?;
        for dir in [&tdir, &fdir] {
            let left = files_under(&dir.join(".terraform/providers"));
            ensure(left.is_empty(), || {
                format!("{ns}: {} keeps {left:?}", dir.display())
            })?;
            ensure(!dir.join(".terraform.lock.hcl").exists(), || {
                format!("{ns}: {} has a lock file", dir.display())
            })?;
        }
    }
    Ok(())
}

fn lock_and_mirror(env: &Env) -> Result<(), String> {
    let server = Server::start("interop-lock");
    let key = Key::generate_rsa(12);
    let pkgs = server.publish_provider("acme", "multi", &["0.1.0", "0.2.0"], &key);
    let vars = server.env("");
    let other = pkgs["0.2.0"].other_platform.clone();
    let config = format!(
        "terraform {{\n  required_providers {{\n    multi = {{\n      source  = \"{}/acme/multi\"\n      version = \">= 0.1\"\n    }}\n  }}\n}}\n",
        server.host
    );
    let here = platform();
    let platforms = [format!("-platform={here}"), format!("-platform={other}")];
    let scenario = "registry-lock-mirror";
    let (tdir, fdir) = dirs(env, scenario);
    for (args, compare) in [
        (vec!["providers", "lock"], ".terraform.lock.hcl"),
        (vec!["providers", "mirror"], "out"),
    ] {
        let mut args: Vec<&str> = args;
        args.extend(platforms.iter().map(String::as_str));
        if compare == "out" {
            args.push("out");
        }
        let ((tout, _), (fout, _)) = both(env, scenario, &config, &args, &vars, 0)?;
        // Terraform colours the key ID here whatever the terminal: compare the words.
        let steps = |out: &str| {
            out.lines()
                .filter(|l| l.trim_start().starts_with('-'))
                .map(without_colour)
                .collect::<Vec<_>>()
        };
        crate::interop::same(&format!("{args:?} lines"), &steps(&tout), &steps(&fout))?;
        let files = files_under(&tdir.join(compare));
        crate::interop::same(
            &format!("{args:?} files"),
            &files,
            &files_under(&fdir.join(compare)),
        )?;
        for f in files.iter().filter(|f| !f.ends_with(".zip")) {
            let read = |d: &Path| std::fs::read_to_string(d.join(compare).join(f)).ok();
            crate::interop::same(&format!("{args:?}: {f}"), &read(&tdir), &read(&fdir))?;
        }
        if compare != "out" {
            let read = |d: &Path| std::fs::read_to_string(d.join(compare)).ok();
            crate::interop::same(&format!("{args:?}: lock file"), &read(&tdir), &read(&fdir))?;
        }
    }
    Ok(())
}

fn real_null(env: &Env) -> Result<(), String> {
    if platform() != "linux_amd64" {
        // The oracle cache holds the linux_amd64 build only; elsewhere there is nothing to serve.
        println!("skip    registry-real-null: the oracle cache has linux_amd64 only");
        return Ok(());
    }
    let binary = env.oracles.mirror.join(
        "registry.terraform.io/hashicorp/null/2.1.2/linux_amd64/terraform-provider-null_v2.1.2_x4",
    );
    let exe = std::fs::read(&binary).map_err(|e| format!("{}: {e}", binary.display()))?;
    let server = Server::start("interop-real-null");
    let key = Key::generate_rsa(13);
    let zip = ferro_provider::install::zip::write_zip(&[(
        "terraform-provider-null_v2.1.2_x4",
        &exe,
        0o755,
        false,
    )]);
    let pkg = Package::from_zip("null", "2.1.2", "linux_amd64", zip);
    server.publish_package("hashicorp", "null", &pkg, &key);
    let vars = server.env("");
    let config = format!(
        "terraform {{\n  required_providers {{\n    null = {{\n      source  = \"{}/hashicorp/null\"\n      version = \"2.1.2\"\n    }}\n  }}\n}}\n\nresource \"null_resource\" \"a\" {{\n  triggers = {{ k = \"v\" }}\n}}\n",
        server.host
    );
    let scenario = "registry-real-null";
    both(
        env,
        scenario,
        &config,
        &["init", "-no-color", "-input=false"],
        &vars,
        0,
    )?;
    let (tdir, fdir) = dirs(env, scenario);
    let lock = |d: &Path| std::fs::read_to_string(d.join(".terraform.lock.hcl")).ok();
    crate::interop::same("lock file", &lock(&tdir), &lock(&fdir))?;
    let flock = lock(&fdir).unwrap_or_default();
    // The h1 `terraform init` records for null 2.1.2 on linux_amd64 from the public registry.
    ensure(
        flock.contains("\"h1:CFnENdqQu4g3LJNevA32aDxcUz2qGkRGQpFfkI8TCdE=\""),
        || format!("unexpected h1 hash:\n{flock}"),
    )?;
    for (bin, dir) in [(&env.oracles.terraform, &tdir), (&env.ferro, &fdir)] {
        let (code, out, err) = run(bin, dir, &["apply", "-auto-approve", "-no-color"], &vars);
        ensure(
            code == 0
                && out.contains("Apply complete! Resources: 1 added, 0 changed, 0 destroyed."),
            || format!("{} apply: {out}\n{err}", bin.display()),
        )?;
    }
    Ok(())
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[
    ("registry-install", install),
    ("registry-lock-mirror", lock_and_mirror),
    ("registry-real-null", real_null),
];
