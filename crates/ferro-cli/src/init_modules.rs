//! `ferro init`'s module installation: every module call, from the root down, is resolved to
//! a directory and recorded in `.terraform/modules/modules.json` as Terraform records it (`Key`
//! `a.b`, `Source`, `Version` for registry modules, `Dir`). Local paths are used where they
//! are; every other source (registries, archives, git) is fetched by
//! [`ModuleFetcher`](crate::module_fetch::ModuleFetcher) into `.terraform/modules/KEY`, and
//! reused from there by later runs unless `-upgrade`.

use crate::module_fetch::ModuleFetcher;
use crate::ui::plain_error;
use crate::{Global, Io};
use ferro_db::{is_local_source, resolve_local_source, StaticSource};
use ferro_diag::Diagnostic;
use ferro_provider::install::cliconfig::CliConfig;
use ferro_provider::install::http::Credentials;
use ferro_provider::install::registry::Discovery;
use ferro_provider::install::version::{Constraints, Version};
use std::collections::BTreeMap;
use std::path::Path;

/// Where `modules.json` lives, relative to the working directory.
pub(crate) const MANIFEST: &str = ".terraform/modules/modules.json";

use ferro_workspace::manifest::{read_manifest, Installed};

/// How many times `init` installs before the sources evaluated early stop changing.
const MAX_ROUNDS: usize = 8;

/// `init`'s and `get`'s module step: install every call, print Terraform's progress lines
/// (under `header` when the configuration calls modules), and record the manifest. Err is the
/// exit code, once the problem is reported.
pub(crate) fn install_step(
    g: &Global,
    io: &mut Io<'_>,
    upgrade: bool,
    test_dir: &str,
    header: Option<&str>,
) -> Result<(), i32> {
    let mut lines = Vec::new();
    let cli = match CliConfig::load() {
        Ok(c) => c,
        Err(e) => return Err(plain_error(io, "Invalid CLI configuration", &e)),
    };
    let default_registry = match ferro_provider::install::lock::default_registry(&g.dir) {
        Ok(r) => r,
        Err(e) => return Err(plain_error(io, "Invalid environment", &e)),
    };
    let fetcher = ModuleFetcher {
        default_registry,
        discovery: Discovery::new(
            Credentials {
                tokens: cli.credentials.clone(),
            },
            cli.hosts.clone(),
        ),
    };
    // Sources evaluated early can name modules whose own calls evaluate early too: each round
    // installs what the last one made known, until a round finds nothing new.
    let mut used: Option<BTreeMap<String, StaticSource>> = None;
    let mut installed = Ok(Vec::new());
    for round in 0..MAX_ROUNDS {
        let l = match crate::load::load_dir_installing(&g.dir) {
            Ok(l) => l,
            Err(e) => return Err(plain_error(io, "Failed to read configuration", &e)),
        };
        if l.early.iter().any(Diagnostic::is_error) {
            crate::ui::print_diags(io, &l.early, &l.sources(), g.color);
            return Err(1);
        }
        let statics = l.ws.static_sources(&l.db).clone();
        if used.as_ref() == Some(&statics) {
            break;
        }
        installed = install_modules(
            &g.dir,
            test_dir,
            upgrade && round == 0,
            &fetcher,
            &statics,
            &mut |l| lines.push(l),
        );
        if statics.is_empty() || installed.is_err() {
            break;
        }
        if let Ok(modules) = &installed {
            if modules.len() > 1 {
                if let Err(e) = write_manifest(&g.dir, modules) {
                    return Err(plain_error(io, "Failed to write the module manifest", &e));
                }
            }
        }
        used = Some(statics);
    }
    // Terraform announces the step whenever the configuration calls modules, even when every
    // call was installed before (and so has nothing to say).
    let calls_modules = installed.as_ref().map_or(true, |m| m.len() > 1);
    if let Some(h) = header.filter(|_| calls_modules || !lines.is_empty()) {
        let _ = writeln!(io.stdout, "{h}");
    }
    for l in &lines {
        let _ = writeln!(io.stdout, "{l}");
    }
    match installed {
        Ok(modules) => {
            if modules.len() > 1 {
                if let Err(e) = write_manifest(&g.dir, &modules) {
                    return Err(plain_error(io, "Failed to write the module manifest", &e));
                }
            }
            Ok(())
        }
        Err(diags) => {
            let text =
                ferro_diag::render(&diags, &ferro_db::Sources::from_files(Vec::new()), g.color);
            let _ = io.stderr.write_all(text.as_bytes());
            Err(1)
        }
    }
}

