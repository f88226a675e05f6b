//! The arguments of the remote backends `s3` and `http`, as a backend block,
//! `-backend-config` and `terraform_remote_state`'s `config` give them: their schemas
//! (Terraform 1.0.3's attributes, which `.terraform/terraform.tfstate` records and the
//! configuration hash covers, plus the newer spellings ferro also accepts), the type each
//! `-backend-config` value is read as, and the conversion into `S3Config`/`HttpConfig`.

use crate::aws::credentials::{AssumeRole, CredentialSettings, WebIdentity};
use crate::aws::ClientOptions;
use crate::http::HttpConfig;
use crate::s3::{S3Config, DEFAULT_WORKSPACE_KEY_PREFIX};
use std::collections::BTreeMap;

/// A literal backend argument.
#[derive(Debug, Clone, PartialEq)]
pub enum Lit {
    Str(String),
    Bool(bool),
    /// A number as written.
    Num(String),
    List(Vec<Lit>),
    Map(BTreeMap<String, Lit>),
}

impl Lit {
    /// The value as JSON (numbers as numbers).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Lit::Str(s) => serde_json::Value::String(s.clone()),
            Lit::Bool(b) => serde_json::Value::Bool(*b),
            Lit::Num(n) => serde_json::from_str(n).unwrap_or(serde_json::Value::String(n.clone())),
            Lit::List(items) => serde_json::Value::Array(items.iter().map(Lit::to_json).collect()),
            Lit::Map(m) => {
                serde_json::Value::Object(m.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
            }
        }
    }

    /// A JSON value as a literal (null: none).
    pub fn from_json(v: &serde_json::Value) -> Option<Lit> {
        Some(match v {
            serde_json::Value::String(s) => Lit::Str(s.clone()),
            serde_json::Value::Bool(b) => Lit::Bool(*b),
            serde_json::Value::Number(n) => Lit::Num(n.to_string()),
            serde_json::Value::Array(items) => {
                Lit::List(items.iter().filter_map(Lit::from_json).collect())
            }
            serde_json::Value::Object(m) => Lit::Map(
                m.iter()
                    .filter_map(|(k, v)| Some((k.clone(), Lit::from_json(v)?)))
                    .collect(),
            ),
            serde_json::Value::Null => return None,
        })
    }
}

/// Terraform 1.0.3's `backend "s3"` schema, in name order.
pub const S3_ATTRS: [&str; 31] = [
    "access_key",
    "acl",
    "assume_role_duration_seconds",
    "assume_role_policy",
    "assume_role_policy_arns",
    "assume_role_tags",
    "assume_role_transitive_tag_keys",
    "bucket",
    "dynamodb_endpoint",
    "dynamodb_table",
    "encrypt",
    "endpoint",
    "external_id",
    "force_path_style",
    "iam_endpoint",
    "key",
    "kms_key_id",
    "max_retries",
    "profile",
    "region",
    "role_arn",
    "secret_key",
    "session_name",
    "shared_credentials_file",
    "skip_credentials_validation",
    "skip_metadata_api_check",
    "skip_region_validation",
    "sse_customer_key",
    "sts_endpoint",
    "token",
    "workspace_key_prefix",
];

/// Arguments of later Terraform and OpenTofu versions (Terraform 1.11's schema) that ferro
/// accepts; `docs/compatibility.md` says which change nothing.
pub const S3_NEWER_ATTRS: [&str; 22] = [
    "allowed_account_ids",
    "assume_role",
    "assume_role_with_web_identity",
    "custom_ca_bundle",
    "ec2_metadata_service_endpoint",
    "ec2_metadata_service_endpoint_mode",
    "endpoints",
    "forbidden_account_ids",
    "http_proxy",
    "https_proxy",
    "insecure",
    "no_proxy",
    "retry_mode",
    "shared_config_files",
    "shared_credentials_files",
    "skip_requesting_account_id",
    "skip_s3_checksum",
    "sts_region",
    "use_dualstack_endpoint",
    "use_fips_endpoint",
    "use_lockfile",
    "use_path_style",
];

/// The http backend's arguments added after Terraform 1.0.3 (mutual TLS).
pub const HTTP_NEWER_ATTRS: [&str; 3] = [
    "client_ca_certificate_pem",
    "client_certificate_pem",
    "client_private_key_pem",
];

/// Terraform 1.0.3's `backend "http"` schema, in name order.
pub const HTTP_ATTRS: [&str; 12] = [
    "address",
    "lock_address",
    "lock_method",
    "password",
    "retry_max",
    "retry_wait_max",
    "retry_wait_min",
    "skip_cert_verification",
    "unlock_address",
    "unlock_method",
    "update_method",
    "username",
];

