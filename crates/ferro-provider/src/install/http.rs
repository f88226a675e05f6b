//! The HTTP client of registries, network mirrors and remote module archives: blocking GETs
//! over rustls (ring), trusting the system's roots or those `SSL_CERT_FILE`/`SSL_CERT_DIR`
//! name, through `HTTPS_PROXY`/`HTTP_PROXY`/`ALL_PROXY` except for `NO_PROXY` hosts. A
//! registry's API requests carry the bearer token the CLI configuration or `TF_TOKEN_<host>`
//! gives for the registry's hostname; package downloads carry none, as in Terraform.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// The most any one response body may hold (a provider package is well below this).
const MAX_BODY: u64 = 1 << 30;

/// A response read to its end.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    /// The URL the response came from, after redirects.
    pub url: String,
    headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// A header's value (names compared without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The status line's words, as Go prints `resp.Status` (`404 Not Found`).
    pub fn status_text(&self) -> String {
        let reason = match self.status {
            200 => "OK",
            204 => "No Content",
            301 => "Moved Permanently",
            302 => "Found",
            400 => "Bad Request",
            401 => "Unauthorized",
            403 => "Forbidden",
            404 => "Not Found",
            500 => "Internal Server Error",
            502 => "Bad Gateway",
            503 => "Service Unavailable",
            _ => "",
        };
        format!("{} {reason}", self.status).trim_end().to_string()
    }
}

/// Bearer tokens by hostname (lower case, with any port).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    pub tokens: BTreeMap<String, String>,
}

impl Credentials {
    /// The token for `host`: `TF_TOKEN_<host>` (dots written `_`, hyphens `__`), else the CLI
    /// configuration's `credentials "host"` block.
    pub fn token_for(&self, host: &str) -> Option<String> {
        let host = host.to_lowercase();
        for (k, v) in std::env::vars() {
            if let Some(enc) = k.strip_prefix("TF_TOKEN_") {
                if decode_token_var(enc).eq_ignore_ascii_case(&host) && !v.is_empty() {
                    return Some(v);
                }
            }
        }
        self.tokens.get(&host).cloned()
    }
}

/// `registry_example__one_com` → `registry.example-one.com`.
fn decode_token_var(enc: &str) -> String {
    enc.replace("__", "\u{0}")
        .replace('_', ".")
        .replace('\u{0}', "-")
}

/// The shared client of one `init` run.
pub struct HttpClient {
    agent: ureq::Agent,
    pub credentials: Credentials,
}

impl HttpClient {
    pub fn new(credentials: Credentials) -> Result<HttpClient, String> {
        let roots = system_roots()?;
        let tls = ureq::tls::TlsConfig::builder()
            .provider(ureq::tls::TlsProvider::Rustls)
            .root_certs(ureq::tls::RootCerts::Specific(Arc::new(roots)))
            .unversioned_rustls_crypto_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .build();
        let config = ureq::Agent::config_builder()
            .tls_config(tls)
            .proxy(ureq::Proxy::try_from_env())
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(10)))
            .timeout_recv_response(Some(Duration::from_secs(60)))
            .user_agent(concat!("ferro/", env!("CARGO_PKG_VERSION")))
            .build();
        Ok(HttpClient {
            agent: config.into(),
            credentials,
        })
    }

    /// GET `url`, with `token` as its bearer token. Any status is a response; only failing
    /// to connect or to read is an error.
    pub fn get(&self, url: &str, token: Option<&str>) -> Result<Response, String> {
        let auth = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> = auth
            .as_deref()
            .map(|a| ("Authorization", a))
            .into_iter()
            .collect();
        self.send("GET", url, &headers, None)
    }

    /// One request: `method` (`GET` or `POST`) to `url` with `headers`, and `body` for a
    /// POST. Any status is a response; only failing to connect or to read is an error.
    pub fn send(
        &self,
        method: &str,
        url: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Result<Response, String> {
        let result = if method == "POST" {
            let mut req = self.agent.post(url);
            for (k, v) in headers {
                req = req.header(*k, *v);
            }
            req.send(body.unwrap_or_default())
        } else {
            let mut req = self.agent.get(url);
            for (k, v) in headers {
                req = req.header(*k, *v);
            }
            req.call()
        };
        let verb = if method == "POST" { "Post" } else { "Get" };
        let mut resp = result.map_err(|e| format!("{verb} {url:?}: {e}"))?;
        let status = resp.status().as_u16();
        let headers = resp
            .headers()
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let final_url = ureq::ResponseExt::get_uri(&resp).to_string();
        let body = resp
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .read_to_vec()
            .map_err(|e| format!("{verb} {url:?}: reading the response: {e}"))?;
        Ok(Response {
            status,
            url: final_url,
            headers,
            body,
        })
    }
}

