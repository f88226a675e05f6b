//! The working directory as the CLI, the language server and the goldens see it (see the
//! package description). [`Project`] owns the analysis database and knows every configuration
//! file by path: it reads the root module, the modules `init` installed and every local module
//! directory the calls reach, and it takes the editor's changes (a file's new text, a file
//! added or removed) the same way, so that there is one way to turn a directory into modules.

pub mod manifest;
pub mod schemas;

use ferro_db::Setter;
use ferro_db::{Module, RootDb, SchemaTable, SourceFile, Workspace};
use ferro_diag::{Diagnostic, FileId};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Whether a file name is a configuration file (`*.tf`, `*.tf.json`, OpenTofu's `*.tofu` and
/// `*.tofu.json`; not hidden).
pub fn is_config_name(name: &str) -> bool {
    [".tf", ".tf.json", ".tofu", ".tofu.json"]
        .iter()
        .any(|ext| name.ends_with(ext))
        && !name.starts_with('.')
}

/// The OpenTofu file that hides a Terraform one in the same directory (`main.tofu` hides
/// `main.tf`, `x.tofu.json` hides `x.tf.json`), as OpenTofu 1.8 reads a module.
pub fn tofu_twin(name: &str) -> Option<String> {
    if let Some(stem) = name.strip_suffix(".tf.json") {
        return Some(format!("{stem}.tofu.json"));
    }
    name.strip_suffix(".tf").map(|stem| format!("{stem}.tofu"))
}

/// `names` without the Terraform files an OpenTofu file of the same base name hides.
pub fn without_hidden(names: Vec<String>) -> Vec<String> {
    let all: BTreeSet<String> = names.iter().cloned().collect();
    names
        .into_iter()
        .filter(|n| tofu_twin(n).is_none_or(|t| !all.contains(&t)))
        .collect()
}

/// Whether a path names a configuration file.
pub fn is_config(path: &Path) -> bool {
    is_config_name(path.file_name().and_then(|n| n.to_str()).unwrap_or(""))
}

/// How reading a directory treats a file it cannot read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// The command line: a configuration file that cannot be read, or is not a regular file,
    /// is an error, as in Terraform.
    Strict,
    /// The editor: such files are left out; the rest is analysed.
    Lenient,
}

/// The configuration of one working directory in one analysis database.
pub struct Project {
    /// The root module's directory (as given: relative paths stay relative).
    pub root: PathBuf,
    pub db: RootDb,
    pub ws: Workspace,
    /// Modules by directory name (`.` for the root, `modules/net`).
    modules: BTreeMap<String, Module>,
    /// Every module in the order it was added: the root first.
    order: Vec<Module>,
    files: HashMap<PathBuf, SourceFile>,
    by_id: HashMap<FileId, SourceFile>,
    /// Invalid character encodings found reading each file.
    pub encoding: BTreeMap<PathBuf, Vec<Diagnostic>>,
    reading: Reading,
}

impl Project {
    /// Read the configuration under `root` into `db`: the root module, the modules `init`
    /// installed, and every local module directory the calls reach.
    pub fn open(root: &Path, db: RootDb, reading: Reading) -> Result<Project, String> {
        let mut p = Project::empty(root, db, reading);
        let registry = ferro_provider::install::lock::default_registry(root);
        let registry = match (registry, reading) {
            (Ok(r), _) => r,
            (Err(e), Reading::Strict) => return Err(e),
            // The command line reports it; the editor keeps the public default.
            (Err(_), Reading::Lenient) => ferro_addrs::DEFAULT_REGISTRY,
        };
        ferro_db::set_default_registry(&mut p.db, registry);
        p.ws.set_base_dir(&mut p.db).to(root.to_path_buf());
        if reading == Reading::Strict {
            std::fs::read_dir(root)
                .map_err(|e| format!("cannot read the directory {}: {e}", root.display()))?;
        }
        p.load_dir(".")?;
        p.load_installed()?;
        p.discover()?;
        Ok(p)
    }

