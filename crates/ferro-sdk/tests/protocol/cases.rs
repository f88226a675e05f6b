//! The cases, each driving the plugin over gRPC as core does: proposed new state from core's
//! own merge (`proposed_new`), every answer checked with core's `assert_plan_valid`.

use ferro_planner::objchange::{assert_plan_valid, proposed_new};
use ferro_provider::plugin::GrpcProvider;
use ferro_provider::{
    ApplyRequest, DeferralReason, ImportRequest, MoveRequest, PlanRequest, PlanResponse, Provider,
    ReadDataRequest, ReadRequest, UpgradeRequest,
};
use ferro_sdk::values::{get, with};
use ferro_value::schema::Block;
use ferro_value::ValueMap;
use ferro_value::{PathStep, Type, Value};

type Case = fn(&GrpcProvider);

/// The cases for protocol 6, and for protocol 5 (which cannot describe nested attributes, so
/// the plugin serves `test_thing` without them there).
pub fn cases(protocol: u32) -> Vec<(&'static str, Case)> {
    ALL.iter()
        .filter(|(name, _)| protocol == 6 || !name.starts_with("nested"))
        .copied()
        .collect()
}

/// Whether the plugin's `test_thing` has its nested attributes.
fn nested(p: &GrpcProvider) -> bool {
    p.protocol_version() == 6
}

const ALL: &[(&str, Case)] = &[
    ("create_plans_defaults_unknowns_and_nested_objects", create),
    ("an_unchanged_configuration_plans_no_change", unchanged),
    (
        "requires_replace_and_if_set_with_null_and_unknown",
        replace_if_set,
    ),
    (
        "requires_replace_if_sees_null_old_and_new_values",
        replace_if,
    ),
    (
        "all_needs_every_condition_sequence_stops_early",
        all_and_sequence,
    ),
    (
        "use_state_for_unknown_keeps_ids_on_update_only",
        state_for_unknown,
    ),
    ("nested_list_objects_plan_by_index", nested_list),
    ("nested_map_set_and_single_objects", nested_map_set_single),
    ("nested_validators_report_full_paths", nested_validators),
    ("plans_core_would_reject_are_refused", refused),
    ("state_upgrades_by_schema_version", upgrade),
    ("functions_in_the_schema_and_called", functions),
    ("ephemeral_resources_open_renew_close", ephemeral),
    (
        "write_only_values_reach_create_and_nothing_else",
        write_only,
    ),
    (
        "deferred_answers_only_when_the_client_allows_them",
        deferral,
    ),
    ("moves_across_resource_types", moves),
    (
        "identities_in_schema_read_plan_apply_import_and_upgrade",
        identities,
    ),
];

/// `moved { from = test_thing.a  to = test_successor.a }` as ferro's planner asks for it:
/// the capability `move_resource_state` in the schema, MoveResourceState with the object as
/// state holds it, the converted object and private data decoded by ferro's plugin client;
/// Terraform's errors for a source the target does not declare and a target that declares
/// none.
fn moves(p: &GrpcProvider) {
    assert!(p.schema().unwrap().move_resource_state);
    let (thing, _) = created(p);
    let json = ferro_value::json::value_to_json(&thing, &thing.ty()).unwrap();
    let id = get(&thing, "id");
    let mv = |provider: &str, from: &str, to: &str| {
        p.move_resource_state(MoveRequest {
            source_provider_address: provider,
            source_type_name: from,
            source_schema_version: 2,
            source_state: &json,
            source_private: b"old",
            target_type_name: to,
            source_identity: None,
            source_identity_schema_version: 0,
        })
    };
    let moved = mv(
        "registry.terraform.io/ferro/test",
        "test_thing",
        "test_successor",
    );
    assert!(moved.diagnostics.is_empty(), "{:?}", moved.diagnostics);
    assert_eq!(get(&moved.target_state, "id"), id);
    assert_eq!(
        get(&moved.target_state, "origin"),
        Value::string("test_thing v2 of registry.terraform.io/ferro/test")
    );
    assert_eq!(moved.target_private, b"old+moved");
    // The source identity reaches the resource's move_state as state stored it, with its
    // identity schema version.
    let source_identity = serde_json::json!({"name": "a", "zone": null});
    let with_identity = p.move_resource_state(MoveRequest {
        source_provider_address: "registry.terraform.io/ferro/test",
        source_type_name: "test_thing",
        source_schema_version: 2,
        source_state: &json,
        source_private: b"old",
        target_type_name: "test_successor",
        source_identity: Some(&source_identity),
        source_identity_schema_version: 3,
    });
    assert!(
        with_identity.diagnostics.is_empty(),
        "{:?}",
        with_identity.diagnostics
    );
    assert_eq!(
        get(&with_identity.target_state, "origin"),
        Value::string(
            "test_thing v2 of registry.terraform.io/ferro/test, identity {\"name\":\"a\",\"zone\":null} v3"
        )
    );
    // A source declared without its host matches on any host (a mirror).
    let mirrored = mv(
        "mirror.example.com/hashicorp/legacy",
        "legacy_thing",
        "test_successor",
    );
    assert!(
        mirrored.diagnostics.is_empty(),
        "{:?}",
        mirrored.diagnostics
    );
    assert_eq!(get(&mirrored.target_state, "id"), id);
    // Not a declared source: another type, another provider of the same type name.
    for (provider, from) in [
        ("registry.terraform.io/ferro/test", "test_echo"),
        ("registry.terraform.io/other/test", "test_thing"),
        ("registry.terraform.io/hashicorp/legacyx", "legacy_thing"),
    ] {
        let refused = mv(provider, from, "test_successor");
        assert_eq!(refused.diagnostics.len(), 1, "{:?}", refused.diagnostics);
        let d = &refused.diagnostics[0];
        assert_eq!(d.summary, "Unable to Move Resource State");
        assert!(d.detail.contains("from the given source resource"), "{d:?}");
        assert!(
            d.detail.contains(&format!("Source Resource Type: {from}"))
                && d.detail
                    .contains(&format!("Source Provider Address: {provider}"))
                && d.detail.ends_with("Target Resource Type: test_successor"),
            "{d:?}"
        );
        assert!(refused.target_state.is_null());
    }
    // A target that takes over nothing.
    let none = mv(
        "registry.terraform.io/ferro/test",
        "test_thing",
        "test_echo",
    );
    assert_eq!(none.diagnostics[0].summary, "Unable to Move Resource State");
    assert!(none.diagnostics[0]
        .detail
        .contains("accepts objects of no other resource type"));
}

