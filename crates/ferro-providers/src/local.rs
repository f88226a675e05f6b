//! The `local` provider as hashicorp/local 2.x behaves: `local_file` and
//! `local_sensitive_file` write a file; refresh forgets the object when the file disappeared or
//! its content no longer matches (so the next plan creates it again); the `local_file` data
//! source reads one. The resources declare a resource identity (Terraform 1.12), the file's
//! `filename`, which ferro-sdk answers with every read, plan and apply (see
//! docs/compatibility.md).

use ferro_sdk::modifiers::{requires_replace, use_state_for_unknown};
use ferro_sdk::validators::{at_least_one_of, conflicts_with};
use ferro_sdk::values::{get_str, with};
use ferro_sdk::{
    attr_error, Attr, DataSource, Diags, Resource, ResourceSchema, SdkProvider, Value,
};
use std::path::Path;

pub fn provider() -> SdkProvider {
    SdkProvider::new("local")
        .resource("local_file", LocalFile { sensitive: false })
        .resource("local_sensitive_file", LocalFile { sensitive: true })
        .data_source("local_file", LocalFileData)
}

const SOURCES: [&str; 4] = ["content", "sensitive_content", "content_base64", "source"];

fn digests(bytes: &[u8]) -> Vec<(&'static str, Value)> {
    use base64::Engine;
    use ring::digest::{digest, SHA1_FOR_LEGACY_USE_ONLY, SHA256, SHA512};
    let hex = |d: &[u8]| d.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let b64 = |d: &[u8]| base64::engine::general_purpose::STANDARD.encode(d);
    let sha1 = digest(&SHA1_FOR_LEGACY_USE_ONLY, bytes);
    let sha256 = digest(&SHA256, bytes);
    let sha512 = digest(&SHA512, bytes);
    vec![
        ("id", Value::string(hex(sha1.as_ref()))),
        ("content_sha1", Value::string(hex(sha1.as_ref()))),
        ("content_sha256", Value::string(hex(sha256.as_ref()))),
        ("content_base64sha256", Value::string(b64(sha256.as_ref()))),
        ("content_sha512", Value::string(hex(sha512.as_ref()))),
        ("content_base64sha512", Value::string(b64(sha512.as_ref()))),
    ]
}

pub struct LocalFile {
    sensitive: bool,
}

impl LocalFile {
    fn sources(&self) -> Vec<&'static str> {
        SOURCES
            .iter()
            .copied()
            .filter(|s| !(self.sensitive && *s == "sensitive_content"))
            .collect()
    }

    /// The bytes the configuration asks for.
    fn wanted(&self, v: &Value) -> Result<Vec<u8>, Diags> {
        use base64::Engine;
        if let Some(c) = get_str(v, "content").or_else(|| get_str(v, "sensitive_content")) {
            return Ok(c.into_bytes());
        }
        if let Some(b) = get_str(v, "content_base64") {
            return base64::engine::general_purpose::STANDARD
                .decode(b)
                .map_err(|e| {
                    vec![attr_error(
                        "content_base64",
                        "Invalid base64",
                        format!("content_base64 is not valid base64: {e}"),
                    )]
                });
        }
        if let Some(src) = get_str(v, "source") {
            return std::fs::read(&src).map_err(|e| {
                vec![attr_error(
                    "source",
                    "Cannot read source file",
                    format!("{src}: {e}"),
                )]
            });
        }
        Err(vec![ferro_sdk::Diagnostic::error(
            "No file content",
            "One of content, sensitive_content, content_base64 or source is required.",
        )])
    }
}

fn mode(v: &Value, attr: &str, default: u32) -> u32 {
    get_str(v, attr)
        .and_then(|m| u32::from_str_radix(&m, 8).ok())
        .unwrap_or(default)
}

fn permission(attr: &str, default: &str) -> Attr {
    Attr::string()
        .default(Value::string(default))
        .modifier(requires_replace())
        .validate(ferro_sdk::validators::matches_class(
            "^[0-7]+$",
            "must be a valid unix permission in octal notation, e.g. 0777",
        ))
        .describe(format!(
            "Permissions to set for the {attr}, in octal notation."
        ))
}

impl Resource for LocalFile {
    fn identity_schema(&self) -> Option<ferro_sdk::IdentitySchema> {
        Some(ferro_sdk::IdentitySchema {
            version: 0,
            attributes: [(
                "filename".to_string(),
                ferro_sdk::IdentityAttribute {
                    ty: ferro_sdk::Type::String,
                    required_for_import: true,
                    optional_for_import: false,
                    description: "The path of the file.".into(),
                },
            )]
            .into_iter()
            .collect(),
        })
    }

