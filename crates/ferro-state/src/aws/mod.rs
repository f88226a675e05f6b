//! Talking to AWS APIs (S3, DynamoDB, STS) the way the s3 backend, `terraform_remote_state`
//! and `s3::` module sources need: credentials found as the AWS SDKs find them
//! ([`credentials`]), requests signed with SigV4 (the `aws-sigv4` crate) and sent over a
//! blocking HTTP client (`ureq` on rustls), and the services' errors read into
//! [`AwsError`] (operation, HTTP status, AWS error code, message).

pub mod client;
pub mod credentials;
pub mod dynamodb;
pub mod endpoints;
pub mod s3;
mod sources;
pub mod sts;

pub use client::{http_agent, ClientOptions, HttpClient, RetryPolicy};
pub use credentials::{AwsCredentials, CredentialSettings};

use std::time::SystemTime;

/// Credentials and a region, with the HTTP client that uses them.
pub struct Session {
    pub agent: HttpClient,
    pub creds: AwsCredentials,
    pub region: String,
}

impl Session {
    /// Sign and send a request to `service`.
    pub fn send(
        &self,
        service: Service,
        method: &str,
        url: &str,
        headers: Vec<(String, String)>,
        body: &[u8],
    ) -> Result<Response, String> {
        send_signed(
            &self.agent,
            &self.creds,
            Signed {
                service,
                region: &self.region,
                method,
                url,
                headers,
                body,
            },
        )
    }
}

/// A failed AWS request: which operation, the HTTP status (0: no response), the service's
/// error code (`NoSuchBucket`, `ConditionalCheckFailedException`, ...) and message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwsError {
    pub operation: String,
    pub status: u16,
    pub code: String,
    pub message: String,
}

impl std::fmt::Display for AwsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.status == 0 {
            return write!(f, "{}: {}", self.operation, self.message);
        }
        write!(f, "{}: ", self.operation)?;
        if !self.code.is_empty() {
            write!(f, "{}: ", self.code)?;
        }
        if !self.message.is_empty() {
            write!(f, "{} ", self.message)?;
        }
        write!(f, "(HTTP status {})", self.status)
    }
}

/// A response read to its end.
#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
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

    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }
}

/// Send one request; only failing to connect or to read is an error.
pub fn send(
    agent: &HttpClient,
    method: &str,
    url: &str,
    headers: &[(String, String)],
    body: &[u8],
) -> Result<Response, String> {
    let mut builder = ureq::http::Request::builder().method(method).uri(url);
    for (k, v) in headers {
        builder = builder.header(k.as_str(), v.as_str());
    }
    let agent = agent.agent_for(url);
    let result = if body.is_empty() && !matches!(method, "PUT" | "POST") {
        builder.body(()).map(|r| agent.run(r))
    } else {
        builder.body(body).map(|r| agent.run(r))
    };
    let mut resp = result
        .map_err(|e| format!("invalid request {method} {url}: {e}"))?
        .map_err(|e| format!("{method} {url}: {e}"))?;
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
    let body = resp
        .body_mut()
        .with_config()
        .limit(4 << 30)
        .read_to_vec()
        .map_err(|e| format!("{method} {url}: reading the response: {e}"))?;
    Ok(Response {
        status,
        headers,
        body,
    })
}

/// How a service wants its requests signed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Service {
    S3,
    DynamoDb,
    Sts,
}

impl Service {
    fn signing_name(self) -> &'static str {
        match self {
            Service::S3 => "s3",
            Service::DynamoDb => "dynamodb",
            Service::Sts => "sts",
        }
    }
}

/// A signed request to an AWS service: `url` already percent-encoded.
pub struct Signed<'a> {
    pub service: Service,
    pub region: &'a str,
    pub method: &'a str,
    pub url: &'a str,
    pub headers: Vec<(String, String)>,
    pub body: &'a [u8],
}

/// Sign `req` with `creds` (SigV4; S3 gets its single-encoded, unnormalised path and the
/// `x-amz-content-sha256` header) and send it; a failed connection, a throttled request or a
/// 5xx answer is signed and sent again as the client's retry policy says.
pub fn send_signed(
    agent: &HttpClient,
    creds: &AwsCredentials,
    req: Signed<'_>,
) -> Result<Response, String> {
    let mut attempt = 0;
    loop {
        let result = send_signed_once(agent, creds, &req);
        let again = match &result {
            Err(_) => true,
            Ok(resp) => client::retryable(resp),
        };
        if !again || attempt >= agent.retry.max_retries {
            return result;
        }
        attempt += 1;
        std::thread::sleep(agent.retry.backoff(attempt));
    }
}