    /// [`Project::open`] with the root module's files (name, text) passed through `edit`
    /// before anything else is read (`ferro test` puts a test file's provider configurations
    /// in place of the module's own). Reads strictly.
    pub fn open_with(
        root: &Path,
        db: RootDb,
        edit: impl FnOnce(Vec<(String, String)>) -> Vec<(String, String)>,
    ) -> Result<Project, String> {
        let mut p = Project::empty(root, db, Reading::Strict);
        let registry = ferro_provider::install::lock::default_registry(root)?;
        ferro_db::set_default_registry(&mut p.db, registry);
        p.ws.set_base_dir(&mut p.db).to(root.to_path_buf());
        let read = read_config_files(root)?;
        let mut encoding: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        let mut files = Vec::new();
        for (name, text, ds) in read {
            encoding.insert(name.clone(), ds);
            files.push((name, text));
        }
        let module = p.module(".");
        let mut inputs = Vec::new();
        for (name, text) in edit(files) {
            let path = root.join(&name);
            let f = p.add_file(path.clone(), name.clone(), text);
            if let Some(ds) = encoding.remove(&name) {
                let id = f.id(&p.db);
                p.encoding.insert(path, retarget(ds, id));
            }
            inputs.push(f);
        }
        p.set_module_files(module, inputs);
        p.load_installed()?;
        p.discover()?;
        Ok(p)
    }

    /// Configuration files given by name (relative to the root module, `modules/a/main.tf`
    /// for a child's) and text, one module per directory; nothing is read from disk.
    pub fn from_files(files: Vec<(String, String)>) -> Project {
        let mut p = Project::empty(Path::new("."), RootDb::default(), Reading::Strict);
        let mut by_dir: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
        by_dir.insert(".".to_string(), Vec::new());
        for (name, text) in files {
            by_dir
                .entry(module_dir_of(&name))
                .or_default()
                .push((name, text));
        }
        for (dir, files) in by_dir {
            let module = p.module(&dir);
            let inputs = files
                .into_iter()
                .map(|(name, text)| p.add_file(p.root.join(&name), name, text))
                .collect();
            p.set_module_files(module, inputs);
        }
        p
    }

    fn empty(root: &Path, db: RootDb, reading: Reading) -> Project {
        let root_module = Module::new(&db, ".".into(), Vec::new());
        let ws = Workspace::new(
            &db,
            root_module,
            Vec::new(),
            BTreeMap::new(),
            BTreeMap::new(),
            Arc::new(SchemaTable::default()),
            ".".into(),
        );
        Project {
            root: root.to_path_buf(),
            db,
            ws,
            modules: [(".".to_string(), root_module)].into_iter().collect(),
            order: vec![root_module],
            files: HashMap::new(),
            by_id: HashMap::new(),
            encoding: BTreeMap::new(),
            reading,
        }
    }

