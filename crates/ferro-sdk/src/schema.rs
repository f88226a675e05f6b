//! Typed schemas: attributes (required / optional / computed / optional+computed, sensitive,
//! description, deprecation), nested attributes (protocol 6: an object, or a list, set or map of
//! objects whose attributes have their own flags), nested blocks, each attribute with its plan
//! modifiers and validators. A [`ResourceSchema`] turns into ferro's wire-level [`Schema`].

use crate::modifiers::PlanModifier;
use crate::validators::Validator;
use ferro_value::schema::{Attribute, Block, NestedAttributes, NestedBlock, NestingMode, Schema};
use ferro_value::{Type, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One attribute: its type, flags, default, plan modifiers and validators.
#[derive(Clone)]
pub struct Attr {
    pub ty: Type,
    pub required: bool,
    pub optional: bool,
    pub computed: bool,
    pub sensitive: bool,
    pub description: String,
    /// The description is markdown, not plain text.
    pub description_markdown: bool,
    pub deprecated: bool,
    /// Write-only (Terraform 1.11+): the configuration's value reaches create and update (in
    /// their `config`), and plans, state and reads always hold null.
    pub write_only: bool,
    /// The value planned when the configuration leaves the attribute null (needs computed).
    pub default: Option<Value>,
    pub modifiers: Vec<Arc<dyn PlanModifier>>,
    pub validators: Vec<Arc<dyn Validator>>,
    /// A nested attribute: how its objects nest, and their attributes.
    pub nested: Option<(NestingMode, Object)>,
}

/// The objects of a nested attribute: attributes only (each with its own flags, modifiers and
/// defaults), as protocol 6's `Schema.Object`.
#[derive(Clone, Default)]
pub struct Object {
    pub attributes: BTreeMap<String, Attr>,
    /// Groups of attributes of which each object must set at least one.
    pub at_least_one_of: Vec<Vec<String>>,
}

impl Object {
    pub fn new() -> Object {
        Object::default()
    }
    pub fn attr(mut self, name: &str, a: Attr) -> Object {
        self.attributes.insert(name.to_string(), a);
        self
    }
    /// Every object must set at least one of `attrs` (reported on the first one's path).
    pub fn at_least_one_of(mut self, attrs: &[&str]) -> Object {
        self.at_least_one_of
            .push(attrs.iter().map(|a| a.to_string()).collect());
        self
    }
    fn wire(&self, nesting: NestingMode) -> NestedAttributes {
        NestedAttributes {
            nesting,
            attributes: self
                .attributes
                .iter()
                .map(|(n, a)| (n.clone(), a.wire()))
                .collect(),
            min_items: 0,
            max_items: 0,
        }
    }
}

impl Attr {
    pub fn new(ty: Type) -> Attr {
        Attr {
            ty,
            required: false,
            optional: false,
            computed: false,
            sensitive: false,
            description: String::new(),
            description_markdown: false,
            deprecated: false,
            write_only: false,
            default: None,
            modifiers: Vec::new(),
            validators: Vec::new(),
            nested: None,
        }
    }
    /// A nested attribute holding one object (`NestingMode::Single`), or a list, set or map
    /// of objects.
    pub fn nested(nesting: NestingMode, object: Object) -> Attr {
        let mut a = Attr::new(object.wire(nesting).implied_type());
        a.nested = Some((nesting, object));
        a
    }
    pub fn string() -> Attr {
        Attr::new(Type::String)
    }
    pub fn number() -> Attr {
        Attr::new(Type::Number)
    }
    pub fn bool() -> Attr {
        Attr::new(Type::Bool)
    }
    pub fn map_of_strings() -> Attr {
        Attr::new(Type::map(Type::String))
    }
    pub fn list_of_strings() -> Attr {
        Attr::new(Type::list(Type::String))
    }
    pub fn required(mut self) -> Attr {
        self.required = true;
        self
    }
    pub fn optional(mut self) -> Attr {
        self.optional = true;
        self
    }
    pub fn computed(mut self) -> Attr {
        self.computed = true;
        self
    }
    pub fn sensitive(mut self) -> Attr {
        self.sensitive = true;
        self
    }
    pub fn deprecated(mut self) -> Attr {
        self.deprecated = true;
        self
    }
    /// Write-only: set in configuration (ephemeral values allowed), never planned or stored.
    pub fn write_only(mut self) -> Attr {
        self.write_only = true;
        self
    }
    pub fn describe(mut self, d: impl Into<String>) -> Attr {
        self.description = d.into();
        self
    }
    /// A description in markdown.
    pub fn describe_markdown(mut self, d: impl Into<String>) -> Attr {
        self.description = d.into();
        self.description_markdown = true;
        self
    }
    /// Plan `v` when the configuration leaves this attribute null; makes it optional+computed.
    pub fn default(mut self, v: Value) -> Attr {
        self.optional = true;
        self.computed = true;
        self.default = Some(v);
        self
    }
    pub fn modifier(mut self, m: impl PlanModifier + 'static) -> Attr {
        self.modifiers.push(Arc::new(m));
        self
    }
    pub fn validate(mut self, v: impl Validator + 'static) -> Attr {
        self.validators.push(Arc::new(v));
        self
    }

    fn wire(&self) -> Attribute {
        let mut a = match &self.nested {
            Some((nesting, object)) => {
                let mut a = Attribute::new(self.ty.clone());
                a.nested = Some(Box::new(object.wire(*nesting)));
                a
            }
            None => Attribute::new(self.ty.clone()),
        };
        a.required = self.required;
        a.optional = self.optional;
        a.computed = self.computed;
        a.sensitive = self.sensitive;
        a.description = self.description.clone();
        a.description_markdown = self.description_markdown;
        a.deprecated = self.deprecated;
        a.write_only = self.write_only;
        a
    }
}

/// A nested block type.
#[derive(Clone)]
pub struct BlockType {
    pub nesting: NestingMode,
    pub block: ResourceSchema,
    pub min_items: u64,
    pub max_items: u64,
}

/// The schema of a resource type, data source or provider configuration.
#[derive(Clone, Default)]
pub struct ResourceSchema {
    pub version: u64,
    pub description: String,
    pub attributes: BTreeMap<String, Attr>,
    pub blocks: BTreeMap<String, BlockType>,
}

impl ResourceSchema {
    pub fn new() -> ResourceSchema {
        ResourceSchema::default()
    }
    pub fn version(mut self, v: u64) -> ResourceSchema {
        self.version = v;
        self
    }
    pub fn attr(mut self, name: &str, a: Attr) -> ResourceSchema {
        self.attributes.insert(name.to_string(), a);
        self
    }
    pub fn block(
        mut self,
        name: &str,
        nesting: NestingMode,
        block: ResourceSchema,
    ) -> ResourceSchema {
        self.blocks.insert(
            name.to_string(),
            BlockType {
                nesting,
                block,
                min_items: 0,
                max_items: 0,
            },
        );
        self
    }

    /// The wire-level block.
    pub fn to_block(&self) -> Block {
        Block {
            attributes: self
                .attributes
                .iter()
                .map(|(n, a)| (n.clone(), a.wire()))
                .collect(),
            block_types: self
                .blocks
                .iter()
                .map(|(n, b)| {
                    (
                        n.clone(),
                        NestedBlock {
                            nesting: b.nesting,
                            block: b.block.to_block(),
                            min_items: b.min_items,
                            max_items: b.max_items,
                        },
                    )
                })
                .collect(),
            description: self.description.clone(),
            description_markdown: false,
            deprecated: false,
        }
    }

    pub fn to_schema(&self) -> Schema {
        Schema::new(self.version, self.to_block())
    }

    pub fn implied_type(&self) -> Type {
        self.to_block().implied_type()
    }
}
