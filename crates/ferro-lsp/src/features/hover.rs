//! Hover: what a reference or declaration names (a variable's type, default and description; a
//! local's or output's expression; a resource's provider; a module call's source), a
//! function's signature and description, and a schema attribute's or nested block's type and
//! description.

use super::{source_of, Doc};
use crate::functions;
use crate::server::RpcError;
use ferro_db::{ModuleSymbol, SiteTarget, Symbol};
use ferro_diag::Span;
use ferro_hir::{BlockBody, Expr};
use ferro_value::schema::Block;
use serde_json::{json, Value};

fn markdown(doc: &Doc<'_>, text: String, span: Span) -> Value {
    json!({"contents": {"kind": "markdown", "value": text}, "range": doc.range(span)})
}

/// A `provider::LOCAL::NAME` call's signature and documentation, from the provider's schema.
fn provider_function_hover(doc: &Doc<'_>, name: &str) -> Option<String> {
    let rest = name.strip_prefix("provider::")?;
    let (local, func) = rest.split_once("::")?;
    let decl = doc.provider_functions(local)?.get(func)?;
    let mut text = code(&decl.signature_label(name));
    for part in [&decl.summary, &decl.description] {
        if !part.is_empty() {
            text.push_str("\n\n");
            text.push_str(part);
        }
    }
    if !decl.deprecation_message.is_empty() {
        text.push_str(&format!("\n\nDeprecated: {}", decl.deprecation_message));
    }
    Some(text)
}

fn code(s: &str) -> String {
    format!("```hcl\n{s}\n```")
}

pub fn hover(doc: &Doc<'_>, offset: u32) -> Result<Value, RpcError> {
    let db = &doc.w.db;
    if let Some(site) = ferro_db::site_at(db, doc.file, offset) {
        if let SiteTarget::ModuleSource(call) = &site.target {
            let dir = doc
                .module()
                .and_then(|m| ferro_db::called_module(db, doc.w.ws, m, call))
                .map(|c| c.dir(db).clone());
            let text = match dir {
                Some(d) => format!("Module `{call}` loads the directory `{d}`."),
                None => format!("Module `{call}`: the directory is not loaded."),
            };
            return Ok(markdown(doc, text, site.span));
        }
        if let Some(sym) = ferro_db::resolve(db, doc.w.ws, doc.file, site) {
            if let Some(text) = describe(doc, &sym) {
                return Ok(markdown(doc, text, site.span));
            }
        }
    }
    let hir = ferro_db::file_hir(db, doc.file);
    for (id, e) in hir.exprs.iter() {
        if let Expr::Call { name, .. } = e {
            let Some(span) = hir.span(id) else { continue };
            let end = span.start + name.len() as u32;
            if span.start <= offset && offset <= end {
                if let Some(text) = provider_function_hover(doc, name) {
                    return Ok(markdown(doc, text, Span { end, ..span }));
                }
                let (label, _) = functions::signature_label(name);
                let text = format!("{}\n\n{}", code(&label), functions::description(name));
                let name_span = Span { end, ..span };
                return Ok(markdown(doc, text, name_span));
            }
        }
    }
    for r in &hir.resources {
        let Some((_, schema)) = doc.w.catalog.resource(r.addr.mode, &r.addr.ty) else {
            continue;
        };
        let header = hir.at(r.span);
        if header.start <= offset && offset <= header.end {
            let mut text = format!(
                "{}\n\n{} attributes, {} nested block types.",
                code(&format!(
                    "{} \"{}\"",
                    match r.addr.mode {
                        ferro_addrs::ResourceMode::Data => "data",
                        ferro_addrs::ResourceMode::Managed => "resource",
                        ferro_addrs::ResourceMode::Ephemeral => "ephemeral",
                    },
                    r.addr.ty
                )),
                schema.block.attributes.len(),
                schema.block.block_types.len()
            );
            if !schema.block.description.is_empty() {
                text.push_str(&format!("\n\n{}", schema.block.description));
            }
            return Ok(markdown(doc, text, header));
        }
        if let Some(v) = in_body(doc, hir, &r.body, &schema.block, offset) {
            return Ok(v);
        }
    }
    for imp in &hir.imports {
        if let Some(v) = import_identity(doc, hir, imp, offset) {
            return Ok(v);
        }
    }
    Ok(Value::Null)
}

