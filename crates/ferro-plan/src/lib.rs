//! The plan IR: everything apply needs, as data.
//!
//! A [`Plan`] lists one [`ResourceInstanceChange`] per resource instance (and deposed object)
//! with its action, before and after values (after may hold unknowns), and an execution graph of
//! [`Step`]s whose edges say why one step waits for another. It carries the configuration it was
//! made from and the identity of the state it was planned against, and serialises with serde as
//! the saved plan file.
//!
//! **Architecture invariant:** apply never chooses an action; it walks `graph` and performs the
//! steps it finds there.

mod check;
mod deferred;
mod file;
mod serde_helpers;

pub use check::check_consistency;
pub use deferred::{DeferredChange, DeferredReason};
pub use file::{
    is_plan_file, read_plan_file, read_plan_file_from, read_plan_file_with,
    write_encrypted_plan_file, write_plan_file, write_plan_file_to, PlanFileError,
};

use ferro_addrs::{
    AbsProviderConfig, AbsResource, AbsResourceInstance, InstanceKey, ModuleInstance,
};
use ferro_state::State;
use ferro_value::{Packed, PathStep, Value};
use petgraph::stable_graph::{NodeIndex, StableDiGraph};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Bumped whenever the serialised shape changes; older plan files are refused. (2: a
/// change's deposed key, reason and replace paths moved into its `detail`; 3: the file ends
/// with the SHA-256 of its content.)
pub const PLAN_FORMAT_VERSION: u32 = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Action {
    NoOp,
    Create,
    Read,
    Update,
    DeleteThenCreate,
    CreateThenDelete,
    Delete,
    /// OpenTofu's replacement of an object whose resource has `lifecycle { destroy = false }`:
    /// the old object leaves state (not destroyed) and a new one is created.
    ForgetThenCreate,
}

impl Action {
    /// The `actions` list of `show -json`.
    pub fn json_actions(self) -> &'static [&'static str] {
        match self {
            Action::NoOp => &["no-op"],
            Action::Create => &["create"],
            Action::Read => &["read"],
            Action::Update => &["update"],
            Action::DeleteThenCreate => &["delete", "create"],
            Action::CreateThenDelete => &["create", "delete"],
            Action::Delete => &["delete"],
            Action::ForgetThenCreate => &["forget", "create"],
        }
    }

    pub fn is_replace(self) -> bool {
        matches!(self, Action::DeleteThenCreate | Action::CreateThenDelete)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ActionReason {
    ReplaceBecauseTainted,
    ReplaceBecauseCannotUpdate,
    ReplaceByRequest,
    /// `replace_triggered_by` named something with changes planned.
    ReplaceByTriggers,
    /// A data source read waits for apply because its configuration has unknown values.
    ReadBecauseConfigUnknown,
    /// A data source read waits for apply because something it depends on has changes pending.
    ReadBecauseDependencyPending,
    /// OpenTofu: forgotten, not destroyed, because the configuration has
    /// `lifecycle { destroy = false }`.
    ForgotBecauseLifecycleDestroyInConfig,
    /// OpenTofu: forgotten, not destroyed, because the object records `skip_destroy` (the
    /// resource had `lifecycle { destroy = false }` before it left the configuration).
    ForgotBecauseLifecycleDestroyInState,
}

impl ActionReason {
    pub fn as_str(self) -> &'static str {
        match self {
            ActionReason::ReplaceBecauseTainted => "replace_because_tainted",
            ActionReason::ReplaceBecauseCannotUpdate => "replace_because_cannot_update",
            ActionReason::ReplaceByRequest => "replace_by_request",
            ActionReason::ReplaceByTriggers => "replace_by_triggers",
            ActionReason::ReadBecauseConfigUnknown => "read_because_config_unknown",
            ActionReason::ReadBecauseDependencyPending => "read_because_dependency_pending",
            ActionReason::ForgotBecauseLifecycleDestroyInConfig => {
                "forgot_because_lifecycle_destroy_in_config"
            }
            ActionReason::ForgotBecauseLifecycleDestroyInState => {
                "forgot_because_lifecycle_destroy_in_state"
            }
        }
    }
}

/// The planned change to one resource instance object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceInstanceChange {
    pub addr: AbsResourceInstance,
    /// Shared by the changes of a resource's instances.
    pub provider: Arc<AbsProviderConfig>,
    pub action: Action,
    /// Prior (refreshed) value; null for create. Packed (see [`Packed`]): a plan holds one
    /// change per instance, and reads its values a few times.
    pub before: Packed,
    /// Initial planned value; null for delete. May contain unknowns. Packed.
    pub after: Packed,
    /// Shared with the changes before it that have the same bytes (see [`PrivateData`]).
    pub planned_private: PrivateData,
    pub schema_version: u64,
    /// Resources this object depends on (for state's `dependencies`; shared by the changes of
    /// a resource's instances).
    pub dependencies: ferro_state::Dependencies,
    pub create_before_destroy: bool,
    /// `lifecycle { destroy = false }`: recorded on the new object as OpenTofu's
    /// `skip_destroy`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub skip_destroy: bool,
    /// What few changes have (see [`ChangeDetail`]; read and set through the `deposed`,
    /// `reason` and `requires_replace` methods), boxed: so a change fits the 160-byte
    /// allocation size class (a plan holds one change per instance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Box<ChangeDetail>>,
}

