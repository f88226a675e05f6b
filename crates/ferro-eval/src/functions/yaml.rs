//! YAML for `yamlencode` (the output format of go-yaml v2 as Terraform's cty-yaml drives it:
//! double-quoted strings, literal blocks for multi-line strings, block collections, flow `[]`
//! and `{}` for empty ones) and `yamldecode` (YAML 1.1 scalar resolution as go-yaml v2 does).

use ferro_value::{Value, ValueKind};
use std::collections::BTreeMap;
use yaml_rust::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust::scanner::{Marker, TScalarStyle, TokenType};

pub(crate) fn encode(v: &Value) -> String {
    let mut out = String::new();
    match &v.kind {
        ValueKind::List(..)
        | ValueKind::Set(..)
        | ValueKind::Tuple(_)
        | ValueKind::Map(..)
        | ValueKind::Object(_)
            if !is_empty_coll(v) =>
        {
            block(v, 0, &mut out, false);
        }
        _ => {
            let (text, plain) = scalar(v, 0);
            out.push_str(&text);
            out.push('\n');
            if plain {
                out.push_str("...\n");
            }
        }
    }
    out
}

fn is_empty_coll(v: &Value) -> bool {
    match &v.kind {
        ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => es.is_empty(),
        ValueKind::Map(_, m) | ValueKind::Object(m) => m.is_empty(),
        _ => false,
    }
}

fn is_block(v: &Value) -> bool {
    !is_empty_coll(v)
        && matches!(
            v.kind,
            ValueKind::List(..)
                | ValueKind::Set(..)
                | ValueKind::Tuple(_)
                | ValueKind::Map(..)
                | ValueKind::Object(_)
        )
}

/// A scalar (or empty collection) as text, and whether it is a plain scalar.
fn scalar(v: &Value, indent: usize) -> (String, bool) {
    match &v.kind {
        ValueKind::Null(_) | ValueKind::Unknown(_) => ("null".into(), true),
        ValueKind::Bool(b) => (b.to_string(), true),
        ValueKind::Number(n) => (n.to_string(), true),
        ValueKind::String(s) => {
            if s.contains('\n') {
                (literal(s, indent), false)
            } else {
                (double_quoted(s), false)
            }
        }
        ValueKind::List(..) | ValueKind::Set(..) | ValueKind::Tuple(_) => ("[]".into(), false),
        ValueKind::Map(..) | ValueKind::Object(_) => ("{}".into(), false),
    }
}

fn literal(s: &str, indent: usize) -> String {
    let trailing = s.len() - s.trim_end_matches('\n').len();
    let chomp = match trailing {
        0 => "-",
        1 => "",
        _ => "+",
    };
    let body = if trailing == 1 {
        &s[..s.len() - 1]
    } else if trailing == 0 {
        s
    } else {
        &s[..s.len() - 1]
    };
    let hint = if s.starts_with(' ') { "2" } else { "" };
    let pad = " ".repeat(indent + 2);
    let mut out = format!("|{hint}{chomp}");
    for line in body.split('\n') {
        out.push('\n');
        if !line.is_empty() {
            out.push_str(&pad);
            out.push_str(line);
        }
    }
    out
}

fn is_printable(c: char) -> bool {
    let u = c as u32;
    u == 0x0A
        || (0x20..=0x7E).contains(&u)
        || u == 0x85
        || ((0xA0..=0xD7FF).contains(&u))
        || ((0xE000..=0xFFFD).contains(&u) && u != 0xFEFF)
        || (0x10000..=0x10FFFF).contains(&u)
}

