//! Resource and provider bodies written in the JSON syntax, read against their schemas.
//!
//! JSON has no syntax for blocks, so whether a property of a resource body is an argument or
//! nested blocks depends on the provider's schema; HashiCorp's JSON decoder reads bodies lazily
//! against the schema for that reason. Lowering cannot know the schema, so it keeps every
//! property of a JSON resource or provider body as an argument ([`BlockBody::json`]); this
//! module turns the properties that name a nested block type of the schema into blocks, as
//! Terraform does:
//!
//! * an object is one block, an array one block per element, `null` and `[]` none; an element
//!   that is itself an array of objects is one block with their properties merged, and a
//!   `null` element is an empty block;
//! * a block type with a label (`NestingMode::Map`) takes it from the property names of an
//!   object (or of an array of objects); the value of each is blocks as above;
//! * the bodies of those blocks are read the same way against the nested schema;
//! * in a block body a `"//"` property is a comment, and `"dynamic"` gives `dynamic` blocks (as
//!   it does directly in a resource body);
//! * a property given twice is an error for an argument and more blocks for a block type.
//!
//! Any other value for a block type (a string, a number, a template) is an "Incorrect JSON value
//! type" error pointing at it. Bodies in the native syntax are returned as they are.

use crate::{file_hir, Db, ItemRef, SourceFile, Workspace};
use ferro_diag::{Diagnostic, Span};
use ferro_hir::{BlockBody, Expr, ExprId, FileHir, HirAttr, HirBlock, SpanId};
use ferro_value::schema::{Block, NestedBlock, NestingMode};
use std::borrow::Cow;

/// The resource bodies of one file as their schemas read them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResourceBodies {
    /// By position in `FileHir::resources`: the body read against the resource type's schema,
    /// or `None` where the lowered body stands as it is (native syntax, or no schema known).
    pub bodies: Vec<Option<BlockBody>>,
    /// Problems found while reading (wrong JSON value types, arguments set twice, …).
    pub diagnostics: Vec<Diagnostic>,
}

/// Read the JSON resource bodies of `file` against the schemas of the workspace.
#[salsa::tracked(returns(ref))]
pub fn resource_bodies(db: &dyn Db, ws: Workspace, file: SourceFile) -> ResourceBodies {
    let mut out = ResourceBodies::default();
    // Native bodies stand as lowered: only a JSON file is read again (with its positions:
    // the bodies it derives carry their ranges).
    if !crate::item_tree(db, file)
        .resources
        .iter()
        .any(|r| r.body.json)
    {
        out.bodies = vec![None; crate::item_tree(db, file).resources.len()];
        return out;
    }
    let hir = file_hir(db, file);
    let schemas = ws.schemas(db);
    for r in &hir.resources {
        let schema = if r.body.json {
            schemas.resources.get(&(r.addr.mode, r.addr.ty.to_string()))
        } else {
            None
        };
        out.bodies.push(schema.map(|s| {
            let (body, diags) = read_json_body(hir, &r.body, &s.block);
            out.diagnostics.extend(diags);
            body.into_owned()
        }));
    }
    out
}

/// A resource's body as its schema reads it: what validation, planning and apply evaluate.
pub fn resource_body(db: &dyn Db, ws: Workspace, item: ItemRef) -> &BlockBody {
    match resource_bodies(db, ws, item.file).bodies.get(item.index) {
        Some(Some(body)) => body,
        _ => &file_hir(db, item.file).resources[item.index].body,
    }
}

/// Read `body` (of `hir`) against `schema`: for a JSON body, the properties naming nested block
/// types become blocks (recursively); a native body is returned unchanged.
pub fn read_json_body<'b>(
    hir: &FileHir,
    body: &'b BlockBody,
    schema: &Block,
) -> (Cow<'b, BlockBody>, Vec<Diagnostic>) {
    if !body.json {
        return (Cow::Borrowed(body), Vec::new());
    }
    let mut r = Reader {
        hir,
        diags: Vec::new(),
    };
    let props = body
        .attrs
        .iter()
        .map(|a| Prop {
            name: &a.name,
            name_span: hir.at(a.name_span),
            value: a.expr,
            span: hir.at(a.span),
        })
        .collect();
    let mut out = r.body(props, schema, body.span.map(|s| hir.at(s)));
    // Blocks the JSON mapping made itself (`dynamic` blocks, whose `content` became their body).
    out.blocks
        .extend(body.blocks.iter().map(|b| r.mapped_block(b, schema)));
    (Cow::Owned(out), r.diags)
}