/// A change's planned private data: the provider's opaque bytes. Providers often give every
/// instance of a resource the same few bytes (hashicorp/null: `{"schema_version":"0"}`), and
/// a plan holds one change per instance, so equal bytes are shared
/// ([`PrivateData::share_from`]). Reads as its bytes; written to a plan file as they are.
#[derive(Debug, Clone, Default, PartialEq)]
// The bytes behind a second pointer: the handle is one word (a change fits the 160-byte size
// class), and the block is shared by the changes that have the same bytes.
#[allow(clippy::redundant_allocation)]
pub struct PrivateData(Option<Arc<Box<[u8]>>>);

impl PrivateData {
    /// Take `other`'s block when it holds the same bytes.
    pub fn share_from(&mut self, other: &PrivateData) {
        if let (Some(a), Some(b)) = (&self.0, &other.0) {
            if !Arc::ptr_eq(a, b) && a == b {
                self.0 = Some(b.clone());
            }
        }
    }
}

impl std::ops::Deref for PrivateData {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.0.as_deref().map_or(&[], |b| b)
    }
}

impl From<Vec<u8>> for PrivateData {
    fn from(bytes: Vec<u8>) -> Self {
        PrivateData((!bytes.is_empty()).then(|| Arc::new(bytes.into_boxed_slice())))
    }
}

impl Serialize for PrivateData {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for PrivateData {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<u8>::deserialize(d).map(PrivateData::from)
    }
}

/// The parts of a change most changes leave empty: replacements, reads and deposed objects
/// have them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChangeDetail {
    /// For changes to deposed objects: their key.
    deposed: Option<Box<str>>,
    reason: Option<ActionReason>,
    /// Attribute paths that forced a replacement.
    requires_replace: Box<[Vec<PathStep>]>,
    /// The resource identity state held for the object (Terraform 1.12's `before_identity`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    before_identity: Option<Packed>,
    /// The identity the provider planned (`after_identity`), sent back to it at apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    after_identity: Option<Packed>,
    /// The identity schema version of the planned identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    identity_schema_version: Option<u64>,
}

/// The attribute that names an object in progress lines ("Refreshing state... [id=…]"), as
/// Terraform picks it: `id` when the object type has a string `id` (nothing when that is null,
/// unknown or sensitive), else a string `name` (on the same terms).
pub fn object_value_id(v: &Value) -> Option<(&'static str, String)> {
    let ferro_value::ValueKind::Object(attrs) = &v.kind else {
        return None;
    };
    if v.marks.is_sensitive() {
        return None;
    }
    let named = ["id", "name"].into_iter().find_map(|k| {
        attrs
            .get(k)
            .filter(|a| a.ty() == ferro_value::Type::String)
            .map(|a| (k, a))
    })?;
    let (k, a) = named;
    if a.marks.is_sensitive() {
        return None;
    }
    a.as_str().map(|s| (k, s.to_string()))
}

