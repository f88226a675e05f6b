//! The analysis database shared by every front end (CLI, language server, golden tests).
//!
//! Inputs: one [`SourceFile`] per configuration file, a [`Module`] per directory, a
//! [`Workspace`] listing them with the resource schemas known from providers, and a
//! [`DiskFile`] per file a function read from disk. Queries: [`parse`], [`file_hir`] (lowering)
//! split into [`item_tree`] (no positions) and [`source_map`]; on item trees only,
//! [`module_index`], [`module_tree`], [`item_graph`] and [`resolve_file`]; with ranges,
//! [`resource_bodies`] (JSON resource bodies read against their schemas), [`file_diagnostics`],
//! [`diagnostics`]; for editors [`file_sites`], [`file_modules`] and [`references_index`]
//! (`navigate.rs`). Each query returns its own diagnostics as data.
//!
//! **Architecture invariant:** editing one file re-parses and re-lowers only that file; an edit
//! that only moves text leaves its item tree equal, so no semantic query runs again (see the
//! incrementality tests).

mod block_counts;
mod imports;
mod index;
mod item_refs;
mod items;
mod json_body;
mod navigate;
mod overrides;
mod pending;
mod provider_checks;
mod provider_resolve;
mod resolve;
mod tree;
mod validate;
mod versions;

pub use block_counts::{
    check_labels, count_diagnostics, count_problems, missing_item_range, Counted,
};
pub use imports::import_target_problems;
pub use index::{
    declared, local_provider, module_index, module_index_diagnostics, Declared, Expansion, ItemRef,
    ModuleIndex, Name,
};
pub use item_refs::{item_references, ItemReferences, RefTarget, Referrer};
pub use items::{item_graph, item_graph_cycle, Item, ItemGraph, ItemId};
pub use json_body::{read_json_body, resource_bodies, resource_body, ResourceBodies};
pub use navigate::{
    called_module, declaration, file_modules, file_sites, references_index, resolve, site_at,
    ModuleSymbol, ReferencesIndex, Site, SiteTarget, Symbol,
};
pub use overrides::{is_json_path, is_override_path};
pub use pending::{resolve_at, At, Loc, Pending, Place};
pub use provider_checks::provider_config_problems;
pub use provider_resolve::{
    alias_expected, block_config, provider_block_of, provider_source, provider_source_in,
    provider_source_or_default, resolve_provider, ResolveError,
};
pub use resolve::{declaration_loc, resolve_file, Resolution, Resolutions, SiteKey};
/// Re-exported so front ends can change inputs without depending on salsa directly.
pub use salsa::Setter;
pub use tree::{
    is_local_source, module_input_diagnostics, module_tree, module_tree_diagnostics,
    resolve_local_source, ModuleTree, StaticSource, TreeNode, TreeNodeId,
};
pub use validate::{
    file_diagnostics, static_value, suggest, undeclared_local, undeclared_variable, validate_file,
    Finding,
};
pub use versions::{
    required_version_diagnostics, NEWEST_LANGUAGE_VERSION, NEWEST_OPENTOFU_VERSION,
    OLDEST_LANGUAGE_VERSION, OLDEST_OPENTOFU_VERSION,
};

use ferro_diag::{Diagnostic, FileId, SourceLookup};
use ferro_hir::{FileHir, ItemTree, SourceMap};
use ferro_syntax::Parsed;
use ferro_value::schema::Schema;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// One configuration file.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: String,
    #[returns(ref)]
    pub text: String,
    #[returns(copy)]
    pub id: FileId,
    /// Every file of the file's module, set (by [`link_overrides`]) only when the module has
    /// override files: what a file's lowering merges with.
    #[default]
    #[returns(ref)]
    pub module_files: Vec<SourceFile>,
    /// Open in an editor, whose edits change it keystroke by keystroke: validated item by item
    /// (see [`validate_file`]), so that an edit re-validates only what it touched. Other files
    /// change seldom and are validated in one pass, without a query and a copy per item.
    #[default]
    #[returns(copy)]
    pub edited: bool,
}

