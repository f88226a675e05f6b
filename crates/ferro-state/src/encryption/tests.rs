//! Round trips, refusals and the envelope's exact form; a document made by an independent
//! implementation (Python's `cryptography`, from OpenTofu's description) read back.

use super::*;

fn pbkdf2(name: &str, pass: &str, iterations: u32, hash: HashFunction) -> KeyProviderConfig {
    KeyProviderConfig {
        ty: "pbkdf2".into(),
        name: name.into(),
        metadata_alias: None,
        kind: KeyProviderKind::Pbkdf2(Pbkdf2Config {
            passphrase: Some(pass.to_string().into()),
            chain: None,
            key_length: 32,
            iterations,
            salt_length: 32,
            hash_function: hash,
        }),
    }
}

fn aes(name: &str, kp: &str) -> MethodConfig {
    MethodConfig {
        ty: "aes_gcm".into(),
        name: name.into(),
        kind: MethodKind::AesGcm {
            keys: ("pbkdf2".into(), kp.into()),
            aad: Vec::new(),
        },
    }
}

fn clear(name: &str) -> MethodConfig {
    MethodConfig {
        ty: "unencrypted".into(),
        name: name.into(),
        kind: MethodKind::Unencrypted,
    }
}

fn target(config: &Config, methods: &[usize]) -> TargetEncryption {
    TargetEncryption::new("state", Arc::new(config.clone()), methods.to_vec())
}

const STATE: &str = r#"{"version":4,"terraform_version":"1.0.3","serial":7,"lineage":"abc-123","outputs":{"secret":{"value":"hunter2-in-clear","type":"string"}},"resources":[]}"#;

