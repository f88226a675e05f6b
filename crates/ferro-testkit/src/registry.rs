//! A local HTTPS registry for the tests of the network paths of `init`: a throwaway CA (made
//! with rcgen, trusted by the processes the tests start through `SSL_CERT_FILE`), a small
//! HTTP/1.1 server on a free loopback port serving whatever files a test puts at a path,
//! provider packages zipped in the test and their `SHA256SUMS` signed with a throwaway
//! OpenPGP key, and a forward proxy that tunnels `CONNECT`.

use pgp::composed::{
    ArmorOptions, DetachedSignature, KeyType, SecretKeyParamsBuilder, SignedSecretKey,
};
use pgp::crypto::hash::HashAlgorithm;
use pgp::ser::Serialize;
use pgp::types::{KeyDetails, Password};
use sha2::Digest;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};

use std::sync::{Arc, Mutex};

/// One response the server gives for a path.
#[derive(Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn ok(body: impl Into<Vec<u8>>) -> Reply {
        Reply {
            status: 200,
            headers: Vec::new(),
            body: body.into(),
        }
    }
}

/// A request the server saw: its path and its `Authorization` header.
#[derive(Clone, Debug)]
pub struct Seen {
    pub path: String,
    pub authorization: Option<String>,
}

/// The running server.
pub struct Server {
    /// `localhost:PORT`, the hostname provider and module addresses use.
    pub host: String,
    /// The directory holding the CA certificate and the CLI configuration.
    pub dir: PathBuf,
    routes: Arc<Mutex<BTreeMap<String, Reply>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Server {
    /// Start a server with its own CA and discovery document
    /// (`providers.v1` = `/v1/providers/`, `modules.v1` = `/v1/modules/`).
    pub fn start(name: &str) -> Server {
        let dir =
            std::env::temp_dir().join(format!("ferro-registry-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();

        let ca_key = rcgen::KeyPair::generate().unwrap();
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "ferro test CA");
        let ca = rcgen::CertifiedIssuer::self_signed(ca_params, ca_key).unwrap();
        std::fs::write(dir.join("ca.pem"), ca.pem()).unwrap();
        let leaf_key = rcgen::KeyPair::generate().unwrap();
        let leaf = rcgen::CertificateParams::new(vec!["localhost".to_string()])
            .unwrap()
            .signed_by(&leaf_key, &ca)
            .unwrap();
        let tls = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![leaf.der().clone()],
            rustls::pki_types::PrivateKeyDer::Pkcs8(leaf_key.serialize_der().into()),
        )
        .unwrap();
        let tls = Arc::new(tls);

        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let routes: Arc<Mutex<BTreeMap<String, Reply>>> = Arc::default();
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let (r, s) = (routes.clone(), seen.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (tls, r, s) = (tls.clone(), r.clone(), s.clone());
                std::thread::spawn(move || serve(stream, tls, &r, &s));
            }
        });
        let server = Server {
            host: format!("localhost:{port}"),
            dir,
            routes,
            seen,
        };
        server.put(
            "/.well-known/terraform.json",
            Reply::ok(r#"{"providers.v1":"/v1/providers/","modules.v1":"/v1/modules/"}"#),
        );
        server
    }

    pub fn url(&self, path: &str) -> String {
        format!("https://{}{path}", self.host)
    }

    /// Serve `reply` at `path` (replacing what was there).
    pub fn put(&self, path: &str, reply: Reply) {
        self.routes.lock().unwrap().insert(path.to_string(), reply);
    }

