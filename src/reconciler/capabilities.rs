//! Cluster capabilities (4.11+): the capability sets each CVO version knows, the enabled set
//! computed from `spec.capabilities` (baseline set, additional capabilities, capabilities that
//! cannot be disabled again and the ones the CVO always enables), the implicitly enabled list
//! behind the `ImplicitlyEnabledCapabilities` condition, and `status.capabilities`
//! (`lib/capability`, vendored `openshift/api` of each release branch).

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// `spec.capabilities`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CapabilitySpec {
    /// `baselineCapabilitySet`: `None`, `v4.11` … or `vCurrent` (the default when empty).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub baseline: String,
    /// `additionalEnabledCapabilities`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub additional: Vec<String>,
}

/// `status.capabilities`: enabled and known capabilities, each sorted as the CVO sorts them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CapabilitiesStatus {
    pub enabled: Vec<String>,
    pub known: Vec<String>,
}

/// The capabilities of a piece of work.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Capabilities {
    pub enabled: BTreeSet<String>,
    /// Enabled although the spec does not ask for it (sorted).
    pub implicit: Vec<String>,
}

impl Capabilities {
    /// `status.capabilities` for these capabilities in CVO 4.`minor`.
    pub fn status(&self, minor: u32) -> CapabilitiesStatus {
        CapabilitiesStatus {
            enabled: self.enabled.iter().cloned().collect(),
            known: known(minor),
        }
    }

    /// `SetFromImplicitlyEnabledCapabilities`: the payload's implicit list replaces the old
    /// one and each of its capabilities is enabled.
    pub fn with_payload_implicit(mut self, implicit: Vec<String>) -> Capabilities {
        self.enabled.extend(implicit.iter().cloned());
        self.implicit = implicit;
        self
    }
}

const V4_11: &[&str] = &["baremetal", "marketplace", "openshift-samples"];
const V4_12: &[&str] = &["Console", "Insights", "Storage", "CSISnapshot"];
const V4_13: &[&str] = &["NodeTuning"];
const V4_14: &[&str] = &["Build", "DeploymentConfig", "ImageRegistry"];
const V4_15: &[&str] = &["OperatorLifecycleManager", "CloudCredential"];
const V4_16: &[&str] = &["Ingress", "CloudControllerManager"];
const V4_18: &[&str] = &["OperatorLifecycleManagerV1"];
/// In `vCurrent` of HEAD only, no numbered set has them.
const HEAD_CURRENT: &[&str] = &["CompatibilityRequirements", "ClusterAPI"];

/// The capabilities of set `v4.{set}` as CVO 4.`minor` vendors it (MachineAPI joined every
/// set in 4.14).
fn numbered(set: u32, minor: u32) -> BTreeSet<String> {
    let parts: [(u32, &[&str]); 7] = [
        (11, V4_11),
        (12, V4_12),
        (13, V4_13),
        (14, V4_14),
        (15, V4_15),
        (16, V4_16),
        (18, V4_18),
    ];
    let mut out: BTreeSet<String> = parts
        .iter()
        .filter(|(since, _)| *since <= set)
        .flat_map(|(_, caps)| caps.iter().map(|c| c.to_string()))
        .collect();
    if minor >= 14 {
        out.insert("MachineAPI".into());
    }
    out
}

/// The newest numbered set CVO 4.`minor` has.
fn newest_set(minor: u32) -> u32 {
    match minor {
        0..=11 => 11,
        12..=18 => minor,
        _ => 18,
    }
}

/// The capabilities of a baseline set in CVO 4.`minor`; `None` for a set it does not have.
pub fn baseline(name: &str, minor: u32) -> Option<BTreeSet<String>> {
    match name {
        "" | "vCurrent" => {
            let mut s = numbered(newest_set(minor), minor);
            if minor >= 23 {
                s.extend(HEAD_CURRENT.iter().map(|c| c.to_string()));
            }
            Some(s)
        }
        "None" => Some(BTreeSet::new()),
        n => {
            let set: u32 = n.strip_prefix("v4.")?.parse().ok()?;
            (11..=newest_set(minor))
                .contains(&set)
                .then(|| numbered(set, minor))
        }
    }
}

/// Every capability CVO 4.`minor` knows, sorted.
pub fn known(minor: u32) -> Vec<String> {
    baseline("vCurrent", minor)
        .unwrap_or_default()
        .into_iter()
        .collect()
}

/// `SetCapabilities`: the baseline set plus the additional capabilities, plus every
/// previously enabled and always-enabled capability the spec leaves out (those are the
/// implicitly enabled ones, sorted).
pub fn set_capabilities(
    spec: &CapabilitySpec,
    prior: &BTreeSet<String>,
    always: &[String],
    minor: u32,
) -> Capabilities {
    let mut enabled = baseline(&spec.baseline, minor).unwrap_or_default();
    enabled.extend(spec.additional.iter().cloned());
    let mut implicit = BTreeSet::new();
    for c in prior.iter().chain(always) {
        if !enabled.contains(c) {
            implicit.insert(c.clone());
        }
    }
    enabled.extend(implicit.iter().cloned());
    Capabilities {
        enabled,
        implicit: implicit.into_iter().collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sets_follow_the_vendored_api() {
        assert_eq!(
            known(13),
            [
                "CSISnapshot",
                "Console",
                "Insights",
                "NodeTuning",
                "Storage",
                "baremetal",
                "marketplace",
                "openshift-samples"
            ]
        );
        assert_eq!(known(16).len(), 16);
        assert!(baseline("v4.11", 14).unwrap().contains("MachineAPI"));
        assert!(baseline("v4.14", 13).is_none());
        assert_eq!(known(23).len(), 19);
    }

    #[test]
    fn prior_and_always_enabled_capabilities_cannot_be_disabled() {
        let spec = CapabilitySpec {
            baseline: "None".into(),
            additional: vec!["baremetal".into(), "marketplace".into()],
        };
        let c = set_capabilities(&spec, &set(&["baremetal"]), &["Ingress".into()], 16);
        assert_eq!(
            c.status(16).enabled,
            ["Ingress", "baremetal", "marketplace"]
        );
        assert_eq!(c.implicit, ["Ingress"]);
    }
}
