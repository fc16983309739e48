//! Cluster capabilities (4.11+): the capability sets each CVO version knows, the enabled set
//! computed from `spec.capabilities` (baseline set, additional capabilities, capabilities that
//! cannot be disabled again and the ones the CVO always enables), the implicitly enabled list
//! behind the `ImplicitlyEnabledCapabilities` condition, and `status.capabilities`
//! (`lib/capability`, vendored `openshift/api` of each release branch).

use super::semantics::Semantics;
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
    /// `status.capabilities` for these capabilities in this CVO (4.23+: without the
    /// capabilities whose feature gates are all off).
    pub fn status(&self, sem: &Semantics) -> CapabilitiesStatus {
        let excluded = excluded(sem);
        CapabilitiesStatus {
            enabled: self.enabled.iter().cloned().collect(),
            known: known(sem.minor)
                .into_iter()
                .filter(|c| !excluded.contains(c))
                .collect(),
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

/// `excludedCapabilities` (4.23+): `CompatibilityRequirements` unless
/// `CRDCompatibilityRequirementOperator` or `ClusterAPIMachineManagement` is on, `ClusterAPI`
/// unless `ClusterAPIMachineManagement` is on (the cluster's feature gates for this version).
pub fn excluded(sem: &Semantics) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if !sem.excludes_gated_capabilities() {
        return out;
    }
    let g = &sem.gates;
    if !(g.crd_compatibility_requirement_operator || g.cluster_api_machine_management) {
        out.insert("CompatibilityRequirements".to_string());
    }
    if !g.cluster_api_machine_management {
        out.insert("ClusterAPI".to_string());
    }
    out
}

/// `SetCapabilities`: the baseline set plus the additional capabilities, plus every
/// previously enabled and always-enabled capability the spec leaves out (those are the
/// implicitly enabled ones, sorted); 4.23+ without the excluded capabilities.
pub fn set_capabilities(
    spec: &CapabilitySpec,
    prior: &BTreeSet<String>,
    always: &[String],
    sem: &Semantics,
) -> Capabilities {
    let minor = sem.minor;
    let excluded = excluded(sem);
    let mut enabled = baseline(&spec.baseline, minor).unwrap_or_default();
    enabled.extend(spec.additional.iter().cloned());
    let mut implicit = BTreeSet::new();
    for c in prior.iter().chain(always) {
        if !enabled.contains(c) {
            implicit.insert(c.clone());
        }
    }
    enabled.extend(implicit.iter().cloned());
    enabled.retain(|c| !excluded.contains(c));
    implicit.retain(|c| !excluded.contains(c));
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
        let sem = Semantics::new(super::super::semantics::Flavour::Fixed, Some(16));
        let c = set_capabilities(&spec, &set(&["baremetal"]), &["Ingress".into()], &sem);
        assert_eq!(
            c.status(&sem).enabled,
            ["Ingress", "baremetal", "marketplace"]
        );
        assert_eq!(c.implicit, ["Ingress"]);
    }

    /// release-4.23 lib/capability `excludedCapabilities`: a capability whose feature gates
    /// are all off is neither known nor enabled, not even when asked for or enabled before.
    #[test]
    fn capabilities_behind_an_off_gate_are_excluded_from_4_23() {
        use super::super::semantics::Flavour;
        let spec = CapabilitySpec {
            baseline: "vCurrent".into(),
            additional: vec!["ClusterAPI".into()],
        };
        let prior = set(&["CompatibilityRequirements"]);
        let mut sem = Semantics::new(Flavour::Fixed, Some(23));
        let c = set_capabilities(&spec, &prior, &[], &sem);
        let st = c.status(&sem);
        for gated in ["ClusterAPI", "CompatibilityRequirements"] {
            assert!(
                !st.known.contains(&gated.to_string()) && !st.enabled.contains(&gated.to_string())
            );
        }
        assert!(c.implicit.is_empty());
        sem.gates.enable("CRDCompatibilityRequirementOperator");
        let st = set_capabilities(&spec, &prior, &[], &sem).status(&sem);
        assert!(st.known.contains(&"CompatibilityRequirements".to_string()));
        assert!(!st.known.contains(&"ClusterAPI".to_string()));
        sem.gates.enable("ClusterAPIMachineManagement");
        let st = set_capabilities(&spec, &prior, &[], &sem).status(&sem);
        assert!(st.enabled.contains(&"ClusterAPI".to_string()));
        // 4.22 knows neither, so there is nothing to exclude.
        let old = Semantics::new(Flavour::Fixed, Some(22));
        assert!(excluded(&old).is_empty());
    }
}
