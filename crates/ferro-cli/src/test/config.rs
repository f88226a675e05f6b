//! The module under test as a run sees it: the test file's provider blocks in place of the
//! module's own, an override file giving each overridden resource a mocked configuration of
//! its own, and the providers started with the file's mocks answering for mocked
//! configurations (schemas made from the configuration for providers not installed).

use super::mock::{synthesized_schema, MockProvider, TestProviders, TypeMock};
use super::run::ActiveOverride;
use crate::load::Loaded;
use ferro_db::Setter;
use ferro_diag::{Diagnostic, FileId};
use ferro_planner::Providers;
use ferro_provider::{ProviderRegistry, ProviderSource};
use ferro_state::State;
use ferro_test::TestFile;
use ferro_value::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

/// The file's provider blocks put into the module's root files: a copy of the test file in
/// which everything but those blocks is blank (so positions stay those of the test file), and
/// the module's own blocks for the same configurations blanked out. With a `providers`
/// mapping only the mapped configurations are given, under the module's names.
pub fn with_test_providers(
    file: &TestFile,
    mapping: Option<&[(String, String)]>,
    aliases: &[(String, String)],
    overrides: &[ActiveOverride],
    values: &ProviderValues,
    (dir, scratch): (&Path, &Path),
    mut files: Vec<(String, String)>,
) -> Vec<(String, String)> {
    // The configurations overrides use, and the override file giving each overridden
    // resource its own (kept in every run, so objects in state keep their configuration).
    let alias_blocks: String = aliases
        .iter()
        .map(|(p, a)| format!("\nprovider \"{p}\" {{\n  alias = \"{a}\"\n}}\n"))
        .collect();
    if overrides.iter().any(|o| o.instance.is_none()) {
        let text: String = overrides
            .iter()
            .filter(|o| o.instance.is_none())
            .map(|o| {
                if o.module {
                    return match fixed_outputs_module(o, dir, scratch, &files) {
                        Some(source) => {
                            format!("module \"{}\" {{\n  source = {source:?}\n}}\n", o.name)
                        }
                        None => String::new(),
                    };
                }
                format!(
                    "{} \"{}\" \"{}\" {{\n  provider = {}.{}\n}}\n",
                    if o.data { "data" } else { "resource" },
                    o.ty,
                    o.name,
                    o.provider,
                    o.alias
                )
            })
            .collect();
        files.push(("ferro_test_override.tf".to_string(), text));
    }
    // A name in the root module's directory (the test file may be in tests/).
    let shown = file
        .name
        .rsplit('/')
        .next()
        .unwrap_or(&file.name)
        .to_string();
    let json = file.name.ends_with(".json");
    if file.providers.is_empty() {
        if !alias_blocks.is_empty() {
            files.push((format!("{shown}.providers.tf"), alias_blocks));
        }
        return files;
    }
    // (index in the file's blocks, start, end, the module's name for it when mapped)
    let mut keep: Vec<(usize, u32, u32, Option<String>)> = Vec::new();
    for (i, p) in file.providers.iter().enumerate() {
        if values.unused.contains(&i) {
            continue;
        }
        let name = match &p.alias {
            Some(a) => format!("{}.{a}", p.name),
            None => p.name.clone(),
        };
        match mapping {
            None => keep.push((i, p.range.0, p.range.1, None)),
            Some(map) => {
                if let Some((inner, _)) = map.iter().find(|(_, outer)| *outer == name) {
                    keep.push((i, p.range.0, p.range.1, Some(inner.clone())));
                }
            }
        }
    }
    if json {
        // A JSON file's blocks are written out in HCL with their values.
        let mut given: BTreeSet<(String, Option<String>)> = BTreeSet::new();
        let mut text = String::new();
        for (i, _, _, rename) in &keep {
            let Some(block) = file.providers.get(*i) else {
                continue;
            };
            let (name, alias) = match rename {
                None => (block.name.clone(), block.alias.clone()),
                Some(inner) => match inner.split_once('.') {
                    Some((n, a)) => (n.to_string(), Some(a.to_string())),
                    None => (inner.clone(), None),
                },
            };
            text.push_str(&provider_block_text(
                &name,
                alias.as_deref(),
                &block.body,
                values,
            ));
            given.insert((name, alias));
        }
        for (name, body) in files.iter_mut() {
            if name.ends_with(".json") {
                continue;
            }
            *body = blank_provider_blocks(body, &given);
        }
        text.push_str(&alias_blocks);
        files.push((format!("{shown}.providers.tf"), text));
        return files;
    }
    let bytes = file.text.as_bytes();
    let mut text: Vec<u8> = bytes
        .iter()
        .map(|b| if *b == b'\n' { b'\n' } else { b' ' })
        .collect();
    let mut given: BTreeSet<(String, Option<String>)> = BTreeSet::new();
    for (i, start, end, rename) in &keep {
        let (s, e) = (*start as usize, (*end as usize).min(bytes.len()));
        text[s..e].copy_from_slice(&bytes[s..e]);
        let block = file.providers.get(*i);
        let Some(block) = block else { continue };
        match rename {
            None => {
                given.insert((block.name.clone(), block.alias.clone()));
            }
            Some(inner) => {
                let (name, alias) = match inner.split_once('.') {
                    Some((n, a)) => (n.to_string(), Some(a.to_string())),
                    None => (inner.clone(), None),
                };
                given.insert((name, alias.clone()));
                // The configuration's alias becomes the module's name for it.
                if let Some(a) = &block.alias {
                    let region = String::from_utf8_lossy(&text[s..e]).into_owned();
                    if let Some(pos) = alias_argument(&region, a) {
                        let (from, to) = (s + pos.0, s + pos.1);
                        let replacement = match &alias {
                            Some(new) => format!("alias = {new:?}"),
                            None => String::new(),
                        };
                        let mut padded = replacement.into_bytes();
                        padded.resize(to - from, b' ');
                        if padded.len() == to - from {
                            text[from..to].copy_from_slice(&padded);
                        }
                    }
                }
            }
        }
    }
    // Expressions that read the test file's scope take their values for this run (each on
    // as many lines as before, so what follows keeps its lines).
    let mut literals: Vec<(&(u32, u32), &String)> = values
        .literals
        .iter()
        .filter(|((s, e), _)| keep.iter().any(|(_, ks, ke, _)| ks <= s && e <= ke))
        .collect();
    literals.sort_by(|a, b| b.0.cmp(a.0));
    for ((s, e), literal) in literals {
        let (s, e) = (*s as usize, (*e as usize).min(text.len()));
        if s > e {
            continue;
        }
        let lines = bytes[s..e].iter().filter(|b| **b == b'\n').count();
        let mut with = literal.clone().into_bytes();
        with.extend(std::iter::repeat_n(b'\n', lines));
        text.splice(s..e, with);
    }
    for (name, body) in files.iter_mut() {
        if name.ends_with(".json") {
            continue;
        }
        *body = blank_provider_blocks(body, &given);
    }
    let mut text = String::from_utf8_lossy(&text).into_owned();
    text.push_str(&alias_blocks);
    files.push((shown, text));
    files
}

