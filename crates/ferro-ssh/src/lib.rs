//! The SSH communicator of the `remote-exec` and `file` provisioners, as Terraform's
//! `communicator/ssh` behaves: one connection (directly or through a bastion host), commands run
//! with a pseudo-terminal, files and directories copied with the scp protocol (`scp.rs`), and
//! connection attempts retried with Terraform's back-off until a deadline (`connect_with_retry`).
//! The first hop may go through a proxy (`proxy.rs`: HTTP CONNECT or SOCKS5); when the agent
//! is used it is also forwarded to the target, as Terraform forwards it.
//!
//! The API is blocking: each `Client` owns a small single-threaded tokio runtime and blocks on
//! it, so callers on ferro-exec's worker threads never nest runtimes. A stop (`stop_all`, an
//! apply asked to stop) ends every running operation and retry loop.

mod auth;
pub use auth::check;
mod proxy;
pub use proxy::Proxy;
mod scp;

use russh::client::{self, Handle};
use russh::keys::{Certificate, PublicKey, PublicKeyOrCertificate};
use russh::{ChannelMsg, Pty};
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One SSH server to log in to, with the credentials for it.
#[derive(Clone, Debug, Default)]
pub struct Login {
    /// Host name or address (an IPv6 address in brackets).
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: Option<String>,
    /// A private key in OpenSSH or PEM form.
    pub private_key: Option<String>,
    /// An OpenSSH certificate for `private_key`.
    pub certificate: Option<String>,
    /// The host's public key ("ssh-ed25519 AAAA…"); without one any host key is accepted, as
    /// Terraform accepts it.
    pub host_key: Option<String>,
}

impl Login {
    /// `host:port` as Terraform's messages write it.
    pub fn address(&self) -> String {
        format!("{}:{}", self.host, self.port)
    }
}

/// How to reach the target.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub target: Login,
    /// A bastion host to hop through (an SSH `direct-tcpip` channel to the target).
    pub bastion: Option<Login>,
    /// Also offer the identities of the agent at `SSH_AUTH_SOCK`.
    pub agent: bool,
    /// The agent identity (comment or key file) to offer first.
    pub agent_identity: Option<String>,
    /// Run commands with a pseudo-terminal (Terraform does, except on Windows targets).
    pub pty: bool,
    /// A proxy the first hop (the bastion, else the target) is reached through.
    pub proxy: Option<Proxy>,
}

/// An error, worded as Terraform words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn err(text: impl Into<String>) -> Error {
    Error(text.into())
}

/// Bumped by every stop: an operation started before it ends.
static STOP_GENERATION: AtomicU64 = AtomicU64::new(0);

/// End every running SSH operation and connection retry (an apply asked to stop), as Terraform
/// stops its provisioners.
pub fn stop_all() {
    STOP_GENERATION.fetch_add(1, Ordering::SeqCst);
}

fn generation() -> u64 {
    STOP_GENERATION.load(Ordering::SeqCst)
}

/// The client side of one connection.
pub(crate) struct Checker {
    expected: Option<PublicKey>,
    /// The host name a host certificate must name (when it names any).
    host: String,
    /// Agent channels the server opens are joined to the local agent (`SSH_AUTH_SOCK`).
    forward_agent: bool,
}

impl client::Handler for Checker {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        key: &PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        let Some(want) = &self.expected else {
            return Ok(true);
        };
        Ok(match key {
            PublicKeyOrCertificate::PublicKey { key, .. } => want.key_data() == key.key_data(),
            PublicKeyOrCertificate::Certificate(cert) => {
                host_certificate_ok(cert, want, &self.host)
            }
        })
    }

    async fn server_channel_open_agent_forward(
        &mut self,
        channel: russh::Channel<client::Msg>,
        reply: client::ChannelOpenHandle,
        _session: &mut client::Session,
    ) -> Result<(), Self::Error> {
        let socket = std::env::var_os("SSH_AUTH_SOCK").filter(|s| !s.is_empty());
        let (true, Some(socket)) = (self.forward_agent, socket) else {
            // Dropping the reply refuses the channel.
            drop(reply);
            let _ = channel.close().await;
            return Ok(());
        };
        reply.accept().await;
        tokio::spawn(async move {
            match tokio::net::UnixStream::connect(socket).await {
                Ok(mut agent) => {
                    let mut remote = channel.into_stream();
                    let _ = tokio::io::copy_bidirectional(&mut agent, &mut remote).await;
                }
                Err(_) => {
                    let _ = channel.close().await;
                }
            }
        });
        Ok(())
    }
}

