//! The provider the protocol tests serve: `test_thing` carries one attribute per plan modifier
//! and helper, nested attributes in every nesting mode, and schema version 2 with an upgrade
//! from version 1 (where `size` was called `old_size`).

use ferro_sdk::modifiers::{
    all, if_set, requires_replace, requires_replace_if, sequence, use_state_for_unknown,
    RequiresReplaceIf,
};
use ferro_sdk::provider_types::{ModifyPlanRequest, ModifyPlanResponse};
use ferro_sdk::schema::Object;
use ferro_sdk::validators::{length_between, one_of};
use ferro_sdk::values::{get, with};
use ferro_sdk::{
    Attr, DataSource, DeferralReason, Diags, EphemeralResource, FunctionDecl, FunctionError,
    FunctionParam, IdentityAttribute, IdentitySchema, MoveSource, MoveStateRequest, MovedState,
    Opened, Renewed, Resource, ResourceSchema, SdkProvider, Type, Value,
};
use ferro_value::schema::NestingMode;
use std::sync::Arc;

/// The provider; `nested`: with the nested attributes (protocol 6 only).
pub fn provider(nested: bool) -> SdkProvider {
    let mut upper = FunctionDecl {
        params: vec![FunctionParam::new("text", Type::String)],
        variadic: Some(FunctionParam::new("more", Type::String)),
        return_type: Type::String,
        summary: "Upper-cases and joins its arguments.".into(),
        description: String::new(),
        description_markdown: false,
        deprecation_message: String::new(),
    };
    upper.params[0].allow_null = true;
    SdkProvider::new("test")
        .resource("test_thing", Thing { nested })
        .resource("test_echo", Echo)
        .resource("test_secret", Secret)
        .ephemeral_resource("test_token", Token)
        .resource("test_later", Later)
        .resource("test_successor", Successor)
        .resource("test_named", Named)
        .data_source("test_later", Later)
        .function("upper", upper, |args: &[Value]| {
            let mut out = String::new();
            for (i, a) in args.iter().enumerate() {
                if a.is_null() {
                    return Err(FunctionError::argument(i, "null is not text"));
                }
                out.push_str(&a.as_str().unwrap_or_default().to_uppercase());
            }
            Ok(Value::string(out))
        })
}

/// `test_successor` takes over `test_thing` objects of this provider (`ferro/test`) and
/// `legacy_thing` objects of `hashicorp/legacy` from any host: `id` is kept, `origin` says
/// where the object came from (and the source identity, when it had one), and the private
/// data is the source's with `+moved`.
pub struct Successor;

impl Resource for Successor {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr("id", Attr::string().computed())
            .attr("origin", Attr::string().optional())
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(with(planned, "id", Value::string("successor")))
    }

    fn move_sources(&self) -> Vec<MoveSource> {
        vec![
            MoveSource::new("registry.terraform.io/ferro/test", "test_thing"),
            MoveSource::new("hashicorp/legacy", "legacy_thing"),
        ]
    }

    fn move_state(&self, req: &MoveStateRequest<'_>) -> Result<MovedState, Diags> {
        let id = req.source_state.get("id").and_then(|v| v.as_str());
        let Some(id) = id else {
            return Err(vec![ferro_sdk::Diagnostic::error(
                "No id to move",
                "The source object has no id.",
            )]);
        };
        let mut origin = format!(
            "{} v{} of {}",
            req.source_type_name, req.source_schema_version, req.source_provider_address
        );
        if let Some(identity) = req.source_identity {
            origin.push_str(&format!(
                ", identity {identity} v{}",
                req.source_identity_schema_version
            ));
        }
        let state = with(
            &with(
                &self.schema().to_block().empty_value(),
                "id",
                Value::string(id),
            ),
            "origin",
            Value::string(origin),
        );
        let mut private = req.source_private.to_vec();
        private.extend_from_slice(b"+moved");
        Ok(MovedState { state, private })
    }
}

/// `test_token`, an ephemeral resource: its `secret` is `name` reversed; it asks to be renewed
/// at once (a renewal time in the past), and its private data says whether it was renewed,
/// which closing checks.
pub struct Token;

