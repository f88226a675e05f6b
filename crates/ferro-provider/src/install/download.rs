//! Downloading provider packages from the network, checked before anything touches the
//! disk: a registry's package with its `SHA256SUMS` and signature (authenticated as Terraform
//! 1.0.3 does, [`super::signature`]), or a network mirror's package against the hashes the
//! mirror lists.

use super::hash;
use super::registry::{fetch, Discovery, PackageMeta};
use super::signature::{self, Authentication};
use super::zip;

/// Download a network mirror's package and check it against the hashes the mirror lists
/// (`verified checksum`; `unauthenticated` when it lists none).
pub(super) fn fetch_listed(
    disco: &Discovery,
    url: &str,
    listed: &[String],
) -> Result<(Vec<zip::Entry>, Authentication, [u8; 32]), String> {
    use sha2::Digest;
    let archive = fetch(disco, url)?;
    let entries = zip::read_zip(&archive).map_err(|e| format!("{url}: {e}"))?;
    let sum: [u8; 32] = sha2::Sha256::digest(&archive).into();
    if listed.is_empty() {
        return Ok((entries, Authentication::Unauthenticated, sum));
    }
    let h1 = hash::hash_zip(&entries)?;
    let zh = format!("zh:{}", signature::hex(&sum));
    if !listed.iter().any(|h| *h == h1 || *h == zh) {
        return Err(match listed {
            [one] => format!("provider package doesn't match the expected checksum {one:?}"),
            _ => "provider package doesn't match the any of the expected checksums".into(),
        });
    }
    Ok((entries, Authentication::VerifiedChecksum, sum))
}

/// Download a registry package with its `SHA256SUMS` and signature, and authenticate it;
/// nothing touches the disk. Returns the archive, who signed it and the `zh:` hashes the
/// signed list vouches for.
pub fn download_authenticated(
    disco: &Discovery,
    meta: &PackageMeta,
) -> Result<(Vec<u8>, Authentication, Vec<String>), String> {
    let sums = fetch(disco, &meta.shasums_url)
        .map_err(|e| format!("failed to retrieve authentication checksums for provider: {e}"))?;
    let sig = fetch(disco, &meta.shasums_signature_url)
        .map_err(|e| format!("failed to retrieve cryptographic signature for provider: {e}"))?;
    let archive = fetch(disco, &meta.download_url)?;
    let sums_text = String::from_utf8_lossy(&sums);
    signature::check_listed_checksum(&sums_text, &meta.filename, &meta.shasum)?;
    signature::check_archive_checksum(&archive, &meta.shasum)?;
    let auth = signature::authenticate(&sums, &sig, &meta.signing_keys)?;
    Ok((archive, auth, signature::zh_hashes(&sums_text)))
}

/// [`download_authenticated`], with the archive read: its entries, who signed it, the `zh:`
/// hashes and the archive's SHA-256.
pub(super) fn fetch_authenticated(
    disco: &Discovery,
    meta: &PackageMeta,
) -> Result<(Vec<zip::Entry>, Authentication, Vec<String>, [u8; 32]), String> {
    use sha2::Digest;
    let (archive, auth, zh) = download_authenticated(disco, meta)?;
    let entries = zip::read_zip(&archive).map_err(|e| format!("{}: {e}", meta.filename))?;
    let sum: [u8; 32] = sha2::Sha256::digest(&archive).into();
    Ok((entries, auth, zh, sum))
}
