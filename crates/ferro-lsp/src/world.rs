//! The server's one long-lived analysis database and what it holds: the module tree read from
//! the workspace root (local calls followed, modules `init` installed), open documents whose
//! text replaces the disk's, and the provider schemas. Edits set salsa inputs; nothing is
//! rebuilt.

use crate::schemas::SchemaCatalog;
use ferro_db::{Module, RootDb, Setter, SourceFile, Workspace};
use ferro_diag::{Diagnostic, FileId};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub struct World {
    pub db: RootDb,
    pub ws: Workspace,
    /// The workspace root (absolute); module directories are named relative to it.
    pub root: PathBuf,
    files: HashMap<PathBuf, SourceFile>,
    by_id: HashMap<FileId, SourceFile>,
    modules: BTreeMap<String, Module>,
    /// Open documents and their versions: their text comes from the editor.
    open: HashMap<PathBuf, i64>,
    /// Invalid character encodings found reading files from disk.
    encoding: HashMap<PathBuf, Vec<Diagnostic>>,
    pub catalog: SchemaCatalog,
}

/// Whether a file name is a configuration file ferro reads.
pub fn is_config(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    (name.ends_with(".tf") || name.ends_with(".tf.json")) && !name.starts_with('.')
}

impl World {
    /// A database over the configuration under `root` (read from disk now).
    pub fn new(root: PathBuf) -> Self {
        Self::with_database(root, RootDb::default())
    }

    /// As [`World::new`] on a given (empty) database, e.g. one that logs query executions.
    pub fn with_database(root: PathBuf, mut db: RootDb) -> Self {
        let catalog = SchemaCatalog::load(&root);
        // An invalid FERRO_DEFAULT_REGISTRY is the CLI's to report; the server keeps the
        // public default.
        let registry = ferro_provider::install::lock::default_registry(&root)
            .unwrap_or(ferro_addrs::DEFAULT_REGISTRY);
        ferro_db::set_default_registry(&mut db, registry);
        let root_module = Module::new(&db, ".".into(), Vec::new());
        let ws = Workspace::new(
            &db,
            root_module,
            Vec::new(),
            BTreeMap::new(),
            Arc::new(catalog.table()),
            root.clone(),
        );
        let mut w = World {
            db: std::mem::take(&mut db),
            ws,
            root,
            files: HashMap::new(),
            by_id: HashMap::new(),
            modules: [(".".to_string(), root_module)].into_iter().collect(),
            open: HashMap::new(),
            encoding: HashMap::new(),
            catalog,
        };
        w.load_dir(".");
        w.load_installed();
        w.discover();
        w
    }

