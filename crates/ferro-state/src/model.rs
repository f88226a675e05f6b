//! The in-memory state model.

use ferro_addrs::{AbsProviderConfig, AbsResource, InstanceKey};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The resources an object depends on, as state records them; one list is shared by every
/// object that has the same (the instances of a resource), which in a long chain of resources
/// is most of what state holds. Reads as the slice of addresses. The handle is one word (the
/// list sits behind the shared block), so an object fits a smaller allocation size class:
/// state and a plan hold one per instance, the list one per resource.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Dependencies(Option<Arc<Vec<String>>>);

impl Dependencies {
    /// Whether both hold the same shared list (or both none).
    pub fn shares(&self, other: &Dependencies) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

impl std::ops::Deref for Dependencies {
    type Target = [String];
    fn deref(&self) -> &[String] {
        self.0.as_deref().map_or(&[], Vec::as_slice)
    }
}

impl From<Vec<String>> for Dependencies {
    fn from(list: Vec<String>) -> Dependencies {
        Dependencies((!list.is_empty()).then(|| Arc::new(list)))
    }
}

impl std::fmt::Debug for Dependencies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for Dependencies {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Dependencies {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::deserialize(d).map(Dependencies::from)
    }
}

/// A whole state snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// Version of the tool that wrote it (`terraform_version` in the file).
    pub terraform_version: String,
    pub serial: u64,
    pub lineage: String,
    /// Root module outputs.
    pub outputs: BTreeMap<String, OutputState>,
    /// Resources keyed by address (the file is written in Terraform's order regardless).
    pub resources: BTreeMap<AbsResource, ResourceState>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutputState {
    /// The value as cty JSON of its own type.
    pub value: serde_json::Value,
    /// The cty type JSON of the value.
    pub ty: serde_json::Value,
    pub sensitive: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResourceState {
    pub addr: AbsResource,
    /// The provider configuration the resource was resolved to.
    pub provider: AbsProviderConfig,
    pub instances: BTreeMap<InstanceKey, InstanceState>,
    /// When the configuration has `for_each` (OpenTofu 1.9): the instance of it each
    /// instance's objects belong to, by instance key. Kept beside the instances, not in them:
    /// an instance entry stays two words, and a resource without keys holds an empty map.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub provider_keys: BTreeMap<InstanceKey, InstanceKey>,
}

/// One resource instance: its current object and any deposed objects (create_before_destroy).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct InstanceState {
    /// Shared: the copies of a state (the plan's prior state, apply's working state, the
    /// snapshot a write takes) hold each object once, and copying a state copies no object.
    /// Change one with `Arc::make_mut`.
    pub current: Option<Arc<ObjectState>>,
    /// Keyed by the 8-hex-digit deposed key.
    pub deposed: Deposed,
}

/// An instance's deposed objects, keyed by deposed key; it reads as the map (`Deref`). Nearly
/// always there are none, and then it holds no map: one word where an empty map is three, in
/// every instance of every copy of a state.
#[derive(Debug, Clone, PartialEq, Default)]
// Boxed on purpose: the box is one word, the map three, and there is rarely a map at all.
#[allow(clippy::box_collection)]
pub struct Deposed(Option<Box<BTreeMap<String, ObjectState>>>);

static NO_DEPOSED: BTreeMap<String, ObjectState> = BTreeMap::new();

impl std::ops::Deref for Deposed {
    type Target = BTreeMap<String, ObjectState>;
    fn deref(&self) -> &Self::Target {
        self.0.as_deref().unwrap_or(&NO_DEPOSED)
    }
}

impl std::ops::DerefMut for Deposed {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.0.get_or_insert_with(Box::default)
    }
}

impl From<BTreeMap<String, ObjectState>> for Deposed {
    fn from(map: BTreeMap<String, ObjectState>) -> Deposed {
        Deposed((!map.is_empty()).then(|| Box::new(map)))
    }
}

impl IntoIterator for Deposed {
    type Item = (String, ObjectState);
    type IntoIter = std::collections::btree_map::IntoIter<String, ObjectState>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.map(|m| *m).unwrap_or_default().into_iter()
    }
}

