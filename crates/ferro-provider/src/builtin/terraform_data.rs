//! The built-in `terraform` provider (`terraform.io/builtin/terraform`) and its managed resource
//! type `terraform_data`: `input` is stored and echoed as `output`; changing `input` updates in
//! place, changing `triggers_replace` replaces the object; `id` is a random UUID set at create.

use crate::{
    ApplyRequest, ApplyResponse, PlanRequest, PlanResponse, Provider, ProviderDiagnostic,
    ProviderSchema, ReadRequest, ReadResponse, UpgradeRequest, UpgradeResponse,
};
use ferro_value::schema::{Attribute, Block, Schema};
use ferro_value::{json, PathStep, Type, Value};
use std::collections::BTreeMap;

pub struct TerraformProvider;

fn data_schema() -> Schema {
    let mut attributes = BTreeMap::new();
    attributes.insert(
        "input".to_string(),
        Attribute::new(Type::Dynamic).optional(),
    );
    attributes.insert(
        "output".to_string(),
        Attribute::new(Type::Dynamic).computed(),
    );
    attributes.insert(
        "triggers_replace".to_string(),
        Attribute::new(Type::Dynamic).optional(),
    );
    attributes.insert("id".to_string(), Attribute::new(Type::String).computed());
    Schema {
        version: 0,
        block: Block {
            attributes,
            block_types: BTreeMap::new(),
            description: String::new(),
        },
    }
}

fn with_attr(obj: &Value, name: &str, v: Value) -> Value {
    let mut attrs = obj.as_entries().cloned().unwrap_or_default();
    attrs.insert(name.to_string(), v);
    Value::object(attrs)
}

fn attr(obj: &Value, name: &str) -> Value {
    obj.get_attr(name)
        .cloned()
        .unwrap_or_else(|| Value::null(Type::Dynamic))
}

/// The unknown output a changed `input` will produce: unknown of the input's type, or null.
fn pending_output(input: &Value) -> Value {
    if input.is_null() {
        input.clone()
    } else {
        Value::unknown(input.ty())
    }
}

fn unsupported(type_name: &str) -> ProviderDiagnostic {
    ProviderDiagnostic::error(
        "Unsupported resource type",
        format!("The terraform provider has no resource type {type_name:?}."),
    )
}

impl Provider for TerraformProvider {
    fn schema(&self) -> Result<ProviderSchema, Vec<ProviderDiagnostic>> {
        let mut resources = BTreeMap::new();
        resources.insert("terraform_data".to_string(), data_schema());
        Ok(ProviderSchema {
            provider: Schema::default(),
            resources,
            data_sources: BTreeMap::new(),
        })
    }

    fn configure(&self, _config: &Value) -> Vec<ProviderDiagnostic> {
        Vec::new()
    }

    fn validate_resource_config(
        &self,
        type_name: &str,
        _config: &Value,
    ) -> Vec<ProviderDiagnostic> {
        if type_name == "terraform_data" {
            Vec::new()
        } else {
            vec![unsupported(type_name)]
        }
    }

    fn upgrade_resource_state(&self, req: UpgradeRequest<'_>) -> UpgradeResponse {
        let ty = data_schema().block.implied_type();
        match json::value_from_json(req.raw_json, &ty) {
            Ok(v) => UpgradeResponse {
                upgraded_state: v,
                diagnostics: Vec::new(),
            },
            Err(e) => UpgradeResponse {
                upgraded_state: Value::null(ty),
                diagnostics: vec![ProviderDiagnostic::error("Invalid terraform_data state", e)],
            },
        }
    }

    fn read_resource(&self, req: ReadRequest<'_>) -> ReadResponse {
        ReadResponse {
            new_state: req.current_state.clone(),
            private: req.private.to_vec(),
            diagnostics: Vec::new(),
        }
    }

    fn plan_resource_change(&self, req: PlanRequest<'_>) -> PlanResponse {
        let mut resp = PlanResponse {
            planned_state: req.proposed_new_state.clone(),
            requires_replace: Vec::new(),
            planned_private: Vec::new(),
            diagnostics: Vec::new(),
            legacy_type_system: false,
        };
        if req.type_name != "terraform_data" {
            resp.diagnostics.push(unsupported(req.type_name));
            return resp;
        }
        let proposed = req.proposed_new_state;
        if proposed.is_null() {
            return resp; // destroy
        }
        let input = attr(proposed, "input");
        let mut planned = proposed.clone();
        if req.prior_state.is_null() {
            planned = with_attr(&planned, "id", Value::unknown(Type::String));
            planned = with_attr(&planned, "output", pending_output(&input));
        } else if attr(req.prior_state, "triggers_replace") != attr(proposed, "triggers_replace") {
            resp.requires_replace
                .push(vec![PathStep::Attr("triggers_replace".into())]);
            planned = with_attr(&planned, "id", Value::unknown(Type::String));
            planned = with_attr(&planned, "output", pending_output(&input));
        } else if attr(req.prior_state, "input") != input {
            planned = with_attr(&planned, "output", pending_output(&input));
        }
        resp.planned_state = planned;
        resp
    }

    fn apply_resource_change(&self, req: ApplyRequest<'_>) -> ApplyResponse {
        let mut resp = ApplyResponse {
            new_state: req.planned_state.clone(),
            private: Vec::new(),
            diagnostics: Vec::new(),
            legacy_type_system: false,
        };
        if req.planned_state.is_null() {
            return resp; // destroyed: nothing remote to clean up
        }
        let mut new = req.planned_state.clone();
        if attr(&new, "id").is_unknown() {
            new = with_attr(&new, "id", Value::string(super::random_uuid()));
        }
        let input = attr(&new, "input");
        new = with_attr(&new, "output", input);
        resp.new_state = new;
        resp
    }
}
