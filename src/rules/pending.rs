//! A requested update the CVO has not accepted yet ([`pending_target`]): the only moment
//! preconditions (and so Upgradeable=False) gate anything. Read by the rules (through
//! `rules::util`) and by the engine, which holds no finding to oc's level while a request
//! waits; it reads the bundle and the timeline alone.

use crate::bundle::Bundle;
use crate::model::{Release, ReleaseName};
use crate::timeline::{LoadFact, Timeline};

/// Whether a release reference names the same release as `version`/`image`.
pub fn same(r: &Release, version: &str, image: &str) -> bool {
    r.name().same_as(ReleaseName::new(version, image))
}

/// A requested update the CVO has not accepted yet: the only moment preconditions (and so
/// Upgradeable=False) gate anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingTarget {
    /// The requested version (or image, when only an image was requested).
    pub target: String,
    /// The release that runs (the last Completed history entry).
    pub running: String,
    /// What shows it is not accepted.
    pub why: &'static str,
}

/// The requested target (`spec.desiredUpdate`) when it has not been accepted: no history
/// entry for it, `ReleaseAccepted` not True, a legacy CVO's Failing
/// `UpgradePreconditionCheckFailed`, or the CVO log's latest load result a blocking
/// precondition error. `None` when nothing is requested, the request is the running release,
/// it was forced (preconditions do not gate a forced update), or it was accepted.
pub fn pending_target(bundle: &Bundle, timeline: &Timeline) -> Option<PendingTarget> {
    let cv = bundle.cluster_version()?;
    let req = cv
        .spec
        .desired_update
        .as_ref()
        .filter(|d| d.names_release())?;
    if req.force == Some(true) {
        return None;
    }
    let running = cv
        .last_completed()
        .map(|(_, h)| h.version.clone())
        .unwrap_or_default();
    if let Some((_, h)) = cv.last_completed()
        && same(req, &h.version, &h.image)
        && cv
            .status
            .history
            .first()
            .is_some_and(|h0| h0.is_completed())
    {
        return None;
    }
    let in_history = cv
        .status
        .history
        .iter()
        .any(|h| same(req, &h.version, &h.image) && !h.is_completed());
    let not_accepted = cv
        .condition("ReleaseAccepted")
        .is_some_and(|c| !c.is_true());
    let legacy_precondition = cv
        .condition("Failing")
        .is_some_and(|c| c.is_true() && c.reason == "UpgradePreconditionCheckFailed");
    let log_precondition = timeline.loads.last().is_some_and(|l| {
        matches!(
            l.fact,
            LoadFact::PreconditionError {
                blocking: true,
                forced: false,
                ..
            }
        )
    });
    let why = if !in_history {
        "no history entry for it"
    } else if not_accepted {
        "ReleaseAccepted is not True"
    } else if legacy_precondition {
        "Failing says a precondition check failed"
    } else if log_precondition {
        "the CVO log shows a precondition failing"
    } else {
        return None;
    };
    let target = req.label().to_string();
    Some(PendingTarget {
        target,
        running,
        why,
    })
}
