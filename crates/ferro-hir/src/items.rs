//! What one file declares, with expressions stored in the file's arena.

use crate::expr::{Expr, ExprId, Reference};
use ferro_addrs::Resource;
use ferro_diag::{Diagnostic, FileId, Span};
use ferro_value::Type;
use la_arena::{Arena, ArenaMap};
use std::sync::Arc;

/// What one file declares, without a single source position: items refer to their ranges
/// through [`SpanId`]s, indices into the file's [`SourceMap`] assigned in lowering order. An edit
/// that only moves text (a blank line or a comment above a block) lowers to an equal item tree,
/// so the analysis database keeps everything computed from it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ItemTree {
    pub file: Option<FileId>,
    pub exprs: Arena<Expr>,
    pub variables: Vec<Variable>,
    pub locals: Vec<Local>,
    pub outputs: Vec<Output>,
    pub resources: Vec<ResourceDecl>,
    pub providers: Vec<ProviderBlock>,
    pub required_providers: Vec<RequiredProvider>,
    pub module_calls: Vec<ModuleCall>,
    /// `moved` blocks.
    pub moved: Vec<Moved>,
    /// `removed` blocks.
    pub removed: Vec<Removed>,
    /// `import` blocks.
    pub imports: Vec<Import>,
    /// `check` blocks (their scoped data sources are in `resources`, marked with the check).
    pub checks: Vec<Check>,
    /// `terraform { required_version = "…" }` constraints with the ranges of their value and
    /// of the whole argument.
    pub required_versions: Vec<(String, SpanId, SpanId)>,
}

/// A source range of an item: the index of a range lowering recorded in the file's
/// [`SourceMap`], or, for bodies derived after lowering from expressions (JSON bodies read
/// against a schema), the range itself. Lowering only ever produces `Index`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpanId {
    Index(u32),
    Fixed(Span),
}

/// Everything positional about one file: the ranges of the item tree's [`SpanId`]s, the
/// ranges of expressions, and the diagnostics of lowering.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SourceMap {
    /// The ranges [`SpanId::Index`] refers to.
    pub spans: Vec<Span>,
    /// The way back from an expression to its source range.
    pub expr_spans: ArenaMap<ExprId, Span>,
    /// Where an expression starts, as HCL's `StartRange` has it, when that is not the whole
    /// range: see [`SourceMap::start_span`].
    pub start_spans: ArenaMap<ExprId, Span>,
    /// The step of an attribute access (`.name`) or index (`[key]`), or a splat's marker body
    /// step; see [`SourceMap::step_span`].
    pub step_spans: ArenaMap<ExprId, Span>,
    pub diagnostics: Vec<Diagnostic>,
}

impl SourceMap {
    /// Record a range; the id is its position in lowering order.
    pub fn add(&mut self, span: Span) -> SpanId {
        self.spans.push(span);
        SpanId::Index(self.spans.len() as u32 - 1)
    }

    /// The range of an item's id (an empty range at the start of the file when the id belongs
    /// to another file's map, which callers never do on purpose).
    pub fn at(&self, id: SpanId) -> Span {
        match id {
            SpanId::Index(i) => self
                .spans
                .get(i as usize)
                .copied()
                .unwrap_or(Span::new(FileId(0), 0..0)),
            SpanId::Fixed(s) => s,
        }
    }

    pub fn span(&self, e: ExprId) -> Option<Span> {
        self.expr_spans.get(e).copied()
    }

    /// The part of an expression that diagnostics about the expression as a whole point at
    /// (HCL's `StartRange`): a call's `name(`, the bracket of a tuple, object or `for`, the
    /// symbol of a unary operation, the start of a binary or conditional expression's first
    /// operand, the `[` of an index with a computed key, a splat's `[*]`, the text inside the
    /// quotes of a string. Otherwise the whole range.
    pub fn start_span(&self, e: ExprId) -> Option<Span> {
        self.start_spans.get(e).copied().or_else(|| self.span(e))
    }

    /// The step of an attribute access (`.name`, from the dot) or an index (`[key]`), which
    /// diagnostics about that access point at. Otherwise the whole range.
    pub fn step_span(&self, e: ExprId) -> Option<Span> {
        self.step_spans.get(e).copied().or_else(|| self.span(e))
    }
}

/// The lowered form of one file: its item tree and its source map, as lowering produced them
/// together. Dereferences to the item tree; the span accessors read the source map.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FileHir {
    pub tree: Arc<ItemTree>,
    pub map: Arc<SourceMap>,
}

impl std::ops::Deref for FileHir {
    type Target = ItemTree;
    fn deref(&self) -> &ItemTree {
        &self.tree
    }
}

