//! Logging in: the private key (or the key with its certificate), the password (also answered
//! to keyboard-interactive prompts) and the agent's identities, in the order Terraform offers
//! them, with Go's wording when none is accepted.

use crate::{Checker, Error, Login, Options};
use russh::client::{AuthResult, Handle, KeyboardInteractiveAuthResponse};
use russh::keys::{Certificate, HashAlg, PrivateKey, PrivateKeyWithHashAlg, PublicKey};
use russh::{MethodKind, MethodSet};
use std::sync::Arc;

/// The private key of `text`, worded as Terraform words a key it cannot use.
pub(crate) fn private_key(text: &str) -> Result<PrivateKey, Error> {
    let t = text.trim();
    if !t.starts_with("-----BEGIN") {
        return Err(Error("Failed to read ssh private key: no key found".into()));
    }
    if t.contains("Proc-Type: 4,ENCRYPTED") {
        return Err(Error(
            "Failed to read ssh private key: password protected keys are\nnot supported. Please decrypt the key prior to use.".into(),
        ));
    }
    let key = russh::keys::decode_secret_key(t, None)
        .map_err(|e| Error(format!("Failed to parse ssh private key: {e}")))?;
    if key.is_encrypted() {
        return Err(Error(
            "Failed to parse ssh private key: ssh: this private key is passphrase protected".into(),
        ));
    }
    Ok(key)
}

fn certificate(key: &str, cert: &str) -> Result<Certificate, Error> {
    russh::keys::decode_secret_key(key.trim(), None)
        .map_err(|e| Error(format!("failed to parse private key: {e}")))?;
    Certificate::from_openssh(cert.trim())
        .map_err(|e| Error(format!("failed to parse certificate: {e}")))
}

/// Check what can be checked before connecting (Terraform refuses a bad key at once, without
/// retrying).
pub fn check(opts: &Options) -> Result<(), Error> {
    for login in std::iter::once(&opts.target).chain(opts.bastion.as_ref()) {
        if let Some(k) = &login.private_key {
            match &login.certificate {
                Some(c) => {
                    certificate(k, c)?;
                }
                None => {
                    private_key(k)?;
                }
            }
        }
        if let Some(h) = &login.host_key {
            crate::parse_host_key(&Some(h.clone()))?;
        }
    }
    Ok(())
}

/// Log in as Go's SSH client does: ask with "none" which methods the server takes, then try
/// each configured method the server still offers, in Terraform's order (the private key or
/// certificate, the password, keyboard-interactive, the agent's keys).
pub(crate) async fn authenticate(
    handle: &mut Handle<Checker>,
    login: &Login,
    opts: &Options,
) -> Result<(), String> {
    let user = login.user.as_str();
    let failed = |e: russh::Error| format!("ssh: handshake failed: {e}");
    let mut offered = match handle.authenticate_none(user).await.map_err(failed)? {
        AuthResult::Success => return Ok(()),
        AuthResult::Failure {
            remaining_methods, ..
        } => remaining_methods,
    };
    let mut attempted = vec!["none"];
    let mut note = |name: &'static str| {
        if !attempted.contains(&name) {
            attempted.push(name);
        }
    };
    // Each step: Some(true) logged in, Some(false) refused (with the methods still offered).
    let outcome = |r: AuthResult, offered: &mut MethodSet| match r {
        AuthResult::Success => true,
        AuthResult::Failure {
            remaining_methods, ..
        } => {
            *offered = remaining_methods;
            false
        }
    };
    if let Some(text) = &login.private_key {
        if offered.contains(&MethodKind::PublicKey) {
            note("publickey");
            let key = Arc::new(private_key(text).map_err(|e| e.0)?);
            let r = match &login.certificate {
                Some(c) => {
                    let cert = certificate(text, c).map_err(|e| e.0)?;
                    handle.authenticate_openssh_cert(user, key, cert).await
                }
                None => {
                    let hash = rsa_hash(handle, &key.public_key().clone()).await;
                    let key = PrivateKeyWithHashAlg::new(key, hash);
                    handle.authenticate_publickey(user, key).await
                }
            };
            if outcome(r.map_err(failed)?, &mut offered) {
                return Ok(());
            }
        }
    }
    if let Some(password) = &login.password {
        if offered.contains(&MethodKind::Password) {
            note("password");
            let r = handle.authenticate_password(user, password.as_str()).await;
            if outcome(r.map_err(failed)?, &mut offered) {
                return Ok(());
            }
        }
        if offered.contains(&MethodKind::KeyboardInteractive) {
            note("keyboard-interactive");
            if keyboard_interactive(handle, user, password).await? {
                return Ok(());
            }
        }
    }
    if opts.agent && offered.contains(&MethodKind::PublicKey) {
        note("publickey");
        if agent(handle, user, opts.agent_identity.as_deref()).await? {
            return Ok(());
        }
    }
    // Listed in the order tried, as the Go client of Terraform 1.0.3 lists them.
    Err(format!(
        "ssh: handshake failed: ssh: unable to authenticate, attempted methods [{}], no supported methods remain",
        attempted.join(" ")
    ))
}