fn send_signed_once(
    agent: &HttpClient,
    creds: &AwsCredentials,
    req: &Signed<'_>,
) -> Result<Response, String> {
    use aws_sigv4::http_request::{
        sign, PayloadChecksumKind, PercentEncodingMode, SignableBody, SignableRequest,
        SigningSettings, UriPathNormalizationMode,
    };
    let mut settings = SigningSettings::default();
    if req.service == Service::S3 {
        settings.percent_encoding_mode = PercentEncodingMode::Single;
        settings.uri_path_normalization_mode = UriPathNormalizationMode::Disabled;
        settings.payload_checksum_kind = PayloadChecksumKind::XAmzSha256;
    }
    let identity = aws_credential_types::Credentials::new(
        creds.access_key_id.clone(),
        creds.secret_access_key.clone(),
        creds.session_token.clone(),
        None,
        "ferro",
    )
    .into();
    let params = aws_sigv4::sign::v4::SigningParams::builder()
        .identity(&identity)
        .region(req.region)
        .name(req.service.signing_name())
        .time(SystemTime::now())
        .settings(settings)
        .build()
        .map_err(|e| format!("cannot sign the request: {e}"))?
        .into();
    let signable = SignableRequest::new(
        req.method,
        req.url,
        req.headers.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        SignableBody::Bytes(req.body),
    )
    .map_err(|e| format!("cannot sign the request to {}: {e}", req.url))?;
    let (instructions, _) = sign(signable, &params)
        .map_err(|e| format!("cannot sign the request to {}: {e}", req.url))?
        .into_parts();
    let mut headers = req.headers.clone();
    for (k, v) in instructions.headers() {
        headers.push((k.to_string(), v.to_string()));
    }
    send(agent, req.method, req.url, &headers, req.body)
}

/// AWS's URI encoding: everything but `A-Z a-z 0-9 - _ . ~` as `%XX`; `/` kept when
/// `keep_slash`.
pub fn uri_encode(s: &str, keep_slash: bool) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b'/' if keep_slash => out.push('/'),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The text of the first `<tag>…</tag>` in an XML document (entities decoded).
pub fn xml_text(xml: &str, tag: &str) -> Option<String> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let start = xml.find(&open)? + open.len();
    let end = start + xml[start..].find(&close)?;
    Some(xml_unescape(&xml[start..end]))
}

/// Every `<tag>…</tag>` text, in order.
pub fn xml_texts(xml: &str, tag: &str) -> Vec<String> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find(&open) {
        let start = i + open.len();
        let Some(len) = rest[start..].find(&close) else {
            break;
        };
        out.push(xml_unescape(&rest[start..start + len]));
        rest = &rest[start + len + close.len()..];
    }
    out
}

fn xml_unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let Some(end) = tail.find(';') else {
            out.push_str(tail);
            return out;
        };
        let entity = &tail[1..end];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            e if e.starts_with("#x") => u32::from_str_radix(&e[2..], 16)
                .ok()
                .and_then(char::from_u32),
            e if e.starts_with('#') => e[1..].parse().ok().and_then(char::from_u32),
            _ => None,
        };
        match decoded {
            Some(c) => out.push(c),
            None => out.push_str(&tail[..=end]),
        }
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The error of a failed S3 or STS response (XML `<Code>`/`<Message>`), for `operation`.
pub fn xml_error(operation: &str, resp: &Response) -> AwsError {
    let text = String::from_utf8_lossy(&resp.body);
    let code = xml_text(&text, "Code").unwrap_or_else(|| match resp.status {
        404 => "NotFound".to_string(),
        403 => "Forbidden".to_string(),
        301 => "PermanentRedirect".to_string(),
        412 => "PreconditionFailed".to_string(),
        _ => String::new(),
    });
    AwsError {
        operation: operation.to_string(),
        status: resp.status,
        code,
        message: xml_text(&text, "Message").unwrap_or_default(),
    }
}

/// A request that got no response.
pub fn transport_error(operation: &str, message: String) -> AwsError {
    AwsError {
        operation: operation.to_string(),
        status: 0,
        code: String::new(),
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_and_xml() {
        assert_eq!(
            uri_encode("env:/a b/x.tfstate", true),
            "env%3A/a%20b/x.tfstate"
        );
        assert_eq!(uri_encode("a/b", false), "a%2Fb");
        let xml = "<Error><Code>NoSuchBucket</Code><Message>a &amp; b</Message></Error>";
        assert_eq!(xml_text(xml, "Code").as_deref(), Some("NoSuchBucket"));
        assert_eq!(xml_text(xml, "Message").as_deref(), Some("a & b"));
        assert_eq!(
            xml_texts("<K>a</K><K>b&#x2F;</K>", "K"),
            vec!["a".to_string(), "b/".to_string()]
        );
        let e = AwsError {
            operation: "GetObject".into(),
            status: 403,
            code: "InvalidAccessKeyId".into(),
            message: "bad key".into(),
        };
        assert_eq!(
            e.to_string(),
            "GetObject: InvalidAccessKeyId: bad key (HTTP status 403)"
        );
    }
}
