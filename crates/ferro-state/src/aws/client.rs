//! The HTTP client of the s3 backend's AWS calls and of the http backend: rustls (ring) with
//! the system's roots (or `SSL_CERT_FILE`) plus any extra CA certificates (`custom_ca_bundle`,
//! `client_ca_certificate_pem`), an optional client certificate (mTLS), proxies chosen per URL
//! scheme with a `no_proxy` list (or the environment's `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY`
//! when none is configured), and the AWS SDKs' retry policy ([`RetryPolicy`]).

use std::sync::Arc;
use std::time::Duration;

/// How the client connects (its `Debug` shows no key).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ClientOptions {
    /// No certificate checks (`insecure`, `skip_cert_verification`).
    pub insecure: bool,
    /// Extra trusted CA certificates, PEM.
    pub ca_pem: Option<String>,
    /// A client certificate (PEM chain) and its private key (PEM).
    pub client_cert_pem: Option<String>,
    pub client_key_pem: Option<String>,
    /// The proxy of `http://` URLs, and of `https://` ones when `https_proxy` is not set (the
    /// legacy proxy mode of Terraform's s3 backend).
    pub http_proxy: Option<String>,
    pub https_proxy: Option<String>,
    /// Hosts reached directly: comma-separated names, `.domain` suffixes, `*`, addresses.
    pub no_proxy: Option<String>,
    pub retry: RetryPolicy,
}

impl std::fmt::Debug for ClientOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientOptions")
            .field("insecure", &self.insecure)
            .field("ca_pem", &self.ca_pem.is_some())
            .field("client_cert_pem", &self.client_cert_pem.is_some())
            .field(
                "client_key_pem",
                &self.client_key_pem.as_ref().map(|_| "<redacted>"),
            )
            .field("http_proxy", &self.http_proxy.as_deref().map(hide_userinfo))
            .field(
                "https_proxy",
                &self.https_proxy.as_deref().map(hide_userinfo),
            )
            .field("no_proxy", &self.no_proxy)
            .field("retry", &self.retry)
            .finish()
    }
}

/// A proxy URL with any `user:password@` replaced, for messages.
fn hide_userinfo(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    match rest.split_once('@') {
        Some((_, host)) if !host.contains('/') || rest.find('@') < rest.find('/') => {
            let sep = if scheme.is_empty() { "" } else { "://" };
            format!("{scheme}{sep}<redacted>@{host}")
        }
        _ => url.to_string(),
    }
}

/// The AWS SDKs' standard retry mode: a request that failed to connect, was throttled or got
/// a 5xx answer is sent again, up to `max_retries` times, after `random(0,1) × base × 2^n`
/// (at most `max_backoff`). Terraform's s3 backend retries 5 times by default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    pub max_retries: u32,
    pub base: Duration,
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 5,
            base: Duration::from_secs(1),
            max_backoff: Duration::from_secs(20),
        }
    }
}

impl RetryPolicy {
    /// The wait before retry `attempt` (1 for the first retry).
    pub fn backoff(&self, attempt: u32) -> Duration {
        use std::hash::{BuildHasher, Hasher};
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u32(attempt);
        let jitter = (h.finish() % 1_000_000) as f64 / 1_000_000.0;
        let scale = 2f64.powi(attempt.saturating_sub(1).min(30) as i32);
        self.base.mul_f64(jitter * scale).min(self.max_backoff)
    }
}

/// Error codes the AWS SDKs retry (throttling and transient errors).
const RETRYABLE_CODES: [&str; 17] = [
    "Throttling",
    "ThrottlingException",
    "ThrottledException",
    "RequestThrottledException",
    "TooManyRequestsException",
    "ProvisionedThroughputExceededException",
    "TransactionInProgressException",
    "RequestLimitExceeded",
    "BandwidthLimitExceeded",
    "LimitExceededException",
    "RequestThrottled",
    "SlowDown",
    "PriorRequestNotComplete",
    "EC2ThrottledException",
    "RequestTimeout",
    "RequestTimeoutException",
    "InternalError",
];

/// Whether an answer is worth sending the request again for.
pub fn retryable(resp: &super::Response) -> bool {
    if matches!(resp.status, 500 | 502 | 503 | 504 | 429) {
        return true;
    }
    if resp.status < 400 {
        return false;
    }
    let text = String::from_utf8_lossy(&resp.body);
    let code = super::xml_text(&text, "Code").or_else(|| {
        let v: serde_json::Value = serde_json::from_str(&text).ok()?;
        let ty = v.get("__type")?.as_str()?;
        Some(ty.rsplit('#').next().unwrap_or(ty).to_string())
    });
    code.is_some_and(|c| RETRYABLE_CODES.contains(&c.as_str()))
}

