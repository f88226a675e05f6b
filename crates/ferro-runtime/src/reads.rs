//! What a module's expressions read of each resource: nothing (the walk and apply build no value
//! for it), some attributes (`aws_instance.web.id`, `aws_instance.web[0].id`,
//! `aws_instance.web[*].id`: the value expressions see keeps only those), or the whole objects
//! (any other use: `aws_instance.web`, `aws_instance.web[0]`, `length(aws_instance.web)`, a `for`
//! over it).
//!
//! Every expression a file holds is in its arena (arguments, blocks, `dynamic` contents,
//! outputs, locals, conditions, checks, module call arguments, provider configurations), so
//! going through the arenas finds every read the module can evaluate. A resource instance's
//! object is large (a `null_resource` planned with `triggers` is about 250 bytes decoded) where
//! its `id` is a few: at 100 000 instances read only through `[*].id`, the whole objects were
//! the largest part of a plan's memory.

use crate::scope::ModuleEval;
use ferro_addrs::Resource;
use ferro_hir::{Expr, ExprId, FileHir, Reference};
use ferro_value::{Value, ValueKind, ValueMap};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// What a module's expressions read of one resource's objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reads {
    /// The attributes named right after the resource (or one of its instances).
    Attrs(BTreeSet<String>),
    /// The whole objects.
    All,
}

impl Reads {
    /// An instance object with only what is read of it: the attributes read, its marks kept.
    /// Anything but a known object (null, unknown) is returned as it is.
    pub fn project(&self, v: Value) -> Value {
        let Reads::Attrs(names) = self else {
            return v;
        };
        let ValueKind::Object(m) = &v.kind else {
            return v;
        };
        if m.keys().all(|k| names.contains(k.as_str())) {
            return v;
        }
        let mut kept = ValueMap::with_capacity(names.len());
        for (k, x) in m.iter() {
            if names.contains(k.as_str()) {
                kept.insert(k.clone(), x.clone());
            }
        }
        Value::object(kept).with_marks(v.marks)
    }
}

impl ModuleEval<'_> {
    /// Whether expressions of this module hold whole objects of `r` (they read it in full, or
    /// the tree does not project): then a new object is best kept decoded in state, sharing
    /// its parts with what expressions hold (`statecodec::Hold`).
    pub fn holds_whole(&self, r: &Resource) -> bool {
        match self.statics().reads.get(r) {
            Some(Reads::All) => true,
            Some(Reads::Attrs(_)) => !self.tree.project,
            None => false,
        }
    }

    /// An instance object of `r` as expressions of this module see it: only the attributes
    /// they read, when the tree projects values ([`EvalTree::project_reads`]).
    pub fn projected(&self, r: &Resource, v: Value) -> Value {
        match self.projection(r) {
            Some(reads) => reads.project(v),
            None => v,
        }
    }

    pub fn projection(&self, r: &Resource) -> Option<&Reads> {
        if !self.tree.project {
            return None;
        }
        self.statics()
            .reads
            .get(r)
            .filter(|x| matches!(x, Reads::Attrs(_)))
    }

    /// A resource's value (its one instance, a tuple by index, an object by key) with each
    /// object projected ([`ModuleEval::projected`]).
    pub fn projected_resource(&self, r: &Resource, v: Value) -> Value {
        let Some(reads) = self.projection(r) else {
            return v;
        };
        let Some(item) = self.index.resources.get(r) else {
            return v;
        };
        let decl = &self.hir(item.file).resources[item.index];
        if decl.count.is_none() && decl.for_each.is_none() {
            return reads.project(v);
        }
        let marks = v.marks;
        match v.kind {
            ValueKind::Tuple(es) if decl.count.is_some() => {
                let es = Arc::try_unwrap(es).unwrap_or_else(|a| (*a).clone());
                Value::tuple(es.into_iter().map(|e| reads.project(e)).collect()).with_marks(marks)
            }
            ValueKind::Object(m) if decl.for_each.is_some() => {
                let m = Arc::try_unwrap(m).unwrap_or_else(|a| (*a).clone());
                let mut out = ValueMap::with_capacity(m.len());
                for (k, e) in m {
                    out.insert(k, reads.project(e));
                }
                Value::object(out).with_marks(marks)
            }
            kind => Value { kind, marks },
        }
    }
}

/// The attribute a splat's body takes first of each element (`[*].id`, `[*].tags["Name"]`):
/// None when the body takes the element itself or indexes it first.
fn splat_attr(hir: &FileHir, body: ExprId) -> Option<&str> {
    let mut cur = body;
    let mut first = None;
    loop {
        match &hir.exprs[cur] {
            Expr::GetAttr { target, name } => {
                first = Some(name.as_str());
                cur = *target;
            }
            Expr::Index { target, .. } => {
                first = None;
                cur = *target;
            }
            Expr::SplatElem => return first,
            _ => return None,
        }
    }
}