/// The roots rustls-native-certs finds: the platform's store, or the file and directory
/// `SSL_CERT_FILE` and `SSL_CERT_DIR` name.
fn system_roots() -> Result<Vec<ureq::tls::Certificate<'static>>, String> {
    let found = rustls_native_certs::load_native_certs();
    if found.certs.is_empty() {
        let why = found
            .errors
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("; ");
        return Err(format!(
            "no trusted root certificates could be loaded{}",
            if why.is_empty() {
                String::new()
            } else {
                format!(": {why}")
            }
        ));
    }
    Ok(found
        .certs
        .iter()
        .map(|c| ureq::tls::Certificate::from_der(c.as_ref()).to_owned())
        .collect())
}

/// The `host[:port]` of an absolute URL, lower case.
pub fn url_host(url: &str) -> Option<String> {
    let rest = url.split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit('@').next()?;
    Some(authority.to_lowercase())
}

/// Resolve `reference` against `base` as a browser would (absolute URLs, `//host/…`,
/// `/path` and relative paths, with `.` and `..` segments removed).
pub fn resolve_url(base: &str, reference: &str) -> String {
    if reference.contains("://") {
        return reference.to_string();
    }
    let (scheme, rest) = base.split_once("://").unwrap_or(("https", base));
    if let Some(r) = reference.strip_prefix("//") {
        return format!("{scheme}://{r}");
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if reference.starts_with('/') {
        return format!("{scheme}://{authority}{}", remove_dot_segments(reference));
    }
    let path = &rest[authority.len()..];
    let path = path.split(['?', '#']).next().unwrap_or("");
    let dir = match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "/",
    };
    format!(
        "{scheme}://{authority}{}",
        remove_dot_segments(&format!("{dir}{reference}"))
    )
}

/// RFC 3986's `remove_dot_segments` on a path (a query is left alone).
fn remove_dot_segments(path: &str) -> String {
    let (path, query) = match path.find(['?', '#']) {
        Some(i) => (&path[..i], &path[i..]),
        None => (path, ""),
    };
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    for (i, seg) in segments.iter().enumerate() {
        let last = i + 1 == segments.len();
        match *seg {
            "." => {
                if last {
                    out.push("");
                }
            }
            ".." => {
                if out.len() > 1 {
                    out.pop();
                }
                if last {
                    out.push("");
                }
            }
            s => out.push(s),
        }
    }
    format!("{}{query}", out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_resolve_as_browsers_resolve_them() {
        let base = "https://reg.example:8443/.well-known/terraform.json";
        assert_eq!(
            resolve_url(base, "/v1/providers/"),
            "https://reg.example:8443/v1/providers/"
        );
        assert_eq!(
            resolve_url(base, "v1/providers/"),
            "https://reg.example:8443/.well-known/v1/providers/"
        );
        assert_eq!(
            resolve_url(base, "https://other.example/p/"),
            "https://other.example/p/"
        );
        assert_eq!(
            resolve_url(base, "//cdn.example/x"),
            "https://cdn.example/x"
        );
        assert_eq!(
            url_host("https://user@Reg.Example:8443/x?y").as_deref(),
            Some("reg.example:8443")
        );
    }

    #[test]
    fn token_variable_names_decode_as_terraform_encodes_them() {
        assert_eq!(
            decode_token_var("registry_example__one_com"),
            "registry.example-one.com"
        );
        let c = Credentials {
            tokens: [("app.terraform.io".to_string(), "abc".to_string())].into(),
        };
        assert_eq!(c.token_for("App.Terraform.io").as_deref(), Some("abc"));
        assert_eq!(c.token_for("example.com"), None);
    }
}
