//! The registry protocols: service discovery (`https://HOST/.well-known/terraform.json`, once
//! per host and run, or the CLI configuration's `host` blocks instead), the provider registry
//! (`providers.v1`: versions, download metadata) and the module registry (`modules.v1`:
//! versions, the `X-Terraform-Get` download location).

use super::http::{resolve_url, Credentials, HttpClient, Response};
use super::signature::{decode_hex32, SigningKey};
use super::version::Version;
use ferro_addrs::Provider as ProviderAddr;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Service discovery for one run, with its HTTP client (made on first use).
pub struct Discovery {
    credentials: Credentials,
    /// `host "NAME" { services = {…} }` from the CLI configuration.
    overrides: BTreeMap<String, BTreeMap<String, String>>,
    client: OnceLock<Result<Arc<HttpClient>, String>>,
    cache: Mutex<BTreeMap<String, Result<BTreeMap<String, String>, String>>>,
}

impl Discovery {
    pub fn new(
        credentials: Credentials,
        overrides: BTreeMap<String, BTreeMap<String, String>>,
    ) -> Discovery {
        Discovery {
            credentials,
            overrides,
            client: OnceLock::new(),
            cache: Mutex::new(BTreeMap::new()),
        }
    }

    /// The run's HTTP client.
    pub fn client(&self) -> Result<Arc<HttpClient>, String> {
        self.client
            .get_or_init(|| HttpClient::new(self.credentials.clone()).map(Arc::new))
            .clone()
    }

    /// GET `url` with the run's client, without credentials (package downloads).
    pub fn get(&self, url: &str) -> Result<Response, String> {
        self.client()?.get(url, None)
    }

    /// GET `url` of a service of `host`, with `host`'s token if one is configured.
    pub fn get_for(&self, host: &str, url: &str) -> Result<Response, String> {
        let token = self.credentials.token_for(host);
        self.client()?.get(url, token.as_deref())
    }

    /// The absolute base URL of `service` (`providers.v1`) on `host`.
    pub fn service_url(&self, host: &str, service: &str) -> Result<String, String> {
        let host = host.to_lowercase();
        let services = self.services(&host)?;
        match services.get(service) {
            Some(u) => Ok(u.clone()),
            None => Err(match service {
                "providers.v1" => {
                    format!("host {host} does not offer a Terraform provider registry")
                }
                "modules.v1" => format!("host {host} does not offer a Terraform module registry"),
                other => format!("host {host} does not offer the {other} service"),
            }),
        }
    }

    fn services(&self, host: &str) -> Result<BTreeMap<String, String>, String> {
        let base = format!("https://{host}/.well-known/terraform.json");
        if let Some(s) = self.overrides.get(host) {
            return Ok(s
                .iter()
                .map(|(k, v)| (k.clone(), resolve_url(&base, v)))
                .collect());
        }
        if let Some(found) = self.lock_cache().get(host) {
            return found.clone();
        }
        let found = self.discover(host, &base);
        self.lock_cache().insert(host.to_string(), found.clone());
        found
    }

    fn lock_cache(
        &self,
    ) -> std::sync::MutexGuard<'_, BTreeMap<String, Result<BTreeMap<String, String>, String>>> {
        self.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn discover(&self, host: &str, url: &str) -> Result<BTreeMap<String, String>, String> {
        let resp = self.get_for(host, url).map_err(|e| {
            format!("could not connect to {host}: failed to request discovery document: {e}")
        })?;
        match resp.status {
            200 => {}
            // No discovery document: the host offers no services.
            404 => return Ok(BTreeMap::new()),
            _ => {
                return Err(format!(
                    "could not connect to {host}: failed to request discovery document: {}",
                    resp.status_text()
                ))
            }
        }
        let doc: serde_json::Value = serde_json::from_slice(&resp.body).map_err(|e| {
            format!("could not connect to {host}: discovery document is invalid JSON: {e}")
        })?;
        let Some(obj) = doc.as_object() else {
            return Err(format!(
                "could not connect to {host}: discovery document is not a JSON object"
            ));
        };
        // Service URLs are relative to the document's final location (after redirects).
        Ok(obj
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), resolve_url(&resp.url, v.as_str()?))))
            .collect())
    }
}