impl<'a> IntoIterator for &'a Deposed {
    type Item = (&'a String, &'a ObjectState);
    type IntoIter = std::collections::btree_map::Iter<'a, String, ObjectState>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Serialize for Deposed {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

impl<'de> Deserialize<'de> for Deposed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        BTreeMap::deserialize(d).map(Deposed::from)
    }
}

/// One remote object as recorded in state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObjectState {
    pub tainted: bool,
    /// 32 bits (no provider numbers its schemas past that): with them, the object fits 64 bytes.
    pub schema_version: u32,
    /// The object: cty JSON as read, or the value decoded against the schema's implied type.
    /// Either is shared, so copies of a state (the plan's prior state, apply's working state,
    /// the snapshot a write takes) hold each object once.
    pub attributes: crate::Attributes,
    /// Paths of sensitive values, as Terraform writes them (`[[{"type":"get_attr","value":"x"}]]`).
    pub sensitive_attributes: crate::SensitiveAttributes,
    /// Provider private data, base64 as stored in the file; None when empty. Shared: the
    /// objects of a resource often have the same.
    pub private: Option<Arc<str>>,
    /// Resources this object depends on (no instance keys), sorted and de-duplicated. Shared:
    /// the instances of a resource (and the plan's changes of them) hold one list.
    pub dependencies: Dependencies,
    pub create_before_destroy: bool,
    /// OpenTofu's `skip_destroy`: the resource had `lifecycle { destroy = false }` when the
    /// object was last planned, so it is forgotten instead of destroyed once its
    /// configuration is gone (or in a destroy plan).
    #[serde(default)]
    pub skip_destroy: bool,
    /// The object's resource identity (Terraform 1.12): what the provider last answered, or
    /// what another tool recorded. An object written over the current one without an identity
    /// keeps the current one's ([`State::set_current`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identity: Option<Arc<Identity>>,
}

/// A resource identity as state records it: the identity schema's version and the identity
/// object's JSON text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    pub schema_version: u64,
    pub json: Box<str>,
}

/// What walking a resource's instances needs while their objects are replaced in the state it
/// came from: its address and provider, and per instance its key, whether it has a current
/// object, and its deposed objects whole. It holds no current object, so it keeps none of the
/// replaced ones alive, and it costs a few words per instance.
#[derive(Debug, Clone)]
pub struct ResourceOutline {
    pub addr: AbsResource,
    pub provider: AbsProviderConfig,
    pub instances: Vec<InstanceOutline>,
}

/// One instance of a [`ResourceOutline`].
#[derive(Debug, Clone)]
pub struct InstanceOutline {
    pub key: InstanceKey,
    /// The instance of the provider configuration (see [`ResourceState::provider_keys`]).
    pub provider_key: InstanceKey,
    pub has_current: bool,
    /// (deposed key, object), in key order.
    pub deposed: Vec<(String, ObjectState)>,
}

impl InstanceOutline {
    fn of(key: &InstanceKey, inst: &InstanceState, rs: &ResourceState) -> InstanceOutline {
        InstanceOutline {
            key: key.clone(),
            provider_key: rs.provider_keys.get(key).cloned().unwrap_or_default(),
            has_current: inst.current.is_some(),
            deposed: inst
                .deposed
                .iter()
                .map(|(dk, o)| (dk.clone(), o.clone()))
                .collect(),
        }
    }
}

impl ResourceState {
    /// The provider configuration instance an instance's objects belong to: the resource's
    /// configuration with the instance's provider key.
    pub fn instance_provider(&self, key: &InstanceKey) -> AbsProviderConfig {
        match self.provider_keys.get(key) {
            Some(k) => self.provider.with_key(k.clone()),
            None => self.provider.clone(),
        }
    }

    /// The outline of at most `max` of the resource's instances: the first ones after `after`
    /// (from the first instance when None), in key order. A walk that outlines a window of
    /// instances at a time holds a window's outlines, not the whole resource's.
    pub fn outline_after(&self, after: Option<&InstanceKey>, max: usize) -> ResourceOutline {
        use std::ops::Bound;
        let from = match after {
            Some(k) => Bound::Excluded(k),
            None => Bound::Unbounded,
        };
        let instances = self
            .instances
            .range((from, Bound::Unbounded))
            .take(max)
            .map(|(k, inst)| InstanceOutline::of(k, inst, self))
            .collect();
        ResourceOutline {
            addr: self.addr.clone(),
            provider: self.provider.clone(),
            instances,
        }
    }

