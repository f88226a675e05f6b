//! The AWS client of the s3 backend and the http backend's client against small servers the
//! tests start: credentials from `credential_process`, SSO, the container endpoint and the
//! instance metadata service; retries of throttled, failed and dropped requests; account ID
//! checks through STS; proxies; a custom CA; mutual TLS.

mod support;

use ferro_state::aws::credentials::{self, CredentialSettings};
use ferro_state::aws::dynamodb::DynamoDbClient;
use ferro_state::aws::s3::S3Client;
use ferro_state::aws::{
    http_agent, AwsCredentials, ClientOptions, HttpClient, RetryPolicy, Session,
};
use ferro_state::config::{http_config, s3_config, Lit};
use ferro_testkit::registry::TunnelProxy as Proxy;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use support::{scratch, Pki, Server};

/// Settings that find nothing by themselves: no environment, no shared files, no metadata
/// service.
fn isolated(dir: &std::path::Path) -> CredentialSettings {
    CredentialSettings {
        shared_credentials_files: vec![dir.join("no-credentials").display().to_string()],
        shared_config_files: vec![dir.join("no-config").display().to_string()],
        skip_metadata_api_check: Some(true),
        environment: Some(BTreeMap::from([(
            "HOME".to_string(),
            dir.display().to_string(),
        )])),
        region: "us-east-1".into(),
        ..CredentialSettings::default()
    }
}

fn resolve(settings: &CredentialSettings) -> Result<AwsCredentials, String> {
    credentials::resolve(&http_agent(false), settings)
}

const KEYS_JSON: &str = r#"{"AccessKeyId":"AKID","SecretAccessKey":"very-secret","Token":"tok-secret","Code":"Success"}"#;

#[test]
fn a_profile_credential_process_gives_the_keys() {
    let dir = scratch("credential-process");
    let config = dir.join("config");
    std::fs::write(
        &config,
        "[profile proc]\ncredential_process = printf '{\"Version\": 1, \"AccessKeyId\": \"AKPROC\", \"SecretAccessKey\": \"s\", \"SessionToken\": \"t\"}'\n\n[profile broken]\ncredential_process = sh -c 'exit 3'\n",
    )
    .unwrap();
    let mut s = isolated(&dir);
    s.shared_config_files = vec![config.display().to_string()];
    s.profile = Some("proc".into());
    let c = resolve(&s).unwrap();
    assert_eq!(c.access_key_id, "AKPROC");
    assert_eq!(c.session_token.as_deref(), Some("t"));
    s.profile = Some("broken".into());
    let e = resolve(&s).unwrap_err();
    assert!(
        e.contains("credential_process") && e.contains("broken"),
        "{e}"
    );
}

