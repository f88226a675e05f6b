//! `templatefile` and `templatestring`: a template's text parsed as a heredoc and evaluated
//! with only its variables in scope.

use super::*;

/// The scope of a `templatefile` template: only its variables (bound as plain names) exist.
struct TemplateScope<'a> {
    base: &'a Path,
    on_read: &'a dyn Fn(&Path),
}

impl Scope for TemplateScope<'_> {
    fn reference(&self, r: &Reference) -> Result<Value, Diagnostic> {
        Err(Diagnostic::error("invalid-template-reference", "Invalid reference")
            .with_detail(format!("A template can only refer to the variables passed to templatefile; {r} is not available here.")))
    }
    fn base_dir(&self) -> &Path {
        self.base
    }
    fn file_read(&self, path: &Path) {
        (self.on_read)(path)
    }
}

/// Render the text of a template file with `vars` bound (the body of `templatefile`).
/// The first name (in source order) a template refers to that is not one of its variables:
/// a reference the lowering classified, or a bare name it refused.
fn first_unbound_name(hir: &ferro_hir::FileHir, text: &str) -> Option<(ferro_diag::Span, String)> {
    let refs = hir
        .exprs
        .iter()
        .filter(|(_, e)| matches!(e, ferro_hir::Expr::Ref(_)))
        .filter_map(|(id, _)| hir.span(id));
    let refused = hir
        .diagnostics()
        .iter()
        .filter(|d| d.code == "invalid-reference")
        .filter_map(|d| d.span);
    let span = refs.chain(refused).min_by_key(|s| s.start)?;
    let rest = text.get(span.start as usize..)?;
    let len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    Some((span, rest[..len].to_string()))
}

pub(crate) fn eval_template_text(
    ctx: &FnContext<'_>,
    name: &str,
    text: &str,
    vars: Vec<(String, Value)>,
) -> functions::R<Value> {
    // A template file is the body of a heredoc: wrap it in one with a marker the text lacks.
    let mut marker = String::from("FERRO_TEMPLATE_END");
    while text.lines().any(|l| l.trim() == marker) {
        marker.push('_');
    }
    let (wrapped, strip_newline) = if text.ends_with('\n') || text.is_empty() {
        (format!("<<{marker}\n{text}{marker}\n"), false)
    } else {
        (format!("<<{marker}\n{text}\n{marker}\n"), true)
    };
    let file = FileId(u32::MAX);
    let (ast, ds) = ferro_syntax::parse_expr(file, &wrapped);
    if let Some(d) = ds.first() {
        return Err(functions::fail(format!(
            "failed to parse template {name}: {}",
            d.summary
        )));
    }
    let names: Vec<String> = vars.iter().map(|(k, _)| k.clone()).collect();
    let (hir, id) = ferro_hir::lower_expr_with_vars(file, &ast, &names);
    // As Terraform checks before evaluating: every name the template uses must be in `vars`.
    if let Some((span, root)) = first_unbound_name(&hir, &wrapped) {
        let prefix = marker.len() as u32 + 3;
        let span = ferro_diag::Span {
            file,
            start: span.start.saturating_sub(prefix),
            end: span.end.saturating_sub(prefix),
        };
        return Err(functions::arg_err(
            1,
            format!(
                "vars map does not contain key {root:?}, referenced at {}",
                ferro_diag::hcl_range(name, text, span)
            ),
        ));
    }
    if let Some(d) = hir.diagnostics().first() {
        return Err(functions::fail(format!(
            "{name}: {}: {}",
            d.summary,
            d.detail.clone()
        )));
    }
    let scope = TemplateScope {
        base: ctx.base_dir,
        on_read: ctx.on_read,
    };
    let mut ev = Evaluator {
        tree: &hir.tree,
        map: Some(&hir.map),
        scope: &scope,
        bindings: vars,
        splat: Vec::new(),
        diags: Vec::new(),
        depth: ctx.depth + 1,
    };
    let v = ev.eval(id);
    if let Some(d) = ev.diags.first() {
        return Err(functions::fail(format!(
            "{name}: {}; {}",
            d.summary,
            d.detail.clone()
        )));
    }
    if strip_newline {
        if let Some(text) = v.as_str() {
            return Ok(Value::string(text.strip_suffix('\n').unwrap_or(text)).with_marks(v.marks));
        }
    }
    Ok(v)
}