impl FileHir {
    /// The range of an item's id.
    pub fn at(&self, id: SpanId) -> Span {
        self.map.at(id)
    }

    pub fn span(&self, e: ExprId) -> Option<Span> {
        self.map.span(e)
    }

    /// See [`SourceMap::start_span`].
    pub fn start_span(&self, e: ExprId) -> Option<Span> {
        self.map.start_span(e)
    }

    /// See [`SourceMap::step_span`].
    pub fn step_span(&self, e: ExprId) -> Option<Span> {
        self.map.step_span(e)
    }

    /// The diagnostics of lowering.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.map.diagnostics
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    /// The `variable "name"` header.
    pub span: SpanId,
    pub ty: Option<Type>,
    pub type_span: Option<SpanId>,
    /// Defaults of `optional(type, default)` attributes in `ty`, applied before conversion.
    pub defaults: Option<ferro_value::defaults::TypeDefaults>,
    pub default: Option<ExprId>,
    pub description: Option<String>,
    pub sensitive: bool,
    /// `ephemeral = true` (Terraform 1.10): the value may not persist (see `Marks::EPHEMERAL`).
    pub ephemeral: bool,
    pub nullable: bool,
    pub validations: Vec<VariableValidation>,
    /// `deprecated = "message"` (OpenTofu 1.10): a caller that sets the variable is warned.
    pub deprecated: Option<String>,
}

/// A `validation { condition, error_message }` block of a variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VariableValidation {
    pub condition: ExprId,
    /// A string, or (as in Terraform 1.2+) an expression that may refer to the variable.
    pub error_message: ExprId,
    /// The `validation` keyword, which the failure message names.
    pub span: SpanId,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Local {
    pub name: String,
    /// The name.
    pub span: SpanId,
    /// The whole definition, `name = expression` (where Terraform's messages about the local
    /// value point).
    pub decl_span: SpanId,
    pub expr: ExprId,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub name: String,
    pub span: SpanId,
    pub value: Option<ExprId>,
    pub description: Option<String>,
    pub sensitive: bool,
    /// `ephemeral = true` (Terraform 1.10, child modules only): the value may be ephemeral.
    pub ephemeral: bool,
    pub depends_on: Vec<(Reference, SpanId)>,
    /// `precondition` blocks, checked before the value is recorded.
    pub preconditions: Vec<Condition>,
    /// `deprecated = "message"` (OpenTofu 1.10): a caller referring to the output is warned.
    pub deprecated: Option<String>,
}

/// A `precondition` or `postcondition` block: a condition and the message shown when it fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    pub condition: ExprId,
    pub error_message: ExprId,
    /// The block's header, for diagnostics when the condition has no range of its own.
    pub span: SpanId,
}

/// A generic block body (attributes and nested blocks), interpreted later against a schema.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockBody {
    pub attrs: Vec<HirAttr>,
    pub blocks: Vec<HirBlock>,
    pub span: Option<SpanId>,
    /// Written in the JSON syntax. JSON cannot tell an argument from nested blocks, so every
    /// property is an argument here (duplicates included) until the schema decides which are
    /// blocks: `ferro_db::read_json_body`. Native-syntax bodies are complete as lowered.
    pub json: bool,
}