fn named_identity(name: &str, region: &str) -> Value {
    Value::object(
        [
            ("name".to_string(), Value::string(name)),
            ("region".to_string(), Value::string(region)),
        ]
        .into_iter()
        .collect(),
    )
}

/// Resource identities (protocol 5.9/6.9): GetResourceIdentitySchemas, the identity answered
/// by PlanResourceChange, ApplyResourceChange, ReadResource and ImportResourceState (by ID and
/// by identity), an identity that changes refused, UpgradeResourceIdentity; a type without an
/// identity schema cannot be imported by identity.
fn identities(p: &GrpcProvider) {
    let schema = p.schema().unwrap();
    let id_schema = &schema.identities["test_named"];
    assert_eq!(id_schema.version, 1);
    assert!(id_schema.attributes["name"].required_for_import);
    assert!(id_schema.attributes["region"].optional_for_import);
    assert!(!schema.identities.contains_key("test_thing"));
    let b = schema.resources["test_named"].block.clone();
    let null = Value::null(b.implied_type());
    // Create: the plan's identity, then apply's.
    let config = with(&b.empty_value(), "name", Value::string("n"));
    let proposed = proposed_new(&b, &null, &config);
    let planned = p.plan_resource_change(PlanRequest {
        type_name: "test_named",
        prior_state: &null,
        proposed_new_state: &proposed,
        config: &config,
        prior_private: &[],
        prior_identity: None,
    });
    assert!(planned.diagnostics.is_empty(), "{:?}", planned.diagnostics);
    let expected = named_identity("n", "here");
    assert_eq!(planned.planned_identity.as_ref(), Some(&expected));
    let applied = p.apply_resource_change(ApplyRequest {
        type_name: "test_named",
        prior_state: &null,
        planned_state: &planned.planned_state,
        config: &config,
        planned_private: &[],
        planned_identity: planned.planned_identity.as_ref(),
    });
    assert!(applied.diagnostics.is_empty(), "{:?}", applied.diagnostics);
    assert_eq!(applied.new_identity.as_ref(), Some(&expected));
    let state = applied.new_state;
    // Update: the prior identity is kept.
    let config2 = with(&config, "note", Value::string("x"));
    let proposed = proposed_new(&b, &state, &config2);
    let updated = p.plan_resource_change(PlanRequest {
        type_name: "test_named",
        prior_state: &state,
        proposed_new_state: &proposed,
        config: &config2,
        prior_private: &[],
        prior_identity: Some(&expected),
    });
    assert!(updated.diagnostics.is_empty(), "{:?}", updated.diagnostics);
    assert_eq!(updated.planned_identity.as_ref(), Some(&expected));
    // Read: the identity is answered; one that differs from the object's is refused.
    let read = p.read_resource(ReadRequest {
        type_name: "test_named",
        current_state: &state,
        private: &[],
        current_identity: Some(&expected),
    });
    assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
    assert_eq!(read.new_identity.as_ref(), Some(&expected));
    let other = named_identity("m", "here");
    let read = p.read_resource(ReadRequest {
        type_name: "test_named",
        current_state: &state,
        private: &[],
        current_identity: Some(&other),
    });
    assert_eq!(read.diagnostics[0].summary, "Unexpected Identity Change");
    // Import by identity (region left out) and by ID: the identity comes back whole.
    let partial = Value::object(
        [
            ("name".to_string(), Value::string("i")),
            ("region".to_string(), Value::null(Type::String)),
        ]
        .into_iter()
        .collect(),
    );
    let imported = p.import_resource_state(ImportRequest {
        type_name: "test_named",
        id: "",
        identity: Some(&partial),
    });
    assert!(
        imported.diagnostics.is_empty(),
        "{:?}",
        imported.diagnostics
    );
    assert_eq!(
        imported.imported[0].identity.as_ref(),
        Some(&named_identity("i", "here"))
    );
    assert_eq!(get(&imported.imported[0].state, "name"), Value::string("i"));
    let imported = p.import_resource_state(ImportRequest {
        type_name: "test_named",
        id: "far/j",
        identity: None,
    });
    assert_eq!(
        imported.imported[0].identity.as_ref(),
        Some(&named_identity("j", "far"))
    );
    // A type without an identity schema cannot be imported by identity.
    let refused = p.import_resource_state(ImportRequest {
        type_name: "test_thing",
        id: "",
        identity: Some(&partial),
    });
    assert!(refused.imported.is_empty());
    assert!(
        refused.diagnostics[0]
            .summary
            .contains("unknown identity type"),
        "{:?}",
        refused.diagnostics
    );
    // UpgradeResourceIdentity from version 0; a bad stored identity is the provider's error.
    let up = p.upgrade_resource_identity(ferro_provider::UpgradeIdentityRequest {
        type_name: "test_named",
        version: 0,
        raw_json: &serde_json::json!({"id": "far/k"}),
    });
    assert!(up.diagnostics.is_empty(), "{:?}", up.diagnostics);
    assert_eq!(up.upgraded_identity, named_identity("k", "far"));
    let up = p.upgrade_resource_identity(ferro_provider::UpgradeIdentityRequest {
        type_name: "test_named",
        version: 0,
        raw_json: &serde_json::json!({"other": 1}),
    });
    assert_eq!(
        up.diagnostics[0].summary,
        "Unable to Upgrade Resource Identity"
    );
}

