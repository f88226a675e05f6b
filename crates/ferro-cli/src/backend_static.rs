//! A `backend` block whose arguments are not all literal values, evaluated early as OpenTofu
//! 1.8 does: from the run's variables (`-var`, `-var-file`, `TF_VAR_*`, the tfvars files),
//! locals, `path.*` and `terraform.workspace`. Anything else is "Dynamic value in static
//! context"; a sensitive value is OpenTofu's "Backend config contains sensitive values" (the
//! evaluated configuration is written to `.terraform/terraform.tfstate`).

use crate::backend::Lit;
use crate::static_eval::Statics;
use ferro_diag::{has_errors, Diagnostic};
use ferro_syntax::ast;
use ferro_value::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// Why a backend block could not be read.
pub(crate) enum ConfigError {
    /// A problem without a source range: its summary and detail.
    Plain(String, String),
    /// Diagnostics at the configuration's ranges, and the files to render them with.
    Diags(Vec<Diagnostic>, ferro_db::Sources),
}

impl ConfigError {
    pub(crate) fn invalid(detail: String) -> ConfigError {
        ConfigError::Plain("Invalid backend configuration".into(), detail)
    }

    /// Print the problem; the exit code.
    pub(crate) fn report(self, io: &mut crate::Io<'_>, color: bool) -> i32 {
        match self {
            ConfigError::Plain(summary, detail) => crate::ui::plain_error(io, &summary, &detail),
            ConfigError::Diags(diags, sources) => {
                crate::ui::print_diags(io, &diags, &sources, color);
                1
            }
        }
    }

    /// The problem as one text (for a command that reports errors as text).
    pub(crate) fn text(self) -> String {
        match self {
            ConfigError::Plain(summary, detail) => format!("{summary}: {detail}"),
            ConfigError::Diags(diags, sources) => ferro_diag::render(&diags, &sources, false),
        }
    }
}

/// The arguments of the root module's backend block of type `ty`, evaluated early (null ones
/// left out, as unset).
pub(crate) fn evaluated_attrs(dir: &Path, ty: &str) -> Result<BTreeMap<String, Lit>, ConfigError> {
    let mut l = crate::load::load_dir(dir)
        .map_err(|e| ConfigError::Plain("Failed to read configuration".into(), e))?;
    // The command reports the variables' own problems where it reads them.
    let args = crate::encryption::run_args();
    let vars =
        crate::load::collect_variables(&mut l, dir, &crate::ui::var_args(&args), &mut Vec::new());
    let workspace = ferro_state::workspace::current_workspace(dir);
    let statics = Statics::new(&l, &vars, dir, &workspace)
        .for_purpose("backend-not-static", "the backend configuration");
    let mut diags = Vec::new();
    let mut out = BTreeMap::new();
    for file in l.ws.files(&l.db).clone() {
        let parsed = ferro_db::parse(&l.db, file);
        for b in backend_blocks(&parsed.body) {
            if b.labels.first().map(|l| l.value.as_str()) != Some(ty) {
                continue;
            }
            let mut sensitive = false;
            for item in &b.body.items {
                let ast::BodyItem::Attribute(a) = item else {
                    continue;
                };
                let name = a.name.name.to_string();
                let subject = format!("backend.{ty}.{name}");
                let Some(v) = statics.ast_value(&a.expr, &subject, &mut diags) else {
                    continue;
                };
                sensitive |= v.is_sensitive() || v.contains_sensitive();
                let (v, _) = v.deep_unmark();
                if v.is_null() {
                    continue;
                }
                match lit(&v) {
                    Some(x) => {
                        out.insert(name, x);
                    }
                    None => diags.push(
                        Diagnostic::error("backend-not-static", "Unsuitable value type")
                            .with_detail(format!("Unsuitable value for {subject}: a string, number, bool, list or map is required."))
                            .with_span(a.expr.span),
                    ),
                }
            }
            if sensitive {
                diags.push(
                    Diagnostic::error("backend-sensitive", "Backend config contains sensitive values")
                        .with_detail("The backend configuration is stored in .terraform/terraform.tfstate as well as plan files. It is recommended to instead supply sensitive credentials via backend specific environment variables")
                        .with_span(b.ty.span),
                );
            }
            if has_errors(&diags) {
                return Err(ConfigError::Diags(diags, l.sources()));
            }
            return Ok(out);
        }
    }
    Ok(out)
}

/// The `backend` blocks of a file's `terraform` blocks.
fn backend_blocks(body: &ast::Body) -> impl Iterator<Item = &ast::Block> {
    body.items
        .iter()
        .filter_map(|i| match i {
            ast::BodyItem::Block(tf) if tf.ty.name == "terraform" => Some(tf),
            _ => None,
        })
        .flat_map(|tf| tf.body.items.iter())
        .filter_map(|i| match i {
            ast::BodyItem::Block(b) if b.ty.name == "backend" => Some(b),
            _ => None,
        })
}

/// A known value as a backend argument.
fn lit(v: &Value) -> Option<Lit> {
    if let Some(s) = v.as_str() {
        return Some(Lit::Str(s.to_string()));
    }
    if let Some(b) = v.as_bool() {
        return Some(Lit::Bool(b));
    }
    if let Some(n) = v.as_number() {
        return Some(Lit::Num(n.to_string()));
    }
    if let Some(entries) = v.as_entries() {
        return entries
            .iter()
            .map(|(k, x)| Some((k.to_string(), lit(x)?)))
            .collect::<Option<BTreeMap<_, _>>>()
            .map(Lit::Map);
    }
    if let Some(items) = v.as_elements() {
        return items
            .iter()
            .map(lit)
            .collect::<Option<Vec<_>>>()
            .map(Lit::List);
    }
    None
}
