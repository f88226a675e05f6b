//! `terraform_data`: `input` is stored and echoed as `output` after apply; changing `input`
//! updates in place (the output is unknown until then), changing `triggers_replace` replaces the
//! object; `id` is a random UUID set at create and kept for the object's lifetime.

use crate::rng;
use ferro_sdk::modifiers::{requires_replace, use_state_for_unknown};
use ferro_sdk::provider_types::{ModifyPlanRequest, ModifyPlanResponse};
use ferro_sdk::values::{get, with};
use ferro_sdk::{Attr, Diags, Resource, ResourceSchema, Type, Value};

pub struct TerraformData;

/// The output a changed `input` will produce: unknown of the input's type, or null when the
/// input is null (there is nothing to wait for).
fn pending_output(input: &Value) -> Value {
    if input.is_null() {
        input.clone()
    } else {
        Value::unknown(input.ty())
    }
}

impl Resource for TerraformData {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr("input", Attr::new(Type::Dynamic).optional())
            .attr("output", Attr::new(Type::Dynamic).computed())
            .attr(
                "triggers_replace",
                Attr::new(Type::Dynamic)
                    .optional()
                    .modifier(requires_replace()),
            )
            .attr(
                "id",
                Attr::string().computed().modifier(use_state_for_unknown()),
            )
    }

    fn modify_plan(&self, _req: &ModifyPlanRequest<'_>, resp: &mut ModifyPlanResponse) {
        // The framework plans a changed object's output as unknown of any type; Terraform's
        // terraform_data narrows it to the input's type (or null).
        if !get(&resp.plan, "output").is_known() {
            let input = get(&resp.plan, "input");
            resp.plan = with(&resp.plan, "output", pending_output(&input));
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let v = with(planned, "id", Value::string(rng::uuid()));
        Ok(with(&v, "output", get(planned, "input")))
    }

    fn import(&self, _id: &str) -> Result<Value, Diags> {
        Err(vec![ferro_sdk::Diagnostic::error(
            "Resource import not supported",
            "The resource type \"terraform_data\" does not support importing.",
        )])
    }

    fn update(&self, _prior: &Value, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(with(planned, "output", get(planned, "input")))
    }
}
