//! The HCL JSON syntax (`.tf.json`, `.tfvars.json`): a JSON reader with spans, and the
//! mapping of JSON values onto the same tree the native syntax produces.
//!
//! JSON has no syntax for blocks, so which properties are blocks (and how many labels they take)
//! comes from Terraform's configuration schema, built in here ([`Ctx`]). Bodies whose schema
//! comes from a provider (resource, data and provider bodies) cannot be decided here, as this
//! crate knows nothing of providers: apart from the meta-arguments and blocks Terraform itself
//! defines (`count`, `lifecycle`, `dynamic`, …) every property becomes an attribute, whose value
//! keeps the JSON shape (objects, arrays, `null`) and spans. Once the provider's schema is
//! known, `ferro_db::read_json_body` turns the properties naming nested block types into blocks.
//! Strings are templates (`"${var.a}"`), except in the attributes Terraform reads as
//! expressions or references (`depends_on`, `provider`, a variable's `type`, `ignore_changes`,
//! …), where the string's text is parsed as an expression.

use crate::ast::{
    Attribute, Block, BlockLabel, Body, BodyItem, Expr, ExprKind, Ident, ObjectItem, ObjectKey,
    SmolStr, Template, TemplatePart, UnaryOp,
};
use crate::Parsed;
use ferro_diag::{Diagnostic, FileId, Span};

mod reader;
use reader::{offset_map, JKind, JProp, JStr, JVal, Reader};

/// Where a body is in Terraform's configuration schema: which of its properties are blocks
/// (with how many labels) and which attributes are read as expressions rather than templates.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ctx {
    Root,
    Terraform,
    Variable,
    Output,
    Resource,
    Lifecycle,
    Provisioner,
    Dynamic,
    Module,
    Check,
    Moved,
    Import,
    Removed,
    /// `terraform { encryption {…} }` (and `TF_ENCRYPTION`'s JSON), its targets and
    /// `remote_state_data_sources`.
    Encryption,
    EncryptionTarget,
    EncryptionRemotes,
    /// A body whose schema comes from a provider: nested `dynamic` blocks only; the provider's
    /// nested block types are read from the attributes later, against its schema.
    Open,
    /// Only attributes (`locals`, `required_providers`, `validation`, …).
    Attrs,
    /// A test file (`*.tftest.json`): its top level, a `run` block, a `mock_provider` block,
    /// and the bodies holding references or keywords (`plan_options`, overrides).
    TestRoot,
    TestRun,
    TestMock,
    TestRefs,
}

/// How an attribute's JSON strings are read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Template,
    /// A string is parsed as an expression (a reference or keyword), as are the elements of an
    /// array and the keys and values of an object.
    Expr,
    /// Strings are plain strings, never templates: values Terraform evaluates without a context
    /// (a variable's `default`).
    Literal,
}

