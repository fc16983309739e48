//! Which CVO wrote the dump's status: the release of the CVO pod that ran last. Its minor
//! selects the wording and rules the replay models (`cvo_version`). An update replaces the
//! CVO's own Deployment among its first manifests, so the CVO that writes the status during
//! and after an accepted update is the target's; while a target is rejected (its checks fail,
//! nothing of it is applied) the CVO of the release before it still runs.

use super::cx::Cx;
use super::requests::Req;
use crate::reconciler::model::semantics::parse_cvo_minor;

/// The CVO that wrote the dump, as far as the evidence shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Writer {
    /// Its release (version, or image when no version is known).
    pub release: String,
    /// 4.`minor`.
    pub minor: u32,
    /// What the choice rests on, in a few words.
    pub basis: String,
}

/// The version a CVO Pod object runs, from its image and what history names it.
fn pod_release(cx: &Cx<'_>) -> Option<(String, String)> {
    let pod = cx
        .bundle
        .objects
        .cvo_pods
        .iter()
        .max_by_key(|p| (p.metadata.creation_timestamp, p.metadata.name.clone()))?;
    let image = pod
        .spec
        .containers
        .iter()
        .find(|c| c.name == "cluster-version-operator")
        .or(pod.spec.containers.first())
        .map(|c| c.image.as_str())
        .filter(|i| !i.is_empty())?;
    let version = cx
        .hist
        .iter()
        .find(|h| h.image == image && !h.version.is_empty())
        .map(|h| h.version.clone())?;
    Some((
        version,
        format!("the image of CVO pod `{}`", pod.metadata.name),
    ))
}

/// The CVO that wrote the dump: the one a CVO Pod object runs; else the release of
/// `status.history[0]` when its update was accepted (or it is Completed); else the newest
/// Completed entry (`history[0]` is a target that was never applied).
pub fn infer(cx: &Cx<'_>, reqs: &[Req]) -> Option<Writer> {
    let from = |release: String, basis: String| {
        parse_cvo_minor(&release).map(|minor| Writer {
            release,
            minor,
            basis,
        })
    };
    if let Some((v, basis)) = pod_release(cx)
        && let Some(w) = from(v, basis)
    {
        return Some(w);
    }
    let head = cx.hist.first()?;
    let rejected = reqs
        .iter()
        .rev()
        .find(|r| r.hist == Some(0))
        .is_some_and(|r| r.first_failure.is_some() && !r.accepted_later);
    if head.is_completed() || !rejected {
        let basis = if head.is_completed() {
            "`status.history[0]`, Completed".to_string()
        } else {
            "`status.history[0]`, an accepted update: its CVO replaces the old one first"
                .to_string()
        };
        if let Some(w) = from(head.version.clone(), basis) {
            return Some(w);
        }
    }
    cx.hist
        .iter()
        .enumerate()
        .filter(|(_, h)| h.is_completed())
        .find_map(|(i, h)| {
            let basis = match rejected {
                true => format!(
                    "`status.history[{i}]`, the newest Completed entry (history[0]'s target was rejected)"
                ),
                false => format!("`status.history[{i}]`, the newest Completed entry"),
            };
            from(h.version.clone(), basis)
        })
}
