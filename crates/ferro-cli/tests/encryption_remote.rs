//! State encryption on the s3 backend (moto) and the http backend (a local server): the stored
//! object is OpenTofu's encrypted document, read back by the next command, and a wrong
//! passphrase changes nothing. (The pg backend's is in `encryption.rs`.)

mod s3_support;
use s3_support::*;

const KEY: &str = "enc/terraform.tfstate";

fn config(passphrase: &str) -> String {
    format!(
        "terraform {{\n  encryption {{\n    key_provider \"pbkdf2\" \"main\" {{\n      passphrase    = \"{passphrase}\"\n      iterations    = 200000\n      hash_function = \"sha256\"\n    }}\n    method \"aes_gcm\" \"main\" {{\n      keys = key_provider.pbkdf2.main\n    }}\n    state {{\n      method = method.aes_gcm.main\n    }}\n  }}\n}}\n\nresource \"terraform_data\" \"a\" {{\n  input = \"REMOTE-SECRET\"\n}}\n"
    )
}

fn assert_encrypted(stored: &str) {
    assert!(
        !stored.contains("REMOTE-SECRET") && stored.contains("\"encryption_version\":\"v0\""),
        "{stored}"
    );
}

/// Apply, read back, refuse the wrong passphrase; `stored` reads what the backend holds.
fn exercise(d: &TempDir, backend: &str, stored: &dyn Fn() -> Option<String>) {
    d.write(
        "main.tf",
        &format!("{backend}{}", config("correct-horse-battery-staple")),
    );
    ok(FERRO, &d.0, &["-no-color", "init"]);
    ok(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert_encrypted(&stored().expect("a stored state"));
    let out = ok(FERRO, &d.0, &["-no-color", "plan"]);
    assert!(out.contains("No changes."), "{out}");
    let pulled = ok(FERRO, &d.0, &["state", "pull"]);
    assert!(
        pulled.contains("REMOTE-SECRET"),
        "state pull prints it decrypted: {pulled}"
    );

    let before = stored();
    d.write(
        "main.tf",
        &format!("{backend}{}", config("incorrect-horse-battery-staple")),
    );
    let o = run(FERRO, &d.0, &["-no-color", "apply", "-auto-approve"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("decryption failed"),
        "{}",
        text(&o.stderr)
    );
    assert_eq!(before, stored());
}

#[test]
fn s3_and_http_backends_store_the_encrypted_document() {
    if std::env::var("FERRO_MOTO_ENDPOINT").is_err() {
        eprintln!("note: FERRO_MOTO_ENDPOINT is not set: the s3 backend's encryption was not tested (export FERRO_MOTO_ENDPOINT=\"$(tools/moto-test-server.sh)\")");
    } else {
        let b = Bucket::new("enc");
        let d = TempDir::new("enc-s3");
        exercise(&d, &b.backend(KEY, ""), &|| b.object(KEY));
    }

    let server = HttpServer::start();
    let d = TempDir::new("enc-http");
    let backend = format!(
        "terraform {{\n  backend \"http\" {{\n    address = \"{u}/state\"\n    lock_address = \"{u}/lock\"\n    unlock_address = \"{u}/lock\"\n    username = \"user\"\n    password = \"pw\"\n    retry_wait_min = 0\n  }}\n}}\n",
        u = server.url
    );
    let shared = server.shared.clone();
    exercise(&d, &backend, &move || {
        let s = shared.lock().unwrap();
        s.state
            .as_ref()
            .map(|b| String::from_utf8_lossy(b).into_owned())
    });
}
