//! The credential sources the AWS SDKs consult beyond keys, profiles and STS:
//!
//! * a profile's `credential_process`: a command run with `sh -c` whose standard output is
//!   the JSON document the SDKs read (`Version` 1, `AccessKeyId`, `SecretAccessKey`,
//!   `SessionToken`);
//! * a profile's IAM Identity Center (SSO) role: the access token `aws sso login` cached in
//!   `~/.aws/sso/cache/<sha1 of the session name or start URL>.json`, exchanged at the portal
//!   (`GetRoleCredentials`, or `endpoints.sso`) for the role's credentials;
//! * the container credential endpoint (`AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` under
//!   `http://169.254.170.2`, or `AWS_CONTAINER_CREDENTIALS_FULL_URI`, with the authorization
//!   token of `AWS_CONTAINER_AUTHORIZATION_TOKEN(_FILE)`);
//! * the EC2 instance metadata service: an IMDSv2 session token, then the role's credentials
//!   (IMDSv1 when the token request is not understood), at `ec2_metadata_service_endpoint`,
//!   `AWS_EC2_METADATA_SERVICE_ENDPOINT` or the address of the endpoint mode.
//!
//! No secret appears in an error.

use super::credentials::{config_section, CredentialSettings};
use super::{send, AwsCredentials, HttpClient};
use std::collections::BTreeMap;

/// The credentials of a JSON answer with the given key names.
fn keys_of(
    json: &serde_json::Value,
    id: &str,
    secret: &str,
    token: &str,
) -> Option<AwsCredentials> {
    let text = |k: &str| json.get(k).and_then(|v| v.as_str()).map(str::to_string);
    Some(AwsCredentials {
        access_key_id: text(id).filter(|v| !v.is_empty())?,
        secret_access_key: text(secret).filter(|v| !v.is_empty())?,
        session_token: text(token).filter(|v| !v.is_empty()),
    })
}

/// Run a profile's `credential_process`.
pub(crate) fn credential_process(command: &str, profile: &str) -> Result<AwsCredentials, String> {
    let failed = |why: String| format!("error in credential_process of profile {profile:?}: {why}");
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| failed(format!("cannot run it: {e}")))?;
    if !out.status.success() {
        return Err(failed(format!("the command ended with {}", out.status)));
    }
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|_| failed("its output is not a JSON document".into()))?;
    if json.get("Version").and_then(|v| v.as_u64()) != Some(1) {
        return Err(failed("its output must have \"Version\": 1".into()));
    }
    keys_of(&json, "AccessKeyId", "SecretAccessKey", "SessionToken")
        .ok_or_else(|| failed("its output lacks AccessKeyId or SecretAccessKey".into()))
}

