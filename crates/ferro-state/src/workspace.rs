//! Workspaces of the local backend, laid out as Terraform lays them out: the `default`
//! workspace's state is `terraform.tfstate`, every other one's is
//! `terraform.tfstate.d/NAME/terraform.tfstate`; the selected workspace is named in
//! `.terraform/environment` and overridden by the `TF_WORKSPACE` environment variable.

use std::fs;
use std::path::{Path, PathBuf};

pub const DEFAULT_WORKSPACE: &str = "default";
const STATE_FILE: &str = "terraform.tfstate";
const WORKSPACES_DIR: &str = "terraform.tfstate.d";

/// The file naming the selected workspace.
pub fn environment_file(dir: &Path) -> PathBuf {
    dir.join(".terraform").join("environment")
}

/// The selected workspace of the working directory `dir`.
pub fn current_workspace(dir: &Path) -> String {
    if let Ok(w) = std::env::var("TF_WORKSPACE") {
        if !w.is_empty() {
            return w;
        }
    }
    match fs::read_to_string(environment_file(dir)) {
        Ok(s) if !s.trim().is_empty() => s.trim().to_string(),
        _ => DEFAULT_WORKSPACE.to_string(),
    }
}

/// Where the local backend keeps states, as its `path` and `workspace_dir` arguments say: the
/// default workspace's state file, and the directory holding one directory per other workspace
/// (each with a `terraform.tfstate`). Both relative to the working directory, or absolute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalLayout {
    pub path: String,
    pub workspace_dir: String,
}

impl Default for LocalLayout {
    fn default() -> Self {
        LocalLayout {
            path: STATE_FILE.to_string(),
            workspace_dir: WORKSPACES_DIR.to_string(),
        }
    }
}

impl LocalLayout {
    /// The state file of workspace `name`, relative to the working directory (unless the
    /// layout names absolute paths).
    pub fn state_rel(&self, name: &str) -> String {
        if name == DEFAULT_WORKSPACE {
            self.path.clone()
        } else {
            format!("{}/{name}/{STATE_FILE}", self.workspace_dir)
        }
    }

    /// The directory holding a non-default workspace's state.
    pub fn workspace_dir(&self, dir: &Path, name: &str) -> PathBuf {
        dir.join(&self.workspace_dir).join(name)
    }

    /// Every workspace: `default` first, then the others in name order.
    pub fn list(&self, dir: &Path) -> Vec<String> {
        list_in(&dir.join(&self.workspace_dir))
    }
}

/// The state file of workspace `name` in the default layout, relative to the working
/// directory.
pub fn workspace_state_rel(name: &str) -> String {
    LocalLayout::default().state_rel(name)
}

/// The directory holding a non-default workspace's state, in the default layout.
pub fn workspace_dir(dir: &Path, name: &str) -> PathBuf {
    LocalLayout::default().workspace_dir(dir, name)
}

/// Every workspace of the default layout: `default` first, then the others in name order.
pub fn list_workspaces(dir: &Path) -> Vec<String> {
    LocalLayout::default().list(dir)
}

fn list_in(workspaces: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(workspaces)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n != DEFAULT_WORKSPACE)
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names.insert(0, DEFAULT_WORKSPACE.to_string());
    names
}

/// Terraform's rule: a workspace name must survive URL path escaping unchanged.
pub fn valid_workspace_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| {
            c.is_ascii_alphanumeric()
                || matches!(
                    c,
                    '-' | '_' | '.' | '~' | '$' | '&' | '+' | ',' | ';' | '=' | ':' | '@'
                )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_paths() {
        assert!(valid_workspace_name("prod-1.x"));
        assert!(!valid_workspace_name("bad name"));
        assert!(!valid_workspace_name("a/b"));
        assert!(!valid_workspace_name(""));
        assert_eq!(workspace_state_rel("default"), "terraform.tfstate");
        assert_eq!(
            workspace_state_rel("dev"),
            "terraform.tfstate.d/dev/terraform.tfstate"
        );
    }
}
