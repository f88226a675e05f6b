//! Reading and writing state format version 4, byte-for-byte as Terraform 1.0.x writes it.
//!
//! Reading goes through `serde_json::Value` and then walks the tree by hand so every error can
//! name the exact place (`resources[2].instances[0]: ...`). Writing (`write.rs`) renders a
//! `Value` tree in Terraform's key order and hands it to [`crate::json::write_indented`], which
//! reproduces Go's `json.MarshalIndent` layout and string escaping.
//!
//! Embedded cty JSON (attribute objects, output values and types) is written with object keys
//! sorted, recursively, as cty writes them. The one exception is the dynamic-value wrapper
//! `{"value": ..., "type": ...}`, which cty writes value-first: an object whose keys are exactly
//! `value` and `type` keeps the order it was stored with.
//!
//! Legacy `attributes_flat` objects (pre-0.12 flatmap) are accepted on read and kept in
//! `ObjectState::attributes` as a JSON object of strings; they are written back as `attributes`.

use crate::{Dependencies, InstanceState, ObjectState, OutputState, ResourceState, State};
use ferro_addrs::{
    AbsProviderConfig, AbsResource, InstanceKey, ModuleInstance, ModuleInstanceStep, Resource,
    ResourceMode,
};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The version string ferro writes as `terraform_version`.
pub const WRITER_VERSION: &str = "1.0.3";

/// The newest release (major.minor, any patch) whose state ferro reads: Terraform 1.12 and
/// OpenTofu 1.12 (both write the version they are as `terraform_version`). What those releases
/// add to format 4 that ferro does not model is refused by name (see [`unsupported_field`]),
/// never dropped; a newer release may add something ferro would not even know to refuse.
pub const NEWEST_READ_VERSION: &str = "1.12";

/// The only state format version ferro reads and writes.
pub const STATE_FORMAT_VERSION: u64 = 4;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateError(pub String);

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StateError {}

fn err<T>(msg: impl Into<String>) -> Result<T, StateError> {
    Err(StateError(msg.into()))
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/// Parse a state file (format version 4).
pub fn read_state(bytes: &[u8]) -> Result<State, StateError> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return err("the state file is empty");
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let doc = parse_document(&mut de)?;
    read_document(doc)
}

/// Parse a whole document, resources taken into the model as they are parsed.
fn parse_document<'de, R: serde_json::de::Read<'de>>(
    de: &mut serde_json::Deserializer<R>,
) -> Result<stream::Document, StateError> {
    let invalid =
        |e: serde_json::Error| StateError(format!("the state file is not valid JSON: {e}"));
    let doc =
        serde::de::DeserializeSeed::deserialize(stream::DocumentSeed, &mut *de).map_err(invalid)?;
    de.end().map_err(invalid)?;
    Ok(doc)
}

/// Read the state document `de` starts with, as it is parsed (as [`read_state_from`] does),
/// leaving what follows the document unread: a saved plan holds its prior state this way,
/// followed by the plan file's closing line. `Err` carries serde_json's error when the
/// document could not be parsed (an I/O error among them), else the state's.
pub fn read_leading_state<'de, R: serde_json::de::Read<'de>>(
    de: &mut serde_json::Deserializer<R>,
) -> Result<State, Result<serde_json::Error, StateError>> {
    let doc =
        serde::de::DeserializeSeed::deserialize(stream::DocumentSeed, &mut *de).map_err(Ok)?;
    read_document(doc).map_err(Err)
}

/// Parse a state file as it is read: the text is never held whole, only the parsed document,
/// which is then taken apart into the model (no part of it is copied), so a big state is held
/// about once. `Ok(None)` when the input holds nothing but whitespace.
pub fn read_state_from(mut reader: impl std::io::BufRead) -> Result<Option<State>, StateError> {
    let io = |e: std::io::Error| StateError(format!("the state file cannot be read: {e}"));
    // A blank file is told from a broken one by looking past its leading whitespace; what is
    // looked past is given to the parser too, so its errors count lines and columns from the
    // start of the file.
    let mut skipped = Vec::new();
    loop {
        let buf = reader.fill_buf().map_err(io)?;
        if buf.is_empty() {
            return Ok(None);
        }
        if buf.iter().any(|b| !b.is_ascii_whitespace()) {
            break;
        }
        skipped.extend_from_slice(buf);
        let n = buf.len();
        reader.consume(n);
    }
    let mut de = serde_json::Deserializer::from_reader(std::io::Read::chain(&skipped[..], reader));
    let doc = parse_document(&mut de)?;
    read_document(doc).map(Some)
}

