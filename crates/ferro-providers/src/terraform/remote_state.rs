//! `terraform_remote_state`: the root module outputs of another configuration's state, read
//! through the `local` backend (`config = { path, workspace_dir }`), the `s3` backend (its
//! arguments in either spelling, credentials as the backend finds them) or the `http` backend,
//! for `workspace`, with `defaults` for outputs the state lacks. Texts follow Terraform 1.0.3;
//! other backend types are refused.

use ferro_sdk::values::{get, with};
use ferro_sdk::{Attr, DataSource, Diagnostic, Diags, PathStep, ResourceSchema, Type, Value};
use ferro_state::config::Lit;
use ferro_value::convert::convert;
use ferro_value::ValueMap;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Backend types Terraform 1.0.3 knows but ferro cannot read remote state from.
const OTHER_BACKENDS: [&str; 13] = [
    "remote",
    "artifactory",
    "azurerm",
    "consul",
    "cos",
    "etcd",
    "etcdv3",
    "gcs",
    "kubernetes",
    "manta",
    "oss",
    "pg",
    "swift",
];

pub struct RemoteState {
    /// Relative paths in the backend configuration are relative to this directory.
    pub working_dir: PathBuf,
}

fn error_at(attr: &str, summary: &str, detail: impl Into<String>) -> Diags {
    let mut d = Diagnostic::error(summary, detail);
    d.attribute = Some(vec![PathStep::Attr(attr.to_string())]);
    vec![d]
}

/// The local backend's settings: (`path`, `workspace_dir`).
fn local_config(config: &Value) -> Result<(Option<String>, Option<String>), Diags> {
    let invalid = |why: String| {
        error_at(
            "config",
            "Invalid backend configuration",
            format!("The given configuration is not valid for backend \"local\": {why}."),
        )
    };
    if config.is_null() {
        return Ok((None, None));
    }
    let entries = match config.ty() {
        Type::Object(_) | Type::Map(_) => config.as_entries().cloned().unwrap_or_default(),
        _ => return Err(invalid("an object is required".into())),
    };
    let mut path = None;
    let mut workspace_dir = None;
    for (name, v) in entries {
        let slot = match name.as_str() {
            "path" => &mut path,
            "workspace_dir" => &mut workspace_dir,
            _ => return Err(invalid(format!("unexpected attribute {name:?}"))),
        };
        if v.is_null() {
            continue;
        }
        match convert(&v, &Type::String)
            .ok()
            .and_then(|s| s.as_str().map(String::from))
        {
            Some(s) => *slot = Some(s),
            None => return Err(invalid(format!("attribute {name:?}: string required"))),
        }
    }
    Ok((path, workspace_dir))
}

/// The arguments of a remote backend's `config` object, as a backend block would give them.
fn remote_args(backend: &str, config: &Value) -> Result<BTreeMap<String, Lit>, Diags> {
    let invalid = |why: String| {
        error_at(
            "config",
            "Invalid backend configuration",
            format!("The given configuration is not valid for backend {backend:?}: {why}."),
        )
    };
    if config.is_null() {
        return Ok(BTreeMap::new());
    }
    let json = ferro_value::json::value_to_plain_json(config);
    let Some(obj) = json.as_object() else {
        return Err(invalid("an object is required".into()));
    };
    Ok(obj
        .iter()
        .filter_map(|(k, v)| Some((k.clone(), Lit::from_json(v)?)))
        .collect())
}

/// Where the state of `workspace` is read from.
enum Source {
    File(PathBuf),
    S3(ferro_state::s3::S3Config),
    Http(ferro_state::http::HttpConfig),
}

/// The source a backend and its configuration name (checked as the backend checks them).
fn source(backend: &str, config: &Value) -> Result<Source, Diags> {
    let invalid = |why: String| {
        error_at(
            "config",
            "Invalid backend configuration",
            format!("The given configuration is not valid for backend {backend:?}: {why}."),
        )
    };
    match backend {
        "s3" => ferro_state::config::s3_config(&remote_args(backend, config)?)
            .map(Source::S3)
            .map_err(invalid),
        "http" => ferro_state::config::http_config(&remote_args(backend, config)?)
            .map(Source::Http)
            .map_err(invalid),
        _ => {
            let (path, _) = local_config(config)?;
            Ok(Source::File(PathBuf::from(
                path.unwrap_or_else(|| "terraform.tfstate".into()),
            )))
        }
    }
}

