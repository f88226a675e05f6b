//! `gcs::` module sources: objects of a Google Cloud Storage bucket, read through the JSON API
//! as Terraform's getter reads them.
//!
//! * The address is `https://www.googleapis.com/storage/v1/BUCKET/OBJECT`, with an optional
//!   `#GENERATION` (digits) that pins an object's generation.
//! * An archive (`.zip`, `.tar.gz`, `.tgz`, `?archive=`) is one object; anything else is a
//!   prefix: every object under it is downloaded to its path relative to the prefix, or, when
//!   the only object is the prefix itself, that one file under its base name.
//! * Credentials as Google's client libraries find them: `GOOGLE_OAUTH_ACCESS_TOKEN`; the
//!   application default credentials file (`GOOGLE_APPLICATION_CREDENTIALS`, else gcloud's
//!   `application_default_credentials.json`) holding a service account key (a signed JWT
//!   exchanged at its `token_uri`) or an authorized user's refresh token; the metadata server
//!   on Google Compute Engine (`GCE_METADATA_HOST` names another).
//! * `STORAGE_EMULATOR_HOST` sends the requests to an emulator over plain HTTP, where no
//!   credentials are required (those found are still sent).

use super::http::{HttpClient, Response};
use base64::Engine;
use std::path::{Path, PathBuf};

const SCOPE: &str = "https://www.googleapis.com/auth/devstorage.read_only";
const GOOGLE_TOKEN_URI: &str = "https://oauth2.googleapis.com/token";

/// One object (or prefix) a `gcs::` source names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcsUrl {
    pub bucket: String,
    pub object: String,
    /// `#GENERATION`: the object's generation to read, when given as digits.
    pub generation: Option<String>,
}

impl GcsUrl {
    /// Read `https://www.googleapis.com/storage/v1/BUCKET/OBJECT[#GENERATION]`.
    pub fn parse(url: &str) -> Result<GcsUrl, String> {
        let invalid = || {
            format!("{url:?} is not a valid GCS URL (https://www.googleapis.com/storage/v1/BUCKET/PATH)")
        };
        let (url_part, fragment) = match url.split_once('#') {
            Some((u, f)) => (u, Some(f)),
            None => (url, None),
        };
        let rest = url_part
            .strip_prefix("https://")
            .or_else(|| url_part.strip_prefix("http://"))
            .ok_or_else(invalid)?;
        let (host, path) = rest.split_once('/').ok_or_else(invalid)?;
        let host = host.split(':').next().unwrap_or(host);
        if !host.ends_with("googleapis.com") || host.split('.').count() != 3 {
            return Err(invalid());
        }
        let path = path.split('?').next().unwrap_or(path);
        let mut parts = path.splitn(4, '/');
        let (Some("storage"), Some("v1"), Some(bucket), Some(object)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(invalid());
        };
        if bucket.is_empty() {
            return Err(invalid());
        }
        let generation = fragment
            .filter(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
            .map(str::to_string);
        Ok(GcsUrl {
            bucket: bucket.to_string(),
            object: object.to_string(),
            generation,
        })
    }
}

/// A client of the JSON API with the credentials found for this run.
pub struct Gcs<'a> {
    http: &'a HttpClient,
    base: String,
    token: Option<String>,
}