/// A connected, authenticated session.
pub struct Client {
    rt: tokio::runtime::Runtime,
    handle: Handle<Checker>,
    /// Kept open while the target is reached through it.
    _bastion: Option<Handle<Checker>>,
    pty: bool,
    /// The stop generation when the client was made.
    generation: u64,
}

fn runtime() -> Result<tokio::runtime::Runtime, Error> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| err(format!("cannot start the SSH client: {e}")))
}

/// Run `f` unless a stop comes first.
async fn unless_stopped<T>(
    generation: u64,
    f: impl Future<Output = Result<T, Error>>,
) -> Result<T, Error> {
    let stopped = async {
        loop {
            tokio::time::sleep(Duration::from_millis(50)).await;
            if STOP_GENERATION.load(Ordering::SeqCst) != generation {
                return;
            }
        }
    };
    tokio::select! {
        r = f => r,
        _ = stopped => Err(err("interrupted")),
    }
}

/// The client's settings. With a `host_key` the host may also prove itself with a host
/// certificate signed by that key, as Terraform's known-hosts line `@cert-authority` allows,
/// so the certificate forms of the host key algorithms are offered first (as Go's client
/// offers them); without one any key is accepted and only plain keys are asked for.
fn config(certificates: bool) -> Arc<client::Config> {
    let mut preferred = russh::Preferred::default();
    if certificates {
        preferred.host_key_certificates = preferred.key.clone();
    }
    Arc::new(client::Config {
        inactivity_timeout: None,
        preferred,
        ..Default::default()
    })
}

/// Whether a host certificate is one Terraform's known-hosts check accepts for `host` with
/// `ca` as the `@cert-authority` key: a host certificate, signed by `ca`, valid now, naming
/// `host` among its principals when it names any.
fn host_certificate_ok(cert: &Certificate, ca: &PublicKey, host: &str) -> bool {
    use russh::keys::ssh_key::certificate::CertType;
    use russh::keys::HashAlg;
    if cert.cert_type() != CertType::Host {
        return false;
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let ca = ca.key_data().fingerprint(HashAlg::Sha256);
    if cert.validate_at(now, [&ca]).is_err() {
        return false;
    }
    let host = host.trim_start_matches('[').trim_end_matches(']');
    cert.valid_principals().is_empty() || cert.valid_principals().iter().any(|p| p == host)
}

fn parse_host_key(text: &Option<String>) -> Result<Option<PublicKey>, Error> {
    match text.as_deref().map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) => {
            // "ssh-ed25519 AAAA… comment" or just the key type and data.
            PublicKey::from_openssh(t)
                .map(Some)
                .map_err(|e| err(format!("failed to parse host_key: {e}")))
        }
    }
}

/// How Go's dialer words a failed connection, which Terraform shows.
fn dial_error(addr: &str, e: &std::io::Error) -> Error {
    let why = match e.kind() {
        std::io::ErrorKind::ConnectionRefused => "connection refused".to_string(),
        std::io::ErrorKind::TimedOut => "i/o timeout".to_string(),
        _ => e.to_string(),
    };
    err(format!("dial tcp {addr}: connect: {why}"))
}

pub(crate) async fn dial(addr: &str) -> Result<tokio::net::TcpStream, Error> {
    match tokio::time::timeout(
        Duration::from_secs(15),
        tokio::net::TcpStream::connect(addr),
    )
    .await
    {
        Ok(Ok(s)) => {
            let _ = s.set_nodelay(true);
            Ok(s)
        }
        Ok(Err(e)) => Err(dial_error(addr, &e)),
        Err(_) => Err(err(format!("dial tcp {addr}: i/o timeout"))),
    }
}

/// A connection to `addr`, through the proxy when there is one.
async fn dial_first_hop(addr: &str, opts: &Options) -> Result<tokio::net::TcpStream, Error> {
    match &opts.proxy {
        None => dial(addr).await,
        Some(p) => p.connect(addr).await,
    }
}