/// Tell the files of one module about each other when any of them is an override file
/// (`override.tf`, `*_override.tf`), so that lowering merges the overrides; otherwise leave
/// them unlinked. Call whenever a module's list of files is set.
pub fn link_overrides(db: &mut RootDb, files: &[SourceFile]) {
    let any = files.iter().any(|f| is_override_path(f.path(db)));
    let linked: Vec<SourceFile> = if any { files.to_vec() } else { Vec::new() };
    for f in files {
        if f.module_files(db) != &linked {
            f.set_module_files(db).to(linked.clone());
        }
    }
}

/// Resource schemas by (mode, type): `("managed", "terraform_data")`, and the configuration
/// schemas of the providers, by source address.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct SchemaTable {
    pub resources: BTreeMap<(ferro_addrs::ResourceMode, String), Schema>,
    pub providers: BTreeMap<ferro_addrs::Provider, Schema>,
    /// The functions of the providers whose functions the configuration calls, by source
    /// address (validation checks `provider::LOCAL::NAME` calls against them).
    pub functions:
        BTreeMap<ferro_addrs::Provider, BTreeMap<String, ferro_value::schema::FunctionDecl>>,
    /// What calls those functions while validating, when arguments are known (the CLI's
    /// providers, as Terraform calls them during validate). Without one (the language server)
    /// a call's result is an unknown value. A provider function gives the same result for the
    /// same arguments (Terraform fails an apply where it does not), so calling it from a query
    /// keeps the query's answer a function of its inputs.
    pub caller: Option<FunctionCaller>,
    /// The identity schemas (Terraform 1.12's resource identity) of the managed resource types
    /// that have one, by type: what an import block's `identity` is checked against.
    pub identities: BTreeMap<String, IdentitySchema>,
    /// The managed resource types known to have no identity schema: their provider's identity
    /// schemas are known (asked of the provider, or recorded in a schema cache that says it
    /// records them) and it declares none for the type. An import block's `identity` for one
    /// is refused; for a type in neither map nothing is known, and nothing is checked.
    pub no_identity: std::collections::BTreeSet<String>,
}

/// Calls a provider-defined function of the provider `provider` (see [`SchemaTable::caller`]).
pub trait CallFunction: Send + Sync {
    fn call_function(
        &self,
        provider: &ferro_addrs::Provider,
        name: &str,
        args: &[ferro_value::Value],
    ) -> Result<ferro_value::Value, ferro_eval::ProviderCallError>;
}

/// A shared [`CallFunction`], compared (as an input of the database) by identity.
#[derive(Clone)]
pub struct FunctionCaller(pub std::sync::Arc<dyn CallFunction>);

impl PartialEq for FunctionCaller {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for FunctionCaller {}

impl std::hash::Hash for FunctionCaller {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (std::sync::Arc::as_ptr(&self.0) as *const () as usize).hash(state);
    }
}

impl std::fmt::Debug for FunctionCaller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FunctionCaller")
    }
}

/// A managed resource type's identity schema as an import block reads it (and as the
/// language server's schema cache records it).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct IdentitySchema {
    pub attributes: BTreeMap<String, IdentityAttribute>,
}

/// One attribute of an [`IdentitySchema`].
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct IdentityAttribute {
    #[serde(rename = "type")]
    pub ty: ferro_value::Type,
    /// An import block's `identity` must set it (the others it may).
    #[serde(default)]
    pub required_for_import: bool,
    #[serde(default)]
    pub description: String,
}

impl IdentitySchema {
    /// The type of an import block's `identity`: an object of the schema's attributes, those
    /// not required for import optional.
    pub fn import_type(&self) -> ferro_value::Type {
        let mut want = ferro_value::ObjectType::new(
            self.attributes
                .iter()
                .map(|(k, a)| (k.clone(), a.ty.clone()))
                .collect(),
        );
        want.optional = self
            .attributes
            .iter()
            .filter(|(_, a)| !a.required_for_import)
            .map(|(k, _)| k.clone())
            .collect();
        ferro_value::Type::Object(std::sync::Arc::new(want))
    }
}

