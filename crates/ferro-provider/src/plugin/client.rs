//! The go-plugin client: start a provider executable, read its handshake, connect to it over a
//! unix socket or TCP (AutoMTLS or plaintext), make unary gRPC calls on behalf of synchronous
//! callers, capture its logs, and shut it down (PROTOCOL_FACTS §1).
//!
//! Each client owns a small tokio runtime (one worker thread). Synchronous callers on any thread
//! hand their call to that runtime and wait on a channel, so concurrent calls from many threads
//! — even threads that are themselves inside another runtime — neither nest runtimes nor
//! deadlock; the gRPC channel multiplexes them over one HTTP/2 connection.

use super::handshake::{parse_handshake, plugin_env, Handshake, Network, SUPPORTED_PROTOCOLS};
use super::proto::goplugin::{Empty, StdioData};
use super::proto::{CONTROLLER_SHUTDOWN, STDIO_STREAM};
use super::tls;
use ferro_addrs::Provider as ProviderAddr;
use std::collections::VecDeque;
use std::future::Future;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::pin::Pin;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tonic::transport::Channel;

/// How many of the plugin's last log lines are kept for error messages.
const LOG_TAIL_LINES: usize = 25;
/// How long to wait for a plugin to exit on its own after Shutdown (go-plugin: 2 s).
const EXIT_GRACE: Duration = Duration::from_secs(2);

/// Knobs for starting a plugin.
#[derive(Debug, Clone)]
pub struct PluginOptions {
    /// Use AutoMTLS (Terraform's default; off when `TF_DISABLE_PLUGIN_TLS` is set).
    pub auto_mtls: bool,
    /// How long to wait for the handshake line (go-plugin's default: one minute).
    pub start_timeout: Duration,
    /// Mirror the plugin's log lines to our stderr (when `TF_LOG` is set).
    pub echo_logs: bool,
}

impl Default for PluginOptions {
    fn default() -> Self {
        let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
        PluginOptions {
            auto_mtls: !set("TF_DISABLE_PLUGIN_TLS"),
            start_timeout: Duration::from_secs(60),
            echo_logs: set("TF_LOG"),
        }
    }
}

/// The plugin's recent stderr lines (and whether the stream has ended).
struct LogTail {
    lines: Mutex<VecDeque<String>>,
    ended: Mutex<bool>,
    ended_cv: Condvar,
    echo: bool,
    prefix: String,
}

impl LogTail {
    fn push(&self, line: &str) {
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            return;
        }
        if self.echo {
            eprintln!("{}: {line}", self.prefix);
        }
        let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        if lines.len() == LOG_TAIL_LINES {
            lines.pop_front();
        }
        lines.push_back(line.to_string());
    }

    fn end(&self) {
        *self.ended.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.ended_cv.notify_all();
    }

    fn wait_ended(&self, timeout: Duration) {
        let guard = self.ended.lock().unwrap_or_else(|e| e.into_inner());
        let _ = self
            .ended_cv
            .wait_timeout_while(guard, timeout, |ended| !*ended);
    }

    /// "\n\nThe plugin's last log lines were:\n  …" or nothing.
    fn describe(&self) -> String {
        let lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        if lines.is_empty() {
            return String::new();
        }
        let mut out = String::from("\n\nThe plugin's last log lines were:");
        for l in lines.iter() {
            out.push_str("\n  ");
            out.push_str(l);
        }
        out
    }
}

pub(super) struct Process {
    child: Child,
    /// Kept open while the plugin runs (like Terraform's inherited stdin); closing it tells a
    /// plugin that watches stdin that its host is gone.
    stdin: Option<ChildStdin>,
    exited: Option<ExitStatus>,
    /// Kills the plugin's process group if ferro ends without closing it (`crate::process`).
    _guard: crate::process::Guard,
}

struct Conn {
    channel: Channel,
    runtime: tokio::runtime::Runtime,
}

/// Spawn the plugin, retrying while the kernel says its file is busy.
///
/// A plugin just written (installed from an archive, or unpacked by a test)
/// can still be open for writing in a child that another thread forked in the
/// meantime, until that child execs; `execve` then fails with ETXTBSY. The
/// window is short, so a few retries with a growing pause get past it.
fn spawn_retrying_busy(cmd: &mut Command) -> std::io::Result<std::process::Child> {
    let mut attempt = 0u64;
    loop {
        match crate::process::own_group(cmd).spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && attempt < 20 => {
                attempt += 1;
                std::thread::sleep(Duration::from_millis(10 * attempt));
            }
            other => return other,
        }
    }
}

/// A running plugin process and the gRPC connection to it.
pub struct PluginClient {
    addr: ProviderAddr,
    protocol_version: u32,
    conn: RwLock<Option<Conn>>,
    process: Arc<Mutex<Process>>,
    logs: Arc<LogTail>,
}

