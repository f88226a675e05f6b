//! Finding AWS credentials as the AWS SDKs (and Terraform 1.0.3's s3 backend) find them, in
//! this order: keys given in the configuration; the environment (`AWS_ACCESS_KEY_ID`,
//! `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`); a web identity token named by
//! `AWS_WEB_IDENTITY_TOKEN_FILE` with `AWS_ROLE_ARN`; the shared credentials and config files
//! (`~/.aws/credentials`, `~/.aws/config`, or `AWS_SHARED_CREDENTIALS_FILE`/`AWS_CONFIG_FILE`,
//! or the files the configuration lists) for the profile chosen by the configuration,
//! `AWS_PROFILE` or `default`, including profiles that assume a role from a `source_profile`
//! or a `web_identity_token_file`. A configured `assume_role` (or `role_arn`) is then assumed
//! through STS with those credentials. Profiles may also name a `credential_process` or an
//! IAM Identity Center (SSO) role whose token `aws sso login` cached; without any of these,
//! the container credential endpoint (`AWS_CONTAINER_CREDENTIALS_FULL_URI` or
//! `_RELATIVE_URI`) and then the EC2 instance metadata service (IMDSv2, unless
//! `skip_metadata_api_check` or `AWS_EC2_METADATA_DISABLED`) are asked ([`super::sources`]).
//!
//! Secrets never appear in `Debug` output or error messages.

use super::{sources, sts, HttpClient};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A set of credentials.
#[derive(Clone, PartialEq, Eq)]
pub struct AwsCredentials {
    pub access_key_id: String,
    pub secret_access_key: String,
    pub session_token: Option<String>,
}

impl std::fmt::Debug for AwsCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AwsCredentials")
            .field("access_key_id", &self.access_key_id)
            .field("secret_access_key", &"<redacted>")
            .field(
                "session_token",
                &self.session_token.as_ref().map(|_| "<redacted>"),
            )
            .finish()
    }
}

/// A role to assume (`assume_role { ... }`, or Terraform 1.0.3's `role_arn`, `session_name`,
/// `external_id`, `assume_role_*` arguments).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AssumeRole {
    pub role_arn: String,
    pub session_name: Option<String>,
    pub external_id: Option<String>,
    pub duration_seconds: Option<u64>,
    pub policy: Option<String>,
    pub policy_arns: Vec<String>,
    pub tags: BTreeMap<String, String>,
    pub transitive_tag_keys: Vec<String>,
    pub source_identity: Option<String>,
}

/// A role to assume with a web identity token (`assume_role_with_web_identity { ... }`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WebIdentity {
    pub role_arn: String,
    pub session_name: Option<String>,
    pub web_identity_token: Option<String>,
    pub web_identity_token_file: Option<String>,
    pub duration_seconds: Option<u64>,
    pub policy: Option<String>,
    pub policy_arns: Vec<String>,
}

/// What the configuration says about credentials (its `Debug` shows no secret).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct CredentialSettings {
    pub access_key: Option<String>,
    pub secret_key: Option<String>,
    pub token: Option<String>,
    pub profile: Option<String>,
    pub shared_credentials_files: Vec<String>,
    pub shared_config_files: Vec<String>,
    pub assume_role: Option<AssumeRole>,
    pub web_identity: Option<WebIdentity>,
    /// The STS endpoint (for assuming roles and validating credentials).
    pub sts_endpoint: String,
    /// The region STS requests are signed for (`sts_region`, else the backend's).
    pub region: String,
    /// `skip_metadata_api_check`: Some(true) never asks the instance metadata service.
    pub skip_metadata_api_check: Option<bool>,
    /// `ec2_metadata_service_endpoint` and `_mode` (`IPv4` or `IPv6`).
    pub ec2_metadata_endpoint: Option<String>,
    pub ec2_metadata_endpoint_mode: Option<String>,
    /// `endpoints.sso`: the IAM Identity Center portal.
    pub sso_endpoint: Option<String>,
    /// The environment variables to read instead of the process's (tests).
    pub environment: Option<BTreeMap<String, String>>,
}