impl ResourceInstanceChange {
    /// A change of an instance's current object. The reason, replace paths, private data,
    /// dependencies and `create_before_destroy` start empty; set them with struct update
    /// syntax and the `with_` methods.
    pub fn new(
        addr: AbsResourceInstance,
        provider: Arc<AbsProviderConfig>,
        action: Action,
        before: Value,
        after: Value,
        schema_version: u64,
    ) -> Self {
        let before = Packed::new(&before);
        // A no-op's values are one block.
        let after = Packed::new(&after).share_from(&before);
        ResourceInstanceChange {
            addr,
            provider,
            action,
            before,
            after,
            planned_private: PrivateData::default(),
            schema_version,
            dependencies: Default::default(),
            create_before_destroy: false,
            skip_destroy: false,
            detail: None,
        }
    }

    /// For changes to deposed objects: their key.
    pub fn deposed(&self) -> Option<&str> {
        self.detail.as_ref().and_then(|d| d.deposed.as_deref())
    }

    /// Why the action was chosen, when it was not the obvious one.
    pub fn reason(&self) -> Option<ActionReason> {
        self.detail.as_ref().and_then(|d| d.reason)
    }

    /// Attribute paths that forced a replacement.
    pub fn requires_replace(&self) -> &[Vec<PathStep>] {
        self.detail.as_ref().map_or(&[], |d| &d.requires_replace)
    }

    /// The resource identity state held for the object before the change.
    pub fn before_identity(&self) -> Option<Value> {
        let d = self.detail.as_ref()?;
        d.before_identity.as_ref().map(Packed::value)
    }

    /// The identity the provider planned for the object, and its identity schema version.
    pub fn after_identity(&self) -> Option<(Value, u64)> {
        let d = self.detail.as_ref()?;
        let v = d.after_identity.as_ref()?.value();
        Some((v, d.identity_schema_version.unwrap_or(0)))
    }

    /// Record the identities before and after the change (None: the object has none).
    pub fn with_identities(mut self, before: Option<&Value>, after: Option<(&Value, u64)>) -> Self {
        if before.is_some() || after.is_some() {
            let d = self.detail_mut();
            d.before_identity = before.map(Packed::new);
            d.after_identity = after.map(|(v, _)| Packed::new(v));
            d.identity_schema_version = after.map(|(_, n)| n);
        }
        self
    }

    fn detail_mut(&mut self) -> &mut ChangeDetail {
        self.detail.get_or_insert_with(Box::default)
    }

    /// The change made a change of the deposed object `key` (or of the current one).
    pub fn with_deposed(mut self, key: Option<Box<str>>) -> Self {
        if key.is_some() || self.detail.is_some() {
            self.detail_mut().deposed = key;
        }
        self
    }

    pub fn with_reason(mut self, reason: Option<ActionReason>) -> Self {
        if reason.is_some() || self.detail.is_some() {
            self.detail_mut().reason = reason;
        }
        self
    }

    pub fn with_requires_replace(mut self, paths: Box<[Vec<PathStep>]>) -> Self {
        if !paths.is_empty() || self.detail.is_some() {
            self.detail_mut().requires_replace = paths;
        }
        self
    }
}

/// The planned change to a root module output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutputChange {
    pub name: String,
    pub action: Action,
    pub before: Value,
    /// May be unknown.
    pub after: Value,
    pub sensitive: bool,
}

/// One step of the execution graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Step {
    /// Create or update an object (for replacements: the create half). Index into `changes`.
    /// (Indices are 32 bits: with the graph's own, a step is 16 bytes, and a plan holds one
    /// or two per instance.)
    Apply(u32),
    /// Destroy an object (for replacements: the destroy half). Index into `changes`.
    Destroy(u32),
    /// Evaluate and record a root output (index into `outputs`).
    Output(u32),
    /// Completes when every apply (or destroy) step of one resource has: keeps edges linear.
    Join,
}

/// Why an edge exists (the edge points from the step that must finish first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EdgeKind {
    /// The later step's configuration refers to the earlier one.
    Reference,
    /// An explicit `depends_on`.
    DependsOn,
    /// Dependents are destroyed before what they depend on.
    DestroyOrder,
    /// Within a replacement: destroy then create (or create then destroy).
    Replace,
}