/// The type a `-backend-config=KEY=VALUE` value is read as.
pub fn pair_value(ty: &str, key: &str, value: &str) -> Lit {
    let boolean = key.starts_with("skip_")
        || matches!(
            (ty, key),
            (
                "s3",
                "encrypt"
                    | "force_path_style"
                    | "use_path_style"
                    | "use_lockfile"
                    | "use_fips_endpoint"
                    | "use_dualstack_endpoint"
                    | "insecure"
            )
        );
    let number = matches!(
        key,
        "max_retries"
            | "assume_role_duration_seconds"
            | "retry_max"
            | "retry_wait_min"
            | "retry_wait_max"
    );
    match value {
        "true" if boolean => Lit::Bool(true),
        "false" if boolean => Lit::Bool(false),
        v if number && v.parse::<f64>().is_ok() => Lit::Num(v.to_string()),
        v => Lit::Str(v.to_string()),
    }
}

fn inappropriate(k: &str) -> String {
    format!("Inappropriate value for attribute {k:?}.")
}

fn string(k: &str, v: &Lit) -> Result<String, String> {
    match v {
        Lit::Str(s) => Ok(s.clone()),
        Lit::Num(n) => Ok(n.clone()),
        Lit::Bool(b) => Ok(b.to_string()),
        _ => Err(format!("{} A string is required.", inappropriate(k))),
    }
}

fn boolean(k: &str, v: &Lit) -> Result<bool, String> {
    match v {
        Lit::Bool(b) => Ok(*b),
        Lit::Str(s) if s == "true" || s == "false" => Ok(s == "true"),
        _ => Err(format!("{} A bool is required.", inappropriate(k))),
    }
}

fn number(k: &str, v: &Lit) -> Result<u64, String> {
    match v {
        Lit::Num(n) | Lit::Str(n) => n
            .parse()
            .map_err(|_| format!("{} A whole number is required.", inappropriate(k))),
        _ => Err(format!("{} A number is required.", inappropriate(k))),
    }
}

fn strings(k: &str, v: &Lit) -> Result<Vec<String>, String> {
    match v {
        Lit::List(items) => items.iter().map(|i| string(k, i)).collect(),
        _ => Err(format!(
            "{} A list of strings is required.",
            inappropriate(k)
        )),
    }
}

fn object<'a>(k: &str, v: &'a Lit) -> Result<&'a BTreeMap<String, Lit>, String> {
    match v {
        Lit::Map(m) => Ok(m),
        _ => Err(format!("{} An object is required.", inappropriate(k))),
    }
}

fn string_map(k: &str, v: &Lit) -> Result<BTreeMap<String, String>, String> {
    object(k, v)?
        .iter()
        .map(|(mk, mv)| Ok((mk.clone(), string(k, mv)?)))
        .collect()
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// An endpoint as the AWS SDK takes it: a scheme is added when missing.
fn endpoint_url(e: &str) -> String {
    if e.contains("://") {
        e.trim_end_matches('/').to_string()
    } else {
        format!("https://{}", e.trim_end_matches('/'))
    }
}

/// A duration as the newer `assume_role { duration = "1h" }` gives it, in seconds.
fn duration_seconds(k: &str, v: &Lit) -> Result<u64, String> {
    let text = string(k, v)?;
    crate::parse_duration(&text)
        .map(|d| d.as_secs())
        .map_err(|e| format!("{} {e}", inappropriate(k)))
}

/// Deprecated arguments and their replacements, as Terraform names them (Terraform 1.6 and
/// later; `dynamodb_table` since 1.11).
const S3_DEPRECATED: [(&str, &str); 15] = [
    ("assume_role_duration_seconds", "assume_role.duration"),
    ("assume_role_policy", "assume_role.policy"),
    ("assume_role_policy_arns", "assume_role.policy_arns"),
    ("assume_role_tags", "assume_role.tags"),
    (
        "assume_role_transitive_tag_keys",
        "assume_role.transitive_tag_keys",
    ),
    ("dynamodb_endpoint", "endpoints.dynamodb"),
    ("dynamodb_table", "use_lockfile"),
    ("endpoint", "endpoints.s3"),
    ("external_id", "assume_role.external_id"),
    ("force_path_style", "use_path_style"),
    ("iam_endpoint", "endpoints.iam"),
    ("role_arn", "assume_role.role_arn"),
    ("session_name", "assume_role.session_name"),
    ("shared_credentials_file", "shared_credentials_files"),
    ("sts_endpoint", "endpoints.sts"),
];

/// Environment variables Terraform warns about, and their replacements.
const S3_DEPRECATED_ENV: [(&str, &str); 5] = [
    ("AWS_DYNAMODB_ENDPOINT", "AWS_ENDPOINT_URL_DYNAMODB"),
    ("AWS_IAM_ENDPOINT", "AWS_ENDPOINT_URL_IAM"),
    ("AWS_METADATA_URL", "AWS_EC2_METADATA_SERVICE_ENDPOINT"),
    ("AWS_S3_ENDPOINT", "AWS_ENDPOINT_URL_S3"),
    ("AWS_STS_ENDPOINT", "AWS_ENDPOINT_URL_STS"),
];

/// The warnings Terraform gives for an s3 configuration: (summary, detail, argument).
pub fn s3_warnings(attrs: &BTreeMap<String, Lit>) -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    for (old, new) in S3_DEPRECATED {
        if attrs.contains_key(old) {
            out.push((
                "Deprecated Parameter".to_string(),
                format!("The parameter \"{old}\" is deprecated. Use parameter \"{new}\" instead."),
                Some(old.to_string()),
            ));
        }
    }
    for (old, new) in S3_DEPRECATED_ENV {
        if env(old).is_some() {
            out.push((
                "Deprecated Environment Variable".to_string(),
                format!("The environment variable \"{old}\" is deprecated. Use environment variable \"{new}\" instead."),
                None,
            ));
        }
    }
    out
}