impl PluginClient {
    /// Start `executable` as the plugin for provider `addr` and connect to it.
    pub fn start(
        addr: &ProviderAddr,
        executable: &Path,
        opts: &PluginOptions,
    ) -> Result<PluginClient, String> {
        let exe_name = executable
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let fail = |msg: String| {
            format!(
                "Failed to start provider {addr} ({}): {msg}",
                executable.display()
            )
        };
        let cert = if opts.auto_mtls {
            Some(tls::generate_client_cert().map_err(fail)?)
        } else {
            None
        };
        let mut cmd = Command::new(executable);
        cmd.envs(plugin_env(cert.as_ref().map(|c| c.pem.as_str())))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = spawn_retrying_busy(&mut cmd)
            .map_err(|e| fail(format!("cannot execute the plugin: {e}")))?;
        let guard = match crate::process::Guard::watch(child.id(), crate::process::Kind::Plugin) {
            Ok(g) => g,
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(fail(format!("cannot start the plugin's guardian: {e}")));
            }
        };
        let logs = Arc::new(LogTail {
            lines: Mutex::new(VecDeque::new()),
            ended: Mutex::new(false),
            ended_cv: Condvar::new(),
            echo: opts.echo_logs,
            prefix: format!("[plugin] provider.{exe_name}"),
        });
        let stdin = child.stdin.take();
        if let Some(stderr) = child.stderr.take() {
            let logs = logs.clone();
            std::thread::Builder::new()
                .name("ferro-plugin-stderr".into())
                .spawn(move || {
                    for_each_line(stderr, |l| logs.push(l));
                    logs.end();
                })
                .map_err(|e| fail(format!("cannot start a log reader thread: {e}")))?;
        } else {
            logs.end();
        }
        let (line_tx, line_rx) = std::sync::mpsc::channel::<String>();
        if let Some(stdout) = child.stdout.take() {
            let logs = logs.clone();
            std::thread::Builder::new()
                .name("ferro-plugin-stdout".into())
                .spawn(move || {
                    let mut first = Some(line_tx);
                    // The first line is the handshake; the rest is drained (and logged).
                    for_each_line(stdout, |l| match first.take() {
                        Some(tx) => {
                            let _ = tx.send(l.to_string());
                        }
                        None => logs.push(l),
                    });
                })
                .map_err(|e| fail(format!("cannot start an output reader thread: {e}")))?;
        }
        // Known to the reaper from the start: an interrupt during the handshake kills it too.
        let process = Arc::new(Mutex::new(Process {
            child,
            stdin,
            exited: None,
            _guard: guard,
        }));
        super::reaper::register(&process);