/// The variables, configuration and state a plan was made from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConfigSnapshot {
    /// (path relative to the working directory, contents) of every configuration file.
    pub files: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateIdentity {
    pub lineage: String,
    pub serial: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlanMode {
    Normal,
    Destroy,
    /// `-refresh-only`: no resource actions; applying records the refreshed state.
    RefreshOnly,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    pub format_version: u32,
    pub mode: PlanMode,
    pub config: ConfigSnapshot,
    /// Root input variable values (defaults included).
    pub variables: BTreeMap<String, Value>,
    /// The state the plan was made against (refreshed), with its identity. Stored in the plan
    /// file after the plan's JSON, as its state file's text (see [`file`]), streamed both ways.
    #[serde(skip, default = "no_state")]
    pub prior_state: State,
    /// None when there was no state file yet.
    pub state_identity: Option<StateIdentity>,
    /// Boxed: a change (under 200 bytes) moves from the instance that planned it into this list
    /// as a pointer, so the two are never held at once, and sorting moves pointers.
    #[serde(deserialize_with = "serde_helpers::shared_changes::deserialize")]
    pub changes: Vec<Box<ResourceInstanceChange>>,
    pub outputs: Vec<OutputChange>,
    pub graph: StableDiGraph<Step, EdgeKind>,
    /// How each configured resource is repeated (decides the shape of its value at apply).
    #[serde(with = "serde_helpers::map_as_pairs")]
    pub expansions: BTreeMap<AbsResource, Expansion>,
    /// How each module call expanded in each module instance: (calling module instance, call
    /// name) → how and with which keys. Apply recreates the module instances from it.
    #[serde(with = "serde_helpers::map_as_pairs")]
    pub module_expansions: BTreeMap<(ModuleInstance, String), (Expansion, Vec<InstanceKey>)>,
    /// `-target` addresses the plan was made with (as typed), for apply's warning.
    #[serde(default)]
    pub targets: Vec<String>,
    /// `-exclude` addresses the plan was made with (as typed).
    #[serde(default)]
    pub excludes: Vec<String>,
    /// Objects whose refreshed value differs from the previous run's state (changes made
    /// outside ferro), for `resource_drift` and the "Objects have changed outside of ferro"
    /// section.
    #[serde(default)]
    pub drift: Vec<ResourceDrift>,
    /// Instances `moved` blocks took over: (new address, address state had before).
    #[serde(default)]
    pub moved: Vec<(AbsResourceInstance, AbsResourceInstance)>,
    /// Instances `import` blocks brought under management, with the id each was imported by.
    /// The imported objects are in `prior_state`; their changes are planned from there.
    #[serde(default)]
    pub imports: Vec<(AbsResourceInstance, String)>,
    /// The identity each instance an `import` block imports by identity was imported by (its
    /// id in `imports` is empty), as JSON.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub import_identities: Vec<(AbsResourceInstance, serde_json::Value)>,
    /// The configuration `plan -generate-config-out` wrote for imported instances the
    /// configuration did not declare (shown as "config will be generated", and in the plan's
    /// JSON as `generated_config`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub generated_config: Vec<(AbsResourceInstance, String)>,
    /// Objects `removed` blocks drop from state without destroying them (before values, for
    /// rendering); apply removes them from state first.
    #[serde(default)]
    pub forgotten: Vec<Box<ResourceInstanceChange>>,
    /// The schemas of the providers whose objects the plan holds, as far as the plan uses
    /// them (their configuration and the types of its objects), stored by `plan -out` so that
    /// showing a saved plan needs no provider process.
    #[serde(default)]
    pub schemas: Vec<StoredSchema>,
    /// The root variables declared `ephemeral` (Terraform 1.10): their values are not in
    /// `variables` (nor anywhere in the plan), and applying the plan takes them again.
    #[serde(default)]
    pub ephemeral_variables: Vec<String>,
    /// Their values, while the plan is in memory (a plan applied by the command that made
    /// it): never written to a plan file.
    #[serde(skip)]
    pub ephemeral_values: BTreeMap<String, Value>,
    /// Changes a partial plan (`-allow-deferral`) leaves for a later plan, in address order.
    /// Apply performs none of them; their objects stay as state has them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deferred: Vec<DeferredChange>,
}

/// One provider's schema as a saved plan keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredSchema {
    /// The provider's source address (`registry.terraform.io/hashicorp/null`).
    pub provider: String,
    pub config: ferro_value::schema::Schema,
    pub resources: BTreeMap<String, ferro_value::schema::Schema>,
    pub data_sources: BTreeMap<String, ferro_value::schema::Schema>,
}