/// Ephemeral resources: the schema in GetProviderSchema, then ValidateEphemeralResourceConfig,
/// OpenEphemeralResource (result, private data, renewal time), RenewEphemeralResource and
/// CloseEphemeralResource with the private data carried between them.
fn ephemeral(p: &GrpcProvider) {
    let schema = p.schema().unwrap();
    let block = &schema.ephemeral_resources["test_token"].block;
    assert!(block.attributes["name"].required);
    assert!(block.attributes["secret"].sensitive);
    let config = |name: &str| {
        Value::object(ValueMap::from_iter([
            ("name".to_string(), Value::string(name)),
            ("secret".to_string(), Value::null(Type::String)),
        ]))
    };
    let too_long = p.validate_ephemeral_resource_config("test_token", &config("much-too-long"));
    assert_eq!(too_long.len(), 1, "{too_long:?}");
    assert_eq!(
        too_long[0].attribute,
        Some(vec![PathStep::Attr("name".into())])
    );
    assert!(p
        .validate_ephemeral_resource_config("test_token", &config("db"))
        .is_empty());
    let opened = p.open_ephemeral_resource("test_token", &config("db"));
    assert!(opened.diagnostics.is_empty(), "{:?}", opened.diagnostics);
    assert_eq!(get(&opened.result, "secret"), Value::string("bd"));
    assert_eq!(opened.private, b"opened:db");
    assert_eq!(
        opened.renew_at,
        Some(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000))
    );
    // Closing before renewal is what this provider refuses: its error comes back.
    let early = p.close_ephemeral_resource("test_token", &opened.private);
    assert_eq!(early[0].summary, "Closed before renewal");
    let renewed = p.renew_ephemeral_resource("test_token", &opened.private);
    assert!(renewed.diagnostics.is_empty(), "{:?}", renewed.diagnostics);
    assert_eq!(renewed.renew_at, None);
    let private = renewed.private.expect("new private data");
    assert_eq!(private, b"renewed:db");
    assert!(p
        .close_ephemeral_resource("test_token", &private)
        .is_empty());
    // GetMetadata lists the type without its schema.
    let meta = p.metadata().expect("GetMetadata is served");
    assert_eq!(meta.ephemeral_resources, ["test_token"]);
    assert!(meta.resources.contains(&"test_thing".to_string()));
    // A type the provider does not offer.
    let unknown = p.open_ephemeral_resource("test_nothing", &config("db"));
    assert_eq!(unknown.diagnostics[0].summary, "Invalid ephemeral resource");
}

