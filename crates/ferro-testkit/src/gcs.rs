//! A Google Cloud Storage stand-in over plain HTTP, reached through `STORAGE_EMULATOR_HOST`:
//! the JSON API's object listing (two names a page, so that paging is exercised) and media
//! downloads, and an OAuth token endpoint (`/token`) that answers any form it is sent with an
//! access token naming its grant type. Every request is recorded with its `Authorization`
//! header and body.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One request the server answered.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    /// The path and query, decoded.
    pub target: String,
    pub authorization: Option<String>,
    pub body: String,
}

type Objects = BTreeMap<(String, String), Vec<u8>>;

pub struct GcsServer {
    /// `127.0.0.1:PORT`, the value of `STORAGE_EMULATOR_HOST`.
    pub host: String,
    objects: Arc<Mutex<Objects>>,
    seen: Arc<Mutex<Vec<Request>>>,
}

impl GcsServer {
    pub fn start() -> GcsServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let host = listener.local_addr().unwrap().to_string();
        let objects: Arc<Mutex<Objects>> = Arc::default();
        let seen: Arc<Mutex<Vec<Request>>> = Arc::default();
        let (o, s) = (objects.clone(), seen.clone());
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (o, s) = (o.clone(), s.clone());
                std::thread::spawn(move || serve(stream, &o, &s));
            }
        });
        GcsServer {
            host,
            objects,
            seen,
        }
    }

    pub fn put(&self, bucket: &str, name: &str, body: impl Into<Vec<u8>>) {
        self.objects
            .lock()
            .unwrap()
            .insert((bucket.to_string(), name.to_string()), body.into());
    }

    /// The token endpoint's URL (a credentials file's `token_uri`).
    pub fn token_uri(&self) -> String {
        format!("http://{}/token", self.host)
    }

    pub fn seen(&self) -> Vec<Request> {
        self.seen.lock().unwrap().clone()
    }
}

fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(if bytes[i] == b'+' { b' ' } else { bytes[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn query(target: &str) -> BTreeMap<String, String> {
    target
        .split_once('?')
        .map(|(_, q)| q)
        .unwrap_or("")
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (decode(k), decode(v)))
        .collect()
}

fn serve(stream: TcpStream, objects: &Mutex<Objects>, seen: &Mutex<Vec<Request>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return;
    }
    let mut authorization = None;
    let mut length = 0usize;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" || line == "\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("authorization") {
                authorization = Some(v.trim().to_string());
            } else if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0u8; length];
    let _ = reader.read_exact(&mut body);
    let body = String::from_utf8_lossy(&body).into_owned();
    let mut words = first.split_whitespace();
    let method = words.next().unwrap_or("GET").to_string();
    let raw = words.next().unwrap_or("/").to_string();
    seen.lock().unwrap().push(Request {
        method: method.clone(),
        target: decode(&raw),
        authorization,
        body: body.clone(),
    });
    let path = raw.split('?').next().unwrap_or("/");
    let q = query(&raw);
    let (status, content) = if path == "/token" {
        let grant = body
            .split('&')
            .find_map(|p| p.strip_prefix("grant_type="))
            .map(decode)
            .unwrap_or_default();
        let token = if grant.ends_with("jwt-bearer") {
            "from-service-account"
        } else {
            "from-refresh-token"
        };
        (
            200,
            format!(r#"{{"access_token":"{token}","expires_in":3600,"token_type":"Bearer"}}"#)
                .into_bytes(),
        )
    } else if let Some(rest) = path.strip_prefix("/storage/v1/b/") {
        let objects = objects.lock().unwrap();
        match rest.split_once("/o") {
            Some((bucket, "")) => {
                let bucket = decode(bucket);
                let prefix = q.get("prefix").cloned().unwrap_or_default();
                let names: Vec<&String> = objects
                    .keys()
                    .filter(|(b, n)| *b == bucket && n.starts_with(&prefix))
                    .map(|(_, n)| n)
                    .collect();
                let start: usize = q.get("pageToken").and_then(|t| t.parse().ok()).unwrap_or(0);
                let page: Vec<String> = names
                    .iter()
                    .skip(start)
                    .take(2)
                    .map(|n| format!(r#"{{"name":"{n}"}}"#))
                    .collect();
                let next = if start + 2 < names.len() {
                    format!(r#","nextPageToken":"{}""#, start + 2)
                } else {
                    String::new()
                };
                (
                    200,
                    format!(r#"{{"items":[{}]{next}}}"#, page.join(",")).into_bytes(),
                )
            }
            Some((bucket, name)) => {
                let key = (decode(bucket), decode(name.trim_start_matches('/')));
                match objects.get(&key) {
                    Some(b) if q.get("alt").map(String::as_str) == Some("media") => {
                        (200, b.clone())
                    }
                    _ => (
                        404,
                        br#"{"error":{"code":404,"message":"No such object"}}"#.to_vec(),
                    ),
                }
            }
            None => (404, b"{}".to_vec()),
        }
    } else {
        (404, b"{}".to_vec())
    };
    let mut out = stream;
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Length: {}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n",
        if status == 200 { "OK" } else { "Not Found" },
        content.len()
    );
    let _ = out.write_all(head.as_bytes());
    let _ = out.write_all(&content);
    let _ = out.flush();
}
