//! `ferro init` against a provider registry: a local HTTPS server (throwaway CA trusted through
//! `SSL_CERT_FILE`) speaking the registry protocol, with packages made and signed by the test.
//! Checks the install, the lock file's `h1:` and `zh:` hashes, Terraform's messages, the lock
//! file on re-init and `-upgrade`, credentials and `host` overrides, and the refusals (tampered
//! package, bad signature, unknown signer, unreachable host) that leave nothing behind.

mod cli_support;
mod registry_support;

use cli_support::scratch;
use ferro_provider::install::hash::hash_zip;
use ferro_provider::install::zip::read_zip;
use registry_support::{download_json, ferro_env, files_under, platform, Key, Reply, Server};

fn config(source: &str, version: &str) -> String {
    format!(
        "terraform {{\n  required_providers {{\n    thing = {{\n      source  = \"{source}\"\n      version = \"{version}\"\n    }}\n  }}\n}}\n"
    )
}

fn h1(zip: &[u8]) -> String {
    hash_zip(&read_zip(zip).unwrap()).unwrap()
}

#[test]
fn installs_signed_packages_records_their_hashes_and_keeps_the_lock_file() {
    let server = Server::start("install");
    let key = Key::generate(1);
    let host = &server.host;
    let source = format!("{host}/acme/thing");
    let pkgs = server.publish_provider("acme", "thing", &["1.0.0"], &key);
    let env = server.env(&format!(
        "credentials \"{host}\" {{\n  token = \"s3cret\"\n}}\n"
    ));
    let dir = scratch("init-registry-install");
    std::fs::write(dir.join("main.tf"), config(&source, ">= 1.0.0")).unwrap();

    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    let p = &pkgs["1.0.0"];
    assert!(
        out.contains(&format!(
            "- Finding {source} versions matching \">= 1.0.0\"...\n- Installing {source} v1.0.0...\n- Installed {source} v1.0.0 (self-signed, key ID {})\n\nPartner and community providers are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://www.terraform.io/docs/cli/plugins/signing.html\n",
            key.id
        )),
        "{out}"
    );
    let lock = std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap();
    let mut zh = [format!("zh:{}", p.sha256), format!("zh:{}", p.other_sha256)];
    zh.sort();
    assert_eq!(
        lock,
        format!(
            "# This file is maintained automatically by \"terraform init\".\n# Manual edits may be lost in future updates.\n\nprovider \"{source}\" {{\n  version     = \"1.0.0\"\n  constraints = \">= 1.0.0\"\n  hashes = [\n    \"{}\",\n    \"{}\",\n    \"{}\",\n  ]\n}}\n",
            h1(&p.zip),
            zh[0],
            zh[1]
        )
    );
    let installed = dir
        .join(".terraform/providers")
        .join(host)
        .join("acme/thing/1.0.0")
        .join(platform());
    assert_eq!(files_under(&installed), ["terraform-provider-thing_v1.0.0"]);
    // The registry's API requests carried the configured token.
    let seen = server.seen("/v1/providers/acme/thing/versions");
    assert_eq!(seen[0].authorization.as_deref(), Some("Bearer s3cret"));

    // A newer version appears: the lock file's selection stands, nothing is downloaded again.
    server.publish_provider("acme", "thing", &["1.0.0", "1.1.0"], &key);
    let downloads = server.seen("/files/").len();
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!(
            "- Reusing previous version of {source} from the dependency lock file\n- Using previously-installed {source} v1.0.0\n"
        )),
        "{out}"
    );
    assert_eq!(server.seen("/files/").len(), downloads);
    assert_eq!(
        std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap(),
        lock
    );

    // -upgrade selects the newest version allowed.
    let (code, out, err) = ferro_env(&dir, &["init", "-upgrade"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!(
            "- Installed {source} v1.1.0 (self-signed, key ID {})",
            key.id
        )),
        "{out}"
    );
    let lock = std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap();
    assert!(lock.contains("version     = \"1.1.0\""), "{lock}");
    assert!(
        !lock.contains(&p.sha256),
        "the old version's hashes are gone: {lock}"
    );
    assert!(dir
        .join(".terraform/providers")
        .join(host)
        .join("acme/thing/1.1.0")
        .join(platform())
        .join("terraform-provider-thing_v1.1.0")
        .is_file());
}

#[test]
fn host_blocks_replace_discovery_and_tf_token_variables_authenticate() {
    let server = Server::start("hosts");
    let key = Key::generate(2);
    server.publish_provider("acme", "other", &["0.1.0"], &key);
    // registry.example.test does not resolve: only the host block leads to the server.
    let mut env = server.env(&format!(
        "host \"registry.example.test\" {{\n  services = {{\n    \"providers.v1\" = \"{}\"\n  }}\n}}\n",
        server.url("/v1/providers/")
    ));
    env.push(("TF_TOKEN_registry_example_test".into(), "from-env".into()));
    let dir = scratch("init-registry-hosts");
    std::fs::write(
        dir.join("main.tf"),
        config("registry.example.test/acme/other", "0.1.0").replace("thing =", "other ="),
    )
    .unwrap();
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("- Installed registry.example.test/acme/other v0.1.0 (self-signed"),
        "{out}"
    );
    let seen = server.seen("/v1/providers/acme/other/");
    assert!(!seen.is_empty());
    assert!(
        seen.iter()
            .all(|s| s.authorization.as_deref() == Some("Bearer from-env")),
        "{seen:?}"
    );
    // Package downloads carry no credentials.
    assert!(server
        .seen("/files/acme/other/")
        .iter()
        .all(|s| s.authorization.is_none()));
}