/// `deferred` from plan, read, data source read and import: decoded by ferro's plugin client
/// when it sent the capability `deferral_allowed`, an error for a client that did not.
fn deferral(p: &GrpcProvider) {
    let schema = p.schema().unwrap();
    let b = schema.resources["test_later"].block.clone();
    let null = Value::null(b.implied_type());
    let waiting = |w: &str| with(&b.empty_value(), "wait", Value::string(w));
    let plan = |p: &GrpcProvider, config: &Value| {
        let proposed = proposed_new(&b, &null, config);
        p.plan_resource_change(PlanRequest {
            type_name: "test_later",
            prior_state: &null,
            proposed_new_state: &proposed,
            config,
            prior_private: &[],
            prior_identity: None,
        })
    };
    // This client has not allowed deferral: the provider's deferral is an error.
    let r = plan(p, &waiting("plan"));
    assert_eq!(r.deferred, None);
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.summary == "Invalid deferred response"),
        "{:?}",
        r.diagnostics
    );
    let r = p.import_resource_state(ImportRequest {
        type_name: "test_later",
        id: "later",
        identity: None,
    });
    assert_eq!(r.deferred, None);
    assert!(r.imported.is_empty());
    assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);

    // A client that allows it (a new connection: the capability is the client's).
    let q = crate::start(&p.protocol_version().to_string());
    q.allow_deferral();
    let r = plan(&q, &waiting("plan"));
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.deferred, Some(DeferralReason::ResourceConfigUnknown));
    let r = plan(&q, &waiting("no"));
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.deferred, None);

    let state = with(&waiting("read"), "id", Value::string("later-1"));
    let r = q.read_resource(ReadRequest {
        type_name: "test_later",
        current_state: &state,
        private: &[],
        current_identity: None,
    });
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.deferred, Some(DeferralReason::AbsentPrereq));
    assert_eq!(r.new_state, state);
    let state = with(&waiting("no"), "id", Value::string("later-1"));
    let r = q.read_resource(ReadRequest {
        type_name: "test_later",
        current_state: &state,
        private: &[],
        current_identity: None,
    });
    assert_eq!(r.deferred, None);
    assert_eq!(r.new_state, state);

    let r = q.read_data_source(ReadDataRequest {
        type_name: "test_later",
        config: &with(&waiting("read"), "id", Value::null(Type::String)),
        address: "",
    });
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.deferred, Some(DeferralReason::ResourceConfigUnknown));
    let r = q.read_data_source(ReadDataRequest {
        type_name: "test_later",
        config: &with(&waiting("no"), "id", Value::null(Type::String)),
        address: "",
    });
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.deferred, None);
    assert_eq!(get(&r.state, "id"), Value::string("read"));

    let r = q.import_resource_state(ImportRequest {
        type_name: "test_later",
        id: "later",
        identity: None,
    });
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.deferred, Some(DeferralReason::ProviderConfigUnknown));
    assert!(r.imported.is_empty());
    let r = q.import_resource_state(ImportRequest {
        type_name: "test_later",
        id: "now",
        identity: None,
    });
    assert_eq!(r.deferred, None);
    assert_eq!(r.imported.len(), 1);
    q.close();
}

/// A write-only attribute: flagged in the schema over either protocol (protocol 5 numbers the
/// field differently), null in the plan and the new state, its value seen by create.
fn write_only(p: &GrpcProvider) {
    let schema = p.schema().unwrap();
    let b = schema.resources["test_secret"].block.clone();
    assert!(b.attributes["password_wo"].write_only);
    assert!(!b.attributes["length"].write_only);
    let config = with(&b.empty_value(), "password_wo", Value::string("s3cret"));
    assert!(p
        .validate_resource_config("test_secret", &config)
        .is_empty());
    let null = Value::null(b.implied_type());
    let proposed = proposed_new(&b, &null, &config);
    let r = p.plan_resource_change(PlanRequest {
        type_name: "test_secret",
        prior_state: &null,
        proposed_new_state: &proposed,
        config: &config,
        prior_private: &[],
        prior_identity: None,
    });
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert!(get(&r.planned_state, "password_wo").is_null());
    assert!(assert_plan_valid(&b, &null, &config, &r.planned_state).is_empty());
    let applied = p.apply_resource_change(ApplyRequest {
        type_name: "test_secret",
        prior_state: &null,
        planned_state: &r.planned_state,
        config: &config,
        planned_private: &[],
        planned_identity: None,
    });
    assert!(applied.diagnostics.is_empty(), "{:?}", applied.diagnostics);
    assert!(get(&applied.new_state, "password_wo").is_null());
    assert_eq!(get(&applied.new_state, "length"), Value::int(6));
}