/// An SSH session over `stream`, logged in as `login` says; `Err` words the failure as
/// Terraform does ("SSH authentication failed (user@host:port): …").
async fn open<S>(
    stream: S,
    login: &Login,
    opts: &Options,
    forward_agent: bool,
) -> Result<Handle<Checker>, Error>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let failed = |why: String| {
        err(format!(
            "SSH authentication failed ({}@{}): {why}",
            login.user,
            login.address()
        ))
    };
    let checker = Checker {
        expected: parse_host_key(&login.host_key)?,
        host: login.host.clone(),
        forward_agent,
    };
    let pinned = checker.expected.is_some();
    let mut handle = client::connect_stream(config(pinned), stream, checker)
        .await
        .map_err(|e| match e {
            russh::Error::UnknownKey if pinned => {
                failed("ssh: handshake failed: knownhosts: key mismatch".into())
            }
            e => failed(format!("ssh: handshake failed: {e}")),
        })?;
    auth::authenticate(&mut handle, login, opts)
        .await
        .map_err(failed)?;
    Ok(handle)
}

/// Ask the server to forward agent connections back to us, on a session of its own, as
/// Terraform does; a server that refuses is no error.
async fn request_agent_forwarding(handle: &Handle<Checker>) {
    if let Ok(mut channel) = handle.channel_open_session().await {
        if channel.agent_forward(true).await.is_ok() {
            let answered = async {
                while let Some(msg) = channel.wait().await {
                    if matches!(msg, ChannelMsg::Success | ChannelMsg::Failure) {
                        break;
                    }
                }
            };
            let _ = tokio::time::timeout(Duration::from_secs(10), answered).await;
        }
        let _ = channel.close().await;
    }
}

impl Client {
    /// One attempt to connect and log in.
    pub fn connect(opts: &Options) -> Result<Client, Error> {
        let rt = runtime()?;
        let generation = generation();
        let (handle, bastion) = rt.block_on(unless_stopped(generation, async {
            let (handle, bastion) = match &opts.bastion {
                None => {
                    let stream = dial_first_hop(&opts.target.address(), opts).await?;
                    (open(stream, &opts.target, opts, opts.agent).await?, None)
                }
                Some(b) => {
                    let stream = dial_first_hop(&b.address(), opts)
                        .await
                        .map_err(|e| err(format!("Error connecting to bastion: {e}")))?;
                    let bastion = open(stream, b, opts, false)
                        .await
                        .map_err(|e| err(format!("Error connecting to bastion: {e}")))?;
                    let host = opts
                        .target
                        .host
                        .trim_start_matches('[')
                        .trim_end_matches(']');
                    let channel = bastion
                        .channel_open_direct_tcpip(
                            host,
                            u32::from(opts.target.port),
                            "127.0.0.1",
                            0,
                        )
                        .await
                        .map_err(|e| err(format!("ssh: rejected: connect failed ({e})")))?;
                    let handle =
                        open(channel.into_stream(), &opts.target, opts, opts.agent).await?;
                    (handle, Some(bastion))
                }
            };
            if opts.agent {
                request_agent_forwarding(&handle).await;
            }
            Ok((handle, bastion))
        }))?;
        Ok(Client {
            rt,
            handle,
            _bastion: bastion,
            pty: opts.pty,
            generation,
        })
    }

    /// Run `command`, giving its output (standard output and error, merged by the terminal)
    /// to `output` as it comes. Returns the exit status.
    pub fn run(&self, command: &str, output: &mut dyn FnMut(&[u8])) -> Result<u32, Error> {
        let pty = self.pty;
        self.rt.block_on(unless_stopped(self.generation, async {
            let mut channel = self
                .handle
                .channel_open_session()
                .await
                .map_err(|e| err(format!("ssh: {e}")))?;
            if pty {
                let modes = [
                    (Pty::ECHO, 0),
                    (Pty::TTY_OP_ISPEED, 14400),
                    (Pty::TTY_OP_OSPEED, 14400),
                ];
                channel
                    .request_pty(true, "xterm", 80, 40, 0, 0, &modes)
                    .await
                    .map_err(|e| err(format!("ssh: {e}")))?;
            }
            let line = format!("{}\n", command.trim());
            channel
                .exec(true, line.into_bytes())
                .await
                .map_err(|e| err(format!("ssh: {e}")))?;
            let mut status = None;
            let mut signal = None;
            while let Some(msg) = channel.wait().await {
                match msg {
                    ChannelMsg::Data { data } => output(&data),
                    ChannelMsg::ExtendedData { data, .. } => output(&data),
                    ChannelMsg::ExitStatus { exit_status } => status = Some(exit_status),
                    ChannelMsg::ExitSignal { signal_name, .. } => {
                        signal = Some(format!("{signal_name:?}"))
                    }
                    ChannelMsg::Close => break,
                    _ => {}
                }
            }
            match (status, signal) {
                (Some(s), _) => Ok(s),
                (None, Some(sig)) => Err(err(format!(
                    "Process exited with status 2 from signal {sig}"
                ))),
                (None, None) => Err(err(
                    "wait: remote command exited without exit status or exit signal",
                )),
            }
        }))
    }

