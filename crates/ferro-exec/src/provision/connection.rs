//! The connection settings of a `file` or `remote-exec` provisioner: the resource's
//! `connection` block with the provisioner's own block over it (argument by argument, as
//! Terraform merges them), evaluated with `self` bound to the object, then read as Terraform's
//! SSH communicator reads them (defaults, bastion settings inherited from the target's).

use ferro_db::SourceFile;
use ferro_diag::Diagnostic;
use ferro_hir::{HirAttr, Provisioner, ResourceDecl};
use ferro_runtime::scope::{InstanceCtx, ModuleEval};
use ferro_value::{Type, Value};
use std::time::Duration;

/// Terraform's defaults.
const DEFAULT_USER: &str = "root";
const DEFAULT_PORT: u16 = 22;
const DEFAULT_UNIX_SCRIPT_PATH: &str = "/tmp/terraform_%RAND%.sh";
const DEFAULT_WINDOWS_SCRIPT_PATH: &str = "C:/windows/temp/terraform_%RAND%.cmd";
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(300);

/// The settings, read.
pub(crate) struct Settings {
    pub ssh: ferro_ssh::Options,
    pub timeout: Duration,
    pub script_path: String,
    pub windows: bool,
}

/// The arguments of the merged connection body, by name (the provisioner's over the
/// resource's); None when neither block exists.
fn merged<'a>(decl: &'a ResourceDecl, p: &'a Provisioner) -> Option<Vec<&'a HirAttr>> {
    if decl.connection.is_none() && p.connection.is_none() {
        return None;
    }
    let own: Vec<&HirAttr> = p.connection.iter().flat_map(|b| &b.attrs).collect();
    let mut out: Vec<&HirAttr> = decl
        .connection
        .iter()
        .flat_map(|b| &b.attrs)
        .filter(|a| !own.iter().any(|o| o.name == a.name))
        .collect();
    out.extend(own);
    Some(out)
}

/// The values of the connection arguments that are set (not null), unmarked: a sensitive
/// connection setting does not hide the provisioner's output, as in Terraform.
pub(crate) type Values = Vec<(String, Value)>;

/// Evaluate the connection settings; `Ok(None)` when the provisioner has none.
pub(crate) fn evaluate(
    m: &ModuleEval<'_>,
    file: SourceFile,
    decl: &ResourceDecl,
    p: &Provisioner,
    inst: &InstanceCtx,
) -> Result<Option<Values>, Diagnostic> {
    let Some(attrs) = merged(decl, p) else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for a in attrs {
        let (v, ds) = m.eval(file, a.expr, inst);
        if let Some(d) = ds.into_iter().find(Diagnostic::is_error) {
            return Err(d);
        }
        let (v, _) = v.deep_unmark();
        if v.is_null() {
            continue;
        }
        let want = match a.name.as_str() {
            "port" | "bastion_port" | "proxy_port" => Type::Number,
            "agent" | "https" | "insecure" | "use_ntlm" => Type::Bool,
            _ => Type::String,
        };
        let what = match want {
            Type::Number => "a number",
            Type::Bool => "a bool",
            _ => "a string",
        };
        let converted = ferro_value::convert::convert(&v, &want)
            .ok()
            .filter(Value::is_wholly_known)
            .ok_or_else(|| {
                Diagnostic::error(
                    "invalid-connection-argument",
                    "Incorrect attribute value type",
                )
                .with_detail(format!(
                    "Inappropriate value for attribute {:?}: {what} is required.",
                    a.name
                ))
                .with_span(m.hir(file).at(a.span))
            })?;
        out.push((a.name.clone(), converted));
    }
    Ok(Some(out))
}

fn get<'a>(values: &'a Values, name: &str) -> Option<&'a Value> {
    values.iter().find(|(n, _)| n == name).map(|(_, v)| v)
}

fn text(values: &Values, name: &str) -> Option<String> {
    get(values, name)
        .and_then(Value::as_str)
        .map(str::to_string)
        .filter(|s| !s.is_empty())
}