impl EphemeralResource for Token {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr(
                "name",
                Attr::string().required().validate(length_between(1, 8)),
            )
            .attr("secret", Attr::string().computed().sensitive())
    }
    fn open(&self, config: &Value) -> Result<Opened, Diags> {
        let name = get(config, "name").as_str().unwrap_or_default().to_string();
        let secret: String = name.chars().rev().collect();
        Ok(Opened {
            result: with(config, "secret", Value::string(secret)),
            private: format!("opened:{name}").into_bytes(),
            renew_at: Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000)),
        })
    }
    fn renew(&self, private: &[u8]) -> Result<Renewed, Diags> {
        let text = String::from_utf8_lossy(private);
        let Some(name) = text.strip_prefix("opened:") else {
            return Err(vec![ferro_sdk::Diagnostic::error(
                "Not open",
                format!("Cannot renew {text:?}."),
            )]);
        };
        Ok(Renewed {
            private: Some(format!("renewed:{name}").into_bytes()),
            renew_at: None,
        })
    }
    fn close(&self, private: &[u8]) -> Result<(), Diags> {
        if private.starts_with(b"renewed:") {
            Ok(())
        } else {
            Err(vec![ferro_sdk::Diagnostic::error(
                "Closed before renewal",
                String::from_utf8_lossy(private).into_owned(),
            )])
        }
    }
}

/// `test_echo` prints through the SDK's stdio writers when validated (the stdio stream test).
pub struct Echo;

impl Resource for Echo {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new().attr("text", Attr::string().optional())
    }
    fn validate(&self, _config: &Value, _diags: &mut Diags) {
        use std::io::Write;
        let _ = writeln!(ferro_sdk::stdio::stdout(), "echo-out: validating");
        let _ = writeln!(ferro_sdk::stdio::stderr(), "echo-err: validating");
    }
    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(planned.clone())
    }
}

/// `test_later` (a resource and a data source): answers `deferred` when its `wait` says so:
/// `plan` (PlanResourceChange, the resource configuration unknown), `read` (ReadResource: a
/// prerequisite absent; ReadDataSource: the resource configuration unknown); an import of the
/// id `later` is deferred too (the provider configuration unknown).
pub struct Later;

impl Later {
    fn schema() -> ResourceSchema {
        ResourceSchema::new()
            .attr("wait", Attr::string().optional())
            .attr("id", Attr::string().computed())
    }
}

impl Resource for Later {
    fn schema(&self) -> ResourceSchema {
        Later::schema()
    }
    fn modify_plan(&self, req: &ModifyPlanRequest<'_>, resp: &mut ModifyPlanResponse) {
        if get(req.config, "wait").as_str() == Some("plan") {
            resp.deferred = Some(DeferralReason::ResourceConfigUnknown);
        }
    }
    fn defer_read(&self, state: &Value) -> Option<DeferralReason> {
        (get(state, "wait").as_str() == Some("read")).then_some(DeferralReason::AbsentPrereq)
    }
    fn defer_import(&self, id: &str) -> Option<DeferralReason> {
        (id == "later").then_some(DeferralReason::ProviderConfigUnknown)
    }
    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(with(planned, "id", Value::string("later-1")))
    }
    fn import(&self, id: &str) -> Result<Value, Diags> {
        let v = with(
            &Later::schema().to_block().empty_value(),
            "id",
            Value::string(id),
        );
        Ok(v)
    }
}

impl DataSource for Later {
    fn schema(&self) -> ResourceSchema {
        Later::schema()
    }
    fn defer_read(&self, config: &Value) -> Option<DeferralReason> {
        (get(config, "wait").as_str() == Some("read"))
            .then_some(DeferralReason::ResourceConfigUnknown)
    }
    fn read(&self, config: &Value) -> Result<Value, Diags> {
        Ok(with(config, "id", Value::string("read")))
    }
}

/// `test_secret`: the write-only `password_wo` reaches create only through its configuration;
/// the object keeps its length.
pub struct Secret;