    /// The name of a directory as a module: relative to the root, `/`-separated, `.` for the
    /// root itself; absolute for directories outside the root.
    fn module_name(&self, dir: &Path) -> String {
        match dir.strip_prefix(&self.root) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
            Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
            Err(_) => dir.to_string_lossy().into_owned(),
        }
    }

    fn dir_path(&self, name: &str) -> PathBuf {
        if name == "." {
            self.root.clone()
        } else {
            self.root.join(name)
        }
    }

    /// The file's name as `ferro validate` prints it (relative to the root).
    fn file_name(&self, path: &Path) -> String {
        match path.strip_prefix(&self.root) {
            Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
            Err(_) => path.to_string_lossy().into_owned(),
        }
    }

    /// The absolute path of a database file.
    pub fn path_of(&self, file: SourceFile) -> PathBuf {
        let p = Path::new(file.path(&self.db));
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root.join(p)
        }
    }

    pub fn file(&self, path: &Path) -> Option<SourceFile> {
        self.files.get(path).copied()
    }

    pub fn file_by_id(&self, id: FileId) -> Option<SourceFile> {
        self.by_id.get(&id).copied()
    }

    pub fn all_files(&self) -> Vec<SourceFile> {
        let mut v: Vec<SourceFile> = self.files.values().copied().collect();
        v.sort_by_key(|f| f.id(&self.db));
        v
    }

    pub fn is_open(&self, path: &Path) -> bool {
        self.open.contains_key(path)
    }

    /// The module of a directory, created (and added to the workspace) when new.
    fn module(&mut self, name: &str) -> Module {
        if let Some(m) = self.modules.get(name) {
            return *m;
        }
        let m = Module::new(&self.db, name.to_string(), Vec::new());
        self.modules.insert(name.to_string(), m);
        let mut children = self.ws.children(&self.db).clone();
        children.push(m);
        self.ws.set_children(&mut self.db).to(children);
        m
    }

    /// Read a module directory's configuration files from disk (those not already loaded).
    fn load_dir(&mut self, name: &str) {
        let dir = self.dir_path(name);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return;
        };
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| is_config(p) && p.is_file())
            .collect();
        paths.sort();
        let module = self.module(name);
        let mut files = module.files(&self.db).clone();
        for p in paths {
            if self.files.contains_key(&p) {
                continue;
            }
            let Ok(bytes) = std::fs::read(&p) else {
                continue;
            };
            let id = self.db.file_id(&p);
            let (text, diags) = ferro_syntax::decode_source(id, &bytes);
            self.encoding.insert(p.clone(), diags);
            let f = SourceFile::new(&self.db, self.file_name(&p), text, id);
            self.files.insert(p, f);
            self.by_id.insert(id, f);
            files.push(f);
        }
        self.set_module_files(module, files);
    }

    fn set_module_files(&mut self, module: Module, mut files: Vec<SourceFile>) {
        files.sort_by(|a, b| a.path(&self.db).cmp(b.path(&self.db)));
        ferro_db::link_overrides(&mut self.db, &files);
        if module.files(&self.db) != &files {
            module.set_files(&mut self.db).to(files);
        }
    }

    /// Modules `ferro init` installed for non-local sources (`.terraform/modules/modules.json`).
    fn load_installed(&mut self) {
        let path = self.root.join(".terraform/modules/modules.json");
        let Ok(text) = std::fs::read_to_string(path) else {
            return;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
            return;
        };
        let mut installed = BTreeMap::new();
        for m in v
            .get("Modules")
            .and_then(|m| m.as_array())
            .into_iter()
            .flatten()
        {
            let (Some(key), Some(source), Some(dir)) = (
                m.get("Key").and_then(|k| k.as_str()),
                m.get("Source").and_then(|k| k.as_str()),
                m.get("Dir").and_then(|k| k.as_str()),
            ) else {
                continue;
            };
            if key.is_empty() || ferro_db::is_local_source(source) {
                continue;
            }
            let dir = dir.trim_end_matches('/').to_string();
            self.load_dir(&dir);
            installed.insert(key.to_string(), dir);
        }
        if !installed.is_empty() {
            self.ws.set_installed(&mut self.db).to(installed);
        }
    }

    /// Load the directories of local module calls not loaded yet (after an edit may have added
    /// a call or changed a source).
    pub fn discover(&mut self) {
        let mut tried: BTreeSet<String> = self.modules.keys().cloned().collect();
        loop {
            let mut wanted = Vec::new();
            for m in self.ws.modules(&self.db) {
                let index = ferro_db::module_index(&self.db, m);
                for item in index.module_calls.values() {
                    let call = &ferro_db::file_hir(&self.db, item.file).module_calls[item.index];
                    let Some((source, _)) = &call.source else {
                        continue;
                    };
                    if !ferro_db::is_local_source(source) {
                        continue;
                    }
                    let child = ferro_db::resolve_local_source(m.dir(&self.db), source);
                    if tried.insert(child.clone()) {
                        wanted.push(child);
                    }
                }
            }
            if wanted.is_empty() {
                break;
            }
            for d in wanted {
                if self.dir_path(&d).is_dir() {
                    self.load_dir(&d);
                }
            }
        }
    }

    /// Put a file's text into the database (adding the file, and its module, when new).
    fn put(&mut self, path: &Path, text: String) -> SourceFile {
        if let Some(f) = self.files.get(path).copied() {
            if f.text(&self.db) != &text {
                f.set_text(&mut self.db).to(text);
            }
            return f;
        }
        let dir = path.parent().unwrap_or(Path::new("/"));
        let name = self.module_name(dir);
        let module = self.module(&name);
        let id = self.db.file_id(path);
        let f = SourceFile::new(&self.db, self.file_name(path), text, id);
        self.files.insert(path.to_path_buf(), f);
        self.by_id.insert(id, f);
        let mut files = module.files(&self.db).clone();
        files.push(f);
        self.set_module_files(module, files);
        self.discover();
        f
    }

    fn remove(&mut self, path: &Path) {
        let Some(f) = self.files.remove(path) else {
            return;
        };
        self.by_id.remove(&f.id(&self.db));
        self.encoding.remove(path);
        let dir = path.parent().unwrap_or(Path::new("/"));
        if let Some(&m) = self.modules.get(&self.module_name(dir)) {
            let files: Vec<SourceFile> = m
                .files(&self.db)
                .iter()
                .copied()
                .filter(|x| *x != f)
                .collect();
            self.set_module_files(m, files);
        }
    }

    /// The editor opened a document; only configuration files (`*.tf`, `*.tf.json`) are
    /// analysed (a `.tfvars` file is not configuration).
    pub fn open(&mut self, path: &Path, text: String, version: i64) -> Option<SourceFile> {
        if !is_config(path) {
            return None;
        }
        self.open.insert(path.to_path_buf(), version);
        self.encoding.remove(path);
        Some(self.put(path, text))
    }

    /// Replace an open document's text (after applying the editor's changes).
    pub fn set_text(&mut self, path: &Path, text: String, version: i64) -> Option<SourceFile> {
        let f = self.file(path)?;
        self.open.insert(path.to_path_buf(), version);
        let module_calls_before = ferro_db::item_tree(&self.db, f).module_calls.len();
        if f.text(&self.db) != &text {
            f.set_text(&mut self.db).to(text);
        }
        // Only a change in module calls can reach a directory not loaded yet.
        let hir = ferro_db::file_hir(&self.db, f);
        if hir.module_calls.len() != module_calls_before || !hir.module_calls.is_empty() {
            self.discover();
        }
        Some(f)
    }

    /// The editor closed a document: the file on disk is the truth again (if there is one).
    pub fn close(&mut self, path: &Path) {
        self.open.remove(path);
        self.reload_from_disk(path);
    }

    /// A file changed on disk (created, changed or deleted); open documents keep the editor's text.
    pub fn disk_changed(&mut self, path: &Path) {
        // A file a function such as `file()` read during validation: only what read it runs
        // again.
        self.db.disk_changed(path);
        if self.open.contains_key(path) {
            return;
        }
        if path.is_dir() {
            let name = self.module_name(path);
            if self.modules.contains_key(&name) {
                self.load_dir(&name);
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
                let known = self.files.contains_key(path)
                    || self.modules.contains_key(&self.module_name(dir));
                if !known {
                    return;
                }
                let id = self.db.file_id(path);
                let (text, diags) = ferro_syntax::decode_source(id, &bytes);
                let f = self.put(path, text);
                let id = f.id(&self.db);
                let diags = diags
                    .into_iter()
                    .map(|mut d| {
                        if let Some(s) = d.span.as_mut() {
                            s.file = id;
                        }
                        d
                    })
                    .collect();
                self.encoding.insert(path.to_path_buf(), diags);
            }
            _ => self.remove(path),
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
        let mut paths: Vec<&PathBuf> = self.encoding.keys().collect();
        paths.sort();
        for p in paths {
            out.extend(self.encoding[p].iter().cloned());
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
        self.ws
            .set_schemas(&mut self.db)
            .to(Arc::new(self.catalog.table()));
    }

    /// The module a file belongs to.
    pub fn module_of(&self, file: SourceFile) -> Option<Module> {
        ferro_db::file_modules(&self.db, self.ws)
            .get(&file)
            .copied()
    }
}