fn block_schema(ctx: Ctx, name: &str) -> Option<(usize, Ctx)> {
    Some(match (ctx, name) {
        (Ctx::Root, "resource" | "data") => (2, Ctx::Resource),
        (Ctx::Root, "variable") => (1, Ctx::Variable),
        (Ctx::Root, "output") => (1, Ctx::Output),
        (Ctx::Root, "provider") => (1, Ctx::Open),
        (Ctx::Root, "module") => (1, Ctx::Module),
        (Ctx::Root, "check") => (1, Ctx::Check),
        (Ctx::Root, "terraform") => (0, Ctx::Terraform),
        (Ctx::Root, "locals") => (0, Ctx::Attrs),
        (Ctx::Root, "moved") => (0, Ctx::Moved),
        (Ctx::Root, "import") => (0, Ctx::Import),
        (Ctx::Root, "removed") => (0, Ctx::Removed),
        // Unknown top-level names are blocks without labels (lowering reports them).
        (Ctx::Root, _) => (0, Ctx::Attrs),
        (Ctx::Terraform, "required_providers" | "cloud") => (0, Ctx::Attrs),
        (Ctx::Terraform, "backend" | "provider_meta") => (1, Ctx::Attrs),
        (Ctx::Terraform, "encryption") => (0, Ctx::Encryption),
        (Ctx::Encryption, "key_provider" | "method") => (2, Ctx::Attrs),
        (Ctx::Encryption, "state" | "plan") => (0, Ctx::EncryptionTarget),
        (Ctx::Encryption, "remote_state_data_sources") => (0, Ctx::EncryptionRemotes),
        (Ctx::EncryptionRemotes, "default") => (0, Ctx::EncryptionTarget),
        (Ctx::EncryptionRemotes, "remote_state_data_source") => (1, Ctx::EncryptionTarget),
        (Ctx::EncryptionTarget, "fallback") => (0, Ctx::EncryptionTarget),
        (Ctx::Variable, "validation") => (0, Ctx::Attrs),
        (Ctx::Output, "precondition") => (0, Ctx::Attrs),
        (Ctx::Resource, "lifecycle") | (Ctx::Removed, "lifecycle") => (0, Ctx::Lifecycle),
        (Ctx::Resource, "provisioner") | (Ctx::Removed, "provisioner") => (1, Ctx::Provisioner),
        (Ctx::Resource, "connection") | (Ctx::Provisioner, "connection") => (0, Ctx::Attrs),
        (Ctx::Resource | Ctx::Open | Ctx::Dynamic, "dynamic") => (1, Ctx::Dynamic),
        (Ctx::Dynamic, "content") => (0, Ctx::Open),
        (Ctx::Lifecycle, "precondition" | "postcondition") => (0, Ctx::Attrs),
        (Ctx::Check, "data") => (2, Ctx::Resource),
        (Ctx::Check, "assert") => (0, Ctx::Attrs),
        (Ctx::TestRoot, "run") => (1, Ctx::TestRun),
        (Ctx::TestRoot, "provider") => (1, Ctx::Open),
        (Ctx::TestRoot, "variable") => (1, Ctx::Variable),
        (Ctx::TestRoot, "mock_provider") => (1, Ctx::TestMock),
        (Ctx::TestRoot | Ctx::TestRun | Ctx::TestMock, "override_resource")
        | (Ctx::TestRoot | Ctx::TestRun | Ctx::TestMock, "override_data")
        | (Ctx::TestRoot | Ctx::TestRun | Ctx::TestMock, "override_module") => (0, Ctx::TestRefs),
        (Ctx::TestRun, "plan_options") => (0, Ctx::TestRefs),
        (Ctx::TestRun, "variables" | "assert" | "module") => (0, Ctx::Attrs),
        // A shared mock file's top level is read as a test file's.
        (Ctx::TestMock | Ctx::TestRoot, "mock_resource" | "mock_data") => (1, Ctx::Attrs),
        (Ctx::TestRoot, _) => (0, Ctx::Attrs),
        _ => return None,
    })
}

/// The name Terraform's schema gives the `index`th label of a block type (for messages).
fn label_name(ty: &str, index: usize) -> &'static str {
    match (ty, index) {
        ("resource" | "data", 0) | ("dynamic" | "provisioner" | "backend", _) => "type",
        _ => "name",
    }
}

fn attr_mode(ctx: Ctx, name: &str) -> Mode {
    match (ctx, name) {
        (Ctx::Resource | Ctx::Output | Ctx::Module, "depends_on")
        | (Ctx::Resource | Ctx::Import, "provider")
        | (Ctx::Module, "providers")
        | (Ctx::Variable, "type")
        | (Ctx::Lifecycle, "ignore_changes" | "replace_triggered_by")
        | (Ctx::Dynamic, "iterator")
        | (Ctx::Moved, "from" | "to")
        | (Ctx::Removed, "from")
        | (Ctx::Import, "to") => Mode::Expr,
        (Ctx::Variable, "default") => Mode::Literal,
        (Ctx::TestRun, "command" | "expect_failures" | "providers")
        | (Ctx::TestRefs, "target" | "mode" | "replace" | "override_during")
        | (Ctx::TestMock, "override_during") => Mode::Expr,
        _ => Mode::Template,
    }
}

struct Mapper<'a> {
    file: FileId,
    src: &'a str,
    diags: Vec<Diagnostic>,
}

