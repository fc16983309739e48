//! Which CVO behaviour the reconciler models: the flavour (fixed 4.11+ or legacy 4.1-4.10),
//! the CVO minor version that selects message wording, the Bug 1756461 history switch and
//! the history pruning variant (cvo-reference §1.4, §3, §4.3, §4.5).

use serde::{Deserialize, Serialize};

/// How the sync worker treats a new target (cvo-reference §5.5). Its values are derived for
/// the CLI too (`reconcile --flavour`), each with the short help given there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Flavour {
    /// 4.10.z/4.11+: load, verify and precondition checks run before the target becomes work;
    /// the running release keeps being reconciled while the target is rejected.
    #[value(help = "4.11+: load, verify and check preconditions before applying")]
    Fixed,
    /// 4.1-4.10: the target becomes work at once and its checks run at the start of every
    /// pass; while they fail, no manifest of the running release is applied.
    #[value(help = "4.1-4.10: the target is applied before its checks")]
    Legacy,
}

impl Flavour {
    /// `fixed` or `legacy`, as serde (and the CLI) spell it.
    pub fn as_str(&self) -> &'static str {
        crate::vocab::names::serde_name(self)
    }

    /// The CVO minor modelled when a scenario names none: 4.16 (HEAD wording of the
    /// conformance vectors) for `fixed`, 4.3 (the seed bugs) for `legacy`.
    pub fn default_minor(&self) -> u32 {
        match self {
            Flavour::Fixed => 16,
            Flavour::Legacy => 3,
        }
    }

    /// Whether a CVO 4.`minor` can behave like this flavour (4.10 can be either).
    pub fn admits_minor(&self, minor: u32) -> bool {
        match self {
            Flavour::Fixed => minor >= 10,
            Flavour::Legacy => (1..=10).contains(&minor),
        }
    }
}

/// History pruning algorithm (cvo-reference §4.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PruneVariant {
    /// 4.1-4.5: keep the newest 49 plus the most recent Completed entry.
    #[serde(rename = "keep_recent_completed_50")]
    KeepRecentCompleted50,
    /// 4.6-4.11 (release-4.6 and release-4.7 backported it): keep the initial Completed entry.
    #[serde(rename = "retain_initial_50")]
    RetainInitial50,
    /// 4.12+: drop the single lowest-ranked entry.
    #[serde(rename = "weighted_100")]
    Weighted100,
}

impl PruneVariant {
    /// The variant's name in the scenario format (`weighted_100`).
    pub fn as_str(&self) -> &'static str {
        crate::vocab::names::serde_name(self)
    }

    /// The maximum history length of the variant (50 or 100).
    pub fn default_max(&self) -> usize {
        match self {
            PruneVariant::Weighted100 => 100,
            _ => 50,
        }
    }

    /// The variant a CVO 4.`minor` uses: release-4.6 and release-4.7 carry the
    /// retain-the-initial-Completed-entry rule in `pkg/cvo/status.go` `pruneStatusHistory`
    /// (each branch's `Test_pruneStatusHistory` pins it), 4.5 and older keep the most recent
    /// Completed entry.
    pub fn for_minor(minor: u32) -> PruneVariant {
        match minor {
            0..=5 => PruneVariant::KeepRecentCompleted50,
            6..=11 => PruneVariant::RetainInitial50,
            _ => PruneVariant::Weighted100,
        }
    }
}

/// CVO feature gates the model knows (off unless a scenario turns them on).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct FeatureGates {
    /// `ReconciliationIssuesCondition`: the `ReconciliationIssues` condition is written.
    pub reconciliation_issues_condition: bool,
    /// `UnknownVersion`: an existing `ReconciliationIssues` condition is kept up to date.
    pub unknown_version: bool,
    /// `ClusterUpdateAcceptRisks` (4.22+) on a cluster that is not hosted (the CVO's
    /// `shouldReconcileAcceptRisks`): `spec.desiredUpdate.acceptRisks` is honoured.
    pub accept_risks: bool,
    /// `CRDCompatibilityRequirementOperator` (cluster gate; 4.23+ keeps the
    /// `CompatibilityRequirements` capability only while it or `ClusterAPIMachineManagement`
    /// is on).
    pub crd_compatibility_requirement_operator: bool,
    /// `ClusterAPIMachineManagement` (cluster gate; 4.23+ keeps `ClusterAPI` and
    /// `CompatibilityRequirements` only while it is on).
    pub cluster_api_machine_management: bool,
}

