//! Provider schemas for resource types: attributes with their flags (and, for protocol 6 nested
//! attributes, the attributes of their objects) and nested blocks, and the object type a schema
//! implies. This is the shape every resource configuration, plan and state
//! object conforms to.

use crate::ValueMap;
use crate::{ObjectType, Type, Value, ValueKind};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Attribute {
    pub ty: Type,
    pub description: String,
    pub required: bool,
    pub optional: bool,
    pub computed: bool,
    pub sensitive: bool,
    /// The description is markdown (the protocol's `StringKind`), not plain text.
    #[serde(default)]
    pub description_markdown: bool,
    #[serde(default)]
    pub deprecated: bool,
    /// Write-only (Terraform 1.11): the configuration's value (which may be ephemeral) is sent
    /// to the provider, and the attribute is always null in plans and state.
    #[serde(default)]
    pub write_only: bool,
    /// A protocol 6 nested attribute: the attributes of its objects and how they nest; `ty` is
    /// the type they imply ([`NestedAttributes::implied_type`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nested: Option<Box<NestedAttributes>>,
}

/// The objects of a nested attribute (protocol 6 `Schema.Object`): their attributes, each with
/// its own flags, and the nesting mode (`Single`, `List`, `Set` or `Map`; never `Group`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NestedAttributes {
    pub nesting: NestingMode,
    pub attributes: BTreeMap<String, Attribute>,
    pub min_items: u64,
    pub max_items: u64,
}

impl NestedAttributes {
    /// The type of one object.
    pub fn object_type(&self) -> Type {
        Type::from_object(ObjectType::new(
            self.attributes
                .iter()
                .map(|(n, a)| (n.clone(), a.ty.clone()))
                .collect(),
        ))
    }

    /// The attribute's value type: an object, or a list, set or map of objects.
    pub fn implied_type(&self) -> Type {
        let obj = self.object_type();
        match self.nesting {
            NestingMode::Single | NestingMode::Group => obj,
            NestingMode::List => Type::list(obj),
            NestingMode::Set => Type::set(obj),
            NestingMode::Map => Type::map(obj),
        }
    }

    /// The type configuration values are converted to: attributes of the objects that are not
    /// required may be left out (they are null then), as Terraform decodes nested attributes.
    pub fn constraint_type(&self) -> Type {
        let mut obj = ObjectType::new(
            self.attributes
                .iter()
                .map(|(n, a)| (n.clone(), a.constraint_type()))
                .collect(),
        );
        obj.optional = self
            .attributes
            .iter()
            .filter(|(_, a)| !a.required)
            .map(|(n, _)| n.clone())
            .collect();
        let obj = Type::from_object(obj);
        match self.nesting {
            NestingMode::Single | NestingMode::Group => obj,
            NestingMode::List => Type::list(obj),
            NestingMode::Set => Type::set(obj),
            NestingMode::Map => Type::map(obj),
        }
    }
}

impl Attribute {
    pub fn new(ty: Type) -> Self {
        Attribute {
            ty,
            description: String::new(),
            required: false,
            optional: false,
            computed: false,
            sensitive: false,
            description_markdown: false,
            deprecated: false,
            write_only: false,
            nested: None,
        }
    }

    /// A nested attribute whose objects have `attributes`, nested as `nesting` says.
    pub fn nested(nesting: NestingMode, attributes: BTreeMap<String, Attribute>) -> Self {
        let nested = NestedAttributes {
            nesting,
            attributes,
            min_items: 0,
            max_items: 0,
        };
        let mut a = Attribute::new(nested.implied_type());
        a.nested = Some(Box::new(nested));
        a
    }