/// What the provider registry says about one package.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageMeta {
    pub filename: String,
    pub download_url: String,
    pub shasums_url: String,
    pub shasums_signature_url: String,
    pub shasum: [u8; 32],
    pub signing_keys: Vec<SigningKey>,
}

fn unauthorized(host: &str, disco: &Discovery) -> String {
    if disco.credentials.token_for(host).is_some() {
        format!("host {host} rejected the given authentication credentials")
    } else {
        format!("host {host} requires authentication credentials")
    }
}

fn json(resp: &Response, what: &str) -> Result<serde_json::Value, String> {
    serde_json::from_slice(&resp.body).map_err(|e| format!("{what}: invalid JSON: {e}"))
}

/// The versions `providers.v1` lists for `addr`.
pub fn provider_versions(disco: &Discovery, addr: &ProviderAddr) -> Result<Vec<Version>, String> {
    let base = disco.service_url(&addr.hostname, "providers.v1")?;
    let url = resolve_url(&base, &format!("{}/{}/versions", addr.namespace, addr.ty));
    let failed = |e: String| format!("could not query provider registry for {addr}: {e}");
    let resp = disco.get_for(&addr.hostname, &url).map_err(failed)?;
    match resp.status {
        200 => {}
        404 => {
            return Err(format!(
                "provider registry {} does not have a provider named {addr}",
                addr.hostname
            ))
        }
        401 | 403 => return Err(unauthorized(&addr.hostname, disco)),
        _ => return Err(failed(resp.status_text())),
    }
    let body = json(&resp, "the registry's versions list").map_err(failed)?;
    let mut out = Vec::new();
    for v in body["versions"].as_array().into_iter().flatten() {
        let text = v["version"].as_str().unwrap_or_default();
        match Version::parse(text) {
            Ok(v) => out.push(v),
            Err(e) => {
                return Err(failed(format!(
                    "registry response includes invalid version string {text:?}: {e}"
                )))
            }
        }
    }
    Ok(out)
}