fn read_document(doc: stream::Document) -> Result<State, StateError> {
    let (obj, resources) = match doc {
        stream::Document::Object { members, resources } => (members, resources),
        stream::Document::Other => {
            return err("the state file must contain a JSON object at the top level")
        }
    };
    let version = sniff_version(&obj)?;
    match version {
        0..=3 => err(format!(
            "state format version {version} is too old for ferro; upgrade it with Terraform 0.13+ first"
        )),
        4 => read_v4(obj, resources),
        _ => err(format!(
            "the state file uses format version {version}, which is not supported by ferro (it reads version 4)"
        )),
    }
}

fn sniff_version(obj: &Map<String, Value>) -> Result<u64, StateError> {
    match obj.get("version") {
        None => err("the state file has no \"version\" key, so its format cannot be determined"),
        Some(Value::Number(n)) => match n.as_u64() {
            Some(v) => Ok(v),
            None => err(format!(
                "the state file's \"version\" must be a non-negative integer, not {n}"
            )),
        },
        Some(other) => err(format!(
            "the state file's \"version\" must be a non-negative integer, not {}",
            describe(other)
        )),
    }
}

/// A short description of a JSON value's kind for error messages.
fn describe(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Optional string field: missing or null → None.
fn opt_str<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    ctx: &str,
) -> Result<Option<&'a str>, StateError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => err(format!(
            "{ctx}\"{key}\" must be a string, not {}",
            describe(other)
        )),
    }
}

fn opt_u64(obj: &Map<String, Value>, key: &str, ctx: &str) -> Result<Option<u64>, StateError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => match n.as_u64() {
            Some(v) => Ok(Some(v)),
            None => err(format!(
                "{ctx}\"{key}\" must be a non-negative integer, not {n}"
            )),
        },
        Some(other) => err(format!(
            "{ctx}\"{key}\" must be a non-negative integer, not {}",
            describe(other)
        )),
    }
}

fn opt_bool(obj: &Map<String, Value>, key: &str, ctx: &str) -> Result<bool, StateError> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => err(format!(
            "{ctx}\"{key}\" must be a boolean, not {}",
            describe(other)
        )),
    }
}

/// A JSON value that must be an object, as its map.
fn object(raw: Value, ctx: &str) -> Result<Map<String, Value>, StateError> {
    match raw {
        Value::Object(o) => Ok(o),
        other => err(format!(
            "{ctx}: must be an object, not {}",
            describe(&other)
        )),
    }
}

/// Optional array field, taken out of the object: missing or null → empty.
fn take_array(
    obj: &mut Map<String, Value>,
    key: &str,
    ctx: &str,
) -> Result<Vec<Value>, StateError> {
    match obj.remove(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => err(format!(
            "{ctx}\"{key}\" must be an array, not {}",
            describe(&other)
        )),
    }
}

/// A version 4 document; `read` holds its resources when they were read while parsing.
fn read_v4(
    mut obj: Map<String, Value>,
    read: Option<Result<stream::Resources, StateError>>,
) -> Result<State, StateError> {
    let terraform_version = opt_str(&obj, "terraform_version", "")?
        .unwrap_or("")
        .to_string();
    if !terraform_version.is_empty() && !is_version(&terraform_version) {
        return err(format!(
            "invalid \"terraform_version\" {terraform_version:?}: not a version number"
        ));
    }
    if is_newer_than_read(&terraform_version) {
        let v = terraform_version.trim_start_matches('v');
        return err(format!(
            "state snapshot was created by Terraform v{v}, which is newer than current v{NEWEST_READ_VERSION}; upgrade to Terraform v{v} or greater to work with this state"
        ));
    }
    unsupported_fields(&obj, TOP_LEVEL_FIELDS, "")?;
    let serial = opt_u64(&obj, "serial", "")?.unwrap_or(0);
    let lineage = opt_str(&obj, "lineage", "")?.unwrap_or("").to_string();

    let mut outputs = BTreeMap::new();
    match obj.remove("outputs") {
        None | Some(Value::Null) => {}
        Some(Value::Object(m)) => {
            for (name, raw) in m {
                let ctx = format!("outputs[{}]", ferro_addrs::quote(&name));
                let out = read_output(raw, &ctx)?;
                outputs.insert(name, out);
            }
        }
        Some(other) => {
            return err(format!(
                "\"outputs\" must be an object, not {}",
                describe(&other)
            ))
        }
    }

    let resources = match read {
        Some(read) => read?,
        None => {
            let mut resources: BTreeMap<AbsResource, ResourceState> = BTreeMap::new();
            for (ri, raw) in take_array(&mut obj, "resources", "")?
                .into_iter()
                .enumerate()
            {
                let ctx = format!("resources[{ri}]");
                read_resource(raw, &ctx, &mut resources)?;
            }
            resources
        }
    };

    Ok(State {
        terraform_version,
        serial,
        lineage,
        outputs,
        resources,
    })
}

