//! CO rules: ClusterOperator availability, degradation, versions and progress, read during
//! or after an update.

pub mod co001_operator_unavailable;
pub mod co002_operator_degraded;
pub mod co003_operator_not_at_target;
pub mod co004_operator_progressing_too_long;
pub mod co005_operator_not_upgradeable;
pub mod co006_operator_versions_missing;

use crate::model::{ClusterOperator, Condition, Sourced};
use crate::rules::engine::{Context, RuleMeta};
use crate::rules::model::*;
use crate::rules::util::{co_ref, cond_evidence};

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

/// A finding about one ClusterOperator condition, worded
/// "`name` is {state} since {t}{context} (`reason`): message", with the condition as evidence,
/// its transition as the time and its reason in the details.
pub fn condition_finding(
    cx: &Context<'_>,
    meta: &'static RuleMeta,
    co: &Sourced<ClusterOperator>,
    (i, c): (usize, &Condition),
    state: &str,
    context: &str,
) -> Finding {
    let since = c
        .last_transition_time
        .map_or_else(String::new, |t| format!(" since {}", fmt_short(&t)));
    let reason = if c.reason.is_empty() {
        String::new()
    } else {
        format!(" (`{}`)", c.reason)
    };
    let mut f = cx.finding(
        meta,
        co_ref(co),
        format!(
            "`{}` is {state}{since}{context}{reason}: {}",
            co.metadata.name,
            one_line(&c.message, 200)
        ),
    );
    f.evidence
        .push(cond_evidence(cx, co, &co.metadata.name, i, c, "status"));
    f.at = c.last_transition_time;
    f.details.insert("reason", c.reason.clone());
    f
}