/// An import block's `identity` argument name, or an attribute name in its object (described
/// from the target type's identity schema).
fn import_identity(
    doc: &Doc<'_>,
    hir: &ferro_hir::FileHir,
    imp: &ferro_hir::Import,
    offset: u32,
) -> Option<Value> {
    let ferro_hir::ImportBy::Identity(e) = imp.by else {
        return None;
    };
    let span = hir.span(e)?;
    // The argument name: `identity` before the `=` on the expression's line.
    let line_start = doc.text[..span.start as usize]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let head = &doc.text[line_start..span.start as usize];
    if let Some(at) = head.find("identity") {
        let start = (line_start + at) as u32;
        let end = start + "identity".len() as u32;
        if start <= offset && offset <= end {
            let text = format!(
                "{}\n\n{}",
                code("identity: object"),
                super::import_identity::ARGUMENT_DOC
            );
            return Some(markdown(doc, text, Span { start, end, ..span }));
        }
    }
    if offset < span.start || offset > span.end {
        return None;
    }
    let Expr::Object(items) = &hir.exprs[e] else {
        return None;
    };
    if imp.to.resource.mode != ferro_addrs::ResourceMode::Managed {
        return None;
    }
    let schema = doc.w.catalog.identity(&imp.to.resource.ty)?;
    for (k, _) in items {
        let Some(ks) = hir.span(*k) else { continue };
        if ks.start <= offset && offset <= ks.end {
            let name = doc.text[ks.start as usize..ks.end as usize].trim_matches('"');
            let a = schema.attributes.get(name)?;
            let (what, sig) = super::import_identity::describe(name, a);
            let mut text = format!("{}\n\n*{what}*", code(&sig));
            if !a.description.is_empty() {
                text.push_str(&format!("\n\n{}", a.description));
            }
            text.push_str(&format!(
                "\n\nIdentity attribute of `{}`.",
                imp.to.resource.ty
            ));
            return Some(markdown(doc, text, ks));
        }
    }
    None
}

/// An attribute name or nested block type under the position, described from the schema.
fn in_body(
    doc: &Doc<'_>,
    hir: &ferro_hir::FileHir,
    body: &BlockBody,
    block: &Block,
    offset: u32,
) -> Option<Value> {
    if let Some(s) = body.span.map(|s| hir.at(s)) {
        if offset < s.start || offset > s.end {
            return None;
        }
    }
    for a in &body.attrs {
        let name_span = hir.at(a.name_span);
        if name_span.start <= offset && offset <= name_span.end {
            let attr = block.attributes.get(&a.name)?;
            let what = if attr.required {
                "required"
            } else if attr.optional && attr.computed {
                "optional, computed"
            } else if attr.optional {
                "optional"
            } else {
                "computed"
            };
            let mut text = format!(
                "{}\n\n*{what}*{}{}",
                code(&format!("{}: {}", a.name, attr.ty.type_expr())),
                if attr.sensitive { ", *sensitive*" } else { "" },
                if attr.write_only {
                    ", *write-only* (never stored: takes ephemeral values)"
                } else {
                    ""
                }
            );
            if !attr.description.is_empty() {
                text.push_str(&format!("\n\n{}", attr.description));
            }
            return Some(markdown(doc, text, name_span));
        }
    }
    for b in &body.blocks {
        let Some(nb) = block.block_types.get(&b.ty) else {
            continue;
        };
        let ty_span = hir.at(b.ty_span);
        if ty_span.start <= offset && offset <= ty_span.end {
            let max = if nb.max_items == 0 {
                "no maximum".to_string()
            } else {
                format!("at most {}", nb.max_items)
            };
            let mut text = format!(
                "{}\n\nNested block ({:?}), at least {}, {max}; {} attributes.",
                code(&format!("{} {{ … }}", b.ty)),
                nb.nesting,
                nb.min_items,
                nb.block.attributes.len()
            );
            if !nb.block.description.is_empty() {
                text.push_str(&format!("\n\n{}", nb.block.description));
            }
            return Some(markdown(doc, text, ty_span));
        }
        if let Some(v) = in_body(doc, hir, &b.body, &nb.block, offset) {
            return Some(v);
        }
    }
    None
}