impl Resource for Secret {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr("password_wo", Attr::string().optional().write_only())
            .attr("length", Attr::number().computed())
    }
    fn create(&self, planned: &Value, config: &Value) -> Result<Value, Diags> {
        let n = get(config, "password_wo")
            .as_str()
            .map_or(0, |s| s.chars().count());
        // The configuration's value comes back too: the framework must still store null.
        let v = with(planned, "length", Value::int(n as i64));
        Ok(with(&v, "password_wo", get(config, "password_wo")))
    }
}

/// `test_named`, a resource with an identity (version 1): `name` (required for import; a
/// change replaces the object) and `region` (optional for import; "here" when not set).
/// Version 0 identities were `{"id": "REGION/NAME"}`. Import by ID takes `REGION/NAME`.
pub struct Named;

impl Named {
    fn object(name: &str, region: &str) -> Value {
        let v = with(
            &Named.schema().to_block().empty_value(),
            "name",
            Value::string(name),
        );
        with(&v, "region", Value::string(region))
    }
}

impl Resource for Named {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr(
                "name",
                Attr::string().required().modifier(requires_replace()),
            )
            .attr(
                "region",
                Attr::string()
                    .optional()
                    .computed()
                    .default(Value::string("here")),
            )
            .attr("note", Attr::string().optional())
    }
    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(planned.clone())
    }
    fn identity_schema(&self) -> Option<IdentitySchema> {
        let attr = |required: bool| IdentityAttribute {
            ty: Type::String,
            required_for_import: required,
            optional_for_import: !required,
            description: String::new(),
        };
        Some(IdentitySchema {
            version: 1,
            attributes: [
                ("name".to_string(), attr(true)),
                ("region".to_string(), attr(false)),
            ]
            .into_iter()
            .collect(),
        })
    }
    fn identity(&self, state: &Value) -> Value {
        Value::object(
            [
                ("name".to_string(), get(state, "name")),
                ("region".to_string(), get(state, "region")),
            ]
            .into_iter()
            .collect(),
        )
    }
    fn import(&self, id: &str) -> Result<Value, Diags> {
        let (region, name) = id.split_once('/').unwrap_or(("here", id));
        Ok(Named::object(name, region))
    }
    fn import_by_identity(&self, identity: &Value) -> Result<Value, Diags> {
        let name = get(identity, "name");
        let region = get(identity, "region");
        Ok(Named::object(
            name.as_str().unwrap_or_default(),
            region.as_str().unwrap_or("here"),
        ))
    }
    fn upgrade_identity(
        &self,
        version: u64,
        old: &serde_json::Value,
    ) -> Result<serde_json::Value, Diags> {
        let id = old.get("id").and_then(|v| v.as_str()).unwrap_or_default();
        match (version, id.split_once('/')) {
            (0, Some((region, name))) => Ok(serde_json::json!({"name": name, "region": region})),
            _ => Err(vec![ferro_sdk::Diagnostic::error(
                "Unable to Upgrade Resource Identity",
                format!("test_named cannot upgrade identity version {version} ({old})."),
            )]),
        }
    }
}

pub struct Thing {
    nested: bool,
}

/// The new number is greater than the old one.
pub fn greater(old: &Value, new: &Value) -> bool {
    match (old.as_number(), new.as_number()) {
        (Some(o), Some(n)) => n.to_f64() > o.to_f64(),
        _ => false,
    }
}

/// The objects of every nested attribute: `name` (a change replaces the resource; 1 to 8
/// characters), `id` (kept once known), `stamp` (recomputed when the object changes), `tag`
/// (defaults to "t"; "t" or "u").
fn object() -> Object {
    Object::new()
        .attr(
            "name",
            Attr::string()
                .required()
                .modifier(requires_replace())
                .validate(length_between(1, 8)),
        )
        .attr(
            "id",
            Attr::string().computed().modifier(use_state_for_unknown()),
        )
        .attr("stamp", Attr::string().computed())
        .attr(
            "tag",
            Attr::string()
                .default(Value::string("t"))
                .validate(one_of(&["t", "u"])),
        )
}