impl CredentialSettings {
    /// An environment variable, if set and not empty.
    pub fn var(&self, name: &str) -> Option<String> {
        match &self.environment {
            Some(vars) => vars.get(name).filter(|v| !v.is_empty()).cloned(),
            None => std::env::var(name).ok().filter(|v| !v.is_empty()),
        }
    }

    pub(crate) fn home(&self) -> PathBuf {
        PathBuf::from(self.var("HOME").unwrap_or_else(|| "/".into()))
    }

    /// `~/…` expanded.
    pub(crate) fn expand(&self, path: &str) -> PathBuf {
        match path.strip_prefix("~/") {
            Some(rest) => self.home().join(rest),
            None => PathBuf::from(path),
        }
    }
}

impl std::fmt::Debug for CredentialSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let hidden = |v: &Option<String>| v.as_ref().map(|_| "<redacted>");
        f.debug_struct("CredentialSettings")
            .field("access_key", &self.access_key)
            .field("secret_key", &hidden(&self.secret_key))
            .field("token", &hidden(&self.token))
            .field("profile", &self.profile)
            .field("shared_credentials_files", &self.shared_credentials_files)
            .field("shared_config_files", &self.shared_config_files)
            .field("assume_role", &self.assume_role)
            .field(
                "web_identity",
                &self.web_identity.as_ref().map(|w| &w.role_arn),
            )
            .field("sts_endpoint", &self.sts_endpoint)
            .field("region", &self.region)
            .field("skip_metadata_api_check", &self.skip_metadata_api_check)
            .field("ec2_metadata_endpoint", &self.ec2_metadata_endpoint)
            .field(
                "ec2_metadata_endpoint_mode",
                &self.ec2_metadata_endpoint_mode,
            )
            .field("sso_endpoint", &self.sso_endpoint)
            .finish_non_exhaustive()
    }
}

/// The sections of an INI file (the AWS shared files' dialect): name → key → value.
pub(crate) fn parse_ini(text: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            let name = name.trim().to_string();
            out.entry(name.clone()).or_default();
            current = Some(name);
            continue;
        }
        // Nested settings (`s3 =` followed by indented lines) are not credentials.
        if line.starts_with(' ') || line.starts_with('\t') {
            continue;
        }
        if let (Some(section), Some((k, v))) = (&current, trimmed.split_once('=')) {
            out.entry(section.clone())
                .or_default()
                .insert(k.trim().to_lowercase(), v.trim().to_string());
        }
    }
    out
}

/// The config files to read.
fn config_files(settings: &CredentialSettings) -> Vec<PathBuf> {
    if settings.shared_config_files.is_empty() {
        vec![settings
            .var("AWS_CONFIG_FILE")
            .map(|f| settings.expand(&f))
            .unwrap_or_else(|| settings.home().join(".aws/config"))]
    } else {
        settings
            .shared_config_files
            .iter()
            .map(|f| settings.expand(f))
            .collect()
    }
}

/// A section of the config files (`[sso-session NAME]`, ...), merged over the files.
pub(crate) fn config_section(
    settings: &CredentialSettings,
    section: &str,
) -> Option<BTreeMap<String, String>> {
    let mut merged: Option<BTreeMap<String, String>> = None;
    for file in config_files(settings) {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        if let Some(s) = parse_ini(&text).remove(section) {
            merged.get_or_insert_with(BTreeMap::new).extend(s);
        }
    }
    merged
}

/// The merged settings of `profile` from the credentials files (`[name]`) and the config
/// files (`[profile name]`, or `[default]`); the credentials files win.
fn profile_settings(
    settings: &CredentialSettings,
    profile: &str,
) -> Option<BTreeMap<String, String>> {
    let cred_files: Vec<PathBuf> = if settings.shared_credentials_files.is_empty() {
        vec![settings
            .var("AWS_SHARED_CREDENTIALS_FILE")
            .map(|f| settings.expand(&f))
            .unwrap_or_else(|| settings.home().join(".aws/credentials"))]
    } else {
        settings
            .shared_credentials_files
            .iter()
            .map(|f| settings.expand(f))
            .collect()
    };
    let section = if profile == "default" {
        "default".to_string()
    } else {
        format!("profile {profile}")
    };
    let mut merged = config_section(settings, &section);
    for file in &cred_files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        if let Some(s) = parse_ini(&text).remove(profile) {
            merged.get_or_insert_with(BTreeMap::new).extend(s);
        }
    }
    merged
}

