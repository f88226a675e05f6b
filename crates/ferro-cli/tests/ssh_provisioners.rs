//! The `file` and `remote-exec` provisioners through the ferro CLI against a real OpenSSH
//! server on this machine (`tools/sshd-test-server.sh`: a throwaway host key and user key, a
//! free localhost port; the environment's `FERRO_SSHD_*` exports when set, else the script is
//! run here). No server is a test failure, never a skip. The server is this machine, so what
//! the provisioners did is checked on the local file system.

mod cli_support;

use cli_support::{ferro, scratch};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

struct Sshd {
    port: u16,
    user: String,
    key: String,
    wrong_key: String,
    host_key: String,
    /// A key the server takes only with its user certificate, and the certificate.
    cert_key: String,
    cert: String,
    /// A user who logs in with a password (the script makes one when it runs as root).
    password: Option<(String, String)>,
}

/// The test server, from the environment or started by the script.
fn sshd() -> &'static Sshd {
    static SSHD: OnceLock<Sshd> = OnceLock::new();
    SSHD.get_or_init(|| {
        let mut vars: Vec<(String, String)> = std::env::vars()
            .filter(|(k, _)| k.starts_with("FERRO_SSHD_"))
            .collect();
        if !vars.iter().any(|(k, _)| k == "FERRO_SSHD_PORT") {
            let script =
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/sshd-test-server.sh");
            let out = Command::new("bash")
                .arg(&script)
                .output()
                .expect("run tools/sshd-test-server.sh");
            assert!(
                out.status.success(),
                "no SSH server for the provisioner tests: FERRO_SSHD_PORT is not set and tools/sshd-test-server.sh failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            vars = String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter_map(|l| l.strip_prefix("export ")?.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
        }
        let get = |k: &str| {
            vars.iter()
                .find(|(n, _)| n == k)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("{k} missing from the SSH server's description"))
        };
        Sshd {
            port: get("FERRO_SSHD_PORT").parse().expect("a port number"),
            user: get("FERRO_SSHD_USER"),
            key: get("FERRO_SSHD_KEY"),
            wrong_key: get("FERRO_SSHD_WRONG_KEY"),
            host_key: get("FERRO_SSHD_HOST_KEY"),
            cert_key: get("FERRO_SSHD_CERT_KEY"),
            cert: get("FERRO_SSHD_CERT"),
            password: vars
                .iter()
                .find(|(n, _)| n == "FERRO_SSHD_PASSWORD_USER")
                .zip(vars.iter().find(|(n, _)| n == "FERRO_SSHD_PASSWORD"))
                .map(|((_, u), (_, p))| (u.clone(), p.clone())),
        }
    })
}

/// A `connection` block for the test server with extra arguments.
fn connection(extra: &str) -> String {
    let s = sshd();
    format!(
        "  connection {{\n    type        = \"ssh\"\n    host        = \"127.0.0.1\"\n    port        = {}\n    user        = \"{}\"\n    private_key = file(\"{}\")\n    agent       = false\n{extra}  }}\n",
        s.port, s.user, s.key
    )
}

/// A directory the provisioners write into ("the remote side"), made fresh.
fn remote_dir(dir: &Path) -> PathBuf {
    let d = dir.join("remote");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn apply(dir: &Path) -> (i32, String, String) {
    let (code, out, err) = ferro(dir, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");
    ferro(dir, &["apply", "-no-color", "-auto-approve"])
}

/// The lines of `out` that a provisioner of `addr` printed.
fn provisioner_lines<'a>(out: &'a str, addr: &str) -> Vec<&'a str> {
    let prefix = format!("{addr} (");
    out.lines().filter(|l| l.starts_with(&prefix)).collect()
}

fn state(dir: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("terraform.tfstate")).unwrap()).unwrap()
}

