//! What a deviation rests on besides the ClusterVersion itself, so that a finding can say what
//! evidence it used and how far to trust it: a CVO log that dates the status sync in question,
//! a CVO log that runs up to the dump (every status sync before it is in the log), or nothing
//! but the object (a hand-assembled or edited object, or a dump without the CVO log, looks the
//! same as a CVO that wrote something else).

use super::field::StatusField;
use super::timing::{CompletionTiming, RESYNC_MAX};
use super::{Deviation, ReplayResult};
use crate::model::Time;

/// The evidence behind one deviation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Basis<'a> {
    /// The CVO log shows the pass that completed the release and the status sync after it.
    StatusSync(&'a CompletionTiming),
    /// The CVO log runs until `until`, within a resync of the dump: the status syncs that
    /// wrote the dump's current fields are in it.
    LiveLog { until: Time },
    /// Only the ClusterVersion.
    Object,
}

impl Basis<'_> {
    /// Whether evidence other than the object backs the deviation.
    pub fn corroborated(&self) -> bool {
        !matches!(self, Basis::Object)
    }

    /// A few words for a finding's confidence basis.
    pub fn label(&self) -> &'static str {
        match self {
            Basis::StatusSync(_) => "cvo-log-status-sync",
            Basis::LiveLog { .. } => "cvo-log",
            Basis::Object => "cluster-version-only",
        }
    }
}

/// Whether a field is part of what the last status sync computes (`history[0]`, desired,
/// observedGeneration, conditions), rather than an older history entry frozen long ago.
fn current(field: &StatusField) -> bool {
    match field {
        StatusField::History(i, _) | StatusField::HistoryEntry(i) => *i == 0,
        _ => true,
    }
}

impl ReplayResult {
    /// When the CVO log ends, if it covers the dump's moment (within a resync).
    pub fn live_log_until(&self) -> Option<Time> {
        let until = self.derived.log_until?;
        match self.derived.reference {
            Some(r) if r - until > RESYNC_MAX => None,
            _ => Some(until),
        }
    }

    /// What `d` rests on.
    pub fn basis_of(&self, d: &Deviation) -> Basis<'_> {
        if let Some(t) = self
            .derived
            .timings
            .iter()
            .find(|t| t.field == d.field && !t.fit.fits())
        {
            return Basis::StatusSync(t);
        }
        match self.live_log_until() {
            Some(until) if current(&d.field) => Basis::LiveLog { until },
            _ => Basis::Object,
        }
    }
}