/// The configuration files of one module directory. `dir` is relative to the root module
/// (`.` for the root, `modules/net` for a child) with `/` separators.
#[salsa::input(debug)]
pub struct Module {
    #[returns(ref)]
    pub dir: String,
    #[returns(ref)]
    pub files: Vec<SourceFile>,
}

/// Every module directory the configuration uses and what the analysis knows of providers.
#[salsa::input(debug)]
pub struct Workspace {
    #[returns(copy)]
    pub root: Module,
    /// The other module directories loaded (each once, however many calls use it).
    #[returns(ref)]
    pub children: Vec<Module>,
    /// Module directories installed by `init` for non-local sources, by module key (`a.b`).
    #[returns(ref)]
    pub installed: BTreeMap<String, String>,
    /// The `source` and `version` of module calls that are not literal strings, evaluated early
    /// by the front end from the command's variables (OpenTofu 1.8), by module key (`a.b`). A
    /// call missing here is left out of the tree without a word: the front end that could not
    /// evaluate it has said why.
    #[returns(ref)]
    pub static_sources: BTreeMap<String, StaticSource>,
    #[returns(ref)]
    pub schemas: Arc<SchemaTable>,
    /// The directory relative paths of functions like `file` resolve against during static
    /// validation (the root module's directory; `.` unless the caller sets it).
    #[returns(ref)]
    pub base_dir: std::path::PathBuf,
}

impl Workspace {
    /// The root module's files.
    pub fn files(self, db: &dyn Db) -> &Vec<SourceFile> {
        self.root(db).files(db)
    }

    /// Every loaded module: the root first.
    pub fn modules(self, db: &dyn Db) -> Vec<Module> {
        let mut out = vec![self.root(db)];
        out.extend(self.children(db).iter().copied());
        out
    }

    /// A workspace of just a root module (no calls to resolve), for tests and tools.
    pub fn single(db: &dyn Db, files: Vec<SourceFile>, schemas: Arc<SchemaTable>) -> Workspace {
        let root = Module::new(db, ".".to_string(), files);
        Workspace::new(
            db,
            root,
            Vec::new(),
            BTreeMap::new(),
            BTreeMap::new(),
            schemas,
            ".".into(),
        )
    }
}

/// Settings of the working directory that every module's meaning depends on; one per
/// database, set by the front end before it asks anything ([`set_default_registry`]).
#[salsa::input(singleton, debug)]
pub struct Settings {
    /// The registry a provider `source` without a hostname names: Terraform's public
    /// registry, or OpenTofu's for a working directory written for OpenTofu.
    #[returns(ref)]
    pub default_registry: String,
}

/// The registry a provider `source` without a hostname names in this database
/// (`registry.terraform.io` unless the front end set another).
pub fn default_registry(db: &dyn Db) -> &str {
    match Settings::try_get(db) {
        Some(s) => s.default_registry(db).as_str(),
        None => ferro_addrs::DEFAULT_REGISTRY,
    }
}

/// Set the registry a provider `source` without a hostname names (see [`default_registry`]).
pub fn set_default_registry(db: &mut RootDb, host: &str) {
    match Settings::try_get(db) {
        Some(s) => {
            if s.default_registry(db) != host {
                s.set_default_registry(db).to(host.to_string());
            }
        }
        None => {
            Settings::new(db, host.to_string());
        }
    }
}

/// The files on disk that functions (`file`, `templatefile`, `fileexists`, …) read during
/// static validation: how many times the front end said each changed ([`RootDb::disk_changed`]).
/// Reads stay reads of the disk; a query that reads a file depends on its count through
/// [`disk_version`]. One input for the database, created with it.
#[salsa::input(singleton, debug)]
pub struct Disk {
    #[returns(ref)]
    pub changes: Arc<BTreeMap<std::path::PathBuf, u64>>,
}

/// A path a function read, as a query key.
#[salsa::interned(debug)]
pub struct DiskPath {
    #[returns(ref)]
    pub path: std::path::PathBuf,
}