fn port_of(values: &Values, name: &str) -> Result<Option<u16>, String> {
    let Some(v) = get(values, name) else {
        return Ok(None);
    };
    let n = v.as_number().and_then(|n| n.to_i64());
    match n {
        Some(0) => Ok(None),
        Some(n) => u16::try_from(n)
            .map(Some)
            .map_err(|_| format!("number {n} is out of range for a {name} (0 to 65535)")),
        None => Err(format!("a whole number is required for {name}")),
    }
}

/// An IPv6 address in brackets, as Terraform writes it for a connection.
fn ip_format(host: String) -> String {
    match host.parse::<std::net::IpAddr>() {
        Ok(std::net::IpAddr::V6(_)) => format!("[{host}]"),
        _ => host,
    }
}

/// Read the settings as Terraform's SSH communicator does; the error is the text Terraform
/// shows after "<kind> provisioner error".
pub(crate) fn settings(values: &Values) -> Result<Settings, String> {
    match text(values, "type").as_deref() {
        None | Some("ssh") => {}
        Some("winrm") => {
            return Err("connection type 'winrm' not supported: ferro connects to machines over SSH only (see docs/compatibility.md)".into())
        }
        Some(other) => return Err(format!("connection type '{other}' not supported")),
    }
    let agent = match get(values, "agent") {
        Some(v) => v.as_bool().unwrap_or(false),
        // Without an `agent` argument the agent is used when there is one.
        None => std::env::var_os("SSH_AUTH_SOCK").is_some_and(|s| !s.is_empty()),
    };
    let user = text(values, "user").unwrap_or_else(|| DEFAULT_USER.into());
    let host = text(values, "host").ok_or("host for provisioner cannot be empty")?;
    let port = port_of(values, "port")?.unwrap_or(DEFAULT_PORT);
    let windows = match text(values, "target_platform").as_deref() {
        None | Some("unix") => false,
        Some("windows") => true,
        Some(_) => {
            return Err("target_platform for provisioner has to be either unix or windows".into())
        }
    };
    let script_path = text(values, "script_path").unwrap_or_else(|| {
        if windows {
            DEFAULT_WINDOWS_SCRIPT_PATH
        } else {
            DEFAULT_UNIX_SCRIPT_PATH
        }
        .into()
    });
    // An invalid duration is the default, as in Terraform.
    let timeout = text(values, "timeout")
        .and_then(|t| go_duration(&t))
        .unwrap_or(DEFAULT_TIMEOUT);
    let target = ferro_ssh::Login {
        host: ip_format(host),
        port,
        user,
        password: text(values, "password"),
        private_key: text(values, "private_key"),
        certificate: text(values, "certificate"),
        host_key: text(values, "host_key"),
    };
    // Every bastion setting not given is the target's.
    let bastion = match text(values, "bastion_host") {
        None => None,
        Some(h) => Some(ferro_ssh::Login {
            host: ip_format(h),
            port: port_of(values, "bastion_port")?.unwrap_or(target.port),
            user: text(values, "bastion_user").unwrap_or_else(|| target.user.clone()),
            password: text(values, "bastion_password").or_else(|| target.password.clone()),
            private_key: text(values, "bastion_private_key").or_else(|| target.private_key.clone()),
            certificate: text(values, "bastion_certificate").or_else(|| target.certificate.clone()),
            host_key: text(values, "bastion_host_key"),
        }),
    };
    // Terraform's proxy: the scheme defaults to http; the port is required with a host.
    let proxy = match text(values, "proxy_host") {
        None => None,
        Some(host) => {
            let scheme = text(values, "proxy_scheme").unwrap_or_else(|| "http".into());
            if !matches!(scheme.as_str(), "http" | "https" | "socks5") {
                return Err(format!(
                    "proxy_scheme for provisioner must be http, https or socks5, not {scheme:?}"
                ));
            }
            Some(ferro_ssh::Proxy {
                scheme,
                host,
                port: port_of(values, "proxy_port")?
                    .ok_or("proxy_port for provisioner is required with proxy_host")?,
                user: text(values, "proxy_user_name"),
                password: text(values, "proxy_user_password"),
            })
        }
    };
    Ok(Settings {
        ssh: ferro_ssh::Options {
            target,
            bastion,
            agent,
            agent_identity: text(values, "agent_identity"),
            pty: !windows,
            proxy,
        },
        timeout,
        script_path,
        windows,
    })
}

