//! Attribute plan modifiers (design document "modifying plans"): `requires_replace`,
//! `requires_replace_if` with its description and the helpers [`if_set`], [`all`] and
//! [`sequence`], and [`use_state_for_unknown`]. The framework runs them after it has computed the
//! planned value itself, and only keeps a modified value that core's rules allow.

use crate::values::null_or_unknown;
use crate::Diags;
use ferro_value::{PathStep, Value};
use std::sync::Arc;

/// What a modifier sees for one attribute (of the resource, or of a nested attribute's object).
pub struct ModifierRequest<'a> {
    /// The attribute's name.
    pub attribute: &'a str,
    /// Its full path from the resource object (through nested attributes: list indexes, map
    /// keys; a set element has no path of its own, so its attributes' paths end at the set).
    pub path: &'a [PathStep],
    /// The configured value (null when unset).
    pub config: &'a Value,
    /// The prior state's value (null when the resource is being created).
    pub state: &'a Value,
    /// Whether there is a prior object at all (false on create; for an attribute of a nested
    /// object, whether that object has a prior counterpart).
    pub has_prior: bool,
}

/// What a modifier may change: the planned value, whether a change forces replacement.
pub struct ModifierResponse {
    pub plan: Value,
    pub requires_replace: bool,
    pub diagnostics: Diags,
}

pub trait PlanModifier: Send + Sync {
    /// A human-readable description (documentation, diagnostics).
    fn description(&self) -> String;
    fn modify(&self, req: &ModifierRequest<'_>, resp: &mut ModifierResponse);
}

/// A condition on (old, new) values deciding whether a change forces replacement.
pub type ReplaceFn = Arc<dyn Fn(&Value, &Value) -> bool + Send + Sync>;

/// Any change of the attribute's value on an existing object replaces it.
pub fn requires_replace() -> RequiresReplaceIf {
    requires_replace_if(
        "If the value of this attribute changes, Terraform will destroy and recreate the resource.",
        |_, _| true,
    )
}

/// A change replaces the object when `f(old, new)` holds.
pub fn requires_replace_if(
    description: impl Into<String>,
    f: impl Fn(&Value, &Value) -> bool + Send + Sync + 'static,
) -> RequiresReplaceIf {
    RequiresReplaceIf {
        description: description.into(),
        f: Arc::new(f),
    }
}

/// `f` only when both values are known and non-null; false otherwise.
pub fn if_set(f: impl Fn(&Value, &Value) -> bool + Send + Sync + 'static) -> ReplaceFn {
    Arc::new(move |old: &Value, new: &Value| {
        if null_or_unknown(old) || null_or_unknown(new) {
            return false;
        }
        f(old, new)
    })
}

/// True only when every function is true (all are run).
pub fn all(fs: Vec<ReplaceFn>) -> ReplaceFn {
    Arc::new(move |old: &Value, new: &Value| {
        let results: Vec<bool> = fs.iter().map(|f| f(old, new)).collect();
        !results.is_empty() && results.into_iter().all(|r| r)
    })
}

/// Runs the functions in order, stopping at the first that is false; true when none was.
pub fn sequence(fs: Vec<ReplaceFn>) -> ReplaceFn {
    Arc::new(move |old: &Value, new: &Value| fs.iter().all(|f| f(old, new)))
}

/// See [`requires_replace_if`].
#[derive(Clone)]
pub struct RequiresReplaceIf {
    description: String,
    f: ReplaceFn,
}

impl RequiresReplaceIf {
    /// Build from a composed function ([`all`], [`sequence`], [`if_set`]).
    pub fn from_fn(description: impl Into<String>, f: ReplaceFn) -> RequiresReplaceIf {
        RequiresReplaceIf {
            description: description.into(),
            f,
        }
    }
}

impl PlanModifier for RequiresReplaceIf {
    fn description(&self) -> String {
        self.description.clone()
    }

    fn modify(&self, req: &ModifierRequest<'_>, resp: &mut ModifierResponse) {
        // Creates and unchanged values never replace.
        if !req.has_prior || *req.state == resp.plan {
            return;
        }
        if (self.f)(req.state, &resp.plan) {
            resp.requires_replace = true;
        }
    }
}

/// Keep the prior value of a computed attribute instead of planning it unknown.
pub fn use_state_for_unknown() -> UseStateForUnknown {
    UseStateForUnknown
}

pub struct UseStateForUnknown;

impl PlanModifier for UseStateForUnknown {
    fn description(&self) -> String {
        "Once set, the value of this attribute in state will not change.".into()
    }

    fn modify(&self, req: &ModifierRequest<'_>, resp: &mut ModifierResponse) {
        if !req.has_prior || req.state.is_null() || !req.config.is_null() {
            return;
        }
        if !resp.plan.is_known() {
            resp.plan = req.state.clone();
        }
    }
}
