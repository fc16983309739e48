//! CO rules: ClusterOperator versions, progress and upgradeability, read during or after an
//! update. Availability and degradation are oc's Update Health judgements: the `UH` family.

pub mod co003_operator_not_at_target;
pub mod co004_operator_progressing_too_long;
pub mod co005_operator_not_upgradeable;
pub mod co006_operator_versions_missing;

use crate::rules::engine::Context;

/// ` during the update to `X`` / ` during the install of `X`` / ` after the update to `X``
/// / `` (no update in the data), from the timeline's episodes.
pub fn update_context(cx: &Context<'_>) -> String {
    let during = cx.phase().during();
    if !during.is_empty() {
        return during;
    }
    let Some(cv) = cx.bundle.cluster_version() else {
        return String::new();
    };
    match cv.status.history.first() {
        Some(h) if h.is_completed() && cv.status.history.len() > 1 => {
            format!(" after the update to `{}`", h.label())
        }
        _ => String::new(),
    }
}