    /// The name of a directory as a module: relative to the root, `/`-separated, `.` for the
    /// root itself; absolute for directories outside the root.
    pub fn module_name(&self, dir: &Path) -> String {
        match dir.strip_prefix(&self.root) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
            Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
            Err(_) => dir.to_string_lossy().into_owned(),
        }
    }

    /// The directory of a module name.
    pub fn dir_path(&self, name: &str) -> PathBuf {
        if name == "." {
            self.root.clone()
        } else {
            self.root.join(name)
        }
    }

    /// A file's name as messages print it (relative to the root).
    pub fn file_name(&self, path: &Path) -> String {
        match path.strip_prefix(&self.root) {
            Ok(rel) => rel.to_string_lossy().replace('\\', "/"),
            Err(_) => path.to_string_lossy().into_owned(),
        }
    }

    /// The path of a database file (joined to the root).
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

    /// Every file, by id.
    pub fn all_files(&self) -> Vec<SourceFile> {
        let mut v: Vec<SourceFile> = self.files.values().copied().collect();
        v.sort_by_key(|f| f.id(&self.db));
        v
    }

    /// Every file, module by module in the order they were added (the root first), each
    /// module's in name order: name and text.
    pub fn files_in_order(&self) -> Vec<(FileId, String, String)> {
        self.order
            .iter()
            .flat_map(|m| m.files(&self.db).iter())
            .map(|f| {
                (
                    f.id(&self.db),
                    f.path(&self.db).clone(),
                    f.text(&self.db).clone(),
                )
            })
            .collect()
    }

    /// The encoding diagnostics, in the order the files were added.
    pub fn encoding_diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for m in &self.order {
            for f in m.files(&self.db) {
                if let Some(ds) = self.encoding.get(&self.path_of(*f)) {
                    out.extend(ds.iter().cloned());
                }
            }
        }
        out
    }

    /// Whether a module of this name is loaded.
    pub fn has_module(&self, name: &str) -> bool {
        self.modules.contains_key(name)
    }

    /// The module of a directory, created (and added to the workspace) when new.
    fn module(&mut self, name: &str) -> Module {
        if let Some(m) = self.modules.get(name) {
            return *m;
        }
        let m = Module::new(&self.db, name.to_string(), Vec::new());
        self.modules.insert(name.to_string(), m);
        self.order.push(m);
        let mut children = self.ws.children(&self.db).clone();
        children.push(m);
        self.ws.set_children(&mut self.db).to(children);
        m
    }

    fn add_file(&mut self, path: PathBuf, name: String, text: String) -> SourceFile {
        let id = self.db.file_id(Path::new(&name));
        let f = SourceFile::new(&self.db, name, text, id);
        self.files.insert(path, f);
        self.by_id.insert(id, f);
        f
    }

    /// Read a module directory's configuration files (those not loaded yet). With
    /// [`Reading::Strict`], a file that cannot be read is an error.
    pub fn load_dir(&mut self, name: &str) -> Result<(), String> {
        let dir = self.dir_path(name);
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if self.reading == Reading::Strict && name == "." => {
                return Err(format!("cannot read the directory {}: {e}", dir.display()))
            }
            Err(_) => return Ok(()),
        };
        let names = config_names(entries);
        let module = self.module(name);
        let mut files = module.files(&self.db).clone();
        for n in names {
            let path = dir.join(&n);
            if self.files.contains_key(&path) {
                continue;
            }
            let bytes = match read_regular(&path, &n) {
                Ok(b) => b,
                Err(e) if self.reading == Reading::Strict => return Err(e),
                Err(_) => continue,
            };
            let file_name = self.file_name(&path);
            let id = self.db.file_id(Path::new(&file_name));
            let (text, diags) = ferro_syntax::decode_source(id, &bytes);
            self.encoding.insert(path.clone(), diags);
            files.push(self.add_file(path, file_name, text));
        }
        self.set_module_files(module, files);
        Ok(())
    }

    fn set_module_files(&mut self, module: Module, mut files: Vec<SourceFile>) {
        files.sort_by(|a, b| a.path(&self.db).cmp(b.path(&self.db)));
        // A `.tofu` file hides the `.tf` file of the same base name (the editor may add one).
        let names: BTreeSet<String> = files.iter().map(|f| f.path(&self.db).clone()).collect();
        files.retain(|f| tofu_twin(f.path(&self.db)).is_none_or(|t| !names.contains(&t)));
        ferro_db::link_overrides(&mut self.db, &files);
        if module.files(&self.db) != &files {
            module.set_files(&mut self.db).to(files);
        }
    }

    /// The modules `init` installed for non-local sources (`.terraform/modules/modules.json`).
    pub fn load_installed(&mut self) -> Result<(), String> {
        let installed = manifest::read_installed(&self.root);
        for (_, dir) in &installed {
            if !self.modules.contains_key(dir) && self.dir_path(dir).is_dir() {
                self.load_dir(dir)?;
            }
        }
        let installed: BTreeMap<String, String> = installed.into_iter().collect();
        if !installed.is_empty() && self.ws.installed(&self.db) != &installed {
            self.ws.set_installed(&mut self.db).to(installed);
        }
        Ok(())
    }

    /// Load the directories of local module calls not loaded yet (also after an edit that
    /// may have added a call or changed a source).
    pub fn discover(&mut self) -> Result<(), String> {
        let mut tried: BTreeSet<String> = self.modules.keys().cloned().collect();
        loop {
            let mut wanted = Vec::new();
            for m in self.ws.modules(&self.db) {
                let index = ferro_db::module_index(&self.db, m);
                for item in index.module_calls.values() {
                    let call = &ferro_db::item_tree(&self.db, item.file).module_calls[item.index];
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
            // Local sources evaluated early: resolved against their calling module's directory.
            if !self.ws.static_sources(&self.db).is_empty() {
                let tree = ferro_db::module_tree(&self.db, self.ws);
                for node in &tree.nodes {
                    let index = ferro_db::module_index(&self.db, node.module);
                    for (name, item) in &index.module_calls {
                        let call =
                            &ferro_db::item_tree(&self.db, item.file).module_calls[item.index];
                        if call.source.is_some() {
                            continue;
                        }
                        let mut key = node.path.clone();
                        key.push(name.clone());
                        let Some(st) = self.ws.static_sources(&self.db).get(&key.join(".")) else {
                            continue;
                        };
                        if !ferro_db::is_local_source(&st.source) {
                            continue;
                        }
                        let child =
                            ferro_db::resolve_local_source(node.module.dir(&self.db), &st.source);
                        if tried.insert(child.clone()) {
                            wanted.push(child);
                        }
                    }
                }
            }
            if wanted.is_empty() {
                return Ok(());
            }
            for d in wanted {
                if self.dir_path(&d).is_dir() {
                    self.load_dir(&d)?;
                }
            }
        }
    }

    /// The module calls' sources and versions evaluated early (see
    /// [`ferro_db::Workspace::static_sources`]); the local directories they name are loaded.
    pub fn set_static_sources(
        &mut self,
        sources: BTreeMap<String, ferro_db::StaticSource>,
    ) -> Result<(), String> {
        if self.ws.static_sources(&self.db) != &sources {
            self.ws.set_static_sources(&mut self.db).to(sources);
        }
        self.discover()
    }

    /// Put a file's text into the database (adding the file, and its module, when new).
    pub fn put(&mut self, path: &Path, text: String) -> SourceFile {
        if let Some(f) = self.files.get(path).copied() {
            if f.text(&self.db) != &text {
                f.set_text(&mut self.db).to(text);
            }
            return f;
        }
        let dir = path.parent().unwrap_or(Path::new("/"));
        let name = self.module_name(dir);
        let module = self.module(&name);
        let file_name = self.file_name(path);
        let f = self.add_file(path.to_path_buf(), file_name, text);
        let mut files = module.files(&self.db).clone();
        files.push(f);
        self.set_module_files(module, files);
        let _ = self.discover();
        f
    }

    /// Take a file out of its module.
    pub fn remove(&mut self, path: &Path) {
        let Some(f) = self.files.remove(path) else {
            return;
        };
        self.by_id.remove(&f.id(&self.db));
        self.encoding.remove(path);
        let dir = path.parent().unwrap_or(Path::new("/"));
        if let Some(&m) = self.modules.get(&self.module_name(dir)) {
            let mut files: Vec<SourceFile> = m
                .files(&self.db)
                .iter()
                .copied()
                .filter(|x| *x != f)
                .collect();
            // The `.tf` file a removed `.tofu` file hid is configuration again (read from
            // disk when it was never loaded).
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let hidden = [(".tofu.json", ".tf.json"), (".tofu", ".tf")]
                .iter()
                .find_map(|(tofu, tf)| Some(dir.join(format!("{}{tf}", name.strip_suffix(tofu)?))));
            let mut reload = false;
            if let Some(hidden) = hidden {
                match self.files.get(&hidden) {
                    Some(h) if !files.contains(h) => files.push(*h),
                    Some(_) => {}
                    None => reload = hidden.is_file(),
                }
            }
            self.set_module_files(m, files);
            if reload {
                let _ = self.load_dir(&self.module_name(dir));
            }
        }
    }
}

/// Diagnostics of a file read before it had an id, pointed at the file's id.
pub fn retarget(diags: Vec<Diagnostic>, id: FileId) -> Vec<Diagnostic> {
    diags
        .into_iter()
        .map(|mut d| {
            if let Some(s) = d.span.as_mut() {
                s.file = id;
            }
            for l in &mut d.labels {
                l.span.file = id;
            }
            d
        })
        .collect()
}

/// The names of the configuration files among a directory's entries, sorted.
fn config_names(entries: std::fs::ReadDir) -> Vec<String> {
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        // Symbolic links are configuration too, as Terraform reads them; anything else that
        // is not a directory is checked when read.
        .filter(|e| e.file_type().map(|t| !t.is_dir()).unwrap_or(false))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| is_config_name(n))
        .collect();
    names.sort();
    without_hidden(names)
}