fn instance_status(dir: &Path, name: &str) -> Option<String> {
    let s = state(dir);
    let r = s["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == name)?;
    Some(
        r["instances"][0]["status"]
            .as_str()
            .unwrap_or("")
            .to_string(),
    )
}

#[test]
fn file_copies_content_files_and_directories_as_terraform_does() {
    let dir = scratch("ssh-file");
    let remote = remote_dir(&dir);
    std::fs::create_dir_all(dir.join("tree/sub")).unwrap();
    std::fs::write(dir.join("tree/a.txt"), "alpha\n").unwrap();
    std::fs::write(dir.join("tree/sub/b.txt"), "beta\n").unwrap();
    std::fs::write(dir.join("single.txt"), "single\n").unwrap();
    std::fs::create_dir_all(remote.join("with-slash")).unwrap();
    std::fs::create_dir_all(remote.join("without-slash")).unwrap();
    let r = remote.display();
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"resource "terraform_data" "files" {{
{conn}
  provisioner "file" {{
    content     = "from content"
    destination = "{r}/content.txt"
  }}
  provisioner "file" {{
    source      = "single.txt"
    destination = "{r}/single-copy.txt"
  }}
  provisioner "file" {{
    source      = "tree"
    destination = "{r}/without-slash"
  }}
  provisioner "file" {{
    source      = "tree/"
    destination = "{r}/with-slash"
  }}
}}
"#,
            conn = connection("")
        ),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    assert_eq!(code, 0, "{out}\n{err}");
    let read = |p: &str| {
        std::fs::read_to_string(remote.join(p)).unwrap_or_else(|e| panic!("{p}: {e}\n{out}"))
    };
    assert_eq!(read("content.txt"), "from content");
    assert_eq!(read("single-copy.txt"), "single\n");
    // Without a trailing slash the directory itself is copied into the destination; with
    // one, only its contents.
    assert_eq!(read("without-slash/tree/a.txt"), "alpha\n");
    assert_eq!(read("without-slash/tree/sub/b.txt"), "beta\n");
    assert_eq!(read("with-slash/a.txt"), "alpha\n");
    assert_eq!(read("with-slash/sub/b.txt"), "beta\n");
    assert!(!remote.join("with-slash/tree").exists());
    // The file provisioner prints nothing but its start.
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("terraform_data.files") && !l.contains("Creation complete"))
        .collect();
    assert_eq!(
        lines,
        [
            "terraform_data.files: Creating...",
            "terraform_data.files: Provisioning with 'file'...",
            "terraform_data.files: Provisioning with 'file'...",
            "terraform_data.files: Provisioning with 'file'...",
            "terraform_data.files: Provisioning with 'file'...",
        ],
        "{out}"
    );
    assert_eq!(instance_status(&dir, "files").as_deref(), Some(""));
}