impl Mapper<'_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.file, start..end)
    }

    /// A value of the wrong JSON type where `ty` blocks are read. A `dynamic` block's problems
    /// have codes of their own: Terraform finds them only when it expands the block (validate).
    fn type_error(&mut self, ty: &Ident, v: &JVal, detail: String) {
        let code = match ty.name.as_str() {
            "dynamic" => "json-dynamic-value-type",
            _ => "json-value-type",
        };
        self.diags.push(
            Diagnostic::error(code, "Incorrect JSON value type")
                .with_detail(detail)
                .with_span(self.span(v.start, v.end)),
        );
    }

    /// "Missing block label": no property names the `index`th label of a `ty` block.
    fn missing_label(&mut self, ty: &Ident, index: usize, at: Span) {
        let code = match ty.name.as_str() {
            "dynamic" => "json-dynamic-missing-label",
            _ => "json-missing-label",
        };
        self.diags.push(
            Diagnostic::error(code, "Missing block label")
                .with_detail(format!(
                    "At least one object property is required, whose name represents the {} block's {}.",
                    ty.name,
                    label_name(&ty.name, index)
                ))
                .with_span(at),
        );
    }

    fn body(&mut self, ctx: Ctx, props: &[JProp], span: Span) -> Body {
        let mut items = Vec::new();
        for p in props {
            if p.name.value == "//" {
                continue;
            }
            let name = Ident {
                name: SmolStr::new(&p.name.value),
                span: self.span(p.name_start, p.name_end),
            };
            match block_schema(ctx, &p.name.value) {
                Some((nlabels, inner)) => {
                    let mut labels = Vec::new();
                    self.blocks(&name, nlabels, inner, &p.value, &mut labels, &mut items)
                }
                None => {
                    let expr = self.expr(&p.value, attr_mode(ctx, &p.name.value));
                    let span = name.span.to(expr.span);
                    items.push(BodyItem::Attribute(Attribute { name, expr, span }));
                }
            }
        }
        Body {
            items,
            span,
            json: true,
        }
    }

    /// The blocks of type `ty` in `v`: `need` more labels are taken from object keys, then the
    /// value is a body (an object) or several (an array of objects).
    fn blocks(
        &mut self,
        ty: &Ident,
        need: usize,
        ctx: Ctx,
        v: &JVal,
        labels: &mut Vec<BlockLabel>,
        out: &mut Vec<BodyItem>,
    ) {
        let empty = match &v.kind {
            JKind::Array(elems) => elems.is_empty(),
            JKind::Object(props) => props.is_empty(),
            _ => false,
        };
        if need > 0 && empty {
            self.missing_label(ty, labels.len(), self.span(v.start, v.start + 1));
            return;
        }
        match &v.kind {
            JKind::Array(elems) => {
                for e in elems {
                    if matches!(e.kind, JKind::Object(_)) {
                        self.blocks(ty, need, ctx, e, labels, out);
                    } else {
                        self.type_error(
                            ty,
                            e,
                            format!("A JSON object is required here, representing the contents of a {:?} block.", ty.name),
                        );
                    }
                }
            }
            JKind::Object(props) if need > 0 => {
                for p in props {
                    labels.push(BlockLabel {
                        value: SmolStr::new(&p.name.value),
                        quoted: true,
                        span: self.span(p.name_start, p.name_end),
                    });
                    self.blocks(ty, need - 1, ctx, &p.value, labels, out);
                    labels.pop();
                }
            }
            JKind::Object(props) => {
                let open_brace = self.span(v.start, v.start + 1);
                let close_brace = self.span(v.end - 1, v.end);
                let body = self.body(ctx, props, self.span(v.start + 1, v.end - 1));
                out.push(BodyItem::Block(Block {
                    ty: ty.clone(),
                    labels: labels.clone(),
                    body,
                    open_brace,
                    close_brace,
                    span: ty.span.to(close_brace),
                }));
            }
            _ if need > 0 => {
                let label = label_name(&ty.name, labels.len());
                self.type_error(
                    ty,
                    v,
                    format!(
                        "Either a JSON object or JSON array of objects is required here, to specify {label} labels \
                         for this block."
                    ),
                );
                self.missing_label(ty, labels.len(), self.span(v.start, v.end));
            }
            _ => self.type_error(
                ty,
                v,
                format!(
                    "Either a JSON object or a JSON array of objects is required here, representing the contents \
                     of one or more {:?} blocks.",
                    ty.name
                ),
            ),
        }
    }

    fn expr(&mut self, v: &JVal, mode: Mode) -> Expr {
        if mode == Mode::Literal {
            return self.literal(v);
        }
        let span = self.span(v.start, v.end);
        let kind = match &v.kind {
            JKind::Null => ExprKind::Null,
            JKind::Bool(b) => ExprKind::Bool(*b),
            JKind::Number { text, neg } => {
                let num = ExprKind::Number(SmolStr::new(text));
                if *neg {
                    let operand = Expr {
                        kind: num,
                        span: self.span(v.start + 1, v.end),
                    };
                    ExprKind::Unary {
                        op: UnaryOp::Neg,
                        operand: Box::new(operand),
                    }
                } else {
                    num
                }
            }
            JKind::String(s) => return self.string_expr(s, v.start, v.end, mode),
            JKind::Array(items) => {
                ExprKind::Tuple(items.iter().map(|e| self.expr(e, mode)).collect())
            }
            JKind::Object(props) => ExprKind::Object(
                props
                    .iter()
                    .map(|p| {
                        let key = self.string_expr(&p.name, p.name_start, p.name_end, mode);
                        let value = self.expr(&p.value, mode);
                        let span = key.span.to(value.span);
                        ObjectItem {
                            key: ObjectKey::Expr(key),
                            value,
                            colon: true,
                            span,
                        }
                    })
                    .collect(),
            ),
        };
        Expr { kind, span }
    }

    /// A JSON string (source `start..end`, quotes included) as a template or, in `Mode::Expr`,
    /// as the expression its text spells.
    fn string_expr(&mut self, s: &JStr, start: usize, end: usize, mode: Mode) -> Expr {
        let span = self.span(start, end);
        let inner = start + 1;
        if mode == Mode::Template && !s.value.contains("${") && !s.value.contains("%{") {
            let parts = if s.value.is_empty() {
                Vec::new()
            } else {
                vec![TemplatePart::Literal {
                    text: SmolStr::new(&s.value),
                    span: self.span(inner, end - 1),
                }]
            };
            return Expr {
                kind: ExprKind::Template(Template {
                    parts,
                    heredoc: None,
                }),
                span,
            };
        }
        let (mut ex, mut diags) = match mode {
            Mode::Expr => crate::parser::parse_expr(self.file, &s.value),
            _ => crate::parser::parse_template(self.file, &s.value),
        };
        let map = s.escaped.then(|| offset_map(self.src, inner));
        let file = self.file;
        let mut shift = |sp: Span| match &map {
            None => Span {
                file,
                start: sp.start + inner as u32,
                end: sp.end + inner as u32,
            },
            Some(m) => {
                let at = |o: u32| {
                    m.get(o as usize)
                        .copied()
                        .unwrap_or(*m.last().unwrap_or(&(inner as u32)))
                };
                Span {
                    file,
                    start: at(sp.start),
                    end: at(sp.end),
                }
            }
        };
        ex.map_spans(&mut shift);
        for d in &mut diags {
            if let Some(sp) = d.span {
                d.span = Some(shift(sp));
            }
        }
        if mode == Mode::Template {
            ex.span = span;
        }
        self.diags.extend(diags);
        ex
    }
}

