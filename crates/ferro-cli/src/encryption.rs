//! State and plan encryption for a command: the root module's `terraform { encryption {…} }`
//! and the `TF_ENCRYPTION` environment variable (HCL or JSON), merged as OpenTofu merges them,
//! checked (diagnostics at the source range), evaluated statically (variables, locals, `path`
//! and `terraform.workspace`; anything else is OpenTofu's "Dynamic value in static context")
//! and turned into `ferro_state::encryption`'s model. Done once per run and kept for the
//! thread, so the state, its journal and saved plans share one set of keys.

use crate::{Global, Io};
use ferro_diag::{has_errors, Diagnostic, Span};
use ferro_hir::encryption::{
    pbkdf2_value_problem, read_encryption, three_part_reference, unsupported_key_provider_detail,
    EncryptionSyntax, Labelled, Target, UNSUPPORTED_KEY_PROVIDER_TYPES,
};
use ferro_state::encryption::{
    Config, Encryption, ExternalConfig, HashFunction, KeyProviderConfig, KeyProviderKind,
    MethodConfig, MethodKind, Pbkdf2Config, TargetEncryption,
};
use ferro_syntax::ast;
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::Arc;

thread_local! {
    /// The run's command arguments (for `-var`/`-var-file`) and the encryption found.
    static RUN: RefCell<(Vec<String>, Option<(PathBuf, Option<Arc<Encryption>>)>)> =
        const { RefCell::new((Vec::new(), None)) };
}

/// A new run in `dir` begins: forget the last one's encryption; `args` are the command's
/// arguments.
pub(crate) fn begin_run(dir: &std::path::Path, args: &[String]) {
    RUN.with(|r| *r.borrow_mut() = (args.to_vec(), None));
    ferro_state::encryption::set_run_encryption(dir, None);
}

/// The run's command arguments (for `-var` and `-var-file`), for what else is evaluated
/// before planning (module sources).
pub(crate) fn run_args() -> Vec<String> {
    RUN.with(|r| r.borrow().0.clone())
}

/// The encryption configured for the working directory (None: none), or the exit code after
/// its diagnostics were printed.
pub(crate) fn configured(g: &Global, io: &mut Io<'_>) -> Result<Option<Arc<Encryption>>, i32> {
    if let Some((dir, enc)) = RUN.with(|r| r.borrow().1.clone()) {
        if dir == g.dir {
            return Ok(enc);
        }
    }
    let args = RUN.with(|r| r.borrow().0.clone());
    let enc = load(g, &args, io)?;
    RUN.with(|r| r.borrow_mut().1 = Some((g.dir.clone(), enc.clone())));
    ferro_state::encryption::set_run_encryption(&g.dir, enc.clone());
    Ok(enc)
}

/// The state's encryption, its writing keys ready (a command that may write the state must
/// be able to, whatever happens later).
pub(crate) fn for_state(g: &Global, io: &mut Io<'_>) -> Result<Option<Arc<TargetEncryption>>, i32> {
    let Some(enc) = configured(g, io)? else {
        return Ok(None);
    };
    let Some(state) = enc.state.clone() else {
        return Ok(None);
    };
    if let Err(e) = state.prepare() {
        return Err(crate::ui::plain_error(
            io,
            "Unable to set up the state encryption",
            &e.0,
        ));
    }
    Ok(Some(state))
}

/// [`for_state`] for a command that reports errors as text (`console`): the diagnostics,
/// rendered, are the error.
pub(crate) fn for_state_quiet(g: &Global) -> Result<Option<Arc<TargetEncryption>>, String> {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut io = Io {
        stdout: &mut out,
        stderr: &mut err,
        stdin: None,
    };
    match for_state(g, &mut io) {
        Ok(enc) => Ok(enc),
        Err(_) => Err(String::from_utf8_lossy(&err).into_owned()),
    }
}

/// The saved plans' encryption.
pub(crate) fn for_plan(g: &Global, io: &mut Io<'_>) -> Result<Option<Arc<TargetEncryption>>, i32> {
    Ok(configured(g, io)?.and_then(|e| e.plan.clone()))
}

/// Whether the configuration of `g.dir` or the environment mentions encryption at all (a
/// cheap look before the configuration is loaded for it).
fn mentioned(g: &Global) -> bool {
    if crate::env::var("TF_ENCRYPTION").is_some_and(|v| !v.trim().is_empty()) {
        return true;
    }
    crate::load::read_config_files(&g.dir)
        .map(|files| files.iter().any(|(_, t)| t.contains("encryption")))
        .unwrap_or(false)
}