#[test]
fn the_container_endpoint_is_asked_with_its_authorization_token() {
    let server = Server::start(|req, _| {
        (req.path == "/creds" && req.header("authorization") == Some("container-token"))
            .then(|| (200, KEYS_JSON.to_string()))
            .or(Some((401, String::new())))
    });
    let dir = scratch("container");
    let mut s = isolated(&dir);
    let env = s.environment.as_mut().unwrap();
    env.insert(
        "AWS_CONTAINER_CREDENTIALS_FULL_URI".into(),
        format!("{}/creds", server.url("http")),
    );
    let token_file = dir.join("token");
    std::fs::write(&token_file, "container-token\n").unwrap();
    env.insert(
        "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE".into(),
        token_file.display().to_string(),
    );
    let c = resolve(&s).unwrap();
    assert_eq!(c.access_key_id, "AKID");
    assert_eq!(c.session_token.as_deref(), Some("tok-secret"));
    // A refused token is an error that shows no secret.
    let env = s.environment.as_mut().unwrap();
    env.remove("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
    env.insert("AWS_CONTAINER_AUTHORIZATION_TOKEN".into(), "wrong".into());
    let e = resolve(&s).unwrap_err();
    assert!(e.contains("401") && !e.contains("wrong"), "{e}");
    // Plain http only to loopback and the ECS/EKS addresses.
    let env = s.environment.as_mut().unwrap();
    env.insert(
        "AWS_CONTAINER_CREDENTIALS_FULL_URI".into(),
        "http://example.com/creds".into(),
    );
    assert!(resolve(&s).unwrap_err().contains("loopback"));
}

fn imds() -> Server {
    Server::start(|req, _| {
        let token = req.header("x-aws-ec2-metadata-token");
        match (req.method.as_str(), req.path.as_str()) {
            ("PUT", "/latest/api/token")
                if req.header("x-aws-ec2-metadata-token-ttl-seconds").is_some() =>
            {
                Some((200, "imds-session".into()))
            }
            (_, _) if token != Some("imds-session") => Some((401, String::new())),
            ("GET", "/latest/meta-data/iam/security-credentials/") => {
                Some((200, "web-role\n".into()))
            }
            ("GET", "/latest/meta-data/iam/security-credentials/web-role") => {
                Some((200, KEYS_JSON.into()))
            }
            _ => Some((404, String::new())),
        }
    })
}

#[test]
fn the_instance_metadata_service_gives_the_role_credentials_with_a_session_token() {
    let server = imds();
    let dir = scratch("imds");
    let mut s = isolated(&dir);
    s.skip_metadata_api_check = None;
    s.ec2_metadata_endpoint = Some(server.url("http"));
    let c = resolve(&s).unwrap();
    assert_eq!(c.access_key_id, "AKID");
    assert_eq!(server.seen().len(), 3);
    // The environment names the endpoint as well.
    s.ec2_metadata_endpoint = None;
    s.environment.as_mut().unwrap().insert(
        "AWS_EC2_METADATA_SERVICE_ENDPOINT".into(),
        server.url("http"),
    );
    assert_eq!(resolve(&s).unwrap().access_key_id, "AKID");
    // skip_metadata_api_check: the service is not asked.
    s.skip_metadata_api_check = Some(true);
    let before = server.seen().len();
    let e = resolve(&s).unwrap_err();
    assert!(e.contains("No valid credential sources found"), "{e}");
    assert_eq!(server.seen().len(), before);
}

#[test]
fn an_sso_profile_exchanges_the_cached_token_for_role_credentials() {
    let server = Server::start(|req, _| {
        let ok = req.path == "/federation/credentials?account_id=111122223333&role_name=Admin"
            && req.header("x-amz-sso_bearer_token") == Some("sso-access-token");
        Some(if ok {
            (200, r#"{"roleCredentials":{"accessKeyId":"AKSSO","secretAccessKey":"s","sessionToken":"t","expiration":1}}"#.into())
        } else {
            (403, String::new())
        })
    });
    let dir = scratch("sso");
    let config = dir.join("config");
    std::fs::write(
        &config,
        "[profile dev]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = Admin\n\n[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = eu-west-1\n",
    )
    .unwrap();
    // The AWS CLI names the cache file by the SHA-1 of the session name.
    let cache = dir.join(".aws/sso/cache");
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::write(
        cache.join("ee0bfd2552fbd840c02cc48b6e823320543c450f.json"),
        r#"{"accessToken":"sso-access-token","expiresAt":"2999-01-01T00:00:00Z"}"#,
    )
    .unwrap();
    let mut s = isolated(&dir);
    s.shared_config_files = vec![config.display().to_string()];
    s.profile = Some("dev".into());
    s.sso_endpoint = Some(server.url("http"));
    let c = resolve(&s).unwrap();
    assert_eq!(c.access_key_id, "AKSSO");
    // An expired token asks for a new login.
    std::fs::write(
        cache.join("ee0bfd2552fbd840c02cc48b6e823320543c450f.json"),
        r#"{"accessToken":"sso-access-token","expiresAt":"2001-01-01T00:00:00Z"}"#,
    )
    .unwrap();
    let e = resolve(&s).unwrap_err();
    assert!(e.contains("aws sso login --profile dev"), "{e}");
}

fn session(max_retries: u32) -> Arc<Session> {
    let agent = HttpClient::new(&ClientOptions {
        retry: RetryPolicy {
            max_retries,
            base: Duration::from_millis(1),
            max_backoff: Duration::from_millis(5),
        },
        ..ClientOptions::default()
    })
    .unwrap();
    Arc::new(Session {
        agent,
        creds: AwsCredentials {
            access_key_id: "a".into(),
            secret_access_key: "b".into(),
            session_token: None,
        },
        region: "us-east-1".into(),
    })
}

#[test]
fn s3_requests_are_retried_after_dropped_connections_throttling_and_5xx() {
    // The first request gets no answer, the second a SlowDown, the third a 500.
    let server = Server::start(|_, n| match n {
        1 => None,
        2 => Some((
            503,
            "<Error><Code>SlowDown</Code><Message>slow</Message></Error>".into(),
        )),
        3 => Some((500, "<Error><Code>InternalError</Code></Error>".into())),
        _ => Some((200, "state".into())),
    });
    let e = server.url("http");
    let s3 = |retries| S3Client {
        session: session(retries),
        endpoint: e.clone(),
        path_style: true,
    };
    let body = s3(3).get_object("bucket", "key").unwrap();
    assert_eq!(body.as_deref(), Some(&b"state"[..]));
    assert_eq!(server.seen().len(), 4);
    // A request that is not retryable is not sent again.
    let refused =
        Server::start(|_, _| Some((403, "<Error><Code>AccessDenied</Code></Error>".into())));
    let e2 = refused.url("http");
    let c = S3Client {
        session: session(3),
        endpoint: e2.clone(),
        path_style: true,
    };
    assert_eq!(
        c.get_object("bucket", "key").unwrap_err().code,
        "AccessDenied"
    );
    assert_eq!(refused.seen().len(), 1);
}

#[test]
fn retries_stop_after_max_retries() {
    let server = Server::start(|_, _| Some((503, String::new())));
    let e = server.url("http");
    let c = S3Client {
        session: session(2),
        endpoint: e.clone(),
        path_style: true,
    };
    assert_eq!(c.get_object("bucket", "key").unwrap_err().status, 503);
    assert_eq!(server.seen().len(), 3);
}

#[test]
fn dynamodb_throttling_is_retried() {
    let server = Server::start(|_, n| {
        Some(if n <= 2 {
            (400, r#"{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException","message":"slow down"}"#.into())
        } else {
            (
                200,
                r#"{"Item":{"LockID":{"S":"b/k-md5"},"Digest":{"S":"abc"}}}"#.into(),
            )
        })
    });
    let e = server.url("http");
    let ddb = DynamoDbClient {
        session: session(5),
        endpoint: e.clone(),
    };
    let item = ddb.get_item("locks", "b/k-md5").unwrap().unwrap();
    assert_eq!(item["Digest"], "abc");
    assert_eq!(server.seen().len(), 3);
}

fn s3_attrs(sts: &str, extra: &[(&str, Lit)]) -> BTreeMap<String, Lit> {
    let mut attrs: BTreeMap<String, Lit> = [
        ("bucket", Lit::Str("b".into())),
        ("key", Lit::Str("k".into())),
        ("region", Lit::Str("us-east-1".into())),
        ("access_key", Lit::Str("a".into())),
        ("secret_key", Lit::Str("s".into())),
        ("skip_metadata_api_check", Lit::Bool(true)),
        (
            "endpoints",
            Lit::Map(BTreeMap::from([
                ("sts".to_string(), Lit::Str(sts.into())),
                ("s3".to_string(), Lit::Str(sts.into())),
            ])),
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    attrs.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    attrs
}

fn sts_server() -> Server {
    Server::start(|req, _| {
        let body = String::from_utf8_lossy(&req.body);
        Some(if body.contains("Action=GetCallerIdentity") {
            (200, "<GetCallerIdentityResponse><GetCallerIdentityResult><Account>123456789012</Account></GetCallerIdentityResult></GetCallerIdentityResponse>".into())
        } else {
            (400, String::new())
        })
    })
}

#[test]
fn the_account_must_be_allowed_and_not_forbidden() {
    let server = sts_server();
    let e = server.url("http");
    let ids = |v: &[&str]| Lit::List(v.iter().map(|s| Lit::Str(s.to_string())).collect());
    let connect = |extra: &[(&str, Lit)]| {
        let cfg = s3_config(&s3_attrs(&e, extra)).unwrap();
        ferro_state::s3::S3Store::connect(&cfg).map(|_| ())
    };
    assert!(connect(&[("allowed_account_ids", ids(&["123456789012"]))]).is_ok());
    let refused = connect(&[("allowed_account_ids", ids(&["111111111111"]))]).unwrap_err();
    assert!(
        refused
            .0
            .contains("AWS account ID not allowed: 123456789012"),
        "{refused:?}"
    );
    let forbidden = connect(&[("forbidden_account_ids", ids(&["123456789012"]))]).unwrap_err();
    assert!(forbidden.0.contains("not allowed"), "{forbidden:?}");
    // Asked for even when the credentials are not validated.
    let before = server.seen().len();
    let skipped = connect(&[
        ("skip_credentials_validation", Lit::Bool(true)),
        ("forbidden_account_ids", ids(&["123456789012"])),
    ]);
    assert!(skipped.is_err());
    assert_eq!(server.seen().len(), before + 1);
    let both = s3_config(&s3_attrs(
        &e,
        &[
            ("allowed_account_ids", ids(&["1"])),
            ("forbidden_account_ids", ids(&["2"])),
        ],
    ))
    .unwrap_err();
    assert!(both.contains("only one of"), "{both}");
}

#[test]
fn requests_go_through_the_configured_proxy_unless_no_proxy_names_the_host() {
    let server = sts_server();
    let proxy = Proxy::start();
    let e = server.url("http");
    let proxied = s3_config(&s3_attrs(
        &e,
        &[(
            "http_proxy",
            Lit::Str(format!("http://127.0.0.1:{}", proxy.port)),
        )],
    ))
    .unwrap();
    ferro_state::s3::S3Store::connect(&proxied).unwrap();
    assert_eq!(proxy.targets(), vec![format!("127.0.0.1:{}", server.port)]);
    let bypassed = s3_config(&s3_attrs(
        &e,
        &[
            (
                "http_proxy",
                Lit::Str(format!("http://127.0.0.1:{}", proxy.port)),
            ),
            ("no_proxy", Lit::Str("localhost,127.0.0.1".into())),
        ],
    ))
    .unwrap();
    ferro_state::s3::S3Store::connect(&bypassed).unwrap();
    assert_eq!(proxy.targets().len(), 1);
}

#[test]
fn a_custom_ca_bundle_is_trusted_and_insecure_skips_the_check() {
    let pki = Pki::new();
    let server = Server::start_tls(&pki, false, |req, _| {
        let body = String::from_utf8_lossy(&req.body);
        Some(if body.contains("Action=GetCallerIdentity") {
            (200, "<Account>123456789012</Account>".into())
        } else {
            (400, String::new())
        })
    });
    let e = server.url("https");
    let dir = scratch("ca-bundle");
    let bundle = dir.join("ca.pem");
    std::fs::write(&bundle, &pki.ca_pem).unwrap();
    let connect = |extra: &[(&str, Lit)]| {
        let cfg = s3_config(&s3_attrs(
            &e,
            &[extra, &[("max_retries", Lit::Num("0".into()))]].concat(),
        ))
        .unwrap();
        ferro_state::s3::S3Store::connect(&cfg).map(|_| ())
    };
    let untrusted = connect(&[]).unwrap_err();
    assert!(untrusted.0.contains("GetCallerIdentity"), "{untrusted:?}");
    connect(&[("custom_ca_bundle", Lit::Str(bundle.display().to_string()))]).unwrap();
    connect(&[("insecure", Lit::Bool(true))]).unwrap();
    let missing = s3_config(&s3_attrs(
        &e,
        &[(
            "custom_ca_bundle",
            Lit::Str(dir.join("absent.pem").display().to_string()),
        )],
    ))
    .unwrap_err();
    assert!(missing.contains("custom_ca_bundle"), "{missing}");
}

fn http_attrs(address: &str, extra: &[(&str, Lit)]) -> BTreeMap<String, Lit> {
    let mut attrs = BTreeMap::from([("address".to_string(), Lit::Str(address.into()))]);
    attrs.extend(extra.iter().map(|(k, v)| (k.to_string(), v.clone())));
    attrs
}

#[test]
fn the_http_backend_presents_its_client_certificate() {
    let pki = Pki::new();
    let server = Server::start_tls(&pki, true, |_, _| Some((200, "{\"version\":4}".into())));
    let address = format!("{}/state", server.url("https"));
    let (cert, key) = pki.client();
    // No retries: a refused handshake fails at once.
    let get = |extra: &[(&str, Lit)]| {
        let extra = [extra, &[("retry_max", Lit::Num("0".into()))]].concat();
        let cfg = http_config(&http_attrs(&address, &extra))?;
        let store = ferro_state::http::HttpStore::new(&cfg).map_err(|e| e.0)?;
        store.get().map_err(|e| e.0)
    };
    let mtls = [
        ("client_ca_certificate_pem", Lit::Str(pki.ca_pem.clone())),
        ("client_certificate_pem", Lit::Str(cert.clone())),
        ("client_private_key_pem", Lit::Str(key.clone())),
    ];
    let state = get(&mtls).unwrap().unwrap();
    assert_eq!(state, b"{\"version\":4}");
    // Without the client certificate the server refuses the handshake.
    let refused = get(&mtls[..1]).unwrap_err();
    assert!(refused.contains("failed to get state"), "{refused}");
    // skip_cert_verification replaces the CA.
    let skipped = [
        ("skip_cert_verification", Lit::Bool(true)),
        ("client_certificate_pem", Lit::Str(cert)),
        ("client_private_key_pem", Lit::Str(key.clone())),
    ];
    assert!(get(&skipped).unwrap().is_some());
    // Without either, the server's certificate is unknown.
    assert!(get(&skipped[1..]).is_err());
    let half = get(&[("client_private_key_pem", Lit::Str(key.clone()))]).unwrap_err();
    assert!(half.contains("must be set together"), "{half}");
    let bad = get(&[
        ("client_certificate_pem", Lit::Str("junk".into())),
        ("client_private_key_pem", Lit::Str(key.clone())),
    ])
    .unwrap_err();
    assert!(
        !bad.contains(&key) && bad.contains("client certificate"),
        "{bad}"
    );
}

#[test]
fn the_http_backend_retries_5xx_answers_up_to_retry_max() {
    let server = Server::start(|_, n| {
        Some(if n <= 4 {
            (503, String::new())
        } else {
            (200, "{\"version\":4}".into())
        })
    });
    let address = format!("{}/state", server.url("http"));
    let get = |retries: &str| {
        let cfg = http_config(&http_attrs(
            &address,
            &[
                ("retry_max", Lit::Num(retries.into())),
                ("retry_wait_min", Lit::Num("0".into())),
                ("retry_wait_max", Lit::Num("0".into())),
            ],
        ))
        .unwrap();
        ferro_state::http::HttpStore::new(&cfg).unwrap().get()
    };
    // One retry: two 503s and an error; two retries: two more 503s, then the state.
    assert!(get("1").is_err());
    assert_eq!(server.seen().len(), 2);
    assert!(get("2").unwrap().is_some());
    assert_eq!(server.seen().len(), 5);
}