/// Terraform's error for two arguments that exclude each other.
fn conflict(a: &str, b: &str) -> String {
    format!("Invalid Attribute Combination: only one of \"{a}\" and \"{b}\" can be set.")
}

/// A base64 SSE-C key checked as Terraform checks it (`what`: the argument or variable).
fn customer_key(what: &str, key: &str) -> Result<String, String> {
    use base64::Engine;
    if key.len() != 44 {
        return Err(format!("{what} must be 44 characters in length"));
    }
    base64::engine::general_purpose::STANDARD
        .decode(key)
        .map_err(|e| format!("{what} must be base64 encoded: {e}"))?;
    Ok(key.to_string())
}

/// The s3 backend's settings from a block's arguments plus `-backend-config` values, and the
/// environment where Terraform reads it (`AWS_REGION`, `AWS_DEFAULT_REGION`, endpoints,
/// `AWS_CA_BUNDLE`, `AWS_RETRY_MODE`, `AWS_USE_FIPS_ENDPOINT`, `AWS_SSE_CUSTOMER_KEY`, ...).
pub fn s3_config(attrs: &BTreeMap<String, Lit>) -> Result<S3Config, String> {
    let mut cfg = S3Config {
        workspace_key_prefix: DEFAULT_WORKSPACE_KEY_PREFIX.to_string(),
        ..S3Config::default()
    };
    let mut creds = CredentialSettings::default();
    let mut legacy_role = AssumeRole::default();
    let (mut s3_ep, mut ddb_ep, mut sts_ep) = (None, None, None);
    let (mut s3_ep_new, mut ddb_ep_new, mut sts_ep_new) = (None, None, None);
    let mut path_style = None;
    let (mut fips, mut dualstack) = (None, None);
    let (mut sts_region, mut ca_bundle, mut retry_mode) = (None, None, None);
    let mut client = ClientOptions::default();
    let both = |a: &str, b: &str| attrs.contains_key(a) && attrs.contains_key(b);
    for (a, b) in [
        ("force_path_style", "use_path_style"),
        ("shared_credentials_file", "shared_credentials_files"),
        ("allowed_account_ids", "forbidden_account_ids"),
        ("kms_key_id", "sse_customer_key"),
    ] {
        if both(a, b) {
            return Err(conflict(a, b));
        }
    }
    for (k, v) in attrs {
        match k.as_str() {
            "bucket" => cfg.bucket = string(k, v)?,
            "key" => cfg.key = string(k, v)?,
            "region" => cfg.region = string(k, v)?,
            "workspace_key_prefix" => cfg.workspace_key_prefix = string(k, v)?,
            "encrypt" => cfg.encrypt = boolean(k, v)?,
            "kms_key_id" => cfg.kms_key_id = Some(string(k, v)?),
            "sse_customer_key" => {
                cfg.sse_customer_key = Some(customer_key("sse_customer_key", &string(k, v)?)?)
            }
            "acl" => cfg.acl = Some(string(k, v)?),
            "dynamodb_table" => cfg.dynamodb_table = Some(string(k, v)?),
            "use_lockfile" => cfg.use_lockfile = boolean(k, v)?,
            "endpoint" => s3_ep = Some(string(k, v)?),
            "dynamodb_endpoint" => ddb_ep = Some(string(k, v)?),
            "sts_endpoint" => sts_ep = Some(string(k, v)?),
            "endpoints" => {
                for (ek, ev) in object(k, v)? {
                    let name = format!("endpoints.{ek}");
                    match ek.as_str() {
                        "s3" => s3_ep_new = Some(string(&name, ev)?),
                        "dynamodb" => ddb_ep_new = Some(string(&name, ev)?),
                        "sts" => sts_ep_new = Some(string(&name, ev)?),
                        "sso" => creds.sso_endpoint = Some(endpoint_url(&string(&name, ev)?)),
                        // ferro makes no IAM call.
                        "iam" => {
                            string(&name, ev)?;
                        }
                        other => {
                            return Err(format!(
                                "An argument named {other:?} is not expected here (backend \"s3\", endpoints)."
                            ))
                        }
                    }
                }
            }
            "force_path_style" | "use_path_style" => path_style = Some(boolean(k, v)?),
            "skip_credentials_validation" => cfg.skip_credentials_validation = boolean(k, v)?,
            "skip_requesting_account_id" => cfg.skip_requesting_account_id = boolean(k, v)?,
            "skip_metadata_api_check" => creds.skip_metadata_api_check = Some(boolean(k, v)?),
            "ec2_metadata_service_endpoint" => creds.ec2_metadata_endpoint = Some(string(k, v)?),
            "ec2_metadata_service_endpoint_mode" => {
                let mode = string(k, v)?;
                if !matches!(mode.as_str(), "IPv4" | "IPv6") {
                    return Err(format!(
                        "{} It must be \"IPv4\" or \"IPv6\".",
                        inappropriate(k)
                    ));
                }
                creds.ec2_metadata_endpoint_mode = Some(mode);
            }
            "use_fips_endpoint" => fips = Some(boolean(k, v)?),
            "use_dualstack_endpoint" => dualstack = Some(boolean(k, v)?),
            "sts_region" => sts_region = Some(string(k, v)?),
            "custom_ca_bundle" => ca_bundle = Some(string(k, v)?),
            "http_proxy" => client.http_proxy = Some(string(k, v)?),
            "https_proxy" => client.https_proxy = Some(string(k, v)?),
            "no_proxy" => client.no_proxy = Some(string(k, v)?),
            "insecure" => client.insecure = boolean(k, v)?,
            "max_retries" => client.retry.max_retries = number(k, v)?.min(100) as u32,
            "retry_mode" => retry_mode = Some(string(k, v)?),
            "allowed_account_ids" => cfg.allowed_account_ids = strings(k, v)?,
            "forbidden_account_ids" => cfg.forbidden_account_ids = strings(k, v)?,
            "access_key" => creds.access_key = Some(string(k, v)?),
            "secret_key" => creds.secret_key = Some(string(k, v)?),
            "token" => creds.token = Some(string(k, v)?),
            "profile" => creds.profile = Some(string(k, v)?),
            "shared_credentials_file" => creds.shared_credentials_files = vec![string(k, v)?],
            "shared_credentials_files" => creds.shared_credentials_files = strings(k, v)?,
            "shared_config_files" => creds.shared_config_files = strings(k, v)?,
            "role_arn" => legacy_role.role_arn = string(k, v)?,
            "session_name" => legacy_role.session_name = Some(string(k, v)?),
            "external_id" => legacy_role.external_id = Some(string(k, v)?),
            "assume_role_duration_seconds" => legacy_role.duration_seconds = Some(number(k, v)?),
            "assume_role_policy" => legacy_role.policy = Some(string(k, v)?),
            "assume_role_policy_arns" => legacy_role.policy_arns = strings(k, v)?,
            "assume_role_tags" => legacy_role.tags = string_map(k, v)?,
            "assume_role_transitive_tag_keys" => legacy_role.transitive_tag_keys = strings(k, v)?,
            "assume_role" => creds.assume_role = Some(assume_role(k, v)?),
            "assume_role_with_web_identity" => {
                creds.web_identity = Some(web_identity(k, v)?);
            }
            // Accepted; they change nothing in ferro, which validates no region names, sends
            // no checksum header but SigV4's payload hash, and calls no IAM API.
            "skip_region_validation" | "skip_s3_checksum" | "iam_endpoint" => {
                string(k, v)?;
            }
            other => {
                return Err(format!(
                    "An argument named {other:?} is not expected here (backend \"s3\")."
                ))
            }
        }
    }
    for (old, new, a, b) in [
        (&s3_ep, &s3_ep_new, "endpoint", "endpoints.s3"),
        (
            &ddb_ep,
            &ddb_ep_new,
            "dynamodb_endpoint",
            "endpoints.dynamodb",
        ),
        (&sts_ep, &sts_ep_new, "sts_endpoint", "endpoints.sts"),
    ] {
        if old.is_some() && new.is_some() {
            return Err(format!(
                "Conflicting Parameters: The parameters \"{a}\" and \"{b}\" cannot be configured together."
            ));
        }
    }
    if !legacy_role.role_arn.is_empty() {
        if creds.assume_role.is_some() {
            return Err("\"role_arn\" and \"assume_role\" cannot both be set.".into());
        }
        creds.assume_role = Some(legacy_role);
    }
    if cfg.region.is_empty() {
        cfg.region = env("AWS_REGION")
            .or_else(|| env("AWS_DEFAULT_REGION"))
            .or_else(|| crate::aws::credentials::profile_region(&creds))
            .unwrap_or_default();
    }
    if cfg.bucket.is_empty() {
        return Err("The argument \"bucket\" is required, but no definition was found.".into());
    }
    if cfg.key.is_empty() {
        return Err("The argument \"key\" is required, but no definition was found.".into());
    }
    if cfg.region.is_empty() {
        return Err("The argument \"region\" is required, but no definition was found (nor is AWS_REGION or AWS_DEFAULT_REGION set).".into());
    }
    if cfg.key.starts_with('/') || cfg.key.ends_with('/') {
        return Err("key must not start or end with '/'".into());
    }
    if cfg.workspace_key_prefix.starts_with('/') || cfg.workspace_key_prefix.ends_with('/') {
        return Err("workspace_key_prefix must not start or end with '/'".into());
    }
    if cfg.sse_customer_key.is_none() {
        if let Some(key) = env("AWS_SSE_CUSTOMER_KEY") {
            if cfg.kms_key_id.is_some() {
                return Err("Invalid encryption configuration: kms_key_id and the environment variable AWS_SSE_CUSTOMER_KEY cannot both be set.".into());
            }
            cfg.sse_customer_key = Some(customer_key(
                "The environment variable \"AWS_SSE_CUSTOMER_KEY\"",
                &key,
            )?);
        }
    }
    let flag = |set: Option<bool>, var: &str| {
        set.unwrap_or_else(|| env(var).is_some_and(|v| v.eq_ignore_ascii_case("true")))
    };
    let fips = flag(fips, "AWS_USE_FIPS_ENDPOINT");
    let dualstack = flag(dualstack, "AWS_USE_DUALSTACK_ENDPOINT");
    match retry_mode.or_else(|| env("AWS_RETRY_MODE")).as_deref() {
        // Adaptive mode's client-side rate limiting is not modelled: both retry alike.
        None | Some("standard" | "adaptive") => {}
        Some(other) => {
            return Err(format!(
                "Invalid retry_mode {other:?}: it must be \"standard\" or \"adaptive\"."
            ))
        }
    }
    if let Some(file) = ca_bundle.or_else(|| env("AWS_CA_BUNDLE")) {
        let pem = std::fs::read_to_string(creds.expand(&file))
            .map_err(|e| format!("cannot read the custom_ca_bundle file {file:?}: {e}"))?;
        client.ca_pem = Some(pem);
    }
    // Checked now, so that connecting cannot fail on them.
    crate::aws::HttpClient::new(&client)?;
    cfg.client = client;
    cfg.path_style = path_style.unwrap_or(false);
    let region = cfg.region.clone();
    let sts_region = sts_region
        .filter(|r| !r.is_empty())
        .unwrap_or(region.clone());
    let pick = |new: Option<String>, old: Option<String>, vars: &[&str], default: String| {
        new.or(old)
            .filter(|e| !e.is_empty())
            .or_else(|| vars.iter().find_map(|v| env(v)))
            .map(|e| endpoint_url(&e))
            .unwrap_or(default)
    };
    use crate::aws::endpoints::{default_endpoint, Api};
    cfg.s3_endpoint = pick(
        s3_ep_new,
        s3_ep,
        &["AWS_ENDPOINT_URL_S3", "AWS_S3_ENDPOINT", "AWS_ENDPOINT_URL"],
        default_endpoint(Api::S3, &region, fips, dualstack),
    );
    cfg.dynamodb_endpoint = pick(
        ddb_ep_new,
        ddb_ep,
        &[
            "AWS_ENDPOINT_URL_DYNAMODB",
            "AWS_DYNAMODB_ENDPOINT",
            "AWS_ENDPOINT_URL",
        ],
        default_endpoint(Api::DynamoDb, &region, fips, dualstack),
    );
    creds.sts_endpoint = pick(
        sts_ep_new,
        sts_ep,
        &[
            "AWS_ENDPOINT_URL_STS",
            "AWS_STS_ENDPOINT",
            "AWS_ENDPOINT_URL",
        ],
        default_endpoint(Api::Sts, &sts_region, fips, dualstack),
    );
    if creds.ec2_metadata_endpoint.is_none() {
        creds.ec2_metadata_endpoint = env("AWS_METADATA_URL");
    }
    creds.region = sts_region;
    cfg.credentials = creds;
    Ok(cfg)
}