/// The schema of the blocks of type `ty` in a body of `schema`: a nested block type, or a
/// list/set-of-objects attribute written as blocks.
fn nested_schema<'s>(schema: &'s Block, ty: &str) -> Option<Cow<'s, Block>> {
    if let Some(nb) = schema.block_types.get(ty) {
        return Some(Cow::Borrowed(&nb.block));
    }
    let a = schema.attributes.get(ty).filter(|a| a.nested.is_none())?;
    ferro_value::schema::attribute_as_blocks(&a.ty).map(|(_, b)| Cow::Owned(b))
}

/// One property of a JSON body: its name, the value's expression, and where both are.
struct Prop<'h> {
    name: &'h str,
    name_span: Span,
    value: ExprId,
    span: Span,
}

struct Reader<'h> {
    hir: &'h FileHir,
    diags: Vec<Diagnostic>,
}

/// The span of the first character of `s` (an opening brace or bracket).
fn first_char(s: Span) -> Span {
    Span {
        end: s.start.saturating_add(1).min(s.end),
        ..s
    }
}

/// The span inside the braces of an object's span.
fn inside(s: Span) -> Span {
    if s.end >= s.start.saturating_add(2) {
        Span {
            start: s.start + 1,
            end: s.end - 1,
            ..s
        }
    } else {
        s
    }
}

impl<'h> Reader<'h> {
    /// A block the JSON mapping made itself (a `dynamic` block) in a body of `schema`: its body
    /// (the `content`) read against the schema of the blocks it generates, recursively. A type
    /// the schema does not know is left as it is, for validation to report.
    fn mapped_block(&mut self, b: &HirBlock, schema: &Block) -> HirBlock {
        let Some(inner) = nested_schema(schema, &b.ty).filter(|_| b.body.json) else {
            return b.clone();
        };
        let props = b
            .body
            .attrs
            .iter()
            .map(|a| Prop {
                name: &a.name,
                name_span: self.hir.at(a.name_span),
                value: a.expr,
                span: self.hir.at(a.span),
            })
            .collect();
        // The attributes borrow from `b`, not from the file: read them through a local reader.
        let mut r = Reader {
            hir: self.hir,
            diags: Vec::new(),
        };
        let mut body = r.body(props, &inner, b.body.span.map(|s| self.hir.at(s)));
        body.blocks
            .extend(b.body.blocks.iter().map(|x| r.mapped_block(x, &inner)));
        self.diags.append(&mut r.diags);
        HirBlock { body, ..b.clone() }
    }

    fn span(&self, e: ExprId) -> Span {
        // Every expression lowered from a file has a span; an empty one keeps this total.
        self.hir.span(e).unwrap_or(Span::new(
            self.hir.file.unwrap_or(ferro_diag::FileId(0)),
            0..0,
        ))
    }

    fn type_error(&mut self, at: Span, detail: String) {
        self.diags.push(
            Diagnostic::error("json-value-type", "Incorrect JSON value type")
                .with_detail(detail)
                .with_span(at),
        );
    }