/// The configuration files of `dir` (not its modules), in name order: name, text (invalid
/// UTF-8 replaced), and the diagnostics of invalid character encodings (pointing at
/// `FileId(u32::MAX)` until the file has an id).
#[allow(clippy::type_complexity)]
pub fn read_config_files(dir: &Path) -> Result<Vec<(String, String, Vec<Diagnostic>)>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read the directory {}: {e}", dir.display()))?;
    let mut out = Vec::new();
    for n in config_names(entries) {
        let bytes = read_regular(&dir.join(&n), &n)?;
        let (text, ds) = ferro_syntax::decode_source(FileId(u32::MAX), &bytes);
        out.push((n, text, ds));
    }
    Ok(out)
}

/// A configuration file's bytes; a dangling link or a link loop cannot be read, and a link to
/// a FIFO or a device would block or never end, so only regular files are read.
fn read_regular(path: &Path, name: &str) -> Result<Vec<u8>, String> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {}
        Ok(_) => return Err(format!("The file {name:?} is not a regular file.")),
        Err(e) => return Err(format!("The file {name:?} could not be read: {e}.")),
    }
    std::fs::read(path).map_err(|e| format!("cannot read {name}: {e}"))
}

/// The module directory of a configuration file named relative to the root module.
fn module_dir_of(name: &str) -> String {
    match name.rfind('/') {
        Some(i) => name[..i].to_string(),
        None => ".".to_string(),
    }
}
