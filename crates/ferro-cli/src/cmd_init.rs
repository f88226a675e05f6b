//! `ferro init`: install the providers the configuration (and state) needs from the configured
//! installation methods into `.terraform/providers/`, and write `.terraform.lock.hcl`, with
//! Terraform's messages.

use crate::load::read_state;
use crate::{Global, Io};
use ferro_addrs::Provider as ProviderAddr;
use ferro_db::{file_hir, module_index};
use ferro_diag::Diagnostic;
use ferro_provider::install::cliconfig::CliConfig;
use ferro_provider::install::lock::{LockFile, LOCK_FILE_NAME};
use ferro_provider::install::version::Constraints;
use ferro_provider::install::{display_addr, InstallEvent, Installer, Requirement};
use std::collections::BTreeMap;

pub(crate) fn init(g: &Global, a: &[String], io: &mut Io<'_>) -> i32 {
    let p = match crate::spec::core::INIT.parse(a) {
        Ok(p) => p,
        Err(e) => return error(io, "Invalid arguments", &e),
    };
    // Terraform 1.0 takes no directory here any more (`-chdir` replaced it).
    if !p.positional.is_empty() {
        let _ = writeln!(
            io.stderr,
            "Too many command line arguments. Did you mean to use -chdir?"
        );
        return 1;
    }
    // The root module must load before anything is installed; only its own problems count
    // here, as in Terraform (the modules it calls may not be there yet).
    let early = match crate::load::load_dir_installing(&g.dir) {
        Ok(l) => l,
        Err(e) => return error(io, "Failed to read configuration", &e),
    };
    let mut root_diags = Vec::new();
    crate::load::root_load_diagnostics(&early, &mut root_diags);
    if root_diags.iter().any(Diagnostic::is_error) {
        return config_problems(io, &root_diags, &early, g.color);
    }
    drop(early);
    // Modules first: the configuration is only complete once they are in place. `-get=false`
    // leaves them as they are.
    let header = if p.flag("upgrade") {
        "Upgrading modules..."
    } else {
        "Initializing modules..."
    };
    if p.bools.get("get") != Some(&false) {
        let tests = p.value("test-directory").unwrap_or("tests");
        if let Err(code) =
            crate::init_modules::install_step(g, io, p.flag("upgrade"), tests, Some(header))
        {
            return code;
        }
    }
    let l = match crate::load::load_dir_installing(&g.dir) {
        Ok(l) => l,
        Err(e) => return error(io, "Failed to read configuration", &e),
    };
    // The configuration is checked as Terraform's init loads it; its warnings are shown before
    // the closing message.
    let mut config_diags = Vec::new();
    crate::load::load_config_diagnostics(&l, &mut config_diags);
    if config_diags.iter().any(Diagnostic::is_error) {
        return config_problems(io, &config_diags, &l, g.color);
    }
    let mut state = read_state(&g.dir.join("terraform.tfstate")).ok().flatten();
    if let Some(s) = state.as_mut() {
        crate::load::adopt_default_registry(&l, s);
    }

    // Requirements: required_providers entries (source + version), providers that provider
    // blocks and resources imply, of every module, and providers recorded in state.
    let (mut reqs, errors) = configuration_requirements(&l);
    if let Some(st) = &state {
        for r in st.resources.values() {
            reqs.entry(r.provider.provider.clone()).or_default();
        }
    }
    if !errors.is_empty() {
        let text = ferro_diag::render(&errors, &l.sources(), g.color);
        let _ = io.stderr.write_all(text.as_bytes());
        return 1;
    }
    let reqs: Vec<Requirement> = reqs
        .into_iter()
        .filter(|(a, _)| !a.is_builtin())
        .map(|(addr, constraints)| Requirement { addr, constraints })
        .collect();

    // `-backend=false` leaves the backend as it is, without a word.
    if p.bools.get("backend") != Some(&false) {
        let _ = writeln!(io.stdout, "\nInitializing the backend...");
        if let Err(code) = crate::init_backend::init_backend(g, &p, io) {
            return code;
        }
    }
    let cli = match CliConfig::load() {
        Ok(c) => c,
        Err(e) => return error(io, "Invalid CLI configuration", &e),
    };
    let old_lock = match LockFile::load(&g.dir) {
        Ok(l) => l,
        Err(e) => return error(io, "Failed to read the dependency lock file", &e),
    };
    let lock_existed = g.dir.join(LOCK_FILE_NAME).exists();
    let mut installer = Installer::new(&g.dir, &cli);
    installer.upgrade = p.flag("upgrade");
    if !reqs.is_empty() {
        let _ = writeln!(io.stdout, "\nInitializing provider plugins...");
    }
    let mut overrides = Vec::new();
    let mut third_party_signed = false;
    let result = installer.install(&reqs, &old_lock, &mut |e| {
        let line = match e {
            InstallEvent::Finding { addr, constraints } if constraints.is_empty() => {
                format!("- Finding latest version of {}...", display_addr(&addr))
            }
            InstallEvent::Finding { addr, constraints } => format!(
                "- Finding {} versions matching \"{constraints}\"...",
                display_addr(&addr)
            ),
            InstallEvent::ReusingLocked { addr } => format!(
                "- Reusing previous version of {} from the dependency lock file",
                display_addr(&addr)
            ),
            InstallEvent::UsingInstalled { addr, version } => format!(
                "- Using previously-installed {} v{version}",
                display_addr(&addr)
            ),
            InstallEvent::Installing { addr, version } => {
                format!("- Installing {} v{version}...", display_addr(&addr))
            }
            InstallEvent::Installed {
                addr,
                version,
                auth,
            } => {
                third_party_signed |= auth.third_party();
                format!(
                    "- Installed {} v{version} ({})",
                    display_addr(&addr),
                    auth.describe()
                )
            }
            InstallEvent::LinkedFromCache { addr, version } => format!(
                "- Using {} v{version} from the shared cache directory",
                display_addr(&addr)
            ),
            InstallEvent::Builtin { addr } => format!(
                "- Using ferro's built-in {} (no plugin package installed)",
                display_addr(&addr)
            ),
            InstallEvent::DevOverride { addr, dir } => {
                overrides.push(format!(" - {} in {}", display_addr(&addr), dir.display()));
                return;
            }
        };
        let _ = writeln!(io.stdout, "{line}");
    });
    if third_party_signed {
        let _ = io.stdout.write_all(
            b"\nPartner and community providers are signed by their developers.\nIf you'd like to know more about provider signing, you can read about it here:\nhttps://www.terraform.io/docs/cli/plugins/signing.html\n",
        );
    }
    if !overrides.is_empty() {
        let d = Diagnostic::warning("dev-overrides", "Provider development overrides are in effect").with_detail(format!(
            "The following provider development overrides are set in the CLI configuration:\n{}\n\nSkip ferro init when using provider development overrides. It is not necessary and may error unexpectedly.",
            overrides.join("\n")
        ));
        let text = ferro_diag::render(&[d], &l.sources(), g.color);
        let _ = io.stdout.write_all(text.as_bytes());
    }
    let new_lock = match result {
        Ok(lock) => lock,
        Err(errs) => {
            let diags: Vec<Diagnostic> = errs
                .into_iter()
                .map(|e| Diagnostic::error("provider-install", e.summary).with_detail(e.detail))
                .collect();
            let text = ferro_diag::render(&diags, &l.sources(), g.color);
            let _ = io.stderr.write_all(text.as_bytes());
            return 1;
        }
    };
    if new_lock != old_lock || (!lock_existed && !new_lock.providers.is_empty()) {
        // `-lockfile=readonly` (the only mode Terraform 1.0 knows; it ignores other values).
        if p.value("lockfile") == Some("readonly") {
            return error(
                io,
                "Provider dependency changes detected",
                "Changes to the required provider dependencies were detected, but the lock file is read-only. To use and record these requirements, run \"ferro init\" without the \"-lockfile=readonly\" flag.",
            );
        }
        if let Err(e) = new_lock.save(&g.dir) {
            return error(io, "Failed to write the dependency lock file", &e);
        }
        if !lock_existed {
            let _ = io.stdout.write_all(
                b"\nferro has created a lock file .terraform.lock.hcl to record the provider\nselections it made above. Include this file in your version control repository\nso that ferro can guarantee to make the same selections by default when\nyou run \"ferro init\" in the future.\n",
            );
        } else {
            let _ = io.stdout.write_all(
                b"\nferro has made some changes to the provider dependency selections recorded\nin the .terraform.lock.hcl file. Review those changes and commit them to your\nversion control system if they represent changes you intended to make.\n",
            );
        }
    }
    // The language server reads provider schemas from this cache; it never starts providers.
    let addrs: Vec<ProviderAddr> = reqs.iter().map(|r| r.addr.clone()).collect();
    if !addrs.is_empty() {
        let registry = ferro_provider::ProviderRegistry::for_working_dir(&g.dir);
        let _ = ferro_workspace::schemas::write_cache(&g.dir, &registry, &addrs);
    }
    if !config_diags.is_empty() {
        let _ = io.stdout.write_all(b"\n");
        crate::ui::print_warnings(io, &config_diags, &l.sources(), g.color);
    }
    let _ = io
        .stdout
        .write_all(b"\nferro has been successfully initialized!\n");
    if !crate::env::in_automation() {
        let _ = io.stdout.write_all(
            b"\nYou may now begin working with ferro. Try running \"ferro plan\" to see\nany changes that are required for your infrastructure. All ferro commands\nshould now work.\n\nIf you ever set or change modules or backend configuration for ferro,\nrerun this command to reinitialize your working directory. If you forget, other\ncommands will detect it and remind you to do so if necessary.\n",
        );
    }
    0
}

