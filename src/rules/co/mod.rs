//! CO rules: ClusterOperator availability, degradation, versions and progress, read during
//! or after an update.

pub mod co001_operator_unavailable;
pub mod co002_operator_degraded;
pub mod co003_operator_not_at_target;
pub mod co004_operator_progressing_too_long;
pub mod co005_operator_not_upgradeable;
pub mod co006_operator_versions_missing;

use crate::rules::engine::Context;

/// ` during the update to `X`` / ` after the update to `X`` / `` (no update in the data).
pub fn update_context(cx: &Context<'_>) -> String {
    let Some(cv) = cx.bundle.cluster_version() else {
        return String::new();
    };
    match cv.status.history.first() {
        Some(h) if h.is_partial() => format!(" during the update to `{}`", h.label()),
        Some(h) if cv.status.history.len() > 1 => format!(" after the update to `{}`", h.label()),
        _ => String::new(),
    }
}
