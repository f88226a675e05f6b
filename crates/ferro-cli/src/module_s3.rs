//! `s3::` module sources, as Terraform's getter reads them: `s3::https://s3.amazonaws.com/BUCKET/KEY`,
//! `s3::https://s3-REGION.amazonaws.com/…`, `s3::https://BUCKET.s3.REGION.amazonaws.com/KEY`
//! and, for other hosts (MinIO, moto), `s3::https://HOST/BUCKET/KEY?region=…` path-style; the
//! `BUCKET.s3.amazonaws.com/KEY` shorthands; `?version=` and the credentials query parameters
//! `aws_access_key_id`, `aws_access_key_secret`, `aws_access_token`, else credentials as the s3
//! backend finds them. A key naming an archive is unpacked; any other key is a prefix whose
//! objects are the module's files.

use ferro_state::aws::credentials::{self, CredentialSettings};
use ferro_state::aws::s3::S3Client;
use ferro_state::aws::{http_agent, uri_encode, Session};
use std::path::Path;
use std::sync::Arc;

/// Where an `s3::` URL points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct S3Location {
    pub endpoint: String,
    pub bucket: String,
    pub key: String,
    pub region: String,
    pub version: Option<String>,
    pub query: Vec<(String, String)>,
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parse the URL after `s3::` as go-getter's S3 getter does.
pub(crate) fn parse(url: &str) -> Result<S3Location, String> {
    let invalid = || format!("URL is not a valid S3 URL: {url}");
    let (scheme, rest) = url.split_once("://").ok_or_else(invalid)?;
    let (rest, query) = rest.split_once('?').unwrap_or((rest, ""));
    let (host, path) = rest.split_once('/').ok_or_else(invalid)?;
    let query: Vec<(String, String)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect();
    let param = |name: &str| {
        query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let path_style = |region: String| -> Result<(String, String, String), String> {
        let (bucket, key) = path.split_once('/').ok_or_else(invalid)?;
        Ok((bucket.to_string(), key.to_string(), region))
    };
    let (bucket, key, region, endpoint) = if host.contains("amazonaws.com") {
        let parts: Vec<&str> = host.split('.').collect();
        let region_of = |p: &str| {
            p.strip_prefix("s3-")
                .or_else(|| p.strip_prefix("s3"))
                .unwrap_or(p)
                .to_string()
        };
        match parts.len() {
            3 => {
                let region = Some(region_of(parts[0]))
                    .filter(|r| !r.is_empty())
                    .unwrap_or_else(|| "us-east-1".into());
                let (b, k, r) = path_style(region)?;
                (b, k, r, format!("{scheme}://{host}"))
            }
            4 => {
                let region = region_of(parts[1]);
                if region.is_empty() {
                    return Err(invalid());
                }
                (
                    parts[0].to_string(),
                    path.to_string(),
                    region,
                    format!("{scheme}://{}", parts[1..].join(".")),
                )
            }
            5 => (
                parts[0].to_string(),
                path.to_string(),
                parts[2].to_string(),
                format!("{scheme}://{}", parts[1..].join(".")),
            ),
            _ => return Err(invalid()),
        }
    } else {
        let region = param("region").unwrap_or_else(|| "us-east-1".into());
        let (b, k, r) = path_style(region)?;
        (b, k, r, format!("{scheme}://{host}"))
    };
    if bucket.is_empty() {
        return Err(invalid());
    }
    Ok(S3Location {
        endpoint,
        bucket,
        key: percent_decode(&key),
        region,
        version: param("version"),
        query,
    })
}

/// go-getter's S3 detector: `BUCKET.s3[-REGION].amazonaws.com/KEY`,
/// `BUCKET.s3.REGION.amazonaws.com/KEY` and `s3[-REGION].amazonaws.com/BUCKET/KEY` become
/// `s3::https://…` URLs.
pub(crate) fn detect(source: &str) -> Option<String> {
    if source.contains("://") || !source.contains(".amazonaws.com/") {
        return None;
    }
    let (host, path) = source.split_once('/')?;
    let parts: Vec<&str> = host.split('.').collect();
    match parts.len() {
        3 => Some(format!("s3::https://{}.amazonaws.com/{path}", parts[0])),
        4 => Some(format!(
            "s3::https://{}.amazonaws.com/{}/{path}",
            parts[1], parts[0]
        )),
        5 if parts[1] == "s3" => Some(format!(
            "s3::https://s3.{}.amazonaws.com/{}/{path}",
            parts[2], parts[0]
        )),
        _ => None,
    }
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Download what `loc` names into `dest`: an archive key is unpacked, any other key is a
/// prefix whose objects are written below `dest`.
pub(crate) fn fetch(
    loc: &S3Location,
    dest: &Path,
    unpack: &dyn Fn(&[u8], &str, &Path) -> Result<bool, String>,
) -> Result<(), String> {
    let param = |name: &str| {
        loc.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let settings = CredentialSettings {
        access_key: param("aws_access_key_id"),
        secret_key: param("aws_access_key_secret"),
        token: param("aws_access_token"),
        profile: param("aws_profile"),
        sts_endpoint: env("AWS_ENDPOINT_URL_STS")
            .or_else(|| env("AWS_ENDPOINT_URL"))
            .unwrap_or_else(|| format!("https://sts.{}.amazonaws.com", loc.region)),
        region: loc.region.clone(),
        ..CredentialSettings::default()
    };
    let agent = http_agent(false);
    let creds = credentials::resolve(&agent, &settings)?;
    let client = S3Client {
        session: Arc::new(Session {
            agent,
            creds,
            region: loc.region.clone(),
        }),
        endpoint: loc.endpoint.clone(),
        path_style: true,
    };
    let key = loc.key.trim_start_matches('/');
    let get = |key: &str| -> Result<Vec<u8>, String> {
        let mut url = client.url(&loc.bucket, key);
        if let Some(v) = &loc.version {
            url = format!("{url}?versionId={}", uri_encode(v, false));
        }
        let resp = client
            .session
            .send(ferro_state::aws::Service::S3, "GET", &url, Vec::new(), &[])
            .map_err(|e| format!("GetObject s3://{}/{key}: {e}", loc.bucket))?;
        if !resp.ok() {
            return Err(ferro_state::aws::xml_error(
                &format!("GetObject s3://{}/{key}", loc.bucket),
                &resp,
            )
            .to_string());
        }
        Ok(resp.body)
    };
    let is_archive =
        [".zip", ".tar.gz", ".tgz"].iter().any(|e| key.ends_with(e)) || param("archive").is_some();
    if is_archive {
        let bytes = get(key)?;
        let kind = param("archive").unwrap_or_else(|| key.to_string());
        if unpack(&bytes, &kind, dest)? {
            return Ok(());
        }
    }
    // A prefix: every object under it, as files below dest.
    let prefix = if key.is_empty() || key.ends_with('/') {
        key.to_string()
    } else {
        format!("{key}/")
    };
    let keys = client
        .list_keys(&loc.bucket, &prefix)
        .map_err(|e| e.to_string())?;
    let files: Vec<&String> = keys.iter().filter(|k| !k.ends_with('/')).collect();
    if files.is_empty() {
        return Err(format!(
            "no objects found under s3://{}/{prefix}",
            loc.bucket
        ));
    }
    ferro_provider::install::replace_dir_with(dest, |tmp| {
        for k in files {
            let rel = &k[prefix.len()..];
            if rel.split('/').any(|p| p == ".." || p.is_empty()) {
                continue;
            }
            ferro_provider::install::write_under(tmp, rel, &get(k)?)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_and_shorthands_as_go_getter_reads_them() {
        let l = parse("https://s3-eu-west-1.amazonaws.com/bucket/vpc.zip").unwrap();
        assert_eq!(
            (l.bucket.as_str(), l.key.as_str(), l.region.as_str()),
            ("bucket", "vpc.zip", "eu-west-1")
        );
        assert_eq!(l.endpoint, "https://s3-eu-west-1.amazonaws.com");
        let l = parse("https://s3.amazonaws.com/b/mods/vpc.zip?version=3").unwrap();
        assert_eq!(
            (l.region.as_str(), l.version.as_deref()),
            ("us-east-1", Some("3"))
        );
        let l = parse("https://b.s3.eu-central-1.amazonaws.com/m.zip").unwrap();
        assert_eq!(
            (l.bucket.as_str(), l.key.as_str(), l.region.as_str()),
            ("b", "m.zip", "eu-central-1")
        );
        let l = parse("http://127.0.0.1:5000/b/m.zip?region=eu-west-2").unwrap();
        assert_eq!(l.endpoint, "http://127.0.0.1:5000");
        assert_eq!(l.region, "eu-west-2");
        assert!(parse("https://s3.amazonaws.com/").is_err());
        assert_eq!(
            detect("bucket.s3.amazonaws.com/vpc.zip").as_deref(),
            Some("s3::https://s3.amazonaws.com/bucket/vpc.zip")
        );
        assert_eq!(
            detect("bucket.s3-eu-west-1.amazonaws.com/m/vpc.zip").as_deref(),
            Some("s3::https://s3-eu-west-1.amazonaws.com/bucket/m/vpc.zip")
        );
        assert_eq!(
            detect("bucket.s3.eu-west-1.amazonaws.com/vpc.zip").as_deref(),
            Some("s3::https://s3.eu-west-1.amazonaws.com/bucket/vpc.zip")
        );
        assert_eq!(detect("github.com/a/b"), None);
    }
}
