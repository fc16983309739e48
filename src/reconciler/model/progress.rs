//! `convertErrorToProgressing`: whether the worker's failure is shown as expected progress
//! instead of Failing (cvo-reference §3.4) - the 4.1-4.6 LastProgress window, and from 4.7 the
//! update effect with the 40-minute interval and the 4.16+ slow-operator check.

use super::errors::{Effect, Failure};
use super::input::SyncInput;
use crate::model::{ClusterVersionStatus, Time};
use chrono::Duration;
use std::collections::BTreeMap;

/// What `convertErrorToProgressing` decided (cvo-reference §3.4).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProgressConversion {
    pub reason: String,
    pub message: String,
    /// The failure is treated as expected progress.
    pub skip: bool,
    /// Slow-operator text that turns Failing Unknown (4.16+).
    pub slow: Option<String>,
}

fn started_before(co: &BTreeMap<String, Time>, name: &str, threshold: Time) -> bool {
    // A CO never seen updating counts as started at the zero time, as in the CVO.
    co.get(name).is_none_or(|t| *t < threshold)
}

/// Decides whether the worker's failure is shown as progress.
pub fn convert_error_to_progressing(
    status: &ClusterVersionStatus,
    input: &SyncInput<'_>,
) -> ProgressConversion {
    let w = input.worker;
    let none = ProgressConversion::default();
    let (true, Some(Failure::Update(u)), false) =
        (!status.history.is_empty(), &w.failure, w.reconciling)
    else {
        return none;
    };
    let now = input.now;
    if !input.sem.effect_based_progress() {
        let reasons = [
            "ClusterOperatorNotAvailable",
            "ClusterOperatorsNotAvailable",
        ];
        // The CVO gives up only when *more* than the window (and more than an hour since the
        // update started) has passed: at exactly 10, 20 or 40 minutes it still shows progress.
        let window = Duration::minutes(input.sem.legacy_progress_window_minutes());
        let recent = w.last_progress.is_some_and(|t| now - t <= window);
        let young = status.history[0]
            .started_time
            .is_some_and(|t| now - t <= Duration::hours(1));
        if reasons.contains(&u.reason.as_str()) && recent && young {
            return ProgressConversion {
                reason: u.reason.clone(),
                message: format!("waiting on {}", u.name),
                skip: true,
                slow: None,
            };
        }
        return none;
    }
    let names: Vec<&str> = match u.names.is_empty() {
        true => vec![u.name.as_str()],
        false => u.names.iter().map(String::as_str).collect(),
    };
    match u.effect {
        Effect::Report => ProgressConversion {
            reason: u.reason.clone(),
            message: u.message.clone(),
            ..none
        },
        Effect::None => {
            let mut message = format!("waiting on {}", u.name);
            let mut slow = None;
            if input.sem.failing_filter_and_slow() {
                message = format!("waiting on {}", names.join(", "));
                // Only an operator whose update start this CVO has seen can be slow.
                let co = input.co_update_started;
                let seen_before = |n: &str, t: Time| co.get(n).is_some_and(|s| *s < t);
                let slow_cos: Vec<&str> = names
                    .iter()
                    .copied()
                    .filter(|n| {
                        *n != "machine-config" && seen_before(n, now - Duration::minutes(30))
                    })
                    .collect();
                let slow_mco = names.contains(&"machine-config")
                    && seen_before("machine-config", now - Duration::minutes(90));
                let text = match (slow_cos.is_empty(), slow_mco) {
                    (true, false) => None,
                    (false, false) => Some(format!(
                        "waiting on {} over 30 minutes which is longer than expected",
                        slow_cos.join(", ")
                    )),
                    (true, true) => Some(
                        "waiting on machine-config over 90 minutes which is longer than expected"
                            .into(),
                    ),
                    (false, true) => Some(format!(
                        "waiting on {} over 30 minutes and machine-config over 90 minutes which is longer than expected",
                        slow_cos.join(", ")
                    )),
                };
                if let Some(t) = text {
                    message = t.clone();
                    slow = Some(t);
                }
            }
            ProgressConversion {
                reason: u.reason.clone(),
                message,
                skip: true,
                slow,
            }
        }
        Effect::FailAfterInterval => {
            let threshold = now - Duration::minutes(40);
            let exceeded: Vec<&str> = names
                .iter()
                .copied()
                .filter(|n| started_before(input.co_update_started, n, threshold))
                .collect();
            if exceeded.is_empty() {
                ProgressConversion {
                    reason: u.reason.clone(),
                    message: format!("waiting up to 40 minutes on {}", u.name),
                    skip: true,
                    slow: None,
                }
            } else {
                ProgressConversion {
                    reason: u.reason.clone(),
                    message: format!(
                        "wait has exceeded 40 minutes for these operators: {}",
                        exceeded.join(", ")
                    ),
                    ..none
                }
            }
        }
        Effect::Fail | Effect::Unset => none,
    }
}
