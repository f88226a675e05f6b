//! `ferro init` against a provider registry: a local HTTPS server (throwaway CA trusted through
//! `SSL_CERT_FILE`) speaking the registry protocol, with packages made and signed by the test.
//! Checks the install, the lock file's `h1:` and `zh:` hashes, Terraform's messages, the lock
//! file on re-init and `-upgrade`, credentials and `host` overrides, network mirrors, the
//! plugin cache, proxies, installation method patterns, `providers lock` and `providers
//! mirror`, and the refusals (tampered package, bad signature, unknown signer, unreachable
//! host) that leave nothing behind. Modules: `init_registry_modules.rs`.

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

    // A registry that wants credentials nobody configured.
    server.put(
        "/v1/providers/private/thing/versions",
        Reply {
            status: 401,
            headers: Vec::new(),
            body: b"{}".to_vec(),
        },
    );
    assert_refused(
        &server,
        "private",
        &format!("{host}/private/thing"),
        &format!("host {host} requires authentication credentials"),
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

#[test]
fn network_mirrors_serve_checksummed_packages() {
    let server = Server::start("mirror");
    let platform = platform();
    let good = registry_support::Package::build("mirrored", "1.0.0", &platform);
    let base = "/mirror/example.org/acme/mirrored";
    server.put(
        &format!("{base}/index.json"),
        Reply::ok(r#"{"versions":{"1.0.0":{},"0.9.0":{}}}"#),
    );
    let publish = |hash: &str| {
        server.put(
            &format!("{base}/1.0.0.json"),
            Reply::ok(
                serde_json::json!({"archives": {platform.as_str(): {"url": "pkg/mirrored.zip", "hashes": [hash]}}})
                    .to_string(),
            ),
        );
    };
    server.put(
        &format!("{base}/pkg/mirrored.zip"),
        Reply::ok(good.zip.clone()),
    );
    let env = server.env(&format!(
        "provider_installation {{\n  network_mirror {{\n    url = \"{}\"\n  }}\n}}\n",
        server.url("/mirror/")
    ));
    let write = |dir: &std::path::Path| {
        std::fs::write(
            dir.join("main.tf"),
            config("example.org/acme/mirrored", ">= 0.9").replace("thing =", "mirrored ="),
        )
        .unwrap();
    };

    // The mirror lists a hash the package does not have: refused, nothing installed.
    publish(&h1(b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"));
    let dir = scratch("init-registry-mirror-bad");
    write(&dir);
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        err.contains("provider package doesn't match the expected checksum"),
        "{err}"
    );
    assert_eq!(
        files_under(&dir.join(".terraform/providers")),
        Vec::<String>::new()
    );

    publish(&h1(&good.zip));
    let dir = scratch("init-registry-mirror");
    write(&dir);
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("- Installed example.org/acme/mirrored v1.0.0 (verified checksum)\n"),
        "{out}"
    );
    assert!(!out.contains("Partner and community"), "{out}");
    // Unsigned: only the package's own hash is recorded.
    let lock = std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap();
    assert!(
        lock.contains(&format!("  hashes = [\n    \"{}\",\n  ]\n", h1(&good.zip))),
        "{lock}"
    );
}

#[test]
fn the_plugin_cache_is_filled_once_and_linked_from() {
    let server = Server::start("cache");
    let key = Key::generate(5);
    server.publish_provider("acme", "cached", &["2.0.0"], &key);
    let cache = scratch("init-registry-cache-dir");
    let mut env = server.env("");
    env.push(("TF_PLUGIN_CACHE_DIR".into(), cache.display().to_string()));
    let source = format!("{}/acme/cached", server.host);
    let first = scratch("init-registry-cache-1");
    let second = scratch("init-registry-cache-2");
    for dir in [&first, &second] {
        std::fs::write(
            dir.join("main.tf"),
            config(&source, "2.0.0").replace("thing =", "cached ="),
        )
        .unwrap();
    }
    let (code, out, err) = ferro_env(&first, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!("- Installed {source} v2.0.0 (self-signed")),
        "{out}"
    );
    let downloads = server
        .seen("/files/acme/cached/2.0.0/terraform-provider")
        .len();
    assert_eq!(downloads, 1);
    let cached = cache
        .join(&server.host)
        .join("acme/cached/2.0.0")
        .join(platform());
    assert!(cached.join("terraform-provider-cached_v2.0.0").is_file());

    let (code, out, err) = ferro_env(&second, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!(
            "- Using {source} v2.0.0 from the shared cache directory\n"
        )),
        "{out}"
    );
    assert_eq!(
        server
            .seen("/files/acme/cached/2.0.0/terraform-provider")
            .len(),
        downloads,
        "the cache saved a download"
    );
    let linked = second
        .join(".terraform/providers")
        .join(&server.host)
        .join("acme/cached/2.0.0")
        .join(platform());
    assert_eq!(std::fs::read_link(&linked).unwrap(), cached);
    let lock = std::fs::read_to_string(second.join(".terraform.lock.hcl")).unwrap();
    assert!(lock.contains("\"h1:"), "{lock}");
}

