//! The arguments of the remote backends `s3` and `http`, as a backend block,
//! `-backend-config` and `terraform_remote_state`'s `config` give them: their schemas
//! (Terraform 1.0.3's attributes, which `.terraform/terraform.tfstate` records and the
//! configuration hash covers, plus the newer spellings ferro also accepts), the type each
//! `-backend-config` value is read as, and the conversion into `S3Config`/`HttpConfig`.

use crate::aws::credentials::{AssumeRole, CredentialSettings, WebIdentity};
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

/// Arguments of later Terraform and OpenTofu versions that ferro honours.
pub const S3_NEWER_ATTRS: [&str; 9] = [
    "assume_role",
    "assume_role_with_web_identity",
    "endpoints",
    "shared_config_files",
    "shared_credentials_files",
    "skip_requesting_account_id",
    "skip_s3_checksum",
    "use_lockfile",
    "use_path_style",
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
                "encrypt" | "force_path_style" | "use_path_style" | "use_lockfile"
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

/// The s3 backend's settings from a block's arguments plus `-backend-config` values, and the
/// environment where Terraform reads it (`AWS_REGION`, `AWS_DEFAULT_REGION`, endpoints).
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
    for (k, v) in attrs {
        match k.as_str() {
            "bucket" => cfg.bucket = string(k, v)?,
            "key" => cfg.key = string(k, v)?,
            "region" => cfg.region = string(k, v)?,
            "workspace_key_prefix" => cfg.workspace_key_prefix = string(k, v)?,
            "encrypt" => cfg.encrypt = boolean(k, v)?,
            "kms_key_id" => cfg.kms_key_id = Some(string(k, v)?),
            "sse_customer_key" => cfg.sse_customer_key = Some(string(k, v)?),
            "acl" => cfg.acl = Some(string(k, v)?),
            "dynamodb_table" => cfg.dynamodb_table = Some(string(k, v)?),
            "use_lockfile" => cfg.use_lockfile = boolean(k, v)?,
            "endpoint" => s3_ep = Some(string(k, v)?),
            "dynamodb_endpoint" => ddb_ep = Some(string(k, v)?),
            "sts_endpoint" => sts_ep = Some(string(k, v)?),
            "endpoints" => {
                for (ek, ev) in object(k, v)? {
                    match ek.as_str() {
                        "s3" => s3_ep_new = Some(string("endpoints.s3", ev)?),
                        "dynamodb" => ddb_ep_new = Some(string("endpoints.dynamodb", ev)?),
                        "sts" => sts_ep_new = Some(string("endpoints.sts", ev)?),
                        "iam" | "sso" => {}
                        other => {
                            return Err(format!(
                                "An argument named {other:?} is not expected here (backend \"s3\", endpoints)."
                            ))
                        }
                    }
                }
            }
            "force_path_style" | "use_path_style" => {
                path_style = Some(path_style.unwrap_or(false) || boolean(k, v)?)
            }
            "skip_credentials_validation" => cfg.skip_credentials_validation = boolean(k, v)?,
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
            "assume_role" => {
                let mut role = AssumeRole::default();
                for (rk, rv) in object(k, v)? {
                    let name = format!("assume_role.{rk}");
                    match rk.as_str() {
                        "role_arn" => role.role_arn = string(&name, rv)?,
                        "session_name" => role.session_name = Some(string(&name, rv)?),
                        "external_id" => role.external_id = Some(string(&name, rv)?),
                        "duration" => role.duration_seconds = Some(duration_seconds(&name, rv)?),
                        "policy" => role.policy = Some(string(&name, rv)?),
                        "policy_arns" => role.policy_arns = strings(&name, rv)?,
                        "tags" => role.tags = string_map(&name, rv)?,
                        "transitive_tag_keys" => role.transitive_tag_keys = strings(&name, rv)?,
                        other => {
                            return Err(format!(
                                "An argument named {other:?} is not expected here (backend \"s3\", assume_role)."
                            ))
                        }
                    }
                }
                if role.role_arn.is_empty() {
                    return Err("The argument \"assume_role.role_arn\" is required.".into());
                }
                creds.assume_role = Some(role);
            }
            "assume_role_with_web_identity" => {
                let mut web = WebIdentity::default();
                for (rk, rv) in object(k, v)? {
                    let name = format!("assume_role_with_web_identity.{rk}");
                    match rk.as_str() {
                        "role_arn" => web.role_arn = string(&name, rv)?,
                        "session_name" => web.session_name = Some(string(&name, rv)?),
                        "web_identity_token" => {
                            web.web_identity_token = Some(string(&name, rv)?)
                        }
                        "web_identity_token_file" => {
                            web.web_identity_token_file = Some(string(&name, rv)?)
                        }
                        "duration" => web.duration_seconds = Some(duration_seconds(&name, rv)?),
                        other => {
                            return Err(format!(
                                "An argument named {other:?} is not expected here (backend \"s3\", assume_role_with_web_identity)."
                            ))
                        }
                    }
                }
                if web.role_arn.is_empty() {
                    web.role_arn = env("AWS_ROLE_ARN").unwrap_or_default();
                }
                creds.web_identity = Some(web);
            }
            // Accepted for compatibility; they change nothing in ferro (no instance metadata
            // service, no region list to check against, no retry tuning).
            "skip_metadata_api_check"
            | "skip_region_validation"
            | "skip_requesting_account_id"
            | "skip_s3_checksum"
            | "iam_endpoint"
            | "max_retries" => {}
            other => {
                return Err(format!(
                    "An argument named {other:?} is not expected here (backend \"s3\")."
                ))
            }
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
    if cfg.encrypt && cfg.sse_customer_key.is_some() && cfg.kms_key_id.is_some() {
        return Err("Only one of \"kms_key_id\" and \"sse_customer_key\" can be set.".into());
    }
    cfg.path_style = path_style.unwrap_or(false);
    let region = cfg.region.clone();
    let pick = |new: Option<String>, old: Option<String>, vars: &[&str], default: String| {
        new.or(old)
            .filter(|e| !e.is_empty())
            .or_else(|| vars.iter().find_map(|v| env(v)))
            .map(|e| endpoint_url(&e))
            .unwrap_or(default)
    };
    cfg.s3_endpoint = pick(
        s3_ep_new,
        s3_ep,
        &["AWS_ENDPOINT_URL_S3", "AWS_S3_ENDPOINT", "AWS_ENDPOINT_URL"],
        crate::aws::s3::default_endpoint(&region),
    );
    cfg.dynamodb_endpoint = pick(
        ddb_ep_new,
        ddb_ep,
        &[
            "AWS_ENDPOINT_URL_DYNAMODB",
            "AWS_DYNAMODB_ENDPOINT",
            "AWS_ENDPOINT_URL",
        ],
        crate::aws::dynamodb::default_endpoint(&region),
    );
    creds.sts_endpoint = pick(
        sts_ep_new,
        sts_ep,
        &[
            "AWS_ENDPOINT_URL_STS",
            "AWS_STS_ENDPOINT",
            "AWS_ENDPOINT_URL",
        ],
        format!("https://sts.{region}.amazonaws.com"),
    );
    creds.region = region;
    cfg.credentials = creds;
    Ok(cfg)
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
            other => {
                return Err(format!(
                    "An argument named {other:?} is not expected here (backend \"http\")."
                ))
            }
        }
        Ok(())
    };
    for name in HTTP_ATTRS {
        if attrs.contains_key(name) {
            continue;
        }
        if let Some(v) = env(&format!("TF_HTTP_{}", name.to_uppercase())) {
            set(name, &pair_value("http", name, &v), &mut cfg)?;
        }
    }
    for (k, v) in attrs {
        set(k, v, &mut cfg)?;
    }
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
