//! The S3 operations ferro uses: GetObject, PutObject (optionally conditional, with
//! `If-None-Match: *`), DeleteObject and ListObjectsV2, addressed path-style
//! (`ENDPOINT/BUCKET/KEY`) or virtual-hosted (`BUCKET.HOST/KEY`).

use super::{transport_error, uri_encode, xml_error, xml_text, xml_texts, AwsError, Service};
use super::{Response, Session};
use std::sync::Arc;

/// An S3 endpoint and how buckets are addressed on it.
pub struct S3Client {
    pub session: Arc<Session>,
    /// `scheme://host[:port][/base]`, without a trailing slash.
    pub endpoint: String,
    pub path_style: bool,
}

/// The default S3 endpoint of `region`.
pub fn default_endpoint(region: &str) -> String {
    if region == "us-east-1" || region.is_empty() {
        "https://s3.amazonaws.com".to_string()
    } else {
        format!("https://s3.{region}.amazonaws.com")
    }
}

impl S3Client {
    /// The URL of `bucket` (with a trailing slash) and a percent-encoded `key` in it.
    pub fn url(&self, bucket: &str, key: &str) -> String {
        let key = uri_encode(key, true);
        let endpoint = self.endpoint.trim_end_matches('/');
        if self.path_style {
            return format!("{endpoint}/{}/{key}", uri_encode(bucket, false));
        }
        match endpoint.split_once("://") {
            Some((scheme, rest)) => format!("{scheme}://{bucket}.{rest}/{key}"),
            None => format!("https://{bucket}.{endpoint}/{key}"),
        }
    }

    fn call(
        &self,
        operation: &str,
        method: &str,
        url: &str,
        headers: Vec<(String, String)>,
        body: &[u8],
    ) -> Result<Response, AwsError> {
        self.session
            .send(Service::S3, method, url, headers, body)
            .map_err(|e| transport_error(operation, e))
    }

    /// GetObject: the object's bytes, or None when there is no such key.
    pub fn get_object(&self, bucket: &str, key: &str) -> Result<Option<Vec<u8>>, AwsError> {
        let resp = self.call("GetObject", "GET", &self.url(bucket, key), Vec::new(), &[])?;
        if resp.ok() {
            return Ok(Some(resp.body));
        }
        let err = xml_error(&format!("GetObject s3://{bucket}/{key}"), &resp);
        if resp.status == 404 && err.code != "NoSuchBucket" {
            return Ok(None);
        }
        Err(err)
    }

    /// PutObject with `headers` (content type, encryption, ACL, `If-None-Match`).
    pub fn put_object(
        &self,
        bucket: &str,
        key: &str,
        body: &[u8],
        headers: Vec<(String, String)>,
    ) -> Result<(), AwsError> {
        let resp = self.call("PutObject", "PUT", &self.url(bucket, key), headers, body)?;
        if resp.ok() {
            return Ok(());
        }
        Err(xml_error(&format!("PutObject s3://{bucket}/{key}"), &resp))
    }

    /// DeleteObject (no error when the key is absent, as S3 itself).
    pub fn delete_object(&self, bucket: &str, key: &str) -> Result<(), AwsError> {
        let resp = self.call(
            "DeleteObject",
            "DELETE",
            &self.url(bucket, key),
            Vec::new(),
            &[],
        )?;
        if resp.ok() || resp.status == 404 && xml_error("", &resp).code == "NoSuchKey" {
            return Ok(());
        }
        Err(xml_error(
            &format!("DeleteObject s3://{bucket}/{key}"),
            &resp,
        ))
    }

    /// CreateBucket (for tests and tools; the backend never creates buckets).
    pub fn create_bucket(&self, bucket: &str) -> Result<(), AwsError> {
        let region = self.session.region.clone();
        let body = if region == "us-east-1" || region.is_empty() {
            String::new()
        } else {
            format!("<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>{region}</LocationConstraint></CreateBucketConfiguration>")
        };
        let resp = self.call(
            "CreateBucket",
            "PUT",
            &self.url(bucket, ""),
            Vec::new(),
            body.as_bytes(),
        )?;
        if resp.ok() {
            return Ok(());
        }
        Err(xml_error(&format!("CreateBucket {bucket}"), &resp))
    }

    /// DeleteBucket (for tests: the bucket must be empty).
    pub fn delete_bucket(&self, bucket: &str) -> Result<(), AwsError> {
        let resp = self.call(
            "DeleteBucket",
            "DELETE",
            &self.url(bucket, ""),
            Vec::new(),
            &[],
        )?;
        if resp.ok() {
            return Ok(());
        }
        Err(xml_error(&format!("DeleteBucket {bucket}"), &resp))
    }

    /// ListObjectsV2: every key under `prefix`, in S3's (byte) order.
    pub fn list_keys(&self, bucket: &str, prefix: &str) -> Result<Vec<String>, AwsError> {
        let mut keys = Vec::new();
        let mut token: Option<String> = None;
        loop {
            let mut query = format!("list-type=2&prefix={}", uri_encode(prefix, false));
            if let Some(t) = &token {
                query = format!("continuation-token={}&{query}", uri_encode(t, false));
            }
            let url = format!("{}?{query}", self.url(bucket, ""));
            let resp = self.call("ListObjectsV2", "GET", &url, Vec::new(), &[])?;
            if !resp.ok() {
                return Err(xml_error(
                    &format!("ListObjectsV2 s3://{bucket}/{prefix}"),
                    &resp,
                ));
            }
            let text = String::from_utf8_lossy(&resp.body);
            keys.extend(xml_texts(&text, "Key"));
            let truncated = xml_text(&text, "IsTruncated").is_some_and(|t| t == "true");
            token = xml_text(&text, "NextContinuationToken");
            if !truncated || token.is_none() {
                return Ok(keys);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aws::{http_agent, AwsCredentials};

    fn client(endpoint: &str, path_style: bool) -> S3Client {
        S3Client {
            session: Arc::new(Session {
                agent: http_agent(false),
                creds: AwsCredentials {
                    access_key_id: "a".into(),
                    secret_access_key: "b".into(),
                    session_token: None,
                },
                region: "eu-west-1".into(),
            }),
            endpoint: endpoint.into(),
            path_style,
        }
    }

    #[test]
    fn urls() {
        let c = client("http://127.0.0.1:9000", true);
        assert_eq!(
            c.url("b", "env:/dev/x.tfstate"),
            "http://127.0.0.1:9000/b/env%3A/dev/x.tfstate"
        );
        let c = client(&default_endpoint("eu-west-1"), false);
        assert_eq!(c.url("b", "k"), "https://b.s3.eu-west-1.amazonaws.com/k");
        assert_eq!(default_endpoint("us-east-1"), "https://s3.amazonaws.com");
    }
}