    /// The type a configured value is converted to (see [`NestedAttributes::constraint_type`]).
    pub fn constraint_type(&self) -> Type {
        match &self.nested {
            Some(n) => n.constraint_type(),
            None => self.ty.clone(),
        }
    }
    pub fn required(mut self) -> Self {
        self.required = true;
        self
    }
    pub fn optional(mut self) -> Self {
        self.optional = true;
        self
    }
    pub fn computed(mut self) -> Self {
        self.computed = true;
        self
    }
    pub fn sensitive(mut self) -> Self {
        self.sensitive = true;
        self
    }
    pub fn write_only(mut self) -> Self {
        self.write_only = true;
        self
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum NestingMode {
    Single,
    Group,
    List,
    Set,
    Map,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NestedBlock {
    pub nesting: NestingMode,
    pub block: Block,
    pub min_items: u64,
    pub max_items: u64,
}

/// A block schema: a resource type's top level, or a nested block type.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Block {
    pub attributes: BTreeMap<String, Attribute>,
    pub block_types: BTreeMap<String, NestedBlock>,
    /// The provider's description of the block (plain text or markdown); empty when it has none.
    /// Defaulted so schema caches written before the field existed still read.
    #[serde(default)]
    pub description: String,
    /// The description is markdown (the protocol's `StringKind`), not plain text.
    #[serde(default)]
    pub description_markdown: bool,
    #[serde(default)]
    pub deprecated: bool,
}

/// A resource type's schema with its version (stored in state as `schema_version`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Schema {
    pub version: u64,
    pub block: Block,
    /// The block's implied type, computed once: every null and unknown value of the type
    /// (one per instance planned) then shares it instead of holding its own copy.
    #[serde(skip)]
    implied: ImpliedType,
}

impl Schema {
    pub fn new(version: u64, block: Block) -> Self {
        Schema {
            version,
            block,
            implied: ImpliedType::default(),
        }
    }

    /// [`Block::implied_type`] of the top-level block, computed on first use.
    pub fn implied_type(&self) -> Type {
        self.implied
            .0
            .get_or_init(|| self.block.implied_type())
            .clone()
    }
}

/// The cache behind [`Schema::implied_type`]. It takes no part in comparisons, and a clone
/// starts empty (the clone's block may be changed afterwards).
#[derive(Default)]
struct ImpliedType(std::sync::OnceLock<Type>);

impl Clone for ImpliedType {
    fn clone(&self) -> Self {
        ImpliedType::default()
    }
}
impl PartialEq for ImpliedType {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for ImpliedType {}
impl std::hash::Hash for ImpliedType {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}
impl std::fmt::Debug for ImpliedType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("..")
    }
}

impl Block {
    /// Whether any attribute of this block, of its nested attributes or of a block nested in
    /// it, is write-only.
    pub fn has_write_only(&self) -> bool {
        attrs_have_write_only(&self.attributes)
            || self
                .block_types
                .values()
                .any(|nb| nb.block.has_write_only())
    }

    /// Whether `path` (into a value of this block) is a write-only attribute or inside one.
    pub fn write_only_at(&self, path: &[crate::PathStep]) -> bool {
        use crate::PathStep;
        let Some((PathStep::Attr(name), rest)) = path.split_first() else {
            return false;
        };
        if let Some(a) = self.attributes.get(name) {
            return attr_write_only_at(a, rest);
        }
        let Some(nb) = self.block_types.get(name) else {
            return false;
        };
        match skip_element(nb.nesting, rest) {
            Some(rest) => nb.block.write_only_at(rest),
            None => false,
        }
    }

    /// `v` (a value of this block) with every write-only attribute null, in nested attributes
    /// and blocks too: what plans and state hold of them.
    pub fn null_write_only(&self, v: &Value) -> Value {
        if !self.has_write_only() {
            return v.clone();
        }
        let ValueKind::Object(entries) = &v.kind else {
            return v.clone();
        };
        let mut out = null_write_only_attrs(&self.attributes, entries);
        for (name, nb) in &self.block_types {
            if !nb.block.has_write_only() {
                continue;
            }
            if let Some(cur) = entries.get(name.as_str()) {
                let new = map_elements(nb.nesting, cur, &|e| nb.block.null_write_only(e));
                out.insert(name.clone(), new);
            }
        }
        Value::object(out).with_marks(v.marks)
    }