    /// The outline of the resource, with the instances `keep` accepts (in key order).
    pub fn outline(
        &self,
        mut keep: impl FnMut(&InstanceKey, &InstanceState) -> bool,
    ) -> ResourceOutline {
        // No spare room is kept: a walk holds its outlines while it plans.
        let mut instances: Vec<InstanceOutline> = Vec::new();
        instances.extend(
            self.instances
                .iter()
                .filter(|(k, inst)| keep(k, inst))
                .map(|(k, inst)| InstanceOutline::of(k, inst, self)),
        );
        instances.shrink_to_fit();
        ResourceOutline {
            addr: self.addr.clone(),
            provider: self.provider.clone(),
            instances,
        }
    }
}

impl State {
    /// A new, empty state with a fresh lineage and serial 0 (first write makes it 1).
    pub fn new(lineage: String) -> State {
        State {
            terraform_version: crate::codec::WRITER_VERSION.to_string(),
            serial: 0,
            lineage,
            outputs: BTreeMap::new(),
            resources: BTreeMap::new(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.outputs.is_empty() && self.resources.values().all(|r| r.instances.is_empty())
    }

    /// The current object of a resource instance, if any.
    pub fn current_object(&self, res: &AbsResource, key: &InstanceKey) -> Option<&ObjectState> {
        self.resources
            .get(res)?
            .instances
            .get(key)?
            .current
            .as_deref()
    }

    /// Remove resources that have no instances left (Terraform drops them from the file).
    pub fn prune(&mut self) {
        for r in self.resources.values_mut() {
            r.instances
                .retain(|_, i| i.current.is_some() || !i.deposed.is_empty());
        }
        self.resources.retain(|_, r| !r.instances.is_empty());
    }

    /// Set (or with None, remove) the current object of an instance.
    pub fn set_current(
        &mut self,
        res: &AbsResource,
        provider: &AbsProviderConfig,
        key: &InstanceKey,
        obj: Option<ObjectState>,
    ) {
        let entry = self
            .resources
            .entry(res.clone())
            .or_insert_with(|| ResourceState {
                addr: res.clone(),
                provider: provider.config(),
                instances: BTreeMap::new(),
                provider_keys: BTreeMap::new(),
            });
        if entry.provider.alias != provider.alias
            || entry.provider.provider != provider.provider
            || entry.provider.module != provider.module
        {
            entry.provider = provider.config();
        }
        let slot = &mut entry.instances.entry(key.clone()).or_default().current;
        // An object written over the current one (an update, a refresh) without a resource
        // identity keeps the current one's: the provider answered none (or has no identity
        // schema), and an update does not change an object's identity.
        *slot = obj.map(|mut o| {
            if o.identity.is_none() {
                o.identity = slot.as_ref().and_then(|cur| cur.identity.clone());
            }
            Arc::new(o)
        });
        match provider.key.is_none() {
            true => entry.provider_keys.remove(key),
            false => entry
                .provider_keys
                .insert(key.clone(), provider.key.clone()),
        };
        self.prune_instance(res, key);
    }

    /// Record `provider` as the configuration a resource in state belongs to (nothing when it
    /// is not in state).
    pub fn set_resource_provider(&mut self, res: &AbsResource, provider: &AbsProviderConfig) {
        if let Some(rs) = self.resources.get_mut(res) {
            if rs.provider.alias != provider.alias
                || rs.provider.provider != provider.provider
                || rs.provider.module != provider.module
            {
                rs.provider = provider.config();
            }
        }
    }

    /// Record `provider` (with its instance key) as the configuration instance an instance in
    /// state belongs to (nothing when it is not in state).
    pub fn set_instance_provider(
        &mut self,
        res: &AbsResource,
        key: &InstanceKey,
        provider: &AbsProviderConfig,
    ) {
        self.set_resource_provider(res, provider);
        if let Some(rs) = self.resources.get_mut(res) {
            if rs.instances.contains_key(key) && rs.provider_keys.get(key) != Some(&provider.key) {
                match provider.key.is_none() {
                    true => rs.provider_keys.remove(key),
                    false => rs.provider_keys.insert(key.clone(), provider.key.clone()),
                };
            }
        }
    }

    /// An instance's current object, to replace or change (with `Arc::make_mut`).
    fn current_mut(
        &mut self,
        res: &AbsResource,
        key: &InstanceKey,
    ) -> Option<&mut Arc<ObjectState>> {
        self.resources
            .get_mut(res)
            .and_then(|rs| rs.instances.get_mut(key))
            .and_then(|i| i.current.as_mut())
    }

    /// Replace the private data of an instance's current object, in place when nothing else
    /// holds the object (a copy of it otherwise). No current object: nothing to do.
    pub fn set_current_private(
        &mut self,
        res: &AbsResource,
        key: &InstanceKey,
        private: Option<Arc<str>>,
    ) {
        if let Some(obj) = self.current_mut(res, key) {
            Arc::make_mut(obj).private = private;
        }
    }

    /// Drop the resource identity of an instance's current object (its object became one of
    /// another resource type).
    pub fn clear_current_identity(&mut self, res: &AbsResource, key: &InstanceKey) {
        if let Some(obj) = self.current_mut(res, key) {
            if obj.identity.is_some() {
                Arc::make_mut(obj).identity = None;
            }
        }
    }

    /// Give an instance's current object the dependencies `deps`, when it records others.
    pub fn set_current_dependencies(
        &mut self,
        res: &AbsResource,
        key: &InstanceKey,
        deps: &Dependencies,
    ) {
        if let Some(obj) = self.current_mut(res, key) {
            if !obj.dependencies.shares(deps) && obj.dependencies[..] != deps[..] {
                Arc::make_mut(obj).dependencies = deps.clone();
            }
        }
    }

    /// Add `deps` to the dependencies an instance's current object records (sorted, each
    /// once).
    pub fn merge_current_dependencies(
        &mut self,
        res: &AbsResource,
        key: &InstanceKey,
        deps: &Dependencies,
    ) {
        if let Some(obj) = self.current_mut(res, key) {
            if deps.iter().all(|d| obj.dependencies.contains(d)) {
                return;
            }
            let mut all: Vec<String> = obj
                .dependencies
                .iter()
                .chain(deps.iter())
                .cloned()
                .collect();
            all.sort();
            all.dedup();
            Arc::make_mut(obj).dependencies = all.into();
        }
    }

    /// The private data (base64, as state holds it) of an instance's current object, or of
    /// its deposed object `deposed`; None when there is no such object or it has none.
    pub fn object_private(
        &self,
        addr: &ferro_addrs::AbsResourceInstance,
        deposed: Option<&str>,
    ) -> Option<Arc<str>> {
        let inst = self
            .resources
            .get(&addr.containing_resource())?
            .instances
            .get(&addr.resource.key)?;
        let obj = match deposed {
            Some(dk) => inst.deposed.get(dk)?,
            None => inst.current.as_deref()?,
        };
        obj.private.clone()
    }

    /// Hold an instance's current object's attributes as `packed`, the block a plan's change
    /// holds as its prior value, when they are `value` (`packed` unmarked) of type `ty`
    /// exactly (see [`crate::Attributes::Packed`]): the object is then held once.
    pub fn share_current_attributes(
        &mut self,
        res: &AbsResource,
        key: &InstanceKey,
        packed: &ferro_value::Packed,
        value: &ferro_value::Value,
        ty: &ferro_value::Type,
    ) {
        if let Some(obj) = self.current_mut(res, key) {
            if let Some(attributes) = obj.attributes.share_packed(packed, value, ty) {
                // A new block for the object, not the old one changed in place: state was read
                // each object beside its text, both of one size class, and an object changed in
                // place would keep every page of them half full once the texts are freed.
                *obj = Arc::new(ObjectState {
                    attributes,
                    ..(**obj).clone()
                });
            }
        }
    }

    /// Record on an instance's current object whether its resource has `lifecycle { destroy =
    /// false }` (OpenTofu's `skip_destroy`), when that changed.
    pub fn set_skip_destroy(&mut self, res: &AbsResource, key: &InstanceKey, skip: bool) {
        if let Some(obj) = self.current_mut(res, key) {
            if obj.skip_destroy != skip {
                *obj = Arc::new(ObjectState {
                    skip_destroy: skip,
                    ..(**obj).clone()
                });
            }
        }
    }

    /// Whether an instance's current object has OpenTofu's `skip_destroy`.
    pub fn skip_destroy(&self, res: &AbsResource, key: &InstanceKey) -> bool {
        self.resources
            .get(res)
            .and_then(|rs| rs.instances.get(key))
            .and_then(|i| i.current.as_ref())
            .is_some_and(|o| o.skip_destroy)
    }

    /// Drop an instance and every object it has (current and deposed) from state, as a
    /// `removed` block without destroy does: the objects stay where they are, unmanaged.
    pub fn forget_instance(&mut self, res: &AbsResource, key: &InstanceKey) {
        if let Some(rs) = self.resources.get_mut(res) {
            rs.instances.remove(key);
        }
        self.prune_instance(res, key);
    }

    /// Drop one instance if it has no objects left, and its resource if that was the last one
    /// (what `prune` does, for one instance: a change costs O(log n), not O(n)).
    pub fn prune_instance(&mut self, res: &AbsResource, key: &InstanceKey) {
        let Some(rs) = self.resources.get_mut(res) else {
            return;
        };
        if rs
            .instances
            .get(key)
            .is_some_and(|i| i.current.is_none() && i.deposed.is_empty())
        {
            rs.instances.remove(key);
        }
        if !rs.provider_keys.is_empty() && !rs.instances.contains_key(key) {
            rs.provider_keys.remove(key);
        }
        if rs.instances.is_empty() {
            self.resources.remove(res);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Deposed, InstanceState};
    use std::collections::BTreeMap;

    /// A state holds one instance entry per instance, in every copy of it.
    #[test]
    fn an_instance_without_deposed_objects_holds_no_map() {
        assert_eq!(std::mem::size_of::<InstanceState>(), 16);
        assert_eq!(Deposed::from(BTreeMap::new()), Deposed::default());
    }

    #[test]
    fn deposed_objects_read_and_serialize_as_a_map() {
        let mut d = Deposed::default();
        assert!(d.is_empty() && d.iter().next().is_none());
        assert_eq!(serde_json::to_string(&d).unwrap(), "{}");
        let back: Deposed = serde_json::from_str("{}").unwrap();
        assert_eq!(back, Deposed::default());
        let obj = super::ObjectState {
            tainted: false,
            schema_version: 0,
            attributes: serde_json::json!({"id": "x"}).into(),
            sensitive_attributes: Default::default(),
            private: None,
            dependencies: Default::default(),
            create_before_destroy: false,
            skip_destroy: false,
            identity: None,
        };
        d.insert("00000001".to_string(), obj);
        assert_eq!(d.keys().collect::<Vec<_>>(), ["00000001"]);
        let text = serde_json::to_string(&d).unwrap();
        let again: Deposed = serde_json::from_str(&text).unwrap();
        assert_eq!(again, d);
        assert_eq!(d.into_iter().count(), 1);
    }
}

#[cfg(test)]
mod size_tests {
    /// State holds one object per instance, each in its own shared block (two counts and the
    /// object). The resource identity (Terraform 1.12) took it from 64 to 72 bytes, the 96-byte
    /// size class (16 bytes an object more than before); past 80 it would take the next.
    ///
    /// Back at 64 bytes (the private data's text behind one pointer), a flat destroy of 100 000
    /// instances peaked 6 MB higher, not 1.6 MB lower: the objects then share the 80-byte
    /// class with the objects' texts read beside them, and once a plan frees the texts (their
    /// change holds the packed value) the objects keep every page of that class half full.
    #[test]
    fn an_object_fits_the_96_byte_size_class_with_its_counts() {
        assert!(std::mem::size_of::<super::ObjectState>() <= 80);
    }
}
