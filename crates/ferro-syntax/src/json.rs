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

/// Deepest JSON nesting accepted (the reader and the mapping are recursive).
const MAX_DEPTH: usize = 256;

#[derive(Debug)]
enum JKind {
    Null,
    Bool(bool),
    /// The number's text, without a leading `-` (`neg` says whether there was one).
    Number {
        text: String,
        neg: bool,
    },
    String(JStr),
    Array(Vec<JVal>),
    Object(Vec<JProp>),
}

#[derive(Debug)]
struct JVal {
    kind: JKind,
    start: usize,
    end: usize,
}

#[derive(Debug)]
struct JStr {
    value: String,
    /// Whether the source text has backslash escapes (decoded offsets then differ from source ones).
    escaped: bool,
}

#[derive(Debug)]
struct JProp {
    name: JStr,
    name_start: usize,
    name_end: usize,
    value: JVal,
}

struct Reader<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    file: FileId,
}

/// Reading stops at the first error (boxed: errors are rare, values are not).
type RResult<T> = Result<T, Box<Diagnostic>>;

impl<'a> Reader<'a> {
    fn err(
        &self,
        range: std::ops::Range<usize>,
        summary: &str,
        detail: impl Into<String>,
    ) -> Box<Diagnostic> {
        let end = range.end.min(self.src.len());
        let start = range.start.min(end);
        Box::new(
            Diagnostic::error("json-syntax", summary)
                .with_detail(detail)
                .with_span(Span::new(self.file, start..end)),
        )
    }

