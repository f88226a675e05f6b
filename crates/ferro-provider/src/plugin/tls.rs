//! AutoMTLS as go-plugin does it (PROTOCOL_FACTS §1.6): the host makes an ephemeral self-signed
//! certificate, hands its PEM to the plugin in `PLUGIN_CLIENT_CERT`, and trusts exactly the
//! certificate the plugin prints in its handshake line.
//!
//! Go plugins generate P-521 certificates marked as CAs, which stock rustls verification
//! rejects (and *ring* cannot verify P-521 signatures), so the server verifier here pins the
//! handshake's DER and checks P-521 handshake signatures with the `p521` crate. Some non-Go
//! plugins (the Python `tf` framework) serve 1024-bit RSA certificates, which Go accepts but
//! rustls' verifiers refuse; for those the connection is limited to TLS 1.2 with PKCS#1
//! signatures, checked with *ring*'s legacy 1024-bit algorithms. Everything else goes to
//! rustls' own signature verification.

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName, UnixTime};
use rustls::{ClientConfig, DigitallySignedStruct, SignatureScheme};
use std::sync::Arc;

/// The host's ephemeral certificate and key.
pub struct ClientCert {
    pub pem: String,
    der: CertificateDer<'static>,
    key_pkcs8: Vec<u8>,
}

/// Generate the client certificate as go-plugin's `generateCert` does, except for the key type
/// (P-256, which Go accepts): CN and DNS SAN `localhost`, O `HashiCorp`, client and server
/// auth, a CA flag, a random 128-bit serial, valid from 30 s ago for ~30 years.
pub fn generate_client_cert() -> Result<ClientCert, String> {
    use rcgen::{
        BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose,
        IsCa, KeyPair, KeyUsagePurpose, SerialNumber,
    };
    let err = |e: rcgen::Error| format!("cannot generate the plugin client certificate: {e}");
    let key = KeyPair::generate_for(&rcgen::PKCS_ECDSA_P256_SHA256).map_err(err)?;
    let mut params = CertificateParams::new(vec!["localhost".to_string()]).map_err(err)?;
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, "localhost");
    dn.push(DnType::OrganizationName, "HashiCorp");
    params.distinguished_name = dn;
    params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    params.key_usages = vec![
        KeyUsagePurpose::DigitalSignature,
        KeyUsagePurpose::KeyEncipherment,
        KeyUsagePurpose::KeyAgreement,
        KeyUsagePurpose::KeyCertSign,
    ];
    params.extended_key_usages = vec![
        ExtendedKeyUsagePurpose::ClientAuth,
        ExtendedKeyUsagePurpose::ServerAuth,
    ];
    let mut serial = [0u8; 16];
    crypto_provider()
        .secure_random
        .fill(&mut serial)
        .map_err(|_| {
            "cannot generate the plugin client certificate: no secure random source".to_string()
        })?;
    serial[0] &= 0x7f;
    params.serial_number = Some(SerialNumber::from_slice(&serial));
    let now = time::OffsetDateTime::now_utc() - time::Duration::seconds(30);
    params.not_before = now;
    params.not_after = now + time::Duration::hours(262_980);
    let cert = params.self_signed(&key).map_err(err)?;
    Ok(ClientCert {
        pem: cert.pem(),
        der: cert.der().clone(),
        key_pkcs8: key.serialize_der(),
    })
}

fn crypto_provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// The TLS client configuration for one plugin connection: our certificate, the server's pinned.
pub fn client_config(cert: &ClientCert, server_der: Vec<u8>) -> Result<ClientConfig, String> {
    let provider = crypto_provider();
    let key_kind = pinned_key_kind(&server_der);
    let versions: &[&rustls::SupportedProtocolVersion] = match key_kind {
        // TLS 1.3 would need RSA-PSS, which *ring* only verifies for keys of 2048 bits and more.
        PinnedKey::SmallRsa(_) => &[&rustls::version::TLS12],
        _ => &[&rustls::version::TLS13, &rustls::version::TLS12],
    };
    let verifier = PinnedServerCert {
        der: server_der,
        key: key_kind,
        algorithms: provider.signature_verification_algorithms,
    };
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(cert.key_pkcs8.clone()));
    let mut config = ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(versions)
        .map_err(|e| format!("cannot set up TLS for the plugin: {e}"))?
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(verifier))
        .with_client_auth_cert(vec![cert.der.clone()], key)
        .map_err(|e| format!("cannot set up TLS for the plugin: {e}"))?;
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok(config)
}

/// Trusts exactly one certificate (the one from the handshake line).
#[derive(Debug)]
struct PinnedServerCert {
    der: Vec<u8>,
    key: PinnedKey,
    algorithms: WebPkiSupportedAlgorithms,
}