#[test]
fn remote_exec_runs_inline_commands_and_scripts_with_terraform_prefixes() {
    let dir = scratch("ssh-remote-exec");
    let remote = remote_dir(&dir);
    let r = remote.display();
    std::fs::write(
        dir.join("one.sh"),
        format!("echo one > {r}/one.txt\necho script one\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("two.sh"),
        format!("#!/bin/bash\necho two > {r}/two.txt\n[ -n \"$BASH_VERSION\" ] && echo script two in bash\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"variable "secret" {{
  default   = "hunter2"
  sensitive = true
}}

resource "terraform_data" "run" {{
{conn}
  provisioner "remote-exec" {{
    inline = [
      "echo hello from ${{self.id}} > {r}/inline.txt",
      "echo first line",
      "echo to standard error >&2",
      "echo '  indented   '",
    ]
  }}
  provisioner "remote-exec" {{
    script = "one.sh"
  }}
  provisioner "remote-exec" {{
    scripts = ["one.sh", "two.sh"]
  }}
}}

resource "terraform_data" "quiet" {{
{conn}
  provisioner "remote-exec" {{
    inline = ["echo ${{var.secret}} > {r}/secret.txt", "echo ${{var.secret}}"]
  }}
}}
"#,
            conn = connection("")
        ),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    assert_eq!(code, 0, "{out}\n{err}");
    let id = state(&dir)["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "run")
        .map(|r| {
            r["instances"][0]["attributes"]["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(remote.join("inline.txt")).unwrap(),
        format!("hello from {id}\n")
    );
    assert_eq!(
        std::fs::read_to_string(remote.join("one.txt")).unwrap(),
        "one\n"
    );
    assert_eq!(
        std::fs::read_to_string(remote.join("two.txt")).unwrap(),
        "two\n"
    );
    let s = sshd();
    let connecting = [
        "Connecting to remote host via SSH...".to_string(),
        "  Host: 127.0.0.1".into(),
        format!("  User: {}", s.user),
        "  Password: false".into(),
        "  Private key: true".into(),
        "  Certificate: false".into(),
        "  SSH Agent: false".into(),
        "  Checking Host Key: false".into(),
        "  Target Platform: unix".into(),
        "Connected!".into(),
    ];
    let mut want: Vec<String> = Vec::new();
    let p = |l: &str| format!("terraform_data.run (remote-exec): {l}");
    want.extend(connecting.iter().map(|l| p(l)));
    // The script runs with a terminal: standard error comes in the same stream; trailing
    // spaces are trimmed as Terraform trims them.
    want.extend(["first line", "to standard error", "  indented"].map(p));
    want.extend(connecting.iter().map(|l| p(l)));
    want.push(p("script one"));
    want.extend(connecting.iter().map(|l| p(l)));
    want.extend(["script one", "script two in bash"].map(p));
    assert_eq!(provisioner_lines(&out, "terraform_data.run"), want, "{out}");
    // A sensitive value in the provisioner's configuration hides every piece of its output.
    assert_eq!(
        std::fs::read_to_string(remote.join("secret.txt")).unwrap(),
        "hunter2\n"
    );
    assert!(!out.contains("hunter2"), "{out}");
    let quiet = provisioner_lines(&out, "terraform_data.quiet");
    assert!(quiet.len() >= 3, "{out}");
    assert!(
        quiet.iter().all(|l| *l
            == "terraform_data.quiet (remote-exec): (output suppressed due to sensitive value in config)"),
        "{out}"
    );
}

#[test]
fn a_failing_command_taints_the_resource_unless_on_failure_is_continue() {
    let dir = scratch("ssh-failure");
    let remote = remote_dir(&dir);
    let r = remote.display();
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"resource "terraform_data" "broken" {{
{conn}
  provisioner "remote-exec" {{
    inline = ["echo about to fail", "exit 7"]
  }}
  provisioner "remote-exec" {{
    inline = ["touch {r}/never"]
  }}
}}

resource "terraform_data" "tolerant" {{
{conn}
  provisioner "remote-exec" {{
    on_failure = continue
    inline     = ["false"]
  }}
  provisioner "file" {{
    on_failure  = continue
    content     = "x"
    destination = "/nonexistent-ferro-dir/x"
  }}
  provisioner "remote-exec" {{
    inline = ["touch {r}/after-continue"]
  }}
}}
"#,
            conn = connection("")
        ),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    assert_eq!(code, 1, "{out}\n{err}");
    let all = format!("{out}{err}");
    assert!(
        all.contains("Error: remote-exec provisioner error"),
        "{all}"
    );
    assert!(all.contains("error executing \"/tmp/terraform_"), "{all}");
    assert!(all.contains(".sh\": Process exited with status 7"), "{all}");
    assert!(all.contains("terraform_data.broken"), "{all}");
    assert!(
        out.contains("terraform_data.broken (remote-exec): about to fail"),
        "{out}"
    );
    assert!(!remote.join("never").exists());
    assert!(remote.join("after-continue").exists(), "{all}");
    // Only the broken one is tainted; the tolerant one is created.
    assert_eq!(instance_status(&dir, "broken").as_deref(), Some("tainted"));
    assert_eq!(instance_status(&dir, "tolerant").as_deref(), Some(""));
    assert!(!all.contains("file provisioner error"), "{all}");
    // The next plan replaces the tainted object.
    let (code, out, err) = ferro(&dir, &["plan", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("terraform_data.broken is tainted, so must be replaced"),
        "{out}"
    );
}

#[test]
fn a_destroy_time_provisioner_runs_before_the_object_is_destroyed() {
    let dir = scratch("ssh-destroy");
    let remote = remote_dir(&dir);
    let r = remote.display();
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"resource "terraform_data" "machine" {{
  input = "m1"
{conn}
  provisioner "remote-exec" {{
    when   = destroy
    inline = ["echo goodbye ${{self.output}} > {r}/goodbye.txt"]
  }}
}}
"#,
            conn = connection("")
        ),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("Provisioning with"), "{out}");
    assert!(!remote.join("goodbye.txt").exists());
    let (code, out, err) = ferro(&dir, &["destroy", "-no-color", "-auto-approve"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        std::fs::read_to_string(remote.join("goodbye.txt")).unwrap(),
        "goodbye m1\n"
    );
    let destroying = out.find("terraform_data.machine: Destroying...").unwrap();
    let provisioning = out
        .find("terraform_data.machine: Provisioning with 'remote-exec'...")
        .unwrap();
    let complete = out
        .find("terraform_data.machine: Destruction complete")
        .unwrap();
    assert!(
        destroying < provisioning && provisioning < complete,
        "{out}"
    );
}

#[test]
fn a_bastion_host_is_hopped_through_and_host_keys_are_checked() {
    let dir = scratch("ssh-bastion");
    let remote = remote_dir(&dir);
    let r = remote.display();
    let s = sshd();
    let host_key = std::fs::read_to_string(&s.host_key).unwrap();
    let host_key = host_key.trim();
    let wrong_host_key = std::fs::read_to_string(format!("{}.pub", s.wrong_key)).unwrap();
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"resource "terraform_data" "hop" {{
{hop}
  provisioner "remote-exec" {{
    inline = ["touch {r}/through-bastion"]
  }}
}}

resource "terraform_data" "dead_bastion" {{
{dead}
  provisioner "remote-exec" {{
    inline = ["touch {r}/never"]
  }}
}}