/// The configuration's errors, under the heading Terraform's `init` gives them.
fn config_problems(
    io: &mut Io<'_>,
    diags: &[Diagnostic],
    l: &crate::load::Loaded,
    color: bool,
) -> i32 {
    if !crate::json_ui::active() {
        let _ = io.stderr.write_all(
            b"There are some problems with the configuration, described below.\n\nThe configuration must be valid before initialization so that\nferro can determine which modules and providers need to be installed.\n\n",
        );
    }
    crate::ui::print_diags(io, diags, &l.sources(), color);
    1
}

fn error(io: &mut Io<'_>, summary: &str, detail: &str) -> i32 {
    let d = Diagnostic::error("cli", summary).with_detail(detail);
    let text = ferro_diag::render(&[d], &ferro_db::Sources::from_files(Vec::new()), false);
    let _ = io.stderr.write_all(text.as_bytes());
    1
}

/// The providers one module requires: its `required_providers` entries (source and version
/// constraints), and the providers its provider blocks and resources imply (no constraints),
/// with the diagnostics of entries that cannot be read.
/// What every module of the configuration requires, constraints merged per provider, and the
/// problems found reading the requirements.
pub(crate) fn configuration_requirements(
    l: &crate::load::Loaded,
) -> (BTreeMap<ProviderAddr, Constraints>, Vec<Diagnostic>) {
    let mut reqs: BTreeMap<ProviderAddr, Constraints> = BTreeMap::new();
    let mut errors = Vec::new();
    for module in l.ws.modules(&l.db) {
        let (module_reqs, module_errors) = module_requirements(&l.db, module);
        for (addr, constraints) in module_reqs {
            reqs.entry(addr).or_default().merge(&constraints);
        }
        errors.extend(module_errors);
    }
    (reqs, errors)
}