/// Functions: declared in GetProviderSchema and GetFunctions alike, called with CallFunction;
/// an error about an argument keeps its index.
fn functions(p: &GrpcProvider) {
    let schema = p.schema().unwrap();
    let upper = &schema.functions["upper"];
    assert_eq!(upper.params[0].name, "text");
    assert!(upper.params[0].allow_null);
    assert_eq!(
        upper.variadic.as_ref().map(|v| v.name.as_str()),
        Some("more")
    );
    assert_eq!(upper.return_type, Type::String);
    assert_eq!(upper.summary, "Upper-cases and joins its arguments.");
    assert_eq!(p.functions().unwrap().get("upper"), Some(upper));
    assert_eq!(
        p.call_function("upper", &[Value::string("ab"), Value::string("c")]),
        Ok(Value::string("ABC"))
    );
    let err = p
        .call_function("upper", &[Value::string("a"), Value::null(Type::String)])
        .unwrap_err();
    assert_eq!(err.argument, Some(1));
    assert_eq!(err.text, "null is not text");
    assert!(p.call_function("nope", &[]).is_err());
}

fn block(p: &GrpcProvider) -> Block {
    p.schema().unwrap().resources["test_thing"].block.clone()
}

fn obj_type() -> Type {
    Type::object(
        ["name", "id", "stamp", "tag"]
            .into_iter()
            .map(|n| (n.to_string(), Type::String)),
    )
}

/// A configured nested object: `name` (and `tag` when given), the rest null.
fn obj(name: &str, tag: Option<&str>) -> Value {
    let s = |v: Option<&str>| v.map_or_else(|| Value::null(Type::String), Value::string);
    Value::object(ValueMap::from([
        ("name".to_string(), Value::string(name)),
        ("id".to_string(), s(None)),
        ("stamp".to_string(), s(None)),
        ("tag".to_string(), s(tag)),
    ]))
}

fn config(p: &GrpcProvider, attrs: &[(&str, Value)]) -> Value {
    let mut v = block(p).empty_value();
    v = with(&v, "size", Value::int(5));
    for (n, val) in attrs {
        v = with(&v, n, val.clone());
    }
    v
}

fn plan(p: &GrpcProvider, prior: &Value, config: &Value) -> PlanResponse {
    let b = block(p);
    let proposed = proposed_new(&b, prior, config);
    let r = p.plan_resource_change(PlanRequest {
        type_name: "test_thing",
        prior_state: prior,
        proposed_new_state: &proposed,
        config,
        prior_private: &[],
        prior_identity: None,
    });
    let errs = assert_plan_valid(&b, prior, config, &r.planned_state);
    assert!(errs.is_empty(), "core rejects the plan: {errs:?}");
    r
}

fn ok(p: &GrpcProvider, prior: &Value, config: &Value) -> PlanResponse {
    let r = plan(p, prior, config);
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    r
}

fn apply(p: &GrpcProvider, prior: &Value, config: &Value) -> Value {
    let planned = ok(p, prior, config).planned_state;
    let r = p.apply_resource_change(ApplyRequest {
        type_name: "test_thing",
        prior_state: prior,
        planned_state: &planned,
        config,
        planned_private: &[],
        planned_identity: None,
    });
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    r.new_state
}

/// Replacement paths as text: `size`, `list[1].name`, `map["k"].name`.
fn replaced(r: &PlanResponse) -> Vec<String> {
    let mut out: Vec<String> = r
        .requires_replace
        .iter()
        .map(|path| {
            let mut s = String::new();
            for step in path {
                match step {
                    PathStep::Attr(n) if s.is_empty() => s.push_str(n),
                    PathStep::Attr(n) => s.push_str(&format!(".{n}")),
                    PathStep::Index(k) => match k.as_str() {
                        Some(k) => s.push_str(&format!("[{k:?}]")),
                        None => s.push_str(&format!("[{}]", k.as_number().unwrap())),
                    },
                }
            }
            s
        })
        .collect();
    out.sort();
    out
}