resource "terraform_data" "impostor" {{
{impostor}
  provisioner "file" {{
    content     = "x"
    destination = "{r}/never-either"
  }}
}}
"#,
            hop = connection(&format!(
                "    host_key     = \"{host_key}\"\n    bastion_host = \"127.0.0.1\"\n    bastion_host_key = \"{host_key}\"\n"
            )),
            dead = connection("    bastion_host = \"127.0.0.1\"\n    bastion_port = 1\n    timeout      = \"1s\"\n"),
            impostor = connection(&format!(
                "    host_key = \"{}\"\n    timeout  = \"1s\"\n",
                wrong_host_key.trim()
            )),
        ),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    assert_eq!(code, 1, "{out}\n{err}");
    let all = format!("{out}{err}");
    assert!(remote.join("through-bastion").exists(), "{all}");
    let hop = provisioner_lines(&out, "terraform_data.hop");
    let p = |l: &str| format!("terraform_data.hop (remote-exec): {l}");
    let want_tail: Vec<String> = [
        "  Checking Host Key: true",
        "  Target Platform: unix",
        "Using configured bastion host...",
        "  Host: 127.0.0.1",
        &format!("  User: {}", s.user),
        "  Password: false",
        "  Private key: true",
        "  Certificate: false",
        "  SSH Agent: false",
        "  Checking Host Key: true",
        "Connected!",
    ]
    .map(p)
    .to_vec();
    assert_eq!(hop[7..], want_tail[..], "{out}");
    assert!(
        all.contains("timeout - last error: Error connecting to bastion: dial tcp 127.0.0.1:1: connect: connection refused"),
        "{all}"
    );
    assert!(all.contains("knownhosts: key mismatch"), "{all}");
    assert!(!remote.join("never").exists() && !remote.join("never-either").exists());
}

/// A second server, which also presents a host certificate signed by a host CA: its port, the
/// CA's public key and the path of a private key it takes.
fn host_cert_sshd() -> (u16, String, String) {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/sshd-test-server.sh");
    let dir = std::env::temp_dir().join("ferro-sshd-test-host-cert");
    let out = Command::new("bash")
        .arg(&script)
        .env("FERRO_SSHD_HOST_CERT", "1")
        .env("FERRO_SSHD_DIR", &dir)
        .output()
        .expect("run tools/sshd-test-server.sh");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let get = |k: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("export {k}=")))
            .unwrap_or_else(|| panic!("{k} missing: {text}"))
            .to_string()
    };
    let read = |p: String| std::fs::read_to_string(p).unwrap().trim().to_string();
    (
        get("FERRO_SSHD_PORT").parse().unwrap(),
        read(get("FERRO_SSHD_HOST_CA")),
        get("FERRO_SSHD_KEY"),
    )
}

#[test]
fn a_host_certificate_signed_by_host_key_is_accepted() {
    let dir = scratch("ssh-host-cert");
    let remote = remote_dir(&dir);
    let r = remote.display();
    let s = sshd();
    let (port, ca, key) = host_cert_sshd();
    let wrong_ca = std::fs::read_to_string(format!("{}.pub", s.wrong_key)).unwrap();
    let block = |host_key: &str| {
        format!(
            "  connection {{\n    type        = \"ssh\"\n    host        = \"127.0.0.1\"\n    port        = {port}\n    user        = \"{}\"\n    private_key = file(\"{key}\")\n    agent       = false\n    host_key    = \"{host_key}\"\n    timeout     = \"1s\"\n  }}\n",
            s.user
        )
    };
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"resource "terraform_data" "certified" {{
{good}
  provisioner "remote-exec" {{
    inline = ["touch {r}/certified"]
  }}
}}

resource "terraform_data" "other_ca" {{
{bad}
  provisioner "remote-exec" {{
    inline = ["touch {r}/never"]
  }}
}}
"#,
            good = block(&ca),
            bad = block(wrong_ca.trim()),
        ),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    let all = format!("{out}{err}");
    assert_eq!(code, 1, "{all}");
    // The host proved itself with a certificate the configured key signed.
    assert!(remote.join("certified").exists(), "{all}");
    assert!(
        provisioner_lines(&out, "terraform_data.certified")
            .contains(&"terraform_data.certified (remote-exec): Connected!"),
        "{all}"
    );
    // A certificate some other key signed is refused, and nothing runs.
    assert!(all.contains("knownhosts: key mismatch"), "{all}");
    assert!(!remote.join("never").exists(), "{all}");
    assert_eq!(
        instance_status(&dir, "other_ca").as_deref(),
        Some("tainted"),
        "{all}"
    );
}

