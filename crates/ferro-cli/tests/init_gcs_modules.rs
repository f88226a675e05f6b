//! `gcs::` module sources against a Google Cloud Storage stand-in (`ferro_testkit::gcs`,
//! reached through `STORAGE_EMULATOR_HOST`): an archive object with `//subdir`, a prefix of
//! objects over several listing pages, the `www.googleapis.com/…` shorthand, the credentials
//! Google's libraries find (an access token, a service account key exchanged for a token with
//! a JWT signed by its key, an authorized user's refresh token) and the refusals that leave
//! nothing behind.

mod cli_support;
mod registry_support;

use cli_support::scratch;
use ferro_testkit::gcs::GcsServer;
use registry_support::{ferro_env, files_under};
use std::path::Path;

fn call(name: &str, source: &str) -> String {
    format!("module \"{name}\" {{\n  source = \"{source}\"\n}}\n")
}

fn out(v: &str) -> String {
    format!("output \"v\" {{\n  value = \"{v}\"\n}}\n")
}

fn env(server: &GcsServer, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut e = vec![
        ("STORAGE_EMULATOR_HOST".to_string(), server.host.clone()),
        ("GOOGLE_APPLICATION_CREDENTIALS".to_string(), String::new()),
        ("GOOGLE_OAUTH_ACCESS_TOKEN".to_string(), String::new()),
        ("GCE_METADATA_HOST".to_string(), "127.0.0.1:1".to_string()),
        ("HOME".to_string(), "/nonexistent".to_string()),
    ];
    for (k, v) in extra {
        e.retain(|(n, _)| n != k);
        e.push((k.to_string(), v.to_string()));
    }
    e
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_default()
}

#[test]
fn archives_and_prefixes_install_with_an_access_token() {
    let server = GcsServer::start();
    let tar = ferro_provider::install::tar::write_tar(&[
        ("main.tf", out("top").as_bytes()),
        ("sub/main.tf", out("sub").as_bytes()),
    ]);
    server.put(
        "mods",
        "net/net.tar.gz",
        ferro_provider::install::tar::gzip(&tar),
    );
    for (name, body) in [
        ("tree/main.tf", out("tree")),
        (
            "tree/variables.tf",
            "variable \"x\" {\n  default = 1\n}\n".to_string(),
        ),
        ("tree/inner/data.txt", "data".to_string()),
        ("tree/", String::new()),
    ] {
        server.put("mods", name, body);
    }
    server.put("mods", "other/main.tf", out("not under tree"));
    let dir = scratch("init-gcs-modules");
    std::fs::write(
        dir.join("main.tf"),
        [
            call(
                "net",
                "gcs::https://www.googleapis.com/storage/v1/mods/net/net.tar.gz//sub",
            ),
            call("tree", "www.googleapis.com/storage/v1/mods/tree"),
            "output \"both\" {\n  value = [module.net.v, module.tree.v]\n}\n".to_string(),
        ]
        .concat(),
    )
    .unwrap();
    let e = env(&server, &[("GOOGLE_OAUTH_ACCESS_TOKEN", "ya29.token")]);
    let (code, stdout, stderr) = ferro_env(&dir, &["init", "-no-color"], &e);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains(
            "Downloading gcs::https://www.googleapis.com/storage/v1/mods/net/net.tar.gz for net..."
        ),
        "{stdout}"
    );
    let modules = dir.join(".terraform/modules");
    assert_eq!(read(&modules.join("net/sub/main.tf")), out("sub"));
    assert_eq!(
        files_under(&modules.join("tree")),
        ["inner/data.txt", "main.tf", "variables.tf"]
    );
    // Every API request carried the token.
    let seen = server.seen();
    assert!(seen.len() >= 4, "{seen:?}");
    assert!(
        seen.iter()
            .all(|r| r.authorization.as_deref() == Some("Bearer ya29.token")),
        "{seen:?}"
    );
    let (code, stdout, stderr) = ferro_env(&dir, &["apply", "-auto-approve", "-no-color"], &e);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("both = [\n  \"sub\",\n  \"tree\",\n]"),
        "{stdout}"
    );

    // A missing object: init fails, names the call, leaves no module directory.
    let missing = scratch("init-gcs-missing");
    std::fs::write(
        missing.join("main.tf"),
        call(
            "gone",
            "gcs::https://www.googleapis.com/storage/v1/mods/gone.zip",
        ),
    )
    .unwrap();
    let (code, stdout, stderr) = ferro_env(&missing, &["init", "-no-color"], &e);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let flat = stderr.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("module \"gone\""), "{stderr}");
    assert!(
        flat.contains("googleapi: Error 404: No such object"),
        "{stderr}"
    );
    assert!(!missing.join(".terraform/modules/gone").exists());

    // No credentials anywhere and no emulator: Google's libraries refuse, and so does ferro.
    // (Off Google Compute Engine, metadata.google.internal does not resolve.)
    let bare = env(
        &server,
        &[("STORAGE_EMULATOR_HOST", ""), ("GCE_METADATA_HOST", "")],
    );
    let (code, stdout, stderr) = ferro_env(&missing, &["init", "-no-color"], &bare);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("could not find default credentials"),
        "{stderr}"
    );
}