fn load(g: &Global, args: &[String], io: &mut Io<'_>) -> Result<Option<Arc<Encryption>>, i32> {
    if !mentioned(g) {
        return Ok(None);
    }
    let mut l = match crate::load::load_dir(&g.dir) {
        Ok(l) => l,
        Err(e) => {
            return Err(crate::ui::plain_error(
                io,
                "Failed to read configuration",
                &e,
            ))
        }
    };
    let mut diags = Vec::new();
    let mut syntax: Option<EncryptionSyntax> = None;
    for file in l.ws.files(&l.db).clone() {
        let parsed = ferro_db::parse(&l.db, file);
        for item in &parsed.body.items {
            let ast::BodyItem::Block(tf) = item else {
                continue;
            };
            if tf.ty.name != "terraform" {
                continue;
            }
            for inner in &tf.body.items {
                if let ast::BodyItem::Block(b) = inner {
                    if b.ty.name == "encryption" {
                        let (s, ds) = read_encryption(&b.body, b.ty.span);
                        diags.extend(ds);
                        if let Some(prev) = &syntax {
                            diags.push(
                                Diagnostic::error(
                                    "encryption-duplicate",
                                    "Duplicate encryption configuration",
                                )
                                .with_detail("A module may have only one encryption configuration.")
                                .with_span(b.ty.span)
                                .with_label(prev.span, "previously configured here"),
                            );
                        }
                        syntax = Some(s);
                    }
                }
            }
        }
    }
    if let Some(text) = crate::env::var("TF_ENCRYPTION").filter(|t| !t.trim().is_empty()) {
        let file = l.add_source("TF_ENCRYPTION".into(), text.clone());
        let parsed = if text.trim_start().starts_with('{') {
            ferro_syntax::parse_json_encryption(file, &text)
        } else {
            ferro_syntax::parse_file(file, &text)
        };
        diags.extend(parsed.diagnostics.iter().cloned());
        let (s, ds) = read_encryption(&parsed.body, Span::new(file, 0..0));
        diags.extend(ds);
        syntax = Some(match syntax {
            Some(base) => base.merge(s),
            None => s,
        });
    }
    let Some(syntax) = syntax else {
        return Ok(None);
    };
    let report = |io: &mut Io<'_>, diags: &[Diagnostic], l: &crate::load::Loaded| {
        crate::ui::print_diags(io, diags, &l.sources(), g.color);
        1
    };
    if has_errors(&diags) {
        return Err(report(io, &diags, &l));
    }
    let vars =
        crate::load::collect_variables(&mut l, &g.dir, &crate::ui::var_args(args), &mut diags);
    if has_errors(&diags) {
        return Err(report(io, &diags, &l));
    }
    let workspace = ferro_state::workspace::current_workspace(&g.dir);
    let statics = crate::static_eval::Statics::new(&l, &vars, &g.dir, &workspace);
    let built = build(&syntax, &statics, &mut diags);
    if has_errors(&diags) {
        return Err(report(io, &diags, &l));
    }
    // Warnings (the unencrypted method) are shown once, on standard error: the command's
    // output may be the state itself (`state pull`).
    let warnings: Vec<Diagnostic> = diags.into_iter().filter(|d| !d.is_error()).collect();
    if !warnings.is_empty() {
        crate::ui::print_warnings_stderr(io, &warnings, &l.sources(), g.color);
    }
    Ok(built.map(Arc::new))
}