/// Whether a (valid) `terraform_version` is a release newer than [`NEWEST_READ_VERSION`]: its
/// major and minor numbers are compared, so every patch release of 1.12 is read, and so are
/// its pre-releases (`1.12.0-beta1`); `1.13.0-alpha1` is not.
fn is_newer_than_read(v: &str) -> bool {
    let core = |s: &str| -> Vec<u64> {
        let s = s.trim_start_matches('v');
        let end = s.find(['-', '+']).unwrap_or(s.len());
        let mut parts: Vec<u64> = s[..end]
            .split('.')
            .map(|p| p.parse().unwrap_or(0))
            .collect();
        parts.resize(2, 0);
        parts.truncate(2);
        parts
    };
    !v.is_empty() && core(v) > core(NEWEST_READ_VERSION)
}

/// The members of a state document ferro reads. `check_results` (Terraform 1.5+, OpenTofu) is
/// the outcome of the last run's checks, which every run replaces; ferro does not record check
/// results, so it reads past them and writes none (Terraform and OpenTofu take a state without
/// them as one from a run that recorded none).
const TOP_LEVEL_FIELDS: &[&str] = &[
    "version",
    "terraform_version",
    "serial",
    "lineage",
    "outputs",
    "resources",
    "check_results",
];

/// The members of a resource ferro reads. `each` is Terraform 0.12's record of a resource's
/// repetition, which Terraform itself no longer reads.
const RESOURCE_FIELDS: &[&str] = &[
    "module",
    "mode",
    "type",
    "name",
    "each",
    "provider",
    "instances",
];

/// The members of an instance object ferro reads. `depends_on` is Terraform 0.12's, replaced by
/// `dependencies` and no longer read by Terraform either. `identity` and
/// `identity_schema_version` (Terraform 1.12) are kept as they are.
const INSTANCE_FIELDS: &[&str] = &[
    "index_key",
    "status",
    "deposed",
    "schema_version",
    "attributes",
    "attributes_flat",
    "sensitive_attributes",
    "private",
    "dependencies",
    "create_before_destroy",
    "skip_destroy",
    "provider",
    "depends_on",
    "identity",
    "identity_schema_version",
];

/// A member that ferro does not model would be lost when the state is written back, so a
/// state that has one (with a value other than null) is refused, naming it. These are what
/// newer releases add to format 4 that ferro does not know.
fn unsupported_field(_key: &str, value: &Value) -> bool {
    !value.is_null()
}

fn unsupported_fields(
    obj: &Map<String, Value>,
    known: &[&str],
    ctx: &str,
) -> Result<(), StateError> {
    for (key, value) in obj {
        if !known.contains(&key.as_str()) && unsupported_field(key, value) {
            return err(format!(
                "{ctx}the state has the member {key:?}, which ferro does not support; ferro would lose it when writing the state back, so it does not use this state"
            ));
        }
    }
    Ok(())
}

/// Loose version-number check: `[v]N(.N)*` with optional `-pre` and `+build` suffixes.
fn is_version(s: &str) -> bool {
    let s = s.strip_prefix('v').unwrap_or(s);
    let (core, rest) = match s.find(['-', '+']) {
        Some(i) => (&s[..i], &s[i + 1..]),
        None => (s, ""),
    };
    let core_ok = !core.is_empty()
        && core
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    let rest_ok = rest
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'+');
    core_ok && rest_ok && (s.len() == core.len() || !rest.is_empty())
}

