//! Diffs of two values inside an attribute: strings line by line (heredocs), sets, lists (by
//! longest common subsequence), maps and objects, with unchanged elements hidden and counted.

use super::*;

impl DiffPrinter<'_> {
    /// `old -> new`, or for collections, strings with newlines and JSON strings an element-wise diff.
    pub(super) fn value_diff(
        &mut self,
        old: &Value,
        new: &Value,
        indent: usize,
        path: &[PathStep],
    ) {
        let (ot, nt) = (old.ty(), new.ty());
        let types_equal = match (&ot, &nt) {
            (Type::Object(_), Type::Object(_)) | (Type::Tuple(_), Type::Tuple(_)) => true,
            _ => ot == nt,
        };
        if old.is_known() && new.is_known() && !old.is_null() && !new.is_null() && types_equal {
            if old.is_sensitive() || new.is_sensitive() {
                self.out.push_str(MARKED);
                if self.forces(path) {
                    self.color(FORCES);
                }
                return;
            }
            #[allow(clippy::collapsible_match)]
            match (&old.kind, &new.kind) {
                (ValueKind::String(os), ValueKind::String(ns)) => {
                    if self.string_diff(os, ns, indent, path) {
                        return;
                    }
                }
                (ValueKind::Set(_, oes), ValueKind::Set(_, nes)) => {
                    self.set_diff(oes, nes, indent, path);
                    return;
                }
                (
                    ValueKind::List(_, oes) | ValueKind::Tuple(oes),
                    ValueKind::List(_, nes) | ValueKind::Tuple(nes),
                ) => {
                    self.list_diff(oes, nes, indent, path);
                    return;
                }
                (ValueKind::Map(_, om), ValueKind::Map(_, nm)) => {
                    self.map_diff(om, nm, indent, path, false);
                    return;
                }
                (ValueKind::Object(om), ValueKind::Object(nm)) => {
                    self.map_diff(om, nm, indent, path, true);
                    return;
                }
                _ => {}
            }
        }
        self.value(old, Action::Delete, indent);
        if new.is_null() {
            self.color(" [dark_gray]->[reset] ");
        } else {
            self.color(" [yellow]->[reset] ");
        }
        self.value(new, Action::Create, indent);
        if self.forces(path) {
            self.color(FORCES);
        }
    }

    /// Multi-line and JSON strings; returns false when the plain `old -> new` form applies.
    pub(super) fn string_diff(
        &mut self,
        os: &str,
        ns: &str,
        indent: usize,
        path: &[PathStep],
    ) -> bool {
        if let (Some(oj), Some(nj)) = (json_any(os), json_any(ns)) {
            if is_container(&oj) || is_container(&nj) {
                if oj != nj {
                    self.out.push_str("jsonencode(\n");
                    self.pad(indent + 2);
                    self.symbol(Action::Update);
                    self.value_diff(&oj, &nj, indent + 4, path);
                    self.out.push('\n');
                    self.pad(indent);
                    self.out.push(')');
                } else {
                    if self.forces(path) {
                        self.color(
                            "jsonencode( [red]# whitespace changes force replacement[reset]",
                        );
                    } else {
                        self.color("jsonencode( [dim]# whitespace changes[reset]");
                    }
                    self.out.push('\n');
                    self.pad(indent + 4);
                    self.value(&oj, Action::NoOp, indent + 4);
                    self.out.push('\n');
                    self.pad(indent);
                    self.out.push(')');
                }
                return true;
            }
        }
        if !os.contains('\n') && !ns.contains('\n') {
            return false;
        }
        self.out.push_str("<<-EOT");
        if self.forces(path) {
            self.color(FORCES);
        }
        self.out.push('\n');
        let ol: Vec<&str> = scan_lines(os);
        let nl: Vec<&str> = scan_lines(ns);
        if os == ns {
            for l in nl {
                self.pad(indent + 4);
                self.out.push_str(l);
                self.out.push('\n');
            }
        } else {
            for (action, line) in sequence_diff_lines(&ol, &nl) {
                self.pad(indent + 2);
                self.symbol(action);
                self.out.push_str(line);
                self.out.push('\n');
            }
        }
        self.pad(indent);
        self.out.push_str("EOT");
        true
    }

    pub(super) fn set_diff(
        &mut self,
        old: &[Value],
        new: &[Value],
        indent: usize,
        path: &[PathStep],
    ) {
        self.out.push('[');
        if self.forces(path) {
            self.color(FORCES);
        }
        self.out.push('\n');
        let all: BTreeSet<&Value> = old.iter().chain(new.iter()).collect();
        let mut suppressed = 0;
        for v in all {
            let action = if !v.is_wholly_known() {
                Action::Update
            } else if !old.contains(v) {
                Action::Create
            } else if !new.contains(v) {
                Action::Delete
            } else {
                Action::NoOp
            };
            if action == Action::NoOp {
                suppressed += 1;
                continue;
            }
            self.pad(indent + 2);
            self.symbol(action);
            self.value(v, action, indent + 4);
            self.out.push_str(",\n");
        }
        self.hidden_elements(suppressed, indent);
        self.pad(indent);
        self.out.push(']');
    }

    pub(super) fn hidden_elements(&mut self, n: usize, indent: usize) {
        if n > 0 {
            self.symbol(Action::NoOp);
            self.pad(indent + 2);
            let noun = if n == 1 { "element" } else { "elements" };
            let t = format!("[dark_gray]# ({n} unchanged {noun} hidden)[reset]");
            self.color(&t);
            self.out.push('\n');
        }
    }

    pub(super) fn list_diff(
        &mut self,
        old: &[Value],
        new: &[Value],
        indent: usize,
        path: &[PathStep],
    ) {
        self.out.push('[');
        if self.forces(path) {
            self.color(FORCES);
        }
        self.out.push('\n');
        let diffs = sequence_diff(old, new);
        let mut suppressed: Vec<&ElemDiff> = Vec::new();
        let mut change_shown = false;
        let mut i = 0;
        loop {
            while i < diffs.len() && diffs[i].action == Action::NoOp {
                suppressed.push(&diffs[i]);
                i += 1;
            }
            if !suppressed.is_empty() {
                let mut rest: &[&ElemDiff] = &suppressed;
                if change_shown {
                    let d = rest[0];
                    self.pad(indent + 4);
                    self.value(&d.after, d.action, indent + 4);
                    self.out.push_str(",\n");
                    rest = &rest[1..];
                }
                let mut hidden = rest.len();
                let mut next_context = None;
                if hidden > 0 && i < diffs.len() {
                    hidden -= 1;
                    next_context = Some(rest[hidden]);
                }
                self.hidden_elements(hidden, indent);
                if let Some(d) = next_context {
                    self.pad(indent + 4);
                    self.value(&d.after, d.action, indent + 4);
                    self.out.push_str(",\n");
                }
                suppressed.clear();
            }
            if i >= diffs.len() {
                break;
            }
            let d = &diffs[i];
            self.pad(indent + 2);
            self.symbol(d.action);
            match d.action {
                Action::NoOp | Action::Delete => self.value(&d.before, d.action, indent + 4),
                Action::Update => self.value_diff(&d.before, &d.after, indent + 4, path),
                _ => self.value(&d.after, d.action, indent + 4),
            }
            self.out.push_str(",\n");
            change_shown = true;
            i += 1;
        }
        self.pad(indent);
        self.out.push(']');
    }

    pub(super) fn map_diff(
        &mut self,
        old: &ferro_value::ValueMap,
        new: &ferro_value::ValueMap,
        indent: usize,
        path: &[PathStep],
        object: bool,
    ) {
        self.out.push('{');
        let forces = self.forces(path);
        if !object && forces {
            self.color(FORCES);
        }
        self.out.push('\n');
        let shown = |k: &str| if object { display_name(k) } else { go_quote(k) };
        let keys: BTreeSet<&Key> = old.keys().chain(new.keys()).collect();
        let width = keys.iter().map(|k| shown(k).len()).max().unwrap_or(0);
        let mut suppressed = 0;
        for k in keys {
            let (o, n) = (old.get(k), new.get(k));
            let action = match (o, n) {
                (None, _) => Action::Create,
                (_, None) => Action::Delete,
                (Some(o), Some(n)) if o.is_wholly_known() && n.is_wholly_known() && o == n => {
                    Action::NoOp
                }
                _ => Action::Update,
            };
            if action == Action::NoOp && !(object && self.in_nested_attr && identifying(k)) {
                suppressed += 1;
                continue;
            }
            let mut p = path.to_vec();
            p.push(if object {
                PathStep::Attr(k.to_string())
            } else {
                PathStep::Index(Value::string(k.as_str()))
            });
            if !object {
                let ov = o.cloned().unwrap_or_else(|| Value::null(Type::Dynamic));
                let nv = n.cloned().unwrap_or_else(|| Value::null(Type::Dynamic));
                self.sensitivity_warning(&ov, &nv, indent + 2, action, false);
            }
            self.pad(indent + 2);
            self.symbol(action);
            let s = shown(k);
            self.out.push_str(&s);
            self.pad(width - s.len());
            self.out.push_str(" = ");
            match (action, o, n) {
                (Action::Create | Action::NoOp, _, Some(n)) => {
                    if !object && n.is_sensitive() {
                        self.out.push_str(MARKED);
                    } else {
                        self.value(n, action, indent + 4);
                    }
                }
                (Action::Delete, Some(o), _) => {
                    let null = Value::null(o.ty());
                    self.value_diff(o, &null, indent + 4, &p);
                }
                (_, Some(o), Some(n)) => {
                    if !object && (o.is_sensitive() || n.is_sensitive()) {
                        self.out.push_str(MARKED);
                    } else {
                        self.value_diff(o, n, indent + 4, &p);
                    }
                }
                _ => {}
            }
            self.out.push('\n');
        }
        self.hidden_elements(suppressed, indent);
        self.pad(indent);
        self.out.push('}');
        if object && forces {
            self.color(FORCES);
        }
    }
}