/// The region the chosen profile names, when the configuration and environment name none.
pub fn profile_region(settings: &CredentialSettings) -> Option<String> {
    let profile = settings
        .profile
        .clone()
        .or_else(|| settings.var("AWS_PROFILE"))
        .unwrap_or_else(|| "default".into());
    profile_settings(settings, &profile)?.remove("region")
}

fn static_keys(
    key: Option<&String>,
    secret: Option<&String>,
    token: Option<&String>,
) -> Option<AwsCredentials> {
    match (key, secret) {
        (Some(k), Some(s)) if !k.is_empty() && !s.is_empty() => Some(AwsCredentials {
            access_key_id: k.clone(),
            secret_access_key: s.clone(),
            session_token: token.filter(|t| !t.is_empty()).cloned(),
        }),
        _ => None,
    }
}

/// Credentials of a profile (following `source_profile` chains, at most a few deep).
fn from_profile(
    agent: &HttpClient,
    settings: &CredentialSettings,
    profile: &str,
    depth: usize,
) -> Result<Option<AwsCredentials>, String> {
    let Some(p) = profile_settings(settings, profile) else {
        return Ok(None);
    };
    if depth > 4 {
        return Err(format!(
            "the source_profile chain of profile {profile:?} is too long"
        ));
    }
    if let Some(role_arn) = p.get("role_arn") {
        let session = p
            .get("role_session_name")
            .cloned()
            .unwrap_or_else(default_session_name);
        if let Some(file) = p.get("web_identity_token_file") {
            let token = read_token(settings, file)?;
            return sts::assume_role_with_web_identity(
                agent,
                settings,
                &WebIdentity {
                    role_arn: role_arn.clone(),
                    session_name: Some(session),
                    web_identity_token: Some(token),
                    ..WebIdentity::default()
                },
            )
            .map(Some);
        }
        let source = match (p.get("source_profile"), p.get("credential_source")) {
            (Some(src), _) if src == profile => static_keys(
                p.get("aws_access_key_id"),
                p.get("aws_secret_access_key"),
                p.get("aws_session_token"),
            ),
            (Some(src), _) => from_profile(agent, settings, src, depth + 1)?,
            (None, Some(cs)) if cs == "Environment" => env_keys(settings),
            (None, Some(cs)) if cs == "EcsContainer" => {
                Some(sources::container(settings)?.ok_or_else(|| {
                    format!("profile {profile:?} names credential_source EcsContainer, but no container credential endpoint is set")
                })?)
            }
            (None, Some(cs)) if cs == "Ec2InstanceMetadata" => Some(sources::instance_metadata(settings)?),
            _ => None,
        };
        let Some(source) = source else {
            return Err(format!(
                "profile {profile:?} names role_arn but no usable source_profile or credential_source"
            ));
        };
        let role = AssumeRole {
            role_arn: role_arn.clone(),
            session_name: Some(session),
            external_id: p.get("external_id").cloned(),
            duration_seconds: p.get("duration_seconds").and_then(|d| d.parse().ok()),
            ..AssumeRole::default()
        };
        return sts::assume_role(agent, settings, &source, &role).map(Some);
    }
    if let Some(keys) = static_keys(
        p.get("aws_access_key_id"),
        p.get("aws_secret_access_key"),
        p.get("aws_session_token"),
    ) {
        return Ok(Some(keys));
    }
    if let Some(command) = p.get("credential_process") {
        return sources::credential_process(command, profile).map(Some);
    }
    if p.contains_key("sso_session") || p.contains_key("sso_start_url") {
        return sources::sso(agent, settings, profile, &p).map(Some);
    }
    Ok(None)
}

fn env_keys(settings: &CredentialSettings) -> Option<AwsCredentials> {
    static_keys(
        settings
            .var("AWS_ACCESS_KEY_ID")
            .or_else(|| settings.var("AWS_ACCESS_KEY"))
            .as_ref(),
        settings
            .var("AWS_SECRET_ACCESS_KEY")
            .or_else(|| settings.var("AWS_SECRET_KEY"))
            .as_ref(),
        settings.var("AWS_SESSION_TOKEN").as_ref(),
    )
}