fn double_quoted(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\0' => out.push_str("\\0"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x0b' => out.push_str("\\v"),
            '\x0c' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\x1b' => out.push_str("\\e"),
            '\u{85}' => out.push_str("\\N"),
            '\u{a0}' => out.push_str("\\_"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            c if !is_printable(c) || c == '\u{feff}' => {
                let u = c as u32;
                if u <= 0xFF {
                    out.push_str(&format!("\\x{u:02X}"));
                } else if u <= 0xFFFF {
                    out.push_str(&format!("\\u{u:04X}"));
                } else {
                    out.push_str(&format!("\\U{u:08X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Emit a non-empty collection at `indent`; when `inline` the first line continues the
/// current line (after `- `).
fn block(v: &Value, indent: usize, out: &mut String, inline: bool) {
    let pad = " ".repeat(indent);
    let mut first = true;
    let start_line = |out: &mut String, first: &mut bool| {
        if !(*first && inline) {
            out.push_str(&pad);
        }
        *first = false;
    };
    if let Some(es) = v.as_elements() {
        for e in es {
            start_line(out, &mut first);
            out.push_str("- ");
            if is_block(e) {
                block(e, indent + 2, out, true);
            } else {
                out.push_str(&scalar(e, indent).0);
                out.push('\n');
            }
        }
    } else if let Some(m) = v.as_entries() {
        for (k, e) in m.iter() {
            start_line(out, &mut first);
            out.push_str(&double_quoted(k));
            out.push(':');
            if is_block(e) {
                out.push('\n');
                let nested = if e.as_elements().is_some() {
                    indent
                } else {
                    indent + 2
                };
                block(e, nested, out, false);
            } else {
                out.push(' ');
                out.push_str(&scalar(e, indent).0);
                out.push('\n');
            }
        }
    }
}

// ---- decoding ----

#[derive(Default)]
struct Collector {
    events: Vec<(Event, Marker)>,
}

impl MarkedEventReceiver for Collector {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        self.events.push((ev, mark));
    }
}

pub(crate) fn decode(src: &str) -> Result<Value, String> {
    let mut c = Collector::default();
    let mut parser = Parser::new(src.chars());
    if let Err(e) = parser.load(&mut c, true) {
        return Err(go_parse_error(src, &e));
    }
    block_values_have_keys(src)?;
    let mut d = Decoder {
        events: c.events,
        pos: 0,
        anchors: BTreeMap::new(),
    };
    // StreamStart
    d.pos = 1;
    match d.events.get(d.pos) {
        Some((Event::DocumentStart, _)) => d.pos += 1,
        _ => return Err("on line 1, column 1: missing start of document".into()),
    }
    let v = d.node()?;
    if let Some((Event::DocumentEnd, _)) = d.events.get(d.pos) {
        d.pos += 1;
    }
    if let Some((Event::DocumentStart, m)) = d.events.get(d.pos) {
        return Err(go_position(m, "unexpected extra content after value"));
    }
    // cty-yaml gives an unknown result for a document that is just null.
    if v.is_null() {
        return Ok(Value::dynamic_unknown());
    }
    Ok(v)
}

/// libyaml (and so go-yaml v2 and cty-yaml) parses a mapping as keys each followed by an
/// optional value: a `:` with no key before it, where yaml-rust reads an empty key, is "did not
/// find expected key" in a block mapping (`: x`, a second `: y` after a value) and "did not
/// find expected node content" in a flow mapping (`{: x}`), at the `:`. The tokens tell: in a
/// mapping every value indicator follows a key indicator (explicit `?` or the one the scanner
/// puts before a simple key) of the same mapping.
fn block_values_have_keys(src: &str) -> Result<(), String> {
    use yaml_rust::scanner::{Scanner, Token};
    /// What a `:` without a key is in the collection that is open (None: not a mapping).
    struct Open {
        missing_key: Option<&'static str>,
        key_waiting: bool,
    }
    let open_as = |missing_key| Open {
        missing_key,
        key_waiting: false,
    };
    let mut open: Vec<Open> = Vec::new();
    for Token(mark, token) in Scanner::new(src.chars()) {
        match token {
            TokenType::BlockMappingStart => open.push(open_as(Some("did not find expected key"))),
            TokenType::FlowMappingStart => {
                open.push(open_as(Some("did not find expected node content")))
            }
            TokenType::BlockSequenceStart | TokenType::FlowSequenceStart => {
                open.push(open_as(None))
            }
            TokenType::BlockEnd | TokenType::FlowMappingEnd | TokenType::FlowSequenceEnd => {
                open.pop();
            }
            TokenType::Key | TokenType::FlowEntry => {
                if let Some(o) = open.last_mut() {
                    o.key_waiting = matches!(token, TokenType::Key);
                }
            }
            TokenType::Value => {
                if let Some(o) = open.last_mut() {
                    if let (Some(problem), false) = (o.missing_key, o.key_waiting) {
                        return Err(go_position(&mark, problem));
                    }
                    o.key_waiting = false;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// A position as cty's YAML decoder writes it: libyaml's line counted from 0 (so an error on
/// the first line has no position at all) and its column from 1.
fn go_position(m: &Marker, message: &str) -> String {
    match m.line().saturating_sub(1) {
        0 => message.to_string(),
        line => format!("on line {line}, column {}: {message}", m.col() + 1),
    }
}

/// A parser error as cty's YAML decoder reports it: the problem without libyaml's
/// "while parsing …" context, an undefined alias named.
fn go_parse_error(src: &str, e: &yaml_rust::ScanError) -> String {
    let text = scan_message(e);
    let problem = match text.split_once(", ") {
        Some((context, problem)) if context.starts_with("while parsing") => problem,
        _ => text.as_str(),
    };
    let m = e.marker();
    if problem == "found unknown anchor" {
        let name: String = src
            .chars()
            .skip(m.index())
            .skip_while(|c| *c == '*')
            .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
            .collect();
        return go_position(m, &format!("reference to undefined anchor {name:?}"));
    }
    go_position(m, problem)
}

fn scan_message(e: &yaml_rust::ScanError) -> String {
    let text = e.to_string();
    text.split(" at line").next().unwrap_or(&text).to_string()
}

struct Decoder {
    events: Vec<(Event, Marker)>,
    pos: usize,
    anchors: BTreeMap<usize, Value>,
}

impl Decoder {
    fn node(&mut self) -> Result<Value, String> {
        let Some((ev, mark)) = self.events.get(self.pos).cloned() else {
            return Err("unexpected end of document".into());
        };
        self.pos += 1;
        let (v, anchor) = match ev {
            Event::Scalar(text, style, anchor, tag) => {
                (resolve(&text, style, tag.as_ref(), &mark)?, anchor)
            }
            Event::SequenceStart(anchor) => {
                let mut items = Vec::new();
                while !matches!(
                    self.events.get(self.pos),
                    Some((Event::SequenceEnd, _)) | None
                ) {
                    items.push(self.node()?);
                }
                self.pos += 1;
                (Value::tuple(items), anchor)
            }
            Event::MappingStart(anchor) => {
                let mut attrs = BTreeMap::new();
                while !matches!(
                    self.events.get(self.pos),
                    Some((Event::MappingEnd, _)) | None
                ) {
                    let k = self.node()?;
                    let v = self.node()?;
                    let key = match &k.kind {
                        ValueKind::String(s) => s.to_string(),
                        ValueKind::Number(n) => n.to_string(),
                        ValueKind::Bool(b) => b.to_string(),
                        ValueKind::Null(_) => "null".to_string(),
                        _ => {
                            return Err(format!(
                                "on line {}, column {}: only string keys are supported",
                                mark.line(),
                                mark.col() + 1
                            ))
                        }
                    };
                    if key == "<<" {
                        if let Some(m) = v.as_entries() {
                            for (mk, mv) in m.iter() {
                                attrs.entry(mk.to_string()).or_insert_with(|| mv.clone());
                            }
                            continue;
                        }
                    }
                    attrs.insert(key, v);
                }
                self.pos += 1;
                (Value::object(attrs.into()), anchor)
            }
            Event::Alias(id) => match self.anchors.get(&id) {
                Some(v) => return Ok(v.clone()),
                None => {
                    return Err(format!(
                        "on line {}, column {}: unknown anchor",
                        mark.line(),
                        mark.col() + 1
                    ))
                }
            },
            _ => {
                return Err(format!(
                    "on line {}, column {}: did not find expected node content",
                    mark.line(),
                    mark.col() + 1
                ))
            }
        };
        if anchor > 0 {
            self.anchors.insert(anchor, v.clone());
        }
        Ok(v)
    }
}

fn resolve(
    text: &str,
    style: TScalarStyle,
    tag: Option<&TokenType>,
    _mark: &Marker,
) -> Result<Value, String> {
    let full = match tag {
        Some(TokenType::Tag(handle, suffix)) if handle == "!!" => {
            format!("tag:yaml.org,2002:{suffix}")
        }
        Some(TokenType::Tag(handle, suffix)) => format!("{handle}{suffix}"),
        _ => String::new(),
    };
    super::yaml_scalar::resolve(text, style, &full)
}
