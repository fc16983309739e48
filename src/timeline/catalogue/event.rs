//! Kubernetes event reasons of the CVO and of CI's upgrade test (as in `core/events.yaml`,
//! gather-extra `events.json` and `Event(…)` log lines) mapped to timeline event kinds.

use super::text::{preconditions, version_image};
use crate::timeline::model::EventKind;

/// Maps a CVO or CI event reason (as in events and in `Event(…)` log lines) to an event kind.
/// Returns several kinds for multi-precondition summaries; empty when the reason is not one
/// of ours.
pub fn cvo_reason_kinds(reason: &str, event_type: &str, message: &str) -> Vec<EventKind> {
    let (version, image) = version_image(message);
    let one = |k: EventKind| vec![k];
    match reason {
        "UpgradeStarted" | "UpgradeVersion" => one(EventKind::UpgradeStarted { version, image }),
        "UpgradeComplete" => one(EventKind::UpgradeComplete { version, image }),
        "UpgradeRollback" => one(EventKind::UpgradeRollback { version, image }),
        "UpgradeFailed" => one(EventKind::UpgradeFailed { version, image }),
        "RetrievePayload" if event_type != "Warning" => {
            one(EventKind::PayloadRetrieve { version, image })
        }
        "VerifyPayload" => one(EventKind::PayloadVerify { version, image }),
        "LoadPayload" => one(EventKind::PayloadLoading {
            target: crate::model::ReleaseName::new(&version, &image)
                .label()
                .to_string(),
        }),
        "PayloadLoaded" => one(EventKind::PayloadLoaded { version, image }),
        "RetrievePayloadFailed" => one(EventKind::PayloadRejected {
            step: crate::model::LoadStep::RetrievePayload,
        }),
        "LoadPayloadFailed" => one(EventKind::PayloadRejected {
            step: crate::model::LoadStep::LoadPayload,
        }),
        "VerifyPayloadVersionFailed" => one(EventKind::PayloadRejected {
            step: crate::model::LoadStep::VerifyPayloadVersion,
        }),
        "PreconditionsFailed" | "PreconditionBlock" => {
            let found = preconditions(message);
            if found.is_empty() {
                one(EventKind::PreconditionFailed {
                    name: String::new(),
                    reason: None,
                })
            } else {
                found
                    .into_iter()
                    .map(|c| EventKind::PreconditionFailed {
                        name: c.name,
                        reason: c.reason,
                    })
                    .collect()
            }
        }
        "PreconditionWarn" | "PreconditionsForced" => {
            let found = preconditions(message);
            if found.is_empty() {
                one(EventKind::PreconditionWarning {
                    name: String::new(),
                })
            } else {
                found
                    .into_iter()
                    .map(|c| EventKind::PreconditionWarning { name: c.name })
                    .collect()
            }
        }
        "PreconditionsPassed" => one(EventKind::PreconditionsPassed),
        _ => Vec::new(),
    }
}

/// The pod a `LeaderElection` event says became leader: `<pod>_<uid> became leader` (a 4.3-era
/// CVO names its host instead).
pub fn leader_pod(message: &str) -> &str {
    let holder = message.split_whitespace().next().unwrap_or("");
    holder.split('_').next().unwrap_or(holder)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leader_election_names_its_pod() {
        assert_eq!(
            leader_pod("cluster-version-operator-6f7c5d-x2x4v_3f1b2c9e-aaaa became leader"),
            "cluster-version-operator-6f7c5d-x2x4v"
        );
        assert_eq!(leader_pod("ip-10-0-1-2 became leader"), "ip-10-0-1-2");
        assert_eq!(leader_pod(""), "");
    }
}