/// The hash to sign with for an RSA key: the best the server takes.
async fn rsa_hash(handle: &Handle<Checker>, key: &PublicKey) -> Option<HashAlg> {
    if !key.algorithm().is_rsa() {
        return None;
    }
    handle
        .best_supported_rsa_hash()
        .await
        .ok()
        .flatten()
        .flatten()
}

/// Answer every prompt with the password (Terraform's `PasswordKeyboardInteractive`).
async fn keyboard_interactive(
    handle: &mut Handle<Checker>,
    user: &str,
    password: &str,
) -> Result<bool, String> {
    let mut reply = handle
        .authenticate_keyboard_interactive_start(user, None::<String>)
        .await
        .map_err(|e| format!("ssh: handshake failed: {e}"))?;
    // A server asks a bounded number of rounds; stop after a few.
    for _ in 0..8 {
        match reply {
            KeyboardInteractiveAuthResponse::Success => return Ok(true),
            KeyboardInteractiveAuthResponse::Failure { .. } => return Ok(false),
            KeyboardInteractiveAuthResponse::InfoRequest { prompts, .. } => {
                let answers = prompts.iter().map(|_| password.to_string()).collect();
                reply = handle
                    .authenticate_keyboard_interactive_respond(answers)
                    .await
                    .map_err(|e| format!("ssh: handshake failed: {e}"))?;
            }
        }
    }
    Ok(false)
}

/// The agent's identities, the one named by `agent_identity` (by comment, or by the key in the
/// file it names or that file's `.pub`) first, then those whose comment ends with it.
async fn agent(
    handle: &mut Handle<Checker>,
    user: &str,
    identity: Option<&str>,
) -> Result<bool, String> {
    let mut client = match russh::keys::agent::client::AgentClient::connect_env().await {
        Ok(c) => c,
        Err(e) => return Err(format!("ssh: cannot reach the SSH agent: {e}")),
    };
    let identities = client
        .request_identities()
        .await
        .map_err(|e| format!("ssh: the SSH agent did not list its keys: {e}"))?;
    // Each identity's key (a certificate's key logs in as the key), with its comment.
    let mut keys: Vec<(PublicKey, String)> = identities
        .iter()
        .map(|i| (i.public_key().into_owned(), i.comment().to_string()))
        .collect();
    if let Some(id) = identity {
        sort_identities(&mut keys, id);
    }
    for (key, _) in keys {
        let hash = rsa_hash(handle, &key).await;
        match handle
            .authenticate_publickey_with(user, key, hash, &mut client)
            .await
        {
            Ok(r) if r.success() => return Ok(true),
            Ok(_) => {}
            Err(e) => return Err(format!("ssh: handshake failed: {e:?}")),
        }
    }
    Ok(false)
}

fn identity_key(id: &str) -> Option<PublicKey> {
    let path = std::path::Path::new(id);
    let mut paths = vec![path.to_path_buf()];
    if !id.ends_with(".pub") {
        paths.push(path.with_file_name(format!("{}.pub", path.file_name()?.to_string_lossy())));
    }
    for p in paths {
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        if let Ok(k) = russh::keys::decode_secret_key(&text, None) {
            return Some(k.public_key().clone());
        }
        if let Ok(k) = PublicKey::from_openssh(text.trim()) {
            return Some(k);
        }
    }
    None
}

fn sort_identities(keys: &mut [(PublicKey, String)], id: &str) {
    if keys.len() < 2 {
        return;
    }
    let wanted = identity_key(id);
    let mut head = 0;
    for i in 0..keys.len() {
        let exact = wanted
            .as_ref()
            .is_some_and(|w| w.key_data() == keys[i].0.key_data())
            || keys[i].1 == id;
        if exact {
            keys.swap(0, i);
            break;
        }
        if keys[i].1.ends_with(id) {
            keys.swap(head, i);
            head += 1;
        }
    }
}