    /// Whether `v` (an object of this block, decoded from state) is in the form a legacy-SDK
    /// provider's `UpgradeResourceState` gives back at the current schema version: no nested
    /// block of list, set, map or group nesting null (the SDK makes those empty), and no set
    /// block holding an element that is wholly null (the SDK drops those). An object in that
    /// form decoded against the schema is what the provider would answer, so the call can be
    /// left out.
    pub fn in_upgraded_form(&self, v: &Value) -> bool {
        let ValueKind::Object(entries) = &v.kind else {
            return false;
        };
        self.block_types.iter().all(|(name, nb)| {
            let Some(cur) = entries.get(name.as_str()) else {
                return false;
            };
            match (&cur.kind, nb.nesting) {
                (ValueKind::Null(_), NestingMode::Single) => true,
                (ValueKind::Null(_), _) => false,
                (ValueKind::Object(_), NestingMode::Single | NestingMode::Group) => {
                    nb.block.in_upgraded_form(cur)
                }
                (ValueKind::List(_, es), NestingMode::List)
                | (ValueKind::Set(_, es), NestingMode::Set) => es.iter().all(|e| {
                    let wholly_null =
                        matches!(&e.kind, ValueKind::Object(m) if m.values().all(|a| a.is_null()));
                    !(wholly_null && nb.nesting == NestingMode::Set) && nb.block.in_upgraded_form(e)
                }),
                (ValueKind::Map(_, m), NestingMode::Map) => {
                    m.values().all(|e| nb.block.in_upgraded_form(e))
                }
                // A dynamically typed block held as a tuple or object: left to the provider.
                _ => false,
            }
        })
    }

    /// The paths of write-only attributes that hold something other than null in `v` (a
    /// value of this block): what a provider must never answer.
    pub fn write_only_values(&self, v: &Value) -> Vec<Vec<crate::PathStep>> {
        let mut out = Vec::new();
        if self.has_write_only() {
            self.collect_write_only(v, &mut Vec::new(), &mut out);
        }
        out
    }

    fn collect_write_only(
        &self,
        v: &Value,
        at: &mut Vec<crate::PathStep>,
        out: &mut Vec<Vec<crate::PathStep>>,
    ) {
        let ValueKind::Object(entries) = &v.kind else {
            return;
        };
        collect_write_only_attrs(&self.attributes, entries, at, out);
        for (name, nb) in &self.block_types {
            if !nb.block.has_write_only() {
                continue;
            }
            if let Some(cur) = entries.get(name.as_str()) {
                at.push(crate::PathStep::Attr(name.clone()));
                for (step, e) in elements(nb.nesting, cur) {
                    at.extend(step.clone());
                    nb.block.collect_write_only(e, at, out);
                    if step.is_some() {
                        at.pop();
                    }
                }
                at.pop();
            }
        }
    }

    /// The object type values of this block have (PROTOCOL_FACTS §3.8).
    pub fn implied_type(&self) -> Type {
        let mut attrs = BTreeMap::new();
        for (name, a) in &self.attributes {
            attrs.insert(name.clone(), a.ty.clone());
        }
        for (name, nb) in &self.block_types {
            let inner = nb.block.implied_type();
            let ty = match nb.nesting {
                NestingMode::Single | NestingMode::Group => inner,
                NestingMode::List if inner.has_dynamic() => Type::Dynamic,
                NestingMode::List => Type::list(inner),
                NestingMode::Set => Type::set(inner),
                NestingMode::Map if inner.has_dynamic() => Type::Dynamic,
                NestingMode::Map => Type::map(inner),
            };
            attrs.insert(name.clone(), ty);
        }
        Type::from_object(ObjectType::new(attrs))
    }

    /// An object of this block's type with every attribute null and every block collection empty
    /// (`Single` blocks null, `Group` blocks empty objects).
    pub fn empty_value(&self) -> Value {
        let mut attrs = ValueMap::new();
        for (name, a) in &self.attributes {
            attrs.insert(name.clone(), Value::null(a.ty.clone()));
        }
        for (name, nb) in &self.block_types {
            let inner_ty = nb.block.implied_type();
            let v = match nb.nesting {
                NestingMode::Single => Value::null(inner_ty),
                NestingMode::Group => nb.block.empty_value(),
                NestingMode::List if inner_ty.has_dynamic() => Value::tuple(Vec::new()),
                NestingMode::List => Value::list(inner_ty, Vec::new()),
                NestingMode::Set => Value::set(inner_ty, Vec::new()),
                NestingMode::Map if inner_ty.has_dynamic() => Value::empty_object(),
                NestingMode::Map => Value::map(inner_ty, ValueMap::new()),
            };
            attrs.insert(name.clone(), v);
        }
        Value::object(attrs)
    }
}

