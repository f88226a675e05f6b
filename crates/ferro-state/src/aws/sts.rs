//! The three STS operations ferro uses: `AssumeRole` and `AssumeRoleWithWebIdentity` (for
//! credentials) and `GetCallerIdentity` (to validate them, unless
//! `skip_credentials_validation`). Query-protocol requests: a form body, an XML answer.

use super::credentials::{default_session_name, AssumeRole, CredentialSettings, WebIdentity};
use super::{
    send, send_signed, uri_encode, xml_error, xml_text, AwsCredentials, HttpClient, Service, Signed,
};

fn form(pairs: &[(String, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", uri_encode(k, false), uri_encode(v, false)))
        .collect::<Vec<_>>()
        .join("&")
}

fn content_type() -> (String, String) {
    (
        "content-type".to_string(),
        "application/x-www-form-urlencoded; charset=utf-8".to_string(),
    )
}

fn endpoint(settings: &CredentialSettings) -> String {
    let e = settings.sts_endpoint.trim_end_matches('/');
    format!("{e}/")
}

fn credentials_of(operation: &str, body: &[u8]) -> Result<AwsCredentials, String> {
    let text = String::from_utf8_lossy(body);
    match (
        xml_text(&text, "AccessKeyId"),
        xml_text(&text, "SecretAccessKey"),
    ) {
        (Some(access_key_id), Some(secret_access_key)) => Ok(AwsCredentials {
            access_key_id,
            secret_access_key,
            session_token: xml_text(&text, "SessionToken"),
        }),
        _ => Err(format!("{operation}: the answer holds no credentials")),
    }
}

/// `AssumeRole` with `source`'s credentials.
pub(crate) fn assume_role(
    agent: &HttpClient,
    settings: &CredentialSettings,
    source: &AwsCredentials,
    role: &AssumeRole,
) -> Result<AwsCredentials, String> {
    let mut pairs = vec![
        ("Action".to_string(), "AssumeRole".to_string()),
        ("Version".to_string(), "2011-06-15".to_string()),
        ("RoleArn".to_string(), role.role_arn.clone()),
        (
            "RoleSessionName".to_string(),
            role.session_name
                .clone()
                .unwrap_or_else(default_session_name),
        ),
    ];
    if let Some(id) = &role.external_id {
        pairs.push(("ExternalId".into(), id.clone()));
    }
    if let Some(d) = role.duration_seconds {
        pairs.push(("DurationSeconds".into(), d.to_string()));
    }
    if let Some(p) = &role.policy {
        pairs.push(("Policy".into(), p.clone()));
    }
    for (i, arn) in role.policy_arns.iter().enumerate() {
        pairs.push((format!("PolicyArns.member.{}.arn", i + 1), arn.clone()));
    }
    for (i, (k, v)) in role.tags.iter().enumerate() {
        pairs.push((format!("Tags.member.{}.Key", i + 1), k.clone()));
        pairs.push((format!("Tags.member.{}.Value", i + 1), v.clone()));
    }
    for (i, k) in role.transitive_tag_keys.iter().enumerate() {
        pairs.push((format!("TransitiveTagKeys.member.{}", i + 1), k.clone()));
    }
    if let Some(s) = &role.source_identity {
        pairs.push(("SourceIdentity".into(), s.clone()));
    }
    let body = form(&pairs);
    let url = endpoint(settings);
    let op = format!("assuming role {:?} (STS AssumeRole)", role.role_arn);
    let resp = send_signed(
        agent,
        source,
        Signed {
            service: Service::Sts,
            region: &settings.region,
            method: "POST",
            url: &url,
            headers: vec![content_type()],
            body: body.as_bytes(),
        },
    )
    .map_err(|e| format!("{op}: {e}"))?;
    if !resp.ok() {
        return Err(xml_error(&op, &resp).to_string());
    }
    credentials_of(&op, &resp.body)
}

/// `AssumeRoleWithWebIdentity` (an unsigned request: the token is the credential).
pub(crate) fn assume_role_with_web_identity(
    agent: &HttpClient,
    settings: &CredentialSettings,
    web: &WebIdentity,
) -> Result<AwsCredentials, String> {
    let mut pairs = vec![
        (
            "Action".to_string(),
            "AssumeRoleWithWebIdentity".to_string(),
        ),
        ("Version".to_string(), "2011-06-15".to_string()),
        ("RoleArn".to_string(), web.role_arn.clone()),
        (
            "RoleSessionName".to_string(),
            web.session_name
                .clone()
                .unwrap_or_else(default_session_name),
        ),
        (
            "WebIdentityToken".to_string(),
            web.web_identity_token.clone().unwrap_or_default(),
        ),
    ];
    if let Some(d) = web.duration_seconds {
        pairs.push(("DurationSeconds".into(), d.to_string()));
    }
    if let Some(p) = &web.policy {
        pairs.push(("Policy".into(), p.clone()));
    }
    for (i, arn) in web.policy_arns.iter().enumerate() {
        pairs.push((format!("PolicyArns.member.{}.arn", i + 1), arn.clone()));
    }
    let body = form(&pairs);
    let op = format!(
        "assuming role {:?} with a web identity (STS AssumeRoleWithWebIdentity)",
        web.role_arn
    );
    let resp = send(
        agent,
        "POST",
        &endpoint(settings),
        &[content_type()],
        body.as_bytes(),
    )
    .map_err(|e| format!("{op}: {e}"))?;
    if !resp.ok() {
        return Err(xml_error(&op, &resp).to_string());
    }
    credentials_of(&op, &resp.body)
}

/// `GetCallerIdentity`: the account the credentials belong to.
pub fn caller_identity(
    agent: &HttpClient,
    settings: &CredentialSettings,
    creds: &AwsCredentials,
) -> Result<String, String> {
    let body = "Action=GetCallerIdentity&Version=2011-06-15";
    let op = "validating the credentials (STS GetCallerIdentity)";
    let resp = send_signed(
        agent,
        creds,
        Signed {
            service: Service::Sts,
            region: &settings.region,
            method: "POST",
            url: &endpoint(settings),
            headers: vec![content_type()],
            body: body.as_bytes(),
        },
    )
    .map_err(|e| format!("{op}: {e}"))?;
    if !resp.ok() {
        return Err(xml_error(op, &resp).to_string());
    }
    Ok(xml_text(&String::from_utf8_lossy(&resp.body), "Account").unwrap_or_default())
}