#[test]
fn a_refused_key_is_a_clear_error_naming_the_resource() {
    let dir = scratch("ssh-wrong-key");
    let s = sshd();
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"resource "terraform_data" "locked_out" {{
  connection {{
    host        = "127.0.0.1"
    port        = {port}
    user        = "{user}"
    private_key = file("{wrong}")
    agent       = false
    timeout     = "1s"
  }}
  provisioner "remote-exec" {{
    inline = ["true"]
  }}
}}
"#,
            port = s.port,
            user = s.user,
            wrong = s.wrong_key
        ),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    assert_eq!(code, 1, "{out}\n{err}");
    let all = format!("{out}{err}");
    assert!(
        all.contains("Error: remote-exec provisioner error"),
        "{all}"
    );
    assert!(all.contains("terraform_data.locked_out"), "{all}");
    assert!(
        all.contains(&format!(
            "timeout - last error: SSH authentication failed ({}@127.0.0.1:{}): ssh: handshake failed: ssh: unable to authenticate, attempted methods [none publickey], no supported methods remain",
            s.user, s.port
        )),
        "{all}"
    );
    assert_eq!(
        instance_status(&dir, "locked_out").as_deref(),
        Some("tainted")
    );
    // A key that is no key is refused at once, without retrying.
    std::fs::write(dir.join("not-a-key"), "hello").unwrap();
    let main = std::fs::read_to_string(dir.join("main.tf"))
        .unwrap()
        .replace(&s.wrong_key, "not-a-key")
        .replace("\"1s\"", "\"10m\"");
    std::fs::write(dir.join("main.tf"), main).unwrap();
    let (code, out, err) = ferro(&dir, &["apply", "-no-color", "-auto-approve"]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        format!("{out}{err}").contains("Failed to read ssh private key: no key found"),
        "{out}\n{err}"
    );
    assert!(!out.contains("Connecting to remote host"), "{out}");
}

/// Forward connections on `listener` to the SSH server, each in both directions.
fn forward(listener: std::net::TcpListener, to: u16) {
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(inbound) = conn else { return };
            let Ok(outbound) = std::net::TcpStream::connect(("127.0.0.1", to)) else {
                return;
            };
            for (mut from, mut into) in [
                (inbound.try_clone().unwrap(), outbound.try_clone().unwrap()),
                (outbound, inbound),
            ] {
                std::thread::spawn(move || {
                    let mut buf = [0u8; 16384];
                    loop {
                        match from.read(&mut buf) {
                            Ok(0) | Err(_) => break,
                            Ok(n) => {
                                if into.write_all(&buf[..n]).is_err() {
                                    break;
                                }
                            }
                        }
                    }
                    let _ = into.shutdown(std::net::Shutdown::Write);
                });
            }
        }
    });
}

#[test]
fn connecting_is_retried_while_the_port_is_closed_until_it_opens() {
    let dir = scratch("ssh-retry");
    let remote = remote_dir(&dir);
    let r = remote.display();
    let s = sshd();
    // A port nothing listens on yet: taken, then released.
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"resource "terraform_data" "late" {{
  connection {{
    host        = "127.0.0.1"
    port        = {port}
    user        = "{user}"
    private_key = file("{key}")
    agent       = false
    timeout     = "5m"
  }}
  provisioner "remote-exec" {{
    inline = ["touch {r}/came-up"]
  }}
}}
"#,
            user = s.user,
            key = s.key
        ),
    )
    .unwrap();
    let (code, out, err) = ferro(&dir, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(["apply", "-no-color", "-auto-approve"])
        .current_dir(&*dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let mut seen = Vec::new();
    // The host "comes up" only once a second attempt has begun: the first is refused
    // whatever the timing.
    let mut attempts_begun = 0;
    for line in lines.by_ref() {
        let line = line.unwrap();
        if line.ends_with("Target Platform: unix") {
            attempts_begun += 1;
        }
        seen.push(line);
        if attempts_begun == 2 {
            break;
        }
    }
    let listener = std::net::TcpListener::bind(("127.0.0.1", port)).unwrap();
    forward(listener, s.port);
    seen.extend(lines.map(|l| l.unwrap()));
    let status = child.wait().unwrap();
    let out = seen.join("\n");
    assert!(status.success(), "{out}");
    assert!(remote.join("came-up").exists(), "{out}");
    let attempts = out
        .matches("terraform_data.late (remote-exec): Connecting to remote host via SSH...")
        .count();
    assert!(attempts >= 2, "{out}");
    assert_eq!(out.matches("(remote-exec): Connected!").count(), 1, "{out}");
}

#[test]
fn a_password_logs_in_and_a_wrong_one_is_refused() {
    let dir = scratch("ssh-password");
    let s = sshd();
    let (user, password) = s.password.clone().expect(
        "the SSH server has no password user: tools/sshd-test-server.sh makes one when run as root",
    );
    let conn = |password: &str, timeout: &str| {
        format!(
            "  connection {{\n    host     = \"127.0.0.1\"\n    port     = {}\n    user     = \"{user}\"\n    password = \"{password}\"\n    agent    = false\n    timeout  = \"{timeout}\"\n  }}\n",
            s.port
        )
    };
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"resource "terraform_data" "by_password" {{
{good}
  provisioner "remote-exec" {{
    inline = ["id -un"]
  }}
}}