pub(crate) fn parse_json_file(file: FileId, text: &str) -> Parsed {
    stacker::grow(64 << 20, || parse_inner(file, text, false, Ctx::Root))
}

/// Read the body of an `encryption` block written in JSON (OpenTofu's `TF_ENCRYPTION`).
/// A test file in the JSON syntax (`*.tftest.json`, `*.tfmock.json`).
pub(crate) fn parse_json_test_file(file: FileId, text: &str) -> Parsed {
    stacker::grow(64 << 20, || parse_inner(file, text, false, Ctx::TestRoot))
}

pub(crate) fn parse_json_encryption(file: FileId, text: &str) -> Parsed {
    stacker::grow(64 << 20, || parse_inner(file, text, false, Ctx::Encryption))
}

/// Read a JSON variable-definitions file (`.tfvars.json`): every property of the root object is an
/// attribute whose value is a literal (strings are not templates, as Terraform evaluates these
/// files without an evaluation context).
pub(crate) fn parse_json_values(file: FileId, text: &str) -> Parsed {
    stacker::grow(64 << 20, || parse_inner(file, text, true, Ctx::Root))
}

fn parse_inner(file: FileId, text: &str, values: bool, root_ctx: Ctx) -> Parsed {
    let mut reader = Reader {
        src: text,
        b: text.as_bytes(),
        pos: 0,
        file,
    };
    let whole = Span::new(file, 0..text.len());
    let empty = |diags: Vec<Box<Diagnostic>>| Parsed {
        body: Body {
            items: Vec::new(),
            span: whole,
            json: true,
        },
        comments: Vec::new(),
        diagnostics: diags.into_iter().map(|d| *d).collect(),
    };
    let root = match reader.value(0) {
        Ok(v) => v,
        Err(d) => return empty(vec![d]),
    };
    reader.skip_ws();
    if reader.pos < text.len() {
        let r = reader.char_range(reader.pos);
        return empty(vec![reader.err(
            r,
            "Extraneous data after value",
            "Extra characters appear after the JSON value: the file must hold a single JSON object.",
        )]);
    }
    let mut m = Mapper {
        file,
        src: text,
        diags: Vec::new(),
    };
    let body = match &root.kind {
        JKind::Object(props) if values => {
            let items = props
                .iter()
                .filter(|p| p.name.value != "//")
                .map(|p| {
                    let name = Ident {
                        name: SmolStr::new(&p.name.value),
                        span: Span::new(file, p.name_start..p.name_end),
                    };
                    let expr = m.literal(&p.value);
                    let span = name.span.to(expr.span);
                    BodyItem::Attribute(Attribute { name, expr, span })
                })
                .collect();
            Body {
                items,
                span: whole,
                json: true,
            }
        }
        JKind::Object(props) => m.body(root_ctx, props, whole),
        // A root array of objects is the concatenation of their bodies.
        JKind::Array(elems)
            if !values && elems.iter().all(|e| matches!(e.kind, JKind::Object(_))) =>
        {
            let mut items = Vec::new();
            for e in elems {
                if let JKind::Object(props) = &e.kind {
                    items.extend(m.body(root_ctx, props, whole).items);
                }
            }
            Body {
                items,
                span: whole,
                json: true,
            }
        }
        _ => {
            m.diags.push(
                Diagnostic::error("json-root-object", "Root value must be object")
                    .with_detail(if values {
                        "The root value of a JSON variables file must be a JSON object."
                    } else {
                        "The root value of a JSON configuration file must be either a JSON object or a JSON array \
                         of objects."
                    })
                    .with_span(Span::new(file, root.start..root.end)),
            );
            Body {
                items: Vec::new(),
                span: whole,
                json: true,
            }
        }
    };
    Parsed {
        body,
        comments: Vec::new(),
        diagnostics: m.diags,
    }
}