fn read_token(settings: &CredentialSettings, file: &str) -> Result<String, String> {
    std::fs::read_to_string(settings.expand(file))
        .map(|t| t.trim().to_string())
        .map_err(|e| format!("cannot read the web identity token file {file:?}: {e}"))
}

/// The session name used when none is configured.
pub(crate) fn default_session_name() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default()
        .as_nanos();
    format!("ferro-{nanos}")
}

/// The credentials to sign with, found as described in the module documentation.
pub fn resolve(
    agent: &HttpClient,
    settings: &CredentialSettings,
) -> Result<AwsCredentials, String> {
    if let Some(web) = &settings.web_identity {
        let mut web = web.clone();
        if web.web_identity_token.is_none() {
            let file = web
                .web_identity_token_file
                .clone()
                .or_else(|| settings.var("AWS_WEB_IDENTITY_TOKEN_FILE"))
                .ok_or("assume_role_with_web_identity needs web_identity_token or web_identity_token_file")?;
            web.web_identity_token = Some(read_token(settings, &file)?);
        }
        return sts::assume_role_with_web_identity(agent, settings, &web);
    }
    let base = base_credentials(agent, settings)?;
    match &settings.assume_role {
        Some(role) if !role.role_arn.is_empty() => sts::assume_role(agent, settings, &base, role),
        _ => Ok(base),
    }
}

fn base_credentials(
    agent: &HttpClient,
    settings: &CredentialSettings,
) -> Result<AwsCredentials, String> {
    if let Some(c) = static_keys(
        settings.access_key.as_ref(),
        settings.secret_key.as_ref(),
        settings.token.as_ref(),
    ) {
        return Ok(c);
    }
    if settings.profile.is_none() {
        if let Some(c) = env_keys(settings) {
            return Ok(c);
        }
        if let (Some(file), Some(role_arn)) = (
            settings.var("AWS_WEB_IDENTITY_TOKEN_FILE"),
            settings.var("AWS_ROLE_ARN"),
        ) {
            let web = WebIdentity {
                role_arn,
                session_name: settings.var("AWS_ROLE_SESSION_NAME"),
                web_identity_token: Some(read_token(settings, &file)?),
                ..WebIdentity::default()
            };
            return sts::assume_role_with_web_identity(agent, settings, &web);
        }
    }
    let profile = settings
        .profile
        .clone()
        .or_else(|| settings.var("AWS_PROFILE"))
        .unwrap_or_else(|| "default".into());
    if let Some(c) = from_profile(agent, settings, &profile, 0)? {
        return Ok(c);
    }
    if settings.profile.is_some() || settings.var("AWS_PROFILE").is_some() {
        return Err(format!(
            "failed to get shared config profile, {profile}: no credentials found for it in the shared credentials or config files"
        ));
    }
    if let Some(c) = sources::container(settings)? {
        return Ok(c);
    }
    let why = if sources::metadata_disabled(settings) {
        "the EC2 instance metadata service is not asked (skip_metadata_api_check)".to_string()
    } else {
        match sources::instance_metadata(settings) {
            Ok(c) => return Ok(c),
            Err(e) => e,
        }
    };
    Err(format!("No valid credential sources found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, name a profile of the shared credentials file, or give access_key and secret_key ({why})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ini_sections_and_redaction() {
        let ini = parse_ini(
            "# c\n[default]\naws_access_key_id = AK\naws_secret_access_key=SK\n\n[profile dev]\nrole_arn = arn:aws:iam::1:role/x\ns3 =\n  max_concurrent_requests = 2\n",
        );
        assert_eq!(ini["default"]["aws_access_key_id"], "AK");
        assert_eq!(ini["default"]["aws_secret_access_key"], "SK");
        assert_eq!(ini["profile dev"]["role_arn"], "arn:aws:iam::1:role/x");
        assert!(!ini["profile dev"].contains_key("max_concurrent_requests"));
        let c = AwsCredentials {
            access_key_id: "AK".into(),
            secret_access_key: "very-secret".into(),
            session_token: Some("tok-secret".into()),
        };
        let shown = format!("{c:?}");
        assert!(!shown.contains("very-secret") && !shown.contains("tok-secret"));
    }
}
