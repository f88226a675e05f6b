//! go-plugin's handshake: the environment a host gives the plugin process (PROTOCOL_FACTS §1.2)
//! and the line the plugin prints on stdout once it listens (§1.3).

use base64::Engine;

/// Terraform's magic cookie for providers and provisioners (fixed forever).
pub const MAGIC_COOKIE_KEY: &str = "TF_PLUGIN_MAGIC_COOKIE";
pub const MAGIC_COOKIE_VALUE: &str =
    "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
/// The application protocol versions ferro speaks, as Terraform offers them.
pub const SUPPORTED_PROTOCOLS: [u32; 2] = [5, 6];

/// The variables added to the plugin's (inherited) environment. `client_cert_pem` is the
/// AutoMTLS client certificate, when TLS is on.
pub fn plugin_env(client_cert_pem: Option<&str>) -> Vec<(String, String)> {
    let mut env = vec![
        (MAGIC_COOKIE_KEY.to_string(), MAGIC_COOKIE_VALUE.to_string()),
        ("PLUGIN_MIN_PORT".to_string(), "10000".to_string()),
        ("PLUGIN_MAX_PORT".to_string(), "25000".to_string()),
        (
            "PLUGIN_PROTOCOL_VERSIONS".to_string(),
            SUPPORTED_PROTOCOLS
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(","),
        ),
    ];
    if let Some(pem) = client_cert_pem {
        env.push(("PLUGIN_CLIENT_CERT".to_string(), pem.to_string()));
    }
    env
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Network {
    Unix,
    Tcp,
}

/// A parsed handshake line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handshake {
    /// The negotiated plugin protocol major version (5 or 6).
    pub protocol_version: u32,
    pub network: Network,
    pub address: String,
    /// The server's certificate (DER) when the plugin serves AutoMTLS.
    pub server_cert: Option<Vec<u8>>,
}

