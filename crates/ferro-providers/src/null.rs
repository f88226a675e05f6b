//! The `null` provider as hashicorp/null 2.1.2 behaves: `null_resource` (an `id` and
//! `triggers` whose change replaces it) and `null_data_source`.

use crate::rng;
use ferro_sdk::modifiers::requires_replace;
use ferro_sdk::values::{get, with};
use ferro_sdk::{Attr, DataSource, Diags, Resource, ResourceSchema, SdkProvider, Value};

pub fn provider() -> SdkProvider {
    SdkProvider::new("null")
        .resource("null_resource", NullResource)
        .data_source("null_data_source", NullDataSource)
}

pub struct NullResource;

impl Resource for NullResource {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr("id", Attr::string().optional().computed())
            .attr(
                "triggers",
                Attr::map_of_strings()
                    .optional()
                    .describe("A map of arbitrary strings that, when changed, will force the null resource to be replaced, re-running any associated provisioners.")
                    .modifier(requires_replace()),
            )
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let id = get(planned, "id");
        if id.is_known() && !id.is_null() {
            return Ok(planned.clone());
        }
        Ok(with(planned, "id", Value::string(rng::int63().to_string())))
    }

    fn import(&self, id: &str) -> Result<Value, Diags> {
        Ok(with(
            &self.schema().to_block().empty_value(),
            "id",
            Value::string(id),
        ))
    }
}

pub struct NullDataSource;

impl DataSource for NullDataSource {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr("id", Attr::string().optional().computed())
            .attr("inputs", Attr::map_of_strings().optional())
            .attr("outputs", Attr::map_of_strings().computed())
            .attr("random", Attr::string().computed())
            .attr("has_computed_default", Attr::string().optional().computed())
    }

    fn read(&self, config: &Value) -> Result<Value, Diags> {
        let inputs = get(config, "inputs");
        let mut v = with(config, "outputs", inputs);
        v = with(&v, "random", Value::string(rng::int63().to_string()));
        if get(config, "has_computed_default").is_null() {
            v = with(&v, "has_computed_default", Value::string("default"));
        }
        if get(config, "id").is_null() {
            v = with(&v, "id", Value::string("static"));
        }
        Ok(v)
    }
}