pub(crate) fn module_requirements(
    db: &dyn ferro_db::Db,
    module: ferro_db::Module,
) -> (BTreeMap<ProviderAddr, Constraints>, Vec<Diagnostic>) {
    let mut reqs: BTreeMap<ProviderAddr, Constraints> = BTreeMap::new();
    let mut errors = Vec::new();
    let index = module_index(db, module);
    let mut sources: BTreeMap<String, ProviderAddr> = BTreeMap::new();
    let host = ferro_db::default_registry(db);
    for (local, item) in &index.required_providers {
        let hir = file_hir(db, item.file);
        let rp = &hir.required_providers[item.index];
        let addr = match &rp.source {
            Some(src) => match ProviderAddr::parse_source_in(src, host) {
                Ok(a) => a,
                Err(e) => {
                    errors.push(
                        Diagnostic::error(
                            "invalid-provider-source",
                            "Invalid provider source address",
                        )
                        .with_detail(e)
                        .with_span(hir.at(rp.span)),
                    );
                    continue;
                }
            },
            None => ProviderAddr::default_in(local, host),
        };
        let constraints = match rp.version.as_deref().map(Constraints::parse).transpose() {
            Ok(c) => c.unwrap_or_default(),
            Err(e) => {
                errors.push(
                    Diagnostic::error("invalid-version-constraint", "Invalid version constraint")
                        .with_detail(e)
                        .with_span(hir.at(rp.span)),
                );
                continue;
            }
        };
        sources.insert(local.clone(), addr.clone());
        reqs.entry(addr).or_default().merge(&constraints);
    }
    let implied = |local: &str| {
        sources
            .get(local)
            .cloned()
            .unwrap_or_else(|| ProviderAddr::default_in(local, host))
    };
    for (name, _) in index.providers.keys() {
        reqs.entry(implied(name)).or_default();
    }
    for item in index.resources.values() {
        let decl = &file_hir(db, item.file).resources[item.index];
        reqs.entry(implied(decl.provider_ref().0)).or_default();
    }
    (reqs, errors)
}