/// A change made outside ferro, found by refreshing an object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceDrift {
    pub addr: AbsResourceInstance,
    pub provider: Arc<AbsProviderConfig>,
    /// The object as the previous run left it.
    pub before: Value,
    /// The object as it is now; null when it was deleted outside ferro.
    pub after: Value,
}

impl ResourceDrift {
    /// The drift as a change (an update, or a delete when the object is gone), for the
    /// renderings shared with planned changes.
    pub fn as_change(&self) -> ResourceInstanceChange {
        ResourceInstanceChange::new(
            self.addr.clone(),
            self.provider.clone(),
            if self.after.is_null() {
                Action::Delete
            } else {
                Action::Update
            },
            self.before.clone(),
            self.after.clone(),
            0,
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expansion {
    Single,
    Count,
    ForEach,
    /// OpenTofu's `lifecycle { enabled }`: one instance without a key, or none, when the
    /// resource (or module call) is null in expressions.
    Enabled,
}

impl Plan {
    /// True when applying would change nothing (no resource or output actions).
    pub fn is_empty(&self) -> bool {
        if !self.moved.is_empty() || !self.imports.is_empty() || !self.forgotten.is_empty() {
            return false;
        }
        if self.mode == PlanMode::RefreshOnly {
            return self.drift.is_empty() && self.outputs.iter().all(|o| o.action == Action::NoOp);
        }
        self.changes.iter().all(|c| c.action == Action::NoOp)
            && self.outputs.iter().all(|o| o.action == Action::NoOp)
    }

    /// Whether the plan covers the whole configuration: nothing was deferred.
    pub fn is_complete(&self) -> bool {
        self.deferred.is_empty()
    }

    /// Counts for the `Plan: N to add, N to change, N to destroy.` line.
    pub fn counts(&self) -> (usize, usize, usize) {
        let (mut add, mut change, mut destroy) = (0, 0, 0);
        for c in &self.changes {
            match c.action {
                // A data source leaving state is not a destroy (Terraform does not count it).
                Action::Delete
                    if c.addr.resource.resource.mode == ferro_addrs::ResourceMode::Data => {}
                Action::Create => add += 1,
                Action::Update => change += 1,
                Action::Delete => destroy += 1,
                Action::DeleteThenCreate | Action::CreateThenDelete => {
                    add += 1;
                    destroy += 1;
                }
                Action::ForgetThenCreate => add += 1,
                Action::NoOp | Action::Read => {}
            }
        }
        (add, change, destroy)
    }

    /// How many objects leave state without being destroyed: those `removed` blocks or
    /// `lifecycle { destroy = false }` forget, and the old objects of forget-then-create
    /// replacements (OpenTofu's "N to forget").
    pub fn forget_count(&self) -> usize {
        self.forgotten.len()
            + self
                .changes
                .iter()
                .filter(|c| c.action == Action::ForgetThenCreate)
                .count()
    }

    /// The id each instance an `import` block imports in this plan is imported by (a map, so
    /// renderings look every change up in constant time).
    pub fn import_ids(&self) -> std::collections::HashMap<&AbsResourceInstance, &str> {
        self.imports
            .iter()
            .map(|(a, id)| (a, id.as_str()))
            .collect()
    }

    /// The node of every step, for lookups.
    pub fn step_nodes(&self) -> Vec<(NodeIndex, &Step)> {
        self.graph
            .node_indices()
            .map(|n| (n, &self.graph[n]))
            .collect()
    }
}

/// The prior state of a plan read from JSON before the state that follows it in the file.
fn no_state() -> State {
    State::new(String::new())
}

#[cfg(test)]
mod size_tests {
    /// A plan holds one boxed change per instance: past 160 bytes each would take the next
    /// allocation size class, 192.
    #[test]
    fn a_change_fits_the_160_byte_size_class() {
        assert!(std::mem::size_of::<super::ResourceInstanceChange>() <= 160);
    }

    #[test]
    fn a_change_holds_its_detail_only_when_it_has_one() {
        use super::{Action, ActionReason, ResourceInstanceChange};
        use ferro_addrs::{AbsProviderConfig, AbsResource, InstanceKey, Provider, Resource};
        use ferro_value::{Type, Value};
        let addr =
            AbsResource::root(Resource::managed("null_resource", "a")).instance(InstanceKey::None);
        let provider = std::sync::Arc::new(AbsProviderConfig::root(Provider::default_for("null")));
        let null = Value::null(Type::Dynamic);
        let plain =
            ResourceInstanceChange::new(addr, provider, Action::NoOp, null.clone(), null, 0)
                .with_deposed(None)
                .with_reason(None)
                .with_requires_replace(Box::default());
        assert!(plain.detail.is_none());
        assert_eq!((plain.deposed(), plain.reason()), (None, None));
        assert!(plain.requires_replace().is_empty());
        let c = plain
            .with_deposed(Some("abc".into()))
            .with_reason(Some(ActionReason::ReplaceByRequest));
        assert_eq!(c.deposed(), Some("abc"));
        assert_eq!(c.reason(), Some(ActionReason::ReplaceByRequest));
        let back: ResourceInstanceChange =
            serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }
}

#[cfg(test)]
mod object_value_id_tests {
    use super::object_value_id;
    use ferro_value::{Marks, Type, Value, ValueMap};

    fn obj(entries: Vec<(&str, Value)>) -> Value {
        Value::object(entries.into_iter().collect::<ValueMap>())
    }

    #[test]
    fn names_objects_as_terraforms_progress_lines_do() {
        let id = |v: Value| obj(vec![("id", v), ("name", Value::string("n"))]);
        assert_eq!(
            object_value_id(&id(Value::string("i-1"))),
            Some(("id", "i-1".to_string()))
        );
        // A string id that is null, unknown or sensitive names nothing: `name` is not tried.
        assert_eq!(object_value_id(&id(Value::null(Type::String))), None);
        assert_eq!(object_value_id(&id(Value::unknown(Type::String))), None);
        let mut secret = Value::string("i-1");
        secret.marks = Marks::SENSITIVE;
        assert_eq!(object_value_id(&id(secret)), None);
        // Without a string id, `name`.
        assert_eq!(
            object_value_id(&obj(vec![
                ("id", Value::int(3)),
                ("name", Value::string("n"))
            ])),
            Some(("name", "n".to_string()))
        );
        assert_eq!(
            object_value_id(&obj(vec![("other", Value::string("x"))])),
            None
        );
        assert_eq!(object_value_id(&Value::string("x")), None);
    }
}

#[cfg(test)]
mod private_data_tests {
    use super::PrivateData;
    use std::sync::Arc;

    #[test]
    fn equal_private_data_is_shared_and_written_as_plain_bytes() {
        let first = PrivateData::from(b"{\"schema_version\":\"0\"}".to_vec());
        let mut second = PrivateData::from(b"{\"schema_version\":\"0\"}".to_vec());
        let mut other = PrivateData::from(b"other".to_vec());
        second.share_from(&first);
        other.share_from(&first);
        let block = |p: &PrivateData| p.0.as_ref().map(Arc::as_ptr);
        assert_eq!(block(&second), block(&first));
        assert_ne!(block(&other), block(&first));
        assert_eq!(&*other, b"other");
        // Empty data holds no block and reads as no bytes.
        let empty = PrivateData::from(Vec::new());
        assert!(empty.0.is_none() && empty.is_empty());
        // A plan file has the bytes as a boxed slice had them.
        let as_box: Box<[u8]> = b"other".to_vec().into_boxed_slice();
        let json = serde_json::to_string(&other).unwrap();
        assert_eq!(json, serde_json::to_string(&as_box).unwrap());
        let back: PrivateData = serde_json::from_str(&json).unwrap();
        assert_eq!(back, other);
        assert_eq!(serde_json::to_string(&empty).unwrap(), "[]");
    }
}
