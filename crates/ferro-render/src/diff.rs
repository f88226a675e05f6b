//! The attribute-level diff of one resource instance change (or of the root outputs), laid out
//! as Terraform lays it out: one line per attribute with an action symbol, names aligned,
//! `old -> new`, unchanged attributes counted rather than shown, nested blocks indented.

use super::pen::Pen;
use ferro_plan::Action;
use ferro_value::schema::{Block, NestingMode};
use ferro_value::{Key, PathStep, Type, Value, ValueKind};
use std::collections::BTreeSet;

#[path = "diff_values.rs"]
mod diff_values;

/// An attribute the provider's schema declares sensitive (and an output declared sensitive).
const SENSITIVE: &str = "(sensitive value)";
/// A value marked sensitive (from a sensitive variable, output or `sensitive()`), wherever it
/// appears: Terraform 1.0 prints the shorter text for these.
const MARKED: &str = "(sensitive)";
const FORCES: &str = " [red]# forces replacement[reset]";

/// Whether an action symbol, the body of a block, and counts of what was left out.
#[derive(Default)]
struct BodyResult {
    written: bool,
    skipped_attrs: usize,
    skipped_blocks: usize,
}

pub struct DiffPrinter<'a> {
    pub out: String,
    pen: Pen,
    action: Action,
    requires_replace: &'a [Vec<PathStep>],
    /// Show unchanged attributes and blocks too (`show` of a state).
    verbose: bool,
    /// Rendering a protocol 6 nested attribute: its objects' attributes are listed as a
    /// block's are (`id`, `name` and `tags` shown even when unchanged); plain object values
    /// hide every unchanged attribute.
    pub(super) in_nested_attr: bool,
}

impl<'a> DiffPrinter<'a> {
    pub fn new(pen: Pen, action: Action, requires_replace: &'a [Vec<PathStep>]) -> Self {
        DiffPrinter {
            out: String::new(),
            pen,
            action,
            requires_replace,
            verbose: false,
            in_nested_attr: false,
        }
    }

    pub fn verbose(mut self) -> Self {
        self.verbose = true;
        self
    }

    fn color(&mut self, s: &str) {
        let c = self.pen.paint(s);
        self.out.push_str(&c);
    }

