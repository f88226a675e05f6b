//! The local backend: `terraform.tfstate`, `terraform.tfstate.backup`, atomic writes (to be implemented).
use crate::{State, StateError};
use std::path::PathBuf;

pub struct LocalBackend {
    pub path: PathBuf,
}

impl LocalBackend {
    pub fn new(path: PathBuf) -> Self {
        LocalBackend { path }
    }
    pub fn load(&self) -> Result<Option<State>, StateError> {
        unimplemented!()
    }
    pub fn persist(&mut self, _state: &mut State) -> Result<(), StateError> {
        unimplemented!()
    }
}

pub fn new_lineage() -> String {
    unimplemented!()
}