impl Resource for Thing {
    fn schema(&self) -> ResourceSchema {
        let s = ResourceSchema::new()
            .version(2)
            .attr(
                "id",
                Attr::string().computed().modifier(use_state_for_unknown()),
            )
            .attr("stamp", Attr::string().computed())
            .attr(
                "size",
                Attr::number()
                    .required()
                    .modifier(RequiresReplaceIf::from_fn(
                        "growing replaces",
                        if_set(greater),
                    )),
            )
            .attr(
                "mode",
                Attr::string()
                    .default(Value::string("fast"))
                    .modifier(requires_replace()),
            )
            .attr(
                "label",
                Attr::string().optional().modifier(requires_replace_if(
                    "changes from a value starting with x",
                    |old, _| old.as_str().is_some_and(|s| s.starts_with('x')),
                )),
            )
            .attr(
                "both",
                Attr::number()
                    .optional()
                    .modifier(RequiresReplaceIf::from_fn(
                        "grows beyond 10",
                        all(vec![
                            if_set(greater),
                            Arc::new(|_: &Value, n: &Value| {
                                n.as_number().is_some_and(|x| x.to_f64() > 10.0)
                            }),
                        ]),
                    )),
            )
            .attr(
                "seq",
                Attr::number()
                    .optional()
                    .modifier(RequiresReplaceIf::from_fn(
                        "sequence",
                        sequence(vec![
                            if_set(|_, _| false),
                            Arc::new(|_: &Value, _: &Value| {
                                panic!("sequence must stop at the first false")
                            }),
                        ]),
                    )),
            )
            .attr("bad", Attr::bool().optional());
        if !self.nested {
            return s;
        }
        s.attr(
            "single",
            Attr::nested(NestingMode::Single, object()).optional(),
        )
        .attr("list", Attr::nested(NestingMode::List, object()).optional())
        .attr("set", Attr::nested(NestingMode::Set, object()).optional())
        .attr("map", Attr::nested(NestingMode::Map, object()).optional())
    }

    fn modify_plan(&self, req: &ModifyPlanRequest<'_>, resp: &mut ModifyPlanResponse) {
        if get(req.config, "bad").as_bool() == Some(true) {
            // Breaks core's rules: a configured argument planned differently.
            resp.plan = with(&resp.plan, "size", Value::int(999));
        } else if !req.state.is_null() && get(req.config, "mode").as_str() == Some("slow") {
            resp.requires_replace.push("stamp".into());
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(resolve(planned, "created"))
    }

    fn update(&self, _prior: &Value, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(resolve(planned, "updated"))
    }

    fn upgrade_state(
        &self,
        version: u64,
        old: &serde_json::Value,
    ) -> Result<serde_json::Value, Diags> {
        let mut obj = old.as_object().cloned().unwrap_or_default();
        if version == 1 {
            if let Some(size) = obj.remove("old_size") {
                obj.insert("size".into(), size);
            }
            return Ok(serde_json::Value::Object(obj));
        }
        Err(vec![ferro_sdk::Diagnostic::error(
            "Unable to Upgrade Resource State",
            format!("No upgrade from schema version {version}."),
        )])
    }
}

/// Every unknown string in `v` (nested objects included) becomes `what`.
fn resolve(v: &Value, what: &str) -> Value {
    use ferro_value::ValueKind;
    match &v.kind {
        ValueKind::Unknown(Type::String) => Value::string(what),
        ValueKind::Object(attrs) => Value::object(
            attrs
                .iter()
                .map(|(k, x)| (k.clone(), resolve(x, what)))
                .collect(),
        ),
        ValueKind::List(t, es) => {
            Value::list(t.clone(), es.iter().map(|e| resolve(e, what)).collect())
        }
        ValueKind::Set(t, es) => {
            Value::set(t.clone(), es.iter().map(|e| resolve(e, what)).collect())
        }
        ValueKind::Map(t, es) => Value::map(
            t.clone(),
            es.iter()
                .map(|(k, e)| (k.clone(), resolve(e, what)))
                .collect(),
        ),
        _ => v.clone(),
    }
}