    fn pad(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    fn symbol(&mut self, a: Action) {
        match a {
            Action::Create => self.color("[green]+[reset] "),
            Action::Delete => self.color("[red]-[reset] "),
            Action::Update => self.color("[yellow]~[reset] "),
            Action::NoOp => self.out.push_str("  "),
            _ => self.out.push_str("? "),
        }
    }

    fn forces(&self, path: &[PathStep]) -> bool {
        self.action.is_replace() && self.requires_replace.iter().any(|p| p.as_slice() == path)
    }

    fn forces_here_or_parent(&self, path: &[PathStep]) -> bool {
        self.forces(path) || (!path.is_empty() && self.forces(&path[..path.len() - 1]))
    }

    /// The body of a resource block; returns true when anything was written.
    pub fn block_body(&mut self, schema: &Block, old: &Value, new: &Value, indent: usize) -> bool {
        let mut path = Vec::new();
        self.body(schema, old, new, indent, &mut path).written
    }

    fn body(
        &mut self,
        schema: &Block,
        old: &Value,
        new: &Value,
        indent: usize,
        path: &mut Vec<PathStep>,
    ) -> BodyResult {
        let mut result = BodyResult::default();
        let mut blank_before_blocks = self.attrs(schema, old, new, indent, path, &mut result);
        self.skipped_attrs(result.skipped_attrs, indent + 2);
        for (name, nb) in &schema.block_types {
            let o = attr_or_null(old, name, &nb_type(nb));
            let n = attr_or_null(new, name, &nb_type(nb));
            result.written = true;
            path.push(PathStep::Attr(name.clone()));
            result.skipped_blocks += self.nested_blocks(
                name,
                nb.nesting,
                &nb.block,
                &o,
                &n,
                blank_before_blocks,
                indent,
                path,
            );
            path.pop();
            blank_before_blocks = true;
        }
        if result.skipped_blocks > 0 {
            let noun = if result.skipped_blocks == 1 {
                "block"
            } else {
                "blocks"
            };
            self.out.push('\n');
            self.pad(indent + 2);
            let text = format!(
                "[dark_gray]# ({} unchanged {noun} hidden)[reset]",
                result.skipped_blocks
            );
            self.color(&text);
        }
        result
    }

    /// Attributes of a block (or the synthetic block of outputs); returns whether any were listed.
    fn attrs(
        &mut self,
        schema: &Block,
        old: &Value,
        new: &Value,
        indent: usize,
        path: &mut Vec<PathStep>,
        result: &mut BodyResult,
    ) -> bool {
        let mut names = Vec::new();
        let mut width = 0;
        for (name, a) in &schema.attributes {
            let o = attr_or_null(old, name, &a.ty);
            let n = attr_or_null(new, name, &a.ty);
            // A write-only attribute is always null, and always listed (as Terraform does).
            if o.is_null() && n.is_null() && !a.write_only {
                continue;
            }
            let shown = display_name(name);
            width = width.max(shown.len());
            names.push((name, shown, o, n));
        }
        if names.is_empty() {
            return false;
        }
        for (name, shown, o, n) in names {
            result.written = true;
            let a = &schema.attributes[name];
            if a.write_only {
                path.push(PathStep::Attr(name.clone()));
                if self.write_only(&shown, old, new, width, indent, path) {
                    result.skipped_attrs += 1;
                }
                path.pop();
                continue;
            }
            path.push(PathStep::Attr(name.clone()));
            let outer = self.in_nested_attr;
            self.in_nested_attr = a.nested.is_some();
            let skipped = self.attr(&shown, a.sensitive, &o, &n, width, indent, path);
            self.in_nested_attr = outer;
            path.pop();
            if skipped {
                result.skipped_attrs += 1;
            }
        }
        true
    }

    #[allow(clippy::too_many_arguments)]
    fn attr(
        &mut self,
        name: &str,
        sensitive: bool,
        old: &Value,
        new: &Value,
        width: usize,
        indent: usize,
        path: &[PathStep],
    ) -> bool {
        let (action, just_new) = value_action(old, new);
        if action == Action::NoOp && !self.verbose && !identifying(name) {
            return true;
        }
        self.out.push('\n');
        self.sensitivity_warning(old, new, indent, action, false);
        self.pad(indent);
        self.symbol(action);
        self.color("[bold]");
        self.out.push_str(name);
        self.color("[reset]");
        self.pad(width - name.len());
        self.out.push_str(" = ");
        if sensitive {
            self.out.push_str(SENSITIVE);
            if self.forces(path) {
                self.color(FORCES);
            }
        } else if just_new {
            self.value(new, action, indent + 2);
            if self.forces(path) {
                self.color(FORCES);
            }
        } else {
            self.value_diff(old, new, indent + 2, path);
        }
        false
    }

    /// A write-only attribute: no value to show, only the action of the block it is in (an
    /// update leaves it unchanged, so it is hidden unless verbose); returns whether it was
    /// skipped.
    fn write_only(
        &mut self,
        name: &str,
        block_old: &Value,
        block_new: &Value,
        width: usize,
        indent: usize,
        path: &[PathStep],
    ) -> bool {
        let action = if block_old.is_null() {
            Action::Create
        } else if block_new.is_null() {
            Action::Delete
        } else {
            Action::NoOp
        };
        if action == Action::NoOp && !self.verbose {
            return true;
        }
        self.out.push('\n');
        self.pad(indent);
        self.symbol(action);
        self.color("[bold]");
        self.out.push_str(name);
        self.color("[reset]");
        self.pad(width - name.len());
        self.out.push_str(" = ");
        if block_old.is_sensitive() || block_new.is_sensitive() {
            self.out.push_str("(sensitive, write-only attribute)");
        } else {
            self.out.push_str("(write-only attribute)");
        }
        if action == Action::Delete {
            self.color(" [dark_gray]-> null[reset]");
        }
        if self.forces(path) {
            self.color(FORCES);
        }
        false
    }

    fn skipped_attrs(&mut self, n: usize, indent: usize) {
        if n > 0 {
            let noun = if n == 1 { "attribute" } else { "attributes" };
            self.out.push('\n');
            self.pad(indent);
            let text = format!("[dark_gray]# ({n} unchanged {noun} hidden)[reset]");
            self.color(&text);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn nested_blocks(
        &mut self,
        name: &str,
        nesting: NestingMode,
        block: &Block,
        old: &Value,
        new: &Value,
        blank_before: bool,
        indent: usize,
        path: &mut Vec<PathStep>,
    ) -> usize {
        if old.is_null() && new.is_null() {
            return 0;
        }
        if old.is_sensitive() || new.is_sensitive() {
            self.sensitive_block(name, old, new, indent, blank_before, path);
            return 0;
        }
        let mut skipped = 0;
        match nesting {
            NestingMode::Single | NestingMode::Group => {
                let action = if old.is_null() {
                    Action::Create
                } else if new.is_null() {
                    Action::Delete
                } else if !new.is_wholly_known() || !old.is_wholly_known() || old != new {
                    Action::Update
                } else {
                    Action::NoOp
                };
                if blank_before {
                    self.out.push('\n');
                }
                if self.nested_block(name, None, block, action, old, new, indent, path) {
                    skipped += 1;
                }
            }
            NestingMode::List => {
                let olds = elements(old);
                let news = elements(new);
                let common = olds.len().min(news.len());
                let total = olds.len().max(news.len());
                if blank_before && total > 0 {
                    self.out.push('\n');
                }
                for i in 0..total {
                    let (action, o, n) = if i < common {
                        let a = if olds[i] == news[i] {
                            Action::NoOp
                        } else {
                            Action::Update
                        };
                        (a, olds[i].clone(), news[i].clone())
                    } else if i < olds.len() {
                        (Action::Delete, olds[i].clone(), Value::null(olds[i].ty()))
                    } else {
                        (Action::Create, Value::null(news[i].ty()), news[i].clone())
                    };
                    path.push(PathStep::Index(Value::int(i as i64)));
                    let s = self.nested_block(name, None, block, action, &o, &n, indent, path);
                    path.pop();
                    if s {
                        skipped += 1;
                    }
                }
            }
            NestingMode::Set => {
                let olds = elements(old);
                let news = elements(new);
                if olds.is_empty() && news.is_empty() {
                    return 0;
                }
                let all: BTreeSet<Value> = olds.iter().chain(news.iter()).cloned().collect();
                if blank_before {
                    self.out.push('\n');
                }
                for v in all {
                    let (action, o, n) = if !v.is_known() {
                        (Action::Update, Value::null(v.ty()), v.clone())
                    } else if !olds.contains(&v) {
                        (Action::Create, Value::null(v.ty()), v.clone())
                    } else if !news.contains(&v) {
                        (Action::Delete, v.clone(), Value::null(v.ty()))
                    } else {
                        (Action::NoOp, v.clone(), v.clone())
                    };
                    path.push(PathStep::Index(v.clone()));
                    let s = self.nested_block(name, None, block, action, &o, &n, indent, path);
                    path.pop();
                    if s {
                        skipped += 1;
                    }
                }
            }
            NestingMode::Map => {
                let olds = entries(old);
                let news = entries(new);
                let keys: BTreeSet<&Key> = olds.keys().chain(news.keys()).collect();
                if keys.is_empty() {
                    return 0;
                }
                if blank_before {
                    self.out.push('\n');
                }
                for k in keys {
                    let (action, o, n) = match (olds.get(k), news.get(k)) {
                        (None, Some(n)) => (Action::Create, Value::null(n.ty()), n.clone()),
                        (Some(o), None) => (Action::Delete, o.clone(), Value::null(o.ty())),
                        (Some(o), Some(n)) if o != n => (Action::Update, o.clone(), n.clone()),
                        (Some(o), Some(n)) => (Action::NoOp, o.clone(), n.clone()),
                        (None, None) => continue,
                    };
                    path.push(PathStep::Index(Value::string(k.as_str())));
                    let s = self.nested_block(name, Some(k), block, action, &o, &n, indent, path);
                    path.pop();
                    if s {
                        skipped += 1;
                    }
                }
            }
        }
        skipped
    }

    fn sensitive_block(
        &mut self,
        name: &str,
        old: &Value,
        new: &Value,
        indent: usize,
        blank_before: bool,
        path: &[PathStep],
    ) {
        let action = if old.is_null() {
            Action::Create
        } else if new.is_null() {
            Action::Delete
        } else if !new.is_wholly_known() || !old.is_wholly_known() || old != new {
            Action::Update
        } else {
            Action::NoOp
        };
        if blank_before {
            self.out.push('\n');
        }
        self.out.push('\n');
        self.sensitivity_warning(old, new, indent, action, true);
        self.pad(indent);
        self.symbol(action);
        self.out.push_str(name);
        self.out.push_str(" {");
        if action != Action::NoOp && self.forces(path) {
            self.color(FORCES);
        }
        self.out.push('\n');
        self.pad(indent + 4);
        self.out
            .push_str("# At least one attribute in this block is (or was) sensitive,\n");
        self.pad(indent + 4);
        self.out
            .push_str("# so its contents will not be displayed.\n");
        self.pad(indent + 2);
        self.out.push('}');
    }

    /// One nested block; returns true when it was skipped as unchanged.
    #[allow(clippy::too_many_arguments)]
    fn nested_block(
        &mut self,
        name: &str,
        label: Option<&str>,
        block: &Block,
        action: Action,
        old: &Value,
        new: &Value,
        indent: usize,
        path: &mut Vec<PathStep>,
    ) -> bool {
        if action == Action::NoOp && !self.verbose {
            return true;
        }
        self.out.push('\n');
        self.pad(indent);
        self.symbol(action);
        match label {
            Some(l) => {
                self.out.push_str(name);
                self.out.push(' ');
                self.out.push_str(&go_quote(l));
                self.out.push_str(" {");
            }
            None => {
                self.out.push_str(name);
                self.out.push_str(" {");
            }
        }
        if self.forces_here_or_parent(path) {
            self.color(FORCES);
        }
        let r = self.body(block, old, new, indent + 4, path);
        if r.written {
            self.out.push('\n');
            self.pad(indent + 2);
        }
        self.out.push('}');
        false
    }

    fn sensitivity_warning(
        &mut self,
        old: &Value,
        new: &Value,
        indent: usize,
        action: Action,
        is_block: bool,
    ) {
        if matches!(action, Action::Create | Action::Delete) {
            return;
        }
        let what = if is_block { "block" } else { "attribute value" };
        let suffix = if !is_block && old.deep_unmark().0 == new.deep_unmark().0 {
            " The value is unchanged."
        } else {
            ""
        };
        if new.is_sensitive() && !old.is_sensitive() {
            self.pad(indent);
            let t = format!(
                "# [yellow]Warning:[reset] this {what} will be marked as sensitive and will not\n"
            );
            self.color(&t);
            self.pad(indent);
            self.out.push_str(&format!(
                "# display in UI output after applying this change.{suffix}\n"
            ));
        }
        if old.is_sensitive() && !new.is_sensitive() {
            self.pad(indent);
            let t = format!(
                "# [yellow]Warning:[reset] this {what} will no longer be marked as sensitive\n"
            );
            self.color(&t);
            self.pad(indent);
            self.out
                .push_str(&format!("# after applying this change.{suffix}\n"));
        }
    }

    /// A whole value, every nested line prefixed with `action`'s symbol.
    pub fn value(&mut self, v: &Value, action: Action, indent: usize) {
        if v.is_sensitive() {
            self.out.push_str(MARKED);
            return;
        }
        match &v.kind {
            ValueKind::Unknown(_) => self.out.push_str("(known after apply)"),
            ValueKind::Null(_) => self.color("[dark_gray]null[reset]"),
            ValueKind::String(s) => {
                if let Some(j) = json_container(s) {
                    self.out.push_str("jsonencode(");
                    if container_len(&j) == 0 {
                        self.value(&j, action, 0);
                    } else {
                        self.out.push('\n');
                        self.pad(indent + 4);
                        self.value(&j, action, indent + 4);
                        self.out.push('\n');
                        self.pad(indent);
                    }
                    self.out.push(')');
                } else if s.contains('\n') {
                    self.value_diff(v, v, indent, &[]);
                } else {
                    self.out.push_str(&go_quote(s));
                }
            }
            ValueKind::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            ValueKind::Number(n) => self.out.push_str(&n.to_string()),
            ValueKind::List(_, es) | ValueKind::Set(_, es) | ValueKind::Tuple(es) => {
                self.out.push('[');
                for e in es.iter() {
                    self.out.push('\n');
                    self.pad(indent + 2);
                    self.symbol(action);
                    self.value(e, action, indent + 4);
                    self.out.push(',');
                }
                if !es.is_empty() {
                    self.out.push('\n');
                    self.pad(indent);
                }
                self.out.push(']');
            }
            ValueKind::Map(_, m) => {
                self.out.push('{');
                let width = m.keys().map(|k| go_quote(k).len()).max().unwrap_or(0);
                for (k, e) in m.iter() {
                    self.out.push('\n');
                    self.pad(indent + 2);
                    self.symbol(action);
                    let q = go_quote(k);
                    self.out.push_str(&q);
                    self.pad(width - q.len());
                    self.out.push_str(" = ");
                    self.value(e, action, indent + 4);
                }
                if !m.is_empty() {
                    self.out.push('\n');
                    self.pad(indent);
                }
                self.out.push('}');
            }
            ValueKind::Object(m) => {
                self.out.push('{');
                let width = m.keys().map(|k| display_name(k).len()).max().unwrap_or(0);
                for (k, e) in m.iter() {
                    self.out.push('\n');
                    self.pad(indent + 2);
                    self.symbol(action);
                    let d = display_name(k);
                    self.out.push_str(&d);
                    self.pad(width - d.len());
                    self.out.push_str(" = ");
                    self.value(e, action, indent + 4);
                }
                if !m.is_empty() {
                    self.out.push('\n');
                    self.pad(indent);
                }
                self.out.push('}');
            }
        }
    }
}

fn nb_type(nb: &ferro_value::schema::NestedBlock) -> Type {
    let inner = nb.block.implied_type();
    match nb.nesting {
        NestingMode::Single | NestingMode::Group => inner,
        NestingMode::List => Type::list(inner),
        NestingMode::Set => Type::set(inner),
        NestingMode::Map => Type::map(inner),
    }
}

/// An attribute of an object value; null when the object is null or lacks it. Empty strings
/// count as null (legacy SDK providers cannot tell them apart), unless sensitive values are inside.
fn attr_or_null(obj: &Value, name: &str, ty: &Type) -> Value {
    if obj.is_null() || !obj.is_known() {
        return if obj.is_known() {
            Value::null(ty.clone())
        } else {
            Value::unknown(ty.clone())
        };
    }
    match obj.get_attr(name) {
        Some(v) => {
            if !obj.contains_sensitive() && v.as_str() == Some("") {
                Value::null(ty.clone())
            } else {
                v.clone()
            }
        }
        None => Value::null(ty.clone()),
    }
}

fn value_action(old: &Value, new: &Value) -> (Action, bool) {
    if old.is_null() {
        (Action::Create, true)
    } else if new.is_null() {
        (Action::Delete, false)
    } else if old.is_wholly_known() && new.is_wholly_known() && old == new {
        (Action::NoOp, true)
    } else {
        (Action::Update, false)
    }
}

fn identifying(name: &str) -> bool {
    name == "id" || name == "tags" || name == "name"
}

fn elements(v: &Value) -> Vec<Value> {
    v.as_elements().map(|e| e.to_vec()).unwrap_or_default()
}

fn entries(v: &Value) -> ferro_value::ValueMap {
    v.as_entries().cloned().unwrap_or_default()
}

/// An attribute name as HCL would accept it, else quoted.
pub fn display_name(name: &str) -> String {
    let mut cs = name.chars();
    let valid = cs.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && cs.all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    if valid {
        name.to_string()
    } else {
        go_quote(name)
    }
}

pub use ferro_value::json::go_quote;

/// Lines as Go's `bufio.Scanner` yields them: split on `\n`, a final empty line dropped, `\r` trimmed.
fn scan_lines(s: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = s
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if s.ends_with('\n') || s.is_empty() {
        lines.pop();
    }
    lines
}

/// The JSON text as a value when it is an object or array.
fn json_container(s: &str) -> Option<Value> {
    let v = json_any(s)?;
    if is_container(&v) && s.trim() != "null" {
        Some(v)
    } else {
        None
    }
}

fn json_any(s: &str) -> Option<Value> {
    let t = s.trim_start();
    if !(t.starts_with('{')
        || t.starts_with('[')
        || t.starts_with('"')
        || t.starts_with('-')
        || t.starts_with(|c: char| c.is_ascii_digit())
        || t.starts_with("true")
        || t.starts_with("false")
        || t.starts_with("null"))
    {
        return None;
    }
    let j: serde_json::Value = serde_json::from_str(s).ok()?;
    Some(json_to_value(&j))
}

/// JSON as the cty value `ImpliedType` + `Unmarshal` would give: objects as objects, arrays as tuples.
fn json_to_value(j: &serde_json::Value) -> Value {
    ferro_value::json::value_from_plain_json(j)
}

fn is_container(v: &Value) -> bool {
    matches!(
        v.kind,
        ValueKind::Object(_)
            | ValueKind::Tuple(_)
            | ValueKind::List(..)
            | ValueKind::Map(..)
            | ValueKind::Set(..)
    )
}

fn container_len(v: &Value) -> usize {
    v.as_elements()
        .map(|e| e.len())
        .or_else(|| v.as_entries().map(|m| m.len()))
        .unwrap_or(0)
}

struct ElemDiff {
    action: Action,
    before: Value,
    after: Value,
}

fn values_equal(a: &Value, b: &Value) -> bool {
    a.is_wholly_known() && b.is_wholly_known() && a == b
}

/// The longest common subsequence of two sequences (classic dynamic programme; these are the
/// elements of one attribute, so quadratic cost in their length is acceptable).
fn lcs<T: Clone>(a: &[T], b: &[T], eq: impl Fn(&T, &T) -> bool) -> Vec<T> {
    let (n, m) = (a.len(), b.len());
    let mut t = vec![0u32; (n + 1) * (m + 1)];
    let idx = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[idx(i, j)] = if eq(&a[i], &b[j]) {
                t[idx(i + 1, j + 1)] + 1
            } else {
                t[idx(i + 1, j)].max(t[idx(i, j + 1)])
            };
        }
    }
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if eq(&a[i], &b[j]) {
            out.push(a[i].clone());
            i += 1;
            j += 1;
        } else if t[idx(i + 1, j)] >= t[idx(i, j + 1)] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Walk two sequences along their longest common subsequence (by `eq`): elements only in the
/// old one are deletions, only in the new one creations; an old and a new element that `pair`
/// accepts (and that are not common) become one update. Each entry is (action, old, new).
fn diff_sequences<T: Clone + PartialEq>(
    old: &[T],
    new: &[T],
    eq: impl Fn(&T, &T) -> bool,
    pair: impl Fn(&T, &T) -> bool,
) -> Vec<(Action, Option<T>, Option<T>)> {
    let common = lcs(old, new, eq);
    let mut out = Vec::new();
    let (mut oi, mut ni, mut ci) = (0, 0, 0);
    while oi < old.len() || ni < new.len() || ci < common.len() {
        while oi < old.len() && (ci >= common.len() || old[oi] != common[ci]) {
            if ni < new.len()
                && (ci >= common.len() || new[ni] != common[ci])
                && pair(&old[oi], &new[ni])
            {
                out.push((Action::Update, Some(old[oi].clone()), Some(new[ni].clone())));
                oi += 1;
                ni += 1;
                continue;
            }
            out.push((Action::Delete, Some(old[oi].clone()), None));
            oi += 1;
        }
        while ni < new.len() && (ci >= common.len() || new[ni] != common[ci]) {
            out.push((Action::Create, None, Some(new[ni].clone())));
            ni += 1;
        }
        if ci < common.len() {
            out.push((
                Action::NoOp,
                Some(common[ci].clone()),
                Some(common[ci].clone()),
            ));
            ci += 1;
            oi += 1;
            ni += 1;
        }
    }
    out
}

/// Element diff of two lists: objects at the same place in both become updates.
fn sequence_diff(old: &[Value], new: &[Value]) -> Vec<ElemDiff> {
    let is_obj = |v: &Value| matches!(v.ty(), Type::Object(_));
    diff_sequences(old, new, values_equal, |o, n| is_obj(o) && is_obj(n))
        .into_iter()
        .map(|(action, before, after)| {
            let before = before.unwrap_or_else(|| {
                Value::null(after.as_ref().map(Value::ty).unwrap_or(Type::Dynamic))
            });
            let after = after.unwrap_or_else(|| Value::null(before.ty()));
            ElemDiff {
                action,
                before,
                after,
            }
        })
        .collect()
}

/// Line diff of two multi-line strings.
fn sequence_diff_lines<'s>(old: &[&'s str], new: &[&'s str]) -> Vec<(Action, &'s str)> {
    diff_sequences(old, new, |a, b| a == b, |_, _| false)
        .into_iter()
        .filter_map(|(action, before, after)| {
            Some((
                action,
                if action == Action::Create {
                    after?
                } else {
                    before?
                },
            ))
        })
        .collect()
}