    /// The requests seen so far whose path starts with `prefix`.
    pub fn seen(&self, prefix: &str) -> Vec<Seen> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .filter(|s| s.path.starts_with(prefix))
            .cloned()
            .collect()
    }

    /// Publish `versions` of `NS/TYPE` (an empty package zip with a script named
    /// `terraform-provider-TYPE_vVERSION`), signed with `key`; returns each version's package.
    pub fn publish_provider(
        &self,
        ns: &str,
        ty: &str,
        versions: &[&str],
        key: &Key,
    ) -> BTreeMap<String, Package> {
        let mut out = BTreeMap::new();
        let platform = platform();
        let (os, arch) = platform.split_once('_').unwrap();
        let base = format!("/v1/providers/{ns}/{ty}");
        let list: Vec<String> = versions
            .iter()
            .map(|v| {
                format!(
                    r#"{{"version":"{v}","protocols":["5.0"],"platforms":[{{"os":"{os}","arch":"{arch}"}}]}}"#
                )
            })
            .collect();
        self.put(
            &format!("{base}/versions"),
            Reply::ok(format!(r#"{{"versions":[{}]}}"#, list.join(","))),
        );
        for v in versions {
            let pkg = Package::build(ty, v, &platform);
            let sums = pkg.sums.clone();
            let files = format!("/files/{ns}/{ty}/{v}");
            self.put(
                &format!("{files}/{}", pkg.filename),
                Reply::ok(pkg.zip.clone()),
            );
            self.put(&format!("{files}/SHA256SUMS"), Reply::ok(sums.clone()));
            self.put(
                &format!("{files}/SHA256SUMS.sig"),
                Reply::ok(key.sign(sums.as_bytes())),
            );
            self.put(
                &format!("{base}/{v}/download/{os}/{arch}"),
                Reply::ok(download_json(&pkg, os, arch, &files, key)),
            );
            let (oos, oarch) = pkg.other_platform.split_once('_').unwrap();
            let other = Package {
                filename: pkg.other_filename.clone(),
                sha256: pkg.other_sha256.clone(),
                ..pkg.clone()
            };
            self.put(
                &format!("{files}/{}", pkg.other_filename),
                Reply::ok(pkg.other_zip.clone()),
            );
            self.put(
                &format!("{base}/{v}/download/{oos}/{oarch}"),
                Reply::ok(download_json(&other, oos, oarch, &files, key)),
            );
            out.insert(v.to_string(), pkg);
        }
        out
    }

    /// Publish one package (its platform only) as the only version of `NS/TYPE`.
    pub fn publish_package(&self, ns: &str, ty: &str, pkg: &Package, key: &Key) {
        let version = pkg
            .filename
            .strip_prefix(&format!("terraform-provider-{ty}_"))
            .and_then(|r| r.split('_').next())
            .unwrap()
            .to_string();
        let platform = pkg
            .filename
            .strip_prefix(&format!("terraform-provider-{ty}_{version}_"))
            .and_then(|r| r.strip_suffix(".zip"))
            .unwrap()
            .to_string();
        let (os, arch) = platform.split_once('_').unwrap();
        let base = format!("/v1/providers/{ns}/{ty}");
        self.put(
            &format!("{base}/versions"),
            Reply::ok(format!(
                r#"{{"versions":[{{"version":"{version}","protocols":["5.0"]}}]}}"#
            )),
        );
        let files = format!("/files/{ns}/{ty}/{version}");
        self.put(
            &format!("{files}/{}", pkg.filename),
            Reply::ok(pkg.zip.clone()),
        );
        self.put(&format!("{files}/SHA256SUMS"), Reply::ok(pkg.sums.clone()));
        self.put(
            &format!("{files}/SHA256SUMS.sig"),
            Reply::ok(key.sign(pkg.sums.as_bytes())),
        );
        self.put(
            &format!("{base}/{version}/download/{os}/{arch}"),
            Reply::ok(download_json(pkg, os, arch, &files, key)),
        );
    }

    /// The environment of a ferro run against this server: the CA through `SSL_CERT_FILE`,
    /// `cli_config` as the CLI configuration, and a home without plugins.
    pub fn env(&self, cli_config: &str) -> Vec<(String, String)> {
        let rc = self.dir.join(format!(
            "rc-{:x}",
            sha2::Sha256::digest(cli_config.as_bytes())[0..8]
                .iter()
                .fold(0u64, |a, b| (a << 8) | *b as u64)
        ));
        std::fs::write(&rc, cli_config).unwrap();
        let home = self.dir.join("home");
        std::fs::create_dir_all(&home).unwrap();
        vec![
            (
                "SSL_CERT_FILE".into(),
                self.dir.join("ca.pem").display().to_string(),
            ),
            (
                "SSL_CERT_DIR".into(),
                self.dir.join("no-certs").display().to_string(),
            ),
            ("TF_CLI_CONFIG_FILE".into(), rc.display().to_string()),
            ("HOME".into(), home.display().to_string()),
            (
                "XDG_DATA_HOME".into(),
                home.join("data").display().to_string(),
            ),
            (
                "XDG_DATA_DIRS".into(),
                home.join("none").display().to_string(),
            ),
        ]
    }
}

/// The download endpoint's answer for `pkg`.
pub fn download_json(pkg: &Package, os: &str, arch: &str, files: &str, key: &Key) -> String {
    serde_json::json!({
        "protocols": ["5.0"],
        "os": os,
        "arch": arch,
        "filename": pkg.filename,
        "download_url": format!("{files}/{}", pkg.filename),
        "shasums_url": format!("{files}/SHA256SUMS"),
        "shasums_signature_url": format!("{files}/SHA256SUMS.sig"),
        "shasum": pkg.sha256,
        "signing_keys": {"gpg_public_keys": [{
            "key_id": key.id,
            "ascii_armor": key.public_armor,
            "trust_signature": "",
            "source": "ferro tests",
            "source_url": null
        }]}
    })
    .to_string()
}

/// A provider package made in the test.
#[derive(Clone)]
pub struct Package {
    pub filename: String,
    pub zip: Vec<u8>,
    /// Lower-case hex SHA-256 of the zip.
    pub sha256: String,
    /// The `SHA256SUMS` text: this package and a made-up one for another platform.
    pub sums: String,
    /// The package for another platform, listed in the same `SHA256SUMS`.
    pub other_platform: String,
    pub other_filename: String,
    pub other_zip: Vec<u8>,
    pub other_sha256: String,
}

impl Package {
    /// A package of an existing zip, listed alone in its `SHA256SUMS`.
    pub fn from_zip(ty: &str, version: &str, platform: &str, zip: Vec<u8>) -> Package {
        let sha256 = hex(&sha2::Sha256::digest(&zip));
        let filename = format!("terraform-provider-{ty}_{version}_{platform}.zip");
        Package {
            sums: format!("{sha256}  {filename}\n"),
            filename,
            zip,
            sha256,
            other_platform: String::new(),
            other_filename: String::new(),
            other_zip: Vec::new(),
            other_sha256: String::new(),
        }
    }

    pub fn build(ty: &str, version: &str, platform: &str) -> Package {
        let exe = format!("terraform-provider-{ty}_v{version}");
        let script = format!("#!/bin/sh\n# {ty} {version}, made by ferro's tests\nexit 1\n");
        let zip =
            ferro_provider::install::zip::write_zip(&[(&exe, script.as_bytes(), 0o755, true)]);
        let sha256 = hex(&sha2::Sha256::digest(&zip));
        let filename = format!("terraform-provider-{ty}_{version}_{platform}.zip");
        let other = if platform == "windows_386" {
            "linux_arm"
        } else {
            "windows_386"
        };
        let other_zip = ferro_provider::install::zip::write_zip(&[(
            &format!("{exe}.exe"),
            format!("{ty} {version} for {other}").as_bytes(),
            0o755,
            true,
        )]);
        let other_sha256 = hex(&sha2::Sha256::digest(&other_zip));
        let other_filename = format!("terraform-provider-{ty}_{version}_{other}.zip");
        let mut lines = [
            format!("{sha256}  {filename}\n"),
            format!("{other_sha256}  {other_filename}\n"),
        ];
        lines.sort();
        Package {
            filename,
            zip,
            sha256,
            sums: lines.concat(),
            other_platform: other.to_string(),
            other_filename,
            other_zip,
            other_sha256,
        }
    }
}

/// A throwaway OpenPGP signing key.
pub struct Key {
    secret: SignedSecretKey,
    /// The key ID as Terraform prints it (16 upper-case hex digits).
    pub id: String,
    pub public_armor: String,
}

impl Key {
    pub fn generate(seed: u64) -> Key {
        Key::generate_of(KeyType::Ed25519Legacy, seed)
    }

    /// An RSA key, the kind Terraform 1.0.3's OpenPGP library reads (it has no EdDSA).
    pub fn generate_rsa(seed: u64) -> Key {
        Key::generate_of(KeyType::Rsa(2048), seed)
    }

    fn generate_of(kind: KeyType, seed: u64) -> Key {
        use rand::SeedableRng;
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let secret = SecretKeyParamsBuilder::default()
            .key_type(kind)
            .can_certify(true)
            .can_sign(true)
            .primary_user_id(format!("ferro test signer {seed} <test@ferro.invalid>"))
            .build()
            .unwrap()
            .generate(&mut rng)
            .unwrap();
        let public_armor = secret
            .to_public_key()
            .to_armored_string(ArmorOptions::default())
            .unwrap();
        let id = secret.legacy_key_id().to_string().to_uppercase();
        Key {
            secret,
            id,
            public_armor,
        }
    }

    /// A binary detached signature of `data`, as registries serve `SHA256SUMS.sig`.
    pub fn sign(&self, data: &[u8]) -> Vec<u8> {
        use rand::SeedableRng;
        let rng = rand::rngs::StdRng::seed_from_u64(7);
        DetachedSignature::sign_binary_data(
            rng,
            &self.secret.primary_key,
            &Password::empty(),
            HashAlgorithm::Sha256,
            data,
        )
        .unwrap()
        .to_bytes()
        .unwrap()
    }
}

impl Key {
    /// An armored detached signature of `data` (the form of a registry's trust signatures).
    pub fn sign_armored(&self, data: &[u8]) -> Vec<u8> {
        use rand::SeedableRng;
        let rng = rand::rngs::StdRng::seed_from_u64(8);
        DetachedSignature::sign_binary_data(
            rng,
            &self.secret.primary_key,
            &Password::empty(),
            HashAlgorithm::Sha256,
            data,
        )
        .unwrap()
        .to_armored_bytes(ArmorOptions::default())
        .unwrap()
    }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// This machine's platform as Terraform names it.
pub fn platform() -> String {
    ferro_provider::install::source::current_platform()
}

/// Every file under `dir`, relative, sorted (empty when `dir` does not exist).
pub fn files_under(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, d: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().display().to_string());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Answer one request on `stream` (one request per connection).
fn serve(
    stream: TcpStream,
    tls: Arc<rustls::ServerConfig>,
    routes: &Mutex<BTreeMap<String, Reply>>,
    seen: &Mutex<Vec<Seen>>,
) {
    let Ok(conn) = rustls::ServerConnection::new(tls) else {
        return;
    };
    let mut tls = rustls::StreamOwned::new(conn, stream);
    let mut reader = BufReader::new(&mut tls);
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let mut authorization = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("authorization") {
                authorization = Some(v.trim().to_string());
            }
        }
    }
    let target = request_line
        .split_whitespace()
        .nth(1)
        .unwrap_or("/")
        .to_string();
    let path = target.split('?').next().unwrap_or("/").to_string();
    seen.lock().unwrap().push(Seen {
        path: target.clone(),
        authorization,
    });
    let reply = routes.lock().unwrap().get(&path).cloned().unwrap_or(Reply {
        status: 404,
        headers: Vec::new(),
        body: b"not found".to_vec(),
    });
    let reason = match reply.status {
        200 => "OK",
        204 => "No Content",
        401 => "Unauthorized",
        404 => "Not Found",
        _ => "Status",
    };
    let mut head = format!(
        "HTTP/1.1 {} {reason}\r\nContent-Length: {}\r\nConnection: close\r\n",
        reply.status,
        reply.body.len()
    );
    // JSON documents are served as such (Terraform checks discovery's Content-Type).
    if reply.body.starts_with(b"{") {
        head.push_str("Content-Type: application/json\r\n");
    }
    for (k, v) in &reply.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let _ = tls.write_all(head.as_bytes());
    let _ = tls.write_all(&reply.body);
    let _ = tls.flush();
    tls.conn.send_close_notify();
    let _ = tls.flush();
    let mut rest = [0u8; 64];
    let _ = tls
        .sock
        .set_read_timeout(Some(std::time::Duration::from_millis(200)));
    let _ = tls.read(&mut rest);
}

