//! Provider schemas for resource types: attributes with their flags (and, for protocol 6 nested
//! attributes, the attributes of their objects) and nested blocks, and the object type a schema
//! implies. This is the shape every resource configuration, plan and state
//! object conforms to.

use crate::ValueMap;
use crate::{ObjectType, Type, Value};
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