/// Agents for direct requests and through each configured proxy.
#[derive(Clone)]
pub struct HttpClient {
    direct: ureq::Agent,
    http: Option<ureq::Agent>,
    https: Option<ureq::Agent>,
    no_proxy: Vec<String>,
    pub retry: RetryPolicy,
}

impl std::fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpClient")
            .field("retry", &self.retry)
            .finish_non_exhaustive()
    }
}

impl HttpClient {
    /// A client as `opts` says; invalid certificates, keys or proxy URLs are errors.
    pub fn new(opts: &ClientOptions) -> Result<HttpClient, String> {
        let tls = tls_config(opts)?;
        let explicit = opts.http_proxy.is_some() || opts.https_proxy.is_some();
        let proxy_of = |url: &Option<String>, what: &str| -> Result<Option<ureq::Agent>, String> {
            match url.as_deref().filter(|u| !u.is_empty()) {
                None => Ok(None),
                Some(u) => {
                    let p = ureq::Proxy::new(u)
                        .map_err(|e| format!("invalid {what} URL {:?}: {e}", hide_userinfo(u)))?;
                    Ok(Some(agent(tls.clone(), Some(p))))
                }
            }
        };
        let http = proxy_of(&opts.http_proxy, "http_proxy")?;
        let https = match proxy_of(&opts.https_proxy, "https_proxy")? {
            Some(a) => Some(a),
            None => http.clone(),
        };
        let direct = if explicit {
            agent(tls, None)
        } else {
            agent(tls, ureq::Proxy::try_from_env())
        };
        Ok(HttpClient {
            direct,
            http,
            https,
            no_proxy: opts
                .no_proxy
                .as_deref()
                .unwrap_or_default()
                .split(',')
                .map(|s| s.trim().to_ascii_lowercase())
                .filter(|s| !s.is_empty())
                .collect(),
            retry: opts.retry.clone(),
        })
    }

    /// The agent a request to `url` goes through.
    pub fn agent_for(&self, url: &str) -> &ureq::Agent {
        let (scheme, rest) = url.split_once("://").unwrap_or(("https", url));
        let proxied = if scheme.eq_ignore_ascii_case("http") {
            &self.http
        } else {
            &self.https
        };
        match proxied {
            Some(a) if !self.bypass(rest) => a,
            _ => &self.direct,
        }
    }

    /// Whether the host of `rest` (`host[:port]/…`) is on the `no_proxy` list.
    fn bypass(&self, rest: &str) -> bool {
        let authority = rest.split(['/', '?']).next().unwrap_or_default();
        let authority = authority.rsplit('@').next().unwrap_or_default();
        let host = if let Some(v6) = authority.strip_prefix('[') {
            v6.split(']').next().unwrap_or_default()
        } else {
            authority.split(':').next().unwrap_or_default()
        }
        .to_ascii_lowercase();
        self.no_proxy.iter().any(|entry| {
            let entry = entry.split(':').next().unwrap_or_default();
            entry == "*"
                || host == entry.trim_start_matches("*.").trim_start_matches('.')
                || (entry.starts_with('.') || entry.starts_with("*."))
                    && host.ends_with(entry.trim_start_matches('*'))
        })
    }
}

fn tls_config(opts: &ClientOptions) -> Result<ureq::tls::TlsConfig, String> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots: Vec<ureq::tls::Certificate<'static>> = found
        .certs
        .iter()
        .map(|c| ureq::tls::Certificate::from_der(c.as_ref()).to_owned())
        .collect();
    if let Some(pem) = &opts.ca_pem {
        let extra = certificates(pem)?;
        if extra.is_empty() {
            return Err("the CA bundle holds no PEM certificate".into());
        }
        roots.extend(extra);
    }
    let mut builder = ureq::tls::TlsConfig::builder()
        .provider(ureq::tls::TlsProvider::Rustls)
        .root_certs(ureq::tls::RootCerts::Specific(Arc::new(roots)))
        .disable_verification(opts.insecure)
        .unversioned_rustls_crypto_provider(Arc::new(rustls::crypto::ring::default_provider()));
    match (&opts.client_cert_pem, &opts.client_key_pem) {
        (None, None) => {}
        (Some(cert), Some(key)) => {
            let chain = certificates(cert)?;
            if chain.is_empty() {
                return Err("the client certificate is not a PEM certificate".into());
            }
            // The key's text never appears in a message.
            let key = ureq::tls::PrivateKey::from_pem(key.as_bytes())
                .map_err(|_| "the client private key is not a PEM private key".to_string())?;
            builder = builder.client_cert(Some(ureq::tls::ClientCert::new_with_certs(&chain, key)));
        }
        _ => return Err("a client certificate and its private key must be given together".into()),
    }
    Ok(builder.build())
}