/// The model of `syntax`, its values evaluated; problems go to `diags`.
fn build(
    syntax: &EncryptionSyntax,
    statics: &crate::static_eval::Statics<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Encryption> {
    let mut config = Config::default();
    for kp in &syntax.key_providers {
        if let Some(k) = key_provider(kp, syntax, statics, diags) {
            config.key_providers.push(k);
        }
    }
    for m in &syntax.methods {
        if let Some(m) = method(m, syntax, statics, diags) {
            config.methods.push(m);
        }
        if m.ty == "unencrypted" {
            diags.push(
                Diagnostic::warning("encryption-unencrypted", "Unencrypted method configured")
                    .with_detail("Method unencrypted is present in configuration. This is a security risk and should only be enabled during migrations.")
                    .with_span(syntax.span),
            );
        }
    }
    let config = Arc::new(config);
    let mut target = |t: &Option<Target>, name: &str, enforceable: bool| {
        t.as_ref()
            .and_then(|t| target_methods(t, name, enforceable, syntax, &config, statics, diags))
            .map(|methods| Arc::new(TargetEncryption::new(name, config.clone(), methods)))
    };
    let state = target(&syntax.state, "state", true);
    let plan = target(&syntax.plan, "plan", true);
    let remote_default = target(&syntax.remote_default, "remote.default", false);
    let mut remotes = std::collections::BTreeMap::new();
    for (name, t) in &syntax.remotes {
        let label = format!("remote.remote_state_datasource.{name}");
        if let Some(t) = target(&Some(t.clone()), &label, false) {
            remotes.insert(name.clone(), t);
        }
    }
    if has_errors(diags) {
        return None;
    }
    Some(Encryption {
        state,
        plan,
        remote_default,
        remotes,
    })
}

fn error(code: &str, summary: &str, detail: impl Into<String>, span: Span) -> Diagnostic {
    Diagnostic::error(code, summary)
        .with_detail(detail)
        .with_span(span)
}

/// `key_provider.TYPE.NAME` of `e`, declared.
fn key_provider_ref(
    e: &ast::Expr,
    syntax: &EncryptionSyntax,
    diags: &mut Vec<Diagnostic>,
) -> Option<(String, String)> {
    let (_, ty, name) = three_part_reference(e)?;
    if !syntax
        .key_providers
        .iter()
        .any(|k| k.ty == ty && k.name == name)
    {
        diags.push(error(
            "encryption-reference",
            "Reference to undeclared key provider",
            format!(
                "There is no key_provider {ty:?} {name:?} block declared in the encryption block."
            ),
            e.span,
        ));
        return None;
    }
    Some((ty, name))
}

fn key_provider(
    kp: &Labelled,
    syntax: &EncryptionSyntax,
    statics: &crate::static_eval::Statics<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<KeyProviderConfig> {
    let subject = format!("encryption.key_provider.{}.{}", kp.ty, kp.name);
    let problem = |diags: &mut Vec<Diagnostic>, span: Span, msg: String| {
        diags.push(error(
            "encryption-invalid-key-provider",
            "Unable to build encryption key data",
            format!(
                "key_provider.{}.{} failed with error: {msg}",
                kp.ty, kp.name
            ),
            span,
        ));
    };
    let metadata_alias = match kp.attr("encrypted_metadata_alias") {
        Some(a) => Some(statics.string(&a.expr, &subject, diags)?),
        None => None,
    };
    let kind = match kp.ty.as_str() {
        "pbkdf2" => {
            let mut c = Pbkdf2Config {
                passphrase: None,
                chain: None,
                key_length: ferro_state::encryption::DEFAULT_KEY_LENGTH,
                iterations: ferro_state::encryption::DEFAULT_ITERATIONS,
                salt_length: ferro_state::encryption::DEFAULT_SALT_LENGTH,
                hash_function: HashFunction::Sha512,
            };
            for a in &kp.attrs {
                let name = a.name.name.as_str();
                match name {
                    "chain" => c.chain = Some(key_provider_ref(&a.expr, syntax, diags)?),
                    "passphrase" | "hash_function" => {
                        let s = statics.string(&a.expr, &subject, diags)?;
                        if let Some(p) = pbkdf2_value_problem(name, Some(&s), None) {
                            problem(diags, a.expr.span, p);
                            return None;
                        }
                        if name == "passphrase" {
                            c.passphrase = Some(s.into());
                        } else {
                            c.hash_function = HashFunction::from_name(&s)?;
                        }
                    }
                    "key_length" | "iterations" | "salt_length" => {
                        let n = statics.integer(&a.expr, &subject, diags)?;
                        if let Some(p) = pbkdf2_value_problem(name, None, Some(n as f64)) {
                            problem(diags, a.expr.span, p);
                            return None;
                        }
                        let too_big = |diags: &mut Vec<Diagnostic>| {
                            problem(diags, a.expr.span, format!("the {name} is too large"));
                        };
                        match name {
                            "iterations" => match u32::try_from(n) {
                                Ok(n) => c.iterations = n,
                                Err(_) => {
                                    too_big(diags);
                                    return None;
                                }
                            },
                            _ if n > 1 << 16 => {
                                too_big(diags);
                                return None;
                            }
                            "key_length" => c.key_length = n as usize,
                            _ => c.salt_length = n as usize,
                        }
                    }
                    _ => {}
                }
            }
            KeyProviderKind::Pbkdf2(c)
        }
        "external" => {
            let a = kp.attr("command")?;
            let command = statics.strings(&a.expr, &subject, diags)?;
            if command.is_empty() {
                problem(diags, a.expr.span, "the command option is required".into());
                return None;
            }
            // OpenTofu stops the program after a minute; FERRO_EXTERNAL_KEY_PROVIDER_TIMEOUT
            // (a Go duration) changes that.
            let timeout = match crate::env::var("FERRO_EXTERNAL_KEY_PROVIDER_TIMEOUT") {
                None => ferro_state::encryption::EXTERNAL_TIMEOUT,
                Some(t) => match ferro_state::parse_duration(&t) {
                    Ok(d) if !d.is_zero() => d,
                    _ => {
                        problem(
                            diags,
                            a.expr.span,
                            format!("FERRO_EXTERNAL_KEY_PROVIDER_TIMEOUT must be a positive duration such as \"30s\" or \"2m\", not {t:?}"),
                        );
                        return None;
                    }
                },
            };
            KeyProviderKind::External(ExternalConfig { command, timeout })
        }
        _ => return None,
    };
    Some(KeyProviderConfig {
        ty: kp.ty.clone(),
        name: kp.name.clone(),
        metadata_alias,
        kind,
    })
}

fn method(
    m: &Labelled,
    syntax: &EncryptionSyntax,
    statics: &crate::static_eval::Statics<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<MethodConfig> {
    let subject = format!("encryption.method.{}.{}", m.ty, m.name);
    let kind = match m.ty.as_str() {
        "unencrypted" => MethodKind::Unencrypted,
        "aes_gcm" => {
            let keys = key_provider_ref(&m.attr("keys")?.expr, syntax, diags)?;
            let aad = match m.attr("aad") {
                Some(a) => statics.bytes(&a.expr, &subject, diags)?,
                None => Vec::new(),
            };
            MethodKind::AesGcm { keys, aad }
        }
        _ => return None,
    };
    Some(MethodConfig {
        ty: m.ty.clone(),
        name: m.name.clone(),
        kind,
    })
}

/// The key provider of a type ferro does not implement that the provider `(ty, name)` is or
/// takes its passphrase from (`chain`), if any.
fn unsupported_key_provider<'a>(
    (ty, name): &(String, String),
    syntax: &'a EncryptionSyntax,
) -> Option<&'a Labelled> {
    let mut cur = (ty.clone(), name.clone());
    // A chain visits each provider at most once (a cycle is reported where keys are set up).
    for _ in 0..=syntax.key_providers.len() {
        let kp = syntax
            .key_providers
            .iter()
            .find(|k| k.ty == cur.0 && k.name == cur.1)?;
        if UNSUPPORTED_KEY_PROVIDER_TYPES.contains(&kp.ty.as_str()) {
            return Some(kp);
        }
        let (_, ty, name) = three_part_reference(&kp.attr("chain")?.expr)?;
        cur = (ty, name);
    }
    None
}

/// The methods of a target and its fallbacks (indexes into `config.methods`), checked: each
/// declared, and none `unencrypted` when the target is enforced.
fn target_methods(
    t: &Target,
    name: &str,
    enforceable: bool,
    syntax: &EncryptionSyntax,
    config: &Config,
    statics: &crate::static_eval::Statics<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<usize>> {
    let enforced = match (&t.enforced, enforceable) {
        (Some(e), true) => statics.boolean(e, &format!("encryption.{name}"), diags)?,
        _ => false,
    };
    let mut methods = Vec::new();
    let mut cur = Some(t);
    while let Some(t) = cur {
        if let Some(e) = &t.method {
            let (_, ty, mname) = three_part_reference(e)?;
            match config
                .methods
                .iter()
                .position(|m| m.ty == ty && m.name == mname)
            {
                Some(i) => methods.push(i),
                None => {
                    diags.push(error(
                        "encryption-reference",
                        "Reference to undeclared encryption method",
                        format!("There is no method {ty:?} {mname:?} block declared in the encryption block."),
                        e.span,
                    ));
                    return None;
                }
            }
        }
        cur = t.fallback.as_deref();
    }
    // A key provider ferro does not implement is refused once a target's method uses it
    // (directly or through `chain`), as OpenTofu only sets up what is used.
    let mut refused = false;
    for i in &methods {
        if let MethodKind::AesGcm { keys, .. } = &config.methods[*i].kind {
            if let Some(kp) = unsupported_key_provider(keys, syntax) {
                if !diags
                    .iter()
                    .any(|d| d.code == "encryption-key-provider-type" && d.span == Some(kp.span))
                {
                    diags.push(error(
                        "encryption-key-provider-type",
                        "Unsupported key_provider type",
                        format!(
                            "{} It is used by method.{}.{} of the {name} target.",
                            unsupported_key_provider_detail(&kp.ty),
                            config.methods[*i].ty,
                            config.methods[*i].name
                        ),
                        kp.span,
                    ));
                }
                refused = true;
            }
        }
    }
    if refused {
        return None;
    }
    if enforced
        && methods
            .iter()
            .any(|i| matches!(config.methods[*i].kind, MethodKind::Unencrypted))
    {
        diags.push(error(
            "encryption-enforced",
            "Unencrypted method is forbidden",
            "Unable to use unencrypted method since the enforced flag is set.",
            syntax.span,
        ));
        return None;
    }
    if methods.is_empty() {
        // `enforced = true` alone (OpenTofu's pattern for TF_ENCRYPTION): without a method
        // from the environment nothing may be written in clear.
        if enforced {
            diags.push(error(
                "encryption-enforced",
                "Encryption is enforced but no method is configured",
                format!("The {name} block sets enforced = true but names no method (nor does TF_ENCRYPTION): refusing to read or write it unencrypted."),
                t.span,
            ));
        }
        return None;
    }
    Some(methods)
}