/// A forward proxy that tunnels `CONNECT` requests and records their targets.
pub struct TunnelProxy {
    pub port: u16,
    targets: Arc<Mutex<Vec<String>>>,
}

impl TunnelProxy {
    pub fn start() -> TunnelProxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let targets: Arc<Mutex<Vec<String>>> = Arc::default();
        let seen = targets.clone();
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let seen = seen.clone();
                std::thread::spawn(move || tunnel(client, &seen));
            }
        });
        TunnelProxy { port, targets }
    }

    /// The `host:port` of every tunnel asked for so far.
    pub fn targets(&self) -> Vec<String> {
        self.targets.lock().unwrap().clone()
    }
}

fn tunnel(client: TcpStream, seen: &Mutex<Vec<String>>) {
    let mut reader = BufReader::new(client.try_clone().unwrap());
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return;
    }
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let mut words = first.split_whitespace();
    let (Some("CONNECT"), Some(target)) = (words.next(), words.next()) else {
        let _ =
            (&client).write_all(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n");
        return;
    };
    seen.lock().unwrap().push(target.to_string());
    let Ok(upstream) = TcpStream::connect(target) else {
        let _ = (&client).write_all(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n");
        return;
    };
    let _ = (&client).write_all(b"HTTP/1.1 200 Connection established\r\n\r\n");
    let (mut up_read, mut up_write) = (upstream.try_clone().unwrap(), upstream);
    let mut client_write = client;
    let forward = std::thread::spawn(move || {
        let _ = std::io::copy(&mut reader, &mut up_write);
        let _ = up_write.shutdown(std::net::Shutdown::Write);
    });
    let _ = std::io::copy(&mut up_read, &mut client_write);
    let _ = client_write.shutdown(std::net::Shutdown::Write);
    let _ = forward.join();
}
