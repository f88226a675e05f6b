//! Plan modification as a provider author uses it: attribute modifiers and helpers with null
//! and unknown values, defaults, and the framework refusing modifications core would reject.

use ferro_provider::{PlanRequest, PlanResponse, Provider};
use ferro_sdk::modifiers::{
    all, if_set, requires_replace_if, sequence, use_state_for_unknown, RequiresReplaceIf,
};
use ferro_sdk::provider_types::{ModifyPlanRequest, ModifyPlanResponse};
use ferro_sdk::values::{get, with};
use ferro_sdk::{Attr, Diags, Resource, ResourceSchema, SdkProvider, Type, Value};
use ferro_value::PathStep;
use std::sync::Arc;

fn greater(old: &Value, new: &Value) -> bool {
    new.as_number().unwrap().to_f64() > old.as_number().unwrap().to_f64()
}

struct Thing {
    /// Break core's rules in modify_plan (planned value for a configured argument).
    misbehave: bool,
}

impl Resource for Thing {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
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
                    .modifier(requires_replace_if("any change", |_, _| true)),
            )
            .attr(
                "both",
                Attr::number()
                    .optional()
                    .modifier(RequiresReplaceIf::from_fn(
                        "all",
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
    }

    fn modify_plan(&self, req: &ModifyPlanRequest<'_>, resp: &mut ModifyPlanResponse) {
        if self.misbehave {
            resp.plan = with(&resp.plan, "size", Value::int(999));
        } else if !req.state.is_null() && get(req.config, "mode").as_str() == Some("slow") {
            resp.requires_replace.push("stamp".into());
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(with(
            &with(planned, "id", Value::string("x")),
            "stamp",
            Value::string("t"),
        ))
    }
}

fn provider(misbehave: bool) -> SdkProvider {
    SdkProvider::new("test").resource("test_thing", Thing { misbehave })
}

fn config(p: &SdkProvider, attrs: &[(&str, Value)]) -> Value {
    let mut v = p.schema().unwrap().resources["test_thing"]
        .block
        .empty_value();
    for (n, val) in attrs {
        v = with(&v, n, val.clone());
    }
    v
}

fn plan(p: &SdkProvider, prior: &Value, config: &Value) -> PlanResponse {
    // Core's proposed new state: config, with prior values for computed attributes left null.
    let mut proposed = config.clone();
    if !prior.is_null() {
        for n in ["id", "stamp", "mode"] {
            if get(config, n).is_null() {
                proposed = with(&proposed, n, get(prior, n));
            }
        }
    }
    p.plan_resource_change(PlanRequest {
        type_name: "test_thing",
        prior_state: prior,
        proposed_new_state: &proposed,
        config,
        prior_private: &[],
        prior_identity: None,
    })
}

fn replaced(r: &PlanResponse) -> Vec<String> {
    r.requires_replace
        .iter()
        .map(|p| match &p[0] {
            PathStep::Attr(n) => n.clone(),
            PathStep::Index(_) => String::new(),
        })
        .collect()
}

fn prior(p: &SdkProvider) -> Value {
    config(
        p,
        &[
            ("id", Value::string("x")),
            ("stamp", Value::string("t")),
            ("size", Value::int(5)),
            ("mode", Value::string("fast")),
            ("both", Value::int(5)),
            ("seq", Value::int(1)),
        ],
    )
}

#[test]
fn create_plans_defaults_and_unknown_computed_values() {
    let p = provider(false);
    let cfg = config(&p, &[("size", Value::int(5))]);
    let r = plan(&p, &Value::null(cfg.ty()), &cfg);
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert_eq!(get(&r.planned_state, "mode"), Value::string("fast"));
    assert!(!get(&r.planned_state, "id").is_known());
    assert!(!get(&r.planned_state, "stamp").is_known());
    assert!(r.requires_replace.is_empty(), "creates never replace");
}

#[test]
fn requires_replace_if_set_is_false_for_null_and_unknown_sides() {
    let p = provider(false);
    let prior = prior(&p);
    let grow = config(
        &p,
        &[
            ("size", Value::int(6)),
            ("both", Value::int(5)),
            ("seq", Value::int(1)),
        ],
    );
    assert_eq!(replaced(&plan(&p, &prior, &grow)), ["size"]);
    let shrink = config(
        &p,
        &[
            ("size", Value::int(4)),
            ("both", Value::int(5)),
            ("seq", Value::int(1)),
        ],
    );
    let r = plan(&p, &prior, &shrink);
    assert!(replaced(&r).is_empty(), "shrinking updates in place");
    // In-place update: use_state_for_unknown keeps id; plain computed stamp becomes unknown.
    assert_eq!(get(&r.planned_state, "id"), Value::string("x"));
    assert!(!get(&r.planned_state, "stamp").is_known());
    let unknown = config(
        &p,
        &[
            ("size", Value::unknown(Type::Number)),
            ("both", Value::int(5)),
            ("seq", Value::int(1)),
        ],
    );
    assert!(replaced(&plan(&p, &prior, &unknown)).is_empty());
    let both_null = config(&p, &[("size", Value::int(5)), ("seq", Value::int(1))]);
    assert!(replaced(&plan(&p, &prior, &both_null)).is_empty());
}

#[test]
fn all_needs_every_condition_and_sequence_stops_at_the_first_false() {
    let p = provider(false);
    let prior = prior(&p);
    let small = config(
        &p,
        &[
            ("size", Value::int(5)),
            ("both", Value::int(8)),
            ("seq", Value::int(2)),
        ],
    );
    assert!(
        replaced(&plan(&p, &prior, &small)).is_empty(),
        "8 > 5 but not > 10"
    );
    let big = config(
        &p,
        &[
            ("size", Value::int(5)),
            ("both", Value::int(11)),
            ("seq", Value::int(1)),
        ],
    );
    assert_eq!(replaced(&plan(&p, &prior, &big)), ["both"]);
}

#[test]
fn modify_plan_adds_requires_replace_and_defaults_count_as_changes() {
    let p = provider(false);
    let prior = prior(&p);
    let slow = config(
        &p,
        &[
            ("size", Value::int(5)),
            ("mode", Value::string("slow")),
            ("both", Value::int(5)),
            ("seq", Value::int(1)),
        ],
    );
    let mut r = replaced(&plan(&p, &prior, &slow));
    r.sort();
    assert_eq!(r, ["mode", "stamp"]);
}

#[test]
fn the_framework_refuses_plans_core_would_reject() {
    let p = provider(true);
    let cfg = config(&p, &[("size", Value::int(5))]);
    let r = plan(&p, &Value::null(cfg.ty()), &cfg);
    assert_eq!(r.diagnostics.len(), 1);
    assert_eq!(r.diagnostics[0].summary, "Invalid plan modification");
    assert_eq!(
        get(&r.planned_state, "size"),
        Value::int(5),
        "the invalid value is not planned"
    );
}