impl Mapper<'_> {
    /// A JSON value as a literal expression: strings are plain strings, never templates.
    fn literal(&mut self, v: &JVal) -> Expr {
        let span = self.span(v.start, v.end);
        let file = self.file;
        let lit = move |s: &JStr, start: usize, end: usize| {
            let parts = if s.value.is_empty() {
                Vec::new()
            } else {
                vec![TemplatePart::Literal {
                    text: SmolStr::new(&s.value),
                    span: Span::new(file, start + 1..end - 1),
                }]
            };
            Expr {
                kind: ExprKind::Template(Template {
                    parts,
                    heredoc: None,
                }),
                span: Span::new(file, start..end),
            }
        };
        let kind = match &v.kind {
            JKind::String(s) => return lit(s, v.start, v.end),
            JKind::Array(items) => ExprKind::Tuple(items.iter().map(|e| self.literal(e)).collect()),
            JKind::Object(props) => ExprKind::Object(
                props
                    .iter()
                    .map(|p| {
                        let key = lit(&p.name, p.name_start, p.name_end);
                        let value = self.literal(&p.value);
                        let span = key.span.to(value.span);
                        ObjectItem {
                            key: ObjectKey::Expr(key),
                            value,
                            colon: true,
                            span,
                        }
                    })
                    .collect(),
            ),
            _ => return self.expr(v, Mode::Template),
        };
        Expr { kind, span }
    }
}