/// `init` fails with `message` and leaves neither a package nor a lock entry.
fn assert_refused(server: &Server, name: &str, source: &str, message: &str) {
    let dir = scratch(&format!("init-registry-refused-{name}"));
    std::fs::write(dir.join("main.tf"), config(source, ">= 0.0.1")).unwrap();
    let (code, out, err) = ferro_env(&dir, &["init"], &server.env(""));
    assert_eq!(code, 1, "{name}: {out}\n{err}");
    assert!(
        err.contains(message),
        "{name}: expected {message:?} in:\n{err}"
    );
    assert_eq!(
        files_under(&dir.join(".terraform/providers")),
        Vec::<String>::new(),
        "{name}: nothing is installed"
    );
    let lock = std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap_or_default();
    assert!(!lock.contains(source), "{name}: no lock entry: {lock}");
}

#[test]
fn tampered_packages_bad_signatures_and_unreachable_hosts_are_refused() {
    let server = Server::start("refusals");
    let key = Key::generate(3);
    let host = server.host.clone();
    let (os, arch) = {
        let p = platform();
        let (o, a) = p.split_once('_').unwrap();
        (o.to_string(), a.to_string())
    };

    // A package whose bytes are not the ones the checksums name.
    let pkgs = server.publish_provider("tampered", "thing", &["1.0.0"], &key);
    let mut zip = pkgs["1.0.0"].zip.clone();
    let last = zip.len() - 1;
    zip[last] ^= 1;
    server.put(
        &format!("/files/tampered/thing/1.0.0/{}", pkgs["1.0.0"].filename),
        Reply::ok(zip),
    );
    assert_refused(
        &server,
        "tampered",
        &format!("{host}/tampered/thing"),
        &format!(
            "Error while installing {host}/tampered/thing v1.0.0: archive has incorrect checksum zh:"
        ),
    );

    // A checksum list naming another hash for the package than the registry does.
    let pkgs = server.publish_provider("sums", "thing", &["1.0.0"], &key);
    let p = &pkgs["1.0.0"];
    let wrong = p.sums.replace(&p.sha256, &"0".repeat(64));
    server.put(
        "/files/sums/thing/1.0.0/SHA256SUMS",
        Reply::ok(wrong.clone()),
    );
    server.put(
        "/files/sums/thing/1.0.0/SHA256SUMS.sig",
        Reply::ok(key.sign(wrong.as_bytes())),
    );
    assert_refused(
        &server,
        "sums",
        &format!("{host}/sums/thing"),
        "checksum list has unexpected SHA-256 hash 0000",
    );

    // A signature by the registry's key, but not over this checksum list.
    let pkgs = server.publish_provider("badsig", "thing", &["1.0.0"], &key);
    let _ = pkgs;
    server.put(
        "/files/badsig/thing/1.0.0/SHA256SUMS.sig",
        Reply::ok(key.sign(b"something else")),
    );
    assert_refused(
        &server,
        "badsig",
        &format!("{host}/badsig/thing"),
        "error checking signature: openpgp: invalid signature",
    );

    // A signature by a key the registry does not list.
    let pkgs = server.publish_provider("stranger", "thing", &["1.0.0"], &key);
    let stranger = Key::generate(4);
    server.put(
        "/files/stranger/thing/1.0.0/SHA256SUMS.sig",
        Reply::ok(stranger.sign(pkgs["1.0.0"].sums.as_bytes())),
    );
    assert_refused(
        &server,
        "stranger",
        &format!("{host}/stranger/thing"),
        "authentication signature from unknown issuer",
    );

    // A trust signature that HashiCorp's partners key did not make.
    let pkgs = server.publish_provider("partner", "thing", &["1.0.0"], &key);
    let files = "/files/partner/thing/1.0.0";
    let mut meta: serde_json::Value =
        serde_json::from_str(&download_json(&pkgs["1.0.0"], &os, &arch, files, &key)).unwrap();
    let trust = String::from_utf8(stranger.sign_armored(key.public_armor.as_bytes())).unwrap();
    meta["signing_keys"]["gpg_public_keys"][0]["trust_signature"] = trust.into();
    server.put(
        &format!("/v1/providers/partner/thing/1.0.0/download/{os}/{arch}"),
        Reply::ok(meta.to_string()),
    );
    assert_refused(
        &server,
        "partner",
        &format!("{host}/partner/thing"),
        "error verifying trust signature",
    );

    // Nothing listens on port 1.
    assert_refused(
        &server,
        "unreachable",
        "127.0.0.1:1/acme/thing",
        "Could not retrieve the list of available versions for provider 127.0.0.1:1/acme/thing: could not connect to 127.0.0.1:1: failed to request discovery document",
    );

    // A provider the registry does not have.
    assert_refused(
        &server,
        "unknown",
        &format!("{host}/nobody/thing"),
        &format!("provider registry {host} does not have a provider named {host}/nobody/thing"),
    );
}