impl<'a> Gcs<'a> {
    /// Find credentials (see the module documentation) and the API's address.
    pub fn new(http: &'a HttpClient) -> Result<Gcs<'a>, String> {
        let emulator = std::env::var("STORAGE_EMULATOR_HOST")
            .ok()
            .filter(|h| !h.is_empty());
        let base = match &emulator {
            Some(h) if h.contains("://") => format!("{}/storage/v1", h.trim_end_matches('/')),
            Some(h) => format!("http://{}/storage/v1", h.trim_end_matches('/')),
            None => "https://storage.googleapis.com/storage/v1".to_string(),
        };
        let token = match access_token(http)? {
            Some(t) => Some(t),
            None if emulator.is_some() => None,
            None => return Err("google: could not find default credentials (set GOOGLE_APPLICATION_CREDENTIALS to a credentials file, GOOGLE_OAUTH_ACCESS_TOKEN to an access token, or run `gcloud auth application-default login`)".into()),
        };
        Ok(Gcs { http, base, token })
    }

    fn get(&self, url: &str) -> Result<Response, String> {
        let resp = self.http.get(url, self.token.as_deref())?;
        if (200..300).contains(&resp.status) {
            Ok(resp)
        } else {
            Err(api_error(&resp))
        }
    }

    /// The names of every object whose name starts with `prefix`.
    pub fn list(&self, bucket: &str, prefix: &str) -> Result<Vec<String>, String> {
        let mut names = Vec::new();
        let mut page: Option<String> = None;
        loop {
            let mut url = format!(
                "{}/b/{}/o?prefix={}&fields=items(name),nextPageToken",
                self.base,
                encode(bucket),
                encode(prefix)
            );
            if let Some(p) = &page {
                url.push_str(&format!("&pageToken={}", encode(p)));
            }
            let resp = self.get(&url)?;
            let v: serde_json::Value = serde_json::from_slice(&resp.body)
                .map_err(|e| format!("listing gs://{bucket}/{prefix}: {e}"))?;
            for item in v["items"].as_array().into_iter().flatten() {
                if let Some(n) = item["name"].as_str() {
                    names.push(n.to_string());
                }
            }
            match v["nextPageToken"].as_str() {
                Some(t) if !t.is_empty() => page = Some(t.to_string()),
                _ => return Ok(names),
            }
        }
    }

    /// An object's content (of `generation`, when given).
    pub fn read(
        &self,
        bucket: &str,
        name: &str,
        generation: Option<&str>,
    ) -> Result<Vec<u8>, String> {
        let mut url = format!(
            "{}/b/{}/o/{}?alt=media",
            self.base,
            encode(bucket),
            encode(name)
        );
        if let Some(g) = generation {
            url.push_str(&format!("&generation={g}"));
        }
        Ok(self.get(&url)?.body)
    }

    /// Put what `url` names (a prefix, or one object) under `dest`, through a sibling
    /// temporary directory so that a failure leaves nothing behind.
    pub fn download_tree(&self, url: &GcsUrl, dest: &Path) -> Result<(), String> {
        let names = self.list(&url.bucket, &url.object)?;
        if names.is_empty() {
            return Err(format!(
                "no objects found under gs://{}/{}",
                url.bucket, url.object
            ));
        }
        let single_file = names.iter().all(|n| n == &url.object);
        super::replace_dir_with(dest, |tmp| {
            if single_file {
                let base = url.object.rsplit('/').next().unwrap_or(&url.object);
                let body = self.read(&url.bucket, &url.object, url.generation.as_deref())?;
                return super::write_under(tmp, base, &body);
            }
            let prefix = url.object.trim_end_matches('/');
            for name in names.iter().filter(|n| !n.ends_with('/')) {
                let rel = name
                    .strip_prefix(prefix)
                    .unwrap_or(name)
                    .trim_start_matches('/');
                if rel.is_empty() || rel.split('/').any(|c| c == ".." || c == ".") {
                    return Err(format!("refusing the object name {name:?}"));
                }
                let body = self.read(&url.bucket, name, None)?;
                super::write_under(tmp, rel, &body)?;
            }
            Ok(())
        })
    }
}

/// The JSON API's error message, or the status.
fn api_error(resp: &Response) -> String {
    let msg = serde_json::from_slice::<serde_json::Value>(&resp.body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(str::to_string));
    match msg {
        Some(m) => format!("googleapi: Error {}: {m}", resp.status),
        None => format!("googleapi: got HTTP response code {}", resp.status_text()),
    }
}

/// Percent-encode everything but RFC 3986's unreserved characters.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// The access token of the first credentials found, if any.
fn access_token(http: &HttpClient) -> Result<Option<String>, String> {
    if let Ok(t) = std::env::var("GOOGLE_OAUTH_ACCESS_TOKEN") {
        if !t.is_empty() {
            return Ok(Some(t));
        }
    }
    let file = match std::env::var("GOOGLE_APPLICATION_CREDENTIALS") {
        Ok(p) if !p.is_empty() => Some(PathBuf::from(p)),
        _ => std::env::var("HOME")
            .ok()
            .map(|h| PathBuf::from(h).join(".config/gcloud/application_default_credentials.json"))
            .filter(|p| p.is_file()),
    };
    if let Some(path) = file {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("google: reading credentials {}: {e}", path.display()))?;
        let v: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| format!("google: credentials {} are not JSON: {e}", path.display()))?;
        return credentials_token(http, &v, &path).map(Some);
    }
    metadata_token(http)
}

