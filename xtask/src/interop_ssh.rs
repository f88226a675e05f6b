//! `ssh-provisioners`: Terraform 1.0.3 and ferro run the same `file` and `remote-exec`
//! provisioners on `null_resource`s of the real `hashicorp/null` 2.1.2 against a private
//! OpenSSH server (`tools/sshd-test-server.sh`): a content, a directory without and with a
//! trailing slash uploaded, inline commands and a script run, a hop through a bastion host, a
//! password login, a failing command tainting its resource, a destroy-time provisioner.
//! Compared: exit codes,
//! every provisioner line of the output in order (object ids and the random script names
//! normalised), the error's detail, which objects are tainted, and the files each tool's run
//! left on the server.

use crate::interop::{same, workdir, Env, Tool, NULL_HEADER};
use std::path::{Path, PathBuf};
use std::process::Command;

struct Sshd {
    port: String,
    user: String,
    key: String,
    /// The user who logs in with a password, and the password.
    password_user: String,
    password: String,
}

fn sshd(repo: &Path) -> Result<Sshd, String> {
    let out = Command::new("bash")
        .arg(repo.join("tools/sshd-test-server.sh"))
        .output()
        .map_err(|e| format!("cannot run tools/sshd-test-server.sh: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "tools/sshd-test-server.sh failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let get = |k: &str| {
        text.lines()
            .filter_map(|l| l.strip_prefix("export ")?.split_once('='))
            .find(|(n, _)| *n == k)
            .map(|(_, v)| v.to_string())
            .ok_or_else(|| format!("{k} missing from tools/sshd-test-server.sh's output"))
    };
    Ok(Sshd {
        port: get("FERRO_SSHD_PORT")?,
        user: get("FERRO_SSHD_USER")?,
        key: get("FERRO_SSHD_KEY")?,
        password_user: get("FERRO_SSHD_PASSWORD_USER")?,
        password: get("FERRO_SSHD_PASSWORD")?,
    })
}

fn config(s: &Sshd) -> String {
    let conn = |extra: &str| {
        format!(
            "  connection {{\n    host        = \"127.0.0.1\"\n    port        = {}\n    user        = \"{}\"\n    private_key = file(\"{}\")\n    agent       = false\n{extra}  }}\n",
            s.port, s.user, s.key
        )
    };
    format!(
        r#"{NULL_HEADER}
locals {{
  remote = "${{path.cwd}}/remote"
}}

resource "null_resource" "upload" {{
{plain}
  provisioner "file" {{
    content     = "from content\n"
    destination = "${{local.remote}}/content.txt"
  }}
  provisioner "file" {{
    source      = "tree"
    destination = "${{local.remote}}/without-slash"
  }}
  provisioner "file" {{
    source      = "tree/"
    destination = "${{local.remote}}/with-slash"
  }}
  provisioner "remote-exec" {{
    inline = [
      "cd ${{local.remote}} && find . -type f | sort",
      "cat ${{local.remote}}/with-slash/sub/b.txt",
      "echo 'to standard error' >&2",
    ]
  }}
}}

resource "null_resource" "script" {{
  depends_on = [null_resource.upload]
{plain}
  provisioner "remote-exec" {{
    script = "script.sh"
  }}
}}

resource "null_resource" "bastion" {{
  depends_on = [null_resource.script]
{bastion}
  provisioner "remote-exec" {{
    inline = ["echo through the bastion > ${{local.remote}}/bastion.txt", "echo hopped"]
  }}
}}

resource "null_resource" "password" {{
  depends_on = [null_resource.bastion]
  connection {{
    host     = "127.0.0.1"
    port     = {port}
    user     = "{pw_user}"
    password = "{password}"
    agent    = false
  }}
  provisioner "remote-exec" {{
    inline = ["id -un"]
  }}
}}

resource "null_resource" "farewell" {{
  depends_on = [null_resource.password]
{plain}
  provisioner "remote-exec" {{
    when   = destroy
    inline = ["echo goodbye ${{self.id}}"]
  }}
}}

resource "null_resource" "broken" {{
  depends_on = [null_resource.farewell]
{plain}
  provisioner "remote-exec" {{
    inline = ["echo about to fail", "exit 3"]
  }}
}}
"#,
        plain = conn(""),
        bastion = conn("    bastion_host = \"127.0.0.1\"\n"),
        port = s.port,
        pw_user = s.password_user,
        password = s.password,
    )
}

/// The provisioner lines of an apply's output, with ids and script names normalised.
fn provisioner_lines(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| {
            l.contains("Provisioning with")
                || l.contains(" (remote-exec): ")
                || l.contains(" (file): ")
        })
        .map(normalise)
        .collect()
}

/// Digits after "goodbye " and in "/tmp/terraform_N.sh" replaced.
fn normalise(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    for marker in ["goodbye ", "/tmp/terraform_"] {
        if let Some(i) = rest.find(marker) {
            out.push_str(&rest[..i + marker.len()]);
            rest = &rest[i + marker.len()..];
            let digits = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            if digits > 0 {
                out.push('N');
                rest = &rest[digits..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every file under `dir` with its content, by relative path.
fn tree(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap_or(&p).display().to_string();
                out.push((rel, std::fs::read_to_string(&p).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

fn tainted(dir: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(dir.join("terraform.tfstate")).map_err(|e| e.to_string())?;
    let state: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for r in state["resources"].as_array().into_iter().flatten() {
        for i in r["instances"].as_array().into_iter().flatten() {
            if i["status"] == "tainted" {
                out.push(r["name"].as_str().unwrap_or_default().to_string());
            }
        }
    }
    Ok(out)
}

struct Run {
    apply_code: i32,
    apply_lines: Vec<String>,
    error: bool,
    tainted: Vec<String>,
    files: Vec<(String, String)>,
    destroy_code: i32,
    destroy_lines: Vec<String>,
}

fn run(env: &Env, tool: Tool, s: &Sshd) -> Result<Run, String> {
    let dir = workdir(env, "ssh-provisioners", tool, &config(s))?;
    let remote = dir.join("remote");
    for d in ["remote/without-slash", "remote/with-slash", "tree/sub"] {
        std::fs::create_dir_all(dir.join(d)).map_err(|e| e.to_string())?;
    }
    let write = |p: &str, text: &str| std::fs::write(dir.join(p), text).map_err(|e| e.to_string());
    write("tree/a.txt", "alpha\n")?;
    write("tree/sub/b.txt", "beta\n")?;
    write(
        "script.sh",
        "echo running the script\nprintf 'no newline at the end'\n",
    )?;
    env.expect(tool, &dir, &["init", "-no-color", "-input=false"], 0)?;
    let applied = env.run(
        tool,
        &dir,
        &["apply", "-no-color", "-input=false", "-auto-approve"],
    );
    let all = format!("{}{}", applied.stdout, applied.stderr);
    let error = all.contains("remote-exec provisioner error")
        && all.contains("error executing \"/tmp/terraform_")
        && all.contains(".sh\": Process exited with status 3");
    let tainted = tainted(&dir)?;
    let files = tree(&remote);
    let destroyed = env.run(
        tool,
        &dir,
        &["destroy", "-no-color", "-input=false", "-auto-approve"],
    );
    Ok(Run {
        apply_code: applied.code,
        apply_lines: provisioner_lines(&applied.stdout),
        error,
        tainted,
        files,
        destroy_code: destroyed.code,
        destroy_lines: provisioner_lines(&destroyed.stdout),
    })
}

pub(crate) fn ssh_provisioners(env: &Env) -> Result<(), String> {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let s = sshd(&repo)?;
    let tf = run(env, Tool::Terraform, &s)?;
    let fe = run(env, Tool::Ferro, &s)?;
    same("apply exit codes", &tf.apply_code, &fe.apply_code)?;
    same("apply provisioner lines", &tf.apply_lines, &fe.apply_lines)?;
    same("the failing command's error", &tf.error, &fe.error)?;
    if !tf.error {
        return Err("Terraform did not report the failing command".into());
    }
    same("tainted objects", &tf.tainted, &fe.tainted)?;
    same("files left on the server", &tf.files, &fe.files)?;
    same("destroy exit codes", &tf.destroy_code, &fe.destroy_code)?;
    same(
        "destroy provisioner lines",
        &tf.destroy_lines,
        &fe.destroy_lines,
    )?;
    // The comparison holds something: Terraform's run did what the configuration asks.
    for want in [
        "null_resource.bastion (remote-exec): hopped",
        "null_resource.script (remote-exec): no newline at the end",
        "null_resource.upload (remote-exec): ./with-slash/sub/b.txt",
        "null_resource.broken (remote-exec): about to fail",
        "null_resource.password (remote-exec):   Password: true",
    ] {
        if !tf.apply_lines.iter().any(|l| l == want) {
            return Err(format!(
                "Terraform printed no {want:?}: {:?}",
                tf.apply_lines
            ));
        }
    }
    if tf.tainted != ["broken"] || tf.files.len() != 6 {
        return Err(format!(
            "Terraform's run: tainted {:?}, files {:?}",
            tf.tainted, tf.files
        ));
    }
    println!(
        "        {} provisioner lines, {} files on the server, tainted {:?}",
        tf.apply_lines.len() + tf.destroy_lines.len(),
        tf.files.len(),
        tf.tainted
    );
    if !tf.destroy_lines.iter().any(|l| l.contains("goodbye N")) {
        return Err(format!(
            "the destroy-time provisioner did not run: {:?}",
            tf.destroy_lines
        ));
    }
    Ok(())
}

pub const SCENARIOS: &[crate::interop::Scenario] = &[("ssh-provisioners", ssh_provisioners)];