/// How an attribute whose type is a list or set of objects may also be written as blocks
/// (`ingress { … }` for a `set(object)` attribute), as Terraform accepts for providers built
/// on the older SDK: the nesting mode and the block schema, every object attribute optional.
pub fn attribute_as_blocks(ty: &Type) -> Option<(NestingMode, Block)> {
    let (nesting, elem) = match ty {
        Type::List(e) => (NestingMode::List, e),
        Type::Set(e) => (NestingMode::Set, e),
        _ => return None,
    };
    let Type::Object(o) = elem.as_ref() else {
        return None;
    };
    let mut block = Block::default();
    for (name, t) in &o.attrs {
        block
            .attributes
            .insert(name.clone(), Attribute::new(t.clone()).optional());
    }
    Some((nesting, block))
}

/// A provider-defined function as its provider declares it (the protocol's `Function`,
/// protocol 5.5/6.5 and later): positional parameters, an optional variadic one, the return
/// type, and its documentation.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FunctionDecl {
    pub params: Vec<FunctionParam>,
    pub variadic: Option<FunctionParam>,
    pub return_type: Type,
    pub summary: String,
    pub description: String,
    /// The description is markdown, not plain text.
    #[serde(default)]
    pub description_markdown: bool,
    /// Non-empty when the function is deprecated: the provider's advice.
    #[serde(default)]
    pub deprecation_message: String,
}

/// One parameter of a provider-defined function.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FunctionParam {
    /// For documentation and messages only: arguments are positional.
    pub name: String,
    pub ty: Type,
    /// A null argument is passed to the provider (otherwise it is an error).
    pub allow_null: bool,
    /// An unknown argument is passed to the provider (otherwise the result is unknown and
    /// the provider is not called).
    pub allow_unknown: bool,
    pub description: String,
    #[serde(default)]
    pub description_markdown: bool,
}

impl FunctionParam {
    pub fn new(name: impl Into<String>, ty: Type) -> FunctionParam {
        FunctionParam {
            name: name.into(),
            ty,
            allow_null: false,
            allow_unknown: false,
            description: String::new(),
            description_markdown: false,
        }
    }
}

impl FunctionDecl {
    /// The parameter argument `index` goes to (the variadic one past the positional ones).
    pub fn param(&self, index: usize) -> Option<&FunctionParam> {
        self.params.get(index).or(self.variadic.as_ref())
    }

    /// `name(param type, …) return` for display (hover, completion).
    pub fn signature_label(&self, name: &str) -> String {
        let mut params: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("{} {}", p.name, p.ty.type_expr()))
            .collect();
        if let Some(p) = &self.variadic {
            params.push(format!("{}... {}", p.name, p.ty.type_expr()));
        }
        format!(
            "{name}({}) {}",
            params.join(", "),
            self.return_type.type_expr()
        )
    }
}

fn attrs_have_write_only(attrs: &BTreeMap<String, Attribute>) -> bool {
    attrs.values().any(|a| {
        a.write_only
            || a.nested
                .as_ref()
                .is_some_and(|n| attrs_have_write_only(&n.attributes))
    })
}

/// `rest` past the element step of a nested block or attribute of `nesting` (single objects
/// have none); None when the path does not step into an element.
fn skip_element(nesting: NestingMode, rest: &[crate::PathStep]) -> Option<&[crate::PathStep]> {
    match nesting {
        NestingMode::Single | NestingMode::Group => Some(rest),
        _ => match rest.split_first() {
            Some((crate::PathStep::Index(_), inner)) => Some(inner),
            _ => None,
        },
    }
}

fn attr_write_only_at(a: &Attribute, rest: &[crate::PathStep]) -> bool {
    if a.write_only {
        return true;
    }
    let Some(n) = &a.nested else {
        return false;
    };
    let Some(rest) = skip_element(n.nesting, rest) else {
        return false;
    };
    match rest.split_first() {
        Some((crate::PathStep::Attr(name), inner)) => n
            .attributes
            .get(name)
            .is_some_and(|a| attr_write_only_at(a, inner)),
        _ => false,
    }
}

