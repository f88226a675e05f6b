//! The server's one long-lived analysis database and what it holds: the module tree read from
//! the workspace root (local calls followed, modules `init` installed), open documents whose
//! text replaces the disk's, and the provider schemas. Edits set salsa inputs; nothing is
//! rebuilt.

use crate::schemas::SchemaCatalog;
use ferro_db::{Module, RootDb, Setter, SourceFile};
use ferro_diag::Diagnostic;
use ferro_workspace::{Project, Reading};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use ferro_workspace::is_config;

/// The editor's view of the working directory: the [`Project`] every front end reads the
/// configuration with (its database, workspace and files are reached through it), the open
/// documents, and the provider schemas.
pub struct World {
    project: Project,
    /// Open documents and their versions: their text comes from the editor.
    open: HashMap<PathBuf, i64>,
    pub catalog: SchemaCatalog,
}

impl std::ops::Deref for World {
    type Target = Project;
    fn deref(&self) -> &Project {
        &self.project
    }
}

impl std::ops::DerefMut for World {
    fn deref_mut(&mut self) -> &mut Project {
        &mut self.project
    }
}

impl World {
    /// A database over the configuration under `root` (read from disk now).
    pub fn new(root: PathBuf) -> Self {
        Self::with_database(root, RootDb::default())
    }

    /// As [`World::new`] on a given (empty) database, e.g. one that logs query executions.
    pub fn with_database(root: PathBuf, db: RootDb) -> Self {
        let catalog = SchemaCatalog::load(&root);
        // Reading leniently never fails: unreadable files are left out.
        let mut project = Project::open(&root, db, Reading::Lenient)
            .unwrap_or_else(|_| Project::from_files(Vec::new()));
        project
            .ws
            .set_schemas(&mut project.db)
            .to(Arc::new(catalog.table()));
        World {
            project,
            open: HashMap::new(),
            catalog,
        }
    }

    pub fn is_open(&self, path: &Path) -> bool {
        self.open.contains_key(path)
    }

    /// Load the directories of local module calls not loaded yet (after an edit may have added
    /// a call or changed a source).
    pub fn discover(&mut self) {
        let _ = self.project.discover();
    }

    /// The editor opened a document; only configuration files (`*.tf`, `*.tf.json`,
    /// OpenTofu's `*.tofu`, `*.tofu.json`) are analysed (a `.tfvars` file is not
    /// configuration).
    pub fn open(&mut self, path: &Path, text: String, version: i64) -> Option<SourceFile> {
        if !is_config(path) {
            return None;
        }
        self.open.insert(path.to_path_buf(), version);
        self.project.encoding.remove(path);
        let f = self.project.put(path, text);
        if !f.edited(&self.db) {
            f.set_edited(&mut self.project.db).to(true);
        }
        Some(f)
    }

    /// Replace an open document's text (after applying the editor's changes).
    pub fn set_text(&mut self, path: &Path, text: String, version: i64) -> Option<SourceFile> {
        let f = self.file(path)?;
        self.open.insert(path.to_path_buf(), version);
        let module_calls_before = ferro_db::item_tree(&self.db, f).module_calls.len();
        if f.text(&self.db) != &text {
            f.set_text(&mut self.project.db).to(text);
        }
        // Only a change in module calls can reach a directory not loaded yet.
        let calls = ferro_db::item_tree(&self.db, f).module_calls.len();
        if calls != module_calls_before || calls != 0 {
            self.discover();
        }
        Some(f)
    }

    /// The editor closed a document: the file on disk is the truth again (if there is one).
    pub fn close(&mut self, path: &Path) {
        self.open.remove(path);
        if let Some(f) = self.file(path) {
            f.set_edited(&mut self.project.db).to(false);
        }
        self.reload_from_disk(path);
    }

    /// A file changed on disk (created, changed or deleted); open documents keep the editor's text.
    pub fn disk_changed(&mut self, path: &Path) {
        // A file a function such as `file()` read during validation: only what read it runs
        // again.
        self.project.db.disk_changed(path);
        if self.open.contains_key(path) {
            return;
        }
        if path.is_dir() {
            let name = self.module_name(path);
            if self.has_module(&name) {
                let _ = self.project.load_dir(&name);
            }
            return;
        }
        self.reload_from_disk(path);
    }

    fn reload_from_disk(&mut self, path: &Path) {
        if !is_config(path) {
            return;
        }
        match std::fs::read(path) {
            Ok(bytes) if path.is_file() => {
                let dir = path.parent().unwrap_or(Path::new("/"));
                let known = self.file(path).is_some() || self.has_module(&self.module_name(dir));
                if !known {
                    return;
                }
                let (text, diags) =
                    ferro_syntax::decode_source(ferro_diag::FileId(u32::MAX), &bytes);
                let f = self.project.put(path, text);
                let diags = ferro_workspace::retarget(diags, f.id(&self.db));
                self.project.encoding.insert(path.to_path_buf(), diags);
            }
            _ => self.project.remove(path),
        }
    }

    /// Every static diagnostic, as `ferro validate` computes them, for every loaded module
    /// (modules no call reaches, such as a file opened on its own, are checked too).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.diagnostics_with(true)
    }

    /// As [`World::diagnostics`]; without `cycles`, the dependency-cycle check (a walk of the
    /// whole item graph, which `validate` does only when nothing else failed) is left out.
    pub fn diagnostics_with(&self, cycles: bool) -> Vec<Diagnostic> {
        let db = &self.db;
        let mut out: Vec<Diagnostic> = ferro_db::required_version_diagnostics(db, self.ws).clone();
        if !out.is_empty() {
            return out;
        }
        for ds in self.encoding.values() {
            out.extend(ds.iter().cloned());
        }
        out.extend(ferro_db::diagnostics(db, self.ws).iter().cloned());
        let tree = ferro_db::module_tree(db, self.ws);
        let reached: std::collections::HashSet<Module> =
            tree.nodes.iter().map(|n| n.module).collect();
        for m in self.ws.modules(db) {
            if reached.contains(&m) {
                continue;
            }
            for f in m.files(db) {
                out.extend(ferro_db::parse(db, *f).diagnostics.iter().cloned());
                out.extend(ferro_db::source_map(db, *f).diagnostics.iter().cloned());
            }
            out.extend(ferro_db::module_index_diagnostics(db, m).iter().cloned());
            for f in m.files(db) {
                out.extend(
                    ferro_db::file_diagnostics(db, self.ws, m, *f)
                        .iter()
                        .cloned(),
                );
            }
        }
        if cycles && !out.iter().any(Diagnostic::is_error) {
            if let Some(d) = ferro_db::item_graph_cycle(db, self.ws) {
                out.push(d.clone());
            }
        }
        out
    }

    /// `ferro init` wrote new schemas: read the cache again.
    pub fn reload_schemas(&mut self) {
        self.catalog = SchemaCatalog::load(&self.root);
        let table = Arc::new(self.catalog.table());
        let ws = self.project.ws;
        ws.set_schemas(&mut self.project.db).to(table);
    }

    /// The module a file belongs to.
    pub fn module_of(&self, file: SourceFile) -> Option<Module> {
        ferro_db::file_modules(&self.db, self.ws)
            .get(&file)
            .copied()
    }
}