fn read_output(raw: Value, ctx: &str) -> Result<OutputState, StateError> {
    let mut o = object(raw, ctx)?;
    let value = match o.remove("value") {
        Some(v) => v,
        None => return err(format!("{ctx}: missing \"value\"")),
    };
    let ty = match o.remove("type") {
        Some(t) if !t.is_null() => t,
        _ => return err(format!("{ctx}: missing \"type\"")),
    };
    let sensitive = opt_bool(&o, "sensitive", &format!("{ctx}: "))?;
    Ok(OutputState {
        value,
        ty,
        sensitive,
    })
}

fn read_resource(
    raw: Value,
    ctx: &str,
    resources: &mut BTreeMap<AbsResource, ResourceState>,
) -> Result<(), StateError> {
    let o = object(raw, ctx)?;
    finish_resource(o, None, ctx, resources)
}

/// The instances of a resource, read one by one into their final form; the first error is
/// kept for when the resource's address is known (the resource's own members are checked
/// first, whatever their order in the file).
#[derive(Default)]
struct InstancesRead {
    instances: BTreeMap<InstanceKey, InstanceState>,
    /// The instances of a resource nearly always record the same dependencies, and often the
    /// same private data: they share one copy.
    shared: Shared,
    failed: Option<InstanceError>,
    /// The provider configuration OpenTofu records on the instances (without their keys)
    /// when the resource's configuration has `for_each`: the first instance's.
    provider: Option<AbsProviderConfig>,
    /// The instances' keys of that configuration.
    provider_keys: BTreeMap<InstanceKey, InstanceKey>,
}

enum InstanceError {
    Read(StateError),
    /// A member ferro does not support (see [`unsupported_field`]).
    Unsupported(StateError),
    /// (context, key, deposed key): a second object in the same place.
    Duplicate(String, InstanceKey, Option<String>),
}

impl InstancesRead {
    fn add(&mut self, raw: Value, ictx: String) {
        if self.failed.is_some() {
            return;
        }
        if let Value::Object(o) = &raw {
            if let Err(e) = unsupported_fields(o, INSTANCE_FIELDS, &format!("{ictx}: ")) {
                self.failed = Some(InstanceError::Unsupported(e));
                return;
            }
        }
        let (key, deposed, obj, provider) = match read_instance(raw, &ictx, &mut self.shared) {
            Ok(read) => read,
            Err(e) => {
                self.failed = Some(InstanceError::Read(e));
                return;
            }
        };
        if let Some(p) = provider {
            match &self.provider {
                None => self.provider = Some(p.config()),
                Some(first) if *first != p.config() => {
                    self.failed = Some(InstanceError::Read(StateError(format!(
                        "{ictx}: instances of one resource name different provider configurations ({first} and {})",
                        p.config()
                    ))));
                    return;
                }
                Some(_) => {}
            }
            if !p.key.is_none() {
                self.provider_keys.insert(key.clone(), p.key);
            }
        }
        let inst = self.instances.entry(key.clone()).or_default();
        let taken = match &deposed {
            None => inst.current.is_some(),
            Some(dk) => inst.deposed.contains_key(dk),
        };
        if taken {
            self.failed = Some(InstanceError::Duplicate(ictx, key, deposed));
            return;
        }
        match deposed {
            None => inst.current = Some(std::sync::Arc::new(obj)),
            Some(dk) => {
                inst.deposed.insert(dk, obj);
            }
        }
    }
}

fn duplicate_error(
    ictx: &str,
    addr: &AbsResource,
    key: InstanceKey,
    deposed: Option<String>,
) -> StateError {
    let addr = addr.instance(key);
    match deposed {
        None => StateError(format!("{ictx}: duplicate current object for {addr}")),
        Some(dk) => StateError(format!(
            "{ictx}: duplicate deposed object {dk:?} for {addr}"
        )),
    }
}