/// Where `alias = "NAME"` is in a provider block's text.
fn alias_argument(block: &str, alias: &str) -> Option<(usize, usize)> {
    let quoted = format!("{alias:?}");
    let start = block.find("alias")?;
    let rest = &block[start..];
    let end = rest.find(&quoted)? + quoted.len();
    Some((start, start + end))
}

/// `text` with the provider blocks for the configurations in `given` replaced by spaces.
fn blank_provider_blocks(text: &str, given: &BTreeSet<(String, Option<String>)>) -> String {
    let parsed = ferro_syntax::parse_file(FileId(u32::MAX), text);
    let mut out: Vec<u8> = text.as_bytes().to_vec();
    for item in &parsed.body.items {
        let ferro_syntax::ast::BodyItem::Block(b) = item else {
            continue;
        };
        if b.ty.name != "provider" || b.labels.len() != 1 {
            continue;
        }
        let alias = b.body.items.iter().find_map(|i| match i {
            ferro_syntax::ast::BodyItem::Attribute(a) if a.name.name == "alias" => text
                .get(a.expr.span.start as usize..a.expr.span.end as usize)
                .map(|t| t.trim().trim_matches('"').to_string()),
            _ => None,
        });
        if given.contains(&(b.labels[0].value.to_string(), alias)) {
            for byte in &mut out[b.span.start as usize..(b.span.end as usize).min(text.len())] {
                if *byte != b'\n' {
                    *byte = b' ';
                }
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
}

/// The providers of the loaded module: the registry's, with the file's mocks in their place,
/// and a mocked configuration for each override.
#[allow(clippy::too_many_arguments)]
pub fn start_providers(
    l: &mut Loaded,
    registry: &ProviderRegistry,
    mocks: &[super::file::MockProvider],
    mock_values: &BTreeMap<String, Value>,
    extra_hirs: &[&ferro_hir::FileHir],
    aliases: &[(String, String)],
    overrides: &[ActiveOverride],
    state: Option<&State>,
) -> (Providers, Vec<Diagnostic>) {
    let mut by_config = BTreeMap::new();
    if !mocks.is_empty() || !aliases.is_empty() {
        let (resources, data, read) = used_attributes(l, extra_hirs);
        // The schema of a mocked provider: its own when it is installed (or built in), else
        // one made from what the configuration uses of it.
        let schema_for = |local: &str,
                          addr: &ferro_addrs::Provider,
                          named: &[(bool, String, Option<&Value>)]| {
            if let Some(s) = registry.get(addr).ok().and_then(|p| p.schema().ok()) {
                return s;
            }
            let prefix = format!("{local}_");
            let own = |t: &String| t == local || t.starts_with(&prefix);
            let mut res: BTreeMap<String, BTreeSet<String>> = resources
                .iter()
                .filter(|(t, _)| own(t))
                .map(|(t, s)| (t.clone(), s.clone()))
                .collect();
            let mut dat: BTreeMap<String, BTreeSet<String>> = data
                .iter()
                .filter(|(t, _)| own(t))
                .map(|(t, s)| (t.clone(), s.clone()))
                .collect();
            // Attributes a mock's defaults or an override's values name are part of the type.
            let mut read = read.clone();
            for (is_data, ty, values) in named {
                let key = if *is_data {
                    format!("data.{ty}")
                } else {
                    ty.clone()
                };
                if let Some(ValueLike::Object(names)) = values.map(value_like) {
                    read.entry(key).or_default().extend(names);
                }
                if *is_data {
                    dat.entry(ty.clone()).or_default();
                } else {
                    res.entry(ty.clone()).or_default();
                }
            }
            synthesized_schema(&res, &dat, &read)
        };
        for m in mocks {
            let addr = mock_provider_addr(l, &m.name);
            let named: Vec<(bool, String, Option<&Value>)> = m
                .types
                .iter()
                .map(|t| (t.data, t.ty.clone(), mock_values.get(&mock_key(m, t))))
                .collect();
            let schema = schema_for(&m.name, &addr, &named);
            let mut rs = BTreeMap::new();
            let mut ds = BTreeMap::new();
            for t in &m.types {
                let mock = TypeMock {
                    defaults: mock_values.get(&mock_key(m, t)).cloned(),
                    at_plan: t.during == Some(super::file::OverrideDuring::Plan),
                    force: false,
                };
                if t.data {
                    ds.insert(t.ty.clone(), mock);
                } else {
                    rs.insert(t.ty.clone(), mock);
                }
            }
            let at_plan = m.during == Some(super::file::OverrideDuring::Plan);
            by_config.insert(
                (addr.ty.clone(), m.alias.clone()),
                Arc::new(MockProvider::new(schema, rs, ds, at_plan)),
            );
        }
        for (local, alias) in aliases {
            let addr = mock_provider_addr(l, local);
            let mine: Vec<&ActiveOverride> = overrides
                .iter()
                .filter(|o| !o.module && &o.alias == alias)
                .collect();
            let named: Vec<(bool, String, Option<&Value>)> = mine
                .iter()
                .map(|o| (o.data, o.ty.clone(), o.values.as_ref()))
                .collect();
            let schema = schema_for(local, &addr, &named);
            let mut rs = BTreeMap::new();
            let mut ds = BTreeMap::new();
            for o in mine {
                let mock = TypeMock {
                    defaults: o.values.clone(),
                    at_plan: o.at_plan,
                    force: true,
                };
                if o.data {
                    ds.insert(o.ty.clone(), mock);
                } else {
                    rs.insert(o.ty.clone(), mock);
                }
            }
            by_config.insert(
                (addr.ty.clone(), Some(alias.clone())),
                Arc::new(MockProvider::new(schema, rs, ds, false)),
            );
        }
    }
    let source = TestProviders {
        registry,
        mocks: by_config,
    };
    // The assertions call the functions of the providers the module requires, as the
    // module's own expressions do.
    let (mut providers, diags) =
        ferro_planner::load_providers_with_root_calls(&l.db, l.ws, &source, state, extra_hirs);
    // Targets in child modules or naming one instance: a mock with the override's values,
    // with the schema of the resource's own provider, answers for that resource or instance.
    for o in overrides {
        let Some(target) = &o.instance else { continue };
        let (module, resource) = match target {
            ferro_addrs::Target::Instance(i) => (&i.module, &i.resource.resource),
            ferro_addrs::Target::Resource(r) => (&r.module, &r.resource),
            ferro_addrs::Target::Module(_) => continue,
        };
        let cr = ferro_addrs::ConfigResource {
            module: module.0.iter().map(|s| s.name.clone()).collect(),
            resource: resource.clone(),
        };
        let Some(schema) = providers
            .by_resource
            .get(&cr)
            .and_then(|cfg| providers.schemas.get(&cfg.provider))
            .cloned()
        else {
            continue;
        };
        let mock = TypeMock {
            defaults: o.values.clone(),
            at_plan: o.at_plan,
            force: true,
        };
        let (mut rs, mut ds) = (BTreeMap::new(), BTreeMap::new());
        if o.data {
            ds.insert(o.ty.clone(), mock);
        } else {
            rs.insert(o.ty.clone(), mock);
        }
        let provider: Arc<dyn ferro_provider::Provider> =
            Arc::new(MockProvider::new(schema, rs, ds, false));
        providers.overrides.push((target.clone(), provider));
    }
    l.ws.set_schemas(&mut l.db)
        .to(Arc::new(providers.schema_table()));
    (providers, diags)
}

enum ValueLike {
    Object(Vec<String>),
    Other,
}

fn value_like(v: &Value) -> ValueLike {
    match &v.kind {
        ferro_value::ValueKind::Object(m) => {
            ValueLike::Object(m.keys().map(|k| k.to_string()).collect())
        }
        _ => ValueLike::Other,
    }
}

/// The key a mock type's evaluated defaults are kept under.
pub fn mock_key(m: &super::file::MockProvider, t: &super::file::MockType) -> String {
    format!(
        "{}.{}|{}|{}",
        m.name,
        m.alias.as_deref().unwrap_or(""),
        if t.data { "data" } else { "resource" },
        t.ty
    )
}

/// The provider a local name means in the root module (`required_providers`, else
/// `hashicorp/NAME`).
fn mock_provider_addr(l: &Loaded, name: &str) -> ferro_addrs::Provider {
    if name == "terraform" {
        return ferro_addrs::Provider::builtin("terraform");
    }
    ferro_db::provider_source(&l.db, l.ws.root(&l.db), name)
        .unwrap_or_else(|_| ferro_addrs::Provider::default_for(name))
}

/// What the configuration (and the test file's expressions) use of each resource type: the
/// arguments its blocks set, and the attributes expressions read (keyed `TYPE` or `data.TYPE`).
#[allow(clippy::type_complexity)]
fn used_attributes(
    l: &Loaded,
    extra: &[&ferro_hir::FileHir],
) -> (
    BTreeMap<String, BTreeSet<String>>,
    BTreeMap<String, BTreeSet<String>>,
    BTreeMap<String, BTreeSet<String>>,
) {
    let mut resources: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut data: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut hirs: Vec<&ferro_hir::FileHir> = Vec::new();
    for m in l.ws.modules(&l.db) {
        for f in m.files(&l.db) {
            let hir = ferro_db::file_hir(&l.db, *f);
            for r in &hir.resources {
                let set: BTreeSet<String> = r.body.attrs.iter().map(|a| a.name.clone()).collect();
                let target = if r.addr.mode == ferro_addrs::ResourceMode::Data {
                    &mut data
                } else {
                    &mut resources
                };
                target.entry(r.addr.ty.to_string()).or_default().extend(set);
            }
            hirs.push(hir);
        }
    }
    hirs.extend(extra.iter().copied());
    let reads = ferro_planner::reads::read_resources(hirs.into_iter());
    let mut read: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (r, what) in reads {
        if let ferro_planner::reads::Reads::Attrs(attrs) = what {
            let key = if r.mode == ferro_addrs::ResourceMode::Data {
                format!("data.{}", r.ty)
            } else {
                r.ty.to_string()
            };
            read.entry(key).or_default().extend(attrs);
        }
    }
    (resources, data, read)
}

/// An `override_module`: a module written into the scratch directory that declares the
/// call's arguments as variables and has the override's outputs as constants; the source (a
/// relative path from `dir`) the call is given instead of its own.
fn fixed_outputs_module(
    o: &ActiveOverride,
    dir: &Path,
    scratch: &Path,
    files: &[(String, String)],
) -> Option<String> {
    const META: &[&str] = &[
        "source",
        "version",
        "count",
        "for_each",
        "providers",
        "depends_on",
    ];
    let mut arguments: BTreeSet<String> = BTreeSet::new();
    for (name, text) in files {
        if name.ends_with(".json") {
            continue;
        }
        let parsed = ferro_syntax::parse_file(FileId(u32::MAX), text);
        for item in &parsed.body.items {
            let ferro_syntax::ast::BodyItem::Block(b) = item else {
                continue;
            };
            if b.ty.name != "module"
                || b.labels.first().map(|l| l.value.as_str()) != Some(o.name.as_str())
            {
                continue;
            }
            for i in &b.body.items {
                if let ferro_syntax::ast::BodyItem::Attribute(a) = i {
                    if !META.contains(&a.name.name.as_str()) {
                        arguments.insert(a.name.name.to_string());
                    }
                }
            }
        }
    }
    let mut text = String::new();
    for a in &arguments {
        text.push_str(&format!("variable \"{a}\" {{\n  default = null\n}}\n\n"));
    }
    if let Some(ferro_value::ValueKind::Object(outputs)) = o.values.as_ref().map(|v| &v.kind) {
        for (name, v) in outputs.iter() {
            let json = ferro_value::json::value_to_plain_json(v).to_string();
            // An HCL string holding the JSON text.
            let quoted = hcl_string(&json);
            text.push_str(&format!(
                "output \"{name}\" {{\n  value = jsondecode({quoted})\n}}\n\n"
            ));
        }
    }
    let module_dir = scratch.join(format!("override-module-{}", o.name));
    std::fs::create_dir_all(&module_dir).ok()?;
    std::fs::write(module_dir.join("main.tf"), text).ok()?;
    let from = std::fs::canonicalize(dir).ok()?;
    let to = std::fs::canonicalize(&module_dir).ok()?;
    let ups = from.components().count().saturating_sub(1);
    let rest = to.strip_prefix("/").ok()?;
    Some(format!("{}{}", "../".repeat(ups), rest.display()))
}

/// What a test file's provider blocks say for one run: each expression that reads the test
/// file's scope (`var.NAME` of the file's variables and `-var`, `run.NAME` outputs), keyed by
/// its byte range in the test file, as an HCL literal of its value. In a JSON test file every
/// expression is there (its blocks are written out in HCL for the module).
#[derive(Default, Clone)]
pub struct ProviderValues {
    literals: BTreeMap<(u32, u32), String>,
    /// Blocks (by index) the run is not given: aliased configurations the module does not
    /// name when the run maps none (Terraform gives a module only the ones it requires).
    unused: BTreeSet<usize>,
}

/// The scope of a provider block's expressions: the test file's, noting whether anything was
/// referenced and whether a variable the test file does not give was asked for (that one is
/// the module's, as before Terraform 1.7, and the expression is left to the module).
struct ProviderScope<'a> {
    inner: super::scope::VariablesScope<'a>,
    touched: std::cell::Cell<bool>,
    module_var: std::cell::Cell<bool>,
}

impl ferro_eval::Scope for ProviderScope<'_> {
    fn reference(&self, r: &ferro_hir::Reference) -> Result<Value, Diagnostic> {
        self.touched.set(true);
        if let ferro_hir::Reference::Var(n) = r {
            if !self.inner.vars.contains_key(n.as_str()) {
                self.module_var.set(true);
            }
        }
        self.inner.reference(r)
    }
    fn base_dir(&self) -> &Path {
        self.inner.dir
    }
    fn source(&self, file: FileId) -> Option<(&str, &str)> {
        ferro_eval::Scope::source(&self.inner, file)
    }
    fn builtin_functions_only(&self) -> bool {
        true
    }
}

/// Evaluate the file's provider blocks for a run that sees `vars` and the outputs `runs`.
pub fn provider_values(
    file: &TestFile,
    mapping: Option<&[(String, String)]>,
    module_names: &dyn Fn(&str) -> bool,
    (vars, runs): (&BTreeMap<String, Value>, &BTreeMap<String, Value>),
    sources: &[(FileId, String, String)],
    dir: &Path,
    diags: &mut Vec<Diagnostic>,
) -> ProviderValues {
    let json = file.name.ends_with(".json");
    let mut out = ProviderValues::default();
    for (i, p) in file.providers.iter().enumerate() {
        // Only the configurations the run is given.
        let name = match &p.alias {
            Some(a) => format!("{}.{a}", p.name),
            None => p.name.clone(),
        };
        let given = match mapping {
            Some(map) => map.iter().any(|(_, outer)| *outer == name),
            None => p.alias.is_none() || module_names(&name),
        };
        if !given {
            out.unused.insert(i);
            continue;
        }
        for e in p.body.exprs() {
            let scope = ProviderScope {
                inner: super::scope::VariablesScope {
                    vars,
                    runs,
                    sources: super::scope::TestSources { files: sources },
                    dir,
                },
                touched: std::cell::Cell::new(false),
                module_var: std::cell::Cell::new(false),
            };
            let (v, ds) = ferro_eval::eval_expr(&e.hir, &scope, e.id);
            if !json && scope.module_var.get() {
                continue;
            }
            // What does not evaluate in the test file's scope (a provider-defined function
            // among them) is an error of the run, as Terraform decodes the whole block there.
            if ds.iter().any(Diagnostic::is_error) {
                diags.extend(ds);
                continue;
            }
            if !json && !scope.touched.get() {
                continue;
            }
            match hcl_literal(&v) {
                Some(text) => {
                    out.literals.insert((e.span.start, e.span.end), text);
                }
                None => diags.push(
                    Diagnostic::error("test-unknown-provider-value", "Unknown provider configuration value")
                        .with_detail(format!(
                            "The provider block {:?} depends on a value that is not known yet (an output of a run that only planned). Provider configurations in test files can only use known values.",
                            name
                        ))
                        .with_span(e.span),
                ),
            }
        }
    }
    out
}

/// A value written as an HCL expression that evaluates to it (marks dropped); None when it
/// is not wholly known.
fn hcl_literal(v: &Value) -> Option<String> {
    use ferro_value::ValueKind as K;
    Some(match &v.kind {
        K::Null(_) => "null".to_string(),
        K::Unknown(_) => return None,
        K::Bool(b) => b.to_string(),
        K::Number(n) => n.to_string(),
        K::String(s) => hcl_string(s),
        K::List(_, es) | K::Set(_, es) | K::Tuple(es) => {
            let items: Option<Vec<String>> = es.iter().map(hcl_literal).collect();
            format!("[{}]", items?.join(", "))
        }
        K::Map(_, m) | K::Object(m) => {
            let mut items = Vec::new();
            for (k, e) in m.iter() {
                items.push(format!("{} = {}", hcl_string(k), hcl_literal(e)?));
            }
            format!("{{ {} }}", items.join(", "))
        }
    })
}

/// A quoted HCL string of `s`: escapes, and template sequences doubled.
fn hcl_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '$' | '%' if chars.peek() == Some(&'{') => {
                out.push(c);
                out.push(c);
            }
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON test file's provider block written in HCL, with its values, the alias given
/// (`None`: none).
fn provider_block_text(
    name: &str,
    alias: Option<&str>,
    body: &ferro_test::ProviderBody,
    values: &ProviderValues,
) -> String {
    let mut out = format!("\nprovider {} {{\n", hcl_string(name));
    if let Some(a) = alias {
        out.push_str(&format!("  alias = {}\n", hcl_string(a)));
    }
    body_text(body, values, 1, &mut out);
    out.push_str("}\n");
    out
}

fn body_text(
    body: &ferro_test::ProviderBody,
    values: &ProviderValues,
    depth: usize,
    out: &mut String,
) {
    let pad = "  ".repeat(depth);
    for (name, e) in &body.attrs {
        if let Some(v) = values.literals.get(&(e.span.start, e.span.end)) {
            out.push_str(&format!("{pad}{name} = {v}\n"));
        }
    }
    for (ty, labels, inner) in &body.blocks {
        out.push_str(&format!("{pad}{ty}"));
        for l in labels {
            out.push(' ');
            out.push_str(&hcl_string(l));
        }
        out.push_str(" {\n");
        body_text(inner, values, depth + 1, out);
        out.push_str(&format!("{pad}}}\n"));
    }
}