/// `assume_role = { ... }`.
fn assume_role(k: &str, v: &Lit) -> Result<AssumeRole, String> {
    let mut role = AssumeRole::default();
    for (rk, rv) in object(k, v)? {
        let name = format!("{k}.{rk}");
        match rk.as_str() {
            "role_arn" => role.role_arn = string(&name, rv)?,
            "session_name" => role.session_name = Some(string(&name, rv)?),
            "source_identity" => role.source_identity = Some(string(&name, rv)?),
            "external_id" => role.external_id = Some(string(&name, rv)?),
            "duration" => role.duration_seconds = Some(duration_seconds(&name, rv)?),
            "policy" => role.policy = Some(string(&name, rv)?.trim().to_string()),
            "policy_arns" => role.policy_arns = strings(&name, rv)?,
            "tags" => role.tags = string_map(&name, rv)?,
            "transitive_tag_keys" => role.transitive_tag_keys = strings(&name, rv)?,
            other => {
                return Err(format!(
                    "An argument named {other:?} is not expected here (backend \"s3\", {k})."
                ))
            }
        }
    }
    if role.role_arn.is_empty() {
        return Err(format!("The argument \"{k}.role_arn\" is required."));
    }
    Ok(role)
}

/// `assume_role_with_web_identity = { ... }`.
fn web_identity(k: &str, v: &Lit) -> Result<WebIdentity, String> {
    let mut web = WebIdentity::default();
    for (rk, rv) in object(k, v)? {
        let name = format!("{k}.{rk}");
        match rk.as_str() {
            "role_arn" => web.role_arn = string(&name, rv)?,
            "session_name" => web.session_name = Some(string(&name, rv)?),
            "web_identity_token" => web.web_identity_token = Some(string(&name, rv)?),
            "web_identity_token_file" => web.web_identity_token_file = Some(string(&name, rv)?),
            "duration" => web.duration_seconds = Some(duration_seconds(&name, rv)?),
            "policy" => web.policy = Some(string(&name, rv)?.trim().to_string()),
            "policy_arns" => web.policy_arns = strings(&name, rv)?,
            other => {
                return Err(format!(
                    "An argument named {other:?} is not expected here (backend \"s3\", {k})."
                ))
            }
        }
    }
    if web.web_identity_token.is_some() && web.web_identity_token_file.is_some() {
        return Err(conflict(
            &format!("{k}.web_identity_token"),
            &format!("{k}.web_identity_token_file"),
        ));
    }
    if web.role_arn.is_empty() {
        web.role_arn = env("AWS_ROLE_ARN").unwrap_or_default();
    }
    Ok(web)
}