    fn identity(&self, state: &Value) -> Value {
        Value::object(
            [(
                "filename".to_string(),
                ferro_sdk::values::get(state, "filename"),
            )]
            .into_iter()
            .collect(),
        )
    }

    fn schema(&self) -> ResourceSchema {
        let perm = if self.sensitive { "0700" } else { "0777" };
        let force = |a: Attr| a.modifier(requires_replace());
        let mut s = ResourceSchema::new()
            .attr("filename", force(Attr::string().required()))
            .attr("content", {
                let a = force(Attr::string().optional())
                    .validate(conflicts_with(&["content_base64", "source"]));
                if self.sensitive {
                    a.sensitive()
                } else {
                    a
                }
            })
            .attr("content_base64", {
                let a = force(Attr::string().optional()).validate(conflicts_with(&["source"]));
                if self.sensitive {
                    a.sensitive()
                } else {
                    a
                }
            })
            .attr("source", force(Attr::string().optional()))
            .attr("file_permission", permission("file", perm))
            .attr("directory_permission", permission("directory", perm));
        if !self.sensitive {
            s = s.attr(
                "sensitive_content",
                force(Attr::string().optional().sensitive().deprecated())
                    .validate(conflicts_with(&["content", "content_base64", "source"])),
            );
        }
        for (name, _) in digests(b"") {
            s = s.attr(
                name,
                Attr::string().computed().modifier(use_state_for_unknown()),
            );
        }
        s
    }

    fn validate(&self, config: &Value, diags: &mut Diags) {
        if config.is_wholly_known() {
            if let Some(d) = at_least_one_of(config, &self.sources()) {
                diags.push(d);
            }
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let bytes = self.wanted(planned)?;
        let filename = get_str(planned, "filename").unwrap_or_default();
        let path = Path::new(&filename);
        let io = |what: &str, e: std::io::Error| {
            vec![attr_error(
                "filename",
                "Create local file error",
                format!("{what} {filename}: {e}"),
            )]
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| io("cannot create the directory of", e))?;
            set_mode(dir, mode(planned, "directory_permission", 0o777))
                .map_err(|e| io("cannot set the permissions of the directory of", e))?;
        }
        std::fs::write(path, &bytes).map_err(|e| io("cannot write", e))?;
        set_mode(path, mode(planned, "file_permission", 0o777))
            .map_err(|e| io("cannot set the permissions of", e))?;
        let mut v = planned.clone();
        for (name, val) in digests(&bytes) {
            v = with(&v, name, val);
        }
        Ok(v)
    }

    fn read(&self, state: &Value) -> Result<Option<Value>, Diags> {
        let filename = get_str(state, "filename").unwrap_or_default();
        match std::fs::read(&filename) {
            Ok(bytes) => {
                let id = &digests(&bytes)[0].1;
                if state.get_attr("id") == Some(id) {
                    Ok(Some(state.clone()))
                } else {
                    Ok(None)
                }
            }
            Err(_) => Ok(None),
        }
    }

    fn delete(&self, prior: &Value) -> Result<(), Diags> {
        let filename = get_str(prior, "filename").unwrap_or_default();
        match std::fs::remove_file(&filename) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(vec![attr_error(
                "filename",
                "Delete local file error",
                format!("cannot remove {filename}: {e}"),
            )]),
        }
    }
}

#[cfg(unix)]
fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_path: &Path, _mode: u32) -> std::io::Result<()> {
    Ok(())
}

pub struct LocalFileData;

impl DataSource for LocalFileData {
    fn schema(&self) -> ResourceSchema {
        let mut s = ResourceSchema::new()
            .attr("filename", Attr::string().required())
            .attr("content", Attr::string().computed())
            .attr("content_base64", Attr::string().computed());
        for (name, _) in digests(b"") {
            s = s.attr(name, Attr::string().computed());
        }
        s
    }

    fn read(&self, config: &Value) -> Result<Value, Diags> {
        use base64::Engine;
        let filename = get_str(config, "filename").unwrap_or_default();
        let bytes = std::fs::read(&filename).map_err(|e| {
            vec![attr_error(
                "filename",
                "Read local file data source error",
                format!("cannot read {filename}: {e}"),
            )]
        })?;
        let mut v = with(
            config,
            "content",
            Value::string(String::from_utf8_lossy(&bytes).into_owned()),
        );
        v = with(
            &v,
            "content_base64",
            Value::string(base64::engine::general_purpose::STANDARD.encode(&bytes)),
        );
        for (name, val) in digests(&bytes) {
            v = with(&v, name, val);
        }
        Ok(v)
    }
}