/// The elements of a nested block or attribute value of `nesting`, with the step that leads
/// to each (none for a single object); nothing for null or unknown values.
fn elements(nesting: NestingMode, v: &Value) -> Vec<(Option<crate::PathStep>, &Value)> {
    use crate::PathStep;
    match (&v.kind, nesting) {
        (ValueKind::Object(_), NestingMode::Single | NestingMode::Group) => vec![(None, v)],
        (ValueKind::List(_, es) | ValueKind::Tuple(es), _) => es
            .iter()
            .enumerate()
            .map(|(i, e)| (Some(PathStep::Index(Value::int(i as i64))), e))
            .collect(),
        (ValueKind::Set(_, es), _) => es
            .iter()
            .map(|e| (Some(PathStep::Index(e.clone())), e))
            .collect(),
        (ValueKind::Map(_, m), _) => m
            .iter()
            .map(|(k, e)| (Some(PathStep::Index(Value::string(k.as_str()))), e))
            .collect(),
        (ValueKind::Object(m), _) => m
            .iter()
            .map(|(k, e)| (Some(PathStep::Index(Value::string(k.as_str()))), e))
            .collect(),
        _ => Vec::new(),
    }
}

/// `v` (a nested block or attribute value of `nesting`) with `f` applied to each object.
fn map_elements(nesting: NestingMode, v: &Value, f: &dyn Fn(&Value) -> Value) -> Value {
    let new = match (&v.kind, nesting) {
        (ValueKind::Object(_), NestingMode::Single | NestingMode::Group) => f(v),
        (ValueKind::List(t, es), _) => Value::list(t.clone(), es.iter().map(f).collect()),
        (ValueKind::Set(t, es), _) => Value::set(t.clone(), es.iter().map(f).collect()),
        (ValueKind::Tuple(es), _) => Value::tuple(es.iter().map(f).collect()),
        (ValueKind::Map(t, m), _) => Value::map(
            t.clone(),
            m.iter().map(|(k, e)| (k.clone(), f(e))).collect(),
        ),
        (ValueKind::Object(m), _) => {
            Value::object(m.iter().map(|(k, e)| (k.clone(), f(e))).collect())
        }
        _ => return v.clone(),
    };
    new.with_marks(v.marks)
}

fn null_write_only_attrs(
    attrs: &BTreeMap<String, Attribute>,
    entries: &crate::ValueMap,
) -> crate::ValueMap {
    let mut out = entries.clone();
    for (name, a) in attrs {
        let Some(cur) = entries.get(name.as_str()) else {
            continue;
        };
        if a.write_only {
            if !cur.is_null() {
                out.insert(name.clone(), Value::null(a.ty.clone()));
            }
        } else if let Some(n) = a
            .nested
            .as_ref()
            .filter(|n| attrs_have_write_only(&n.attributes))
        {
            let each = |e: &Value| match &e.kind {
                ValueKind::Object(inner) => {
                    Value::object(null_write_only_attrs(&n.attributes, inner)).with_marks(e.marks)
                }
                _ => e.clone(),
            };
            out.insert(name.clone(), map_elements(n.nesting, cur, &each));
        }
    }
    out
}

fn collect_write_only_attrs(
    attrs: &BTreeMap<String, Attribute>,
    entries: &crate::ValueMap,
    at: &mut Vec<crate::PathStep>,
    out: &mut Vec<Vec<crate::PathStep>>,
) {
    for (name, a) in attrs {
        let Some(cur) = entries.get(name.as_str()) else {
            continue;
        };
        at.push(crate::PathStep::Attr(name.clone()));
        if a.write_only {
            if !cur.is_null() {
                out.push(at.clone());
            }
        } else if let Some(n) = a
            .nested
            .as_ref()
            .filter(|n| attrs_have_write_only(&n.attributes))
        {
            for (step, e) in elements(n.nesting, cur) {
                at.extend(step.clone());
                if let ValueKind::Object(inner) = &e.kind {
                    collect_write_only_attrs(&n.attributes, inner, at, out);
                }
                if step.is_some() {
                    at.pop();
                }
            }
        }
        at.pop();
    }
}

#[cfg(test)]
mod write_only_tests {
    use super::*;
    use crate::PathStep;