impl BlockBody {
    /// Every expression the body holds, nested blocks' and `dynamic` blocks' `for_each` and
    /// labels included, appended to `out`.
    pub fn exprs(&self, out: &mut Vec<ExprId>) {
        out.extend(self.attrs.iter().map(|a| a.expr));
        for b in &self.blocks {
            if let Some(d) = &b.dynamic {
                out.push(d.for_each);
                out.extend(d.labels.iter().copied());
            }
            b.body.exprs(out);
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HirAttr {
    pub name: String,
    pub name_span: SpanId,
    pub expr: ExprId,
    pub span: SpanId,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HirBlock {
    pub ty: String,
    pub ty_span: SpanId,
    pub labels: Vec<String>,
    pub body: BlockBody,
    pub span: SpanId,
    /// Set for a `dynamic "ty" { … }` block: `body` is its `content`, generated once per
    /// element of `for_each`.
    pub dynamic: Option<Box<DynamicBlock>>,
}

/// The generator of a `dynamic` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DynamicBlock {
    pub for_each: ExprId,
    /// The iterator's name (`iterator = x`, else the block type): `x.key`, `x.value`.
    pub iterator: String,
    /// `labels = [...]`, evaluated per element (the iterator in scope).
    pub labels: Vec<ExprId>,
    /// Where the `labels` argument's name and value are, when it is given.
    pub labels_at: Option<(SpanId, SpanId)>,
    /// Where diagnostics about something missing from the dynamic block's own body point (its
    /// opening brace; in JSON its closing one).
    pub missing_item: SpanId,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Lifecycle {
    pub create_before_destroy: bool,
    pub prevent_destroy: bool,
    /// `destroy = false` (OpenTofu 1.12, Terraform 1.16): objects leaving the configuration
    /// (or a destroy plan) are forgotten, not destroyed, and a replacement forgets the old
    /// object.
    pub skip_destroy: bool,
    /// Attribute paths whose configured values are ignored on update (`all` ignores everything).
    pub ignore_changes: Vec<Vec<IgnoreStep>>,
    /// The range of each `ignore_changes` path's first name (beside `ignore_changes`).
    pub ignore_changes_spans: Vec<SpanId>,
    pub ignore_all_changes: bool,
    /// `replace_triggered_by`: references to managed resources (an instance, optionally an
    /// attribute path) whose planned changes force this resource's replacement.
    pub replace_triggered_by: Vec<ExprId>,
    pub preconditions: Vec<Condition>,
    /// Checked against the planned (and, when unknown then, the applied) object as `self`.
    pub postconditions: Vec<Condition>,
}

/// One step of an `ignore_changes` path: `tags`, `["Name"]`, `[0]`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum IgnoreStep {
    Attr(String),
    Key(String),
    Index(u64),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceDecl {
    pub addr: Resource,
    /// The `resource "type" "name"` header.
    pub span: SpanId,
    pub body: BlockBody,
    pub count: Option<ExprId>,
    pub for_each: Option<ExprId>,
    /// `lifecycle { enabled = BOOL }` (OpenTofu 1.11): one instance without a key when true,
    /// none when false.
    pub enabled: Option<ExprId>,
    pub depends_on: Vec<(Reference, SpanId)>,
    /// `provider = name` or `name.alias`.
    pub provider: Option<(String, Option<String>, SpanId)>,
    /// The instance key of `provider = name.alias[KEY]` (OpenTofu 1.9): the configuration
    /// has `for_each`, and each resource instance picks one of its instances.
    pub provider_key: Option<ExprId>,
    pub lifecycle: Lifecycle,
    /// `provisioner` blocks (`local-exec`, `file`, `remote-exec`), in order.
    pub provisioners: Vec<Provisioner>,
    /// The resource's own `connection` block: the base of every provisioner's connection
    /// settings (a provisioner's own block overrides it argument by argument).
    pub connection: Option<BlockBody>,
    /// The `check` block a scoped data source is declared in: its errors are warnings, and
    /// only that check's assertions may refer to it.
    pub check: Option<String>,
}

impl ResourceDecl {
    /// The provider configuration it names: its `provider` argument's local name and alias,
    /// else the local name its type implies.
    pub fn provider_ref(&self) -> (&str, Option<&str>) {
        match &self.provider {
            Some((local, alias, _)) => (local, alias.as_deref()),
            None => (self.addr.implied_provider(), None),
        }
    }

    /// The expressions of its configuration: `count`, `for_each`, `enabled`, the body, and
    /// the `lifecycle` conditions.
    pub fn config_exprs(&self) -> Vec<ExprId> {
        let mut out: Vec<ExprId> = self
            .count
            .iter()
            .chain(self.for_each.iter())
            .chain(self.enabled.iter())
            .chain(self.provider_key.iter())
            .copied()
            .collect();
        self.body.exprs(&mut out);
        for c in self
            .lifecycle
            .preconditions
            .iter()
            .chain(&self.lifecycle.postconditions)
        {
            out.extend([c.condition, c.error_message]);
        }
        out
    }
}

/// A `provisioner` block: `local-exec`, `file` or `remote-exec`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provisioner {
    /// The provisioner type: `local-exec`, `file` or `remote-exec`.
    pub kind: String,
    /// Its own arguments: `command`, `interpreter`, `environment`, `working_dir`, `quiet`
    /// (local-exec); `source`, `content`, `destination` (file); `inline`, `script`, `scripts`
    /// (remote-exec).
    pub body: BlockBody,
    /// Its `connection` block, if it has one.
    pub connection: Option<BlockBody>,
    /// `when = destroy`: runs before the object is destroyed instead of after it is created.
    pub when_destroy: bool,
    /// `on_failure = continue`: a failure is reported but does not fail the apply.
    pub on_failure_continue: bool,
    /// The `provisioner "…"` header.
    pub span: SpanId,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderBlock {
    pub name: String,
    pub alias: Option<String>,
    pub span: SpanId,
    pub body: BlockBody,
    /// The block has a (deprecated) `version` argument: a block with one is a configuration
    /// even when its body is otherwise empty.
    pub version: bool,
    /// `for_each` (OpenTofu 1.9): one instance of the configuration per element, keys known
    /// before planning (variables, locals and literals only).
    pub for_each: Option<ExprId>,
}

/// An entry of `terraform { required_providers { … } }`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequiredProvider {
    pub local_name: String,
    pub source: Option<String>,
    pub version: Option<String>,
    pub span: SpanId,
    /// `configuration_aliases = [NAME.ALIAS, …]`: the aliases (with their local names) the
    /// module expects its callers to pass.
    pub aliases: Vec<(String, String)>,
}

/// A `moved { from = …, to = … }` block: objects state has at `from` now belong at `to`
/// (addresses relative to the module that declares the block).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub from: ferro_addrs::Target,
    pub to: ferro_addrs::Target,
    pub span: SpanId,
    pub from_span: SpanId,
    pub to_span: SpanId,
}

/// A `removed { from = … }` block: objects state has at `from` leave ferro's management.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Removed {
    pub from: ferro_addrs::Target,
    /// `lifecycle { destroy = true }`: the objects are destroyed (as for any resource removed
    /// from the configuration); otherwise they are only forgotten (left in place, dropped from
    /// state).
    pub destroy: bool,
    /// Destroy-time `provisioner` blocks (OpenTofu 1.10), run before each object is destroyed
    /// with `self` the object.
    pub provisioners: Vec<Provisioner>,
    pub span: SpanId,
    pub from_span: SpanId,
}

/// An `import { to = …, id = … }` block: an existing object to bring under management.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    /// The resource imported into (module path with static keys).
    pub to: ferro_addrs::AbsResource,
    pub key: ImportKey,
    /// What the object is imported by: its import ID, or (Terraform 1.12) its identity.
    pub by: ImportBy,
    pub for_each: Option<ExprId>,
    pub span: SpanId,
    pub to_span: SpanId,
}