/// The kinds of pinned server keys that need verification rustls does not offer.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PinnedKey {
    P521,
    /// An RSA key shorter than 2048 bits: its `RSAPublicKey` DER.
    SmallRsa(Vec<u8>),
    Other,
}

fn pinned_key_kind(cert_der: &[u8]) -> PinnedKey {
    if p521_public_key(cert_der).is_some() {
        return PinnedKey::P521;
    }
    match rsa_public_key(cert_der) {
        Some((der, bits)) if bits < 2048 => PinnedKey::SmallRsa(der.to_vec()),
        _ => PinnedKey::Other,
    }
}

/// The PKCS#1 schemes *ring* verifies for 1024-bit keys.
const RSA_PKCS1_SCHEMES: [SignatureScheme; 2] = [
    SignatureScheme::RSA_PKCS1_SHA256,
    SignatureScheme::RSA_PKCS1_SHA512,
];

impl PinnedServerCert {
    fn verify(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
        tls13: bool,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        if dss.scheme == SignatureScheme::ECDSA_NISTP521_SHA512 {
            return verify_p521(message, cert.as_ref(), dss.signature());
        }
        if let PinnedKey::SmallRsa(key) = &self.key {
            use ring::signature;
            let alg: &dyn signature::VerificationAlgorithm = match dss.scheme {
                SignatureScheme::RSA_PKCS1_SHA256 => {
                    &signature::RSA_PKCS1_1024_8192_SHA256_FOR_LEGACY_USE_ONLY
                }
                SignatureScheme::RSA_PKCS1_SHA512 => {
                    &signature::RSA_PKCS1_1024_8192_SHA512_FOR_LEGACY_USE_ONLY
                }
                _ => {
                    return Err(rustls::Error::PeerIncompatible(
                        rustls::PeerIncompatible::NoSignatureSchemesInCommon,
                    ))
                }
            };
            return signature::UnparsedPublicKey::new(alg, key)
                .verify(message, dss.signature())
                .map(|_| HandshakeSignatureValid::assertion())
                .map_err(|_| {
                    rustls::Error::InvalidCertificate(rustls::CertificateError::BadSignature)
                });
        }
        if tls13 {
            rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
        } else {
            rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
        }
    }
}

impl ServerCertVerifier for PinnedServerCert {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp_response: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if end_entity.as_ref() == self.der.as_slice() {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General(
                "the plugin presented a certificate other than the one in its handshake".into(),
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verify(message, cert, dss, false)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.verify(message, cert, dss, true)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        if matches!(self.key, PinnedKey::SmallRsa(_)) {
            return RSA_PKCS1_SCHEMES.to_vec();
        }
        let mut schemes = self.algorithms.supported_schemes();
        schemes.insert(0, SignatureScheme::ECDSA_NISTP521_SHA512);
        schemes
    }
}

/// The plugin (server) side of AutoMTLS: our own go-plugin style certificate, and a TLS server
/// configuration (TLS 1.2 or later) that requires the host's client certificate and trusts
/// exactly the one whose PEM the host put in `PLUGIN_CLIENT_CERT`. Returns the configuration and
/// our certificate's DER (for handshake field 6).
pub fn server_config(client_pem: &str) -> Result<(rustls::ServerConfig, Vec<u8>), String> {
    let client_der = pem_certificate_der(client_pem)
        .ok_or("PLUGIN_CLIENT_CERT does not hold a PEM certificate")?;
    let ours = generate_client_cert()?;
    let provider = crypto_provider();
    let verifier = PinnedClientCert {
        inner: PinnedServerCert {
            key: pinned_key_kind(&client_der),
            der: client_der,
            algorithms: provider.signature_verification_algorithms,
        },
    };
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(ours.key_pkcs8.clone()));
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13, &rustls::version::TLS12])
        .map_err(|e| format!("cannot set up TLS: {e}"))?
        .with_client_cert_verifier(Arc::new(verifier))
        .with_single_cert(vec![ours.der.clone()], key)
        .map_err(|e| format!("cannot set up TLS: {e}"))?;
    config.alpn_protocols = vec![b"h2".to_vec()];
    Ok((config, ours.der.to_vec()))
}

/// The DER of the first certificate in a PEM text.
fn pem_certificate_der(pem: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    let start = pem.find("-----BEGIN CERTIFICATE-----")? + "-----BEGIN CERTIFICATE-----".len();
    let end = start + pem[start..].find("-----END CERTIFICATE-----")?;
    let b64: String = pem[start..end]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    base64::engine::general_purpose::STANDARD.decode(b64).ok()
}