fn credentials_token(
    http: &HttpClient,
    v: &serde_json::Value,
    path: &Path,
) -> Result<String, String> {
    let field = |k: &str| {
        v[k].as_str()
            .filter(|s| !s.is_empty())
            .ok_or_else(|| format!("google: credentials {} have no {k:?}", path.display()))
    };
    let token_uri = v["token_uri"].as_str().unwrap_or(GOOGLE_TOKEN_URI);
    let body = match v["type"].as_str() {
        Some("service_account") => {
            let assertion = service_account_jwt(
                field("client_email")?,
                field("private_key")?,
                v["private_key_id"].as_str(),
                token_uri,
            )?;
            form(&[
                ("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                ("assertion", &assertion),
            ])
        }
        Some("authorized_user") => form(&[
            ("grant_type", "refresh_token"),
            ("client_id", field("client_id")?),
            ("client_secret", field("client_secret")?),
            ("refresh_token", field("refresh_token")?),
        ]),
        other => {
            return Err(format!(
                "google: unsupported credential type {:?} in {}",
                other.unwrap_or(""),
                path.display()
            ))
        }
    };
    let resp = http.send(
        "POST",
        token_uri,
        &[("Content-Type", "application/x-www-form-urlencoded")],
        Some(body.as_bytes()),
    )?;
    token_from(&resp, token_uri)
}

fn token_from(resp: &Response, from: &str) -> Result<String, String> {
    let v: serde_json::Value = serde_json::from_slice(&resp.body).unwrap_or_default();
    if !(200..300).contains(&resp.status) {
        let why = v["error_description"]
            .as_str()
            .or_else(|| v["error"].as_str())
            .unwrap_or("");
        return Err(format!(
            "oauth2: cannot fetch token from {from}: {} {why}",
            resp.status_text()
        )
        .trim_end()
        .to_string());
    }
    v["access_token"]
        .as_str()
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .ok_or_else(|| format!("oauth2: the answer of {from} holds no access_token"))
}

/// A JWT for the token endpoint, signed RS256 with the service account's key.
fn service_account_jwt(
    email: &str,
    private_key_pem: &str,
    key_id: Option<&str>,
    audience: &str,
) -> Result<String, String> {
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut header = serde_json::json!({"alg": "RS256", "typ": "JWT"});
    if let Some(kid) = key_id {
        header["kid"] = kid.into();
    }
    let claims = serde_json::json!({
        "iss": email,
        "scope": SCOPE,
        "aud": audience,
        "iat": now,
        "exp": now + 3600,
    });
    let signing_input = format!(
        "{}.{}",
        b64.encode(header.to_string()),
        b64.encode(claims.to_string())
    );
    let der = pem_body(private_key_pem)
        .ok_or_else(|| "google: the service account's private_key is not a PEM key".to_string())?;
    let key = ring::signature::RsaKeyPair::from_pkcs8(&der)
        .map_err(|e| format!("google: the service account's private_key cannot be read: {e}"))?;
    let mut sig = vec![0u8; key.public().modulus_len()];
    key.sign(
        &ring::signature::RSA_PKCS1_SHA256,
        &ring::rand::SystemRandom::new(),
        signing_input.as_bytes(),
        &mut sig,
    )
    .map_err(|_| "google: signing the token request failed".to_string())?;
    Ok(format!("{signing_input}.{}", b64.encode(sig)))
}

/// The DER bytes of the first PEM block of `text`.
fn pem_body(text: &str) -> Option<Vec<u8>> {
    let start = text.find("-----BEGIN ")?;
    let after = &text[start..];
    let body_start = after.find('\n')? + 1;
    let end = after.find("-----END ")?;
    let b64: String = after[body_start..end]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    base64::engine::general_purpose::STANDARD.decode(b64).ok()
}

/// The metadata server's token, on Google Compute Engine (or where `GCE_METADATA_HOST` points).
fn metadata_token(http: &HttpClient) -> Result<Option<String>, String> {
    let host = match std::env::var("GCE_METADATA_HOST") {
        Ok(h) if !h.is_empty() => h,
        _ => {
            use std::net::ToSocketAddrs;
            if ("metadata.google.internal", 80).to_socket_addrs().is_err() {
                return Ok(None);
            }
            "metadata.google.internal".to_string()
        }
    };
    let url = format!("http://{host}/computeMetadata/v1/instance/service-accounts/default/token");
    let resp = http.send("GET", &url, &[("Metadata-Flavor", "Google")], None)?;
    token_from(&resp, &url).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_name_a_bucket_an_object_and_a_generation() {
        assert_eq!(
            GcsUrl::parse("https://www.googleapis.com/storage/v1/mods/net/vpc.zip#1712").unwrap(),
            GcsUrl {
                bucket: "mods".into(),
                object: "net/vpc.zip".into(),
                generation: Some("1712".into()),
            }
        );
        assert_eq!(
            GcsUrl::parse("https://www.googleapis.com/storage/v1/mods/net")
                .unwrap()
                .object,
            "net"
        );
        assert!(GcsUrl::parse("https://example.com/storage/v1/mods/net").is_err());
        assert!(GcsUrl::parse("https://www.googleapis.com/storage/v2/mods/net").is_err());
        assert!(GcsUrl::parse("https://www.googleapis.com/storage/v1/mods").is_err());
    }

    #[test]
    fn names_are_percent_encoded() {
        assert_eq!(encode("a b/c+d~e"), "a%20b%2Fc%2Bd~e");
    }
}
