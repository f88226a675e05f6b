//! Deferred changes: what a partial plan (`-allow-deferral`, Terraform's experiment of the
//! same name) leaves for a later plan, each with the reason Terraform's plan JSON gives it.

use crate::ResourceInstanceChange;
use serde::{Deserialize, Serialize};

/// Why a change waits for a later plan (the `reason` of Terraform's `deferred_changes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeferredReason {
    /// `count` or `for_each` (of the resource, or of a module call around it) is unknown.
    InstanceCountUnknown,
    /// The provider could not plan the configuration yet (a provider's own answer).
    ResourceConfigUnknown,
    /// The provider configuration the resource uses is unknown.
    ProviderConfigUnknown,
    /// Something the resource needs does not exist yet (a provider's own answer).
    AbsentPrereq,
    /// Something the resource depends on is deferred.
    DeferredPrereq,
}

impl DeferredReason {
    /// The name in `show -json`'s `deferred_changes`.
    pub fn json_name(self) -> &'static str {
        match self {
            DeferredReason::InstanceCountUnknown => "instance_count_unknown",
            DeferredReason::ResourceConfigUnknown => "resource_config_unknown",
            DeferredReason::ProviderConfigUnknown => "provider_config_unknown",
            DeferredReason::AbsentPrereq => "absent_prereq",
            DeferredReason::DeferredPrereq => "deferred_prereq",
        }
    }

    /// The plan text's explanation, as Terraform words it.
    pub fn explanation(self) -> &'static str {
        match self {
            DeferredReason::InstanceCountUnknown => {
                "because the number of resource instances is unknown"
            }
            DeferredReason::ResourceConfigUnknown => {
                "because the resource configuration is unknown"
            }
            DeferredReason::ProviderConfigUnknown => {
                "because the provider configuration is unknown"
            }
            DeferredReason::AbsentPrereq => {
                "because a prerequisite for this resource has not yet been created"
            }
            DeferredReason::DeferredPrereq => {
                "because a prerequisite for this resource is deferred"
            }
        }
    }
}

/// One deferred change: the change as far as it could be planned, and why it waits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DeferredChange {
    pub reason: DeferredReason,
    /// The address as printed. An instance key that is not known yet (of the resource, or of
    /// a module instance on its path) is Terraform's wildcard, `[*]`.
    pub address: String,
    /// The module part of `address` (empty in the root module).
    pub module_address: String,
    /// Whether the resource's own instance key is the wildcard.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub index_unknown: bool,
    /// The change; for an address with a wildcard, its `addr` holds no instance key there.
    pub change: Box<ResourceInstanceChange>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Action;
    use ferro_addrs::{AbsProviderConfig, AbsResource, InstanceKey, Resource, ResourceMode};
    use ferro_value::{Type, Value};
    use std::sync::Arc;

    #[test]
    fn reasons_have_terraforms_json_names() {
        let names: Vec<_> = [
            DeferredReason::InstanceCountUnknown,
            DeferredReason::ResourceConfigUnknown,
            DeferredReason::ProviderConfigUnknown,
            DeferredReason::AbsentPrereq,
            DeferredReason::DeferredPrereq,
        ]
        .iter()
        .map(|r| {
            // The plan file spells each as show -json does.
            let text = serde_json::to_string(r).unwrap();
            assert_eq!(text, format!("{:?}", r.json_name()));
            r.json_name()
        })
        .collect();
        assert_eq!(
            names,
            [
                "instance_count_unknown",
                "resource_config_unknown",
                "provider_config_unknown",
                "absent_prereq",
                "deferred_prereq"
            ]
        );
    }

    #[test]
    fn a_deferred_change_reads_back_as_written() {
        let resource = Resource {
            mode: ResourceMode::Managed,
            ty: "null_resource".into(),
            name: "a".into(),
        };
        let provider = AbsProviderConfig::root(ferro_addrs::Provider::default_for("null"));
        let change = crate::ResourceInstanceChange::new(
            AbsResource::root(resource).instance(InstanceKey::None),
            Arc::new(provider),
            Action::Create,
            Value::null(Type::Dynamic),
            Value::unknown(Type::Dynamic),
            0,
        );
        let d = DeferredChange {
            reason: DeferredReason::InstanceCountUnknown,
            address: "null_resource.a[*]".into(),
            module_address: String::new(),
            index_unknown: true,
            change: Box::new(change),
        };
        let text = serde_json::to_string(&d).unwrap();
        let back: DeferredChange = serde_json::from_str(&text).unwrap();
        assert_eq!(back, d);
    }
}