/// The stored state's bytes: `None` when there is none.
fn stored_state(
    working_dir: &Path,
    backend: &str,
    config: &Value,
    workspace: &str,
) -> Result<Option<Vec<u8>>, Diags> {
    let failed = |e: String| {
        vec![Diagnostic::error(
            "Error loading state",
            format!("Failed to read the state of workspace {workspace:?} from the {backend:?} backend: {e}"),
        )]
    };
    match source(backend, config)? {
        Source::File(default_path) => {
            let file = if workspace == "default" {
                default_path
            } else {
                let (_, workspace_dir) = local_config(config)?;
                Path::new(&workspace_dir.unwrap_or_else(|| "terraform.tfstate.d".into()))
                    .join(workspace)
                    .join("terraform.tfstate")
            };
            let path = working_dir.join(file);
            match std::fs::read(&path) {
                Ok(b) => Ok(Some(b)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(vec![Diagnostic::error(
                    "Error loading state",
                    format!("Failed to read the state file {}: {e}.", path.display()),
                )]),
            }
        }
        Source::S3(cfg) => ferro_state::s3::S3Store::connect(&cfg)
            .and_then(|store| store.get(workspace))
            .map_err(|e| failed(e.0)),
        Source::Http(cfg) => {
            if workspace != "default" {
                return Err(failed(
                    "workspaces not supported: the \"http\" backend has only the \"default\" workspace".into(),
                ));
            }
            ferro_state::http::HttpStore::new(&cfg)
                .and_then(|s| s.get())
                .map_err(|e| failed(e.0))
        }
    }
}

/// The outputs recorded in a state; `None` when there is no stored state.
fn stored_outputs(what: &str, bytes: Option<Vec<u8>>) -> Result<Option<ValueMap>, Diags> {
    let Some(bytes) = bytes else {
        return Ok(None);
    };
    // An empty state is no state at all.
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let state = ferro_state::read_state(&bytes).map_err(|e| {
        vec![Diagnostic::error(
            "Unsupported state file format",
            format!("{what}: {e}."),
        )]
    })?;
    let mut out = ValueMap::new();
    for (name, o) in state.outputs {
        let value = ferro_value::json::type_from_json(&o.ty)
            .and_then(|ty| ferro_value::json::value_from_json(&o.value, &ty))
            .map_err(|e| {
                vec![Diagnostic::error(
                    "Unsupported state file format",
                    format!("{what}: the output {name:?} does not match its recorded type: {e}."),
                )]
            })?;
        out.insert(name, value);
    }
    Ok(Some(out))
}

impl DataSource for RemoteState {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr(
                "backend",
                Attr::string()
                    .required()
                    .describe_markdown("The remote backend to use, e.g. `remote` or `http`."),
            )
            .attr(
                "config",
                Attr::new(Type::Dynamic).optional().describe_markdown(
                    "The configuration of the remote backend. Although this is optional, most backends require some configuration.\n\nThe object can use any arguments that would be valid in the equivalent `terraform { backend \"<TYPE>\" { ... } }` block.",
                ),
            )
            .attr(
                "defaults",
                Attr::new(Type::Dynamic).optional().describe_markdown(
                    "Default values for outputs, in case the state file is empty or lacks a required output.",
                ),
            )
            .attr(
                "outputs",
                Attr::new(Type::Dynamic)
                    .computed()
                    .describe_markdown("An object containing every root-level output in the remote state."),
            )
            .attr(
                "workspace",
                Attr::string()
                    .optional()
                    .describe_markdown("The Terraform workspace to use, if the backend supports workspaces."),
            )
    }

    /// Terraform checks the backend type, its configuration and the defaults at validation.
    fn validate(&self, config: &Value, diags: &mut Diags) {
        let backend = get(config, "backend");
        if backend.is_wholly_known() {
            diags.extend(check_backend(&backend).err().unwrap_or_default());
        }
        let cfg = get(config, "config");
        if cfg.is_wholly_known() && backend.is_wholly_known() {
            let backend = backend.as_str().unwrap_or_default();
            diags.extend(source(backend, &cfg).err().unwrap_or_default());
        }
        let defaults = get(config, "defaults");
        if defaults.is_known() {
            diags.extend(default_outputs(&defaults).err().unwrap_or_default());
        }
    }

    fn read(&self, config: &Value) -> Result<Value, Diags> {
        self.read_at(config, "")
    }

    fn read_at(&self, config: &Value, address: &str) -> Result<Value, Diags> {
        let backend = get(config, "backend");
        check_backend(&backend)?;
        let backend = backend.as_str().unwrap_or_default().to_string();
        let cfg = get(config, "config");
        let mut outputs = default_outputs(&get(config, "defaults"))?;
        let workspace = get(config, "workspace");
        let workspace = workspace.as_str().unwrap_or("default");
        let mut bytes = stored_state(&self.working_dir, &backend, &cfg, workspace)?;
        let what = format!("the state of workspace {workspace:?} in the {backend:?} backend");
        // Encrypted as `remote_state_data_sources` says: the target named for this data
        // source, or the `default` one.
        if let (Some(b), Some(enc)) = (
            bytes
                .as_ref()
                .filter(|b| !b.iter().all(u8::is_ascii_whitespace)),
            ferro_state::encryption::remote_state_encryption(&self.working_dir, address),
        ) {
            let plain = enc.decrypt_state(b).map_err(|e| {
                vec![Diagnostic::error(
                    "Error loading state",
                    format!("{what} could not be decrypted: {e}"),
                )]
            })?;
            bytes = Some(plain.0);
        }
        let Some(stored) = stored_outputs(&what, bytes)? else {
            return Err(error_at(
                "workspace",
                "Unable to find remote state",
                "No stored state was found for the given workspace in the given backend.",
            ));
        };
        outputs.extend(stored);
        Ok(with(config, "outputs", Value::object(outputs)))
    }
}

/// The local, s3 and http backends are available.
fn check_backend(backend: &Value) -> Result<(), Diags> {
    let backend = backend.as_str().unwrap_or_default();
    if matches!(backend, "local" | "s3" | "http") {
        return Ok(());
    }
    let detail = if OTHER_BACKENDS.contains(&backend) {
        format!("ferro reads remote state only through the \"local\", \"s3\" and \"http\" backends; the {backend:?} backend is not available.")
    } else {
        format!("There is no backend type named {backend:?}.")
    };
    Err(error_at("backend", "Invalid backend configuration", detail))
}

/// The outputs `defaults` gives (an object or map; null gives none).
fn default_outputs(defaults: &Value) -> Result<ValueMap, Diags> {
    if defaults.is_null() {
        return Ok(ValueMap::new());
    }
    match (defaults.ty(), defaults.as_entries()) {
        (Type::Object(_) | Type::Map(_), Some(entries)) => Ok(entries.clone()),
        _ => Err(error_at(
            "defaults",
            "Invalid default values",
            "Defaults must be given in an object value.",
        )),
    }
}
