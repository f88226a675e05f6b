//! The plugin side of go-plugin (PROTOCOL_FACTS §1): check the magic cookie, pick protocol 6
//! (or 5, when the host offers only that), listen on a unix socket, set up AutoMTLS with the host's `PLUGIN_CLIENT_CERT`, register the
//! provider service with go-plugin's controller (Shutdown ends the process), go-plugin's stdio
//! stream (what the provider writes through [`crate::stdio`]) and gRPC health, print the
//! handshake line, and serve until shut down.

use crate::grpc::ProviderService;
use crate::grpc_v5::ProviderServiceV5;
use crate::stdio::{Hub, StdioService};
use ferro_provider::plugin::proto::{goplugin, health, tfplugin5, tfplugin6};
use ferro_provider::Provider;
use std::future::Future;
use std::io::Write;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tonic::{Request, Response, Status};

/// Terraform's magic cookie (fixed forever for providers).
pub const MAGIC_COOKIE_KEY: &str = "TF_PLUGIN_MAGIC_COOKIE";
pub const MAGIC_COOKIE_VALUE: &str =
    "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";

/// Serve `provider` as a Terraform plugin (protocol 6, or 5 for hosts that offer only 5) on this process's stdio; returns the
/// process exit code (0 after Shutdown, 1 when not started by a plugin host).
pub fn serve(provider: Arc<dyn Provider>) -> i32 {
    if std::env::var(MAGIC_COOKIE_KEY).ok().as_deref() != Some(MAGIC_COOKIE_VALUE) {
        eprintln!(
            "This binary is a plugin. These are not meant to be executed directly.\nPlease execute the program that consumes these plugins, which will\nload any plugins automatically"
        );
        return 1;
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("[ERROR] cannot start the plugin runtime: {e}");
            return 1;
        }
    };
    match runtime.block_on(run(provider)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("[ERROR] plugin server: {e}");
            1
        }
    }
}

/// The protocol versions served.
pub const PROTOCOLS: [u32; 2] = [5, 6];

/// The protocol version to announce: the highest one the host offers in
/// `PLUGIN_PROTOCOL_VERSIONS` (a host that sends none speaks 5), or `preferred`
/// (`FERRO_SDK_PROTOCOL`, for tests) when the host offers it.
pub fn negotiate(offered: Option<&str>, preferred: Option<&str>) -> Result<u32, String> {
    let offered: Vec<u32> = match offered {
        Some(list) if !list.trim().is_empty() => list
            .split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect(),
        _ => vec![5],
    };
    if let Some(p) = preferred.and_then(|p| p.trim().parse::<u32>().ok()) {
        if offered.contains(&p) && PROTOCOLS.contains(&p) {
            return Ok(p);
        }
    }
    PROTOCOLS
        .iter()
        .rev()
        .find(|v| offered.contains(v))
        .copied()
        .ok_or_else(|| {
            format!(
                "Incompatible API version with plugin. Plugin version: 5, 6, Client versions: {}",
                offered
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
}

async fn run(provider: Arc<dyn Provider>) -> Result<(), String> {
    let version = negotiate(
        std::env::var("PLUGIN_PROTOCOL_VERSIONS").ok().as_deref(),
        std::env::var("FERRO_SDK_PROTOCOL").ok().as_deref(),
    )?;
    let tls = match std::env::var("PLUGIN_CLIENT_CERT") {
        Ok(pem) if !pem.trim().is_empty() => {
            let (config, der) = ferro_provider::plugin::tls::server_config(&pem)?;
            Some((tokio_rustls::TlsAcceptor::from(Arc::new(config)), der))
        }
        _ => None,
    };
    let socket = socket_path();
    let listener = tokio::net::UnixListener::bind(&socket)
        .map_err(|e| format!("cannot listen on {}: {e}", socket.display()))?;
    let shutdown = Arc::new(Notify::new());
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Conn, std::io::Error>>(16);
    let acceptor = tls.as_ref().map(|(a, _)| a.clone());
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                break;
            };
            let tx = tx.clone();
            let acceptor = acceptor.clone();
            tokio::spawn(async move {
                let conn = match acceptor {
                    Some(a) => match a.accept(stream).await {
                        Ok(s) => Conn(Box::new(s)),
                        Err(e) => {
                            eprintln!("[WARN] plugin TLS handshake failed: {e}");
                            return;
                        }
                    },
                    None => Conn(Box::new(stream)),
                };
                let _ = tx.send(Ok(conn)).await;
            });
        }
    });
    // Go-plugin servers ignore SIGINT: the host forwards interrupts as StopProvider instead.
    tokio::spawn(async {
        loop {
            if tokio::signal::ctrl_c().await.is_err() {
                break;
            }
        }
    });
    let cert = tls
        .as_ref()
        .map(|(_, der)| {
            use base64::Engine;
            base64::engine::general_purpose::STANDARD_NO_PAD.encode(der)
        })
        .unwrap_or_default();
    let service = Arc::new(ProviderService::new(provider));
    let hub = Hub::install();
    let router = Router {
        provider: tfplugin6::provider_server::ProviderServer::from_arc(service.clone())
            .max_decoding_message_size(usize::MAX)
            .max_encoding_message_size(usize::MAX),
        provider5: tfplugin5::provider_server::ProviderServer::new(ProviderServiceV5(service))
            .max_decoding_message_size(usize::MAX)
            .max_encoding_message_size(usize::MAX),
        controller: goplugin::grpc_controller_server::GrpcControllerServer::new(Controller(
            shutdown.clone(),
        )),
        stdio: goplugin::grpc_stdio_server::GrpcStdioServer::new(StdioService(hub.clone()))
            .max_encoding_message_size(usize::MAX),
        health: health::health_server::HealthServer::new(Health),
    };
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "1|{version}|unix|{}|grpc|{cert}", socket.display())
            .and_then(|_| out.flush())
            .map_err(|e| format!("cannot write the handshake: {e}"))?;
    }
    let stop = shutdown.clone();
    let result = tonic::transport::Server::builder()
        .serve_with_incoming_shutdown(
            router,
            tokio_stream::wrappers::ReceiverStream::new(rx),
            // The open stdio stream ends first, or the graceful shutdown would wait for it.
            async move {
                stop.notified().await;
                hub.close();
            },
        )
        .await;
    let _ = std::fs::remove_file(&socket);
    result.map_err(|e| e.to_string())
}