#[test]
fn state_round_trip_and_envelope_form() {
    let config = Config {
        key_providers: vec![pbkdf2(
            "k",
            "correct-horse-battery-staple",
            1000,
            HashFunction::Sha512,
        )],
        methods: vec![aes("m", "k")],
    };
    let t = target(&config, &[0]);
    let sealed = t.encrypt_state(STATE.as_bytes()).unwrap();
    let text = String::from_utf8(sealed.clone()).unwrap();
    assert!(!text.contains("hunter2"), "{text}");
    // OpenTofu's field order, compact.
    assert!(
        text.starts_with(r#"{"serial":7,"lineage":"abc-123","meta":{"key_provider.pbkdf2.k":""#),
        "{text}"
    );
    assert!(text.ends_with(r#"","encryption_version":"v0"}"#), "{text}");
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD;
    let meta = b64
        .decode(doc["meta"]["key_provider.pbkdf2.k"].as_str().unwrap())
        .unwrap();
    let meta: serde_json::Value = serde_json::from_slice(&meta).unwrap();
    assert_eq!(meta["iterations"], 1000);
    assert_eq!(meta["hash_function"], "sha512");
    assert_eq!(meta["key_length"], 32);
    assert_eq!(
        b64.decode(meta["salt"].as_str().unwrap()).unwrap().len(),
        32
    );
    let data = b64.decode(doc["encrypted_data"].as_str().unwrap()).unwrap();
    assert_eq!(data.len(), 12 + STATE.len() + 16, "nonce, ciphertext, tag");

    let (plain, status) = t.decrypt_state(&sealed).unwrap();
    assert_eq!(plain, STATE.as_bytes());
    assert_eq!(status, Status::Satisfied);

    // Another run (new salt, same passphrase) reads it too.
    let again = target(&config, &[0]);
    assert_eq!(again.decrypt_state(&sealed).unwrap().0, STATE.as_bytes());
}

#[test]
fn wrong_passphrase_clear_state_and_fallbacks() {
    let right = pbkdf2(
        "k",
        "correct-horse-battery-staple",
        1000,
        HashFunction::Sha256,
    );
    let wrong = pbkdf2("k", "incorrect-horse-battery", 1000, HashFunction::Sha256);
    let config = Config {
        key_providers: vec![right.clone()],
        methods: vec![aes("m", "k"), clear("c")],
    };
    let sealed = target(&config, &[0])
        .encrypt_state(STATE.as_bytes())
        .unwrap();

    let bad = Config {
        key_providers: vec![wrong],
        methods: config.methods.clone(),
    };
    let e = target(&bad, &[0]).decrypt_state(&sealed).unwrap_err().0;
    assert!(
        e.starts_with("decryption failed for all provided methods"),
        "{e}"
    );
    assert!(e.contains("message authentication failed"), "{e}");
    assert!(!e.contains("incorrect-horse"), "no secret in messages: {e}");

    // A state in clear needs the unencrypted method.
    let e = target(&config, &[0])
        .decrypt_state(STATE.as_bytes())
        .unwrap_err()
        .0;
    assert_eq!(
        e,
        "encountered unencrypted payload without unencrypted method configured"
    );
    let (plain, status) = target(&config, &[0, 1])
        .decrypt_state(STATE.as_bytes())
        .unwrap();
    assert_eq!(
        (plain.as_slice(), status),
        (STATE.as_bytes(), Status::Migration)
    );

    // Unencrypted first writes in clear; the old method reads the encrypted one.
    let t = target(&config, &[1, 0]);
    assert!(t.writes_clear());
    assert_eq!(t.encrypt_state(STATE.as_bytes()).unwrap(), STATE.as_bytes());
    assert_eq!(t.decrypt_state(&sealed).unwrap().1, Status::Migration);

    // Rotation: a new passphrase first, the old one as fallback.
    let rotated = Config {
        key_providers: vec![
            pbkdf2("new", "a-brand-new-passphrase!", 1000, HashFunction::Sha512),
            right,
        ],
        methods: vec![aes("n", "new"), aes("m", "k")],
    };
    let t = target(&rotated, &[0, 1]);
    assert_eq!(t.decrypt_state(&sealed).unwrap().1, Status::Migration);
    let resealed = t.encrypt_state(STATE.as_bytes()).unwrap();
    assert_eq!(
        target(&rotated, &[0]).decrypt_state(&resealed).unwrap().1,
        Status::Satisfied
    );
}

#[test]
fn identity_must_match_and_records_round_trip() {
    let config = Config {
        key_providers: vec![pbkdf2(
            "k",
            "correct-horse-battery-staple",
            1000,
            HashFunction::Sha512,
        )],
        methods: vec![aes("m", "k")],
    };
    let t = target(&config, &[0]);
    let sealed = String::from_utf8(t.encrypt_state(STATE.as_bytes()).unwrap()).unwrap();
    let edited = sealed.replace("\"serial\":7", "\"serial\":8");
    let e = t.decrypt_state(edited.as_bytes()).unwrap_err().0;
    assert!(e.contains("serial field mismatch"), "{e}");

    let lines: Vec<Vec<u8>> = (0..3)
        .map(|i| {
            t.encrypt_record(format!("{{\"n\":{i}}}").as_bytes())
                .unwrap()
        })
        .collect();
    for (i, l) in lines.iter().enumerate() {
        assert!(!l.contains(&b'\n'));
        let reader = target(&config, &[0]);
        assert_eq!(
            reader.decrypt_record(l).unwrap(),
            format!("{{\"n\":{i}}}").as_bytes()
        );
    }
}

#[test]
fn aes_key_lengths_and_aad() {
    for len in [16usize, 24, 32] {
        let p = method::Prepared::AesGcm {
            encryption_key: vec![7; len].into(),
            decryption_key: Some(vec![7; len].into()),
            aad: vec![1, 2, 3, 4],
        };
        let sealed = p.encrypt(b"payload").unwrap().unwrap();
        assert_eq!(p.decrypt(&sealed).unwrap(), b"payload");
        let other_aad = method::Prepared::AesGcm {
            encryption_key: vec![7; len].into(),
            decryption_key: Some(vec![7; len].into()),
            aad: vec![1, 2, 3],
        };
        assert!(other_aad.decrypt(&sealed).is_err());
    }
}

/// Made by `crates/ferro-cli/tests/encryption_support/tofu_crypt.py` (Python's
/// `cryptography`, written from OpenTofu's description, no ferro code): passphrase
/// `correct-horse-battery-staple`, pbkdf2 sha512 with 200000 iterations, aes_gcm.
const INDEPENDENT: &str = include_str!("testdata/independent.tfstate");

#[test]
fn reads_a_state_encrypted_independently() {
    let config = Config {
        key_providers: vec![pbkdf2(
            "main",
            "correct-horse-battery-staple",
            200_000,
            HashFunction::Sha512,
        )],
        methods: vec![aes("main", "main")],
    };
    let (plain, _) = target(&config, &[0])
        .decrypt_state(INDEPENDENT.trim().as_bytes())
        .unwrap();
    let state: serde_json::Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(state["lineage"], "independent-lineage");
    assert_eq!(state["outputs"]["greeting"]["value"], "made by python");
}

#[test]
fn local_backend_encrypts_state_backup_and_journal() {
    use crate::{Backend, Change, LocalBackend, ObjectState, OutputState, State};
    use ferro_addrs::{AbsProviderConfig, AbsResource, InstanceKey, Provider, Resource};
    let dir = std::env::temp_dir().join(format!("ferro-enc-{}", crate::new_lineage()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("terraform.tfstate");
    let config = Config {
        key_providers: vec![pbkdf2(
            "k",
            "correct-horse-battery-staple",
            1000,
            HashFunction::Sha512,
        )],
        methods: vec![aes("m", "k")],
    };
    let enc = || Some(Arc::new(target(&config, &[0])));
    let secret_output = |v: &str| OutputState {
        value: serde_json::json!(v),
        sensitive: true,
        ty: serde_json::json!("string"),
    };

    let mut b = LocalBackend::new(path.clone());
    b.set_encryption(enc());
    let mut s = State::new("lin-enc".into());
    s.outputs
        .insert("a".into(), secret_output("first-secret-value"));
    b.persist(&mut s).unwrap();
    drop(b);
    // The next run backs the first state up before writing its own.
    let mut b = LocalBackend::new(path.clone());
    b.set_encryption(enc());
    let mut s = b.load().unwrap().unwrap();
    s.outputs
        .insert("a".into(), secret_output("second-secret-value"));
    b.persist(&mut s).unwrap();
    let j = b.journal(&s.lineage);
    j.record(&[Change::SetCurrent {
        res: AbsResource::root(Resource::managed("terraform_data", "x")),
        provider: AbsProviderConfig::root(Provider::builtin("terraform")),
        key: InstanceKey::None,
        obj: Some(ObjectState {
            tainted: false,
            schema_version: 0,
            attributes: serde_json::json!({"id": "journal-secret-value"}).into(),
            sensitive_attributes: serde_json::json!([]).into(),
            private: None,
            dependencies: Default::default(),
            create_before_destroy: false,
            skip_destroy: false,
            identity: None,
        }),
    }])
    .unwrap();
    drop(b);

    let journal = crate::journal_path(&path);
    let files = [
        path.clone(),
        dir.join("terraform.tfstate.backup"),
        journal.clone(),
    ];
    let before: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    for (f, bytes) in files.iter().zip(&before) {
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !text.contains("secret-value"),
            "{} holds a value in clear: {text}",
            f.display()
        );
    }

    // Another run reads the state and folds the journal.
    let mut b = LocalBackend::new(path.clone());
    b.set_encryption(enc());
    let loaded = b.load().unwrap().unwrap();
    assert_eq!(loaded.resources.len(), 1, "the journal was folded");
    drop(b);

    // The wrong passphrase: an error, every file untouched, nothing written.
    let wrong = Config {
        key_providers: vec![pbkdf2(
            "k",
            "not-the-right-passphrase",
            1000,
            HashFunction::Sha512,
        )],
        methods: vec![aes("m", "k")],
    };
    let mut b = LocalBackend::new(path.clone());
    b.set_encryption(Some(Arc::new(target(&wrong, &[0]))));
    let e = b.load().unwrap_err().0;
    assert!(
        e.contains("decryption failed for all provided methods"),
        "{e}"
    );
    assert!(
        b.persist(&mut s.clone()).is_err(),
        "an unreadable state is never overwritten"
    );
    drop(b);
    let after: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert_eq!(before, after);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn remote_state_targets_are_named_as_opentofu_names_them() {
    assert_eq!(remote_target_name("data.terraform_remote_state.a"), "a");
    assert_eq!(
        remote_target_name("data.terraform_remote_state.a[0]"),
        "a[0]"
    );
    assert_eq!(
        remote_target_name("module.m[\"k\"].data.terraform_remote_state.b"),
        "m[\"k\"].b"
    );
    assert_eq!(
        remote_target_name("module.m.module.n.data.terraform_remote_state.c"),
        "m.module.n.c"
    );
    // A target named for the instance wins over the default; others take the default.
    let config = Arc::new(Config::default());
    let named = Arc::new(TargetEncryption::new("named", config.clone(), vec![]));
    let default = Arc::new(TargetEncryption::new("default", config, vec![]));
    let enc = Encryption {
        remote_default: Some(default.clone()),
        remotes: [("m.b".to_string(), named.clone())].into_iter().collect(),
        ..Default::default()
    };
    let picked = enc
        .remote("module.m.data.terraform_remote_state.b")
        .unwrap();
    assert!(Arc::ptr_eq(&picked, &named));
    let picked = enc.remote("data.terraform_remote_state.b").unwrap();
    assert!(Arc::ptr_eq(&picked, &default));
}