/// The download metadata of `addr` `version` for `platform` (`linux_amd64`).
pub fn provider_package_meta(
    disco: &Discovery,
    addr: &ProviderAddr,
    version: &Version,
    platform: &str,
) -> Result<PackageMeta, String> {
    let base = disco.service_url(&addr.hostname, "providers.v1")?;
    let (os, arch) = platform.split_once('_').unwrap_or((platform, ""));
    let url = resolve_url(
        &base,
        &format!(
            "{}/{}/{version}/download/{os}/{arch}",
            addr.namespace, addr.ty
        ),
    );
    let failed = |e: String| format!("could not query provider registry for {addr}: {e}");
    let resp = disco.get_for(&addr.hostname, &url).map_err(failed)?;
    match resp.status {
        200 => {}
        404 => {
            return Err(format!(
                "provider {addr} {version} is not available for {platform}"
            ))
        }
        401 | 403 => return Err(unauthorized(&addr.hostname, disco)),
        _ => return Err(failed(resp.status_text())),
    }
    let body = json(&resp, "the registry's download response").map_err(failed)?;
    let text = |k: &str| body[k].as_str().unwrap_or_default().to_string();
    let absolute = |k: &str, what: &str| -> Result<String, String> {
        let u = text(k);
        if u.is_empty() {
            return Err(format!("registry response includes no {what}"));
        }
        let u = resolve_url(&resp.url, &u);
        if !(u.starts_with("https://") || u.starts_with("http://")) {
            return Err(format!(
                "registry response includes invalid {what}: must use http or https scheme"
            ));
        }
        Ok(u)
    };
    let shasum_text = text("shasum");
    let shasum = decode_hex32(&shasum_text)
        .ok_or_else(|| format!("registry response includes invalid SHA256 hash {shasum_text:?}"))?;
    let signing_keys = body["signing_keys"]["gpg_public_keys"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|k| SigningKey {
            ascii_armor: k["ascii_armor"].as_str().unwrap_or_default().to_string(),
            trust_signature: k["trust_signature"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        })
        .collect();
    let (got_os, got_arch) = (text("os"), text("arch"));
    if (!got_os.is_empty() || !got_arch.is_empty()) && (got_os != os || got_arch != arch) {
        return Err(format!(
            "registry response to request for {platform} archive has incorrect target {got_os}_{got_arch}"
        ));
    }
    Ok(PackageMeta {
        filename: text("filename"),
        download_url: absolute("download_url", "download URL")?,
        shasums_url: absolute("shasums_url", "SHASUMS URL")?,
        shasums_signature_url: absolute("shasums_signature_url", "SHASUMS signature URL")?,
        shasum,
        signing_keys,
    })
}

/// The provider network mirror protocol: `{url}HOST/NS/TYPE/index.json` lists versions.
pub fn mirror_versions(
    disco: &Discovery,
    base: &str,
    addr: &ProviderAddr,
) -> Result<Vec<Version>, String> {
    let url = mirror_url(base, addr, "index.json")?;
    let failed = |e: String| format!("failed to query provider mirror {base} for {addr}: {e}");
    let resp = mirror_get(disco, &url).map_err(failed)?;
    match resp.status {
        200 => {}
        404 => return Ok(Vec::new()),
        401 | 403 => return Err(unauthorized(&host_of(base), disco)),
        s => return Err(failed(format!("server returned unsuccessful status {s}"))),
    }
    let body = json(&resp, "invalid response content from mirror server").map_err(failed)?;
    let mut out = Vec::new();
    for v in body["versions"]
        .as_object()
        .into_iter()
        .flat_map(|o| o.keys())
    {
        out.push(Version::parse(v).map_err(|e| {
            failed(format!(
                "mirror response includes invalid version string {v:?}: {e}"
            ))
        })?);
    }
    Ok(out)
}

/// `{url}HOST/NS/TYPE/VERSION.json`: the archive for `platform` (its absolute URL) and the
/// hashes the mirror vouches for.
pub fn mirror_archive(
    disco: &Discovery,
    base: &str,
    addr: &ProviderAddr,
    version: &Version,
    platform: &str,
) -> Result<(String, Vec<String>), String> {
    let url = mirror_url(base, addr, &format!("{version}.json"))?;
    let failed = |e: String| format!("failed to query provider mirror {base} for {addr}: {e}");
    let resp = mirror_get(disco, &url).map_err(failed)?;
    match resp.status {
        200 => {}
        404 => {
            return Err(failed(format!(
                "provider mirror does not have archive index for previously-reported {addr} version {version}"
            )))
        }
        401 | 403 => return Err(unauthorized(&host_of(base), disco)),
        s => return Err(failed(format!("server returned unsuccessful status {s}"))),
    }
    let body = json(&resp, "invalid response content from mirror server").map_err(failed)?;
    let archive = &body["archives"][platform];
    let Some(rel) = archive["url"].as_str() else {
        return Err(format!(
            "provider mirror {base} does not have a package of {addr} {version} for {platform}"
        ));
    };
    let hashes = archive["hashes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|h| h.as_str().map(str::to_string))
        .collect();
    Ok((resolve_url(&resp.url, rel), hashes))
}

fn mirror_url(base: &str, addr: &ProviderAddr, file: &str) -> Result<String, String> {
    if !base.starts_with("https://") {
        return Err(format!(
            "invalid provider mirror base URL {base}: must use https"
        ));
    }
    let base = if base.ends_with('/') {
        base.to_string()
    } else {
        format!("{base}/")
    };
    Ok(format!(
        "{base}{}/{}/{}/{file}",
        addr.hostname, addr.namespace, addr.ty
    ))
}

fn host_of(url: &str) -> String {
    super::http::url_host(url).unwrap_or_default()
}

/// A mirror request carries the mirror host's credentials.
fn mirror_get(disco: &Discovery, url: &str) -> Result<Response, String> {
    disco.get_for(&host_of(url), url)
}

/// Fetch a file the registry named, refusing anything but `200 OK`.
pub fn fetch(disco: &Discovery, url: &str) -> Result<Vec<u8>, String> {
    let resp = disco.get(url)?;
    if resp.status != 200 {
        return Err(format!("Get {url:?}: {}", resp.status_text()));
    }
    Ok(resp.body)
}

/// A module registry address: `[HOST/]NAMESPACE/NAME/PROVIDER`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleAddr {
    pub hostname: String,
    pub namespace: String,
    pub name: String,
    pub provider: String,
}

impl ModuleAddr {
    /// Parse a registry module source (`//subdir` already split off); `None` when `s` is not
    /// one. As Terraform's `regsrc`: a hostname prefix needs a dot (`localhost:8443/a/b/c` is
    /// not a registry address), names are letters, digits, `-` and `_` between letters or
    /// digits, the provider lower-case letters and digits.
    pub fn parse(s: &str) -> Option<ModuleAddr> {
        ModuleAddr::parse_in(s, ferro_addrs::DEFAULT_REGISTRY)
    }

    /// [`ModuleAddr::parse`] where an address without a hostname is on `default_host`.
    pub fn parse_in(s: &str, default_host: &str) -> Option<ModuleAddr> {
        let parts: Vec<&str> = s.split('/').collect();
        let name = |p: &str| {
            let b = p.as_bytes();
            !b.is_empty()
                && b.len() <= 64
                && b[0].is_ascii_alphanumeric()
                && b[b.len() - 1].is_ascii_alphanumeric()
                && b.iter()
                    .all(|c| c.is_ascii_alphanumeric() || *c == b'-' || *c == b'_')
        };
        let provider = |p: &str| {
            !p.is_empty()
                && p.len() <= 64
                && p.bytes()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        };
        let host_ok = |h: &str| {
            let (name, port) = match h.split_once(':') {
                Some((n, p)) => (n, Some(p)),
                None => (h, None),
            };
            let label = |l: &str| {
                !l.is_empty()
                    && l.len() <= 63
                    && !l.starts_with('-')
                    && !l.ends_with('-')
                    && l.chars().all(|c| c.is_alphanumeric() || c == '-')
            };
            name.contains('.')
                && name.split('.').all(label)
                && port.is_none_or(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
        };
        let (host, rest) = match parts.as_slice() {
            [ns, n, prov] => (default_host, [*ns, *n, *prov]),
            [host, ns, n, prov] if host_ok(host) => (*host, [*ns, *n, *prov]),
            _ => return None,
        };
        // `github.com/org/repo`-style sources are getter shorthands, not registry addresses.
        if !name(rest[0]) || !name(rest[1]) || !provider(rest[2]) {
            return None;
        }
        if matches!(host, "github.com" | "bitbucket.org") {
            return None;
        }
        Some(ModuleAddr {
            hostname: host.to_lowercase(),
            namespace: rest[0].to_string(),
            name: rest[1].to_string(),
            provider: rest[2].to_string(),
        })
    }

    /// As Terraform writes it: without the hostname for the public registry.
    pub fn for_display(&self) -> String {
        if self.hostname == "registry.terraform.io" {
            format!("{}/{}/{}", self.namespace, self.name, self.provider)
        } else {
            format!(
                "{}/{}/{}/{}",
                self.hostname, self.namespace, self.name, self.provider
            )
        }
    }
}

/// The versions `modules.v1` lists for `addr`; `None` when the registry has no such module.
pub fn module_versions(
    disco: &Discovery,
    addr: &ModuleAddr,
) -> Result<Option<Vec<Version>>, String> {
    let base = disco.service_url(&addr.hostname, "modules.v1")?;
    let url = resolve_url(
        &base,
        &format!(
            "{}/{}/{}/versions",
            addr.namespace, addr.name, addr.provider
        ),
    );
    let resp = disco
        .get_for(&addr.hostname, &url)
        .map_err(|e| format!("failed to query the module registry: {e}"))?;
    match resp.status {
        200 => {}
        404 => return Ok(None),
        401 | 403 => return Err(unauthorized(&addr.hostname, disco)),
        _ => {
            return Err(format!(
                "error looking up module versions: {}",
                resp.status_text()
            ))
        }
    }
    let body = json(&resp, "the registry's module versions")?;
    let mut out = Vec::new();
    for m in body["modules"].as_array().into_iter().flatten() {
        for v in m["versions"].as_array().into_iter().flatten() {
            if let Some(Ok(v)) = v["version"].as_str().map(Version::parse) {
                out.push(v);
            }
        }
    }
    Ok(Some(out))
}

/// Where `modules.v1` says `addr` `version` is (`X-Terraform-Get`, resolved against the
/// request URL), a source the getter understands.
pub fn module_download_source(
    disco: &Discovery,
    addr: &ModuleAddr,
    version: &Version,
) -> Result<String, String> {
    let base = disco.service_url(&addr.hostname, "modules.v1")?;
    let url = resolve_url(
        &base,
        &format!(
            "{}/{}/{}/{version}/download",
            addr.namespace, addr.name, addr.provider
        ),
    );
    let resp = disco
        .get_for(&addr.hostname, &url)
        .map_err(|e| format!("failed to download module {}: {e}", addr.for_display()))?;
    match resp.status {
        200 | 204 => {}
        401 | 403 => return Err(unauthorized(&addr.hostname, disco)),
        _ => {
            return Err(format!(
                "error getting download location for {:?}: {}",
                addr.for_display(),
                resp.status_text()
            ))
        }
    }
    let location = match resp.header("X-Terraform-Get") {
        Some(l) => l.to_string(),
        // Older registries answer with a JSON body instead of the header.
        None => json(&resp, "the registry's download response")
            .ok()
            .and_then(|b| b["location"].as_str().map(str::to_string))
            .ok_or_else(|| {
                format!(
                    "failed to get download URL for {:?}: no X-Terraform-Get header",
                    addr.for_display()
                )
            })?,
    };
    // A relative location (`./x.zip`, `/x.zip`) is relative to the download URL; a getter
    // source (`git::…`, `github.com/…`) stays as written.
    if location.starts_with("./") || location.starts_with("../") || location.starts_with('/') {
        Ok(resolve_url(&resp.url, &location))
    } else {
        Ok(location)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_registry_addresses() {
        let a = ModuleAddr::parse("terraform-aws-modules/vpc/aws").unwrap();
        assert_eq!(a.hostname, "registry.terraform.io");
        assert_eq!(a.for_display(), "terraform-aws-modules/vpc/aws");
        let b = ModuleAddr::parse("app.terraform.io/acme/net/aws").unwrap();
        assert_eq!(b.for_display(), "app.terraform.io/acme/net/aws");
        assert!(ModuleAddr::parse("localhost:8443/acme/net/aws").is_none());
        assert!(ModuleAddr::parse("reg.example.com:8443/acme/net/aws").is_some());
        assert!(ModuleAddr::parse("acme/net/AWS").is_none());
        assert!(ModuleAddr::parse("acme/-net/aws").is_none());
        assert!(ModuleAddr::parse("./local").is_none());
        assert!(ModuleAddr::parse("github.com/hashicorp/example").is_none());
        assert!(ModuleAddr::parse("github.com/hashicorp/example/x").is_none());
        assert!(ModuleAddr::parse("git::https://example.com/x.git").is_none());
        assert!(ModuleAddr::parse("a/b").is_none());
    }

    #[test]
    fn host_overrides_skip_the_network() {
        let d = Discovery::new(
            Credentials::default(),
            [(
                "example.com".to_string(),
                [("providers.v1".to_string(), "/prov/".to_string())].into(),
            )]
            .into(),
        );
        assert_eq!(
            d.service_url("Example.com", "providers.v1").unwrap(),
            "https://example.com/prov/"
        );
        assert!(d
            .service_url("example.com", "modules.v1")
            .unwrap_err()
            .contains("does not offer a Terraform module registry"));
    }
}