fn at(v: &Value, path: &[&str]) -> Value {
    let mut cur = v.clone();
    for step in path {
        cur = match step.parse::<usize>() {
            Ok(i) => cur.as_elements().unwrap()[i].clone(),
            Err(_) => match cur.get_attr(step) {
                Some(x) => x.clone(),
                None => cur.as_entries().unwrap()[*step].clone(),
            },
        };
    }
    cur
}

fn unknown(v: &Value) -> bool {
    !v.is_known()
}

fn list(items: Vec<Value>) -> Value {
    Value::list(obj_type(), items)
}

/// The state after creating the resource with one object in every nested attribute mode.
fn created(p: &GrpcProvider) -> (Value, Value) {
    let mut attrs = vec![
        ("both", Value::int(5)),
        ("seq", Value::int(1)),
        ("label", Value::string("xa")),
    ];
    if nested(p) {
        attrs.extend([
            ("list", list(vec![obj("a", None), obj("b", None)])),
            ("set", Value::set(obj_type(), vec![obj("a", None)])),
            (
                "map",
                Value::map(obj_type(), ValueMap::from([("k", obj("a", None))])),
            ),
            ("single", obj("a", None)),
        ]);
    }
    let cfg = config(p, &attrs);
    let null = Value::null(cfg.ty());
    (apply(p, &null, &cfg), cfg)
}

fn create(p: &GrpcProvider) {
    let (_, cfg) = created(p);
    let r = ok(p, &Value::null(cfg.ty()), &cfg);
    let pl = &r.planned_state;
    assert_eq!(get(pl, "mode"), Value::string("fast"), "default");
    assert!(unknown(&get(pl, "id")) && unknown(&get(pl, "stamp")));
    let paths: &[&[&str]] = if nested(p) {
        &[
            &["list", "0"],
            &["list", "1"],
            &["set", "0"],
            &["map", "k"],
            &["single"],
        ]
    } else {
        &[]
    };
    for path in paths.iter().copied() {
        let o = at(pl, path);
        assert!(
            unknown(&get(&o, "id")) && unknown(&get(&o, "stamp")),
            "{path:?}"
        );
        assert_eq!(
            get(&o, "tag"),
            Value::string("t"),
            "nested default {path:?}"
        );
        let name = if path == ["list", "1"] { "b" } else { "a" };
        assert_eq!(get(&o, "name"), Value::string(name));
    }
    assert!(r.requires_replace.is_empty(), "creates never replace");
    let (state, _) = created(p);
    assert_eq!(get(&state, "id"), Value::string("created"));
    if nested(p) {
        assert_eq!(at(&state, &["list", "1", "id"]), Value::string("created"));
    }
}

fn unchanged(p: &GrpcProvider) {
    let (state, cfg) = created(p);
    let r = ok(p, &state, &cfg);
    assert_eq!(r.planned_state, state, "nothing changes");
    assert!(r.requires_replace.is_empty());
}

fn replace_if_set(p: &GrpcProvider) {
    let (state, cfg) = created(p);
    let grow = with(&cfg, "size", Value::int(6));
    assert_eq!(replaced(&ok(p, &state, &grow)), ["size"]);
    let shrink = ok(p, &state, &with(&cfg, "size", Value::int(4)));
    assert!(replaced(&shrink).is_empty(), "shrinking updates in place");
    let size_unknown = with(&cfg, "size", Value::unknown(Type::Number));
    assert!(
        replaced(&ok(p, &state, &size_unknown)).is_empty(),
        "unknown new side"
    );
    // Plain requires_replace: any change, an unknown one included; a null config planned as
    // the default ("fast", as in state) is no change.
    let mode_unknown = with(&cfg, "mode", Value::unknown(Type::String));
    assert_eq!(replaced(&ok(p, &state, &mode_unknown)), ["mode"]);
    assert!(replaced(&ok(p, &state, &cfg)).is_empty());
    let slow = with(&cfg, "mode", Value::string("slow"));
    assert_eq!(
        replaced(&ok(p, &state, &slow)),
        ["mode", "stamp"],
        "modify_plan adds stamp"
    );
    // if_set with a null old side: `both` absent from state, then configured.
    let no_both = with(&cfg, "both", Value::null(Type::Number));
    let state2 = apply(p, &state, &no_both);
    assert!(get(&state2, "both").is_null());
    assert!(replaced(&ok(p, &state2, &with(&no_both, "both", Value::int(50)))).is_empty());
    // ... and a null new side.
    assert!(replaced(&ok(p, &state, &no_both)).is_empty());
}