/// Parse the first stdout line of a plugin, checking it against what the client offered.
pub fn parse_handshake(line: &str, offered: &[u32]) -> Result<Handshake, String> {
    let line = line.trim();
    let parts: Vec<&str> = line.splitn(6, '|').collect();
    if parts.len() < 4 {
        return Err(format!(
            "Unrecognized remote plugin message: {line}\n\nThis usually means that the plugin is either invalid or simply needs to be recompiled to support the latest protocol."
        ));
    }
    let core: u32 = parts[0].parse().map_err(|_| {
        format!("Error parsing core protocol version in the plugin handshake {line:?}")
    })?;
    if core != 1 {
        return Err(format!(
            "Incompatible core API version with plugin. Plugin version: {}, Core version: 1",
            parts[0]
        ));
    }
    let app: u32 = parts[1]
        .parse()
        .map_err(|_| format!("Error parsing protocol version in the plugin handshake {line:?}"))?;
    if !offered.contains(&app) {
        let offered: Vec<String> = offered.iter().map(u32::to_string).collect();
        return Err(format!(
            "Incompatible API version with plugin. Plugin version: {app}, Client versions: [{}]. This provider speaks plugin protocol {app}, which ferro does not support (it supports {}).",
            offered.join(" "),
            offered.join(" and ")
        ));
    }
    let network = match parts[2] {
        "unix" => Network::Unix,
        "tcp" => Network::Tcp,
        other => {
            return Err(format!(
                "Unknown plugin network type {other:?} in the plugin handshake"
            ))
        }
    };
    let address = parts[3].to_string();
    if address.is_empty() {
        return Err(format!(
            "The plugin handshake {line:?} has an empty address"
        ));
    }
    let protocol = parts.get(4).copied().unwrap_or("netrpc");
    if protocol != "grpc" {
        return Err(format!(
            "The plugin uses the {protocol:?} transport, but ferro only supports \"grpc\" (plugin protocol {app})"
        ));
    }
    let server_cert = match parts.get(5) {
        // go-plugin only treats the field as a certificate when it is longer than 50 characters.
        Some(c) if c.len() > 50 => Some(
            base64::engine::general_purpose::STANDARD_NO_PAD
                .decode(c.trim_end_matches('='))
                .map_err(|e| {
                    format!("The plugin's certificate in the handshake is not valid base64: {e}")
                })?,
        ),
        _ => None,
    };
    Ok(Handshake {
        protocol_version: app,
        network,
        address,
        server_cert,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plaintext_unix_handshake_with_trailing_empty_certificate() {
        let h = parse_handshake("1|5|unix|/tmp/plugin061548913|grpc|\n", &[5, 6]).unwrap();
        assert_eq!(
            h,
            Handshake {
                protocol_version: 5,
                network: Network::Unix,
                address: "/tmp/plugin061548913".into(),
                server_cert: None
            }
        );
    }

    #[test]
    fn tcp_handshake_without_certificate_field() {
        let h = parse_handshake("1|6|tcp|127.0.0.1:10000|grpc", &[5, 6]).unwrap();
        assert_eq!(h.network, Network::Tcp);
        assert_eq!(h.protocol_version, 6);
        assert_eq!(h.address, "127.0.0.1:10000");
        assert!(h.server_cert.is_none());
    }

    #[test]
    fn certificate_is_raw_standard_base64_der() {
        let der: Vec<u8> = (0u8..=60).collect();
        let b64 = base64::engine::general_purpose::STANDARD_NO_PAD.encode(&der);
        let line = format!("1|6|unix|/tmp/plugin1|grpc|{b64}");
        assert_eq!(
            parse_handshake(&line, &[5, 6]).unwrap().server_cert,
            Some(der)
        );
    }

    #[test]
    fn short_certificate_field_is_not_a_certificate() {
        let h = parse_handshake("1|5|unix|/tmp/p|grpc|abc", &[5, 6]).unwrap();
        assert!(h.server_cert.is_none());
    }

    #[test]
    fn rejects_netrpc_and_unoffered_versions() {
        let e = parse_handshake("1|4|unix|/tmp/p|netrpc|", &[5, 6]).unwrap_err();
        assert!(
            e.contains("Incompatible API version") && e.contains("Plugin version: 4"),
            "{e}"
        );
        let e = parse_handshake("1|5|unix|/tmp/p|netrpc|", &[5, 6]).unwrap_err();
        assert!(e.contains("netrpc"), "{e}");
        let e = parse_handshake("1|5|unix|/tmp/p", &[5, 6]).unwrap_err();
        assert!(e.contains("netrpc"), "{e}");
        let e = parse_handshake("2|5|unix|/tmp/p|grpc|", &[5, 6]).unwrap_err();
        assert!(e.contains("core API"), "{e}");
    }

    #[test]
    fn rejects_garbage() {
        let e = parse_handshake(
            "This binary is a plugin. These are not meant to be executed directly.",
            &[5],
        )
        .unwrap_err();
        assert!(e.starts_with("Unrecognized remote plugin message"), "{e}");
        assert!(parse_handshake("1|5|pipe|x|grpc|", &[5]).is_err());
    }

    #[test]
    fn environment_carries_cookie_versions_and_client_cert() {
        let env = plugin_env(Some("-----BEGIN CERTIFICATE-----\n"));
        let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("TF_PLUGIN_MAGIC_COOKIE"), Some(MAGIC_COOKIE_VALUE));
        assert_eq!(get("PLUGIN_PROTOCOL_VERSIONS"), Some("5,6"));
        assert_eq!(get("PLUGIN_MIN_PORT"), Some("10000"));
        assert_eq!(get("PLUGIN_MAX_PORT"), Some("25000"));
        assert!(get("PLUGIN_CLIENT_CERT")
            .unwrap()
            .starts_with("-----BEGIN CERTIFICATE"));
        assert!(plugin_env(None)
            .iter()
            .all(|(k, _)| k != "PLUGIN_CLIENT_CERT"));
    }
}