/// Install every module the configuration in `root` calls. `say` receives Terraform's progress
/// lines. Existing git checkouts are reused unless `upgrade`.
pub(crate) fn install_modules(
    root: &Path,
    test_dir: &str,
    upgrade: bool,
    fetcher: &ModuleFetcher,
    statics: &BTreeMap<String, StaticSource>,
    say: &mut dyn FnMut(String),
) -> Result<Vec<Installed>, Vec<Diagnostic>> {
    let mut out = vec![Installed {
        key: String::new(),
        source: String::new(),
        version: None,
        dir: ".".to_string(),
    }];
    let mut errors = Vec::new();
    // What the last init installed: reused for the same source (and a version the call's
    // constraints still allow).
    let previous: std::collections::BTreeMap<String, Installed> = read_manifest(root)
        .into_iter()
        .map(|m| (m.key.clone(), m))
        .collect();
    // Depth first, each module's calls in name order (`a`, `a.b`, then `c`), as Terraform
    // walks and announces them: a call is taken from the stack, then its own calls go on top.
    type Pending = (
        Vec<String>,
        String,
        Vec<String>,
        (String, String, Option<String>),
    );
    let push_calls = |stack: &mut Vec<Pending>, path: &[String], dir: &str, anc: &[String]| {
        let mut calls = calls_in(&root.join(dir), path, statics);
        calls.sort_by(|a, b| a.0.cmp(&b.0));
        for call in calls.into_iter().rev() {
            stack.push((path.to_vec(), dir.to_string(), anc.to_vec(), call));
        }
    };
    let mut stack: Vec<Pending> = Vec::new();
    // Calls installed afresh in this run: what the last run installed below them is stale
    // (Terraform discards a replaced module's descendants with it).
    let mut replaced: Vec<String> = Vec::new();
    // The modules test files' runs call (`run { module { source, version } }`), keyed as
    // Terraform keys them (`test.tests.main.setup`): taken after the root's calls.
    let mut test_calls = test_module_calls(root, test_dir);
    test_calls.sort_by(|a, b| b.0.cmp(&a.0));
    for (path, call) in test_calls {
        stack.push((path, ".".to_string(), vec![".".to_string()], call));
    }
    push_calls(&mut stack, &[], ".", &[".".to_string()]);
    while let Some((path, dir, ancestors, (name, source, version))) = stack.pop() {
        {
            let mut key_path = path.clone();
            key_path.push(name.clone());
            let key = key_path.join(".");
            // A call the last installation recorded with the same source is kept as it is and
            // not announced again (as Terraform's installer skips it), unless upgrading.
            let under_replaced = replaced.iter().any(|r| key.starts_with(&format!("{r}.")));
            let prev = previous.get(&key).filter(|p| {
                !under_replaced
                    && p.source == source
                    && version_allows(p.version.as_deref(), version.as_deref())
                    && root.join(&p.dir).is_dir()
            });
            let reused = !upgrade && prev.is_some();
            let (child, chosen) = if is_local_source(&source) {
                (resolve_local_source(&dir, &source), None)
            } else if let (true, Some(p)) = (reused, prev) {
                (p.dir.clone(), p.version.clone())
            } else {
                replaced.push(key.clone());
                let dest = format!(".terraform/modules/{key}");
                match fetcher.fetch(&key, &source, version.as_deref(), &root.join(&dest), say) {
                    Ok(f) => (
                        match f.subdir {
                            Some(s) => format!("{dest}/{s}"),
                            None => dest.clone(),
                        },
                        f.version,
                    ),
                    Err(e) => {
                        errors.push(
                            Diagnostic::error("module-install", e.summary).with_detail(e.detail),
                        );
                        continue;
                    }
                }
            };
            if ancestors.contains(&child) || key_path.len() > 64 {
                errors.push(
                    Diagnostic::error("module-cycle", "Module call cycle").with_detail(format!(
                        "The module call {key:?} loads {child:?}, which is already being loaded by a module above it."
                    )),
                );
                continue;
            }
            if !root.join(&child).is_dir() {
                errors.push(
                    Diagnostic::error("module-unreadable", "Unreadable module directory")
                        .with_detail(format!(
                            "The directory {child} for module {key:?} does not exist or cannot be read."
                        )),
                );
                continue;
            }
            if !reused {
                say(format!("- {key} in {child}"));
            }
            let mut anc = ancestors.clone();
            anc.push(child.clone());
            out.push(Installed {
                key,
                source,
                version: chosen,
                dir: child.clone(),
            });
            push_calls(&mut stack, &key_path, &child, &anc);
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    out.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(out)
}

/// The module calls of the test files in `root` and `root/test_dir` (their runs' `module`
/// blocks that name a registry or remote source): the key's path without the run's name
/// (`["test", "tests", "main"]`), and the call as `calls_in` gives it (name, source, version).
fn test_module_calls(
    root: &Path,
    test_dir: &str,
) -> Vec<(Vec<String>, (String, String, Option<String>))> {
    let mut out = Vec::new();
    for name in crate::test::test_file_names(root, test_dir) {
        let Ok(text) = std::fs::read_to_string(root.join(&name)) else {
            continue;
        };
        let json = name.ends_with(".json");
        let file = ferro_test::parse_test_file(&name, ferro_diag::FileId(u32::MAX), &text, json);
        for run in &file.runs {
            let Some((source, _)) = &run.module else {
                continue;
            };
            if is_local_source(source) {
                continue;
            }
            let key = ferro_test::test_module_key(&name, &run.name);
            let mut path: Vec<String> = key.split('.').map(str::to_string).collect();
            path.pop();
            out.push((
                path,
                (run.name.clone(), source.clone(), run.module_version.clone()),
            ));
        }
    }
    out
}

/// The module calls of the configuration files in `dir`: name, source, version. Override files
/// (`override.tf`, `*_override.tf`) come after the others and change the `source` and `version`
/// of the calls they name, as Terraform merges them.
/// A call whose source or version is not a literal takes them from `statics` (evaluated
/// early, by module key; `path` is the calling module's), and is left out when they are not
/// there (its problem was reported, or its module was not installed when it was evaluated).
fn calls_in(
    dir: &Path,
    path: &[String],
    statics: &BTreeMap<String, StaticSource>,
) -> Vec<(String, String, Option<String>)> {
    let Ok(mut files) = crate::load::read_config_files(dir) else {
        return Vec::new();
    };
    files.sort_by_key(|(name, _)| ferro_db::is_override_path(name));
    let mut calls: BTreeMap<String, (Option<String>, Option<String>)> = BTreeMap::new();
    let mut early: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for (i, (name, text)) in files.iter().enumerate() {
        let id = ferro_diag::FileId(i as u32);
        let parsed = if ferro_db::is_json_path(name) {
            ferro_syntax::parse_json_file(id, text)
        } else {
            ferro_syntax::parse_file(id, text)
        };
        let hir = ferro_hir::lower_file(id, &parsed.body);
        let overriding = ferro_db::is_override_path(name);
        for c in &hir.module_calls {
            if c.source_expr.is_some() || c.version_expr.is_some() {
                early.insert(c.name.clone());
            }
            let source = c.source.as_ref().map(|(s, _)| s.clone());
            match calls.get_mut(&c.name) {
                Some(base) if overriding => {
                    if source.is_some() {
                        base.0 = source;
                    }
                    if c.version.is_some() {
                        base.1 = c.version.clone();
                    }
                }
                Some(_) => {}
                None if overriding => {}
                None => {
                    calls.insert(c.name.clone(), (source, c.version.clone()));
                }
            }
        }
    }
    let mut out: Vec<(String, String, Option<String>)> = calls
        .into_iter()
        .filter_map(|(name, (source, version))| {
            if early.contains(&name) {
                let mut key = path.to_vec();
                key.push(name.clone());
                let st = statics.get(&key.join("."))?;
                return Some((name, st.source.clone(), st.version.clone()));
            }
            Some((name, source?, version))
        })
        .collect();
    out.sort();
    out.reverse();
    out
}

/// Whether a recorded registry version still satisfies the call's constraints.
fn version_allows(recorded: Option<&str>, constraint: Option<&str>) -> bool {
    let (Some(v), Some(c)) = (recorded, constraint) else {
        return true;
    };
    match (Version::parse(v), Constraints::parse(c)) {
        (Ok(v), Ok(c)) => c.allows(&v),
        _ => false,
    }
}

/// Write `modules.json` as Terraform does (compact; `Key`, `Source`, `Version`, `Dir`).
pub(crate) fn write_manifest(root: &Path, modules: &[Installed]) -> Result<(), String> {
    let entries: Vec<serde_json::Value> = modules
        .iter()
        .map(|m| {
            let mut o = serde_json::Map::new();
            o.insert("Key".into(), m.key.clone().into());
            o.insert("Source".into(), m.source.clone().into());
            if let Some(v) = &m.version {
                o.insert("Version".into(), v.clone().into());
            }
            o.insert("Dir".into(), m.dir.clone().into());
            serde_json::Value::Object(o)
        })
        .collect();
    let mut doc = serde_json::Map::new();
    doc.insert("Modules".into(), serde_json::Value::Array(entries));
    let path = root.join(MANIFEST);
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p).map_err(|e| e.to_string())?;
    }
    std::fs::write(&path, serde_json::Value::Object(doc).to_string()).map_err(|e| e.to_string())
}