        let line = match line_rx.recv_timeout(opts.start_timeout) {
            Ok(line) => line,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                kill(&mut locked(&process));
                return Err(fail(format!(
                    "timeout while waiting for the plugin to start (no handshake within {} s){}",
                    opts.start_timeout.as_secs(),
                    logs.describe()
                )));
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                let status = wait_exit(&mut locked(&process), EXIT_GRACE);
                logs.wait_ended(Duration::from_secs(1));
                let how = match status {
                    Some(s) => format!("the plugin exited ({s}) before completing the handshake"),
                    None => {
                        "the plugin closed its output before completing the handshake".to_string()
                    }
                };
                kill(&mut locked(&process));
                return Err(fail(format!("{how}{}", logs.describe())));
            }
        };
        let handshake = match parse_handshake(&line, &SUPPORTED_PROTOCOLS) {
            Ok(h) => h,
            Err(e) => {
                kill(&mut locked(&process));
                logs.wait_ended(Duration::from_millis(200));
                return Err(fail(format!("{e}{}", logs.describe())));
            }
        };
        let runtime = match tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("ferro-plugin")
            .enable_io()
            .enable_time()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => {
                kill(&mut locked(&process));
                return Err(fail(format!("cannot start the plugin runtime: {e}")));
            }
        };
        let tls_config = match (&cert, &handshake.server_cert) {
            (Some(c), Some(server)) => match tls::client_config(c, server.clone()) {
                Ok(cfg) => Some(Arc::new(cfg)),
                Err(e) => {
                    kill(&mut locked(&process));
                    return Err(fail(e));
                }
            },
            (None, Some(_)) => {
                kill(&mut locked(&process));
                return Err(fail(
                    "the plugin offered TLS, but plugin TLS is disabled (TF_DISABLE_PLUGIN_TLS)"
                        .into(),
                ));
            }
            // A plugin that ignored our certificate serves plaintext.
            (_, None) => None,
        };
        let connector = Connector {
            network: handshake.network.clone(),
            address: handshake.address.clone(),
            tls: tls_config,
        };
        let connected = run_on(runtime.handle(), async move {
            tonic::transport::Endpoint::from_static("http://localhost")
                .connect_with_connector(connector)
                .await
        });
        let channel = match connected {
            Some(Ok(ch)) => ch,
            other => {
                let why = match other {
                    Some(Err(e)) => describe_transport_error(&e),
                    _ => "the plugin runtime stopped".to_string(),
                };
                kill(&mut locked(&process));
                runtime.shutdown_background();
                logs.wait_ended(Duration::from_millis(200));
                return Err(fail(format!(
                    "cannot connect to the plugin at {}: {why}{}",
                    handshake_target(&handshake),
                    logs.describe()
                )));
            }
        };
        start_stdio_mirror(runtime.handle(), channel.clone(), logs.clone());
        Ok(PluginClient {
            addr: addr.clone(),
            protocol_version: handshake.protocol_version,
            conn: RwLock::new(Some(Conn { channel, runtime })),
            process,
            logs,
        })
    }

    /// The negotiated plugin protocol (5 or 6).
    pub fn protocol_version(&self) -> u32 {
        self.protocol_version
    }

    pub fn provider_addr(&self) -> &ProviderAddr {
        &self.addr
    }

    /// One unary gRPC call, `path` like `/tfplugin5.Provider/GetSchema`. Safe to call from any
    /// number of threads at once.
    pub fn unary<Req, Resp>(&self, path: &str, req: Req) -> Result<Resp, tonic::Status>
    where
        Req: prost::Message + Send + 'static,
        Resp: prost::Message + Default + Send + 'static,
    {
        let (channel, handle) = {
            let conn = self.conn.read().unwrap_or_else(|e| e.into_inner());
            match conn.as_ref() {
                Some(c) => (c.channel.clone(), c.runtime.handle().clone()),
                None => {
                    return Err(tonic::Status::unavailable(format!(
                        "the plugin for provider {} has been shut down",
                        self.addr
                    )))
                }
            }
        };
        let path = path.to_string();
        run_on(&handle, unary_call(channel, path, req)).unwrap_or_else(|| {
            Err(tonic::Status::cancelled(
                "the plugin client was shut down during the call",
            ))
        })
    }

    /// If the plugin process has exited, say so (with its last log lines).
    pub fn crash_report(&self) -> Option<String> {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            let status = {
                let mut p = self.process.lock().unwrap_or_else(|e| e.into_inner());
                if p.exited.is_none() {
                    p.exited = p.child.try_wait().ok().flatten();
                }
                p.exited
            };
            if let Some(s) = status {
                self.logs.wait_ended(Duration::from_millis(500));
                return Some(format!(
                    "The plugin process for provider {} exited unexpectedly ({s}).{}",
                    self.addr,
                    self.logs.describe()
                ));
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
    }

    /// Whether the plugin process has ended (crashed, or been killed), without waiting.
    pub fn has_exited(&self) -> bool {
        let mut p = self.process.lock().unwrap_or_else(|e| e.into_inner());
        if p.exited.is_none() {
            p.exited = p.child.try_wait().ok().flatten();
        }
        p.exited.is_some()
    }

    /// The plugin's recent log lines, formatted for an error message.
    pub fn recent_logs(&self) -> String {
        self.logs.describe()
    }

    /// Shut the plugin down as go-plugin does: ask its controller to shut down, close the
    /// connection, give the process two seconds to exit, then kill it. Idempotent.
    pub fn close(&self) {
        let conn = self.conn.write().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(conn) = conn {
            let channel = conn.channel.clone();
            let _ = run_on(conn.runtime.handle(), async move {
                tokio::time::timeout(
                    EXIT_GRACE,
                    unary_call::<Empty, Empty>(channel, CONTROLLER_SHUTDOWN.to_string(), Empty {}),
                )
                .await
            });
            drop(conn.channel);
            conn.runtime.shutdown_background();
        }
        let mut p = self.process.lock().unwrap_or_else(|e| e.into_inner());
        drop(p.stdin.take());
        if p.exited.is_none() {
            p.exited = wait_exit(&mut p, EXIT_GRACE);
            if p.exited.is_none() {
                kill(&mut p);
            }
        }
    }
}

impl Drop for PluginClient {
    fn drop(&mut self) {
        self.close();
    }
}

async fn unary_call<Req, Resp>(
    channel: Channel,
    path: String,
    req: Req,
) -> Result<Resp, tonic::Status>
where
    Req: prost::Message + Send + 'static,
    Resp: prost::Message + Default + Send + 'static,
{
    let mut grpc = tonic::client::Grpc::new(channel)
        .max_decoding_message_size(usize::MAX)
        .max_encoding_message_size(usize::MAX);
    grpc.ready().await.map_err(|e| {
        tonic::Status::unavailable(format!("the plugin connection is not ready: {e}"))
    })?;
    let path = http::uri::PathAndQuery::try_from(path)
        .map_err(|e| tonic::Status::internal(format!("invalid method path: {e}")))?;
    let codec = tonic_prost::ProstCodec::<Req, Resp>::default();
    grpc.unary(tonic::Request::new(req), path, codec)
        .await
        .map(tonic::Response::into_inner)
}