resource "terraform_data" "wrong_password" {{
{bad}
  provisioner "remote-exec" {{
    inline = ["id -un"]
  }}
}}
"#,
            good = conn(&password, "1m"),
            bad = conn("not-the-password", "1s"),
        ),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    assert_eq!(code, 1, "{out}\n{err}");
    let all = format!("{out}{err}");
    let lines: Vec<String> = provisioner_lines(&out, "terraform_data.by_password")
        .into_iter()
        .map(str::to_string)
        .collect();
    let p = |l: &str| format!("terraform_data.by_password (remote-exec): {l}");
    assert!(lines.contains(&p("  Password: true")), "{out}");
    assert!(lines.contains(&p("  Private key: false")), "{out}");
    assert_eq!(lines.last(), Some(&p(&user)), "{out}");
    assert!(!all.contains(&password), "the password was printed: {all}");
    assert!(
        all.contains(&format!(
            "timeout - last error: SSH authentication failed ({user}@127.0.0.1:{}): ssh: handshake failed: ssh: unable to authenticate, attempted methods [none password], no supported methods remain",
            s.port
        )),
        "{all}"
    );
    assert_eq!(
        instance_status(&dir, "wrong_password").as_deref(),
        Some("tainted")
    );
    assert_eq!(instance_status(&dir, "by_password").as_deref(), Some(""));
}

/// Whether a process whose command line contains `marker` is running.
fn running(marker: &str) -> bool {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| {
            std::fs::read(e.path().join("cmdline")).is_ok_and(|c| {
                String::from_utf8_lossy(&c)
                    .replace('\0', " ")
                    .contains(marker)
            })
        })
}

/// Wait until `done` holds; a bound of two minutes (far beyond what the event needs) turns a
/// hang into a failure.
fn wait_for(what: &str, done: impl Fn() -> bool) {
    let give_up = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !done() {
        assert!(
            std::time::Instant::now() < give_up,
            "waited in vain for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_stop_ends_a_running_remote_command() {
    let dir = scratch("ssh-stop");
    // A command line no other process has: the remote sleep, found through /proc (the server
    // is this machine).
    let marker = format!("631.{}", std::process::id());
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"resource "terraform_data" "slow" {{
{conn}
  provisioner "remote-exec" {{
    inline = ["echo started", "sleep {marker}"]
  }}
}}
"#,
            conn = connection("")
        ),
    )
    .unwrap();
    let (code, out, err) = ferro(&dir, &["init", "-no-color"]);
    assert_eq!(code, 0, "{out}\n{err}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(["apply", "-no-color", "-auto-approve"])
        .current_dir(&*dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let started = line == "terraform_data.slow (remote-exec): started";
        seen.push(line);
        if started {
            break;
        }
    }
    // The remote command runs: wait until its process is there, then stop ferro.
    wait_for("the remote command to start", || {
        running(&format!("sleep {marker}"))
    });
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    seen.extend(lines.map(|l| l.unwrap()));
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    let out = seen.join("\n");
    assert_eq!(status.code(), Some(1), "{out}\n{err}");
    assert!(
        err.contains("remote-exec provisioner error") && err.contains("interrupted"),
        "{out}\n{err}"
    );
    // The session is closed, so the server ends the command (its terminal hangs up).
    wait_for("the remote command to end", || {
        !running(&format!("sleep {marker}"))
    });
    assert_eq!(instance_status(&dir, "slow").as_deref(), Some("tainted"));
}

