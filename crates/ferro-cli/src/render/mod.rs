//! Renderings of plans and states for people (Terraform's human plan format) and for tools
//! (`show -json`).

use ferro_plan::Plan;
use ferro_planner::Providers;
use ferro_state::State;

/// The human plan body: the legend, every resource change with its attribute diff, output
/// changes, and the `Plan: N to add, N to change, N to destroy.` line (or "No changes.").
pub fn human_plan(_plan: &Plan, _providers: &Providers, _color: bool) -> String {
    unimplemented!()
}

/// `show -json PLANFILE`.
pub fn plan_json(_plan: &Plan, _providers: &Providers) -> String {
    unimplemented!()
}

/// `show -json` of a state.
pub fn state_json(_state: &State, _providers: &Providers) -> String {
    unimplemented!()
}

/// `show` of a state.
pub fn human_state(_state: &State, _providers: &Providers, _color: bool) -> String {
    unimplemented!()
}