    fn obj(pairs: &[(&str, Value)]) -> Value {
        Value::object(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    /// `token` (write-only) beside `name`, in a list block `rule`, and in a nested attribute
    /// `creds` (a map of objects with a write-only `key`).
    fn block() -> Block {
        let mut inner = Block::default();
        inner.attributes.insert(
            "token".into(),
            Attribute::new(Type::String).optional().write_only(),
        );
        inner
            .attributes
            .insert("name".into(), Attribute::new(Type::String).optional());
        let mut b = inner.clone();
        b.block_types.insert(
            "rule".into(),
            NestedBlock {
                nesting: NestingMode::List,
                block: inner,
                min_items: 0,
                max_items: 0,
            },
        );
        let mut creds_attrs = BTreeMap::new();
        creds_attrs.insert(
            "key".into(),
            Attribute::new(Type::String).optional().write_only(),
        );
        let nested = NestedAttributes {
            nesting: NestingMode::Map,
            attributes: creds_attrs,
            min_items: 0,
            max_items: 0,
        };
        let mut creds = Attribute::new(nested.implied_type()).optional();
        creds.nested = Some(Box::new(nested));
        b.attributes.insert("creds".into(), creds);
        b
    }

    #[test]
    fn write_only_values_are_found_and_nulled_at_every_depth() {
        let b = block();
        assert!(b.has_write_only());
        let rule = |t: &str| obj(&[("token", Value::string(t)), ("name", Value::string("n"))]);
        let rule_ty = rule("a").ty();
        let key_ty = obj(&[("key", Value::string("k"))]).ty();
        let v = obj(&[
            ("token", Value::string("t")),
            ("name", Value::string("keep")),
            ("rule", Value::list(rule_ty, vec![rule("a"), rule("b")])),
            (
                "creds",
                Value::map(
                    key_ty,
                    [("x".to_string(), obj(&[("key", Value::string("k"))]))]
                        .into_iter()
                        .collect(),
                ),
            ),
        ]);
        let at = |steps: &[PathStep]| steps.to_vec();
        let attr = |n: &str| PathStep::Attr(n.into());
        let found = b.write_only_values(&v);
        assert_eq!(
            found,
            vec![
                at(&[
                    attr("creds"),
                    PathStep::Index(Value::string("x")),
                    attr("key")
                ]),
                at(&[attr("token")]),
                at(&[attr("rule"), PathStep::Index(Value::int(0)), attr("token")]),
                at(&[attr("rule"), PathStep::Index(Value::int(1)), attr("token")]),
            ]
        );
        for path in &found {
            assert!(b.write_only_at(path), "{path:?}");
        }
        assert!(!b.write_only_at(&[attr("name")]));
        let nulled = b.null_write_only(&v);
        assert!(b.write_only_values(&nulled).is_empty());
        assert_eq!(nulled.get_attr("name"), Some(&Value::string("keep")));
        assert_eq!(nulled.ty(), v.ty());
    }
}

#[cfg(test)]
mod upgraded_form_tests {
    use super::*;

    /// `name` with a set block `tag` of `key` objects.
    fn block() -> Block {
        let mut tag = Block::default();
        tag.attributes
            .insert("key".into(), Attribute::new(Type::String).optional());
        let mut b = Block::default();
        b.attributes
            .insert("name".into(), Attribute::new(Type::String).optional());
        b.block_types.insert(
            "tag".into(),
            NestedBlock {
                nesting: NestingMode::Set,
                block: tag,
                min_items: 0,
                max_items: 0,
            },
        );
        b
    }

    fn with_tags(tags: Option<Vec<Value>>) -> Value {
        let tag_ty = Type::object([("key".to_string(), Type::String)]);
        let tags = match tags {
            Some(t) => Value::set(tag_ty, t),
            None => Value::null(Type::set(tag_ty)),
        };
        Value::object(
            [
                ("name".to_string(), Value::string("n")),
                ("tag".to_string(), tags),
            ]
            .into_iter()
            .collect(),
        )
    }

    fn tag(key: Value) -> Value {
        Value::object([("key".to_string(), key)].into_iter().collect())
    }

    #[test]
    fn objects_a_legacy_sdk_upgrade_would_change_are_not_in_upgraded_form() {
        let b = block();
        assert!(b.in_upgraded_form(&with_tags(Some(vec![]))));
        assert!(b.in_upgraded_form(&with_tags(Some(vec![tag(Value::string("a"))]))));
        // The SDK turns a null set block into an empty set, and drops an all-null element.
        assert!(!b.in_upgraded_form(&with_tags(None)));
        assert!(!b.in_upgraded_form(&with_tags(Some(vec![tag(Value::null(Type::String))]))));
    }
}