/// The lines remote-exec prints before each connection attempt (Terraform's wording).
pub(crate) fn connecting_message(s: &Settings) -> Vec<String> {
    let t = &s.ssh.target;
    let mut out = format!(
        "Connecting to remote host via SSH...\n  Host: {}\n  User: {}\n  Password: {}\n  Private key: {}\n  Certificate: {}\n  SSH Agent: {}\n  Checking Host Key: {}\n  Target Platform: {}\n",
        t.host,
        t.user,
        t.password.is_some(),
        t.private_key.is_some(),
        t.certificate.is_some(),
        s.ssh.agent,
        t.host_key.is_some(),
        if s.windows { "windows" } else { "unix" },
    );
    let mut msgs = Vec::new();
    if let Some(b) = &s.ssh.bastion {
        msgs.push(std::mem::take(&mut out));
        out = format!(
            "Using configured bastion host...\n  Host: {}\n  User: {}\n  Password: {}\n  Private key: {}\n  Certificate: {}\n  SSH Agent: {}\n  Checking Host Key: {}",
            b.host,
            b.user,
            b.password.is_some(),
            b.private_key.is_some(),
            b.certificate.is_some(),
            s.ssh.agent,
            b.host_key.is_some(),
        );
    }
    if let Some(p) = &s.ssh.proxy {
        msgs.push(std::mem::take(&mut out));
        out = format!(
            "Using configured proxy host...\n  ProxyHost: {}\n  ProxyPort: {}\n  ProxyUserName: {}\n  ProxyUserPassword: {}",
            p.host,
            p.port,
            p.user.as_deref().unwrap_or_default(),
            p.password.is_some(),
        );
    }
    msgs.push(out);
    msgs
}

/// What remote-exec does with one script, as Terraform's SSH communicator does it: the bytes
/// uploaded to `path` (a `#!/bin/sh` line added on Unix targets when the script has none), and
/// the commands run in turn (`chmod 0777` first, on Unix targets only; then the path itself,
/// which on Windows targets the remote shell runs as a `.cmd` file).
pub(crate) fn script_steps(windows: bool, path: &str, script: &[u8]) -> (Vec<u8>, Vec<String>) {
    let mut body = Vec::new();
    if !script.starts_with(b"#!") && !windows {
        body.extend_from_slice(b"#!/bin/sh\n");
    }
    body.extend_from_slice(script);
    let mut commands = Vec::new();
    if !windows {
        commands.push(format!("chmod 0777 {path}"));
    }
    commands.push(path.to_string());
    (body, commands)
}