    /// The text of a property name (an object key the lowering made a string literal).
    fn key_name(&mut self, key: ExprId) -> Option<&'h str> {
        let hir: &'h FileHir = self.hir;
        match &hir.exprs[key] {
            Expr::Literal(v) => v.as_str(),
            _ => {
                let at = self.span(key);
                self.diags.push(
                    Diagnostic::error("unsupported-argument", "Unsupported argument")
                        .with_detail(
                            "In a block body, a JSON property name is the name of an argument or of a nested block \
                             type, used as written; it cannot contain a template sequence.",
                        )
                        .with_span(at),
                );
                None
            }
        }
    }

    /// The properties of one JSON object (the items of its expression), comments left out.
    fn props(&mut self, items: &[(ExprId, ExprId)], out: &mut Vec<Prop<'h>>) {
        for &(k, v) in items {
            let Some(name) = self.key_name(k) else {
                continue;
            };
            if name == "//" {
                continue;
            }
            let name_span = self.span(k);
            out.push(Prop {
                name,
                name_span,
                value: v,
                span: name_span.to(self.span(v)),
            });
        }
    }

    fn body(&mut self, props: Vec<Prop<'h>>, schema: &Block, span: Option<Span>) -> BlockBody {
        let mut out = BlockBody {
            attrs: Vec::new(),
            blocks: Vec::new(),
            span: span.map(SpanId::Fixed),
            json: true,
        };
        for p in props {
            let is_attr = schema.attributes.contains_key(p.name);
            match schema.block_types.get(p.name) {
                Some(nb) if !is_attr => self.blocks(&p, nb, &mut out.blocks),
                _ if p.name == "dynamic" && !is_attr => self.dynamic_blocks(&p, schema, &mut out.blocks),
                _ => match out.attrs.iter().find(|a| a.name == p.name) {
                    Some(first) => self.diags.push(
                        Diagnostic::error("attribute-redefined", "Attribute redefined")
                            .with_detail(format!("The argument {:?} was already set. Each argument may be set only once.", p.name))
                            .with_span(p.name_span)
                            .with_label(self.hir.at(first.name_span), "first set here"),
                    ),
                    None => out.attrs.push(HirAttr { name: p.name.to_string(), name_span: SpanId::Fixed(p.name_span), expr: p.value, span: SpanId::Fixed(p.span) }),
                },
            }
        }
        out
    }

    /// The blocks of type `p.name` that the property's value stands for.
    fn blocks(&mut self, p: &Prop<'h>, nb: &NestedBlock, out: &mut Vec<HirBlock>) {
        if nb.nesting != NestingMode::Map {
            self.block_values(p.name, p.name_span, None, p.value, &nb.block, out);
            return;
        }
        // One label, from property names: an object, or an array of objects.
        let value = self.span(p.value);
        let mut labelled: Vec<Prop<'h>> = Vec::new();
        let hir: &'h FileHir = self.hir;
        match &hir.exprs[p.value] {
            Expr::Object(items) => self.label_props(items, &mut labelled),
            Expr::Tuple(elems) => {
                for &e in elems {
                    match &hir.exprs[e] {
                        Expr::Object(items) => self.label_props(items, &mut labelled),
                        _ => {
                            let at = self.span(e);
                            self.type_error(at, "A JSON object is required here, to specify the key labels of these blocks.".into());
                        }
                    }
                }
            }
            Expr::Literal(v) if v.is_null() => {}
            Expr::Missing => return,
            _ => {
                self.type_error(
                    value,
                    format!(
                        "Either a JSON object or a JSON array of objects is required here, whose property names are the \
                         key labels of {:?} blocks.",
                        p.name
                    ),
                );
                return;
            }
        }
        if labelled.is_empty() {
            self.diags.push(
                Diagnostic::error("missing-block-label", "Missing block label")
                    .with_detail(format!(
                        "At least one object property is required, whose name represents the {} block's key.",
                        p.name
                    ))
                    .with_span(value),
            );
        }
        for l in labelled {
            self.block_values(p.name, l.name_span, Some(l.name), l.value, &nb.block, out);
        }
    }

    /// Every property of an object of labels, `"//"` included (a label may be any string).
    fn label_props(&mut self, items: &[(ExprId, ExprId)], out: &mut Vec<Prop<'h>>) {
        for &(k, v) in items {
            if let Some(name) = self.key_name(k) {
                let name_span = self.span(k);
                out.push(Prop {
                    name,
                    name_span,
                    value: v,
                    span: name_span.to(self.span(v)),
                });
            }
        }
    }

    /// Blocks of type `ty` (with `label`, if any) from `value`: an object is one, an array one
    /// per element, null none. `head` is the property name (type or label) introducing them.
    fn block_values(
        &mut self,
        ty: &str,
        head: Span,
        label: Option<&str>,
        value: ExprId,
        schema: &Block,
        out: &mut Vec<HirBlock>,
    ) {
        let labels: Vec<String> = label.map(str::to_string).into_iter().collect();
        let span = self.span(value);
        let hir: &'h FileHir = self.hir;
        match &hir.exprs[value] {
            Expr::Literal(v) if v.is_null() => {}
            Expr::Object(items) => {
                let mut props = Vec::new();
                self.props(items, &mut props);
                let body = self.body(props, schema, Some(inside(span)));
                out.push(HirBlock { ty: ty.to_string(), ty_span: SpanId::Fixed(head), labels, body, span: SpanId::Fixed(head.to(span)), dynamic: None });
            }
            Expr::Tuple(elems) => {
                for &e in elems {
                    if let Some(body) = self.element_body(e, schema) {
                        let at = self.span(e);
                        // The element's opening brace says which of the blocks a diagnostic means.
                        out.push(HirBlock { ty: ty.to_string(), ty_span: SpanId::Fixed(first_char(at)), labels: labels.clone(), body, span: SpanId::Fixed(at), dynamic: None });
                    }
                }
            }
            Expr::Missing => {}
            _ => self.type_error(
                span,
                format!("Either a JSON object or a JSON array is required here, representing the contents of one or more {ty:?} blocks."),
            ),
        }
    }

    /// The body one array element stands for: an object; an array of objects, merged; or null,
    /// an empty body.
    fn element_body(&mut self, e: ExprId, schema: &Block) -> Option<BlockBody> {
        let span = self.span(e);
        let hir: &'h FileHir = self.hir;
        let mut props = Vec::new();
        match &hir.exprs[e] {
            Expr::Literal(v) if v.is_null() => {}
            Expr::Object(items) => self.props(items, &mut props),
            Expr::Tuple(parts) => {
                for &part in parts {
                    match &hir.exprs[part] {
                        Expr::Object(items) => self.props(items, &mut props),
                        _ => {
                            let at = self.span(part);
                            self.type_error(at, "A JSON object is required here, to define arguments and child blocks.".into());
                        }
                    }
                }
            }
            Expr::Missing => return None,
            _ => {
                self.type_error(
                    span,
                    "Either a JSON object or a JSON array of objects is required here, to define arguments and child blocks."
                        .into(),
                );
                return None;
            }
        }
        Some(self.body(props, schema, Some(inside(span))))
    }

    /// `"dynamic": {"type": {…}}` inside a block body written as a JSON property: the
    /// `dynamic` blocks it gives, as the JSON mapping makes them directly in resource bodies
    /// (an object of block types or an array of them; for each type a generator object or an
    /// array of them). Lowering put each generator's iterator in scope in its `labels` and
    /// `content`.
    fn dynamic_blocks(&mut self, p: &Prop<'h>, schema: &Block, out: &mut Vec<HirBlock>) {
        let hir: &'h FileHir = self.hir;
        let mut types = Vec::new();
        match &hir.exprs[p.value] {
            Expr::Object(items) => self.label_props(items, &mut types),
            Expr::Tuple(elems) => {
                for &e in elems {
                    if let Expr::Object(items) = &hir.exprs[e] {
                        self.label_props(items, &mut types);
                    }
                }
            }
            _ => {
                let at = self.span(p.value);
                self.type_error(at, "Either a JSON object or JSON array of objects is required here, to specify type labels for this block.".into());
            }
        }
        for t in types {
            let gens: Vec<ExprId> = match &hir.exprs[t.value] {
                Expr::Tuple(elems) => elems.clone(),
                _ => vec![t.value],
            };
            for g in gens {
                if let Some(b) = self.generator(t.name, t.name_span, g, schema) {
                    out.push(b);
                }
            }
        }
    }

    /// One generator object: `for_each`, `iterator`, `labels`, `content`.
    fn generator(&mut self, ty: &str, head: Span, g: ExprId, schema: &Block) -> Option<HirBlock> {
        let hir: &'h FileHir = self.hir;
        let span = self.span(g);
        let Expr::Object(items) = &hir.exprs[g] else {
            self.type_error(
                span,
                "A JSON object is required here, to define the arguments of a dynamic block."
                    .into(),
            );
            return None;
        };
        let mut props = Vec::new();
        self.props(items, &mut props);
        let closing = Span {
            start: span.end.saturating_sub(1),
            ..span
        };
        let get = |name: &str| props.iter().find(|p| p.name == name);
        let Some(for_each) = get("for_each").map(|p| p.value) else {
            self.diags.push(
                Diagnostic::error("missing-argument", "Missing required argument")
                    .with_detail(
                        "The argument \"for_each\" is required, but no definition was found.",
                    )
                    .with_span(closing),
            );
            return None;
        };
        let Some(content) = get("content").map(|p| p.value) else {
            self.diags.push(
                Diagnostic::error("missing-content", "Missing dynamic content block")
                    .with_detail("A dynamic block must have a nested block of type \"content\" to describe the body of each generated block.")
                    .with_span(closing),
            );
            return None;
        };
        let iterator = get("iterator")
            .and_then(|p| match &hir.exprs[p.value] {
                Expr::Literal(v) => v.as_str().map(str::to_string),
                _ => None,
            })
            .unwrap_or_else(|| ty.to_string());
        let labels_at = get("labels").map(|p| (p.name_span, self.span(p.value)));
        let labels = match get("labels").map(|p| &hir.exprs[p.value]) {
            Some(Expr::Tuple(es)) => es.clone(),
            _ => Vec::new(),
        };
        let inner = nested_schema(schema, ty).unwrap_or_default();
        let mut body_props = Vec::new();
        let content_span = self.span(content);
        match &hir.exprs[content] {
            Expr::Object(items) => self.props(items, &mut body_props),
            _ => {
                self.type_error(
                    content_span,
                    "A JSON object is required here, to define arguments and child blocks.".into(),
                );
                return None;
            }
        }
        let body = self.body(body_props, &inner, Some(inside(content_span)));
        Some(HirBlock {
            ty: ty.to_string(),
            ty_span: SpanId::Fixed(head),
            labels: Vec::new(),
            body,
            span: SpanId::Fixed(head.to(span)),
            dynamic: Some(Box::new(ferro_hir::DynamicBlock {
                for_each,
                iterator,
                labels,
                labels_at: labels_at.map(|(n, v)| (SpanId::Fixed(n), SpanId::Fixed(v))),
                missing_item: SpanId::Fixed(closing),
            })),
        })
    }
}