/// A throwaway RSA key as PKCS#8 PEM, and its public key as PKCS#1 DER (what ring verifies).
fn rsa_key(dir: &Path) -> (String, Vec<u8>) {
    let pem = dir.join("key.pem");
    let status = std::process::Command::new("openssl")
        .args([
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:2048",
            "-out",
        ])
        .arg(&pem)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("openssl");
    assert!(status.success());
    let public = std::process::Command::new("openssl")
        .args(["rsa", "-RSAPublicKey_out", "-outform", "DER", "-in"])
        .arg(&pem)
        .stderr(std::process::Stdio::null())
        .output()
        .expect("openssl");
    assert!(public.status.success());
    (read(&pem), public.stdout)
}

#[test]
fn service_account_keys_and_refresh_tokens_are_exchanged_for_access_tokens() {
    use base64::Engine;
    let server = GcsServer::start();
    server.put("mods", "sa/main.tf", out("sa"));
    let dir = scratch("init-gcs-credentials");
    let (private_pem, public_der) = rsa_key(&dir);
    let creds = dir.join("sa.json");
    std::fs::write(
        &creds,
        serde_json::json!({
            "type": "service_account",
            "client_email": "ferro@example.iam.gserviceaccount.com",
            "private_key_id": "k1",
            "private_key": private_pem,
            "token_uri": server.token_uri(),
        })
        .to_string(),
    )
    .unwrap();
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(
        work.join("main.tf"),
        call("sa", "gcs::https://www.googleapis.com/storage/v1/mods/sa"),
    )
    .unwrap();
    let e = env(
        &server,
        &[("GOOGLE_APPLICATION_CREDENTIALS", creds.to_str().unwrap())],
    );
    let (code, stdout, stderr) = ferro_env(&work, &["init", "-no-color"], &e);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert_eq!(read(&work.join(".terraform/modules/sa/main.tf")), out("sa"));
    let seen = server.seen();
    let token_req = seen
        .iter()
        .find(|r| r.target == "/token")
        .expect("a token request");
    let assertion = token_req
        .body
        .split('&')
        .find_map(|p| p.strip_prefix("assertion="))
        .expect("an assertion");
    // The JWT is signed by the service account's key and names it, its scope and audience.
    let (input, sig) = assertion.rsplit_once('.').unwrap();
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    ring::signature::UnparsedPublicKey::new(
        &ring::signature::RSA_PKCS1_2048_8192_SHA256,
        &public_der,
    )
    .verify(input.as_bytes(), &b64.decode(sig).unwrap())
    .expect("a valid RS256 signature");
    let claims: serde_json::Value =
        serde_json::from_slice(&b64.decode(input.split('.').nth(1).unwrap()).unwrap()).unwrap();
    assert_eq!(claims["iss"], "ferro@example.iam.gserviceaccount.com");
    assert_eq!(claims["aud"], server.token_uri());
    assert_eq!(
        claims["scope"],
        "https://www.googleapis.com/auth/devstorage.read_only"
    );
    assert!(seen
        .iter()
        .filter(|r| r.target.starts_with("/storage/"))
        .all(|r| r.authorization.as_deref() == Some("Bearer from-service-account")));

    // gcloud's own credentials file: an authorized user's refresh token.
    let home = dir.join("home");
    let gcloud = home.join(".config/gcloud");
    std::fs::create_dir_all(&gcloud).unwrap();
    std::fs::write(
        gcloud.join("application_default_credentials.json"),
        serde_json::json!({
            "type": "authorized_user",
            "client_id": "cid",
            "client_secret": "csecret",
            "refresh_token": "rtoken",
            "token_uri": server.token_uri(),
        })
        .to_string(),
    )
    .unwrap();
    let user = dir.join("user");
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(
        user.join("main.tf"),
        call("sa", "gcs::https://www.googleapis.com/storage/v1/mods/sa"),
    )
    .unwrap();
    let before = server.seen().len();
    let e = env(&server, &[("HOME", home.to_str().unwrap())]);
    let (code, stdout, stderr) = ferro_env(&user, &["init", "-no-color"], &e);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let seen = server.seen();
    let new = &seen[before..];
    let token_req = new
        .iter()
        .find(|r| r.target == "/token")
        .expect("a token request");
    assert!(
        token_req.body.contains("grant_type=refresh_token")
            && token_req.body.contains("refresh_token=rtoken"),
        "{token_req:?}"
    );
    assert!(new
        .iter()
        .filter(|r| r.target.starts_with("/storage/"))
        .all(|r| r.authorization.as_deref() == Some("Bearer from-refresh-token")));
    // The secrets of the credentials never reach the terminal.
    assert!(!stdout.contains("csecret") && !stderr.contains("csecret"));
}
