//! A small HTTP/1.1 server for the remote-client tests, on a free loopback port, optionally
//! over TLS (a throwaway CA made with rcgen, optionally asking for a client certificate), that
//! answers each request with what the test's handler says and records what it saw; and a
//! forward proxy that tunnels `CONNECT`.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

/// A request as the server read it.
#[derive(Clone, Debug)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the handler answers: a status and a body, or None to drop the connection unanswered.
pub type Answer = Option<(u16, String)>;

type Handler = dyn Fn(&Request, usize) -> Answer + Send + Sync;

pub struct Server {
    pub port: u16,
    seen: Arc<Mutex<Vec<Request>>>,
}

/// A throwaway CA and a server certificate for 127.0.0.1 and localhost.
pub struct Pki {
    pub ca_pem: String,
    ca_der: Vec<u8>,
    server_cert_der: Vec<u8>,
    server_key_der: Vec<u8>,
    ca: rcgen::CertifiedIssuer<'static, rcgen::KeyPair>,
}

impl Pki {
    pub fn new() -> Pki {
        let ca_key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "ferro test CA");
        let ca = rcgen::CertifiedIssuer::self_signed(params, ca_key).unwrap();
        let key = rcgen::KeyPair::generate().unwrap();
        let cert =
            rcgen::CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()])
                .unwrap()
                .signed_by(&key, &ca)
                .unwrap();
        Pki {
            ca_pem: ca.pem(),
            ca_der: ca.der().to_vec(),
            server_cert_der: cert.der().to_vec(),
            server_key_der: key.serialize_der(),
            ca,
        }
    }

    /// A client certificate signed by the CA: (certificate, key), PEM.
    pub fn client(&self) -> (String, String) {
        let key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "ferro test client");
        let cert = params.signed_by(&key, &self.ca).unwrap();
        (cert.pem(), key.serialize_pem())
    }

    fn server_config(&self, client_auth: bool) -> Arc<rustls::ServerConfig> {
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let certs = vec![CertificateDer::from(self.server_cert_der.clone())];
        let key = PrivateKeyDer::Pkcs8(self.server_key_der.clone().into());
        let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .unwrap();
        let config = if client_auth {
            let mut roots = rustls::RootCertStore::empty();
            roots
                .add(CertificateDer::from(self.ca_der.clone()))
                .unwrap();
            let verifier =
                rustls::server::WebPkiClientVerifier::builder_with_provider(roots.into(), provider)
                    .build()
                    .unwrap();
            builder
                .with_client_cert_verifier(verifier)
                .with_single_cert(certs, key)
                .unwrap()
        } else {
            builder
                .with_no_client_auth()
                .with_single_cert(certs, key)
                .unwrap()
        };
        Arc::new(config)
    }
}

impl Server {
    /// A plain HTTP server.
    pub fn start(handler: impl Fn(&Request, usize) -> Answer + Send + Sync + 'static) -> Server {
        Server::start_with(None, Arc::new(handler))
    }

    /// An HTTPS server with `pki`'s certificate; `client_auth` asks for a client certificate
    /// the CA signed.
    pub fn start_tls(
        pki: &Pki,
        client_auth: bool,
        handler: impl Fn(&Request, usize) -> Answer + Send + Sync + 'static,
    ) -> Server {
        Server::start_with(Some(pki.server_config(client_auth)), Arc::new(handler))
    }

    fn start_with(tls: Option<Arc<rustls::ServerConfig>>, handler: Arc<Handler>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen: Arc<Mutex<Vec<Request>>> = Arc::default();
        let log = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (handler, log, tls) = (handler.clone(), log.clone(), tls.clone());
                std::thread::spawn(move || match tls {
                    None => serve(stream, &*handler, &log),
                    Some(config) => {
                        let Ok(conn) = rustls::ServerConnection::new(config) else {
                            return;
                        };
                        serve(rustls::StreamOwned::new(conn, stream), &*handler, &log)
                    }
                });
            }
        });
        Server { port, seen }
    }

    pub fn url(&self, scheme: &str) -> String {
        format!("{scheme}://127.0.0.1:{}", self.port)
    }

    pub fn seen(&self) -> Vec<Request> {
        self.seen.lock().unwrap().clone()
    }
}

/// Read one request, answer it and close the connection.
fn serve<S: Read + Write>(stream: S, handler: &Handler, log: &Mutex<Vec<Request>>) {
    let mut reader = BufReader::new(stream);
    let mut first = String::new();
    if reader.read_line(&mut first).unwrap_or(0) == 0 {
        return;
    }
    let mut words = first.split_whitespace();
    let (Some(method), Some(path)) = (words.next(), words.next()) else {
        return;
    };
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    let len = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let req = Request {
        method: method.to_string(),
        path: path.to_string(),
        headers,
        body,
    };
    let n = {
        let mut log = log.lock().unwrap();
        log.push(req.clone());
        log.len()
    };
    let Some((status, text)) = handler(&req, n) else {
        return;
    };
    let out = reader.get_mut();
    let _ = write!(
        out,
        "HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        text.len()
    );
    let _ = out.flush();
}

/// A fresh directory under the target's temporary directory.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir =
        std::env::temp_dir().join(format!("ferro-state-{name}-{}", ferro_state::new_lineage()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