fn replace_if(p: &GrpcProvider) {
    let (state, cfg) = created(p);
    // Old "xa": any change replaces, to null included.
    assert_eq!(
        replaced(&ok(p, &state, &with(&cfg, "label", Value::string("b")))),
        ["label"]
    );
    assert_eq!(
        replaced(&ok(
            p,
            &state,
            &with(&cfg, "label", Value::null(Type::String))
        )),
        ["label"]
    );
    assert_eq!(
        replaced(&ok(
            p,
            &state,
            &with(&cfg, "label", Value::unknown(Type::String))
        )),
        ["label"]
    );
    // Old null or "a": the function says no.
    let plain = with(&cfg, "label", Value::string("a"));
    let state2 = apply(p, &state, &plain);
    assert!(replaced(&ok(p, &state2, &with(&cfg, "label", Value::string("b")))).is_empty());
    let unset = with(&cfg, "label", Value::null(Type::String));
    let state3 = apply(p, &state2, &unset);
    assert!(replaced(&ok(p, &state3, &plain)).is_empty());
}

fn all_and_sequence(p: &GrpcProvider) {
    let (state, cfg) = created(p);
    let small = with(&with(&cfg, "both", Value::int(8)), "seq", Value::int(2));
    assert!(
        replaced(&ok(p, &state, &small)).is_empty(),
        "8 > 5 but not > 10"
    );
    assert_eq!(
        replaced(&ok(p, &state, &with(&cfg, "both", Value::int(11)))),
        ["both"]
    );
    let unknown_both = with(&cfg, "both", Value::unknown(Type::Number));
    assert!(
        replaced(&ok(p, &state, &unknown_both)).is_empty(),
        "if_set: unknown"
    );
    let unknown_seq = with(&cfg, "seq", Value::unknown(Type::Number));
    assert!(replaced(&ok(p, &state, &unknown_seq)).is_empty());
}

fn state_for_unknown(p: &GrpcProvider) {
    let (state, cfg) = created(p);
    let r = ok(p, &state, &with(&cfg, "size", Value::int(4)));
    assert_eq!(get(&r.planned_state, "id"), Value::string("created"));
    assert!(
        unknown(&get(&r.planned_state, "stamp")),
        "no modifier: unknown"
    );
    let updated = apply(p, &state, &with(&cfg, "size", Value::int(4)));
    assert_eq!(get(&updated, "id"), Value::string("created"));
    assert_eq!(get(&updated, "stamp"), Value::string("updated"));
}

fn nested_list(p: &GrpcProvider) {
    let (state, cfg) = created(p);
    let renamed = with(&cfg, "list", list(vec![obj("a", None), obj("c", None)]));
    assert_eq!(replaced(&ok(p, &state, &renamed)), ["list[1].name"]);
    let retag = with(
        &cfg,
        "list",
        list(vec![obj("a", None), obj("b", Some("u"))]),
    );
    let r = ok(p, &state, &retag);
    assert!(replaced(&r).is_empty());
    let pl = &r.planned_state;
    assert_eq!(at(pl, &["list", "1", "tag"]), Value::string("u"));
    assert_eq!(at(pl, &["list", "1", "id"]), Value::string("created"));
    assert!(unknown(&at(pl, &["list", "1", "stamp"])), "changed object");
    assert_eq!(at(pl, &["list", "0", "stamp"]), Value::string("created"));
    let grown = with(
        &cfg,
        "list",
        list(vec![obj("a", None), obj("b", None), obj("d", None)]),
    );
    let r = ok(p, &state, &grown);
    assert!(replaced(&r).is_empty(), "a new object is no replacement");
    assert!(unknown(&at(&r.planned_state, &["list", "2", "id"])));
    assert_eq!(
        at(&r.planned_state, &["list", "2", "tag"]),
        Value::string("t")
    );
    let unknown_list = with(&cfg, "list", Value::unknown(Type::list(obj_type())));
    assert!(unknown(&get(
        &ok(p, &state, &unknown_list).planned_state,
        "list"
    )));
}