    /// The range of the character at `at` (empty at the end of the input).
    fn char_range(&self, at: usize) -> std::ops::Range<usize> {
        let len = self.src[at..].chars().next().map_or(0, char::len_utf8);
        at..at + len
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.b.get(self.pos) {
            if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn eof_err(&self) -> Box<Diagnostic> {
        self.err(
            self.pos..self.pos,
            "Unexpected end of file",
            "The JSON data ends prematurely: a value, or the close of an object or array, is missing here.",
        )
    }

    fn value(&mut self, depth: usize) -> RResult<JVal> {
        self.skip_ws();
        let start = self.pos;
        let Some(&c) = self.b.get(self.pos) else {
            return Err(self.eof_err());
        };
        if depth > MAX_DEPTH {
            return Err(self.err(
                self.char_range(start),
                "Nesting too deep",
                format!("JSON arrays and objects may be nested at most {MAX_DEPTH} levels deep."),
            ));
        }
        let kind = match c {
            b'{' => {
                self.pos += 1;
                let mut props = Vec::new();
                let mut comma = 0;
                self.skip_ws();
                if self.b.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                } else {
                    loop {
                        self.skip_ws();
                        let name_start = self.pos;
                        match self.b.get(self.pos) {
                            Some(b'"') => {}
                            None => return Err(self.eof_err()),
                            Some(b'}') if !props.is_empty() => {
                                return Err(self.err(
                                    comma..comma + 1,
                                    "Trailing comma in object",
                                    "JSON does not permit a trailing comma after the last property of an object.",
                                ))
                            }
                            Some(c) => {
                                let detail = if matches!(c, b'/' | b'#') {
                                    "JSON does not allow comments. In a configuration body, write a comment as a \
                                     property named \"//\"."
                                } else {
                                    "A JSON object property name must be a string in double quotes."
                                };
                                return Err(self.err(self.char_range(self.pos), "Invalid object property name", detail));
                            }
                        }
                        let name = self.string()?;
                        let name_end = self.pos;
                        self.skip_ws();
                        match self.b.get(self.pos) {
                            Some(b':') => self.pos += 1,
                            None => return Err(self.eof_err()),
                            Some(_) => {
                                return Err(self.err(
                                    self.char_range(self.pos),
                                    "Missing property value colon",
                                    "JSON object properties must have a colon between the name and the value.",
                                ))
                            }
                        }
                        let value = self.value(depth + 1)?;
                        props.push(JProp {
                            name,
                            name_start,
                            name_end,
                            value,
                        });
                        self.skip_ws();
                        match self.b.get(self.pos) {
                            Some(b',') => {
                                comma = self.pos;
                                self.pos += 1
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                break;
                            }
                            None => return Err(self.eof_err()),
                            Some(_) => {
                                return Err(self.err(
                                    self.char_range(self.pos),
                                    "Missing property separator comma",
                                    "A comma is required to separate each property from the next inside an object.",
                                ))
                            }
                        }
                    }
                }
                JKind::Object(props)
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                let mut comma = 0;
                self.skip_ws();
                if self.b.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                } else {
                    loop {
                        self.skip_ws();
                        if self.b.get(self.pos) == Some(&b']') && !items.is_empty() {
                            return Err(self.err(
                                comma..comma + 1,
                                "Trailing comma in array",
                                "JSON does not permit a trailing comma after the last element of an array.",
                            ));
                        }
                        items.push(self.value(depth + 1)?);
                        self.skip_ws();
                        match self.b.get(self.pos) {
                            Some(b',') => {
                                comma = self.pos;
                                self.pos += 1
                            }
                            Some(b']') => {
                                self.pos += 1;
                                break;
                            }
                            None => return Err(self.eof_err()),
                            Some(_) => {
                                return Err(self.err(
                                    self.char_range(self.pos),
                                    "Missing array element separator comma",
                                    "A comma is required to separate each element of an array from the next.",
                                ))
                            }
                        }
                    }
                }
                JKind::Array(items)
            }
            b'"' => JKind::String(self.string()?),
            b'-' | b'0'..=b'9' => self.number()?,
            c if c.is_ascii_alphabetic() => {
                let len = self.b[self.pos..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                    .count();
                let word = &self.src[self.pos..self.pos + len];
                let kind = match word {
                    "true" => JKind::Bool(true),
                    "false" => JKind::Bool(false),
                    "null" => JKind::Null,
                    _ => {
                        return Err(self.err(
                            self.pos..self.pos + len,
                            "Invalid JSON keyword",
                            format!(
                                "The keyword {word:?} is not valid in JSON. Only \"true\", \"false\" and \"null\" \
                                 are keywords; text must be a string in double quotes."
                            ),
                        ))
                    }
                };
                self.pos += len;
                kind
            }
            _ => {
                let r = self.char_range(self.pos);
                let what = if self.src[r.clone()].starts_with(['/', '#']) {
                    "JSON does not allow comments. In a configuration body, write a comment as a property named \"//\"."
                } else {
                    "A JSON value is expected here: an object, an array, a string, a number, true, false or null."
                };
                return Err(self.err(r, "Invalid JSON value", what));
            }
        };
        Ok(JVal {
            kind,
            start,
            end: self.pos,
        })
    }

    fn number(&mut self) -> RResult<JKind> {
        let start = self.pos;
        let neg = self.b[self.pos] == b'-';
        if neg {
            self.pos += 1;
        }
        let digits = |r: &Self, from: usize| {
            r.b[from..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count()
        };
        let int = digits(self, self.pos);
        let bad = |r: &Self, at: usize| {
            r.err(
                start..at.max(start + 1).min(r.src.len()),
                "Invalid JSON number",
                "A JSON number is an optional minus sign, digits without leading zeros, an optional fraction \
                 and an optional exponent, like -1.5e10.",
            )
        };
        if int == 0 || (int > 1 && self.b[self.pos] == b'0') {
            return Err(bad(self, self.pos + int));
        }
        self.pos += int;
        if self.b.get(self.pos) == Some(&b'.') {
            let frac = digits(self, self.pos + 1);
            if frac == 0 {
                return Err(bad(self, self.pos + 1));
            }
            self.pos += 1 + frac;
        }
        if matches!(self.b.get(self.pos), Some(b'e' | b'E')) {
            let mut at = self.pos + 1;
            if matches!(self.b.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            let exp = digits(self, at);
            if exp == 0 {
                return Err(bad(self, at));
            }
            self.pos = at + exp;
        }
        let text_start = if neg { start + 1 } else { start };
        Ok(JKind::Number {
            text: self.src[text_start..self.pos].to_string(),
            neg,
        })
    }

    /// A string starting at `self.pos` (which holds `"`).
    fn string(&mut self) -> RResult<JStr> {
        let open = self.pos;
        self.pos += 1;
        let mut value = String::new();
        let mut escaped = false;
        loop {
            let run = self.b[self.pos..]
                .iter()
                .take_while(|&&c| c != b'"' && c != b'\\' && c >= 0x20)
                .count();
            value.push_str(&self.src[self.pos..self.pos + run]);
            self.pos += run;
            match self.b.get(self.pos) {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(JStr { value, escaped });
                }
                Some(b'\\') => {
                    escaped = true;
                    let (ch, len) = decode_escape(&self.src[self.pos..]).ok_or_else(|| {
                        let r = self.char_range(self.pos + 1);
                        self.err(
                            self.pos..r.end,
                            "Invalid escape sequence",
                            "JSON strings allow only the escapes \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t and \
                             \\uXXXX (with surrogate pairs for characters outside the Basic Multilingual Plane).",
                        )
                    })?;
                    value.push(ch);
                    self.pos += len;
                }
                Some(b'\n') | None => {
                    return Err(self.err(
                        open..self.pos,
                        "Unterminated string",
                        "No closing quote was found for this string: JSON strings end with '\"' on the same line.",
                    ))
                }
                Some(_) => {
                    let r = self.char_range(self.pos);
                    return Err(self.err(
                        r,
                        "Invalid character in string",
                        "Control characters must be escaped in JSON strings (for example \\t or \\u0001).",
                    ));
                }
            }
        }
    }
}

/// The character and source length of the escape at the start of `s` (which starts with `\`).
fn decode_escape(s: &str) -> Option<(char, usize)> {
    let b = s.as_bytes();
    let simple = match b.get(1)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let hex = |at: usize| -> Option<u32> {
                let h = s.get(at..at + 4)?;
                h.bytes()
                    .all(|c| c.is_ascii_hexdigit())
                    .then(|| u32::from_str_radix(h, 16).ok())?
            };
            let hi = hex(2)?;
            if (0xD800..0xDC00).contains(&hi) {
                if s.get(6..8) != Some("\\u") {
                    return None;
                }
                let lo = hex(8)?;
                if !(0xDC00..0xE000).contains(&lo) {
                    return None;
                }
                let c = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                return Some((char::from_u32(c)?, 12));
            }
            return Some((char::from_u32(hi)?, 6));
        }
        _ => return None,
    };
    Some((simple, 2))
}

