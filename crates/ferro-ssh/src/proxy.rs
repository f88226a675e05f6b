//! Reaching the first SSH hop through a proxy, as Terraform's `proxy_*` connection arguments
//! describe it: `http` and `https` (both an HTTP `CONNECT` over plain TCP, as Terraform's
//! dialer sends it, with basic authentication when a user is given) and `socks5` (with
//! username/password authentication, RFC 1929, when a user is given; the proxy resolves names).

use crate::{err, Error};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// A proxy (its `Debug` shows no password).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Proxy {
    /// `http`, `https` or `socks5`.
    pub scheme: String,
    pub host: String,
    pub port: u16,
    pub user: Option<String>,
    pub password: Option<String>,
}

impl std::fmt::Debug for Proxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proxy")
            .field("scheme", &self.scheme)
            .field("host", &self.host)
            .field("port", &self.port)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

impl Proxy {
    fn address(&self) -> String {
        if self.host.contains(':') && !self.host.starts_with('[') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }

    /// A stream to `target` (`host:port`) through the proxy.
    pub(crate) async fn connect(&self, target: &str) -> Result<TcpStream, Error> {
        let mut stream = crate::dial(&self.address()).await?;
        match self.scheme.as_str() {
            "" | "http" | "https" => self.http_connect(&mut stream, target).await?,
            "socks5" => self.socks5(&mut stream, target).await?,
            other => return Err(err(format!("proxy: unknown scheme: {other}"))),
        }
        Ok(stream)
    }

    async fn http_connect(&self, stream: &mut TcpStream, target: &str) -> Result<(), Error> {
        let mut req = format!("CONNECT {target} HTTP/1.1\r\nHost: {target}\r\n");
        if let Some(user) = &self.user {
            let pass = self.password.clone().unwrap_or_default();
            let auth = base64(format!("{user}:{pass}").as_bytes());
            req.push_str(&format!("Proxy-Authorization: Basic {auth}\r\n"));
        }
        req.push_str("\r\n");
        let io = |e: std::io::Error| err(format!("proxy: {e}"));
        stream.write_all(req.as_bytes()).await.map_err(io)?;
        // Read the answer's head byte by byte, so nothing of the tunnel is consumed.
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            if head.len() > 16 * 1024 {
                return Err(err("proxy: the answer to CONNECT is too long"));
            }
            let mut byte = [0u8; 1];
            if stream.read(&mut byte).await.map_err(io)? == 0 {
                return Err(err("proxy: the connection closed during CONNECT"));
            }
            head.push(byte[0]);
        }
        let mut lines = BufReader::new(&head[..]).lines();
        let status = lines.next_line().await.ok().flatten().unwrap_or_default();
        let code = status.split_whitespace().nth(1).unwrap_or_default();
        if code != "200" {
            return Err(err(format!("Connection Error: StatusCode: {code}")));
        }
        Ok(())
    }

    async fn socks5(&self, stream: &mut TcpStream, target: &str) -> Result<(), Error> {
        let io = |e: std::io::Error| err(format!("proxy: {e}"));
        let failed = |why: &str| {
            err(format!(
                "socks connect tcp {}->{target}: {why}",
                self.address()
            ))
        };
        let (host, port) = target
            .rsplit_once(':')
            .and_then(|(h, p)| {
                Some((
                    h.trim_start_matches('[').trim_end_matches(']'),
                    p.parse::<u16>().ok()?,
                ))
            })
            .ok_or_else(|| failed("bad target address"))?;
        let method = if self.user.is_some() { 2u8 } else { 0u8 };
        stream.write_all(&[5, 1, method]).await.map_err(io)?;
        let mut reply = [0u8; 2];
        stream.read_exact(&mut reply).await.map_err(io)?;
        if reply[0] != 5 || reply[1] != method {
            return Err(failed("no acceptable authentication methods"));
        }
        if method == 2 {
            let user = self.user.clone().unwrap_or_default();
            let pass = self.password.clone().unwrap_or_default();
            if user.len() > 255 || pass.len() > 255 {
                return Err(failed("user name or password too long"));
            }
            let mut msg = vec![1, user.len() as u8];
            msg.extend_from_slice(user.as_bytes());
            msg.push(pass.len() as u8);
            msg.extend_from_slice(pass.as_bytes());
            stream.write_all(&msg).await.map_err(io)?;
            stream.read_exact(&mut reply).await.map_err(io)?;
            if reply[1] != 0 {
                return Err(failed("username/password authentication failed"));
            }
        }
        let mut msg = vec![5, 1, 0];
        match host.parse::<std::net::IpAddr>() {
            Ok(std::net::IpAddr::V4(ip)) => {
                msg.push(1);
                msg.extend_from_slice(&ip.octets());
            }
            Ok(std::net::IpAddr::V6(ip)) => {
                msg.push(4);
                msg.extend_from_slice(&ip.octets());
            }
            Err(_) => {
                if host.len() > 255 {
                    return Err(failed("host name too long"));
                }
                msg.push(3);
                msg.push(host.len() as u8);
                msg.extend_from_slice(host.as_bytes());
            }
        }
        msg.extend_from_slice(&port.to_be_bytes());
        stream.write_all(&msg).await.map_err(io)?;
        let mut head = [0u8; 4];
        stream.read_exact(&mut head).await.map_err(io)?;
        if head[1] != 0 {
            let why = match head[1] {
                2 => "connection not allowed by ruleset",
                3 => "network unreachable",
                4 => "host unreachable",
                5 => "connection refused",
                _ => "general SOCKS server failure",
            };
            return Err(failed(why));
        }
        let rest = match head[3] {
            1 => 4,
            4 => 16,
            3 => {
                let mut len = [0u8; 1];
                stream.read_exact(&mut len).await.map_err(io)?;
                usize::from(len[0])
            }
            _ => return Err(failed("bad reply address type")),
        };
        let mut skip = vec![0u8; rest + 2];
        stream.read_exact(&mut skip).await.map_err(io)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_auth_encoding_and_redaction() {
        assert_eq!(base64(b"user:pass"), "dXNlcjpwYXNz");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b"a"), "YQ==");
        let p = Proxy {
            scheme: "socks5".into(),
            host: "::1".into(),
            port: 1080,
            user: Some("u".into()),
            password: Some("hunter2".into()),
        };
        assert_eq!(p.address(), "[::1]:1080");
        assert!(!format!("{p:?}").contains("hunter2"));
    }
}
