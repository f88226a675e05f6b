//! `terraform.io/builtin/ferrotest`: a provider for ferro's own tests, registered only when the
//! environment variable `FERRO_TEST_PROVIDER=1` is set (the golden runner sets it). Its one
//! resource type, `ferrotest_thing`, is configured per test through its arguments to exercise
//! each rule of the resource instance change lifecycle:
//!
//! * `value` is stored; `computed` is derived from it at apply (unknown in the plan);
//! * changing `replace` requires replacement (`requires_replace` names that path);
//! * `normalized` is kept remotely in lower case; reading it back keeps the stored spelling when
//!   the two differ only in case (semantic equality), so normalisation is not drift;
//! * `drift`, when set, is what `ReadResource` reports for `value` (a change made outside);
//! * `private` is returned as the object's private data, which later calls must receive back
//!   (a mismatch is an error), so that carrying it from plan to apply to state is tested;
//! * `fail_apply` makes apply fail with that message (a failed create leaves a tainted object);
//!   `fail_destroy` makes deleting the object fail with that message (the object stays);
//! * `break` deliberately violates one core check: `plan_value` (plans a configured value other
//!   than the configuration's), `final_plan` (plans a different known value at apply than at
//!   plan), `apply_result` (applies a value other than the planned one), `unknown_after_apply`
//!   (leaves `computed` unknown), `null_after_create` (returns no object without an error),
//!   `read_unknown` (`ReadResource` reports `computed` as unknown);
//! * the schema is version 1; version 0 objects stored `value` as `old_value` and are upgraded;
//! * `import` of ID `X` yields an object with that id and `value = "imported-X"`;
//! * a `value` of `defer:REASON` (`resource_config_unknown`, `provider_config_unknown` or
//!   `absent_prereq`) makes `PlanResourceChange` answer `deferred` with that reason, when the
//!   client allows deferral (`plan -allow-deferral`); otherwise it is a value like any other;
//!   likewise a `drift` of `defer:REASON` makes `ReadResource` answer `deferred`, and an
//!   import ID `defer:REASON` makes `ImportResourceState` answer it;
//! * the provider configuration's optional `prefix` is put before `computed` at apply (an
//!   unknown `prefix` at configuration is put as `(unknown)`), so tests see which configuration
//!   a resource was applied with; its optional, sensitive `password` (for ephemeral values) is
//!   never stored: a known one puts `[password: N characters] ` before the prefix, an unknown
//!   one `[password unknown] `.
//!
//! A second type, `ferrotest_rack`, has nested blocks with item limits, for the block-count
//! checks: `shelf` (list, 1 to 2 blocks, `label`), `door` (single, required, `color`) and `tag`
//! (set, at most 1, `name`). It stores what it is given and computes only `id`.
//!
//! The provider takes over `ferrotest_rack` and `ferrotest_named` objects as `ferrotest_thing`
//! (`MoveResourceState`, for `moved` blocks across resource types): the thing keeps the
//! source's `id` and its `value` tells what it was moved from (`moved from SOURCE_TYPE vVERSION
//! of PROVIDER`, then ` with identity JSON vN` when the source had an identity); it takes over
//! `ferrotest_thing` objects as `ferrotest_named` (see `testing_identity.rs`); moving any other
//! type is refused with an error.
//!
//! A second resource type, `ferrotest_blocks`, has nested blocks of each nesting mode for
//! `dynamic` blocks and block counts: `rule` (list, 1 to 2 blocks: `port` required, `note`,
//! and `tag` blocks (set) with `value`), `limit` (single: `n`) and `slot` (map: `size`); it
//! plans its configuration as given and gets an `id` at apply.
//!
//! A fourth type, `ferrotest_secret`, has the write-only attribute `secret_wo`: plans and
//! state hold null for it, and its value reaches apply (in the configuration) at create and
//! when `secret_wo_version` changes, as the `*_wo_version` convention has it. Only its length
//! is kept, in `secret_length`. `break = "write_only_plan"` / `"write_only_apply"` answer the
//! value back instead of null, which core refuses.
//!
//! Its ephemeral resource `ferrotest_token` is in `testing_ephemeral.rs`; `ferrotest_named`,
//! which has a resource identity, is in `testing_identity.rs`.
//!
//! The provider also offers functions (`provider::ferrotest::greet` and others: see
//! `testing_functions.rs`).