fn nested_map_set_single(p: &GrpcProvider) {
    let (state, cfg) = created(p);
    let map = |m: Vec<(&str, Value)>| {
        Value::map(
            obj_type(),
            m.into_iter().map(|(k, v)| (k.to_string(), v)).collect(),
        )
    };
    let renamed = with(&cfg, "map", map(vec![("k", obj("z", None))]));
    assert_eq!(replaced(&ok(p, &state, &renamed)), ["map[\"k\"].name"]);
    let added = with(
        &cfg,
        "map",
        map(vec![("k", obj("a", None)), ("j", obj("a", None))]),
    );
    let r = ok(p, &state, &added);
    assert!(replaced(&r).is_empty());
    assert_eq!(
        at(&r.planned_state, &["map", "k", "id"]),
        Value::string("created")
    );
    assert!(unknown(&at(&r.planned_state, &["map", "j", "id"])));
    // Set objects correlate with prior ones by the attributes the configuration alone
    // controls (`name`; `tag` has a default, so it is computed too), as core's merge does.
    let retag = with(
        &cfg,
        "set",
        Value::set(obj_type(), vec![obj("a", Some("u"))]),
    );
    let r = ok(p, &state, &retag);
    assert!(replaced(&r).is_empty());
    let o = at(&r.planned_state, &["set", "0"]);
    assert_eq!(get(&o, "id"), Value::string("created"));
    assert!(unknown(&get(&o, "stamp")));
    assert_eq!(get(&o, "tag"), Value::string("u"));
    let renamed = with(&cfg, "set", Value::set(obj_type(), vec![obj("z", None)]));
    let r = ok(p, &state, &renamed);
    assert!(
        replaced(&r).is_empty(),
        "a new set object, no path to replace by"
    );
    assert!(unknown(&at(&r.planned_state, &["set", "0", "id"])));
    let single = with(&cfg, "single", obj("q", None));
    assert_eq!(replaced(&ok(p, &state, &single)), ["single.name"]);
    let removed = with(&cfg, "single", Value::null(obj_type()));
    let r = ok(p, &state, &removed);
    assert!(get(&r.planned_state, "single").is_null());
}

fn refused(p: &GrpcProvider) {
    let cfg = config(p, &[("bad", Value::bool(true))]);
    let r = plan(p, &Value::null(cfg.ty()), &cfg);
    assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
    assert_eq!(r.diagnostics[0].summary, "Invalid plan modification");
    assert_eq!(
        r.diagnostics[0].attribute,
        Some(vec![PathStep::Attr("size".into())])
    );
}

fn upgrade(p: &GrpcProvider) {
    let (state, _) = created(p);
    let ty = state.ty();
    let mut json = ferro_value::json::value_to_json(&state, &ty).unwrap();
    let obj = json.as_object_mut().unwrap();
    let size = obj.remove("size").unwrap();
    obj.insert("old_size".into(), size);
    let up = |version: u64, raw: &serde_json::Value| {
        p.upgrade_resource_state(UpgradeRequest {
            type_name: "test_thing",
            version,
            raw_json: raw,
        })
    };
    let r = up(1, &json);
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.upgraded_state, state, "old_size became size");
    let current = ferro_value::json::value_to_json(&state, &ty).unwrap();
    assert_eq!(up(2, &current).upgraded_state, state);
    let too_new = up(3, &current);
    assert_eq!(
        too_new.diagnostics[0].summary,
        "Unable to Upgrade Resource State"
    );
    let no_path = up(0, &json);
    assert!(no_path.diagnostics[0].detail.contains("version 0"));
    // Version 1's shape read as version 2 does not fit the schema.
    assert!(!up(2, &json).diagnostics.is_empty());
}

/// Validators of the nested objects' attributes run in every mode, on their full paths.
fn nested_validators(p: &GrpcProvider) {
    let good = config(
        p,
        &[
            ("list", list(vec![obj("a", None), obj("b", Some("u"))])),
            ("single", obj("c", Some("t"))),
        ],
    );
    let d = p.validate_resource_config("test_thing", &good);
    assert!(d.is_empty(), "{d:?}");
    let bad = config(
        p,
        &[
            (
                "list",
                list(vec![obj("a", None), obj("much-too-long", None)]),
            ),
            (
                "map",
                Value::map(
                    obj_type(),
                    ValueMap::from([("k".to_string(), obj("b", Some("zz")))]),
                ),
            ),
            ("set", Value::set(obj_type(), vec![obj("", None)])),
            ("single", obj("c", Some("v"))),
        ],
    );
    let d = p.validate_resource_config("test_thing", &bad);
    let mut got: Vec<(String, String)> = d
        .iter()
        .map(|d| {
            let path = d.attribute.as_deref().unwrap_or(&[]);
            (ferro_sdk::values::path_name(path), d.detail.clone())
        })
        .collect();
    got.sort();
    let want = [
        (
            "list[1].name",
            "Attribute list[1].name string length must be between 1 and 8, got: 13",
        ),
        (
            "map[\"k\"].tag",
            "Attribute map[\"k\"].tag value must be one of: [\"t\", \"u\"], got: \"zz\"",
        ),
        (
            "set.name",
            "Attribute set.name string length must be between 1 and 8, got: 0",
        ),
        (
            "single.tag",
            "Attribute single.tag value must be one of: [\"t\", \"u\"], got: \"v\"",
        ),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        d[0].attribute.as_ref().map(|p| p[0].clone()),
        Some(PathStep::Attr("list".into()))
    );
}