/// How many times the file at `path` changed: what a query that read it depends on. It runs
/// again whenever any file changes but gives an equal answer for the others, so only the
/// queries that read the changed file run again.
#[salsa::tracked]
pub fn disk_version<'db>(db: &'db dyn Db, path: DiskPath<'db>) -> u64 {
    Disk::try_get(db)
        .and_then(|d| d.changes(db).get(path.path(db)).copied())
        .unwrap_or(0)
}

/// Record that the running query read the file at `path` (through a file function).
pub fn read_disk(db: &dyn Db, path: &std::path::Path) {
    disk_version(db, DiskPath::new(db, path.to_path_buf()));
}

#[salsa::db]
pub trait Db: salsa::Database {}

/// One identity per configuration file path, for the life of a database: a path interned once
/// keeps its [`FileId`] (removed and added again included), and ids are never reused, so adding
/// a file never renumbers the others. The CLI and the language server both take ids from here.
#[derive(Debug, Default)]
pub struct FileRegistry {
    ids: HashMap<std::path::PathBuf, FileId>,
    paths: Vec<std::path::PathBuf>,
}

impl FileRegistry {
    /// The id of `path`, assigned (the next unused one) on first use.
    pub fn intern(&mut self, path: &std::path::Path) -> FileId {
        if let Some(id) = self.ids.get(path) {
            return *id;
        }
        let id = FileId(self.paths.len() as u32);
        self.paths.push(path.to_path_buf());
        self.ids.insert(path.to_path_buf(), id);
        id
    }

    /// A new id for a text that is not a file of its own (a `-var` value, an environment
    /// variable's): never shared, whatever its name.
    pub fn fresh(&mut self, name: &std::path::Path) -> FileId {
        let id = FileId(self.paths.len() as u32);
        self.paths.push(name.to_path_buf());
        id
    }

    /// The id of a path interned before.
    pub fn get(&self, path: &std::path::Path) -> Option<FileId> {
        self.ids.get(path).copied()
    }

    /// The path an id was given to.
    pub fn path(&self, id: FileId) -> Option<&std::path::Path> {
        self.paths.get(id.0 as usize).map(|p| p.as_path())
    }
}

/// Parse one file: the JSON syntax for `*.tf.json` (and `*.tofu.json`), the native syntax
/// otherwise.
#[salsa::tracked(returns(ref))]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parsed {
    if is_json(db, file) {
        ferro_syntax::parse_json_file(file.id(db), file.text(db))
    } else {
        let mut parsed = ferro_syntax::parse_file(file.id(db), file.text(db));
        for d in &mut parsed.diagnostics {
            ferro_diag::name_ranges(d, file.path(db), file.text(db));
        }
        parsed
    }
}

/// Lower one file to HIR: its item tree and its source map, as one lowering produces them.
/// Front ends that need both read this; analysis queries read [`item_tree`] (and, where they
/// report ranges, [`source_map`]) so that they depend on exactly what they use.
#[salsa::tracked(returns(ref))]
pub fn file_hir(db: &dyn Db, file: SourceFile) -> FileHir {
    if let Some((body, diags)) = overrides::merged_body(db, file) {
        let mut hir = ferro_hir::lower_file(file.id(db), &body);
        if !diags.is_empty() {
            Arc::make_mut(&mut hir.map).diagnostics.extend(diags);
        }
        return hir;
    }
    ferro_hir::lower_file(file.id(db), &parse(db, file).body)
}

/// The file's position-free item tree. An edit that only moves text lowers to an equal tree,
/// so salsa keeps this query's old value (backdates it) and nothing that reads only item trees
/// (`module_index`, `module_tree`, `item_graph`, `resolve`) runs again.
#[salsa::tracked(returns(ref))]
pub fn item_tree(db: &dyn Db, file: SourceFile) -> Arc<ItemTree> {
    file_hir(db, file).tree.clone()
}