/// Trusts exactly the host's certificate (from `PLUGIN_CLIENT_CERT`).
#[derive(Debug)]
struct PinnedClientCert {
    inner: PinnedServerCert,
}

impl rustls::server::danger::ClientCertVerifier for PinnedClientCert {
    fn root_hint_subjects(&self) -> &[rustls::DistinguishedName] {
        &[]
    }

    fn verify_client_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _now: UnixTime,
    ) -> Result<rustls::server::danger::ClientCertVerified, rustls::Error> {
        if end_entity.as_ref() == self.inner.der.as_slice() {
            Ok(rustls::server::danger::ClientCertVerified::assertion())
        } else {
            Err(rustls::Error::General(
                "the host presented a certificate other than PLUGIN_CLIENT_CERT".into(),
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify(message, cert, dss, false)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify(message, cert, dss, true)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

const OID_EC_PUBLIC_KEY: &[u8] = &[0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01];
const OID_SECP521R1: &[u8] = &[0x2b, 0x81, 0x04, 0x00, 0x23];

fn verify_p521(
    message: &[u8],
    cert_der: &[u8],
    signature: &[u8],
) -> Result<HandshakeSignatureValid, rustls::Error> {
    use p521::ecdsa::signature::Verifier;
    let bad = |what: &str| rustls::Error::General(format!("plugin certificate: {what}"));
    let point = p521_public_key(cert_der).ok_or_else(|| bad("not a P-521 ECDSA key"))?;
    let key = p521::ecdsa::VerifyingKey::from_sec1_bytes(point)
        .map_err(|_| bad("invalid P-521 public key"))?;
    let sig = p521::ecdsa::Signature::from_der(signature)
        .map_err(|_| bad("invalid ECDSA signature encoding"))?;
    key.verify(message, &sig)
        .map_err(|_| rustls::Error::InvalidCertificate(rustls::CertificateError::BadSignature))?;
    Ok(HandshakeSignatureValid::assertion())
}

/// One DER TLV: (tag, contents, rest after it).
fn der_next(b: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let tag = *b.first()?;
    let first = *b.get(1)? as usize;
    let (len, header) = if first < 0x80 {
        (first, 2)
    } else {
        let n = first & 0x7f;
        if n == 0 || n > 4 {
            return None;
        }
        let mut len = 0usize;
        for i in 0..n {
            len = (len << 8) | *b.get(2 + i)? as usize;
        }
        (len, 2 + n)
    };
    let end = header.checked_add(len)?;
    Some((tag, b.get(header..end)?, b.get(end..)?))
}

/// The subjectPublicKeyInfo of an X.509 certificate: (algorithm contents, key bit string).
fn subject_public_key_info(cert: &[u8]) -> Option<(&[u8], &[u8])> {
    let (0x30, cert_body, _) = der_next(cert)? else {
        return None;
    };
    let (0x30, tbs, _) = der_next(cert_body)? else {
        return None;
    };
    let mut rest = tbs;
    let (tag, _, r) = der_next(rest)?;
    if tag == 0xa0 {
        rest = r; // explicit version
    }
    // serial, signature algorithm, issuer, validity, subject
    for _ in 0..5 {
        rest = der_next(rest)?.2;
    }
    let (0x30, spki, _) = der_next(rest)? else {
        return None;
    };
    let (0x30, alg, after_alg) = der_next(spki)? else {
        return None;
    };
    let (0x03, bits, _) = der_next(after_alg)? else {
        return None;
    };
    match bits.split_first() {
        Some((0, key)) => Some((alg, key)),
        _ => None,
    }
}

/// The uncompressed P-521 point of an X.509 certificate's subject public key, if it has one.
fn p521_public_key(cert: &[u8]) -> Option<&[u8]> {
    let (alg, point) = subject_public_key_info(cert)?;
    let (0x06, alg_oid, alg_rest) = der_next(alg)? else {
        return None;
    };
    let (0x06, curve_oid, _) = der_next(alg_rest)? else {
        return None;
    };
    (alg_oid == OID_EC_PUBLIC_KEY && curve_oid == OID_SECP521R1).then_some(point)
}

const OID_RSA_ENCRYPTION: &[u8] = &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01];

/// An RSA subject public key (`RSAPublicKey` DER) and its modulus length in bits.
fn rsa_public_key(cert: &[u8]) -> Option<(&[u8], usize)> {
    let (alg, key) = subject_public_key_info(cert)?;
    let (0x06, alg_oid, _) = der_next(alg)? else {
        return None;
    };
    if alg_oid != OID_RSA_ENCRYPTION {
        return None;
    }
    let (0x30, seq, _) = der_next(key)? else {
        return None;
    };
    let (0x02, modulus, _) = der_next(seq)? else {
        return None;
    };
    let significant = modulus
        .iter()
        .position(|&b| b != 0)
        .map(|i| &modulus[i..])?;
    let bits = significant.len() * 8 - significant[0].leading_zeros() as usize;
    Some((key, bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_cert_is_a_pem_certificate_for_localhost() {
        let c = generate_client_cert().unwrap();
        assert!(c.pem.starts_with("-----BEGIN CERTIFICATE-----"));
        assert!(!c.pem.contains("PRIVATE KEY"));
        // The SAN "localhost" is in the DER as an IA5String dNSName ([2] context tag).
        let needle = [&[0x82u8, 9][..], b"localhost"].concat();
        assert!(c
            .der
            .as_ref()
            .windows(needle.len())
            .any(|w| w == needle.as_slice()));
        // Two certificates never share a serial (or a key).
        let d = generate_client_cert().unwrap();
        assert_ne!(c.der.as_ref(), d.der.as_ref());
        assert!(client_config(&c, d.der.to_vec()).is_ok());
    }

    #[test]
    fn p521_key_extraction_and_signature_check() {
        use p521::ecdsa::signature::Signer;
        // A P-256 certificate is not a P-521 one.
        let c = generate_client_cert().unwrap();
        assert!(p521_public_key(c.der.as_ref()).is_none());

        // Build a minimal certificate-shaped DER around a real P-521 key and sign with it.
        let mut secret = [7u8; 66];
        secret[0] = 0;
        let signing = p521::ecdsa::SigningKey::from_slice(&secret).unwrap();
        let verifying = p521::ecdsa::VerifyingKey::from(&signing);
        let point = verifying.to_encoded_point(false);
        let cert = fake_cert(point.as_bytes());
        assert_eq!(p521_public_key(&cert), Some(point.as_bytes()));
        let sig: p521::ecdsa::Signature = signing.sign(b"handshake transcript");
        let der = sig.to_der();
        assert!(verify_p521(b"handshake transcript", &cert, der.as_bytes()).is_ok());
        assert!(verify_p521(b"another transcript", &cert, der.as_bytes()).is_err());
    }

    #[test]
    fn small_rsa_keys_are_recognised_by_modulus_length() {
        let rsa_cert = |modulus_bytes: usize| {
            let mut n = vec![0u8];
            n.push(0xc1);
            n.extend(std::iter::repeat_n(0x55, modulus_bytes - 1));
            let key = tlv(0x30, &[tlv(0x02, &n), tlv(0x02, &[1, 0, 1])].concat());
            let alg = tlv(
                0x30,
                &[tlv(0x06, OID_RSA_ENCRYPTION), tlv(0x05, &[])].concat(),
            );
            cert_with_spki(alg, &key)
        };
        let small = rsa_cert(128);
        match pinned_key_kind(&small) {
            PinnedKey::SmallRsa(der) => {
                assert_eq!(rsa_public_key(&small).unwrap(), (der.as_slice(), 1024))
            }
            other => panic!("expected a small RSA key, got {other:?}"),
        }
        assert_eq!(pinned_key_kind(&rsa_cert(256)), PinnedKey::Other);
        assert_eq!(
            pinned_key_kind(generate_client_cert().unwrap().der.as_ref()),
            PinnedKey::Other
        );
    }

    fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
        let mut out = vec![tag];
        if content.len() < 0x80 {
            out.push(content.len() as u8);
        } else if content.len() < 0x100 {
            out.extend_from_slice(&[0x81, content.len() as u8]);
        } else {
            out.extend_from_slice(&[0x82, (content.len() >> 8) as u8, content.len() as u8]);
        }
        out.extend_from_slice(content);
        out
    }

    fn fake_cert(point: &[u8]) -> Vec<u8> {
        let alg = tlv(
            0x30,
            &[tlv(0x06, OID_EC_PUBLIC_KEY), tlv(0x06, OID_SECP521R1)].concat(),
        );
        cert_with_spki(alg, point)
    }

    fn cert_with_spki(alg: Vec<u8>, key: &[u8]) -> Vec<u8> {
        let bits = tlv(0x03, &[&[0u8][..], key].concat());
        let spki = tlv(0x30, &[alg, bits].concat());
        let name = tlv(0x30, &[]);
        let tbs = tlv(
            0x30,
            &[
                tlv(0xa0, &tlv(0x02, &[2])),
                tlv(0x02, &[1]),
                tlv(0x30, &[]),
                name.clone(),
                tlv(0x30, &[]),
                name,
                spki,
            ]
            .concat(),
        );
        tlv(0x30, &[tbs, tlv(0x30, &[]), tlv(0x03, &[0])].concat())
    }
}