/// What the expressions of `files` (one module's) read of each resource they refer to.
pub fn read_resources<'f>(files: impl Iterator<Item = &'f FileHir>) -> HashMap<Resource, Reads> {
    let mut reads: HashMap<Resource, Reads> = HashMap::new();
    for hir in files {
        // The attribute each resource reference is followed by, by the reference's expression.
        let mut taken: HashMap<ExprId, &str> = HashMap::new();
        let is_resource = |e: ExprId| matches!(hir.exprs[e], Expr::Ref(Reference::Resource(_)));
        for (_, e) in hir.exprs.iter() {
            match e {
                Expr::GetAttr { target, name } => {
                    if is_resource(*target) {
                        taken.insert(*target, name);
                    } else if let Expr::Index { target: root, .. } = &hir.exprs[*target] {
                        if is_resource(*root) {
                            taken.insert(*root, name);
                        }
                    }
                }
                Expr::Splat { target, body } if is_resource(*target) => {
                    if let Some(name) = splat_attr(hir, *body) {
                        taken.insert(*target, name);
                    }
                }
                _ => {}
            }
        }
        for (id, e) in hir.exprs.iter() {
            let Expr::Ref(Reference::Resource(r)) = e else {
                continue;
            };
            let entry = reads
                .entry(r.clone())
                .or_insert_with(|| Reads::Attrs(BTreeSet::new()));
            match (taken.get(&id), &mut *entry) {
                (Some(name), Reads::Attrs(names)) => {
                    if !names.contains(*name) {
                        names.insert(name.to_string());
                    }
                }
                (None, _) => *entry = Reads::All,
                (Some(_), Reads::All) => {}
            }
        }
    }
    reads
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferro_db::{file_hir, RootDb, SourceFile};
    use ferro_diag::FileId;

    fn reads_of(text: &str) -> HashMap<String, Reads> {
        let db = RootDb::default();
        let f = SourceFile::new(&db, "main.tf".into(), text.into(), FileId(0));
        read_resources(std::iter::once(file_hir(&db, f)))
            .into_iter()
            .map(|(r, x)| (r.to_string(), x))
            .collect()
    }

    fn attrs(names: &[&str]) -> Reads {
        Reads::Attrs(names.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn attributes_named_after_a_resource_are_what_is_read() {
        let r = reads_of(
            r#"
output "a" { value = null_resource.a[*].id }
output "b" { value = "${null_resource.b[0].id}-${null_resource.b["k"].triggers.x}" }
output "c" { value = [for x in null_resource.c : x.id] }
output "d" { value = null_resource.d[*] }
output "e" { value = length(null_resource.e) }
output "f" { value = null_resource.f[*].tags["Name"] }
output "g" { value = null_resource.g.id == null_resource.g.triggers }
output "h" { value = null_resource.h[*][0] }
"#,
        );
        assert_eq!(r["null_resource.a"], attrs(&["id"]));
        assert_eq!(r["null_resource.b"], attrs(&["id", "triggers"]));
        assert_eq!(r["null_resource.c"], Reads::All);
        assert_eq!(r["null_resource.d"], Reads::All);
        assert_eq!(r["null_resource.e"], Reads::All);
        assert_eq!(r["null_resource.f"], attrs(&["tags"]));
        assert_eq!(r["null_resource.g"], attrs(&["id", "triggers"]));
        assert_eq!(r["null_resource.h"], Reads::All);
        assert!(!r.contains_key("null_resource.z"));
    }

    #[test]
    fn a_projected_object_keeps_what_is_read_and_its_marks() {
        let mut m = ValueMap::new();
        m.insert("id", Value::string("1"));
        m.insert("triggers", Value::string("t").mark_sensitive());
        m.insert("other", Value::string("o"));
        let v = Value::object(m).mark_sensitive();
        let p = attrs(&["id", "triggers"]).project(v.clone());
        assert_eq!(p.get_attr("id"), Some(&Value::string("1")));
        assert_eq!(
            p.get_attr("triggers"),
            Some(&Value::string("t").mark_sensitive())
        );
        assert!(p.get_attr("other").is_none());
        assert_eq!(p.marks, v.marks);
        assert_eq!(Reads::All.project(v.clone()), v);
        let unknown = Value::dynamic_unknown();
        assert_eq!(attrs(&["id"]).project(unknown.clone()), unknown);
    }
}