/// Run ferro in `dir` with extra environment variables.
fn ferro_env(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferro"))
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .output()
        .expect("run ferro");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A resource whose remote-exec provisioner runs `command` over `connection`.
fn remote_exec(name: &str, connection: &str, command: &str) -> String {
    format!(
        "resource \"terraform_data\" \"{name}\" {{\n{connection}\n  provisioner \"remote-exec\" {{\n    inline = [\"{command}\"]\n  }}\n}}\n"
    )
}

#[test]
fn a_user_certificate_logs_in_where_its_key_alone_is_refused() {
    let dir = scratch("ssh-certificate");
    let remote = remote_dir(&dir);
    let r = remote.display();
    let s = sshd();
    let conn = |cert: bool| {
        let cert = if cert {
            format!("    certificate = file(\"{}\")\n", s.cert)
        } else {
            String::new()
        };
        format!(
            "  connection {{\n    host        = \"127.0.0.1\"\n    port        = {}\n    user        = \"{}\"\n    private_key = file(\"{}\")\n{cert}    agent       = false\n    timeout     = \"1s\"\n  }}",
            s.port, s.user, s.cert_key
        )
    };
    std::fs::write(
        dir.join("main.tf"),
        remote_exec(
            "with_cert",
            &conn(true),
            &format!("touch {r}/by-certificate"),
        ) + &remote_exec("without_cert", &conn(false), &format!("touch {r}/by-key")),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(remote.join("by-certificate").exists(), "{out}\n{err}");
    assert!(
        provisioner_lines(&out, "terraform_data.with_cert")
            .contains(&"terraform_data.with_cert (remote-exec):   Certificate: true"),
        "{out}"
    );
    assert!(!remote.join("by-key").exists());
    assert!(
        format!("{out}{err}").contains("attempted methods [none publickey]"),
        "{out}\n{err}"
    );
}

/// An `ssh-agent` of the test's own, ended when dropped.
struct Agent {
    child: std::process::Child,
    socket: PathBuf,
}

impl Agent {
    fn start(dir: &Path) -> Agent {
        let socket = dir.join("agent.sock");
        let child = Command::new("ssh-agent")
            .arg("-D")
            .arg("-a")
            .arg(&socket)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("ssh-agent");
        wait_for("the ssh-agent socket", || socket.exists());
        Agent { child, socket }
    }

    fn add(&self, key: &Path) {
        let out = Command::new("ssh-add")
            .arg(key)
            .env("SSH_AUTH_SOCK", &self.socket)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn the_agent_logs_in_puts_agent_identity_first_and_is_forwarded() {
    let dir = scratch("ssh-agent");
    let remote = remote_dir(&dir);
    let r = remote.display();
    let s = sshd();
    let agent = Agent::start(&dir);
    // More keys the server refuses than it allows attempts (OpenSSH's MaxAuthTries is 6),
    // then the one it takes: only agent_identity gets that one tried.
    for i in 0..7 {
        let key = dir.join(format!("decoy{i}"));
        let out = Command::new("ssh-keygen")
            .args([
                "-q",
                "-t",
                "ed25519",
                "-N",
                "",
                "-C",
                &format!("decoy-{i}"),
                "-f",
            ])
            .arg(&key)
            .output()
            .unwrap();
        assert!(out.status.success());
        agent.add(&key);
    }
    let user_key = dir.join("user_key");
    std::fs::copy(&s.key, &user_key).unwrap();
    let mut perms = std::fs::metadata(&user_key).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o600);
    std::fs::set_permissions(&user_key, perms).unwrap();
    agent.add(&user_key);
    let conn = |identity: &str| {
        format!(
            "  connection {{\n    host    = \"127.0.0.1\"\n    port    = {}\n    user    = \"{}\"\n    agent   = true\n{identity}    timeout = \"1s\"\n  }}",
            s.port, s.user
        )
    };
    std::fs::write(
        dir.join("main.tf"),
        remote_exec(
            "picked",
            &conn("    agent_identity = \"ferro-test-user_key\"\n"),
            &format!("ssh-add -l > {r}/forwarded-agent-keys"),
        ) + &remote_exec("first_come", &conn(""), &format!("touch {r}/first-come")),
    )
    .unwrap();
    let sock = agent.socket.display().to_string();
    let env = [("SSH_AUTH_SOCK", sock.as_str())];
    let (code, out, err) = ferro_env(&dir, &["init", "-no-color"], &env);
    assert_eq!(code, 0, "{out}\n{err}");
    let (code, out, err) = ferro_env(&dir, &["apply", "-no-color", "-auto-approve"], &env);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        provisioner_lines(&out, "terraform_data.picked")
            .contains(&"terraform_data.picked (remote-exec):   SSH Agent: true"),
        "{out}"
    );
    // The remote command reached the agent through the forwarded connection.
    let listed = std::fs::read_to_string(remote.join("forwarded-agent-keys"))
        .unwrap_or_else(|e| panic!("{e}\n{out}\n{err}"));
    assert!(listed.contains("ferro-test-user_key"), "{listed}");
    assert!(listed.contains("decoy-0"), "{listed}");
    assert!(!remote.join("first-come").exists());
    assert_eq!(
        instance_status(&dir, "first_come").as_deref(),
        Some("tainted")
    );
}

#[test]
fn a_windows_target_gets_no_shebang_no_chmod_and_no_terminal() {
    let dir = scratch("ssh-windows");
    let remote = remote_dir(&dir);
    let r = remote.display();
    std::fs::write(
        dir.join("main.tf"),
        format!(
            r#"resource "terraform_data" "win" {{
{conn}
  provisioner "remote-exec" {{
    inline = ["echo from-windows-script"]
  }}
}}
"#,
            conn = connection(&format!(
                "    target_platform = \"windows\"\n    script_path     = \"{r}/provision.cmd\"\n"
            )),
        ),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    // Not made executable, the script cannot run on this Unix host: the command Terraform
    // sends for Windows targets is the script's path, as uploaded.
    assert_eq!(code, 1, "{out}\n{err}");
    let uploaded = std::fs::read_to_string(remote.join("provision.cmd")).unwrap();
    assert_eq!(uploaded, "echo from-windows-script\n");
    let all = format!("{out}{err}");
    assert!(
        all.contains(&format!(
            "error executing \"{r}/provision.cmd\": Process exited with status 126"
        )),
        "{all}"
    );
    assert!(
        provisioner_lines(&out, "terraform_data.win")
            .contains(&"terraform_data.win (remote-exec):   Target Platform: windows"),
        "{out}"
    );
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(remote.join("provision.cmd"))
            .unwrap()
            .permissions(),
    );
    assert_eq!(mode & 0o111, 0, "no chmod for a Windows target");
}