impl FeatureGates {
    /// Turns on a gate by its CVO name; `false` for a name the model does not know.
    pub fn enable(&mut self, name: &str) -> bool {
        match name {
            "ReconciliationIssuesCondition" => self.reconciliation_issues_condition = true,
            "UnknownVersion" => self.unknown_version = true,
            "ClusterUpdateAcceptRisks" => self.accept_risks = true,
            "CRDCompatibilityRequirementOperator" => {
                self.crd_compatibility_requirement_operator = true
            }
            "ClusterAPIMachineManagement" => self.cluster_api_machine_management = true,
            _ => return false,
        }
        true
    }
}

/// Everything that selects behaviour and wording. Build it with [`Semantics::new`] and adjust
/// the public fields; the methods answer "does this CVO do X".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Semantics {
    pub flavour: Flavour,
    /// CVO minor version (4.`minor`).
    pub minor: u32,
    /// `true`: the Bug 1756461 fix (a Completed predecessor keeps its completionTime).
    pub history_fix: bool,
    pub prune: PruneVariant,
    /// Maximum history length (50 or 100 normally; tests use 10).
    pub max_history: usize,
    pub gates: FeatureGates,
}

impl Semantics {
    /// Defaults for a flavour and an optional minor: history fix on, pruning as that minor.
    pub fn new(flavour: Flavour, minor: Option<u32>) -> Semantics {
        let minor = minor.unwrap_or_else(|| flavour.default_minor());
        let prune = PruneVariant::for_minor(minor);
        Semantics {
            flavour,
            minor,
            history_fix: true,
            prune,
            max_history: prune.default_max(),
            gates: FeatureGates::default(),
        }
    }

    /// The fixed flavour at its default minor (4.16).
    pub fn fixed() -> Semantics {
        Semantics::new(Flavour::Fixed, None)
    }

    /// The legacy flavour at its default minor (4.3).
    pub fn legacy() -> Semantics {
        Semantics::new(Flavour::Legacy, None)
    }