/// What an import block names the object by: exactly one of `id` and `identity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportBy {
    /// `id = EXPR`: the provider's import ID.
    Id(ExprId),
    /// `identity = { … }`: the object's resource identity.
    Identity(ExprId),
}

impl ImportBy {
    pub fn expr(self) -> ExprId {
        match self {
            ImportBy::Id(e) | ImportBy::Identity(e) => e,
        }
    }

    pub(crate) fn expr_mut(&mut self) -> &mut ExprId {
        match self {
            ImportBy::Id(e) | ImportBy::Identity(e) => e,
        }
    }
}

/// The instance key of an import target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportKey {
    /// `to = a.b`.
    None,
    /// `to = a.b[0]`, `to = a.b["k"]`.
    Static(ferro_addrs::InstanceKey),
    /// `to = a.b[each.key]`: evaluated for every element of `for_each`.
    Expr(ExprId),
}

/// A `check "name" { assert { … } }` block: assertions evaluated after planning and after
/// applying; a failed one is a warning, never an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    pub name: String,
    pub asserts: Vec<Condition>,
    pub span: SpanId,
}

/// A `module "name" { source = … }` block: the call of a child module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModuleCall {
    pub name: String,
    /// The `module "name"` header.
    pub span: SpanId,
    /// Where HCL reports an argument missing from the block: its opening brace.
    pub missing_span: SpanId,
    /// The literal `source` string and its range.
    pub source: Option<(String, SpanId)>,
    /// A `source` that is not a literal string: evaluated before anything else from variables
    /// and locals (OpenTofu 1.8's early evaluation), by the front end; and its range.
    pub source_expr: Option<(ExprId, SpanId)>,
    pub version: Option<String>,
    /// A `version` that is not a literal string (evaluated as `source_expr` is).
    pub version_expr: Option<ExprId>,
    /// The range of the `version` argument's value.
    pub version_span: Option<SpanId>,
    pub count: Option<ExprId>,
    pub for_each: Option<ExprId>,
    /// `lifecycle { enabled = BOOL }` (OpenTofu 1.11): one instance without a key when true,
    /// none when false.
    pub enabled: Option<ExprId>,
    pub depends_on: Vec<(Reference, SpanId)>,
    /// `providers = { child = parent, child.alias = parent.alias }`.
    pub providers: Vec<ProviderPassing>,
    /// Every other argument: a value for the child's input variable of that name.
    pub inputs: Vec<HirAttr>,
}

/// One entry of a module call's `providers` map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProviderPassing {
    /// The configuration name in the child module: local name and optional alias.
    pub child: (String, Option<String>),
    /// The configuration in the calling module it stands for.
    pub parent: (String, Option<String>),
    /// `parent.alias[KEY]`: the instance of a `for_each` configuration (OpenTofu 1.9).
    pub parent_key: Option<ExprId>,
    pub span: SpanId,
}