use crate::{
    ApplyRequest, ApplyResponse, DeferralReason, ImportRequest, ImportResponse, ImportedResource,
    MoveRequest, MoveResponse, PlanRequest, PlanResponse, Provider, ProviderDiagnostic,
    ProviderSchema, ReadRequest, ReadResponse, UpgradeRequest, UpgradeResponse,
};
use ferro_value::schema::{Attribute, Block, NestedBlock, NestingMode, Schema};
use ferro_value::ValueMap;
use ferro_value::{json, PathStep, Type, Value};
use std::collections::BTreeMap;

/// One configuration of the test provider.
#[derive(Default)]
pub struct TestProvider {
    /// The configuration's `prefix` (see the module documentation).
    prefix: std::sync::Mutex<String>,
    /// Whether the client allows deferral ([`Provider::allow_deferral`]).
    deferral_allowed: std::sync::atomic::AtomicBool,
}

impl TestProvider {
    fn deferral_allowed(&self) -> bool {
        self.deferral_allowed
            .load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The reason a `defer:REASON` text asks the provider to answer `deferred` with.
fn defer_reason(text: &str) -> Option<DeferralReason> {
    match text.strip_prefix("defer:")? {
        "resource_config_unknown" => Some(DeferralReason::ResourceConfigUnknown),
        "provider_config_unknown" => Some(DeferralReason::ProviderConfigUnknown),
        "absent_prereq" => Some(DeferralReason::AbsentPrereq),
        _ => None,
    }
}

/// Whether this process registers the test provider.
pub fn enabled() -> bool {
    std::env::var("FERRO_TEST_PROVIDER").is_ok_and(|v| v == "1")
}

const TYPE: &str = "ferrotest_thing";
const RACK: &str = "ferrotest_rack";
const BLOCKS: &str = "ferrotest_blocks";
const SECRET: &str = "ferrotest_secret";

/// `ferrotest_secret`: a write-only attribute and the version that says when to send it.
fn secret_schema() -> Schema {
    let mut s = Schema::default();
    let attrs = &mut s.block.attributes;
    attrs.insert("id".into(), Attribute::new(Type::String).computed());
    attrs.insert("value".into(), Attribute::new(Type::String).optional());
    attrs.insert(
        "secret_wo".into(),
        Attribute::new(Type::String).optional().write_only(),
    );
    attrs.insert(
        "secret_wo_version".into(),
        Attribute::new(Type::Number).optional(),
    );
    attrs.insert(
        "secret_length".into(),
        Attribute::new(Type::Number).computed(),
    );
    attrs.insert("break".into(), Attribute::new(Type::String).optional());
    s
}

fn plan_secret(req: &PlanRequest<'_>) -> Value {
    let (prior, proposed) = (req.prior_state, req.proposed_new_state);
    if proposed.is_null() {
        return proposed.clone();
    }
    let mut planned = proposed.clone();
    if prior.is_null() {
        planned = with(&planned, "id", Value::unknown(Type::String));
    }
    let secret = get(req.config, "secret_wo");
    let sent = !secret.is_null()
        && (prior.is_null()
            || get(prior, "secret_wo_version") != get(proposed, "secret_wo_version"));
    if sent {
        planned = with(&planned, "secret_length", Value::unknown(Type::Number));
    } else if prior.is_null() {
        planned = with(&planned, "secret_length", Value::null(Type::Number));
    }
    if !breaks(proposed, "write_only_plan") {
        planned = with(&planned, "secret_wo", Value::null(Type::String));
    }
    planned
}

fn apply_secret(req: &ApplyRequest<'_>) -> Value {
    let planned = req.planned_state;
    if planned.is_null() {
        return planned.clone();
    }
    let mut new = planned.clone();
    if get(&new, "id").is_unknown() {
        new = with(&new, "id", Value::string(super::random_uuid()));
    }
    if get(&new, "secret_length").is_unknown() {
        let n = text(req.config, "secret_wo").map_or(0, |t| t.chars().count());
        new = with(&new, "secret_length", Value::int(n as i64));
    }
    if breaks(planned, "write_only_apply") {
        new = with(&new, "secret_wo", get(req.config, "secret_wo"));
    }
    new
}

fn nested(
    nesting: NestingMode,
    attrs: &[(&str, Attribute)],
    blocks: Vec<(&str, NestedBlock)>,
) -> NestedBlock {
    NestedBlock {
        nesting,
        block: Block {
            attributes: attrs
                .iter()
                .map(|(n, a)| (n.to_string(), a.clone()))
                .collect(),
            block_types: blocks
                .into_iter()
                .map(|(n, b)| (n.to_string(), b))
                .collect(),
            description: String::new(),
            description_markdown: false,
            deprecated: false,
        },
        min_items: 0,
        max_items: 0,
    }
}

fn blocks_schema() -> Schema {
    let tag = nested(
        NestingMode::Set,
        &[("value", Attribute::new(Type::String).required())],
        Vec::new(),
    );
    let rule = NestedBlock {
        min_items: 1,
        max_items: 2,
        ..nested(
            NestingMode::List,
            &[
                ("port", Attribute::new(Type::Number).required()),
                ("note", Attribute::new(Type::String).optional()),
            ],
            vec![("tag", tag)],
        )
    };
    let limit = nested(
        NestingMode::Single,
        &[("n", Attribute::new(Type::Number).optional())],
        Vec::new(),
    );
    let slot = nested(
        NestingMode::Map,
        &[("size", Attribute::new(Type::Number).optional())],
        Vec::new(),
    );
    let mut block = nested(
        NestingMode::Single,
        &[
            ("id", Attribute::new(Type::String).computed()),
            ("name", Attribute::new(Type::String).optional()),
        ],
        vec![("rule", rule), ("limit", limit), ("slot", slot)],
    )
    .block;
    block.description = String::new();
    Schema::new(0, block)
}

fn schema() -> Schema {
    let mut attributes = BTreeMap::new();
    let mut add = |name: &str, a: Attribute| {
        attributes.insert(name.to_string(), a);
    };
    add("id", Attribute::new(Type::String).computed());
    add("value", Attribute::new(Type::String).optional());
    add("computed", Attribute::new(Type::String).computed());
    add("replace", Attribute::new(Type::String).optional());
    add(
        "normalized",
        Attribute::new(Type::String).optional().computed(),
    );
    add("drift", Attribute::new(Type::String).optional());
    add("private", Attribute::new(Type::String).optional());
    add("fail_apply", Attribute::new(Type::String).optional());
    add("fail_destroy", Attribute::new(Type::String).optional());
    add("break", Attribute::new(Type::String).optional());
    Schema::new(
        1,
        Block {
            attributes,
            block_types: BTreeMap::new(),
            description: String::new(),
            description_markdown: false,
            deprecated: false,
        },
    )
}

/// `ferrotest_rack`: nested block types with `min_items` / `max_items`.
fn rack_schema() -> Schema {
    let nested = |nesting, attr: &str, min_items, max_items| {
        let mut attributes = BTreeMap::new();
        attributes.insert(attr.to_string(), Attribute::new(Type::String).optional());
        NestedBlock {
            nesting,
            block: Block {
                attributes,
                block_types: BTreeMap::new(),
                description: String::new(),
                description_markdown: false,
                deprecated: false,
            },
            min_items,
            max_items,
        }
    };
    let mut attributes = BTreeMap::new();
    attributes.insert("id".to_string(), Attribute::new(Type::String).computed());
    let mut block_types = BTreeMap::new();
    block_types.insert("shelf".into(), nested(NestingMode::List, "label", 1, 2));
    block_types.insert("door".into(), nested(NestingMode::Single, "color", 1, 1));
    block_types.insert("tag".into(), nested(NestingMode::Set, "name", 0, 1));
    Schema::new(
        0,
        Block {
            attributes,
            block_types,
            description: String::new(),
            description_markdown: false,
            deprecated: false,
        },
    )
}

fn schema_of(type_name: &str) -> Option<Schema> {
    match type_name {
        TYPE => Some(schema()),
        RACK => Some(rack_schema()),
        BLOCKS => Some(blocks_schema()),
        SECRET => Some(secret_schema()),
        super::testing_identity::NAMED => Some(super::testing_identity::schema()),
        _ => None,
    }
}

pub(super) fn get(obj: &Value, name: &str) -> Value {
    obj.get_attr(name)
        .cloned()
        .unwrap_or_else(|| Value::null(Type::String))
}

pub(super) fn text(obj: &Value, name: &str) -> Option<String> {
    obj.get_attr(name)
        .and_then(Value::as_str)
        .map(str::to_string)
}

pub(super) fn with(obj: &Value, name: &str, v: Value) -> Value {
    let mut attrs = obj.as_entries().cloned().unwrap_or_default();
    attrs.insert(name.to_string(), v);
    Value::object(attrs)
}

pub(super) fn breaks(obj: &Value, what: &str) -> bool {
    text(obj, "break").as_deref() == Some(what)
}

fn unsupported(type_name: &str) -> ProviderDiagnostic {
    ProviderDiagnostic::error(
        "Unsupported resource type",
        format!("The ferrotest provider has no resource type {type_name:?}."),
    )
}

/// Private data must come back exactly as the provider returned it.
fn check_private(obj: &Value, private: &[u8], diags: &mut Vec<ProviderDiagnostic>) {
    let want = text(obj, "private").unwrap_or_default();
    if private != want.as_bytes() {
        diags.push(ProviderDiagnostic::error(
            "Private data lost",
            format!(
                "ferrotest_thing expected its private data {want:?}, but received {:?}.",
                String::from_utf8_lossy(private)
            ),
        ));
    }
}

/// A different known value every call (for `break = "final_plan"`).
fn fresh() -> String {
    super::random_uuid()
}

impl Provider for TestProvider {
    fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>> {
        let mut resources = BTreeMap::new();
        resources.insert(TYPE.to_string(), schema());
        resources.insert(RACK.to_string(), rack_schema());
        resources.insert(BLOCKS.to_string(), blocks_schema());
        resources.insert(SECRET.to_string(), secret_schema());
        resources.insert(
            super::testing_identity::NAMED.to_string(),
            super::testing_identity::schema(),
        );
        let mut provider = Schema::default();
        provider.block.attributes.insert(
            "prefix".to_string(),
            Attribute::new(Type::String).optional(),
        );
        provider.block.attributes.insert(
            "password".to_string(),
            Attribute::new(Type::String).optional().sensitive(),
        );
        Ok(ProviderSchema {
            provider,
            resources,
            data_sources: BTreeMap::new(),
            move_resource_state: true,
            functions: super::testing_functions::functions(),
            ephemeral_resources: [(
                super::testing_ephemeral::TOKEN.to_string(),
                super::testing_ephemeral::schema(),
            )]
            .into_iter()
            .collect(),
            identities: [(
                super::testing_identity::NAMED.to_string(),
                super::testing_identity::identity_schema(),
            )]
            .into_iter()
            .collect(),
        })
    }

    fn open_ephemeral_resource(
        &self,
        type_name: &str,
        config: &Value,
    ) -> crate::OpenEphemeralResponse {
        if type_name != super::testing_ephemeral::TOKEN {
            return crate::OpenEphemeralResponse {
                result: Value::null(Type::Dynamic),
                private: Vec::new(),
                renew_at: None,
                diagnostics: vec![crate::unsupported_ephemeral_resource(type_name)],
            };
        }
        super::testing_ephemeral::open(config)
    }

    fn renew_ephemeral_resource(
        &self,
        _type_name: &str,
        private: &[u8],
    ) -> crate::RenewEphemeralResponse {
        super::testing_ephemeral::renew(private)
    }

    fn close_ephemeral_resource(
        &self,
        _type_name: &str,
        private: &[u8],
    ) -> Vec<ProviderDiagnostic> {
        super::testing_ephemeral::close(private)
    }

    fn call_function(&self, name: &str, args: &[Value]) -> Result<Value, crate::FunctionError> {
        super::testing_functions::call(name, args)
    }

    fn allow_deferral(&self) {
        self.deferral_allowed
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    fn configure(&self, config: &Value) -> Vec<ProviderDiagnostic> {
        let prefix = get(config, "prefix");
        let prefix = if prefix.is_unknown() {
            "(unknown)".to_string()
        } else {
            prefix.as_str().unwrap_or_default().to_string()
        };
        let password = get(config, "password");
        let prefix = if password.is_unknown() {
            format!("[password unknown] {prefix}")
        } else if let Some(p) = password.as_str() {
            format!("[password: {} characters] {prefix}", p.chars().count())
        } else {
            prefix
        };
        *self.prefix.lock().unwrap_or_else(|e| e.into_inner()) = prefix;
        Vec::new()
    }

    fn validate_resource_config(
        &self,
        type_name: &str,
        _config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        if schema_of(type_name).is_some() {
            Vec::new()
        } else {
            vec![unsupported(type_name)]
        }
    }

    fn upgrade_resource_state(&self, req: UpgradeRequest<'_>) -> UpgradeResponse {
        let Some(schema) = schema_of(req.type_name) else {
            return UpgradeResponse {
                upgraded_state: Value::null(Type::Dynamic),
                diagnostics: vec![unsupported(req.type_name)],
            };
        };
        let ty = schema.implied_type();
        let mut raw = req.raw_json.clone();
        if req.version == 0 && req.type_name == TYPE {
            if let Some(m) = raw.as_object_mut() {
                if let Some(old) = m.remove("old_value") {
                    m.insert("value".into(), old);
                }
            }
        }
        match json::value_from_json(&raw, &ty) {
            Ok(v) => UpgradeResponse {
                upgraded_state: v,
                diagnostics: Vec::new(),
            },
            Err(e) => UpgradeResponse {
                upgraded_state: Value::null(ty),
                diagnostics: vec![ProviderDiagnostic::error(
                    format!("Invalid {} state", req.type_name),
                    e,
                )],
            },
        }
    }

    fn identity_schema(&self, type_name: &str) -> Option<crate::IdentitySchema> {
        (type_name == super::testing_identity::NAMED).then(super::testing_identity::identity_schema)
    }

    fn upgrade_resource_identity(
        &self,
        req: crate::UpgradeIdentityRequest<'_>,
    ) -> crate::UpgradeIdentityResponse {
        super::testing_identity::upgrade_identity(&req)
    }

    fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse {
        if req.type_name == super::testing_identity::NAMED {
            return super::testing_identity::read(&req);
        }
        let mut diagnostics = Vec::new();
        let cur = req.current_state;
        check_private(cur, req.private, &mut diagnostics);
        let deferred = text(cur, "drift")
            .and_then(|d| defer_reason(&d))
            .filter(|_| self.deferral_allowed());
        if deferred.is_some() {
            // The object cannot be read yet: it is answered as it was.
            return ReadResponse {
                new_state: cur.clone(),
                private: req.private.to_vec(),
                diagnostics,
                deferred,
                new_identity: None,
            };
        }
        let mut new = cur.clone();
        if breaks(cur, "read_unknown") {
            new = with(&new, "computed", Value::unknown(Type::String));
        }
        // `normalized`: the remote system holds only the lower-case form, which means the same
        // as the stored spelling, so (semantic equality) the stored spelling is reported back.
        if let Some(d) = text(cur, "drift") {
            new = with(&new, "value", Value::string(d));
        }
        ReadResponse {
            new_state: new,
            private: req.private.to_vec(),
            diagnostics,
            deferred: None,
            new_identity: None,
        }
    }

    fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse {
        if req.type_name == super::testing_identity::NAMED {
            return super::testing_identity::plan(&req);
        }
        let mut resp = PlanResponse {
            planned_state: req.proposed_new_state.clone(),
            requires_replace: Vec::new(),
            planned_private: Vec::new(),
            diagnostics: Vec::new(),
            legacy_type_system: false,
            deferred: None,
            planned_identity: None,
        };
        if req.type_name == SECRET {
            resp.planned_state = plan_secret(&req);
            return resp;
        }
        if req.type_name == RACK || req.type_name == BLOCKS {
            if req.prior_state.is_null() && !req.proposed_new_state.is_null() {
                resp.planned_state =
                    with(req.proposed_new_state, "id", Value::unknown(Type::String));
            }
            return resp;
        }
        if req.type_name != TYPE {
            resp.diagnostics.push(unsupported(req.type_name));
            return resp;
        }
        let (prior, proposed) = (req.prior_state, req.proposed_new_state);
        if !prior.is_null() {
            check_private(prior, req.prior_private, &mut resp.diagnostics);
        }
        if proposed.is_null() {
            return resp;
        }
        if self.deferral_allowed() {
            let reason = text(proposed, "value").and_then(|v| defer_reason(&v));
            if reason.is_some() {
                // What it computes is unknown in the deferred plan, as a provider plans it.
                let mut planned = with(proposed, "computed", Value::unknown(Type::String));
                if prior.is_null() {
                    planned = with(&planned, "id", Value::unknown(Type::String));
                }
                resp.planned_state = planned;
                resp.deferred = reason;
                return resp;
            }
        }
        resp.planned_private = text(proposed, "private").unwrap_or_default().into_bytes();
        let mut planned = proposed.clone();
        let replace = !prior.is_null() && get(prior, "replace") != get(proposed, "replace");
        if replace {
            resp.requires_replace
                .push(vec![PathStep::Attr("replace".into())]);
        }
        if prior.is_null() || replace {
            planned = with(&planned, "id", Value::unknown(Type::String));
        }
        if prior.is_null() || replace || get(prior, "value") != get(proposed, "value") {
            planned = with(&planned, "computed", Value::unknown(Type::String));
        }
        if breaks(proposed, "plan_value") {
            let v = text(proposed, "value").unwrap_or_default();
            planned = with(
                &planned,
                "value",
                Value::string(format!("{v}-but-different")),
            );
        }
        if breaks(proposed, "final_plan") {
            planned = with(&planned, "computed", Value::string(fresh()));
        }
        resp.planned_state = planned;
        resp
    }

    fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse {
        if req.type_name == super::testing_identity::NAMED {
            return super::testing_identity::apply(&req);
        }
        let mut resp = ApplyResponse {
            new_state: req.planned_state.clone(),
            private: req.planned_private.to_vec(),
            diagnostics: Vec::new(),
            legacy_type_system: false,
            new_identity: None,
        };
        let planned = req.planned_state;
        if req.type_name == SECRET {
            resp.new_state = apply_secret(&req);
            return resp;
        }
        if req.type_name == RACK || req.type_name == BLOCKS {
            if !planned.is_null() && get(planned, "id").is_unknown() {
                resp.new_state = with(planned, "id", Value::string(super::random_uuid()));
            }
            return resp;
        }
        if planned.is_null() {
            check_private(req.prior_state, req.planned_private, &mut resp.diagnostics);
            if let Some(msg) = text(req.prior_state, "fail_destroy") {
                resp.diagnostics
                    .push(ProviderDiagnostic::error("Destroy failed", msg));
                resp.new_state = req.prior_state.clone();
            }
            return resp;
        }
        check_private(planned, req.planned_private, &mut resp.diagnostics);
        if let Some(msg) = text(planned, "fail_apply") {
            resp.diagnostics
                .push(ProviderDiagnostic::error("Apply failed", msg));
            // A failed create still created something: it is returned, and becomes tainted.
            let mut new = planned.clone();
            if get(&new, "id").is_unknown() {
                new = with(&new, "id", Value::string(super::random_uuid()));
            }
            resp.new_state = with(&new, "computed", Value::null(Type::String));
            if !req.prior_state.is_null() {
                resp.new_state = req.prior_state.clone();
            }
            return resp;
        }
        if breaks(planned, "null_after_create") {
            resp.new_state = Value::null(planned.ty());
            return resp;
        }
        let mut new = planned.clone();
        if get(&new, "id").is_unknown() {
            new = with(&new, "id", Value::string(super::random_uuid()));
        }
        let value = text(&new, "value").unwrap_or_default();
        if get(&new, "computed").is_unknown() && !breaks(planned, "unknown_after_apply") {
            let prefix = self
                .prefix
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            new = with(
                &new,
                "computed",
                Value::string(format!("{prefix}computed-{value}")),
            );
        }
        if breaks(planned, "apply_result") {
            new = with(
                &new,
                "value",
                Value::string(format!("{value}-but-different")),
            );
        }
        resp.new_state = new;
        resp
    }

    fn move_resource_state(&self, req: MoveRequest<'_>) -> MoveResponse {
        let refused = |detail: String| MoveResponse {
            target_state: Value::null(Type::Dynamic),
            target_private: Vec::new(),
            diagnostics: vec![ProviderDiagnostic::error("Unsupported move", detail)],
            target_identity: None,
        };
        let named = super::testing_identity::NAMED;
        match (req.source_type_name, req.target_type_name) {
            (RACK, TYPE) => {}
            (s, TYPE) if s == named => {}
            (TYPE, t) if t == named => return super::testing_identity::moved_from_thing(&req),
            (source, target) => {
                return refused(format!(
                    "ferrotest can move {RACK} and {named} objects to {TYPE}, and {TYPE} objects to {named}, only, not {source} to {target}."
                ))
            }
        }
        let id = req.source_state.get("id").and_then(|v| v.as_str());
        let Some(id) = id else {
            return refused("the source object has no id".into());
        };
        let ty = schema().implied_type();
        let mut attrs = ValueMap::default();
        if let Type::Object(o) = &ty {
            for (name, t) in &o.attrs {
                attrs.insert(name.as_str(), Value::null(t.clone()));
            }
        }
        attrs.insert("id", Value::string(id));
        // The source object's identity, when it had one, as core sent it.
        let identity = req
            .source_identity
            .map(|i| format!(" with identity {i} v{}", req.source_identity_schema_version))
            .unwrap_or_default();
        attrs.insert(
            "value",
            Value::string(format!(
                "moved from {} v{} of {}{identity}",
                req.source_type_name, req.source_schema_version, req.source_provider_address
            )),
        );
        attrs.insert("computed", Value::string(format!("was {id}")));
        MoveResponse {
            target_state: Value::object(attrs),
            target_private: Vec::new(),
            diagnostics: Vec::new(),
            target_identity: None,
        }
    }

    fn import_resource_state(&self, req: ImportRequest<'_>) -> ImportResponse {
        if req.type_name == super::testing_identity::NAMED {
            return super::testing_identity::import(&req);
        }
        if req.type_name != TYPE {
            return ImportResponse {
                imported: Vec::new(),
                diagnostics: vec![unsupported(req.type_name)],
                deferred: None,
            };
        }
        if let Some(reason) = defer_reason(req.id).filter(|_| self.deferral_allowed()) {
            return ImportResponse {
                imported: Vec::new(),
                diagnostics: Vec::new(),
                deferred: Some(reason),
            };
        }
        let ty = schema().block.implied_type();
        let mut attrs = ValueMap::new();
        if let ferro_value::Type::Object(fields) = &ty {
            for (k, t) in fields.attrs.iter() {
                attrs.insert(k.clone(), Value::null(t.clone()));
            }
        }
        attrs.insert("id", Value::string(req.id));
        attrs.insert("value", Value::string(format!("imported-{}", req.id)));
        attrs.insert(
            "computed",
            Value::string(format!("computed-imported-{}", req.id)),
        );
        ImportResponse {
            imported: vec![ImportedResource {
                type_name: TYPE.to_string(),
                state: Value::object(attrs),
                private: Vec::new(),
                identity: None,
            }],
            diagnostics: Vec::new(),
            deferred: None,
        }
    }
}
