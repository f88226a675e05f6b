//! An example provider written with ferro-sdk: `example_disk`, a pretend disk that can grow in
//! place but must be replaced to shrink, whose `id` never changes once created and whose `cost`
//! the provider computes at plan time; and `example_volume`, the type disks had before, whose
//! objects `example_disk` takes over when a `moved` block moves them to it.

use ferro_sdk::modifiers::{if_set, use_state_for_unknown, RequiresReplaceIf};
use ferro_sdk::provider_types::{ModifyPlanRequest, ModifyPlanResponse};
use ferro_sdk::validators::one_of;
use ferro_sdk::values::{get, get_i64, get_str, with};
use ferro_sdk::{
    Attr, Diags, MoveSource, MoveStateRequest, MovedState, Resource, ResourceSchema, SdkProvider,
    Value,
};

pub fn provider() -> SdkProvider {
    SdkProvider::new("example")
        .resource("example_disk", Disk)
        .resource("example_volume", Volume)
}

/// The provider's own address, for the types it takes over from itself.
const ADDRESS: &str = "example.test/ferro/example";

/// `example_volume`: a disk as the provider's first version described it (`gb`, no tier).
pub struct Volume;

impl Resource for Volume {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr(
                "id",
                Attr::string().computed().modifier(use_state_for_unknown()),
            )
            .attr("gb", Attr::number().required())
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let gb = get_i64(planned, "gb").unwrap_or(0);
        Ok(with(planned, "id", Value::string(format!("disk-{gb}"))))
    }
}

pub struct Disk;

/// Shrinking replaces the disk; growing does not. Null or unknown sizes never replace.
fn shrinks(old: &Value, new: &Value) -> bool {
    match (old.as_number(), new.as_number()) {
        (Some(o), Some(n)) => n.to_f64() < o.to_f64(),
        _ => false,
    }
}

impl Resource for Disk {
    fn schema(&self) -> ResourceSchema {
        ResourceSchema::new()
            .attr(
                "id",
                Attr::string()
                    .computed()
                    .modifier(use_state_for_unknown())
                    .describe("Assigned at creation; never changes."),
            )
            .attr(
                "size_gb",
                Attr::number()
                    .required()
                    .modifier(RequiresReplaceIf::from_fn(
                        "Shrinking a disk replaces it; growing resizes it in place.",
                        if_set(shrinks),
                    )),
            )
            .attr(
                "tier",
                Attr::string()
                    .default(Value::string("standard"))
                    .validate(one_of(&["standard", "premium"])),
            )
            .attr(
                "cost",
                Attr::number()
                    .computed()
                    .describe("Monthly cost, known at plan time."),
            )
    }

    /// The cost follows from the configuration, so plan it instead of leaving it unknown.
    fn modify_plan(&self, _req: &ModifyPlanRequest<'_>, resp: &mut ModifyPlanResponse) {
        let size = get(&resp.plan, "size_gb");
        let tier = get_str(&resp.plan, "tier");
        if let (Some(size), Some(tier)) = (get_i64(&resp.plan, "size_gb"), tier) {
            let per_gb = if tier == "premium" { 3 } else { 1 };
            resp.plan = with(&resp.plan, "cost", Value::int(size * per_gb));
        } else if !size.is_known() {
            resp.plan = with(&resp.plan, "cost", Value::unknown(ferro_sdk::Type::Number));
        }
    }

    fn create(&self, planned: &Value, _config: &Value) -> Result<Value, Diags> {
        let size = get_i64(planned, "size_gb").unwrap_or(0);
        Ok(with(planned, "id", Value::string(format!("disk-{size}"))))
    }

    /// `moved { from = example_volume.x  to = example_disk.x }` keeps the disk: its id and
    /// size carry over, the tier is the default and the cost follows from them.
    fn move_sources(&self) -> Vec<MoveSource> {
        vec![MoveSource::new(ADDRESS, "example_volume")]
    }

    fn move_state(&self, req: &MoveStateRequest<'_>) -> Result<MovedState, Diags> {
        let volume =
            ferro_sdk::values::from_json(req.source_state, &Volume.schema().implied_type())
                .map_err(|e| {
                    vec![ferro_sdk::Diagnostic::error(
                        "Unreadable example_volume",
                        format!("The moved object does not match example_volume's schema: {e}."),
                    )]
                })?;
        let size = get(&volume, "gb");
        let state = [
            ("id", get(&volume, "id")),
            ("cost", size.clone()),
            ("size_gb", size),
            ("tier", Value::string("standard")),
        ]
        .into_iter()
        .fold(self.schema().to_block().empty_value(), |v, (n, x)| {
            with(&v, n, x)
        });
        Ok(MovedState {
            state,
            private: Vec::new(),
        })
    }
}