#[test]
fn providers_lock_records_the_checksums_of_every_platform_asked_for() {
    let server = Server::start("lock");
    let key = Key::generate(6);
    let pkgs = server.publish_provider("acme", "locked", &["3.0.0", "3.1.0"], &key);
    let env = server.env("");
    let source = format!("{}/acme/locked", server.host);
    let dir = scratch("init-registry-providers-lock");
    std::fs::write(
        dir.join("main.tf"),
        config(&source, "~> 3.0").replace("thing =", "locked ="),
    )
    .unwrap();
    // The lock file already selects 3.0.0: providers lock keeps that version.
    std::fs::write(
        dir.join(".terraform.lock.hcl"),
        format!(
            "provider \"{source}\" {{\n  version     = \"3.0.0\"\n  constraints = \"~> 3.0\"\n}}\n"
        ),
    )
    .unwrap();
    let p = &pkgs["3.0.0"];
    let here = platform();
    let (code, out, err) = ferro_env(
        &dir,
        &[
            "providers",
            "lock",
            &format!("-platform={here}"),
            &format!("-platform={}", p.other_platform),
        ],
        &env,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        out,
        format!(
            "- Fetching {source} 3.0.0 for {here}...\n- Obtained {source} checksums for {here} (self-signed, key ID {id})\n- Fetching {source} 3.0.0 for {other}...\n- Obtained {source} checksums for {other} (self-signed, key ID {id})\n\nSuccess! ferro has updated the lock file.\n\nReview the changes in .terraform.lock.hcl and then commit to your\nversion control system to retain the new checksums.\n\n",
            id = key.id,
            other = p.other_platform
        )
    );
    let mut hashes = [
        h1(&p.zip),
        h1(&p.other_zip),
        format!("zh:{}", p.sha256),
        format!("zh:{}", p.other_sha256),
    ];
    hashes.sort();
    let lock = std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap();
    let listed: String = hashes.iter().map(|h| format!("    \"{h}\",\n")).collect();
    assert!(
        lock.contains(&format!(
            "  version     = \"3.0.0\"\n  constraints = \"~> 3.0\"\n  hashes = [\n{listed}  ]\n"
        )),
        "{lock}"
    );
    // Nothing was installed.
    assert!(!dir.join(".terraform").exists());

    // A platform the registry has no package for is an error, and the lock file stays.
    let (code, out, err) = ferro_env(&dir, &["providers", "lock", "-platform=plan9_mips"], &env);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(err.contains("is not available for plan9_mips"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap(),
        lock
    );
    let (code, _, err) = ferro_env(&dir, &["providers", "lock", "-platform=linux"], &env);
    assert_eq!(code, 1);
    assert!(err.contains("Invalid target platform"), "{err}");
}

#[test]
fn https_proxy_is_used_except_for_no_proxy_hosts() {
    let server = Server::start("proxy");
    let key = Key::generate(7);
    server.publish_provider("acme", "proxied", &["1.0.0"], &key);
    let proxy = registry_support::TunnelProxy::start();
    let source = format!("{}/acme/proxied", server.host);
    let mut env = server.env("");
    env.push((
        "HTTPS_PROXY".into(),
        format!("http://127.0.0.1:{}", proxy.port),
    ));
    let dir = scratch("init-registry-proxy");
    std::fs::write(
        dir.join("main.tf"),
        config(&source, "1.0.0").replace("thing =", "proxied ="),
    )
    .unwrap();
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    let tunnels = proxy.targets();
    assert!(!tunnels.is_empty(), "the requests went through the proxy");
    assert!(tunnels.iter().all(|t| *t == server.host), "{tunnels:?}");

    // NO_PROXY names the registry: it is reached directly.
    let _ = std::fs::remove_dir_all(dir.join(".terraform"));
    let _ = std::fs::remove_file(dir.join(".terraform.lock.hcl"));
    env.push(("NO_PROXY".into(), "localhost".into()));
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(proxy.targets().len(), tunnels.len());
}

#[test]
fn providers_mirror_writes_a_mirror_init_installs_from() {
    let server = Server::start("mirror-cmd");
    let key = Key::generate(8);
    let pkgs = server.publish_provider("acme", "copied", &["1.0.0", "1.5.0", "2.0.0"], &key);
    let env = server.env("");
    let source = format!("{}/acme/copied", server.host);
    let dir = scratch("init-registry-mirror-cmd");
    std::fs::write(
        dir.join("main.tf"),
        config(&source, "< 2.0.0").replace("thing =", "copied ="),
    )
    .unwrap();
    let p = &pkgs["1.5.0"];
    let here = platform();
    let (code, out, err) = ferro_env(
        &dir,
        &[
            "providers",
            "mirror",
            &format!("-platform={here}"),
            &format!("-platform={}", p.other_platform),
            "out",
        ],
        &env,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        out,
        format!(
            "- Mirroring {source}...\n  - Selected v1.5.0 to meet constraints < 2.0.0\n  - Downloading package for {here}...\n  - Package authenticated: self-signed\n  - Downloading package for {other}...\n  - Package authenticated: self-signed\n",
            other = p.other_platform
        )
    );
    let tdir = dir.join("out").join(&server.host).join("acme/copied");
    let mut platforms = [here.clone(), p.other_platform.clone()];
    platforms.sort();
    assert_eq!(
        files_under(&tdir),
        [
            "1.5.0.json".to_string(),
            "index.json".to_string(),
            format!("terraform-provider-copied_1.5.0_{}.zip", platforms[0]),
            format!("terraform-provider-copied_1.5.0_{}.zip", platforms[1]),
        ]
    );
    assert_eq!(
        std::fs::read_to_string(tdir.join("index.json")).unwrap(),
        "{\n  \"versions\": {\n    \"1.5.0\": {}\n  }\n}"
    );
    let version: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tdir.join("1.5.0.json")).unwrap()).unwrap();
    assert_eq!(
        version["archives"][here.as_str()],
        serde_json::json!({"hashes": [h1(&p.zip)], "url": p.filename})
    );

    // providers lock reads the same packages from it, unsigned: their h1 hashes only.
    let (code, out, err) = ferro_env(
        &dir,
        &[
            "providers",
            "lock",
            "-fs-mirror=out",
            &format!("-platform={here}"),
            &format!("-platform={}", p.other_platform),
        ],
        &env,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!(
            "- Obtained {source} checksums for {} (unauthenticated)",
            p.other_platform
        )),
        "{out}"
    );
    let mut hashes = [h1(&p.zip), h1(&p.other_zip)];
    hashes.sort();
    let lock = std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap();
    assert!(
        lock.contains(&format!(
            "  version     = \"1.5.0\"\n  constraints = \"< 2.0.0\"\n  hashes = [\n    \"{}\",\n    \"{}\",\n  ]\n",
            hashes[0], hashes[1]
        )),
        "{lock}"
    );
    let (code, _, err) = ferro_env(
        &dir,
        &[
            "providers",
            "lock",
            "-fs-mirror=out",
            "-net-mirror=https://x/",
        ],
        &env,
    );
    assert_eq!(code, 1);
    assert!(err.contains("mutually-exclusive"), "{err}");
    std::fs::remove_file(dir.join(".terraform.lock.hcl")).unwrap();

    // The directory is a filesystem mirror init installs from, without the registry.
    let work = scratch("init-registry-mirror-cmd-use");
    std::fs::copy(dir.join("main.tf"), work.join("main.tf")).unwrap();
    let env = server.env(&format!(
        "provider_installation {{\n  filesystem_mirror {{\n    path = \"{}\"\n  }}\n}}\n",
        dir.join("out").display()
    ));
    let before = server.seen("/").len();
    let (code, out, err) = ferro_env(&work, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains(&format!("- Installed {source} v1.5.0 (unauthenticated)")),
        "{out}"
    );
    assert_eq!(server.seen("/").len(), before);
}