/// A resource from its members other than `instances` and, when they were read while parsing,
/// its instances (otherwise they are still among the members).
fn finish_resource(
    mut o: Map<String, Value>,
    read: Option<InstancesRead>,
    ctx: &str,
    resources: &mut BTreeMap<AbsResource, ResourceState>,
) -> Result<(), StateError> {
    let o = &mut o;
    let pre = format!("{ctx}: ");
    unsupported_fields(o, RESOURCE_FIELDS, &pre)?;
    let module = match opt_str(o, "module", &pre)? {
        None | Some("") => ModuleInstance::root(),
        Some(m) => parse_module_instance(m)
            .map_err(|e| StateError(format!("{ctx}: invalid module address {m:?}: {e}")))?,
    };
    let mode = match opt_str(o, "mode", &pre)? {
        Some("managed") => ResourceMode::Managed,
        Some("data") => ResourceMode::Data,
        Some(other) => {
            return err(format!(
                "{ctx}: invalid resource mode {other:?} (expected \"managed\" or \"data\")"
            ))
        }
        None => return err(format!("{ctx}: missing \"mode\"")),
    };
    let ty = match opt_str(o, "type", &pre)? {
        Some(t) if !t.is_empty() => t.to_string(),
        _ => return err(format!("{ctx}: missing resource \"type\"")),
    };
    let name = match opt_str(o, "name", &pre)? {
        Some(n) if !n.is_empty() => n.to_string(),
        _ => return err(format!("{ctx}: missing resource \"name\"")),
    };
    let provider = match opt_str(o, "provider", &pre)? {
        Some(p) => {
            Some(AbsProviderConfig::parse(p).map_err(|e| StateError(format!("{ctx}: {e}")))?)
        }
        None => None,
    };
    let addr = AbsResource {
        module,
        resource: Resource {
            mode,
            ty: ty.into(),
            name: name.into(),
        },
    };
    let read = match read {
        Some(read) => read,
        None => {
            let mut read = InstancesRead::default();
            for (ii, raw) in take_array(o, "instances", &pre)?.into_iter().enumerate() {
                read.add(raw, format!("{ctx}.instances[{ii}]"));
            }
            read
        }
    };
    if provider.is_none() && read.provider.is_none() {
        return err(format!("{ctx}: missing \"provider\""));
    }
    match read.failed {
        Some(InstanceError::Read(e) | InstanceError::Unsupported(e)) => return Err(e),
        Some(InstanceError::Duplicate(ictx, key, deposed)) => {
            return Err(duplicate_error(&ictx, &addr, key, deposed))
        }
        None => {}
    }
    // OpenTofu writes the provider on the resource, or (when its configuration has
    // `for_each`) on each instance with the instance's key; never both.
    let provider = match (provider, read.provider.clone()) {
        (Some(p), None) => p,
        (None, Some(p)) => p,
        (Some(p), Some(i)) => {
            return err(format!(
                "{ctx}: resource {addr} has a provider address {p}, as well as instances with provider address {i}"
            ))
        }
        (None, None) => return err(format!("{ctx}: missing \"provider\"")),
    };
    let rs = match resources.entry(addr) {
        std::collections::btree_map::Entry::Vacant(v) => {
            let addr = v.key().clone();
            // Rebuilt from its sorted entries, the map's nodes are full: inserted one by one
            // in order, each node was left half empty by its split, and every copy of the
            // state (the plan's, apply's working state, a write's snapshot) copies the nodes.
            v.insert(ResourceState {
                addr,
                provider,
                instances: read.instances.into_iter().collect(),
                provider_keys: read.provider_keys,
            });
            return Ok(());
        }
        std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
    };
    // The same resource listed twice: its instances join the first listing's.
    let ictx = format!("{ctx}.instances");
    rs.provider_keys.extend(read.provider_keys);
    for (key, new) in read.instances {
        let inst = rs.instances.entry(key.clone()).or_default();
        if let Some(obj) = new.current {
            if inst.current.is_some() {
                return Err(duplicate_error(&ictx, &rs.addr, key, None));
            }
            inst.current = Some(obj);
        }
        for (dk, obj) in new.deposed {
            if inst.deposed.contains_key(&dk) {
                return Err(duplicate_error(&ictx, &rs.addr, key, Some(dk)));
            }
            inst.deposed.insert(dk, obj);
        }
    }
    Ok(())
}

fn read_index_key(v: &Value, ctx: &str) -> Result<InstanceKey, StateError> {
    match v {
        Value::Null => Ok(InstanceKey::None),
        Value::String(s) => Ok(InstanceKey::Str(s.clone())),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                return Ok(InstanceKey::Int(i));
            }
            // JSON numbers are floats to Terraform; it converts them to int (truncating).
            match n.as_f64() {
                Some(f) if f.is_finite() && f.abs() < 9.0e18 => Ok(InstanceKey::Int(f as i64)),
                _ => err(format!("{ctx}: invalid index_key {n}")),
            }
        }
        other => err(format!(
            "{ctx}: \"index_key\" must be a number or a string, not {}",
            describe(other)
        )),
    }
}