/// The http backend's settings from a block's arguments plus `-backend-config` values, with
/// Terraform's `TF_HTTP_*` environment defaults.
pub fn http_config(attrs: &BTreeMap<String, Lit>) -> Result<HttpConfig, String> {
    let mut cfg = HttpConfig::default();
    let set = |k: &str, v: &Lit, cfg: &mut HttpConfig| -> Result<(), String> {
        match k {
            "address" => cfg.address = string(k, v)?,
            "update_method" => cfg.update_method = string(k, v)?,
            "lock_address" => cfg.lock_address = Some(string(k, v)?),
            "unlock_address" => cfg.unlock_address = Some(string(k, v)?),
            "lock_method" => cfg.lock_method = string(k, v)?,
            "unlock_method" => cfg.unlock_method = string(k, v)?,
            "username" => cfg.username = Some(string(k, v)?),
            "password" => cfg.password = Some(string(k, v)?),
            "skip_cert_verification" => cfg.skip_cert_verification = boolean(k, v)?,
            "retry_max" => cfg.retry_max = number(k, v)? as u32,
            "retry_wait_min" => cfg.retry_wait_min = number(k, v)?,
            "retry_wait_max" => cfg.retry_wait_max = number(k, v)?,
            "client_ca_certificate_pem" => cfg.client_ca_certificate_pem = Some(string(k, v)?),
            "client_certificate_pem" => cfg.client_certificate_pem = Some(string(k, v)?),
            "client_private_key_pem" => cfg.client_private_key_pem = Some(string(k, v)?),
            other => {
                return Err(format!(
                    "An argument named {other:?} is not expected here (backend \"http\")."
                ))
            }
        }
        Ok(())
    };
    for name in HTTP_ATTRS.iter().chain(&HTTP_NEWER_ATTRS) {
        if attrs.contains_key(*name) {
            continue;
        }
        if let Some(v) = env(&format!("TF_HTTP_{}", name.to_uppercase())) {
            set(name, &pair_value("http", name, &v), &mut cfg)?;
        }
    }
    for (k, v) in attrs {
        set(k, v, &mut cfg)?;
    }
    if cfg.client_certificate_pem.is_some() != cfg.client_private_key_pem.is_some() {
        return Err(
            "\"client_certificate_pem\" and \"client_private_key_pem\" must be set together."
                .into(),
        );
    }
    crate::aws::HttpClient::new(&cfg.client_options())
        .map_err(|e| format!("Invalid TLS settings of the http backend: {e}"))?;
    if cfg.address.is_empty() {
        return Err(
            "The argument \"address\" is required, but no definition was found (nor is TF_HTTP_ADDRESS set).".into(),
        );
    }
    for (name, url) in [
        ("address", Some(&cfg.address)),
        ("lock_address", cfg.lock_address.as_ref()),
        ("unlock_address", cfg.unlock_address.as_ref()),
    ] {
        if let Some(url) = url.filter(|u| !u.is_empty()) {
            if !(url.starts_with("http://") || url.starts_with("https://")) {
                return Err(format!(
                    "failed to parse {name} URL {url:?}: it must be an http:// or https:// URL"
                ));
            }
        }
    }
    Ok(cfg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(pairs: &[(&str, Lit)]) -> BTreeMap<String, Lit> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn s3_arguments_in_both_spellings() {
        let old = s3_config(&attrs(&[
            ("bucket", Lit::Str("b".into())),
            ("key", Lit::Str("k/terraform.tfstate".into())),
            ("region", Lit::Str("eu-west-1".into())),
            ("endpoint", Lit::Str("127.0.0.1:9000".into())),
            ("force_path_style", Lit::Bool(true)),
        ]))
        .unwrap();
        let new = s3_config(&attrs(&[
            ("bucket", Lit::Str("b".into())),
            ("key", Lit::Str("k/terraform.tfstate".into())),
            ("region", Lit::Str("eu-west-1".into())),
            (
                "endpoints",
                Lit::Map(BTreeMap::from([(
                    "s3".to_string(),
                    Lit::Str("https://127.0.0.1:9000/".into()),
                )])),
            ),
            ("use_path_style", Lit::Bool(true)),
        ]))
        .unwrap();
        assert_eq!(old.s3_endpoint, "https://127.0.0.1:9000");
        assert_eq!(old, new);
        assert_eq!(old.workspace_key_prefix, "env:");
        let missing = s3_config(&attrs(&[("key", Lit::Str("k".into()))])).unwrap_err();
        assert!(missing.contains("\"bucket\" is required"), "{missing}");
        let unknown = s3_config(&attrs(&[("bukket", Lit::Str("b".into()))])).unwrap_err();
        assert!(unknown.contains("\"bukket\" is not expected"), "{unknown}");
    }

    fn base() -> Vec<(&'static str, Lit)> {
        vec![
            ("bucket", Lit::Str("b".into())),
            ("key", Lit::Str("k".into())),
            ("region", Lit::Str("us-west-2".into())),
        ]
    }

    #[test]
    fn s3_arguments_of_current_terraform_are_accepted_and_honoured() {
        let mut all = base();
        all.extend([
            ("use_fips_endpoint", Lit::Bool(true)),
            ("use_dualstack_endpoint", Lit::Bool(true)),
            ("sts_region", Lit::Str("eu-central-1".into())),
            ("http_proxy", Lit::Str("http://127.0.0.1:3128".into())),
            ("https_proxy", Lit::Str("http://127.0.0.1:3129".into())),
            ("no_proxy", Lit::Str("internal".into())),
            ("insecure", Lit::Bool(false)),
            ("max_retries", Lit::Num("7".into())),
            ("retry_mode", Lit::Str("adaptive".into())),
            ("skip_requesting_account_id", Lit::Bool(true)),
            ("skip_s3_checksum", Lit::Bool(true)),
            ("skip_region_validation", Lit::Bool(true)),
            ("skip_metadata_api_check", Lit::Bool(true)),
            (
                "ec2_metadata_service_endpoint",
                Lit::Str("http://127.0.0.1:1".into()),
            ),
            (
                "ec2_metadata_service_endpoint_mode",
                Lit::Str("IPv6".into()),
            ),
            ("allowed_account_ids", Lit::List(vec![Lit::Str("1".into())])),
            ("token", Lit::Str("t".into())),
            (
                "shared_config_files",
                Lit::List(vec![Lit::Str("/c".into())]),
            ),
            (
                "sse_customer_key",
                Lit::Str("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=".into()),
            ),
            (
                "endpoints",
                Lit::Map(BTreeMap::from([
                    ("iam".to_string(), Lit::Str("https://iam.example".into())),
                    ("sso".to_string(), Lit::Str("https://sso.example".into())),
                ])),
            ),
            (
                "assume_role_with_web_identity",
                Lit::Map(BTreeMap::from([
                    (
                        "role_arn".to_string(),
                        Lit::Str("arn:aws:iam::1:role/r".into()),
                    ),
                    ("web_identity_token".to_string(), Lit::Str("tok".into())),
                    ("policy".to_string(), Lit::Str(" {} ".into())),
                ])),
            ),
        ]);
        for name in S3_NEWER_ATTRS {
            let known = all.iter().any(|(k, _)| *k == name)
                || [
                    "assume_role",
                    "custom_ca_bundle",
                    "forbidden_account_ids",
                    "shared_credentials_files",
                    "use_lockfile",
                    "use_path_style",
                ]
                .contains(&name);
            assert!(known, "{name} is not covered");
        }
        let cfg = s3_config(&attrs(&all)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            cfg.s3_endpoint,
            "https://s3-fips.dualstack.us-west-2.amazonaws.com"
        );
        assert_eq!(
            cfg.dynamodb_endpoint,
            "https://dynamodb-fips.us-west-2.api.aws"
        );
        assert_eq!(
            cfg.credentials.sts_endpoint,
            "https://sts-fips.eu-central-1.api.aws"
        );
        assert_eq!(cfg.credentials.region, "eu-central-1");
        assert_eq!(cfg.client.retry.max_retries, 7);
        assert_eq!(
            cfg.client.https_proxy.as_deref(),
            Some("http://127.0.0.1:3129")
        );
        assert_eq!(cfg.credentials.skip_metadata_api_check, Some(true));
        assert_eq!(
            cfg.credentials.sso_endpoint.as_deref(),
            Some("https://sso.example")
        );
        assert_eq!(cfg.allowed_account_ids, ["1"]);
        assert!(cfg.skip_requesting_account_id);
        let shown = format!("{cfg:?}");
        assert!(!shown.contains("AAAAAAAA"), "{shown}");
        assert_eq!(
            s3_config(&attrs(&base())).unwrap().client.retry.max_retries,
            5
        );
    }

    #[test]
    fn s3_conflicts_bad_values_and_deprecations() {
        let with = |extra: &[(&'static str, Lit)]| {
            let mut all = base();
            all.extend(extra.iter().cloned());
            s3_config(&attrs(&all))
        };
        let err = |extra: &[(&'static str, Lit)]| with(extra).unwrap_err();
        assert!(err(&[
            ("endpoint", Lit::Str("http://a".into())),
            (
                "endpoints",
                Lit::Map(BTreeMap::from([(
                    "s3".to_string(),
                    Lit::Str("http://b".into())
                )]))
            ),
        ])
        .contains("\"endpoint\" and \"endpoints.s3\" cannot be configured together"));
        assert!(err(&[
            ("force_path_style", Lit::Bool(true)),
            ("use_path_style", Lit::Bool(true)),
        ])
        .contains("only one of"));
        assert!(err(&[("retry_mode", Lit::Str("legacy".into()))]).contains("retry_mode"));
        assert!(
            err(&[("ec2_metadata_service_endpoint_mode", Lit::Str("v6".into()))]).contains("IPv6")
        );
        assert!(err(&[("sse_customer_key", Lit::Str("short".into()))]).contains("44 characters"));
        assert!(err(&[("http_proxy", Lit::Str("http://[bad".into()))]).contains("http_proxy"));
        let warned = s3_warnings(&attrs(&[
            ("endpoint", Lit::Str("http://a".into())),
            ("role_arn", Lit::Str("arn".into())),
            ("bucket", Lit::Str("b".into())),
        ]));
        let details: Vec<&str> = warned.iter().map(|w| w.1.as_str()).collect();
        assert!(details.contains(
            &"The parameter \"endpoint\" is deprecated. Use parameter \"endpoints.s3\" instead."
        ));
        assert!(details.contains(
            &"The parameter \"role_arn\" is deprecated. Use parameter \"assume_role.role_arn\" instead."
        ));
        assert!(warned.iter().all(|w| w.0.starts_with("Deprecated")));
    }

    #[test]
    fn http_arguments() {
        let cfg = http_config(&attrs(&[
            ("address", Lit::Str("http://h/state".into())),
            ("retry_max", Lit::Num("5".into())),
        ]))
        .unwrap();
        assert_eq!(cfg.retry_max, 5);
        assert_eq!(cfg.update_method, "POST");
        assert!(http_config(&attrs(&[("address", Lit::Str("ftp://x".into()))])).is_err());
    }
}