#[test]
fn the_first_hop_goes_through_an_http_or_socks5_proxy() {
    let dir = scratch("ssh-proxy");
    let remote = remote_dir(&dir);
    let r = remote.display();
    let s = sshd();
    let http = ferro_testkit::registry::TunnelProxy::start();
    let socks = ferro_testkit::socks::Socks5Proxy::start(Some(("proxy-user", "proxy-secret")));
    let via = |extra: String| connection(&extra);
    std::fs::write(
        dir.join("main.tf"),
        remote_exec(
            "via_http",
            &via(format!(
                "    proxy_host = \"127.0.0.1\"\n    proxy_port = {}\n",
                http.port
            )),
            &format!("touch {r}/via-http"),
        ) + &remote_exec(
            "via_socks",
            &via(format!(
                "    proxy_scheme = \"socks5\"\n    proxy_host = \"127.0.0.1\"\n    proxy_port = {}\n    proxy_user_name = \"proxy-user\"\n    proxy_user_password = \"proxy-secret\"\n",
                socks.port
            )),
            &format!("touch {r}/via-socks"),
        ) + &remote_exec(
            "refused",
            &via(format!(
                "    proxy_scheme = \"socks5\"\n    proxy_host = \"127.0.0.1\"\n    proxy_port = {}\n    proxy_user_name = \"proxy-user\"\n    proxy_user_password = \"wrong\"\n    timeout = \"1s\"\n",
                socks.port
            )),
            &format!("touch {r}/refused"),
        ),
    )
    .unwrap();
    let (code, out, err) = apply(&dir);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(remote.join("via-http").exists(), "{out}\n{err}");
    assert!(remote.join("via-socks").exists(), "{out}\n{err}");
    assert!(!remote.join("refused").exists());
    let target = format!("127.0.0.1:{}", s.port);
    assert_eq!(http.targets(), vec![target.clone()]);
    assert_eq!(socks.targets(), vec![target]);
    let all = format!("{out}{err}");
    assert!(
        all.contains("username/password authentication failed"),
        "{all}"
    );
    assert!(
        provisioner_lines(&out, "terraform_data.via_socks")
            .contains(&"terraform_data.via_socks (remote-exec):   ProxyUserPassword: true"),
        "{out}"
    );
    assert!(!all.contains("proxy-secret"), "{all}");
}

#[test]
fn winrm_is_refused_at_its_type_before_anything_is_created() {
    let dir = scratch("ssh-winrm");
    std::fs::write(
        dir.join("main.tf"),
        "resource \"terraform_data\" \"w\" {\n  connection {\n    type     = \"winrm\"\n    host     = \"192.0.2.1\"\n    user     = \"Administrator\"\n    password = \"x\"\n  }\n  provisioner \"remote-exec\" {\n    inline = [\"dir\"]\n  }\n}\n",
    )
    .unwrap();
    let _ = ferro(&dir, &["init", "-no-color"]);
    for command in ["validate", "apply"] {
        let mut args = vec!["-no-color", command];
        if command == "apply" {
            args.push("-auto-approve");
        }
        let (code, out, err) = ferro(&dir, &args);
        assert_eq!(code, 1, "{out}\n{err}");
        let all = format!("{out}{err}");
        assert!(all.contains("Error: Unsupported connection type"), "{all}");
        assert!(all.contains("3 |     type     = \"winrm\""), "{all}");
        assert!(all.contains("^^^^^"), "{all}");
        assert!(!all.contains("Creating..."), "{all}");
    }
}