    /// `ReleaseAccepted` is reported (4.10.z backport, 4.11+).
    pub fn release_accepted(&self) -> bool {
        self.flavour == Flavour::Fixed
    }
    /// `ImplicitlyEnabledCapabilities` is always present (4.11+).
    pub fn implicitly_enabled_capabilities(&self) -> bool {
        self.flavour == Flavour::Fixed && self.minor >= 11
    }
    /// The stray `ImplicitlyEnabled` condition type (OCPBUGS-56114) is deleted (4.19+).
    pub fn removes_stray_implicitly_enabled(&self) -> bool {
        self.flavour == Flavour::Fixed && self.minor >= 19
    }
    /// `status.capabilities` and the capability machinery (4.11+).
    pub fn capabilities(&self) -> bool {
        self.flavour == Flavour::Fixed && self.minor >= 11
    }
    /// The `ReconciliationIssues` condition behind its feature gates (4.16-4.19; 4.20 removes a
    /// leftover one).
    pub fn reconciliation_issues(&self) -> bool {
        self.flavour == Flavour::Fixed && (16..=19).contains(&self.minor)
    }
    /// `spec.desiredUpdate.acceptRisks` is reconciled (`shouldReconcileAcceptRisks`: CVO
    /// 4.22+ with the `ClusterUpdateAcceptRisks` gate): a desired update holding only
    /// `acceptRisks` is valid; with the gate off (or before 4.22) `acceptRisks` is forbidden.
    pub fn reconciles_accept_risks(&self) -> bool {
        self.flavour == Flavour::Fixed && self.minor >= 22 && self.gates.accept_risks
    }
    /// `Upgradeable` is built from risk sources at every status sync (4.23+, 5.x, main:
    /// `setUpgradeableCondition`, pkg/risk), without the `Upgradeable*` sub-conditions.
    pub fn risk_based_upgradeable(&self) -> bool {
        self.flavour == Flavour::Fixed && self.minor >= 23
    }
    /// Capabilities whose feature gate is off are left out of the known, enabled and
    /// implicitly enabled sets (4.23+, lib/capability `excludedCapabilities`).
    pub fn excludes_gated_capabilities(&self) -> bool {
        self.minor >= 23
    }
    /// `ValidateClusterVersion` knows `acceptRisks` (4.22+): forbidden while the gate is off.
    pub fn validates_accept_risks(&self) -> bool {
        self.minor >= 22
    }
    /// 4.20 deletes a `ReconciliationIssues` condition left by a TechPreview cluster.
    pub fn removes_reconciliation_issues(&self) -> bool {
        self.flavour == Flavour::Fixed && self.minor == 20
    }
    /// The first Operator.sync after a restart hands the worker only the CVO's own release and
    /// re-queues the spec target (OCPBUGS-35228, 4.14+); before, the spec target went to the
    /// uninitialised worker directly.
    pub fn initializes_on_own_release(&self) -> bool {
        self.minor >= 14
    }
    /// A missing version, url and channels are filled from the CVO's own release when the
    /// worker applies the CVO's own image, and from the available updates (4.6+).
    pub fn backfills_release_metadata(&self) -> bool {
        self.minor >= 6
    }
    /// While history has no Completed entry, a new target image is ignored (4.6+).
    pub fn ignores_target_change_while_installing(&self) -> bool {
        self.minor >= 6
    }
    /// A missing operator image is the UpdateError `NoDesiredImage` (4.5+); before it is a
    /// plain error (no reason, `an error occurred`).
    pub fn no_desired_image_reason(&self) -> bool {
        self.minor >= 5
    }
    /// The precondition framework and `UpgradePreconditionCheckFailed` (4.3+).
    pub fn preconditions(&self) -> bool {
        self.minor >= 3
    }
    /// The `WorkloadNotAvailable` / `WorkloadNotProgressing` summaries (4.4+).
    pub fn workload_summaries(&self) -> bool {
        self.minor >= 4
    }
    /// The `ClusterOperatorNoVersions` reason and summary (4.12+; 4.7-4.11 report a CO
    /// without versions as `ClusterOperatorNotAvailable`).
    pub fn no_versions_reason(&self) -> bool {
        self.minor >= 12
    }
    /// The `Report` update effect (4.12+): a degraded operator during installation is
    /// reported without failing the pass. Before, a degraded operator is tolerated while
    /// installing and no error is raised.
    pub fn report_effect(&self) -> bool {
        self.minor >= 12
    }
    /// `N of M done (P% complete)` (4.7+) instead of a rounded `P% complete`.
    pub fn progress_n_of_m(&self) -> bool {
        self.minor >= 7
    }
    /// Failure suppression decided by UpdateEffect (4.7+) instead of the 4.1-4.6 rule.
    pub fn effect_based_progress(&self) -> bool {
        self.minor >= 7
    }
    /// CO wait errors sharing a reason are condensed into one plural error (4.12+); before,
    /// `ClusterOperatorNotAvailable` errors are hidden behind more specific ones, or merged
    /// into `ClusterOperatorsNotAvailable` when they are all there is.
    pub fn condenses_cluster_operators(&self) -> bool {
        self.minor >= 12
    }
    /// None-effect errors filtered out of Failing; slow operators (4.16+).
    pub fn failing_filter_and_slow(&self) -> bool {
        self.minor >= 16
    }
    /// history.acceptedRisks populated (4.12+).
    pub fn accepted_risks(&self) -> bool {
        self.minor >= 12
    }
    /// `architecture=` part in the PayloadLoaded message (4.12+).
    pub fn payload_message_architecture(&self) -> bool {
        self.minor >= 12
    }
    /// `the cluster operator X is not available` wording (4.12+).
    pub fn new_operator_summaries(&self) -> bool {
        self.minor >= 12
    }
    /// `an unknown error has occurred: {reason}` (4.5+).
    pub fn unknown_error_names_reason(&self) -> bool {
        self.minor >= 5
    }
    /// status.desired is an `Update` with `force` (4.1-4.5).
    pub fn desired_has_force(&self) -> bool {
        self.minor <= 5
    }
    /// status.desired carries url and channels (4.6+).
    pub fn desired_has_metadata(&self) -> bool {
        self.minor >= 6
    }
    /// Progressing `Working towards X: downloading update` while retrieving (before PR #683).
    pub fn downloading_update(&self) -> bool {
        self.flavour == Flavour::Legacy
    }
    /// Non-blocking precondition warnings and the `Forced through blocking failures: ` prefix (4.10+).
    pub fn nonblocking_preconditions(&self) -> bool {
        self.minor >= 10
    }
    /// The attempt counter resets on success and grows only on failure (4.8+).
    pub fn attempt_resets_on_success(&self) -> bool {
        self.minor >= 8
    }
    /// 4.1-4.6 suppression window for a ClusterOperatorNotAvailable failure, in minutes.
    pub fn legacy_progress_window_minutes(&self) -> i64 {
        match self.minor {
            0..=4 => 10,
            5 => 20,
            _ => 40,
        }
    }
}