/// The certificates of a PEM text (other items skipped).
fn certificates(pem: &str) -> Result<Vec<ureq::tls::Certificate<'static>>, String> {
    let mut out = Vec::new();
    for item in ureq::tls::parse_pem(pem.as_bytes()) {
        match item {
            Ok(ureq::tls::PemItem::Certificate(c)) => out.push(c),
            Ok(_) => {}
            Err(e) => return Err(format!("invalid PEM data: {e}")),
        }
    }
    Ok(out)
}

fn agent(tls: ureq::tls::TlsConfig, proxy: Option<ureq::Proxy>) -> ureq::Agent {
    ureq::Agent::config_builder()
        .tls_config(tls)
        .proxy(proxy)
        .http_status_as_error(false)
        .allow_non_standard_methods(true)
        .timeout_connect(Some(Duration::from_secs(10)))
        .timeout_recv_response(Some(Duration::from_secs(120)))
        .user_agent(concat!("ferro/", env!("CARGO_PKG_VERSION")))
        .build()
        .into()
}

/// A client with the system's roots and the environment's proxies; `insecure` turns
/// certificate checks off.
pub fn http_agent(insecure: bool) -> HttpClient {
    let opts = ClientOptions {
        insecure,
        ..ClientOptions::default()
    };
    // Without certificates or proxies to read, building cannot fail.
    HttpClient::new(&opts).unwrap_or_else(|_| HttpClient {
        direct: agent(
            ureq::tls::TlsConfig::builder()
                .provider(ureq::tls::TlsProvider::Rustls)
                .unversioned_rustls_crypto_provider(Arc::new(
                    rustls::crypto::ring::default_provider(),
                ))
                .build(),
            None,
        ),
        http: None,
        https: None,
        no_proxy: Vec::new(),
        retry: RetryPolicy::default(),
    })
}

/// A client for the instance metadata and container credential endpoints: never through a
/// proxy, and quick to give up (they exist only on AWS compute).
pub(crate) fn metadata_agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .allow_non_standard_methods(true)
        .proxy(None)
        .timeout_connect(Some(Duration::from_secs(1)))
        .timeout_global(Some(Duration::from_secs(5)))
        .user_agent(concat!("ferro/", env!("CARGO_PKG_VERSION")))
        .build()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxies_are_chosen_per_scheme_and_no_proxy_bypasses_them() {
        let c = HttpClient::new(&ClientOptions {
            http_proxy: Some("http://127.0.0.1:1".into()),
            no_proxy: Some("internal.example, .corp.example".into()),
            ..ClientOptions::default()
        })
        .unwrap();
        let direct: *const ureq::Agent = &c.direct;
        let via = |u: &str| !std::ptr::eq(c.agent_for(u), direct);
        assert!(via("http://s3.example/b/k"));
        // The legacy mode: http_proxy also carries https requests.
        assert!(via("https://s3.example/b/k"));
        assert!(!via("https://internal.example:443/x"));
        assert!(!via("https://a.corp.example/x"));
        assert!(via("https://corp.example.net/x"));
        assert_eq!(
            hide_userinfo("http://user:secret@proxy:3128"),
            "http://<redacted>@proxy:3128"
        );
        assert!(HttpClient::new(&ClientOptions {
            ca_pem: Some("not a certificate".into()),
            ..ClientOptions::default()
        })
        .is_err());
    }

    #[test]
    fn backoff_grows_and_is_capped() {
        let p = RetryPolicy::default();
        for attempt in 1..10 {
            let d = p.backoff(attempt);
            assert!(d <= Duration::from_secs(20));
            assert!(d <= Duration::from_secs(1) * 2u32.pow(attempt - 1));
        }
    }
}
