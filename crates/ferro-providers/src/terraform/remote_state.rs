//! `terraform_remote_state`: the root module outputs of another configuration's state, read
//! through the `local` backend (`config = { path, workspace_dir }`, `workspace`), with
//! `defaults` for outputs the state lacks. Texts follow Terraform 1.0.3; other backend types are
//! refused (ferro has only the local backend).

use ferro_sdk::values::{get, with};
use ferro_sdk::{Attr, DataSource, Diagnostic, Diags, PathStep, ResourceSchema, Type, Value};
use ferro_value::convert::convert;
use ferro_value::ValueMap;
use std::path::{Path, PathBuf};

/// Backend types Terraform 1.0.3 knows but ferro cannot read remote state from.
const OTHER_BACKENDS: [&str; 15] = [
    "remote",
    "artifactory",
    "azurerm",
    "consul",
    "cos",
    "etcd",
    "etcdv3",
    "gcs",
    "http",
    "kubernetes",
    "manta",
    "oss",
    "pg",
    "s3",
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

/// The outputs recorded in the state file at `path`; `None` when there is no stored state.
fn stored_outputs(path: &Path) -> Result<Option<ValueMap>, Diags> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(vec![Diagnostic::error(
                "Error loading state",
                format!("Failed to read the state file {}: {e}.", path.display()),
            )])
        }
    };
    // The local backend treats an empty file as no state at all.
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let state = ferro_state::read_state(&bytes).map_err(|e| {
        vec![Diagnostic::error(
            "Unsupported state file format",
            format!("{}: {e}.", path.display()),
        )]
    })?;
    let mut out = ValueMap::new();
    for (name, o) in state.outputs {
        let value = ferro_value::json::type_from_json(&o.ty)
            .and_then(|ty| ferro_value::json::value_from_json(&o.value, &ty))
            .map_err(|e| {
                vec![Diagnostic::error(
                    "Unsupported state file format",
                    format!(
                        "{}: the output {name:?} does not match its recorded type: {e}.",
                        path.display()
                    ),
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
        if cfg.is_wholly_known() {
            diags.extend(local_config(&cfg).err().unwrap_or_default());
        }
        let defaults = get(config, "defaults");
        if defaults.is_known() {
            diags.extend(default_outputs(&defaults).err().unwrap_or_default());
        }
    }

    fn read(&self, config: &Value) -> Result<Value, Diags> {
        check_backend(&get(config, "backend"))?;
        let (path, workspace_dir) = local_config(&get(config, "config"))?;
        let mut outputs = default_outputs(&get(config, "defaults"))?;
        let workspace = get(config, "workspace");
        let workspace = workspace.as_str().unwrap_or("default");
        let file = if workspace == "default" {
            PathBuf::from(path.unwrap_or_else(|| "terraform.tfstate".into()))
        } else {
            Path::new(&workspace_dir.unwrap_or_else(|| "terraform.tfstate.d".into()))
                .join(workspace)
                .join("terraform.tfstate")
        };
        let Some(stored) = stored_outputs(&self.working_dir.join(file))? else {
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

/// Only the local backend is available.
fn check_backend(backend: &Value) -> Result<(), Diags> {
    let backend = backend.as_str().unwrap_or_default();
    if backend == "local" {
        return Ok(());
    }
    let detail = if OTHER_BACKENDS.contains(&backend) {
        format!("ferro reads remote state only through the \"local\" backend; the {backend:?} backend is not available.")
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