/// The file's declarations without their expressions ([`ItemTree::signature`]). The queries
/// about the module's structure (its index, the module tree, provider configurations) read
/// this, so an edit that changes only values (the most common edit) runs none of them again.
#[salsa::tracked(returns(ref))]
pub fn item_signature(db: &dyn Db, file: SourceFile) -> Arc<ferro_hir::Signature> {
    Arc::new(item_tree(db, file).signature())
}

/// The file's source map: the ranges of its item tree's ids and expressions, and the
/// diagnostics of lowering.
#[salsa::tracked(returns(ref))]
pub fn source_map(db: &dyn Db, file: SourceFile) -> Arc<SourceMap> {
    file_hir(db, file).map.clone()
}

/// Whether a configuration file is in the JSON syntax (by its name, as Terraform decides).
fn is_json(db: &dyn Db, file: SourceFile) -> bool {
    is_json_path(file.path(db))
}

/// Lowering knows files by id only; the "already set at main.tf:2,3-11" of a redefined
/// argument is written here, where the file's name is known.
fn with_ranges(db: &dyn Db, file: SourceFile, d: &Diagnostic) -> Diagnostic {
    let mut d = d.clone();
    if let (true, Some(first)) = (d.code == "attribute-redefined", d.labels.first()) {
        let at = ferro_diag::hcl_range(file.path(db), file.text(db), first.span);
        d.detail = d.detail.replacen(
            " was already set.",
            &format!(" was already set at {at}."),
            1,
        );
    }
    if let (true, Some(first)) = (d.code == "duplicate-connection-block", d.labels.first()) {
        let at = ferro_diag::hcl_range(file.path(db), file.text(db), first.span);
        d.detail = d.detail.replacen(
            " a connection block.",
            &format!(" a connection block at {at}."),
            1,
        );
    }
    d
}

/// Every diagnostic of the workspace: syntax, lowering, module-wide and validation of every
/// module the tree reaches, and the module tree's own, in file order.
#[salsa::tracked(returns(ref))]
pub fn diagnostics(db: &dyn Db, ws: Workspace) -> Vec<Diagnostic> {
    let mut out = load_diagnostics(db, ws).clone();
    out.extend(module_input_diagnostics(db, ws).iter().cloned());
    out.extend(import_target_problems(db, ws).iter().map(|p| p.resolve(db)));
    for_each_module(db, ws, |m| {
        for f in m.files(db) {
            out.extend(file_diagnostics(db, ws, m, *f).iter().cloned());
        }
    });
    out.sort_by_key(|d| d.span.map(|s| (s.file, s.start)));
    out
}

/// Each module of the tree once (a directory called from several places is one module).
fn for_each_module(db: &dyn Db, ws: Workspace, mut f: impl FnMut(Module)) {
    let tree = module_tree(db, ws);
    let mut seen = std::collections::BTreeSet::new();
    for node in &tree.nodes {
        if seen.insert(node.module.dir(db).clone()) {
            f(node.module);
        }
    }
}

/// What Terraform's loader reports for one module on its own: its files' syntax and lowering
/// problems and its duplicate declarations (`init` checks the root module so before it installs
/// anything). A query per module, so that an edit re-reads only its own module's.
#[salsa::tracked(returns(ref))]
pub fn module_load_diagnostics(db: &dyn Db, ws: Workspace, m: Module) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for f in m.files(db) {
        out.extend(validate::variable_default_diagnostics(db, ws, *f));
        out.extend(parse(db, *f).diagnostics.iter().cloned());
        out.extend(
            source_map(db, *f)
                .diagnostics
                .iter()
                .map(|d| with_ranges(db, *f, d)),
        );
    }
    out.extend(module_index_diagnostics(db, m).iter().cloned());
    out
}

/// The diagnostics Terraform's configuration loader would report: syntax, lowering, duplicate
/// declarations and the module tree's, without the checks of references, schemas and types
/// (`graph` draws a configuration that has only those wrong, as Terraform does).
#[salsa::tracked(returns(ref))]
pub fn load_diagnostics(db: &dyn Db, ws: Workspace) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for_each_module(db, ws, |m| {
        out.extend(module_load_diagnostics(db, ws, m).iter().cloned())
    });
    out.extend(module_tree_diagnostics(db, ws).iter().cloned());
    out.extend(
        provider_config_problems(db, ws)
            .iter()
            .map(|p| p.resolve(db)),
    );
    out.sort_by_key(|d| d.span.map(|s| (s.file, s.start)));
    out
}