    /// Copy `data` to the file `path` (scp, as Terraform's `Upload`).
    pub fn upload(&self, path: &str, data: &[u8]) -> Result<(), Error> {
        self.rt.block_on(unless_stopped(
            self.generation,
            scp::upload_file(&self.handle, path, data),
        ))
    }

    /// Copy the directory `src` to `dst` (scp -r, as Terraform's `UploadDir`: without a
    /// trailing slash `src` itself is created inside `dst`, with one only its contents are
    /// copied).
    pub fn upload_dir(
        &self,
        dst: &str,
        src: &std::path::Path,
        trailing_slash: bool,
    ) -> Result<(), Error> {
        self.rt.block_on(unless_stopped(
            self.generation,
            scp::upload_dir(&self.handle, dst, src, trailing_slash),
        ))
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let h = &self.handle;
        let _ = self.rt.block_on(async {
            tokio::time::timeout(
                Duration::from_secs(2),
                h.disconnect(russh::Disconnect::ByApplication, "", "en"),
            )
            .await
        });
    }
}

/// Terraform's retry delays: none before the first attempt, then 1 s doubling to 20 s.
pub fn retry_delay(previous: Duration) -> Duration {
    if previous.is_zero() {
        Duration::from_secs(1)
    } else {
        (previous * 2).min(Duration::from_secs(20))
    }
}

/// Connect, trying again after each failure (every failure, as Terraform retries them) until
/// `timeout` has passed; `before_attempt` runs before each attempt (remote-exec prints the
/// connection settings there). The error after the deadline is Terraform's
/// "timeout - last error: …".
pub fn connect_with_retry(
    opts: &Options,
    timeout: Duration,
    before_attempt: &mut dyn FnMut(),
) -> Result<Client, Error> {
    let deadline = Instant::now() + timeout;
    let generation = generation();
    let mut delay = Duration::ZERO;
    let mut last: Option<Error> = None;
    let last_text = |last: &Option<Error>| {
        last.as_ref()
            .map(|e| e.0.clone())
            .unwrap_or_else(|| "<nil>".into())
    };
    loop {
        if STOP_GENERATION.load(Ordering::SeqCst) != generation {
            return Err(err(format!(
                "interrupted - last error: {}",
                last_text(&last)
            )));
        }
        before_attempt();
        let remaining = deadline.saturating_duration_since(Instant::now());
        match connect_within(opts, remaining) {
            Ok(c) => return Ok(c),
            Err(e) => last = Some(e),
        }
        // Wait before the next attempt, but not past the deadline or a stop.
        delay = retry_delay(delay);
        let next = Instant::now() + delay;
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(err(format!("timeout - last error: {}", last_text(&last))));
            }
            if STOP_GENERATION.load(Ordering::SeqCst) != generation {
                return Err(err(format!(
                    "interrupted - last error: {}",
                    last_text(&last)
                )));
            }
            if now >= next {
                break;
            }
            std::thread::sleep(Duration::from_millis(50).min(next - now));
        }
    }
}

/// One attempt, given up at the deadline.
fn connect_within(opts: &Options, remaining: Duration) -> Result<Client, Error> {
    if remaining.is_zero() {
        return Err(err("timeout"));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let opts = opts.clone();
    std::thread::spawn(move || {
        let _ = tx.send(Client::connect(&opts));
    });
    match rx.recv_timeout(remaining) {
        Ok(r) => r,
        Err(_) => Err(err("i/o timeout")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_as_terraform_does() {
        let mut d = Duration::ZERO;
        let mut seen = Vec::new();
        for _ in 0..7 {
            d = retry_delay(d);
            seen.push(d.as_secs());
        }
        assert_eq!(seen, [1, 2, 4, 8, 16, 20, 20]);
    }

    #[test]
    fn dial_errors_read_as_go_writes_them() {
        let refused = std::io::Error::from(std::io::ErrorKind::ConnectionRefused);
        assert_eq!(
            dial_error("127.0.0.1:1", &refused).0,
            "dial tcp 127.0.0.1:1: connect: connection refused"
        );
    }
}