/// Markdown describing a module's symbol from its declaration.
fn describe(doc: &Doc<'_>, sym: &ModuleSymbol) -> Option<String> {
    let db = &doc.w.db;
    let index = ferro_db::module_index(db, sym.module);
    let dir = sym.module.dir(db);
    let whose = if dir == "." {
        String::new()
    } else {
        format!("\n\nIn module `{dir}`.")
    };
    Some(match &sym.symbol {
        Symbol::Variable(n) => {
            let at = index.variables.get(n)?;
            let hir = ferro_db::file_hir(db, at.file);
            let v = &hir.variables[at.index];
            let mut text = code(&format!("variable \"{n}\""));
            let ty = v.ty.as_ref().map(|t| t.type_expr()).unwrap_or("any".into());
            text.push_str(&format!("\n\n**type**: `{ty}`"));
            if let Some(span) = v.default.and_then(|d| hir.span(d)) {
                text.push_str(&format!(
                    "\n\n**default**: `{}`",
                    source_of(doc.w, at.file, span)
                ));
            }
            if v.sensitive {
                text.push_str("\n\n*sensitive*");
            }
            if let Some(d) = &v.description {
                text.push_str(&format!("\n\n{d}"));
            }
            text + &whose
        }
        Symbol::Local(n) => {
            let at = index.locals.get(n)?;
            let hir = ferro_db::file_hir(db, at.file);
            let l = &hir.locals[at.index];
            let expr = hir.span(l.expr).map(|s| source_of(doc.w, at.file, s));
            code(&format!("local.{n} = {}", expr.unwrap_or_default())) + &whose
        }
        Symbol::Output(n) => {
            let at = index.outputs.get(n)?;
            let hir = ferro_db::file_hir(db, at.file);
            let o = &hir.outputs[at.index];
            let expr = o
                .value
                .and_then(|e| hir.span(e))
                .map(|s| source_of(doc.w, at.file, s));
            let mut text = code(&format!(
                "output \"{n}\"\nvalue = {}",
                expr.unwrap_or_default()
            ));
            if let Some(d) = &o.description {
                text.push_str(&format!("\n\n{d}"));
            }
            text + &whose
        }
        Symbol::Resource(r) => {
            index.resources.get(r)?;
            let kind = match r.mode {
                ferro_addrs::ResourceMode::Managed => "resource",
                ferro_addrs::ResourceMode::Data => "data",
                ferro_addrs::ResourceMode::Ephemeral => "ephemeral",
            };
            let mut text = code(&format!("{kind} \"{}\" \"{}\"", r.ty, r.name));
            if let Some((provider, schema)) = doc.w.catalog.resource(r.mode, &r.ty) {
                text.push_str(&format!("\n\nProvider `{provider}`."));
                if !schema.block.description.is_empty() {
                    text.push_str(&format!("\n\n{}", schema.block.description));
                }
            }
            if let Some(e) = index.expanded.get(r) {
                text.push_str(&format!(
                    "\n\nExpanded with `{}`.",
                    match e {
                        ferro_db::Expansion::Count => "count",
                        ferro_db::Expansion::ForEach => "for_each",
                    }
                ));
            }
            text + &whose
        }
        Symbol::ModuleCall(n) => {
            let at = index.module_calls.get(n)?;
            let call = &ferro_db::file_hir(db, at.file).module_calls[at.index];
            let source = call
                .source
                .as_ref()
                .map(|s| s.0.clone())
                .unwrap_or_default();
            code(&format!("module \"{n}\"\nsource = \"{source}\"")) + &whose
        }
    })
}