/// A duration as Go's `time.ParseDuration` reads it ("30s", "1m30s", "1.5h", "500ms").
pub(crate) fn go_duration(text: &str) -> Option<Duration> {
    let mut rest = text.strip_prefix('+').unwrap_or(text);
    if rest == "0" {
        return Some(Duration::ZERO);
    }
    if rest.is_empty() || rest.starts_with('-') {
        return None;
    }
    let mut total = 0f64;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (num, tail) = rest.split_at(num_len);
        let value: f64 = num.parse().ok()?;
        let unit_len = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_len);
        let scale = match unit {
            "ns" => 1e-9,
            "us" | "µs" | "μs" => 1e-6,
            "ms" => 1e-3,
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            _ => return None,
        };
        total += value * scale;
        rest = tail;
    }
    Some(Duration::from_secs_f64(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_go_reads_them() {
        assert_eq!(go_duration("30s"), Some(Duration::from_secs(30)));
        assert_eq!(go_duration("1m30s"), Some(Duration::from_secs(90)));
        assert_eq!(go_duration("1.5h"), Some(Duration::from_secs(5400)));
        assert_eq!(go_duration("500ms"), Some(Duration::from_millis(500)));
        assert_eq!(go_duration("0"), Some(Duration::ZERO));
        assert_eq!(go_duration("5"), None);
        assert_eq!(go_duration("soon"), None);
        assert_eq!(go_duration(""), None);
    }

    fn values(pairs: &[(&str, Value)]) -> Values {
        pairs
            .iter()
            .map(|(n, v)| (n.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn defaults_and_bastion_inheritance_follow_terraform() {
        let s = settings(&values(&[
            ("host", Value::string("10.0.0.5")),
            ("private_key", Value::string("KEY")),
            ("bastion_host", Value::string("::1")),
            ("agent", Value::bool(false)),
            ("timeout", Value::string("nonsense")),
        ]))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.ssh.target.user, "root");
        assert_eq!(s.ssh.target.port, 22);
        assert_eq!(s.script_path, "/tmp/terraform_%RAND%.sh");
        assert_eq!(s.timeout, Duration::from_secs(300));
        let b = s.ssh.bastion.as_ref().map(|b| {
            (
                b.host.as_str(),
                b.port,
                b.user.as_str(),
                b.private_key.as_deref(),
            )
        });
        assert_eq!(b, Some(("[::1]", 22, "root", Some("KEY"))));
        assert_eq!(
            settings(&values(&[("port", Value::number(22.into()))]))
                .err()
                .as_deref(),
            Some("host for provisioner cannot be empty")
        );
        assert!(!s.windows && s.ssh.pty && s.ssh.proxy.is_none());
        assert_eq!(
            settings(&values(&[
                ("host", Value::string("h")),
                ("target_platform", Value::string("plan9"))
            ]))
            .err()
            .as_deref(),
            Some("target_platform for provisioner has to be either unix or windows")
        );
    }

    #[test]
    fn windows_targets_get_terraform_script_path_and_commands() {
        let s = settings(&values(&[
            ("host", Value::string("win.example")),
            ("target_platform", Value::string("windows")),
            ("agent", Value::bool(false)),
        ]))
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(s.windows);
        assert_eq!(s.script_path, "C:/windows/temp/terraform_%RAND%.cmd");
        // No pseudo-terminal for Windows targets.
        assert!(!s.ssh.pty);
        assert!(connecting_message(&s)[0].contains("Target Platform: windows"));
        let (body, commands) =
            script_steps(true, "C:/windows/temp/terraform_1.cmd", b"echo one\r\n");
        assert_eq!(body, b"echo one\r\n");
        assert_eq!(commands, ["C:/windows/temp/terraform_1.cmd"]);
        let (body, commands) = script_steps(false, "/tmp/terraform_1.sh", b"echo one\n");
        assert_eq!(body, b"#!/bin/sh\necho one\n");
        assert_eq!(
            commands,
            ["chmod 0777 /tmp/terraform_1.sh", "/tmp/terraform_1.sh"]
        );
        let (body, _) = script_steps(false, "/tmp/t.sh", b"#!/bin/bash\necho\n");
        assert!(body.starts_with(b"#!/bin/bash"));
    }

    #[test]
    fn proxies_follow_terraform_arguments() {
        let base = || {
            vec![
                ("host", Value::string("10.0.0.5")),
                ("agent", Value::bool(false)),
                ("proxy_host", Value::string("127.0.0.1")),
                ("proxy_port", Value::number(3128.into())),
            ]
        };
        let s = settings(&values(&base())).unwrap_or_else(|e| panic!("{e}"));
        let p = s.ssh.proxy.clone().unwrap();
        assert_eq!((p.scheme.as_str(), p.port), ("http", 3128));
        let mut with_user = base();
        with_user.push(("proxy_scheme", Value::string("socks5")));
        with_user.push(("proxy_user_name", Value::string("u")));
        with_user.push(("proxy_user_password", Value::string("hunter2")));
        let s = settings(&values(&with_user)).unwrap_or_else(|e| panic!("{e}"));
        let shown = connecting_message(&s).join("\n");
        assert!(shown.contains("ProxyHost: 127.0.0.1"), "{shown}");
        assert!(shown.contains("ProxyUserPassword: true") && !shown.contains("hunter2"));
        let mut bad = base();
        bad.push(("proxy_scheme", Value::string("ftp")));
        assert!(settings(&values(&bad)).is_err());
        let no_port = vec![
            ("host", Value::string("h")),
            ("proxy_host", Value::string("p")),
        ];
        assert!(settings(&values(&no_port)).is_err());
    }
}