/// For a string whose source text (without quotes) starts at `base`: the source offset of each
/// byte offset of the decoded value, plus one for its end.
fn offset_map(src: &str, base: usize) -> Vec<u32> {
    let mut map = Vec::new();
    let mut pos = base;
    let b = src.as_bytes();
    while pos < src.len() && b[pos] != b'"' {
        if b[pos] == b'\\' {
            let Some((ch, len)) = decode_escape(&src[pos..]) else {
                break;
            };
            map.extend(std::iter::repeat_n(pos as u32, ch.len_utf8()));
            pos += len;
        } else {
            map.push(pos as u32);
            pos += 1;
        }
    }
    map.push(pos as u32);
    map
}

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
    /// A body whose schema comes from a provider: nested `dynamic` blocks only; the provider's
    /// nested block types are read from the attributes later, against its schema.
    Open,
    /// Only attributes (`locals`, `required_providers`, `validation`, …).
    Attrs,
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

    fn type_error(&mut self, v: &JVal, detail: String) {
        self.diags.push(
            Diagnostic::error("json-value-type", "Incorrect JSON value type")
                .with_detail(detail)
                .with_span(self.span(v.start, v.end)),
        );
    }

    /// "Missing block label": no property names the `index`th label of a `ty` block.
    fn missing_label(&mut self, ty: &Ident, index: usize, at: Span) {
        self.diags.push(
            Diagnostic::error("json-missing-label", "Missing block label")
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
        Body { items, span }
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
                    v,
                    format!(
                        "Either a JSON object or JSON array of objects is required here, to specify {label} labels \
                         for this block."
                    ),
                );
                self.missing_label(ty, labels.len(), self.span(v.start, v.end));
            }
            _ => self.type_error(
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
    stacker::grow(64 << 20, || parse_inner(file, text, false))
}

/// Read a JSON variable-definitions file (`.tfvars.json`): every property of the root object is an
/// attribute whose value is a literal (strings are not templates, as Terraform evaluates these
/// files without an evaluation context).
pub(crate) fn parse_json_values(file: FileId, text: &str) -> Parsed {
    stacker::grow(64 << 20, || parse_inner(file, text, true))
}

fn parse_inner(file: FileId, text: &str, values: bool) -> Parsed {
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
            Body { items, span: whole }
        }
        JKind::Object(props) => m.body(Ctx::Root, props, whole),
        // A root array of objects is the concatenation of their bodies.
        JKind::Array(elems)
            if !values && elems.iter().all(|e| matches!(e.kind, JKind::Object(_))) =>
        {
            let mut items = Vec::new();
            for e in elems {
                if let JKind::Object(props) = &e.kind {
                    items.extend(m.body(Ctx::Root, props, whole).items);
                }
            }
            Body { items, span: whole }
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
