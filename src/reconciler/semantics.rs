//! Which CVO behaviour the reconciler models: the flavour (fixed 4.11+ or legacy 4.1-4.10),
//! the CVO minor version that selects message wording, the Bug 1756461 history switch and
//! the history pruning variant (cvo-reference §1.4, §3, §4.3, §4.5).

use serde::{Deserialize, Serialize};

/// How the sync worker treats a new target (cvo-reference §5.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Flavour {
    /// 4.10.z/4.11+: load, verify and precondition checks run before the target becomes work;
    /// the running release keeps being reconciled while the target is rejected.
    Fixed,
    /// 4.1-4.10: the target becomes work at once and its checks run at the start of every
    /// pass; while they fail, no manifest of the running release is applied.
    Legacy,
}

impl Flavour {
    /// Parses `fixed` or `legacy`.
    pub fn parse(s: &str) -> Option<Flavour> {
        match s.trim() {
            "fixed" => Some(Flavour::Fixed),
            "legacy" => Some(Flavour::Legacy),
            _ => None,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            Flavour::Fixed => "fixed",
            Flavour::Legacy => "legacy",
        }
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
    /// 4.1-4.7: keep the newest 49 plus the most recent Completed entry.
    #[serde(rename = "keep_recent_completed_50")]
    KeepRecentCompleted50,
    /// 4.8.z-4.11: keep the initial Completed entry forever.
    #[serde(rename = "retain_initial_50")]
    RetainInitial50,
    /// 4.12+: drop the single lowest-ranked entry.
    #[serde(rename = "weighted_100")]
    Weighted100,
}

impl PruneVariant {
    pub fn parse(s: &str) -> Option<PruneVariant> {
        match s.trim() {
            "keep_recent_completed_50" => Some(PruneVariant::KeepRecentCompleted50),
            "retain_initial_50" => Some(PruneVariant::RetainInitial50),
            "weighted_100" => Some(PruneVariant::Weighted100),
            _ => None,
        }
    }

    pub fn as_str(&self) -> &'static str {
        match self {
            PruneVariant::KeepRecentCompleted50 => "keep_recent_completed_50",
            PruneVariant::RetainInitial50 => "retain_initial_50",
            PruneVariant::Weighted100 => "weighted_100",
        }
    }

    /// The maximum history length of the variant (50 or 100).
    pub fn default_max(&self) -> usize {
        match self {
            PruneVariant::Weighted100 => 100,
            _ => 50,
        }
    }

    /// The variant a CVO 4.`minor` uses.
    pub fn for_minor(minor: u32) -> PruneVariant {
        match minor {
            0..=7 => PruneVariant::KeepRecentCompleted50,
            8..=11 => PruneVariant::RetainInitial50,
            _ => PruneVariant::Weighted100,
        }
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
    /// HEAD deletes the stray `ImplicitlyEnabled` condition type.
    pub fn removes_stray_implicitly_enabled(&self) -> bool {
        self.flavour == Flavour::Fixed && self.minor >= 16
    }
    /// `N of M done (P% complete)` (4.7+) instead of a rounded `P% complete`.
    pub fn progress_n_of_m(&self) -> bool {
        self.minor >= 7
    }
    /// Failure suppression decided by UpdateEffect (4.7+) instead of the 4.1-4.6 rule.
    pub fn effect_based_progress(&self) -> bool {
        self.minor >= 7
    }
    /// CO wait errors sharing a reason are condensed into one plural error (4.7+).
    pub fn condenses_cluster_operators(&self) -> bool {
        self.minor >= 7
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

/// Parses `4.N` or `4.N.z` into N.
pub fn parse_cvo_minor(s: &str) -> Option<u32> {
    let mut parts = s.trim().split('.');
    if parts.next()? != "4" {
        return None;
    }
    let minor: u32 = parts.next()?.parse().ok()?;
    (1..=99).contains(&minor).then_some(minor)
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
        assert!(Flavour::Legacy.admits_minor(10) && Flavour::Fixed.admits_minor(10));
        assert!(!Flavour::Fixed.admits_minor(3) && !Flavour::Legacy.admits_minor(11));
    }
}