/// The concrete database used by the CLI and tests. Optionally logs which queries executed.
#[salsa::db]
#[derive(Clone)]
pub struct RootDb {
    storage: salsa::Storage<Self>,
    log: Arc<Mutex<Option<Vec<String>>>>,
    files: Arc<Mutex<FileRegistry>>,
}

#[salsa::db]
impl salsa::Database for RootDb {}

#[salsa::db]
impl Db for RootDb {}

impl Default for RootDb {
    fn default() -> Self {
        RootDb::with_storage(salsa::Storage::default(), Arc::default())
    }
}

impl RootDb {
    fn with_storage(storage: salsa::Storage<Self>, log: Arc<Mutex<Option<Vec<String>>>>) -> Self {
        let db = RootDb {
            storage,
            log,
            files: Arc::default(),
        };
        Disk::new(&db, Arc::default());
        db
    }

    /// A database that records every query execution (for incrementality tests).
    pub fn with_logging() -> Self {
        let log: Arc<Mutex<Option<Vec<String>>>> = Arc::new(Mutex::new(Some(Vec::new())));
        let sink = log.clone();
        let storage = salsa::Storage::new(Some(Box::new(move |event: salsa::Event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                if let Some(l) = sink.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
                    l.push(format!("{database_key:?}"));
                }
            }
        })));
        RootDb::with_storage(storage, log)
    }

    /// The file identity of a configuration file's path (see [`FileRegistry`]).
    pub fn file_id(&self, path: &std::path::Path) -> FileId {
        self.files
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .intern(path)
    }

    /// A new file id for a text that is not a configuration file (see [`FileRegistry::fresh`]).
    pub fn fresh_file_id(&self, name: &std::path::Path) -> FileId {
        self.files
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .fresh(name)
    }

    /// The path a file id was given to.
    pub fn file_path(&self, id: FileId) -> Option<std::path::PathBuf> {
        let files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        files.path(id).map(|p| p.to_path_buf())
    }

    /// A file on disk changed (or appeared, or went away): the queries that read it through a
    /// file function run again, nothing else.
    pub fn disk_changed(&mut self, path: &std::path::Path) {
        let disk = Disk::get(self);
        let mut changes = (**disk.changes(self)).clone();
        *changes.entry(path.to_path_buf()).or_insert(0) += 1;
        disk.set_changes(self).to(Arc::new(changes));
    }

    /// Take the names of the queries executed since the last call.
    pub fn take_log(&self) -> Vec<String> {
        self.log
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }
}

/// Rendering support: file names and texts of a workspace's files.
pub struct Sources {
    files: Vec<(FileId, String, String)>,
}

impl Sources {
    pub fn new(db: &dyn Db, ws: Workspace) -> Self {
        Sources {
            files: ws
                .modules(db)
                .iter()
                .flat_map(|m| m.files(db).iter())
                .map(|f| (f.id(db), f.path(db).clone(), f.text(db).clone()))
                .collect(),
        }
    }

    pub fn from_files(files: Vec<(FileId, String, String)>) -> Self {
        Sources { files }
    }
}

impl Sources {
    /// The name and text of `file`.
    pub fn get(&self, file: FileId) -> Option<(&str, &str)> {
        self.files
            .iter()
            .find(|f| f.0 == file)
            .map(|f| (f.1.as_str(), f.2.as_str()))
    }
}

impl SourceLookup for Sources {
    fn file_name(&self, file: FileId) -> String {
        self.files
            .iter()
            .find(|f| f.0 == file)
            .map(|f| f.1.clone())
            .unwrap_or_else(|| "<unknown>".into())
    }

    fn file_text(&self, file: FileId) -> Option<&str> {
        self.files
            .iter()
            .find(|f| f.0 == file)
            .map(|f| f.2.as_str())
    }
}