/// A fresh socket path in the temporary directory, named `plugin…` as Go plugins name theirs.
fn socket_path() -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    std::env::temp_dir().join(format!("plugin{}{nanos}", std::process::id()))
}

/// One accepted connection, plain or TLS.
struct Conn(Box<dyn Io>);

trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

impl AsyncRead for Conn {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut *self.0).poll_read(cx, buf)
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut *self.0).poll_write(cx, buf)
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut *self.0).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut *self.0).poll_shutdown(cx)
    }
}

impl tonic::transport::server::Connected for Conn {
    type ConnectInfo = ();
    fn connect_info(&self) -> Self::ConnectInfo {}
}

/// go-plugin's controller: Shutdown stops the server (and so the process).
struct Controller(Arc<Notify>);

#[tonic::async_trait]
impl goplugin::grpc_controller_server::GrpcController for Controller {
    async fn shutdown(
        &self,
        _: Request<goplugin::Empty>,
    ) -> Result<Response<goplugin::Empty>, Status> {
        let n = self.0.clone();
        // Answer first, then stop.
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
            n.notify_one();
        });
        Ok(Response::new(goplugin::Empty {}))
    }
}

/// gRPC health: the service "plugin" (and the server as a whole) is serving.
struct Health;

#[tonic::async_trait]
impl health::health_server::Health for Health {
    async fn check(
        &self,
        _: Request<health::HealthCheckRequest>,
    ) -> Result<Response<health::HealthCheckResponse>, Status> {
        Ok(Response::new(health::HealthCheckResponse {
            status: health::health_check_response::ServingStatus::Serving as i32,
        }))
    }
}

/// Dispatches requests to the services by their path prefix.
#[derive(Clone)]
struct Router {
    provider: tfplugin6::provider_server::ProviderServer<ProviderService>,
    provider5: tfplugin5::provider_server::ProviderServer<ProviderServiceV5>,
    controller: goplugin::grpc_controller_server::GrpcControllerServer<Controller>,
    stdio: goplugin::grpc_stdio_server::GrpcStdioServer<StdioService>,
    health: health::health_server::HealthServer<Health>,
}

type BoxFuture = Pin<
    Box<
        dyn Future<Output = Result<http::Response<tonic::body::Body>, std::convert::Infallible>>
            + Send,
    >,
>;

impl tower_service::Service<http::Request<tonic::body::Body>> for Router {
    type Response = http::Response<tonic::body::Body>;
    type Error = std::convert::Infallible;
    type Future = BoxFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, req: http::Request<tonic::body::Body>) -> Self::Future {
        let path = req.uri().path();
        if path.starts_with("/tfplugin6.Provider/") {
            Box::pin(self.provider.call(req))
        } else if path.starts_with("/tfplugin5.Provider/") {
            Box::pin(self.provider5.call(req))
        } else if path.starts_with("/plugin.GRPCController/") {
            Box::pin(self.controller.call(req))
        } else if path.starts_with("/plugin.GRPCStdio/") {
            Box::pin(self.stdio.call(req))
        } else if path.starts_with("/grpc.health.v1.Health/") {
            Box::pin(self.health.call(req))
        } else {
            Box::pin(async { Ok(Status::unimplemented("no such service").into_http()) })
        }
    }
}

impl tonic::server::NamedService for Router {
    const NAME: &'static str = "plugin";
}

#[cfg(test)]
mod tests {
    use super::negotiate;

    #[test]
    fn the_highest_offered_protocol_wins() {
        assert_eq!(negotiate(Some("5,6"), None), Ok(6));
        assert_eq!(negotiate(Some("5"), None), Ok(5));
        assert_eq!(negotiate(None, None), Ok(5), "old hosts send nothing: 5");
        assert_eq!(negotiate(Some("5,6"), Some("5")), Ok(5));
        assert_eq!(
            negotiate(Some("6"), Some("5")),
            Ok(6),
            "a preference not offered"
        );
        assert!(negotiate(Some("4,7"), None)
            .unwrap_err()
            .contains("Incompatible API version"));
    }
}