#[test]
fn installation_methods_apply_to_the_providers_their_patterns_name() {
    let server = Server::start("patterns");
    let key = Key::generate(10);
    server.publish_provider("acme", "kept", &["1.0.0"], &key);
    server.publish_provider("other", "left", &["1.0.0"], &key);
    let host = &server.host;
    let env = server.env(&format!(
        "provider_installation {{\n  direct {{\n    exclude = [\"{host}/other/*\"]\n  }}\n}}\n"
    ));
    let dir = scratch("init-registry-patterns");
    std::fs::write(
        dir.join("main.tf"),
        format!(
            "terraform {{\n  required_providers {{\n    kept = {{ source = \"{host}/acme/kept\" }}\n    left = {{ source = \"{host}/other/left\" }}\n  }}\n}}\n"
        ),
    )
    .unwrap();
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        out.contains(&format!("- Installed {host}/acme/kept v1.0.0 (self-signed")),
        "{out}"
    );
    assert!(
        err.contains(&format!(
            "provider {host}/other/left was not found in any of the search locations"
        )) && err.contains(
            "No provider installation method in the CLI configuration applies to this provider."
        ),
        "{err}"
    );
    assert!(server.seen("/v1/providers/other/").is_empty());
}

#[test]
fn a_lock_file_written_for_opentofu_makes_bare_sources_name_opentofus_registry() {
    // Only registry.opentofu.org leads to the server: were a bare source read as Terraform's
    // registry, init would ask registry.terraform.io and fail.
    let server = Server::start("opentofu");
    let key = Key::generate(7);
    let pkgs = server.publish_provider("acme", "thing", &["1.0.0", "1.2.0"], &key);
    let env = server.env(&format!(
        "host \"registry.opentofu.org\" {{\n  services = {{\n    \"providers.v1\" = \"{}\"\n  }}\n}}\n",
        server.url("/v1/providers/")
    ));
    let dir = scratch("init-registry-opentofu-lock");
    std::fs::write(dir.join("main.tf"), config("acme/thing", ">= 1.0.0")).unwrap();
    // The lock file OpenTofu wrote: version 1.0.0 from its registry.
    let lock = format!(
        "# This file is maintained automatically by \"tofu init\".\n# Manual edits may be lost in future updates.\n\nprovider \"registry.opentofu.org/acme/thing\" {{\n  version     = \"1.0.0\"\n  constraints = \">= 1.0.0\"\n  hashes = [\n    \"{}\",\n  ]\n}}\n",
        h1(&pkgs["1.0.0"].zip)
    );
    std::fs::write(dir.join(".terraform.lock.hcl"), &lock).unwrap();
    let (code, out, err) = ferro_env(&dir, &["init"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("- Reusing previous version of registry.opentofu.org/acme/thing from the dependency lock file\n- Installing registry.opentofu.org/acme/thing v1.0.0...\n"),
        "{out}"
    );
    assert!(dir
        .join(".terraform/providers/registry.opentofu.org/acme/thing/1.0.0")
        .join(platform())
        .join("terraform-provider-thing_v1.0.0")
        .is_file());
    let written = std::fs::read_to_string(dir.join(".terraform.lock.hcl")).unwrap();
    assert!(
        written.contains("provider \"registry.opentofu.org/acme/thing\" {")
            && !written.contains("registry.terraform.io"),
        "{written}"
    );

    // Without a lock file, FERRO_DEFAULT_REGISTRY picks OpenTofu's registry outright.
    let fresh = scratch("init-registry-opentofu-env");
    std::fs::write(fresh.join("main.tf"), config("acme/thing", "~> 1.0")).unwrap();
    let mut tofu_env = env.clone();
    tofu_env.push((
        "FERRO_DEFAULT_REGISTRY".into(),
        "registry.opentofu.org".into(),
    ));
    let (code, out, err) = ferro_env(&fresh, &["init"], &tofu_env);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("- Installed registry.opentofu.org/acme/thing v1.2.0 (self-signed"),
        "{out}"
    );
    let written = std::fs::read_to_string(fresh.join(".terraform.lock.hcl")).unwrap();
    assert!(
        written.contains("provider \"registry.opentofu.org/acme/thing\" {"),
        "{written}"
    );

    // A value that names neither public registry is refused before anything happens.
    let bad = scratch("init-registry-opentofu-bad-env");
    std::fs::write(bad.join("main.tf"), config("acme/thing", "~> 1.0")).unwrap();
    let mut bad_env = env.clone();
    bad_env.push(("FERRO_DEFAULT_REGISTRY".into(), "example.com".into()));
    let (code, out, err) = ferro_env(&bad, &["init"], &bad_env);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        err.contains("FERRO_DEFAULT_REGISTRY must be registry.terraform.io or registry.opentofu.org, not \"example.com\""),
        "{err}"
    );
    assert!(!bad.join(".terraform").exists());
}