/// What consecutive objects of a resource usually have in common, held once: the
/// dependency list and the private data of the object read before, taken by the next one when
/// it records the same (and replaced when not).
#[derive(Default)]
struct Shared {
    dependencies: Dependencies,
    private: Option<Arc<str>>,
}

/// One instance object (see [`Shared`]).
fn read_instance(
    raw: Value,
    ctx: &str,
    shared: &mut Shared,
) -> Result<
    (
        InstanceKey,
        Option<String>,
        ObjectState,
        Option<AbsProviderConfig>,
    ),
    StateError,
> {
    let mut o = object(raw, ctx)?;
    let o = &mut o;
    let pre = format!("{ctx}: ");
    // OpenTofu 1.9: the provider configuration instance, when it has a key.
    let provider = match opt_str(o, "provider", &pre)? {
        Some(p) => {
            Some(AbsProviderConfig::parse(p).map_err(|e| StateError(format!("{ctx}: {e}")))?)
        }
        None => None,
    };
    let key = match o.get("index_key") {
        None => InstanceKey::None,
        Some(v) => read_index_key(v, ctx)?,
    };
    let tainted = match opt_str(o, "status", &pre)? {
        None | Some("") => false,
        Some("tainted") => true,
        Some(other) => {
            return err(format!(
                "{ctx}: invalid instance status {other:?} (only \"tainted\" is valid)"
            ))
        }
    };
    let deposed = match opt_str(o, "deposed", &pre)? {
        None | Some("") => None,
        Some(d) => {
            if d.len() != 8 || !d.bytes().all(|b| b.is_ascii_hexdigit()) {
                return err(format!(
                    "{ctx}: invalid deposed key {d:?} (must be eight hexadecimal digits)"
                ));
            }
            Some(d.to_string())
        }
    };
    let schema_version = opt_u64(o, "schema_version", &pre)?.unwrap_or(0);
    let Ok(schema_version) = u32::try_from(schema_version) else {
        return err(format!(
            "{pre}\"schema_version\" must be at most {}, not {schema_version}",
            u32::MAX
        ));
    };
    let attributes = match (o.remove("attributes"), o.remove("attributes_flat")) {
        (Some(Value::Object(m)), _) => Value::Object(m),
        (Some(Value::Null) | None, Some(Value::Object(flat))) => {
            for (k, v) in &flat {
                if !v.is_string() {
                    return err(format!(
                        "{ctx}: \"attributes_flat\" value for {k:?} must be a string, not {}",
                        describe(v)
                    ));
                }
            }
            Value::Object(flat)
        }
        (Some(Value::Null) | None, Some(Value::Null) | None) => Value::Object(Map::new()),
        (Some(other), _) => {
            return err(format!(
                "{ctx}: \"attributes\" must be an object, not {}",
                describe(&other)
            ))
        }
        (_, Some(other)) => {
            return err(format!(
                "{ctx}: \"attributes_flat\" must be an object, not {}",
                describe(&other)
            ))
        }
    };
    let sensitive_attributes = match o.remove("sensitive_attributes") {
        None | Some(Value::Null) => Value::Array(Vec::new()),
        Some(Value::Array(paths)) => {
            for (pi, p) in paths.iter().enumerate() {
                if !p.is_array() {
                    return err(format!(
                        "{ctx}: sensitive_attributes[{pi}] must be an array of path steps, not {}",
                        describe(p)
                    ));
                }
            }
            Value::Array(paths)
        }
        Some(other) => {
            return err(format!(
                "{ctx}: \"sensitive_attributes\" must be an array, not {}",
                describe(&other)
            ))
        }
    };
    let private = match opt_str(o, "private", &pre)? {
        None | Some("") => None,
        Some(p) => {
            if !p
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=')
            {
                return err(format!("{ctx}: \"private\" is not valid base64"));
            }
            match &shared.private {
                Some(last) if **last == *p => Some(last.clone()),
                _ => {
                    let p: Arc<str> = p.into();
                    shared.private = Some(p.clone());
                    Some(p)
                }
            }
        }
    };
    let mut dependencies = Vec::new();
    for (di, d) in take_array(o, "dependencies", &pre)?.into_iter().enumerate() {
        match d {
            Value::String(s) if !s.is_empty() => dependencies.push(s),
            other => {
                return err(format!(
                    "{ctx}: dependencies[{di}] must be a resource address string, not {}",
                    describe(&other)
                ))
            }
        }
    }
    if shared.dependencies[..] != dependencies[..] {
        shared.dependencies = dependencies.into();
    }
    let dependencies = shared.dependencies.clone();
    let create_before_destroy = opt_bool(o, "create_before_destroy", &pre)?;
    let skip_destroy = opt_bool(o, "skip_destroy", &pre)?;
    let identity_schema_version = opt_u64(o, "identity_schema_version", &pre)?.unwrap_or(0);
    let identity = match o.remove("identity") {
        None | Some(Value::Null) => None,
        Some(v @ Value::Object(_)) => Some(Arc::new(crate::model::Identity {
            schema_version: identity_schema_version,
            json: canonical_text(&v).into(),
        })),
        Some(other) => {
            return err(format!(
                "{ctx}: \"identity\" must be an object, not {}",
                describe(&other)
            ))
        }
    };
    Ok((
        key,
        deposed,
        ObjectState {
            tainted,
            schema_version,
            attributes: attributes.into(),
            sensitive_attributes: sensitive_attributes.into(),
            private,
            dependencies,
            create_before_destroy,
            skip_destroy,
            identity,
        },
        provider,
    ))
}