/// Hex SHA-1, the name of an SSO token cache file.
fn sha1_hex(text: &str) -> String {
    use sha1::Digest;
    sha1::Sha1::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Seconds since 1970 of an RFC 3339 UTC time ("2026-12-07T07:00:00Z").
fn unix_seconds(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    let n = |r: std::ops::Range<usize>| text.get(r)?.parse::<i64>().ok();
    let (y, m, d) = (n(0..4)?, n(5..7)?, n(8..10)?);
    let (hh, mm, ss) = (n(11..13)?, n(14..16)?, n(17..19)?);
    // Days from the civil date (proleptic Gregorian calendar).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(days * 86_400 + hh * 3_600 + mm * 60 + ss)
}

/// The credentials of a profile's IAM Identity Center role.
pub(crate) fn sso(
    agent: &HttpClient,
    settings: &CredentialSettings,
    profile: &str,
    p: &BTreeMap<String, String>,
) -> Result<AwsCredentials, String> {
    let failed = |why: String| format!("profile {profile:?} (SSO): {why}");
    let (start_url, region, cache_key) = match p.get("sso_session") {
        Some(session) => {
            let s =
                config_section(settings, &format!("sso-session {session}")).ok_or_else(|| {
                    failed(format!(
                        "the config files have no [sso-session {session}] section"
                    ))
                })?;
            (
                s.get("sso_start_url").cloned(),
                s.get("sso_region").cloned(),
                session.clone(),
            )
        }
        None => {
            let url = p.get("sso_start_url").cloned().unwrap_or_default();
            (Some(url.clone()), p.get("sso_region").cloned(), url)
        }
    };
    let need = |v: Option<&String>, name: &str| {
        v.filter(|v| !v.is_empty())
            .cloned()
            .ok_or_else(|| failed(format!("{name} is not set")))
    };
    need(start_url.as_ref(), "sso_start_url")?;
    let region = need(region.as_ref(), "sso_region")?;
    let account = need(p.get("sso_account_id"), "sso_account_id")?;
    let role = need(p.get("sso_role_name"), "sso_role_name")?;
    let cache = settings
        .home()
        .join(".aws/sso/cache")
        .join(format!("{}.json", sha1_hex(&cache_key)));
    let login = || {
        failed(format!(
            "no valid cached SSO token; run \"aws sso login --profile {profile}\""
        ))
    };
    let cached: serde_json::Value = std::fs::read(&cache)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .ok_or_else(login)?;
    let token = cached
        .get("accessToken")
        .and_then(|v| v.as_str())
        .filter(|t| !t.is_empty())
        .ok_or_else(login)?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or_default();
    let expires = cached
        .get("expiresAt")
        .and_then(|v| v.as_str())
        .and_then(unix_seconds);
    if expires.is_none_or(|at| at <= now) {
        return Err(login());
    }
    let endpoint = settings
        .sso_endpoint
        .clone()
        .or_else(|| settings.var("AWS_ENDPOINT_URL_SSO"))
        .unwrap_or_else(|| format!("https://portal.sso.{region}.amazonaws.com"));
    let url = format!(
        "{}/federation/credentials?account_id={}&role_name={}",
        endpoint.trim_end_matches('/'),
        super::uri_encode(&account, false),
        super::uri_encode(&role, false)
    );
    let resp = send(
        agent,
        "GET",
        &url,
        &[("x-amz-sso_bearer_token".to_string(), token.to_string())],
        &[],
    )
    .map_err(|e| failed(format!("GetRoleCredentials: {e}")))?;
    if !resp.ok() {
        return Err(failed(format!(
            "GetRoleCredentials: HTTP status {}",
            resp.status
        )));
    }
    let json: serde_json::Value = serde_json::from_slice(&resp.body).unwrap_or_default();
    json.get("roleCredentials")
        .and_then(|c| keys_of(c, "accessKeyId", "secretAccessKey", "sessionToken"))
        .ok_or_else(|| failed("GetRoleCredentials: the answer holds no credentials".into()))
}

/// One request to a metadata endpoint: the status and the body.
fn fetch(method: &str, url: &str, headers: &[(&str, &str)]) -> Result<(u16, String), String> {
    let agent = super::client::metadata_agent();
    let mut builder = ureq::http::Request::builder().method(method).uri(url);
    for (k, v) in headers {
        builder = builder.header(*k, *v);
    }
    let req = builder
        .body(())
        .map_err(|e| format!("invalid request {method} {url}: {e}"))?;
    let mut resp = agent.run(req).map_err(|e| format!("{method} {url}: {e}"))?;
    let status = resp.status().as_u16();
    let body = resp
        .body_mut()
        .read_to_string()
        .map_err(|e| format!("{method} {url}: {e}"))?;
    Ok((status, body))
}

/// Whether a host of an `http://` container endpoint is one the SDKs accept.
fn allowed_container_host(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("http://") else {
        return url.starts_with("https://");
    };
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    if host == "localhost" {
        return true;
    }
    match host.parse::<std::net::IpAddr>() {
        Ok(ip) if ip.is_loopback() => true,
        Ok(ip) => ["169.254.170.2", "169.254.170.23", "fd00:ec2::23"]
            .iter()
            .any(|a| a.parse::<std::net::IpAddr>().ok() == Some(ip)),
        Err(_) => false,
    }
}

/// The container endpoint's credentials; None when no endpoint is configured.
pub(crate) fn container(settings: &CredentialSettings) -> Result<Option<AwsCredentials>, String> {
    let url = if let Some(rel) = settings.var("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") {
        format!("http://169.254.170.2{rel}")
    } else if let Some(full) = settings.var("AWS_CONTAINER_CREDENTIALS_FULL_URI") {
        if !allowed_container_host(&full) {
            return Err(format!("AWS_CONTAINER_CREDENTIALS_FULL_URI {full:?} must be an https URL, or an http URL of a loopback, ECS or EKS address"));
        }
        full
    } else {
        return Ok(None);
    };
    let token = match settings.var("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE") {
        Some(file) => Some(
            std::fs::read_to_string(settings.expand(&file))
                .map(|t| t.trim().to_string())
                .map_err(|e| {
                    format!("cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE {file:?}: {e}")
                })?,
        ),
        None => settings.var("AWS_CONTAINER_AUTHORIZATION_TOKEN"),
    };
    let mut headers = vec![("accept", "application/json")];
    if let Some(t) = &token {
        headers.push(("authorization", t.as_str()));
    }
    let failed = |why: String| format!("container credentials from {url}: {why}");
    let (status, body) = fetch("GET", &url, &headers).map_err(failed)?;
    if !(200..300).contains(&status) {
        return Err(failed(format!("HTTP status {status}")));
    }
    let json: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
    keys_of(&json, "AccessKeyId", "SecretAccessKey", "Token")
        .map(Some)
        .ok_or_else(|| failed("the answer holds no credentials".into()))
}

/// Whether the instance metadata service must not be asked.
pub(crate) fn metadata_disabled(settings: &CredentialSettings) -> bool {
    match settings.skip_metadata_api_check {
        Some(skip) => skip,
        None => settings
            .var("AWS_EC2_METADATA_DISABLED")
            .is_some_and(|v| v.eq_ignore_ascii_case("true")),
    }
}

/// The instance role's credentials from the EC2 instance metadata service.
pub(crate) fn instance_metadata(settings: &CredentialSettings) -> Result<AwsCredentials, String> {
    let mode = settings
        .ec2_metadata_endpoint_mode
        .clone()
        .or_else(|| settings.var("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE"));
    let endpoint = settings
        .ec2_metadata_endpoint
        .clone()
        .or_else(|| settings.var("AWS_EC2_METADATA_SERVICE_ENDPOINT"))
        .unwrap_or_else(|| {
            if mode
                .as_deref()
                .is_some_and(|m| m.eq_ignore_ascii_case("IPv6"))
            {
                "http://[fd00:ec2::254]".into()
            } else {
                "http://169.254.169.254".into()
            }
        });
    let base = endpoint.trim_end_matches('/');
    let failed = |why: String| format!("EC2 instance metadata at {base}: {why}");
    let (status, token) = fetch(
        "PUT",
        &format!("{base}/latest/api/token"),
        &[("x-aws-ec2-metadata-token-ttl-seconds", "21600")],
    )
    .map_err(failed)?;
    let token = match status {
        200..=299 => Some(token.trim().to_string()),
        // A service that does not know IMDSv2 tokens: IMDSv1.
        404 | 405 => None,
        s => {
            return Err(failed(format!(
                "the session token request got HTTP status {s}"
            )))
        }
    };
    let mut headers = Vec::new();
    if let Some(t) = &token {
        headers.push(("x-aws-ec2-metadata-token", t.as_str()));
    }
    let roles_url = format!("{base}/latest/meta-data/iam/security-credentials/");
    let (status, roles) = fetch("GET", &roles_url, &headers).map_err(failed)?;
    let role = roles.lines().map(str::trim).find(|l| !l.is_empty());
    let Some(role) = role.filter(|_| (200..300).contains(&status)) else {
        return Err(failed("no IAM role is attached to the instance".into()));
    };
    let (status, body) = fetch("GET", &format!("{roles_url}{role}"), &headers).map_err(failed)?;
    if !(200..300).contains(&status) {
        return Err(failed(format!(
            "the role's credentials got HTTP status {status}"
        )));
    }
    let json: serde_json::Value = serde_json::from_str(&body).unwrap_or_default();
    if json
        .get("Code")
        .and_then(|c| c.as_str())
        .is_some_and(|c| c != "Success")
    {
        return Err(failed("the role's credentials are not available".into()));
    }
    keys_of(&json, "AccessKeyId", "SecretAccessKey", "Token")
        .ok_or_else(|| failed("the answer holds no credentials".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_cache_names() {
        assert_eq!(unix_seconds("1970-01-02T00:00:01Z"), Some(86_401));
        assert_eq!(unix_seconds("2000-03-01T00:00:00Z"), Some(951_868_800));
        assert_eq!(unix_seconds("soon"), None);
        assert_eq!(sha1_hex("abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
        assert!(allowed_container_host("http://127.0.0.1:9/creds"));
        assert!(allowed_container_host("http://[::1]:9/creds"));
        assert!(allowed_container_host("https://example.com/creds"));
        assert!(!allowed_container_host("http://example.com/creds"));
    }
}