/// Parses `4.N` or `4.N.z` into N. `5.N` (the 5.x line) parses as 100 + N: it has every
/// behaviour of the newest 4.x. `main` is the CVO's main branch, modelled as 5.1 (the
/// branches were at one commit, 6e719331f, when last compared).
pub fn parse_cvo_minor(s: &str) -> Option<u32> {
    if s.trim() == "main" {
        return Some(101);
    }
    let mut parts = s.trim().split('.');
    let major = parts.next()?;
    let minor: u32 = parts.next()?.parse().ok()?;
    match major {
        "4" => (1..=99).contains(&minor).then_some(minor),
        "5" => (minor <= 99).then_some(100 + minor),
        _ => None,
    }
}

/// `4.N`, or `5.N` for the 5.x line.
pub fn minor_label(minor: u32) -> String {
    match minor {
        100.. => format!("5.{}", minor - 100),
        m => format!("4.{m}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_minor() {
        let l = Semantics::legacy();
        assert_eq!(
            (l.minor, l.prune, l.max_history),
            (3, PruneVariant::KeepRecentCompleted50, 50)
        );
        let f = Semantics::fixed();
        assert_eq!(
            (f.minor, f.prune, f.max_history),
            (16, PruneVariant::Weighted100, 100)
        );
        assert_eq!(
            Semantics::new(Flavour::Fixed, Some(11)).prune,
            PruneVariant::RetainInitial50
        );
    }

    #[test]
    fn cvo_minor_parses_and_flavours_admit_it() {
        assert_eq!(parse_cvo_minor("4.3"), Some(3));
        assert_eq!(parse_cvo_minor("4.10.12"), Some(10));
        assert_eq!(parse_cvo_minor("3.11"), None);
        assert_eq!(parse_cvo_minor("5.1"), Some(101));
        assert_eq!(parse_cvo_minor("main"), Some(101));
        assert_eq!(parse_cvo_minor("4.22"), Some(22));
        assert_eq!(minor_label(101), "5.1");
        assert!(Flavour::Legacy.admits_minor(10) && Flavour::Fixed.admits_minor(10));
        assert!(!Flavour::Fixed.admits_minor(3) && !Flavour::Legacy.admits_minor(11));
    }
}
