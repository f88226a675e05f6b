//! `terraform_data`: `input` is stored and echoed as `output` after apply; changing `input`
//! updates in place (the output is unknown until then), changing `triggers_replace` replaces the
//! object; `id` is a random UUID set at create and kept for the object's lifetime. It takes
//! over `null_resource` objects of hashicorp/null that a `moved` block moves to it (Terraform
//! 1.9): their `id` is kept and their `triggers` become `triggers_replace`. As Terraform
//! 1.12's, it declares a resource identity (`id`, version 0) but answers no identity: not on
//! read, plan, apply, import or move. Import sets `id` and nothing else.

use crate::rng;
use ferro_sdk::modifiers::{requires_replace, use_state_for_unknown};
use ferro_sdk::provider_types::{ModifyPlanRequest, ModifyPlanResponse};
use ferro_sdk::values::{get, with};
use ferro_sdk::{
    Attr, Diags, MoveSource, MoveStateRequest, MovedState, Resource, ResourceSchema, Type, Value,
};

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

/// An imported object: only its `id` is known, as Terraform's import sets it.
fn imported(id: Value) -> Value {
    let empty = TerraformData.schema().to_block().empty_value();
    with(&empty, "id", id)
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

    fn import(&self, id: &str) -> Result<Value, Diags> {
        Ok(imported(Value::string(id)))
    }

    fn identity_schema(&self) -> Option<ferro_sdk::IdentitySchema> {
        let id = ferro_sdk::IdentityAttribute {
            ty: Type::String,
            required_for_import: true,
            optional_for_import: false,
            description: "The unique identifier for the data store.".into(),
        };
        Some(ferro_sdk::IdentitySchema {
            version: 0,
            attributes: [("id".to_string(), id)].into_iter().collect(),
        })
    }

    // `identity` is the default, null: no identity is answered, as by Terraform's.

    // The object is made, but no identity is answered, so core refuses the import as
    // Terraform's does ("Import returned no identity").
    fn import_by_identity(&self, identity: &Value) -> Result<Value, Diags> {
        Ok(imported(get(identity, "id")))
    }

    fn upgrade_identity(
        &self,
        _version: u64,
        _old: &serde_json::Value,
    ) -> Result<serde_json::Value, Diags> {
        Err(vec![ferro_sdk::Diagnostic::error(
            "The builtin provider does not support provider upgrades since it has not changed the identity schema yet.",
            "",
        )])
    }

    fn update(&self, _prior: &Value, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        Ok(with(planned, "output", get(planned, "input")))
    }

    fn move_sources(&self) -> Vec<MoveSource> {
        vec![MoveSource::new("hashicorp/null", "null_resource")]
    }

    fn move_state(&self, req: &MoveStateRequest<'_>) -> Result<MovedState, Diags> {
        let null_resource = crate::null::NullResource.schema().implied_type();
        let source =
            ferro_sdk::values::from_json(req.source_state, &null_resource).map_err(|e| {
                vec![ferro_sdk::Diagnostic::error(
                    "Unable to read the moved object",
                    format!("The null_resource object does not match its schema: {e}."),
                )]
            })?;
        // `triggers` is a map of strings; configuration writes `triggers_replace` as an object
        // (`{ a = "x" }`), so an object with the same entries plans no change after the move.
        let triggers = get(&source, "triggers");
        let triggers_replace = match triggers.as_entries() {
            Some(entries) if !triggers.is_null() => Value::object(entries.clone()),
            _ => Value::null(Type::Dynamic),
        };
        let empty = self.schema().to_block().empty_value();
        let state = with(&empty, "id", get(&source, "id"));
        Ok(MovedState {
            state: with(&state, "triggers_replace", triggers_replace),
            private: Vec::new(),
        })
    }
}