/// Mirror go-plugin's GRPCStdio stream (plugins built with go-plugin ≥ 1.1 send what they write
/// to stdout/stderr after the handshake there). Older plugins lack the service; that is fine.
fn start_stdio_mirror(handle: &tokio::runtime::Handle, channel: Channel, logs: Arc<LogTail>) {
    handle.spawn(async move {
        let mut grpc = tonic::client::Grpc::new(channel).max_decoding_message_size(usize::MAX);
        if grpc.ready().await.is_err() {
            return;
        }
        let Ok(path) = http::uri::PathAndQuery::try_from(STDIO_STREAM) else {
            return;
        };
        let codec = tonic_prost::ProstCodec::<Empty, StdioData>::default();
        let Ok(resp) = grpc
            .server_streaming(tonic::Request::new(Empty {}), path, codec)
            .await
        else {
            return;
        };
        let mut stream = resp.into_inner();
        while let Ok(Some(msg)) = stream.message().await {
            for line in String::from_utf8_lossy(&msg.data).lines() {
                logs.push(line);
            }
        }
    });
}

/// Run `fut` on the plugin runtime and wait for it on this thread. `None` if the runtime shut
/// down before the future finished.
fn run_on<F>(handle: &tokio::runtime::Handle, fut: F) -> Option<F::Output>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    handle.spawn(async move {
        let _ = tx.send(fut.await);
    });
    rx.recv().ok()
}

fn for_each_line(r: impl Read, mut f: impl FnMut(&str)) {
    let mut r = BufReader::new(r);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match r.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => f(&String::from_utf8_lossy(&buf)),
        }
    }
}

fn wait_exit(p: &mut Process, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        match p.child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => return None,
        }
    }
}

pub(super) fn kill(p: &mut Process) {
    drop(p.stdin.take());
    if p.exited.is_none() {
        let _ = p.child.kill();
        p.exited = p.child.wait().ok();
    }
}

fn handshake_target(h: &Handshake) -> String {
    match h.network {
        Network::Unix => format!("unix:{}", h.address),
        Network::Tcp => format!("tcp:{}", h.address),
    }
}

fn describe_transport_error(e: &tonic::transport::Error) -> String {
    let mut msg = e.to_string();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        msg.push_str(": ");
        msg.push_str(&s.to_string());
        src = s.source();
    }
    msg
}

/// A byte stream to the plugin: unix socket or TCP, with or without TLS.
trait PluginIo: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin {}
impl<T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin> PluginIo for T {}

/// Dials the address from the handshake (the URI tonic passes is meaningless, as in go-plugin).
#[derive(Clone)]
struct Connector {
    network: Network,
    address: String,
    tls: Option<Arc<rustls::ClientConfig>>,
}

type IoFuture = Pin<
    Box<dyn Future<Output = std::io::Result<hyper_util::rt::TokioIo<Box<dyn PluginIo>>>> + Send>,
>;

impl tower_service::Service<http::Uri> for Connector {
    type Response = hyper_util::rt::TokioIo<Box<dyn PluginIo>>;
    type Error = std::io::Error;
    type Future = IoFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, _uri: http::Uri) -> Self::Future {
        let this = self.clone();
        Box::pin(async move {
            let stream: Box<dyn PluginIo> = match this.network {
                Network::Unix => {
                    wrap_tls(
                        tokio::net::UnixStream::connect(&this.address).await?,
                        &this.tls,
                    )
                    .await?
                }
                Network::Tcp => {
                    let s = tokio::net::TcpStream::connect(&this.address).await?;
                    let _ = s.set_nodelay(true);
                    wrap_tls(s, &this.tls).await?
                }
            };
            Ok(hyper_util::rt::TokioIo::new(stream))
        })
    }
}

async fn wrap_tls<S>(
    stream: S,
    tls: &Option<Arc<rustls::ClientConfig>>,
) -> std::io::Result<Box<dyn PluginIo>>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    match tls {
        None => Ok(Box::new(stream)),
        Some(cfg) => {
            let name = rustls::pki_types::ServerName::try_from("localhost")
                .map_err(std::io::Error::other)?;
            let s = tokio_rustls::TlsConnector::from(cfg.clone())
                .connect(name, stream)
                .await?;
            Ok(Box::new(s))
        }
    }
}

/// The plugin process behind its lock (a poisoned lock still holds the process).
fn locked(p: &Arc<Mutex<Process>>) -> std::sync::MutexGuard<'_, Process> {
    p.lock().unwrap_or_else(|e| e.into_inner())
}