/// Parse a module instance address as written in state: `module.a`, `module.a[0]`,
/// `module.a["k"].module.b`. The empty string is the root module.
pub fn parse_module_instance(s: &str) -> Result<ModuleInstance, String> {
    let mut steps = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !steps.is_empty() {
            if b[i] != b'.' {
                return Err(format!("expected \".\" at offset {i}"));
            }
            i += 1;
        }
        if !s[i..].starts_with("module.") {
            return Err(format!("expected \"module.\" at offset {i}"));
        }
        i += "module.".len();
        let start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
            i += 1;
        }
        if start == i || b[start].is_ascii_digit() || b[start] == b'-' {
            return Err(format!("expected a module name at offset {start}"));
        }
        let name = s[start..i].to_string();
        let mut key = InstanceKey::None;
        if i < b.len() && b[i] == b'[' {
            i += 1;
            if i < b.len() && b[i] == b'"' {
                let (text, next) = parse_quoted(s, i)?;
                key = InstanceKey::Str(text);
                i = next;
            } else {
                let kstart = i;
                if i < b.len() && b[i] == b'-' {
                    i += 1;
                }
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let digits = &s[kstart..i];
                let n: i64 = digits
                    .parse()
                    .map_err(|_| format!("invalid instance key at offset {kstart}"))?;
                key = InstanceKey::Int(n);
            }
            if i >= b.len() || b[i] != b']' {
                return Err(format!("expected \"]\" at offset {i}"));
            }
            i += 1;
        }
        steps.push(ModuleInstanceStep { name, key });
    }
    Ok(ModuleInstance(steps.into()))
}

/// Parse a double-quoted string starting at byte `start` (the opening quote); returns the text
/// and the offset after the closing quote.
fn parse_quoted(s: &str, start: usize) -> Result<(String, usize), String> {
    let mut out = String::new();
    let mut chars = s[start + 1..].char_indices();
    while let Some((off, c)) = chars.next() {
        match c {
            '"' => return Ok((out, start + 1 + off + 1)),
            '\\' => match chars.next() {
                Some((_, '"')) => out.push('"'),
                Some((_, '\\')) => out.push('\\'),
                Some((_, 'n')) => out.push('\n'),
                Some((_, 'r')) => out.push('\r'),
                Some((_, 't')) => out.push('\t'),
                Some((_, 'u')) => {
                    let mut code = 0u32;
                    for _ in 0..4 {
                        let d = chars.next().and_then(|(_, h)| h.to_digit(16));
                        match d {
                            Some(d) => code = code * 16 + d,
                            None => return Err("invalid \\u escape in instance key".into()),
                        }
                    }
                    out.push(char::from_u32(code).ok_or("invalid \\u escape in instance key")?);
                }
                _ => return Err("invalid escape sequence in instance key".into()),
            },
            c => out.push(c),
        }
    }
    Err("unterminated string in instance key".into())
}

mod stream;
mod write;
pub(crate) use write::render_state;
pub use write::{canonical, write_state, write_state_to};
#[cfg(test)]
mod tests;

/// A JSON value's text with object keys in name order, as state writes it.
fn canonical_text(v: &Value) -> String {
    serde_json::to_string(&write::canonical(v)).unwrap_or_default()
}
